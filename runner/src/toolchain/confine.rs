//! Confinement of a compiler process: rlimits and Landlock, applied by a helper process to itself
//! just before it `exec`s the compiler.
//!
//! Why a helper process (`wasmeval __confined-exec ... -- /path/rustc args`) rather than a
//! `pre_exec` hook: the workspace denies `unsafe_code`, and `CommandExt::pre_exec` is unsafe (it runs
//! between `fork` and `exec`, where only async-signal-safe calls are allowed). The helper is an
//! ordinary single-threaded process, so it can restrict itself with safe APIs (`landlock`,
//! `rustix::process::setrlimit`) and then replace itself with the compiler, which inherits both.
//!
//! The parent ([`super::Toolchains`]) clears the environment, picks a fresh scratch folder as the
//! working directory, puts the helper in its own process group (so the wall-clock backstop can kill
//! the compiler and its linker together) and reads its output with a cap.

use anyhow::{bail, Context, Result};
use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, LandlockStatus, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};
use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};

/// The hidden subcommand of the `wasmeval` binary that confines itself and execs a program.
pub const SUBCOMMAND: &str = "__confined-exec";

/// Exit code of the helper when it could not confine itself (or could not exec). rustc itself exits
/// with 0, 1 or 101 (or dies by a signal), and the compiled source cannot choose rustc's exit code,
/// so this code together with [`FAILURE_PREFIX`] at the start of stderr means "host failure".
pub const CONFINE_FAILED: i32 = 125;

/// First bytes of the helper's own messages on stderr (failures and `--report` lines).
pub const FAILURE_PREFIX: &str = "wasmeval-confine: ";

/// Prefix of the status line printed with `--report`, before the exec.
pub const REPORT_PREFIX: &str = "wasmeval-confine: landlock ";

/// What the helper does to itself before the exec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confinement {
    /// Folders and files that may be read (and executed): the toolchain and the system's shared
    /// libraries. Paths that do not exist are skipped.
    pub read: Vec<PathBuf>,
    /// Files that may be read and written but are not folders (`/dev/null`).
    pub devices: Vec<PathBuf>,
    /// The folders that may be written: the compilation's scratch folder (and, for Go, its
    /// build cache).
    pub write: Vec<PathBuf>,
    /// RLIMIT_CPU soft limit in seconds (SIGXCPU); the hard limit is one second more (SIGKILL).
    pub cpu_seconds: u64,
    /// RLIMIT_AS in bytes.
    pub memory_bytes: u64,
    /// RLIMIT_FSIZE in bytes: the largest file the compiler may write (SIGXFSZ beyond).
    pub file_bytes: u64,
    /// Run even when the kernel does not enforce Landlock (development machines only).
    pub allow_unconfined: bool,
    /// Print one `wasmeval-confine: landlock ...` line on stderr before the exec.
    pub report: bool,
}

impl Confinement {
    /// The helper's command-line arguments (after the subcommand name) for running `program`.
    pub fn to_args(&self, program: &Path, args: &[OsString]) -> Vec<OsString> {
        let mut out: Vec<OsString> = vec![SUBCOMMAND.into()];
        for path in &self.read {
            out.push("--read".into());
            out.push(path.into());
        }
        for path in &self.devices {
            out.push("--device".into());
            out.push(path.into());
        }
        for path in &self.write {
            out.push("--write".into());
            out.push(path.into());
        }
        out.push("--cpu".into());
        out.push(self.cpu_seconds.to_string().into());
        out.push("--memory".into());
        out.push(self.memory_bytes.to_string().into());
        out.push("--file-size".into());
        out.push(self.file_bytes.to_string().into());
        if self.allow_unconfined {
            out.push("--allow-unconfined".into());
        }
        if self.report {
            out.push("--report".into());
        }
        out.push("--".into());
        out.push(program.into());
        out.extend(args.iter().cloned());
        out
    }

