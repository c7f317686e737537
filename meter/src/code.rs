//! One function body, metered: the fuel wasmtime would count is subtracted from the fuel global
//! at the points where wasmtime's compiled code adds it to its counter, and the global is checked
//! where wasmtime checks (function entry, loop headers, large bulk operations).
//!
//! Operators the pass leaves alone are copied byte for byte; only the points of charge and check
//! are new, plus the operators that name a function (their index moved by the new import) and
//! `memory.grow` (a call to the host's `wasmeval.memory_grow`).

use crate::cost::{self, Bulk};
use crate::MeterError;
use wasm_encoder::{BlockType, Encode, Instruction};
use wasmparser::{FunctionBody, Operator};

/// What the rewritten bodies refer to.
pub(crate) struct Layout {
    /// The `wasmeval_fuel` global.
    pub fuel: u32,
    /// The `wasmeval.memory_grow` import.
    pub grow: u32,
    /// Function imports of the original module: indices from here on move up by one.
    pub imported_funcs: u32,
}

impl Layout {
    /// The new index of the original module's function `index`.
    pub(crate) fn function(&self, index: u32) -> u32 {
        if index >= self.imported_funcs {
            index + 1
        } else {
            index
        }
    }
}

/// The rewritten body (locals and code, without its size) of a function with `params`
/// parameters.
pub(crate) fn instrument_body(
    data: &[u8],
    body: &FunctionBody<'_>,
    params: u32,
    layout: &Layout,
) -> Result<Vec<u8>, MeterError> {
    let mut locals = body.get_locals_reader()?;
    let groups_start = locals.original_position();
    let groups = locals.get_count();
    let mut declared: u32 = 0;
    for _ in 0..groups {
        let (count, _) = locals.read()?;
        declared = declared.saturating_add(count);
    }
    let mut ops = body.get_operators_reader()?;
    let code_start = ops.original_position();
    // `try_table`'s opcode: only a body with that byte can have catch targets to look for.
    let catch_targets = if data[code_start..body.range().end].contains(&0x1f) {
        catch_targets(body)?
    } else {
        Vec::new()
    };
    let mut meter = Meter {
        data,
        layout,
        out: Vec::with_capacity((body.range().len()) * 5 / 4 + 32),
        copied_to: code_start,
        pending: 0,
        reachable: true,
        frames: Vec::new(),
        opened: 0,
        catch_targets,
        previous_const: None,
        local: params.saturating_add(declared),
        scratch: params.saturating_add(declared).saturating_add(1),
        scratch_used: false,
    };
    // wasmtime loads the fuel into a variable, adds the entry cost, then checks.
    meter.emit(&[
        Instruction::GlobalGet(layout.fuel),
        Instruction::LocalSet(meter.local),
    ]);
    meter.charge_now(cost::FUNCTION_ENTRY);
    meter.check();
    while !ops.eof() {
        let start = ops.original_position();
        let op = ops.read()?;
        let end = ops.original_position();
        meter.operator(&op, start, end)?;
    }
    meter.copy_to(ops.original_position());

    let mut out = Vec::with_capacity(meter.out.len() + 16);
    let extra = 1 + u32::from(meter.scratch_used);
    (groups + extra).encode(&mut out);
    out.extend_from_slice(&data[groups_start..code_start]);
    1u32.encode(&mut out);
    wasm_encoder::ValType::I64.encode(&mut out);
    if meter.scratch_used {
        1u32.encode(&mut out);
        wasm_encoder::ValType::I32.encode(&mut out);
    }
    out.extend_from_slice(&meter.out);
    Ok(out)
}

/// An open block.
#[derive(Clone, Copy)]
struct Frame {
    /// Whether its start was reachable.
    reachable: bool,
    /// Whether a `catch` lands at its label. wasmtime's count there includes what the throwing
    /// callee used; the cached fuel does not, so every way into the label writes the cache back
    /// first and the label reads the global again.
    catch_target: bool,
    is_loop: bool,
}

/// Which blocks, by the order they open in, are targets of a `try_table`'s catch clauses.
fn catch_targets(body: &FunctionBody<'_>) -> Result<Vec<bool>, MeterError> {
    let mut targets = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut ops = body.get_operators_reader()?;
    while !ops.eof() {
        match ops.read()? {
            Operator::TryTable { try_table } => {
                for catch in &try_table.catches {
                    let depth = match catch {
                        wasmparser::Catch::One { label, .. }
                        | wasmparser::Catch::OneRef { label, .. }
                        | wasmparser::Catch::All { label }
                        | wasmparser::Catch::AllRef { label } => *label as usize,
                    };
                    // Past the outermost block the catch returns from the function, where
                    // the global is up to date already.
                    if let Some(&ordinal) =
                        open.len().checked_sub(depth + 1).and_then(|i| open.get(i))
                    {
                        targets[ordinal] = true;
                    }
                }
                open.push(targets.len());
                targets.push(false);
            }
            Operator::Block { .. }
            | Operator::Loop { .. }
            | Operator::If { .. }
            | Operator::Try { .. } => {
                open.push(targets.len());
                targets.push(false);
            }
            Operator::End | Operator::Delegate { .. } => {
                open.pop();
            }
            _ => {}
        }
    }
    Ok(targets)
}

