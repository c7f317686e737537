//! Snapshots of an interpreter after it has run some code: a new module whose memory and globals
//! start where the instance's were, so that every execution starts there for free (copy-on-write
//! from the module's memory image) instead of paying for that code again.
//!
//! How (the idea of Wizer, written for this sandbox's reactors): the module is given exports for
//! its mutable globals (wasmtime reads only exported ones), instantiated in a store of this
//! sandbox (same WASI view as an execution), entered through its `turn` export with the code, and
//! then its memory and globals are written back into the original module: new initial values for
//! the globals, the memory's minimum size, and active data segments for the memory's non-zero
//! bytes. Every other section is copied byte for byte, so the code and its fuel are unchanged.
//!
//! What a snapshot cannot carry, and so refuses: host state the code created (a file descriptor
//! left open, checked by the caller's code), a table that grew, a start function, data segments
//! used by `memory.init` after active ones (their indices would move).

use super::door::{Door, Partner};
use super::{Invocation, Limits, Sandbox};
use anyhow::{bail, Context};
use std::time::Instant;
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{
    ConstExpr, DataCountSection, DataSection, ExportKind, ExportSection, GlobalSection,
    MemorySection, Module as Encoded, RawSection,
};
use wasmparser::{Parser, Payload, TypeRef};
use wasmtime::Val;

/// Prefix of the exports given to the module's mutable globals and tables while the snapshot is
/// taken.
const STATE_EXPORT: &str = "__wasmeval_snapshot_";

/// Zero bytes shorter than this between two non-zero runs stay inside one data segment: a
/// segment costs a few bytes of header, and wasmtime's image is made of whole pages anyway.
const MERGE_GAP: usize = 1024;

/// What the snapshot carries over: the values of the module's mutable globals (by global index)
/// and its memory's bytes.
#[derive(Debug, Clone)]
pub struct State {
    /// (global index, value) of each mutable global.
    pub globals: Vec<(u32, Val)>,
    /// The whole linear memory (memory 0).
    pub memory: Vec<u8>,
}

impl Sandbox {
    /// `wasm` (a reactor exporting `turn`, `host_alloc` and `memory`, as the Python guest does)
    /// after running `code` in one turn with `invocation`'s view, as a new module. The turn must
    /// end normally and write nothing to stderr, or there is no snapshot.
    ///
    /// Compiles `wasm` (with exports added) for this engine first, or loads it from the
    /// machine-code cache in `cache_dir`: for a large interpreter the first time takes as long
    /// as its own first compilation; later snapshots (another `WASMEVAL_HOME` sharing the
    /// cache, as the Python package's tests and Ray workers do) take a second.
    pub fn snapshot_after_turn(
        &self,
        wasm: &[u8],
        invocation: &Invocation,
        limits: &Limits,
        code: &str,
        cache_dir: &std::path::Path,
    ) -> anyhow::Result<Vec<u8>> {
        let (exporting, globals) = with_globals_exported(wasm)?;
        let module = super::cache::load_module(&self.engine, &exporting, cache_dir)
            .context("cannot compile the module to snapshot")?;
        let _admission = self.running.enter();
        let (mut store, output) = self.store(invocation, limits, Door::Closed)?;
        let instance = match self.instantiate(&mut store, &module, &output, Instant::now())? {
            Ok(instance) => instance,
            Err(refused) => bail!("the module to snapshot cannot start: {:?}", refused.exit),
        };
        let table_sizes = |store: &mut wasmtime::Store<_>| -> Vec<u64> {
            let mut sizes = Vec::new();
            while let Some(table) =
                instance.get_table(&mut *store, &format!("{STATE_EXPORT}table{}", sizes.len()))
            {
                sizes.push(table.size(&*store));
            }
            sizes
        };
        let tables_before = table_sizes(&mut store);
        let bookkeeping = turn_bookkeeping(wasm)?;
        let memory_export = instance
            .get_memory(&mut store, "memory")
            .context("the module exports no memory")?;
        let before: Vec<Vec<u8>> = bookkeeping
            .iter()
            .map(|range| memory_export.data(&store)[range.clone()].to_vec())
            .collect();
        let mut partner = Partner::new(store, instance, output)?;
        let turned = partner.turn(code);
        let (mut store, output) = partner.into_parts();
        let stderr = String::from_utf8_lossy(&output.take().stderr).into_owned();
        if let Err(exit) = turned {
            bail!("the snapshot's code ended the interpreter ({exit:?}): {stderr}");
        }
        if !stderr.is_empty() {
            bail!("the snapshot's code failed: {stderr}");
        }
        if table_sizes(&mut store) != tables_before {
            bail!("the snapshot's code grew a table: a snapshot cannot carry that");
        }
        let mut values = Vec::new();
        for index in globals {
            let global = instance
                .get_global(&mut store, &format!("{STATE_EXPORT}global{index}"))
                .context("a global export vanished")?;
            values.push((index, global.get(&mut store)));
        }
        let mut memory = memory_export.data(&store).to_vec();
        for (range, bytes) in bookkeeping.into_iter().zip(before) {
            memory[range].copy_from_slice(&bytes);
        }
        rewrite(
            wasm,
            &State {
                globals: values,
                memory,
            },
        )
    }
}

