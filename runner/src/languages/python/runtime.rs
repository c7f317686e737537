//! The Python interpreter guest: a CPython build for wasm32-wasip1 installed by `scripts/setup`,
//! described by the `runtime.json` beside it.

use crate::languages::InterpreterGuest;
use crate::sandbox::{cache, Entry, Invocation, Preopen, Sandbox};
use anyhow::Context;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use wasmeval_core::evaluation::Preload;
use wasmtime::{Engine, Module};

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
    /// The standard image ([`Preload::Standard`]).
    pub(crate) module: Module,
    /// The scientific image ([`Preload::Scientific`]), made when a job first asks for it.
    scientific: ScientificImage,
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
        let scientific = ScientificImage {
            engine: sandbox.engine().clone(),
            dir: dir.clone(),
            manifest: manifest.clone(),
            cache_dir: cache_dir.to_owned(),
            made: OnceLock::new(),
        };
        let mut runtime = PythonRuntime {
            module,
            scientific,
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
            |m: &Manifest| image_path(sandbox, dir, m, cache_dir, Preload::Standard),
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

    /// The compiled image a job that asks for `preload` starts from under a memory limit of
    /// `memory_limit` bytes (core's `Preload::available`, as the browser decides).
    pub(crate) fn image(&self, preload: Preload, memory_limit: u64) -> &Module {
        let scientific = match preload {
            Preload::Standard => None,
            Preload::Scientific => self.scientific.image(),
        };
        let start = scientific.map(|image| image.initial_memory);
        match (preload.available(memory_limit, start), scientific) {
            (Preload::Scientific, Some(image)) => &image.module,
            _ => &self.module,
        }
    }
}

/// The interpreter with the scientific packages imported: made and compiled the first time a job
/// asks for it (on a new machine a minute or two, once; then a fraction of a second per process),
/// since most runs never import numpy. When it cannot be made (an interpreter installed without
/// those packages), such jobs start from the standard image, as they did before it existed.
struct ScientificImage {
    /// The engine executions run on, which the image is compiled for.
    engine: Engine,
    dir: PathBuf,
    manifest: Manifest,
    cache_dir: PathBuf,
    made: OnceLock<Option<Image>>,
}

/// A compiled start image.
struct Image {
    module: Module,
    /// The bytes of linear memory it starts with.
    initial_memory: u64,
}

impl ScientificImage {
    fn image(&self) -> Option<&Image> {
        self.made
            .get_or_init(|| match self.make() {
                Ok(image) => Some(image),
                Err(error) => {
                    eprintln!(
                        "wasmeval: samples that import numpy, pandas, scipy, scikit-learn or \
                         matplotlib start from the standard interpreter and pay for their \
                         imports: {error:#}"
                    );
                    None
                }
            })
            .as_ref()
    }

    fn make(&self) -> anyhow::Result<Image> {
        // The snapshot runs on an engine of its own: executions' engine is shared, not owned.
        let sandbox = Sandbox::new(1)?;
        let path = image_path(
            &sandbox,
            &self.dir,
            &self.manifest,
            &self.cache_dir,
            Preload::Scientific,
        )?;
        let wasm =
            std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let initial_memory = crate::sandbox::snapshot::initial_memory(&wasm)?
            .with_context(|| format!("{} defines no memory", path.display()))?;
        let module = cache::load_large_module(&self.engine, &wasm, &self.cache_dir)
            .with_context(|| format!("cannot load {}", path.display()))?;
        Ok(Image {
            module,
            initial_memory,
        })
    }
}

/// The `preload` image of the interpreter `manifest` describes in `dir`, made when missing.
fn image_path(
    sandbox: &Sandbox,
    dir: &Path,
    manifest: &Manifest,
    cache_dir: &Path,
    preload: Preload,
) -> anyhow::Result<PathBuf> {
    let interpreter = Invocation {
        args: vec![manifest.argv0.clone()],
        env: manifest.env.clone(),
        preopens: manifest.preopens(dir),
        ..Invocation::default()
    };
    super::preloaded::module(
        sandbox,
        dir,
        &manifest.module,
        interpreter,
        cache_dir,
        preload,
    )
}

/// The `preload` image a site ships for the browser's Python: the same as executions run here
/// (so that fuel counts agree), made when missing (`cache_dir`: the machine-code cache).
pub fn module_for_site(dir: &Path, cache_dir: &Path, preload: Preload) -> anyhow::Result<PathBuf> {
    let manifest_path = dir.join("runtime.json");
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(&manifest_path)
            .with_context(|| format!("cannot read {}", manifest_path.display()))?,
    )
    .with_context(|| format!("{}: malformed", manifest_path.display()))?;
    let sandbox = Sandbox::new(1)?;
    image_path(&sandbox, dir, &manifest, cache_dir, preload)
}

/// Compiles the harness to bytecode in the interpreter itself, once per process, and returns it as
/// `marshal` bytes (core's `python::compile_job` says why).
fn compile_harness(sandbox: &Sandbox, runtime: &PythonRuntime) -> anyhow::Result<Vec<u8>> {
    let limits = crate::sandbox::HARNESS_COMPILATION;
    let program = runtime.program(
        &wasmeval_core::evaluation::python::compile_job(),
        limits.memory,
    )?;
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
