//! Lua samples, as core plans them (`wasmeval_core::evaluation::lua`: a run per case, the tests
//! joined to the candidate in one chunk with globals of their own, `calls` values judged on the
//! host), run in the sandbox's Lua 5.4 guest (`guests/lua/main.c`, installed by
//! `scripts/install-lua-runtime`).

use super::{
    job_folder, run_interpreted_case_suites, Context, InterpreterGuest, LanguageRoute, Program,
};
use crate::sandbox::{cache, Entry, Invocation, Preopen, Sandbox};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use wasmeval_core::evaluation::{lua, Guest, Job};
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{Sample, Task};
use wasmtime::Module;

/// `runtime.json`, written by `scripts/install-lua-runtime`.
#[derive(Debug, Deserialize)]
struct Manifest {
    /// The module file, relative to the runtime folder.
    module: PathBuf,
}

/// The loaded Lua guest, compiled for the sandbox's engine (and cached).
pub struct LuaRuntime {
    module: Module,
    sha256: String,
}

/// The Lua guest found in its folder, its machine code cached or still to compile.
pub struct FoundLua(cache::Found<Manifest>);

impl FoundLua {
    /// The module's size in bytes when it has to be compiled first.
    pub fn to_compile(&self) -> Option<u64> {
        self.0.to_compile()
    }

    /// The runtime, its module compiled (once, then cached in `cache_dir`) when needed.
    pub fn load(self, sandbox: &Sandbox, cache_dir: &Path) -> anyhow::Result<LuaRuntime> {
        let installed = self.0.load(sandbox.engine(), cache_dir)?;
        Ok(LuaRuntime {
            module: installed.module,
            sha256: installed.sha256,
        })
    }
}

impl LuaRuntime {
    /// Finds the runtime in `dir` and looks its module up in the cache in `cache_dir`.
    pub fn find(sandbox: &Sandbox, dir: &Path, cache_dir: &Path) -> anyhow::Result<FoundLua> {
        Ok(FoundLua(cache::find_installed(
            sandbox.engine(),
            dir,
            cache_dir,
            "Lua runtime (run scripts/setup or scripts/install-lua-runtime)",
            |m: &Manifest| Ok(m.module.clone()),
        )?))
    }

    /// SHA-256 of the guest module, hex.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }
}

impl InterpreterGuest for LuaRuntime {
    /// The guest with the job's arguments, its folder read-only at `/job` (and a fresh `/tmp`
    /// per execution, as the job asks), no environment.
    fn program(&self, job: &Job, _memory_limit: u64) -> anyhow::Result<Program> {
        let folder = job_folder(job)?;
        let invocation = Invocation {
            args: std::iter::once("lua".to_owned())
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
            interpreter: Some("Lua"),
            job: Some(folder),
        })
    }
}

impl LanguageRoute for LuaRuntime {
    fn run_case_suites(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>> {
        run_interpreted_case_suites(self, Guest::Lua, &[], cx, task, sample, log)
    }

    fn whole_program(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        Ok(Ok(self.program(
            &lua::whole_program(task, sample),
            cx.limits.memory,
        )?))
    }
}
