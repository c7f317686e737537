//! Results: what happened when a sample ran against its task's tests, and the run's summary.

use crate::metrics;
use crate::sample::SampleInfo;
use crate::task::{Task, TaskId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// How a test case, or a whole sample, ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every check held.
    Passed,
    /// A check failed (an assertion).
    WrongAnswer,
    /// An exception or a trap; the message says which.
    RuntimeError,
    /// The fuel budget or the wall-clock limit ran out; `timeout_cause` says which.
    Timeout,
    /// The program asked for more memory than the limit.
    MemoryLimit,
    /// The program wrote more than the output limit.
    OutputLimit,
    /// The sample could not be compiled (compiled languages only).
    CompileError,
    /// wasmeval failed, not the sample.
    HarnessError,
    /// The task's language has no guest or compiler in wasmeval yet (Java): the sample was not
    /// run, and it is counted apart from every metric ([`crate::metrics::units`] leaves it out).
    UnsupportedLanguage,
}

impl Verdict {
    /// Every verdict, in the order reports list them.
    pub const ALL: [Verdict; 9] = [
        Verdict::Passed,
        Verdict::WrongAnswer,
        Verdict::RuntimeError,
        Verdict::Timeout,
        Verdict::MemoryLimit,
        Verdict::OutputLimit,
        Verdict::CompileError,
        Verdict::HarnessError,
        Verdict::UnsupportedLanguage,
    ];

    /// A sample's verdict from its cases: `passed` when every case passed (or there are none),
    /// otherwise the verdict of the first case that did not.
    pub fn of_cases(cases: &[CaseResult]) -> Verdict {
        cases
            .iter()
            .map(|c| c.verdict)
            .find(|v| *v != Verdict::Passed)
            .unwrap_or(Verdict::Passed)
    }

    /// The name used in files (`wrong_answer`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::WrongAnswer => "wrong_answer",
            Verdict::RuntimeError => "runtime_error",
            Verdict::Timeout => "timeout",
            Verdict::MemoryLimit => "memory_limit",
            Verdict::OutputLimit => "output_limit",
            Verdict::CompileError => "compile_error",
            Verdict::HarnessError => "harness_error",
            Verdict::UnsupportedLanguage => "unsupported_language",
        }
    }
}

/// Which limit ended a `timeout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutCause {
    /// The deterministic instruction budget.
    Fuel,
    /// The wall-clock backstop.
    Wall,
    /// The guest's virtual clock: it slept past the time limit (deterministic, like fuel).
    VirtualTime,
}

/// The outcome of one counted test case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseResult {
    /// The case's name in the task.
    pub name: String,
    /// How it ended.
    pub verdict: Verdict,
    /// Set when `verdict` is `timeout`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_cause: Option<TimeoutCause>,
    /// The exception, trap or reason, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Who decided the verdict: the host, from plain data, or the guest's own report (absent in
    /// results written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged_by: Option<JudgedBy>,
    /// The case's own execution, when it had one: an `io` case runs the whole program on its
    /// stdin, so its output and fuel are its own (a per-test view such as SandboxFusion's
    /// `/submit` shows them). Absent for cases that share one execution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<CaseRun>,
}

/// What one case's own execution did. No wall time: results stay the same from run to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseRun {
    /// The exit code, when the program exited (not when a limit or a trap ended it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Fuel the execution consumed.
    pub fuel: u64,
    /// Start of what it wrote to stdout, capped as the sample's excerpt is.
    pub stdout: String,
    /// Start of what it wrote to stderr, capped.
    pub stderr: String,
}

/// Who decided a case's verdict, which says whether a candidate could have forged it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JudgedBy {
    /// The host, comparing plain data the guest reported (a `calls` value) or printed (an `io`
    /// output) with an expected value that never entered the guest: no candidate can forge it.
    Host,
    /// A judge instance of its own: the test's assertions ran in an interpreter apart from the
    /// candidate's, which they called for plain data (Python): the candidate cannot reach the
    /// report, so it cannot forge it.
    Isolated,
    /// The guest: the case's assertions ran in the candidate's own process, so a candidate that
    /// reaches the harness's secret (the token) could forge the report ([`JudgedBy::reason`]).
    Guest,
}

impl JudgedBy {
    /// Every judge, in the order reports list them.
    pub const ALL: [JudgedBy; 3] = [JudgedBy::Host, JudgedBy::Isolated, JudgedBy::Guest];

