//! JavaScript samples: QuickJS-NG built as a WASI command (`guests/js/main.c`, installed by
//! `scripts/install-js-runtime`) runs each program with the prelude (`guests/js/prelude.js`: node's
//! `console`, `process`, `require('assert')`, stdin readers, virtual timers) and nothing of the
//! host's: no `std`/`os` modules, no module loader, no file but the job's program and prelude.
//!
//! - An **assertion** case is its own program: the candidate, the suite's setup and the case's
//!   code. It passes only when the guest writes `\n<token> ok\n` at the end, which its C code does
//!   after the program, its promise jobs and its timers ran without an uncaught exception; the
//!   token is 128 random bits passed in argv that JavaScript never sees (`process.argv` is fixed),
//!   so exiting early or printing never passes. An uncaught `AssertionError` (the prelude's
//!   `assert` module and `console.assert`) is a `wrong_answer`, any other uncaught exception
//!   (a SyntaxError included, as for Python) a `runtime_error`.
//! - A **calls** case runs the candidate, then the guest calls the entry point with the case's
//!   arguments and reports the return value as plain data after the token; the host compares it
//!   with the expected value, which never enters the guest.
//! - **io** cases run the program with the case's stdin ([`crate::io_tests`]).
//!
//! After a case times out, the later cases of its suite are not run (each would likely burn the
//! whole budget again) and share its verdict, marked `not run`.

use crate::io_tests::{abnormal_end, excerpt, has_io_suites, run_io_suites, IoRun, Program};
use crate::python::canonical;
use crate::sandbox::output::Output;
use crate::sandbox::{
    cache, temp_folder, Entry, Execution, Folder, Invocation, Limits, Preopen, Sandbox,
};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use wasmeval_core::compare::compare_values;
use wasmeval_core::{CaseResult, Sample, SampleResult, Task, TestSuite, TimeoutCause, Verdict};
use wasmtime::Module;

/// The prelude, written into every job folder.
const PRELUDE: &str = include_str!("../../guests/js/prelude.js");

/// `runtime.json`, written by `scripts/install-js-runtime`.
#[derive(Debug, Deserialize)]
struct Manifest {
    /// The module file, relative to the runtime folder.
    module: PathBuf,
}

/// The loaded JavaScript guest, compiled for the sandbox's engine (and cached).
pub struct JsRuntime {
    module: Module,
    sha256: String,
}

/// A verdict with its timeout cause and message.
type Judged = (Verdict, Option<TimeoutCause>, Option<String>);

impl JsRuntime {
    /// Loads the runtime in `dir`, compiling its module once and caching it in `cache_dir`.
    pub fn load(sandbox: &Sandbox, dir: &Path, cache_dir: &Path) -> anyhow::Result<Self> {
        let installed = cache::load_installed(
            sandbox.engine(),
            dir,
            cache_dir,
            "JavaScript runtime (run scripts/setup or scripts/install-js-runtime)",
            |m: &Manifest| &m.module,
        )?;
        let (module, sha256) = (installed.module, installed.sha256);
        Ok(JsRuntime { module, sha256 })
    }

    /// SHA-256 of the guest module, hex.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// An invocation of the guest with `args` after the prelude: the job folder read-only at
    /// `/job`, no environment, no other folder.
    fn invocation(&self, args: &[&str], job: &Path) -> Invocation {
        Invocation {
            args: ["js", "--prelude", "/job/prelude.js"]
                .iter()
                .chain(args)
                .map(|a| a.to_string())
                .collect(),
            env: Vec::new(),
            preopens: vec![Preopen {
                host: job.to_owned(),
                guest: "/job".into(),
                writable: false,
            }],
            stdin: Vec::new(),
        }
    }

