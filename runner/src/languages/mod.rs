//! Languages as siblings: each one is a [`LanguageRoute`] from a sample to executions, and all of
//! them share the evaluation around it ([`evaluate`]): one [`CaseLog`] per sample, the sample's
//! budget shared by its executions, `io` suites ([`run_io_suites`]) and the verdict rules of
//! `wasmeval_core::judging`.
//!
//! - [`python`]: CPython as an interpreter guest; one harness run judges every assertion,
//!   alternative and `calls` case.
//! - [`javascript`]: QuickJS-NG as an interpreter guest; one run per case.
//! - [`typescript`]: the JavaScript guest behind oxc's type stripper, run on the host.
//! - [`ruby`]: CRuby as an interpreter guest driven through its exports; one run judges every
//!   assertion and `calls` case.
//! - [`lua`]: Lua 5.4 as an interpreter guest; one run per case.
//! - [`compiled`]: C, C++ and Rust, compiled (confined) into a module per assertion case and one
//!   for the whole program.

pub mod compiled;
pub mod javascript;
pub mod lua;
pub mod python;
pub mod ruby;
pub mod typescript;

use crate::analysis;
use crate::sandbox::read_back::{read_guest_file, GuestFile};
use crate::sandbox::{
    temp_folder, Entry, Execution, Exit, Folder, Invocation, Limits, Preopen, Sandbox,
};
use crate::toolchain::CompileLimits;
use std::path::Path;
use wasmeval_core::evaluation::{self, Budget, Guest, Job, Run};
use wasmeval_core::judging::token::Token;
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{Sample, SampleResult, Task};
use wasmtime::Module;

/// What every route gets from the evaluator: the sandbox, the limits and the caches.
pub struct Context<'a> {
    /// The sandbox.
    pub sandbox: &'a Sandbox,
    /// The sample's budget and the limits of each execution.
    pub limits: Limits,
    /// Limits of each compilation.
    pub compile_limits: CompileLimits,
    /// Where compiled modules' machine code is cached.
    pub module_cache: &'a Path,
}

/// One language's way from a sample to executions and verdicts.
pub trait LanguageRoute: Sync {
    /// Runs and judges the suites the guest judges itself or reports on (`assertions`,
    /// `alternatives`, `calls`; never `io`) into `log`. Returns the `alternatives` sets shown, if any.
    fn run_case_suites(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>>;

    /// The whole program, prepared to run `io` cases (compiled, or the interpreter with the
    /// program as a script), or the outcome every `io` case gets when it cannot be built.
    fn whole_program(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>>;
}

/// A module ready to run, with how it is started. Each execution adds its stdin and, when the
/// program has one, a fresh, empty writable `/tmp` ([`execute`]): no execution sees another's files.
pub struct Program {
    /// The module to run.
    pub module: Module,
    /// How it is entered.
    pub entry: Entry,
    /// Arguments, environment and read-only folders.
    pub invocation: Invocation,
    /// Whether each execution gets a fresh, empty, writable `/tmp` (the JavaScript guest has no
    /// file API, so it gets none).
    pub scratch: bool,
    /// For an interpreter guest, its name: the guest is ours, so its not starting within
    /// `--memory` is a setting's fault and a host error, not the sample's verdict.
    pub interpreter: Option<&'static str>,
    /// The job folder the invocation preopens, removed with the program.
    pub job: Option<tempfile::TempDir>,
}

/// Evaluates `sample` of `task` by `route` with core's drive (`wasmeval_core::evaluation::
/// evaluate`: case suites, then `io` suites, into one result), adding the sample's static metrics.
/// `Err` only when the host fails.
pub fn evaluate(
    route: &dyn LanguageRoute,
    cx: &Context<'_>,
    task: &Task,
    sample: &Sample,
) -> anyhow::Result<SampleResult> {
    let result = evaluation::evaluate(&mut Driven { route, cx }, task, sample)?;
    let metrics = analysis::analyze_or_why(task.language, &sample.program(task));
    Ok(SampleResult {
        not_analysed: metrics.as_ref().err().copied(),
        code_metrics: metrics.ok(),
        ..result
    })
}

/// A route with its context, as core's drive sees it.
struct Driven<'a> {
    route: &'a dyn LanguageRoute,
    cx: &'a Context<'a>,
}

impl evaluation::Route for Driven<'_> {
    type Program = Program;
    type Error = anyhow::Error;

