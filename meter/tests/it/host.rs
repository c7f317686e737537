//! Two ways to run a module in wasmtime: the original with wasmtime's fuel, and the metered one
//! without fuel, the way the browser runs it (the global set before, read after, and
//! `wasmeval.memory_grow` implemented by the host up to a limit).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wasmtime::{
    Caller, Config, Engine, Linker, Module, Store, StoreLimits, StoreLimitsBuilder, Val,
};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::{FsPerms, HostMonotonicClock, HostWallClock, WasiCtxBuilder};

/// How a run ended, and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Fuel consumed: `budget - fuel left`, the budget itself when the run ran out.
    pub fuel: u64,
    pub end: End,
    /// Denied memory growth.
    pub memory_denied: bool,
    pub stdout: String,
    pub wall: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Returned these values (`i64`s of `i32`/`i64` results).
    Returned(Vec<i64>),
    /// `proc_exit` with this code.
    Exit(i32),
    OutOfFuel,
    /// Any other trap, by wasmtime's trap code.
    Trap(String),
}

/// Per-store state: WASI (for the guests), the original's limits, the metered host's limit.
pub struct State {
    wasi: Option<WasiP1Ctx>,
    limits: StoreLimits,
    memory_limit: u64,
    denied: bool,
    stdout: wasmtime_wasi::p2::pipe::MemoryOutputPipe,
}

fn engine(fuel: bool) -> Engine {
    let mut config = Config::new();
    config.consume_fuel(fuel);
    config.wasm_exceptions(true);
    Engine::new(&config).expect("engine")
}

/// What a run gets: a function with arguments, or a WASI command with its argv and a folder.
pub enum Entry<'a> {
    Call(&'a str, &'a [Val]),
    Command {
        args: &'a [&'a str],
        job: &'a std::path::Path,
    },
    /// A WASI reactor (`_initialize`, then `run`), as the Python runtime: argv, environment and
    /// read-only folders (host, guest).
    Reactor {
        args: &'a [&'a str],
        env: &'a [(&'a str, &'a str)],
        preopens: &'a [(&'a std::path::Path, &'a str)],
    },
}

impl Entry<'_> {
    fn is_wasi(&self) -> bool {
        !matches!(self, Entry::Call(..))
    }

    /// The export to call and its arguments (after a reactor's `_initialize`).
    fn export(&self) -> (&str, &[Val]) {
        match self {
            Entry::Call(name, args) => (name, args),
            Entry::Command { .. } => ("_start", &[]),
            Entry::Reactor { .. } => ("run", &[]),
        }
    }
}

/// A clock that advances 1 µs per reading, from a fixed start: the same program reads the same
/// times in both runs.
#[derive(Clone, Default)]
struct Ticks(Arc<AtomicU64>);

impl HostMonotonicClock for Ticks {
    fn resolution(&self) -> u64 {
        1_000
    }
    fn now(&self) -> u64 {
        self.0.fetch_add(1_000, Ordering::Relaxed)
    }
}

impl HostWallClock for Ticks {
    fn resolution(&self) -> Duration {
        Duration::from_micros(1)
    }
    fn now(&self) -> Duration {
        Duration::from_secs(1_700_000_000)
            + Duration::from_nanos(self.0.fetch_add(1_000, Ordering::Relaxed))
    }
}

fn store(engine: &Engine, entry: &Entry<'_>, memory_limit: u64) -> Store<State> {
    let stdout = wasmtime_wasi::p2::pipe::MemoryOutputPipe::new(1 << 20);
    let (args, env, preopens): (&[&str], &[(&str, &str)], Vec<(&std::path::Path, &str)>) =
        match entry {
            Entry::Call(..) => (&[], &[], Vec::new()),
            Entry::Command { args, job } => (args, &[], vec![(*job, "/job")]),
            Entry::Reactor {
                args,
                env,
                preopens,
            } => (args, env, preopens.to_vec()),
        };
    let wasi = match entry {
        Entry::Call(..) => None,
        _ => {
            let clock = Ticks::default();
            let mut wasi = WasiCtxBuilder::new();
            wasi.args(args)
                .envs(env)
                .stdout(stdout.clone())
                .wall_clock(clock.clone())
                .monotonic_clock(clock)
                .secure_random(wasmtime_wasi::Deterministic::new(vec![7; 4096]))
                .insecure_random(wasmtime_wasi::Deterministic::new(vec![9; 4096]))
                .insecure_random_seed(0x5eed);
            for (host, guest) in preopens {
                wasi.preopened_dir(host, guest, FsPerms::ReadOnly)
                    .expect("preopen");
            }
            Some(wasi.build_p1())
        }
    };
    Store::new(
        engine,
        State {
            wasi,
            limits: StoreLimitsBuilder::new()
                .memory_size(memory_limit as usize)
                .build(),
            memory_limit,
            denied: false,
            stdout,
        },
    )
}

