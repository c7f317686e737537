//! Judging: from what a guest did ([`Execution`]) to per-case verdicts and a sample's result.
//!
//! No language owns this module. Every route (the Python harness, JavaScript programs, compiled
//! assertion programs, `io` suites) turns its executions into [`Outcome`]s with the rules here and
//! collects them in one [`CaseLog`], which applies the rules every language shares: how a process's
//! end becomes a verdict ([`Outcome::of_abnormal_end`]), which output excerpt a result keeps, the
//! "not run" rule after the sample's budget is spent, and the sample's verdict
//! ([`Verdict::of_cases`]). It is pure (no I/O, no wasmtime) so that the browser's runner judges with
//! the same code as the command line.
//!
//! - [`calls`]: a `calls` case's returned value against its expected value or condition.
//! - [`evalplus`]: EvalPlus's comparison and special oracles, and its one result per input set.
//! - [`token`]: the per-run secret that authenticates a guest's report lines, and their scanning.
//! - [`python`]: the Python harness's input and its report protocol.
//! - [`javascript`]: the JavaScript guest's token lines.
//! - [`ruby`]: the Ruby guest's steps, reported by the host after each evaluation.
//! - [`compiled`]: C, C++ and Rust assertion programs.
//! - [`io`]: an `io` case's output against its expected output.

pub mod calls;
pub mod compiled;
pub mod evalplus;
pub mod io;
pub mod javascript;
pub mod python;
pub mod ruby;
pub mod token;

use crate::results::{CaseResult, SampleResult, TimeoutCause, Verdict};
use std::time::Duration;

/// The result of a sample whose record is longer than a run reads (`--max-sample-bytes`):
/// `output_limit`, since the model wrote more than the limit, with no case run.
pub fn unread_sample(
    sample: &crate::sample::Sample,
    record_bytes: u64,
    limit: u64,
) -> SampleResult {
    let mut log = CaseLog::new();
    log.fail_without_cases(Outcome::new(
        Verdict::OutputLimit,
        format!(
            "not run: the sample's record has {record_bytes} bytes, more than the {limit} a sample \
             may have (--max-sample-bytes)"
        ),
    ));
    SampleResult {
        not_analysed: Some(crate::code_metrics::NotAnalysed::NotRead),
        ..log.finish(SampleResult::for_sample(sample))
    }
}

/// The result of a sample in a language wasmeval has no guest or compiler for (Java): not run,
/// `unsupported_language`, which every metric leaves out ([`crate::metrics::is_run`]).
pub fn unsupported_language_sample(
    sample: &crate::sample::Sample,
    language: crate::task::Language,
) -> SampleResult {
    let mut log = CaseLog::new();
    log.fail_without_cases(Outcome::new(
        Verdict::UnsupportedLanguage,
        format!(
            "not run: wasmeval has no guest or compiler for {} yet; the sample is counted apart \
             from every metric",
            language.title()
        ),
    ));
    SampleResult {
        not_analysed: Some(crate::code_metrics::NotAnalysed::Language),
        ..log.finish(SampleResult::for_sample(sample))
    }
}

/// Output excerpts kept in results, per stream, in bytes.
pub const EXCERPT_BYTES: usize = 2048;

/// Longest message kept for a case, in characters.
pub const MESSAGE_CHARS: usize = 500;

/// How an execution ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// `_start` returned, or the guest called `proc_exit`, with this code.
    Code(i32),
    /// Fuel ran out.
    OutOfFuel,
    /// The wall-clock limit was reached.
    WallTimeout,
    /// A sleep took the guest's virtual clock past the time limit.
    VirtualTimeout,
    /// The guest wrote more than the output limit.
    OutputLimit,
    /// The guest wrote more to its files, or created more of them, than it may; why.
    DiskLimit(String),
    /// A trap (stack overflow, unreachable, out-of-bounds access...), with its description.
    Trap(String),
    /// The module could not start: its initial memory is larger than the memory limit.
    MemoryAtStart(String),
}

/// What the guest wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Output {
    /// Everything written to stdout, up to the budget.
    pub stdout: Vec<u8>,
    /// Everything written to stderr, up to the budget.
    pub stderr: Vec<u8>,
    /// Bytes the guest wrote or tried to write, both streams together.
    pub written: u64,
}

