//! Compiled modules cached on disk, keyed by a hash of the module and of everything that changes
//! the machine code (wasmtime's version and the engine's configuration).
//!
//! `Module::deserialize_file` trusts its input completely, so the cache directory is created
//! private to the user and entries are written atomically under their content hash.

use anyhow::Context;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use wasmtime::{Engine, Module};

/// An interpreter guest installed by a script (scripts/install-python-runtime,
/// install-js-runtime): its `runtime.json` read as `M`, its module compiled once and cached, and
/// the module's SHA-256 (hex) for run manifests.
pub struct InstalledRuntime<M> {
    /// The parsed `runtime.json`.
    pub manifest: M,
    /// The guest module, compiled for the engine.
    pub module: Module,
    /// SHA-256 of the module file, hex.
    pub sha256: String,
}

/// An installed runtime found and looked up in the cache: its machine code is either there, or
/// still to be compiled ([`Found::to_compile`]). Finding every runtime a run needs before loading
/// any lets the run say once what it is about to compile ([`announce`]).
pub struct Found<M> {
    manifest: M,
    sha256: String,
    module_path: std::path::PathBuf,
    code: Code,
}

/// A module's machine code: from the cache, or to compile from the wasm (keyed by `key`).
enum Code {
    Cached(Module),
    Missing { wasm: Vec<u8>, key: String },
}

/// Finds the runtime installed in `dir`: `runtime.json` as `M`, then the module `module_of` names
/// (relative to `dir`, or absolute), looked up in the cache in `cache_dir`. `missing` says what
/// to run when there is no runtime.
pub fn find_installed<M: serde::de::DeserializeOwned>(
    engine: &Engine,
    dir: &Path,
    cache_dir: &Path,
    missing: &str,
    module_of: impl Fn(&M) -> anyhow::Result<PathBuf>,
) -> anyhow::Result<Found<M>> {
    let manifest_path = dir.join("runtime.json");
    let text = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("no {missing} at {}", dir.display()))?;
    let manifest: M = serde_json::from_str(&text)
        .with_context(|| format!("{}: malformed", manifest_path.display()))?;
    let module_path = dir.join(module_of(&manifest)?);
    // A run's child process is told the digests its parent has just computed (the module is
    // over 100 MB): when the machine code is cached, the module need not be read at all.
    let known = known_digests().get(&module_path).cloned();
    if let Some(Digests { sha256, key }) = known {
        if let Some(module) = cached(engine, cache_dir, &key) {
            return Ok(Found {
                manifest,
                sha256,
                module_path,
                code: Code::Cached(module),
            });
        }
    }
    let wasm = std::fs::read(&module_path)
        .with_context(|| format!("cannot read {}", module_path.display()))?;
    let (sha256, key) = digest_and_cache_key(engine, &wasm);
    remember_digests(
        &module_path,
        Digests {
            sha256: sha256.clone(),
            key: key.clone(),
        },
    );
    let code = match cached(engine, cache_dir, &key) {
        Some(module) => Code::Cached(module),
        None => Code::Missing { wasm, key },
    };
    Ok(Found {
        manifest,
        sha256,
        module_path,
        code,
    })
}

/// An installed module's SHA-256 and machine-code cache key (both hex).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Digests {
    /// SHA-256 of the module file.
    pub sha256: String,
    /// Its key in the machine-code cache.
    pub key: String,
}

/// The digests of the installed modules this process has read, by path.
static DIGESTS: std::sync::Mutex<BTreeMap<PathBuf, Digests>> =
    std::sync::Mutex::new(BTreeMap::new());

fn known_digests() -> std::sync::MutexGuard<'static, BTreeMap<PathBuf, Digests>> {
    DIGESTS.lock().unwrap_or_else(|p| p.into_inner())
}

fn remember_digests(path: &Path, digests: Digests) {
    known_digests().insert(path.to_owned(), digests);
}

/// The digests of every installed module [`find_installed`] read in this process: what a
/// child process of the same run is given ([`trust_digests`]).
pub fn digests_read() -> BTreeMap<PathBuf, Digests> {
    known_digests().clone()
}

