//! Code from a model's answer: a fenced block, preferring the task's language; the rest of an
//! answer whose fence never closes; else the whole answer. Which rule fired is recorded with the
//! sample, so a low pass rate can be told apart from answers the extraction misread.

use super::template::AnswerKind;
use crate::sample::SampleCode;
use crate::task::{Language, Task};
use serde::{Deserialize, Serialize};

/// Which rule found the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExtractionRule {
    /// A closed fenced block tagged with the task's language.
    FenceInLanguage,
    /// A closed fenced block, untagged or tagged otherwise.
    Fence,
    /// An opening fence that never closes (the answer ran out of tokens): the rest of the answer.
    OpenFence,
    /// No fence: the whole answer.
    WholeAnswer,
}

impl ExtractionRule {
    /// The name written in samples files.
    pub fn as_str(self) -> &'static str {
        match self {
            ExtractionRule::FenceInLanguage => "fence_in_language",
            ExtractionRule::Fence => "fence",
            ExtractionRule::OpenFence => "open_fence",
            ExtractionRule::WholeAnswer => "whole_answer",
        }
    }
}

/// The code found in an answer, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The code.
    pub code: String,
    /// The rule that found it.
    pub rule: ExtractionRule,
}

struct Block {
    tag: String,
    body: String,
    closed: bool,
}

/// The fenced blocks of `answer` (``` or ~~~ fences, up to three spaces of indentation).
fn blocks(answer: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut open: Option<(String, Block)> = None;
    for line in answer.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let indent = content.len() - content.trim_start_matches(' ').len();
        let trimmed = content.trim_start_matches(' ');
        let fence_len = |c: char| trimmed.chars().take_while(|&x| x == c).count();
        let fence = match (fence_len('`'), fence_len('~')) {
            (n, _) if n >= 3 && indent <= 3 => Some("`".repeat(n)),
            (_, n) if n >= 3 && indent <= 3 => Some("~".repeat(n)),
            _ => None,
        };
        match (&mut open, fence) {
            (Some((opener, _)), Some(f))
                if f.starts_with(opener.as_str()) && trimmed[f.len()..].trim().is_empty() =>
            {
                let (_, mut block) = open.take().expect("open");
                block.closed = true;
                found.push(block);
            }
            (Some((_, block)), _) => block.body.push_str(line),
            (None, Some(f)) => {
                let tag = trimmed[f.len()..].trim().to_owned();
                open = Some((
                    f,
                    Block {
                        tag,
                        body: String::new(),
                        closed: false,
                    },
                ));
            }
            (None, None) => {}
        }
    }
    if let Some((_, block)) = open {
        found.push(block);
    }
    found
}

/// Whether a fence's tag (```` ```py ````, ```` ```c++ title ````) names `language`.
fn tag_names(tag: &str, language: Language) -> bool {
    let word = tag
        .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let aliases: &[&str] = match language {
        Language::Python => &["python", "py", "python3"],
        Language::Javascript => &["javascript", "js", "node", "mjs"],
        Language::Typescript => &["typescript", "ts"],
        Language::Cpp => &["cpp", "c++", "cc", "cxx", "hpp"],
        Language::C => &["c", "h"],
        Language::Rust => &["rust", "rs"],
        Language::Go => &["go", "golang"],
        Language::Ruby => &["ruby", "rb"],
        Language::Lua => &["lua"],
        Language::Java => &["java"],
    };
    aliases.contains(&word.as_str())
}

/// The code of `answer` for a task in `language`. Among several blocks, the first that mentions
/// `entry_point` wins, else the first.
pub fn extract_code(answer: &str, language: Language, entry_point: Option<&str>) -> Extracted {
    let all = blocks(answer);
    let pick = |candidates: Vec<&Block>| -> Option<String> {
        let by_entry = entry_point
            .filter(|e| !e.is_empty())
            .and_then(|e| candidates.iter().find(|b| b.body.contains(e)));
        by_entry.or(candidates.first()).map(|b| b.body.clone())
    };
    let closed = |in_language: bool| -> Vec<&Block> {
        all.iter()
            .filter(|b| b.closed && tag_names(&b.tag, language) == in_language)
            .collect()
    };
    if let Some(code) = pick(closed(true)) {
        return Extracted {
            code,
            rule: ExtractionRule::FenceInLanguage,
        };
    }
    if let Some(code) = pick(closed(false)) {
        return Extracted {
            code,
            rule: ExtractionRule::Fence,
        };
    }
    if let Some(block) = all.iter().find(|b| !b.closed) {
        return Extracted {
            code: block.body.clone(),
            rule: ExtractionRule::OpenFence,
        };
    }
    Extracted {
        code: answer.to_owned(),
        rule: ExtractionRule::WholeAnswer,
    }
}

