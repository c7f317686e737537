//! Failures the user can fix, told apart from wasmeval's own, and the process's exit codes.
//!
//! Commands return `anyhow::Error`; a failure whose chain holds an [`ExpectedError`] or a
//! `wasmeval_core::formats::FormatError` (bad input that names its file and line) exits with
//! [`EXIT_BAD_INPUT`], any other with [`EXIT_FAILURE`].

use std::path::PathBuf;

/// Exit code for any failure of wasmeval itself.
pub const EXIT_FAILURE: u8 = 1;
/// Exit code when the input files or flags are malformed or inconsistent.
pub const EXIT_BAD_INPUT: u8 = 2;

/// A failure caused by what the user gave, with what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum ExpectedError {
    /// A flag's value, or an input that is not what it should be (outside a file's lines, which
    /// `FormatError` names).
    #[error("{0}")]
    BadInput(String),
    /// Another `wasmeval run` is writing to the output folder.
    #[error(
        "{} is in use by another wasmeval run (process {holder}); wait for it, or choose another --out",
        folder.display()
    )]
    FolderInUse {
        /// The output folder.
        folder: PathBuf,
        /// The process holding it, as its lock file says.
        holder: String,
    },
    /// The output folder holds an unfinished run over other inputs, runtimes or limits.
    #[error(
        "{} holds results of a run with other {differs}; choose another --out, or pass --fresh to discard them",
        folder.display()
    )]
    OtherRunInFolder {
        /// The output folder.
        folder: PathBuf,
        /// What differs, e.g. `samples, limits`.
        differs: String,
    },
}

/// The exit code for `error`.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    let expected = error.chain().any(|cause| {
        cause.is::<wasmeval_core::formats::FormatError>() || cause.is::<ExpectedError>()
    });
    if expected {
        EXIT_BAD_INPUT
    } else {
        EXIT_FAILURE
    }
}
