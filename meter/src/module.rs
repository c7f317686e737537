//! The module around the bodies: a first pass reads what the rewrite needs (types, imports,
//! memory 0), a second writes every section again, adding the fuel global, its export, the
//! `memory_grow` import and its type, and moving function indices past the new import.

use crate::code::{instrument_body, Layout};
use crate::{Instrumented, Memory, MeterError, FUEL_GLOBAL, GROW_FIELD, GROW_MODULE};
use std::convert::Infallible;
use wasm_encoder::reencode::{self, Reencode};
use wasm_encoder::{
    CodeSection, ConstExpr, CustomSection, DataCountSection, ExportKind, ExportSection,
    GlobalSection, GlobalType, ImportSection, MemorySection, Module, StartSection, TypeSection,
    ValType,
};
use wasmparser::{CompositeInnerType, Parser, Payload, TypeRef, WasmFeatures};

/// Pages of 64 KiB in 4 GiB: the most a 32-bit memory can hold.
const MAX_PAGES_32: u64 = 1 << 16;

/// What the first pass learns.
#[derive(Default)]
struct Scan {
    /// Parameter counts by type index (`None`: not a function type).
    params: Vec<Option<u32>>,
    /// Type index of each defined function.
    functions: Vec<u32>,
    imported_funcs: u32,
    globals: u32,
    memory: Option<Memory>,
    has_types: bool,
    has_imports: bool,
    has_globals: bool,
    has_exports: bool,
}

fn parser() -> Parser {
    let mut parser = Parser::new(0);
    parser.set_features(WasmFeatures::all());
    parser
}

fn scan(module: &[u8]) -> Result<Scan, MeterError> {
    let mut scan = Scan::default();
    for payload in parser().parse_all(module) {
        match payload? {
            Payload::TypeSection(section) => {
                scan.has_types = true;
                for group in section {
                    for sub in group?.into_types() {
                        scan.params.push(match &sub.composite_type.inner {
                            CompositeInnerType::Func(f) => Some(f.params().len() as u32),
                            _ => None,
                        });
                    }
                }
            }
            Payload::ImportSection(section) => {
                scan.has_imports = true;
                for import in section.into_imports() {
                    let import = import?;
                    if import.module == GROW_MODULE && import.name == GROW_FIELD {
                        return Err(MeterError::NameTaken(format!("{GROW_MODULE}.{GROW_FIELD}")));
                    }
                    match import.ty {
                        TypeRef::Func(_) | TypeRef::FuncExact(_) => scan.imported_funcs += 1,
                        TypeRef::Global(_) => scan.globals += 1,
                        TypeRef::Memory(ty) => {
                            supported_memory(&ty)?;
                            scan.memory.get_or_insert(Memory {
                                initial_pages: ty.initial,
                                maximum_pages: ty.maximum,
                                imported: true,
                            });
                        }
                        TypeRef::Table(ty) if ty.table64 => {
                            return Err(MeterError::Unsupported("64-bit tables".into()))
                        }
                        _ => {}
                    }
                }
            }
            Payload::FunctionSection(section) => {
                for ty in section {
                    scan.functions.push(ty?);
                }
            }
            Payload::TableSection(section) => {
                for table in section {
                    if table?.ty.table64 {
                        return Err(MeterError::Unsupported("64-bit tables".into()));
                    }
                }
            }
            Payload::MemorySection(section) => {
                for ty in section {
                    let ty = ty?;
                    supported_memory(&ty)?;
                    scan.memory.get_or_insert(Memory {
                        initial_pages: ty.initial,
                        maximum_pages: ty.maximum,
                        imported: false,
                    });
                }
            }
            Payload::GlobalSection(section) => {
                scan.has_globals = true;
                scan.globals += section.count();
            }
            Payload::ExportSection(section) => {
                scan.has_exports = true;
                for export in section {
                    if export?.name == FUEL_GLOBAL {
                        return Err(MeterError::NameTaken(FUEL_GLOBAL.into()));
                    }
                }
            }
            Payload::Version { encoding, .. } if encoding != wasmparser::Encoding::Module => {
                return Err(MeterError::Unsupported("components".into()));
            }
            _ => {}
        }
    }
    Ok(scan)
}

fn supported_memory(ty: &wasmparser::MemoryType) -> Result<(), MeterError> {
    if ty.memory64 {
        return Err(MeterError::Unsupported("64-bit memories".into()));
    }
    if ty.page_size_log2.is_some() {
        return Err(MeterError::Unsupported("custom page sizes".into()));
    }
    Ok(())
}

/// Moves function indices past the new import; everything else is copied as it is.
struct Shift(u32);

