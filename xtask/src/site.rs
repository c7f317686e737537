//! `xtask site`: builds wasmeval-web for the browser and lays out the folder a static host serves:
//! `index.html`, `style.css`, `wasmeval_web.js` + `wasmeval_web_bg.wasm` (wasm-bindgen, target
//! web), `demo-bundle.json`, and `sandbox/`: the browser's sandbox (wasmeval-browser-sandbox,
//! wasm-bindgen'ed the same way) with the worker script that loads it. The guests it runs are
//! not part of the site build: `wasmeval report --site DIR --with-runtimes` adds them. Everything comes from crates.io and the npm registry; nothing is
//! downloaded at build time.

use crate::pins;
use anyhow::{bail, Context};
use clap::Args;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The stem of the generated files: `wasmeval_web.js`, `wasmeval_web_bg.wasm`.
const STEM: &str = "wasmeval_web";
/// The stem of the browser sandbox's files, in `sandbox/`.
const SANDBOX_STEM: &str = "wasmeval_browser_sandbox";

/// The budget for the gzipped wasm.
const GZIP_BUDGET: u64 = 1_500_000;

/// Features rustc enables by default for wasm32-unknown-unknown, which wasm-opt must accept.
const WASM_FEATURES: &[&str] = &[
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-reference-types",
    "--enable-multivalue",
    "--enable-mutable-globals",
];

/// Flags of `xtask site`.
#[derive(Debug, Args)]
pub struct SiteArgs {
    /// Folder to write [default: web/dist].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Build the app with the dev profile and keep the name section (readable stack traces);
    /// skips wasm-opt.
    #[arg(long)]
    debug: bool,
    /// Results bundle copied as demo-bundle.json [default: out/demo/bundle.json].
    #[arg(long, value_name = "FILE")]
    demo_bundle: Option<PathBuf>,
}

/// Runs `xtask site`.
pub fn run(root: &Path, args: &SiteArgs) -> anyhow::Result<()> {
    let version = pins::check(root)?;
    let started = Instant::now();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let profile = if args.debug { "debug" } else { "release" };
    let mut build = Command::new(&cargo);
    build
        .current_dir(root)
        .args([
            "build",
            "-p",
            "wasmeval-web",
            "-p",
            "wasmeval-browser-sandbox",
            "--lib",
        ])
        .args(["--target", "wasm32-unknown-unknown"]);
    if !args.debug {
        build.arg("--release");
    }
    eprintln!(
        "xtask: building wasmeval-web and wasmeval-browser-sandbox ({profile}) for wasm32-unknown-unknown"
    );
    let status = build.status().context("cannot start cargo")?;
    if !status.success() {
        bail!("cargo build of wasmeval-web failed ({status})");
    }
    let target_dir = target_dir(&cargo, root)?;
    let built = target_dir.join("wasm32-unknown-unknown").join(profile);
    let staging = target_dir.join("site").join(profile);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot clear {}", staging.display()))?;
    }
    eprintln!("xtask: wasm-bindgen {version} (target web)");
    bindgen(
        &built.join(format!("{STEM}.wasm")),
        STEM,
        &staging,
        args.debug,
    )?;
    let sandbox = staging.join("sandbox");
    bindgen(
        &built.join(format!("{SANDBOX_STEM}.wasm")),
        SANDBOX_STEM,
        &sandbox,
        args.debug,
    )?;
    copy(
        &root.join("browser-sandbox/worker.js"),
        &sandbox.join("worker.js"),
    )?;
    let wasm = staging.join(format!("{STEM}_bg.wasm"));
    if !args.debug {
        optimize(root, &wasm)?;
    }

    let out = match &args.out {
        Some(dir) => dir.clone(),
        None => root.join("web/dist"),
    };
    publish(root, &staging, &out, args.demo_bundle.as_deref())?;

    let bytes = std::fs::read(&wasm)?;
    let gzipped = gzip_len(&bytes)?;
    println!(
        "site: {} ({:.1}s)\n  {STEM}_bg.wasm {} raw, {} gzipped (budget {})",
        out.display(),
        started.elapsed().as_secs_f64(),
        human(bytes.len() as u64),
        human(gzipped),
        human(GZIP_BUDGET)
    );
    if gzipped > GZIP_BUDGET && !args.debug {
        eprintln!("xtask: warning: the gzipped wasm is over the 1.5 MB budget");
    }
    Ok(())
}

