//! Generation: what `wasmeval generate` and `wasmeval grade` ask a model and how they read its
//! answers. Prompt templates, code extraction, the feedback of a failed attempt, and the two-stage
//! grading prompts and their parsing live here, with no I/O, so that every front end words a
//! prompt and reads an answer the same way; the runner only sends the requests.

pub mod extract;
pub mod feedback;
pub mod grading;
pub mod template;

pub use extract::{extract_code, sample_code, Extracted, ExtractionRule};
pub use feedback::{Failure, FEEDBACK_TEMPLATE};
pub use grading::{GradeDistribution, GradingRecord, TokenChoices};
pub use template::{AnswerKind, Template};
