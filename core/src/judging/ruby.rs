//! The Ruby guest's run: the host evaluates a script of steps in one interpreter (the harness,
//! the candidate, then one step per case) and, after each, writes the line
//! `\n<token> <step> <state> <value>\n` itself, `state` being Ruby's non-zero tag when the step
//! raised past the harness and `value` the String it returned, as JSON (`null` when it raised).
//! The token never enters the guest, so the lines are the host's word on which steps ended and
//! what they returned; what a step returned is the harness's report (`guests/ruby/harness.rb`):
//! `ok`, `assertion <message>`, `error <class>: <message>` or `value <json>`.
//!
//! The harness shares the interpreter with the candidate. It is out of the candidate's reach (its
//! steps are methods of a frozen singleton class, every core method it and its assertions call
//! captured before the candidate loads, the tests' classes checked and frozen before they run), but
//! test code that calls core methods or helpers of its own runs them as the candidate left them,
//! so assertion cases stay `judged_by: guest`; a `calls` case's value is compared here with an
//! expected value the guest never saw. A step without its line was cut short: the process's end
//! (an exit, `exit!` included, a trap, a limit) is that case's verdict, and the cases after it
//! were not run.

use super::calls::Expected;
use super::token::Token;
use super::{short_message, CaseLog, Execution, Outcome};
use crate::results::{CaseResult, Verdict};
use serde_json::Value;

/// The step of the harness's load; the candidate's is [`PROGRAM_STEP`], the cases' follow.
pub const HARNESS_STEP: usize = 0;
/// The step of the candidate's load.
pub const PROGRAM_STEP: usize = 1;
/// The step of the first case.
pub const FIRST_CASE_STEP: usize = 2;

/// What a case's step must report to pass.
#[derive(Debug, Clone, Copy)]
pub enum Check<'a> {
    /// An assertion case: `ok`.
    Assertion,
    /// A `calls` case: a value that `Expected` accepts.
    Call(&'a Expected),
}

/// What the host saw of one step.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// The step returned this String.
    Returned(String),
    /// An exception escaped the step (Ruby's tag state).
    Raised(i64),
}

/// The host's lines of `stdout`, by step (`None`: no line), and the program's own output.
fn steps(execution: &Execution, token: &Token, count: usize) -> (Vec<Option<Step>>, String) {
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let scanned = token.scan(&stdout);
    let mut steps = vec![None; count];
    for line in &scanned.lines {
        let mut parts = line.splitn(3, ' ');
        let (Some(index), Some(state), Some(value)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Ok(index), Ok(state)) = (index.parse::<usize>(), state.parse::<i64>()) else {
            continue;
        };
        let step = match (state, serde_json::from_str::<Option<String>>(value)) {
            (0, Ok(Some(text))) => Step::Returned(text),
            (0, _) => continue,
            (state, _) => Step::Raised(state),
        };
        if let Some(slot) = steps.get_mut(index) {
            *slot = Some(step);
        }
    }
    (steps, scanned.own_output)
}

/// The outcome a step's report gives a case of `check`.
fn case_outcome(step: &Step, check: Check<'_>) -> Outcome {
    let report = match step {
        Step::Raised(state) => {
            return Outcome::new(
                Verdict::RuntimeError,
                format!("an exception escaped the harness (state {state})"),
            )
        }
        Step::Returned(report) => report.as_str(),
    };
    let (kind, rest) = report.split_once(' ').unwrap_or((report, ""));
    match (kind, check) {
        ("ok", Check::Assertion) => Outcome::passed(),
        ("assertion", _) => Outcome::new(Verdict::WrongAnswer, short_message(rest)),
        ("error", _) if rest.starts_with("NoMemoryError:") => {
            Outcome::new(Verdict::MemoryLimit, short_message(rest))
        }
        ("error", _) => Outcome::new(Verdict::RuntimeError, short_message(rest)),
        ("value", Check::Call(expected)) => match crate::formats::jsonl::value_exact(rest) {
            Ok(value) => expected.judge(&value),
            Err(_) => Outcome::new(
                Verdict::RuntimeError,
                "the harness reported a value that is not JSON",
            ),
        },
        _ => Outcome::new(
            Verdict::RuntimeError,
            short_message(&format!("the harness's report was rewritten: {report}")),
        ),
    }
}