/// What one execution did: the sandbox's report, as plain data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Execution {
    /// How it ended.
    pub exit: Exit,
    /// Fuel consumed.
    pub fuel: u64,
    /// Wall-clock time.
    pub wall: Duration,
    /// Largest linear memory reached, in bytes.
    pub peak_memory: u64,
    /// Whether a memory growth was refused because of the memory limit.
    pub memory_denied: bool,
    /// What it wrote.
    pub output: Output,
}

impl Execution {
    /// A judge's execution (`self`) with its partner's folded in, as one execution of the
    /// sample: fuel added up, the larger memory (the candidate's is the partner's), the judge's
    /// stdout then the partner's (the report lines come first), the partner's stderr then the
    /// judge's (the candidate's errors first). The runner's `Sandbox::run_judge` and the browser's
    /// sandbox both report a judge so.
    pub fn with_partner(mut self, partner: Execution) -> Execution {
        self.fuel = self.fuel.saturating_add(partner.fuel);
        self.peak_memory = self.peak_memory.max(partner.peak_memory);
        self.memory_denied |= partner.memory_denied;
        self.output.stdout.extend_from_slice(&partner.output.stdout);
        let judge_stderr = std::mem::replace(&mut self.output.stderr, partner.output.stderr);
        self.output.stderr.extend_from_slice(&judge_stderr);
        self.output.written = self.output.written.saturating_add(partner.output.written);
        self
    }
}

/// A judgement: a verdict, the limit behind a `timeout`, and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub verdict: Verdict,
    /// Set when `verdict` is `timeout`.
    pub timeout_cause: Option<TimeoutCause>,
    /// The exception, trap or reason, when there is one.
    pub message: Option<String>,
}

impl Outcome {
    /// Every check held.
    pub fn passed() -> Outcome {
        Outcome {
            verdict: Verdict::Passed,
            timeout_cause: None,
            message: None,
        }
    }

    /// `verdict` (not a timeout) with `message`.
    pub fn new(verdict: Verdict, message: impl Into<String>) -> Outcome {
        Outcome {
            verdict,
            timeout_cause: None,
            message: Some(message.into()),
        }
    }

    /// A `timeout` of `cause`.
    pub fn timeout(cause: Option<TimeoutCause>, message: impl Into<String>) -> Outcome {
        Outcome {
            verdict: Verdict::Timeout,
            timeout_cause: cause,
            message: Some(message.into()),
        }
    }

    /// The outcome of an execution that ended abnormally (by a limit, a trap or a non-zero exit),
    /// or `None` when it returned or exited with 0. This is the one place where a process's end
    /// becomes a verdict.
    pub fn of_abnormal_end(execution: &Execution) -> Option<Outcome> {
        Some(match &execution.exit {
            Exit::OutOfFuel => Outcome::timeout(Some(TimeoutCause::Fuel), "fuel budget exhausted"),
            Exit::WallTimeout => {
                Outcome::timeout(Some(TimeoutCause::Wall), "wall-clock limit reached")
            }
            Exit::VirtualTimeout => Outcome::timeout(
                Some(TimeoutCause::VirtualTime),
                "slept past the time limit (virtual time)",
            ),
            Exit::OutputLimit => Outcome::new(Verdict::OutputLimit, "output limit exceeded"),
            Exit::DiskLimit(why) => {
                Outcome::new(Verdict::OutputLimit, format!("disk limit exceeded: {why}"))
            }
            Exit::MemoryAtStart(_) => Outcome::new(
                Verdict::MemoryLimit,
                "the program's initial memory is larger than the memory limit",
            ),
            _ if execution.memory_denied => {
                Outcome::new(Verdict::MemoryLimit, "memory limit reached")
            }
            Exit::Trap(trap) => Outcome::new(Verdict::RuntimeError, format!("trap: {trap}")),
            Exit::Code(0) => return None,
            Exit::Code(code) => Outcome::new(
                Verdict::RuntimeError,
                format!("the program exited with code {code}"),
            ),
        })
    }

