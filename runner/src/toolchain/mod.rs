//! Compilers that turn a sample's source into a WASI module: confined, limited and cached.
//!
//! The source is untrusted, and compiling it is already running it a little: Rust's `include_str!`,
//! `env!`, `#[path]` and const evaluation act at compile time, on the host. So the compiler runs
//! in a fresh scratch folder, with an empty environment, under CPU, address-space and file-size
//! rlimits, a wall-clock backstop, capped output, and a Landlock domain that lets it read only the
//! toolchain and the system's shared libraries and write only the scratch folder ([`confine`]).
//! Without Landlock enforced, [`Toolchains`] refuses to compile unless told `allow_unconfined`.
//!
//! C and C++ go through Debian's clang 19 ([`clang`]) under the same confinement, with a project
//! sysroot (symlinks to wasi-libc and libc++, kept in the cache folder) so that the host's
//! /usr/include is neither searched nor readable.
//!
//! A Rust program can also be type-checked for the host target
//! ([`Toolchains::check_rust_on_host`]), under the same confinement: where `isize` is 64 bits
//! wide and still not `i64`.
//!
//! Compiled modules are cached in `<cache_dir>/<key>.wasm`, the key being the SHA-256 of the
//! compiler's `-vV` (`--version`) output, its flags and the source; a hit does not start the
//! compiler. Compile errors are not cached (they are cheap to reproduce, and timeouts depend on
//! the limits).

pub mod clang;
pub mod confine;
pub mod go;
pub mod rust;

use anyhow::{bail, Context, Result};
use clang::ClangToolchain;
use confine::{Confinement, CONFINE_FAILED, FAILURE_PREFIX};
use go::GoToolchain;
use rust::RustToolchain;
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wasmeval_core::Language;

/// The largest file the compiler may write (the module, its temporary files): a source that
/// expands into a huge data section is stopped by SIGXFSZ before it fills the disk.
pub const FILE_LIMIT: u64 = 256 << 20;

/// The largest module a sample may compile to: beyond it (`#embed` or `include_bytes!` of a large
/// file, a huge static table) the sample's source is a compile error, and nothing is cached.
pub const MODULE_LIMIT: usize = 32 << 20;

/// The compiled-module cache is trimmed (oldest files first) when it grows past this.
pub const CACHE_LIMIT: u64 = 2 << 30;

/// Limits of one compilation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompileLimits {
    /// CPU time of the compiler process (RLIMIT_CPU); the wall-clock backstop is twice this plus 5 s.
    pub cpu_seconds: u64,
    /// Address space of the compiler (RLIMIT_AS); rustc needs about 0.5 GiB for a small program.
    pub memory_bytes: u64,
    /// Bytes of compiler output (the message) kept; the rest is read and discarded.
    pub output_bytes: u64,
}

impl Default for CompileLimits {
    fn default() -> Self {
        CompileLimits {
            cpu_seconds: 20,
            memory_bytes: 2 << 30,
            output_bytes: 64 << 10,
        }
    }
}

impl CompileLimits {
    /// The wall-clock backstop: a compiler blocked (not burning CPU) is killed after this.
    pub fn wall(&self) -> Duration {
        Duration::from_secs(self.cpu_seconds.saturating_mul(2).saturating_add(5))
    }
}

/// The outcome of compiling a source. A failure of the *source* (errors, limits) is a value; a
/// failure of the host is the `Err` of [`Toolchains::compile`].
#[derive(Debug, Clone)]
pub enum Compiled {
    /// The WASI module's bytes; `cached` when they came from the cache without running the compiler.
    Module {
        /// The module (a `.wasm` binary).
        wasm: Arc<Vec<u8>>,
        /// Read from the cache.
        cached: bool,
    },
    /// The compiler rejected the source (or ran out of memory or file size); its diagnostics.
    Error {
        /// The compiler's stderr with host paths neutralised, capped to `output_bytes`.
        message: String,
    },
    /// The compiler ran out of CPU time or wall-clock time.
    Timeout {
        /// Which limit, and what the compiler had said so far.
        message: String,
    },
}

