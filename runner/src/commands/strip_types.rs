//! The hidden `__strip-types` subcommand: strips TypeScript types from pieces of source in a child
//! process of its own, so that a program which overflows the parser's stack or exhausts memory
//! ends this process, not the one evaluating (oxc's recursive-descent parser has no depth
//! limit: 100,000 nested brackets overflow any stack). Started only by
//! [`crate::languages::typescript`], which reads the outcome.
//!
//! Protocol: stdin is a JSON array of source texts; stdout is a JSON array, in the same order, of
//! `{"ok": javascript}` or `{"error": "line L, column C: message"}`. The process reads its input
//! first, then lowers its own limits (CPU time, address space, no files written, no core dumps)
//! and, where the kernel has Landlock, gives up every file-system right, before it parses anything.

use crate::languages::typescript::strip_types;
use crate::toolchain::confine::Confinement;
use std::io::{Read, Write};
use std::process::ExitCode;

/// Largest input accepted on stdin: more than any piece a sample and its task can hold.
pub const MAX_INPUT: u64 = 64 << 20;
/// The stripper's CPU seconds.
pub const CPU_SECONDS: u64 = 10;
/// The stripper's address space: oxc's arena grows with the program; a 1 MiB program of nested
/// braces is stopped here, not by the host's memory.
pub const MEMORY_BYTES: u64 = 2 << 30;

/// Reads the pieces, confines itself and answers; exit code 0 when it answered.
pub fn run() -> ExitCode {
    let mut input = Vec::new();
    if let Err(error) = std::io::stdin().take(MAX_INPUT).read_to_end(&mut input) {
        eprintln!("wasmeval __strip-types: cannot read stdin: {error}");
        return ExitCode::from(2);
    }
    let pieces: Vec<String> = match serde_json::from_slice(&input) {
        Ok(pieces) => pieces,
        Err(error) => {
            eprintln!("wasmeval __strip-types: stdin is not a JSON array of strings: {error}");
            return ExitCode::from(2);
        }
    };
    drop(input);
    let confinement = Confinement {
        read: Vec::new(),
        devices: Vec::new(),
        write: Vec::new(),
        cpu_seconds: CPU_SECONDS,
        memory_bytes: MEMORY_BYTES,
        file_bytes: 0,
        // The limits above are what contain a parser; Landlock is defence in depth, taken
        // where the kernel has it.
        allow_unconfined: true,
        report: false,
    };
    if let Err(error) = confinement.confine_self() {
        eprintln!("wasmeval __strip-types: cannot confine itself: {error:#}");
        return ExitCode::from(2);
    }
    let answers: Vec<serde_json::Value> = pieces
        .iter()
        .map(|piece| match strip_types(piece) {
            Ok(javascript) => serde_json::json!({ "ok": javascript }),
            Err(error) => serde_json::json!({ "error": error }),
        })
        .collect();
    let mut stdout = std::io::stdout().lock();
    let written = serde_json::to_writer(&mut stdout, &answers)
        .map_err(std::io::Error::from)
        .and_then(|()| stdout.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("wasmeval __strip-types: cannot write stdout: {error}");
            ExitCode::from(2)
        }
    }
}
