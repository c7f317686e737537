//! wasmeval-core: the data model, file formats and metrics of wasmeval.
//!
//! This crate does no I/O: it turns text into values and values into numbers. It builds for the host
//! and for `wasm32-unknown-unknown`, so the command line and the browser compute every number a user
//! sees with the same code.

pub mod agreement;
pub mod code_metrics;
pub mod compare;
pub mod evaluation;
pub mod facets;
pub mod formats;
pub mod generation;
pub mod int_width;
pub mod judging;
pub mod metrics;
pub mod query;
pub mod reference_outputs;
pub mod reference_tables;
pub mod report;
pub mod results;
pub mod review;
pub mod sample;
pub mod show;
mod source_scan;
pub mod synthetic;
pub mod task;

pub use results::{CaseResult, JudgedBy, RunSummary, SampleResult, TimeoutCause, Verdict};
pub use sample::{Grades, Sample, SampleCode, SampleInfo, Shard};
pub use task::{
    AssertionCase, AssertionSet, CallCase, CallCheck, Complexity, IoCase, Language, Metadata,
    OutputComparison, Reference, Source, SourceKind, Task, TaskId, TestSuite,
};

/// Version of every file format this crate reads and writes (tasks, results, summary).
///
/// Bump it when a field changes meaning or disappears; adding an optional field does not need a bump.
pub const FORMAT_VERSION: u32 = 1;