impl Reencode for Shift {
    type Error = Infallible;

    fn function_index(&mut self, func: u32) -> Result<u32, reencode::Error<Infallible>> {
        Ok(if func >= self.0 { func + 1 } else { func })
    }
}

fn reencoded<T>(result: Result<T, reencode::Error<Infallible>>) -> Result<T, MeterError> {
    result.map_err(|e| MeterError::Reencode(e.to_string()))
}

/// Sections in their required order; the ones the pass may have to add are among them.
fn rank(id: u8) -> u8 {
    use wasm_encoder::SectionId as S;
    const ORDER: [S; 13] = [
        S::Type,
        S::Import,
        S::Function,
        S::Table,
        S::Memory,
        S::Tag,
        S::Global,
        S::Export,
        S::Start,
        S::Element,
        S::DataCount,
        S::Code,
        S::Data,
    ];
    ORDER
        .iter()
        .position(|s| *s as u8 == id)
        .map_or(u8::MAX, |p| p as u8)
}

/// The writer of the second pass.
struct Writer {
    out: Module,
    scan: Scan,
    layout: Layout,
    grow_type: u32,
    /// The highest rank written so far (sections the pass adds go in before the next one).
    written: u8,
    added: [bool; 4],
}

/// The sections the pass adds when the module has none of their kind.
const ADDED: [wasm_encoder::SectionId; 4] = [
    wasm_encoder::SectionId::Type,
    wasm_encoder::SectionId::Import,
    wasm_encoder::SectionId::Global,
    wasm_encoder::SectionId::Export,
];

impl Writer {
    /// Writes the added sections that go before a section of rank `next`.
    fn before(&mut self, next: u8) {
        for (i, id) in ADDED.iter().enumerate() {
            let present = match i {
                0 => self.scan.has_types,
                1 => self.scan.has_imports,
                2 => self.scan.has_globals,
                _ => self.scan.has_exports,
            };
            if present || self.added[i] || rank(*id as u8) >= next {
                continue;
            }
            self.added[i] = true;
            match i {
                0 => {
                    let mut types = TypeSection::new();
                    self.grow_type_into(&mut types);
                    self.out.section(&types);
                }
                1 => {
                    let mut imports = ImportSection::new();
                    self.grow_import_into(&mut imports);
                    self.out.section(&imports);
                }
                2 => {
                    let mut globals = GlobalSection::new();
                    self.fuel_global_into(&mut globals);
                    self.out.section(&globals);
                }
                _ => {
                    let mut exports = ExportSection::new();
                    self.fuel_export_into(&mut exports);
                    self.out.section(&exports);
                }
            }
        }
        self.written = self.written.max(next);
    }

    fn grow_type_into(&self, types: &mut TypeSection) {
        types.ty().function([ValType::I32], [ValType::I32]);
    }

    fn grow_import_into(&self, imports: &mut ImportSection) {
        imports.import(
            GROW_MODULE,
            GROW_FIELD,
            wasm_encoder::EntityType::Function(self.grow_type),
        );
    }

    fn fuel_global_into(&self, globals: &mut GlobalSection) {
        globals.global(
            GlobalType {
                val_type: ValType::I64,
                mutable: true,
                shared: false,
            },
            &ConstExpr::i64_const(crate::FUEL_AT_START),
        );
    }

    fn fuel_export_into(&self, exports: &mut ExportSection) {
        exports.export(FUEL_GLOBAL, ExportKind::Global, self.layout.fuel);
    }
}

