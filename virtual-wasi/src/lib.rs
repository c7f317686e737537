//! wasmeval-virtual-wasi: WASI preview 1 for a guest that must not see its host.
//!
//! The browser has no wasmtime, so it runs wasmeval's guests (CPython, QuickJS) with this
//! implementation of the WASI calls they make, with the semantics of the runner's sandbox
//! (`runner/src/sandbox/`): virtual clocks ([`clock`]), seeded random bytes ([`random`]), stdin
//! from the case, stdout and stderr sharing one byte budget whose crossing write ends the run
//! ([`Stop::OutputLimit`]), read-only folders for the runtime and the job, a fresh writable `/tmp`
//! with a byte quota ([`Stop::DiskLimit`]), file metadata without host data, and host work paid in
//! fuel (a unit per byte moved, [`Wasi::take_fuel`]).
//!
//! It is pure: the guest's memory is reached through [`Memory`], so the same code runs inside a
//! Web Worker (over a `WebAssembly.Memory`) and in host tests (over a `Vec<u8>`).

pub mod clock;
pub mod files;
pub mod random;

use clock::VirtualTime;
use files::{Contents, Node, Tree};
use random::RandomStream;
use std::collections::HashMap;

/// The guest's linear memory.
pub trait Memory {
    /// `len` bytes at `ptr`, or `None` when out of bounds.
    fn read(&self, ptr: u32, len: u32) -> Option<Vec<u8>>;
    /// Writes `bytes` at `ptr`; `false` when out of bounds.
    fn write(&mut self, ptr: u32, bytes: &[u8]) -> bool;
}

fn read_slice(memory: &[u8], ptr: u32, len: u32) -> Option<Vec<u8>> {
    let start = ptr as usize;
    memory
        .get(start..start.checked_add(len as usize)?)
        .map(<[u8]>::to_vec)
}

fn write_slice(memory: &mut [u8], ptr: u32, bytes: &[u8]) -> bool {
    let start = ptr as usize;
    match start
        .checked_add(bytes.len())
        .and_then(|end| memory.get_mut(start..end))
    {
        Some(slot) => {
            slot.copy_from_slice(bytes);
            true
        }
        None => false,
    }
}

impl Memory for Vec<u8> {
    fn read(&self, ptr: u32, len: u32) -> Option<Vec<u8>> {
        read_slice(self, ptr, len)
    }

    fn write(&mut self, ptr: u32, bytes: &[u8]) -> bool {
        write_slice(self, ptr, bytes)
    }
}

/// A host's view of a guest's memory (wasmtime's `Memory::data_mut`).
impl Memory for &mut [u8] {
    fn read(&self, ptr: u32, len: u32) -> Option<Vec<u8>> {
        read_slice(self, ptr, len)
    }

    fn write(&mut self, ptr: u32, bytes: &[u8]) -> bool {
        write_slice(self, ptr, bytes)
    }
}

/// WASI's error numbers, those this implementation returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
#[allow(missing_docs)]
pub enum Errno {
    Success = 0,
    Badf = 8,
    Exist = 20,
    Fault = 21,
    Inval = 28,
    Io = 29,
    Isdir = 31,
    NoEnt = 44,
    Nosys = 52,
    NotDir = 54,
    NotEmpty = 55,
    NotSup = 58,
    Perm = 63,
    Spipe = 70,
    NotCapable = 76,
}

/// Why a call ends the guest's run instead of returning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// `proc_exit` with this code.
    Exit(i32),
    /// A write crossed the output budget.
    OutputLimit,
    /// A sleep took virtual time past the time limit.
    VirtualTimeout,
    /// The guest wrote more to its files, or created more of them, than it may; why.
    DiskLimit(String),
}

/// Files and folders a guest may create per execution (as the runner's `MAX_FILES`).
pub const MAX_FILES: u64 = 10_000;
/// An iovec array longer than this is refused (`EINVAL`): no real program passes more.
const MAX_IOVECS: u32 = 1024;

/// A folder the guest sees, at `guest_path`.
pub struct Preopen {
    /// Where the guest sees it (`/job`, `/tmp`...).
    pub guest_path: String,
    /// Its root in the [`Tree`].
    pub root: usize,
}

/// One execution's setup.
pub struct Config {
    /// `argv`, program name first.
    pub args: Vec<String>,
    /// The whole environment.
    pub env: Vec<(String, String)>,
    /// Standard input.
    pub stdin: Vec<u8>,
    /// Bytes of stdout and stderr together.
    pub output_limit: u64,
    /// Bytes the guest may write to its files.
    pub disk_limit: u64,
    /// The time limit virtual time may not pass, in nanoseconds.
    pub time_limit_nanos: u64,
    /// Every folder and file.
    pub tree: Tree,
    /// The folders the guest sees, as descriptors 3, 4...
    pub preopens: Vec<Preopen>,
}

