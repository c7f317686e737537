//! The guest's file calls, wrapped: fuel for the bytes they move, a quota on what the guest
//! writes into its folders, and file metadata that carries no host data.
//!
//! wasmtime-wasi's preview 1 functions do the work; they stay in the linker under [`ORIGINAL`]
//! (an alias of `wasi_snapshot_preview1`), and the functions below shadow them, each calling its
//! original between its checks, through a small trampoline instance per store
//! ([`trampoline_module`]: the originals need a caller that exports the guest's memory):
//!
//! - **Fuel.** Host work that grows with a call's arguments is paid in fuel, a unit per byte:
//!   what `fd_write`/`fd_pwrite` are asked to write (before), what `fd_read`/`fd_pread`/
//!   `fd_readdir` returned (after), and every path a `path_*` call passes. So the same program
//!   gets the same verdict on a slow host and a fast one.
//! - **Disk.** Bytes written to files (`fd_write`/`fd_pwrite` on descriptors past stdio,
//!   `fd_filestat_set_size`, `fd_allocate`) count against `--disk`, and files and folders created
//!   (`path_open` with `O_CREAT`, `path_create_directory`, `path_symlink`, `path_link`) against
//!   [`MAX_FILES`]. A call past either traps with [`DiskLimitExceeded`]: the execution ends as
//!   `output_limit`, with a message that names the disk. Bytes are counted as written, not as the
//!   folder's size: rewriting a file counts again.
//! - **Metadata.** `fd_filestat_get`, `path_filestat_get` and `fd_readdir` report no host time and
//!   no host inode: access, modification and change times are the guest's virtual clock at the
//!   call, device 0, and inode numbers are 1, 2, 3... in the order the guest first sees each file;
//!   a folder has one link and 4096 bytes; a folder lists its entries in the order of their names
//!   ([`sorted_readdir`]). A program that reads a file's times, inode or a folder's listing gets
//!   the same answer on every run and every host file system.

use super::GuestState;
use std::collections::HashMap;
use wasmtime::{Caller, Extern, Linker};

/// The module name wasmtime-wasi's own preview 1 functions stay under.
pub const ORIGINAL: &str = "wasmeval_wasi_original";

/// Files and folders a guest may create per execution.
pub const MAX_FILES: u64 = 10_000;

const WASI: &str = "wasi_snapshot_preview1";
const OFLAGS_CREAT: i32 = 1;
/// An iovec array longer than this is refused (`EINVAL`): no real program passes more.
const MAX_IOVECS: u32 = 1024;
const ERRNO_INVAL: i32 = 28;

/// The error a guest's file call traps with once it would pass `--disk` or [`MAX_FILES`].
#[derive(Debug, thiserror::Error)]
#[error("disk limit exceeded: {0}")]
pub struct DiskLimitExceeded(pub String);

/// Per-store accounting of the guest's files.
#[derive(Default)]
pub(super) struct FileMeter {
    /// `--disk`, in bytes.
    quota: u64,
    written: u64,
    created: u64,
    /// Host inode numbers to the guest's.
    inodes: HashMap<u64, u64>,
    /// The trampoline module, and its instance once made (see [`trampoline_module`]).
    module: Option<wasmtime::Module>,
    trampoline: Option<wasmtime::Instance>,
}

impl FileMeter {
    /// A meter allowing `quota` bytes of files, calling the originals through `module`.
    pub(super) fn new(quota: u64, module: wasmtime::Module) -> FileMeter {
        FileMeter {
            quota,
            module: Some(module),
            ..FileMeter::default()
        }
    }

    fn write(&mut self, bytes: u64) -> wasmtime::Result<()> {
        self.written = self.written.saturating_add(bytes);
        if self.written > self.quota {
            return Err(DiskLimitExceeded(format!(
                "the program wrote more than --disk {} bytes to its files",
                self.quota
            ))
            .into());
        }
        Ok(())
    }

    fn create(&mut self) -> wasmtime::Result<()> {
        self.created += 1;
        if self.created > MAX_FILES {
            return Err(DiskLimitExceeded(format!(
                "the program created more than {MAX_FILES} files and folders"
            ))
            .into());
        }
        Ok(())
    }

