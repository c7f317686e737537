//! The Ruby guest's reactor interface: npm's `@ruby/3.4-wasm-wasi` is CRuby built as a WASI
//! *reactor* with ruby.wasm's JavaScript bridge, driven through canonical-ABI exports
//! (`ruby-init`, `ruby-init-loadpath`, `rb-eval-string-protect`, `rstring-ptr`) instead of
//! `_start`.
//!
//! Besides WASI it imports 21 `rb-js-abi-host` functions (the JavaScript host of the browser
//! build: `eval-js`, `global-this`, `reflect-get`, ...) and 3 `canonical_abi` resource functions.
//! Here every `rb-js-abi-host` function traps with [`JavaScriptUnavailable`] (`require 'js'`
//! loads, and the first call into JavaScript ends the execution as a runtime error), and the
//! resource functions keep a small handle table per store ([`Handles`]).
//!
//! An execution ([`enter`]) calls `_initialize`, `ruby-init` with the invocation's arguments,
//! `ruby-init-loadpath`, then evaluates each string of the invocation's [`RubyScript`] in turn.
//! Each string must evaluate to a `String` (the route wraps its code in `"#{...}"`, which always
//! yields one). With a token, after each evaluation the host itself appends
//! `\n<token> <index> <state> <value as JSON>\n` to stdout: the guest never holds the token (it is
//! neither in its memory nor in its arguments), so no Ruby code can forge these lines, and a
//! program that exits (`exit!`) or traps leaves the lines of the steps it cut short missing.

use super::output::CapturedOutput;
use super::GuestState;
use wasmtime::{Instance, Linker, Memory, Store, Val};

/// What the host evaluates in the Ruby guest, in order, and the token of its report lines.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct RubyScript {
    /// The token of the lines the host writes after each evaluation; `None`: no lines (a whole
    /// program, whose stdout is compared as it is).
    pub token: Option<String>,
    /// Ruby expressions, each evaluating to a `String`.
    pub evals: Vec<String>,
}

/// Never printed whole: the token must not reach a log a guest could read back.
impl std::fmt::Debug for RubyScript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RubyScript")
            .field("evals", &self.evals)
            .finish_non_exhaustive()
    }
}

/// The trap of a call into ruby.wasm's JavaScript bridge: there is no JavaScript here.
#[derive(Debug, thiserror::Error)]
#[error("JavaScript is not available in this sandbox (rb-js-abi-host::{0} was called)")]
pub struct JavaScriptUnavailable(String);

/// The canonical ABI's resource handles of one store: a handle is an index into the guest's
/// values (`rb-abi-value` representations) plus one.
#[derive(Debug, Default)]
pub(super) struct Handles(Vec<i32>);

/// More handles than any script needs (one per evaluation): a guest making more is hostile.
const MAX_HANDLES: usize = 1 << 16;

/// Longest value an evaluation may return, in bytes (it is written to stdout, whose budget
/// bounds it again).
const MAX_VALUE: usize = 8 << 20;

/// Defines the Ruby guest's non-WASI imports of `module` in `linker`: every `rb-js-abi-host`
/// function (whatever its type) as a trap, the resource table of the store.
pub(super) fn add_to_linker(
    linker: &mut Linker<GuestState>,
    module: &wasmtime::Module,
) -> anyhow::Result<()> {
    for import in module.imports() {
        if import.module() != "rb-js-abi-host" {
            continue;
        }
        let Some(ty) = import.ty().func().cloned() else {
            anyhow::bail!(
                "the Ruby guest imports rb-js-abi-host::{} as a non-function",
                import.name()
            );
        };
        // Canonical-ABI names carry their WIT signature after a colon.
        let short = import
            .name()
            .split(':')
            .next()
            .unwrap_or_default()
            .to_owned();
        linker.func_new(
            "rb-js-abi-host",
            import.name(),
            ty,
            move |_, _: &[Val], _: &mut [Val]| {
                Err(wasmtime::Error::new(JavaScriptUnavailable(short.clone())))
            },
        )?;
    }
    linker.func_wrap(
        "canonical_abi",
        "resource_new_rb-abi-value",
        |mut caller: wasmtime::Caller<'_, GuestState>, rep: i32| -> wasmtime::Result<i32> {
            let handles = &mut caller.data_mut().ruby.0;
            if handles.len() >= MAX_HANDLES {
                return Err(wasmtime::Error::msg(format!(
                    "the Ruby guest made more than {MAX_HANDLES} value handles"
                )));
            }
            handles.push(rep);
            Ok(handles.len() as i32)
        },
    )?;
    linker.func_wrap(
        "canonical_abi",
        "resource_get_rb-abi-value",
        |caller: wasmtime::Caller<'_, GuestState>, handle: i32| -> wasmtime::Result<i32> {
            let index = (handle as u32 as usize).checked_sub(1);
            index
                .and_then(|i| caller.data().ruby.0.get(i).copied())
                .ok_or_else(|| wasmtime::Error::msg("the Ruby guest used an unknown value handle"))
        },
    )?;
    // JavaScript values are never made (every bridge call traps), so there is none to drop.
    linker.func_wrap("canonical_abi", "resource_drop_js-abi-value", |_: i32| {})?;
    Ok(())
}

