//! Expected values computed from a task's reference solution, as EvalPlus computes its expected
//! outputs: the reference runs on each case's arguments, and what it returns is the value the
//! case expects. This module is the pure part (which cases wait, the job that runs the reference,
//! how its report reads, how the values go into the task and what budget follows); the runner runs
//! the job in the sandbox and caches the values by content (runner/src/reference_outputs.rs), so
//! that every front end judges against the same stored values.
//!
//! A case waits while its `expected` is `{"$reference": null}` ([`pending`]). An expected value
//! too large to keep (the largest outputs of a task, past [`VALUE_BUDGET`] in all) is kept as
//! `{"$sha256": "<hex>"}` ([`is_digest`]): the harness reports the digest of the returned value's
//! form under Python's `==` for such a case, and the host compares digests.
//!
//! An input on which the reference raises, does not finish within the runner's budget, or whose
//! output fails the case's own comparison (EvalPlus's HumanEval/32 oracle) is a defect of the
//! dataset: [`apply`] leaves the case out and names it.

use crate::evaluation::{python, Job, FUEL_PER_NATIVE_SECOND};
use crate::judging::calls::{Expected, Operators};
use crate::judging::token::Token;
use crate::judging::{evalplus, Execution, Outcome};
use crate::results::Verdict;
use crate::sample::{Sample, SampleCode};
use crate::task::{CallCheck, Task, TestSuite};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The tag of an expected value still to be computed from the reference.
pub const PENDING_TAG: &str = "$reference";

/// The tag of an expected value kept as the SHA-256 of its form under Python's `==`.
pub const DIGEST_TAG: &str = "$sha256";

/// Bytes of JSON that a task's expected values may take in all: past it, the largest are kept as
/// digests. It keeps a sample's report (one line per case, about 150 bytes besides the value)
/// within the default output limit of 1 MiB, and task files and bundles small.
pub const VALUE_BUDGET: usize = 256 << 10;

/// EvalPlus's `gt_time_limit_factor`: a sample may take this many times the reference's fuel.
pub const FUEL_FACTOR: f64 = 4.0;

/// EvalPlus's `min_time_limit`, in seconds of native CPython: the least a sample gets.
pub const FLOOR_SECONDS: f64 = 4.0;

/// The expected value of a case waiting for the reference's output.
pub fn pending() -> Value {
    serde_json::json!({ PENDING_TAG: null })
}

fn has_tag(value: &Value, tag: &str) -> bool {
    matches!(value, Value::Object(fields) if fields.len() == 1 && fields.contains_key(tag))
}

/// Whether `expected` waits for the reference's output.
pub fn is_pending(expected: &Value) -> bool {
    has_tag(expected, PENDING_TAG)
}

/// Whether `expected` is kept as a digest.
pub fn is_digest(expected: &Value) -> bool {
    has_tag(expected, DIGEST_TAG)
}

/// A case of a task: its suite's place in `tests` and its place in the suite.
pub type At = (usize, usize);

/// The `calls` cases of `task` waiting for the reference's output, in order.
pub fn pending_cases(task: &Task) -> Vec<At> {
    let mut found = Vec::new();
    for (s, suite) in task.tests.iter().enumerate() {
        if let TestSuite::Calls { cases, .. } = suite {
            found.extend(
                cases
                    .iter()
                    .enumerate()
                    .filter(|(_, case)| is_pending(&case.expected))
                    .map(|(c, _)| (s, c)),
            );
        }
    }
    found
}

/// What the reference is asked for one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// Its returned value.
    Value,
    /// The digest of its returned value's form under Python's `==`.
    Digest,
}

/// The reference solution of `task`, as the sample that runs it.
pub fn reference_sample(task: &Task) -> Result<Sample, String> {
    let reference = task
        .references
        .first()
        .ok_or("its expected values come from a reference solution, and it has none")?;
    Ok(Sample {
        index: 0,
        task_id: task.id.clone(),
        model: None,
        code: SampleCode::Solution(reference.code.clone()),
        info: Default::default(),
    })
}

