//! `calls` suites: the guest reports what the candidate's function returned, as plain data, and the
//! host compares it with the expected value, which never enters the guest. Objects that compare
//! equal to anything, subclasses, early exits, printed markers and forged report lines never pass.

use crate::support::{case_verdicts as verdicts, fixture, results, run};

#[test]
fn returned_values_are_judged_on_the_host_and_cannot_be_forged() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let (tasks, samples) = fixture("calls");
    run(&tasks, &samples, &out, &["--jobs", "2"]);
    let results = results(&out);
    // (index, verdict, message of the sample (its first failing case), why)
    let expected: &[(usize, &str, &str, &str)] = &[
        (0, "passed", "", "honest add"),
        (1, "wrong_answer", "expected 5, got -1", "wrong add"),
        (
            2,
            "wrong_answer",
            "expected 5, got <Anything object>",
            "an object whose __eq__ is always true: not plain data, so the isolated judge runs \
             the case's assertion, where the candidate's own __eq__ never decides (issue 33)",
        ),
        (
            3,
            "wrong_answer",
            "expected 5, got 0",
            "an int subclass whose __eq__ is always true: compared as the int it is",
        ),
        (
            4,
            "runtime_error",
            "the program exited (code 0) before its tests finished",
            "os._exit(0) in the call",
        ),
        (
            5,
            "runtime_error",
            "SystemExit: 0",
            "sys.exit(0) in the call",
        ),
        (6, "runtime_error", "SystemExit: 0", "sys.exit(0) at import"),
        (
            7,
            "wrong_answer",
            "expected 5, got -1",
            "prints a success marker and report lines with a made-up token",
        ),
        (
            8,
            "wrong_answer",
            "expected 5, got -1",
            "replaces json.dumps, the json string encoder, repr, type, isinstance, len, callable",
        ),
        (9, "runtime_error", "ValueError: no sums today", "raises"),
        (
            10,
            "runtime_error",
            "AssertionError: gave up",
            "an AssertionError from the candidate is its own error",
        ),
        (
            11,
            "runtime_error",
            "return value nested too deeply to report (over 100 levels)",
            "10000 nested lists",
        ),
        (
            12,
            "runtime_error",
            "return value too large to report (over 100000 items)",
            "a list of 200000 items",
        ),
        (
            13,
            "runtime_error",
            "return value too large to report (over 500000 characters of JSON)",
            "a string of 2 million characters",
        ),
        (
            14,
            "runtime_error",
            "return value nested too deeply to report (over 100 levels)",
            "a list that contains itself",
        ),
        (
            15,
            "runtime_error",
            "no function `add`",
            "no function of that name",
        ),
        (
            16,
            "runtime_error",
            "the program wrote lines in the harness's report format (with its token): a call \
             cannot pass in the guest: `end 0 passed null`",
            "reads the token from the harness's frames and claims `passed` for every case",
        ),
        (
            17,
            "wrong_answer",
            "expected 0, got 5",
            "reads the token and reports 5 for every case: right for the first only",
        ),
        (
            18,
            "wrong_answer",
            "expected 5, got true",
            "a bool is not an int",
        ),
        (19, "passed", "", "a float equal to the int"),
        (20, "passed", "", "mean within the tolerance"),
        (
            21,
            "wrong_answer",
            "expected 0.333333333333, got 0.33",
            "outside the tolerance",
        ),
        (22, "wrong_answer", "expected 2, got \"2.0\"", "a string"),
        (23, "passed", "", "shout, with non-ASCII text"),
        (
            24,
            "wrong_answer",
            "expected \"HI!\", got \"HI\"",
            "wrong shout",
        ),
        (
            25,
            "wrong_answer",
            "expected \"HI!\", got ''",
            "a str subclass whose __eq__ says True, in the isolated judge",
        ),
        (
            26,
            "runtime_error",
            "return value has a str that is not valid Unicode (a lone surrogate)",
            "a lone surrogate",
        ),
        (27, "passed", "", "a tuple"),
        (
            28,
            "wrong_answer",
            "expected {\"$tuple\":[1,3]}, got [1,3]",
            "a list where a tuple is expected",
        ),
        (
            29,
            "wrong_answer",
            "expected (1, 3), got []",
            "a list subclass whose __eq__ says True, in the isolated judge",
        ),
        (
            30,
            "wrong_answer",
            "expected {\"$tuple\":[1,3]}, got {\"$dict\":[[\"$tuple\",[1,3]]]}",
            "a dict dressed as a tuple's tag",
        ),
        (
            31,
            "passed",
            "",
            "a namedtuple equals its tuple, as in Python (the isolated judge compares it)",
        ),
        (
            32,
            "passed",
            "",
            "dicts and sets, in another order than the task's",
        ),
        (
            33,
            "wrong_answer",
            ".$dict[1][1]: expected [\"bb\",\"cc\"], got [\"cc\"]",
            "a Counter compares with the expected dict as a dict, as in Python; by_length keeps \
             one word per length",
        ),
        (34, "passed", "", "an assertions suite and a calls suite"),
        (
            35,
            "wrong_answer",
            "expected null, got -1",
            "-1 is not None",
        ),
        (
            36,
            "passed",
            "",
            "tagged arguments arrive as tuple, set, frozenset, dict, inf",
        ),
        (37, "passed", "", "infinity, tagged"),
        (
            38,
            "wrong_answer",
            "expected {\"$float\":\"inf\"}, got {\"$float\":\"nan\"}",
            "nan is not inf",
        ),
    ];
    assert_eq!(results.len(), expected.len());
    for &(index, verdict, message, why) in expected {
        let result = &results[index];
        assert_eq!(result["index"], index, "{result}");
        // The sample's message is its first failing case's, after the case's name.
        let failing = result["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|case| case["verdict"] != "passed");
        let shown = match failing {
            Some(case) => format!("{}: {message}", case["name"].as_str().unwrap()),
            None => message.to_owned(),
        };
        assert_eq!(
            (
                result["verdict"].as_str().unwrap(),
                result["message"].as_str().unwrap_or("")
            ),
            (verdict, shown.as_str()),
            "sample {index} ({why}): {result}"
        );
    }

    // Case names come from the task; every case has a verdict.
    let names: Vec<&str> = results[0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["small", "zero", "large"]);
    // Every case of a calls suite says the host judged it, every assertion the isolated judge
    // (calls/find has one before its calls), and so do calls whose value is not plain data
    // (samples 2, 3, 25, 29 and 31), and the run counts them.
    for result in &results {
        let judges: Vec<&str> = result["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["judged_by"].as_str().unwrap())
            .collect();
        let expected = |n| match (result["task_id"].as_str(), result["index"].as_u64()) {
            (Some("calls/find"), _) => [vec!["isolated"], vec!["host"; n - 1]].concat(),
            (_, Some(2 | 3 | 25 | 29 | 31)) => vec!["isolated"; n],
            _ => vec!["host"; n],
        };
        assert_eq!(judges, expected(judges.len()), "{result}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let counts = &summary["judged_by"];
    let (host, isolated) = (
        counts["host"].as_u64().unwrap(),
        counts["isolated"].as_u64().unwrap(),
    );
    assert!(host > 5 * isolated && isolated > 0, "{counts}");
    assert!(counts.get("guest").is_none(), "{counts}");
    // The cases after an early exit were not run.
    assert!(results[4]["cases"][2]["message"]
        .as_str()
        .unwrap()
        .starts_with("not run: "));
    // Forged lines are the candidate's output, and its own claim of a value passes only the case
    // it happens to answer right.
    assert!(results[7]["stdout"]
        .as_str()
        .unwrap()
        .contains("all tests passed"));
    assert_eq!(
        verdicts(&results[17]),
        ["passed", "wrong_answer", "wrong_answer"]
    );
    // Each value on its own: a Counter equal to the expected dict, as Python says (twice; issue
    // 33), a dict with one list per length (the last word wins), a frozenset is a set, a list is
    // not.
    assert_eq!(
        verdicts(&results[33]),
        ["passed", "passed", "wrong_answer", "passed", "wrong_answer"]
    );
    assert_eq!(
        results[33]["cases"][2]["message"],
        ".$dict[1][1]: expected [\"bb\",\"cc\"], got [\"cc\"]"
    );
    // Partly right.
    assert_eq!(verdicts(&results[21]), ["passed", "wrong_answer", "passed"]);
    assert_eq!(verdicts(&results[35]), ["passed", "passed", "wrong_answer"]);
}

#[test]
fn regression_integers_beyond_64_bits_are_compared_exactly() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let (tasks, samples) = fixture("big-integers");
    run(&tasks, &samples, &out, &[]);
    let results = results(&out);
    let got: Vec<Vec<&str>> = results.iter().map(verdicts).collect();
    assert_eq!(
        got,
        [
            vec!["passed", "passed"],
            // 2**65 for 2**65 + 1: a float comparison would call them equal.
            vec!["wrong_answer", "passed"],
            // Python: float(2**65 + 1) == 2**65 + 1 is False.
            vec!["wrong_answer", "passed"],
            vec!["passed", "wrong_answer"],
        ],
        "{results:#?}"
    );
    // A language that cannot receive such an argument exactly refuses the task, naming the case.
    let refused = tasks.with_file_name("refused.jsonl");
    let output = crate::support::run_command(&refused, &samples, &work.path().join("r"), &[])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("refused.jsonl:1") && stderr.contains("`big_argument`"),
        "{stderr}"
    );
}
