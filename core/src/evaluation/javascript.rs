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

use super::{Guest, Job, JobFile, OneExecutionPerCase, Preload, RunWithin};
use crate::judging::calls::Truthiness;
use crate::judging::javascript::is_identifier;
use crate::judging::token::Token;
use crate::judging::CaseLog;
use crate::sample::Sample;
use crate::task::Task;

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
        preload: Preload::Standard,
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
    let assertion = |setup: &str, code: &str| {
        let source = format!("{candidate}\n{setup}\n{code}\n");
        job(&source, &["--token", token.as_str(), "/job/program.js"])
    };
    let call = |setup: &str, entry_point: &str, args: &str| {
        let source = format!("{candidate}\n{setup}\n");
        let call = [
            "--token",
            token.as_str(),
            "--call",
            entry_point,
            "--args",
            args,
        ];
        job(&source, &[&call[..], &["/job/program.js"]].concat())
    };
    let guest = OneExecutionPerCase {
        assertion: &assertion,
        call: &call,
        entry_point_error: |name| {
            (!is_identifier(name))
                .then(|| format!("the entry point `{name}` is not a JavaScript identifier"))
        },
        truthiness: Truthiness::JavaScript,
    };
    super::run_cases_one_by_one(task, &guest, token, run, log)
}

/// The whole program, run for `io` cases.
pub fn whole_program(task: &Task, sample: &Sample) -> Job {
    job(
        &task.with_prelude(sample.program(task)),
        &["/job/program.js"],
    )
}
