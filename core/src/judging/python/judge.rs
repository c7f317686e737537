//! Judging the Python harness's run: per-case verdicts from its report, and from the process's
//! end for the case it interrupted and those it never reached.

use super::protocol::{read_report, Load};
use super::{Group, Layout};
use crate::judging::token::Token;
use crate::judging::{CaseLog, Execution, Exit, Outcome};
use crate::results::{CaseResult, Verdict};
use std::ops::Range;

/// What [`judge`] adds to a sample's result beyond its cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// The `alternatives` sets whose cases the result shows (`None` without such suites).
    pub alternative: Option<String>,
}

/// Every case of a harness run, judged ([`judge_cases`]), before the result shows them
/// ([`record`]): a front end may judge some of them again in another execution first.
#[derive(Debug)]
pub struct Verdicts {
    /// Per case of the layout, in its order.
    pub cases: Vec<CaseResult>,
    /// Why the run was cut short, if it was.
    pub interrupted: Option<Outcome>,
    /// The candidate's own output, without the report's lines.
    pub own_stdout: String,
    /// The `calls` cases whose value is not plain data (the report's `isolate`), which the
    /// isolated judge may judge again.
    pub isolate: Vec<usize>,
    /// The assertion cases the judge could not run apart from the candidate (`alone`).
    pub alone: Vec<usize>,
}

impl Verdicts {
    /// Whether a case the result shows failed, or the run was cut short, leaving out the cases
    /// `again` that another execution judges again.
    pub fn failing_besides(&self, layout: &Layout, again: &[usize]) -> bool {
        let mut cases = self.cases.clone();
        for &i in again {
            if let Some(case) = cases.get_mut(i) {
                case.verdict = Verdict::Passed;
            }
        }
        let (shown, _) = shown_cases(layout, cases);
        self.interrupted.is_some() || shown.iter().any(|c| c.verdict != Verdict::Passed)
    }
}

/// Judges the harness's `execution` into `log`: the cases the result shows (see
/// [`shown_cases`]) with the execution's measurements and the candidate's own output.
///
/// Of an `alternatives` suite, the result shows the cases of the first set that passed completely,
/// or else of the set with most passed cases (the first of those), and names it in `alternative`;
/// the sample passes when every `assertions` suite passes and every `alternatives` suite has a set
/// that passed.
pub fn judge(layout: &Layout, token: &Token, execution: &Execution, log: &mut CaseLog) -> Judged {
    let verdicts = judge_cases(layout, token, execution);
    log.measure(
        execution,
        &verdicts.own_stdout,
        verdicts.failing_besides(layout, &[]),
    );
    record(layout, verdicts, log)
}

