//! Python samples: runs a candidate program and its task's assertion cases in the interpreter guest
//! and turns what happened into per-case verdicts.
//!
//! The harness (`guests/python/harness.py`) reports on stdout in lines carrying a random token that
//! the candidate cannot know; [`judge`] trusts only those lines, so printing or exiting early can
//! never make a failing case pass.
//!
//! `calls` cases go further: the harness only reports the value the candidate's function returned
//! (`value <i> <json>` then `end <i> returned null`), and the host compares it with the expected
//! value, which never enters the guest. A `calls` case never takes `passed` from the guest, so even
//! a candidate that finds the token can only report values of its own choosing (its answers) or
//! garble the report (a harness error), not pass a case whose answer it does not produce.

mod runtime;

pub use runtime::PythonRuntime;

use crate::io_tests::{abnormal_end, excerpt};
use crate::sandbox::{temp_folder, Execution, Exit, Folder, Limits, Sandbox};
use serde_json::Value;
use std::cmp::Ordering;
use std::ops::Range;
use wasmeval_core::compare::compare_values;
use wasmeval_core::{
    AssertionCase, CaseResult, Sample, SampleResult, Task, TestSuite, TimeoutCause, Verdict,
};

/// The harness, written into every job folder.
const HARNESS: &str = include_str!("../../../guests/python/harness.py");

impl PythonRuntime {
    /// Runs `sample` against the assertion cases of `task`; `Err` only when the host fails.
    pub fn evaluate(
        &self,
        sandbox: &Sandbox,
        task: &Task,
        sample: &Sample,
        limits: &Limits,
    ) -> anyhow::Result<SampleResult> {
        let job = temp_folder(Folder::Job)?;
        let scratch = temp_folder(Folder::Scratch)?;
        let suites = harness_suites(task);
        std::fs::write(job.path().join("program.py"), sample.program(task))?;
        std::fs::write(job.path().join("tests.json"), serde_json::to_vec(&suites)?)?;

        let token = fresh_token();
        let invocation =
            self.invocation(&["-c", HARNESS, &token, "/job"], job.path(), scratch.path());
        let execution = sandbox.run(&self.module, self.entry, &invocation, limits)?;
        if let Exit::MemoryAtStart(error) = &execution.exit {
            // The interpreter is ours: its not starting is a setting's fault, not the sample's.
            anyhow::bail!(
                "the Python interpreter cannot start within --memory {} bytes: {error}",
                limits.memory
            );
        }
        Ok(judge(task, sample, &Layout::of(task), &token, execution))
    }
}

/// The suites the harness runs, as `tests.json` gives them: `assertions`, `alternatives` and `calls`
/// suites, in the task's order (`io` suites run as whole programs, not in the harness). A `calls`
/// suite goes without its cases' names and expected values: the entry point and each case's
/// arguments only.
fn harness_suites(task: &Task) -> Vec<serde_json::Value> {
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
                entry_point, cases, ..
            } => Some(serde_json::json!({
                "kind": "calls",
                "entry_point": entry_point,
                "cases": cases.iter().map(|c| &c.args).collect::<Vec<_>>(),
            })),
            TestSuite::Io { .. } => None,
        })
        .collect()
}

/// How the harness's cases, numbered from 0 across every suite it runs (and every set of an
/// `alternatives` suite, one set after the other), map onto the task's suites.
#[derive(Debug, Default)]
struct Layout {
    /// The name of every case the harness runs, in its order.
    names: Vec<String>,
    /// The suites, as ranges of `names`.
    groups: Vec<Group>,
    /// Per case: for a `calls` case, what its returned value must match.
    expected: Vec<Option<Expected>>,
}

/// The judgement of a `calls` case, kept on the host.
#[derive(Debug)]
struct Expected {
    /// The expected value, in [`canonical`] form.
    value: Value,
    tolerance: f64,
}

#[derive(Debug)]
enum Group {
    /// An `assertions` suite: every case counts.
    Plain(Range<usize>),
    /// An `alternatives` suite: the sets' names and cases; one set's cases count.
    Alternatives(Vec<(String, Range<usize>)>),
}

impl Layout {
    fn of(task: &Task) -> Layout {
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
                    for case in cases {
                        layout.names.push(case.name.clone());
                        layout.expected.push(Some(Expected {
                            value: canonical(&case.expected),
                            tolerance: *tolerance,
                        }));
                    }
                    Group::Plain(start..layout.names.len())
                }
                // Judged outside the harness.
                TestSuite::Io { .. } => continue,
            };
            layout.groups.push(group);
        }
        layout
    }
}

