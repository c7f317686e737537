//! Samples: code a model produced for a task.

use crate::task::{Task, TaskId};
use serde::{Deserialize, Serialize};

/// One model output for one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Position of the record in its samples file, from 0: the sample's identity within a run
    /// (results and resumption are keyed by it).
    pub index: u64,
    /// The task the sample answers.
    pub task_id: TaskId,
    /// The model that produced it, when the file says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The code.
    #[serde(flatten)]
    pub code: SampleCode,
}

/// How a sample's code relates to the task's prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SampleCode {
    /// Text appended to the prompt (human-eval style).
    Completion(String),
    /// A whole program that defines the entry point itself (EvalPlus style).
    Solution(String),
}

impl Sample {
    /// The candidate program: the prompt followed by the completion, or the solution alone.
    pub fn program(&self, task: &Task) -> String {
        match &self.code {
            SampleCode::Completion(completion) => format!("{}{}", task.prompt, completion),
            SampleCode::Solution(solution) => solution.clone(),
        }
    }
}
