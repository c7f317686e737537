//! wasmeval-browser-sandbox: the sandbox in the browser.
//!
//! A Web Worker (`browser-sandbox/worker.js`, a few lines that load this module) runs a sample
//! of a Python or JavaScript task the way `wasmeval run` does, with no server: core's
//! `evaluation` plans the executions and judges them ([`wasmeval_core::evaluation::evaluate`],
//! the same drive as the runner's), [`guest`] runs each one in V8 on
//! `wasmeval-virtual-wasi` (WASI on virtual time, seeded randomness, in-memory files, one output
//! budget) with the guest modules metered at site-build time (a fuel counter the module itself
//! decrements, so the budget is deterministic here too), and [`loading`] fetches the guests the
//! site ships (`runtimes/`), keeps them in the Cache API, and reads the Python standard library
//! in chunks, only where imports read.
//!
//! The wall-clock backstop is the page's: it terminates the worker (`Worker.terminate`) when a
//! run outlives `--timeout`, so an endless loop never freezes the tab.

#[cfg(target_arch = "wasm32")]
mod guest;
#[cfg(target_arch = "wasm32")]
mod loading;
#[cfg(target_arch = "wasm32")]
mod worker;

/// What the page asks the worker: evaluate `sample` of `task` under `limits`.
#[derive(Debug, serde::Deserialize)]
pub struct Request {
    /// The task, as in a bundle.
    pub task: wasmeval_core::Task,
    /// The sample.
    pub sample: wasmeval_core::Sample,
    /// The limits.
    pub limits: Limits,
    /// The URL of the site's `runtimes/` folder (ending in `/`).
    pub runtimes: String,
}

/// The limits of a sample (core's, shared with the page).
pub use wasmeval_core::evaluation::BrowserLimits as Limits;

/// What the worker answers.
#[derive(Debug, serde::Serialize)]
pub struct Answer {
    /// The sample's result, as a line of results.jsonl.
    pub result: wasmeval_core::SampleResult,
    /// Bytes the worker downloaded for this run (guests and standard library chunks not cached
    /// yet).
    pub downloaded: u64,
    /// Whether the guests ran on stacks of their own (JavaScript Promise Integration), where a
    /// guest's recursion reaches its interpreter's own limit before the browser's stack ends
    /// (ARCHITECTURE.md, "The browser").
    pub own_stacks: bool,
}
