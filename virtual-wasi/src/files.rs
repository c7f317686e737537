//! The guest's file system, in memory: folders and files in an arena, each folder a preopen's
//! tree (`/job` read-only, `/tmp` writable, the interpreter's own folders read-only). A file's
//! bytes are either held ([`Contents::Bytes`]) or read on demand from a [`Source`] (the Python
//! standard library's 54 MB zip, fetched in chunks by the browser only where an import reads).

use crate::Errno;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A [`Source`] could not deliver bytes (the guest gets an I/O error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unavailable;

/// Where a large read-only file's bytes come from, on demand.
pub trait Source {
    /// The file's size in bytes.
    fn size(&self) -> u64;
    /// Bytes `[offset, offset + out.len())`.
    fn read_at(&self, offset: u64, out: &mut [u8]) -> Result<(), Unavailable>;
}

/// A file's bytes.
#[derive(Clone)]
pub enum Contents {
    /// Held in memory.
    Bytes(Vec<u8>),
    /// Read from a [`Source`]; read-only.
    Source(Rc<dyn Source>),
}

impl Contents {
    pub(crate) fn len(&self) -> u64 {
        match self {
            Contents::Bytes(bytes) => bytes.len() as u64,
            Contents::Source(source) => source.size(),
        }
    }

    /// Up to `len` bytes from `offset`.
    pub(crate) fn read(&self, offset: u64, len: usize) -> Result<Vec<u8>, Errno> {
        let size = self.len();
        if offset >= size {
            return Ok(Vec::new());
        }
        let n = (size - offset).min(len as u64) as usize;
        match self {
            Contents::Bytes(bytes) => Ok(bytes[offset as usize..offset as usize + n].to_vec()),
            Contents::Source(source) => {
                let mut out = vec![0u8; n];
                source
                    .read_at(offset, &mut out)
                    .map_err(|Unavailable| Errno::Io)?;
                Ok(out)
            }
        }
    }
}

/// A node of the tree.
#[derive(Clone)]
pub(crate) enum Node {
    Folder {
        entries: BTreeMap<String, usize>,
        parent: Option<usize>,
        writable: bool,
    },
    File {
        contents: Contents,
        writable: bool,
        /// The folder entries naming it (hard links).
        links: u64,
    },
    /// A symbolic link the guest made (`path_symlink`): its target, as written.
    Symlink {
        target: String,
        /// The folder entries naming it (hard links).
        links: u64,
    },
}

/// Every folder and file, by index.
#[derive(Clone, Default)]
pub struct Tree {
    pub(crate) nodes: Vec<Node>,
}

/// What a path leads to: the folder holding its last entry, that entry's name, and the node when
/// it exists. A path that names a folder by `.` or `..` gives the folder itself, named `.`.
#[derive(Debug)]
pub(crate) struct Resolved {
    pub parent: usize,
    pub name: String,
    pub node: Option<usize>,
}

/// The longest name a folder entry may have (Linux's `NAME_MAX`, which the runner's host folders
/// have).
pub(crate) const NAME_MAX: usize = 255;
/// The longest target a symbolic link may hold (Linux's `PATH_MAX` less its terminating zero).
pub(crate) const SYMLINK_MAX: usize = 4095;
/// Symbolic links followed in one lookup before it fails with `ELOOP` (Linux's and cap-std's 40).
pub(crate) const MAX_SYMLINKS: u32 = 40;

/// Whether `path` names a folder by its form: a trailing `/`, or a last component `.` or `..`.
pub(crate) fn names_folder(path: &str) -> bool {
    path.ends_with('/')
        || path == "."
        || path == ".."
        || path.ends_with("/.")
        || path.ends_with("/..")
}

/// The parts of a path between its slashes, empty ones left out, in reverse order (a worklist).
fn worklist(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|p| !p.is_empty())
        .rev()
        .map(str::to_owned)
        .collect()
}

impl Tree {
    /// A new, empty folder (the root of a preopen).
    pub fn folder(&mut self, writable: bool) -> usize {
        self.nodes.push(Node::Folder {
            entries: BTreeMap::new(),
            parent: None,
            writable,
        });
        self.nodes.len() - 1
    }

    /// Adds a file at `path` (slash-separated, relative) under `root`, making its folders.
    pub fn add_file(&mut self, root: usize, path: &str, contents: Contents) {
        let mut at = root;
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let Some((last, folders)) = parts.split_last() else {
            return;
        };
        for part in folders {
            at = match self.child(at, part) {
                Some(child) => child,
                None => self.insert_folder(at, part),
            };
        }
        let writable = self.writable(at);
        self.nodes.push(Node::File {
            contents,
            writable,
            links: 1,
        });
        let id = self.nodes.len() - 1;
        if let Node::Folder { entries, .. } = &mut self.nodes[at] {
            entries.insert((*last).to_owned(), id);
        }
    }

