//! PSB2, the Program Synthesis Benchmark Suite 2 (Helmuth and Kelly, 2021), as stdin/stdout tasks.
//!
//! PSB2 comes in two files, read together by [`tasks`]:
//!
//! - the problem descriptions: one JSON object `{"<problem>": "<text>", ...}`;
//! - the cases, JSON Lines of `{"problem", "case_index", "kind", "inputs": {"input1": .., ..},
//!   "outputs": {"output1": .., ..}}`, where each input and output is a number, a string, a boolean
//!   or a list of numbers.
//!
//! Every problem with at least one case becomes one task (`PSB2/<problem>`, in the order the cases
//! file first names them; descriptions of problems without cases are ignored). Its cases become
//! one `io` suite per `kind` (`edge`, `random`), named by `case_index`, so results say `edge/3`.
//!
//! # Layout on standard input and output
//!
//! A case's inputs are written to stdin **one per line**, in the order `input1`, `input2`, ...;
//! its outputs are expected on stdout one per line, `output1` first. Every line ends with `\n`.
//!
//! | value | one line |
//! |---|---|
//! | integer, float | the number as the dataset writes it (`7`, `-3`, `100.0`, `0.5833333`) |
//! | string | the string itself, unquoted, even when empty or made of spaces (a string holding a line break is an error) |
//! | boolean | `true` or `false` |
//! | list | its elements separated by single spaces; an empty list is an empty line (elements must be numbers, booleans, or strings without whitespace; nested lists are an error) |
//!
//! So a program reads a line per input (`input()` / `read_line`), splits list lines on whitespace,
//! and prints one line per output. The prompt is the description followed by this layout, spelled
//! out for the problem's own inputs and outputs (from the types its cases hold).
//!
//! # Comparison
//!
//! Per problem, from the outputs of all its cases:
//! - `epsilon` (tolerance [`DEFAULT_TOLERANCE`], absolute or relative) when any output is a float
//!   (a number written with `.`, `e` or `E`) or a list holding one: PSB2's float outputs are the
//!   results of arithmetic that a correct program may round differently (`0.5833333` is 7/12);
//! - `exact` when some expected string has whitespace that token comparison would lose (leading or
//!   trailing spaces, runs of spaces, a line of spaces: `middle-character`);
//! - `whitespace` otherwise.
//!
//! Descriptions extracted from PDFs hold typographic ligatures (`ﬁ`); they are replaced by plain
//! letters.