/// Takes `digests` as the installed modules' own, without reading them again: only for what this
/// process's parent, the same wasmeval, computed at the start of the same run.
pub fn trust_digests(digests: BTreeMap<PathBuf, Digests>) {
    known_digests().extend(digests);
}

impl<M> Found<M> {
    /// The size in bytes of the module when it has to be compiled (it is not in the cache).
    pub fn to_compile(&self) -> Option<u64> {
        match &self.code {
            Code::Cached(_) => None,
            Code::Missing { wasm, .. } => Some(wasm.len() as u64),
        }
    }

    /// The runtime, its module compiled (and cached in `cache_dir`) unless the cache had it.
    pub fn load(self, engine: &Engine, cache_dir: &Path) -> anyhow::Result<InstalledRuntime<M>> {
        let module = match self.code {
            Code::Cached(module) => module,
            Code::Missing { wasm, key } => compile(engine, &wasm, cache_dir, &key, false)
                .with_context(|| format!("cannot load {}", self.module_path.display()))?,
        };
        Ok(InstalledRuntime {
            manifest: self.manifest,
            module,
            sha256: self.sha256,
        })
    }
}

/// Says on stderr, in one line, what is about to be compiled (the sizes of the modules not in the
/// cache; `None` for one that is): a large interpreter takes a minute or two, and the run
/// would otherwise seem stuck. Nothing when there is little to compile.
pub fn announce(to_compile: &[Option<u64>], cache_dir: &Path) {
    let sizes: Vec<u64> = to_compile.iter().flatten().copied().collect();
    if let Some(line) = compile_notice(&sizes, cache_dir) {
        eprintln!("{line}");
    }
}

/// Modules smaller than this in all compile in well under a second: no notice.
const NOTICE_FROM_BYTES: u64 = 1_000_000;

/// The line [`announce`] prints for modules of `sizes` bytes (`None` below
/// [`NOTICE_FROM_BYTES`] in all): `wasmeval: compiling a 105 MB module once; later runs load it
/// from DIR`, or `compiling 2 modules (106 MB) once; later runs load them from DIR`.
pub fn compile_notice(sizes: &[u64], cache_dir: &Path) -> Option<String> {
    let total: u64 = sizes.iter().sum();
    if total < NOTICE_FROM_BYTES {
        return None;
    }
    let dir = cache_dir.display();
    Some(match sizes {
        [_] => format!(
            "wasmeval: compiling a {} module once; later runs load it from {dir}",
            size_text(total)
        ),
        _ => format!(
            "wasmeval: compiling {} modules ({}) once; later runs load them from {dir}",
            sizes.len(),
            size_text(total)
        ),
    })
}

/// A size for people: `850 KB`, `1.0 MB`, `9.9 MB`, `105 MB` (decimal units; never `0 MB`).
pub fn size_text(bytes: u64) -> String {
    let mb = bytes as f64 / 1e6;
    if bytes < 995_000 {
        format!("{} KB", bytes.div_ceil(1000))
    } else if mb < 9.95 {
        format!("{mb:.1} MB")
    } else {
        format!("{mb:.0} MB")
    }
}

/// Loads `wasm` compiled for `engine`, from the cache in `dir` when it is there, else compiling it
/// and storing it. Says nothing: compiled samples take milliseconds each, and the progress bar
/// counts them.
pub fn load_module(engine: &Engine, wasm: &[u8], dir: &Path) -> anyhow::Result<Module> {
    let key = cache_key(engine, wasm);
    match cached(engine, dir, &key) {
        Some(module) => Ok(module),
        None => compile(engine, wasm, dir, &key, false),
    }
}

/// [`load_module`] for a module large enough to take a while to compile: the process that
/// compiles it says so first ([`announce`]).
pub fn load_large_module(engine: &Engine, wasm: &[u8], dir: &Path) -> anyhow::Result<Module> {
    let key = cache_key(engine, wasm);
    match cached(engine, dir, &key) {
        Some(module) => Ok(module),
        None => compile(engine, wasm, dir, &key, true),
    }
}

/// The cache key of `wasm` compiled for `engine`: a hash of the module and of the engine's
/// configuration.
fn cache_key(engine: &Engine, wasm: &[u8]) -> String {
    digest_and_cache_key(engine, wasm).1
}

