//! wasmeval-virtual-wasi: WASI preview 1 for a guest that must not see its host.
//!
//! The browser has no wasmtime, so it runs wasmeval's guests (CPython, QuickJS) with this
//! implementation of the WASI calls they make, with the semantics of the runner's sandbox
//! (`runner/src/sandbox/`): virtual clocks ([`clock`]), seeded random bytes ([`random`]), stdin
//! from the case, stdout and stderr sharing one byte budget whose crossing write ends the run
//! ([`Stop::OutputLimit`]), read-only folders for the runtime and the job, a fresh writable `/tmp`
//! with a byte quota ([`Stop::DiskLimit`]), symbolic and hard links with the sandbox's rules (no
//! link leads out of its folder), file metadata without host data, and host work paid in fuel as
//! the runner pays it (a unit per byte moved, per iovec, and what the runner's trampoline to
//! wasmtime-wasi costs: [`Wasi::set_fuel_left`]).
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
    Busy = 10,
    Exist = 20,
    Fault = 21,
    Inval = 28,
    Io = 29,
    Isdir = 31,
    Loop = 32,
    NameTooLong = 37,
    NoEnt = 44,
    Nosys = 52,
    NotDir = 54,
    NotEmpty = 55,
    NotSup = 58,
    Perm = 63,
    Spipe = 70,
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
    /// Host work the call had to pay for was more than the fuel left.
    OutOfFuel,
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
    /// The guest's fuel left during a call ([`Wasi::set_fuel_left`]), which host work is paid
    /// from; negative when the runner's trampoline would have overdrawn it.
    fuel_left: i64,
    /// Fuel paid for host work since the last [`Wasi::take_fuel`].
    paid: u64,
}

// WASI constants.
const FILETYPE_UNKNOWN: u8 = 0;
const FILETYPE_DIRECTORY: u8 = 3;
const FILETYPE_REGULAR_FILE: u8 = 4;
const FILETYPE_SYMBOLIC_LINK: u8 = 7;
const LOOKUP_SYMLINK_FOLLOW: u32 = 1;
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

