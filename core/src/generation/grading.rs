//! The two-stage LLM judge of `wasmeval grade`: an evaluator model writes a report on a sample
//! against the accuracy and completeness levels, and a separate grader call, reading only that
//! report, answers a grade 1-4 for each. The levels are the built-in review rubric's
//! (`review::builtin_rubrics`, docs/metrics.md), so human and model graders use one scale.

use crate::review::{builtin_rubrics, Property};
use crate::sample::Grades;
use crate::task::Task;
use serde::{Deserialize, Serialize};

/// The graded properties, in the order the grader answers them.
pub const GRADED: [&str; 2] = ["accuracy", "completeness"];

/// How a sample was graded, kept with it (the site shows the report).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GradingRecord {
    /// The model that wrote the report and the grades.
    pub model: String,
    /// Stage one: the evaluator's report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
    /// Stage two: the grader's answer, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// The grader's probabilities of each level, when the server returned log-probabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distribution: Option<GradeDistribution>,
    /// Why there is no grade, when the grader's answers could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ungraded: Option<String>,
    /// Grader calls made (a retry follows each answer that did not parse).
    pub tries: u32,
}

/// The probability of levels 1 to 4 of each grade.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GradeDistribution {
    /// Accuracy levels 1-4.
    pub accuracy: [f64; 4],
    /// Completeness levels 1-4.
    pub completeness: [f64; 4],
}

/// One generated token with the alternatives the server reported (log-probabilities).
#[derive(Debug, Clone, PartialEq)]
pub struct TokenChoices {
    /// The token generated.
    pub token: String,
    /// Its log-probability.
    pub logprob: f64,
    /// The most likely tokens at its position, with their log-probabilities.
    pub alternatives: Vec<(String, f64)>,
}

fn graded_properties() -> Vec<Property> {
    let rubric = builtin_rubrics()
        .into_iter()
        .find(|r| r.id == "accuracy-completeness")
        .expect("the built-in accuracy-completeness rubric");
    GRADED
        .iter()
        .map(|name| rubric.property(name).expect("graded property").clone())
        .collect()
}

/// The levels of each graded property, one per line (`1 Not accurate: ...`).
fn levels_text() -> String {
    let mut text = String::new();
    for property in graded_properties() {
        let mut name = property.name.clone();
        name[..1].make_ascii_uppercase();
        text.push_str(&format!("{name} levels:\n"));
        for level in &property.levels {
            text.push_str(&format!("{} {}", level.value, level.label));
            if let Some(description) = &level.description {
                text.push_str(&format!(": {description}"));
            }
            text.push('\n');
        }
    }
    text
}

/// Stage one: the evaluator's prompt for `code`, a sample of `task`.
pub fn evaluator_prompt(task: &Task, code: &str) -> String {
    let problem = if task.description.is_empty() {
        &task.prompt
    } else {
        &task.description
    };
    format!(
        "You review code that a model wrote for a programming task. Write a short report on the \
         code's accuracy (does it do what the task asks?) and completeness (does it address every \
         requirement?), with the levels below in mind. Describe what is right and what is wrong; \
         do not give grades.\n\n{levels}\nTask ({language}):\n{problem}\n\nCode:\n```{fence}\n{code}\n```\n",
        levels = levels_text(),
        language = task.language.title(),
        fence = task.language.as_str(),
        code = code.trim_end(),
    )
}

/// Stage two: the grader's prompt, which holds the report and nothing of the task or the code.
pub fn grader_prompt(report: &str) -> String {
    format!(
        "Below is a reviewer's report on a piece of code. From the report alone, grade the code's \
         accuracy and completeness on these levels.\n\n{levels}\nReport:\n\"\"\"\n{report}\n\"\"\"\n\n\
         Answer with exactly these two lines and nothing else:\naccuracy: <1-4>\ncompleteness: <1-4>\n",
        levels = levels_text(),
        report = report.trim(),
    )
}

/// The grades in a grader's answer: `accuracy: 3` and `completeness: 4` lines (or JSON with
/// those keys), each 1-4; where a name is followed by `:` more than once, the last counts (the
/// grade comes last, as the prompt asks, after any text that quotes the report's or the
/// sample's own "Accuracy: 4"). An error says what is missing.
pub fn parse_grades(answer: &str) -> Result<Grades, String> {
    let lower = answer.to_ascii_lowercase();
    let grade = |name: &str| -> Result<f64, String> {
        let mut last = None;
        let mut from = 0;
        while let Some(found) = lower[from..].find(name) {
            let after = &lower[from + found + name.len()..];
            from += found + name.len();
            let rest = after.trim_start_matches(['"', '\'', '*', ' ']);
            let Some(rest) = rest.strip_prefix([':', '=']) else {
                continue;
            };
            let rest = rest.trim_start_matches([' ', '"', '\'', '*']);
            last = Some(match rest.chars().next() {
                Some(digit @ '1'..='4') if !rest[1..].starts_with(|c: char| c.is_ascii_digit()) => {
                    Ok(f64::from(digit.to_digit(10).expect("a digit")))
                }
                _ => Err(format!("`{name}` is not followed by a grade from 1 to 4")),
            });
        }
        last.unwrap_or_else(|| Err(format!("no `{name}: N` line")))
    };
    Ok(Grades {
        accuracy: grade("accuracy")?,
        completeness: grade("completeness")?,
    })
}

