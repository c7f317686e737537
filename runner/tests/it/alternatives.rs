//! Alternative assertion sets (MBUPP): a sample passes when one set passes completely, whatever its
//! main function is called; the result shows that set's cases, or those of the closest set.

use crate::support::{case_verdicts as verdicts, fixture, results, run};

#[test]
fn a_sample_passes_with_any_complete_set_and_its_function_is_found_by_its_calls() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let (tasks, samples) = fixture("alternatives");
    run(&tasks, &samples, &out, &[]);
    let results = results(&out);
    // (index, verdict, alternative, why)
    let expected = [
        (
            0,
            "passed",
            "validator",
            "other name, with a helper it calls",
        ),
        (1, "passed", "filter", "only the second set fits"),
        (
            2,
            "wrong_answer",
            "filter",
            "no set passes: the closest one is shown",
        ),
        (3, "passed", "validator", "the exact name"),
        (
            4,
            "passed",
            "extractor",
            "the caller is bound, not the helper defined after it",
        ),
        (5, "passed", "as tuple", "other name"),
        (6, "passed", "as list", "second set, with its setup"),
        (7, "runtime_error", "as tuple", "no function at all"),
        (8, "passed", "base first", "other name"),
        (9, "passed", "exponent first", "argument order"),
        (
            10,
            "passed",
            "exponent first",
            "each set gets a fresh namespace",
        ),
        (
            11,
            "passed",
            "from text",
            "the assertions suite and one set pass",
        ),
        (
            12,
            "wrong_answer",
            "from list",
            "a set passes but the assertions suite fails",
        ),
    ];
    assert_eq!(results.len(), expected.len());
    for (index, verdict, alternative, why) in expected {
        let result = &results[index];
        assert_eq!(result["index"], index, "{result}");
        assert_eq!(
            (
                result["verdict"].as_str().unwrap(),
                result["alternative"].as_str().unwrap()
            ),
            (verdict, alternative),
            "sample {index} ({why}): {result}"
        );
    }

    // The cases shown are those of the chosen set, named as in the task.
    let names: Vec<&str> = results[4]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["first", "none"]);
    // Python assertions ran in a judge interpreter apart from the candidate's, and results say so.
    assert!(results[2]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["judged_by"] == "isolated"));
    assert_eq!(
        verdicts(&results[2]),
        ["wrong_answer", "passed", "wrong_answer"]
    );
    assert_eq!(
        results[7]["message"],
        "three: no function found to bind to `min_max`"
    );
    // Plain suites' cases come first, then the chosen set's, in the task's order.
    assert_eq!(verdicts(&results[12]), ["wrong_answer", "passed"]);
}