/// The bytes of the static variables that the `turn` export's own code writes: the reactor's
/// bookkeeping (whether a turn has run, whether it has read `argv` and the environment, which
/// make `run()` refuse and later turns skip their set-up). The snapshot restores them to their
/// values before the turn, so that it can be entered as the original can; what the turn's
/// Python code did stays.
///
/// Static variables are the stores at a constant address inside the module's data (at or above
/// its first data segment); stores into the stack frame or the heap have a pointer base.
fn turn_bookkeeping(wasm: &[u8]) -> anyhow::Result<Vec<std::ops::Range<usize>>> {
    use wasmparser::Operator;
    let (mut imported, mut turn, mut data_start) = (Imported::default(), None, u64::MAX);
    let mut body_index = 0u32;
    let mut ranges = Vec::new();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload? {
            Payload::ImportSection(section) => imported = Imported::count(&section)?,
            Payload::ExportSection(section) => {
                for export in section {
                    let export = export?;
                    if export.name == "turn" && export.kind == wasmparser::ExternalKind::Func {
                        turn = Some(export.index);
                    }
                }
            }
            Payload::DataSection(section) => {
                for data in section {
                    if let wasmparser::DataKind::Active { offset_expr, .. } = data?.kind {
                        if let Some(Ok(Operator::I32Const { value })) =
                            offset_expr.get_operators_reader().into_iter().next()
                        {
                            data_start = data_start.min(value as u32 as u64);
                        }
                    }
                }
            }
            Payload::CodeSectionEntry(body) => {
                let index = imported.functions + body_index;
                body_index += 1;
                if Some(index) != turn {
                    continue;
                }
                for op in body.get_operators_reader()? {
                    let (memarg, width) = match op? {
                        Operator::I32Store8 { memarg } | Operator::I64Store8 { memarg } => {
                            (memarg, 1)
                        }
                        Operator::I32Store16 { memarg } | Operator::I64Store16 { memarg } => {
                            (memarg, 2)
                        }
                        Operator::I32Store { memarg } | Operator::I64Store32 { memarg } => {
                            (memarg, 4)
                        }
                        Operator::I64Store { memarg } => (memarg, 8),
                        _ => continue,
                    };
                    ranges.push((memarg.offset, width));
                }
            }
            _ => {}
        }
    }
    if turn.is_none() {
        bail!("the module exports no `turn` function");
    }
    Ok(ranges
        .into_iter()
        .filter(|&(offset, _)| offset >= data_start)
        .map(|(offset, width)| offset as usize..offset as usize + width)
        .collect())
}

