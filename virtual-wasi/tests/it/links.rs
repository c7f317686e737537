//! Symbolic and hard links in `/tmp`, with the rules of the runner's sandbox (wasmtime-wasi on
//! cap-std; `runner/src/sandbox/files.rs`): a link is followed only inside the folder the lookup
//! starts from, an absolute target is refused, 40 links per lookup at most. Each expectation here
//! is what `wasmeval run` gives the same calls (tests/browser/fixtures/parity: `links.py` runs
//! them in both).

use crate::{memory, u32_at, u64_at, wasi, DATA, IOVEC, OUT, PATH};
use wasmeval_virtual_wasi::{Errno, Wasi};

/// `/tmp`'s descriptor in [`wasi`].
const TMP: u64 = 4;
const FOLLOW: u64 = 1;
const O_CREAT: u64 = 1;
const O_DIRECTORY: u64 = 2;
const O_EXCL: u64 = 4;
const FILETYPE_DIRECTORY: u8 = 3;
const FILETYPE_REGULAR_FILE: u8 = 4;
const FILETYPE_SYMBOLIC_LINK: u8 = 7;
/// A second place for paths, for the calls that take two.
const PATH2: u32 = 8192;

fn put(mem: &mut [u8], at: u32, text: &str) -> (u64, u64) {
    mem[at as usize..at as usize + text.len()].copy_from_slice(text.as_bytes());
    (at as u64, text.len() as u64)
}

/// `path_open` of `path` under `fd`: the new descriptor, or the errno.
fn open(
    w: &mut Wasi,
    mem: &mut Vec<u8>,
    fd: u64,
    path: &str,
    lookup: u64,
    oflags: u64,
) -> Result<u64, u32> {
    let (at, len) = put(mem, PATH, path);
    let args = [
        fd,
        lookup,
        at,
        len,
        oflags,
        u64::MAX,
        u64::MAX,
        0,
        OUT as u64,
    ];
    match w.call("path_open", &args, mem).expect("no stop") {
        0 => Ok(u32_at(mem, OUT) as u64),
        errno => Err(errno),
    }
}

/// Creates (`O_CREAT`) `path` in `/tmp` with `text` in it.
fn create(w: &mut Wasi, mem: &mut Vec<u8>, path: &str, text: &str) {
    let fd = open(w, mem, TMP, path, FOLLOW, O_CREAT).expect("created");
    crate::iovec(mem, text.as_bytes());
    assert_eq!(
        w.call("fd_write", &[fd, IOVEC as u64, 1, OUT as u64], mem),
        Ok(0)
    );
}

/// What `path` holds, read through a link where it is one, or the errno.
fn read(w: &mut Wasi, mem: &mut Vec<u8>, fd: u64, path: &str) -> Result<String, u32> {
    let file = open(w, mem, fd, path, FOLLOW, 0)?;
    mem[0..4].copy_from_slice(&DATA.to_le_bytes());
    mem[4..8].copy_from_slice(&1000u32.to_le_bytes());
    match w
        .call("fd_read", &[file, IOVEC as u64, 1, OUT as u64], mem)
        .expect("no stop")
    {
        0 => {
            let n = u32_at(mem, OUT) as usize;
            Ok(String::from_utf8(mem[DATA as usize..DATA as usize + n].to_vec()).unwrap())
        }
        errno => Err(errno),
    }
}

fn symlink(w: &mut Wasi, mem: &mut Vec<u8>, target: &str, path: &str) -> u32 {
    let (old, old_len) = put(mem, PATH, target);
    let (new, new_len) = put(mem, PATH2, path);
    w.call("path_symlink", &[old, old_len, TMP, new, new_len], mem)
        .expect("no stop")
}

fn readlink(w: &mut Wasi, mem: &mut Vec<u8>, path: &str) -> Result<String, u32> {
    let (at, len) = put(mem, PATH, path);
    match w
        .call(
            "path_readlink",
            &[TMP, at, len, DATA as u64, 100, OUT as u64],
            mem,
        )
        .expect("no stop")
    {
        0 => {
            let n = u32_at(mem, OUT) as usize;
            Ok(String::from_utf8(mem[DATA as usize..DATA as usize + n].to_vec()).unwrap())
        }
        errno => Err(errno),
    }
}