    /// The outcome of an execution that ended before its report was complete: any exit, even with
    /// code 0, cut the tests short (exiting never passes); a limit or a trap is itself.
    pub fn of_cut_short(execution: &Execution) -> Outcome {
        match (&execution.exit, execution.memory_denied) {
            (Exit::Code(code), false) => Outcome::new(
                Verdict::RuntimeError,
                format!("the program exited (code {code}) before its tests finished"),
            ),
            // Every other end is abnormal, so this never falls back.
            _ => Outcome::of_abnormal_end(execution)
                .unwrap_or_else(|| Outcome::new(Verdict::HarnessError, "unexplained end")),
        }
    }

    /// This outcome as the result of the case `name`.
    pub fn into_case(self, name: impl Into<String>) -> CaseResult {
        CaseResult {
            name: name.into(),
            verdict: self.verdict,
            timeout_cause: self.timeout_cause,
            message: self.message,
            judged_by: None,
            run: None,
        }
    }
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

/// The first [`MESSAGE_CHARS`] characters of `text`.
pub fn short_message(text: &str) -> String {
    text.chars().take(MESSAGE_CHARS).collect()
}

/// Which output excerpts a [`CaseLog`] keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Shown {
    /// None yet.
    #[default]
    Nothing,
    /// Those of a passing case (the first execution's), until a failing case comes.
    Passing,
    /// Those of the first failing case.
    Failing,
}

/// The cases of one sample, in the order they were judged, with the measurements of every
/// execution that judged them.
///
/// The sample's budget (`--fuel`, `--timeout`) is shared by all its executions: once a case ends
/// as a `timeout`, the budget is spent and every later case is `not run` ([`CaseLog::not_run`]),
/// for every language alike.
#[derive(Debug, Default)]
pub struct CaseLog {
    cases: Vec<CaseResult>,
    fuel: u64,
    wall: Duration,
    peak_memory: u64,
    output_bytes: u64,
    stdout: String,
    stderr: String,
    shown: Shown,
    /// The timeout that spent the budget, for the cases after it.
    spent: Option<Outcome>,
    /// The sample's outcome when it has no case to carry it (a program that failed to load for a
    /// task without cases).
    without_cases: Option<Outcome>,
}

impl CaseLog {
    /// An empty log.
    pub fn new() -> CaseLog {
        CaseLog::default()
    }

    /// Fuel used so far by every execution.
    pub fn fuel_used(&self) -> u64 {
        self.fuel
    }

    /// Wall-clock time used so far by every execution.
    pub fn wall_used(&self) -> Duration {
        self.wall
    }

    /// The cases judged so far.
    pub fn cases(&self) -> &[CaseResult] {
        &self.cases
    }

    /// When the sample's budget is spent, the result of `name`: the spending timeout's verdict,
    /// marked `not run` (running it would burn a budget that is no longer there).
    pub fn not_run(&self, name: &str) -> Option<CaseResult> {
        self.spent.as_ref().map(|spent| {
            let message = spent.message.as_deref().unwrap_or("the budget is spent");
            Outcome {
                message: Some(format!("not run: {message}")),
                ..spent.clone()
            }
            .into_case(name)
        })
    }

    /// Adds an execution's measurements. Its excerpts (`stdout` as the result should show it, with
    /// any report lines removed, and its stderr) are kept when they are the first, or the first of
    /// a `failing` case.
    pub fn measure(&mut self, execution: &Execution, stdout: &str, failing: bool) {
        self.fuel = self.fuel.saturating_add(execution.fuel);
        self.wall = self.wall.saturating_add(execution.wall);
        self.peak_memory = self.peak_memory.max(execution.peak_memory);
        self.output_bytes = self.output_bytes.saturating_add(execution.output.written);
        let keep = match self.shown {
            Shown::Nothing => true,
            Shown::Passing => failing,
            Shown::Failing => false,
        };
        if keep {
            self.stdout = excerpt(stdout);
            self.stderr = excerpt(&String::from_utf8_lossy(&execution.output.stderr));
            self.shown = if failing {
                Shown::Failing
            } else {
                Shown::Passing
            };
        }
    }