    fn run_case_suites(
        &mut self,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>> {
        self.route.run_case_suites(self.cx, task, sample, log)
    }

    fn whole_program(
        &mut self,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        self.route.whole_program(self.cx, task, sample)
    }

    fn run_whole_program(
        &mut self,
        program: &Program,
        stdin: &[u8],
        log: &CaseLog,
    ) -> anyhow::Result<Execution> {
        execute(self.cx, program, &[], stdin.to_vec(), log)
    }
}

/// Runs `program` once with `stdin` and a fresh `/tmp`, within what is left of the sample's
/// budget after the executions in `log`.
pub fn execute(
    cx: &Context<'_>,
    program: &Program,
    extra_args: &[&str],
    stdin: Vec<u8>,
    log: &CaseLog,
) -> anyhow::Result<Execution> {
    execute_within(cx, program, extra_args, stdin, remaining(&cx.limits, log))
}

/// Runs `program` once with `stdin` and a fresh `/tmp` under `limits`.
fn execute_within(
    cx: &Context<'_>,
    program: &Program,
    extra_args: &[&str],
    stdin: Vec<u8>,
    limits: Limits,
) -> anyhow::Result<Execution> {
    let (mut invocation, _scratch) = prepared(program)?;
    invocation
        .args
        .extend(extra_args.iter().map(|a| a.to_string()));
    invocation.stdin = stdin;
    let execution = cx
        .sandbox
        .run(&program.module, program.entry, &invocation, &limits)?;
    started_within_memory(execution, program, &limits)
}

/// Files of a program's `/tmp`: paths relative to it, and contents.
pub type ScratchFiles = Vec<(std::path::PathBuf, Vec<u8>)>;

/// Runs `program` once like [`execute`], its fresh `/tmp` holding `files` (paths relative to
/// `/tmp`) before it starts; returns the execution and those of `fetch` that exist afterwards
/// (regular files the program wrote, read by [`read_guest_file`]'s rules: no symbolic link is
/// followed). A program without a `/tmp` (JavaScript) gets no files.
pub fn execute_with_files(
    cx: &Context<'_>,
    program: &Program,
    stdin: Vec<u8>,
    files: &[(std::path::PathBuf, Vec<u8>)],
    fetch: &[std::path::PathBuf],
) -> anyhow::Result<(Execution, ScratchFiles)> {
    let (mut invocation, scratch) = prepared(program)?;
    invocation.stdin = stdin;
    if let Some(scratch) = &scratch {
        for (path, bytes) in files {
            let target = scratch.path().join(path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(target, bytes)?;
        }
    }
    let limits = cx.limits;
    let execution = cx
        .sandbox
        .run(&program.module, program.entry, &invocation, &limits)?;
    let execution = started_within_memory(execution, program, &limits)?;
    let mut fetched = Vec::new();
    if let Some(scratch) = &scratch {
        // Every fetched file together is at most what the guest may write (`--disk`): a path
        // named many times is not a way to multiply the response.
        let mut left = limits.disk;
        for path in fetch {
            if fetched.iter().any(|(p, _)| p == path) {
                continue;
            }
            if let GuestFile::Contents(bytes) = read_guest_file(scratch.path(), path, left)? {
                left -= bytes.len() as u64;
                fetched.push((path.clone(), bytes));
            }
        }
    }
    Ok((execution, fetched))
}

/// Runs `judge` whose calls go to a partner instance of `partner` set up by `partner_setup` (see
/// `Sandbox::run_judge`), each with a fresh `/tmp` of its own, under `limits`.
fn execute_judge(
    cx: &Context<'_>,
    judge: &Program,
    partner: &Program,
    partner_setup: &str,
    limits: Limits,
) -> anyhow::Result<Execution> {
    let (judge_invocation, _judge_scratch) = prepared(judge)?;
    let (partner_invocation, _partner_scratch) = prepared(partner)?;
    let execution = cx.sandbox.run_judge(
        (&judge.module, judge.entry, &judge_invocation),
        (&partner.module, &partner_invocation, partner_setup),
        &limits,
    )?;
    started_within_memory(execution, judge, &limits)
}

/// An interpreter guest whose executions core plans (`wasmeval_core::evaluation::Job`).
trait InterpreterGuest {
    /// `job` as a program of this guest, its files written into a fresh job folder, to run under
    /// a memory limit of `memory_limit` bytes (which decides the image it can start from:
    /// `Job::preload`).
    fn program(&self, job: &Job, memory_limit: u64) -> anyhow::Result<Program>;
}

/// A job folder holding `job`'s files.
fn job_folder(job: &Job) -> anyhow::Result<tempfile::TempDir> {
    let folder = temp_folder(Folder::Job)?;
    for file in &job.files {
        std::fs::write(folder.path().join(&file.name), &file.bytes)?;
    }
    Ok(folder)
}

/// Runs core's jobs for an interpreter guest in the sandbox.
struct Jobs<'a, G> {
    cx: &'a Context<'a>,
    guest: &'a G,
}

impl<G: InterpreterGuest> evaluation::Executor for Jobs<'_, G> {
    type Error = anyhow::Error;