/// The tags of Python values JSON lacks; a one-key object with one of these keys is a tag.
const TAGS: [&str; 4] = ["$tuple", "$set", "$dict", "$float"];

/// A `calls` value in the form both sides are compared in: the items of a `$set` and the pairs of
/// a `$dict` sorted (by [`order`]), and a `$dict` whose keys are all strings written as the object
/// it stands for (unless that object would read as a tag), so that a task may write a set or a
/// dict in any order and a string-keyed dict either way. Everything else is kept as it is.
pub(crate) fn canonical(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Object(fields) => {
            let tag = (fields.len() == 1)
                .then(|| fields.iter().next())
                .flatten()
                .filter(|(key, _)| TAGS.contains(&key.as_str()));
            match tag {
                Some((key, Value::Array(items))) if key == "$set" => {
                    let mut items: Vec<Value> = items.iter().map(canonical).collect();
                    items.sort_by(order);
                    serde_json::json!({ "$set": items })
                }
                Some((key, Value::Array(pairs))) if key == "$dict" => {
                    let mut pairs: Vec<Value> = pairs.iter().map(canonical).collect();
                    let pair = |v: &Value| match v {
                        Value::Array(kv) if kv.len() == 2 => Some((kv[0].clone(), kv[1].clone())),
                        _ => None,
                    };
                    let string_keys = pairs
                        .iter()
                        .all(|p| matches!(pair(p), Some((Value::String(_), _))));
                    let looks_like_tag = pairs.len() == 1
                        && matches!(pair(&pairs[0]), Some((Value::String(k), _)) if TAGS.contains(&k.as_str()));
                    if string_keys && !looks_like_tag {
                        return Value::Object(
                            pairs
                                .iter()
                                .filter_map(pair)
                                .map(|(k, v)| (k.as_str().unwrap_or_default().to_owned(), v))
                                .collect(),
                        );
                    }
                    // Sorted by key, then by the whole pair.
                    pairs.sort_by(|a, b| match (a, b) {
                        (Value::Array(a), Value::Array(b)) if !a.is_empty() && !b.is_empty() => {
                            order(&a[0], &b[0]).then_with(|| order(&a[1..].into(), &b[1..].into()))
                        }
                        _ => order(a, b),
                    });
                    serde_json::json!({ "$dict": pairs })
                }
                _ => Value::Object(
                    fields
                        .iter()
                        .map(|(key, value)| (key.clone(), canonical(value)))
                        .collect(),
                ),
            }
        }
        other => other.clone(),
    }
}

/// A total order on JSON values for sorting sets and dict keys: by kind (null, booleans, numbers,
/// strings, arrays, objects), numbers by value (so `1` and `1.0` sort alike, and floats within a
/// tolerance sort next to each other), strings, arrays and objects (by sorted keys) item by item.
fn order(a: &Value, b: &Value) -> Ordering {
    let rank = |v: &Value| match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    };
    match (a, b) {
        (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => {
                let (a, b) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
                a.total_cmp(&b)
            }
        },
        (Value::String(a), Value::String(b)) => a.cmp(b),
        (Value::Array(a), Value::Array(b)) => a
            .iter()
            .zip(b)
            .map(|(a, b)| order(a, b))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.len().cmp(&b.len())),
        (Value::Object(a), Value::Object(b)) => {
            // serde_json's maps iterate in key order.
            a.iter()
                .zip(b)
                .map(|((ka, va), (kb, vb))| ka.cmp(kb).then_with(|| order(va, vb)))
                .find(|o| o.is_ne())
                .unwrap_or_else(|| a.len().cmp(&b.len()))
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

/// 128 bits from the host's randomness, hex: the harness's reporting token.
fn fresh_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    // RandomState is seeded from the OS per process and differs per instance; two of them give 128 bits.
    let half = || {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(0);
        hasher.finish()
    };
    format!("wasmeval-{:016x}{:016x}", half(), half())
}

/// What the harness reported.
#[derive(Debug, Default)]
struct Report {
    /// `Some(None)` loaded; `Some(Some(..))` the program raised while loading.
    load: Option<Option<(Verdict, String)>>,
    /// Per case: ended with verdict and message.
    ended: Vec<Option<(Verdict, Option<String>)>>,
    /// Per `calls` case: the judgement of the value it reported, until its `end` line.
    values: Vec<Option<(Verdict, Option<String>)>>,
    /// Index of a case that started and did not end.
    running: Option<usize>,
    done: bool,
    /// Protocol violations: lines with the token that make no sense (our fault, not the guest's).
    malformed: Option<String>,
}

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

