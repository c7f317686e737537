//! The Python interpreter guest: a CPython build for wasm32-wasip1 installed by `scripts/setup`,
//! described by the `runtime.json` beside it.

use crate::languages::InterpreterGuest;
use crate::sandbox::{cache, Entry, Invocation, Preopen, Sandbox};
use anyhow::Context;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use wasmtime::Module;

/// `runtime.json`: what the setup script installed and how to start it.
#[derive(Debug, Clone, Deserialize)]
struct Manifest {
    /// The module file, relative to the runtime folder.
    module: PathBuf,
    entry: Entry,
    /// `argv[0]` the interpreter expects (it derives its home from it).
    argv0: String,
    /// Read-only folders, host path relative to the runtime folder.
    #[serde(default)]
    preopens: Vec<ManifestPreopen>,
    /// Environment variables the interpreter needs (nothing of the host's is passed).
    #[serde(default)]
    env: Vec<(String, String)>,
}

impl Manifest {
    /// The interpreter's read-only folders, as preopens.
    fn preopens(&self, dir: &Path) -> Vec<Preopen> {
        self.preopens
            .iter()
            .map(|p| Preopen {
                host: dir.join(&p.host),
                guest: p.guest.clone(),
                writable: false,
            })
            .collect()
    }
}

#[derive(Debug, Clone, Deserialize)]
struct ManifestPreopen {
    host: PathBuf,
    guest: String,
}

/// A loaded interpreter, compiled for the sandbox's engine.
pub struct PythonRuntime {
    pub(crate) module: Module,
    pub(crate) entry: Entry,
    pub(crate) argv0: String,
    pub(crate) preopens: Vec<Preopen>,
    pub(crate) env: Vec<(String, String)>,
    /// The harness (`guests/python/harness.py`) compiled to this interpreter's bytecode, as
    /// `marshal` bytes (see [`compile_harness`]).
    pub(crate) harness_code: Vec<u8>,
    sha256: String,
}

/// The interpreter found in its folder, its machine code cached or still to compile.
pub struct FoundPython {
    found: cache::Found<Manifest>,
    dir: PathBuf,
}

impl FoundPython {
    /// The module's size in bytes when it has to be compiled first.
    pub fn to_compile(&self) -> Option<u64> {
        self.found.to_compile()
    }

    /// The runtime, its module compiled (once, then cached in `cache_dir`) when needed.
    pub fn load(self, sandbox: &Sandbox, cache_dir: &Path) -> anyhow::Result<PythonRuntime> {
        let dir = self.dir;
        let installed = self.found.load(sandbox.engine(), cache_dir)?;
        let (manifest, module, sha256) = (installed.manifest, installed.module, installed.sha256);
        let preopens = manifest.preopens(&dir);
        let mut runtime = PythonRuntime {
            module,
            entry: manifest.entry,
            argv0: manifest.argv0,
            preopens,
            env: manifest.env,
            harness_code: Vec::new(),
            sha256,
        };
        runtime.harness_code = compile_harness(sandbox, &runtime)?;
        Ok(runtime)
    }
}

impl PythonRuntime {
    /// Finds the runtime in `dir` and looks its module up in the cache in `cache_dir`.
    /// The module found is the installed one with common imports done
    /// ([`preloaded`](super::preloaded)), made first when missing.
    pub fn find(sandbox: &Sandbox, dir: &Path, cache_dir: &Path) -> anyhow::Result<FoundPython> {
        let found = cache::find_installed(
            sandbox.engine(),
            dir,
            cache_dir,
            "Python runtime (run scripts/setup, or pass --runtime)",
            |m: &Manifest| preloaded_module(sandbox, dir, m, cache_dir),
        )?;
        Ok(FoundPython {
            found,
            dir: dir.to_owned(),
        })
    }

    /// An invocation of the interpreter with `args` after `argv[0]`: the runtime's read-only
    /// folders and environment, and `job` read-only at `/job` (each execution adds its own `/tmp`;
    /// a job's own environment, `wasmeval_core::evaluation::python::ENV`, comes after).
    pub(crate) fn invocation(&self, args: &[&str], job: &Path) -> Invocation {
        let mut preopens = self.preopens.clone();
        preopens.push(Preopen {
            host: job.to_owned(),
            guest: "/job".into(),
            writable: false,
        });
        Invocation {
            args: std::iter::once(self.argv0.clone())
                .chain(args.iter().map(|a| a.to_string()))
                .collect(),
            env: self.env.clone(),
            preopens,
            stdin: Vec::new(),
            ..Invocation::default()
        }
    }

    /// SHA-256 of the interpreter module, hex.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }
}

/// The preloaded module of the interpreter `manifest` describes in `dir`, made when missing.
fn preloaded_module(
    sandbox: &Sandbox,
    dir: &Path,
    manifest: &Manifest,
    cache_dir: &Path,
) -> anyhow::Result<PathBuf> {
    let interpreter = Invocation {
        args: vec![manifest.argv0.clone()],
        env: manifest.env.clone(),
        preopens: manifest.preopens(dir),
        ..Invocation::default()
    };
    super::preloaded::module(sandbox, dir, &manifest.module, interpreter, cache_dir)
}

/// The module a site ships for the browser's Python: the same preloaded module as executions run
/// here (so that fuel counts agree), made when missing (`cache_dir`: the machine-code cache).
pub fn module_for_site(dir: &Path, cache_dir: &Path) -> anyhow::Result<PathBuf> {
    let manifest_path = dir.join("runtime.json");
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(&manifest_path)
            .with_context(|| format!("cannot read {}", manifest_path.display()))?,
    )
    .with_context(|| format!("{}: malformed", manifest_path.display()))?;
    let sandbox = Sandbox::new(1)?;
    preloaded_module(&sandbox, dir, &manifest, cache_dir)
}

/// Compiles the harness to bytecode in the interpreter itself, once per process, and returns it as
/// `marshal` bytes (core's `python::compile_job` says why).
fn compile_harness(sandbox: &Sandbox, runtime: &PythonRuntime) -> anyhow::Result<Vec<u8>> {
    let program = runtime.program(&wasmeval_core::evaluation::python::compile_job())?;
    let limits = crate::sandbox::Limits {
        fuel: 5_000_000_000,
        memory: 512 << 20,
        timeout: std::time::Duration::from_secs(120),
        output: 64 << 20,
        disk: 0,
        fuel_from_time_limit: false,
    };
    let (invocation, _scratch) = super::super::prepared(&program)?;
    let execution = sandbox.run(&program.module, program.entry, &invocation, &limits)?;
    match execution.exit {
        crate::sandbox::Exit::Code(0) if !execution.output.stdout.is_empty() => {
            Ok(execution.output.stdout)
        }
        exit => anyhow::bail!(
            "the Python runtime could not compile the harness ({exit:?}): {}",
            String::from_utf8_lossy(&execution.output.stderr)
        ),
    }
}