/// What the shared compilation ([`Toolchains::compile`]: confined, limited, cached) needs to know
/// of one compiler. Each compiler is its own type: [`Rust`] (rustc) and [`Clang`] (C and C++).
trait Compiler: Sync + Send {
    /// The executable to run.
    fn program(&self) -> &Path;
    /// Its arguments for compiling the scratch folder's source into [`OUTPUT_NAME`].
    fn args(&self, language: Language) -> Vec<OsString>;
    /// The source's file name in the scratch folder.
    fn source_name(&self, language: Language) -> &'static str;
    /// What the confined compiler may read.
    fn read_paths(&self) -> Vec<PathBuf>;
    /// Host paths that appear in its messages and the neutral names they become (the scratch
    /// folder is always removed).
    fn neutral_paths(&self) -> Vec<(&Path, &'static str)>;
    /// Whether a failed run (its output and signal) ran out of memory.
    fn out_of_memory(&self, output: &str, signal: Option<i32>) -> bool;
    /// Whether a signal that ended it is a crash worth saying (rustc's aborts are its memory
    /// errors, already said).
    fn reports_crashes(&self) -> bool;
    /// The cache key of `source` in `language`.
    fn cache_key(&self, language: Language, source: &str) -> String;
    /// Writes `source` into the scratch folder `dir` (one file, [`Compiler::source_name`]).
    fn write_source(&self, language: Language, source: &str, dir: &Path) -> Result<()> {
        std::fs::write(dir.join(self.source_name(language)), source)
            .context("cannot write the source into the scratch folder")
    }
    /// Environment variables of a compilation in `scratch`, beyond the empty environment.
    fn env(&self, _scratch: &Path) -> Vec<(OsString, OsString)> {
        Vec::new()
    }
    /// Folders the compiler may write besides the scratch folder.
    fn write_paths(&self) -> Vec<PathBuf> {
        Vec::new()
    }
}

/// The Go distribution, its `go version` (part of every Go cache key) and its build cache.
#[derive(Debug)]
struct Go {
    toolchain: GoToolchain,
    version: String,
    /// `GOCACHE`: one folder per Go version in the compiled-module cache folder.
    cache: PathBuf,
}

impl Compiler for Go {
    fn program(&self) -> &Path {
        &self.toolchain.go
    }
    fn args(&self, _language: Language) -> Vec<OsString> {
        GoToolchain::args()
    }
    fn source_name(&self, _language: Language) -> &'static str {
        "main.go"
    }
    fn read_paths(&self) -> Vec<PathBuf> {
        self.toolchain.read_paths()
    }
    fn neutral_paths(&self) -> Vec<(&Path, &'static str)> {
        vec![
            (&self.toolchain.goroot, "<goroot>"),
            (&self.cache, "<gocache>"),
        ]
    }
    fn out_of_memory(&self, output: &str, _signal: Option<i32>) -> bool {
        // The Go runtime's message when an allocation (or a thread) cannot be had.
        output.contains("out of memory") || output.contains("cannot allocate memory")
    }
    fn reports_crashes(&self) -> bool {
        true
    }
    fn cache_key(&self, _language: Language, source: &str) -> String {
        // The environment's settings are the flags too: they change what is built.
        let scratch = Path::new("<scratch>");
        let flags: Vec<String> = GoToolchain::args()
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .chain(
                self.toolchain
                    .env(scratch, Path::new("<gocache>"))
                    .iter()
                    .filter(|(name, _)| name != "GOROOT")
                    .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy())),
            )
            .chain([go::go_mod(&self.version)])
            .collect();
        key(&self.version, &flags.join("\0"), source)
    }
    fn write_source(&self, _language: Language, source: &str, dir: &Path) -> Result<()> {
        let dir = dir.join(go::PACKAGE_DIR);
        std::fs::create_dir(&dir).context("cannot create the package folder")?;
        std::fs::write(dir.join("go.mod"), go::go_mod(&self.version))
            .context("cannot write go.mod into the scratch folder")?;
        for (name, text) in wasmeval_core::judging::compiled::go_files(source) {
            std::fs::write(dir.join(name), text)
                .with_context(|| format!("cannot write {name} into the scratch folder"))?;
        }
        Ok(())
    }
    fn env(&self, scratch: &Path) -> Vec<(OsString, OsString)> {
        self.toolchain.env(scratch, &self.cache)
    }
    fn write_paths(&self) -> Vec<PathBuf> {
        vec![self.cache.clone()]
    }
}

/// The file every compiler writes its module to, in the scratch folder.
pub const OUTPUT_NAME: &str = "out.wasm";

/// rustc, with its `-vV` (part of every Rust cache key, so a new compiler never reuses old
/// modules).
#[derive(Debug)]
struct Rust {
    toolchain: RustToolchain,
    version: String,
}

impl Compiler for Rust {
    fn program(&self) -> &Path {
        &self.toolchain.rustc
    }
    fn args(&self, _language: Language) -> Vec<OsString> {
        RustToolchain::args()
    }
    fn source_name(&self, _language: Language) -> &'static str {
        rust::SOURCE_NAME
    }
    fn read_paths(&self) -> Vec<PathBuf> {
        self.toolchain.read_paths()
    }
    fn neutral_paths(&self) -> Vec<(&Path, &'static str)> {
        // The sysroot sits in the host's home folder.
        vec![(&self.toolchain.sysroot, "<sysroot>")]
    }
    fn out_of_memory(&self, output: &str, signal: Option<i32>) -> bool {
        // rustc's allocation failure message, then an abort.
        output.contains("memory allocation of") || signal == Some(libc_signal::ABRT)
    }
    fn reports_crashes(&self) -> bool {
        false
    }
    fn cache_key(&self, _language: Language, source: &str) -> String {
        cache_key(&self.version, source)
    }
}

