//! A metering pass for WebAssembly modules run where there is no fuel (the browser's V8): the
//! output module counts, in an exported global, the fuel wasmtime 48 would count for the
//! original module, and traps when wasmtime would run out.
//!
//! The contract with the host:
//! - The output exports a mutable `i64` global [`FUEL_GLOBAL`], the fuel left. Set it to the
//!   budget before a run (as `Store::set_fuel`), read it after: on a run that returns or exits,
//!   `budget - global` is the fuel wasmtime reports as consumed for the original module.
//! - The module traps with `unreachable` where wasmtime would trap out of fuel (at a function
//!   entry, a loop header or a large bulk operation, once the fuel left is zero or less), and
//!   leaves the global negative. After a *trap*, a negative global means "out of fuel"; after a
//!   return or an exit it means nothing (wasmtime too lets a run end past its budget when no
//!   check comes).
//! - `memory.grow` (memory 0) calls the import [`GROW_MODULE`].[`GROW_FIELD`]`(delta_pages: i32)
//!   -> i32`: the host grows the exported memory up to its limit and returns the old size in
//!   pages, or -1 (and remembers the denial: the `memory_limit` verdict). A defined memory 0
//!   without a maximum gets 65536 pages (4 GiB) so the host can grow it to any limit; a declared
//!   maximum stays. The memory's initial size is never grown by `memory.grow`: the host checks
//!   [`Memory::initial_pages`] against its limit before instantiating.
//! - Every other import and export is unchanged. The import is added after the module's
//!   function imports, so defined functions move up by one index (calls, `ref.func`, elements,
//!   exports and start follow); the `name` section and DWARF (`.debug_*`) are dropped.
//!
//! Modules with 64-bit memories or tables, custom page sizes, or GC array operators with
//! per-element costs are refused ([`MeterError::Unsupported`]).

mod code;
mod cost;
mod module;

/// The exported global holding the fuel left.
pub const FUEL_GLOBAL: &str = "wasmeval_fuel";
/// The fuel global's value at instantiation: a start function runs on it, and the host then
/// sets the budget less what the start function used (`budget - (FUEL_AT_START - global)`).
pub const FUEL_AT_START: i64 = i64::MAX;
/// The module name of the import that replaces `memory.grow`.
pub const GROW_MODULE: &str = "wasmeval";
/// The field name of the import that replaces `memory.grow`.
pub const GROW_FIELD: &str = "memory_grow";

/// A metered module.
#[derive(Debug, Clone)]
pub struct Instrumented {
    /// The module's bytes.
    pub bytes: Vec<u8>,
    /// Memory 0 as the original module declares it, if it has one.
    pub memory: Option<Memory>,
}

/// Memory 0 of the original module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memory {
    /// Pages (64 KiB) the module starts with: allocated at instantiation, before any
    /// `memory.grow`, so the host checks them against its limit itself.
    pub initial_pages: u64,
    /// The maximum the module declares, if any.
    pub maximum_pages: Option<u64>,
    /// Whether the memory is imported (then its maximum is the host's to choose).
    pub imported: bool,
}

/// Why a module cannot be metered.
#[derive(Debug, thiserror::Error)]
pub enum MeterError {
    /// The input is not a valid module.
    #[error("invalid module: {0}")]
    Parse(#[from] wasmparser::BinaryReaderError),
    /// A section could not be written again.
    #[error("cannot re-encode the module: {0}")]
    Reencode(String),
    /// The module uses something the pass does not meter.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The module already uses a name the pass adds.
    #[error("the module already has `{0}`")]
    NameTaken(String),
}

/// Meters `module` (see the crate's documentation for the contract).
pub fn instrument(module: &[u8]) -> Result<Instrumented, MeterError> {
    module::instrument(module)
}