    /// Confines the calling process and replaces it with `program`. Returns only on failure.
    ///
    /// Must run while the process has a single thread: Landlock restricts the calling thread (and
    /// what it later execs), not its siblings.
    pub fn exec(&self, program: &Path, args: &[OsString]) -> Result<std::convert::Infallible> {
        self.apply_rlimits()?;
        let status = self.apply_landlock()?;
        if self.report {
            eprintln!("{REPORT_PREFIX}{status}");
        }
        // The environment was cleared by the parent; the exec'd program inherits it, the rlimits,
        // the Landlock domain and no_new_privs (set by `restrict_self`), which also stops set-uid
        // binaries from shedding the restrictions.
        let error = std::process::Command::new(program).args(args).exec();
        Err(error).with_context(|| format!("cannot execute {}", program.display()))
    }

    /// Confines the calling process and goes on (for a helper that does its own work, like
    /// `__strip-types`, rather than exec a compiler). The same single-thread rule as [`Self::exec`].
    pub fn confine_self(&self) -> Result<()> {
        self.apply_rlimits()?;
        self.apply_landlock()?;
        Ok(())
    }

    fn apply_rlimits(&self) -> Result<()> {
        // The hard CPU limit one second above the soft one: SIGXCPU first (rustc dies of it, as it
        // does not handle it), SIGKILL as the backstop if it did.
        limit(
            Resource::Cpu,
            self.cpu_seconds.max(1),
            self.cpu_seconds.max(1).saturating_add(1),
        )?;
        // Address space rather than RSS: RSS is not limitable on Linux, and a compile-time memory
        // bomb (a huge const array) allocates before it touches, so RLIMIT_AS stops it at the
        // allocation. rustc needs about 0.5 GiB of address space for a small program.
        limit(Resource::As, self.memory_bytes, self.memory_bytes)?;
        // The compiler writes its module and temporary files into the scratch folder; a source
        // that expands into a gigabyte data section must not fill the host's disk.
        limit(Resource::Fsize, self.file_bytes, self.file_bytes)?;
        // No core dumps of a crashed compiler (they would land in the scratch folder or wherever
        // core_pattern points).
        limit(Resource::Core, 0, 0)?;
        Ok(())
    }

    /// Installs the Landlock ruleset; describes what the kernel enforces.
    fn apply_landlock(&self) -> Result<String> {
        // The newest ABI this crate knows; best-effort compatibility (the default) drops what the
        // running kernel lacks, and we then check that reading is restricted at all.
        let abi = ABI::V9;
        let read = AccessFs::from_read(abi);
        let all = AccessFs::from_all(abi);
        let ruleset = Ruleset::default()
            .handle_access(all)
            .context("landlock: file-system rights")?
            // Handled with no rule allowing anything: no TCP bind or connect.
            .handle_access(AccessNet::from_all(abi))
            .context("landlock: network rights")?
            // No signals to, and no abstract sockets of, processes outside the domain.
            .scope(Scope::from_all(abi))
            .context("landlock: scopes")?
            .create()
            .context("landlock: creating the ruleset")?
            .add_rules(path_beneath_rules(&self.read, read))
            .context("landlock: read rules")?
            .add_rules(path_beneath_rules(
                &self.devices,
                AccessFs::ReadFile | AccessFs::WriteFile,
            ))
            .context("landlock: device rules")?
            .add_rules(path_beneath_rules(&self.write, all))
            .context("landlock: scratch rule")?;
        let status = ruleset
            .restrict_self()
            .context("landlock: restricting the process")?;
        let abi_text = match status.landlock {
            LandlockStatus::Available {
                effective_abi,
                kernel_abi,
            } => match kernel_abi {
                Some(kernel) => format!("abi={} kernel-abi={kernel}", effective_abi as i32),
                None => format!("abi={}", effective_abi as i32),
            },
            LandlockStatus::NotEnabled => "not enabled in the kernel".to_owned(),
            LandlockStatus::NotImplemented => "not built into the kernel".to_owned(),
        };
        let description = format!(
            "{} {abi_text} no_new_privs={}",
            match status.ruleset {
                RulesetStatus::FullyEnforced => "fully-enforced",
                RulesetStatus::PartiallyEnforced => "partially-enforced",
                RulesetStatus::NotEnforced => "not-enforced",
            },
            status.no_new_privs
        );
        if status.ruleset == RulesetStatus::NotEnforced && !self.allow_unconfined {
            bail!(
                "Landlock is not enforced on this kernel ({abi_text}); refusing to compile untrusted \
                 code without it (pass allow_unconfined to accept the risk)"
            );
        }
        Ok(description)
    }
}