/// `path_filestat_get`: (type, links, size), or the errno.
fn stat(w: &mut Wasi, mem: &mut Vec<u8>, path: &str, lookup: u64) -> Result<(u8, u64, u64), u32> {
    let (at, len) = put(mem, PATH, path);
    match w
        .call(
            "path_filestat_get",
            &[TMP, lookup, at, len, DATA as u64],
            mem,
        )
        .expect("no stop")
    {
        0 => Ok((
            mem[DATA as usize + 16],
            u64_at(mem, DATA + 24),
            u64_at(mem, DATA + 32),
        )),
        errno => Err(errno),
    }
}

fn mkdir(w: &mut Wasi, mem: &mut Vec<u8>, path: &str) -> u32 {
    let (at, len) = put(mem, PATH, path);
    w.call("path_create_directory", &[TMP, at, len], mem)
        .expect("no stop")
}

/// A `/tmp` holding `d/f.txt` ("hello").
fn tmp_with_a_file() -> (Wasi, Vec<u8>) {
    let mut w = wasi(1000, 1000);
    let mut mem = memory();
    assert_eq!(mkdir(&mut w, &mut mem, "d"), 0);
    create(&mut w, &mut mem, "d/f.txt", "hello");
    (w, mem)
}

#[test]
fn regression_a_relative_link_in_tmp_works_as_in_the_runner() {
    let (mut w, mut mem) = tmp_with_a_file();
    // The browser refused every link (EPERM) where `wasmeval run` made and followed it.
    assert_eq!(symlink(&mut w, &mut mem, "d/f.txt", "rel"), 0);
    assert_eq!(read(&mut w, &mut mem, TMP, "rel"), Ok("hello".into()));
    assert_eq!(readlink(&mut w, &mut mem, "rel"), Ok("d/f.txt".into()));
    assert_eq!(
        stat(&mut w, &mut mem, "rel", 0),
        Ok((FILETYPE_SYMBOLIC_LINK, 1, 7))
    );
    assert_eq!(
        stat(&mut w, &mut mem, "rel", FOLLOW),
        Ok((FILETYPE_REGULAR_FILE, 1, 5))
    );
    // A link to a folder, followed in the middle of a path, and `..` inside the folder.
    assert_eq!(symlink(&mut w, &mut mem, "d", "dl"), 0);
    assert_eq!(read(&mut w, &mut mem, TMP, "dl/f.txt"), Ok("hello".into()));
    assert_eq!(symlink(&mut w, &mut mem, "../rel", "d/up"), 0);
    assert_eq!(read(&mut w, &mut mem, TMP, "dl/up"), Ok("hello".into()));
    assert_eq!(mkdir(&mut w, &mut mem, "dl/sub"), 0);
    assert_eq!(
        stat(&mut w, &mut mem, "d/sub", 0).map(|s| s.0),
        Ok(FILETYPE_DIRECTORY)
    );
    // Names already taken, a link removed (not what it names).
    assert_eq!(symlink(&mut w, &mut mem, "x", "d"), Errno::Exist as u32);
    assert_eq!(mkdir(&mut w, &mut mem, "dl"), Errno::Exist as u32);
    let (at, len) = put(&mut mem, PATH, "rel");
    assert_eq!(w.call("path_unlink_file", &[TMP, at, len], &mut mem), Ok(0));
    assert_eq!(read(&mut w, &mut mem, TMP, "d/f.txt"), Ok("hello".into()));
    let (at, len) = put(&mut mem, PATH, "dl");
    assert_eq!(
        w.call("path_remove_directory", &[TMP, at, len], &mut mem),
        Ok(Errno::NotDir as u32)
    );
}