    fn execute(&mut self, run: Run<'_>, budget: Budget) -> anyhow::Result<Execution> {
        let limits = Limits {
            fuel: budget.fuel,
            timeout: budget.wall,
            ..self.cx.limits
        };
        match run {
            Run::Alone(job) => {
                let program = self.guest.program(job, limits.memory)?;
                execute_within(self.cx, &program, &[], job.stdin.clone(), limits)
            }
            Run::Judge {
                judge,
                partner,
                setup,
            } => {
                let judge = self.guest.program(judge, limits.memory)?;
                let partner = self.guest.program(partner, limits.memory)?;
                execute_judge(self.cx, &judge, &partner, setup, limits)
            }
        }
    }
}

/// Core's route of `guest` (`evaluation::Interpreted`), its jobs run in the sandbox: what the
/// Python and JavaScript routes' [`LanguageRoute::run_case_suites`] are.
fn run_interpreted_case_suites<G: InterpreterGuest>(
    guest: &G,
    kind: Guest,
    harness_code: &[u8],
    cx: &Context<'_>,
    task: &Task,
    sample: &Sample,
    log: &mut CaseLog,
) -> anyhow::Result<Option<String>> {
    let token = fresh_token()?;
    let mut jobs = Jobs { cx, guest };
    let mut route = evaluation::Interpreted {
        guest: kind,
        executor: &mut jobs,
        budget: budget_of(&cx.limits),
        token: &token,
        harness_code,
    };
    evaluation::Route::run_case_suites(&mut route, task, sample, log)
}

/// A sample's whole budget under `limits`.
fn budget_of(limits: &Limits) -> Budget {
    Budget {
        fuel: limits.fuel,
        wall: limits.timeout,
    }
}

/// `program`'s invocation with a fresh, empty `/tmp` when it has one (removed when the returned
/// folder is dropped).
fn prepared(program: &Program) -> anyhow::Result<(Invocation, Option<tempfile::TempDir>)> {
    let mut invocation = program.invocation.clone();
    let scratch = match program.scratch {
        true => Some(temp_folder(Folder::Scratch)?),
        false => None,
    };
    if let Some(scratch) = &scratch {
        invocation.preopens.push(Preopen {
            host: scratch.path().to_owned(),
            guest: "/tmp".into(),
            writable: true,
        });
    }
    Ok((invocation, scratch))
}

/// `execution`, unless `program` is an interpreter of ours that could not start within the
/// memory limit: the setting's fault (bad input: `--memory`, or a request's `limits.memory`),
/// not the sample's.
fn started_within_memory(
    execution: Execution,
    program: &Program,
    limits: &Limits,
) -> anyhow::Result<Execution> {
    if let (Exit::MemoryAtStart(error), Some(name)) = (&execution.exit, program.interpreter) {
        return Err(crate::errors::ExpectedError::BadInput(format!(
            "the {name} interpreter cannot start within a memory limit of {} bytes (raise \
             --memory, or a request's limits.memory): {error}",
            limits.memory
        ))
        .into());
    }
    Ok(execution)
}

/// The limits of the next execution of a sample: its fuel and wall-clock budgets less what its
/// earlier executions used (core's `Budget::remaining`).
fn remaining(limits: &Limits, log: &CaseLog) -> Limits {
    let budget = budget_of(limits).remaining(log);
    Limits {
        fuel: budget.fuel,
        timeout: budget.wall,
        ..*limits
    }
}

/// A fresh reporting token: 128 bits from the operating system's CSPRNG.
pub fn fresh_token() -> anyhow::Result<Token> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|error| anyhow::anyhow!("cannot read the system's randomness: {error}"))?;
    Ok(Token::from_random_bytes(bytes))
}