    /// Makes the folders of `path` (slash-separated, relative) under `root`.
    pub fn add_folder_path(&mut self, root: usize, path: &str) {
        let mut at = root;
        for part in path.split('/').filter(|p| !p.is_empty()) {
            at = match self.child(at, part) {
                Some(child) => child,
                None => self.insert_folder(at, part),
            };
        }
    }

    pub(crate) fn insert_folder(&mut self, parent: usize, name: &str) -> usize {
        let writable = self.writable(parent);
        self.nodes.push(Node::Folder {
            entries: BTreeMap::new(),
            parent: Some(parent),
            writable,
        });
        let id = self.nodes.len() - 1;
        if let Node::Folder { entries, .. } = &mut self.nodes[parent] {
            entries.insert(name.to_owned(), id);
        }
        id
    }

    pub(crate) fn insert_file(&mut self, parent: usize, name: &str) -> usize {
        let writable = self.writable(parent);
        self.nodes.push(Node::File {
            contents: Contents::Bytes(Vec::new()),
            writable,
            links: 1,
        });
        let id = self.nodes.len() - 1;
        self.link(parent, name, id);
        id
    }

    pub(crate) fn insert_symlink(&mut self, parent: usize, name: &str, target: &str) -> usize {
        self.nodes.push(Node::Symlink {
            target: target.to_owned(),
            links: 1,
        });
        let id = self.nodes.len() - 1;
        self.link(parent, name, id);
        id
    }

    /// Names `node` `name` in `folder` (a new entry; a file's or link's count is the caller's).
    fn link(&mut self, folder: usize, name: &str, node: usize) {
        if let Node::Folder { entries, .. } = &mut self.nodes[folder] {
            entries.insert(name.to_owned(), node);
        }
    }

    /// A second name for the file or symbolic link `node`: `name` in `folder`.
    pub(crate) fn hard_link(&mut self, folder: usize, name: &str, node: usize) {
        if let Node::File { links, .. } | Node::Symlink { links, .. } = &mut self.nodes[node] {
            *links += 1;
        }
        self.link(folder, name, node);
    }

    pub(crate) fn child(&self, folder: usize, name: &str) -> Option<usize> {
        match &self.nodes[folder] {
            Node::Folder { entries, .. } => entries.get(name).copied(),
            Node::File { .. } | Node::Symlink { .. } => None,
        }
    }

    pub(crate) fn writable(&self, node: usize) -> bool {
        match &self.nodes[node] {
            Node::Folder { writable, .. } | Node::File { writable, .. } => *writable,
            Node::Symlink { .. } => false,
        }
    }

    pub(crate) fn is_folder(&self, node: usize) -> bool {
        matches!(self.nodes[node], Node::Folder { .. })
    }

    pub(crate) fn is_symlink(&self, node: usize) -> bool {
        matches!(self.nodes[node], Node::Symlink { .. })
    }