/// The state of one body's rewriting.
struct Meter<'a> {
    data: &'a [u8],
    layout: &'a Layout,
    out: Vec<u8>,
    /// The original bytes before this offset are in `out` already.
    copied_to: usize,
    /// Fuel of the operators since the last point of charge, not yet subtracted.
    pending: i64,
    /// Whether the current operator can run (wasmtime counts nothing in dead code).
    reachable: bool,
    /// The open blocks, innermost last.
    frames: Vec<Frame>,
    /// Blocks opened so far (their ordinals index `catch_targets`).
    opened: usize,
    /// Whether each block, by ordinal, is the target of a `try_table`'s catch clause.
    catch_targets: Vec<bool>,
    /// The value of the `i32.const` just before the current operator.
    previous_const: Option<u64>,
    /// The index of the `i64` local holding the fuel left while the function runs (wasmtime's
    /// `fuel_var`): written back to the global before calls, returns and traps, read again
    /// after calls, so that a trap elsewhere leaves the global where wasmtime leaves its counter.
    local: u32,
    /// The index of the `i32` local added for bulk operations' sizes.
    scratch: u32,
    scratch_used: bool,
}

impl Meter<'_> {
    fn operator(&mut self, op: &Operator<'_>, start: usize, end: usize) -> Result<(), MeterError> {
        let previous_const = self.previous_const.take();
        if !self.reachable {
            return self.dead_operator(op, start, end);
        }
        self.pending = self.pending.saturating_add(cost::flat(op));
        let function_end = matches!(op, Operator::End) && self.frames.is_empty();
        if cost::flushes_before(op) {
            self.copy_to(start);
            self.flush();
            if cost::saves_before(op) || function_end || self.enters_catch_target(op) {
                self.emit(&[
                    Instruction::LocalGet(self.local),
                    Instruction::GlobalSet(self.layout.fuel),
                ]);
            }
        }
        match cost::bulk(op).map_err(|name| MeterError::Unsupported(format!("operator {name}")))? {
            Some(Bulk::PerUnit) => {
                self.copy_to(start);
                match previous_const {
                    Some(units) => {
                        self.pending = self
                            .pending
                            .saturating_add(units.min(i64::MAX as u64) as i64);
                        if units > cost::SMALL_BULK_COST {
                            self.flush();
                            self.check();
                        }
                    }
                    None => self.charge_top_of_stack(),
                }
            }
            Some(Bulk::Grow) => {
                self.copy_to(start);
                if previous_const.is_none() {
                    self.flush();
                    self.check();
                }
            }
            None => {}
        }
        self.rewrite(op, start, end)?;
        match op {
            Operator::Loop { .. } => {
                let frame = self.open(true, true);
                self.copy_to(end);
                if frame.catch_target {
                    self.reload();
                }
                self.check();
            }
            Operator::Call { .. } | Operator::CallIndirect { .. } | Operator::CallRef { .. } => {
                self.copy_to(end);
                self.reload();
            }
            Operator::Block { .. }
            | Operator::If { .. }
            | Operator::TryTable { .. }
            | Operator::Try { .. } => {
                self.open(true, false);
            }
            Operator::Else | Operator::Catch { .. } | Operator::CatchAll => {
                self.reachable = self.frames.last().is_none_or(|f| f.reachable);
            }
            Operator::End | Operator::Delegate { .. } => self.close(end),
            Operator::I32Const { value } => self.previous_const = Some(u64::from(*value as u32)),
            _ => {}
        }
        if cost::ends_reachability(op) {
            self.reachable = false;
        }
        Ok(())
    }

    /// An operator that cannot run: nothing to count, but indices still move and blocks still
    /// open and close.
    fn dead_operator(
        &mut self,
        op: &Operator<'_>,
        start: usize,
        end: usize,
    ) -> Result<(), MeterError> {
        self.rewrite(op, start, end)?;
        match op {
            Operator::Loop { .. } => {
                self.open(false, true);
            }
            Operator::Block { .. }
            | Operator::If { .. }
            | Operator::TryTable { .. }
            | Operator::Try { .. } => {
                self.open(false, false);
            }
            Operator::Else | Operator::Catch { .. } | Operator::CatchAll => {
                self.reachable = self.frames.last().is_some_and(|f| f.reachable);
            }
            Operator::End | Operator::Delegate { .. } => {
                // A block whose start ran may be reached by a branch to its end.
                self.reachable = self.frames.last().is_some_and(|f| f.reachable);
                self.close(end);
            }
            _ => {}
        }
        Ok(())
    }

    /// Replaces the operators that name a function or grow the memory; copies the others.
    fn rewrite(&mut self, op: &Operator<'_>, start: usize, end: usize) -> Result<(), MeterError> {
        let replacement = match op {
            Operator::Call { function_index } => {
                Instruction::Call(self.layout.function(*function_index))
            }
            Operator::ReturnCall { function_index } => {
                Instruction::ReturnCall(self.layout.function(*function_index))
            }
            Operator::RefFunc { function_index } => {
                Instruction::RefFunc(self.layout.function(*function_index))
            }
            Operator::MemoryGrow { mem: 0 } => Instruction::Call(self.layout.grow),
            Operator::MemoryGrow { mem } => {
                return Err(MeterError::Unsupported(format!(
                    "memory.grow of memory {mem} (only memory 0 is metered)"
                )))
            }
            _ => return Ok(()),
        };
        self.copy_to(start);
        replacement.encode(&mut self.out);
        self.copied_to = end;
        Ok(())
    }

    fn open(&mut self, reachable: bool, is_loop: bool) -> Frame {
        let catch_target = self
            .catch_targets
            .get(self.opened)
            .copied()
            .unwrap_or(false);
        self.opened += 1;
        let frame = Frame {
            reachable,
            catch_target,
            is_loop,
        };
        self.frames.push(frame);
        frame
    }

    /// Closes the innermost block, whose `end` ends at `end`; a catch target reads the global
    /// again after it.
    fn close(&mut self, end: usize) {
        if let Some(frame) = self.frames.pop() {
            if frame.catch_target && !frame.is_loop && frame.reachable {
                self.copy_to(end);
                self.reload();
            }
        }
    }

    /// Whether `op` leaves for the label of a catch target (a branch to it, or the end of its
    /// block or of its `if` arm), so that the cached fuel must be written back first.
    fn enters_catch_target(&self, op: &Operator<'_>) -> bool {
        let target = |depth: u32| {
            self.frames
                .len()
                .checked_sub(depth as usize + 1)
                .and_then(|i| self.frames.get(i))
                .is_some_and(|f| f.catch_target)
        };
        match op {
            Operator::Br { relative_depth }
            | Operator::BrIf { relative_depth }
            | Operator::BrOnNull { relative_depth }
            | Operator::BrOnNonNull { relative_depth }
            | Operator::BrOnCast { relative_depth, .. }
            | Operator::BrOnCastFail { relative_depth, .. } => target(*relative_depth),
            Operator::BrTable { targets } => {
                target(targets.default()) || targets.targets().any(|t| t.is_ok_and(target))
            }
            Operator::Else | Operator::End => self
                .frames
                .last()
                .is_some_and(|f| f.catch_target && !f.is_loop),
            Operator::Loop { .. } => self
                .catch_targets
                .get(self.opened)
                .copied()
                .unwrap_or(false),
            _ => false,
        }
    }

    /// Reads the fuel left from the global into the cache.
    fn reload(&mut self) {
        self.emit(&[
            Instruction::GlobalGet(self.layout.fuel),
            Instruction::LocalSet(self.local),
        ]);
    }

    /// Copies the original bytes up to `offset`.
    fn copy_to(&mut self, offset: usize) {
        if offset > self.copied_to {
            self.out
                .extend_from_slice(&self.data[self.copied_to..offset]);
            self.copied_to = offset;
        }
    }

    /// Subtracts the pending fuel from the global.
    fn flush(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        self.charge_now(pending);
    }

    fn charge_now(&mut self, fuel: i64) {
        if fuel == 0 {
            return;
        }
        self.emit(&[
            Instruction::LocalGet(self.local),
            Instruction::I64Const(fuel),
            Instruction::I64Sub,
            Instruction::LocalSet(self.local),
        ]);
    }

    fn emit(&mut self, instructions: &[Instruction<'_>]) {
        for instruction in instructions {
            instruction.encode(&mut self.out);
        }
    }

    /// Subtracts the pending fuel and the size on top of the stack (an `i32`), leaving the stack
    /// as it was, then checks.
    fn charge_top_of_stack(&mut self) {
        self.scratch_used = true;
        let pending = std::mem::take(&mut self.pending);
        let (fuel, size) = (self.local, self.scratch);
        self.emit(&[
            Instruction::LocalSet(size),
            Instruction::LocalGet(fuel),
            Instruction::LocalGet(size),
            Instruction::I64ExtendI32U,
            Instruction::I64Const(pending),
            Instruction::I64Add,
            Instruction::I64Sub,
            Instruction::LocalSet(fuel),
        ]);
        self.check();
        Instruction::LocalGet(size).encode(&mut self.out);
    }

    /// wasmtime's check: out of fuel once the fuel left is zero or less. The trap leaves the
    /// global negative, which is how the host tells it from the program's own traps.
    fn check(&mut self) {
        let (local, global) = (self.local, self.layout.fuel);
        self.emit(&[
            Instruction::LocalGet(local),
            Instruction::I64Const(1),
            Instruction::I64LtS,
            Instruction::If(BlockType::Empty),
            Instruction::LocalGet(local),
            Instruction::I64Const(1),
            Instruction::I64Sub,
            Instruction::GlobalSet(global),
            Instruction::Unreachable,
            Instruction::End,
        ]);
    }
}