    /// Its name in results.
    pub fn as_str(self) -> &'static str {
        match self {
            JudgedBy::Host => "host",
            JudgedBy::Isolated => "isolated",
            JudgedBy::Guest => "guest",
        }
    }

    /// Why a case is judged where it is, in one line.
    pub fn reason(self) -> &'static str {
        match self {
            JudgedBy::Host => "the host compared plain data with an expected value the guest never saw",
            JudgedBy::Isolated => "the test's assertions ran in an interpreter of their own, which called the candidate's for plain data; the candidate cannot reach the report",
            JudgedBy::Guest => "the test's assertions ran in the candidate's process; a candidate that reaches the harness's token could forge the report",
        }
    }

    /// Who judges the cases of an `assertions` or `alternatives` suite in `language`: Python's
    /// run in a judge instance apart from the candidate's; the others in the candidate's process.
    pub fn of_assertions(language: crate::task::Language) -> JudgedBy {
        match language {
            crate::task::Language::Python => JudgedBy::Isolated,
            _ => JudgedBy::Guest,
        }
    }

    /// The judge of each case of `result`, a result of `task`, in order, walking the task's
    /// suites as every route runs them (suites judged in or through the guest, then `io`
    /// suites); `None` when the cases do not line up with the suites.
    pub fn of_cases(task: &Task, result: &SampleResult) -> Option<Vec<JudgedBy>> {
        use crate::task::TestSuite;
        let mut judges = Vec::with_capacity(result.cases.len());
        let mut chosen = result.alternative.as_deref().unwrap_or("").split(", ");
        let in_guest = JudgedBy::of_assertions(task.language);
        for suite in &task.tests {
            match suite {
                TestSuite::Assertions { cases, .. } => {
                    judges.extend(cases.iter().map(|_| in_guest))
                }
                TestSuite::Alternatives { sets, .. } => {
                    let name = chosen.next()?;
                    let set = sets.iter().find(|set| set.name == name)?;
                    judges.extend(set.cases.iter().map(|_| in_guest));
                }
                TestSuite::Calls { cases, .. } => {
                    judges.extend(cases.iter().map(|_| JudgedBy::Host))
                }
                TestSuite::Io { .. } => {}
            }
        }
        for suite in &task.tests {
            if let TestSuite::Io { cases, .. } = suite {
                judges.extend(cases.iter().map(|_| JudgedBy::Host));
            }
        }
        (judges.len() == result.cases.len()).then_some(judges)
    }
}

/// One line of `results.jsonl`: a sample's verdict with per-case detail and measurements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleResult {
    /// [`crate::FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// The sample's position in its samples file, from 0.
    pub index: u64,
    /// The task the sample answers.
    pub task_id: TaskId,
    /// The model, when the samples file names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// What the samples file says about the sample (attempt, grades, generation figures).
    #[serde(flatten)]
    pub info: SampleInfo,
    /// `passed` when every case passed, otherwise the verdict of the first case that did not.
    pub verdict: Verdict,
    /// Set when `verdict` is `timeout`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_cause: Option<TimeoutCause>,
    /// Why the sample did not pass, in one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Every case, in the task's order. For an `alternatives` suite, the cases of the set that
    /// passed, or else of the set that came closest.
    pub cases: Vec<CaseResult>,
    /// The alternative assertion set whose cases `cases` shows, for tasks that have them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative: Option<String>,
    /// Static metrics of the sample's code, when its language has an analyser.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_metrics: Option<crate::code_metrics::CodeMetrics>,
    /// Why `code_metrics` is absent (absent in results written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_analysed: Option<crate::code_metrics::NotAnalysed>,
    /// The program as evaluated (the prompt followed by the completion, or the solution), so that
    /// a results bundle can show it; absent in results written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// When `code` is only the start of a long program: the SHA-256 (hex) of the whole program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_sha256: Option<String>,
    /// Fuel (roughly, WebAssembly instructions) the execution consumed.
    pub fuel: u64,
    /// Wall-clock time of the execution, in microseconds.
    pub wall_us: u64,
    /// Largest linear memory the guest reached, in bytes.
    pub peak_memory: u64,
    /// Start of what the program wrote to stdout (harness lines removed), capped.
    pub stdout: String,
    /// Start of what the program wrote to stderr, capped.
    pub stderr: String,
    /// Bytes written to stdout and stderr in all, including what the excerpts leave out.
    pub output_bytes: u64,
}