/// Splits stdout into the harness's report and the candidate's own output.
fn read_report(stdout: &str, token: &str, layout: &Layout) -> (Report, String) {
    let cases = layout.names.len();
    let mut report = Report {
        ended: vec![None; cases],
        values: vec![None; cases],
        ..Report::default()
    };
    let mut own_output = String::with_capacity(stdout.len());
    let marker = format!("\n{token} ");
    let mut rest = stdout;
    while let Some(at) = rest.find(&marker) {
        own_output.push_str(&rest[..at]);
        let line_start = at + marker.len();
        let line_end = rest[line_start..]
            .find('\n')
            .map_or(rest.len(), |i| line_start + i);
        let line = &rest[line_start..line_end];
        rest = &rest[(line_end + 1).min(rest.len())..];
        if let Err(problem) = apply(&mut report, &layout.expected, line) {
            report
                .malformed
                .get_or_insert(format!("{problem}: `{line}`"));
        }
    }
    own_output.push_str(rest);
    (report, own_output)
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
    match words.next() {
        Some("loaded") => report.load = Some(None),
        Some("load") => {
            let kind = parse_kind(words.next().ok_or("missing kind")?).ok_or("bad kind")?;
            let rest = line.splitn(3, ' ').nth(2);
            report.load = Some(Some((kind, message(rest)?.unwrap_or_default())));
        }
        Some("start") => {
            let index: usize = words
                .next()
                .and_then(|i| i.parse().ok())
                .ok_or("bad index")?;
            if index >= report.ended.len() {
                return Err("case index out of range");
            }
            report.running = Some(index);
        }
        Some("value") => {
            let index: usize = words
                .next()
                .and_then(|i| i.parse().ok())
                .ok_or("bad index")?;
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
            let value: Value = serde_json::from_str(text).map_err(|_| "bad value")?;
            report.values[index] = Some(
                match compare_values(&expected.value, &canonical(&value), expected.tolerance) {
                    Ok(()) => (Verdict::Passed, None),
                    Err(difference) => (
                        Verdict::WrongAnswer,
                        Some(difference.chars().take(500).collect()),
                    ),
                },
            );
        }
        Some("end") => {
            let index: usize = words
                .next()
                .and_then(|i| i.parse().ok())
                .ok_or("bad index")?;
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
                    (kind, None) => (parse_kind(kind).ok_or("bad kind")?, message),
                }
            } else {
                if kind == "returned" {
                    return Err("returned for a case that is not a call");
                }
                (parse_kind(kind).ok_or("bad kind")?, message)
            };
            report.ended[index] = Some(ended);
            report.running = None;
        }
        Some("done") => report.done = true,
        _ => return Err("unknown report"),
    }
    Ok(())
}

/// The verdict an abnormal end of the process gives to the case that was running.
fn verdict_of_exit(execution: &Execution) -> (Verdict, Option<TimeoutCause>, String) {
    match (abnormal_end(execution), &execution.exit) {
        // Any exit, even with code 0, before the harness said `done` cut the tests short.
        (None | Some((Verdict::RuntimeError, ..)), Exit::Code(code)) => (
            Verdict::RuntimeError,
            None,
            format!("the program exited (code {code}) before its tests finished"),
        ),
        (Some(ended), _) => ended,
        (None, _) => unreachable!("only an exit code can end an execution normally"),
    }
}

