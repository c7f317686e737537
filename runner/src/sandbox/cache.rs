//! Compiled modules cached on disk, keyed by a hash of the module and of everything that changes
//! the machine code (wasmtime's version and the engine's configuration).
//!
//! `Module::deserialize_file` trusts its input completely, so the cache directory is created
//! private to the user and entries are written atomically under their content hash.

use anyhow::Context;
use sha2::{Digest, Sha256};
use std::path::Path;
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

/// Loads the runtime installed in `dir`: `runtime.json` as `M`, then the module `module_of` names
/// (relative to `dir`). `missing` says what to run when there is no runtime.
pub fn load_installed<M: serde::de::DeserializeOwned>(
    engine: &Engine,
    dir: &Path,
    cache_dir: &Path,
    missing: &str,
    module_of: impl Fn(&M) -> &Path,
) -> anyhow::Result<InstalledRuntime<M>> {
    let manifest_path = dir.join("runtime.json");
    let text = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("no {missing} at {}", dir.display()))?;
    let manifest: M = serde_json::from_str(&text)
        .with_context(|| format!("{}: malformed", manifest_path.display()))?;
    let module_path = dir.join(module_of(&manifest));
    let wasm = std::fs::read(&module_path)
        .with_context(|| format!("cannot read {}", module_path.display()))?;
    let sha256 = format!("{:x}", Sha256::digest(&wasm));
    let module = load_module(engine, &wasm, cache_dir)
        .with_context(|| format!("cannot load {}", module_path.display()))?;
    Ok(InstalledRuntime {
        manifest,
        module,
        sha256,
    })
}

/// Loads `wasm` compiled for `engine`, from the cache in `dir` when it is there, else compiling it
/// (for a large interpreter this takes a minute or two, once) and storing it.
pub fn load_module(engine: &Engine, wasm: &[u8], dir: &Path) -> anyhow::Result<Module> {
    let mut hasher = Sha256::new();
    hasher.update(wasm);
    let mut config_hash = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut config_hash);
    hasher.update(std::hash::Hasher::finish(&config_hash).to_le_bytes());
    let key = format!("{:x}", hasher.finalize());
    let entry = dir.join(format!("{key}.cwasm"));

    if let Some(module) = deserialize(engine, &entry) {
        return Ok(module);
    }
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
    // A large module (an interpreter) takes minutes: say why the run pauses. Compiled samples
    // take milliseconds each and would only flood stderr (the progress bar counts them).
    if wasm.len() >= 1 << 20 {
        eprintln!(
            "wasmeval: compiling a {} MB module (once; later runs load it from {})",
            wasm.len() >> 20,
            dir.display()
        );
    }
    let module = Module::new(engine, wasm).map_err(|e| anyhow::anyhow!("cannot compile: {e:#}"))?;
    let bytes = module.serialize().map_err(|e| anyhow::anyhow!("{e:#}"))?;
    crate::atomic_file::write(&entry, &bytes)?;
    crate::cache_bound::trim(dir, MACHINE_CODE_LIMIT);
    Ok(module)
}

/// The machine-code cache is trimmed (least recently used first) when it grows past this: room
/// for the interpreters (about 350 MB for Python) and thousands of compiled samples.
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