impl SampleResult {
    /// An empty result of `sample`: `passed`, no cases, nothing measured yet; evaluators fill it.
    pub fn for_sample(sample: &crate::sample::Sample) -> Self {
        SampleResult {
            format_version: crate::FORMAT_VERSION,
            index: sample.index,
            task_id: sample.task_id.clone(),
            model: sample.model.clone(),
            info: sample.info.clone(),
            verdict: Verdict::Passed,
            timeout_cause: None,
            message: None,
            cases: Vec::new(),
            alternative: None,
            code_metrics: None,
            not_analysed: None,
            code: None,
            code_sha256: None,
            fuel: 0,
            wall_us: 0,
            peak_memory: 0,
            stdout: String::new(),
            stderr: String::new(),
            output_bytes: 0,
        }
    }
}

/// The headline numbers of a run, written to `summary.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// [`crate::FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// Samples evaluated.
    pub samples: u64,
    /// Tasks with at least one sample.
    pub tasks: u64,
    /// How many samples ended with each verdict.
    pub verdicts: BTreeMap<Verdict, u64>,
    /// `pass@k` for each k in 1, 10, 100 such that every task has at least k samples of each
    /// model, averaged over (task, model) pairs as `wasmeval report` does.
    pub pass_at_k: metrics::PassAtK,
    /// How many cases each judge decided, among the cases whose judge is recorded (see
    /// [`JudgedBy`]: `guest` verdicts are the ones a candidate could forge).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub judged_by: BTreeMap<JudgedBy, u64>,
    /// Tasks of the task file that no sample answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks_without_samples: Vec<TaskId>,
    /// Task ids named by samples but absent from the task file, with how many samples named each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unknown_task_ids: BTreeMap<TaskId, u64>,
    /// Samples naming unknown task ids that `unknown_task_ids` does not list (a run lists a
    /// bounded number of ids).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unknown_samples_unlisted: u64,
}

/// For `skip_serializing_if`: counts of zero are left out of files.
pub(crate) fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl RunSummary {
    /// Summarises `results` over `tasks`; `unknown_task_ids` comes from the samples that were not run.
    pub fn new(
        tasks: &[Task],
        results: &[SampleResult],
        unknown_task_ids: BTreeMap<TaskId, u64>,
    ) -> Self {
        // The same numbers as `wasmeval report`: pass@k per (task, model), then averaged.
        let metrics = metrics::score(results, &metrics::ScoreOptions::default());
        let answered: BTreeSet<&TaskId> = results.iter().map(|r| &r.task_id).collect();
        RunSummary {
            format_version: crate::FORMAT_VERSION,
            samples: metrics.samples,
            tasks: metrics.tasks,
            verdicts: metrics.verdicts,
            pass_at_k: metrics.pass_at_k,
            judged_by: judged_by_counts(results),
            tasks_without_samples: tasks
                .iter()
                .map(|t| &t.id)
                .filter(|id| !answered.contains(id))
                .cloned()
                .collect(),
            unknown_task_ids,
            unknown_samples_unlisted: 0,
        }
    }
}

