//! Files that appear whole or not at all: written to a temporary file in the same folder, synced,
//! renamed into place, and the folder synced, so that a reader (a resumed run, another process
//! sharing a cache) never sees half a file, even after a crash.

use anyhow::Context;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically, replacing any file there.
pub fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_with(path, |out| Ok(out.write_all(bytes)?))
}

/// Writes what `fill` writes to `path` atomically, replacing any file there: streamed through a
/// buffer, so a large file is never held whole. Nothing replaces `path` when `fill` fails.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    // As `File::create` would: readable by others unless the umask says otherwise (a temporary
    // file is made 0600, and a site's bundle.json must be readable by the web server).
    let mut file = tempfile::Builder::new()
        .prefix(".incoming-")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    let mut buffered = std::io::BufWriter::new(file.as_file_mut());
    fill(&mut buffered).with_context(|| format!("cannot write {}", path.display()))?;
    buffered
        .into_inner()
        .map_err(|e| e.into_error())
        .and_then(|f| f.sync_data())
        .with_context(|| format!("cannot write {}", path.display()))?;
    file.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    // The rename is durable once the folder's entry is: a crash right after must not lose it.
    if let Ok(folder) = std::fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("summary.json");
        super::write(&path, b"first").unwrap();
        super::write(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["summary.json"]);
    }

    #[test]
    fn a_file_gets_the_permissions_file_create_would_give_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        super::write(&dir.path().join("bundle.json"), b"{}").unwrap();
        std::fs::File::create(dir.path().join("plain.json")).unwrap();
        let mode = |name: &str| {
            std::fs::metadata(dir.path().join(name))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("bundle.json"), mode("plain.json"));
    }
}
