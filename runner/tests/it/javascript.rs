//! JavaScript samples end to end through the QuickJS guest (`scripts/install-js-runtime`):
//! assertion, `calls` and `io` suites (tests/fixtures/javascript), HumanEval-X's and MultiPL-E's
//! JavaScript tests, and the hostile corpus (tests/hostile/js).

use crate::hostile::{calls_corpus, check_corpus, check_corpus_against, run_time_corpus};
use crate::support::{case_verdicts, fixture, repo, results, run};
use serde_json::{json, Value};
use std::path::PathBuf;

/// Fails with a message saying how to install the guest when it is missing.
fn require_runtime() {
    let home = std::env::var_os("WASMEVAL_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache/wasmeval")
        });
    assert!(
        home.join("js/runtime.json").exists(),
        "the JavaScript runtime is not installed in {}: run scripts/install-js-runtime (scripts/test does)",
        home.display()
    );
}

/// Runs `samples` (JSON records) against `tasks` and returns the results in sample order.
fn run_samples(tasks: &std::path::Path, samples: &[Value]) -> Vec<Value> {
    require_runtime();
    let work = tempfile::tempdir().unwrap();
    let path = work.path().join("samples.jsonl");
    let text: String = samples.iter().map(|s| format!("{s}\n")).collect();
    std::fs::write(&path, text).unwrap();
    let out = work.path().join("out");
    run(tasks, &path, &out, &[]);
    results(&out)
}

#[test]
fn assertion_calls_and_io_suites_get_per_case_verdicts() {
    require_runtime();
    let (tasks, samples) = fixture("javascript");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    run(&tasks, &samples, &out, &[]);
    let results = results(&out);
    let p = "passed";
    let w = "wrong_answer";
    let r = "runtime_error";
    let expected: [(&str, &str, &[&str]); 12] = [
        ("correct", p, &[p, p, p, p, p]),
        // add(1, 2) happens to be right; the calls are judged on the host.
        ("wrong", w, &[p, w, p, w, w]),
        ("throws", r, &[r, r, r, r, r]),
        // A SyntaxError is a runtime error, as for Python.
        ("syntax", r, &[r, r, r, r, r]),
        // Exiting with 0 before the tests ran passes nothing.
        ("exit-early", r, &[r, r, r, r, r]),
        // An object with valueOf is not 3 to strictEqual, and not plain data to a call.
        ("not-plain", w, &[w, w, w, r, r]),
        ("readline", p, &[p, p]),
        ("fs", p, &[p, p]),
        ("stdin-events", p, &[p, p]),
        ("off-by-one", w, &[w, w]),
        ("correct", p, &[p, p]),
        ("unsorted", w, &[w, p]),
    ];
    assert_eq!(results.len(), expected.len());
    for (result, (model, verdict, cases)) in results.iter().zip(expected) {
        assert_eq!(result["model"], model);
        assert_eq!(result["verdict"], verdict, "{model}: {}", result["message"]);
        assert_eq!(case_verdicts(result), cases, "{model}");
    }
    let message = |i: usize| results[i]["message"].as_str().unwrap().to_owned();
    assert!(
        message(1).starts_with("deep: Uncaught: AssertionError"),
        "{}",
        message(1)
    );
    assert!(
        message(2).contains("TypeError: no adding today"),
        "{}",
        message(2)
    );
    assert!(message(3).contains("SyntaxError"), "{}", message(3));
    assert!(message(5).contains("AssertionError"), "{}", message(5));
    assert_eq!(
        results[5]["cases"][3]["message"].as_str().unwrap(),
        "Uncaught: TypeError: return value of type object (not a plain object, array, Map or Set) is not plain data"
    );
    assert_eq!(message(9), "edge/three: token 1: expected \"6\", got \"7\"");
    assert_eq!(message(11), "basic: .sorted[0]: expected 1, got 3");
    // The token lines are not shown as the program's output.
    assert!(results
        .iter()
        .all(|r| !r["stdout"].as_str().unwrap().contains("wasmeval-")));
}

#[test]
fn humaneval_x_and_multipl_e_javascript_tests_judge_right_and_wrong_solutions() {
    let humaneval_x = repo().join("tests/fixtures/humaneval-x/js.jsonl");
    let results = run_samples(
        &humaneval_x,
        &[
            json!({"task_id": "JavaScript/7", "completion": "  return 2 * x;\n}\n"}),
            json!({"task_id": "JavaScript/7", "completion": "  return x;\n}\n"}),
            // HumanEval-X's test prefix assigns its own console.assert; a candidate's no-op one
            // assigned before it changes nothing either.
            json!({"task_id": "JavaScript/7", "completion": "  return x;\n}\nconsole.assert = () => {};\n"}),
        ],
    );
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["passed", "wrong_answer", "wrong_answer"]);

    let multipl_e = repo().join("tests/fixtures/multipl-e/tasks.jsonl");
    let results = run_samples(
        &multipl_e,
        &[
            json!({"task_id": "HumanEval_902_shout", "completion": "  return s.toUpperCase() + '!';\n}\n"}),
            json!({"task_id": "HumanEval_902_shout", "completion": "  return s + '!';\n}\n"}),
        ],
    );
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["passed", "wrong_answer"]);
    // MultiPL-E's assert.deepEqual is a host-judged call: the host names the difference.
    assert_eq!(
        results[1]["message"], "assert 1: expected \"HEY!\", got \"hey!\"",
        "{}",
        results[1]
    );
}

#[test]
fn every_hostile_javascript_program_gets_its_expected_verdict() {
    require_runtime();
    check_corpus("js", &run_time_corpus("js", "js"), 12);
    // `ca_*` programs attack a `calls` task, whose values the host judges.
    check_corpus_against("js", "calls_task.json", &calls_corpus("js", "js"), 3);
}