pub(crate) fn instrument(module: &[u8]) -> Result<Instrumented, MeterError> {
    let scan = scan(module)?;
    let layout = Layout {
        fuel: scan.globals,
        grow: scan.imported_funcs,
        imported_funcs: scan.imported_funcs,
    };
    let grow_type = scan.params.len() as u32;
    let memory = scan.memory;
    let mut w = Writer {
        out: Module::new(),
        scan,
        layout,
        grow_type,
        written: 0,
        added: [false; 4],
    };
    let mut shift = Shift(w.layout.imported_funcs);
    let mut code = CodeSection::new();
    let mut bodies_left = 0u32;
    let mut defined = 0usize;
    for payload in parser().parse_all(module) {
        let payload = payload?;
        if let Some((id, _)) = payload.as_section() {
            if id != 0 {
                w.before(rank(id));
            }
        }
        match payload {
            Payload::Version { .. } | Payload::End(_) => {}
            Payload::TypeSection(section) => {
                let mut types = TypeSection::new();
                reencoded(shift.parse_type_section(&mut types, section))?;
                w.grow_type_into(&mut types);
                w.out.section(&types);
            }
            Payload::ImportSection(section) => {
                let mut imports = ImportSection::new();
                reencoded(shift.parse_import_section(&mut imports, section))?;
                // Last: its index follows the module's function imports.
                w.grow_import_into(&mut imports);
                w.out.section(&imports);
            }
            Payload::FunctionSection(section) => {
                let mut functions = wasm_encoder::FunctionSection::new();
                reencoded(shift.parse_function_section(&mut functions, section))?;
                w.out.section(&functions);
            }
            Payload::TableSection(section) => {
                let mut tables = wasm_encoder::TableSection::new();
                reencoded(shift.parse_table_section(&mut tables, section))?;
                w.out.section(&tables);
            }
            Payload::MemorySection(section) => {
                let mut memories = MemorySection::new();
                let memory0_defined = w.scan.memory.is_some_and(|m| !m.imported);
                for (i, ty) in section.into_iter().enumerate() {
                    let mut ty = reencoded(shift.memory_type(ty?))?;
                    if i == 0 && memory0_defined && ty.maximum.is_none() {
                        ty.maximum = Some(MAX_PAGES_32);
                    }
                    memories.memory(ty);
                }
                w.out.section(&memories);
            }
            Payload::TagSection(section) => {
                let mut tags = wasm_encoder::TagSection::new();
                reencoded(shift.parse_tag_section(&mut tags, section))?;
                w.out.section(&tags);
            }
            Payload::GlobalSection(section) => {
                let mut globals = GlobalSection::new();
                reencoded(shift.parse_global_section(&mut globals, section))?;
                w.fuel_global_into(&mut globals);
                w.out.section(&globals);
            }
            Payload::ExportSection(section) => {
                let mut exports = ExportSection::new();
                reencoded(shift.parse_export_section(&mut exports, section))?;
                w.fuel_export_into(&mut exports);
                w.out.section(&exports);
            }
            Payload::StartSection { func, .. } => {
                w.out.section(&StartSection {
                    function_index: w.layout.function(func),
                });
            }
            Payload::ElementSection(section) => {
                let mut elements = wasm_encoder::ElementSection::new();
                reencoded(shift.parse_element_section(&mut elements, section))?;
                w.out.section(&elements);
            }
            Payload::DataCountSection { count, .. } => {
                w.out.section(&DataCountSection { count });
            }
            Payload::CodeSectionStart { count, .. } => {
                bodies_left = count;
                if count == 0 {
                    w.out.section(&code);
                }
            }
            Payload::CodeSectionEntry(body) => {
                let ty = *w
                    .scan
                    .functions
                    .get(defined)
                    .ok_or_else(|| MeterError::Reencode("more bodies than functions".into()))?;
                let params = w
                    .scan
                    .params
                    .get(ty as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| MeterError::Reencode(format!("type {ty} is not a function")))?;
                code.raw(&instrument_body(module, &body, params, &w.layout)?);
                defined += 1;
                bodies_left -= 1;
                if bodies_left == 0 {
                    w.out.section(&std::mem::take(&mut code));
                }
            }
            Payload::DataSection(section) => {
                let mut data = wasm_encoder::DataSection::new();
                reencoded(shift.parse_data_section(&mut data, section))?;
                w.out.section(&data);
            }
            Payload::CustomSection(section) => {
                // Names and DWARF describe the original indices and code offsets.
                let name = section.name();
                if name != "name" && !name.starts_with(".debug") {
                    w.out.section(&CustomSection {
                        name: name.into(),
                        data: section.data().into(),
                    });
                }
            }
            other => match other.as_section() {
                Some((id, range)) => {
                    return Err(MeterError::Unsupported(format!(
                        "section {id} at offset {}",
                        range.start
                    )))
                }
                None => return Err(MeterError::Unsupported("a component".into())),
            },
        }
    }
    w.before(u8::MAX);
    Ok(Instrumented {
        bytes: w.out.finish(),
        memory,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmparser::ExternalKind;

    #[test]
    fn sections_rank_in_binary_order() {
        use wasm_encoder::SectionId as S;
        assert!(rank(S::Tag as u8) < rank(S::Global as u8));
        assert!(rank(S::DataCount as u8) < rank(S::Code as u8));
        assert_eq!(rank(0), u8::MAX);
    }

    #[test]
    fn external_kinds_other_than_functions_keep_their_index() {
        let mut shift = Shift(2);
        assert_eq!(shift.function_index(1).unwrap(), 1);
        assert_eq!(shift.function_index(2).unwrap(), 3);
        assert_eq!(shift.external_index(ExternalKind::Global, 5).unwrap(), 5);
    }
}