/// An open descriptor.
#[derive(Debug, Clone)]
enum Descriptor {
    Stdin,
    Stdout,
    Stderr,
    Folder {
        node: usize,
        preopen: Option<String>,
    },
    File {
        node: usize,
        position: u64,
        read: bool,
        write: bool,
        append: bool,
    },
}

/// What the guest wrote.
#[derive(Debug, Default, Clone)]
pub struct Output {
    /// stdout, up to the budget.
    pub stdout: Vec<u8>,
    /// stderr, up to the budget.
    pub stderr: Vec<u8>,
    /// Bytes written or tried, both streams.
    pub written: u64,
}

impl Output {
    /// Appends `data` to stderr or stdout, keeping both within `limit` bytes together; `false`
    /// when the write crossed the limit (its bytes up to the limit are kept): the run ends then,
    /// in the runner (`sandbox/output.rs`) as here.
    pub fn write(&mut self, limit: u64, stderr: bool, data: &[u8]) -> bool {
        self.written = self.written.saturating_add(data.len() as u64);
        let kept = (self.stdout.len() + self.stderr.len()) as u64;
        let room = limit.saturating_sub(kept) as usize;
        let target = if stderr {
            &mut self.stderr
        } else {
            &mut self.stdout
        };
        target.extend_from_slice(&data[..data.len().min(room)]);
        data.len() <= room
    }
}

/// One guest's WASI state.
pub struct Wasi {
    args: Vec<String>,
    env: Vec<(String, String)>,
    stdin: Vec<u8>,
    stdin_position: usize,
    output: Output,
    output_limit: u64,
    disk_limit: u64,
    disk_written: u64,
    created: u64,
    time: VirtualTime,
    random: RandomStream,
    tree: Tree,
    descriptors: Vec<Option<Descriptor>>,
    /// Guest inode numbers, 1, 2, 3... in the order the guest first sees each node.
    inodes: HashMap<usize, u64>,
    /// Fuel the host's work cost since the last [`Wasi::take_fuel`].
    fuel: u64,
}

// WASI constants.
const FILETYPE_UNKNOWN: u8 = 0;
const FILETYPE_DIRECTORY: u8 = 3;
const FILETYPE_REGULAR_FILE: u8 = 4;
const OFLAGS_CREAT: u32 = 1;
const OFLAGS_DIRECTORY: u32 = 2;
const OFLAGS_EXCL: u32 = 4;
const OFLAGS_TRUNC: u32 = 8;
const FDFLAGS_APPEND: u32 = 1;
const RIGHTS_FD_READ: u64 = 1 << 1;
const RIGHTS_FD_WRITE: u64 = 1 << 6;
const RIGHTS_ALL: u64 = (1 << 29) - 1;
/// The rights wasmtime-wasi reports for a preopened folder (and, with more, its inheriting ones).
const RIGHTS_PREOPEN: u64 = (1 << 9)
    | (1 << 10)
    | (1 << 11)
    | (1 << 12)
    | (1 << 13)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 17)
    | (1 << 18)
    | (1 << 20)
    | (1 << 21)
    | (1 << 24)
    | (1 << 25)
    | (1 << 26)
    | (1 << 27);
const RIGHTS_PREOPEN_INHERITING: u64 = RIGHTS_PREOPEN
    | (1 << 0)
    | RIGHTS_FD_READ
    | (1 << 2)
    | (1 << 3)
    | (1 << 4)
    | (1 << 5)
    | RIGHTS_FD_WRITE
    | (1 << 7)
    | (1 << 8)
    | (1 << 19)
    | (1 << 22)
    | (1 << 23)
    | (1 << 28);

type Result<T> = std::result::Result<T, Stop>;

impl Wasi {
    /// The state of a new execution.
    pub fn new(config: Config) -> Wasi {
        let mut descriptors = vec![
            Some(Descriptor::Stdin),
            Some(Descriptor::Stdout),
            Some(Descriptor::Stderr),
        ];
        for preopen in config.preopens {
            descriptors.push(Some(Descriptor::Folder {
                node: preopen.root,
                preopen: Some(preopen.guest_path),
            }));
        }
        Wasi {
            args: config.args,
            env: config.env,
            stdin: config.stdin,
            stdin_position: 0,
            output: Output::default(),
            output_limit: config.output_limit,
            disk_limit: config.disk_limit,
            disk_written: 0,
            created: 0,
            time: VirtualTime::with_limit(config.time_limit_nanos),
            random: RandomStream::new(),
            tree: config.tree,
            descriptors,
            inodes: HashMap::new(),
            fuel: 0,
        }
    }

