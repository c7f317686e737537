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
    },
}

/// Every folder and file, by index.
#[derive(Clone, Default)]
pub struct Tree {
    pub(crate) nodes: Vec<Node>,
}

/// What a path leads to: its folder and last name, and the node when it exists.
pub(crate) struct Resolved {
    pub parent: usize,
    pub name: String,
    pub node: Option<usize>,
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
        self.nodes.push(Node::File { contents, writable });
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
        });
        let id = self.nodes.len() - 1;
        if let Node::Folder { entries, .. } = &mut self.nodes[parent] {
            entries.insert(name.to_owned(), id);
        }
        id
    }

    pub(crate) fn child(&self, folder: usize, name: &str) -> Option<usize> {
        match &self.nodes[folder] {
            Node::Folder { entries, .. } => entries.get(name).copied(),
            Node::File { .. } => None,
        }
    }

    pub(crate) fn writable(&self, node: usize) -> bool {
        match &self.nodes[node] {
            Node::Folder { writable, .. } | Node::File { writable, .. } => *writable,
        }
    }

    pub(crate) fn is_folder(&self, node: usize) -> bool {
        matches!(self.nodes[node], Node::Folder { .. })
    }

    /// Resolves `path` relative to folder `from`, never above `from` (`..` past it is
    /// `ENOTCAPABLE`, as for a preopen in wasmtime-wasi). Symbolic links do not exist here.
    pub(crate) fn resolve(&self, from: usize, path: &str) -> Result<Resolved, Errno> {
        if path.starts_with('/') {
            return Err(Errno::NotCapable);
        }
        if path.is_empty() {
            return Err(Errno::NoEnt);
        }
        let parts: Vec<&str> = path
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        // Walk to the last part's folder; `..` pops, never above `from`.
        let mut stack = vec![from];
        let Some((last, folders)) = parts.split_last() else {
            // "." or "./": the folder itself.
            return Ok(Resolved {
                parent: from,
                name: ".".into(),
                node: Some(from),
            });
        };
        for part in folders {
            if *part == ".." {
                if stack.len() == 1 {
                    return Err(Errno::NotCapable);
                }
                stack.pop();
                continue;
            }
            let at = *stack.last().expect("not empty");
            match self.child(at, part) {
                Some(child) if self.is_folder(child) => stack.push(child),
                Some(_) => return Err(Errno::NotDir),
                None => return Err(Errno::NoEnt),
            }
        }
        let parent = *stack.last().expect("not empty");
        if *last == ".." {
            if stack.len() == 1 {
                return Err(Errno::NotCapable);
            }
            let up = stack[stack.len() - 2];
            return Ok(Resolved {
                parent: up,
                name: ".".into(),
                node: Some(up),
            });
        }
        Ok(Resolved {
            parent,
            name: (*last).to_owned(),
            node: self.child(parent, last),
        })
    }

    /// Removes the entry `name` of `folder`.
    pub(crate) fn unlink(&mut self, folder: usize, name: &str) {
        if let Node::Folder { entries, .. } = &mut self.nodes[folder] {
            entries.remove(name);
        }
    }
}
