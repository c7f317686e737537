//! `io` suites: whole-program runs on stdin, judged by exact, whitespace and epsilon comparison.

use crate::support::{case_verdicts, fixture_results};

#[test]
fn stdin_stdout_cases_are_judged_by_their_rule() {
    let results = fixture_results("io", &["--jobs", "2", "--fuel", "2000000000"]);
    let verdict = |i: usize| results[i]["verdict"].as_str().unwrap().to_owned();
    let case_verdicts = |i: usize| case_verdicts(&results[i]);

    assert_eq!(verdict(0), "passed");
    let names: Vec<&str> = results[0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["edge/empty", "edge/one", "random/r1", "random/r2"]);

    // Drops the first number: right only where it is 0 or absent.
    assert_eq!(verdict(1), "wrong_answer");
    assert_eq!(
        case_verdicts(1),
        ["passed", "wrong_answer", "wrong_answer", "wrong_answer"]
    );
    assert_eq!(
        results[1]["message"],
        "edge/one: token 1: expected \"5\", got \"0\""
    );

    // int('') on empty input: an exception, the process exits with 1.
    assert_eq!(verdict(2), "runtime_error");
    assert_eq!(case_verdicts(2)[1], "passed");
    assert!(results[2]["stderr"]
        .as_str()
        .unwrap()
        .contains("ValueError"));

    // The first case times out; the others are not run and say so.
    assert_eq!(verdict(3), "timeout");
    assert_eq!(results[3]["timeout_cause"], "fuel");
    assert_eq!(case_verdicts(3), ["timeout"; 4]);
    assert!(results[3]["cases"][1]["message"]
        .as_str()
        .unwrap()
        .starts_with("not run: "));

    // 0.3333333333333333 against 0.333333333 passes only within the tolerance.
    assert_eq!(verdict(4), "passed");
    assert_eq!(verdict(5), "wrong_answer");
    assert_eq!(case_verdicts(5), ["wrong_answer", "passed"]);

    assert_eq!(verdict(6), "passed");
    assert_eq!(verdict(7), "wrong_answer");
    assert_eq!(
        results[7]["message"],
        "two: line 1: expected \"a | b\", got \"a|b\""
    );
}
