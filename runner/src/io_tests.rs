//! `io` suites: each case runs the whole program once with the case's stdin, and its stdout is
//! compared with the expected output by the suite's rule (exact, whitespace, epsilon). The same
//! for every language: the caller says how to start the program (a compiled module, or the
//! interpreter with the program as a script).

use crate::sandbox::{Entry, Execution, Exit, Invocation, Limits, Sandbox};
use std::time::Duration;
use wasmeval_core::compare::compare_output;
use wasmeval_core::{CaseResult, Sample, SampleResult, Task, TestSuite, TimeoutCause, Verdict};
use wasmtime::Module;

/// Output excerpts kept in results, per stream.
pub const EXCERPT_BYTES: usize = 2048;

/// How to start the program under test.
pub struct Program<'a> {
    /// The module to run.
    pub module: &'a Module,
    /// How it is entered.
    pub entry: Entry,
    /// Arguments, environment and files; each case adds its stdin.
    pub invocation: Invocation,
}

/// Every `io` case of a task, run and judged, with the measurements of all its executions.
#[derive(Debug, Default)]
pub struct IoRun {
    /// The cases, in the task's order.
    pub cases: Vec<CaseResult>,
    /// Fuel of all executions.
    pub fuel: u64,
    /// Wall-clock time of all executions.
    pub wall: Duration,
    /// Largest memory any execution reached.
    pub peak_memory: u64,
    /// Output of the first case that did not pass (or else of the first case), capped.
    pub stdout: String,
    /// Its stderr, capped.
    pub stderr: String,
    /// Bytes written by all executions.
    pub output_bytes: u64,
    /// Whether the excerpts kept are of a failing case (`None`: none kept yet).
    shown: Option<bool>,
}

/// Whether the task has `io` suites.
pub fn has_io_suites(task: &Task) -> bool {
    task.tests.iter().any(|s| matches!(s, TestSuite::Io { .. }))
}

/// The verdict of an execution that ended abnormally (not by returning or exiting with 0), or
/// `None` when it ended normally.
pub fn abnormal_end(execution: &Execution) -> Option<(Verdict, Option<TimeoutCause>, String)> {
    Some(match &execution.exit {
        Exit::OutOfFuel => (
            Verdict::Timeout,
            Some(TimeoutCause::Fuel),
            "fuel budget exhausted".into(),
        ),
        Exit::WallTimeout => (
            Verdict::Timeout,
            Some(TimeoutCause::Wall),
            "wall-clock limit reached".into(),
        ),
        Exit::OutputLimit => (Verdict::OutputLimit, None, "output limit exceeded".into()),
        Exit::MemoryAtStart(_) => (
            Verdict::MemoryLimit,
            None,
            "the program's initial memory is larger than the memory limit".into(),
        ),
        _ if execution.memory_denied => (Verdict::MemoryLimit, None, "memory limit reached".into()),
        Exit::Trap(trap) => (Verdict::RuntimeError, None, format!("trap: {trap}")),
        Exit::Code(0) => return None,
        Exit::Code(code) => (
            Verdict::RuntimeError,
            None,
            format!("the program exited with code {code}"),
        ),
    })
}