/// The sample code of an answer to `task` asked for as `kind`. A completion answer without a
/// fence is the continuation itself; a fenced block that defines the entry point is a whole
/// program (a chat model that repeats the signature), as is every solution answer.
pub fn sample_code(answer: &str, task: &Task, kind: AnswerKind) -> (SampleCode, ExtractionRule) {
    let extracted = extract_code(answer, task.language, task.entry_point.as_deref());
    let code = match kind {
        AnswerKind::Solution => SampleCode::Solution(extracted.code),
        AnswerKind::Completion if extracted.rule == ExtractionRule::WholeAnswer => {
            SampleCode::Completion(extracted.code)
        }
        AnswerKind::Completion => {
            let defines = task
                .entry_point
                .as_deref()
                .is_some_and(|e| defines_function(&extracted.code, e, task.language));
            match defines {
                true => SampleCode::Solution(extracted.code),
                false => SampleCode::Completion(extracted.code),
            }
        }
    };
    (code, extracted.rule)
}

/// Whether `code` defines a function named `name` (by the language's definition keyword, or for
/// C-like languages the name followed by `(` at a line's start or after a type).
fn defines_function(code: &str, name: &str, language: Language) -> bool {
    let patterns: Vec<String> = match language {
        Language::Python => vec![format!("def {name}(")],
        Language::Javascript | Language::Typescript => {
            vec![format!("function {name}("), format!("{name} = ")]
        }
        Language::Rust => vec![format!("fn {name}(")],
        Language::Go => vec![format!("func {name}(")],
        Language::Ruby => vec![format!("def {name}(")],
        Language::Lua => vec![format!("function {name}("), format!("{name} = function")],
        Language::C | Language::Cpp | Language::Java => vec![format!(" {name}(")],
    };
    patterns.iter().any(|p| code.contains(p.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefers_the_task_languages_block_then_any_then_an_open_fence_then_all() {
        let answer = "Here:\n```text\nnot code\n```\n```python\ndef f():\n    return 1\n```\nDone.";
        let e = extract_code(answer, Language::Python, Some("f"));
        assert_eq!(e.rule, ExtractionRule::FenceInLanguage);
        assert_eq!(e.code, "def f():\n    return 1\n");

        let e = extract_code("```\nint f() {}\n```", Language::Cpp, None);
        assert_eq!(
            (e.rule, e.code.as_str()),
            (ExtractionRule::Fence, "int f() {}\n")
        );

        let e = extract_code("Sure!\n```rust\nfn f() {\n    loop {", Language::Rust, None);
        assert_eq!(e.rule, ExtractionRule::OpenFence);
        assert_eq!(e.code, "fn f() {\n    loop {");

        let e = extract_code("    return a + b\n", Language::Python, None);
        assert_eq!(e.rule, ExtractionRule::WholeAnswer);
        assert_eq!(e.code, "    return a + b\n");
    }

    #[test]
    fn among_blocks_of_the_language_the_one_with_the_entry_point_wins() {
        let answer =
            "```py\nprint(add(1, 2))\n```\n\n```python\ndef add(a, b):\n    return a + b\n```\n";
        let e = extract_code(answer, Language::Python, Some("def add"));
        assert_eq!(e.code, "def add(a, b):\n    return a + b\n");
        // Tags with more words and longer fences are read too.
        let e = extract_code("~~~~c++ title=x\nint g();\n~~~~\n", Language::Cpp, None);
        assert_eq!(
            (e.rule, e.code.as_str()),
            (ExtractionRule::FenceInLanguage, "int g();\n")
        );
    }

    #[test]
    fn a_fenced_completion_that_defines_the_entry_point_is_a_solution() {
        let task = Task {
            entry_point: Some("add".into()),
            prompt: "def add(a, b):\n".into(),
            ..Task::default()
        };
        let (code, rule) = sample_code("    return a + b\n", &task, AnswerKind::Completion);
        assert_eq!(code, SampleCode::Completion("    return a + b\n".into()));
        assert_eq!(rule, ExtractionRule::WholeAnswer);
        let (code, _) = sample_code(
            "```python\ndef add(a, b):\n    return a + b\n```",
            &task,
            AnswerKind::Completion,
        );
        assert_eq!(
            code,
            SampleCode::Solution("def add(a, b):\n    return a + b\n".into())
        );
    }
}