/// Turns an execution into a result: per-case verdicts from the harness's report, and from the
/// process's end for the case it interrupted and those it never reached.
///
/// Of an `alternatives` suite, the result shows the cases of the first set that passed completely,
/// or else of the set with most passed cases (the first of those), and names it in `alternative`;
/// the sample passes when every `assertions` suite passes and every `alternatives` suite has a set
/// that passed.
fn judge(
    task: &Task,
    sample: &Sample,
    layout: &Layout,
    token: &str,
    execution: Execution,
) -> SampleResult {
    let case_names = &layout.names;
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let stderr = String::from_utf8_lossy(&execution.output.stderr);
    let (report, own_stdout) = read_report(&stdout, token, layout);
    let finished_normally = report.done && matches!(execution.exit, Exit::Code(_));

    let mut all_cases: Vec<CaseResult> = Vec::with_capacity(case_names.len());
    let mut interrupted: Option<(Verdict, Option<TimeoutCause>, String)> = None;
    if let Some(problem) = &report.malformed {
        interrupted = Some((
            Verdict::HarnessError,
            None,
            format!("harness report: {problem}"),
        ));
    } else if let Some(Some((verdict, message))) = &report.load {
        interrupted = Some((*verdict, None, message.clone()));
    } else if report.load.is_none() || !finished_normally {
        let (verdict, cause, message) = verdict_of_exit(&execution);
        // Before the program loaded, a plain exit is the interpreter failing to start or the
        // program exiting at import: both are the sample's doing, except a crash we cannot explain.
        interrupted = Some((verdict, cause, message));
    }
    for (index, name) in case_names.iter().enumerate() {
        // A garbled report is believed for no case (a candidate that found the token may have
        // written it): every case is a harness error.
        let ended = report.ended[index]
            .as_ref()
            .filter(|_| report.malformed.is_none());
        let case = match (ended, &interrupted) {
            (Some((verdict, message)), _) => CaseResult {
                name: name.clone(),
                verdict: *verdict,
                timeout_cause: None,
                message: message.clone(),
            },
            (None, Some((verdict, cause, message))) => {
                // The case that was running, and every case when the program never loaded, get the
                // cause itself; cases after a running one were never reached.
                let never_loaded = !matches!(report.load, Some(None));
                let message = if report.running == Some(index)
                    || never_loaded
                    || report.malformed.is_some()
                {
                    message.clone()
                } else {
                    format!("not run: {message}")
                };
                CaseResult {
                    name: name.clone(),
                    verdict: *verdict,
                    timeout_cause: *cause,
                    message: Some(message),
                }
            }
            (None, None) => CaseResult {
                name: name.clone(),
                verdict: Verdict::HarnessError,
                timeout_cause: None,
                message: Some("the harness reported no result for this case".into()),
            },
        };
        all_cases.push(case);
    }
    let (cases, alternative) = shown_cases(layout, all_cases);
    let (verdict, timeout_cause, message) =
        match cases.iter().find(|c| c.verdict != Verdict::Passed) {
            Some(case) => (case.verdict, case.timeout_cause, case.message.clone()),
            None if cases.is_empty() => match interrupted {
                Some((verdict, cause, message)) => (verdict, cause, Some(message)),
                None => (Verdict::Passed, None, None),
            },
            None => (Verdict::Passed, None, None),
        };
    SampleResult {
        alternative,
        task_id: task.id.clone(),
        verdict,
        timeout_cause,
        message,
        cases,
        fuel: execution.fuel,
        wall_us: execution.wall.as_micros() as u64,
        peak_memory: execution.peak_memory,
        stdout: excerpt(&own_stdout),
        stderr: excerpt(&stderr),
        output_bytes: execution.output.written,
        ..SampleResult::for_sample(sample)
    }
}