/// `wasm` with every defined mutable global exported as `{STATE_EXPORT}global{index}` and every
/// defined table as `{STATE_EXPORT}table{n}`, and the indices of those globals.
pub fn with_globals_exported(wasm: &[u8]) -> anyhow::Result<(Vec<u8>, Vec<u32>)> {
    let mut out = Encoded::new();
    let mut imported = Imported::default();
    let mut mutable = Vec::new();
    let mut tables = 0u32;
    let mut exported = false;
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload?;
        match &payload {
            Payload::ImportSection(section) => imported = Imported::count(section)?,
            Payload::GlobalSection(section) => {
                for (i, global) in section.clone().into_iter().enumerate() {
                    if global?.ty.mutable {
                        mutable.push(imported.globals + i as u32);
                    }
                }
            }
            Payload::TableSection(section) => tables = section.count(),
            Payload::ExportSection(section) => {
                let mut exports = ExportSection::new();
                for export in section.clone() {
                    let export = export?;
                    exports.export(export.name, ExportKind::from(export.kind), export.index);
                }
                for &index in &mutable {
                    exports.export(
                        &format!("{STATE_EXPORT}global{index}"),
                        ExportKind::Global,
                        index,
                    );
                }
                for n in 0..tables {
                    exports.export(
                        &format!("{STATE_EXPORT}table{n}"),
                        ExportKind::Table,
                        imported.tables + n,
                    );
                }
                out.section(&exports);
                exported = true;
                continue;
            }
            _ => {}
        }
        copy_section(&mut out, wasm, &payload);
    }
    if !exported {
        bail!("the module exports nothing: it cannot be a reactor to snapshot");
    }
    Ok((out.finish(), mutable))
}

/// `wasm` starting in `state`: its mutable globals' initial values and its memory (minimum size
/// and contents) replaced, everything else copied.
pub fn rewrite(wasm: &[u8], state: &State) -> anyhow::Result<Vec<u8>> {
    if !state.memory.len().is_multiple_of(PAGE) {
        bail!("the memory is not whole pages");
    }
    let mut out = Encoded::new();
    let mut imported_globals = 0u32;
    let segments = nonzero_runs(&state.memory);
    let (mut code_seen, mut data_written) = (false, false);
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload?;
        match &payload {
            Payload::ImportSection(section) => {
                let imported = Imported::count(section)?;
                if imported.memories > 0 {
                    bail!("an imported memory cannot be snapshotted");
                }
                imported_globals = imported.globals;
            }
            Payload::StartSection { .. } => {
                bail!("the module has a start function: a snapshot would run it again")
            }
            Payload::GlobalSection(section) => {
                let mut globals = GlobalSection::new();
                for (i, global) in section.clone().into_iter().enumerate() {
                    let global = global?;
                    let index = imported_globals + i as u32;
                    let init = match state.globals.iter().find(|(g, _)| *g == index) {
                        Some((_, value)) => const_of(value)?,
                        None => RoundtripReencoder
                            .const_expr(global.init_expr)
                            .map_err(|e| anyhow::anyhow!("{e:?}"))?,
                    };
                    let ty = RoundtripReencoder
                        .global_type(global.ty)
                        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
                    globals.global(ty, &init);
                }
                out.section(&globals);
                continue;
            }
            Payload::MemorySection(section) => {
                let mut memories = MemorySection::new();
                for (i, memory) in section.clone().into_iter().enumerate() {
                    let mut ty = RoundtripReencoder
                        .memory_type(memory?)
                        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
                    if i == 0 {
                        if ty.memory64 {
                            bail!("a 64-bit memory is not supported");
                        }
                        ty.minimum = (state.memory.len() / PAGE) as u64;
                    } else {
                        bail!("more than one memory is not supported");
                    }
                    memories.memory(ty);
                }
                out.section(&memories);
                continue;
            }
            Payload::DataCountSection { .. } => {
                // Rewritten with the data section's new count, which comes later: counted first.
                let count = count_passive(wasm)? + segments.len() as u32;
                out.section(&DataCountSection { count });
                continue;
            }
            Payload::DataSection(section) => {
                let mut active_seen = false;
                for data in section.clone() {
                    match data?.kind {
                        wasmparser::DataKind::Passive => {
                            if active_seen {
                                bail!("a passive data segment after an active one");
                            }
                        }
                        wasmparser::DataKind::Active { .. } => active_seen = true,
                    }
                }
                // Passive segments keep their indices (and their bytes: `memory.init` reads
                // them); active ones are what the memory image replaces.
                let mut data = DataSection::new();
                for segment in section.clone() {
                    let segment = segment?;
                    if let wasmparser::DataKind::Passive = segment.kind {
                        data.passive(segment.data.iter().copied());
                    }
                }
                active_into(&mut data, &segments);
                out.section(&data);
                data_written = true;
                continue;
            }
            // A module without a data section gets one right after its code.
            Payload::CustomSection(_) | Payload::End(_) if code_seen && !data_written => {
                write_data(&mut out, &segments);
                data_written = true;
            }
            Payload::CodeSectionStart { .. } => code_seen = true,
            _ => {}
        }
        copy_section(&mut out, wasm, &payload);
    }
    if !data_written {
        bail!("the module has no code section");
    }
    Ok(out.finish())
}

