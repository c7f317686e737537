//! Static quality metrics of a piece of code (ScenEval used PMD; Ságodi et al. SonarQube and
//! SourceMeter): size, statements and complexity, per program and per function. The runner computes
//! them from a real parser; this module only holds them.

use serde::{Deserialize, Serialize};

/// Metrics of a whole program (a sample or a reference).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeMetrics {
    /// Lines of code: lines with code on them, not counting blank and comment-only lines.
    pub loc: u32,
    /// Logical lines of code: lines that hold at least one statement.
    pub lloc: u32,
    /// Lines in all, comments and blank lines included (SourceMeter's LOC).
    pub cloc: u32,
    /// Lines that contain a comment (CL).
    pub cl: u32,
    /// Number of statements (NOS).
    pub nos: u32,
    /// McCabe's cyclomatic complexity of the program: the sum over functions of 1 + decision
    /// points (branches, loops, `case`s, `catch`es, boolean operators, conditional expressions),
    /// plus top-level code's decision points, plus 1 when there is no function at all (the
    /// runner's `analysis` module documents every choice).
    pub cyclomatic: u32,
    /// SonarSource's cognitive complexity, summed over functions and top-level code.
    pub cognitive: u32,
    /// Deepest nesting of control structures (an `else if` chain counts once).
    pub max_nesting: u32,
    /// Per function, in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<FunctionMetrics>,
}

/// Metrics of one function (or method, or named closure).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionMetrics {
    /// Its name (`<lambda>`, `<closure>` or, in JavaScript, `<anonymous>` for anonymous ones; a
    /// JavaScript function expression or arrow function takes its variable's name).
    pub name: String,
    /// The line it starts on, from 1.
    pub line: u32,
    /// Lines of code of its whole definition (signature and nested functions included).
    pub loc: u32,
    /// Statements in its own code (a nested function's definition is one; its body's are not).
    pub nos: u32,
    /// Its cyclomatic complexity (1 + decision points).
    pub cyclomatic: u32,
    /// Its cognitive complexity.
    pub cognitive: u32,
    /// Its deepest nesting.
    pub max_nesting: u32,
}

/// Why a program has no metrics: the reports count these apart from the samples compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotAnalysed {
    /// Mostly unparseable: syntax errors over half of the source.
    SyntaxErrors,
    /// No grammar for the language (Java).
    Language,
    /// Longer than the analyser reads (the runner's `analysis::MAX_ANALYSED_BYTES`).
    TooLong,
    /// Nested deeper than the analyser walks.
    TooDeep,
    /// The sample's record was not read (longer than `--max-sample-bytes`).
    NotRead,
    /// Not recorded: results written before wasmeval said why.
    Unknown,
}

impl NotAnalysed {
    /// Every reason, in the order reports list them.
    pub const ALL: [NotAnalysed; 6] = [
        NotAnalysed::SyntaxErrors,
        NotAnalysed::Language,
        NotAnalysed::TooLong,
        NotAnalysed::TooDeep,
        NotAnalysed::NotRead,
        NotAnalysed::Unknown,
    ];

    /// The reason as reports print it after a count (`2 with syntax errors`).
    pub fn describe(self) -> &'static str {
        match self {
            NotAnalysed::SyntaxErrors => "with syntax errors",
            NotAnalysed::Language => "in a language with no analyser",
            NotAnalysed::TooLong => "too long to analyse",
            NotAnalysed::TooDeep => "nested too deep to analyse",
            NotAnalysed::NotRead => "not read (over --max-sample-bytes)",
            NotAnalysed::Unknown => "without a recorded reason",
        }
    }
}