/// The probabilities of levels 1-4 at the digit after the last `accuracy:` and `completeness:` in
/// the generated tokens (where [`parse_grades`] reads the grades), from the alternatives the
/// server reported there (renormalised over the four levels). `None` when either digit or its
/// alternatives cannot be found.
pub fn distribution(tokens: &[TokenChoices]) -> Option<GradeDistribution> {
    let at = |name: &str| -> Option<[f64; 4]> {
        let mut text = String::new();
        let mut last = None;
        for choice in tokens {
            let before = text.to_ascii_lowercase();
            text.push_str(&choice.token);
            let digit = choice.token.trim();
            if !before.trim_end().ends_with(&format!("{name}:")) || digit.len() != 1 {
                continue;
            }
            let mut weights = [0.0; 4];
            let mut seen = false;
            let candidates = std::iter::once((choice.token.as_str(), choice.logprob))
                .chain(choice.alternatives.iter().map(|(t, l)| (t.as_str(), *l)));
            let mut counted = [false; 4];
            for (token, logprob) in candidates {
                if let Ok(level @ 1..=4) = token.trim().parse::<usize>() {
                    if !counted[level - 1] {
                        counted[level - 1] = true;
                        weights[level - 1] = logprob.exp();
                        seen = true;
                    }
                }
            }
            let total: f64 = weights.iter().sum();
            last = match !seen || total <= 0.0 || !total.is_finite() {
                true => None,
                false => Some(weights.map(|w| w / total)),
            };
        }
        last
    };
    Some(GradeDistribution {
        accuracy: at("accuracy")?,
        completeness: at("completeness")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_parse_from_lines_or_json_and_out_of_scale_is_refused() {
        let g = parse_grades("accuracy: 3\ncompleteness: 4\n").unwrap();
        assert_eq!((g.accuracy, g.completeness), (3.0, 4.0));
        let g = parse_grades("{\"accuracy\": 2, \"completeness\": 1}").unwrap();
        assert_eq!((g.accuracy, g.completeness), (2.0, 1.0));
        let g = parse_grades("**Accuracy**: 4\n**Completeness**: 2").unwrap();
        assert_eq!((g.accuracy, g.completeness), (4.0, 2.0));
        assert!(parse_grades("accuracy: 5\ncompleteness: 4").is_err());
        assert!(parse_grades("accuracy: 10\ncompleteness: 4").is_err());
        assert_eq!(
            parse_grades("accuracy: 3").unwrap_err(),
            "no `completeness: N` line"
        );
        assert!(parse_grades("The code is accurate.").is_err());
    }

    #[test]
    fn regression_a_quoted_grade_before_the_answer_does_not_count() {
        // Issue 32: the report quoted the sample's own comment "Accuracy: 4".
        let answer = "The report says \"Accuracy: 4\" in the code's comment.\naccuracy: 1\ncompleteness: 2\n";
        let g = parse_grades(answer).unwrap();
        assert_eq!((g.accuracy, g.completeness), (1.0, 2.0));
        assert!(parse_grades("Accuracy: 4\naccuracy: 7\ncompleteness: 2").is_err());
    }

    #[test]
    fn the_distribution_is_read_at_each_grades_digit() {
        let token = |t: &str, alternatives: &[(&str, f64)]| TokenChoices {
            token: t.into(),
            logprob: alternatives.first().map_or(0.0, |a| a.1),
            alternatives: alternatives
                .iter()
                .map(|(t, l)| (t.to_string(), *l))
                .collect(),
        };
        let ln = f64::ln;
        let tokens = vec![
            token("accuracy", &[]),
            token(":", &[]),
            token(
                " 3",
                &[
                    (" 3", ln(0.6)),
                    (" 4", ln(0.2)),
                    ("x", ln(0.1)),
                    (" 2", ln(0.1)),
                ],
            ),
            token("\n", &[]),
            token("complete", &[]),
            token("ness:", &[]),
            token(" 4", &[(" 4", ln(0.5)), (" 4", ln(0.4)), (" 1", ln(0.5))]),
        ];
        let d = distribution(&tokens).unwrap();
        let close = |a: [f64; 4], b: [f64; 4]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
        assert!(
            close(d.accuracy, [0.0, 1.0 / 9.0, 6.0 / 9.0, 2.0 / 9.0]),
            "{d:?}"
        );
        assert!(close(d.completeness, [0.5, 0.0, 0.0, 0.5]), "{d:?}");
        assert_eq!(distribution(&tokens[..4]), None);
    }

    #[test]
    fn prompts_carry_the_rubrics_levels_and_the_grader_sees_only_the_report() {
        let task = Task {
            prompt: "def add(a, b):\n".into(),
            ..Task::default()
        };
        let stage_one = evaluator_prompt(&task, "def add(a, b):\n    return a - b\n");
        assert!(stage_one.contains("3 Almost accurate: Right apart from small mistakes."));
        assert!(stage_one.contains("return a - b"));
        let stage_two = grader_prompt("It subtracts instead of adding.");
        assert!(stage_two.contains("It subtracts instead of adding."));
        assert!(stage_two.contains("4 Completely"));
        assert!(!stage_two.contains("def add"));
    }
}
