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
//! - **io** cases run the program with the case's stdin ([`super::run_io_suites`]).
//!
//! Judging is `wasmeval_core::judging::javascript`'s.

use super::{execute, fresh_token, Context, LanguageRoute, Program};
use crate::sandbox::{cache, temp_folder, Entry, Folder, Invocation, Preopen, Sandbox};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use wasmeval_core::judging::calls::{Expected, Truthiness};
use wasmeval_core::judging::javascript::{is_identifier, judge_assertion, judge_call};
use wasmeval_core::judging::token::Token;
use wasmeval_core::judging::{CaseLog, Execution, Outcome};
use wasmeval_core::{Sample, Task, TestSuite, Verdict};
use wasmtime::Module;

/// The prelude, written into every job folder.
const PRELUDE: &str = include_str!("../../../guests/js/prelude.js");

/// `runtime.json`, written by `scripts/install-js-runtime`.
#[derive(Debug, Deserialize)]
struct Manifest {
    /// The module file, relative to the runtime folder.
    module: PathBuf,
}

/// The loaded JavaScript guest, compiled for the sandbox's engine (and cached). Cloning shares
/// the compiled module.
#[derive(Clone)]
pub struct JsRuntime {
    module: Module,
    sha256: String,
}

/// The JavaScript guest found in its folder, its machine code cached or still to compile.
pub struct FoundJs(cache::Found<Manifest>);

impl FoundJs {
    /// The module's size in bytes when it has to be compiled first.
    pub fn to_compile(&self) -> Option<u64> {
        self.0.to_compile()
    }

    /// The runtime, its module compiled (once, then cached in `cache_dir`) when needed.
    pub fn load(self, sandbox: &Sandbox, cache_dir: &Path) -> anyhow::Result<JsRuntime> {
        let installed = self.0.load(sandbox.engine(), cache_dir)?;
        Ok(JsRuntime {
            module: installed.module,
            sha256: installed.sha256,
        })
    }
}

impl JsRuntime {
    /// Finds the runtime in `dir` and looks its module up in the cache in `cache_dir`.
    pub fn find(sandbox: &Sandbox, dir: &Path, cache_dir: &Path) -> anyhow::Result<FoundJs> {
        Ok(FoundJs(cache::find_installed(
            sandbox.engine(),
            dir,
            cache_dir,
            "JavaScript runtime (run scripts/setup or scripts/install-js-runtime)",
            |m: &Manifest| &m.module,
        )?))
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
            ..Invocation::default()
        }
    }
}

impl JsRuntime {
    /// A program of the guest with `args` after the prelude, the job folder holding the prelude
    /// and `program.js`.
    fn program(&self, args: &[&str], job: tempfile::TempDir) -> Program {
        Program {
            module: self.module.clone(),
            entry: Entry::Command,
            invocation: self.invocation(args, job.path()),
            scratch: false,
            interpreter: Some("JavaScript"),
            job: Some(job),
        }
    }

    /// A job folder with the prelude and `source` as `program.js`.
    fn job(source: &str) -> anyhow::Result<tempfile::TempDir> {
        let job = temp_folder(Folder::Job)?;
        std::fs::write(job.path().join("prelude.js"), PRELUDE)?;
        std::fs::write(job.path().join("program.js"), source)?;
        Ok(job)
    }
}

impl LanguageRoute for JsRuntime {
    fn run_case_suites(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>> {
        let candidate = task.with_prelude(sample.program(task));
        let token = fresh_token()?;
        for suite in &task.tests {
            match suite {
                TestSuite::Assertions { setup, cases } => {
                    for case in cases {
                        if let Some(skipped) = log.not_run(&case.name) {
                            log.push(skipped);
                            continue;
                        }
                        let source = format!("{candidate}\n{setup}\n{}\n", case.code);
                        let program = self.program(
                            &["--token", token.as_str(), "/job/program.js"],
                            Self::job(&source)?,
                        );
                        let execution = execute(cx, &program, &[], Vec::new(), log)?;
                        let outcome = judge_assertion(&execution, &token);
                        record(log, &case.name, &execution, &token, outcome);
                    }
                }
                TestSuite::Calls {
                    setup,
                    entry_point,
                    tolerance,
                    cases,
                } => {
                    let source = format!("{candidate}\n{setup}\n");
                    let program = self.program(&["--token", token.as_str()], Self::job(&source)?);
                    for case in cases {
                        if let Some(skipped) = log.not_run(&case.name) {
                            log.push(skipped);
                            continue;
                        }
                        if !is_identifier(entry_point) {
                            log.push(
                                Outcome::new(
                                    Verdict::HarnessError,
                                    format!("the entry point `{entry_point}` is not a JavaScript identifier"),
                                )
                                .into_case(case.name.as_str()),
                            );
                            continue;
                        }
                        let args = serde_json::to_string(&case.args)?;
                        let call = [
                            "--call",
                            entry_point.as_str(),
                            "--args",
                            &args,
                            "/job/program.js",
                        ];
                        let execution = execute(cx, &program, &call, Vec::new(), log)?;
                        let expected = Expected::of(case, *tolerance, Truthiness::JavaScript);
                        let outcome = judge_call(&execution, &token, &expected);
                        record(log, &case.name, &execution, &token, outcome);
                    }
                }
                // Run by the shared io route.
                TestSuite::Io { .. } => {}
                // MBUPP's alternatives are Python's.
                TestSuite::Alternatives { sets, .. } => log.fail_all(
                    sets.iter()
                        .flat_map(|set| set.cases.iter().map(|case| case.name.as_str())),
                    &Outcome::new(
                        Verdict::HarnessError,
                        "alternatives suites are run for Python samples only",
                    ),
                ),
            }
        }
        Ok(None)
    }

    fn whole_program(
        &self,
        _cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        let job = Self::job(&task.with_prelude(sample.program(task)))?;
        Ok(Ok(self.program(&["/job/program.js"], job)))
    }
}

/// Adds a judged case to `log`; the excerpts shown are the program's own output, without the
/// token's lines.
fn record(log: &mut CaseLog, name: &str, execution: &Execution, token: &Token, outcome: Outcome) {
    let stdout = String::from_utf8_lossy(&execution.output.stdout);
    let own_output = token.scan(&stdout).own_output;
    log.record(name, execution, &own_output, outcome);
}
