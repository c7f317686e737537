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

/// AixBench's Java tasks, mixed with Python ones: the Java samples end as
/// `unsupported_language`, never a crash, and every figure is the Python samples' alone.
#[test]
fn aixbench_java_samples_are_unsupported_language_and_counted_apart() {
    let work = tempfile::tempdir().unwrap();
    let aixbench = repo().join("tests/fixtures/aixbench");
    let python_task = r#"{"id": "py/one", "language": "python", "prompt": "def one():\n", "tests": [{"kind": "assertions", "cases": [{"name": "one", "code": "assert one() == 1"}]}]}"#;
    let tasks: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(aixbench.join("tasks.json")).unwrap())
            .unwrap();
    let mut tasks_text: String = tasks.iter().map(|t| format!("{t}\n")).collect();
    tasks_text.push_str(python_task);
    tasks_text.push('\n');
    let tasks_path = work.path().join("tasks.jsonl");
    std::fs::write(&tasks_path, tasks_text).unwrap();
    let mut samples = std::fs::read_to_string(aixbench.join("samples.jsonl")).unwrap();
    samples.push_str("{\"task_id\": \"py/one\", \"model\": \"hand-written\", \"completion\": \"    return 1\\n\"}\n");
    let samples_path = work.path().join("samples.jsonl");
    std::fs::write(&samples_path, samples).unwrap();
    let out = work.path().join("out");
    let output = run(&tasks_path, &samples_path, &out, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("3 samples are in java") && stderr.contains("unsupported_language"),
        "{stderr}"
    );
    let results = results(&out);
    assert_eq!(
        verdicts(&results),
        [
            "unsupported_language",
            "unsupported_language",
            "unsupported_language",
            "passed"
        ]
    );
    let report = crate::support::wasmeval()
        .args(["report", "--format", "json"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(report.status.success(), "{report:?}");
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    let overall = &report["overall"];
    assert_eq!(
        (&overall["samples"], &overall["passed"], &overall["not_run"]),
        (
            &serde_json::json!(1),
            &serde_json::json!(1),
            &serde_json::json!(3)
        ),
        "{overall}"
    );
    assert_eq!(overall["pass_at_k"]["pass@1"], 1.0, "{overall}");
}