/// The cases a result shows, out of every case the harness ran: all of a plain suite, the chosen
/// set of an `alternatives` suite; with the chosen sets' names (joined by ", " when a task has
/// several `alternatives` suites).
fn shown_cases(layout: &Layout, all: Vec<CaseResult>) -> (Vec<CaseResult>, Option<String>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::output::Output;
    use std::time::Duration;
    use wasmeval_core::formats::tasks::parse_task;
    use wasmeval_core::SampleCode;

    const TOKEN: &str = "wasmeval-0123456789abcdef0123456789abcdef";

    fn mbpp_task() -> Task {
        parse_task(r#"{"task_id":1,"text":"","code":"","test_list":["assert f()","assert f()","assert f()"]}"#).unwrap()
    }

    fn sample() -> Sample {
        Sample {
            index: 4,
            task_id: "1".into(),
            model: None,
            code: SampleCode::Solution(String::new()),
            info: Default::default(),
        }
    }

    fn execution(exit: Exit, stdout: &str) -> Execution {
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

    fn verdicts(result: &SampleResult) -> Vec<Verdict> {
        result.cases.iter().map(|c| c.verdict).collect()
    }

    fn judged(exit: Exit, stdout: &str) -> SampleResult {
        judge(
            &mbpp_task(),
            &sample(),
            &Layout::of(&mbpp_task()),
            TOKEN,
            execution(exit, stdout),
        )
    }

    #[test]
    fn a_full_report_gives_every_case_its_verdict_and_strips_harness_lines() {
        let stdout = format!(
            "hello\n\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n\n{TOKEN} start 1\nmid\n\n{TOKEN} end 1 wrong_answer \"AssertionError\"\n\n{TOKEN} start 2\n\n{TOKEN} end 2 passed null\n\n{TOKEN} done\n"
        );
        let result = judged(Exit::Code(0), &stdout);
        assert_eq!(
            verdicts(&result),
            [Verdict::Passed, Verdict::WrongAnswer, Verdict::Passed]
        );
        assert_eq!(result.verdict, Verdict::WrongAnswer);
        assert_eq!(result.message.as_deref(), Some("AssertionError"));
        assert_eq!(result.stdout, "hello\nmid\n");
    }

    #[test]
    fn lines_with_another_token_are_only_output() {
        let forged = "wasmeval-ffffffffffffffffffffffffffffffff";
        let stdout = format!(
            "\n{forged} loaded\n\n{forged} start 0\n\n{forged} end 0 passed null\n\n{forged} done\n\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 wrong_answer \"AssertionError\"\n"
        );
        let result = judged(Exit::Code(0), &stdout);
        assert_eq!(result.verdict, Verdict::WrongAnswer);
        assert!(result.stdout.contains(forged));
    }

    #[test]
    fn exiting_early_never_passes() {
        // Loaded, first case passed, then the process exited 0 inside the second case.
        let stdout = format!(
            "\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n\n{TOKEN} start 1\n"
        );
        let result = judged(Exit::Code(0), &stdout);
        assert_eq!(
            verdicts(&result),
            [
                Verdict::Passed,
                Verdict::RuntimeError,
                Verdict::RuntimeError
            ]
        );
        assert!(result.cases[2]
            .message
            .as_deref()
            .unwrap()
            .starts_with("not run: "));
        // Exited before loading finished: no case passes.
        let result = judged(Exit::Code(0), "all tests passed\n");
        assert_eq!(verdicts(&result), [Verdict::RuntimeError; 3]);
        // Every case ended but `done` never came: still not a pass.
        let stdout = format!(
            "\n{TOKEN} loaded\n{}",
            (0..3)
                .map(|i| format!("\n{TOKEN} start {i}\n\n{TOKEN} end {i} passed null\n"))
                .collect::<String>()
        );
        // ... unless every case reported its end: the checks really ran and held; a crash after them
        // (at interpreter shutdown) does not undo that.
        assert_eq!(
            judged(Exit::Trap("unreachable".into()), &stdout).verdict,
            Verdict::Passed
        );
    }

    #[test]
    fn the_end_of_the_process_names_the_limit_that_stopped_it() {
        let running = format!("\n{TOKEN} loaded\n\n{TOKEN} start 0\n");
        let result = judged(Exit::OutOfFuel, &running);
        assert_eq!(
            (result.verdict, result.timeout_cause),
            (Verdict::Timeout, Some(TimeoutCause::Fuel))
        );
        let result = judged(Exit::WallTimeout, &running);
        assert_eq!(
            (result.verdict, result.timeout_cause),
            (Verdict::Timeout, Some(TimeoutCause::Wall))
        );
        assert_eq!(
            judged(Exit::OutputLimit, &running).verdict,
            Verdict::OutputLimit
        );
        let mut denied = execution(Exit::Code(1), &running);
        denied.memory_denied = true;
        assert_eq!(
            judge(
                &mbpp_task(),
                &sample(),
                &Layout::of(&mbpp_task()),
                TOKEN,
                denied
            )
            .verdict,
            Verdict::MemoryLimit
        );
    }

    #[test]
    fn a_program_that_fails_to_load_fails_every_case_with_its_error() {
        let stdout = format!(
            "\n{TOKEN} load runtime_error \"SyntaxError: invalid syntax (program.py, line 1)\"\n"
        );
        let result = judged(Exit::Code(0), &stdout);
        assert_eq!(verdicts(&result), [Verdict::RuntimeError; 3]);
        assert_eq!(
            result.message.as_deref(),
            Some("SyntaxError: invalid syntax (program.py, line 1)")
        );
    }

    /// A plain suite (`p`), an io suite the harness never sees, and alternatives `A` (a1, a2),
    /// `B` (b1..b3), `C` (c1, c2): the harness numbers p, a1, a2, b1, b2, b3, c1, c2 from 0.
    fn alternatives_task() -> Task {
        parse_task(
            r#"{"id":"alt","prompt":"","tests":[
                {"kind":"assertions","cases":[{"name":"p","code":"assert f"}]},
                {"kind":"io","cases":[{"name":"io1","stdin":"","stdout":"x"}]},
                {"kind":"alternatives","entry_point":"f","sets":[
                    {"name":"A","cases":[{"name":"a1","code":"1"},{"name":"a2","code":"2"}]},
                    {"name":"B","setup":"s = 1","cases":[{"name":"b1","code":"1"},{"name":"b2","code":"2"},{"name":"b3","code":"3"}]},
                    {"name":"C","cases":[{"name":"c1","code":"1"},{"name":"c2","code":"2"}]}]}]}"#,
        )
        .unwrap()
    }

    /// A complete report in which case i ended with `kinds[i]`.
    fn full_report(kinds: &[&str]) -> String {
        let mut stdout = format!("\n{TOKEN} loaded\n");
        for (i, kind) in kinds.iter().enumerate() {
            let message = if *kind == "passed" { "null" } else { "\"E\"" };
            stdout += &format!("\n{TOKEN} start {i}\n\n{TOKEN} end {i} {kind} {message}\n");
        }
        stdout + &format!("\n{TOKEN} done\n")
    }

    fn judged_alternatives(exit: Exit, stdout: &str) -> SampleResult {
        let task = alternatives_task();
        judge(
            &task,
            &sample(),
            &Layout::of(&task),
            TOKEN,
            execution(exit, stdout),
        )
    }

    fn names(result: &SampleResult) -> Vec<&str> {
        result.cases.iter().map(|c| c.name.as_str()).collect()
    }

    #[test]
    fn the_harness_gets_assertion_and_alternatives_suites_but_not_io_suites() {
        let task = alternatives_task();
        let suites = harness_suites(&task);
        let kinds: Vec<&str> = suites.iter().map(|s| s["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["assertions", "alternatives"]);
        assert_eq!(suites[1]["entry_point"], "f");
        assert_eq!(suites[1]["sets"][1]["setup"], "s = 1");
        assert_eq!(suites[1]["sets"][1]["cases"][2], "3");
        assert_eq!(
            Layout::of(&task).names,
            ["p", "a1", "a2", "b1", "b2", "b3", "c1", "c2"]
        );
        // Without alternatives, nothing changes: no alternative, every case shown.
        let result = judged(Exit::Code(0), &full_report(&["passed"; 3]));
        assert_eq!(
            (result.verdict, result.alternative),
            (Verdict::Passed, None)
        );
    }

    #[test]
    fn the_first_complete_set_is_shown_and_passes_the_sample() {
        let p = "passed";
        let w = "wrong_answer";
        // A fails, B and C pass completely: B is shown.
        let result = judged_alternatives(Exit::Code(0), &full_report(&[p, w, p, p, p, p, p, p]));
        assert_eq!(result.verdict, Verdict::Passed);
        assert_eq!(result.alternative.as_deref(), Some("B"));
        assert_eq!(names(&result), ["p", "b1", "b2", "b3"]);
        assert_eq!(result.message, None);
    }

    #[test]
    fn without_a_complete_set_the_closest_is_shown_ties_going_to_the_first() {
        let p = "passed";
        let w = "wrong_answer";
        let r = "runtime_error";
        // A 0, B 2, C 1 passed: B.
        let result = judged_alternatives(Exit::Code(0), &full_report(&[p, w, r, p, w, p, p, w]));
        assert_eq!(result.verdict, Verdict::WrongAnswer);
        assert_eq!(result.alternative.as_deref(), Some("B"));
        assert_eq!(names(&result), ["p", "b1", "b2", "b3"]);
        assert_eq!(
            verdicts(&result),
            [
                Verdict::Passed,
                Verdict::Passed,
                Verdict::WrongAnswer,
                Verdict::Passed
            ]
        );
        // One each: A, the first. The verdict is that of the shown set's first failing case.
        let result = judged_alternatives(Exit::Code(0), &full_report(&[p, p, r, p, w, w, w, p]));
        assert_eq!(result.alternative.as_deref(), Some("A"));
        assert_eq!(result.verdict, Verdict::RuntimeError);
    }

    #[test]
    fn a_complete_set_does_not_excuse_a_failing_plain_suite() {
        let p = "passed";
        let result = judged_alternatives(
            Exit::Code(0),
            &full_report(&["wrong_answer", p, p, p, p, p, p, p]),
        );
        assert_eq!(result.verdict, Verdict::WrongAnswer);
        assert_eq!(result.alternative.as_deref(), Some("A"));
        assert_eq!(names(&result), ["p", "a1", "a2"]);
    }

    #[test]
    fn a_set_cut_short_by_a_limit_leaves_the_later_sets_not_run() {
        // A's second case ran out of fuel: B and C never ran.
        let stdout = format!(
            "\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n\n{TOKEN} start 1\n\n{TOKEN} end 1 passed null\n\n{TOKEN} start 2\n"
        );
        let result = judged_alternatives(Exit::OutOfFuel, &stdout);
        assert_eq!(result.alternative.as_deref(), Some("A"));
        assert_eq!(
            (result.verdict, result.timeout_cause),
            (Verdict::Timeout, Some(TimeoutCause::Fuel))
        );
        assert_eq!(result.message.as_deref(), Some("fuel budget exhausted"));
        // A report that ends every case of every set but misses `done` after a trap still counts.
        let mut complete = full_report(&["passed"; 8]);
        complete.truncate(complete.len() - format!("\n{TOKEN} done\n").len());
        let result = judged_alternatives(Exit::Trap("unreachable".into()), &complete);
        assert_eq!(result.verdict, Verdict::Passed);
        assert_eq!(result.alternative.as_deref(), Some("A"));
    }

    /// A calls suite (`add`: c0, c1) after a plain suite (`p`): the harness numbers p, c0, c1.
    fn calls_task() -> Task {
        parse_task(
            r#"{"id":"calls","prompt":"","tests":[
                {"kind":"assertions","cases":[{"name":"p","code":"assert add(1, 1) == 2"}]},
                {"kind":"calls","entry_point":"add","tolerance":0.001,"cases":[
                    {"name":"c0","args":[2,3],"expected":5},
                    {"name":"c1","args":[{"$tuple":[1]}],"expected":{"$tuple":[0.5,{"$set":[3,1,2]}]}}]}]}"#,
        )
        .unwrap()
    }

    fn judged_calls(exit: Exit, stdout: &str) -> SampleResult {
        let task = calls_task();
        judge(
            &task,
            &sample(),
            &Layout::of(&task),
            TOKEN,
            execution(exit, stdout),
        )
    }

    /// A complete report: `p` passed, then each call's lines as given (without the token).
    fn calls_report(c0: &[&str], c1: &[&str]) -> String {
        let mut stdout =
            format!("\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n");
        for (index, lines) in [(1, c0), (2, c1)] {
            stdout += &format!("\n{TOKEN} start {index}\n");
            for line in lines {
                stdout += &format!("\n{TOKEN} {line}\n");
            }
        }
        stdout + &format!("\n{TOKEN} done\n")
    }

    #[test]
    fn the_harness_gets_a_calls_suites_arguments_but_never_its_expected_values() {
        let task = calls_task();
        let suites = harness_suites(&task);
        assert_eq!(
            suites[1],
            serde_json::json!({"kind": "calls", "entry_point": "add", "cases": [[2, 3], [{"$tuple": [1]}]]})
        );
        let sent = serde_json::to_string(&suites).unwrap();
        assert!(!sent.contains("0.5") && !sent.contains("$set") && !sent.contains("c0"));
        let layout = Layout::of(&task);
        assert_eq!(layout.names, ["p", "c0", "c1"]);
        assert!(layout.expected[0].is_none() && layout.expected[2].is_some());
    }

    #[test]
    fn a_reported_value_is_compared_on_the_host() {
        let right = calls_report(
            &["value 1 5", "end 1 returned null"],
            // Within the tolerance, the set in another order.
            &[
                r#"value 2 {"$tuple":[0.5001,{"$set":[1,2,3]}]}"#,
                "end 2 returned null",
            ],
        );
        let result = judged_calls(Exit::Code(0), &right);
        assert_eq!(verdicts(&result), [Verdict::Passed; 3]);
        assert_eq!(result.verdict, Verdict::Passed);

        let wrong = calls_report(
            &["value 1 5.0", "end 1 returned null"],
            &[r#"value 2 [0.5,{"$set":[1,2,3]}]"#, "end 2 returned null"],
        );
        let result = judged_calls(Exit::Code(0), &wrong);
        assert_eq!(
            verdicts(&result),
            [Verdict::Passed, Verdict::Passed, Verdict::WrongAnswer]
        );
        assert_eq!(
            result.message.as_deref(),
            Some(r#"expected {"$tuple":[0.5,{"$set":[1,2,3]}]}, got [0.5,{"$set":[1,2,3]}]"#)
        );

        // Failures reported by the guest stand; the process's end still counts.
        let failed = calls_report(
            &[r#"end 1 runtime_error "return value of type X is not plain data""#],
            &[r#"end 2 memory_limit "MemoryError""#],
        );
        let result = judged_calls(Exit::Code(0), &failed);
        assert_eq!(
            verdicts(&result),
            [Verdict::Passed, Verdict::RuntimeError, Verdict::MemoryLimit]
        );
        let cut = format!(
            "\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n\n{TOKEN} start 1\n\n{TOKEN} value 1 5\n"
        );
        let result = judged_calls(Exit::OutOfFuel, &cut);
        assert_eq!(
            verdicts(&result),
            [Verdict::Passed, Verdict::Timeout, Verdict::Timeout]
        );
        assert!(result.cases[2]
            .message
            .as_deref()
            .unwrap()
            .starts_with("not run: "));
    }

    #[test]
    fn a_call_never_takes_a_verdict_from_the_guest_and_a_bad_sequence_is_a_harness_error() {
        let returned = "end 1 returned null";
        let c1 = ["value 2 1", "end 2 returned null"];
        for c0 in [
            // `passed` from the guest, with or without a value.
            &["end 1 passed null"][..],
            &["value 1 5", "end 1 passed null"],
            // No value, two values, a value after the end, a failure after a value.
            &[returned],
            &["value 1 5", "value 1 5", returned],
            &["value 1 5", returned, "value 1 5"],
            &["value 1 5", r#"end 1 runtime_error "E""#],
            &["value 1 5", returned, returned],
            // A value for another case, for a case not running, or not JSON.
            &["value 0 5", returned],
            &["value 2 5", returned],
            &["value 9 5", returned],
            &["value 1 {5", returned],
            &["value 1", returned],
        ] {
            let result = judged_calls(Exit::Code(0), &calls_report(c0, &c1));
            assert_eq!(result.verdict, Verdict::HarnessError, "{c0:?}");
            assert!(result
                .cases
                .iter()
                .all(|c| c.verdict == Verdict::HarnessError));
        }
        // `returned` for an assertion case.
        let stdout =
            format!("\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 returned null\n");
        assert_eq!(
            judged_calls(Exit::Code(0), &stdout).verdict,
            Verdict::HarnessError
        );
        // Lines without the token are output, whatever they say.
        let forged = "wasmeval-ffffffffffffffffffffffffffffffff";
        let stdout = calls_report(&[r#"end 1 runtime_error "E""#], &c1).replace(
            &format!("{TOKEN} start 1\n"),
            &format!("{TOKEN} start 1\n\n{forged} value 1 5\n\n{forged} end 1 returned null\n"),
        );
        let result = judged_calls(Exit::Code(0), &stdout);
        assert_eq!(result.cases[1].verdict, Verdict::RuntimeError);
        assert!(result.stdout.contains(forged));
    }

    #[test]
    fn sets_and_dicts_compare_in_any_order_and_string_keyed_dicts_either_way() {
        use serde_json::json;
        let same = |a: Value, b: Value| compare_values(&canonical(&a), &canonical(&b), 0.0);
        assert_eq!(
            same(json!({"$set": [3, 1, 2]}), json!({"$set": [1, 2, 3.0]})),
            Ok(())
        );
        assert_eq!(
            same(
                json!({"$dict": [[2, "b"], [{"$tuple": [1]}, "t"], [1, "a"]]}),
                json!({"$dict": [[1, "a"], [2, "b"], [{"$tuple": [1]}, "t"]]})
            ),
            Ok(())
        );
        assert_eq!(
            same(
                json!({"a": {"$set": ["y", "x"]}}),
                json!({"$dict": [["a", {"$set": ["x", "y"]}]]})
            ),
            Ok(())
        );
        assert_eq!(
            same(
                json!({"$set": [{"$set": [2, 1]}, [1]]}),
                json!({"$set": [[1], {"$set": [1, 2]}]})
            ),
            Ok(())
        );
        // A dict whose only key is a tag name stays a `$dict`: it is not the tagged value.
        assert!(same(json!({"$tuple": [1]}), json!({"$dict": [["$tuple", [1]]]})).is_err());
        assert!(same(json!({"$set": [1, 2]}), json!({"$set": [1, 2, 2]})).is_err());
        assert!(same(json!({"$set": [1]}), json!([1])).is_err());
        assert!(same(json!({"$float": "nan"}), json!({"$float": "inf"})).is_err());
    }

    #[test]
    fn a_garbled_report_is_a_harness_error() {
        let stdout = format!("\n{TOKEN} loaded\n\n{TOKEN} start 7\n");
        assert_eq!(
            judged(Exit::Code(0), &stdout).verdict,
            Verdict::HarnessError
        );
        // One bad line spoils the whole report, even one in which every case passed.
        let stdout = full_report(&["passed"; 3]) + &format!("\n{TOKEN} bogus\n");
        assert_eq!(
            verdicts(&judged(Exit::Code(0), &stdout)),
            [Verdict::HarnessError; 3]
        );
    }
}
