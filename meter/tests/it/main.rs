//! The metering pass's integration tests: a module metered by `wasmeval_meter` and run without
//! fuel must count, in its global, the fuel wasmtime 48 counts for the original.

mod guests;
mod host;
mod memory;
mod small;
