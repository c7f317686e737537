//! A model's answer (chat text) as a sample: the code in it, and whether that code is a whole
//! program or a completion of the task's prompt. Shared by the server's SandboxFusion `/submit`
//! and the Python package's reward functions, so both read an answer the same way.

use crate::sample::{Sample, SampleCode};
use crate::task::Task;

/// How the code was found in an answer (SandboxFusion's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extraction {
    /// A fenced block (```` ```lang ... ``` ````).
    Fenced,
    /// A fence that was opened and never closed: the rest of the answer.
    IncompleteFenced,
    /// No fence: the whole answer.
    Heuristic,
    /// Nothing but whitespace.
    Empty,
}

impl Extraction {
    /// SandboxFusion's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Extraction::Fenced => "fenced",
            Extraction::IncompleteFenced => "incomplete_fenced",
            Extraction::Heuristic => "heuristic",
            Extraction::Empty => "empty",
        }
    }
}

/// The code of an answer: its first fenced block, else the whole answer.
pub fn extract_code(answer: &str) -> (String, Extraction) {
    if let Some(start) = answer.find("```") {
        let after = &answer[start + 3..];
        let body_start = after.find('\n').map_or(after.len(), |n| n + 1);
        let body = &after[body_start..];
        return match body.find("```") {
            Some(end) => (body[..end].to_owned(), Extraction::Fenced),
            None => (body.to_owned(), Extraction::IncompleteFenced),
        };
    }
    if answer.trim().is_empty() {
        return (String::new(), Extraction::Empty);
    }
    (answer.to_owned(), Extraction::Heuristic)
}

/// `answer` as a sample of `task`: the extracted code is a whole program when it defines the
/// task's entry point, else a completion appended to the prompt.
pub fn sample_from_answer(task: &Task, answer: &str, index: u64) -> (Sample, Extraction) {
    let (code, extraction) = extract_code(answer);
    let defines_entry = task.entry_point.as_deref().is_some_and(|entry| {
        code.contains(&format!("def {entry}("))
            || code.contains(&format!("function {entry}("))
            || code.contains(&format!("fn {entry}("))
            || code.contains(&format!(" {entry}("))
    });
    let code = if defines_entry {
        SampleCode::Solution(code)
    } else {
        SampleCode::Completion(code)
    };
    let sample = Sample {
        index,
        task_id: task.id.clone(),
        model: None,
        code,
        info: Default::default(),
    };
    (sample, extraction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_is_taken_from_the_first_fenced_block() {
        assert_eq!(
            extract_code("Here:\n```python\ndef f():\n    return 1\n```\nDone."),
            ("def f():\n    return 1\n".to_owned(), Extraction::Fenced)
        );
        assert_eq!(
            extract_code("```py\nx = 1\n").1,
            Extraction::IncompleteFenced
        );
        assert_eq!(extract_code("    return 1\n").1, Extraction::Heuristic);
        assert_eq!(extract_code("  ").1, Extraction::Empty);
    }

    #[test]
    fn an_answer_defining_the_entry_point_is_a_whole_program() {
        let task = Task {
            entry_point: Some("add".into()),
            ..Task::default()
        };
        let (whole, _) =
            sample_from_answer(&task, "```python\ndef add(a, b):\n    return a + b\n```", 0);
        assert!(matches!(whole.code, SampleCode::Solution(_)));
        let (completion, _) = sample_from_answer(&task, "    return a + b\n", 0);
        assert!(matches!(completion.code, SampleCode::Completion(_)));
    }
}