use super::jsonl::{records, FormatError};
use crate::task::{
    IoCase, Language, Metadata, OutputComparison, Source, SourceKind, Task, TaskId, TestSuite,
    DEFAULT_TOLERANCE,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::{BTreeMap, BTreeSet};

/// Reads PSB2's descriptions (`descriptions_file`, one JSON object) and cases (`cases_file`, JSON
/// Lines) into one task per problem, in `language`. File names are used in errors only.
pub fn tasks(
    descriptions_file: &str,
    descriptions: &str,
    cases_file: &str,
    cases: &str,
    language: Language,
) -> Result<Vec<Task>, FormatError> {
    let descriptions: BTreeMap<String, String> =
        serde_json::from_str(descriptions).map_err(|e| {
            FormatError::new(
                descriptions_file,
                e.line() as u64,
                format!("psb2 descriptions: expected {{\"problem\": \"text\", ...}}: {e}"),
            )
        })?;

    let mut problems: Vec<Problem> = Vec::new();
    let mut seen = BTreeSet::new();
    for (line, record) in records(cases) {
        let err = |message: String| FormatError::new(cases_file, line, message);
        let case: CaseRecord =
            serde_json::from_str(record).map_err(|e| err(format!("psb2 case: {e}")))?;
        if !seen.insert((case.problem.clone(), case.kind.clone(), case.case_index)) {
            return Err(err(format!(
                "duplicate case {} of kind `{}` of problem `{}`",
                case.case_index, case.kind, case.problem
            )));
        }
        let inputs = numbered("input", &case.inputs).map_err(err)?;
        let outputs = numbered("output", &case.outputs).map_err(err)?;
        let index = match problems.iter().position(|p| p.name == case.problem) {
            Some(index) => index,
            None => {
                let description = descriptions.get(&case.problem).ok_or_else(|| {
                    err(format!(
                        "problem `{}` has no description in {descriptions_file}",
                        case.problem
                    ))
                })?;
                problems.push(Problem {
                    name: case.problem.clone(),
                    description: plain_letters(description),
                    input_shapes: vec![Shape::default(); inputs.len()],
                    output_shapes: vec![Shape::default(); outputs.len()],
                    suites: Vec::new(),
                    float_outputs: false,
                    spaced_strings: false,
                });
                problems.len() - 1
            }
        };
        let problem = &mut problems[index];
        if inputs.len() != problem.input_shapes.len()
            || outputs.len() != problem.output_shapes.len()
        {
            return Err(err(format!(
                "problem `{}`: {} inputs and {} outputs, but its first case has {} and {}",
                problem.name,
                inputs.len(),
                outputs.len(),
                problem.input_shapes.len(),
                problem.output_shapes.len()
            )));
        }
        let mut stdin = String::new();
        for (i, value) in inputs.iter().enumerate() {
            problem.input_shapes[i].add(value);
            stdin.push_str(&line_of(value).map_err(|m| err(format!("input{}: {m}", i + 1)))?);
            stdin.push('\n');
        }
        let mut stdout = String::new();
        for (i, value) in outputs.iter().enumerate() {
            problem.output_shapes[i].add(value);
            problem.float_outputs |= value.has_float();
            problem.spaced_strings |= value.has_spaced_string();
            stdout.push_str(&line_of(value).map_err(|m| err(format!("output{}: {m}", i + 1)))?);
            stdout.push('\n');
        }
        let io_case = IoCase {
            name: case.case_index.to_string(),
            stdin,
            stdout,
        };
        match problem
            .suites
            .iter_mut()
            .find(|(kind, _)| *kind == case.kind)
        {
            Some((_, cases)) => cases.push(io_case),
            None => problem.suites.push((case.kind, vec![io_case])),
        }
    }
    Ok(problems
        .into_iter()
        .map(|p| p.into_task(language))
        .collect())
}

/// One line of the cases file.
#[derive(Deserialize)]
struct CaseRecord {
    problem: String,
    case_index: u64,
    kind: String,
    inputs: BTreeMap<String, Box<RawValue>>,
    outputs: BTreeMap<String, Box<RawValue>>,
}

/// A problem being read.
struct Problem {
    name: String,
    description: String,
    input_shapes: Vec<Shape>,
    output_shapes: Vec<Shape>,
    /// The cases of each kind, kinds in the order the file first names them.
    suites: Vec<(String, Vec<IoCase>)>,
    float_outputs: bool,
    spaced_strings: bool,
}

impl Problem {
    fn into_task(self, language: Language) -> Task {
        let compare = if self.float_outputs {
            OutputComparison::Epsilon
        } else if self.spaced_strings {
            OutputComparison::Exact
        } else {
            OutputComparison::Whitespace
        };
        let mut prompt = self.description.clone();
        prompt.push_str("\n\nRead the inputs from standard input, one per line:\n");
        for (i, shape) in self.input_shapes.iter().enumerate() {
            prompt.push_str(&format!("{}. {}\n", i + 1, shape.describe()));
        }
        prompt.push_str("Print the outputs to standard output, one per line:\n");
        for (i, shape) in self.output_shapes.iter().enumerate() {
            prompt.push_str(&format!("{}. {}\n", i + 1, shape.describe()));
        }
        Task {
            id: TaskId(format!("PSB2/{}", self.name)),
            title: self.name,
            language,
            prompt,
            description: self.description,
            metadata: Metadata {
                source: Some(Source {
                    kind: SourceKind::Benchmark,
                    name: Some("PSB2".into()),
                    chapter: None,
                    url: None,
                }),
                ..Metadata::default()
            },
            tests: self
                .suites
                .into_iter()
                .map(|(group, cases)| TestSuite::Io {
                    group,
                    compare,
                    tolerance: DEFAULT_TOLERANCE,
                    cases,
                })
                .collect(),
            ..Task::default()
        }
    }
}

/// An input or output value, numbers kept as the dataset writes them.
#[derive(Debug, Clone, PartialEq)]
enum Datum {
    Int(String),
    Float(String),
    Str(String),
    Bool(bool),
    List(Vec<Datum>),
}

impl Datum {
    fn parse(raw: &RawValue) -> Result<Datum, String> {
        let text = raw.get().trim();
        let bad = |e: serde_json::Error| e.to_string();
        Ok(match text.as_bytes().first() {
            Some(b'[') => Datum::List(
                serde_json::from_str::<Vec<Box<RawValue>>>(text)
                    .map_err(bad)?
                    .iter()
                    .map(|item| Datum::parse(item))
                    .collect::<Result<_, _>>()?,
            ),
            Some(b'"') => Datum::Str(serde_json::from_str(text).map_err(bad)?),
            Some(b't' | b'f') => Datum::Bool(serde_json::from_str(text).map_err(bad)?),
            Some(b'-' | b'0'..=b'9') if text.contains(['.', 'e', 'E']) => {
                Datum::Float(text.to_owned())
            }
            Some(b'-' | b'0'..=b'9') => Datum::Int(text.to_owned()),
            _ => return Err(format!("unsupported value `{text}`")),
        })
    }

    fn has_float(&self) -> bool {
        match self {
            Datum::Float(_) => true,
            Datum::List(items) => items.iter().any(Datum::has_float),
            _ => false,
        }
    }

    /// A string whose spaces a token comparison would not see.
    fn has_spaced_string(&self) -> bool {
        match self {
            Datum::Str(s) => {
                !s.is_empty()
                    && (s.trim() != s
                        || s.contains("  ")
                        || s.chars().any(|c| c.is_whitespace() && c != ' '))
            }
            Datum::List(items) => items.iter().any(Datum::has_spaced_string),
            _ => false,
        }
    }
}

/// The values of `input1`, `input2`, ... (or outputs) in order; names must run from 1 without gaps.
fn numbered(prefix: &str, fields: &BTreeMap<String, Box<RawValue>>) -> Result<Vec<Datum>, String> {
    let mut values: Vec<(usize, Datum)> = Vec::new();
    for (name, raw) in fields {
        let number = name
            .strip_prefix(prefix)
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("`{name}`: expected fields `{prefix}1`, `{prefix}2`, ..."))?;
        values.push((
            number,
            Datum::parse(raw).map_err(|m| format!("{name}: {m}"))?,
        ));
    }
    values.sort_by_key(|(n, _)| *n);
    if values.iter().enumerate().any(|(i, (n, _))| *n != i + 1) {
        return Err(format!(
            "`{prefix}` fields must be numbered 1, 2, ... without gaps"
        ));
    }
    Ok(values.into_iter().map(|(_, v)| v).collect())
}

