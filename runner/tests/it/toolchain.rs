//! The confined, cached toolchains (runner/src/toolchain): the compile-time half of the hostile
//! Rust, C and C++ corpora (tests/hostile/{rust,c,cpp}) fails to compile without leaking the host's
//! files or environment, every run-time program compiles, bombs stop within their limits, and a
//! second compilation of the same source comes from the cache without starting the compiler.
//!
//! These tests need rustc with the wasm32-wasip1 target and clang 19 with the wasm32 runtimes
//! (scripts/install-toolchains) and a kernel that enforces Landlock: they never pass
//! `allow_unconfined`.

use crate::support::{hostile_corpus, repo, Hostile};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use wasmeval::toolchain::{CompileLimits, Compiled, Toolchains};
use wasmeval_core::Language;

/// Toolchains with the test build's `wasmeval` as the confinement helper (the test binary itself
/// has no `__confined-exec` subcommand).
fn toolchains(cache: &Path) -> Toolchains {
    Toolchains::detect_with_helper(cache, false, Path::new(env!("CARGO_BIN_EXE_wasmeval")))
        .expect("rustc with wasm32-wasip1 (scripts/install-toolchains) and Landlock are needed")
}

/// Small limits so that bombs end in seconds; the corpus headers assume them (README.md).
fn test_limits() -> CompileLimits {
    CompileLimits {
        cpu_seconds: 3,
        memory_bytes: 1 << 30,
        output_bytes: 16 << 10,
    }
}

fn corpus() -> Vec<Hostile> {
    corpus_of("rust", "rs")
}

/// The programs of `tests/hostile/<folder>` whose extension is `extension`.
fn corpus_of(folder: &str, extension: &str) -> Vec<Hostile> {
    // `as_*` and `ca_*` programs are candidates for the assertion and calls tasks, not whole
    // programs: they compile with the task's test code, in `hostile.rs`.
    hostile_corpus(folder, extension, "//")
        .into_iter()
        .filter(|p| !p.name.starts_with("as_") && !p.name.starts_with("ca_"))
        .collect()
}

/// Strings of this host that no compilation may reveal: the first line of /etc/passwd, HOME, the
/// hostname (when long enough not to occur by chance).
fn host_secrets() -> Vec<String> {
    let mut secrets = Vec::new();
    if let Some(line) = std::fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|text| text.lines().next().map(str::to_owned))
    {
        secrets.push(line);
    }
    if let Some(home) = std::env::var_os("HOME") {
        secrets.push(home.to_string_lossy().into_owned());
    }
    if let Ok(host) = std::fs::read_to_string("/etc/hostname") {
        secrets.push(host.trim().to_owned());
    }
    secrets.retain(|s| s.len() >= 4);
    secrets
}

/// The outcome's name as a verdict, and the text and bytes it carries.
fn describe(outcome: &Compiled) -> (&'static str, String, Vec<u8>) {
    match outcome {
        Compiled::Module { wasm, .. } => ("module", String::new(), wasm.to_vec()),
        Compiled::Error { message } => ("compile_error", message.clone(), Vec::new()),
        Compiled::Timeout { message } => ("timeout", message.clone(), Vec::new()),
    }
}

/// Problems with one outcome: the message or module contains a secret the source does not itself
/// spell out (diagnostics quote the source, so a path written in it may be echoed), or a host path.
fn leaks(source: &str, outcome: &Compiled, secrets: &[String]) -> Vec<String> {
    let (_, message, module) = describe(outcome);
    let mut found = Vec::new();
    for secret in secrets {
        if source.contains(secret.as_str()) {
            continue;
        }
        if message.contains(secret.as_str()) {
            found.push(format!("the message contains `{secret}`"));
        }
        if module
            .windows(secret.len())
            .any(|window| window == secret.as_bytes())
        {
            found.push(format!("the module contains `{secret}`"));
        }
    }
    if message.contains("wasmeval-compile-") {
        found.push("the message names the scratch folder".to_owned());
    }
    found
}

#[test]
fn the_hostile_rust_corpus_compiles_as_its_headers_say_and_leaks_nothing() {
    let programs = corpus();
    assert!(
        programs.len() >= 20,
        "the corpus shrank to {} programs",
        programs.len()
    );
    check_corpus(Language::Rust, &programs);
    assert!(!Path::new("/tmp/wasmeval-proc-macro-ran").exists());
}