/// Judges the run of a script whose case steps are `cases` (name and check, in step order) into
/// `log`.
pub fn judge(execution: &Execution, token: &Token, cases: &[(&str, Check<'_>)], log: &mut CaseLog) {
    let (steps, own_output) = steps(execution, token, FIRST_CASE_STEP + cases.len());
    let cut_short = Outcome::of_cut_short(execution);
    // Why no case could pass, when the harness or the program did not load.
    let before_cases = match (&steps[HARNESS_STEP], &steps[PROGRAM_STEP]) {
        (None, _) => Some(cut_short.clone()),
        (Some(Step::Raised(state)), _) => Some(Outcome::new(
            Verdict::HarnessError,
            format!("the Ruby harness did not load (state {state})"),
        )),
        (Some(Step::Returned(_)), None) => Some(cut_short.clone()),
        (Some(Step::Returned(_)), Some(Step::Returned(report))) if report == "ok" => None,
        (Some(Step::Returned(_)), Some(step)) => Some(case_outcome(step, Check::Assertion)),
    };
    let mut interrupted = false;
    let results: Vec<CaseResult> = cases
        .iter()
        .enumerate()
        .map(|(index, (name, check))| {
            let outcome = match (&before_cases, &steps[FIRST_CASE_STEP + index]) {
                (Some(cause), _) => cause.clone(),
                (None, Some(step)) => case_outcome(step, *check),
                (None, None) if !interrupted => {
                    interrupted = true;
                    cut_short.clone()
                }
                (None, None) => Outcome {
                    message: Some(format!(
                        "not run: {}",
                        cut_short.message.as_deref().unwrap_or_default()
                    )),
                    ..cut_short.clone()
                },
            };
            outcome.into_case(*name)
        })
        .collect();
    let failing =
        before_cases.is_some() || results.iter().any(|case| case.verdict != Verdict::Passed);
    log.measure(execution, &own_output, failing);
    if let (Some(cause), true) = (before_cases, results.is_empty()) {
        log.fail_without_cases(cause);
    }
    for case in results {
        log.push(case);
    }
}

/// `value`, a `calls` argument in its JSON form (tags included), as a Ruby literal: `nil`,
/// numbers, double-quoted strings with nothing interpolated, arrays, hashes (`$dict`, and objects
/// with string keys), `Set[..]` and the special floats.
pub fn literal(value: &Value) -> String {
    match value {
        Value::Null => "nil".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string_literal(s),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(fields) => {
            let tagged = (fields.len() == 1).then(|| fields.iter().next()).flatten();
            match tagged {
                Some((tag, Value::Array(items))) if tag == "$tuple" => {
                    literal(&Value::Array(items.clone()))
                }
                Some((tag, Value::Array(items))) if tag == "$set" => {
                    format!(
                        "Set[{}]",
                        items.iter().map(literal).collect::<Vec<_>>().join(", ")
                    )
                }
                Some((tag, Value::Array(pairs))) if tag == "$dict" => {
                    let pairs: Vec<String> = pairs
                        .iter()
                        .map(|pair| match pair {
                            Value::Array(kv) if kv.len() == 2 => {
                                format!("{} => {}", literal(&kv[0]), literal(&kv[1]))
                            }
                            other => format!("{} => nil", literal(other)),
                        })
                        .collect();
                    format!("{{{}}}", pairs.join(", "))
                }
                Some((tag, Value::String(which))) if tag == "$float" => match which.as_str() {
                    "nan" => "Float::NAN".into(),
                    "-inf" => "-Float::INFINITY".into(),
                    _ => "Float::INFINITY".into(),
                },
                _ => {
                    let pairs: Vec<String> = fields
                        .iter()
                        .map(|(k, v)| format!("{} => {}", string_literal(k), literal(v)))
                        .collect();
                    format!("{{{}}}", pairs.join(", "))
                }
            }
        }
    }
}

/// `text` as a double-quoted Ruby string: `"`, `\` and `#` escaped (nothing is interpolated),
/// control characters as `\u{..}`.
fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::calls::Operators;
    use crate::judging::{Exit, Output};
    use crate::task::{CallCase, CallCheck};
    use std::time::Duration;

    fn token() -> Token {
        Token::from_random_bytes([7; 16])
    }

    fn run(exit: Exit, stdout: &str) -> Execution {
        Execution {
            exit,
            fuel: 1,
            wall: Duration::from_millis(1),
            peak_memory: 0,
            memory_denied: false,
            output: Output {
                stdout: stdout.as_bytes().to_vec(),
                stderr: Vec::new(),
                written: stdout.len() as u64,
            },
        }
    }

    /// The host's line after step `index`.
    fn line(index: usize, state: i64, value: Option<&str>) -> String {
        format!(
            "\n{} {index} {state} {}\n",
            token().as_str(),
            serde_json::to_string(&value).unwrap()
        )
    }

    fn case(expected: Value, check: CallCheck) -> CallCase {
        CallCase {
            name: "c".into(),
            args: vec![],
            expected,
            check,
            tolerance: None,
        }
    }

    fn expected(value: Value) -> Expected {
        Expected::of(&case(value, CallCheck::Equals), 0.0, Operators::Ruby)
    }

    fn judged(execution: &Execution, cases: &[(&str, Check<'_>)]) -> Vec<CaseResult> {
        let mut log = CaseLog::new();
        judge(execution, &token(), cases, &mut log);
        log.cases().to_vec()
    }

    #[test]
    fn reported_steps_become_verdicts() {
        let three = expected(serde_json::json!(3));
        let stdout = [
            line(0, 0, Some("true")),
            "own output".into(),
            line(1, 0, Some("ok")),
            line(2, 0, Some("ok")),
            line(3, 0, Some("assertion <1> expected but was <2>")),
            line(4, 0, Some("value 3")),
            line(5, 0, Some("value 4")),
            line(6, 0, Some("error ZeroDivisionError: divided by 0")),
        ]
        .concat();
        let cases = [
            ("a", Check::Assertion),
            ("b", Check::Assertion),
            ("c", Check::Call(&three)),
            ("d", Check::Call(&three)),
            ("e", Check::Call(&three)),
        ];
        let verdicts: Vec<Verdict> = judged(&run(Exit::Code(0), &stdout), &cases)
            .iter()
            .map(|c| c.verdict)
            .collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Passed,
                Verdict::WrongAnswer,
                Verdict::Passed,
                Verdict::WrongAnswer,
                Verdict::RuntimeError
            ]
        );
    }

    #[test]
    fn lines_without_the_token_are_the_programs_output() {
        // A candidate printing lines of its own (it does not know the token) passes nothing.
        let forged = format!("\nwasmeval-{} 2 0 \"ok\"\n", "0".repeat(32));
        let stdout = [line(0, 0, Some("true")), line(1, 0, Some("ok")), forged].concat();
        let cases = judged(&run(Exit::Code(0), &stdout), &[("a", Check::Assertion)]);
        assert_eq!(cases[0].verdict, Verdict::RuntimeError);
    }

    #[test]
    fn an_exit_cuts_the_running_case_short_and_the_rest_are_not_run() {
        let stdout = [
            line(0, 0, Some("true")),
            line(1, 0, Some("ok")),
            line(2, 0, Some("ok")),
        ]
        .concat();
        let cases = judged(
            &run(Exit::Code(0), &stdout),
            &[
                ("a", Check::Assertion),
                ("b", Check::Assertion),
                ("c", Check::Assertion),
            ],
        );
        assert_eq!(cases[0].verdict, Verdict::Passed);
        assert_eq!(cases[1].verdict, Verdict::RuntimeError);
        assert!(cases[1]
            .message
            .as_deref()
            .unwrap()
            .contains("exited (code 0)"));
        assert!(cases[2]
            .message
            .as_deref()
            .unwrap()
            .starts_with("not run: "));
    }

    #[test]
    fn a_program_that_fails_to_load_fails_every_case() {
        let stdout = [
            line(0, 0, Some("true")),
            line(1, 0, Some("error SyntaxError: bad")),
        ]
        .concat();
        let cases = judged(
            &run(Exit::Code(0), &stdout),
            &[("a", Check::Assertion), ("b", Check::Assertion)],
        );
        assert!(cases.iter().all(|c| c.verdict == Verdict::RuntimeError));
        assert_eq!(cases[0].message.as_deref(), Some("SyntaxError: bad"));
        // A step that raised past the harness is the program's doing too.
        let stdout = [line(0, 0, Some("true")), line(1, 6, None)].concat();
        let cases = judged(&run(Exit::Code(0), &stdout), &[("a", Check::Assertion)]);
        assert_eq!(cases[0].verdict, Verdict::RuntimeError);
        // The harness itself not loading is ours.
        let cases = judged(
            &run(Exit::Code(0), &line(0, 6, None)),
            &[("a", Check::Assertion)],
        );
        assert_eq!(cases[0].verdict, Verdict::HarnessError);
    }

    #[test]
    fn a_limit_during_start_up_is_every_cases_verdict() {
        let cases = judged(&run(Exit::OutOfFuel, ""), &[("a", Check::Assertion)]);
        assert_eq!(cases[0].verdict, Verdict::Timeout);
    }

    #[test]
    fn ruby_truthiness_only_nil_and_false_are_false() {
        let truthy = Expected::of(&case(Value::Null, CallCheck::Truthy), 0.0, Operators::Ruby);
        assert_eq!(truthy.judge(&serde_json::json!(0)).verdict, Verdict::Passed);
        assert_eq!(
            truthy.judge(&serde_json::json!("")).verdict,
            Verdict::Passed
        );
        assert_eq!(truthy.judge(&Value::Null).verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn arguments_become_ruby_literals_that_interpolate_nothing() {
        let args = serde_json::json!([
            1, 2.5, "a\"#{x}\\\n", null, true,
            {"$dict": [[1, "one"]]}, {"k": [1]}, {"$set": [1]}, {"$float": "-inf"}, {"$tuple": [1, 2]}
        ]);
        assert_eq!(
            literal(&args),
            r#"[1, 2.5, "a\"\#{x}\\\u{a}", nil, true, {1 => "one"}, {"k" => [1]}, Set[1], -Float::INFINITY, [1, 2]]"#
        );
    }
}
