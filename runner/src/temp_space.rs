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
/// The prefix of a folder being made (see [`open_space`]).
const MAKING: &str = ".making-";

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
    let name = format!("{PREFIX}{}-{stamp}", std::process::id());
    // Made under a name other runs pass over, and renamed once its lock is held: between the
    // lock file's creation and its locking, another run starting at the same moment (a `run`'s
    // child processes start together) would take the folder for a dead run's and remove it.
    let making = root.join(format!("{MAKING}{name}"));
    std::fs::create_dir(&making).with_context(|| format!("cannot create {}", making.display()))?;
    let lock = File::create(making.join(LOCK))
        .with_context(|| format!("cannot create {}", making.join(LOCK).display()))?;
    lock.lock()
        .with_context(|| format!("cannot lock {}", making.join(LOCK).display()))?;
    let dir = root.join(name);
    std::fs::rename(&making, &dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(Space { dir, _lock: lock })
}

/// Removes every run folder in `root` whose lock can be taken (its process is gone). A folder
/// without a lock file is one being created, unless it is older than a minute.
pub fn remove_abandoned(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let dir = entry.path();
        let made_long_ago = || {
            entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|modified| modified.elapsed().ok())
                .is_some_and(|age| age > Duration::from_secs(60))
        };
        if name.starts_with(&format!("{MAKING}{PREFIX}")) {
            // A run killed while making its folder.
            if made_long_ago() {
                let _ = std::fs::remove_dir_all(&dir);
            }
            continue;
        }
        if !name.starts_with(PREFIX) {
            continue;
        }
        let abandoned = match File::open(dir.join(LOCK)) {
            // The kernel holds the lock for a live process; taking it means nobody does.
            Ok(lock) => lock.try_lock().is_ok(),
            // Folders of older versions, made before their lock file.
            Err(_) => made_long_ago(),
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
        // A run making its folder this moment: not yet locked, but not a dead run's.
        let making = root.path().join(format!("{MAKING}{PREFIX}2-2"));
        std::fs::create_dir(&making).unwrap();
        File::create(making.join(LOCK)).unwrap();
        remove_abandoned(root.path());
        assert!(!dead.exists());
        assert!(live.dir.exists());
        assert!(live.dir.join(LOCK).exists());
        assert!(making.exists());
        assert!(other.exists());
        drop(live);
    }
}