#[test]
fn the_hostile_c_corpus_compiles_as_its_headers_say_and_leaks_nothing() {
    check_c_family_corpus(Language::C, "c", "/tmp/wasmeval-c-escape");
}

#[test]
fn the_hostile_cpp_corpus_compiles_as_its_headers_say_and_leaks_nothing() {
    check_c_family_corpus(Language::Cpp, "cpp", "/tmp/wasmeval-cpp-escape");
}

/// The C or C++ corpus (`tests/hostile/<folder>`, files `*.<folder>`): at least 10 programs at
/// compile time and 10 at run time, all as their headers say, and `escape` never created.
fn check_c_family_corpus(language: Language, folder: &str, escape: &str) {
    let programs = corpus_of(folder, folder);
    let compile_time = programs
        .iter()
        .filter(|p| p.name.starts_with("ct_"))
        .count();
    assert!(
        compile_time >= 10 && programs.len() - compile_time >= 10,
        "the {folder} corpus shrank: {} programs, {compile_time} at compile time",
        programs.len()
    );
    check_corpus(language, &programs);
    assert!(!Path::new(escape).exists());
}

/// Compiles every program of a corpus with the test limits, a few at a time, and checks each
/// outcome against its header: `ct_*` programs end as `// expect:` says, the others compile, and
/// nothing leaks.
fn check_corpus(language: Language, programs: &[Hostile]) {
    let cache = tempfile::tempdir().unwrap();
    let toolchains = toolchains(cache.path());
    let limits = test_limits();
    let secrets = host_secrets();

    // Several compilations at once (the API is meant for worker threads), but few enough that
    // the CPU-limited bombs are not starved into the wall-clock backstop on two cores.
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<(usize, Compiled, Duration)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(program) = programs.get(index) else {
                    break;
                };
                let started = Instant::now();
                let outcome = toolchains
                    .compile(language, &program.source, &limits)
                    .unwrap_or_else(|e| panic!("{}: host failure: {e:#}", program.name));
                outcomes
                    .lock()
                    .unwrap()
                    .push((index, outcome, started.elapsed()));
            });
        }
    });

    let mut failures = Vec::new();
    let mut outcomes = outcomes.into_inner().unwrap();
    outcomes.sort_by_key(|(index, ..)| *index);
    for (index, outcome, elapsed) in &outcomes {
        let program = &programs[*index];
        let (got, message, _) = describe(outcome);
        eprintln!(
            "{}: {got} in {elapsed:.2?}: {}",
            program.name,
            message
                .lines()
                .rfind(|l| !l.trim().is_empty())
                .unwrap_or("")
        );
        // Compile-time programs (`ct_*`) must fail as their header says; the others must compile
        // (their header's verdict is for the sandbox, which runs them).
        let wanted = if program.name.starts_with("ct_") {
            program.expect.as_str()
        } else {
            "module"
        };
        // A bomb that may hit either the CPU or the memory limit first says `timeout or compile_error`.
        if !wanted.split(" or ").any(|w| w == got) {
            failures.push(format!(
                "{}: expected {wanted}, got {got}: {message}",
                program.name
            ));
        }
        let mut secrets = secrets.clone();
        secrets.extend(program.must_not_output.iter().cloned());
        for leak in leaks(&program.source, outcome, &secrets) {
            failures.push(format!("{}: {leak}", program.name));
        }
        if message.len() as u64 > limits.output_bytes {
            failures.push(format!(
                "{}: message of {} bytes",
                program.name,
                message.len()
            ));
        }
        // The backstop kills at `wall()`; the margin absorbs scheduling on a loaded machine.
        if *elapsed > limits.wall() + Duration::from_secs(5) {
            failures.push(format!("{}: took {elapsed:?}", program.name));
        }
    }
    assert!(
        failures.is_empty(),
        "hostile {language} corpus failures:\n{}",
        failures.join("\n")
    );
}