    /// Resolves `path` from folder `from` as the runner's sandbox does (wasmtime-wasi on
    /// cap-std): never above `from` (`..` past it, an absolute path or an absolute link target
    /// is `EPERM`), symbolic links followed where they are met, the last one only when `follow`
    /// (or the path ends in `/`), at most [`MAX_SYMLINKS`] per lookup (`ELOOP`); a path whose
    /// form names a folder must lead to one (`ENOTDIR`).
    pub(crate) fn resolve(&self, from: usize, path: &str, follow: bool) -> Result<Resolved, Errno> {
        if path.starts_with('/') {
            return Err(Errno::Perm);
        }
        if path.is_empty() {
            return Err(Errno::NoEnt);
        }
        let mut parts = worklist(path);
        let mut folder_wanted = names_folder(path);
        let mut trailing_slash = path.ends_with('/');
        // The folders walked, `from` first: `..` pops, never past `from`.
        let mut stack = vec![from];
        let mut followed = 0;
        while let Some(part) = parts.pop() {
            let last = parts.is_empty();
            let at = *stack.last().expect("not empty");
            match part.as_str() {
                "." => continue,
                ".." => {
                    if stack.len() == 1 {
                        return Err(Errno::Perm);
                    }
                    stack.pop();
                    continue;
                }
                _ => {}
            }
            if part.len() > NAME_MAX {
                return Err(Errno::NameTooLong);
            }
            let Some(child) = self.child(at, &part) else {
                return if last {
                    Ok(Resolved {
                        parent: at,
                        name: part,
                        node: None,
                    })
                } else {
                    Err(Errno::NoEnt)
                };
            };
            match &self.nodes[child] {
                Node::Folder { .. } if last => {
                    return Ok(Resolved {
                        parent: at,
                        name: part,
                        node: Some(child),
                    })
                }
                Node::Folder { .. } => stack.push(child),
                Node::File { .. } if last && !folder_wanted => {
                    return Ok(Resolved {
                        parent: at,
                        name: part,
                        node: Some(child),
                    })
                }
                Node::File { .. } => return Err(Errno::NotDir),
                Node::Symlink { .. } if last && !follow && !trailing_slash => {
                    return Ok(Resolved {
                        parent: at,
                        name: part,
                        node: Some(child),
                    })
                }
                Node::Symlink { target, .. } => {
                    followed += 1;
                    if followed > MAX_SYMLINKS {
                        return Err(Errno::Loop);
                    }
                    if target.starts_with('/') {
                        return Err(Errno::Perm);
                    }
                    if target.is_empty() {
                        return Err(Errno::NoEnt);
                    }
                    if last {
                        folder_wanted |= names_folder(target);
                        trailing_slash |= target.ends_with('/');
                    }
                    parts.extend(worklist(target));
                }
            }
        }
        // The path ended in `.` or `..` (after its links): the folder reached.
        let folder = *stack.last().expect("not empty");
        let parent = if stack.len() > 1 {
            stack[stack.len() - 2]
        } else {
            folder
        };
        Ok(Resolved {
            parent,
            name: ".".into(),
            node: Some(folder),
        })
    }

    /// The folder `path` leads to from `from`, every link followed (cap-std's `open_dir`).
    pub(crate) fn folder_at(&self, from: usize, path: &str) -> Result<usize, Errno> {
        match self.resolve(from, path, true)? {
            Resolved {
                node: Some(node), ..
            } if self.is_folder(node) => Ok(node),
            Resolved { node: Some(_), .. } => Err(Errno::NotDir),
            Resolved { node: None, .. } => Err(Errno::NoEnt),
        }
    }

    /// The folder and last name of `path` for a call that acts on the name itself (create,
    /// remove, rename, link, read a link: cap-std's `open_parent`): the folders before it
    /// resolved with every link followed, the name not. A path whose form names a folder
    /// (`x/`, `x/.`, `..`) acts on `.` inside the folder it names.
    pub(crate) fn parent_of(&self, from: usize, path: &str) -> Result<(usize, String), Errno> {
        if path.is_empty() {
            return Err(Errno::NoEnt);
        }
        if names_folder(path) {
            return Ok((self.folder_at(from, path)?, ".".into()));
        }
        let trimmed = path.trim_end_matches('/');
        let (folder, name) = match trimmed.rsplit_once('/') {
            Some((dir, name)) if !dir.is_empty() => (self.folder_at(from, dir)?, name),
            Some((_, _)) => return Err(Errno::Perm),
            None => (from, trimmed),
        };
        if name.len() > NAME_MAX {
            return Err(Errno::NameTooLong);
        }
        Ok((folder, name.to_owned()))
    }

    /// Whether `node` is `folder` or lies inside it.
    pub(crate) fn contains(&self, folder: usize, mut node: usize) -> bool {
        loop {
            if node == folder {
                return true;
            }
            match &self.nodes[node] {
                Node::Folder {
                    parent: Some(parent),
                    ..
                } => node = *parent,
                _ => return false,
            }
        }
    }

    /// Moves the entry `name` of `folder` to `to_name` in `to_folder` (whose entry of that name,
    /// if any, the caller removed).
    pub(crate) fn rename(&mut self, folder: usize, name: &str, to_folder: usize, to_name: &str) {
        let moved = match &mut self.nodes[folder] {
            Node::Folder { entries, .. } => entries.remove(name),
            _ => None,
        };
        let Some(node) = moved else {
            return;
        };
        if let Node::Folder { parent, .. } = &mut self.nodes[node] {
            *parent = Some(to_folder);
        }
        self.link(to_folder, to_name, node);
    }

    /// Removes the entry `name` of `folder` (a file's or link's count goes down with it).
    pub(crate) fn unlink(&mut self, folder: usize, name: &str) {
        let removed = match &mut self.nodes[folder] {
            Node::Folder { entries, .. } => entries.remove(name),
            _ => None,
        };
        if let Some(node) = removed {
            if let Node::File { links, .. } | Node::Symlink { links, .. } = &mut self.nodes[node] {
                *links = links.saturating_sub(1);
            }
        }
    }
}