/// The start of `text`, at most [`EXCERPT_BYTES`] cut on a character boundary, with `…` when
/// something was left out.
pub fn excerpt(text: &str) -> String {
    if text.len() <= EXCERPT_BYTES {
        return text.to_owned();
    }
    let mut end = EXCERPT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Runs every `io` case of `task`. After a case times out, the rest of its suite is not run
/// (each would likely burn the whole budget again) and gets the same verdict, marked `not run`.
pub fn run_io_suites(
    sandbox: &Sandbox,
    program: &Program<'_>,
    task: &Task,
    limits: &Limits,
) -> anyhow::Result<IoRun> {
    let mut run = IoRun::default();
    for suite in &task.tests {
        let TestSuite::Io {
            group,
            compare,
            tolerance,
            cases,
        } = suite
        else {
            continue;
        };
        let mut timed_out: Option<(Option<TimeoutCause>, String)> = None;
        for case in cases {
            let name = case_name(group, &case.name);
            if let Some((cause, message)) = &timed_out {
                run.cases.push(CaseResult {
                    name,
                    verdict: Verdict::Timeout,
                    timeout_cause: *cause,
                    message: Some(format!("not run: {message}")),
                });
                continue;
            }
            let mut invocation = program.invocation.clone();
            invocation.stdin = case.stdin.clone().into_bytes();
            let execution = sandbox.run(program.module, program.entry, &invocation, limits)?;
            let output = &execution.output;
            let (verdict, timeout_cause, message) = match abnormal_end(&execution) {
                Some(ended) => ended,
                None => {
                    let stdout = String::from_utf8_lossy(&output.stdout);
                    match compare_output(&case.stdout, &stdout, *compare, *tolerance) {
                        Ok(()) => (Verdict::Passed, None, String::new()),
                        Err(difference) => (Verdict::WrongAnswer, None, difference),
                    }
                }
            };
            if verdict == Verdict::Timeout {
                timed_out = Some((timeout_cause, message.clone()));
            }
            run.measure(&execution, verdict != Verdict::Passed);
            run.cases.push(CaseResult {
                name,
                verdict,
                timeout_cause,
                message: (!message.is_empty()).then_some(message),
            });
        }
    }
    Ok(run)
}

impl IoRun {
    /// Adds an execution's measurements; keeps its output excerpts when they are the first, or
    /// the first of a `failing` case.
    pub fn measure(&mut self, execution: &Execution, failing: bool) {
        self.fuel += execution.fuel;
        self.wall += execution.wall;
        self.peak_memory = self.peak_memory.max(execution.peak_memory);
        self.output_bytes += execution.output.written;
        if self.shown.is_none() || (failing && self.shown == Some(false)) {
            self.stdout = excerpt(&String::from_utf8_lossy(&execution.output.stdout));
            self.stderr = excerpt(&String::from_utf8_lossy(&execution.output.stderr));
            self.shown = Some(failing);
        }
    }

    /// The cases of a program that could not be built: every `io` case gets `verdict`, the first
    /// one the compiler's message, the others `not run`.
    pub fn not_built(task: &Task, verdict: Verdict, message: String) -> IoRun {
        let mut run = IoRun::default();
        let mut message = Some(message);
        for suite in &task.tests {
            if let TestSuite::Io { group, cases, .. } = suite {
                run.cases.extend(cases.iter().map(|case| CaseResult {
                    name: case_name(group, &case.name),
                    verdict,
                    timeout_cause: None,
                    message: Some(message.take().unwrap_or_else(|| "not run".into())),
                }));
            }
        }
        run
    }

    /// The sample's result when `io` suites are all its task has.
    pub fn into_result(self, task: &Task, sample: &Sample) -> SampleResult {
        let mut result = SampleResult {
            task_id: task.id.clone(),
            ..SampleResult::for_sample(sample)
        };
        self.append_to(&mut result);
        result
    }

    /// Adds these cases and measurements to a result of the task's other suites; the verdict
    /// stays that of the first case that did not pass.
    pub fn append_to(self, result: &mut SampleResult) {
        result.cases.extend(self.cases);
        result.fuel += self.fuel;
        result.wall_us += u64::try_from(self.wall.as_micros()).unwrap_or(u64::MAX);
        result.peak_memory = result.peak_memory.max(self.peak_memory);
        result.output_bytes += self.output_bytes;
        if result.stdout.is_empty() && result.stderr.is_empty() {
            result.stdout = self.stdout;
            result.stderr = self.stderr;
        }
        if result.verdict == Verdict::Passed {
            if let Some(case) = result.cases.iter().find(|c| c.verdict != Verdict::Passed) {
                result.verdict = case.verdict;
                result.timeout_cause = case.timeout_cause;
                result.message = Some(match &case.message {
                    Some(message) => format!("{}: {message}", case.name),
                    None => case.name.clone(),
                });
            }
        }
    }
}

/// A case's name in results: `group/name`, or the name alone outside a group.
fn case_name(group: &str, name: &str) -> String {
    if group.is_empty() {
        name.to_owned()
    } else {
        format!("{group}/{name}")
    }
}
