//! The Python interpreter that every execution runs: the installed snapshot, with the standard
//! modules that samples import most often already imported (`sandbox::snapshot`), so that no
//! sample pays for them. `from typing import List` alone costs 44 M fuel (about 9 ms) against
//! 4 M for the rest of a trivial sample, and 21 of HumanEval's 164 prompts start with it.
//!
//! Samples that import numpy, pandas, scipy, scikit-learn or matplotlib (core's `python::preload`
//! decides, so that the browser decides alike) start from a second image with those imported as
//! well ([`SCIENTIFIC_MODULES`]): their imports cost 0.7 to 14 G fuel, a fifth of a second to
//! three seconds per sample, and scikit-learn's alone is over the default budget. That image
//! starts with about 125 MiB of memory instead of 40, and is made the first time a sample needs
//! it.
//!
//! The imports leave no name behind: a sample that uses `typing` without importing it fails as
//! it would under any Python. They do leave the modules in `sys.modules` (and their files' index
//! in the import system's caches), which is how a later `import` finds them at once.
//!
//! The snapshot is made once per installed interpreter (the first time on a machine, a
//! compilation of the interpreter as long as its first one; its machine code is cached) and kept
//! beside it as `preloaded-<key>.wasm`; the key covers the
//! installed module's name, size and modification time, [`MODULES`] and [`FORMAT`]. Reinstalling
//! the interpreter replaces its whole folder, snapshot included.

use crate::sandbox::{Invocation, Limits, Preopen, Sandbox};
use anyhow::Context;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::Duration;
use wasmeval_core::evaluation::Preload;

/// Modules imported before the snapshot: the standard library's most imported ones in HumanEval,
/// MBPP and their relatives whose import costs fuel (`math`, `re`, `collections`, `functools`,
/// `itertools`, `os` and `sys` are already in the installed snapshot). Each must import without
/// randomness, clocks or open files: `random`, whose import seeds it, is not here.
pub const MODULES: &[&str] = &[
    "typing",
    "string",
    "heapq",
    "bisect",
    "fractions",
    "decimal",
    "datetime",
    "hashlib",
    "copy",
    "dataclasses",
];

/// Modules the scientific image imports after [`MODULES`]: the packages of core's
/// `python::SCIENTIFIC_PACKAGES` and the submodules samples import most (scikit-learn imports
/// most of scipy's itself; `matplotlib.pyplot` builds its font list, 5 G fuel).
pub const SCIENTIFIC_MODULES: &[&str] = &[
    "numpy",
    "pandas",
    "scipy",
    "sklearn",
    "matplotlib",
    "matplotlib.pyplot",
    "sklearn.model_selection",
    "sklearn.metrics",
    "sklearn.linear_model",
    "sklearn.preprocessing",
    "scipy.stats",
    "scipy.optimize",
    "scipy.special",
    "scipy.signal",
    "scipy.sparse",
    "scipy.linalg",
];

/// What `preload`'s image imports, and the start of its file's name.
fn modules_and_prefix(preload: Preload) -> (Vec<&'static str>, &'static str) {
    match preload {
        Preload::Standard => (MODULES.to_vec(), "preloaded-"),
        Preload::Scientific => (
            MODULES.iter().chain(SCIENTIFIC_MODULES).copied().collect(),
            "preloaded-scientific-",
        ),
    }
}

/// The version of what [`sandbox::snapshot`](crate::sandbox::snapshot) writes: bump it when its
/// output changes, so that existing snapshots are made again.
const FORMAT: u32 = 1;

