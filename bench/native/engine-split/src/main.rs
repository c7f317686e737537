//! Runs a WASI command module under wasmeval's engine configuration (runner/src/sandbox/mod.rs:
//! pooling allocator, wasm exceptions, 8 MiB wasm stack, wasmtime's defaults otherwise) with fuel
//! metering and epoch interruption each on or off, and prints the best execution time of each of
//! the four combinations, to separate what the instrumentation costs from what the code generator
//! costs. The sandbox itself never runs without both.
//!
//! Usage: `engine-split MODULE STDIN [RUNS]`; prints `fuel+epoch fuel epoch none` seconds.

use anyhow::{bail, Context, Result};
use std::time::Instant;
use wasmtime::{
    Config, Engine, InstanceAllocationStrategy, Linker, Module, PoolingAllocationConfig, Store,
};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{I32Exit, WasiCtxBuilder};

fn engine(fuel: bool, epoch: bool) -> Result<Engine> {
    let mut pool = PoolingAllocationConfig::new();
    pool.total_core_instances(2)
        .total_memories(4)
        .total_tables(8)
        .total_gc_heaps(2)
        .total_stacks(2)
        .table_elements(1 << 20)
        .max_core_instance_size(16 << 20)
        .linear_memory_keep_resident(48 << 20);
    let mut config = Config::new();
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    config.consume_fuel(fuel);
    config.epoch_interruption(epoch);
    config.max_wasm_stack(8 << 20);
    config.async_stack_size(9 << 20);
    config.wasm_exceptions(true);
    Ok(Engine::new(&config)?)
}

/// The best of `runs` executions in seconds, and what the module printed.
fn time(engine: &Engine, wasm: &[u8], stdin: &str, runs: u32) -> Result<(f64, Vec<u8>)> {
    let module = Module::new(engine, wasm)?;
    let mut linker: Linker<WasiP1Ctx> = Linker::new(engine);
    wasmtime_wasi::p1::add_to_linker_sync(&mut linker, |ctx| ctx)?;
    let mut best = f64::MAX;
    let mut printed = Vec::new();
    for _ in 0..runs {
        let stdout = MemoryOutputPipe::new(1 << 20);
        let ctx = WasiCtxBuilder::new()
            .stdin(MemoryInputPipe::new(format!("{stdin}\n")))
            .stdout(stdout.clone())
            .build_p1();
        let mut store = Store::new(engine, ctx);
        if engine.get_consume_fuel() {
            store.set_fuel(u64::MAX / 2)?;
        }
        store.set_epoch_deadline(u64::MAX / 2);
        let instance = linker.instantiate(&mut store, &module)?;
        let start = instance.get_typed_func::<(), ()>(&mut store, "_start")?;
        let began = Instant::now();
        let result = start.call(&mut store, ());
        let seconds = began.elapsed().as_secs_f64();
        if let Err(error) = result {
            if error.downcast_ref::<I32Exit>().map(|exit| exit.0) != Some(0) {
                bail!("the module failed: {error:#}");
            }
        }
        best = best.min(seconds);
        printed = stdout.contents().to_vec();
    }
    Ok((best, printed))
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        bail!("usage: engine-split MODULE STDIN [RUNS]");
    }
    let wasm = std::fs::read(&args[1]).with_context(|| format!("cannot read {}", args[1]))?;
    let runs = args.get(3).map_or(Ok(3), |runs| runs.parse())?;
    let mut outputs = Vec::new();
    let mut line = Vec::new();
    for (fuel, epoch) in [(true, true), (true, false), (false, true), (false, false)] {
        let (seconds, printed) = time(&engine(fuel, epoch)?, &wasm, &args[2], runs)?;
        line.push(format!("{seconds:.3}"));
        outputs.push(printed);
    }
    if outputs.windows(2).any(|pair| pair[0] != pair[1]) {
        bail!("the four configurations printed different outputs");
    }
    println!("{}", line.join(" "));
    Ok(())
}
