//! Ruby samples end to end: MultiPL-E `rb` tasks with hand-written solutions
//! (tests/fixtures/multipl-e/rb*.jsonl), wrong answers, and the hostile corpus (tests/hostile/ruby),
//! its `as_*` programs against a test-unit case judged in the guest.

use crate::hostile::{
    assertion_corpus, calls_corpus, check_corpus, check_corpus_against, run_time_corpus,
};
use crate::support::{repo, results, run};
use serde_json::json;

#[test]
fn hand_written_multipl_e_ruby_solutions_pass_and_converted_asserts_are_judged_on_the_host() {
    let fixtures = repo().join("tests/fixtures/multipl-e");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    run(
        &fixtures.join("rb.jsonl"),
        &fixtures.join("rb_solutions.jsonl"),
        &out,
        &[],
    );
    let results = results(&out);
    assert!(results.len() >= 10, "{} solutions", results.len());
    for result in &results {
        assert_eq!(result["verdict"], "passed", "{result}");
        // Its test uses assert_in_delta, which stays a guest-run assertion.
        let judge = match result["task_id"] == "HumanEval_4_mean_absolute_deviation" {
            true => "guest",
            false => "host",
        };
        for case in result["cases"].as_array().unwrap() {
            assert_eq!(case["judged_by"], judge, "{result}");
        }
        assert_eq!(result["not_analysed"], "language", "{result}");
    }
}

#[test]
fn wrong_answers_errors_and_exits_fail_each_case_on_its_own() {
    let tasks = repo().join("tests/fixtures/multipl-e/rb.jsonl");
    let work = tempfile::tempdir().unwrap();
    let samples = work.path().join("samples.jsonl");
    let records = [
        json!({"task_id": "HumanEval_23_strlen", "completion": "  string.length\nend\n"}),
        // Right except for the empty string.
        json!({"task_id": "HumanEval_23_strlen", "completion": "  string.empty? ? 1 : string.length\nend\n"}),
        // Raises for the empty string only: the other cases still pass.
        json!({"task_id": "HumanEval_23_strlen", "completion": "  raise ArgumentError, 'empty' if string.empty?\n  string.length\nend\n"}),
        json!({"task_id": "HumanEval_23_strlen", "completion": "  string.length\n"}),
        // A guest-judged test: the assertion fails.
        json!({"task_id": "HumanEval_4_mean_absolute_deviation", "completion": "  0.0\nend\n"}),
    ];
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&samples, text).unwrap();
    let out = work.path().join("out");
    run(&tasks, &samples, &out, &[]);
    let results = results(&out);
    let verdicts = |r: &serde_json::Value| -> Vec<String> {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["verdict"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(verdicts(&results[0]), ["passed"; 4]);
    assert_eq!(
        verdicts(&results[1]),
        ["wrong_answer", "passed", "passed", "passed"]
    );
    assert_eq!(
        verdicts(&results[2]),
        ["runtime_error", "passed", "passed", "passed"]
    );
    assert_eq!(
        results[2]["cases"][0]["message"], "ArgumentError: empty",
        "{}",
        results[2]
    );
    // A missing `end`: the program does not parse, and every case says so.
    assert_eq!(verdicts(&results[3]), ["runtime_error"; 4]);
    let message = results[3]["message"].as_str().unwrap();
    assert!(message.contains("SyntaxError"), "{message}");
    assert_eq!(results[4]["verdict"], "wrong_answer");
}

#[test]
fn every_hostile_ruby_program_gets_its_expected_verdict() {
    check_corpus("ruby", &run_time_corpus("ruby", "rb"), 14);
    check_corpus_against("ruby", "calls_task.json", &calls_corpus("ruby", "rb"), 6);
    check_corpus_against(
        "ruby",
        "assertion_task.json",
        &assertion_corpus("ruby", "rb"),
        12,
    );
}
