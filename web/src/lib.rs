//! wasmeval-web: the static site that opens a results bundle in the browser.
//!
//! Placeholder until the site's own issue: the crate exists so the workspace has its final shape and
//! the site can only ever depend on `wasmeval-core` for its numbers.

pub use wasmeval_core as core;
