//! wasmeval-virtual-wasi's integration tests: WASI calls made on a memory of bytes, as a guest's
//! libc makes them.

use std::rc::Rc;
use wasmeval_virtual_wasi::files::{Contents, Source, Tree, Unavailable};
use wasmeval_virtual_wasi::random::{seeded_bytes, SEED};
use wasmeval_virtual_wasi::{Config, Errno, Preopen, Stop, Wasi};

mod links;
mod runner_fuel;

/// Where the tests put things in the guest's memory.
pub(crate) const IOVEC: u32 = 0;
pub(crate) const DATA: u32 = 64;
pub(crate) const OUT: u32 = 32;
pub(crate) const PATH: u32 = 4096;

/// A WASI with `/job` (read-only, holding `program.txt`) as fd 3 and `/tmp` (writable) as fd 4.
pub(crate) fn wasi(output_limit: u64, disk_limit: u64) -> Wasi {
    let mut tree = Tree::default();
    let job = tree.folder(false);
    tree.add_file(job, "program.txt", Contents::Bytes(b"hello".to_vec()));
    let tmp = tree.folder(true);
    Wasi::new(Config {
        args: vec!["guest".into(), "--flag".into()],
        env: vec![("HOME".into(), "/tmp".into())],
        stdin: b"line one\nline two\n".to_vec(),
        output_limit,
        disk_limit,
        time_limit_nanos: 10_000_000_000,
        tree,
        preopens: vec![
            Preopen {
                guest_path: "/job".into(),
                root: job,
            },
            Preopen {
                guest_path: "/tmp".into(),
                root: tmp,
            },
        ],
    })
}

pub(crate) fn memory() -> Vec<u8> {
    vec![0u8; 1 << 16]
}

pub(crate) fn u32_at(mem: &[u8], at: u32) -> u32 {
    u32::from_le_bytes(mem[at as usize..at as usize + 4].try_into().unwrap())
}

pub(crate) fn u64_at(mem: &[u8], at: u32) -> u64 {
    u64::from_le_bytes(mem[at as usize..at as usize + 8].try_into().unwrap())
}

/// Writes `bytes` at DATA and one iovec pointing at them.
pub(crate) fn iovec(mem: &mut [u8], bytes: &[u8]) {
    mem[DATA as usize..DATA as usize + bytes.len()].copy_from_slice(bytes);
    mem[0..4].copy_from_slice(&DATA.to_le_bytes());
    mem[4..8].copy_from_slice(&(bytes.len() as u32).to_le_bytes());
}

pub(crate) fn write(w: &mut Wasi, mem: &mut Vec<u8>, fd: u64, bytes: &[u8]) -> Result<u32, Stop> {
    iovec(mem, bytes);
    w.call("fd_write", &[fd, IOVEC as u64, 1, OUT as u64], mem)
}

/// Opens `path` under folder `fd` with `oflags`; the new descriptor or the errno.
pub(crate) fn open(
    w: &mut Wasi,
    mem: &mut Vec<u8>,
    fd: u64,
    path: &str,
    oflags: u64,
) -> Result<u32, u32> {
    mem[PATH as usize..PATH as usize + path.len()].copy_from_slice(path.as_bytes());
    let args = [
        fd,
        0,
        PATH as u64,
        path.len() as u64,
        oflags,
        u64::MAX,
        u64::MAX,
        0,
        OUT as u64,
    ];
    match w.call("path_open", &args, mem).expect("no stop") {
        0 => Ok(u32_at(mem, OUT)),
        errno => Err(errno),
    }
}

#[test]
fn stdout_and_stderr_share_one_budget_and_the_crossing_write_ends_the_run() {
    let mut w = wasi(10, 0);
    let mut mem = memory();
    assert_eq!(write(&mut w, &mut mem, 1, b"123456"), Ok(0));
    assert_eq!(u32_at(&mem, OUT), 6);
    assert_eq!(
        write(&mut w, &mut mem, 2, b"abcdef"),
        Err(Stop::OutputLimit)
    );
    assert!(w.output_exceeded());
    let output = w.take_output();
    assert_eq!(
        (output.stdout, output.stderr),
        (b"123456".to_vec(), b"abcd".to_vec())
    );
    assert_eq!(output.written, 12);
}

