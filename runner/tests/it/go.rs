//! Go samples end to end: HumanEval-X Go tasks (tests/fixtures/humaneval-x/go.jsonl, made-up
//! problems in its shape) and MultiPL-E Go tasks (tests/fixtures/multipl-e/go.jsonl, likewise)
//! whose reference solutions pass and whose wrong ones fail, and the hostile corpus
//! (tests/hostile/go): run-time attacks and compile-time ones (`ct_*`, which become compile
//! errors of the io task) against `task.json`, and candidates that try to pass tests without
//! solving them: guest-judged assertions (`as_*`, `assertion_task.json`), HumanEval-X asserts
//! converted to host-judged calls (`ca_*`, `calls_task.json`) and MultiPL-E's rows (`mp_*`,
//! `multipl_e_task.json`).

use crate::hostile::{assertion_corpus, calls_corpus, check_corpus, check_corpus_against};
use crate::support::{hostile_corpus, repo, results, run, Hostile};
use serde_json::json;

/// The programs of tests/hostile/go that target the io task: run-time and compile-time ones.
pub(crate) fn io_corpus() -> Vec<Hostile> {
    hostile_corpus("go", "go", "//")
        .into_iter()
        .filter(|p| {
            !["as_", "ca_", "mp_"]
                .iter()
                .any(|prefix| p.name.starts_with(prefix))
        })
        .collect()
}

/// The `mp_*` programs: whole-program candidates for `multipl_e_task.json`.
fn multipl_e_corpus() -> Vec<Hostile> {
    hostile_corpus("go", "go", "//")
        .into_iter()
        .filter(|p| p.name.starts_with("mp_"))
        .collect()
}

/// Runs `samples` (JSON records) against the tasks file `tasks` and returns the results.
fn run_samples(tasks: &std::path::Path, samples: &[serde_json::Value]) -> Vec<serde_json::Value> {
    let work = tempfile::tempdir().unwrap();
    let samples_path = work.path().join("samples.jsonl");
    let text: String = samples.iter().map(|s| format!("{s}\n")).collect();
    std::fs::write(&samples_path, text).unwrap();
    let out = work.path().join("out");
    run(tasks, &samples_path, &out, &["--jobs", "2"]);
    results(&out)
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
fn no_go_program_passes_host_judged_calls_by_forging_exiting_or_shadowing_the_driver() {
    check_corpus_against("go", "calls_task.json", &calls_corpus("go", "go"), 10);
}

#[test]
fn no_go_program_passes_multipl_e_rows_without_solving_them() {
    let programs = multipl_e_corpus();
    assert!(programs.len() >= 5, "the MultiPL-E corpus shrank");
    let work = tempfile::tempdir().unwrap();
    let task: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("tests/hostile/go/multipl_e_task.json")).unwrap(),
    )
    .unwrap();
    let tasks = work.path().join("tasks.jsonl");
    std::fs::write(&tasks, format!("{task}\n")).unwrap();
    let samples: Vec<serde_json::Value> = programs
        .iter()
        .map(|p| json!({"task_id": task["name"], "solution": p.source, "model": p.name}))
        .collect();
    let results = run_samples(&tasks, &samples);
    let got: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["model"].as_str().unwrap(), r["verdict"].as_str().unwrap()))
        .collect();
    let expected: Vec<(&str, &str)> = programs
        .iter()
        .map(|p| (p.name.as_str(), p.expect.as_str()))
        .collect();
    assert_eq!(got, expected, "{results:#?}");
    // Every row is judged on the host, whatever the candidate did.
    for result in &results {
        for case in result["cases"].as_array().unwrap() {
            assert_eq!(case["judged_by"], "host", "{result:#?}");
        }
    }
}

