//! Task files as they are found in the wild (issue 20 item 4a), run end to end: sanitized MBPP
//! (`prompt`, `test_imports`), Reflexion's MultiPL-E files (`test` for `tests`), a task `prelude`
//! run before the candidate, and files with no tests refused with the way to convert them
//! (tests/fixtures/wild).

use crate::support::{case_verdicts, repo, results, run, run_command};
use std::path::PathBuf;

fn wild(name: &str) -> PathBuf {
    repo().join("tests/fixtures/wild").join(name)
}

/// Runs a fixture's tasks and samples; returns the results in sample order and stderr.
fn run_wild(tasks: &str, samples: &str) -> (Vec<serde_json::Value>, String) {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let output = run(&wild(tasks), &wild(samples), &out, &[]);
    (
        results(&out),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn verdicts(results: &[serde_json::Value]) -> Vec<&str> {
    results
        .iter()
        .map(|r| r["verdict"].as_str().expect("a verdict"))
        .collect()
}

#[test]
fn sanitized_mbpp_asserts_get_the_imports_of_test_imports() {
    let (results, stderr) = run_wild("sanitized-mbpp.json", "sanitized-mbpp-samples.jsonl");
    // The first sample does not import math: its asserts' `math.isclose` needs `test_imports`.
    assert_eq!(
        verdicts(&results),
        ["passed", "wrong_answer", "passed"],
        "{results:#?}"
    );
    assert!(
        stderr.contains(&format!(
            "wasmeval: 2 tasks in {}, read as sanitized MBPP (`prompt`, `test_imports`)",
            wild("sanitized-mbpp.json").display()
        )),
        "{stderr}"
    );
}

#[test]
fn reflexion_tests_named_test_judge_right_and_wrong_completions() {
    let (results, stderr) = run_wild("reflexion.jsonl", "reflexion-samples.jsonl");
    assert_eq!(
        verdicts(&results),
        ["passed", "wrong_answer"],
        "{results:#?}"
    );
    assert!(
        stderr.contains("read as MultiPL-E with `test` for `tests` (as Reflexion's)"),
        "{stderr}"
    );
}

#[test]
fn a_prelude_runs_before_the_candidate_in_python_and_javascript() {
    // The samples use names only the prelude defines: `List` and `math` (a Python whole program,
    // judged by the isolated judge and as a script), `solve` calling the candidate's `Solution`
    // for the tests (a completion), `square` (JavaScript).
    let (results, _) = run_wild("prelude-tasks.jsonl", "prelude-samples.jsonl");
    assert_eq!(
        verdicts(&results),
        ["passed", "passed", "passed", "passed"],
        "{results:#?}"
    );
    assert_eq!(case_verdicts(&results[1]), ["passed"]);
    // The code shown is the sample's, without the prelude.
    let code = results[0]["code"].as_str().unwrap();
    assert!(code.starts_with("def gcd_all("), "{code}");
}

#[test]
fn task_files_without_tests_are_refused_with_the_fields_needed_and_how_to_convert() {
    for (file, expected) in [
        (
            "leetcode-test-script.jsonl",
            "1: this record has a prompt (`prompt`) and a `test` script",
        ),
        (
            "prompts-only.jsonl",
            "1: this record has a prompt (`description`) but no tests",
        ),
    ] {
        let work = tempfile::tempdir().unwrap();
        let output = run_command(
            &wild(file),
            &wild("reflexion-samples.jsonl"),
            &work.path().join("out"),
            &[],
        )
        .output()
        .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("{}:{expected}", wild(file).display())),
            "{stderr}"
        );
        assert!(stderr.contains("\"Converting a task file\""), "{stderr}");
    }
}