/// How many functions, globals, tables and memories a module imports: imports come first in
/// each index space.
#[derive(Debug, Default)]
struct Imported {
    functions: u32,
    globals: u32,
    tables: u32,
    memories: u32,
}

impl Imported {
    fn count(section: &wasmparser::ImportSectionReader) -> anyhow::Result<Imported> {
        let mut imported = Imported::default();
        for import in section.clone().into_imports() {
            match import?.ty {
                TypeRef::Func(_) => imported.functions += 1,
                TypeRef::Global(_) => imported.globals += 1,
                TypeRef::Table(_) => imported.tables += 1,
                TypeRef::Memory(_) => imported.memories += 1,
                _ => {}
            }
        }
        Ok(imported)
    }
}

/// A data section of `segments` alone.
fn write_data(out: &mut Encoded, segments: &[(usize, &[u8])]) {
    let mut data = DataSection::new();
    active_into(&mut data, segments);
    out.section(&data);
}

/// `segments` as active segments of memory 0.
fn active_into(data: &mut DataSection, segments: &[(usize, &[u8])]) {
    for (at, bytes) in segments {
        // Offsets are i32 constants read as unsigned: memories above 2 GiB wrap to negatives.
        data.active(
            0,
            &ConstExpr::i32_const(*at as u32 as i32),
            bytes.iter().copied(),
        );
    }
}

/// The bytes of linear memory `wasm` starts with: its first defined memory's minimum (a
/// snapshot's is its memory when it was taken). `None` when it defines none.
pub fn initial_memory(wasm: &[u8]) -> anyhow::Result<Option<u64>> {
    for payload in Parser::new(0).parse_all(wasm) {
        if let Payload::MemorySection(section) = payload? {
            if let Some(memory) = section.into_iter().next() {
                return Ok(Some(memory?.initial.saturating_mul(PAGE as u64)));
            }
        }
    }
    Ok(None)
}

/// WebAssembly's page, the unit of memory sizes.
const PAGE: usize = 65536;

/// How many passive data segments `wasm` has.
fn count_passive(wasm: &[u8]) -> anyhow::Result<u32> {
    for payload in Parser::new(0).parse_all(wasm) {
        if let Payload::DataSection(section) = payload? {
            let mut count = 0;
            for data in section {
                if let wasmparser::DataKind::Passive = data?.kind {
                    count += 1;
                }
            }
            return Ok(count);
        }
    }
    Ok(0)
}

/// The constant expression of a global's value.
fn const_of(value: &Val) -> anyhow::Result<ConstExpr> {
    Ok(match value {
        Val::I32(v) => ConstExpr::i32_const(*v),
        Val::I64(v) => ConstExpr::i64_const(*v),
        Val::F32(bits) => ConstExpr::f32_const(f32::from_bits(*bits).into()),
        Val::F64(bits) => ConstExpr::f64_const(f64::from_bits(*bits).into()),
        other => bail!("a global holding {other:?} cannot be snapshotted"),
    })
}

/// Copies a section of `wasm` as it is (nothing for the parser's other payloads, such as the
/// code section's entries, which its start payload's range already covers).
fn copy_section(out: &mut Encoded, wasm: &[u8], payload: &Payload) {
    if let Some((id, range)) = payload.as_section() {
        out.section(&RawSection {
            id,
            data: &wasm[range],
        });
    }
}