#[test]
fn a_secret_file_outside_the_toolchain_cannot_be_read_at_compile_time() {
    // A secret of our own in the temporary folder, where the process's run folder holding the
    // scratch folders also is (temp_space.rs), so a relative `../../` path reaches it too.
    let secret_dir = tempfile::Builder::new()
        .prefix("wasmeval-secret-")
        .tempdir()
        .unwrap();
    let secret_dir = secret_dir.path().canonicalize().unwrap();
    let secret = format!("wasmeval-secret-{}", std::process::id() as u64 * 7919 + 13);
    let file = secret_dir.join("secret.txt");
    std::fs::write(&file, format!("{secret}\n")).unwrap();
    let relative = format!(
        "../../{}/secret.txt",
        secret_dir.file_name().unwrap().to_string_lossy()
    );
    let cache = tempfile::tempdir().unwrap();
    // The cache folder's own files, and the repository, are not readable either.
    let repository_file = repo().join("Cargo.toml");
    let sources: Vec<String> = vec![
        format!(
            "const S: &str = include_str!({:?});\nfn main() {{ print!(\"{{S}}\"); }}\n",
            file
        ),
        format!(
            "const S: &[u8] = include_bytes!({:?});\nfn main() {{ println!(\"{{}}\", S.len()); }}\n",
            file
        ),
        format!("const S: &str = include_str!({relative:?});\nfn main() {{ print!(\"{{S}}\"); }}\n"),
        format!("#[path = {:?}]\nmod secret;\nfn main() {{}}\n", file),
        format!(
            "const S: &str = include_str!({:?});\nconst _: () = panic!(\"{{}}\", S);\nfn main() {{}}\n",
            repository_file
        ),
    ];
    let toolchains = toolchains(cache.path());
    for source in &sources {
        let outcome = toolchains
            .compile(Language::Rust, source, &test_limits())
            .unwrap();
        let (got, message, _) = describe(&outcome);
        assert_eq!(got, "compile_error", "{source}\n{message}");
        assert!(
            message.contains("Permission denied") || message.contains("os error 13"),
            "the read should be denied by Landlock, not fail otherwise: {message}"
        );
        let problems = leaks(source, &outcome, std::slice::from_ref(&secret));
        assert!(problems.is_empty(), "{source}: {problems:?}");
        assert!(!message.contains("[workspace]"), "{message}");
    }
}

#[test]
fn a_normal_program_compiles_once_and_then_comes_from_the_cache() {
    let cache = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string(repo().join("tests/hostile/rust/honest.rs")).unwrap();
    let toolchains = toolchains(cache.path());
    assert!(
        toolchains.confinement().contains("enforced")
            && !toolchains.confinement().starts_with("not"),
        "{}",
        toolchains.confinement()
    );
    assert!(toolchains.rust_version().unwrap().contains("release:"));

    let limits = CompileLimits::default();
    let started = Instant::now();
    let first = toolchains
        .compile(Language::Rust, &source, &limits)
        .unwrap();
    let cold = started.elapsed();
    let Compiled::Module { wasm, cached } = &first else {
        panic!("honest.rs did not compile: {first:?}");
    };
    assert!(!cached);
    assert!(wasm.starts_with(b"\0asm"));
    assert_eq!(toolchains.compiler_runs(), 1);
    assert!(toolchains
        .cache_path_for(Language::Rust, &source)
        .unwrap()
        .is_file());

    let started = Instant::now();
    let second = toolchains
        .compile(Language::Rust, &source, &limits)
        .unwrap();
    let hit = started.elapsed();
    let Compiled::Module {
        wasm: again,
        cached,
    } = &second
    else {
        panic!("second compile: {second:?}");
    };
    assert!(cached, "the second compilation should be a cache hit");
    assert_eq!(again, wasm);
    assert_eq!(toolchains.compiler_runs(), 1, "a hit must not start rustc");
    eprintln!(
        "confinement: {}; cold compile {cold:.2?}, cache hit {hit:.2?}",
        toolchains.confinement()
    );

    // Another process's Toolchains on the same folder finds it too; another source does not.
    let other = Toolchains::detect_with_helper(
        cache.path(),
        false,
        Path::new(env!("CARGO_BIN_EXE_wasmeval")),
    )
    .unwrap();
    assert!(matches!(
        other.compile(Language::Rust, &source, &limits).unwrap(),
        Compiled::Module { cached: true, .. }
    ));
    assert_eq!(other.compiler_runs(), 0);
    let changed = source.replace("2 * x", "x + x");
    assert!(matches!(
        other.compile(Language::Rust, &changed, &limits).unwrap(),
        Compiled::Module { cached: false, .. }
    ));
    assert_eq!(other.compiler_runs(), 1);
    // Only finished modules in the cache folder (beside the C/C++ project sysroot and Go's build
    // cache): no temporary files left behind.
    let names: Vec<PathBuf> = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            !p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("clang-")
                && !p
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("go-build-")
        })
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names
        .iter()
        .all(|p| p.extension().is_some_and(|e| e == "wasm")));
}