/// The parameters of the runner's wrapped file calls (`sandbox/files.rs`, `WRAPPED`), which reach
/// wasmtime-wasi's own through a wasm trampoline function each: one that passes `n` parameters
/// costs `n + 2` fuel (its entry, `n` `local.get`s and the `call`).
fn trampoline_params(name: &str) -> Option<u32> {
    Some(match name {
        "fd_filestat_set_size" | "fd_filestat_get" => 2,
        "fd_allocate" | "path_create_directory" | "path_unlink_file" | "path_remove_directory" => 3,
        "fd_write" | "fd_read" => 4,
        "fd_pwrite" | "fd_pread" | "fd_readdir" | "path_filestat_get" | "path_symlink" => 5,
        "path_rename" | "path_readlink" => 6,
        "path_link" => 7,
        "path_open" => 9,
        _ => return None,
    })
}

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
            fuel_left: i64::MAX,
            paid: 0,
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

    /// Sets the guest's fuel left before a [`Wasi::call`]; the call pays its host work from it
    /// (ending as [`Stop::OutOfFuel`] where the runner's would run out) and the front end reads
    /// what is left with [`Wasi::fuel_left`]. Without it, a call never runs out.
    pub fn set_fuel_left(&mut self, fuel: i64) {
        self.fuel_left = fuel;
    }

    /// The guest's fuel left after a call (see [`Wasi::set_fuel_left`]).
    pub fn fuel_left(&self) -> i64 {
        self.fuel_left
    }

    /// Fuel the host's work for the guest cost since the last call to this (a unit per byte read,
    /// written, drawn or named in a path, as in the runner).
    pub fn take_fuel(&mut self) -> u64 {
        std::mem::take(&mut self.paid)
    }

    /// Pays `units` of fuel for host work as the runner's `pay` does: out of fuel when the fuel
    /// left (never counted below 0) is less.
    fn pay(&mut self, units: u64) -> Result<()> {
        let fuel = self.fuel_left.max(0) as u64;
        if fuel < units {
            self.fuel_left = 0;
            return Err(Stop::OutOfFuel);
        }
        self.fuel_left = (fuel - units) as i64;
        self.paid = self.paid.saturating_add(units);
        Ok(())
    }

    /// What the runner's trampoline to wasmtime-wasi's `name` costs (see [`trampoline_params`]):
    /// its entry is checked like any wasm function's (out of fuel once none is left), the rest
    /// is charged without a check and may leave the fuel below zero for the guest's next check.
    fn trampoline(&mut self, name: &str) -> Result<()> {
        let Some(params) = trampoline_params(name) else {
            return Ok(());
        };
        self.fuel_left = self.fuel_left.saturating_sub(1);
        if self.fuel_left <= 0 {
            return Err(Stop::OutOfFuel);
        }
        self.fuel_left = self.fuel_left.saturating_sub(i64::from(params) + 1);
        self.paid = self.paid.saturating_add(u64::from(params) + 2);
        Ok(())
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
                self.pay(len as u64)?;
                let mut bytes = vec![0u8; len as usize];
                self.random.fill(&mut bytes);
                ok_if(mem.write(buf, &bytes))
            }
            "fd_write" => self.fd_write(w(0), w(1), w(2), None, w(3), mem)?,
            "fd_pwrite" => self.fd_write(w(0), w(1), w(2), Some(a(3)), w(4), mem)?,
            "fd_read" => self.fd_read(w(0), w(1), w(2), None, w(3), mem)?,
            "fd_pread" => self.fd_read(w(0), w(1), w(2), Some(a(3)), w(4), mem)?,
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
            "fd_filestat_get" => {
                self.trampoline(name)?;
                match self.descriptor(w(0)) {
                    Some(Descriptor::Folder { node, .. }) | Some(Descriptor::File { node, .. }) => {
                        self.write_filestat(*node, w(1), mem)
                    }
                    Some(_) => put_filestat(mem, w(1), 0, FILETYPE_UNKNOWN, 1, 0, 0),
                    None => Errno::Badf,
                }
            }
            "fd_filestat_set_size" => {
                self.disk_write(a(1))?;
                self.trampoline(name)?;
                self.fd_filestat_set_size(w(0), a(1))
            }
            "fd_allocate" => {
                self.disk_write(a(2))?;
                self.trampoline(name)?;
                Errno::NotSup
            }
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
            "fd_readdir" => self.fd_readdir(w(0), w(1), w(2), a(3), w(4), mem)?,
            "fd_renumber" => self.fd_renumber(w(0), w(1)),
            "path_open" => self.path_open(w(0), w(1), w(2), w(3), w(4), w(7), w(8), mem)?,
            "path_filestat_get" => {
                self.pay(u64::from(w(3)))?;
                self.trampoline(name)?;
                let follow = w(1) & LOOKUP_SYMLINK_FOLLOW != 0;
                match self.path(w(0), w(2), w(3), mem) {
                    Ok((folder, path)) => match self.tree.resolve(folder, &path, follow) {
                        Ok(files::Resolved {
                            node: Some(node), ..
                        }) => self.write_filestat(node, w(4), mem),
                        Ok(_) => Errno::NoEnt,
                        Err(errno) => errno,
                    },
                    Err(errno) => errno,
                }
            }
            // Not wrapped in the runner: no fuel for its path.
            "path_filestat_set_times" => {
                let follow = w(1) & LOOKUP_SYMLINK_FOLLOW != 0;
                match self.path(w(0), w(2), w(3), mem) {
                    Ok((folder, _)) if !self.tree.writable(folder) => Errno::Perm,
                    Ok((folder, path)) => match self.tree.resolve(folder, &path, follow) {
                        Ok(files::Resolved { node: Some(_), .. }) => Errno::Success,
                        Ok(_) => Errno::NoEnt,
                        Err(errno) => errno,
                    },
                    Err(errno) => errno,
                }
            }
            "path_create_directory" => self.path_create_directory(w(0), w(1), w(2), mem)?,
            "path_unlink_file" => self.path_remove(w(0), w(1), w(2), false, mem)?,
            "path_remove_directory" => self.path_remove(w(0), w(1), w(2), true, mem)?,
            "path_rename" => self.path_rename(w(0), w(1), w(2), w(3), w(4), w(5), mem)?,
            "path_readlink" => self.path_readlink(w(0), w(1), w(2), w(3), w(4), w(5), mem)?,
            "path_symlink" => self.path_symlink(w(0), w(1), w(2), w(3), w(4), mem)?,
            "path_link" => self.path_link(w(0), w(1), w(2), w(3), w(4), w(5), w(6), mem)?,
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

    /// The runner's `iovec_bytes`: refuses more than [`MAX_IOVECS`] entries (`None`: `EINVAL`),
    /// pays a fuel unit per entry, and sums the lengths of the entries in bounds.
    fn iovec_bytes(&mut self, iovs: u32, count: u32, mem: &dyn Memory) -> Result<Option<u64>> {
        if count > MAX_IOVECS {
            return Ok(None);
        }
        self.pay(u64::from(count))?;
        let mut total = 0u64;
        for i in 0..count {
            let Some(entry) = mem.read(iovs.wrapping_add(8 * i), 8) else {
                break;
            };
            total += u64::from(u32::from_le_bytes(entry[4..8].try_into().expect("4")));
        }
        Ok(Some(total))
    }

    /// wasmtime-wasi's `first_non_empty_iovec`: a read or write moves only the first buffer that
    /// is not empty (a libc loops for the rest), or none.
    fn first_buffer(
        iovs: u32,
        count: u32,
        mem: &dyn Memory,
    ) -> std::result::Result<(u32, u32), Errno> {
        let bytes = mem
            .read(iovs, count.checked_mul(8).ok_or(Errno::Fault)?)
            .ok_or(Errno::Fault)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|c| {
                (
                    u32::from_le_bytes(c[0..4].try_into().expect("4")),
                    u32::from_le_bytes(c[4..8].try_into().expect("4")),
                )
            })
            .find(|(_, len)| *len > 0)
            .unwrap_or((0, 0)))
    }

    /// Counts `bytes` written to files against `--disk`.
    fn disk_write(&mut self, bytes: u64) -> Result<()> {
        self.disk_written = self.disk_written.saturating_add(bytes);
        if self.disk_written > self.disk_limit {
            return Err(Stop::DiskLimit(format!(
                "the program wrote more than --disk {} bytes to its files",
                self.disk_limit
            )));
        }
        Ok(())
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
        // The runner pays for every byte asked for before the call, and counts a write on a
        // descriptor past stdio (any pwrite) against the disk, whatever the call then does.
        let Some(total) = self.iovec_bytes(iovs, count, mem)? else {
            return Ok(Errno::Inval);
        };
        self.pay(total)?;
        if fd > 2 || offset.is_some() {
            self.disk_write(total)?;
        }
        self.trampoline(if offset.is_some() {
            "fd_pwrite"
        } else {
            "fd_write"
        })?;
        let (ptr, len) = match Self::first_buffer(iovs, count, mem) {
            Ok(buffer) => buffer,
            Err(errno) => return Ok(errno),
        };
        let Some(data) = mem.read(ptr, len) else {
            return Ok(Errno::Fault);
        };
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
                let Node::File {
                    contents: Contents::Bytes(bytes),
                    ..
                } = &mut self.tree.nodes[node]
                else {
                    return Ok(Errno::Badf);
                };
                let at = match (offset, append) {
                    (_, true) => bytes.len(),
                    (Some(offset), false) => offset as usize,
                    (None, false) => position as usize,
                };
                if bytes.len() < at + data.len() {
                    bytes.resize(at + data.len(), 0);
                }
                bytes[at..at + data.len()].copy_from_slice(&data);
                let end = bytes.len() as u64;
                if offset.is_none() {
                    if let Some(Some(Descriptor::File { position, .. })) =
                        self.descriptors.get_mut(fd as usize)
                    {
                        *position = if append {
                            end
                        } else {
                            (at + data.len()) as u64
                        };
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

    /// A write to stdout or stderr, in wasmtime-wasi's chunks of 4096 bytes: kept up to the
    /// shared budget; the chunk that crosses it ends the run (a capped pipe returning an error
    /// would let a hostile guest write forever).
    fn write_output(
        &mut self,
        stderr: bool,
        data: &[u8],
        written_out: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        for chunk in data.chunks(4096) {
            if !self.output.write(self.output_limit, stderr, chunk) {
                return Err(Stop::OutputLimit);
            }
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
    ) -> Result<Errno> {
        if self.iovec_bytes(iovs, count, mem)?.is_none() {
            return Ok(Errno::Inval);
        }
        self.trampoline(if offset.is_some() {
            "fd_pread"
        } else {
            "fd_read"
        })?;
        let (ptr, wanted) = match Self::first_buffer(iovs, count, mem) {
            Ok(buffer) => buffer,
            Err(errno) => return Ok(errno),
        };
        let data = match self.descriptors.get(fd as usize).cloned().flatten() {
            Some(Descriptor::Stdin) if offset.is_some() => return Ok(Errno::Spipe),
            Some(Descriptor::Stdin) => {
                let start = self.stdin_position;
                let end = (start + wanted as usize).min(self.stdin.len());
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
                    return Ok(Errno::Badf);
                };
                let data = match contents.read(offset.unwrap_or(position), wanted as usize) {
                    Ok(data) => data,
                    Err(errno) => return Ok(errno),
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
            _ => return Ok(Errno::Badf),
        };
        if !mem.write(ptr, &data) {
            return Ok(Errno::Fault);
        }
        if !mem.write(read_out, &(data.len() as u32).to_le_bytes()) {
            return Ok(Errno::Fault);
        }
        // The runner pays for what the call reports it read.
        self.pay(data.len() as u64)?;
        Ok(Errno::Success)
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
                Node::Folder { .. } | Node::Symlink { .. } => 0,
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

    /// The WASI file type of `node`.
    fn filetype(&self, node: usize) -> u8 {
        match &self.tree.nodes[node] {
            Node::Folder { .. } => FILETYPE_DIRECTORY,
            Node::File { .. } => FILETYPE_REGULAR_FILE,
            Node::Symlink { .. } => FILETYPE_SYMBOLIC_LINK,
        }
    }

    /// A node's filestat as the runner rewrites the host's: a folder has one link and 4096
    /// bytes, a file or link its links and its size (a link's is its target's length).
    fn write_filestat(&mut self, node: usize, out: u32, mem: &mut dyn Memory) -> Errno {
        let (links, size) = match &self.tree.nodes[node] {
            Node::Folder { .. } => (1, 4096),
            Node::File {
                contents, links, ..
            } => (*links, contents.len()),
            Node::Symlink { target, links } => (*links, target.len() as u64),
        };
        let filetype = self.filetype(node);
        let inode = self.inode(node);
        let now = self.time.wall_nanos();
        put_filestat(mem, out, inode, filetype, links, size, now)
    }

    fn fd_filestat_set_size(&mut self, fd: u32, size: u64) -> Errno {
        let Some(Descriptor::File {
            node, write: true, ..
        }) = self.descriptor(fd).cloned()
        else {
            return Errno::Badf;
        };
        let Node::File {
            contents: Contents::Bytes(bytes),
            ..
        } = &mut self.tree.nodes[node]
        else {
            return Errno::Badf;
        };
        bytes.resize(size as usize, 0);
        Errno::Success
    }

    /// The listing of folder `node` as the runner's `sorted_readdir` gives it: `.` and `..`
    /// (both with the folder's own inode, as wasmtime-wasi reports them) and the entries, sorted
    /// by name; each entry a 24-byte header (next cookie, inode, name length, type) and the name.
    fn listing(&mut self, node: usize) -> Vec<(Vec<u8>, usize)> {
        let Node::Folder { entries, .. } = &self.tree.nodes[node] else {
            return Vec::new();
        };
        let mut listing: Vec<(Vec<u8>, usize)> =
            vec![(b".".to_vec(), node), (b"..".to_vec(), node)];
        listing.extend(
            entries
                .iter()
                .map(|(name, child)| (name.as_bytes().to_vec(), *child)),
        );
        listing.sort_by(|a, b| a.0.cmp(&b.0));
        listing
    }

    /// Entries of `listing` from `cookie`, written as wasmtime-wasi writes a page of
    /// `capacity` bytes (the last entry cut at the end); with the guest inode of each entry whose
    /// header's inode field is in the page when `inodes` is set, else zero.
    fn page(
        &mut self,
        listing: &[(Vec<u8>, usize)],
        cookie: u64,
        capacity: usize,
        inodes: bool,
    ) -> Vec<u8> {
        let mut page = Vec::new();
        let first = usize::try_from(cookie).unwrap_or(usize::MAX);
        for (position, (name, child)) in listing.iter().enumerate().skip(first) {
            if page.len() >= capacity {
                break;
            }
            let inode = if inodes && page.len() + 16 <= capacity {
                self.inode(*child)
            } else {
                0
            };
            page.extend_from_slice(&(position as u64 + 1).to_le_bytes());
            page.extend_from_slice(&inode.to_le_bytes());
            page.extend_from_slice(&(name.len() as u32).to_le_bytes());
            page.extend_from_slice(&[self.filetype(*child), 0, 0, 0]);
            page.extend_from_slice(name);
        }
        page.truncate(capacity);
        page
    }

    /// `fd_readdir` as the runner's `sorted_readdir` answers it: the whole folder read from
    /// wasmtime-wasi page by page (each page a trampoline call, paid a fuel unit per byte), then
    /// the page from `cookie` of the listing sorted by name. The host's own order is taken to be
    /// that sorted order, so a folder read in several pages may cost another number of units
    /// here than on a host whose order differs (one page, the common case, costs the same).
    fn fd_readdir(
        &mut self,
        fd: u32,
        buf: u32,
        buf_len: u32,
        cookie: u64,
        used_out: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        let capacity = buf_len as usize;
        let folder = match self.descriptor(fd) {
            Some(Descriptor::Folder { node, .. }) => Some(*node),
            _ => None,
        };
        let listing = folder.map(|node| self.listing(node)).unwrap_or_default();
        let mut from = 0u64;
        loop {
            self.trampoline("fd_readdir")?;
            if folder.is_none() {
                return Ok(Errno::Badf);
            }
            let page = self.page(&listing, from, capacity, false);
            self.pay(page.len() as u64)?;
            // The entries of the page read whole, and where the next page starts.
            let mut offset = 0;
            let mut whole = 0;
            while offset + 24 <= page.len() {
                let next = u64::from_le_bytes(page[offset..offset + 8].try_into().expect("8"));
                let length =
                    u32::from_le_bytes(page[offset + 16..offset + 20].try_into().expect("4"));
                let end = offset + 24 + length as usize;
                if end > page.len() {
                    break;
                }
                from = next;
                whole += 1;
                offset = end;
            }
            if page.len() < capacity {
                break;
            }
            if whole == 0 {
                // An entry longer than the buffer: answered as wasmtime-wasi would, unsorted
                // (the guest retries with a larger buffer, as wasi-libc does).
                self.trampoline("fd_readdir")?;
                let page = self.page(&listing, cookie, capacity, true);
                return Ok(ok_if(
                    mem.write(buf, &page)
                        && mem.write(used_out, &(page.len() as u32).to_le_bytes()),
                ));
            }
            if listing.len() > 4 * MAX_FILES as usize {
                break;
            }
        }
        let page = self.page(&listing, cookie, capacity, true);
        Ok(ok_if(
            mem.write(buf, &page) && mem.write(used_out, &(page.len() as u32).to_le_bytes()),
        ))
    }

    /// The folder of descriptor `fd` and the path at `ptr`.
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
        dirflags: u32,
        path_ptr: u32,
        path_len: u32,
        oflags: u32,
        fdflags: u32,
        fd_out: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        self.pay(u64::from(path_len))?;
        if oflags & OFLAGS_CREAT != 0 {
            self.create()?;
        }
        self.trampoline("path_open")?;
        let (folder, path) = match self.path(fd, path_ptr, path_len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        // Read or write as the guest's libc asked: wasi-libc passes rights, which this
        // implementation reads off the flags instead (O_CREAT/O_TRUNC/APPEND need writing).
        let wants_write =
            oflags & (OFLAGS_CREAT | OFLAGS_TRUNC) != 0 || fdflags & FDFLAGS_APPEND != 0;
        if oflags & OFLAGS_DIRECTORY != 0
            && oflags & (OFLAGS_CREAT | OFLAGS_EXCL | OFLAGS_TRUNC) != 0
        {
            return Ok(Errno::Inval);
        }
        if wants_write && !self.tree.writable(folder) {
            return Ok(Errno::Perm);
        }
        // O_CREAT | O_EXCL never follows the last link: an existing name, link or not, is EEXIST.
        let exclusive = oflags & OFLAGS_CREAT != 0 && oflags & OFLAGS_EXCL != 0;
        let follow = dirflags & LOOKUP_SYMLINK_FOLLOW != 0 && !exclusive;
        let resolved = match self.tree.resolve(folder, &path, follow) {
            Ok(resolved) => resolved,
            Err(errno) => return Ok(errno),
        };
        let node = match resolved.node {
            Some(_) if exclusive => return Ok(Errno::Exist),
            // A link met last without following it: wasmtime-wasi's O_NOFOLLOW.
            Some(node) if self.tree.is_symlink(node) => return Ok(Errno::Loop),
            Some(node) => node,
            None if oflags & OFLAGS_CREAT != 0 => {
                if files::names_folder(&path) {
                    return Ok(Errno::Isdir);
                }
                if !self.tree.writable(resolved.parent) {
                    return Ok(Errno::Perm);
                }
                if resolved.name.len() > files::NAME_MAX {
                    return Ok(Errno::NameTooLong);
                }
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

    /// The folder and last name `path` acts on, for a call that changes that name (see
    /// `Tree::parent_of`); `EPERM` in a read-only folder, as wasmtime-wasi checks first.
    fn changing(&self, folder: usize, path: &str) -> std::result::Result<(usize, String), Errno> {
        if !self.tree.writable(folder) {
            return Err(Errno::Perm);
        }
        self.tree.parent_of(folder, path)
    }

    fn path_create_directory(
        &mut self,
        fd: u32,
        ptr: u32,
        len: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        self.pay(u64::from(len))?;
        self.create()?;
        self.trampoline("path_create_directory")?;
        let (folder, path) = match self.path(fd, ptr, len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        // cap-std strips a trailing `/` or `/.` first.
        let mut stripped = path.as_str();
        while let Some(rest) = stripped
            .strip_suffix('/')
            .or_else(|| stripped.strip_suffix("/."))
        {
            stripped = rest;
        }
        let (parent, name) =
            match self.changing(folder, if stripped.is_empty() { &path } else { stripped }) {
                Ok(found) => found,
                Err(errno) => return Ok(errno),
            };
        if name == "." || name == ".." || self.tree.child(parent, &name).is_some() {
            return Ok(Errno::Exist);
        }
        self.tree.insert_folder(parent, &name);
        Ok(Errno::Success)
    }

    fn path_remove(
        &mut self,
        fd: u32,
        ptr: u32,
        len: u32,
        folder_wanted: bool,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        self.pay(u64::from(len))?;
        self.trampoline(if folder_wanted {
            "path_remove_directory"
        } else {
            "path_unlink_file"
        })?;
        let (folder, path) = match self.path(fd, ptr, len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        let (parent, name) = match self.changing(folder, &path) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        if name == "." {
            // `x/`: the kernel's unlinkat and rmdirat of `.`.
            return Ok(if folder_wanted {
                Errno::Inval
            } else {
                Errno::Isdir
            });
        }
        let Some(node) = self.tree.child(parent, &name) else {
            return Ok(Errno::NoEnt);
        };
        Ok(match (&self.tree.nodes[node], folder_wanted) {
            (Node::Folder { entries, .. }, true) if !entries.is_empty() => Errno::NotEmpty,
            (Node::Folder { .. }, true)
            | (Node::File { .. }, false)
            | (Node::Symlink { .. }, false) => {
                self.tree.unlink(parent, &name);
                Errno::Success
            }
            (Node::Folder { .. }, false) => Errno::Isdir,
            (Node::File { .. } | Node::Symlink { .. }, true) => Errno::NotDir,
        })
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
    ) -> Result<Errno> {
        self.pay(u64::from(old_len) + u64::from(new_len))?;
        self.trampoline("path_rename")?;
        let (from_folder, from) = match self.path(fd, old, old_len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        let (to_folder, to) = match self.path(new_fd, new, new_len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        if !self.tree.writable(to_folder) {
            return Ok(Errno::Perm);
        }
        let ((source_parent, source_name), (target_parent, target_name)) = match (
            self.changing(from_folder, &from),
            self.tree.parent_of(to_folder, &to),
        ) {
            (Ok(source), Ok(target)) => (source, target),
            (Err(errno), _) | (_, Err(errno)) => return Ok(errno),
        };
        if source_name == "." || target_name == "." {
            return Ok(Errno::Busy);
        }
        let Some(node) = self.tree.child(source_parent, &source_name) else {
            return Ok(Errno::NoEnt);
        };
        if let Some(existing) = self.tree.child(target_parent, &target_name) {
            if existing == node {
                return Ok(Errno::Success);
            }
            match (self.tree.is_folder(node), &self.tree.nodes[existing]) {
                (false, Node::Folder { .. }) => return Ok(Errno::Isdir),
                (true, Node::Folder { entries, .. }) if !entries.is_empty() => {
                    return Ok(Errno::NotEmpty)
                }
                (true, Node::File { .. } | Node::Symlink { .. }) => return Ok(Errno::NotDir),
                _ => {}
            }
        }
        if self.tree.is_folder(node) && self.tree.contains(node, target_parent) {
            return Ok(Errno::Inval);
        }
        self.tree.unlink(target_parent, &target_name);
        self.tree
            .rename(source_parent, &source_name, target_parent, &target_name);
        Ok(Errno::Success)
    }

    #[allow(clippy::too_many_arguments)]
    fn path_readlink(
        &mut self,
        fd: u32,
        ptr: u32,
        len: u32,
        buf: u32,
        buf_len: u32,
        used_out: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        self.pay(u64::from(len))?;
        self.trampoline("path_readlink")?;
        let (folder, path) = match self.path(fd, ptr, len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        let (parent, name) = match self.tree.parent_of(folder, &path) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        let target = match self
            .tree
            .child(parent, &name)
            .map(|node| &self.tree.nodes[node])
        {
            _ if name == "." => return Ok(Errno::Inval),
            Some(Node::Symlink { target, .. }) => target.clone().into_bytes(),
            Some(_) => return Ok(Errno::Inval),
            None => return Ok(Errno::NoEnt),
        };
        let n = target.len().min(buf_len as usize);
        if !(mem.write(buf, &target[..n]) && mem.write(used_out, &(n as u32).to_le_bytes())) {
            return Ok(Errno::Fault);
        }
        // The runner pays for what the call reports it read.
        self.pay(n as u64)?;
        Ok(Errno::Success)
    }

    fn path_symlink(
        &mut self,
        old: u32,
        old_len: u32,
        fd: u32,
        new: u32,
        new_len: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        self.pay(u64::from(old_len) + u64::from(new_len))?;
        self.create()?;
        self.trampoline("path_symlink")?;
        let Some(target) = mem.read(old, old_len) else {
            return Ok(Errno::Fault);
        };
        let Ok(target) = String::from_utf8(target) else {
            return Ok(Errno::Inval);
        };
        let (folder, path) = match self.path(fd, new, new_len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        if !self.tree.writable(folder) {
            return Ok(Errno::Perm);
        }
        // cap-std refuses an absolute target before anything else.
        if target.starts_with('/') {
            return Ok(Errno::Perm);
        }
        let (parent, name) = match self.tree.parent_of(folder, &path) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        if target.is_empty() {
            return Ok(Errno::NoEnt);
        }
        if name == "." || self.tree.child(parent, &name).is_some() {
            return Ok(Errno::Exist);
        }
        if target.len() > files::SYMLINK_MAX {
            return Ok(Errno::NameTooLong);
        }
        self.tree.insert_symlink(parent, &name, &target);
        Ok(Errno::Success)
    }

    #[allow(clippy::too_many_arguments)]
    fn path_link(
        &mut self,
        old_fd: u32,
        old_flags: u32,
        old: u32,
        old_len: u32,
        new_fd: u32,
        new: u32,
        new_len: u32,
        mem: &mut dyn Memory,
    ) -> Result<Errno> {
        self.pay(u64::from(old_len) + u64::from(new_len))?;
        self.create()?;
        self.trampoline("path_link")?;
        let (from_folder, from) = match self.path(old_fd, old, old_len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        let (to_folder, to) = match self.path(new_fd, new, new_len, mem) {
            Ok(found) => found,
            Err(errno) => return Ok(errno),
        };
        if !self.tree.writable(from_folder) || !self.tree.writable(to_folder) {
            return Ok(Errno::Perm);
        }
        if old_flags & LOOKUP_SYMLINK_FOLLOW != 0 {
            return Ok(Errno::Inval);
        }
        let ((source_parent, source_name), (target_parent, target_name)) = match (
            self.tree.parent_of(from_folder, &from),
            self.tree.parent_of(to_folder, &to),
        ) {
            (Ok(source), Ok(target)) => (source, target),
            (Err(errno), _) | (_, Err(errno)) => return Ok(errno),
        };
        let node = match self.tree.child(source_parent, &source_name) {
            _ if source_name == "." => return Ok(Errno::Perm),
            Some(node) if self.tree.is_folder(node) => return Ok(Errno::Perm),
            Some(node) => node,
            None => return Ok(Errno::NoEnt),
        };
        if target_name == "." || self.tree.child(target_parent, &target_name).is_some() {
            return Ok(Errno::Exist);
        }
        self.tree.hard_link(target_parent, &target_name, node);
        Ok(Errno::Success)
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

/// Writes a `filestat`: device 0, the guest's inode, the type, the links, the size, and every
/// time the virtual wall clock's now.
fn put_filestat(
    mem: &mut dyn Memory,
    at: u32,
    inode: u64,
    filetype: u8,
    links: u64,
    size: u64,
    now: u64,
) -> Errno {
    let mut stat = [0u8; 64];
    stat[8..16].copy_from_slice(&inode.to_le_bytes());
    stat[16] = filetype;
    stat[24..32].copy_from_slice(&links.to_le_bytes());
    stat[32..40].copy_from_slice(&size.to_le_bytes());
    for field in [40, 48, 56] {
        stat[field..field + 8].copy_from_slice(&now.to_le_bytes());
    }
    ok_if(mem.write(at, &stat))
}