/// `task` with only its `calls` cases `asked` (each suite keeping its setup and entry point, the
/// cases in order), as the reference runs them: a case asked for a digest has a digest for its
/// expected value, so that the harness reports one.
pub fn asked_task(task: &Task, asked: &[(At, Ask)]) -> Task {
    let mut tests = Vec::new();
    for (s, suite) in task.tests.iter().enumerate() {
        let TestSuite::Calls {
            setup,
            entry_point,
            tolerance,
            cases,
        } = suite
        else {
            continue;
        };
        let chosen: Vec<_> = asked
            .iter()
            .filter(|((suite, _), _)| *suite == s)
            .filter_map(|((_, c), ask)| {
                let mut case = cases.get(*c)?.clone();
                case.expected = match ask {
                    Ask::Value => pending(),
                    Ask::Digest => serde_json::json!({ DIGEST_TAG: "" }),
                };
                Some(case)
            })
            .collect();
        if !chosen.is_empty() {
            tests.push(TestSuite::Calls {
                setup: setup.clone(),
                entry_point: entry_point.clone(),
                tolerance: *tolerance,
                cases: chosen,
            });
        }
    }
    Task {
        tests,
        ..task.clone()
    }
}

/// The job that runs `task`'s reference on the cases `asked` in the Python harness (`alone`),
/// reporting with `token`.
pub fn reference_job(
    task: &Task,
    asked: &[(At, Ask)],
    token: &Token,
    harness_code: &[u8],
) -> Result<Job, String> {
    if task.language != crate::task::Language::Python {
        return Err(format!(
            "expected values from the reference are computed for Python tasks only, not {}",
            task.language
        ));
    }
    let sample = reference_sample(task)?;
    Ok(python::alone_harness_job(
        &asked_task(task, asked),
        &sample,
        token,
        harness_code,
    ))
}

/// What the reference did on one case of a run.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// It returned this value (or digest).
    Value(Value),
    /// It raised, or returned nothing the harness could report; the message says which.
    Raised(String),
    /// The run ended while the case ran (a limit, a trap): the outcome says how.
    Cut(Outcome),
    /// The run ended before the case began.
    NotReached,
}

/// Reads the report of a reference run of `count` cases (the harness's lines, see
/// `judging::python::protocol`): each case's answer, in order.
pub fn read_answers(count: usize, token: &Token, execution: &Execution) -> Vec<Answer> {
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let scanned = token.scan(&stdout);
    let mut values: Vec<Option<Value>> = vec![None; count];
    let mut ended: Vec<Option<Answer>> = vec![None; count];
    let (mut running, mut done, mut load_failure) = (None, false, None);
    let index = |word: Option<&str>| {
        word.and_then(|w| w.parse::<usize>().ok())
            .filter(|&i| i < count)
    };
    let message = |text: Option<&str>| {
        text.and_then(|t| serde_json::from_str::<Option<String>>(t).ok())
            .flatten()
            .unwrap_or_default()
    };
    for line in scanned.lines {
        let mut words = line.splitn(4, ' ');
        match words.next() {
            Some("load") => load_failure = Some(message(line.splitn(3, ' ').nth(2))),
            Some("start") => running = index(words.next()),
            Some("value") => {
                if let Some(i) = index(words.next()) {
                    let text = line.splitn(3, ' ').nth(2).unwrap_or("null");
                    values[i] = crate::formats::jsonl::value_exact(text).ok();
                }
            }
            Some("end") => {
                let Some(i) = index(words.next()) else {
                    continue;
                };
                let kind = words.next().unwrap_or_default();
                ended[i] = Some(match (kind, values[i].take()) {
                    ("returned", Some(value)) => Answer::Value(value),
                    ("returned", None) => Answer::Raised("no value reported".into()),
                    (_, _) => Answer::Raised(message(words.next())),
                });
                running = None;
            }
            Some("done") => done = true,
            _ => {}
        }
    }
    let cut = Outcome::of_cut_short(execution);
    let mut answers: Vec<Answer> = ended
        .into_iter()
        .enumerate()
        .map(|(i, ended)| match (ended, &load_failure) {
            (_, Some(failure)) => Answer::Raised(format!("the reference does not load: {failure}")),
            (Some(answer), None) => answer,
            (None, None) if running == Some(i) => Answer::Cut(cut.clone()),
            (None, None) if done => Answer::Raised("no report for this case".into()),
            (None, None) => Answer::NotReached,
        })
        .collect();
    // A run that ended before any case began (the interpreter, or the reference's own top
    // level, failed): every case is cut, so that the runner does not try again for ever.
    if answers.iter().all(|a| *a == Answer::NotReached) {
        answers = vec![Answer::Cut(cut); count];
    }
    answers
}