/// The SHA-256 (hex) of `wasm` and its [`cache_key`], from one pass over the bytes: the key's
/// hash starts with the module's, and an interpreter is over 100 MB, hashed at every start.
fn digest_and_cache_key(engine: &Engine, wasm: &[u8]) -> (String, String) {
    let mut hasher = Sha256::new();
    hasher.update(wasm);
    let digest = format!("{:x}", hasher.clone().finalize());
    let mut config_hash = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut config_hash);
    hasher.update(std::hash::Hasher::finish(&config_hash).to_le_bytes());
    (digest, format!("{:x}", hasher.finalize()))
}

/// The module of `key` in the cache in `dir`, if there is a usable one.
fn cached(engine: &Engine, dir: &Path, key: &str) -> Option<Module> {
    deserialize(engine, &dir.join(format!("{key}.cwasm")))
}

/// Compiles `wasm` (whose key is `key`) and stores it in the cache in `dir`, unless another
/// process stored it while this one waited for the lock; `say_so`: [`announce`] it first.
fn compile(
    engine: &Engine,
    wasm: &[u8],
    dir: &Path,
    key: &str,
    say_so: bool,
) -> anyhow::Result<Module> {
    let entry = dir.join(format!("{key}.cwasm"));
    // Compiling a large module takes gigabytes of memory: let one process do it while others wait.
    create_private_dir(dir)?;
    let lock_path = dir.join(format!("{key}.lock"));
    let lock = std::fs::File::create(&lock_path)
        .with_context(|| format!("cannot create {}", lock_path.display()))?;
    lock.lock()
        .with_context(|| format!("cannot lock {}", lock_path.display()))?;
    if let Some(module) = deserialize(engine, &entry) {
        return Ok(module);
    }
    if say_so {
        announce(&[Some(wasm.len() as u64)], dir);
    }
    let module = Module::new(engine, wasm).map_err(|e| anyhow::anyhow!("cannot compile: {e:#}"))?;
    let bytes = module.serialize().map_err(|e| anyhow::anyhow!("{e:#}"))?;
    crate::atomic_file::write(&entry, &bytes)?;
    crate::cache_bound::trim(dir, MACHINE_CODE_LIMIT);
    Ok(module)
}

/// The machine-code cache is trimmed (least recently used first) when it grows past this: room
/// for the interpreters (about 1.1 GB for Python: the module its snapshots are taken from, 350 MB,
/// and its two images, 350 and 440 MB) and thousands of compiled samples.
pub const MACHINE_CODE_LIMIT: u64 = 4 << 30;

/// The cached module at `entry`, if there is a usable one.
fn deserialize(engine: &Engine, entry: &Path) -> Option<Module> {
    if !entry.exists() {
        return None;
    }
    // SAFETY: the file was written by `Module::serialize` of this wasmtime version (the key
    // includes the engine's compatibility hash) into a directory only this user can write. A
    // damaged entry fails to deserialize and is compiled again.
    #[allow(unsafe_code)]
    let module = unsafe { Module::deserialize_file(engine, entry) }.ok()?;
    crate::cache_bound::touch(entry);
    Some(module)
}

fn create_private_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot create {}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_notice_counts_the_modules_and_never_says_0_mb() {
        let dir = Path::new("/cache");
        assert_eq!(
            compile_notice(&[104_517_748, 1_040_179], dir).as_deref(),
            Some("wasmeval: compiling 2 modules (106 MB) once; later runs load them from /cache")
        );
        assert_eq!(
            compile_notice(&[1_040_179], dir).as_deref(),
            Some("wasmeval: compiling a 1.0 MB module once; later runs load it from /cache")
        );
        // Little to compile: no notice.
        assert_eq!(compile_notice(&[400_000, 500_000], dir), None);
        assert_eq!(compile_notice(&[], dir), None);
        for (bytes, text) in [
            (1, "1 KB"),
            (999, "1 KB"),
            (850_000, "850 KB"),
            (994_999, "995 KB"),
            (999_999, "1.0 MB"),
            (1_048_576, "1.0 MB"),
            (9_940_000, "9.9 MB"),
            (9_960_000, "10 MB"),
            (104_517_748, "105 MB"),
        ] {
            assert_eq!(size_text(bytes), text, "{bytes} bytes");
        }
    }
}
