//! JavaScript samples: QuickJS-NG built as a WASI command (`guests/js/main.c`) runs each program
//! with the prelude (`guests/js/prelude.js`: node's `console`, `process`, `require('assert')`,
//! stdin readers, virtual timers) and nothing of the host's: no `std`/`os` modules, no module
//! loader, no file but the job's program and prelude.
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
//! - **io** cases run the whole program with the case's stdin.
//!
//! Judging is [`crate::judging::javascript`]'s.

use super::{Guest, Job, JobFile, Run, RunWithin};
use crate::judging::calls::{Expected, Truthiness};
use crate::judging::javascript::{is_identifier, judge_assertion, judge_call};
use crate::judging::token::Token;
use crate::judging::{CaseLog, Outcome};
use crate::results::Verdict;
use crate::sample::Sample;
use crate::task::{Task, TestSuite};

/// The prelude, written into every job folder.
pub const PRELUDE: &str = include_str!("../../../guests/js/prelude.js");

/// A job running `source` as `/job/program.js` with `args` between the prelude and the program.
fn job(source: &str, args: &[&str]) -> Job {
    Job {
        guest: Guest::JavaScript,
        args: ["--prelude", "/job/prelude.js"]
            .iter()
            .chain(args)
            .map(|a| a.to_string())
            .collect(),
        env: Vec::new(),
        files: vec![
            JobFile::new("prelude.js", PRELUDE),
            JobFile::new("program.js", source),
        ],
        // The guest has no file API, so it gets no `/tmp`.
        scratch: false,
        stdin: Vec::new(),
    }
}

/// Runs and judges `task`'s assertion and `calls` suites for `sample` into `log`, one execution
/// per case, through `run`.
pub fn run_case_suites<E>(
    task: &Task,
    sample: &Sample,
    token: &Token,
    run: &mut RunWithin<'_, E>,
    log: &mut CaseLog,
) -> Result<Option<String>, E> {
    let candidate = task.with_prelude(sample.program(task));
    for suite in &task.tests {
        match suite {
            TestSuite::Assertions { setup, cases } => {
                for case in cases {
                    if let Some(skipped) = log.not_run(&case.name) {
                        log.push(skipped);
                        continue;
                    }
                    let source = format!("{candidate}\n{setup}\n{}\n", case.code);
                    let program = job(&source, &["--token", token.as_str(), "/job/program.js"]);
                    let execution = run(Run::Alone(&program), log)?;
                    let outcome = judge_assertion(&execution, token);
                    super::record_reported(log, &case.name, &execution, token, outcome);
                }
            }
            TestSuite::Calls {
                setup,
                entry_point,
                tolerance,
                cases,
            } => {
                let source = format!("{candidate}\n{setup}\n");
                for case in cases {
                    if let Some(skipped) = log.not_run(&case.name) {
                        log.push(skipped);
                        continue;
                    }
                    if !is_identifier(entry_point) {
                        log.push(
                            Outcome::new(
                                Verdict::HarnessError,
                                format!(
                                    "the entry point `{entry_point}` is not a JavaScript identifier"
                                ),
                            )
                            .into_case(case.name.as_str()),
                        );
                        continue;
                    }
                    let args = serde_json::to_string(&case.args).unwrap_or_default();
                    let call = [
                        "--token",
                        token.as_str(),
                        "--call",
                        entry_point.as_str(),
                        "--args",
                        &args,
                        "/job/program.js",
                    ];
                    let execution = run(Run::Alone(&job(&source, &call)), log)?;
                    let expected = Expected::of(case, *tolerance, Truthiness::JavaScript);
                    let outcome = judge_call(&execution, token, &expected);
                    super::record_reported(log, &case.name, &execution, token, outcome);
                }
            }
            // Run as whole programs by the drive.
            TestSuite::Io { .. } => {}
            // MBUPP's alternatives are Python's.
            TestSuite::Alternatives { sets, .. } => super::refuse_alternatives(sets, log),
        }
    }
    Ok(None)
}

/// The whole program, run for `io` cases.
pub fn whole_program(task: &Task, sample: &Sample) -> Job {
    job(
        &task.with_prelude(sample.program(task)),
        &["/job/program.js"],
    )
}