/// Which of the values the reference returned (`values`: a case and its value) to keep as
/// digests: the largest, until the others take at most [`VALUE_BUDGET`] bytes of JSON in all.
pub fn to_digest<K: Copy + Ord>(values: &[(K, &Value)]) -> Vec<K> {
    let mut sized: Vec<(usize, K)> = values
        .iter()
        .map(|(at, value)| (value.to_string().len(), *at))
        .collect();
    let mut total: usize = sized.iter().map(|(size, _)| size).sum();
    // Largest first; ties in the cases' order, so that the choice is the same on every machine.
    sized.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen = Vec::new();
    for (size, at) in sized {
        if total <= VALUE_BUDGET {
            break;
        }
        total -= size;
        chosen.push(at);
    }
    chosen.sort_unstable();
    chosen
}

/// What the reference gave for a task's waiting cases, as the runner caches it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outputs {
    /// Per waiting case ([`pending_cases`], in order): the reference's output, or why there is
    /// none.
    pub cases: Vec<Output>,
    /// The reference's fuel over the cases it answered, in one run of the harness as a sample's
    /// (the interpreter's start included).
    pub fuel: u64,
}

/// The reference's output on one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Output {
    /// Its value, or the value's digest.
    Value(Value),
    /// Why the case has none: the dataset's defect.
    Defect(String),
}

/// A case [`apply`] left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defect {
    /// The case's name (`plus/17`).
    pub case: String,
    /// Why.
    pub reason: String,
}

/// What [`apply`] did to a task.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The cases left out.
    pub defects: Vec<Defect>,
    /// The task's time limit from the reference's fuel ([`budget_seconds`]).
    pub time_limit: f64,
}

/// Puts `outputs` into `task`'s waiting cases: each case expects the reference's output, with
/// EvalPlus's tolerance of its input ([`evalplus::tolerances`]); a case without an output, or
/// whose output fails its own comparison, is left out as a defect. The task's time limit becomes
/// the reference's budget ([`budget_seconds`]).
pub fn apply(task: &mut Task, outputs: &Outputs) -> Result<Applied, String> {
    let waiting = pending_cases(task);
    if waiting.len() != outputs.cases.len() {
        return Err(format!(
            "{} outputs for {} waiting cases",
            outputs.cases.len(),
            waiting.len()
        ));
    }
    let mut defects: Vec<(At, Defect)> = Vec::new();
    for (at, output) in waiting.iter().zip(&outputs.cases) {
        let Some(case) = calls_case(task, *at) else {
            continue;
        };
        match output {
            Output::Value(value) => case.expected = value.clone(),
            Output::Defect(reason) => defects.push((
                *at,
                Defect {
                    case: case.name.clone(),
                    reason: reason.clone(),
                },
            )),
        }
    }
    // (A case left waiting is no float: it moves no tolerance.)
    set_tolerances(task);
    // The reference must pass its own cases: an output its comparison refuses (NaN is equal to
    // nothing; a root beyond the tolerance) makes an input that nobody can pass.
    for at in &waiting {
        if defects.iter().any(|(d, _)| d == at) {
            continue;
        }
        let Some(TestSuite::Calls {
            tolerance, cases, ..
        }) = task.tests.get(at.0)
        else {
            continue;
        };
        let Some(case) = cases.get(at.1) else {
            continue;
        };
        let judged = Expected::of(case, *tolerance, Operators::Python).judge(&case.expected);
        if judged.verdict != Verdict::Passed {
            defects.push((
                *at,
                Defect {
                    case: case.name.clone(),
                    reason: format!(
                        "the reference's own output fails the comparison: {}",
                        judged.message.unwrap_or_default()
                    ),
                },
            ));
        }
    }
    defects.sort_by_key(|(at, _)| *at);
    drop_cases(task, &defects.iter().map(|(at, _)| *at).collect::<Vec<_>>());
    set_tolerances(task);
    let time_limit = budget_seconds(outputs.fuel);
    task.time_limit = Some(time_limit);
    Ok(Applied {
        defects: defects.into_iter().map(|(_, defect)| defect).collect(),
        time_limit,
    })
}