#[test]
fn links_never_lead_out_of_the_folder_the_lookup_starts_from() {
    let (mut w, mut mem) = tmp_with_a_file();
    // An absolute target is refused when the link is made.
    assert_eq!(
        symlink(&mut w, &mut mem, "/tmp/d/f.txt", "abs"),
        Errno::Perm as u32
    );
    assert_eq!(stat(&mut w, &mut mem, "abs", 0), Err(Errno::NoEnt as u32));
    // A target above `/tmp` is made, read back as written, and never followed.
    let escape = format!("{}etc/passwd", "../".repeat(30));
    assert_eq!(symlink(&mut w, &mut mem, &escape, "out"), 0);
    assert_eq!(readlink(&mut w, &mut mem, "out"), Ok(escape.clone()));
    assert_eq!(read(&mut w, &mut mem, TMP, "out"), Err(Errno::Perm as u32));
    assert_eq!(
        stat(&mut w, &mut mem, "out", FOLLOW),
        Err(Errno::Perm as u32)
    );
    assert_eq!(
        stat(&mut w, &mut mem, "out", 0).map(|s| s.0),
        Ok(FILETYPE_SYMBOLIC_LINK)
    );
    assert_eq!(
        open(&mut w, &mut mem, TMP, "out", FOLLOW, O_CREAT),
        Err(Errno::Perm as u32)
    );
    assert_eq!(symlink(&mut w, &mut mem, "..", "parent"), 0);
    assert_eq!(
        open(&mut w, &mut mem, TMP, "parent", FOLLOW, O_DIRECTORY),
        Err(Errno::Perm as u32)
    );
    assert_eq!(symlink(&mut w, &mut mem, "d/../..", "dd"), 0);
    assert_eq!(
        read(&mut w, &mut mem, TMP, "dd/job/program.txt"),
        Err(Errno::Perm as u32)
    );
    // From a folder opened below `/tmp`, that folder is the limit: `../rel` works from `/tmp`'s
    // side of the link and not from the folder's own descriptor.
    let d = open(&mut w, &mut mem, TMP, "d", FOLLOW, O_DIRECTORY).unwrap();
    assert_eq!(symlink(&mut w, &mut mem, "d/f.txt", "rel"), 0);
    assert_eq!(symlink(&mut w, &mut mem, "../rel", "d/x"), 0);
    assert_eq!(read(&mut w, &mut mem, TMP, "d/x"), Ok("hello".into()));
    assert_eq!(read(&mut w, &mut mem, d, "x"), Err(Errno::Perm as u32));
    // The job folder is read-only: no link is made in it.
    let (old, old_len) = put(&mut mem, PATH, "x");
    let (new, new_len) = put(&mut mem, PATH2, "x");
    assert_eq!(
        w.call("path_symlink", &[old, old_len, 3, new, new_len], &mut mem),
        Ok(Errno::Perm as u32)
    );
}

#[test]
fn forty_links_are_followed_in_a_lookup_and_the_forty_first_is_a_loop() {
    let (mut w, mut mem) = tmp_with_a_file();
    for i in 0..45 {
        assert_eq!(
            symlink(&mut w, &mut mem, &format!("c{}", i + 1), &format!("c{i}")),
            0
        );
    }
    create(&mut w, &mut mem, "c45", "end");
    assert_eq!(read(&mut w, &mut mem, TMP, "c5"), Ok("end".into()));
    assert_eq!(read(&mut w, &mut mem, TMP, "c4"), Err(Errno::Loop as u32));
    assert_eq!(symlink(&mut w, &mut mem, "loop", "loop"), 0);
    assert_eq!(read(&mut w, &mut mem, TMP, "loop"), Err(Errno::Loop as u32));
    assert_eq!(
        stat(&mut w, &mut mem, "loop", 0).map(|s| s.0),
        Ok(FILETYPE_SYMBOLIC_LINK)
    );
}

#[test]
fn a_dangling_link_is_created_through_and_nofollow_or_excl_stop_at_the_link() {
    let (mut w, mut mem) = tmp_with_a_file();
    assert_eq!(symlink(&mut w, &mut mem, "made.txt", "dang"), 0);
    assert_eq!(
        read(&mut w, &mut mem, TMP, "dang"),
        Err(Errno::NoEnt as u32)
    );
    create(&mut w, &mut mem, "dang", "made");
    assert_eq!(read(&mut w, &mut mem, TMP, "made.txt"), Ok("made".into()));
    assert_eq!(
        open(&mut w, &mut mem, TMP, "dang", FOLLOW, O_CREAT | O_EXCL),
        Err(Errno::Exist as u32)
    );
    // O_NOFOLLOW (the lookup without SYMLINK_FOLLOW) on a link: ELOOP, as on Linux.
    assert_eq!(
        open(&mut w, &mut mem, TMP, "dang", 0, 0),
        Err(Errno::Loop as u32)
    );
    assert_eq!(symlink(&mut w, &mut mem, "nodir/x.txt", "dang2"), 0);
    assert_eq!(
        open(&mut w, &mut mem, TMP, "dang2", FOLLOW, O_CREAT),
        Err(Errno::NoEnt as u32)
    );
    assert_eq!(symlink(&mut w, &mut mem, "", "empty"), Errno::NoEnt as u32);
    assert_eq!(
        symlink(&mut w, &mut mem, &"a".repeat(5000), "long"),
        Errno::NameTooLong as u32
    );
}

