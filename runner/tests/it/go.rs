//! Go samples end to end: HumanEval-X Go tasks (tests/fixtures/humaneval-x/go.jsonl, made-up
//! problems in its shape) whose reference solutions pass and whose wrong ones fail, and the
//! hostile corpus (tests/hostile/go): run-time attacks and compile-time ones (`ct_*`, which
//! become compile errors of the io task) against `task.json`, and candidates that try to pass
//! `assertion_task.json` without solving it (`as_*`).

use crate::hostile::{assertion_corpus, check_corpus, check_corpus_against};
use crate::support::{hostile_corpus, repo, results, run, Hostile};
use serde_json::json;

/// The programs of tests/hostile/go that target the io task: run-time and compile-time ones.
pub(crate) fn io_corpus() -> Vec<Hostile> {
    hostile_corpus("go", "go", "//")
        .into_iter()
        .filter(|p| !p.name.starts_with("as_"))
        .collect()
}

#[test]
fn every_hostile_go_program_gets_its_expected_verdict() {
    check_corpus("go", &io_corpus(), 15);
}

#[test]
fn no_go_program_passes_assertion_tests_by_exiting_or_shadowing_them() {
    check_corpus_against(
        "go",
        "assertion_task.json",
        &assertion_corpus("go", "go"),
        8,
    );
}

#[test]
fn humaneval_x_go_references_pass_and_wrong_solutions_fail() {
    let tasks = repo().join("tests/fixtures/humaneval-x/go.jsonl");
    let records: Vec<serde_json::Value> = std::fs::read_to_string(&tasks)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let mut samples: Vec<serde_json::Value> = records
        .iter()
        .map(|r| json!({"task_id": r["task_id"], "completion": r["canonical_solution"]}))
        .collect();
    samples.extend([
        // Wrong for negative numbers.
        json!({"task_id": "Go/0", "completion": "    return x + 2\n}\n"}),
        // A nil slice is not an empty one (testify's Equal compares with reflect.DeepEqual).
        json!({"task_id": "Go/1", "completion": "    var r []string\n    for _, w := range strings.Fields(s) {\n        r = append(r, strings.ToUpper(w))\n    }\n    return r\n}\n"}),
        // Does not compile: the message is go's first error line.
        json!({"task_id": "Go/0", "completion": "    y := 1\n    return 2 * x\n}\n"}),
        // Panics: a runtime error named by Go's panic line.
        json!({"task_id": "Go/2", "completion": "    return xs[len(xs)] + math.Pi\n}\n"}),
        // A whole program with its own package clause, imports and main passes too.
        json!({"task_id": "Go/0", "solution": "package main\n\nimport \"fmt\"\n\nfunc Twice(x int) int { return x << 1 }\n\nfunc main() { fmt.Println(Twice(3)) }\n"}),
    ]);
    let work = tempfile::tempdir().unwrap();
    let samples_path = work.path().join("samples.jsonl");
    let text: String = samples.iter().map(|s| format!("{s}\n")).collect();
    std::fs::write(&samples_path, text).unwrap();
    let out = work.path().join("out");
    run(&tasks, &samples_path, &out, &["--jobs", "2"]);
    let results = results(&out);
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        [
            "passed",
            "passed",
            "passed",
            "wrong_answer",
            "wrong_answer",
            "compile_error",
            "runtime_error",
            "passed"
        ],
        "{results:#?}"
    );
    let message = |i: usize| results[i]["message"].as_str().unwrap().to_owned();
    assert!(
        message(3).contains("assertion failed: Equal: expected -6 (int), actual -1 (int)"),
        "{}",
        message(3)
    );
    assert_eq!(
        message(5),
        "test: ./main.go:8:5: declared and not used: y",
        "{}",
        message(5)
    );
    assert!(
        message(6).contains("panicked: runtime error: index out of range"),
        "{}",
        message(6)
    );
    // The cases ran in the candidate's process: results say they could be forged.
    for case in results[0]["cases"].as_array().unwrap() {
        assert_eq!(case["judged_by"], "guest");
    }
}