/// The export of `instance` whose canonical-ABI name starts with `prefix` (`ruby-init:`).
fn export(
    store: &mut Store<GuestState>,
    instance: &Instance,
    prefix: &str,
) -> wasmtime::Result<wasmtime::Func> {
    let name = instance
        .exports(&mut *store)
        .map(|e| e.name().to_owned())
        .find(|name| name.starts_with(prefix))
        .ok_or_else(|| wasmtime::Error::msg(format!("the Ruby guest exports no {prefix}")))?;
    instance
        .get_func(&mut *store, &name)
        .ok_or_else(|| wasmtime::Error::msg(format!("the Ruby guest's {name} is not a function")))
}

/// Copies `bytes` and a terminating NUL (ruby.wasm hands these strings to C) into guest memory
/// allocated with `cabi_realloc`; the guest owns them afterwards.
fn put(
    store: &mut Store<GuestState>,
    memory: Memory,
    realloc: &wasmtime::TypedFunc<(i32, i32, i32, i32), i32>,
    bytes: &[u8],
) -> wasmtime::Result<(i32, i32)> {
    let length = i32::try_from(bytes.len())?;
    let at = realloc.call(&mut *store, (0, 0, 1, length + 1))?;
    memory.write(&mut *store, at as u32 as usize, bytes)?;
    memory.write(&mut *store, at as u32 as usize + bytes.len(), &[0])?;
    Ok((at, length))
}

/// Two little-endian 32-bit words at `at` in guest memory.
fn read_pair(store: &Store<GuestState>, memory: Memory, at: i32) -> wasmtime::Result<(u32, u32)> {
    let mut words = [0u8; 8];
    memory.read(store, at as u32 as usize, &mut words)?;
    let word = |i: usize| u32::from_le_bytes(words[i..i + 4].try_into().expect("4 bytes"));
    Ok((word(0), word(4)))
}

/// Takes a unit of fuel per byte of a value the host copies out of the guest (host work that
/// grows with the guest's data is paid for); out of fuel, the execution ends as a timeout.
fn pay(store: &mut Store<GuestState>, bytes: usize) -> wasmtime::Result<()> {
    let fuel = store.get_fuel()?;
    if fuel < bytes as u64 {
        store.set_fuel(0)?;
        return Err(wasmtime::Trap::OutOfFuel.into());
    }
    store.set_fuel(fuel - bytes as u64)?;
    Ok(())
}

/// Runs the Ruby reactor: start-up with `args` (`ruby-init`'s `ARGV` form: program name, then
/// interpreter options), then `script`'s evaluations, each followed by its report line when the
/// script has a token. Returns 0 after the last evaluation, or 1 when one raised and there is
/// no token to report it by.
pub(super) fn enter(
    store: &mut Store<GuestState>,
    instance: &Instance,
    args: &[String],
    script: &RubyScript,
    output: &CapturedOutput,
) -> wasmtime::Result<i32> {
    let memory = instance
        .get_memory(&mut *store, "memory")
        .ok_or_else(|| wasmtime::Error::msg("the Ruby guest exports no memory"))?;
    let realloc =
        instance.get_typed_func::<(i32, i32, i32, i32), i32>(&mut *store, "cabi_realloc")?;
    if let Ok(initialize) = instance.get_typed_func::<(), ()>(&mut *store, "_initialize") {
        initialize.call(&mut *store, ())?;
    }

    // ruby-init(args: list<string>): an array of (pointer, length) pairs.
    let count = i32::try_from(args.len())?;
    let list = realloc.call(&mut *store, (0, 0, 4, 8 * count))?;
    for (i, arg) in args.iter().enumerate() {
        let (at, length) = put(store, memory, &realloc, arg.as_bytes())?;
        let mut pair = [0u8; 8];
        pair[..4].copy_from_slice(&at.to_le_bytes());
        pair[4..].copy_from_slice(&length.to_le_bytes());
        memory.write(&mut *store, list as u32 as usize + 8 * i, &pair)?;
    }
    export(store, instance, "ruby-init:")?
        .typed::<(i32, i32), ()>(&mut *store)?
        .call(&mut *store, (list, count))?;
    export(store, instance, "ruby-init-loadpath:")?
        .typed::<(), ()>(&mut *store)?
        .call(&mut *store, ())?;

    let eval = export(store, instance, "rb-eval-string-protect:")?
        .typed::<(i32, i32), i32>(&mut *store)?;
    let string_of = export(store, instance, "rstring-ptr:")?.typed::<i32, i32>(&mut *store)?;
    let free_string = instance.get_typed_func::<i32, ()>(&mut *store, "cabi_post_rstring-ptr")?;
    let clear_error = export(store, instance, "rb-clear-errinfo:")?.typed::<(), ()>(&mut *store)?;
    for (index, code) in script.evals.iter().enumerate() {
        let (at, length) = put(store, memory, &realloc, code.as_bytes())?;
        let returned = eval.call(&mut *store, (at, length))?;
        let (handle, state) = read_pair(store, memory, returned)?;
        let value = if state == 0 {
            let at = string_of.call(&mut *store, handle as i32)?;
            let (pointer, length) = read_pair(store, memory, at)?;
            let length = (length as usize).min(MAX_VALUE);
            pay(store, length)?;
            let mut bytes = vec![0u8; length];
            memory.read(&*store, pointer as usize, &mut bytes)?;
            free_string.call(&mut *store, at)?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        } else {
            clear_error.call(&mut *store, ())?;
            None
        };
        match &script.token {
            Some(token) => {
                let value = serde_json::to_string(&value).expect("a string is JSON");
                let line = format!("\n{token} {index} {} {value}\n", state as i32);
                output.append_stdout(line.as_bytes())?;
            }
            None if state != 0 => return Ok(1),
            None => {}
        }
    }
    Ok(0)
}
