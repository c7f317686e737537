//! Reading and writing the file formats wasmeval understands; text in, values out.
//!
//! Every reader names the file and line of bad input in its error. Decompression and file access
//! belong to the caller (the runner); these functions see text only.

pub mod aixbench;
pub mod answers;
pub mod compiled_asserts;
pub mod evalplus;
pub mod go_asserts;
mod go_values;
pub mod ground_truth;
pub mod humaneval;
pub mod humaneval_x;
pub mod javascript_asserts;
pub mod jsonl;
pub mod lua_asserts;
pub mod mbpp;
pub mod multipl_e;
pub mod psb2;
pub mod python_asserts;
pub mod ruby_asserts;
pub mod sample_sources;
pub mod sceneval;
pub mod tasks;

pub use jsonl::FormatError;