fn linker(engine: &Engine, wasi: bool) -> Linker<State> {
    let mut linker = Linker::new(engine);
    if wasi {
        wasmtime_wasi::p1::add_to_linker_sync(&mut linker, |s: &mut State| {
            s.wasi.as_mut().expect("a command has WASI")
        })
        .expect("wasi");
        // The Python runtime's door to a partner: closed here (-1, "no host"), as in a run
        // without one.
        linker
            .func_wrap("host", "call", |_: i32, _: i32, _: i32, _: i32| -> i32 {
                -1
            })
            .expect("host.call");
    }
    linker
}

fn call(
    store: &mut Store<State>,
    linker: &Linker<State>,
    module: &Module,
    entry: &Entry<'_>,
) -> Result<Vec<i64>, wasmtime::Error> {
    let instance = linker.instantiate(&mut *store, module)?;
    initialize(&mut *store, &instance, entry)?;
    let (name, args) = entry.export();
    let func = instance
        .get_func(&mut *store, name)
        .unwrap_or_else(|| panic!("no export {name}"));
    let mut results = vec![Val::I32(0); func.ty(&*store).results().len()];
    func.call(&mut *store, args, &mut results)?;
    Ok(results
        .iter()
        .map(|v| match v {
            Val::I32(x) => i64::from(*x),
            Val::I64(x) => *x,
            other => panic!("unexpected result {other:?}"),
        })
        .collect())
}

/// A reactor's `_initialize`, if it has one.
fn initialize(
    store: &mut Store<State>,
    instance: &wasmtime::Instance,
    entry: &Entry<'_>,
) -> Result<(), wasmtime::Error> {
    if matches!(entry, Entry::Reactor { .. }) {
        if let Some(init) = instance.get_func(&mut *store, "_initialize") {
            init.call(&mut *store, &[], &mut [])?;
        }
    }
    Ok(())
}

fn end_of(result: Result<Vec<i64>, wasmtime::Error>) -> End {
    match result {
        Ok(values) => End::Returned(values),
        Err(error) => {
            if let Some(exit) = error.downcast_ref::<wasmtime_wasi::I32Exit>() {
                End::Exit(exit.0)
            } else if let Some(trap) = error.downcast_ref::<wasmtime::Trap>() {
                if *trap == wasmtime::Trap::OutOfFuel {
                    End::OutOfFuel
                } else {
                    End::Trap(format!("{trap:?}"))
                }
            } else {
                panic!("host error: {error:?}")
            }
        }
    }
}

/// Runs the original `wasm` with wasmtime's fuel.
pub fn original(wasm: &[u8], entry: &Entry<'_>, budget: u64, memory_limit: u64) -> Run {
    plain(wasm, entry, Some(budget), memory_limit)
}

/// Runs the original `wasm` without fuel (its `fuel` is 0): the speed to compare with.
pub fn unmetered(wasm: &[u8], entry: &Entry<'_>) -> Run {
    plain(wasm, entry, None, 1 << 32)
}

fn plain(wasm: &[u8], entry: &Entry<'_>, budget: Option<u64>, memory_limit: u64) -> Run {
    let engine = engine(budget.is_some());
    let module = Module::new(&engine, wasm).expect("original compiles");
    let mut store = store(&engine, entry, memory_limit);
    store.limiter(|s| &mut s.limits);
    if let Some(budget) = budget {
        store.set_fuel(budget).expect("fuel");
    }
    let linker = linker(&engine, entry.is_wasi());
    let started = Instant::now();
    let result = call(&mut store, &linker, &module, entry);
    let wall = started.elapsed();
    let end = end_of(result);
    let fuel = budget.map_or(0, |b| b - store.get_fuel().expect("fuel"));
    let stdout = String::from_utf8_lossy(&store.data().stdout.contents()).into_owned();
    Run {
        fuel,
        end,
        // StoreLimits does not say; the tests of denial use the metered host.
        memory_denied: false,
        stdout,
        wall,
    }
}

