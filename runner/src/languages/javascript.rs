//! JavaScript samples, as core plans them (`wasmeval_core::evaluation::javascript`: a run per
//! case, judged by `wasmeval_core::judging::javascript`), run in the sandbox's QuickJS-NG guest
//! (`guests/js/main.c`, installed by `scripts/install-js-runtime`).

use super::{
    job_folder, run_interpreted_case_suites, Context, InterpreterGuest, LanguageRoute, Program,
};
use crate::sandbox::{cache, Entry, Invocation, Preopen, Sandbox};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use wasmeval_core::evaluation::{javascript, Guest, Job};
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{Sample, Task};
use wasmtime::Module;

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
            |m: &Manifest| Ok(m.module.clone()),
        )?))
    }

    /// SHA-256 of the guest module, hex.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }
}

impl InterpreterGuest for JsRuntime {
    /// The guest with the job's arguments (the prelude's first), its folder read-only at
    /// `/job`, no environment, no other folder.
    fn program(&self, job: &Job, _memory_limit: u64) -> anyhow::Result<Program> {
        let folder = job_folder(job)?;
        let invocation = Invocation {
            args: std::iter::once("js".to_owned())
                .chain(job.args.iter().cloned())
                .collect(),
            env: job.env.clone(),
            preopens: vec![Preopen {
                host: folder.path().to_owned(),
                guest: "/job".into(),
                writable: false,
            }],
            stdin: job.stdin.clone(),
            ..Invocation::default()
        };
        Ok(Program {
            module: self.module.clone(),
            entry: Entry::Command,
            invocation,
            scratch: job.scratch,
            interpreter: Some("JavaScript"),
            job: Some(folder),
        })
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
        run_interpreted_case_suites(self, Guest::JavaScript, &[], cx, task, sample, log)
    }

    fn whole_program(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        Ok(Ok(self.program(
            &javascript::whole_program(task, sample),
            cx.limits.memory,
        )?))
    }
}