#[test]
fn compile_bombs_end_within_small_limits() {
    let cache = tempfile::tempdir().unwrap();
    let toolchains = toolchains(cache.path());
    let read =
        |name: &str| std::fs::read_to_string(repo().join("tests/hostile/rust").join(name)).unwrap();
    let limits = CompileLimits {
        cpu_seconds: 1,
        memory_bytes: 768 << 20,
        output_bytes: 4 << 10,
    };

    let started = Instant::now();
    let outcome = toolchains
        .compile(Language::Rust, &read("ct_const_eval_loop.rs"), &limits)
        .unwrap();
    let elapsed = started.elapsed();
    let Compiled::Timeout { message } = &outcome else {
        panic!("a CPU bomb should time out: {outcome:?}");
    };
    assert!(message.contains("CPU time"), "{message}");
    // CPU time is 1 s; wall time depends on what else the machine runs, up to the backstop.
    assert!(
        elapsed <= limits.wall() + Duration::from_secs(5),
        "took {elapsed:?}"
    );

    let started = Instant::now();
    let outcome = toolchains
        .compile(Language::Rust, &read("ct_macro_memory_bomb.rs"), &limits)
        .unwrap();
    let elapsed = started.elapsed();
    match &outcome {
        Compiled::Error { message } => {
            assert!(message.contains("out of memory"), "{message}");
            assert!(message.len() <= 4 << 10);
        }
        // On a slow machine the doubling may run out of CPU before memory; either stops it.
        Compiled::Timeout { .. } => {}
        Compiled::Module { .. } => panic!("a memory bomb compiled"),
    }
    assert!(
        elapsed <= limits.wall() + Duration::from_secs(5),
        "took {elapsed:?}"
    );
}

#[test]
fn compiler_output_is_capped() {
    let cache = tempfile::tempdir().unwrap();
    let toolchains = toolchains(cache.path());
    let mut source = String::from("fn main() {\n");
    for i in 0..3000 {
        source.push_str(&format!("    let x{i}: u8 = \"not a number\";\n"));
    }
    source.push_str("}\n");
    let limits = CompileLimits {
        output_bytes: 2000,
        ..test_limits()
    };
    let outcome = toolchains
        .compile(Language::Rust, &source, &limits)
        .unwrap();
    let Compiled::Error { message } = &outcome else {
        panic!("{outcome:?}");
    };
    assert!(message.len() <= 2000, "{} bytes", message.len());
    assert!(message.contains("error[E0308]"), "{message}");
    assert!(message.contains("--> main.rs:2:"), "{message}");
    assert!(
        message.ends_with("[compiler output truncated]"),
        "{message}"
    );
}

#[test]
fn languages_without_a_toolchain_are_a_clear_error() {
    let cache = tempfile::tempdir().unwrap();
    let toolchains = toolchains(cache.path());
    let error = toolchains
        .compile(
            Language::Javascript,
            "console.log(1)",
            &CompileLimits::default(),
        )
        .unwrap_err();
    assert!(error.to_string().contains("no toolchain for"), "{error:#}");
    assert_eq!(toolchains.compiler_runs(), 0);
}