    /// What the guest wrote so far.
    pub fn output(&self) -> &Output {
        &self.output
    }

    /// Takes what the guest wrote.
    pub fn take_output(&mut self) -> Output {
        std::mem::take(&mut self.output)
    }

    /// Whether the guest tried to write more than the output budget.
    pub fn output_exceeded(&self) -> bool {
        self.output.written > self.output_limit
    }

    /// Fuel the host's work for the guest cost since the last call (a unit per byte read, written,
    /// drawn or named in a path, as in the runner); the front end takes it off the guest's fuel.
    pub fn take_fuel(&mut self) -> u64 {
        std::mem::take(&mut self.fuel)
    }

    /// Pays `units` of fuel for host work.
    pub fn pay(&mut self, units: u64) {
        self.fuel = self.fuel.saturating_add(units);
    }

    /// Runs WASI preview 1's function `name` with `args` (each as the wasm value's bits: i32
    /// arguments zero-extended) on `mem`; returns its errno, or why the run ends.
    pub fn call(&mut self, name: &str, args: &[u64], mem: &mut dyn Memory) -> Result<u32> {
        let a = |i: usize| args.get(i).copied().unwrap_or(0);
        let w = |i: usize| a(i) as u32;
        let errno = match name {
            "args_get" => self.strings_get(false, w(0), w(1), mem),
            "args_sizes_get" => self.strings_sizes(false, w(0), w(1), mem),
            "environ_get" => self.strings_get(true, w(0), w(1), mem),
            "environ_sizes_get" => self.strings_sizes(true, w(0), w(1), mem),
            "clock_res_get" => put_u64(mem, w(1), clock::TICK_NANOS),
            "clock_time_get" => {
                let now = self.time.tick();
                let value = match w(0) {
                    clock::CLOCKID_REALTIME => clock::WALL_CLOCK_START_NANOS.saturating_add(now),
                    1 => now,
                    _ => return Ok(Errno::Inval as u32),
                };
                put_u64(mem, w(2), value)
            }
            "poll_oneoff" => {
                let errno = self.time.poll_oneoff(mem, w(0), w(1), w(2), w(3));
                if self.time.past_limit() {
                    return Err(Stop::VirtualTimeout);
                }
                errno
            }
            "proc_exit" => return Err(Stop::Exit(w(0) as i32)),
            "proc_raise" => Errno::NotSup,
            "sched_yield" => Errno::Success,
            "random_get" => {
                let (buf, len) = (w(0), w(1));
                self.pay(len as u64);
                let mut bytes = vec![0u8; len as usize];
                self.random.fill(&mut bytes);
                ok_if(mem.write(buf, &bytes))
            }
            "fd_write" => self.fd_write(w(0), w(1), w(2), None, w(3), mem)?,
            "fd_pwrite" => self.fd_write(w(0), w(1), w(2), Some(a(3)), w(4), mem)?,
            "fd_read" => self.fd_read(w(0), w(1), w(2), None, w(3), mem),
            "fd_pread" => self.fd_read(w(0), w(1), w(2), Some(a(3)), w(4), mem),
            "fd_seek" => self.fd_seek(w(0), a(1) as i64, w(2), w(3), mem),
            "fd_tell" => self.fd_seek(w(0), 0, 1, w(1), mem),
            "fd_close" => self.fd_close(w(0)),
            "fd_fdstat_get" => self.fd_fdstat_get(w(0), w(1), mem),
            "fd_fdstat_set_flags"
            | "fd_fdstat_set_rights"
            | "fd_advise"
            | "fd_sync"
            | "fd_datasync"
            | "fd_filestat_set_times" => match self.descriptor(w(0)) {
                Some(_) => Errno::Success,
                None => Errno::Badf,
            },
            "fd_filestat_get" => match self.descriptor(w(0)) {
                Some(Descriptor::Folder { node, .. }) | Some(Descriptor::File { node, .. }) => {
                    self.write_filestat(*node, w(1), mem)
                }
                Some(_) => put_filestat(mem, w(1), 0, FILETYPE_UNKNOWN, 0, 0),
                None => Errno::Badf,
            },
            "fd_filestat_set_size" => self.fd_filestat_set_size(w(0), a(1))?,
            "fd_allocate" => Errno::NotSup,
            "fd_prestat_get" => match self.descriptor(w(0)) {
                Some(Descriptor::Folder {
                    preopen: Some(path),
                    ..
                }) => {
                    let mut prestat = [0u8; 8];
                    prestat[4..8].copy_from_slice(&(path.len() as u32).to_le_bytes());
                    ok_if(mem.write(w(1), &prestat))
                }
                _ => Errno::Badf,
            },
            "fd_prestat_dir_name" => match self.descriptor(w(0)) {
                Some(Descriptor::Folder {
                    preopen: Some(path),
                    ..
                }) => {
                    let bytes = path.as_bytes();
                    if (w(2) as usize) < bytes.len() {
                        Errno::Inval
                    } else {
                        ok_if(mem.write(w(1), bytes))
                    }
                }
                _ => Errno::Badf,
            },
            "fd_readdir" => self.fd_readdir(w(0), w(1), w(2), a(3), w(4), mem),
            "fd_renumber" => self.fd_renumber(w(0), w(1)),
            "path_open" => self.path_open(w(0), w(2), w(3), w(4), w(7), w(8), mem)?,
            "path_filestat_get" => match self.path(w(0), w(2), w(3), mem) {
                Ok((folder, path)) => match self.tree.resolve(folder, &path) {
                    Ok(files::Resolved {
                        node: Some(node), ..
                    }) => self.write_filestat(node, w(4), mem),
                    Ok(_) => Errno::NoEnt,
                    Err(errno) => errno,
                },
                Err(errno) => errno,
            },
            "path_filestat_set_times" => match self.path(w(0), w(2), w(3), mem) {
                Ok((folder, path)) => match self.tree.resolve(folder, &path) {
                    Ok(files::Resolved { node: Some(_), .. }) => Errno::Success,
                    Ok(_) => Errno::NoEnt,
                    Err(errno) => errno,
                },
                Err(errno) => errno,
            },
            "path_create_directory" => self.path_create_directory(w(0), w(1), w(2), mem)?,
            "path_unlink_file" => self.path_remove(w(0), w(1), w(2), false, mem),
            "path_remove_directory" => self.path_remove(w(0), w(1), w(2), true, mem),
            "path_rename" => self.path_rename(w(0), w(1), w(2), w(3), w(4), w(5), mem),
            "path_readlink" => match self.path(w(0), w(1), w(2), mem) {
                Ok((folder, path)) => match self.tree.resolve(folder, &path) {
                    Ok(files::Resolved { node: Some(_), .. }) => Errno::Inval,
                    Ok(_) => Errno::NoEnt,
                    Err(errno) => errno,
                },
                Err(errno) => errno,
            },
            "path_symlink" | "path_link" => Errno::Perm,
            "sock_accept" | "sock_recv" | "sock_send" | "sock_shutdown" => Errno::NotSup,
            _ => Errno::Nosys,
        };
        Ok(errno as u32)
    }

