//! Command-line behaviour: help, bad input named by file and line, unknown task ids.

use crate::support::{repo, results, run, run_command, wasmeval};

#[test]
fn help_shows_limits_with_their_defaults_and_examples() {
    let output = wasmeval().args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "--fuel",
        "--memory",
        "--timeout",
        "--output-limit",
        "[default: 512MiB]",
        "Examples:",
    ] {
        assert!(
            help.contains(expected),
            "`{expected}` missing from:\n{help}"
        );
    }
}

/// Runs on bad input; checks exit code 2 and returns stderr.
fn bad_input_stderr(tasks: &std::path::Path, samples: &std::path::Path) -> String {
    let work = tempfile::tempdir().unwrap();
    let output = run_command(tasks, samples, work.path(), &[])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_malformed_samples_line_is_reported_with_file_and_line() {
    let fixtures = repo().join("tests/fixtures");
    let samples = fixtures.join("malformed/samples.jsonl");
    let stderr = bad_input_stderr(&fixtures.join("mbpp/tasks.jsonl"), &samples);
    let expected = format!("{}:2: missing field `completion`", samples.display());
    assert!(stderr.contains(&expected), "{stderr}");
}

#[test]
fn a_samples_file_that_is_not_utf8_is_bad_input_with_its_line() {
    let fixtures = repo().join("tests/fixtures");
    // Line 2 holds `é` in Latin-1 (one byte, 0xe9).
    let samples = fixtures.join("malformed/samples_latin1.jsonl");
    let stderr = bad_input_stderr(&fixtures.join("mbpp/tasks.jsonl"), &samples);
    let expected = format!("{}:2: not UTF-8 text", samples.display());
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(stderr.contains("save the file as UTF-8"), "{stderr}");
}

#[test]
fn a_malformed_task_line_is_reported_with_file_and_line() {
    let fixtures = repo().join("tests/fixtures");
    let tasks = fixtures.join("malformed/tasks_bad_json.jsonl");
    let stderr = bad_input_stderr(&tasks, &fixtures.join("mbpp/samples.jsonl"));
    assert!(
        stderr.contains(&format!("{}:2: ", tasks.display())),
        "{stderr}"
    );
}

#[test]
fn samples_of_unknown_tasks_are_reported_not_dropped_silently() {
    let fixtures = repo().join("tests/fixtures");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let output = run(
        &fixtures.join("mbpp/tasks.jsonl"),
        &fixtures.join("malformed/unknown_task.jsonl"),
        &out,
        &[],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("2 samples name tasks that are not in"),
        "{stderr}"
    );
    assert!(stderr.contains("no/such/task (2)"), "{stderr}");
    assert_eq!(results(&out).len(), 1);
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["unknown_task_ids"]["no/such/task"], 2);
}

#[test]
fn a_memory_limit_below_what_the_interpreter_needs_is_a_host_error_not_a_verdict() {
    let fixtures = repo().join("tests/fixtures/mbpp");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let tiny = ["--memory", "1MiB"];
    let output = run_command(
        &fixtures.join("tasks.jsonl"),
        &fixtures.join("samples.jsonl"),
        &out,
        &tiny,
    )
    .output()
    .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the Python interpreter cannot start within --memory"),
        "{stderr}"
    );
    // Nothing was recorded as the samples' fault.
    assert_eq!(
        std::fs::read_to_string(out.join("results.jsonl")).unwrap_or_default(),
        ""
    );
}
