//! Tasks: one coding problem each, with the prompt a model sees and the tests that judge its code.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Identifier of a task, unique within a benchmark (`HumanEval/0`, `demo/3`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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
    Python,
}

/// One coding problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Task {
    /// Unique id within the benchmark.
    pub id: TaskId,
    /// Language of the code under test.
    #[serde(default)]
    pub language: Language,
    /// What the model sees; a `completion` sample is appended to it.
    pub prompt: String,
    /// Name of the function the tests call, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_point: Option<String>,
    /// Known-good solutions, as whole programs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<String>,
    /// The test suites; a sample passes when every suite passes.
    pub tests: Vec<TestSuite>,
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
}

impl TestSuite {
    /// Number of individually counted cases.
    pub fn case_count(&self) -> usize {
        match self {
            TestSuite::Assertions { cases, .. } => cases.len(),
        }
    }
}

/// One counted test case of an assertion suite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssertionCase {
    /// Short name shown in results (`check`, `assert 2`).
    pub name: String,
    /// Code executed in the candidate's namespace; it passes when it raises nothing.
    pub code: String,
}

impl Task {
    /// All cases of all suites, in order, with the setup code of their suite.
    pub fn assertion_cases(&self) -> impl Iterator<Item = (&str, &AssertionCase)> {
        self.tests.iter().flat_map(|suite| match suite {
            TestSuite::Assertions { setup, cases } => {
                cases.iter().map(move |c| (setup.as_str(), c))
            }
        })
    }

    /// Total number of counted cases.
    pub fn case_count(&self) -> usize {
        self.tests.iter().map(TestSuite::case_count).sum()
    }
}