    /// Adds a judged case. A `timeout` spends the sample's budget.
    pub fn push(&mut self, mut case: CaseResult) {
        // A compiler's whole output goes to the stderr excerpt; the message is its first error,
        // in one line (warnings come before errors in compilers' output).
        if case.verdict == Verdict::CompileError {
            let long = |m: &String| m.contains('\n') || m.chars().count() > MESSAGE_CHARS;
            if let Some(output) = case.message.take_if(|m| long(m)) {
                // Shown as a failing case's output: the first failure's excerpts are the ones kept.
                if self.shown != Shown::Failing {
                    self.stdout.clear();
                    self.stderr = excerpt(&output);
                    self.shown = Shown::Failing;
                }
                case.message = Some(compiled::first_error(&output));
            }
        }
        if case.verdict == Verdict::Timeout && self.spent.is_none() {
            self.spent = Some(Outcome {
                verdict: case.verdict,
                timeout_cause: case.timeout_cause,
                message: case.message.clone(),
            });
        }
        self.cases.push(case);
    }

    /// Adds the case `name`, judged `outcome` from `execution` (measured too; `stdout` is what the
    /// result should show of its stdout).
    pub fn record(&mut self, name: &str, execution: &Execution, stdout: &str, outcome: Outcome) {
        self.measure(execution, stdout, outcome.verdict != Verdict::Passed);
        self.push(outcome.into_case(name));
    }

    /// [`CaseLog::record`] for a case that had an execution of its own (an `io` case): the case
    /// keeps that execution's exit code, fuel and excerpts.
    pub fn record_own_run(
        &mut self,
        name: &str,
        execution: &Execution,
        stdout: &str,
        outcome: Outcome,
    ) {
        self.record(name, execution, stdout, outcome);
        if let Some(case) = self.cases.last_mut() {
            case.run = Some(crate::results::CaseRun {
                exit_code: match execution.exit {
                    Exit::Code(code) => Some(code),
                    _ => None,
                },
                fuel: execution.fuel,
                stdout: excerpt(stdout),
                stderr: excerpt(&String::from_utf8_lossy(&execution.output.stderr)),
            });
        }
    }