/// Every case of the harness's `execution`, judged from its report and from how it ended.
///
/// A report that breaks the protocol is believed for no case. When the candidate ran in the
/// process that reported (`layout.isolated` is false), such a report is the candidate's doing (a
/// program that found the token and printed lines of its own): every case is a runtime error
/// that says so, never a harness error, which means that wasmeval failed. From an isolated judge,
/// which runs no line of the candidate's, it is wasmeval's fault.
pub fn judge_cases(layout: &Layout, token: &Token, execution: &Execution) -> Verdicts {
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let (report, own_stdout) = read_report(&stdout, token, layout);
    let finished_normally = report.done && matches!(execution.exit, Exit::Code(_));
    let garbled = |problem: String| {
        if layout.isolated {
            Outcome::new(Verdict::HarnessError, format!("harness report: {problem}"))
        } else {
            Outcome::new(
                Verdict::RuntimeError,
                format!(
                    "the program wrote lines in the harness's report format (with its token): {problem}"
                ),
            )
        }
    };

    // Why cases without an `end` line did not end, when something cut the run short.
    let interrupted: Option<Outcome> = if let Some(problem) = &report.malformed {
        Some(garbled(problem.clone()))
    } else if let Load::Raised(outcome) = &report.load {
        Some(outcome.clone())
    } else if report.load == Load::NotReported || !finished_normally {
        // Before the program loaded, a plain exit is the interpreter failing to start or the
        // program exiting at import: both are the sample's doing.
        Some(Outcome::of_cut_short(execution))
    } else {
        None
    };
    let never_loaded = report.load != Load::Loaded;
    let cases = layout
        .names
        .iter()
        .enumerate()
        .map(|(index, name)| {
            // A garbled report is believed for no case (a candidate that found the token may have
            // written it).
            let ended = report.ended[index]
                .as_ref()
                .filter(|_| report.malformed.is_none());
            match (ended, &interrupted) {
                (Some(ended), _) => ended.clone().into_case(name.as_str()),
                (None, Some(cause)) => {
                    // The case that was running, and every case when the program never loaded, get
                    // the cause itself; cases after a running one were never reached.
                    let mut outcome = cause.clone();
                    if !(report.running == Some(index)
                        || never_loaded
                        || report.malformed.is_some())
                    {
                        outcome.message = Some(format!(
                            "not run: {}",
                            cause.message.as_deref().unwrap_or_default()
                        ));
                    }
                    outcome.into_case(name.as_str())
                }
                (None, None) => garbled("no result for this case".into()).into_case(name.as_str()),
            }
        })
        .collect();
    let believed = |indices: Vec<usize>| {
        if report.malformed.is_some() {
            Vec::new()
        } else {
            indices
        }
    };
    Verdicts {
        cases,
        interrupted,
        own_stdout,
        isolate: believed(report.isolate),
        alone: believed(report.alone),
    }
}

/// Adds the cases of `verdicts` that the result shows to `log` (the executions are measured
/// already), and says which `alternatives` sets they are.
pub fn record(layout: &Layout, verdicts: Verdicts, log: &mut CaseLog) -> Judged {
    let (cases, alternative) = shown_cases(layout, verdicts.cases);
    if let (Some(interrupted), true) = (verdicts.interrupted, cases.is_empty()) {
        // A task without harness cases still fails when its program does not load.
        log.fail_without_cases(interrupted);
    }
    for case in cases {
        log.push(case);
    }
    Judged { alternative }
}

/// The cases a result shows, out of every case the harness ran: all of a plain suite, the chosen
/// set of an `alternatives` suite, one per input set of an EvalPlus suite; with the chosen sets'
/// names (joined by ", " when a task has several `alternatives` suites).
pub(crate) fn shown_cases(
    layout: &Layout,
    all: Vec<CaseResult>,
) -> (Vec<CaseResult>, Option<String>) {
    if layout
        .groups
        .iter()
        .all(|group| matches!(group, Group::Plain(_)))
    {
        return (all, None);
    }
    let passed = |range: &Range<usize>| {
        all[range.clone()]
            .iter()
            .filter(|c| c.verdict == Verdict::Passed)
            .count()
    };
    let mut cases = Vec::with_capacity(all.len());
    let mut chosen: Vec<&str> = Vec::new();
    for group in &layout.groups {
        match group {
            Group::Plain(range) => cases.extend_from_slice(&all[range.clone()]),
            Group::InputSets(sets) => cases
                .extend(sets.iter().map(|(name, range)| {
                    crate::judging::evalplus::fold(name, &all[range.clone()])
                })),
            Group::Alternatives(sets) => {
                let set = sets
                    .iter()
                    .find(|(_, range)| passed(range) == range.len())
                    // `min_by_key` keeps the first of equals: ties go to the earlier set.
                    .or_else(|| {
                        sets.iter()
                            .min_by_key(|(_, range)| std::cmp::Reverse(passed(range)))
                    });
                if let Some((name, range)) = set {
                    cases.extend_from_slice(&all[range.clone()]);
                    chosen.push(name);
                }
            }
        }
    }
    let alternative = (!chosen.is_empty()).then(|| chosen.join(", "));
    (cases, alternative)
}