#[test]
fn hard_links_name_one_file_and_count_its_names() {
    let (mut w, mut mem) = tmp_with_a_file();
    let link = |w: &mut Wasi, mem: &mut Vec<u8>, old: &str, new: &str| {
        let (o, o_len) = put(mem, PATH, old);
        let (n, n_len) = put(mem, PATH2, new);
        w.call("path_link", &[TMP, 0, o, o_len, TMP, n, n_len], mem)
            .expect("no stop")
    };
    assert_eq!(link(&mut w, &mut mem, "d/f.txt", "hard"), 0);
    assert_eq!(
        stat(&mut w, &mut mem, "hard", FOLLOW),
        Ok((FILETYPE_REGULAR_FILE, 2, 5))
    );
    create(&mut w, &mut mem, "hard", "HARD!");
    assert_eq!(read(&mut w, &mut mem, TMP, "d/f.txt"), Ok("HARD!".into()));
    let (at, len) = put(&mut mem, PATH, "d/f.txt");
    assert_eq!(w.call("path_unlink_file", &[TMP, at, len], &mut mem), Ok(0));
    assert_eq!(
        stat(&mut w, &mut mem, "hard", FOLLOW),
        Ok((FILETYPE_REGULAR_FILE, 1, 5))
    );
    assert_eq!(link(&mut w, &mut mem, "d", "hd"), Errno::Perm as u32);
    assert_eq!(link(&mut w, &mut mem, "hard", "d"), Errno::Exist as u32);
    // A link's own name is linked, not what it names.
    assert_eq!(symlink(&mut w, &mut mem, "hard", "soft"), 0);
    assert_eq!(link(&mut w, &mut mem, "soft", "soft2"), 0);
    assert_eq!(
        stat(&mut w, &mut mem, "soft2", 0).map(|s| s.0),
        Ok(FILETYPE_SYMBOLIC_LINK)
    );
}

#[test]
fn a_folder_lists_dot_and_dotdot_as_itself_and_its_entries_by_name_with_their_types() {
    let (mut w, mut mem) = tmp_with_a_file();
    assert_eq!(symlink(&mut w, &mut mem, "d", "-link"), 0);
    assert_eq!(
        w.call(
            "fd_readdir",
            &[TMP, DATA as u64, 1000, 0, OUT as u64],
            &mut mem
        ),
        Ok(0)
    );
    let used = u32_at(&mem, OUT) as usize;
    let page = &mem[DATA as usize..DATA as usize + used];
    let mut entries = Vec::new();
    let mut at = 0;
    while at + 24 <= page.len() {
        let inode = u64::from_le_bytes(page[at + 8..at + 16].try_into().unwrap());
        let length = u32::from_le_bytes(page[at + 16..at + 20].try_into().unwrap()) as usize;
        let name = String::from_utf8(page[at + 24..at + 24 + length].to_vec()).unwrap();
        entries.push((name, page[at + 20], inode));
        at += 24 + length;
    }
    let names: Vec<_> = entries.iter().map(|(n, t, _)| (n.as_str(), *t)).collect();
    // `-` sorts before `.`: the runner sorts the whole listing, `.` and `..` included.
    assert_eq!(
        names,
        [
            ("-link", FILETYPE_SYMBOLIC_LINK),
            (".", FILETYPE_DIRECTORY),
            ("..", FILETYPE_DIRECTORY),
            ("d", FILETYPE_DIRECTORY)
        ]
    );
    // wasmtime-wasi gives `..` the folder's own inode.
    assert_eq!(entries[1].2, entries[2].2);
}
