//! Meters a module file and prints the pass's time and the size growth; with a second argument,
//! writes the metered module there. The output is checked by wasmtime's validator.
//!
//! `cargo run --release -p wasmeval-meter --example instrument -- IN.wasm [OUT.wasm]`

use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let input = args.next().ok_or("usage: instrument IN.wasm [OUT.wasm]")?;
    let original = std::fs::read(&input)?;
    let started = Instant::now();
    let metered = wasmeval_meter::instrument(&original)?;
    let took = started.elapsed();
    println!(
        "{input}: {} bytes -> {} bytes ({:+.1}%) in {:.2} s; memory 0: {:?}",
        original.len(),
        metered.bytes.len(),
        (metered.bytes.len() as f64 / original.len() as f64 - 1.0) * 100.0,
        took.as_secs_f64(),
        metered.memory,
    );
    let mut config = wasmtime::Config::new();
    config.wasm_exceptions(true);
    let engine = wasmtime::Engine::new(&config)?;
    let started = Instant::now();
    wasmtime::Module::validate(&engine, &metered.bytes)?;
    println!(
        "valid (checked in {:.2} s)",
        started.elapsed().as_secs_f64()
    );
    if let Some(output) = args.next() {
        std::fs::write(output, &metered.bytes)?;
    }
    Ok(())
}
