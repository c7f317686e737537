//! Python samples: the candidate program and every assertion, alternative and `calls` case run in
//! one interpreter under the harness (`guests/python/harness.py`), judged by
//! `wasmeval_core::judging::python`; `io` cases run the program as a script, one execution each.

mod runtime;

pub use runtime::PythonRuntime;

use super::{execute, fresh_token, has_io_suites, Context, LanguageRoute, Program};
use crate::sandbox::{temp_folder, Folder};
use wasmeval_core::judging::python::{harness_suites, judge, Layout};
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{Sample, Task, TestSuite};

/// The harness, written into every job folder.
const HARNESS: &str = include_str!("../../../../guests/python/harness.py");

impl LanguageRoute for PythonRuntime {
    fn run_case_suites(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>> {
        let harness_cases = task
            .tests
            .iter()
            .any(|s| !matches!(s, TestSuite::Io { .. }));
        // A task without suites still runs the harness: a program that does not load fails.
        if !harness_cases && has_io_suites(task) {
            return Ok(None);
        }
        let job = temp_folder(Folder::Job)?;
        std::fs::write(job.path().join("program.py"), sample.program(task))?;
        std::fs::write(
            job.path().join("tests.json"),
            serde_json::to_vec(&harness_suites(task))?,
        )?;
        let token = fresh_token()?;
        let program = Program {
            module: self.module.clone(),
            entry: self.entry,
            invocation: self.invocation(&["-c", HARNESS, token.as_str(), "/job"], job.path()),
            scratch: true,
            interpreter: Some("Python"),
            job: Some(job),
        };
        let execution = execute(cx, &program, &[], Vec::new(), log)?;
        let judged = judge(&Layout::of(task), &token, &execution, log);
        Ok(judged.alternative)
    }

    fn whole_program(
        &self,
        _cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        let job = temp_folder(Folder::Job)?;
        std::fs::write(job.path().join("program.py"), sample.program(task))?;
        Ok(Ok(Program {
            module: self.module.clone(),
            entry: self.entry,
            invocation: self.invocation(&["/job/program.py"], job.path()),
            scratch: true,
            interpreter: Some("Python"),
            job: Some(job),
        }))
    }
}
