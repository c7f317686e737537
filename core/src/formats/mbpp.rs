//! MBPP's format: a description, a reference program and a list of asserts, each counted as a case.
//! Also its sanitized edition (`sanitized-mbpp.json`), which names the description `prompt` and
//! lists the imports its asserts need (`math` for `math.isclose`) in `test_imports`: they run
//! after the candidate and before the asserts, with `test_setup_code`.

use super::python_asserts;
use crate::task::{AssertionCase, Language, Task, TaskId, TestSuite};
use serde::Deserialize;

/// A problem record as MBPP ships it.
#[derive(Debug, Deserialize)]
pub(crate) struct Problem {
    task_id: serde_json::Value,
    /// The description (original MBPP).
    #[serde(default)]
    text: Option<String>,
    /// The description (sanitized MBPP).
    #[serde(default)]
    prompt: Option<String>,
    code: String,
    test_list: Vec<String>,
    #[serde(default)]
    test_setup_code: String,
    /// Import statements the asserts need (sanitized MBPP).
    #[serde(default)]
    test_imports: Option<Vec<String>>,
    #[serde(default)]
    challenge_test_list: Vec<String>,
}

impl Problem {
    /// Whether the record is sanitized MBPP's (`prompt` for `text`, or `test_imports`).
    pub(crate) fn is_sanitized(&self) -> bool {
        self.test_imports.is_some() || (self.text.is_none() && self.prompt.is_some())
    }

    /// The task: samples are whole programs; every assert (challenge ones included) is a case.
    pub(crate) fn into_task(self) -> Result<Task, String> {
        let task_id = match self.task_id {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        };
        let Some(prompt) = self.text.or(self.prompt) else {
            return Err(format!(
                "task `{task_id}`: missing field `text` (MBPP) or `prompt` (sanitized MBPP)"
            ));
        };
        // The tests' imports, then the tests' own setup: both run before the first assert.
        let setup: Vec<String> = self
            .test_imports
            .unwrap_or_default()
            .into_iter()
            .chain((!self.test_setup_code.is_empty()).then_some(self.test_setup_code))
            .collect();
        let setup = setup.join("\n");
        let asserts: Vec<String> = self
            .test_list
            .into_iter()
            .chain(self.challenge_test_list)
            .collect();
        // Host-judged calls when every assert has a shape python_asserts knows.
        let tests = match python_asserts::mbpp_asserts(&asserts) {
            Ok((entry_point, cases)) => TestSuite::Calls {
                setup,
                entry_point,
                tolerance: 0.0,
                cases,
            },
            Err(_) => TestSuite::Assertions {
                setup,
                cases: asserts
                    .into_iter()
                    .enumerate()
                    .map(|(i, code)| AssertionCase {
                        name: format!("assert {}", i + 1),
                        code,
                    })
                    .collect(),
            },
        };
        Ok(Task {
            id: TaskId(task_id),
            language: Language::Python,
            prompt,
            entry_point: None,
            references: vec![self.code.into()],
            metadata: super::humaneval::benchmark_metadata("MBPP"),
            tests: vec![tests],
            time_limit: Some(super::humaneval::REFERENCE_SECONDS),
            ..Task::default()
        })
    }
}