    fn descriptor(&self, fd: u32) -> Option<&Descriptor> {
        self.descriptors.get(fd as usize).and_then(Option::as_ref)
    }

    fn strings(&self, environment: bool) -> Vec<Vec<u8>> {
        if environment {
            self.env
                .iter()
                .map(|(k, v)| format!("{k}={v}\0").into_bytes())
                .collect()
        } else {
            self.args
                .iter()
                .map(|a| format!("{a}\0").into_bytes())
                .collect()
        }
    }

    fn strings_sizes(
        &self,
        environment: bool,
        count: u32,
        size: u32,
        mem: &mut dyn Memory,
    ) -> Errno {
        let strings = self.strings(environment);
        let total: usize = strings.iter().map(Vec::len).sum();
        ok_if(
            mem.write(count, &(strings.len() as u32).to_le_bytes())
                && mem.write(size, &(total as u32).to_le_bytes()),
        )
    }

    fn strings_get(
        &self,
        environment: bool,
        pointers: u32,
        buffer: u32,
        mem: &mut dyn Memory,
    ) -> Errno {
        let mut at = buffer;
        for (i, string) in self.strings(environment).iter().enumerate() {
            if !mem.write(pointers + 4 * i as u32, &at.to_le_bytes()) || !mem.write(at, string) {
                return Errno::Fault;
            }
            at += string.len() as u32;
        }
        Errno::Success
    }