/// Runs the metered `wasm` without fuel, as the browser would.
pub fn metered(wasm: &[u8], entry: &Entry<'_>, budget: u64, memory_limit: u64) -> Run {
    let engine = engine(false);
    let module = Module::new(&engine, wasm).expect("metered module compiles");
    let mut store = store(&engine, entry, memory_limit);
    let mut linker = linker(&engine, entry.is_wasi());
    linker
        .func_wrap(
            wasmeval_meter::GROW_MODULE,
            wasmeval_meter::GROW_FIELD,
            |mut caller: Caller<'_, State>, delta: i32| -> i32 {
                let memory = caller
                    .get_export("memory")
                    .and_then(|e| e.into_memory())
                    .expect("the module exports its memory");
                let old = memory.size(&caller);
                let pages = u64::from(delta as u32);
                let limit = caller.data().memory_limit;
                if (old + pages) * 65536 > limit {
                    caller.data_mut().denied = true;
                    return -1;
                }
                match memory.grow(&mut caller, pages) {
                    Ok(old) => old as i32,
                    Err(_) => -1,
                }
            },
        )
        .expect("grow import");
    // The global is an export of the instance; set it between instantiation and the call.
    let started = Instant::now();
    let result = (|| {
        let instance = linker.instantiate(&mut store, &module)?;
        let fuel = instance
            .get_global(&mut store, wasmeval_meter::FUEL_GLOBAL)
            .expect("fuel global");
        // What a start function used counts against the budget, as in wasmtime.
        let started_with = fuel.get(&mut store).unwrap_i64();
        let used_at_start = wasmeval_meter::FUEL_AT_START - started_with;
        fuel.set(&mut store, Val::I64(budget as i64 - used_at_start))?;
        initialize(&mut store, &instance, entry)?;
        let (name, args) = entry.export();
        let func = instance.get_func(&mut store, name).expect("export");
        let mut results = vec![Val::I32(0); func.ty(&store).results().len()];
        let outcome = func.call(&mut store, args, &mut results);
        let left = fuel.get(&mut store).unwrap_i64();
        Ok::<_, wasmtime::Error>((outcome.map(|()| results), left))
    })();
    let wall = started.elapsed();
    let (outcome, left) = result.expect("instantiation");
    let trapped = matches!(&outcome, Err(e) if e.downcast_ref::<wasmtime::Trap>().is_some());
    let end = end_of(outcome.map(|values| {
        values
            .iter()
            .map(|v| match v {
                Val::I32(x) => i64::from(*x),
                Val::I64(x) => *x,
                other => panic!("unexpected result {other:?}"),
            })
            .collect()
    }));
    // The contract: after a trap, a negative global means out of fuel. A run may end past its
    // budget without a check on the way (wasmtime then reports the whole budget used).
    let (end, fuel) = if trapped && left < 0 {
        (End::OutOfFuel, budget)
    } else {
        (end, (budget as i64 - left.max(0)) as u64)
    };
    Run {
        fuel,
        end,
        memory_denied: store.data().denied,
        stdout: String::from_utf8_lossy(&store.data().stdout.contents()).into_owned(),
        wall,
    }
}

/// Runs `wasm` both ways and checks that they agree on everything but time.
pub fn both(wasm: &[u8], entry: &Entry<'_>, budget: u64) -> (Run, Run) {
    let metered_wasm = wasmeval_meter::instrument(wasm).expect("instrument").bytes;
    let a = original(wasm, entry, budget, 1 << 32);
    let b = metered(&metered_wasm, entry, budget, 1 << 32);
    assert_eq!(
        (&a.end, a.fuel, &a.stdout),
        (&b.end, b.fuel, &b.stdout),
        "original (left) and metered (right) differ"
    );
    (a, b)
}
