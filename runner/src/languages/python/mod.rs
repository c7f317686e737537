//! Python samples, as core plans them (`wasmeval_core::evaluation::python`: the harness's jobs,
//! judged by `wasmeval_core::judging::python`), run in the sandbox's CPython guest.

mod preloaded;
mod runtime;

pub use runtime::{module_for_site, PythonRuntime};

use super::{
    job_folder, run_interpreted_case_suites, Context, InterpreterGuest, LanguageRoute, Program,
};
use wasmeval_core::evaluation::{python, Guest, Job};
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{Sample, Task};

impl InterpreterGuest for PythonRuntime {
    fn program(&self, job: &Job, memory_limit: u64) -> anyhow::Result<Program> {
        let folder = job_folder(job)?;
        let args: Vec<&str> = job.args.iter().map(String::as_str).collect();
        let mut invocation = self.invocation(&args, folder.path());
        invocation.env.extend(job.env.iter().cloned());
        invocation.stdin = job.stdin.clone();
        Ok(Program {
            module: self.image(job.preload, memory_limit).clone(),
            entry: self.entry,
            invocation,
            scratch: job.scratch,
            interpreter: Some("Python"),
            job: Some(folder),
        })
    }
}

impl PythonRuntime {
    /// Runs core's `job` once under `limits`, for a front end that reads the harness's report
    /// itself (the reference outputs: `crate::reference_outputs`).
    pub fn run_job(
        &self,
        sandbox: &crate::sandbox::Sandbox,
        job: &Job,
        limits: crate::sandbox::Limits,
    ) -> anyhow::Result<wasmeval_core::judging::Execution> {
        let program = self.program(job, limits.memory)?;
        let cx = Context {
            sandbox,
            limits,
            compile_limits: Default::default(),
            module_cache: std::path::Path::new(""),
        };
        super::execute_within(&cx, &program, &[], job.stdin.clone(), limits)
    }

    /// The harness's bytecode, as its jobs load it.
    pub fn harness_code(&self) -> &[u8] {
        &self.harness_code
    }
}

impl LanguageRoute for PythonRuntime {
    fn run_case_suites(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>> {
        run_interpreted_case_suites(
            self,
            Guest::Python,
            &self.harness_code,
            cx,
            task,
            sample,
            log,
        )
    }

    fn whole_program(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        Ok(Ok(self.program(
            &python::whole_program(task, sample),
            cx.limits.memory,
        )?))
    }
}