/// A value as its line of stdin or stdout (without the line break).
fn line_of(value: &Datum) -> Result<String, String> {
    Ok(match value {
        Datum::Int(n) | Datum::Float(n) => n.clone(),
        Datum::Bool(b) => b.to_string(),
        Datum::Str(s) if s.contains(['\n', '\r']) => {
            return Err("a string with a line break cannot be one line".into())
        }
        Datum::Str(s) => s.clone(),
        Datum::List(items) => {
            let mut words = Vec::with_capacity(items.len());
            for item in items {
                words.push(match item {
                    Datum::List(_) => return Err("nested lists have no one-line layout".into()),
                    Datum::Str(s) if s.is_empty() || s.contains(char::is_whitespace) => {
                        return Err(format!(
                            "list element {s:?} is empty or holds whitespace: \
                             no space-separated layout"
                        ))
                    }
                    item => line_of(item)?,
                });
            }
            words.join(" ")
        }
    })
}

/// What the values at one input or output position have been, over a problem's cases.
#[derive(Debug, Clone, Default)]
struct Shape {
    int: bool,
    float: bool,
    string: bool,
    boolean: bool,
    list: bool,
    list_int: bool,
    list_float: bool,
    list_string: bool,
    list_boolean: bool,
}

impl Shape {
    fn add(&mut self, value: &Datum) {
        match value {
            Datum::Int(_) => self.int = true,
            Datum::Float(_) => self.float = true,
            Datum::Str(_) => self.string = true,
            Datum::Bool(_) => self.boolean = true,
            Datum::List(items) => {
                self.list = true;
                for item in items {
                    match item {
                        Datum::Int(_) => self.list_int = true,
                        Datum::Float(_) => self.list_float = true,
                        Datum::Str(_) => self.list_string = true,
                        Datum::Bool(_) => self.list_boolean = true,
                        Datum::List(_) => {}
                    }
                }
            }
        }
    }

