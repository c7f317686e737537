//! The Python harness (`guests/python/harness.py`): what it is given and how its report is read.
//!
//! The harness runs a sample's `assertions`, `alternatives` and `calls` suites in one interpreter
//! and reports each step in token lines ([`super::token`]). [`harness_suites`] is its input
//! (`tests.json`: never a `calls` case's expected value), [`Layout`] maps its case numbers onto the
//! task's suites, [`protocol`] reads its report and [`judge`](judge::judge) turns report and process
//! end into verdicts.
//!
//! `calls` cases go further than assertions: the harness only reports the value the candidate's
//! function returned (`value <i> <json>` then `end <i> returned null`), and the host compares it
//! with the expected value, which never enters the guest. A `calls` case never takes `passed` from
//! the guest, so even a candidate that finds the token can only report values of its own choosing
//! (its answers) or garble the report (a harness error), not pass a case whose answer it does not
//! produce.

pub mod judge;
pub mod literal;
pub mod protocol;

pub use judge::{judge, judge_cases, record, Judged, Verdicts};

use crate::judging::calls::{Expected, Operators};
use crate::judging::evalplus;
use crate::task::{AssertionCase, CallCheck, Task, TestSuite};
use std::ops::Range;

/// The suites the harness runs, as `tests.json` gives them: `assertions`, `alternatives` and `calls`
/// suites, in the task's order (`io` suites run as whole programs, not in the harness). A `calls`
/// suite goes without its cases' names and expected values: the entry point and each case's
/// arguments only.
pub fn harness_suites(task: &Task) -> Vec<serde_json::Value> {
    let codes = |cases: &[AssertionCase]| cases.iter().map(|c| c.code.clone()).collect::<Vec<_>>();
    task.tests
        .iter()
        .filter_map(|suite| match suite {
            TestSuite::Assertions { setup, cases } => Some(serde_json::json!({
                "kind": "assertions",
                "setup": setup,
                "cases": codes(cases),
            })),
            TestSuite::Alternatives { entry_point, sets } => Some(serde_json::json!({
                "kind": "alternatives",
                "entry_point": entry_point,
                "sets": sets
                    .iter()
                    .map(|set| serde_json::json!({
                        "name": set.name,
                        "setup": set.setup,
                        "cases": codes(&set.cases),
                    }))
                    .collect::<Vec<_>>(),
            })),
            TestSuite::Calls {
                setup,
                entry_point,
                cases,
                ..
            } => {
                let mut suite = serde_json::json!({
                    "kind": "calls",
                    "setup": setup,
                    "entry_point": entry_point,
                    "cases": cases.iter().map(|c| &c.args).collect::<Vec<_>>(),
                });
                // The cases whose expected value is kept as a digest report one (only the form of
                // the expected value reaches the guest, never the value).
                let digests: Vec<usize> = (0..cases.len())
                    .filter(|&i| crate::reference_outputs::is_digest(&cases[i].expected))
                    .collect();
                if !digests.is_empty() {
                    suite["digests"] = serde_json::json!(digests);
                }
                Some(suite)
            }
            TestSuite::Io { .. } => None,
        })
        .collect()
}

/// What a judge instance trusts besides the tests (`trusted.json`): the task's entry points, the
/// names its tests may take from the candidate even where a builtin or the task's own code has
/// them, and the task's own code (its prelude and prompt), whose top-level definitions the judge
/// runs itself instead of binding the candidate's re-definitions. Why: the test's names are not
/// the candidate's to bind (issue 32); a candidate's `def range` or its own `encode_cyclic` would
/// otherwise be what the test calls.
pub fn judge_trust(task: &Task) -> serde_json::Value {
    let mut entry_points: Vec<&str> = task.entry_point.iter().map(String::as_str).collect();
    for suite in &task.tests {
        if let TestSuite::Alternatives { entry_point, .. } | TestSuite::Calls { entry_point, .. } =
            suite
        {
            entry_points.push(entry_point);
        }
    }
    entry_points.sort_unstable();
    entry_points.dedup();
    let sources: Vec<serde_json::Value> =
        [("prelude.py", &task.prelude), ("prompt.py", &task.prompt)]
            .into_iter()
            .filter(|(_, code)| !code.trim().is_empty())
            .map(|(name, code)| serde_json::json!({"name": name, "code": code}))
            .collect();
    serde_json::json!({"entry_points": entry_points, "sources": sources})
}

/// How the harness's cases, numbered from 0 across every suite it runs (and every set of an
/// `alternatives` suite, one set after the other), map onto the task's suites.
#[derive(Debug, Default)]
pub struct Layout {
    /// The name of every case the harness runs, in its order.
    pub names: Vec<String>,
    /// The suites, as ranges of `names`.
    pub(crate) groups: Vec<Group>,
    /// Per case: for a `calls` case, what its returned value must match.
    pub(crate) expected: Vec<Option<Expected>>,
    /// Whether the report comes from an isolated judge, which runs no code of the candidate's
    /// (so that a report that breaks the protocol is wasmeval's fault); otherwise the candidate
    /// ran in the process that reported, and such a report is its doing.
    pub isolated: bool,
}

#[derive(Debug)]
pub(crate) enum Group {
    /// An `assertions` suite: every case counts.
    Plain(Range<usize>),
    /// An `alternatives` suite: the sets' names and cases; one set's cases count.
    Alternatives(Vec<(String, Range<usize>)>),
    /// A `calls` suite of EvalPlus's inputs: each input set's cases show as one
    /// ([`crate::judging::evalplus::fold`]).
    InputSets(Vec<(String, Range<usize>)>),
}

impl Layout {
    /// The layout of `task`'s harness suites.
    pub fn of(task: &Task) -> Layout {
        let mut layout = Layout::default();
        let add = |layout: &mut Layout, cases: &[AssertionCase]| {
            let start = layout.names.len();
            layout.names.extend(cases.iter().map(|c| c.name.clone()));
            layout.expected.extend(cases.iter().map(|_| None));
            start..layout.names.len()
        };
        for suite in &task.tests {
            let group = match suite {
                TestSuite::Assertions { cases, .. } => Group::Plain(add(&mut layout, cases)),
                TestSuite::Alternatives { sets, .. } => Group::Alternatives(
                    sets.iter()
                        .map(|set| (set.name.clone(), add(&mut layout, &set.cases)))
                        .collect(),
                ),
                TestSuite::Calls {
                    cases, tolerance, ..
                } => {
                    let start = layout.names.len();
                    let mut sets: Vec<(String, Range<usize>)> = Vec::new();
                    for case in cases {
                        let index = layout.names.len();
                        let set = evalplus::input_set(&case.name);
                        match sets.last_mut() {
                            Some((name, range)) if name == set => range.end = index + 1,
                            _ => sets.push((set.to_owned(), index..index + 1)),
                        }
                        layout.names.push(case.name.clone());
                        layout.expected.push(Some(Expected::of(
                            case,
                            *tolerance,
                            Operators::Python,
                        )));
                    }
                    let evalplus = !cases.is_empty()
                        && cases
                            .iter()
                            .all(|c| matches!(c.check, CallCheck::EvalPlus(_)));
                    match evalplus {
                        true => Group::InputSets(sets),
                        false => Group::Plain(start..layout.names.len()),
                    }
                }
                // Judged outside the harness.
                TestSuite::Io { .. } => continue,
            };
            layout.groups.push(group);
        }
        layout
    }
}

#[cfg(test)]
mod tests;
