//! wasmeval's runner: turns samples into sandboxed WASI executions and writes the results.
//!
//! Layers, bottom up: [`sandbox`] runs one WASI module under limits; [`toolchain`] compiles C,
//! C++ and Rust sources into modules, confined; [`languages`] runs one sample of each language
//! against its task's tests on top of them, judged by `wasmeval_core::judging`; [`evaluator`]
//! picks the language; [`worker_pool`] runs many samples in parallel; [`store`] keeps the results
//! on disk so a killed run resumes; [`commands`] are the subcommands and [`cli`] their flags.

pub mod analysis;
pub mod atomic_file;
pub mod cache_bound;
pub mod child_evaluators;
pub mod cli;
pub mod commands;
pub mod errors;
pub mod evaluator;
pub mod input;
pub mod languages;
pub mod model_client;
pub mod reference_outputs;
pub mod sandbox;
pub mod server;
pub mod site_guests;
pub mod store;
pub mod temp_space;
pub mod toolchain;
pub mod worker_pool;