#[test]
fn stdin_is_the_cases_and_reads_are_paid_in_fuel() {
    let mut w = wasi(100, 0);
    let mut mem = memory();
    mem[0..4].copy_from_slice(&DATA.to_le_bytes());
    mem[4..8].copy_from_slice(&9u32.to_le_bytes());
    assert_eq!(
        w.call("fd_read", &[0, IOVEC as u64, 1, OUT as u64], &mut mem),
        Ok(0)
    );
    assert_eq!(u32_at(&mem, OUT), 9);
    assert_eq!(&mem[DATA as usize..DATA as usize + 9], b"line one\n");
    // As the runner pays: the 9 bytes read, 1 per iovec, and 6 for its trampoline to
    // wasmtime-wasi's fd_read (entry, 4 arguments, the call).
    assert_eq!(w.take_fuel(), 9 + 1 + 6);
}

#[test]
fn paths_never_leave_their_folder_and_the_job_is_read_only() {
    let mut w = wasi(100, 1000);
    let mut mem = memory();
    // wasmtime-wasi (cap-std) calls an escape EPERM.
    assert_eq!(
        open(&mut w, &mut mem, 3, "../etc/passwd", 0),
        Err(Errno::Perm as u32)
    );
    assert_eq!(
        open(&mut w, &mut mem, 3, "/etc/passwd", 0),
        Err(Errno::Perm as u32)
    );
    assert_eq!(
        open(&mut w, &mut mem, 3, "missing", 0),
        Err(Errno::NoEnt as u32)
    );
    // O_CREAT in /job: refused; O_TRUNC of the program: refused, and the program is intact.
    assert_eq!(
        open(&mut w, &mut mem, 3, "new.txt", 1),
        Err(Errno::Perm as u32)
    );
    assert_eq!(
        open(&mut w, &mut mem, 3, "program.txt", 8),
        Err(Errno::Perm as u32)
    );
    let fd = open(&mut w, &mut mem, 3, "program.txt", 0).unwrap() as u64;
    mem[0..4].copy_from_slice(&DATA.to_le_bytes());
    mem[4..8].copy_from_slice(&100u32.to_le_bytes());
    assert_eq!(
        w.call("fd_read", &[fd, IOVEC as u64, 1, OUT as u64], &mut mem),
        Ok(0)
    );
    assert_eq!(&mem[DATA as usize..DATA as usize + 5], b"hello");
    assert_eq!(write(&mut w, &mut mem, fd, b"x"), Ok(Errno::Badf as u32));
}

#[test]
fn tmp_is_writable_within_the_disk_quota() {
    let mut w = wasi(100, 8);
    let mut mem = memory();
    let fd = open(&mut w, &mut mem, 4, "notes.txt", 1).unwrap() as u64;
    assert_eq!(write(&mut w, &mut mem, fd, b"12345"), Ok(0));
    // Read back through a new descriptor.
    let again = open(&mut w, &mut mem, 4, "notes.txt", 0).unwrap() as u64;
    assert_eq!(
        w.call("fd_filestat_get", &[again, OUT as u64], &mut mem),
        Ok(0)
    );
    assert_eq!(u64_at(&mem, OUT + 32), 5);
    assert!(matches!(
        write(&mut w, &mut mem, fd, b"6789"),
        Err(Stop::DiskLimit(_))
    ));
}

#[test]
fn random_bytes_are_the_seeded_stream_and_clocks_are_virtual() {
    let mut w = wasi(100, 0);
    let mut mem = memory();
    assert_eq!(w.call("random_get", &[DATA as u64, 16], &mut mem), Ok(0));
    assert_eq!(
        &mem[DATA as usize..DATA as usize + 16],
        &seeded_bytes(SEED)[..16]
    );
    assert_eq!(
        w.call("clock_time_get", &[1, 0, OUT as u64], &mut mem),
        Ok(0)
    );
    assert_eq!(u64_at(&mem, OUT), 1_000);
    assert_eq!(
        w.call("clock_time_get", &[0, 0, OUT as u64], &mut mem),
        Ok(0)
    );
    assert_eq!(u64_at(&mem, OUT), 1_735_689_600_000_000_000 + 2_000);
}