/// Why `result` failed, as a kind that groups alike failures across samples and models:
/// `AssertionError`, `NameError`, `IndentationError` (the exception's type, when a message
/// starts with one), `panic`, `trap`, `compile error`, `timeout (fuel)`, `wrong output`, ...;
/// `None` for a sample that passed.
pub fn failure_cause(result: &SampleResult) -> Option<String> {
    let verdict = result.verdict;
    // The first failing case's own message, else the sample's (which names the case first).
    let message = result
        .cases
        .iter()
        .find(|c| c.verdict == verdict)
        .and_then(|c| c.message.as_deref())
        .or(result.message.as_deref())
        .unwrap_or("");
    let message = message.strip_prefix("not run: ").unwrap_or(message);
    let exception = || {
        let word: String = message
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        let named = word.ends_with("Error") || word.ends_with("Exception");
        let rest = &message[word.len()..];
        (named && (rest.is_empty() || rest.starts_with([':', ' ', '\n'])))
            .then(|| word.rsplit('.').next().unwrap_or(&word).to_owned())
    };
    Some(match verdict {
        Verdict::Passed => return None,
        Verdict::Timeout => match result.timeout_cause {
            Some(TimeoutCause::Fuel) => "timeout (fuel)".into(),
            Some(TimeoutCause::Wall) => "timeout (wall clock)".into(),
            Some(TimeoutCause::VirtualTime) => "timeout (virtual time)".into(),
            None => "timeout".into(),
        },
        Verdict::CompileError => "compile error".into(),
        Verdict::MemoryLimit => "memory limit".into(),
        Verdict::OutputLimit => "output limit".into(),
        Verdict::HarnessError => "harness error".into(),
        Verdict::UnsupportedLanguage => "unsupported language".into(),
        Verdict::WrongAnswer => exception().unwrap_or_else(|| {
            match result.cases.iter().find(|c| c.verdict == verdict) {
                // A `calls` value's difference: `[0]: expected 1, got 0`.
                Some(case)
                    if case
                        .message
                        .as_deref()
                        .is_some_and(|m| m.contains("expected ") && m.contains(", got ")) =>
                {
                    "wrong value".into()
                }
                _ => "wrong output".into(),
            }
        }),
        Verdict::RuntimeError => exception().unwrap_or_else(|| {
            // Whole words only: a candidate's `no function \`trap_rain\`` or `panicked_at` is
            // not a trap or a panic.
            let word = |wanted: &str| {
                message
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|w| w == wanted)
            };
            if word("panicked") || message.starts_with("panic: ") {
                "panic".into()
            } else if message.starts_with("the program exited with code") {
                "nonzero exit".into()
            } else if message.starts_with("trap: ") || (word("wasm") && word("trap")) {
                "trap".into()
            } else {
                "runtime error".into()
            }
        }),
    })
}

/// How many cases of `results` each judge decided, among those whose judge is recorded.
pub fn judged_by_counts<'a>(
    results: impl IntoIterator<Item = &'a SampleResult>,
) -> BTreeMap<JudgedBy, u64> {
    let mut counts = BTreeMap::new();
    for case in results.into_iter().flat_map(|r| &r.cases) {
        if let Some(judge) = case.judged_by {
            *counts.entry(judge).or_default() += 1;
        }
    }
    counts
}

/// `counts` as one line for people: each judge's share of the cases, the forgeable share named as
/// such; `None` without counts.
pub fn judged_by_line(counts: &BTreeMap<JudgedBy, u64>) -> Option<String> {
    let total: u64 = counts.values().sum();
    if total == 0 {
        return None;
    }
    let share = |judge| 100.0 * *counts.get(&judge).unwrap_or(&0) as f64 / total as f64;
    Some(format!(
        "cases judged on the host {:.1}%, by an isolated judge {:.1}%, in the candidate's process {:.1}% (forgeable)",
        share(JudgedBy::Host),
        share(JudgedBy::Isolated),
        share(JudgedBy::Guest)
    ))
}

#[cfg(test)]
mod failure_tests {
    use super::*;

    fn failed(verdict: Verdict, message: &str) -> SampleResult {
        let sample = crate::sample::Sample {
            index: 0,
            task_id: crate::TaskId("t".into()),
            model: None,
            code: crate::sample::SampleCode::Solution(String::new()),
            info: Default::default(),
        };
        let mut result = SampleResult::for_sample(&sample);
        result.verdict = verdict;
        result.cases.push(CaseResult {
            name: "c".into(),
            verdict,
            timeout_cause: None,
            message: Some(message.into()),
            judged_by: None,
            run: None,
        });
        result
    }

