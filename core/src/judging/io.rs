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
