//! MBPP's format: a description, a reference program and a list of asserts, each counted as a case.

use super::python_asserts;
use crate::task::{AssertionCase, Language, Task, TaskId, TestSuite};
use serde::Deserialize;

/// A problem record as MBPP ships it.
#[derive(Debug, Deserialize)]
pub(crate) struct Problem {
    task_id: serde_json::Value,
    text: String,
    code: String,
    test_list: Vec<String>,
    #[serde(default)]
    test_setup_code: String,
    #[serde(default)]
    challenge_test_list: Vec<String>,
}

impl Problem {
    /// The task: samples are whole programs; every assert (challenge ones included) is a case.
    pub(crate) fn into_task(self) -> Task {
        let task_id = match self.task_id {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        };
        let asserts: Vec<String> = self
            .test_list
            .into_iter()
            .chain(self.challenge_test_list)
            .collect();
        // Host-judged calls when every assert has a shape python_asserts knows.
        let tests = match python_asserts::mbpp_asserts(&asserts) {
            Ok((entry_point, cases)) => TestSuite::Calls {
                setup: self.test_setup_code,
                entry_point,
                tolerance: 0.0,
                cases,
            },
            Err(_) => TestSuite::Assertions {
                setup: self.test_setup_code,
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
        Task {
            id: TaskId(task_id),
            language: Language::Python,
            prompt: self.text,
            entry_point: None,
            references: vec![self.code.into()],
            metadata: super::humaneval::benchmark_metadata("MBPP"),
            tests: vec![tests],
            ..Task::default()
        }
    }
}