    /// Runs `sample` against every suite of `task`; `Err` only when the host fails.
    pub fn evaluate(
        &self,
        sandbox: &Sandbox,
        task: &Task,
        sample: &Sample,
        limits: &Limits,
    ) -> anyhow::Result<SampleResult> {
        let job = temp_folder(Folder::Job)?;
        std::fs::write(job.path().join("prelude.js"), PRELUDE)?;
        let candidate = sample.program(task);
        let token = fresh_token();
        let mut result = SampleResult {
            task_id: task.id.clone(),
            ..SampleResult::for_sample(sample)
        };
        let mut run = IoRun::default();
        let program = job.path().join("program.js");

        for suite in &task.tests {
            let mut timed_out: Option<(Option<TimeoutCause>, String)> = None;
            let not_run = |name: &str, timed_out: &Option<(Option<TimeoutCause>, String)>| {
                timed_out.as_ref().map(|(cause, message)| CaseResult {
                    name: name.to_owned(),
                    verdict: Verdict::Timeout,
                    timeout_cause: *cause,
                    message: Some(format!("not run: {message}")),
                })
            };
            match suite {
                TestSuite::Assertions { setup, cases } => {
                    for case in cases {
                        if let Some(skipped) = not_run(&case.name, &timed_out) {
                            run.cases.push(skipped);
                            continue;
                        }
                        std::fs::write(&program, format!("{candidate}\n{setup}\n{}\n", case.code))?;
                        let invocation =
                            self.invocation(&["--token", &token, "/job/program.js"], job.path());
                        let execution = self.run(sandbox, &invocation, limits)?;
                        let judged = judge_assertion(&execution, &token);
                        record(
                            &mut run,
                            &mut timed_out,
                            &case.name,
                            &execution,
                            &token,
                            judged,
                        );
                    }
                }
                TestSuite::Calls {
                    entry_point,
                    tolerance,
                    cases,
                } => {
                    std::fs::write(&program, &candidate)?;
                    for case in cases {
                        if let Some(skipped) = not_run(&case.name, &timed_out) {
                            run.cases.push(skipped);
                            continue;
                        }
                        let judged = if !is_identifier(entry_point) {
                            None
                        } else {
                            let args = serde_json::to_string(&case.args)?;
                            let invocation = self.invocation(
                                &[
                                    "--token",
                                    &token,
                                    "--call",
                                    entry_point,
                                    "--args",
                                    &args,
                                    "/job/program.js",
                                ],
                                job.path(),
                            );
                            let execution = self.run(sandbox, &invocation, limits)?;
                            let judged = judge_call(&execution, &token, &case.expected, *tolerance);
                            Some((execution, judged))
                        };
                        match judged {
                            Some((execution, judged)) => record(
                                &mut run,
                                &mut timed_out,
                                &case.name,
                                &execution,
                                &token,
                                judged,
                            ),
                            None => run.cases.push(CaseResult {
                                name: case.name.clone(),
                                verdict: Verdict::HarnessError,
                                timeout_cause: None,
                                message: Some(format!(
                                    "the entry point `{entry_point}` is not a JavaScript identifier"
                                )),
                            }),
                        }
                    }
                }
                // Run below, by io_tests; alternatives are Python's (MBUPP).
                TestSuite::Io { .. } => {}
                TestSuite::Alternatives { sets, .. } => {
                    for set in sets {
                        for case in &set.cases {
                            run.cases.push(CaseResult {
                                name: case.name.clone(),
                                verdict: Verdict::HarnessError,
                                timeout_cause: None,
                                message: Some(
                                    "alternatives suites are run for Python samples only".into(),
                                ),
                            });
                        }
                    }
                }
            }
        }
        run.append_to(&mut result);

        if has_io_suites(task) {
            std::fs::write(&program, &candidate)?;
            let program = Program {
                module: &self.module,
                entry: Entry::Command,
                invocation: self.invocation(&["/job/program.js"], job.path()),
            };
            run_io_suites(sandbox, &program, task, limits)?.append_to(&mut result);
        }
        Ok(result)
    }

    fn run(
        &self,
        sandbox: &Sandbox,
        invocation: &Invocation,
        limits: &Limits,
    ) -> anyhow::Result<Execution> {
        let execution = sandbox.run(&self.module, Entry::Command, invocation, limits)?;
        if let crate::sandbox::Exit::MemoryAtStart(error) = &execution.exit {
            // The guest is ours: its not starting is a setting's fault, not the sample's.
            anyhow::bail!(
                "the JavaScript guest cannot start within --memory {} bytes: {error}",
                limits.memory
            );
        }
        Ok(execution)
    }
}

/// Adds a judged case to `run`, remembering a timeout so that the suite's later cases are not run.
fn record(
    run: &mut IoRun,
    timed_out: &mut Option<(Option<TimeoutCause>, String)>,
    name: &str,
    execution: &Execution,
    token: &str,
    (verdict, cause, message): Judged,
) {
    if verdict == Verdict::Timeout {
        *timed_out = Some((cause, message.clone().unwrap_or_default()));
    }
    // The excerpts shown are the program's own output, without the token's lines.
    let shown = Execution {
        exit: execution.exit.clone(),
        fuel: execution.fuel,
        wall: execution.wall,
        peak_memory: execution.peak_memory,
        memory_denied: execution.memory_denied,
        output: Output {
            stdout: strip_token_lines(&execution.output.stdout, token),
            stderr: execution.output.stderr.clone(),
            written: execution.output.written,
        },
    };
    run.measure(&shown, verdict != Verdict::Passed);
    run.cases.push(CaseResult {
        name: name.to_owned(),
        verdict,
        timeout_cause: cause,
        message,
    });
}

