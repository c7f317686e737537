//! The real guests, metered: QuickJS runs a program both ways with the same output and the same
//! fuel, an endless loop runs out of fuel in both, and the slowdown is printed (`--nocapture`).

use crate::host::{both, End, Entry};
use std::path::PathBuf;

/// The installed runtimes (`$WASMEVAL_HOME`, default `~/.cache/wasmeval`).
fn runtime(relative: &str) -> Option<Vec<u8>> {
    let home = std::env::var_os("WASMEVAL_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/wasmeval")))?;
    let path = home.join(relative);
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(_) => {
            eprintln!(
                "skipped: {} is not installed (scripts/setup installs it)",
                path.display()
            );
            None
        }
    }
}

const PRELUDE: &str = include_str!("../../../guests/js/prelude.js");

fn js_job(program: &str) -> tempfile::TempDir {
    let job = tempfile::tempdir().unwrap();
    std::fs::write(job.path().join("prelude.js"), PRELUDE).unwrap();
    std::fs::write(job.path().join("program.js"), program).unwrap();
    job
}

const ARGS: [&str; 4] = ["js", "--prelude", "/job/prelude.js", "/job/program.js"];

#[test]
fn a_javascript_program_costs_the_same_fuel_metered() {
    let Some(js) = runtime("js/js.wasm") else {
        return;
    };
    let job = js_job(
        "const xs = [];\n\
         for (let i = 0; i < 2000; i++) xs.push((i * 7919) % 1009);\n\
         xs.sort((a, b) => a - b);\n\
         try { JSON.parse('{bad'); } catch (e) { console.log('caught', e.name); }\n\
         console.log(xs.slice(0, 5).join(','), xs.reduce((a, b) => a + b, 0));\n",
    );
    let entry = Entry::Command {
        args: &ARGS,
        job: job.path(),
    };
    let (original, metered) = both(&js, &entry, 2_000_000_000);
    assert_eq!(original.end, End::Exit(0));
    assert_eq!(original.stdout, "caught SyntaxError\n0,0,1,1,2 1008062\n");
    eprintln!("JavaScript program: {} fuel both ways", metered.fuel);
}

#[test]
fn an_endless_javascript_loop_runs_out_of_fuel_metered() {
    let Some(js) = runtime("js/js.wasm") else {
        return;
    };
    let job = js_job("let i = 0; while (true) { i++; }\n");
    let entry = Entry::Command {
        args: &ARGS,
        job: job.path(),
    };
    let (original, metered) = both(&js, &entry, 50_000_000);
    assert_eq!(original.end, End::OutOfFuel);
    assert_eq!(metered.end, End::OutOfFuel);
}

#[test]
fn the_metered_javascript_guest_is_slower_by_a_printed_factor() {
    let Some(js) = runtime("js/js.wasm") else {
        return;
    };
    let job = js_job(
        "let s = 0;\nfor (let i = 0; i < 3000000; i++) { s = (s + i * i) % 1000003; }\nconsole.log(s);\n",
    );
    let entry = Entry::Command {
        args: &ARGS,
        job: job.path(),
    };
    let (original, metered) = both(&js, &entry, u64::MAX / 4);
    let plain = crate::host::unmetered(&js, &entry);
    assert_eq!(plain.stdout, original.stdout);
    eprintln!(
        "CPU-bound loop ({} fuel): wasmtime without fuel {:.3} s, with fuel {:.3} s, metered without fuel {:.3} s ({:.2}x of no fuel, {:.2}x of fuel)",
        original.fuel,
        plain.wall.as_secs_f64(),
        original.wall.as_secs_f64(),
        metered.wall.as_secs_f64(),
        metered.wall.as_secs_f64() / plain.wall.as_secs_f64(),
        metered.wall.as_secs_f64() / original.wall.as_secs_f64(),
    );
}

/// The Python runtime's folder (`$WASMEVAL_HOME/python`), when installed.
fn python_home() -> Option<PathBuf> {
    let home = std::env::var_os("WASMEVAL_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/wasmeval")))?;
    Some(home.join("python"))
}

// Ignored: compiling the 104 MB interpreter twice (with and without fuel) takes minutes.
// Run with `cargo test --release -p wasmeval-meter --test it python -- --ignored --nocapture`.
#[test]
#[ignore]
fn a_python_program_costs_the_same_fuel_metered() {
    let Some(python) = runtime("python/python-snapshot.wasm") else {
        return;
    };
    let home = python_home().expect("home");
    let started = std::time::Instant::now();
    let metered = wasmeval_meter::instrument(&python).expect("instrument");
    eprintln!(
        "python-snapshot.wasm: {} -> {} bytes in {:.2} s",
        python.len(),
        metered.bytes.len(),
        started.elapsed().as_secs_f64()
    );
    let (root, lib) = (home.join("root"), home.join("lib"));
    let preopens = [(root.as_path(), "/"), (lib.as_path(), "/usr/local/lib")];
    let env = [
        ("PYTHONTZPATH", ""),
        ("PYTHONHASHSEED", "0"),
        ("PYTHONDONTWRITEBYTECODE", "1"),
    ];
    let program = "import json\n\
        xs = sorted((i * 7919) % 1009 for i in range(2000))\n\
        try:\n    json.loads('{bad')\nexcept ValueError as e:\n    print('caught', type(e).__name__)\n\
        print(xs[:5], sum(xs))\n";
    let args = ["/usr/local/bin/python.wasm", "-c", program];
    let entry = Entry::Reactor {
        args: &args,
        env: &env,
        preopens: &preopens,
    };
    let (original, metered) = both(&python, &entry, 20_000_000_000);
    assert_eq!(
        original.stdout,
        "caught JSONDecodeError\n[0, 0, 1, 1, 2] 1008062\n"
    );
    eprintln!("Python program: {} fuel both ways", metered.fuel);
}
