//! Reading back a file a guest left in its scratch folder (SandboxFusion's `fetch_files`), by the
//! rules the guest itself lived under: the path is resolved inside the folder, component by
//! component, and a symbolic link anywhere on the way ends the lookup. A guest can make links
//! (`os.symlink('../' * 30, 'up')`) that point anywhere on the host; inside the sandbox they
//! resolve within the preopen, but a plain host `open` would follow them out, so none is followed.
//! Sizes are checked before reading, and at most `limit` bytes are ever read.
//!
//! The guest has ended when this runs (executions are synchronous), so nothing changes the
//! folder between the checks and the read; the opened file is still compared with the checked one
//! (device and inode), which a swap would fail.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path};

/// What a guest's file turned out to be.
#[derive(Debug, PartialEq, Eq)]
pub enum GuestFile {
    /// A regular file of at most the limit's size: its bytes.
    Contents(Vec<u8>),
    /// No such file, or a path through a symbolic link, or not a regular file: nothing to give.
    Unavailable,
    /// A regular file larger than the limit, with its size: not read.
    TooLarge(u64),
}

/// The regular file at `relative` inside `root`, read only if every component of the path is a
/// plain folder or file inside `root` (no `..`, no absolute path, no symbolic link) and its
/// size is at most `limit`.
pub fn read_guest_file(root: &Path, relative: &Path, limit: u64) -> std::io::Result<GuestFile> {
    let mut path = root.to_path_buf();
    let mut components = relative.components().peekable();
    let mut last = None;
    while let Some(component) = components.next() {
        match component {
            Component::Normal(name) => path.push(name),
            Component::CurDir => continue,
            // `..`, `/` or a prefix: never outside the root.
            _ => return Ok(GuestFile::Unavailable),
        }
        let metadata = match std::fs::symlink_metadata(&path) {
            Ok(metadata) => metadata,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(GuestFile::Unavailable)
            }
            // A component that is a file where a folder was expected, and the like.
            Err(error) if error.raw_os_error() == Some(20) => return Ok(GuestFile::Unavailable),
            Err(error) => return Err(error),
        };
        let is_last = components.peek().is_none();
        let expected = if is_last {
            metadata.file_type().is_file()
        } else {
            metadata.file_type().is_dir()
        };
        if !expected {
            return Ok(GuestFile::Unavailable);
        }
        last = Some(metadata);
    }
    let Some(checked) = last else {
        return Ok(GuestFile::Unavailable);
    };
    if checked.len() > limit {
        return Ok(GuestFile::TooLarge(checked.len()));
    }
    let file = File::open(&path)?;
    let opened = file.metadata()?;
    if (opened.dev(), opened.ino()) != (checked.dev(), checked.ino()) || !opened.is_file() {
        return Ok(GuestFile::Unavailable);
    }
    let mut bytes = Vec::with_capacity(opened.len().min(limit) as usize);
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Ok(GuestFile::TooLarge(bytes.len() as u64));
    }
    Ok(GuestFile::Contents(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn scratch() -> (tempfile::TempDir, std::path::PathBuf) {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), b"host file").unwrap();
        let root = outside.path().join("scratch");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/answer.txt"), b"42").unwrap();
        (outside, root)
    }

    #[test]
    fn regular_files_inside_the_folder_are_read() {
        let (_outside, root) = scratch();
        let read = |p: &str| read_guest_file(&root, Path::new(p), 100).unwrap();
        assert_eq!(read("sub/answer.txt"), GuestFile::Contents(b"42".to_vec()));
        assert_eq!(
            read("./sub/./answer.txt"),
            GuestFile::Contents(b"42".to_vec())
        );
        assert_eq!(read("sub/missing"), GuestFile::Unavailable);
        assert_eq!(read("sub/answer.txt/below"), GuestFile::Unavailable);
        assert_eq!(read("sub"), GuestFile::Unavailable);
        assert_eq!(
            read_guest_file(&root, Path::new("sub/answer.txt"), 1).unwrap(),
            GuestFile::TooLarge(2)
        );
    }

    #[test]
    fn regression_a_guests_symlinks_never_lead_to_host_files() {
        let (outside, root) = scratch();
        // The attack of issue 32: a relative link to far above, then a path through it.
        symlink("../../../../../../../../../..", root.join("up")).unwrap();
        symlink(outside.path(), root.join("abs")).unwrap();
        symlink(outside.path().join("secret"), root.join("direct")).unwrap();
        symlink("up", root.join("chain")).unwrap();
        symlink("/proc/self", root.join("proc")).unwrap();
        symlink("sub", root.join("inside")).unwrap();
        for path in [
            "up/etc/passwd",
            "abs/secret",
            "direct",
            "chain/etc/passwd",
            "proc/environ",
            "../secret",
            "/etc/passwd",
            // Even a link that stays inside is refused: the rule is simpler than its exceptions.
            "inside/answer.txt",
        ] {
            assert_eq!(
                read_guest_file(&root, Path::new(path), 1 << 20).unwrap(),
                GuestFile::Unavailable,
                "{path}"
            );
        }
    }

    #[test]
    fn a_hard_link_is_the_guests_own_file() {
        // A hard link can only be made to a file the guest could already reach (WASI's
        // path_link stays inside its preopens), so reading one gives nothing new.
        let (_outside, root) = scratch();
        std::fs::hard_link(root.join("sub/answer.txt"), root.join("linked")).unwrap();
        assert_eq!(
            read_guest_file(&root, Path::new("linked"), 10).unwrap(),
            GuestFile::Contents(b"42".to_vec())
        );
    }
}
