//! Helpers shared by the tests: running the binary and reading its output folder.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("runner/ sits in the repository")
        .to_owned()
}

/// The task and samples files of the fixture folder `tests/fixtures/<name>`.
pub fn fixture(name: &str) -> (PathBuf, PathBuf) {
    let dir = repo().join("tests/fixtures").join(name);
    (dir.join("tasks.jsonl"), dir.join("samples.jsonl"))
}

/// A `wasmeval` command, checked to have its Python runtime.
pub fn wasmeval() -> Command {
    let home = wasmeval::cli::wasmeval_home();
    assert!(
        home.join("python/runtime.json").exists(),
        "the Python runtime is not installed in {}: run scripts/install-python-runtime (scripts/test does)",
        home.display()
    );
    Command::new(env!("CARGO_BIN_EXE_wasmeval"))
}

/// A `wasmeval run` command on a task and samples file into `out`, with `extra` flags.
pub fn run_command(tasks: &Path, samples: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut command = wasmeval();
    command
        .arg("run")
        .arg("--tasks")
        .arg(tasks)
        .arg("--samples")
        .arg(samples)
        .arg("--out")
        .arg(out)
        .args(extra);
    command
}

/// Runs `wasmeval run` (see [`run_command`]); panics on failure.
pub fn run(tasks: &Path, samples: &Path, out: &Path, extra: &[&str]) -> Output {
    let output = run_command(tasks, samples, out, extra)
        .output()
        .expect("wasmeval starts");
    assert!(
        output.status.success(),
        "wasmeval run failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The JSON lines of a file.
pub fn read_jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).expect("valid JSON line"))
        .collect()
}

/// The verdict of each case of a result, in order.
pub fn case_verdicts(result: &Value) -> Vec<&str> {
    result["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| c["verdict"].as_str().expect("a verdict"))
        .collect()
}

/// The results of a finished run, in sample order.
pub fn results(out: &Path) -> Vec<Value> {
    read_jsonl(&out.join("results.jsonl"))
}

/// The results of `wasmeval run --jobs 2` of `samples` against `tasks` (JSON records written as
/// the two JSON Lines files), in sample order.
pub fn run_records(tasks: &[Value], samples: &[Value]) -> Vec<Value> {
    let work = tempfile::tempdir().expect("a temporary folder");
    let lines = |values: &[Value]| values.iter().map(|v| format!("{v}\n")).collect::<String>();
    let (tasks_path, samples_path) = (
        work.path().join("tasks.jsonl"),
        work.path().join("samples.jsonl"),
    );
    std::fs::write(&tasks_path, lines(tasks)).expect("the tasks file");
    std::fs::write(&samples_path, lines(samples)).expect("the samples file");
    let out = work.path().join("out");
    run(&tasks_path, &samples_path, &out, &["--jobs", "2"]);
    results(&out)
}

/// The results of `wasmeval run` on the fixture `name` with `extra` arguments, in sample order
/// (the run's folder is removed).
pub fn fixture_results(name: &str, extra: &[&str]) -> Vec<Value> {
    let (tasks, samples) = fixture(name);
    let out = tempfile::tempdir().expect("a temporary folder");
    run(&tasks, &samples, out.path(), extra);
    results(out.path())
}

/// A program of a hostile corpus (`tests/hostile/<language>`) and what its header demands.
pub struct Hostile {
    /// Its file name.
    pub name: String,
    /// Its source.
    pub source: String,
    /// The verdict (or compile outcome) it must get; `a or b` accepts either.
    pub expect: String,
    /// Strings that must appear in no output, message or module.
    pub must_not_output: Vec<String>,
    /// Host paths the program tries to create, which must stay absent.
    pub host_paths_absent: Vec<String>,
}

/// The programs of `tests/hostile/<language>` with extension `ext`, whose headers are the leading
/// lines starting with `comment` (`# expect: ...`, `// why: ...`), sorted by name.
pub fn hostile_corpus(language: &str, ext: &str, comment: &str) -> Vec<Hostile> {
    let dir = repo().join("tests/hostile").join(language);
    let mut programs: Vec<Hostile> = std::fs::read_dir(&dir)
        .expect("corpus folder")
        .map(|entry| entry.expect("corpus entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .map(|path| {
            let source = std::fs::read_to_string(&path).expect("corpus program");
            let header = |key: &str| -> Vec<String> {
                source
                    .lines()
                    .take_while(|line| line.starts_with(comment))
                    .filter_map(|line| {
                        line.strip_prefix(&format!("{comment} {key}: "))
                            .map(|v| v.trim().to_owned())
                    })
                    .collect()
            };
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let expect = header("expect")
                .pop()
                .unwrap_or_else(|| panic!("{name} has no `expect:` header"));
            assert!(!header("why").is_empty(), "{name} has no `why:` header");
            Hostile {
                must_not_output: header("must-not-output"),
                host_paths_absent: header("host-path-absent"),
                name,
                source,
                expect,
            }
        })
        .collect();
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    programs
}
