//! End-to-end tests of the `wasmeval` binary: one integration-test binary for the runner crate.
//!
//! They run the real sandbox and need the Python runtime that `scripts/setup` (or `scripts/test`)
//! installs; without it they fail with a message saying so.

mod alternatives;
mod budget;
mod calls;
mod child_processes;
mod cli;
mod compiled;
mod demo;
mod equality;
mod evalplus;
mod formats;
mod fuel_budget;
mod go;
mod hostile;
mod io;
mod javascript;
mod lua;
mod multipl_e;
mod psb2;
mod python;
mod report;
mod resume;
mod ruby;
mod serve;
mod shards;
mod show;
mod support;
mod toolchain;
mod typescript;