#[test]
fn multipl_e_go_solutions_pass_on_the_host_and_wrong_ones_fail() {
    let dir = repo().join("tests/fixtures/multipl-e");
    let mut samples: Vec<serde_json::Value> =
        std::fs::read_to_string(dir.join("go_solutions.jsonl"))
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
    let solutions = samples.len();
    assert!(solutions >= 10);
    samples.extend([
        // Subtracts.
        json!({"task_id": "HumanEval_900_sum_pair", "completion": "    return a - b\n}\n"}),
        // Integer division: 1 for 3, where `%v` of 1.5 is "1.5".
        json!({"task_id": "HumanEval_909_halve", "completion": "    return float64(x / 2)\n}\n"}),
        // A nil slice prints as `[]` too, but the others are wrong.
        json!({"task_id": "HumanEval_906_evens_below", "completion": "    return nil\n}\n"}),
        // `strings` is not imported by the prompt, and MultiPL-E's program is one file: no
        // import is added.
        json!({"task_id": "HumanEval_902_shout", "completion": "    return strings.Fields(strings.ToUpper(strings.Join(words, \" \")))\n}\n"}),
        // The guest-judged test (not the translator's shape): a wrong word fails through t.Errorf.
        json!({"task_id": "HumanEval_911_first_word", "completion": "    return s + \"!\"\n}\n"}),
        // Panics on the empty string, in the guest-judged test.
        json!({"task_id": "HumanEval_911_first_word", "completion": "    _ = s[len(s)-1]\n    return s[:5]\n}\n"}),
        // Panics in the last row of a host-judged table: no row was compared.
        json!({"task_id": "HumanEval_901_is_palindrome", "completion": "    return s[1] == s[len(s)-1]\n}\n"}),
    ]);
    let results = run_samples(&dir.join("go.jsonl"), &samples);
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    let mut expected = vec!["passed"; solutions];
    expected.extend([
        "wrong_answer",
        "wrong_answer",
        "wrong_answer",
        "compile_error",
        "wrong_answer",
        "runtime_error",
        "runtime_error",
    ]);
    assert_eq!(verdicts, expected, "{results:#?}");
    let message = |i: usize| {
        results[i]["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(
        message(solutions),
        "0: candidate(1, 2) -> 3: expected \"3\", got \"-1\""
    );
    assert!(
        message(solutions + 3).contains("undefined: strings"),
        "{}",
        message(solutions + 3)
    );
    assert!(
        message(solutions + 4).contains(
            "assertion failed: TestFirst_Word/test_num__0: expected 'hello', got 'hello world!'"
        ),
        "{}",
        message(solutions + 4)
    );
    // Judged on the host, but for the one test that is not the translator's shape.
    for (result, task) in results.iter().zip(&samples) {
        let judge = if task["task_id"] == "HumanEval_911_first_word" {
            "guest"
        } else {
            "host"
        };
        for case in result["cases"].as_array().unwrap() {
            assert_eq!(case["judged_by"], judge, "{result:#?}");
        }
    }
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
    // Go/0's asserts are host-judged calls: the value compared with its Go type.
    assert_eq!(message(3), "1: -6, Twice(-3): .$go[1]: expected -6, got -1");
    assert_eq!(
        message(5),
        "0: 4, Twice(2): ./main.go:8:5: declared and not used: y",
        "{}",
        message(5)
    );
    assert!(
        message(6).contains("panicked: runtime error: index out of range"),
        "{}",
        message(6)
    );
    // Go/0's and Go/1's asserts became host-judged calls; Go/2 asserts in a loop, so its test
    // ran in the candidate's process, and results say it could be forged.
    for (result, judge) in results.iter().zip(["host", "host", "guest"]) {
        for case in result["cases"].as_array().unwrap() {
            assert_eq!(case["judged_by"], judge, "{result:#?}");
        }
    }
}

#[test]
fn regression_issue_32_a_failed_test_stays_failed_whatever_the_candidate_clears() {
    // Two Test functions that report with t.Errorf (not fatal): the failures were recorded in a
    // package variable that the candidate, in the same package, could clear when the second test
    // called it, wasmeval's end-of-tests function was callable from an init, and `t.Fail()` set
    // `failed = true` with whatever `true` the candidate declared. Now main counts the failures in
    // its own variable and writes the line itself, and Go's `true` is checked to be Go's.
    let task = json!({"id": "go-errorf", "language": "go", "entry_point": "Add",
        "prompt": "Write `func Add(a, b int) int`.\n",
        "tests": [{"kind": "assertions", "setup": "package main\n\nimport \"testing\"\n",
            "cases": [{"name": "two_tests", "code": "func TestAdd(t *testing.T) {\n    if Add(1, 2) != 3 {\n        t.Errorf(\"Add(1, 2) != 3\")\n    }\n}\n\nfunc TestAddAgain(t *testing.T) {\n    if Add(2, 2) != 4 {\n        t.Errorf(\"Add(2, 2) != 4\")\n    }\n}\n"}]}]});
    let work = tempfile::tempdir().unwrap();
    let tasks = work.path().join("tasks.jsonl");
    std::fs::write(&tasks, format!("{task}\n")).unwrap();
    let wrong_first = "package main\n\nvar calls int\n\nfunc Add(a, b int) int {\n\tcalls++\n\tif calls == 1 {\n\t\treturn 0\n\t}\n\treturn a + b\n}\n";
    let clears = wrong_first.replace("\tcalls++\n", "\tcalls++\n\t__wasmeval_failed = false\n");
    let init_ends = "package main\n\nimport \"os\"\n\nfunc init() {\n\t__wasmeval_end_of_tests()\n\tos.Exit(0)\n}\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n";
    // `true` redeclared as false: the stand-ins recorded a failure with `t.failed = true`.
    let shadows_true =
        wrong_first.replace("var calls int\n", "var calls int\n\nconst true = false\n");
    let samples: Vec<serde_json::Value> = [
        (
            "honest",
            "package main\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
        ),
        ("wrong_first", wrong_first),
        ("clears", clears.as_str()),
        ("init_ends", init_ends),
        ("shadows_true", shadows_true.as_str()),
    ]
    .iter()
    .map(|(model, source)| json!({"task_id": "go-errorf", "solution": source, "model": model}))
    .collect();
    let results = run_samples(&tasks, &samples);
    let verdicts: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["model"].as_str().unwrap(), r["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("honest", "passed"),
            ("wrong_first", "wrong_answer"),
            ("clears", "compile_error"),
            ("init_ends", "compile_error"),
            ("shadows_true", "compile_error"),
        ],
        "{results:?}"
    );
}