/// rustc checking a Rust source for the host target, where `isize` is 64 bits wide and distinct
/// from `i64` ([`Toolchains::check_rust_on_host`]): the same confinement, other arguments.
struct RustHostCheck<'a>(&'a Rust);

impl Compiler for RustHostCheck<'_> {
    fn program(&self) -> &Path {
        self.0.program()
    }
    fn args(&self, _language: Language) -> Vec<OsString> {
        RustToolchain::host_check_args()
    }
    fn source_name(&self, language: Language) -> &'static str {
        self.0.source_name(language)
    }
    fn read_paths(&self) -> Vec<PathBuf> {
        self.0.read_paths()
    }
    fn neutral_paths(&self) -> Vec<(&Path, &'static str)> {
        self.0.neutral_paths()
    }
    fn out_of_memory(&self, output: &str, signal: Option<i32>) -> bool {
        self.0.out_of_memory(output, signal)
    }
    fn reports_crashes(&self) -> bool {
        false
    }
    fn cache_key(&self, language: Language, source: &str) -> String {
        let flags: Vec<String> = RustToolchain::host_check_args()
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        key(
            &self.0.version,
            &flags.join("\0"),
            &format!("{language}\0{source}"),
        )
    }
}

/// The located clang, its `--version` (part of every C/C++ cache key) and its project sysroot.
#[derive(Debug)]
struct Clang {
    toolchain: ClangToolchain,
    version: String,
}

impl Compiler for Clang {
    fn program(&self) -> &Path {
        &self.toolchain.clang
    }
    fn args(&self, language: Language) -> Vec<OsString> {
        self.toolchain.args(language)
    }
    fn source_name(&self, language: Language) -> &'static str {
        clang::source_name(language)
    }
    fn read_paths(&self) -> Vec<PathBuf> {
        self.toolchain.read_paths()
    }
    fn neutral_paths(&self) -> Vec<(&Path, &'static str)> {
        // The project sysroot is inside the cache folder, often in the host's home.
        vec![
            (&self.toolchain.sysroot, clang::SYSROOT_PLACEHOLDER),
            (&self.toolchain.llvm_dir, "<llvm>"),
        ]
    }
    fn out_of_memory(&self, output: &str, _signal: Option<i32>) -> bool {
        // LLVM's "out of memory" handler; a clang abort can also be a deliberate crash
        // (`#pragma clang __debug crash`), which is not a memory problem.
        clang::out_of_memory(output)
    }
    fn reports_crashes(&self) -> bool {
        true
    }
    fn cache_key(&self, language: Language, source: &str) -> String {
        key(&self.version, &clang_key_flags(language), source)
    }
}

/// The `wasmeval` executable that confines compilers in a process that is not one (see
/// [`use_helper`]).
static HELPER: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Names the `wasmeval` executable that runs `__confined-exec` for this process's compilers,
/// once: for embedders whose own executable is not wasmeval (the Python package). Later calls
/// are ignored.
pub fn use_helper(helper: PathBuf) {
    let _ = HELPER.set(helper);
}

/// The wasmeval executable, for child processes: the one an embedder named with [`use_helper`],
/// else this process's own when it is wasmeval (not when it is an embedder's, such as python's).
pub fn wasmeval_executable() -> Option<PathBuf> {
    if let Some(helper) = HELPER.get() {
        return Some(helper.clone());
    }
    let own = std::env::current_exe().ok()?;
    let is_wasmeval = own
        .file_stem()
        .and_then(|stem| stem.to_str())
        .is_some_and(|stem| stem.starts_with("wasmeval"));
    is_wasmeval.then_some(own)
}

/// The compilers found on this machine, and the module cache.
#[derive(Debug)]
pub struct Toolchains {
    /// rustc for Rust, or why it is unavailable (not installed, no wasm32-wasip1 target).
    rust: std::result::Result<Rust, String>,
    /// clang for C and C++, or why it is unavailable (not installed, cannot be confined).
    clang: std::result::Result<Clang, String>,
    /// Go, or why it is unavailable (not installed, cannot be confined).
    go: std::result::Result<Go, String>,
    cache_dir: PathBuf,
    /// The `wasmeval` binary that provides the `__confined-exec` helper.
    helper: PathBuf,
    allow_unconfined: bool,
    confinement: String,
    compiler_runs: AtomicU64,
}

impl Toolchains {
    /// Finds the compilers; `cache_dir` holds compiled .wasm files. Each compiler is optional: a
    /// missing or unusable one is not an error here, compiling its languages then fails with the
    /// reason (so C and C++ need no Rust target, and Rust no clang).
    ///
    /// Rust: rustc with the wasm32-wasip1 target; `rustc -vV` runs confined. C and C++: clang 19;
    /// `clang --version` runs confined and the project sysroot is prepared in `cache_dir`
    /// (compiling its support objects once). Running a compiler confined first means a machine
    /// where the confinement cannot be applied fails here, before any untrusted source.
    ///
    /// The helper is this process's own executable, unless an embedder named another with
    /// [`use_helper`] (the Python package, whose process is python's); tests use
    /// [`Toolchains::detect_with_helper`].
    pub fn detect(cache_dir: &Path, allow_unconfined: bool) -> Result<Self> {
        let helper = match HELPER.get() {
            Some(helper) => helper.clone(),
            None => std::env::current_exe().context("cannot locate the wasmeval executable")?,
        };
        Self::detect_with_helper(cache_dir, allow_unconfined, &helper)
    }