/// The token's lines (`\n<token> ...\n`) in `stdout`, in order, without the token.
fn token_lines<'a>(stdout: &'a str, token: &str) -> Vec<&'a str> {
    let marker = format!("\n{token} ");
    let mut lines = Vec::new();
    let mut rest = stdout;
    while let Some(at) = rest.find(&marker) {
        let start = at + marker.len();
        let end = rest[start..].find('\n').map_or(rest.len(), |i| start + i);
        lines.push(&rest[start..end]);
        rest = &rest[end..];
    }
    lines
}

fn strip_token_lines(stdout: &[u8], token: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(stdout);
    let marker = format!("\n{token} ");
    let mut out = String::with_capacity(text.len());
    let mut rest: &str = &text;
    while let Some(at) = rest.find(&marker) {
        out.push_str(&rest[..at]);
        let start = at + marker.len();
        rest = rest[start..]
            .find('\n')
            .map_or("", |i| &rest[start + i + 1..]);
    }
    out.push_str(rest);
    out.into_bytes()
}

/// The first line of the uncaught exception the guest printed on stderr (`Uncaught ...`), or the
/// first line of stderr.
fn uncaught_message(execution: &Execution) -> Option<String> {
    let stderr = String::from_utf8_lossy(&execution.output.stderr);
    stderr
        .lines()
        .find(|line| line.starts_with("Uncaught"))
        .or_else(|| stderr.lines().find(|line| !line.trim().is_empty()))
        .map(|line| excerpt(line.trim()))
}

/// An assertion case: passed only with the token's `ok` line and exit 0; an uncaught
/// `AssertionError` (the token's `assertion` line) is a wrong answer.
fn judge_assertion(execution: &Execution, token: &str) -> Judged {
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let lines = token_lines(&stdout, token);
    match abnormal_end(execution) {
        None if lines == ["ok"] => (Verdict::Passed, None, None),
        None => (
            Verdict::RuntimeError,
            None,
            Some("the program exited before its tests finished".into()),
        ),
        Some((Verdict::RuntimeError, None, message)) => {
            let shown = uncaught_message(execution).unwrap_or(message);
            if lines == ["assertion"] {
                (Verdict::WrongAnswer, None, Some(shown))
            } else {
                (Verdict::RuntimeError, None, Some(shown))
            }
        }
        Some((verdict, cause, message)) => (verdict, cause, Some(message)),
    }
}

/// A calls case: the value after the token's `value` line, compared on the host.
fn judge_call(
    execution: &Execution,
    token: &str,
    expected: &serde_json::Value,
    tolerance: f64,
) -> Judged {
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let lines = token_lines(&stdout, token);
    match abnormal_end(execution) {
        None => {
            let value = match lines.as_slice() {
                [line] => line.strip_prefix("value "),
                _ => None,
            };
            let Some(value) = value else {
                return (
                    Verdict::RuntimeError,
                    None,
                    Some("the program exited before returning a value".into()),
                );
            };
            match serde_json::from_str::<serde_json::Value>(value) {
                Ok(value) => {
                    match compare_values(&canonical(expected), &canonical(&value), tolerance) {
                        Ok(()) => (Verdict::Passed, None, None),
                        Err(difference) => (Verdict::WrongAnswer, None, Some(excerpt(&difference))),
                    }
                }
                Err(_) => (
                    Verdict::HarnessError,
                    None,
                    Some("the guest reported a value that is not JSON".into()),
                ),
            }
        }
        Some((Verdict::RuntimeError, None, message)) => (
            Verdict::RuntimeError,
            None,
            Some(uncaught_message(execution).unwrap_or(message)),
        ),
        Some((verdict, cause, message)) => (verdict, cause, Some(message)),
    }
}

/// Whether `name` is a plain JavaScript identifier (what `--call` evaluates).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// 128 bits from the host's randomness, hex: the guest's reporting token.
fn fresh_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let half = || {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(0);
        hasher.finish()
    };
    format!("wasmeval-{:016x}{:016x}", half(), half())
}
