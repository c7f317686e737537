//! Captured stdout/stderr: in memory, with one byte budget shared by both streams.
//!
//! A write that would exceed the budget traps the guest instead of failing with an error it could
//! catch and ignore (a capped pipe that returns EIO lets a hostile guest carry on writing forever).

use bytes::Bytes;
use std::sync::{Arc, Mutex};
pub use wasmeval_core::judging::Output;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError};

/// The error a guest's write traps with once the output budget is spent.
#[derive(Debug, thiserror::Error)]
#[error("output limit of {limit} bytes exceeded")]
pub struct OutputLimitExceeded {
    /// The budget, in bytes.
    pub limit: u64,
}

/// What both streams kept, with the shared budget's rule (`wasmeval_virtual_wasi::Output`, as
/// the browser's sandbox keeps it).
type Buffers = wasmeval_virtual_wasi::Output;

/// Both output streams of one execution.
#[derive(Debug, Clone)]
pub struct CapturedOutput {
    limit: u64,
    buffers: Arc<Mutex<Buffers>>,
}

impl CapturedOutput {
    /// A pair of streams that together accept at most `limit` bytes.
    pub fn new(limit: u64) -> Self {
        CapturedOutput {
            limit,
            buffers: Arc::default(),
        }
    }

    /// The stdout stream to give the guest.
    pub fn stdout(&self) -> Stream {
        Stream {
            output: self.clone(),
            is_stderr: false,
        }
    }

    /// The stderr stream to give the guest.
    pub fn stderr(&self) -> Stream {
        Stream {
            output: self.clone(),
            is_stderr: true,
        }
    }

    /// Whether the guest tried to write more than the budget.
    pub fn exceeded(&self) -> bool {
        self.buffers.lock().expect("output lock").written > self.limit
    }

    /// Takes what was written so far.
    pub fn take(&self) -> Output {
        let mut buffers = self.buffers.lock().expect("output lock");
        let taken = std::mem::take(&mut *buffers);
        Output {
            stdout: taken.stdout,
            stderr: taken.stderr,
            written: taken.written,
        }
    }

    /// Appends the host's own `bytes` to stdout (report lines the guest cannot write), within the
    /// same budget: past it, the execution ends as an output limit, as for the guest's writes.
    pub fn append_stdout(&self, bytes: &[u8]) -> wasmtime::Result<()> {
        self.write(false, bytes).map_err(|error| match error {
            StreamError::Trap(error) => error,
            other => wasmtime::Error::msg(other.to_string()),
        })
    }

    fn write(&self, is_stderr: bool, bytes: &[u8]) -> Result<(), StreamError> {
        let mut buffers = self.buffers.lock().expect("output lock");
        if !buffers.write(self.limit, is_stderr, bytes) {
            return Err(StreamError::Trap(wasmtime::Error::new(
                OutputLimitExceeded { limit: self.limit },
            )));
        }
        Ok(())
    }
}

/// One of the two streams; writes go to the shared budget.
#[derive(Debug, Clone)]
pub struct Stream {
    output: CapturedOutput,
    is_stderr: bool,
}

impl IsTerminal for Stream {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for Stream {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        // Only WASIp1 guests run here, and they reach stdio through `p2_stream`.
        unreachable!("wasmeval runs WASIp1 guests only")
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for Stream {
    async fn ready(&mut self) {}
}

impl OutputStream for Stream {
    fn write(&mut self, bytes: Bytes) -> Result<(), StreamError> {
        self.output.write(self.is_stderr, &bytes)
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        // Always accept a write: an over-budget one traps in `write`, where the guest cannot
        // treat it as an ordinary I/O error.
        Ok(64 * 1024)
    }
}