    /// The iovecs at `iovs` as (pointer, length) pairs.
    fn iovecs(
        iovs: u32,
        count: u32,
        mem: &dyn Memory,
    ) -> std::result::Result<Vec<(u32, u32)>, Errno> {
        if count > MAX_IOVECS {
            return Err(Errno::Inval);
        }
        let bytes = mem.read(iovs, count * 8).ok_or(Errno::Fault)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|c| {
                (
                    u32::from_le_bytes(c[0..4].try_into().expect("4")),
                    u32::from_le_bytes(c[4..8].try_into().expect("4")),
                )
            })
            .collect())
    }

    fn fd_write(
        &mut self,
        fd: u32,
        iovs: u32,
        count: u32,
        offset: Option<u64>,
        written_out: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        let iovecs = match Self::iovecs(iovs, count, mem) {
            Ok(iovecs) => iovecs,
            Err(errno) => return Ok(errno),
        };
        let mut data = Vec::new();
        for (ptr, len) in iovecs {
            match mem.read(ptr, len) {
                Some(bytes) => data.extend_from_slice(&bytes),
                None => return Ok(Errno::Fault),
            }
        }
        self.pay(data.len() as u64);
        match self.descriptors.get(fd as usize).cloned().flatten() {
            Some(Descriptor::Stdout) | Some(Descriptor::Stderr) if offset.is_some() => {
                Ok(Errno::Spipe)
            }
            Some(Descriptor::Stdout) => self.write_output(false, &data, written_out, mem),
            Some(Descriptor::Stderr) => self.write_output(true, &data, written_out, mem),
            Some(Descriptor::File {
                node,
                position,
                write: true,
                append,
                ..
            }) => {
                self.disk_written = self.disk_written.saturating_add(data.len() as u64);
                if self.disk_written > self.disk_limit {
                    return Err(Stop::DiskLimit(format!(
                        "the program wrote more than --disk {} bytes to its files",
                        self.disk_limit
                    )));
                }
                let Node::File {
                    contents: Contents::Bytes(bytes),
                    ..
                } = &mut self.tree.nodes[node]
                else {
                    return Ok(Errno::Badf);
                };
                let at = match (offset, append) {
                    (Some(offset), _) => offset as usize,
                    (None, true) => bytes.len(),
                    (None, false) => position as usize,
                };
                if bytes.len() < at + data.len() {
                    bytes.resize(at + data.len(), 0);
                }
                bytes[at..at + data.len()].copy_from_slice(&data);
                if offset.is_none() {
                    if let Some(Some(Descriptor::File { position, .. })) =
                        self.descriptors.get_mut(fd as usize)
                    {
                        *position = (at + data.len()) as u64;
                    }
                }
                Ok(ok_if(
                    mem.write(written_out, &(data.len() as u32).to_le_bytes()),
                ))
            }
            Some(_) => Ok(Errno::Badf),
            None => Ok(Errno::Badf),
        }
    }

    /// A write to stdout or stderr: kept up to the shared budget; the write that crosses it ends
    /// the run (a capped pipe returning an error would let a hostile guest write forever).
    fn write_output(
        &mut self,
        stderr: bool,
        data: &[u8],
        written_out: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        if !self.output.write(self.output_limit, stderr, data) {
            return Err(Stop::OutputLimit);
        }
        Ok(ok_if(
            mem.write(written_out, &(data.len() as u32).to_le_bytes()),
        ))
    }

    fn fd_read(
        &mut self,
        fd: u32,
        iovs: u32,
        count: u32,
        offset: Option<u64>,
        read_out: u32,
        mem: &mut dyn Memory,
    ) -> Errno {
        let iovecs = match Self::iovecs(iovs, count, mem) {
            Ok(iovecs) => iovecs,
            Err(errno) => return errno,
        };
        let wanted: usize = iovecs.iter().map(|(_, len)| *len as usize).sum();
        let data = match self.descriptors.get(fd as usize).cloned().flatten() {
            Some(Descriptor::Stdin) if offset.is_some() => return Errno::Spipe,
            Some(Descriptor::Stdin) => {
                let start = self.stdin_position;
                let end = (start + wanted).min(self.stdin.len());
                self.stdin_position = end;
                self.stdin[start..end].to_vec()
            }
            Some(Descriptor::File {
                node,
                position,
                read: true,
                ..
            }) => {
                let Node::File { contents, .. } = &self.tree.nodes[node] else {
                    return Errno::Badf;
                };
                let data = match contents.read(offset.unwrap_or(position), wanted) {
                    Ok(data) => data,
                    Err(errno) => return errno,
                };
                if offset.is_none() {
                    if let Some(Some(Descriptor::File { position, .. })) =
                        self.descriptors.get_mut(fd as usize)
                    {
                        *position += data.len() as u64;
                    }
                }
                data
            }
            Some(Descriptor::Folder { .. }) => return Errno::Isdir,
            _ => return Errno::Badf,
        };
        self.pay(data.len() as u64);
        let mut rest = &data[..];
        for (ptr, len) in iovecs {
            let n = rest.len().min(len as usize);
            if !mem.write(ptr, &rest[..n]) {
                return Errno::Fault;
            }
            rest = &rest[n..];
        }
        ok_if(mem.write(read_out, &(data.len() as u32).to_le_bytes()))
    }

    fn fd_seek(
        &mut self,
        fd: u32,
        offset: i64,
        whence: u32,
        out: u32,
        mem: &mut dyn Memory,
    ) -> Errno {
        let size = match self.descriptor(fd) {
            Some(Descriptor::File { node, .. }) => match &self.tree.nodes[*node] {
                Node::File { contents, .. } => contents.len(),
                Node::Folder { .. } => 0,
            },
            Some(Descriptor::Folder { .. }) => return Errno::Badf,
            Some(_) => return Errno::Spipe,
            None => return Errno::Badf,
        };
        let Some(Some(Descriptor::File { position, .. })) = self.descriptors.get_mut(fd as usize)
        else {
            return Errno::Badf;
        };
        let base = match whence {
            0 => 0i128,
            1 => *position as i128,
            2 => size as i128,
            _ => return Errno::Inval,
        };
        let target = base + offset as i128;
        if target < 0 || target > i64::MAX as i128 {
            return Errno::Inval;
        }
        *position = target as u64;
        put_u64(mem, out, target as u64)
    }

    fn fd_close(&mut self, fd: u32) -> Errno {
        match self.descriptors.get_mut(fd as usize) {
            Some(slot @ Some(_)) => {
                *slot = None;
                Errno::Success
            }
            _ => Errno::Badf,
        }
    }

    fn fd_renumber(&mut self, from: u32, to: u32) -> Errno {
        if self.descriptor(from).is_none() || self.descriptor(to).is_none() {
            return Errno::Badf;
        }
        let moved = self.descriptors[from as usize].take();
        self.descriptors[to as usize] = moved;
        Errno::Success
    }

    fn fd_fdstat_get(&self, fd: u32, out: u32, mem: &mut dyn Memory) -> Errno {
        let (filetype, flags, base, inheriting) = match self.descriptor(fd) {
            Some(Descriptor::Stdin) => (FILETYPE_UNKNOWN, 0u16, RIGHTS_FD_READ, RIGHTS_FD_READ),
            Some(Descriptor::Stdout) | Some(Descriptor::Stderr) => {
                (FILETYPE_UNKNOWN, 0, RIGHTS_FD_WRITE, RIGHTS_FD_WRITE)
            }
            Some(Descriptor::Folder {
                preopen: Some(_), ..
            }) => (
                FILETYPE_DIRECTORY,
                0,
                RIGHTS_PREOPEN,
                RIGHTS_PREOPEN_INHERITING,
            ),
            Some(Descriptor::Folder { .. }) => {
                // A folder's rights: all but seeking and setting sizes; no writing when read-only.
                let base = RIGHTS_ALL & !(1 << 2) & !(1 << 22) & !(1 << 16) & !RIGHTS_FD_WRITE;
                (FILETYPE_DIRECTORY, 0, base, RIGHTS_ALL)
            }
            Some(Descriptor::File {
                read,
                write,
                append,
                ..
            }) => {
                let mut base = RIGHTS_ALL;
                if !read {
                    base &= !RIGHTS_FD_READ & !(1 << 14);
                }
                if !write {
                    base &= !RIGHTS_FD_WRITE;
                }
                let flags = if *append { FDFLAGS_APPEND as u16 } else { 0 };
                (FILETYPE_REGULAR_FILE, flags, base, RIGHTS_ALL)
            }
            None => return Errno::Badf,
        };
        let mut stat = [0u8; 24];
        stat[0] = filetype;
        stat[2..4].copy_from_slice(&flags.to_le_bytes());
        stat[8..16].copy_from_slice(&base.to_le_bytes());
        stat[16..24].copy_from_slice(&inheriting.to_le_bytes());
        ok_if(mem.write(out, &stat))
    }

    /// The guest's inode number of `node`.
    fn inode(&mut self, node: usize) -> u64 {
        let next = self.inodes.len() as u64 + 1;
        *self.inodes.entry(node).or_insert(next)
    }

    fn write_filestat(&mut self, node: usize, out: u32, mem: &mut dyn Memory) -> Errno {
        let (filetype, size) = match &self.tree.nodes[node] {
            Node::Folder { .. } => (FILETYPE_DIRECTORY, 4096),
            Node::File { contents, .. } => (FILETYPE_REGULAR_FILE, contents.len()),
        };
        let inode = self.inode(node);
        let now = self.time.wall_nanos();
        put_filestat(mem, out, inode, filetype, size, now)
    }

    fn fd_filestat_set_size(&mut self, fd: u32, size: u64) -> Result<Errno> {
        let Some(Descriptor::File {
            node, write: true, ..
        }) = self.descriptor(fd).cloned()
        else {
            return Ok(Errno::Badf);
        };
        let Node::File {
            contents: Contents::Bytes(bytes),
            ..
        } = &mut self.tree.nodes[node]
        else {
            return Ok(Errno::Badf);
        };
        if size > bytes.len() as u64 {
            self.disk_written = self.disk_written.saturating_add(size - bytes.len() as u64);
            if self.disk_written > self.disk_limit {
                return Err(Stop::DiskLimit(format!(
                    "the program wrote more than --disk {} bytes to its files",
                    self.disk_limit
                )));
            }
        }
        bytes.resize(size as usize, 0);
        Ok(Errno::Success)
    }

    fn fd_readdir(
        &mut self,
        fd: u32,
        buf: u32,
        buf_len: u32,
        cookie: u64,
        used_out: u32,
        mem: &mut dyn Memory,
    ) -> Errno {
        let Some(Descriptor::Folder { node, .. }) = self.descriptor(fd).cloned() else {
            return Errno::Badf;
        };
        let Node::Folder {
            entries, parent, ..
        } = self.tree.nodes[node].clone()
        else {
            return Errno::NotDir;
        };
        let mut listing: Vec<(String, usize)> =
            vec![(".".into(), node), ("..".into(), parent.unwrap_or(node))];
        listing.extend(entries);
        let mut out = Vec::new();
        for (index, (name, child)) in listing.into_iter().enumerate().skip(cookie as usize) {
            let filetype = if self.tree.is_folder(child) {
                FILETYPE_DIRECTORY
            } else {
                FILETYPE_REGULAR_FILE
            };
            let mut dirent = [0u8; 24];
            dirent[0..8].copy_from_slice(&(index as u64 + 1).to_le_bytes());
            dirent[8..16].copy_from_slice(&self.inode(child).to_le_bytes());
            dirent[16..20].copy_from_slice(&(name.len() as u32).to_le_bytes());
            dirent[20] = filetype;
            out.extend_from_slice(&dirent);
            out.extend_from_slice(name.as_bytes());
            if out.len() >= buf_len as usize {
                break;
            }
        }
        out.truncate(buf_len as usize);
        self.pay(out.len() as u64);
        ok_if(mem.write(buf, &out) && mem.write(used_out, &(out.len() as u32).to_le_bytes()))
    }

    /// The folder of descriptor `fd` and the path at `ptr`, paid for.
    fn path(
        &mut self,
        fd: u32,
        ptr: u32,
        len: u32,
        mem: &dyn Memory,
    ) -> std::result::Result<(usize, String), Errno> {
        let folder = match self.descriptor(fd) {
            Some(Descriptor::Folder { node, .. }) => *node,
            Some(_) => return Err(Errno::NotDir),
            None => return Err(Errno::Badf),
        };
        let bytes = mem.read(ptr, len).ok_or(Errno::Fault)?;
        self.pay(len as u64);
        let path = String::from_utf8(bytes).map_err(|_| Errno::Inval)?;
        Ok((folder, path))
    }

    fn create(&mut self) -> Result<()> {
        self.created += 1;
        if self.created > MAX_FILES {
            return Err(Stop::DiskLimit(format!(
                "the program created more than {MAX_FILES} files and folders"
            )));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn path_open(
        &mut self,
        fd: u32,
        path_ptr: u32,
        path_len: u32,
        oflags: u32,
        fdflags: u32,
        fd_out: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        let (folder, path) = match self.path(fd, path_ptr, path_len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        let resolved = match self.tree.resolve(folder, &path) {
            Ok(resolved) => resolved,
            Err(errno) => return Ok(errno),
        };
        // Read or write as the guest's libc asked: wasi-libc passes rights, which this
        // implementation reads off the flags instead (O_CREAT/O_TRUNC/APPEND need writing).
        let wants_write =
            oflags & (OFLAGS_CREAT | OFLAGS_TRUNC) != 0 || fdflags & FDFLAGS_APPEND != 0;
        let node = match resolved.node {
            Some(_) if oflags & OFLAGS_CREAT != 0 && oflags & OFLAGS_EXCL != 0 => {
                return Ok(Errno::Exist)
            }
            Some(node) => node,
            None if oflags & OFLAGS_CREAT != 0 => {
                if !self.tree.writable(resolved.parent) {
                    return Ok(Errno::Perm);
                }
                self.create()?;
                self.tree.insert_file(resolved.parent, &resolved.name)
            }
            None => return Ok(Errno::NoEnt),
        };
        let descriptor = if self.tree.is_folder(node) {
            if wants_write {
                return Ok(Errno::Isdir);
            }
            Descriptor::Folder {
                node,
                preopen: None,
            }
        } else {
            if oflags & OFLAGS_DIRECTORY != 0 {
                return Ok(Errno::NotDir);
            }
            let writable = self.tree.writable(node);
            if wants_write && !writable {
                return Ok(Errno::Perm);
            }
            if oflags & OFLAGS_TRUNC != 0 {
                if let Node::File {
                    contents: Contents::Bytes(bytes),
                    ..
                } = &mut self.tree.nodes[node]
                {
                    bytes.clear();
                }
            }
            Descriptor::File {
                node,
                position: 0,
                read: true,
                write: writable,
                append: fdflags & FDFLAGS_APPEND != 0,
            }
        };
        let slot = match self.descriptors.iter().position(Option::is_none) {
            Some(free) => free,
            None => {
                self.descriptors.push(None);
                self.descriptors.len() - 1
            }
        };
        self.descriptors[slot] = Some(descriptor);
        Ok(ok_if(mem.write(fd_out, &(slot as u32).to_le_bytes())))
    }

    fn path_create_directory(
        &mut self,
        fd: u32,
        ptr: u32,
        len: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        let (folder, path) = match self.path(fd, ptr, len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        Ok(match self.tree.resolve(folder, &path) {
            Ok(files::Resolved { node: Some(_), .. }) => Errno::Exist,
            Ok(resolved) if self.tree.writable(resolved.parent) => {
                self.create()?;
                self.tree.insert_folder(resolved.parent, &resolved.name);
                Errno::Success
            }
            Ok(_) => Errno::Perm,
            Err(errno) => errno,
        })
    }

    fn path_remove(
        &mut self,
        fd: u32,
        ptr: u32,
        len: u32,
        folder_wanted: bool,
        mem: &mut dyn Memory,
    ) -> Errno {
        let (folder, path) = match self.path(fd, ptr, len, mem) {
            Ok(found) => found,
            Err(errno) => return errno,
        };
        match self.tree.resolve(folder, &path) {
            Ok(files::Resolved {
                parent,
                name,
                node: Some(node),
            }) => {
                if !self.tree.writable(parent) {
                    return Errno::Perm;
                }
                match (&self.tree.nodes[node], folder_wanted) {
                    (Node::Folder { entries, .. }, true) if !entries.is_empty() => Errno::NotEmpty,
                    (Node::Folder { .. }, true) | (Node::File { .. }, false) => {
                        self.tree.unlink(parent, &name);
                        Errno::Success
                    }
                    (Node::Folder { .. }, false) => Errno::Isdir,
                    (Node::File { .. }, true) => Errno::NotDir,
                }
            }
            Ok(_) => Errno::NoEnt,
            Err(errno) => errno,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn path_rename(
        &mut self,
        fd: u32,
        old: u32,
        old_len: u32,
        new_fd: u32,
        new: u32,
        new_len: u32,
        mem: &mut dyn Memory,
    ) -> Errno {
        let (from_folder, from) = match self.path(fd, old, old_len, mem) {
            Ok(found) => found,
            Err(errno) => return errno,
        };
        let (to_folder, to) = match self.path(new_fd, new, new_len, mem) {
            Ok(found) => found,
            Err(errno) => return errno,
        };
        let (source, target) = match (
            self.tree.resolve(from_folder, &from),
            self.tree.resolve(to_folder, &to),
        ) {
            (Ok(source), Ok(target)) => (source, target),
            (Err(errno), _) | (_, Err(errno)) => return errno,
        };
        let Some(node) = source.node else {
            return Errno::NoEnt;
        };
        if !self.tree.writable(source.parent) || !self.tree.writable(target.parent) {
            return Errno::Perm;
        }
        self.tree.unlink(source.parent, &source.name);
        if let Node::Folder { entries, .. } = &mut self.tree.nodes[target.parent] {
            entries.insert(target.name, node);
        }
        Errno::Success
    }
}

fn ok_if(done: bool) -> Errno {
    if done {
        Errno::Success
    } else {
        Errno::Fault
    }
}

fn put_u64(mem: &mut dyn Memory, at: u32, value: u64) -> Errno {
    ok_if(mem.write(at, &value.to_le_bytes()))
}

/// Writes a `filestat`: device 0, the guest's inode, the type, one link, the size, and every time
/// the virtual wall clock's now.
fn put_filestat(
    mem: &mut dyn Memory,
    at: u32,
    inode: u64,
    filetype: u8,
    size: u64,
    now: u64,
) -> Errno {
    let mut stat = [0u8; 64];
    stat[8..16].copy_from_slice(&inode.to_le_bytes());
    stat[16] = filetype;
    stat[24..32].copy_from_slice(&1u64.to_le_bytes());
    stat[32..40].copy_from_slice(&size.to_le_bytes());
    for field in [40, 48, 56] {
        stat[field..field + 8].copy_from_slice(&now.to_le_bytes());
    }
    ok_if(mem.write(at, &stat))
}
