//! ScenEval's task records (Paul, Zhu and Bayley, 2024): scenario metadata under ScenEval's own
//! field names, the given solution as the reference, and its test cases as an `io` suite.

use crate::task::{
    Complexity, IoCase, Language, Metadata, OutputComparison, Reference, Source, SourceKind, Task,
    TaskId, TestSuite, DEFAULT_TOLERANCE,
};
use serde::Deserialize;
use serde_json::Value;

/// A ScenEval record. Fields ScenEval leaves empty or out are optional here.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Problem {
    #[serde(rename = "problemID")]
    problem_id: Value,
    #[serde(default)]
    problem_title: Option<String>,
    #[serde(default)]
    problem_description: Option<String>,
    #[serde(default)]
    included_topics: Option<Value>,
    #[serde(default)]
    complexity: Option<Value>,
    #[serde(default)]
    cyclomatic_complexity: Option<Value>,
    #[serde(default)]
    year_of_posting_query: Option<Value>,
    #[serde(default)]
    source_type: Option<String>,
    #[serde(default)]
    book_name: Option<String>,
    #[serde(default)]
    chapter_name: Option<String>,
    #[serde(default, rename = "WebSourceName")]
    web_source_name: Option<String>,
    #[serde(default, rename = "WebAddress")]
    web_address: Option<String>,
    #[serde(default)]
    given_solution: Option<String>,
    #[serde(default)]
    test_cases: Vec<TestCase>,
    program_language: String,
    #[serde(default)]
    version: Option<String>,
}

#[derive(Debug, Deserialize)]
struct TestCase {
    #[serde(default)]
    input: String,
    output: String,
}

/// A text or number field as text; empty text is absent.
fn text(value: Option<Value>) -> Option<String> {
    match value? {
        Value::String(s) if s.trim().is_empty() => None,
        Value::String(s) => Some(s.trim().to_owned()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn non_empty(value: Option<String>) -> Option<String> {
    value.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
}

fn whole_number(field: &str, value: Option<Value>) -> Result<Option<u32>, String> {
    match text(value) {
        None => Ok(None),
        Some(s) => s
            .parse::<u32>()
            .map(Some)
            .map_err(|_| format!("`{field}` must be a whole number, not `{s}`")),
    }
}

impl Problem {
    pub(crate) fn into_task(self) -> Result<Task, String> {
        let id = text(Some(self.problem_id)).ok_or("`problemID` must be a string or a number")?;
        let language = Language::parse(&self.program_language)
            .ok_or_else(|| format!("unknown `programLanguage` `{}`", self.program_language))?;
        let kind = match self.source_type.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(kind) => Some(match kind.to_ascii_lowercase().as_str() {
                "textbook" | "book" => SourceKind::Textbook,
                "web" | "website" | "online" | "tutorial" => SourceKind::Web,
                "forum" | "stackoverflow" | "stack overflow" => SourceKind::Forum,
                "synthetic" => SourceKind::Synthetic,
                "benchmark" => SourceKind::Benchmark,
                other => return Err(format!("unknown `sourceType` `{other}`")),
            }),
        };
        let source = kind.map(|kind| Source {
            kind,
            name: non_empty(self.book_name).or(non_empty(self.web_source_name)),
            chapter: non_empty(self.chapter_name),
            url: non_empty(self.web_address),
        });
        let topics = match self.included_topics {
            Some(Value::Array(items)) => items.into_iter().filter_map(|t| text(Some(t))).collect(),
            // Some records list topics in one comma-separated string.
            Some(Value::String(s)) => s
                .split(',')
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty())
                .collect(),
            _ => Vec::new(),
        };
        let complexity = Complexity {
            cyclomatic: whole_number("cyclomaticComplexity", self.cyclomatic_complexity)?,
            ..Complexity::default()
        };
        let title = non_empty(self.problem_title).unwrap_or_default();
        let description = non_empty(self.problem_description).unwrap_or_else(|| title.clone());
        let cases: Vec<IoCase> = self
            .test_cases
            .into_iter()
            .enumerate()
            .map(|(i, case)| IoCase {
                name: format!("case {}", i + 1),
                stdin: case.input,
                stdout: case.output,
            })
            .collect();
        Ok(Task {
            id: TaskId(id),
            title,
            language,
            version: non_empty(self.version),
            prompt: description.clone(),
            description,
            entry_point: None,
            prelude: String::new(),
            time_limit: None,
            metadata: Metadata {
                source,
                topics,
                year: whole_number("yearOfPostingQuery", self.year_of_posting_query)?,
                // ScenEval's `complexity` is a grade of the task, not a code metric.
                difficulty: text(self.complexity),
                complexity,
                tags: Vec::new(),
            },
            references: non_empty(self.given_solution)
                .map(|code| Reference {
                    code,
                    complexity,
                    ..Reference::default()
                })
                .into_iter()
                .collect(),
            tests: if cases.is_empty() {
                Vec::new()
            } else {
                vec![TestSuite::Io {
                    group: "given".into(),
                    compare: OutputComparison::Whitespace,
                    tolerance: DEFAULT_TOLERANCE,
                    cases,
                }]
            },
        })
    }
}
