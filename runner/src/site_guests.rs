//! The guests a static site ships for the browser's sandbox (`wasmeval report --site DIR
//! --with-runtimes`): the installed Python and JavaScript guests (Python's two start images, the
//! scientific one fetched only by a sample that needs it), metered by wasmeval-meter (a
//! fuel counter the module decrements itself, since V8 has no fuel), each with a `guest.json`
//! (core's `evaluation::BrowserGuest`), and the files of their folders split into chunks, so that
//! the browser fetches only the chunks a guest reads (the Python standard library's zip is 54 MB;
//! an import reads a few kB of it).
//!
//! Metering the 104 MB Python module takes a while, so metered modules are cached by the
//! original's SHA-256 in `$WASMEVAL_HOME/metered`.

use crate::atomic_file;
use anyhow::Context;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use wasmeval_core::evaluation::{BrowserFile, BrowserFolder, BrowserGuest, BrowserImage, Preload};

/// Bytes per chunk of a guest's file: small enough that an import fetches little more than it
/// reads, large enough that the 54 MB zip is about 400 files.
pub const CHUNK_SIZE: u64 = 128 << 10;

/// The metering pass's output version, part of the cache key: bump it when wasmeval-meter's
/// output changes, or sites keep modules metered the old way.
const METERING: u32 = 2;

/// The part of an installed guest's `runtime.json` a site needs.
#[derive(Debug, Deserialize)]
struct Installed {
    module: PathBuf,
    #[serde(default = "command")]
    entry: String,
    #[serde(default)]
    argv0: Option<String>,
    #[serde(default)]
    preopens: Vec<InstalledPreopen>,
    #[serde(default)]
    env: Vec<(String, String)>,
}

fn command() -> String {
    "command".into()
}

#[derive(Debug, Deserialize)]
struct InstalledPreopen {
    host: PathBuf,
    guest: String,
}

/// What [`write`] wrote.
#[derive(Debug, Default)]
pub struct Written {
    /// (guest, module bytes, files' bytes) per guest.
    pub guests: Vec<(String, u64, u64)>,
}

/// Writes the guests installed in `python_dir` and `js_dir` into `site/runtimes/`, metered, with
/// their folders in chunks; `cache` holds metered modules between builds, `module_cache` is the
/// machine-code cache (for the Python snapshot, when it has to be made).
pub fn write(
    python_dir: &Path,
    js_dir: &Path,
    site: &Path,
    cache: &Path,
    module_cache: &Path,
) -> anyhow::Result<Written> {
    let runtimes = site.join("runtimes");
    if runtimes.exists() {
        std::fs::remove_dir_all(&runtimes)
            .with_context(|| format!("cannot clear {}", runtimes.display()))?;
    }
    let mut written = Written::default();
    for (name, dir, argv0) in [("python", python_dir, None), ("js", js_dir, Some("js"))] {
        let out = runtimes.join(name);
        std::fs::create_dir_all(&out)?;
        let manifest = dir.join("runtime.json");
        let installed: Installed =
            serde_json::from_slice(&std::fs::read(&manifest).with_context(|| {
                format!(
                    "no {name} guest at {} (scripts/setup installs it)",
                    manifest.display()
                )
            })?)
            .with_context(|| format!("cannot read {}", manifest.display()))?;
        let module_name = format!("{name}.wasm");
        // The browser's Python runs the images executions run here: the same fuel.
        let module = match name {
            "python" => {
                crate::languages::python::module_for_site(dir, module_cache, Preload::Standard)?
            }
            _ => dir.join(&installed.module),
        };
        let metered = metered(&module, cache)?;
        std::fs::write(out.join(&module_name), &metered)?;
        let mut module_bytes = metered.len() as u64;
        let scientific = match name {
            "python" => write_scientific_image(dir, &out, cache, module_cache, &mut module_bytes)?,
            _ => None,
        };
        let mut folders = Vec::new();
        let mut file_bytes = 0;
        for (index, preopen) in installed.preopens.iter().enumerate() {
            let mut files = Vec::new();
            let root = dir.join(&preopen.host);
            for path in files_under(&root)? {
                let relative = path
                    .strip_prefix(&root)
                    .expect("under the root")
                    .to_string_lossy()
                    .replace('\\', "/");
                let chunks = format!("files/{index}/{relative}.chunks/");
                let size = split(&path, &out.join(&chunks))?;
                file_bytes += size;
                files.push(BrowserFile {
                    path: relative,
                    size,
                    chunks,
                    chunk_size: CHUNK_SIZE,
                });
            }
            folders.push(BrowserFolder {
                guest: preopen.guest.clone(),
                files,
            });
        }
        let guest = BrowserGuest {
            module: module_name,
            scientific,
            entry: installed.entry,
            argv0: installed
                .argv0
                .or(argv0.map(str::to_owned))
                .unwrap_or_else(|| name.to_owned()),
            env: installed.env,
            folders,
        };
        atomic_file::write(&out.join("guest.json"), &serde_json::to_vec_pretty(&guest)?)?;
        written
            .guests
            .push((name.to_owned(), module_bytes, file_bytes));
    }
    Ok(written)
}

/// Writes the Python guest's scientific image, metered, into `out` (adding its size to
/// `module_bytes`), when the interpreter installed in `dir` can make one.
fn write_scientific_image(
    dir: &Path,
    out: &Path,
    cache: &Path,
    module_cache: &Path,
    module_bytes: &mut u64,
) -> anyhow::Result<Option<BrowserImage>> {
    let made = crate::languages::python::module_for_site(dir, module_cache, Preload::Scientific);
    let image = match made {
        Ok(image) => image,
        Err(error) => {
            eprintln!(
                "wasmeval: the site's Python has no scientific image (samples that import \
                 numpy pay for their imports in the browser): {error:#}"
            );
            return Ok(None);
        }
    };
    let metered = metered(&image, cache)?;
    let module = "python-scientific.wasm".to_owned();
    std::fs::write(out.join(&module), &metered)?;
    *module_bytes += metered.len() as u64;
    let initial_memory = crate::sandbox::snapshot::initial_memory(&metered)?
        .context("the scientific image defines no memory")?;
    Ok(Some(BrowserImage {
        module,
        initial_memory,
    }))
}

/// The metered form of the module at `path`, from `cache` when it was metered before.
fn metered(path: &Path, cache: &Path) -> anyhow::Result<Vec<u8>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let key = format!("{:x}-meter{}.wasm", Sha256::digest(&bytes), METERING);
    let cached = cache.join(key);
    if let Ok(metered) = std::fs::read(&cached) {
        return Ok(metered);
    }
    eprintln!(
        "wasmeval: metering {} ({:.0} MB, once; cached in {})",
        path.display(),
        bytes.len() as f64 / 1e6,
        cache.display()
    );
    let metered = wasmeval_meter::instrument(&bytes)
        .with_context(|| format!("cannot meter {}", path.display()))?
        .bytes;
    std::fs::create_dir_all(cache)?;
    atomic_file::write(&cached, &metered)?;
    Ok(metered)
}

/// Every file under `root`, in a stable order.
fn files_under(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))?
        {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Splits the file at `path` into [`CHUNK_SIZE`] files `00000`, `00001`... in `out`; its size.
fn split(path: &Path, out: &Path) -> anyhow::Result<u64> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    std::fs::create_dir_all(out)?;
    for (index, chunk) in bytes.chunks(CHUNK_SIZE as usize).enumerate() {
        std::fs::write(out.join(format!("{index:05}")), chunk)?;
    }
    Ok(bytes.len() as u64)
}
