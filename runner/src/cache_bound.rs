//! A size bound for the caches a guest's source can fill (compiled modules and their machine
//! code): past it, the least recently used files go until the folder is at three quarters of the
//! bound (a cache hit [`touch`]es its file, so an interpreter every run loads stays). Entries are
//! content-addressed and written atomically, so removing one only costs a recompilation; a file
//! another process is reading stays readable (Unix keeps it until closed).

use std::path::Path;
use std::time::SystemTime;

/// Marks `path` as just used (its modification time): the last to go when its cache is trimmed.
pub fn touch(path: &Path) {
    if let Ok(file) = std::fs::File::options().write(true).open(path) {
        let _ = file.set_modified(SystemTime::now());
    }
}

/// Trims `dir` (its files, not its subfolders) to at most `limit` bytes, oldest first. Errors
/// (a file removed meanwhile, a folder that cannot be read) are ignored: the bound is best
/// effort, and the next write tries again.
pub fn trim(dir: &Path, limit: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(SystemTime, u64, std::path::PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let metadata = entry.metadata().ok()?;
            metadata.is_file().then(|| {
                let written = metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                (written, metadata.len(), entry.path())
            })
        })
        .collect();
    let mut total: u64 = files.iter().map(|(_, size, _)| size).sum();
    if total <= limit {
        return;
    }
    files.sort();
    let target = limit / 4 * 3;
    for (_, size, path) in files {
        if total <= target {
            break;
        }
        // Lock files guard compilations in progress; leave them.
        if path.extension().is_some_and(|ext| ext == "lock") {
            continue;
        }
        if std::fs::remove_file(&path).is_ok() {
            total = total.saturating_sub(size);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_files_go_until_three_quarters_of_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        for (i, name) in ["a", "b", "c", "d"].iter().enumerate() {
            let path = dir.path().join(name);
            std::fs::write(&path, vec![0u8; 100]).unwrap();
            let time = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000 + i as u64);
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(time)
                .unwrap();
        }
        trim(dir.path(), 400);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4);
        trim(dir.path(), 300);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        // 400 bytes over a bound of 300: down to 225 at most, oldest first.
        assert_eq!(left, ["c", "d"]);
    }
}
