//! An `io` case: the whole program run on the case's stdin, its stdout compared with the expected
//! output by the suite's rule ([`crate::compare::compare_output`]).

use super::{Execution, Outcome};
use crate::compare::compare_output;
use crate::results::Verdict;
use crate::task::{IoCase, OutputComparison};

/// The outcome of `case`'s execution under a suite comparing by `compare` within `tolerance`.
pub fn judge_io_case(
    execution: &Execution,
    case: &IoCase,
    compare: OutputComparison,
    tolerance: f64,
) -> Outcome {
    if let Some(outcome) = Outcome::of_abnormal_end(execution) {
        // A Rust or Go panic ends as a trap or an exit code: its message says more.
        if outcome.verdict == Verdict::RuntimeError {
            let stderr = String::from_utf8_lossy(&execution.output.stderr);
            if let Some(panic) = super::compiled::panic_message(&stderr) {
                return Outcome::new(Verdict::RuntimeError, panic);
            }
        }
        return outcome;
    }
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    match compare_output(&case.stdout, &stdout, compare, tolerance) {
        Ok(()) => Outcome::passed(),
        Err(difference) => Outcome::new(Verdict::WrongAnswer, difference),
    }
}

/// A case's name in results: `group/name`, or the name alone outside a group.
pub fn case_name(group: &str, name: &str) -> String {
    if group.is_empty() {
        name.to_owned()
    } else {
        format!("{group}/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::tests::execution;
    use crate::judging::Exit;

    #[test]
    fn a_whole_programs_panic_is_named_by_its_message_not_the_trap() {
        let case = IoCase {
            name: "run".into(),
            stdin: String::new(),
            stdout: "caught\n".into(),
        };
        let mut rust = execution(
            Exit::Trap("wasm `unreachable` instruction executed".into()),
            "",
        );
        rust.output.stderr = b"thread 'main' panicked at main.rs:3:65:\nindex out of bounds: the len is 0 but the index is 3\nnote: run with `RUST_BACKTRACE=1`\n".to_vec();
        let outcome = judge_io_case(&rust, &case, OutputComparison::Exact, 0.0);
        assert_eq!(
            (outcome.verdict, outcome.message.as_deref()),
            (
                Verdict::RuntimeError,
                Some("panicked: index out of bounds: the len is 0 but the index is 3")
            )
        );
        let mut go = execution(Exit::Code(2), "");
        go.output.stderr = b"panic: runtime error: index out of range [3] with length 0\n\ngoroutine 1 [running]:\n".to_vec();
        let outcome = judge_io_case(&go, &case, OutputComparison::Exact, 0.0);
        assert_eq!(
            outcome.message.as_deref(),
            Some("panicked: runtime error: index out of range [3] with length 0")
        );
        // Other ends keep their own message.
        let plain = execution(Exit::Code(3), "");
        let outcome = judge_io_case(&plain, &case, OutputComparison::Exact, 0.0);
        assert_eq!(
            outcome.message.as_deref(),
            Some("the program exited with code 3")
        );
    }
}
