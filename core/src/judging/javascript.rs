//! The JavaScript guest's executions: each assertion or `calls` case is its own program run, and the
//! guest's C code (`guests/js/main.c`) reports in token lines that JavaScript never sees:
//! `ok` after the program, its promise jobs and its timers ran without an uncaught exception,
//! `assertion` before exiting on an uncaught `AssertionError`, and `value <json>` with a `calls`
//! case's return value, which the host compares with the expected value.

use super::calls::Expected;
use super::token::Token;
use super::{excerpt, Execution, Outcome};
use crate::results::Verdict;

/// The first line of the uncaught exception the guest printed on stderr (`Uncaught ...`), or the
/// first line of stderr.
fn uncaught_message(execution: &Execution) -> Option<String> {
    let stderr = String::from_utf8_lossy(&execution.output.stderr);
    stderr
        .lines()
        .find(|line| line.starts_with("Uncaught"))
        .or_else(|| stderr.lines().find(|line| !line.trim().is_empty()))
        .map(|line| excerpt(line.trim()))
}

/// An abnormal end, with the uncaught exception's line as the message of a runtime error.
fn abnormal(execution: &Execution) -> Option<Outcome> {
    Outcome::of_abnormal_end(execution).map(|outcome| match outcome.verdict {
        Verdict::RuntimeError if outcome.timeout_cause.is_none() => Outcome {
            message: uncaught_message(execution).or(outcome.message),
            ..outcome
        },
        _ => outcome,
    })
}

/// An assertion case: passed only with the token's `ok` line and exit 0; an uncaught
/// `AssertionError` (the token's `assertion` line) is a wrong answer.
pub fn judge_assertion(execution: &Execution, token: &Token) -> Outcome {
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let lines = token.scan(&stdout).lines;
    match abnormal(execution) {
        None if lines == ["ok"] => Outcome::passed(),
        None => Outcome::of_cut_short(execution),
        Some(outcome) if outcome.verdict == Verdict::RuntimeError && lines == ["assertion"] => {
            Outcome {
                verdict: Verdict::WrongAnswer,
                ..outcome
            }
        }
        Some(outcome) => outcome,
    }
}

/// A calls case: the value after the token's `value` line, judged on the host by `expected`.
pub fn judge_call(execution: &Execution, token: &Token, expected: &Expected) -> Outcome {
    if let Some(outcome) = abnormal(execution) {
        return outcome;
    }
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let lines = token.scan(&stdout).lines;
    let value = match lines.as_slice() {
        [line] => line.strip_prefix("value "),
        _ => None,
    };
    let Some(value) = value else {
        return Outcome::new(
            Verdict::RuntimeError,
            "the program exited before returning a value",
        );
    };
    match crate::formats::jsonl::value_exact(value) {
        Ok(value) => expected.judge(&value),
        Err(_) => Outcome::new(
            Verdict::HarnessError,
            "the guest reported a value that is not JSON",
        ),
    }
}

/// Whether `name` is a plain JavaScript identifier (what the guest's `--call` evaluates).
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::tests::execution;
    use crate::judging::token::tests::token;
    use crate::judging::Exit;
    use crate::results::TimeoutCause;
    use serde_json::json;

    fn with_stderr(mut execution: Execution, stderr: &str) -> Execution {
        execution.output.stderr = stderr.as_bytes().to_vec();
        execution
    }

    fn line(report: &str) -> String {
        format!("out\n\n{} {report}\n", token().as_str())
    }

    #[test]
    fn an_assertion_case_passes_only_with_the_ok_line_and_exit_zero() {
        let t = token();
        assert_eq!(
            judge_assertion(&execution(Exit::Code(0), &line("ok")), &t).verdict,
            Verdict::Passed
        );
        // Exiting early, with code 0 and no line, or with a forged line, never passes.
        let early = judge_assertion(&execution(Exit::Code(0), "all good\n"), &t);
        assert_eq!(early.verdict, Verdict::RuntimeError);
        assert_eq!(
            early.message.as_deref(),
            Some("the program exited (code 0) before its tests finished")
        );
        let forged = "\nwasmeval-ffffffffffffffffffffffffffffffff ok\n";
        assert_eq!(
            judge_assertion(&execution(Exit::Code(0), forged), &t).verdict,
            Verdict::RuntimeError
        );
        // `ok` then a non-zero exit is not a pass either.
        assert_eq!(
            judge_assertion(&execution(Exit::Code(1), &line("ok")), &t).verdict,
            Verdict::RuntimeError
        );
    }

    #[test]
    fn an_uncaught_assertion_error_is_a_wrong_answer_and_other_exceptions_runtime_errors() {
        let t = token();
        let failed = with_stderr(
            execution(Exit::Code(1), &line("assertion")),
            "Uncaught AssertionError: 1 == 2\n    at <eval>\n",
        );
        let outcome = judge_assertion(&failed, &t);
        assert_eq!(outcome.verdict, Verdict::WrongAnswer);
        assert_eq!(
            outcome.message.as_deref(),
            Some("Uncaught AssertionError: 1 == 2")
        );
        let thrown = with_stderr(
            execution(Exit::Code(1), ""),
            "Uncaught TypeError: x is not a function\n",
        );
        let outcome = judge_assertion(&thrown, &t);
        assert_eq!(outcome.verdict, Verdict::RuntimeError);
        assert_eq!(
            outcome.message.as_deref(),
            Some("Uncaught TypeError: x is not a function")
        );
        let fuel = judge_assertion(&execution(Exit::OutOfFuel, ""), &t);
        assert_eq!(
            (fuel.verdict, fuel.timeout_cause),
            (Verdict::Timeout, Some(TimeoutCause::Fuel))
        );
    }

    #[test]
    fn a_call_is_judged_on_the_host_from_its_one_value_line() {
        let t = token();
        let case = crate::task::CallCase {
            name: "c".into(),
            args: Vec::new(),
            expected: json!({"$set": [1, 2]}),
            check: crate::task::CallCheck::Equals,
            tolerance: None,
        };
        let expected = Expected::of(&case, 0.0, super::super::calls::Operators::JavaScript);
        let judge = |stdout: &str| judge_call(&execution(Exit::Code(0), stdout), &t, &expected);
        assert_eq!(
            judge(&line(r#"value {"$set":[2,1]}"#)).verdict,
            Verdict::Passed
        );
        let wrong = judge(&line(r#"value {"$set":[1]}"#));
        assert_eq!(wrong.verdict, Verdict::WrongAnswer);
        // No value, two values, or a forged one: the program did not return.
        assert_eq!(judge("nothing\n").verdict, Verdict::RuntimeError);
        let twice = line(r#"value {"$set":[1,2]}"#) + &line(r#"value {"$set":[1,2]}"#);
        assert_eq!(judge(&twice).verdict, Verdict::RuntimeError);
        assert_eq!(
            judge("\nwasmeval-ffffffffffffffffffffffffffffffff value {\"$set\":[1,2]}\n").verdict,
            Verdict::RuntimeError
        );
        assert_eq!(judge(&line("value {oops")).verdict, Verdict::HarnessError);
    }

    #[test]
    fn identifiers_are_plain_names() {
        assert!(is_identifier("add_2"));
        assert!(is_identifier("$x"));
        assert!(!is_identifier("2x"));
        assert!(!is_identifier("a.b"));
        assert!(!is_identifier("f()"));
        assert!(!is_identifier(""));
    }
}
