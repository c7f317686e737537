//! The hidden `__confined-exec` subcommand: confines this process (rlimits, Landlock) and execs a
//! compiler. Started only by [`crate::toolchain`]; see [`crate::toolchain::confine`] for why a
//! helper process.

use crate::toolchain::confine::{Confinement, CONFINE_FAILED, FAILURE_PREFIX};
use clap::Args;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `wasmeval __confined-exec`.
#[derive(Debug, Args)]
pub struct ConfinedExecArgs {
    /// A folder or file that may be read and executed (repeatable).
    #[arg(long = "read", value_name = "PATH")]
    read: Vec<PathBuf>,
    /// A device file that may be read and written, like /dev/null (repeatable).
    #[arg(long = "device", value_name = "PATH")]
    devices: Vec<PathBuf>,
    /// A folder that may be written (repeatable; the scratch folder, and Go's build cache).
    #[arg(long = "write", value_name = "DIR", required = true)]
    write: Vec<PathBuf>,
    /// CPU seconds (RLIMIT_CPU).
    #[arg(long, value_name = "SECONDS")]
    cpu: u64,
    /// Address-space bytes (RLIMIT_AS).
    #[arg(long, value_name = "BYTES")]
    memory: u64,
    /// Largest file written, in bytes (RLIMIT_FSIZE).
    #[arg(long = "file-size", value_name = "BYTES")]
    file_size: u64,
    /// Exec even when the kernel does not enforce Landlock.
    #[arg(long = "allow-unconfined")]
    allow_unconfined: bool,
    /// Print the confinement status on stderr before the exec.
    #[arg(long)]
    report: bool,
    /// The program (absolute path) and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    command: Vec<OsString>,
}

/// Confines and execs; returns only on failure, with exit code 125 and a `wasmeval-confine:` message
/// (a code the compiler never exits with, so the parent can tell a host failure from a compile error).
pub fn run(args: ConfinedExecArgs) -> ExitCode {
    let confinement = Confinement {
        read: args.read,
        devices: args.devices,
        write: args.write,
        cpu_seconds: args.cpu,
        memory_bytes: args.memory,
        file_bytes: args.file_size,
        allow_unconfined: args.allow_unconfined,
        report: args.report,
    };
    let (program, rest) = args
        .command
        .split_first()
        .expect("clap requires the program");
    let Err(error) = confinement.exec(PathBuf::from(program).as_path(), rest);
    eprintln!("{FAILURE_PREFIX}{error:#}");
    ExitCode::from(CONFINE_FAILED as u8)
}