/// The memory's non-zero bytes as (offset, bytes) runs, runs closer than [`MERGE_GAP`] merged.
pub fn nonzero_runs(memory: &[u8]) -> Vec<(usize, &[u8])> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    while at < memory.len() {
        let Some(start) = memory[at..].iter().position(|&b| b != 0).map(|p| at + p) else {
            break;
        };
        let end = memory[start..]
            .iter()
            .position(|&b| b == 0)
            .map_or(memory.len(), |p| start + p);
        match runs.last_mut() {
            Some((_, last_end)) if start - *last_end < MERGE_GAP => *last_end = end,
            _ => runs.push((start, end)),
        }
        at = end;
    }
    runs.into_iter()
        .map(|(start, end)| (start, &memory[start..end]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmtime::Module;

    const MODULE: &str = r#"(module
        (memory (export "memory") 1 4)
        (global $sp (mut i32) (i32.const 5))
        (global $base i32 (i32.const 9))
        (data "kept")
        (data (i32.const 16) "ab")
        (func (export "turn") (param i32 i32) (result i32)
            (i32.store8 offset=16 (i32.const 0) (i32.const 1))
            (i32.store offset=4 (local.get 0) (i32.const 1))
            (i32.const 0)))"#;

    #[test]
    fn a_rewritten_module_starts_with_the_snapshots_memory_and_globals() {
        let wasm = wat::parse_str(MODULE).unwrap();
        let (exporting, globals) = with_globals_exported(&wasm).unwrap();
        assert_eq!(globals, vec![0], "only the mutable global");
        let engine = wasmtime::Engine::default();
        let exporting = Module::new(&engine, &exporting).unwrap();
        assert!(exporting
            .get_export("__wasmeval_snapshot_global0")
            .is_some());

        let mut memory = vec![0u8; 2 * 65536];
        memory[100..103].copy_from_slice(b"xyz");
        memory[70_000] = 7;
        memory[100 + 3 + MERGE_GAP] = 1;
        let rewritten = rewrite(
            &wasm,
            &State {
                globals: vec![(0, Val::I32(77))],
                memory,
            },
        )
        .unwrap();
        wasmparser::validate(&rewritten).unwrap();
        let module = Module::new(&engine, &rewritten).unwrap();
        let mut store = wasmtime::Store::new(&engine, ());
        let instance = wasmtime::Instance::new(&mut store, &module, &[]).unwrap();
        let memory = instance.get_memory(&mut store, "memory").unwrap();
        assert_eq!(memory.size(&store), 2, "the memory's minimum grew with it");
        let data = memory.data(&store);
        assert_eq!(&data[100..103], b"xyz");
        assert_eq!(data[70_000], 7);
        assert_eq!(
            &data[16..18],
            b"\0\0",
            "the original's active data is replaced"
        );
        // The global's new value is visible through the code that reads it: export it again.
        let (exported, _) = with_globals_exported(&rewritten).unwrap();
        let module = Module::new(&engine, &exported).unwrap();
        let instance = wasmtime::Instance::new(&mut store, &module, &[]).unwrap();
        let sp = instance
            .get_global(&mut store, "__wasmeval_snapshot_global0")
            .unwrap();
        assert_eq!(sp.get(&mut store).i32(), Some(77));
    }

    #[test]
    fn non_zero_runs_merge_across_short_gaps_only() {
        let mut memory = vec![0u8; 10_000];
        memory[10] = 1;
        memory[12] = 2;
        memory[12 + MERGE_GAP + 1] = 3;
        let runs = nonzero_runs(&memory);
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0], (10, &[1u8, 0, 2][..]));
        assert_eq!(runs[1], (12 + MERGE_GAP + 1, &[3u8][..]));
        assert!(nonzero_runs(&[0; 100]).is_empty());
    }

    #[test]
    fn the_turns_bookkeeping_is_its_stores_at_static_addresses() {
        let wasm = wat::parse_str(MODULE).unwrap();
        // `offset=16` from address 0 is a static variable (at the first data segment); the
        // store through a pointer with a small offset is not.
        assert_eq!(turn_bookkeeping(&wasm).unwrap(), vec![16..17]);
    }
}
