//! Python samples: the candidate program and every assertion, alternative and `calls` case run in
//! one interpreter under the harness (`guests/python/harness.py`), judged by
//! `wasmeval_core::judging::python`; `io` cases run the program as a script, one execution each.

mod runtime;

pub use runtime::PythonRuntime;

use super::{execute, execute_judge, fresh_token, has_io_suites, Context, LanguageRoute, Program};
use crate::sandbox::{temp_folder, Folder};
use wasmeval_core::judging::python::{harness_suites, judge, Layout};
use wasmeval_core::judging::token::Token;
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{Sample, Task, TestSuite};

/// How a whole program runs: as `python /job/program.py` would, but in its own `/tmp`, so that
/// the files it writes and reads by relative paths are its scratch folder's (WASI starts in `/`).
/// The task's prelude, when it has one, runs first in the same globals (`/job/prelude.py`).
const RUN_IN_TMP: &str = "import os, sys
os.chdir('/tmp')
sys.argv[:] = ['/job/program.py']
if os.path.exists('/job/prelude.py'):
    exec(compile(open('/job/prelude.py', encoding='utf-8').read(), '/job/prelude.py', 'exec'))
__file__ = '/job/program.py'
exec(compile(open(__file__, encoding='utf-8').read(), __file__, 'exec'))
";

/// Writes the candidate into `job` as `program.py`, and the task's prelude, when it has one,
/// as `prelude.py` (the harness and [`RUN_IN_TMP`] run it first, in the candidate's globals).
fn write_candidate(job: &std::path::Path, task: &Task, sample: &Sample) -> std::io::Result<()> {
    if !task.prelude.is_empty() {
        std::fs::write(job.join("prelude.py"), &task.prelude)?;
    }
    std::fs::write(job.join("program.py"), sample.program(task))
}

/// The harness's source; runs load it compiled (`PythonRuntime::harness_code`).
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
        let token = fresh_token()?;
        let tests = serde_json::to_vec(&harness_suites(task))?;
        let execution = if has_guest_judged_suites(task) {
            // The tests in a judge instance of their own, the candidate in a partner instance.
            let judge_job = temp_folder(Folder::Job)?;
            std::fs::write(judge_job.path().join("tests.json"), tests)?;
            let partner_job = temp_folder(Folder::Job)?;
            write_candidate(partner_job.path(), task, sample)?;
            std::fs::write(partner_job.path().join("harness.bin"), &self.harness_code)?;
            let judge = self.harness(&token, "judge", judge_job)?;
            // No token, no tests: the partner only answers calls.
            let partner = Program {
                module: self.module.clone(),
                entry: self.entry,
                invocation: self.invocation(&[], partner_job.path()),
                scratch: true,
                interpreter: Some("Python"),
                job: Some(partner_job),
            };
            let setup = "import marshal\n\
                         exec(marshal.loads(open('/job/harness.bin', 'rb').read()))\n\
                         _wasmeval_main('partner')\n";
            execute_judge(cx, &judge, &partner, setup, log)?
        } else {
            let job = temp_folder(Folder::Job)?;
            write_candidate(job.path(), task, sample)?;
            std::fs::write(job.path().join("tests.json"), tests)?;
            execute(
                cx,
                &self.harness(&token, "alone", job)?,
                &[],
                Vec::new(),
                log,
            )?
        };
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
        write_candidate(job.path(), task, sample)?;
        Ok(Ok(Program {
            module: self.module.clone(),
            entry: self.entry,
            invocation: self.invocation(&["-c", RUN_IN_TMP], job.path()),
            scratch: true,
            interpreter: Some("Python"),
            job: Some(job),
        }))
    }
}

impl PythonRuntime {
    /// The harness in `mode` ("alone" or "judge"), reporting with `token`, with `job` at `/job`
    /// (where its compiled code is written).
    fn harness(
        &self,
        token: &Token,
        mode: &str,
        job: tempfile::TempDir,
    ) -> anyhow::Result<Program> {
        std::fs::write(job.path().join("harness.bin"), &self.harness_code)?;
        let source = format!(
            "import marshal\nexec(marshal.loads(open('/job/harness.bin', 'rb').read()))\n\
             _wasmeval_main({mode:?})()\n"
        );
        Ok(Program {
            module: self.module.clone(),
            entry: self.entry,
            invocation: self.invocation(&["-c", &source, token.as_str(), "/job"], job.path()),
            scratch: true,
            interpreter: Some("Python"),
            job: Some(job),
        })
    }
}

/// Whether `task` has suites whose verdicts the harness decides (`assertions`, `alternatives`):
/// those run in a judge instance apart from the candidate. `calls` cases, judged on the host, do
/// not need one.
fn has_guest_judged_suites(task: &Task) -> bool {
    task.tests.iter().any(|s| {
        matches!(
            s,
            TestSuite::Assertions { .. } | TestSuite::Alternatives { .. }
        )
    })
}