/// Runs wasm-bindgen (target web) on `input`, writing `{stem}.js` and `{stem}_bg.wasm` into `out`.
fn bindgen(input: &Path, stem: &str, out: &Path, debug: bool) -> anyhow::Result<()> {
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(input)
        .out_name(stem)
        .web(true)?
        .typescript(false)
        // Like the wasm-bindgen CLI: `init()` fetches `{stem}_bg.wasm` beside the JS (the
        // library's default omits that path and would need it passed to `init`).
        .omit_default_module_path(false)
        .remove_name_section(!debug)
        .remove_producers_section(!debug)
        .keep_debug(debug)
        .debug(debug)
        .generate(out)
        .with_context(|| format!("wasm-bindgen failed on {}", input.display()))
}

/// Cargo's target directory (honours CARGO_TARGET_DIR and .cargo/config).
fn target_dir(cargo: &std::ffi::OsStr, root: &Path) -> anyhow::Result<PathBuf> {
    let output = Command::new(cargo)
        .current_dir(root)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .context("cannot start cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .context("cargo metadata has no target_directory")
}

/// Runs npm `binaryen`'s wasm-opt -Oz on `wasm` when the project installed it (Debian's binaryen
/// is too old to read current rustc output), and keeps its output only if it is smaller gzipped:
/// on a small Yew app -Oz saved 8% raw but grew the gzipped file by 3%.
fn optimize(root: &Path, wasm: &Path) -> anyhow::Result<()> {
    let candidates = [
        "tests/browser/node_modules/.bin/wasm-opt",
        "web/node_modules/.bin/wasm-opt",
    ];
    let Some(wasm_opt) = candidates.iter().map(|c| root.join(c)).find(|p| p.exists()) else {
        eprintln!("xtask: wasm-opt not installed under the project (npm binaryen); skipping -Oz");
        return Ok(());
    };
    let optimized = wasm.with_extension("opt.wasm");
    let status = Command::new(&wasm_opt)
        .arg("-Oz")
        .args(WASM_FEATURES)
        .arg(wasm)
        .arg("-o")
        .arg(&optimized)
        .status()
        .with_context(|| format!("cannot start {}", wasm_opt.display()))?;
    if !status.success() {
        bail!("{} -Oz failed ({status})", wasm_opt.display());
    }
    let before = gzip_len(&std::fs::read(wasm)?)?;
    let after = gzip_len(&std::fs::read(&optimized)?)?;
    if after < before {
        std::fs::rename(&optimized, wasm)?;
        eprintln!(
            "xtask: wasm-opt -Oz: {} -> {} gzipped",
            human(before),
            human(after)
        );
    } else {
        std::fs::remove_file(&optimized)?;
        eprintln!(
            "xtask: wasm-opt -Oz: {} -> {} gzipped, no gain; keeping wasm-bindgen's output",
            human(before),
            human(after)
        );
    }
    Ok(())
}

/// Copies the generated files and the static ones into `out`, replacing an earlier build's.
fn publish(
    root: &Path,
    staging: &Path,
    out: &Path,
    demo_bundle: Option<&Path>,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for generated in ["snippets", "sandbox"] {
        let folder = out.join(generated);
        if folder.exists() {
            std::fs::remove_dir_all(&folder)?;
        }
    }
    copy_tree(staging, out)?;
    let index = root.join("web/index.html");
    copy(&index, &out.join("index.html"))?;
    let style = root.join("web/style.css");
    if style.exists() {
        copy(&style, &out.join("style.css"))?;
    } else {
        eprintln!("xtask: no web/style.css; the site has no stylesheet");
    }
    let demo = demo_bundle
        .map(Path::to_owned)
        .unwrap_or_else(|| root.join("out/demo/bundle.json"));
    if demo.exists() {
        copy(&demo, &out.join("demo-bundle.json"))?;
    } else {
        eprintln!(
            "xtask: warning: no demo bundle at {} (scripts/setup writes it); the demo button will fail",
            demo.display()
        );
    }
    Ok(())
}

fn copy(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::copy(from, to)
        .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else {
            copy(&entry.path(), &target)?;
        }
    }
    Ok(())
}

fn gzip_len(bytes: &[u8]) -> anyhow::Result<u64> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?.len() as u64)
}

fn human(bytes: u64) -> String {
    if bytes >= 1_000_000 {
        format!("{:.2} MB", bytes as f64 / 1e6)
    } else {
        format!("{:.1} kB", bytes as f64 / 1e3)
    }
}