    /// [`Toolchains::detect`] with an explicit `wasmeval` executable as the confinement helper.
    pub fn detect_with_helper(
        cache_dir: &Path,
        allow_unconfined: bool,
        helper: &Path,
    ) -> Result<Self> {
        std::fs::create_dir_all(cache_dir)
            .with_context(|| format!("cannot create {}", cache_dir.display()))?;
        let rust = detect_rust(helper, allow_unconfined);
        let clang = detect_clang(cache_dir, helper, allow_unconfined).map_err(|e| format!("{e:#}"));
        let go = detect_go(cache_dir, helper, allow_unconfined);
        let (go, go_confinement) = match go {
            Ok((go, confinement)) => (Ok(go), Some(confinement)),
            Err(error) => (Err(format!("{error:#}")), None),
        };
        let (rust, confinement) = match rust {
            Ok((rust, confinement)) => (Ok(rust), confinement),
            Err(error) => {
                let reason = format!("{error:#}");
                // Without rustc, the confinement is read off the helper running clang or go.
                let confinement = match (&clang, go_confinement) {
                    (Ok(clang), _) => report_confinement(helper, allow_unconfined, clang)?,
                    (Err(_), Some(confinement)) => confinement,
                    (Err(clang_reason), None) => {
                        let go_reason = go.as_ref().err().cloned().unwrap_or_default();
                        bail!(
                            "no compiler is usable: rustc: {reason}; clang: {clang_reason}; \
                             go: {go_reason}"
                        )
                    }
                };
                (Err(reason), confinement)
            }
        };
        Ok(Toolchains {
            rust,
            clang,
            go,
            cache_dir: cache_dir.to_owned(),
            helper: helper.to_owned(),
            allow_unconfined,
            confinement,
            compiler_runs: AtomicU64::new(0),
        })
    }

    /// What the kernel enforces, e.g. `fully-enforced abi=7 no_new_privs=true`.
    pub fn confinement(&self) -> &str {
        &self.confinement
    }

    /// `rustc -vV` of the Rust toolchain, or why there is none.
    pub fn rust_version(&self) -> std::result::Result<&str, &str> {
        match &self.rust {
            Ok(rust) => Ok(&rust.version),
            Err(reason) => Err(reason),
        }
    }

    /// `clang --version` of the C/C++ toolchain, or why there is none.
    pub fn clang_version(&self) -> std::result::Result<&str, &str> {
        match &self.clang {
            Ok(clang) => Ok(&clang.version),
            Err(reason) => Err(reason),
        }
    }

    /// `go version` of the Go toolchain, or why there is none.
    pub fn go_version(&self) -> std::result::Result<&str, &str> {
        match &self.go {
            Ok(go) => Ok(&go.version),
            Err(reason) => Err(reason),
        }
    }

    /// `clang --version` and the project sysroot's name (a digest of its contents), or `None`
    /// without clang: what C and C++ modules depend on.
    pub fn c_compiler_identity(&self) -> Option<String> {
        let clang = self.clang.as_ref().ok()?;
        Some(format!("{}{}", clang.version, clang::sysroot_name()))
    }

    /// The folders the confined C/C++ compiler may read (empty without clang).
    pub fn clang_read_paths(&self) -> Vec<PathBuf> {
        self.clang
            .as_ref()
            .map(|clang| clang.read_paths())
            .unwrap_or_default()
    }

    /// How many times a compiler was started by [`Toolchains::compile`] (cache hits start none).
    pub fn compiler_runs(&self) -> u64 {
        self.compiler_runs.load(Ordering::Relaxed)
    }

    /// The cache file a source of `language` compiles to; Err when there is no toolchain for it.
    pub fn cache_path_for(&self, language: Language, source: &str) -> Result<PathBuf> {
        let compiler = self.compiler(language)?;
        Ok(self
            .cache_dir
            .join(format!("{}.wasm", compiler.cache_key(language, source))))
    }

    /// The compiler of `language`, or why there is none.
    fn compiler(&self, language: Language) -> Result<&dyn Compiler> {
        let (compiler, what): (std::result::Result<&dyn Compiler, &String>, _) = match language {
            Language::Rust => (self.rust.as_ref().map(|c| c as &dyn Compiler), "Rust"),
            Language::C | Language::Cpp => {
                (self.clang.as_ref().map(|c| c as &dyn Compiler), "C/C++")
            }
            Language::Go => (self.go.as_ref().map(|c| c as &dyn Compiler), "Go"),
            other => bail!("no toolchain for {other} yet"),
        };
        compiler.map_err(|reason| anyhow::anyhow!("no toolchain for {what}: {reason}"))
    }

