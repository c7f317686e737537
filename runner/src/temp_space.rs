//! Where a run's temporary folders live (samples' job and scratch folders, compilers' scratch
//! folders): one folder per process, `wasmeval-run-<pid>-<n>` in the system's temporary folder,
//! held by a lock for the process's life. Folders are removed when done with; a run killed (even
//! by SIGKILL) leaves its folder behind, and the next run removes every folder whose lock nobody
//! holds any more, so leftovers never accumulate.

use anyhow::Context;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

const PREFIX: &str = "wasmeval-run-";
const LOCK: &str = ".lock";

/// This process's folder, held by its lock.
struct Space {
    dir: PathBuf,
    _lock: File,
}

static SPACE: OnceLock<Result<Space, String>> = OnceLock::new();

/// A fresh folder named `prefix...` in this process's space, removed when dropped.
pub fn folder(prefix: &str) -> anyhow::Result<tempfile::TempDir> {
    let space = SPACE
        .get_or_init(|| open_space(&std::env::temp_dir()).map_err(|e| format!("{e:#}")))
        .as_ref()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(&space.dir)
        .with_context(|| format!("cannot create a folder in {}", space.dir.display()))
}

/// Removes this process's folder, when it made one: for a process that ends soon and whose
/// folder the next run would otherwise have to remove (a `run`'s child process).
pub fn remove_own() {
    if let Some(Ok(space)) = SPACE.get() {
        let _ = std::fs::remove_dir_all(&space.dir);
    }
}

/// Removes the folders of runs that are gone, then creates and locks this process's.
fn open_space(root: &Path) -> anyhow::Result<Space> {
    remove_abandoned(root);
    let stamp = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let dir = root.join(format!("{PREFIX}{}-{stamp}", std::process::id()));
    std::fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let lock = File::create(dir.join(LOCK))
        .with_context(|| format!("cannot create {}", dir.join(LOCK).display()))?;
    lock.lock()
        .with_context(|| format!("cannot lock {}", dir.join(LOCK).display()))?;
    Ok(Space { dir, _lock: lock })
}

/// Removes every run folder in `root` whose lock can be taken (its process is gone). A folder
/// without a lock file is one being created, unless it is older than a minute.
pub fn remove_abandoned(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        let dir = entry.path();
        let abandoned = match File::open(dir.join(LOCK)) {
            // The kernel holds the lock for a live process; taking it means nobody does.
            Ok(lock) => lock.try_lock().is_ok(),
            Err(_) => entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|modified| modified.elapsed().ok())
                .is_some_and(|age| age > Duration::from_secs(60)),
        };
        if abandoned {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abandoned_run_folders_are_removed_and_live_ones_kept() {
        let root = tempfile::tempdir().unwrap();
        // A run that was killed: its folder and lock file, nobody holding the lock.
        let dead = root.path().join(format!("{PREFIX}1-1"));
        std::fs::create_dir_all(dead.join("wasmeval-tmp-x")).unwrap();
        std::fs::write(dead.join("wasmeval-tmp-x/big"), b"data").unwrap();
        File::create(dead.join(LOCK)).unwrap();
        // A live run: its lock held.
        let live = open_space(root.path()).unwrap();
        let other = root.path().join("not-ours");
        std::fs::create_dir(&other).unwrap();
        remove_abandoned(root.path());
        assert!(!dead.exists());
        assert!(live.dir.exists());
        assert!(other.exists());
        drop(live);
    }
}
