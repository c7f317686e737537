//! Project automation that needs more than a shell script: `cargo run -p xtask -- site` builds the
//! static site (the Yew app in `web/`) into a folder any static host can serve.

mod pins;
mod site;
mod tidy;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// wasmeval's project tasks.
#[derive(Debug, Parser)]
#[command(name = "xtask", about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Builds the static site: wasmeval-web for wasm32-unknown-unknown, wasm-bindgen, wasm-opt when
    /// installed, index.html, style.css and the demo bundle, into one ready-to-host folder.
    Site(site::SiteArgs),
    /// Checks that the wasm-bindgen pins of web/ and xtask/ resolve to the same version.
    CheckPins,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = workspace_root();
    let outcome = match cli.command {
        Command::Site(args) => site::run(&root, &args),
        Command::CheckPins => pins::check(&root).map(|version| {
            println!("wasm-bindgen {version} in web/ and xtask/");
        }),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The repository's root (xtask/ sits in it). `cargo run` passes CARGO_MANIFEST_DIR at run time;
/// it wins over the compile-time value, which names the checkout the binary was built from (two
/// checkouts sharing a CARGO_TARGET_DIR share one xtask binary).
fn workspace_root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
        .parent()
        .expect("xtask/ sits in the workspace")
        .to_owned()
}
