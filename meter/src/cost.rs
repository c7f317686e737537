//! wasmtime 48's fuel accounting, operator by operator: what each operator costs and where the
//! compiled code adds the costs gathered so far to the counter.
//!
//! Source: wasmtime 48.0.8 (commit 7b6c29ec3e9a49c97da231665cbd8eead9ccbda0, the crates the
//! workspace links): `crates/environ/src/tunables.rs` (`default_operator_cost`,
//! `VariableOperatorCost::new`) and `crates/cranelift/src/func_environ.rs` (`fuel_before_op`,
//! `fuel_function_entry`, `pre_translate_bulk_op`, `translate_loop_header`).

use wasmparser::Operator;

/// The flat cost of `op`: 0 for `nop`, `drop`, `block`, `loop`, `unreachable`, `return`,
/// `else` and `end`, 1 for every other operator (`if`, `br*`, calls, `try_table`, `throw`...).
pub(crate) fn flat(op: &Operator<'_>) -> i64 {
    match op {
        Operator::Nop
        | Operator::Drop
        | Operator::Block { .. }
        | Operator::Loop { .. }
        | Operator::Unreachable
        | Operator::Return
        | Operator::Else
        | Operator::End => 0,
        _ => 1,
    }
}

/// Every wasm function costs one more than its operators: wasmtime starts a function's count
/// at 1 ("even empty functions should consume at least some fuel") and adds it at entry.
pub(crate) const FUNCTION_ENTRY: i64 = 1;

/// A bulk operation whose constant size costs at most this much gets no fuel check of its own.
pub(crate) const SMALL_BULK_COST: u64 = 128;

/// Where wasmtime adds the fuel gathered since the last such point to its counter: before
/// `op` when this is true. Everything else is buffered, so an operator that traps part-way
/// through a stretch leaves that stretch uncounted.
pub(crate) fn flushes_before(op: &Operator<'_>) -> bool {
    matches!(
        op,
        Operator::Unreachable
            | Operator::Return
            | Operator::Call { .. }
            | Operator::CallIndirect { .. }
            | Operator::CallRef { .. }
            | Operator::ReturnCall { .. }
            | Operator::ReturnCallIndirect { .. }
            | Operator::ReturnCallRef { .. }
            | Operator::Throw { .. }
            | Operator::ThrowRef
            | Operator::Loop { .. }
            | Operator::If { .. }
            | Operator::Br { .. }
            | Operator::BrIf { .. }
            | Operator::BrTable { .. }
            | Operator::BrOnNull { .. }
            | Operator::BrOnNonNull { .. }
            | Operator::BrOnCast { .. }
            | Operator::BrOnCastFail { .. }
            | Operator::End
            | Operator::Else
            // Legacy exception handling, which wasmtime refuses: counted like their
            // counterparts (`catch` like `else`, `delegate` like `end`, `rethrow` like `throw`)
            // so that a module using them is still metered.
            | Operator::Catch { .. }
            | Operator::CatchAll
            | Operator::Delegate { .. }
            | Operator::Rethrow { .. }
    )
}

/// Where wasmtime also writes its counter back to the store (control leaves the function):
/// calls, returns, throws, `unreachable`. The function's final `end` too.
pub(crate) fn saves_before(op: &Operator<'_>) -> bool {
    matches!(
        op,
        Operator::Unreachable
            | Operator::Return
            | Operator::Call { .. }
            | Operator::CallIndirect { .. }
            | Operator::CallRef { .. }
            | Operator::ReturnCall { .. }
            | Operator::ReturnCallIndirect { .. }
            | Operator::ReturnCallRef { .. }
            | Operator::Throw { .. }
            | Operator::ThrowRef
            | Operator::Rethrow { .. }
    )
}

/// Whether the code after `op` is unreachable until the end of its block.
pub(crate) fn ends_reachability(op: &Operator<'_>) -> bool {
    matches!(
        op,
        Operator::Unreachable
            | Operator::Return
            | Operator::Br { .. }
            | Operator::BrTable { .. }
            | Operator::ReturnCall { .. }
            | Operator::ReturnCallIndirect { .. }
            | Operator::ReturnCallRef { .. }
            | Operator::Throw { .. }
            | Operator::ThrowRef
            | Operator::Rethrow { .. }
    )
}

/// An operator whose cost also grows with an operand known only at run time (the operand on
/// top of the stack, an `i32` in the modules the pass accepts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bulk {
    /// `memory.copy`, `memory.fill`, `memory.init` (per byte), `table.copy`, `table.fill`,
    /// `table.init`, `table.grow` (per element): 1 fuel per unit, added before the operation
    /// runs (so a copy that then traps out of bounds was still charged).
    PerUnit,
    /// `memory.grow`: 0 per page, but a fuel check when the page count is not a constant.
    Grow,
}

/// The variable cost of `op`, if it has one; `Err` with the operator's name for the GC array
/// operators, whose per-element charges the pass does not reproduce.
pub(crate) fn bulk(op: &Operator<'_>) -> Result<Option<Bulk>, &'static str> {
    Ok(match op {
        Operator::MemoryCopy { .. }
        | Operator::MemoryFill { .. }
        | Operator::MemoryInit { .. }
        | Operator::TableCopy { .. }
        | Operator::TableFill { .. }
        | Operator::TableInit { .. }
        | Operator::TableGrow { .. } => Some(Bulk::PerUnit),
        Operator::MemoryGrow { .. } => Some(Bulk::Grow),
        Operator::ArrayNew { .. } => return Err("array.new"),
        Operator::ArrayNewDefault { .. } => return Err("array.new_default"),
        Operator::ArrayNewData { .. } => return Err("array.new_data"),
        Operator::ArrayNewElem { .. } => return Err("array.new_elem"),
        Operator::ArrayCopy { .. } => return Err("array.copy"),
        Operator::ArrayFill { .. } => return Err("array.fill"),
        Operator::ArrayInitData { .. } => return Err("array.init_data"),
        Operator::ArrayInitElem { .. } => return Err("array.init_elem"),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_markers_are_free_and_branches_cost_one() {
        assert_eq!(flat(&Operator::Nop), 0);
        assert_eq!(flat(&Operator::End), 0);
        assert_eq!(flat(&Operator::Return), 0);
        assert_eq!(flat(&Operator::BrIf { relative_depth: 0 }), 1);
        assert_eq!(flat(&Operator::I32Add), 1);
        assert_eq!(flat(&Operator::ThrowRef), 1);
    }

    #[test]
    fn a_block_is_not_a_flush_point_but_a_loop_is() {
        let empty = wasmparser::BlockType::Empty;
        assert!(!flushes_before(&Operator::Block { blockty: empty }));
        assert!(flushes_before(&Operator::Loop { blockty: empty }));
        assert!(!flushes_before(&Operator::I32Add));
    }
}