    #[test]
    fn failures_group_by_exception_type_or_kind() {
        // (verdict, message, the cause it is counted under)
        for (verdict, message, expected) in [
            (Verdict::WrongAnswer, "AssertionError", "AssertionError"),
            (
                Verdict::WrongAnswer,
                "AssertionError: 3 != 4",
                "AssertionError",
            ),
            (
                Verdict::RuntimeError,
                "NameError: name 'x' is not defined",
                "NameError",
            ),
            (
                Verdict::RuntimeError,
                "json.decoder.JSONDecodeError: bad",
                "JSONDecodeError",
            ),
            (
                Verdict::RuntimeError,
                "panicked: index out of bounds",
                "panic",
            ),
            (Verdict::RuntimeError, "Errors everywhere", "runtime error"),
            (
                Verdict::RuntimeError,
                "trap: wasm trap: wasm `unreachable` instruction executed",
                "trap",
            ),
            (
                Verdict::RuntimeError,
                "panic: runtime error: index out of range",
                "panic",
            ),
            // Names that hold the words are not what they name (issue 40).
            (
                Verdict::RuntimeError,
                "no function `median_trapezium`",
                "runtime error",
            ),
            (
                Verdict::RuntimeError,
                "no function `unreachable_panicked_state`",
                "runtime error",
            ),
            (
                Verdict::WrongAnswer,
                "[0]: expected 3, got 4",
                "wrong value",
            ),
            (
                Verdict::RuntimeError,
                "the program exited with code 1",
                "nonzero exit",
            ),
            (Verdict::WrongAnswer, "line 2 differs", "wrong output"),
            (Verdict::CompileError, "error[E0308]", "compile error"),
        ] {
            let cause = failure_cause(&failed(verdict, message));
            assert_eq!(cause.as_deref(), Some(expected), "{message}");
        }
        let mut timeout = failed(Verdict::Timeout, "fuel budget exhausted");
        timeout.timeout_cause = Some(TimeoutCause::Fuel);
        assert_eq!(failure_cause(&timeout).as_deref(), Some("timeout (fuel)"));
        assert_eq!(failure_cause(&failed(Verdict::Passed, "")), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::tasks::parse_task;

    fn result_with(cases: usize, alternative: Option<&str>) -> SampleResult {
        let sample = crate::Sample {
            index: 0,
            task_id: "t".into(),
            model: None,
            code: crate::SampleCode::Solution(String::new()),
            info: Default::default(),
        };
        let case = CaseResult {
            name: "c".into(),
            verdict: Verdict::Passed,
            timeout_cause: None,
            message: None,
            judged_by: None,
            run: None,
        };
        SampleResult {
            cases: vec![case; cases],
            alternative: alternative.map(str::to_owned),
            ..SampleResult::for_sample(&sample)
        }
    }

    #[test]
    fn cases_are_judged_by_the_host_for_calls_and_io_and_by_the_guest_or_a_judge_for_assertions() {
        let task = parse_task(
            r#"{"id":"t","prompt":"","tests":[
                {"kind":"io","cases":[{"name":"i","stdin":"","stdout":""}]},
                {"kind":"assertions","cases":[{"name":"a","code":"assert f()"}]},
                {"kind":"alternatives","entry_point":"f","sets":[
                    {"name":"A","cases":[{"name":"a1","code":"1"}]},
                    {"name":"B","cases":[{"name":"b1","code":"1"},{"name":"b2","code":"2"}]}]},
                {"kind":"calls","entry_point":"f","cases":[{"name":"c","args":[],"expected":1}]}]}"#,
        )
        .unwrap();
        use JudgedBy::{Guest, Host, Isolated};
        let judges = JudgedBy::of_cases(&task, &result_with(5, Some("B"))).unwrap();
        assert_eq!(judges, [Isolated, Isolated, Isolated, Host, Host]);
        let in_c = crate::Task {
            language: crate::task::Language::C,
            ..task.clone()
        };
        let judges = JudgedBy::of_cases(&in_c, &result_with(5, Some("B"))).unwrap();
        assert_eq!(judges, [Guest, Guest, Guest, Host, Host]);
        // Cases that do not line up with the suites are not labelled.
        assert_eq!(JudgedBy::of_cases(&task, &result_with(4, Some("B"))), None);
        let mut labelled = result_with(3, None);
        labelled.cases[0].judged_by = Some(Host);
        labelled.cases[1].judged_by = Some(Guest);
        labelled.cases[2].judged_by = Some(Host);
        let counts = judged_by_counts(&[labelled, result_with(3, None)]);
        assert_eq!(counts, BTreeMap::from([(Host, 2), (Guest, 1)]));
        assert_eq!(
            judged_by_line(&counts).unwrap(),
            "cases judged on the host 66.7%, by an isolated judge 0.0%, in the candidate's process 33.3% (forgeable)"
        );
        assert_eq!(judged_by_counts(&[result_with(3, None)]), BTreeMap::new());
        assert_eq!(judged_by_line(&BTreeMap::new()), None);
    }
}