    /// Adds every case of `names` with `outcome` (a program that could not be built or loaded): the
    /// first gets its message, the others `not run` after it.
    pub fn fail_all<'a>(&mut self, names: impl IntoIterator<Item = &'a str>, outcome: &Outcome) {
        // The first case's message as pushed (a compiler's output shortened to its first error).
        let mut shown: Option<Option<String>> = None;
        for name in names {
            let mut case = outcome.clone();
            if let Some(message) = &shown {
                case.message = Some(match message {
                    Some(message) => format!("not run: {message}"),
                    None => "not run".into(),
                });
            }
            self.push(case.into_case(name));
            if shown.is_none() {
                shown = Some(self.cases.last().and_then(|c| c.message.clone()));
            }
        }
    }

    /// Sets the sample's outcome for when it ends with no case that failed (see `without_cases`).
    pub fn fail_without_cases(&mut self, outcome: Outcome) {
        self.without_cases.get_or_insert(outcome);
    }

    /// The sample's result: `base` (its identity) with these cases and measurements; the verdict
    /// is [`Verdict::of_cases`], the timeout cause and message those of the first case that did
    /// not pass, the message prefixed by the case's name.
    pub fn finish(self, base: SampleResult) -> SampleResult {
        let verdict = Verdict::of_cases(&self.cases);
        let failing = self.cases.iter().find(|c| c.verdict != Verdict::Passed);
        let (verdict, timeout_cause, message) = match (failing, self.without_cases) {
            (Some(case), _) => (
                verdict,
                case.timeout_cause,
                Some(match &case.message {
                    Some(message) => format!("{}: {message}", case.name),
                    None => case.name.clone(),
                }),
            ),
            (None, Some(outcome)) => (outcome.verdict, outcome.timeout_cause, outcome.message),
            (None, None) => (Verdict::Passed, None, None),
        };
        SampleResult {
            verdict,
            timeout_cause,
            message,
            cases: self.cases,
            fuel: self.fuel,
            wall_us: u64::try_from(self.wall.as_micros()).unwrap_or(u64::MAX),
            peak_memory: self.peak_memory,
            stdout: self.stdout,
            stderr: self.stderr,
            output_bytes: self.output_bytes,
            ..base
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An execution that ended with `exit` after writing `stdout`.
    pub(crate) fn execution(exit: Exit, stdout: &str) -> Execution {
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

    #[test]
    fn a_process_end_names_the_limit_that_stopped_it() {
        let of = |exit| Outcome::of_abnormal_end(&execution(exit, ""));
        assert_eq!(of(Exit::Code(0)), None);
        let fuel = of(Exit::OutOfFuel).unwrap();
        assert_eq!(
            (fuel.verdict, fuel.timeout_cause),
            (Verdict::Timeout, Some(TimeoutCause::Fuel))
        );
        let wall = of(Exit::WallTimeout).unwrap();
        assert_eq!(wall.timeout_cause, Some(TimeoutCause::Wall));
        assert_eq!(of(Exit::OutputLimit).unwrap().verdict, Verdict::OutputLimit);
        assert_eq!(of(Exit::Code(3)).unwrap().verdict, Verdict::RuntimeError);
        let mut denied = execution(Exit::Trap("unreachable".into()), "");
        denied.memory_denied = true;
        assert_eq!(
            Outcome::of_abnormal_end(&denied).unwrap().verdict,
            Verdict::MemoryLimit
        );
    }

    #[test]
    fn excerpts_cut_on_a_character_boundary() {
        let text = "é".repeat(EXCERPT_BYTES);
        let cut = excerpt(&text);
        assert!(cut.ends_with('…'));
        assert!(cut.len() <= EXCERPT_BYTES + '…'.len_utf8());
        assert_eq!(excerpt("short"), "short");
    }

    fn sample_base() -> SampleResult {
        let sample = crate::Sample {
            index: 0,
            task_id: "t".into(),
            model: None,
            code: crate::SampleCode::Solution(String::new()),
            info: Default::default(),
        };
        SampleResult::for_sample(&sample)
    }

    #[test]
    fn after_a_timeout_every_later_case_is_not_run_and_the_first_failure_names_the_sample() {
        let mut log = CaseLog::new();
        log.record(
            "a",
            &execution(Exit::Code(0), "first\n"),
            "first\n",
            Outcome::passed(),
        );
        assert!(log.not_run("b").is_none());
        log.record(
            "b",
            &execution(Exit::OutOfFuel, "second\n"),
            "second\n",
            Outcome::of_abnormal_end(&execution(Exit::OutOfFuel, "")).unwrap(),
        );
        let skipped = log.not_run("c").unwrap();
        assert_eq!(
            (skipped.verdict, skipped.timeout_cause),
            (Verdict::Timeout, Some(TimeoutCause::Fuel))
        );
        assert_eq!(
            skipped.message.as_deref(),
            Some("not run: fuel budget exhausted")
        );
        log.push(skipped);
        let result = log.finish(sample_base());
        assert_eq!(result.verdict, Verdict::Timeout);
        assert_eq!(result.timeout_cause, Some(TimeoutCause::Fuel));
        assert_eq!(result.message.as_deref(), Some("b: fuel budget exhausted"));
        // The excerpt is the failing case's, the measurements every execution's.
        assert_eq!(result.stdout, "second\n");
        assert_eq!(result.fuel, 2);
        assert_eq!(result.wall_us, 2000);
    }

    #[test]
    fn a_program_that_cannot_be_built_fails_every_case_once_with_its_message() {
        let mut log = CaseLog::new();
        log.fail_all(
            ["x", "y"],
            &Outcome::new(Verdict::CompileError, "error[E0425]"),
        );
        let messages: Vec<_> = log.cases().iter().map(|c| c.message.clone()).collect();
        assert_eq!(
            messages,
            [
                Some("error[E0425]".into()),
                Some("not run: error[E0425]".into())
            ]
        );
        let mut empty = CaseLog::new();
        empty.fail_without_cases(Outcome::new(Verdict::RuntimeError, "SyntaxError"));
        let result = empty.finish(sample_base());
        assert_eq!(result.verdict, Verdict::RuntimeError);
        assert_eq!(result.message.as_deref(), Some("SyntaxError"));
    }
}
