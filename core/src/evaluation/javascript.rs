//! JavaScript samples: QuickJS-NG built as a WASI command (`guests/js/main.c`) runs each program
//! with the prelude (`guests/js/prelude.js`: node's `console`, `process`, `require('assert')`,
//! stdin readers, virtual timers) and nothing of the host's: no `std`/`os` modules, no module
//! loader, no file but the job's program, tests, prelude and bridge.
//!
//! - An **assertion** case is its own run: the candidate (`program.js`) runs in one realm, then the
//!   suite's setup and the case's code (`tests.js`) in a realm of their own (a second JSContext
//!   with fresh built-ins), which reaches the candidate's functions through the bridge
//!   (`guests/js/bridge.js`), values crossing as plain data: a candidate that rewrites
//!   `Math.abs`, `JSON.stringify`, `Array.prototype` or the iterators changes its own realm, not
//!   the tests'. The case passes only when the guest writes `\n<token> ok\n` at the end, which
//!   its C code does after the program, the tests, their promise jobs and timers ran without an
//!   uncaught exception; the token is 128 random bits passed in argv that JavaScript never sees
//!   (`process.argv` is fixed), so exiting early or printing never passes. An uncaught
//!   `AssertionError` (the prelude's `assert` module and `console.assert`) is a `wrong_answer`,
//!   any other uncaught exception (a SyntaxError included, as for Python) a `runtime_error`.
//! - A **calls** case runs the candidate, then the guest calls the entry point with the case's
//!   arguments and reports the return value as plain data after the token; the host compares it
//!   with the expected value, which never enters the guest.
//! - **io** cases run the whole program with the case's stdin.
//!
//! Judging is [`crate::judging::javascript`]'s.

use super::{Guest, Job, JobFile, OneExecutionPerCase, Preload, RunWithin};
use crate::judging::calls::Operators;
use crate::judging::javascript::is_identifier;
use crate::judging::token::Token;
use crate::judging::CaseLog;
use crate::sample::Sample;
use crate::task::Task;

/// The prelude, written into every job folder.
pub const PRELUDE: &str = include_str!("../../../guests/js/prelude.js");

/// The bridge between an assertion case's two realms, written into their job folders.
pub const BRIDGE: &str = include_str!("../../../guests/js/bridge.js");

/// A job running `source` as `/job/program.js` with `args` between the prelude and the program,
/// and `extra` files beside it.
fn job(source: &str, args: &[&str], extra: Vec<JobFile>) -> Job {
    Job {
        guest: Guest::JavaScript,
        args: ["--prelude", "/job/prelude.js"]
            .iter()
            .chain(args)
            .map(|a| a.to_string())
            .collect(),
        env: Vec::new(),
        files: [
            JobFile::new("prelude.js", PRELUDE),
            JobFile::new("program.js", source),
        ]
        .into_iter()
        .chain(extra)
        .collect(),
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
    // The tests' names are not the candidate's to bind: they run in a realm of their own
    // (`--tests`), and the task's entry point is the candidate's even where that realm has a
    // built-in of the same name (`--bind`).
    let entry = task
        .entry_point
        .as_deref()
        .filter(|name| is_identifier(name));
    let assertion = |setup: &str, code: &str| {
        let tests = format!("{setup}\n{code}\n");
        let mut args = vec![
            "--token",
            token.as_str(),
            "--tests",
            "/job/tests.js",
            "--bridge",
            "/job/bridge.js",
        ];
        if let Some(entry) = entry {
            args.extend(["--bind", entry]);
        }
        args.push("/job/program.js");
        let files = vec![
            JobFile::new("tests.js", tests),
            JobFile::new("bridge.js", BRIDGE),
        ];
        job(&candidate, &args, files)
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
        job(
            &source,
            &[&call[..], &["/job/program.js"]].concat(),
            Vec::new(),
        )
    };
    let guest = OneExecutionPerCase {
        assertion: &assertion,
        call: &call,
        entry_point_error: |name| {
            (!is_identifier(name))
                .then(|| format!("the entry point `{name}` is not a JavaScript identifier"))
        },
        operators: Operators::JavaScript,
    };
    super::run_cases_one_by_one(task, &guest, token, run, log)
}

/// The whole program, run for `io` cases.
pub fn whole_program(task: &Task, sample: &Sample) -> Job {
    job(
        &task.with_prelude(sample.program(task)),
        &["/job/program.js"],
        Vec::new(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluation::Run;

    #[test]
    fn an_assertion_case_runs_its_test_code_apart_from_the_candidate() {
        let task: Task = serde_json::from_value(serde_json::json!({"id": "t",
            "language": "javascript", "entry_point": "escape", "prompt": "",
            "prelude": "const helper = 1;",
            "tests": [{"kind": "assertions", "setup": "const assert = require('assert');",
                "cases": [{"name": "one", "code": "assert.strictEqual(escape(1), 2);"}]}]}))
        .expect("a task");
        let sample: Sample = serde_json::from_value(serde_json::json!({"index": 0,
            "task_id": "t", "solution": "function escape(x) { return 2 * x; }"}))
        .expect("a sample");
        let token = Token::from_random_bytes([7; 16]);
        let mut jobs = Vec::new();
        let mut run = |run: Run<'_>, _: &CaseLog| -> Result<crate::judging::Execution, ()> {
            if let Run::Alone(job) = run {
                jobs.push(job.clone());
            }
            Err(())
        };
        let mut log = CaseLog::new();
        assert!(run_case_suites(&task, &sample, &token, &mut run, &mut log).is_err());
        let job = &jobs[0];
        let file = |name: &str| {
            let file = job.files.iter().find(|f| f.name == name).expect(name);
            String::from_utf8(file.bytes.clone()).unwrap()
        };
        // The candidate (after the task's prelude) alone in the program; the tests in a file the
        // guest runs in a realm of their own, with the bridge; the entry point bound there.
        assert_eq!(
            file("program.js"),
            "const helper = 1;\nfunction escape(x) { return 2 * x; }"
        );
        assert_eq!(
            file("tests.js"),
            "const assert = require('assert');\nassert.strictEqual(escape(1), 2);\n"
        );
        assert_eq!(file("bridge.js"), BRIDGE);
        let args: Vec<&str> = job.args.iter().map(String::as_str).collect();
        assert_eq!(
            args,
            [
                "--prelude",
                "/job/prelude.js",
                "--token",
                token.as_str(),
                "--tests",
                "/job/tests.js",
                "--bridge",
                "/job/bridge.js",
                "--bind",
                "escape",
                "/job/program.js"
            ]
        );
    }
}