#[test]
fn a_sleep_past_the_time_limit_ends_the_run() {
    let mut w = wasi(100, 0);
    let mut mem = memory();
    // One relative clock subscription of 11 s (the limit is 10 s).
    let mut sub = [0u8; 48];
    sub[16..20].copy_from_slice(&1u32.to_le_bytes());
    sub[24..32].copy_from_slice(&11_000_000_000u64.to_le_bytes());
    mem[DATA as usize..DATA as usize + 48].copy_from_slice(&sub);
    let args = [DATA as u64, 1024, 1, OUT as u64];
    assert_eq!(
        w.call("poll_oneoff", &args, &mut mem),
        Err(Stop::VirtualTimeout)
    );
}

#[test]
fn args_env_and_preopens_are_what_the_config_says() {
    let mut w = wasi(100, 0);
    let mut mem = memory();
    assert_eq!(w.call("args_sizes_get", &[0, 4], &mut mem), Ok(0));
    assert_eq!((u32_at(&mem, 0), u32_at(&mem, 4)), (2, 13));
    assert_eq!(w.call("args_get", &[0, 100], &mut mem), Ok(0));
    assert_eq!(&mem[100..113], b"guest\0--flag\0");
    assert_eq!(w.call("environ_get", &[0, 100], &mut mem), Ok(0));
    assert_eq!(&mem[100..110], b"HOME=/tmp\0");
    assert_eq!(w.call("fd_prestat_get", &[4, 0], &mut mem), Ok(0));
    assert_eq!(u32_at(&mem, 4), 4);
    assert_eq!(w.call("fd_prestat_dir_name", &[4, 100, 4], &mut mem), Ok(0));
    assert_eq!(&mem[100..104], b"/tmp");
    assert_eq!(
        w.call("fd_prestat_get", &[5, 0], &mut mem),
        Ok(Errno::Badf as u32)
    );
    assert_eq!(w.call("proc_exit", &[3], &mut mem), Err(Stop::Exit(3)));
}

/// A source that counts what it was asked for.
struct Counting(std::cell::Cell<u64>);

impl Source for Counting {
    fn size(&self) -> u64 {
        1 << 20
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> Result<(), Unavailable> {
        self.0.set(self.0.get() + out.len() as u64);
        out.iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = ((offset + i as u64) % 251) as u8);
        Ok(())
    }
}

#[test]
fn a_large_file_is_read_only_where_the_guest_reads() {
    let source = Rc::new(Counting(std::cell::Cell::new(0)));
    let mut tree = Tree::default();
    let lib = tree.folder(false);
    tree.add_file(lib, "stdlib.zip", Contents::Source(source.clone()));
    let mut w = Wasi::new(Config {
        args: vec![],
        env: vec![],
        stdin: vec![],
        output_limit: 0,
        disk_limit: 0,
        time_limit_nanos: 1,
        tree,
        preopens: vec![Preopen {
            guest_path: "/lib".into(),
            root: lib,
        }],
    });
    let mut mem = memory();
    let fd = open(&mut w, &mut mem, 3, "stdlib.zip", 0).unwrap() as u64;
    assert_eq!(
        w.call("fd_seek", &[fd, 1000, 0, OUT as u64], &mut mem),
        Ok(0)
    );
    mem[0..4].copy_from_slice(&DATA.to_le_bytes());
    mem[4..8].copy_from_slice(&10u32.to_le_bytes());
    assert_eq!(
        w.call("fd_read", &[fd, IOVEC as u64, 1, OUT as u64], &mut mem),
        Ok(0)
    );
    assert_eq!(mem[DATA as usize], (1000 % 251) as u8);
    assert_eq!(source.0.get(), 10);
}
