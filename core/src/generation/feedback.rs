//! The feedback of a failed attempt: what the next attempt's prompt says about the failure
//! (`generate --attempts K`), from the sample's result, in a template of its own
//! (docs/generate.md).

use super::template::{AnswerKind, Template};
use crate::results::{SampleResult, Verdict};
use crate::task::{Language, Task};

/// The default feedback template; its placeholders are [`FEEDBACK_FIELDS`].
pub const FEEDBACK_TEMPLATE: &str = "\
The code failed the tests: {{verdict}}.
Failing case: {{case}}
Message: {{message}}
Output: {{output}}
Fix it, and answer with the whole corrected program in one code block.";

/// The names a feedback template may use.
pub const FEEDBACK_FIELDS: [&str; 6] = [
    "verdict", "case", "message", "output", "attempt", "language",
];

/// Characters of the failing execution's output the feedback quotes.
pub const OUTPUT_EXCERPT: usize = 1000;

/// Why an attempt failed, as the feedback tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The verdict (`wrong_answer`).
    pub verdict: Verdict,
    /// The first failing case's name, when a case failed (not a compile error).
    pub case: Option<String>,
    /// That case's test as the task states it (an assertion, a call and its expected value):
    /// not in the default template, which keeps the tests hidden as benchmarks intend.
    pub test: Option<String>,
    /// Its message, or the sample's.
    pub message: Option<String>,
    /// The start of what the program printed (stdout, then stderr).
    pub output: String,
}

impl Failure {
    /// The failure of `result`, a sample of `task`, or `None` when it passed.
    pub fn of(result: &SampleResult, task: &Task) -> Option<Failure> {
        if result.verdict == Verdict::Passed {
            return None;
        }
        let case = result.cases.iter().find(|c| c.verdict != Verdict::Passed);
        let mut output = String::new();
        for part in [&result.stdout, &result.stderr] {
            if !part.is_empty() {
                if !output.is_empty() {
                    output.push('\n');
                }
                output.push_str(part);
            }
        }
        Some(Failure {
            verdict: case.map_or(result.verdict, |c| c.verdict),
            case: case.map(|c| c.name.clone()),
            test: case.and_then(|c| {
                task.case_tests()
                    .into_iter()
                    .find(|(name, _)| *name == c.name)
                    .map(|(_, test)| test)
            }),
            message: case
                .and_then(|c| c.message.clone())
                .or_else(|| result.message.clone()),
            output: excerpt(&output, OUTPUT_EXCERPT),
        })
    }

    /// The feedback text: `template` filled in for attempt `attempt` in `language`.
    pub fn render(&self, template: &Template, attempt: u32, language: Language) -> String {
        template.render_with(|name| match name {
            "verdict" => Some(self.verdict.as_str().to_owned()),
            "case" => self.case.clone(),
            "test" => self.test.clone(),
            "message" => self.message.clone(),
            "output" => Some(self.output.clone()),
            "attempt" => Some(attempt.to_string()),
            "language" => Some(language.title().to_owned()),
            _ => None,
        })
    }
}

/// The default feedback template, parsed.
pub fn default_template() -> Template {
    parse_template("feedback", FEEDBACK_TEMPLATE).expect("the default feedback template parses")
}

/// A feedback template from its text.
pub fn parse_template(name: &str, text: &str) -> Result<Template, String> {
    Template::parse(name, text, AnswerKind::Solution, &FEEDBACK_FIELDS)
}

/// `text` cut to at most `max` characters, with a note when cut.
fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.trim_end().to_owned(),
        Some((end, _)) => format!("{}\n[... {} more bytes]", &text[..end], text.len() - end),
    }
}

/// `text` as line comments of `language`, for base models that continue a program: the feedback
/// of a completion-API attempt is written into the code.
pub fn as_comment(text: &str, language: Language) -> String {
    let prefix = match language {
        Language::Python => "# ",
        _ => "// ",
    };
    text.lines()
        .map(|line| format!("{prefix}{line}").trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::CaseResult;

    #[test]
    fn the_first_failing_case_is_told_with_its_message_and_output() {
        let base = SampleResult::for_sample(&crate::sample::Sample {
            index: 0,
            task_id: "t".into(),
            model: None,
            code: crate::sample::SampleCode::Solution(String::new()),
            info: Default::default(),
        });
        let result = SampleResult {
            verdict: Verdict::WrongAnswer,
            cases: vec![
                CaseResult {
                    name: "case 1".into(),
                    verdict: Verdict::Passed,
                    timeout_cause: None,
                    message: None,
                    judged_by: None,
                    run: None,
                },
                CaseResult {
                    name: "case 2".into(),
                    verdict: Verdict::WrongAnswer,
                    timeout_cause: None,
                    message: Some("assert add(2, 3) == 5".into()),
                    judged_by: None,
                    run: None,
                },
            ],
            stdout: "x".repeat(1200),
            ..base.clone()
        };
        let failure = Failure::of(&result, &Task::default()).unwrap();
        let text = failure.render(&default_template(), 1, Language::Python);
        assert!(text.starts_with(
            "The code failed the tests: wrong_answer.\nFailing case: case 2\nMessage: assert \
             add(2, 3) == 5\nOutput: xxx"
        ));
        assert!(text.contains("[... 200 more bytes]"));
        let compile = SampleResult {
            verdict: Verdict::CompileError,
            message: Some("error: expected `;`".into()),
            ..base
        };
        let text = Failure::of(&compile, &Task::default()).unwrap().render(
            &default_template(),
            1,
            Language::Rust,
        );
        // The lines of absent values are left out.
        assert_eq!(
            text,
            "The code failed the tests: compile_error.\nMessage: error: expected `;`\nFix it, and answer with the whole corrected program in one code block."
        );
        assert_eq!(as_comment("a\n\nb", Language::Cpp), "// a\n//\n// b");
    }
}