/// The `preload` image of the interpreter module `original` (in `dir`), made when missing with
/// `interpreter` (its `argv[0]`, environment and own folders) and an empty `/job` and `/tmp`
/// after them, in the order executions preopen them (`PythonRuntime::invocation`,
/// `languages::prepared`): the snapshot carries the C library's table of preopens. `cache_dir` is
/// the machine-code cache.
pub(super) fn module(
    sandbox: &Sandbox,
    dir: &Path,
    original: &Path,
    interpreter: Invocation,
    cache_dir: &Path,
    preload: Preload,
) -> anyhow::Result<PathBuf> {
    let (modules, prefix) = modules_and_prefix(preload);
    let original_path = dir.join(original);
    let meta = std::fs::metadata(&original_path)
        .with_context(|| format!("cannot read {}", original_path.display()))?;
    let mut key = Sha256::new();
    key.update(original.to_string_lossy().as_bytes());
    key.update(meta.len().to_le_bytes());
    if let Ok(modified) = meta.modified() {
        key.update(format!("{modified:?}").as_bytes());
    }
    let code = code(&modules, interpreter.preopens.len() + 2);
    key.update(code.as_bytes());
    key.update(FORMAT.to_le_bytes());
    let name = format!("{prefix}{}.wasm", &format!("{:x}", key.finalize())[..16]);
    let path = dir.join(&name);
    if path.exists() {
        return Ok(path);
    }
    // A run's worker processes may all need the image at once: one makes it, the others wait.
    let lock_path = dir.join(format!(".{name}.lock"));
    let lock = std::fs::File::create(&lock_path).with_context(|| {
        format!(
            "cannot create {} (is the folder writable?)",
            lock_path.display()
        )
    })?;
    lock.lock()
        .with_context(|| format!("cannot lock {}", lock_path.display()))?;
    if path.exists() {
        return Ok(path);
    }
    let what = match preload {
        Preload::Standard => "its common imports",
        Preload::Scientific => {
            "numpy, pandas, scipy, scikit-learn and matplotlib imported, for the samples that \
             import them"
        }
    };
    eprintln!(
        "wasmeval: preparing the Python interpreter with {what} (once; kept as {})",
        path.display()
    );
    let wasm = std::fs::read(&original_path)
        .with_context(|| format!("cannot read {}", original_path.display()))?;
    let limits = Limits {
        fuel: 100_000_000_000,
        memory: 1 << 30,
        timeout: Duration::from_secs(300),
        output: 1 << 20,
        // matplotlib writes its font list (into the turn's own /tmp).
        disk: 64 << 20,
        fuel_from_time_limit: false,
        sleep_limit: None,
    };
    let (job, tmp) = (
        crate::temp_space::folder("snapshot-job-")?,
        crate::temp_space::folder("snapshot-tmp-")?,
    );
    let mut invocation = interpreter;
    for (folder, guest, writable) in [(&job, "/job", false), (&tmp, "/tmp", true)] {
        invocation.preopens.push(Preopen {
            host: folder.path().to_owned(),
            guest: guest.into(),
            writable,
        });
    }
    let snapshot = sandbox
        .snapshot_after_turn(&wasm, &invocation, &limits, &code, cache_dir)
        .with_context(|| format!("cannot preload {}", original_path.display()))?;
    crate::atomic_file::write(&path, &snapshot)
        .with_context(|| format!("cannot write {} (is the folder writable?)", path.display()))?;
    // Images of an older MODULES or FORMAT are 100 MB or more each.
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let other = entry.file_name().to_string_lossy().into_owned();
        let older_key = other
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(".wasm"))
            .is_some_and(|key| key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit()));
        if older_key && other != name {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let _ = std::fs::remove_file(&lock_path);
    Ok(path)
}

/// The turn that imports `modules`: in a function, so that no name is left in `__main__`,
/// and checking that no file was left open (a snapshot cannot carry the host's side of it).
fn code(modules: &[&str], preopens: usize) -> String {
    // matplotlib writes its font list to this folder, and remembers it: /tmp is each execution's
    // own, and no execution looks for the list there (it is kept in memory).
    let (config, unset) = match modules.contains(&"matplotlib") {
        true => (
            "\n    os.environ['MPLCONFIGDIR'] = '/tmp/matplotlib'",
            "\n    del os.environ['MPLCONFIGDIR']",
        ),
        false => ("", ""),
    };
    let modules: Vec<String> = modules.iter().map(|m| format!("{m:?}")).collect();
    format!(
        "def _wasmeval_preload():
    import os, sys{config}
    for name in [{}]:
        __import__(name){unset}
    for fd in range(3, 256):
        try:
            os.fstat(fd)
        except OSError:
            continue
        if fd >= 3 + {preopens}:
            sys.stderr.write(f'file descriptor {{fd}} is open after the imports\\n')
    import gc
    gc.collect()
    gc.freeze()
_wasmeval_preload()
del _wasmeval_preload
",
        modules.join(", "),
    )
}