fn calls_case(task: &mut Task, (s, c): At) -> Option<&mut crate::task::CallCase> {
    match task.tests.get_mut(s)? {
        TestSuite::Calls { cases, .. } => cases.get_mut(c),
        _ => None,
    }
}

/// Removes the `calls` cases at `at` (positions before any removal).
fn drop_cases(task: &mut Task, at: &[At]) {
    for (s, suite) in task.tests.iter_mut().enumerate() {
        if let TestSuite::Calls { cases, .. } = suite {
            let mut c = 0;
            cases.retain(|_| {
                let keep = !at.contains(&(s, c));
                c += 1;
                keep
            });
        }
    }
}

/// Sets each EvalPlus case's tolerance: its suite's (the task's `atol`) or EvalPlus's float
/// tolerance, per input set in order ([`evalplus::tolerances`]).
fn set_tolerances(task: &mut Task) {
    for suite in &mut task.tests {
        let TestSuite::Calls {
            tolerance, cases, ..
        } = suite
        else {
            continue;
        };
        let mut start = 0;
        while start < cases.len() {
            let set = evalplus::input_set(&cases[start].name).to_owned();
            let end = start
                + cases[start..]
                    .iter()
                    .take_while(|c| evalplus::input_set(&c.name) == set)
                    .count();
            let group = &mut cases[start..end];
            if group
                .iter()
                .all(|c| matches!(c.check, CallCheck::EvalPlus(_)))
            {
                let found = evalplus::tolerances(*tolerance, group.iter().map(|c| &c.expected));
                for (case, atol) in group.iter_mut().zip(found) {
                    case.tolerance = Some(atol);
                }
            }
            start = end;
        }
    }
}

/// A sample's time limit, in seconds of native CPython, from the reference's `fuel` on the same
/// cases: [`FUEL_FACTOR`] times it, at least [`FLOOR_SECONDS`] (EvalPlus's factor and floor,
/// applied to the whole run rather than per input), in hundredths of a second.
pub fn budget_seconds(fuel: u64) -> f64 {
    let seconds = FUEL_FACTOR * fuel as f64 / FUEL_PER_NATIVE_SECOND;
    (seconds.max(FLOOR_SECONDS) * 100.0).ceil() / 100.0
}

