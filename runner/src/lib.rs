//! wasmeval's runner: turns samples into sandboxed WASI executions and writes the results.
//!
//! Layers, bottom up: [`sandbox`] runs one WASI module under limits; [`python`] runs one Python
//! sample against its task's tests on top of it and decides verdicts ([`javascript`] the same for
//! JavaScript); [`evaluate`] runs many samples
//! in parallel; [`store`] keeps the results on disk so a killed run resumes; [`commands`] are the
//! subcommands and [`cli`] their flags.

pub mod analysis;
pub mod cli;
pub mod commands;
pub mod evaluate;
pub mod evaluator;
pub mod input;
pub mod io_tests;
pub mod javascript;
pub mod python;
pub mod sandbox;
pub mod store;
pub mod toolchain;
