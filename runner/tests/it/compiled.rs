//! Compiled assertion programs: each case is the candidate plus the case's `main`, judged by how
//! it exits.

use crate::support::{case_verdicts, fixture, results, run};

#[test]
fn rust_assertion_programs_are_judged_by_their_exit() {
    let (tasks, samples) = fixture("compiled");
    let out = tempfile::tempdir().unwrap();
    run(
        &tasks,
        &samples,
        out.path(),
        &["--jobs", "2", "--fuel", "2000000000"],
    );
    let results = results(out.path());
    let verdicts: Vec<(&str, Vec<&str>)> = results
        .iter()
        .map(|r| (r["verdict"].as_str().unwrap(), case_verdicts(r)))
        .collect();
    assert_eq!(verdicts[0], ("passed", vec!["passed", "passed"]));
    assert_eq!(
        verdicts[1],
        ("wrong_answer", vec!["passed", "wrong_answer"])
    );
    assert!(results[1]["message"]
        .as_str()
        .unwrap()
        .contains("assertion `left == right` failed"));
    assert_eq!(verdicts[2], ("compile_error", vec!["compile_error"; 2]));
    assert!(results[2]["message"]
        .as_str()
        .unwrap()
        .contains("mismatched types"));
    assert_eq!(verdicts[3], ("runtime_error", vec!["runtime_error"; 2]));
    assert!(results[3]["message"]
        .as_str()
        .unwrap()
        .contains("panicked: index out of bounds"));
    assert_eq!(verdicts[4], ("timeout", vec!["timeout"; 2]));
    assert_eq!(results[4]["timeout_cause"], "fuel");
}