/// What identifies a task's reference outputs, as text for a content hash: the language, the
/// prelude, the reference and every waiting case's suite setup, entry point and arguments (the
/// runner adds the interpreter's and the harness's digests).
pub fn key_material(task: &Task) -> Result<String, String> {
    let reference = reference_sample(task)?.program(task);
    let waiting = pending_cases(task);
    let suites: Vec<Value> = task
        .tests
        .iter()
        .enumerate()
        .filter_map(|(s, suite)| match suite {
            TestSuite::Calls {
                setup,
                entry_point,
                cases,
                ..
            } => {
                let args: Vec<&Vec<Value>> = cases
                    .iter()
                    .enumerate()
                    .filter(|(c, _)| waiting.contains(&(s, *c)))
                    .map(|(_, case)| &case.args)
                    .collect();
                (!args.is_empty()).then(|| {
                    serde_json::json!({"setup": setup, "entry_point": entry_point, "args": args})
                })
            }
            _ => None,
        })
        .collect();
    Ok(serde_json::json!({
        "kind": "wasmeval reference outputs",
        "version": 1,
        "language": task.language,
        "prelude": task.prelude,
        "reference": reference,
        "suites": suites,
    })
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::{Exit, Output as Captured};
    use serde_json::json;

    fn task() -> Task {
        crate::formats::tasks::parse_task(
            &json!({"task_id": "T/0", "prompt": "def f(x):\n", "entry_point": "f",
                "canonical_solution": "    return x / 2\n", "test": "", "atol": 0,
                "base_input": [[2], [3]], "plus_input": [[0], [5]]})
            .to_string(),
        )
        .unwrap()
    }

    fn execution(stdout: &str, exit: Exit) -> Execution {
        Execution {
            exit,
            fuel: 7,
            wall: Default::default(),
            peak_memory: 0,
            memory_denied: false,
            output: Captured {
                stdout: stdout.as_bytes().to_vec(),
                stderr: Vec::new(),
                written: stdout.len() as u64,
            },
        }
    }

    #[test]
    fn a_report_gives_each_case_its_value_failure_or_cut() {
        let token = Token::from_random_bytes([3; 16]);
        let t = token.as_str();
        let stdout = format!(
            "\n{t} loaded\n\n{t} start 0\n\n{t} value 0 1.5\n\n{t} end 0 returned null\n\
             \n{t} start 1\n\n{t} end 1 runtime_error \"ZeroDivisionError: x\"\n\n{t} start 2\n"
        );
        let answers = read_answers(4, &token, &execution(&stdout, Exit::OutOfFuel));
        assert_eq!(answers[0], Answer::Value(json!(1.5)));
        assert_eq!(answers[1], Answer::Raised("ZeroDivisionError: x".into()));
        assert!(matches!(answers[2], Answer::Cut(_)));
        assert_eq!(answers[3], Answer::NotReached);
        // A run that never reached a case cuts them all, so that nothing is asked for ever.
        let none = read_answers(2, &token, &execution("", Exit::Code(1)));
        assert!(none.iter().all(|a| matches!(a, Answer::Cut(_))));
    }

    #[test]
    fn outputs_fill_the_cases_defects_are_left_out_and_the_budget_follows_the_fuel() {
        let mut task = task();
        assert_eq!(pending_cases(&task).len(), 4);
        let outputs = Outputs {
            cases: vec![
                Output::Value(json!(1)),
                Output::Value(json!(1.5)),
                Output::Defect("the reference raised: X".into()),
                Output::Value(json!({"$float": "nan"})),
            ],
            fuel: 100_000_000_000,
        };
        let applied = apply(&mut task, &outputs).unwrap();
        let names: Vec<&str> = applied.defects.iter().map(|d| d.case.as_str()).collect();
        assert_eq!(names, ["plus/0", "plus/1"], "{applied:?}");
        assert!(applied.defects[1].reason.contains("own output fails"));
        let TestSuite::Calls { cases, .. } = &task.tests[0] else {
            panic!("calls")
        };
        assert_eq!(cases.len(), 2);
        // The float tolerance from the first float output of the set on.
        assert_eq!(
            cases.iter().map(|c| c.tolerance).collect::<Vec<_>>(),
            [Some(0.0), Some(1e-6)]
        );
        // 4 x 1e11 fuel is 7.02 s of native CPython, above the 4 s floor.
        assert_eq!(applied.time_limit, 7.02);
        assert_eq!(task.time_limit, Some(7.02));
        assert_eq!(budget_seconds(1), FLOOR_SECONDS);
        assert!(pending_cases(&task).is_empty());
        // The outputs of another task do not fit.
        assert!(apply(
            &mut crate::formats::tasks::parse_task(
                &json!({"task_id": "T/1",
            "prompt": "", "entry_point": "f", "canonical_solution": "", "test": "",
            "base_input": [[1]], "plus_input": []})
                .to_string()
            )
            .unwrap(),
            &outputs
        )
        .is_err());
    }

    #[test]
    fn the_largest_values_past_the_budget_become_digests() {
        let big = json!("x".repeat(VALUE_BUDGET));
        let small = json!([1, 2]);
        let chosen = to_digest(&[(0, &small), (1, &big), (2, &small)]);
        assert_eq!(chosen, [1]);
        assert!(to_digest(&[(0, &small)]).is_empty());
        // The reference is asked for a digest of those: the harness sees a digest's form only.
        let task = task();
        let asked = asked_task(&task, &[((0, 1), Ask::Digest), ((0, 3), Ask::Value)]);
        let TestSuite::Calls { cases, .. } = &asked.tests[0] else {
            panic!("calls")
        };
        assert_eq!(
            (cases[0].name.as_str(), cases[1].name.as_str()),
            ("base/1", "plus/1")
        );
        assert!(is_digest(&cases[0].expected) && is_pending(&cases[1].expected));
        let suites = crate::judging::python::harness_suites(&asked);
        assert_eq!(suites[0]["digests"], json!([0]));
    }

    #[test]
    fn the_key_is_the_reference_and_the_waiting_inputs() {
        let task = task();
        let key = key_material(&task).unwrap();
        assert!(
            key.contains("return x / 2") && key.contains("[[2],[3],[0],[5]]"),
            "{key}"
        );
        let mut other = task.clone();
        other.references[0].code.push_str("# another\n");
        assert_ne!(key_material(&other).unwrap(), key);
        other.references.clear();
        assert!(key_material(&other).is_err());
    }
}