/// Lowers a limit; never asks for more than the current hard limit (which would fail unprivileged).
fn limit(resource: Resource, soft: u64, hard: u64) -> Result<()> {
    let current = getrlimit(resource);
    let hard = current.maximum.map_or(hard, |max| hard.min(max));
    let soft = soft.min(hard);
    setrlimit(
        resource,
        Rlimit {
            current: Some(soft),
            maximum: Some(hard),
        },
    )
    .with_context(|| format!("setrlimit {resource:?}"))
}

/// How a confined program ended, as the parent saw it.
#[derive(Debug)]
pub struct Finished {
    /// Its exit status.
    pub status: std::process::ExitStatus,
    /// The first bytes of its stdout (at most the cap given to [`run`]).
    pub stdout: Vec<u8>,
    /// The first bytes of its stderr (at most the cap given to [`run`]).
    pub stderr: Vec<u8>,
    /// Bytes of output discarded beyond the cap (both streams).
    pub discarded: u64,
    /// The wall-clock backstop killed it.
    pub wall_killed: bool,
}

/// The build time every compilation claims: 2000-01-01 00:00:00 UTC.
pub const SOURCE_DATE_EPOCH: &str = "946684800";

/// Runs `program args` under `confinement` through the helper binary `helper` (a `wasmeval`
/// executable), in `cwd` (the scratch folder, also its TMPDIR), with an otherwise empty
/// environment (but for [`SOURCE_DATE_EPOCH`] and `env`, which only Go's compiler needs), keeping at most `output_cap` bytes of each output
/// stream and killing the whole process group after `wall`.
///
/// `Err` only when the helper could not be started or waited for.
// Each argument is a different part of one confined run; grouping them would only move the list.
#[allow(clippy::too_many_arguments)]
pub fn run(
    helper: &Path,
    confinement: &Confinement,
    program: &Path,
    args: &[OsString],
    env: &[(OsString, OsString)],
    cwd: &Path,
    output_cap: usize,
    wall: std::time::Duration,
) -> Result<Finished> {
    let mut command = std::process::Command::new(helper);
    command
        .args(confinement.to_args(program, args))
        .current_dir(cwd)
        // Nothing of the host's environment reaches the compiler: no HOME or PATH for `env!` to
        // leak, and no RUSTC_BOOTSTRAP (which would unlock `#![feature]` on stable), RUSTFLAGS or
        // RUSTC_LOG to change what it does.
        .env_clear();
    // rustc's temporary files belong in the scratch folder, the only writable place.
    command.env("TMPDIR", cwd);
    // A fixed build time: clang's __DATE__, __TIME__ and __TIMESTAMP__ follow it, so the host's
    // clock never reaches a module and a cold cache builds the same module as a warm one.
    command.env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH);
    command.envs(env.iter().map(|(k, v)| (k, v)));
    run_child(command, None, output_cap, wall)
}