    /// The guest's inode number for host inode `host`.
    fn inode(&mut self, host: u64) -> u64 {
        let next = self.inodes.len() as u64 + 1;
        *self.inodes.entry(host).or_insert(next)
    }
}

/// Shadows the file calls of `linker` (which must hold wasmtime-wasi's preview 1) with metered
/// ones; `originals` is a copy of the linker made after [`ORIGINAL`] was aliased.
pub(super) fn add_metered_file_calls(
    linker: &mut Linker<GuestState>,
    originals: Linker<GuestState>,
) -> wasmtime::Result<()> {
    let originals = std::sync::Arc::new(originals);
    linker.allow_shadowing(true);

    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "fd_write",
        move |mut caller: Caller<'_, GuestState>, fd: i32, iovs: i32, count: i32, out: i32| {
            let Some(bytes) = iovec_bytes(&mut caller, iovs, count)? else {
                return Ok(ERRNO_INVAL);
            };
            pay(&mut caller, bytes)?;
            if fd > 2 {
                caller.data_mut().files.write(bytes)?;
            }
            call::<(i32, i32, i32, i32)>(&mut caller, &o, "fd_write", (fd, iovs, count, out))
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "fd_pwrite",
        move |mut caller: Caller<'_, GuestState>,
              fd: i32,
              iovs: i32,
              count: i32,
              offset: i64,
              out: i32| {
            let Some(bytes) = iovec_bytes(&mut caller, iovs, count)? else {
                return Ok(ERRNO_INVAL);
            };
            pay(&mut caller, bytes)?;
            caller.data_mut().files.write(bytes)?;
            call::<(i32, i32, i32, i64, i32)>(
                &mut caller,
                &o,
                "fd_pwrite",
                (fd, iovs, count, offset, out),
            )
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "fd_read",
        move |mut caller: Caller<'_, GuestState>, fd: i32, iovs: i32, count: i32, out: i32| {
            if iovec_bytes(&mut caller, iovs, count)?.is_none() {
                return Ok(ERRNO_INVAL);
            }
            let errno =
                call::<(i32, i32, i32, i32)>(&mut caller, &o, "fd_read", (fd, iovs, count, out))?;
            pay_for_result(&mut caller, errno, out)?;
            Ok(errno)
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "fd_pread",
        move |mut caller: Caller<'_, GuestState>,
              fd: i32,
              iovs: i32,
              count: i32,
              offset: i64,
              out: i32| {
            if iovec_bytes(&mut caller, iovs, count)?.is_none() {
                return Ok(ERRNO_INVAL);
            }
            let errno = call::<(i32, i32, i32, i64, i32)>(
                &mut caller,
                &o,
                "fd_pread",
                (fd, iovs, count, offset, out),
            )?;
            pay_for_result(&mut caller, errno, out)?;
            Ok(errno)
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "fd_readdir",
        move |mut caller: Caller<'_, GuestState>,
              fd: i32,
              buf: i32,
              len: i32,
              cookie: i64,
              out: i32| { sorted_readdir(&mut caller, &o, (fd, buf, len, cookie, out)) },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "fd_filestat_set_size",
        move |mut caller: Caller<'_, GuestState>, fd: i32, size: i64| {
            caller.data_mut().files.write(size as u64)?;
            call::<(i32, i64)>(&mut caller, &o, "fd_filestat_set_size", (fd, size))
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "fd_allocate",
        move |mut caller: Caller<'_, GuestState>, fd: i32, offset: i64, len: i64| {
            caller.data_mut().files.write(len as u64)?;
            call::<(i32, i64, i64)>(&mut caller, &o, "fd_allocate", (fd, offset, len))
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "fd_filestat_get",
        move |mut caller: Caller<'_, GuestState>, fd: i32, buf: i32| {
            let errno = call::<(i32, i32)>(&mut caller, &o, "fd_filestat_get", (fd, buf))?;
            if errno == 0 {
                rewrite_filestat(&mut caller, buf as u32);
            }
            Ok(errno)
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "path_filestat_get",
        move |mut caller: Caller<'_, GuestState>,
              fd: i32,
              flags: i32,
              path: i32,
              path_len: i32,
              buf: i32| {
            pay(&mut caller, path_len as u32 as u64)?;
            let errno = call::<(i32, i32, i32, i32, i32)>(
                &mut caller,
                &o,
                "path_filestat_get",
                (fd, flags, path, path_len, buf),
            )?;
            if errno == 0 {
                rewrite_filestat(&mut caller, buf as u32);
            }
            Ok(errno)
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "path_open",
        move |mut caller: Caller<'_, GuestState>,
              fd: i32,
              dirflags: i32,
              path: i32,
              path_len: i32,
              oflags: i32,
              base: i64,
              inheriting: i64,
              fdflags: i32,
              opened: i32| {
            pay(&mut caller, path_len as u32 as u64)?;
            if oflags & OFLAGS_CREAT != 0 {
                caller.data_mut().files.create()?;
            }
            call::<(i32, i32, i32, i32, i32, i64, i64, i32, i32)>(
                &mut caller,
                &o,
                "path_open",
                (
                    fd, dirflags, path, path_len, oflags, base, inheriting, fdflags, opened,
                ),
            )
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "path_create_directory",
        move |mut caller: Caller<'_, GuestState>, fd: i32, path: i32, path_len: i32| {
            pay(&mut caller, path_len as u32 as u64)?;
            caller.data_mut().files.create()?;
            call::<(i32, i32, i32)>(
                &mut caller,
                &o,
                "path_create_directory",
                (fd, path, path_len),
            )
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "path_symlink",
        move |mut caller: Caller<'_, GuestState>,
              old: i32,
              old_len: i32,
              fd: i32,
              new: i32,
              new_len: i32| {
            pay(
                &mut caller,
                (old_len as u32 as u64) + (new_len as u32 as u64),
            )?;
            caller.data_mut().files.create()?;
            call::<(i32, i32, i32, i32, i32)>(
                &mut caller,
                &o,
                "path_symlink",
                (old, old_len, fd, new, new_len),
            )
        },
    )?;
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "path_link",
        move |mut caller: Caller<'_, GuestState>,
              old_fd: i32,
              old_flags: i32,
              old: i32,
              old_len: i32,
              new_fd: i32,
              new: i32,
              new_len: i32| {
            pay(
                &mut caller,
                (old_len as u32 as u64) + (new_len as u32 as u64),
            )?;
            caller.data_mut().files.create()?;
            call::<(i32, i32, i32, i32, i32, i32, i32)>(
                &mut caller,
                &o,
                "path_link",
                (old_fd, old_flags, old, old_len, new_fd, new, new_len),
            )
        },
    )?;
    // Path calls that only pay for their path.
    for name in ["path_unlink_file", "path_remove_directory"] {
        let o = originals.clone();
        linker.func_wrap(
            WASI,
            name,
            move |mut caller: Caller<'_, GuestState>, fd: i32, path: i32, path_len: i32| {
                pay(&mut caller, path_len as u32 as u64)?;
                call::<(i32, i32, i32)>(&mut caller, &o, name, (fd, path, path_len))
            },
        )?;
    }
    let o = originals.clone();
    linker.func_wrap(
        WASI,
        "path_rename",
        move |mut caller: Caller<'_, GuestState>,
              fd: i32,
              old: i32,
              old_len: i32,
              new_fd: i32,
              new: i32,
              new_len: i32| {
            pay(
                &mut caller,
                (old_len as u32 as u64) + (new_len as u32 as u64),
            )?;
            call::<(i32, i32, i32, i32, i32, i32)>(
                &mut caller,
                &o,
                "path_rename",
                (fd, old, old_len, new_fd, new, new_len),
            )
        },
    )?;
    let o = originals;
    linker.func_wrap(
        WASI,
        "path_readlink",
        move |mut caller: Caller<'_, GuestState>,
              fd: i32,
              path: i32,
              path_len: i32,
              buf: i32,
              buf_len: i32,
              out: i32| {
            pay(&mut caller, path_len as u32 as u64)?;
            let errno = call::<(i32, i32, i32, i32, i32, i32)>(
                &mut caller,
                &o,
                "path_readlink",
                (fd, path, path_len, buf, buf_len, out),
            )?;
            pay_for_result(&mut caller, errno, out)?;
            Ok(errno)
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// The functions wrapped, with their parameter types (`i` i32, `l` i64); each returns an errno.
const WRAPPED: [(&str, &str); 17] = [
    ("fd_write", "iiii"),
    ("fd_pwrite", "iiili"),
    ("fd_read", "iiii"),
    ("fd_pread", "iiili"),
    ("fd_readdir", "iiili"),
    ("fd_filestat_set_size", "il"),
    ("fd_allocate", "ill"),
    ("fd_filestat_get", "ii"),
    ("path_filestat_get", "iiiii"),
    ("path_open", "iiiiillii"),
    ("path_create_directory", "iii"),
    ("path_symlink", "iiiii"),
    ("path_link", "iiiiiii"),
    ("path_unlink_file", "iii"),
    ("path_remove_directory", "iii"),
    ("path_rename", "iiiiii"),
    ("path_readlink", "iiiiii"),
];

/// A module through which the wrappers call the originals: wasmtime-wasi's functions read the
/// guest's memory from their caller's `memory` export, and a host function calling another
/// directly has no caller instance. This one imports the guest's memory and the originals,
/// exports the memory, and has a wasm function per original that calls it.
pub(super) fn trampoline_module(engine: &wasmtime::Engine) -> wasmtime::Result<wasmtime::Module> {
    let mut text = String::from("(module (import \"guest\" \"memory\" (memory 0))\n");
    let types = |kinds: &str| {
        kinds
            .chars()
            .map(|k| if k == 'l' { " i64" } else { " i32" })
            .collect::<String>()
    };
    for (name, kinds) in WRAPPED {
        text.push_str(&format!(
            "(import \"original\" \"{name}\" (func ${name} (param{}) (result i32)))\n",
            types(kinds)
        ));
    }
    text.push_str("(export \"memory\" (memory 0))\n");
    for (name, kinds) in WRAPPED {
        let gets: String = (0..kinds.len())
            .map(|i| format!(" local.get {i}"))
            .collect();
        text.push_str(&format!(
            "(func (export \"{name}\") (param{}) (result i32){gets} call ${name})\n",
            types(kinds)
        ));
    }
    text.push(')');
    wasmtime::Module::new(engine, text)
}

/// Calls wasmtime-wasi's own `name` with `args`, through the store's trampoline instance (made
/// on first use).
fn call<P: wasmtime::WasmParams>(
    caller: &mut Caller<'_, GuestState>,
    originals: &Linker<GuestState>,
    name: &'static str,
    args: P,
) -> wasmtime::Result<i32> {
    let instance = match caller.data().files.trampoline {
        Some(instance) => instance,
        None => {
            let memory = memory(caller)
                .ok_or_else(|| wasmtime::Error::msg("the guest exports no memory"))?;
            let mut imports: Vec<Extern> = vec![memory.into()];
            for (original, _) in WRAPPED {
                let func = originals
                    .get(&mut *caller, ORIGINAL, original)
                    .ok()
                    .and_then(Extern::into_func)
                    .ok_or_else(|| {
                        wasmtime::Error::msg(format!("wasmtime-wasi has no {original}"))
                    })?;
                imports.push(func.into());
            }
            let module =
                caller.data().files.module.clone().ok_or_else(|| {
                    wasmtime::Error::msg("no trampoline module for the file calls")
                })?;
            let instance = wasmtime::Instance::new(&mut *caller, &module, &imports)?;
            caller.data_mut().files.trampoline = Some(instance);
            instance
        }
    };
    instance
        .get_typed_func::<P, i32>(&mut *caller, name)?
        .call(&mut *caller, args)
}

/// The guest's memory.
fn memory(caller: &mut Caller<'_, GuestState>) -> Option<wasmtime::Memory> {
    caller.get_export("memory").and_then(Extern::into_memory)
}

fn read_u32(caller: &mut Caller<'_, GuestState>, at: i32) -> Option<u32> {
    let memory = memory(caller)?;
    let at = at as u32 as usize;
    let bytes = memory.data(&*caller).get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(bytes.try_into().ok()?))
}

/// The bytes an iovec array asks to move, or `None` when it is longer than [`MAX_IOVECS`]
/// (out-of-bounds entries are left to the original to refuse). Each entry costs a fuel unit.
fn iovec_bytes(
    caller: &mut Caller<'_, GuestState>,
    iovs: i32,
    count: i32,
) -> wasmtime::Result<Option<u64>> {
    let count = count as u32;
    if count > MAX_IOVECS {
        return Ok(None);
    }
    pay(caller, u64::from(count))?;
    let Some(memory) = memory(caller) else {
        return Ok(Some(0));
    };
    let data = memory.data(&*caller);
    let mut total = 0u64;
    for i in 0..count as usize {
        let at = iovs as u32 as usize + 8 * i;
        let Some(length) = data.get(at + 4..at + 8) else {
            break;
        };
        total += u64::from(u32::from_le_bytes(length.try_into().expect("4 bytes")));
    }
    Ok(Some(total))
}

/// Charges `bytes` fuel units: out of fuel when the guest has fewer.
fn pay(caller: &mut Caller<'_, GuestState>, bytes: u64) -> wasmtime::Result<()> {
    let fuel = caller.get_fuel()?;
    if fuel < bytes {
        caller.set_fuel(0)?;
        return Err(wasmtime::Trap::OutOfFuel.into());
    }
    caller.set_fuel(fuel - bytes)?;
    Ok(())
}

/// Charges what a successful call reported at `out` (bytes read, used or returned).
fn pay_for_result(
    caller: &mut Caller<'_, GuestState>,
    errno: i32,
    out: i32,
) -> wasmtime::Result<()> {
    if errno != 0 {
        return Ok(());
    }
    let bytes = read_u32(caller, out).unwrap_or(0);
    pay(caller, u64::from(bytes))
}

/// One entry of a folder, as `fd_readdir` reports it.
struct Dirent {
    inode: u64,
    kind: u8,
    name: Vec<u8>,
}

/// The size of a `fd_readdir` entry's header (next cookie, inode, name length, type, padding).
const DIRENT_HEADER: usize = 24;

/// `fd_readdir` with the entries in the order of their names, whatever the host's file system
/// keeps (ext4 and tmpfs list a folder in different orders, so `os.listdir` differed). The
/// original is called page by page, from the start, into the guest's own buffer (it writes only
/// guest memory) until the whole folder is read; the entries are sorted by name, and the page
/// starting at `cookie` (here: a position in the sorted list) is written back. Each call reads
/// the whole folder, and pays a fuel unit for every byte of it, so listing a big folder costs
/// the same on every host. A name longer than the guest's buffer cannot be read whole this way;
/// that call answers as the original would, in the host's order.
fn sorted_readdir(
    caller: &mut Caller<'_, GuestState>,
    originals: &Linker<GuestState>,
    (fd, buf, len, cookie, out): (i32, i32, i32, i64, i32),
) -> wasmtime::Result<i32> {
    let original = |caller: &mut Caller<'_, GuestState>, from: i64| {
        call::<(i32, i32, i32, i64, i32)>(
            caller,
            originals,
            "fd_readdir",
            (fd, buf, len, from, out),
        )
    };
    let capacity = len.max(0) as usize;
    let mut entries = Vec::new();
    let mut from = 0i64;
    loop {
        let errno = original(caller, from)?;
        if errno != 0 {
            return Ok(errno);
        }
        let used = (read_u32(caller, out).unwrap_or(0) as usize).min(capacity);
        pay(caller, used as u64)?;
        let Some(memory) = memory(caller) else {
            return Ok(errno);
        };
        let page = memory
            .data(&*caller)
            .get(buf as u32 as usize..buf as u32 as usize + used)
            .unwrap_or_default()
            .to_vec();
        let mut offset = 0;
        let mut whole = 0;
        while offset + DIRENT_HEADER <= page.len() {
            let header = &page[offset..offset + DIRENT_HEADER];
            let next = i64::from_le_bytes(header[0..8].try_into().expect("8 bytes"));
            let name_length = u32::from_le_bytes(header[16..20].try_into().expect("4 bytes"));
            let end = offset + DIRENT_HEADER + name_length as usize;
            let Some(name) = page.get(offset + DIRENT_HEADER..end) else {
                break;
            };
            entries.push(Dirent {
                inode: u64::from_le_bytes(header[8..16].try_into().expect("8 bytes")),
                kind: header[20],
                name: name.to_vec(),
            });
            from = next;
            whole += 1;
            offset = end;
        }
        if used < capacity {
            break;
        }
        if whole == 0 {
            // An entry longer than the buffer: answer as the original did (the guest retries
            // with a larger buffer, as wasi-libc does).
            let errno = original(caller, cookie)?;
            if errno == 0 {
                let used = read_u32(caller, out).unwrap_or(0).min(len as u32);
                rewrite_dirents(caller, buf as u32, used);
            }
            return Ok(errno);
        }
        if entries.len() > 4 * MAX_FILES as usize {
            // More than a guest can make: a read-only folder of the host's runtime files is
            // never this large; stop rather than loop.
            break;
        }
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let mut page = Vec::with_capacity(capacity);
    let first = usize::try_from(cookie.max(0)).unwrap_or(usize::MAX);
    for (position, entry) in entries.iter().enumerate().skip(first) {
        if page.len() >= capacity {
            break;
        }
        page.extend_from_slice(&(position as u64 + 1).to_le_bytes());
        page.extend_from_slice(&entry.inode.to_le_bytes());
        page.extend_from_slice(&(entry.name.len() as u32).to_le_bytes());
        page.extend_from_slice(&[entry.kind, 0, 0, 0]);
        page.extend_from_slice(&entry.name);
    }
    page.truncate(capacity);
    let Some(memory) = memory(caller) else {
        return Ok(0);
    };
    let at = buf as u32 as usize;
    if let Some(target) = memory.data_mut(&mut *caller).get_mut(at..at + page.len()) {
        target.copy_from_slice(&page);
    }
    let used = page.len() as u32;
    if let Some(target) = memory
        .data_mut(&mut *caller)
        .get_mut(out as u32 as usize..out as u32 as usize + 4)
    {
        target.copy_from_slice(&used.to_le_bytes());
    }
    rewrite_dirents(caller, buf as u32, used);
    Ok(0)
}

/// A filestat at `at` (64 bytes: dev, ino, filetype, nlink, size, atim, mtim, ctim) with device
/// 0, the guest's inode number and the virtual clock's time; a folder's link count is 1 and its
/// size 4096, whatever the host's file system says (ext4 counts subfolders in a folder's links
/// and tmpfs counts its entries in its size).
fn rewrite_filestat(caller: &mut Caller<'_, GuestState>, at: u32) {
    let Some(memory) = memory(caller) else {
        return;
    };
    let now = caller.data().clock.wall_nanos();
    let at = at as usize;
    let host_inode = {
        let data = memory.data(&*caller);
        match data.get(at..at + 64) {
            Some(stat) => u64::from_le_bytes(stat[8..16].try_into().expect("8 bytes")),
            None => return,
        }
    };
    let inode = caller.data_mut().files.inode(host_inode);
    let data = memory.data_mut(&mut *caller);
    let stat = &mut data[at..at + 64];
    stat[0..8].copy_from_slice(&0u64.to_le_bytes());
    stat[8..16].copy_from_slice(&inode.to_le_bytes());
    const FILETYPE_DIRECTORY: u8 = 3;
    if stat[16] == FILETYPE_DIRECTORY {
        stat[24..32].copy_from_slice(&1u64.to_le_bytes());
        stat[32..40].copy_from_slice(&4096u64.to_le_bytes());
    }
    for field in [40, 48, 56] {
        stat[field..field + 8].copy_from_slice(&now.to_le_bytes());
    }
}

/// The directory entries in `used` bytes at `at` (each a 24-byte header: next cookie, inode,
/// name length, type; then the name) with the guest's inode numbers; an entry cut off by the end
/// of the buffer keeps what fits.
fn rewrite_dirents(caller: &mut Caller<'_, GuestState>, at: u32, used: u32) {
    let Some(memory) = memory(caller) else {
        return;
    };
    let (start, end) = (at as usize, at as usize + used as usize);
    let mut offset = start;
    while offset + 16 <= end {
        let (host_inode, name_length) = {
            let data = memory.data(&*caller);
            let Some(header) = data.get(offset..offset + 24.min(end - offset)) else {
                return;
            };
            let inode = u64::from_le_bytes(header[8..16].try_into().expect("8 bytes"));
            let length = header
                .get(16..20)
                .map_or(0, |b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
            (inode, length as usize)
        };
        let inode = caller.data_mut().files.inode(host_inode);
        if let Some(field) = memory
            .data_mut(&mut *caller)
            .get_mut(offset + 8..offset + 16)
        {
            field.copy_from_slice(&inode.to_le_bytes());
        }
        offset += 24 + name_length;
    }
}
