//! The Python harness's report protocol: token lines read into a [`Report`].
//!
//! ```text
//! loaded                       the candidate program ran to its end
//! load <kind> <json message>   it raised; no case runs
//! start <i>                    case i begins
//! end <i> <kind> <json msg>    case i ended (kind: passed, wrong_answer, runtime_error, ...)
//! value <i> <json>             calls case i returned this value (judged on the host)
//! end <i> returned null        calls case i returned
//! end <i> isolate <json msg>   calls case i returned a value that is not plain data
//! end <i> alone <json msg>     assertion case i passed a value of the judge's that cannot cross
//! done                         every case ran
//! ```

use super::Layout;
use crate::judging::calls::Expected;
use crate::judging::token::Token;
use crate::judging::Outcome;
use crate::results::Verdict;
use serde_json::Value;

/// How far loading the candidate program got, by the report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Load {
    /// No `loaded` or `load` line: the process ended before the program ran to its end.
    #[default]
    NotReported,
    /// `loaded`: the program ran to its end; cases follow.
    Loaded,
    /// `load <kind> <message>`: the program raised; no case ran.
    Raised(Outcome),
}

/// What the harness reported.
#[derive(Debug, Default)]
pub struct Report {
    /// Whether the candidate program loaded.
    pub load: Load,
    /// Per case: how it ended, when its `end` line came.
    pub ended: Vec<Option<Outcome>>,
    /// Per `calls` case: the judgement of the value it reported, until its `end` line.
    values: Vec<Option<Outcome>>,
    /// Index of a case that started and did not end.
    pub running: Option<usize>,
    /// Whether `done` came.
    pub done: bool,
    /// The `calls` cases that ended `isolate`: their value is not plain data, so the host has the
    /// test's own `==` judge it in the isolated judge (their outcome here is the runtime error
    /// they get when nothing does).
    pub isolate: Vec<usize>,
    /// The assertion cases that ended `alone`: the judge could not pass one of its values (a
    /// function of the test's) to the candidate's instance, so the host runs them again in the
    /// candidate's process (their outcome here is the runtime error they get when nothing does).
    pub alone: Vec<usize>,
    /// The first protocol violation: a line with the token that makes no sense (our fault, or a
    /// candidate's that found the token; no line of such a report is believed).
    pub malformed: Option<String>,
}

/// A verdict the harness may report for a case or for loading.
fn parse_kind(kind: &str) -> Option<Verdict> {
    Some(match kind {
        "passed" => Verdict::Passed,
        "wrong_answer" => Verdict::WrongAnswer,
        "runtime_error" => Verdict::RuntimeError,
        "memory_limit" => Verdict::MemoryLimit,
        "harness_error" => Verdict::HarnessError,
        _ => return None,
    })
}

/// A case number of a report line.
fn case_index(word: Option<&str>) -> Result<usize, &'static str> {
    word.and_then(|i| i.parse().ok()).ok_or("bad index")
}

/// Splits stdout into the harness's report and the candidate's own output.
pub fn read_report(stdout: &str, token: &Token, layout: &Layout) -> (Report, String) {
    let cases = layout.names.len();
    let mut report = Report {
        ended: vec![None; cases],
        values: vec![None; cases],
        ..Report::default()
    };
    let scanned = token.scan(stdout);
    for line in scanned.lines {
        if let Err(problem) = apply(&mut report, &layout.expected, line) {
            report
                .malformed
                .get_or_insert(format!("{problem}: `{line}`"));
        }
    }
    (report, scanned.own_output)
}

/// Applies one report line. For a `calls` case (`expected[i]` is set) the only accepted sequence is
/// `start i`, then either `value i <json>` and `end i returned null`, or `end i <failure> <message>`;
/// anything else (a `passed` end, `returned` without a value or for another case, a second value or
/// end) is a protocol violation.
fn apply(
    report: &mut Report,
    expected: &[Option<Expected>],
    line: &str,
) -> Result<(), &'static str> {
    let mut words = line.splitn(4, ' ');
    let message = |text: Option<&str>| -> Result<Option<String>, &'static str> {
        serde_json::from_str(text.ok_or("missing message")?).map_err(|_| "bad message")
    };
    let outcome = |verdict: Verdict, message: Option<String>| Outcome {
        verdict,
        timeout_cause: None,
        message,
    };
    match words.next() {
        Some("loaded") => report.load = Load::Loaded,
        Some("load") => {
            let kind = parse_kind(words.next().ok_or("missing kind")?).ok_or("bad kind")?;
            let rest = line.splitn(3, ' ').nth(2);
            report.load = Load::Raised(Outcome::new(kind, message(rest)?.unwrap_or_default()));
        }
        Some("start") => {
            let index = case_index(words.next())?;
            if index >= report.ended.len() {
                return Err("case index out of range");
            }
            report.running = Some(index);
        }
        Some("value") => {
            let index = case_index(words.next())?;
            let Some(Some(expected)) = expected.get(index) else {
                return Err("value for a case that is not a call");
            };
            if report.running != Some(index) {
                return Err("value outside its case");
            }
            if report.values[index].is_some() || report.ended[index].is_some() {
                return Err("second value for a case");
            }
            let text = line.splitn(3, ' ').nth(2).ok_or("missing value")?;
            let value: Value = crate::formats::jsonl::value_exact(text).map_err(|_| "bad value")?;
            report.values[index] = Some(expected.judge(&value));
        }
        Some("end") => {
            let index = case_index(words.next())?;
            if index >= report.ended.len() {
                return Err("case index out of range");
            }
            let kind = words.next().ok_or("missing kind")?;
            let message = message(words.next())?;
            let ended = if let Some(Some(_)) = expected.get(index) {
                // A call: the host judges; the guest can only say that it returned or failed.
                if report.ended[index].is_some() {
                    return Err("second end for a call");
                }
                match (kind, report.values[index].take()) {
                    ("returned", Some(judged)) => judged,
                    ("returned", None) => return Err("call returned without a value"),
                    (_, Some(_)) => return Err("call failed after its value"),
                    ("passed", None) => return Err("a call cannot pass in the guest"),
                    ("isolate", None) => {
                        report.isolate.push(index);
                        outcome(Verdict::RuntimeError, message)
                    }
                    (kind, None) => outcome(parse_kind(kind).ok_or("bad kind")?, message),
                }
            } else {
                match kind {
                    "returned" => return Err("returned for a case that is not a call"),
                    "isolate" => return Err("isolate for a case that is not a call"),
                    "alone" => {
                        report.alone.push(index);
                        outcome(Verdict::RuntimeError, message)
                    }
                    kind => outcome(parse_kind(kind).ok_or("bad kind")?, message),
                }
            };
            report.ended[index] = Some(ended);
            report.running = None;
        }
        Some("done") => report.done = true,
        _ => return Err("unknown report"),
    }
    Ok(())
}