/// Starts `command` (its stdio and process group are set here), writes `stdin` to it when given
/// (else its stdin is empty), keeps at most `output_cap` bytes of each output stream and kills its
/// whole process group after `wall`. `Err` only when it could not be started or waited for.
pub fn run_child(
    mut command: std::process::Command,
    stdin: Option<Vec<u8>>,
    output_cap: usize,
    wall: std::time::Duration,
) -> Result<Finished> {
    use std::process::Stdio;
    command
        .stdin(match stdin {
            Some(_) => Stdio::piped(),
            None => Stdio::null(),
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so the backstop kills what it started too.
        .process_group(0);
    let started = std::time::Instant::now();
    let mut child = command
        .spawn()
        .with_context(|| format!("cannot start {}", command.get_program().to_string_lossy()))?;
    let group = rustix::process::Pid::from_child(&child);
    // Written from a thread: a child that does not read its input must not block the parent.
    let writer = child.stdin.take().zip(stdin).map(|(mut pipe, bytes)| {
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = pipe.write_all(&bytes);
        })
    });
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let stdout = std::thread::spawn(move || read_capped(stdout, output_cap));
    let stderr = std::thread::spawn(move || read_capped(stderr, output_cap));
    let mut wall_killed = false;
    let status = loop {
        if let Some(status) = child.try_wait().context("waiting for a child process")? {
            break status;
        }
        if started.elapsed() >= wall {
            wall_killed = true;
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
            break child.wait().context("waiting for a killed child process")?;
        }
        // Polling costs at most this much latency per child (~170 ms for a small compilation).
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    // Whatever it left behind in its group (a linker) goes too, so the pipes close and the
    // readers below return. ESRCH (nothing left) is the usual case.
    let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let (stdout, lost_out) = stdout.join().expect("stdout reader");
    let (stderr, lost_err) = stderr.join().expect("stderr reader");
    Ok(Finished {
        status,
        stdout,
        stderr,
        discarded: lost_out + lost_err,
        wall_killed,
    })
}

/// Reads a stream to its end, keeping the first `cap` bytes; the number of bytes discarded.
/// Reading on after the cap keeps the writer from blocking on a full pipe.
fn read_capped(mut reader: impl std::io::Read, cap: usize) -> (Vec<u8>, u64) {
    let mut kept = Vec::new();
    let mut discarded = 0u64;
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                let take = n.min(cap - kept.len());
                kept.extend_from_slice(&chunk[..take]);
                discarded += (n - take) as u64;
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    (kept, discarded)
}

/// Parses the `--report` line's description, if `stderr` starts with one.
pub fn parse_report(stderr: &str) -> Option<&str> {
    stderr.lines().next()?.strip_prefix(REPORT_PREFIX)
}

/// The shared libraries `binaries` load, as the dynamic loader resolves them (`ldd`, transitively),
/// and the loader itself: what a confined compiler needs of the host's library folders, and
/// nothing else (not their other files, not the loader's cache of every library's path). `None`
/// when `ldd` is missing or cannot resolve one (the caller then allows the library folders whole).
pub fn shared_libraries(binaries: &[&Path]) -> Option<Vec<PathBuf>> {
    let mut libraries = Vec::new();
    for binary in binaries {
        let output = std::process::Command::new("ldd")
            .arg(binary)
            .output()
            .ok()?;
        if !output.status.success() {
            return None;
        }
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            if line.contains("not found") {
                return None;
            }
            // `\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x..)` or
            // `\t/lib64/ld-linux-x86-64.so.2 (0x..)`; the vDSO has no file.
            let resolved = line
                .rsplit_once("=> ")
                .map_or(line, |(_, path)| path)
                .trim();
            let path = resolved.split(" (").next().unwrap_or_default();
            if path.starts_with('/') && !libraries.iter().any(|p: &PathBuf| p == Path::new(path)) {
                libraries.push(PathBuf::from(path));
            }
        }
    }
    Some(libraries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_name_every_limit_and_end_with_the_program() {
        let confinement = Confinement {
            read: vec!["/usr/lib".into(), "/opt/sysroot".into()],
            devices: vec!["/dev/null".into()],
            write: vec!["/tmp/scratch".into()],
            cpu_seconds: 3,
            memory_bytes: 1 << 30,
            file_bytes: 1 << 20,
            allow_unconfined: false,
            report: true,
        };
        let args = confinement.to_args(Path::new("/opt/sysroot/bin/rustc"), &["-vV".into()]);
        let text: Vec<&str> = args.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            text,
            [
                SUBCOMMAND,
                "--read",
                "/usr/lib",
                "--read",
                "/opt/sysroot",
                "--device",
                "/dev/null",
                "--write",
                "/tmp/scratch",
                "--cpu",
                "3",
                "--memory",
                "1073741824",
                "--file-size",
                "1048576",
                "--report",
                "--",
                "/opt/sysroot/bin/rustc",
                "-vV"
            ]
        );
    }

    #[test]
    fn capped_reading_keeps_the_head_and_counts_the_rest() {
        let (kept, discarded) = read_capped(&[7u8; 100_000][..], 1000);
        assert_eq!(kept, vec![7u8; 1000]);
        assert_eq!(discarded, 99_000);
    }

    #[test]
    fn report_lines_are_recognised_only_at_the_start() {
        assert_eq!(
            parse_report("wasmeval-confine: landlock fully-enforced abi=7\nrustc 1.95"),
            Some("fully-enforced abi=7")
        );
        assert_eq!(parse_report("error: x\nwasmeval-confine: landlock y"), None);
    }
}