    /// The line's content in words, for the prompt.
    fn describe(&self) -> String {
        let number = |int: bool, float: bool| match (int, float) {
            (true, false) => "integer",
            (false, true) => "float",
            _ => "number",
        };
        let mut kinds: Vec<String> = Vec::new();
        if self.int || self.float {
            kinds.push(match number(self.int, self.float) {
                "integer" => "an integer".into(),
                word => format!("a {word}"),
            });
        }
        if self.string {
            kinds.push("a string (the whole line, possibly empty)".into());
        }
        if self.boolean {
            kinds.push("`true` or `false`".into());
        }
        if self.list {
            let element = if self.list_string {
                "words".to_owned()
            } else if self.list_boolean {
                "`true`/`false` values".to_owned()
            } else {
                format!(
                    "{}s",
                    number(self.list_int || !self.list_float, self.list_float)
                )
            };
            kinds.push(format!(
                "a vector of {element}, separated by spaces (an empty line for an empty vector)"
            ));
        }
        if kinds.is_empty() {
            "a value".into()
        } else {
            kinds.join(", or ")
        }
    }
}

/// Replaces the typographic ligatures PDF extraction leaves in text (`ﬁ` → `fi`).
fn plain_letters(text: &str) -> String {
    text.replace('\u{FB00}', "ff")
        .replace('\u{FB01}', "fi")
        .replace('\u{FB02}', "fl")
        .replace('\u{FB03}', "ffi")
        .replace('\u{FB04}', "ffl")
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESCRIPTIONS: &str = r#"{
 "add-up": "Given a vector of integers, return their sum and their count.",
 "halve": "Given a number, return half of it. Deﬁnitely.",
 "centre": "Given a string, return its middle character.",
 "unused": "No cases."
}"#;

    const CASES: &str = r#"{"problem": "add-up", "case_index": 0, "kind": "edge", "inputs": {"input1": []}, "outputs": {"output1": 0, "output2": 0}}
{"problem": "halve", "case_index": 0, "kind": "edge", "inputs": {"input1": 3}, "outputs": {"output1": 1.5}}
{"problem": "add-up", "case_index": 1, "kind": "edge", "inputs": {"input1": [4, -2, 10]}, "outputs": {"output1": 12, "output2": 3}}
{"problem": "centre", "case_index": 0, "kind": "edge", "inputs": {"input1": " ab  "}, "outputs": {"output1": "b "}}
{"problem": "add-up", "case_index": 0, "kind": "random", "inputs": {"input1": [7]}, "outputs": {"output1": 7, "output2": 1}}
"#;

    fn read(cases: &str) -> Result<Vec<Task>, FormatError> {
        tasks("d.json", DESCRIPTIONS, "c.jsonl", cases, Language::Rust)
    }

    fn io(task: &Task, suite: usize) -> (&str, OutputComparison, &[IoCase]) {
        let TestSuite::Io {
            group,
            compare,
            cases,
            ..
        } = &task.tests[suite]
        else {
            panic!("expected an io suite")
        };
        (group, *compare, cases)
    }

    #[test]
    fn problems_become_io_tasks_one_line_per_value() {
        let tasks = read(CASES).unwrap();
        let ids: Vec<&str> = tasks.iter().map(|t| t.id.0.as_str()).collect();
        assert_eq!(ids, ["PSB2/add-up", "PSB2/halve", "PSB2/centre"]);

        let add_up = &tasks[0];
        assert_eq!(add_up.language, Language::Rust);
        assert_eq!(add_up.title, "add-up");
        let source = add_up.metadata.source.as_ref().unwrap();
        assert_eq!(
            (source.kind, source.name.as_deref()),
            (SourceKind::Benchmark, Some("PSB2"))
        );
        let (group, compare, cases) = io(add_up, 0);
        assert_eq!((group, compare), ("edge", OutputComparison::Whitespace));
        assert_eq!(cases[0].name, "0");
        assert_eq!(cases[0].stdin, "\n");
        assert_eq!(cases[0].stdout, "0\n0\n");
        assert_eq!(cases[1].stdin, "4 -2 10\n");
        assert_eq!(cases[1].stdout, "12\n3\n");
        let (group, _, cases) = io(add_up, 1);
        assert_eq!((group, cases.len()), ("random", 1));
        assert!(
            add_up.prompt.starts_with(
                "Given a vector of integers, return their sum and their count.\n\n\
                 Read the inputs from standard input, one per line:\n\
                 1. a vector of integers, separated by spaces (an empty line for an empty vector)\n\
                 Print the outputs to standard output, one per line:\n\
                 1. an integer\n2. an integer\n"
            ),
            "{}",
            add_up.prompt
        );

        // A float output: epsilon.
        let halve = &tasks[1];
        assert_eq!(
            halve.description,
            "Given a number, return half of it. Definitely."
        );
        let (_, compare, cases) = io(halve, 0);
        assert_eq!(compare, OutputComparison::Epsilon);
        assert_eq!(
            (cases[0].stdin.as_str(), cases[0].stdout.as_str()),
            ("3\n", "1.5\n")
        );
        assert!(halve.prompt.ends_with(
            "1. an integer\nPrint the outputs to standard output, one per line:\n1. a float\n"
        ));

        // Significant spaces: exact, strings as they are.
        let (_, compare, cases) = io(&tasks[2], 0);
        assert_eq!(compare, OutputComparison::Exact);
        assert_eq!(
            (cases[0].stdin.as_str(), cases[0].stdout.as_str()),
            (" ab  \n", "b \n")
        );
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let e = read("\n{\"problem\": \"nope\", \"case_index\": 0, \"kind\": \"edge\", \"inputs\": {}, \"outputs\": {}}\n")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "c.jsonl:2: problem `nope` has no description in d.json"
        );

        let dup = format!(
            "{}\n{}",
            CASES.lines().next().unwrap(),
            CASES.lines().next().unwrap()
        );
        let e = read(&dup).unwrap_err();
        assert_eq!(
            e.to_string(),
            "c.jsonl:2: duplicate case 0 of kind `edge` of problem `add-up`"
        );

        let e = read(r#"{"problem": "halve", "case_index": 0, "kind": "edge", "inputs": {"input2": 1}, "outputs": {"output1": 1}}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "c.jsonl:1: `input` fields must be numbered 1, 2, ... without gaps"
        );

        let e = read(r#"{"problem": "centre", "case_index": 0, "kind": "edge", "inputs": {"input1": "a\nb"}, "outputs": {"output1": "a"}}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "c.jsonl:1: input1: a string with a line break cannot be one line"
        );

        let e = read(r#"{"problem": "add-up", "case_index": 0, "kind": "edge", "inputs": {"input1": [[1]]}, "outputs": {"output1": 1, "output2": 1}}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "c.jsonl:1: input1: nested lists have no one-line layout"
        );

        let e = read(&format!("{}\n{}", CASES.lines().next().unwrap(), r#"{"problem": "add-up", "case_index": 5, "kind": "edge", "inputs": {"input1": []}, "outputs": {"output1": 0}}"#)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("c.jsonl:2: problem `add-up`: 1 inputs and 1 outputs"),
            "{e}"
        );

        let e = tasks("d.json", "{\n\"a\": 1}", "c.jsonl", "", Language::Python).unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("d.json", 2));
    }

    #[test]
    fn the_fixture_files_read() {
        let tasks = tasks(
            "descriptions.json",
            include_str!("../../../tests/fixtures/psb2/descriptions.json"),
            "cases.jsonl",
            include_str!("../../../tests/fixtures/psb2/cases.jsonl"),
            Language::Python,
        )
        .unwrap();
        assert_eq!(tasks.len(), 3);
        assert!(tasks.iter().all(|t| t.case_count() > 0));
    }
}
