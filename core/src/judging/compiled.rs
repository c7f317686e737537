//! C, C++ and Rust assertion programs: the candidate followed by one case's test code, compiled
//! into one module and judged by how the process ended.

use super::{excerpt, Execution, Outcome};
use crate::results::Verdict;

/// The verdict of a compiled assertion program: exit 0 passes; a failed assertion (`assert!`
/// panics, C's `assert` aborts, both saying so on stderr) is a wrong answer; other ends as for any
/// execution.
pub fn judge_assertion_program(execution: &Execution) -> Outcome {
    let Some(outcome) = Outcome::of_abnormal_end(execution) else {
        return Outcome::passed();
    };
    if outcome.verdict != Verdict::RuntimeError {
        return outcome;
    }
    let stderr = String::from_utf8_lossy(&execution.output.stderr);
    let assertion = stderr
        .lines()
        .find(|line| line.to_ascii_lowercase().contains("assert"));
    // Rust prints `thread 'main' panicked at src:line:col:` and the panic's message on the next line.
    let panic = stderr
        .lines()
        .skip_while(|line| !line.contains("panicked at"))
        .nth(1);
    match (assertion, panic) {
        (Some(line), _) => Outcome::new(Verdict::WrongAnswer, excerpt(line.trim())),
        (None, Some(panic)) => Outcome::new(
            Verdict::RuntimeError,
            excerpt(&format!("panicked: {}", panic.trim())),
        ),
        (None, None) => outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::tests::execution;
    use crate::judging::Exit;

    fn ended(exit: Exit, stderr: &str) -> Outcome {
        let mut run = execution(exit, "");
        run.output.stderr = stderr.as_bytes().to_vec();
        judge_assertion_program(&run)
    }

    #[test]
    fn assertions_are_wrong_answers_and_panics_runtime_errors() {
        assert_eq!(ended(Exit::Code(0), "").verdict, Verdict::Passed);
        let failed = ended(
            Exit::Trap("unreachable".into()),
            "main: main.c:9: int main(): Assertion `f(1) == 2' failed.\n",
        );
        assert_eq!(failed.verdict, Verdict::WrongAnswer);
        let rust = ended(
            Exit::Code(101),
            "thread 'main' panicked at src/main.rs:3:5:\nindex out of bounds\n",
        );
        assert_eq!(
            (rust.verdict, rust.message.as_deref()),
            (Verdict::RuntimeError, Some("panicked: index out of bounds"))
        );
        assert_eq!(ended(Exit::OutOfFuel, "assert").verdict, Verdict::Timeout);
    }
}
