//! The Rust toolchain: rustc from rustup's stable toolchain, targeting wasm32-wasip1.

use super::OUTPUT_NAME;
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The compilation target.
pub const TARGET: &str = "wasm32-wasip1";

/// The host's target triple, under which the toolchain keeps its own linkers.
#[cfg(target_arch = "x86_64")]
const HOST_TARGET: &str = "x86_64-unknown-linux-gnu";
#[cfg(target_arch = "aarch64")]
const HOST_TARGET: &str = "aarch64-unknown-linux-gnu";

/// Name of the source file in the scratch folder; also what messages call it.
pub const SOURCE_NAME: &str = "main.rs";

/// rustc's flags before `-o out.wasm main.rs`: one file, std only, edition 2021, optimised (the
/// evaluated programs are timed in fuel, so -O matters more than compile time: a small program
/// compiles in about 0.2 s either way), wasm SIMD enabled (wasmtime runs it by default; loops
/// vectorise as they do natively with SSE2: a scalar matrix product was 6x slower than native),
/// symbols stripped (smaller modules, faster to load). The prebuilt std is not rebuilt with
/// SIMD; the sample's own code and the generic std code it instantiates are.
pub const FLAGS: [&str; 11] = [
    "--edition",
    "2021",
    "--target",
    TARGET,
    "-O",
    "-C",
    "target-feature=+simd128",
    "-C",
    "strip=symbols",
    "--crate-type",
    "bin",
];

/// A located rustc with the wasm32-wasip1 standard library installed.
#[derive(Debug, Clone)]
pub struct RustToolchain {
    /// The toolchain's real rustc (`<sysroot>/bin/rustc`), not rustup's proxy: the proxy reads
    /// `RUSTUP_*`, `HOME` and `rust-toolchain.toml` files, none of which the confined compiler may
    /// see.
    pub rustc: PathBuf,
    /// `rustc --print sysroot`.
    pub sysroot: PathBuf,
    /// The host's shared libraries rustc and its linkers load (see [`RustToolchain::read_paths`]).
    pub libraries: Vec<PathBuf>,
}

impl RustToolchain {
    /// Finds rustc (`$RUSTC`, else `rustc` on PATH) and its sysroot; checks the target is installed.
    pub fn find() -> Result<Self> {
        let launcher = std::env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
        let output = Command::new(&launcher)
            .args(["--print", "sysroot"])
            .output()
            .with_context(|| {
                format!(
                    "cannot run `{} --print sysroot`: is Rust installed (rustup)?",
                    launcher.to_string_lossy()
                )
            })?;
        if !output.status.success() {
            bail!(
                "`{} --print sysroot` failed: {}",
                launcher.to_string_lossy(),
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        let sysroot = PathBuf::from(String::from_utf8(output.stdout)?.trim());
        let sysroot = sysroot
            .canonicalize()
            .with_context(|| format!("rustc's sysroot {} is missing", sysroot.display()))?;
        let rustc = sysroot.join("bin/rustc");
        if !rustc.is_file() {
            bail!("rustc's sysroot {} has no bin/rustc", sysroot.display());
        }
        let target_lib = sysroot.join("lib/rustlib").join(TARGET).join("lib");
        if !target_lib.is_dir() {
            bail!(
                "the {TARGET} target is not installed for {}: run scripts/install-toolchains \
                 (rustup target add {TARGET})",
                sysroot.display()
            );
        }
        let tools = sysroot.join("lib/rustlib").join(HOST_TARGET).join("bin");
        let binaries = [
            rustc.clone(),
            tools.join("rust-lld"),
            tools.join("wasm-component-ld"),
        ];
        let existing: Vec<&Path> = binaries
            .iter()
            .map(PathBuf::as_path)
            .filter(|b| b.exists())
            .collect();
        let libraries = super::confine::shared_libraries(&existing).unwrap_or_else(|| {
            [
                "/lib",
                "/lib64",
                "/usr/lib",
                "/usr/lib64",
                "/etc/ld.so.cache",
            ]
            .iter()
            .map(PathBuf::from)
            .filter(|path| path.exists())
            .collect()
        });
        Ok(RustToolchain {
            rustc,
            sysroot,
            libraries,
        })
    }

    /// rustc's arguments for compiling the scratch folder's `main.rs` into `out.wasm`.
    pub fn args() -> Vec<OsString> {
        FLAGS
            .iter()
            .chain(&["-o", OUTPUT_NAME, SOURCE_NAME])
            .map(OsString::from)
            .collect()
    }

    /// rustc's arguments for type-checking the scratch folder's `main.rs` for the host target
    /// (metadata only: nothing is generated or linked), as rustc on a 64-bit host would see it.
    pub fn host_check_args() -> Vec<OsString> {
        [
            "--edition",
            "2021",
            "--target",
            HOST_TARGET,
            "--emit=metadata",
            "--crate-type",
            "bin",
            "-o",
            "check.rmeta",
            SOURCE_NAME,
        ]
        .iter()
        .map(OsString::from)
        .collect()
    }

    /// What the confined compiler may read: the toolchain and the shared libraries it loads (each
    /// file, as `ldd` resolves them, and the dynamic loader; the library folders whole only where
    /// `ldd` is missing). Nothing else: not /etc (the loader's cache included), /usr/lib's other
    /// files, /home, /root (but for the sysroot inside it), /proc or /tmp, so `include_str!`,
    /// `#[path]` and friends fail.
    pub fn read_paths(&self) -> Vec<PathBuf> {
        let mut paths = vec![self.sysroot.clone()];
        paths.extend(self.libraries.iter().cloned());
        paths
    }
}

/// The device files the compiler may open: rustc and its linker open /dev/null and may fall back
/// to /dev/urandom for hash seeds.
pub fn devices() -> Vec<PathBuf> {
    ["/dev/null", "/dev/urandom"]
        .iter()
        .map(PathBuf::from)
        .filter(|path| path.exists())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn messages_lose_host_paths() {
        let raw = "error: couldn't read `/tmp/wasmeval-x1/../etc`\n --> /tmp/wasmeval-x1/main.rs:1:1\n\
                   note: /root/.rustup/toolchains/stable/lib/rustlib/wasm32-wasip1/lib/libstd.rlib in /tmp/wasmeval-x1";
        let cleaned = super::super::neutralise_paths(
            raw,
            Path::new("/tmp/wasmeval-x1"),
            &[(Path::new("/root/.rustup/toolchains/stable"), "<sysroot>")],
        );
        assert_eq!(
            cleaned,
            "error: couldn't read `../etc`\n --> main.rs:1:1\n\
             note: <sysroot>/lib/rustlib/wasm32-wasip1/lib/libstd.rlib in ."
        );
    }

    #[test]
    fn arguments_end_with_the_output_and_the_source() {
        let args = RustToolchain::args();
        let text: Vec<&str> = args.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            text.join(" "),
            "--edition 2021 --target wasm32-wasip1 -O -C target-feature=+simd128 -C strip=symbols \
             --crate-type bin -o out.wasm main.rs"
        );
    }
}