    /// Compiles `source`; Err only for host failures. Safe to call from several threads at once
    /// (each compilation has its own scratch folder; cache files appear by atomic rename).
    pub fn compile(
        &self,
        language: Language,
        source: &str,
        limits: &CompileLimits,
    ) -> Result<Compiled> {
        let cached = self.cache_path_for(language, source)?;
        match std::fs::read(&cached) {
            Ok(wasm) => {
                crate::cache_bound::touch(&cached);
                return Ok(Compiled::Module {
                    wasm: Arc::new(wasm),
                    cached: true,
                });
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => {
                return Err(error).with_context(|| format!("cannot read {}", cached.display()))
            }
        }
        let compiler = self.compiler(language)?;
        let ran = match self.run_confined(compiler, language, source, limits)? {
            Ok(ran) => ran,
            Err(failed) => return Ok(failed),
        };
        let wasm = match std::fs::read(ran.path.join(OUTPUT_NAME)) {
            Ok(wasm) if wasm.starts_with(b"\0asm") => wasm,
            // The source cannot make the compiler succeed without a module as far as we know, but
            // if it can, that is the source's failure, not the host's.
            _ => {
                return Ok(Compiled::Error {
                    message: ran.message("the compiler reported success but wrote no module"),
                })
            }
        };
        if wasm.len() > MODULE_LIMIT {
            return Ok(Compiled::Error {
                message: ran.message(&format!(
                    "the compiled module is {} MiB, over the {} MiB a sample may compile to",
                    wasm.len() >> 20,
                    MODULE_LIMIT >> 20
                )),
            });
        }
        crate::atomic_file::write(&cached, &wasm).context("cannot store the compiled module")?;
        crate::cache_bound::trim(&self.cache_dir, CACHE_LIMIT);
        Ok(Compiled::Module {
            wasm: Arc::new(wasm),
            cached: false,
        })
    }

    /// The errors rustc for the host target gives the Rust `source` as written, or `None` when it
    /// type-checks there (or the check ran out of time: the wasm32 build decides then). This is
    /// the check of a program whose `isize`, widened to `i64` for wasm32 (core's `int_width`),
    /// meets an `i64`: on the 64-bit hosts the benchmarks were written on the two are distinct
    /// types (E0308), and after the rewrite they are one. Metadata only (no code generation);
    /// a passing check is cached (`<key>.rust-host-check`), errors are not, as for modules.
    pub fn check_rust_on_host(
        &self,
        source: &str,
        limits: &CompileLimits,
    ) -> Result<Option<String>> {
        let rust = match &self.rust {
            Ok(rust) => rust,
            Err(reason) => bail!("no toolchain for Rust: {reason}"),
        };
        let check = RustHostCheck(rust);
        let passed = self.cache_dir.join(format!(
            "{}.rust-host-check",
            check.cache_key(Language::Rust, source)
        ));
        if passed.exists() {
            crate::cache_bound::touch(&passed);
            return Ok(None);
        }
        match self.run_confined(&check, Language::Rust, source, limits)? {
            Ok(_) => {
                crate::atomic_file::write(&passed, b"")
                    .context("cannot store the host type check's result")?;
                Ok(None)
            }
            Err(Compiled::Error { message }) => Ok(Some(message)),
            Err(_) => Ok(None),
        }
    }

    /// Runs `compiler` on `source` confined, in a fresh scratch folder: the folder when it
    /// succeeded, else the source's failure (errors, limits); Err only for host failures.
    fn run_confined(
        &self,
        compiler: &dyn Compiler,
        language: Language,
        source: &str,
        limits: &CompileLimits,
    ) -> Result<std::result::Result<Ran, Compiled>> {
        let scratch = Scratch::new()?;
        compiler.write_source(language, source, &scratch.path)?;
        let mut confinement = confinement(compiler.read_paths(), &scratch.path, limits);
        confinement.write.extend(compiler.write_paths());
        confinement.allow_unconfined = self.allow_unconfined;
        self.compiler_runs.fetch_add(1, Ordering::Relaxed);
        // Read a little more than the cap: replacing the scratch path by nothing shortens the text,
        // and a path cut in half at the cap would not be replaced.
        let cap = usize::try_from(limits.output_bytes)
            .unwrap_or(usize::MAX)
            .saturating_add(4096);
        let finished = confine::run(
            &self.helper,
            &confinement,
            compiler.program(),
            &compiler.args(language),
            &compiler.env(&scratch.path),
            &scratch.path,
            cap,
            limits.wall(),
        )?;

        let stderr = String::from_utf8_lossy(&finished.stderr);
        if finished.status.code() == Some(CONFINE_FAILED) && stderr.starts_with(FAILURE_PREFIX) {
            bail!("cannot confine the compiler: {}", stderr.trim());
        }
        let mut raw = stderr.into_owned();
        if !finished.stdout.is_empty() {
            raw.push_str(&String::from_utf8_lossy(&finished.stdout));
        }
        let ran = Ran {
            said: neutralise_paths(&raw, &scratch.path, &compiler.neutral_paths()),
            truncated: finished.discarded > 0,
            output_bytes: limits.output_bytes,
            path: scratch.path.clone(),
            _scratch: scratch,
        };

        if finished.wall_killed {
            return Ok(Err(Compiled::Timeout {
                message: ran.message(&format!(
                    "compilation stopped: over {} s of wall-clock time",
                    limits.wall().as_secs()
                )),
            }));
        }
        let signal = finished.status.signal();
        if signal == Some(libc_signal::XCPU) || signal == Some(libc_signal::KILL) {
            return Ok(Err(Compiled::Timeout {
                message: ran.message(&format!(
                    "compilation stopped: over {} s of CPU time",
                    limits.cpu_seconds
                )),
            }));
        }
        if signal == Some(libc_signal::XFSZ) {
            return Ok(Err(Compiled::Error {
                message: ran.message(&format!(
                    "compilation stopped: the compiler wrote a file over {} MiB",
                    FILE_LIMIT >> 20
                )),
            }));
        }
        if !finished.status.success() {
            let out_of_memory = compiler.out_of_memory(&raw, signal);
            let note = if out_of_memory {
                format!(
                    "compilation stopped: the compiler ran out of memory (limit {} MiB)",
                    limits.memory_bytes >> 20
                )
            } else if let (Some(signal), true) = (signal, compiler.reports_crashes()) {
                format!("the compiler crashed (signal {signal})")
            } else if ran.said.trim().is_empty() {
                format!("the compiler failed ({})", finished.status)
            } else {
                String::new()
            };
            return Ok(Err(Compiled::Error {
                message: ran.message(&note),
            }));
        }
        Ok(Ok(ran))
    }
}

/// A compiler run that succeeded: its scratch folder (removed when this is dropped) and what it
/// said.
struct Ran {
    /// What the compiler wrote, host paths neutralised.
    said: String,
    /// Whether output past the cap was discarded.
    truncated: bool,
    output_bytes: u64,
    path: PathBuf,
    _scratch: Scratch,
}

impl Ran {
    /// What the compiler said, capped, followed by `note`.
    fn message(&self, note: &str) -> String {
        let truncated = self.truncated || self.said.len() as u64 > self.output_bytes;
        compose(&self.said, note, truncated, self.output_bytes)
    }
}

/// Finds rustc and checks the wasm32-wasip1 target is installed, then runs `rustc -vV` confined;
/// returns the compiler and what the kernel enforced.
fn detect_rust(helper: &Path, allow_unconfined: bool) -> Result<(Rust, String)> {
    let toolchain = RustToolchain::find()?;
    let (version, confinement) = run_reporting_confinement(
        helper,
        allow_unconfined,
        &toolchain.rustc,
        toolchain.read_paths(),
        "-vV",
    )?;
    Ok((Rust { toolchain, version }, confinement))
}

/// What the kernel enforces, read off the helper running `clang --version`.
fn report_confinement(helper: &Path, allow_unconfined: bool, clang: &Clang) -> Result<String> {
    let (_, confinement) = run_reporting_confinement(
        helper,
        allow_unconfined,
        &clang.toolchain.clang,
        clang.read_paths(),
        "--version",
    )?;
    Ok(confinement)
}

/// Runs `compiler version_flag` confined, with the helper reporting what it enforced; returns
/// the compiler's stdout and that report.
fn run_reporting_confinement(
    helper: &Path,
    allow_unconfined: bool,
    compiler: &Path,
    read: Vec<PathBuf>,
    version_flag: &str,
) -> Result<(String, String)> {
    let scratch = Scratch::new()?;
    let mut confinement = confinement(read, &scratch.path, &CompileLimits::default());
    confinement.allow_unconfined = allow_unconfined;
    confinement.report = true;
    let finished = confine::run(
        helper,
        &confinement,
        compiler,
        &[version_flag.into()],
        &[],
        &scratch.path,
        64 << 10,
        Duration::from_secs(60),
    )?;
    let stderr = String::from_utf8_lossy(&finished.stderr);
    let name = compiler.file_name().unwrap_or_default().to_string_lossy();
    if !finished.status.success() {
        bail!(
            "cannot run {name} confined ({}): {}",
            finished.status,
            stderr.trim()
        );
    }
    let report = confine::parse_report(&stderr)
        .with_context(|| format!("the confinement helper did not report: {stderr}"))?
        .to_owned();
    Ok((
        String::from_utf8_lossy(&finished.stdout).into_owned(),
        report,
    ))
}

/// Turns a compiler's output into the message users see: the scratch folder by nothing (so
/// `main.rs` stays `main.rs`), and each of `paths` (toolchain folders, often in the host's home)
/// by its neutral name.
pub fn neutralise_paths(raw: &str, scratch: &Path, paths: &[(&Path, &str)]) -> String {
    let mut text = raw.to_owned();
    for (path, neutral) in paths.iter().copied().chain([(scratch, "")]) {
        let path = path.to_string_lossy();
        if path.len() > 1 {
            if neutral.is_empty() {
                text = text.replace(&format!("{path}/"), "");
            }
            text = text.replace(
                path.as_ref(),
                if neutral.is_empty() { "." } else { neutral },
            );
        }
    }
    text
}

/// Finds clang, runs `clang --version` confined, and makes sure the project sysroot exists in
/// `cache_dir` (built in a temporary folder and renamed into place, so processes sharing the cache
/// never see half of one). The support objects are compiled, confined like any source, into it.
fn detect_clang(cache_dir: &Path, helper: &Path, allow_unconfined: bool) -> Result<Clang> {
    let mut toolchain = ClangToolchain::find()?;
    let cache_dir = cache_dir
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", cache_dir.display()))?;
    let limits = CompileLimits::default();
    let scratch = Scratch::new()?;
    let run = |toolchain: &ClangToolchain, args: Vec<OsString>| -> Result<confine::Finished> {
        let mut confinement = confinement(toolchain.read_paths(), &scratch.path, &limits);
        confinement.allow_unconfined = allow_unconfined;
        let finished = confine::run(
            helper,
            &confinement,
            &toolchain.clang,
            &args,
            &[],
            &scratch.path,
            64 << 10,
            Duration::from_secs(60),
        )?;
        if !finished.status.success() {
            bail!(
                "cannot run clang confined ({}): {}",
                finished.status,
                String::from_utf8_lossy(&finished.stderr).trim()
            );
        }
        Ok(finished)
    };
    let version = run(&toolchain, vec!["--version".into()])?;
    let version = String::from_utf8_lossy(&version.stdout).into_owned();

    let layout = toolchain.sysroot_layout();
    let sysroot = cache_dir.join(clang::sysroot_name());
    if !clang::sysroot_is_complete(&layout, &sysroot) {
        let incoming = tempfile::Builder::new()
            .prefix(".incoming-sysroot-")
            .tempdir_in(&cache_dir)
            .with_context(|| format!("cannot create a folder in {}", cache_dir.display()))?;
        let dir = incoming
            .path()
            .canonicalize()
            .context("cannot resolve the new sysroot")?;
        clang::write_layout(&layout, &dir)?;
        toolchain.set_sysroot(dir.clone());
        for support in &clang::SUPPORT {
            let object = scratch.path.join("support.o");
            run(&toolchain, toolchain.stub_args(support, &dir, &object))
                .with_context(|| format!("cannot compile {}", support.source))?;
            std::fs::copy(&object, dir.join(support.object))
                .with_context(|| format!("cannot store {}", support.object))?;
        }
        if let Err(error) = std::fs::rename(&dir, &sysroot) {
            // Another process may have finished first; a stale or broken one is replaced.
            if !clang::sysroot_is_complete(&layout, &sysroot) {
                let _ = std::fs::remove_dir_all(&sysroot);
                std::fs::rename(&dir, &sysroot).with_context(|| {
                    format!(
                        "cannot move the sysroot into {} ({error})",
                        sysroot.display()
                    )
                })?;
            }
        }
    }
    toolchain.set_sysroot(sysroot);
    Ok(Clang { toolchain, version })
}

/// Finds Go, runs `go version` confined (with the build's environment), and makes its build
/// cache folder in `cache_dir`; returns the compiler and what the kernel enforced.
fn detect_go(cache_dir: &Path, helper: &Path, allow_unconfined: bool) -> Result<(Go, String)> {
    let toolchain = GoToolchain::find()?;
    let cache_dir = cache_dir
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", cache_dir.display()))?;
    let scratch = Scratch::new()?;
    let mut confinement = confinement(
        toolchain.read_paths(),
        &scratch.path,
        &CompileLimits::default(),
    );
    confinement.allow_unconfined = allow_unconfined;
    confinement.report = true;
    let finished = confine::run(
        helper,
        &confinement,
        &toolchain.go,
        &["version".into()],
        &toolchain.env(&scratch.path, &scratch.path.join("cache")),
        &scratch.path,
        64 << 10,
        Duration::from_secs(60),
    )?;
    let stderr = String::from_utf8_lossy(&finished.stderr);
    if !finished.status.success() {
        bail!(
            "cannot run go confined ({}): {}",
            finished.status,
            stderr.trim()
        );
    }
    let report = confine::parse_report(&stderr)
        .with_context(|| format!("the confinement helper did not report: {stderr}"))?
        .to_owned();
    let version = String::from_utf8_lossy(&finished.stdout).trim().to_owned();
    let cache = cache_dir.join(go::cache_folder_name(&version));
    std::fs::create_dir_all(&cache)
        .with_context(|| format!("cannot create {}", cache.display()))?;
    Ok((
        Go {
            toolchain,
            version,
            cache,
        },
        report,
    ))
}

/// Signal numbers (Linux) that end a confined compiler.
mod libc_signal {
    use rustix::process::Signal;
    pub const KILL: i32 = Signal::KILL.as_raw();
    pub const XCPU: i32 = Signal::XCPU.as_raw();
    pub const XFSZ: i32 = Signal::XFSZ.as_raw();
    pub const ABRT: i32 = Signal::ABORT.as_raw();
}

/// The confinement of one compilation in `scratch`, reading only `read`.
fn confinement(read: Vec<PathBuf>, scratch: &Path, limits: &CompileLimits) -> Confinement {
    Confinement {
        read,
        devices: rust::devices(),
        write: vec![scratch.to_owned()],
        cpu_seconds: limits.cpu_seconds,
        memory_bytes: limits.memory_bytes,
        file_bytes: FILE_LIMIT,
        allow_unconfined: false,
        report: false,
    }
}

/// The cache key of a Rust source: SHA-256 over the compiler's version, its flags and the source,
/// each length-prefixed so no two different triples hash the same bytes.
pub fn cache_key(rust_version: &str, source: &str) -> String {
    let args = RustToolchain::args();
    let flags: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    key(rust_version, &flags.join("\0"), source)
}

/// The flags part of a C or C++ cache key: the language, the project sysroot's name (a digest of
/// its layout, wasmeval's headers and the support objects' sources) and clang's flags, with the
/// sysroot as a placeholder so the key does not depend on where the cache folder is.
pub fn clang_key_flags(language: Language) -> String {
    let mut parts = vec![language.to_string(), clang::sysroot_name()];
    parts.extend(clang::flags(language));
    parts.push(clang::source_name(language).to_owned());
    parts.join("\0")
}

/// SHA-256 over (compiler version, flags, source), each length-prefixed.
fn key(version: &str, flags: &str, source: &str) -> String {
    let mut hasher = Sha256::new();
    // v2: compilers run with a fixed SOURCE_DATE_EPOCH, which changes __DATE__ in modules.
    hasher.update(b"wasmeval toolchain cache v2\0");
    for part in [version, flags, source] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    format!("{:x}", hasher.finalize())
}

/// The message: what the compiler said (at most `cap` bytes with the note), then the note.
fn compose(said: &str, note: &str, truncated: bool, cap: u64) -> String {
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    let mut tail = String::new();
    if truncated {
        tail.push_str("\n[compiler output truncated]");
    }
    if !note.is_empty() {
        tail.push('\n');
        tail.push_str(note);
    }
    let room = cap.saturating_sub(tail.len());
    let mut head = said.trim_end();
    if head.len() > room {
        let mut cut = room;
        while !head.is_char_boundary(cut) {
            cut -= 1;
        }
        head = &head[..cut];
    }
    let mut text = format!("{head}{tail}");
    if head.is_empty() {
        text = text.trim_start().to_owned();
    }
    if text.len() > cap {
        // A cap smaller than the note itself: the note, cut.
        let mut cut = cap;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

/// A fresh scratch folder, by its canonical path (a symlinked /tmp would otherwise make the
/// Landlock rule and the message cleaning miss it); removed on drop.
struct Scratch {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Scratch {
    fn new() -> Result<Self> {
        let dir = crate::temp_space::folder("wasmeval-compile-")
            .context("cannot create a scratch folder")?;
        let path = dir
            .path()
            .canonicalize()
            .context("cannot resolve the scratch folder")?;
        Ok(Scratch { _dir: dir, path })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolchains_can_be_shared_by_worker_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Toolchains>();
    }

    #[test]
    fn default_limits_are_the_documented_ones() {
        let limits = CompileLimits::default();
        assert_eq!(limits.cpu_seconds, 20);
        assert_eq!(limits.memory_bytes, 2 << 30);
        assert_eq!(limits.output_bytes, 64 << 10);
        assert_eq!(limits.wall(), Duration::from_secs(45));
    }

    #[test]
    fn cache_keys_change_with_the_compiler_and_the_source() {
        let a = cache_key("rustc 1.95.0", "fn main() {}");
        assert_eq!(a.len(), 64);
        assert_eq!(a, cache_key("rustc 1.95.0", "fn main() {}"));
        assert_ne!(a, cache_key("rustc 1.96.0", "fn main() {}"));
        assert_ne!(a, cache_key("rustc 1.95.0", "fn main() { }"));
        // Length prefixes: moving bytes from one part to the next changes the key.
        assert_ne!(cache_key("ab", "c"), cache_key("a", "bc"));
    }

    #[test]
    fn messages_are_capped_with_their_note() {
        let said = "é".repeat(100);
        let text = compose(&said, "over 1 s of CPU time", true, 60);
        assert!(text.len() <= 60, "{text}");
        assert!(text.ends_with("\n[compiler output truncated]\nover 1 s of CPU time"));
        assert_eq!(compose("", "note", false, 100), "note");
        assert_eq!(compose("error: x\n", "", false, 100), "error: x");
        assert_eq!(compose("", "a long note", false, 4), "a lo");
    }
}