#[test]
fn c_and_cpp_compile_once_and_then_come_from_the_cache() {
    let cache = tempfile::tempdir().unwrap();
    let toolchains = toolchains(cache.path());
    let version = toolchains.clang_version().unwrap_or_else(|reason| {
        panic!("clang 19 is needed (scripts/install-toolchains): {reason}")
    });
    assert!(version.contains("clang version 19."), "{version}");
    // The confined C/C++ compiler reads wasi-libc's headers through the project sysroot, never
    // the host's /usr/include.
    let read = toolchains.clang_read_paths();
    assert!(
        !read.iter().any(|p| p == Path::new("/usr/include")
            || p == Path::new("/usr")
            || p == Path::new("/")),
        "{read:?}"
    );
    assert!(
        read.iter()
            .any(|p| p == Path::new("/usr/include/wasm32-wasi")),
        "{read:?}"
    );
    // Of the host's library folders, only the files clang and lld load (ldd says which), never
    // the folders whole nor the loader's cache of every library.
    let multiarch = format!("{}-linux-gnu", std::env::consts::ARCH);
    for folder in [
        "/lib".to_owned(),
        "/usr/lib".to_owned(),
        format!("/lib/{multiarch}"),
        format!("/usr/lib/{multiarch}"),
        "/etc/ld.so.cache".to_owned(),
    ] {
        assert!(
            !read.iter().any(|p| p == Path::new(&folder)),
            "{folder} in {read:?}"
        );
    }
    assert!(
        read.iter().any(|p| p.to_string_lossy().contains("libc.so")),
        "{read:?}"
    );

    let limits = CompileLimits::default();
    for (language, file) in [
        (Language::C, "c/honest.c"),
        (Language::Cpp, "cpp/honest.cpp"),
    ] {
        let source = std::fs::read_to_string(repo().join("tests/hostile").join(file)).unwrap();
        let runs = toolchains.compiler_runs();
        let started = Instant::now();
        let first = toolchains.compile(language, &source, &limits).unwrap();
        let cold = started.elapsed();
        let Compiled::Module { wasm, cached } = &first else {
            panic!("{file} did not compile: {first:?}");
        };
        assert!(!cached);
        assert!(wasm.starts_with(b"\0asm"));
        assert_eq!(toolchains.compiler_runs(), runs + 1);
        let path = toolchains.cache_path_for(language, &source).unwrap();
        assert!(path.is_file());

        let started = Instant::now();
        let second = toolchains.compile(language, &source, &limits).unwrap();
        let hit = started.elapsed();
        assert!(
            matches!(&second, Compiled::Module { cached: true, wasm: again } if again == wasm),
            "the second compilation should be a cache hit"
        );
        assert_eq!(
            toolchains.compiler_runs(),
            runs + 1,
            "a hit must not start clang"
        );
        eprintln!(
            "{file}: cold compile {cold:.2?} ({} bytes), cache hit {hit:.2?}",
            wasm.len()
        );
    }
    // One source, two languages: two keys (C and C++ flags differ).
    let both = "int main(void) { return 0; }\n";
    assert_ne!(
        toolchains.cache_path_for(Language::C, both).unwrap(),
        toolchains.cache_path_for(Language::Cpp, both).unwrap()
    );
    // Another Toolchains on the same cache folder reuses the sysroot and the modules.
    let other = toolchains_again(cache.path());
    let source = std::fs::read_to_string(repo().join("tests/hostile/cpp/honest.cpp")).unwrap();
    assert!(matches!(
        other.compile(Language::Cpp, &source, &limits).unwrap(),
        Compiled::Module { cached: true, .. }
    ));
    assert_eq!(other.compiler_runs(), 0);
    let leftovers: Vec<String> = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn toolchains_again(cache: &Path) -> Toolchains {
    toolchains(cache)
}

#[test]
fn c_and_cpp_cannot_read_a_secret_file_at_compile_time() {
    let secret_dir = tempfile::Builder::new()
        .prefix("wasmeval-secret-")
        .tempdir()
        .unwrap();
    let secret_dir = secret_dir.path().canonicalize().unwrap();
    let secret = format!("wasmeval_secret_{}", std::process::id() as u64 * 7919 + 13);
    let file = secret_dir.join("secret.h");
    // Valid tokens and a string literal: if the file were read, the include would compile and
    // put the secret into the module without any diagnostic.
    std::fs::write(&file, format!("\"{secret}\"\n")).unwrap();
    let relative = format!(
        "../{}/secret.h",
        secret_dir.file_name().unwrap().to_string_lossy()
    );
    let cache = tempfile::tempdir().unwrap();
    let toolchains = toolchains(cache.path());
    let body = "\nint main(void) { return s[0]; }\n";
    let sources = [
        format!("static const char *s =\n#include {:?}\n;{body}", file),
        format!("static const char *s =\n#include {relative:?}\n;{body}"),
        format!("static const char s[] = {{\n#embed {:?}\n}};{body}", file),
    ];
    for language in [Language::C, Language::Cpp] {
        for source in &sources {
            let outcome = toolchains
                .compile(language, source, &test_limits())
                .unwrap();
            let (got, message, _) = describe(&outcome);
            assert_eq!(got, "compile_error", "{language}: {source}\n{message}");
            assert!(
                // clang says "Permission denied" for #include; for #embed it reports any failed
                // open as "file not found" (the unconfined check below shows the file is there).
                message.contains("Permission denied") || message.contains("file not found"),
                "the read should be denied by Landlock, not fail otherwise: {message}"
            );
            let problems = leaks(source, &outcome, std::slice::from_ref(&secret));
            assert!(problems.is_empty(), "{source}: {problems:?}");
        }
    }
    // Unconfined, the same include works: the test would notice a confinement that lets it pass.
    let plain = std::process::Command::new("/usr/lib/llvm-19/bin/clang")
        .args(["-E", "-P", "-x", "c", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(format!("#include {:?}\n", file).as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(String::from_utf8_lossy(&plain.stdout).contains(&secret));
}

/// The helper on its own, around ordinary programs: what the compiler is subject to.
mod helper {
    use super::*;
    use wasmeval::toolchain::confine::{self, Confinement};

    fn confinement(scratch: &Path) -> Confinement {
        Confinement {
            read: [
                "/usr/bin",
                "/bin",
                "/lib",
                "/lib64",
                "/usr/lib",
                "/etc/ld.so.cache",
            ]
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.exists())
            .collect(),
            devices: vec!["/dev/null".into()],
            write: vec![scratch.to_owned()],
            cpu_seconds: 2,
            memory_bytes: 1 << 30,
            file_bytes: 1 << 20,
            allow_unconfined: false,
            report: false,
        }
    }

    fn run(program: &str, args: &[&str], wall: Duration) -> confine::Finished {
        let scratch = tempfile::tempdir().unwrap();
        let scratch = scratch.path().canonicalize().unwrap();
        let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        confine::run(
            Path::new(env!("CARGO_BIN_EXE_wasmeval")),
            &confinement(&scratch),
            Path::new(program),
            &args,
            &[],
            &scratch,
            4096,
            wall,
        )
        .unwrap()
    }

    #[test]
    fn host_files_outside_the_allowed_folders_cannot_be_read() {
        let finished = run("/usr/bin/cat", &["/etc/passwd"], Duration::from_secs(10));
        assert!(!finished.status.success());
        assert!(finished.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&finished.stderr);
        assert!(stderr.contains("Permission denied"), "{stderr}");
    }

    #[test]
    fn the_environment_is_empty_but_for_the_scratch_tmpdir_and_a_fixed_build_time() {
        let finished = run("/usr/bin/env", &[], Duration::from_secs(10));
        assert!(finished.status.success());
        let stdout = String::from_utf8_lossy(&finished.stdout);
        let names: Vec<&str> = stdout
            .lines()
            .map(|l| l.split('=').next().unwrap())
            .collect();
        assert_eq!(names, ["SOURCE_DATE_EPOCH", "TMPDIR"], "{stdout}");
        assert!(stdout.contains("SOURCE_DATE_EPOCH=946684800\n"), "{stdout}");
    }

    #[test]
    fn the_wall_clock_backstop_kills_a_program_that_waits() {
        let started = Instant::now();
        let finished = run("/usr/bin/sleep", &["30"], Duration::from_millis(500));
        assert!(finished.wall_killed);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn the_cpu_limit_stops_a_busy_program_and_output_is_capped() {
        // `yes` both burns CPU and floods its output: 4 KiB are kept, the rest is discarded.
        let finished = run("/usr/bin/yes", &[], Duration::from_secs(20));
        use std::os::unix::process::ExitStatusExt;
        assert!(!finished.wall_killed);
        assert!(
            matches!(finished.status.signal(), Some(24) | Some(9)),
            "{:?}",
            finished.status
        );
        assert_eq!(finished.stdout.len(), 4096);
        assert!(finished.discarded > 0);
    }
}

#[test]
fn compilers_see_a_fixed_build_time_not_the_hosts_clock() {
    let cache = tempfile::tempdir().unwrap();
    let toolchains = toolchains(cache.path());
    for (language, source) in [
        (
            Language::C,
            "#include <stdio.h>\nint main(void) { puts(__DATE__ \" \" __TIME__); }\n",
        ),
        (
            Language::Cpp,
            "#include <cstdio>\nint main() { std::puts(__DATE__ \" \" __TIME__); }\n",
        ),
    ] {
        let Compiled::Module { wasm, .. } = toolchains
            .compile(language, source, &CompileLimits::default())
            .unwrap()
        else {
            panic!("{language} does not compile");
        };
        // SOURCE_DATE_EPOCH is 2000-01-01 00:00:00 UTC for every compilation.
        let text = String::from_utf8_lossy(&wasm);
        assert!(text.contains("Jan  1 2000 00:00:00"), "{language}");
    }
}
