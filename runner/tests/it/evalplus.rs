//! EvalPlus's own format (HumanEval+, MBPP+) run natively: each input a host-judged `calls` case
//! whose expected value is the reference's output, computed once in the sandbox and cached;
//! EvalPlus's comparison and oracles; one result per input set (`base`, `plus`).

use crate::support::{fixture, read_jsonl, results, run};
use serde_json::Value;
use std::path::Path;

/// The fixture's run: its results by (task, model), with stderr.
fn fixture_run(out: &Path) -> (Vec<Value>, String) {
    let (tasks, samples) = fixture("evalplus");
    let output = run(&tasks, &samples, out, &["--jobs", "2"]);
    (
        results(out),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn result<'a>(results: &'a [Value], task: &str, model: &str) -> &'a Value {
    results
        .iter()
        .find(|r| r["task_id"] == task && r["model"] == model)
        .unwrap_or_else(|| panic!("no result of {task} by {model}"))
}

/// Each case of a result as (name, verdict).
fn cases(result: &Value) -> Vec<(&str, &str)> {
    result["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["verdict"].as_str().unwrap()))
        .collect()
}

#[test]
fn both_shapes_run_with_one_result_per_input_set() {
    let work = tempfile::tempdir().unwrap();
    let (results, stderr) = fixture_run(&work.path().join("out"));
    assert!(
        stderr.contains("read as HumanEval+ (EvalPlus's `base_input` and `plus_input`")
            && stderr.contains("MBPP+ (EvalPlus's `base_input` and `plus_input`"),
        "{stderr}"
    );
    // (task, model, verdict, base, plus)
    let expected = [
        ("Toy/mean", "right", "passed", "passed", "passed"),
        ("Toy/mean", "close", "passed", "passed", "passed"),
        (
            "Toy/mean",
            "wrong",
            "wrong_answer",
            "passed",
            "wrong_answer",
        ),
        ("Toy/find_zero", "right", "passed", "passed", "passed"),
        (
            "Toy/find_zero",
            "wrong",
            "wrong_answer",
            "wrong_answer",
            "wrong_answer",
        ),
        ("Mbpp/2", "right", "passed", "passed", "passed"),
        (
            "Mbpp/2",
            "wrong",
            "wrong_answer",
            "wrong_answer",
            "wrong_answer",
        ),
        ("Mbpp/737", "right", "passed", "passed", "passed"),
        (
            "Mbpp/737",
            "wrong",
            "wrong_answer",
            "wrong_answer",
            "wrong_answer",
        ),
        ("Toy/count_up", "right", "passed", "passed", "passed"),
        ("Toy/count_up", "close", "passed", "passed", "passed"),
        (
            "Toy/count_up",
            "wrong",
            "wrong_answer",
            "passed",
            "wrong_answer",
        ),
    ];
    assert_eq!(results.len(), expected.len());
    for (task, model, verdict, base, plus) in expected {
        let r = result(&results, task, model);
        assert_eq!(
            (r["verdict"].as_str().unwrap(), cases(r)),
            (verdict, vec![("base", base), ("plus", plus)]),
            "{task} by {model}: {r}"
        );
        assert!(
            r["cases"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["judged_by"] == "host"),
            "{r}"
        );
    }
    // The failing set names its first failing input and counts the others.
    let wrong = result(&results, "Toy/mean", "wrong");
    assert_eq!(
        wrong["cases"][1]["message"],
        "expected 0.19999999999999998, got 0.0 (not within tolerance, atol 1e-6) \
         (plus/0; 1 of 3 inputs failed)"
    );
    let set = result(&results, "Mbpp/2", "wrong");
    assert_eq!(
        set["cases"][0]["message"],
        "as a set: 3 is not expected (base/0; 1 of 1 inputs failed)"
    );
}

/// `Toy/mean`'s float answers: EvalPlus's tolerance of 1e-6 for floats (`is_floats`), while an
/// integer where the reference returns a float is equal only by `==`.
#[test]
fn float_answers_pass_within_evalplus_tolerance() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let (results, _) = fixture_run(&out);
    assert_eq!(result(&results, "Toy/mean", "close")["verdict"], "passed");
    let tasks = read_jsonl(&out.join("tasks.jsonl"));
    let mean = tasks.iter().find(|t| t["id"] == "Toy/mean").unwrap();
    let cases = mean["tests"][0]["cases"].as_array().unwrap();
    // The reference's output, with the float tolerance from the first float output on.
    assert_eq!(cases[0]["expected"], 2.0);
    assert!(cases.iter().all(|c| c["tolerance"] == 1e-6), "{cases:?}");
}

/// Regression: `wasmeval run` refused MBPP+'s own file ("human-eval problem: missing field
/// test") and read HumanEval+'s as plain human-eval, judging none of its `plus_input`.
#[test]
fn regression_mbppplus_refused_and_humanevalplus_plus_inputs_never_judged() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    fixture_run(&out);
    let tasks = read_jsonl(&out.join("tasks.jsonl"));
    let names = |id: &str| -> Vec<String> {
        let task = tasks.iter().find(|t| t["id"] == id).unwrap();
        task["tests"][0]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names("Mbpp/737"), ["base/0", "base/1", "plus/0", "plus/1"]);
    assert_eq!(names("Toy/find_zero"), ["base/0", "base/1", "plus/0"]);
}

/// MBPP+'s inputs are converted as EvalPlus converts them (Mbpp/2's lists become tuples: the
/// right sample adds `a[:0]`, a tuple only with a tuple), and EvalPlus's special oracles judge:
/// Mbpp/2's outputs as sets, HumanEval/32's roots by the polynomial, Mbpp/737's on `None`.
#[test]
fn mbpp_plus_inputs_are_tuples_and_special_oracles_judge() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let (results, _) = fixture_run(&out);
    let tasks = read_jsonl(&out.join("tasks.jsonl"));
    let similar = tasks.iter().find(|t| t["id"] == "Mbpp/2").unwrap();
    let first = &similar["tests"][0]["cases"][0];
    assert_eq!(
        first["args"][0],
        serde_json::json!({"$tuple": [3, 4, 5, 6]})
    );
    assert_eq!(
        first["check"],
        serde_json::json!({"evalplus": "same_items"})
    );
    // Its right sample returns (4, 5, 5, 4): the reference (4, 5) as a set.
    assert_eq!(result(&results, "Mbpp/2", "right")["verdict"], "passed");
    // find_zero's right sample finds other floats than the reference's (1.9999999999999998).
    assert_eq!(
        result(&results, "Toy/find_zero", "right")["verdict"],
        "passed"
    );
    let root = &result(&results, "Toy/find_zero", "wrong")["cases"][0]["message"];
    assert!(
        root.as_str().unwrap().starts_with("0.5 is not a root"),
        "{root}"
    );
    // check_str's reference returns a match object; a bool is judged as itself.
    let check_str = tasks.iter().find(|t| t["id"] == "Mbpp/737").unwrap();
    assert_eq!(
        check_str["tests"][0]["cases"][0]["expected"],
        serde_json::json!(true)
    );
    assert_eq!(result(&results, "Mbpp/737", "right")["verdict"], "passed");
}

/// An input on which the reference raises is the dataset's defect: left out, and said.
/// An output past the tasks' value budget is kept as its digest.
#[test]
fn reference_defects_are_left_out_and_large_outputs_kept_as_digests() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let (_, stderr) = fixture_run(&out);
    assert!(
        stderr.contains("1 input left out: the reference does not pass it in the sandbox")
            && stderr.contains(
                "Toy/mean plus/2: the reference raised: ZeroDivisionError: division by zero"
            ),
        "{stderr}"
    );
    let tasks = read_jsonl(&out.join("tasks.jsonl"));
    let mean = tasks.iter().find(|t| t["id"] == "Toy/mean").unwrap();
    let names: Vec<&str> = mean["tests"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["base/0", "base/1", "plus/0", "plus/1", "plus/3"]);
    let count_up = tasks.iter().find(|t| t["id"] == "Toy/count_up").unwrap();
    let big = &count_up["tests"][0]["cases"][1]["expected"];
    assert!(
        big["$sha256"].as_str().is_some_and(|hex| hex.len() == 64),
        "{big}"
    );
    // Every task's budget is the floor: four seconds of native CPython.
    assert!(tasks.iter().all(|t| t["time_limit"] == 4.0));
    assert!(
        stderr.contains("4 × the reference's fuel, at least 4 s of native CPython"),
        "{stderr}"
    );
}

/// The reference's outputs are computed once: a second run (and another door) finds them in
/// the cache, keyed by the reference, the inputs and the interpreter.
#[test]
fn reference_outputs_are_computed_once_and_cached() {
    let work = tempfile::tempdir().unwrap();
    // A task of its own, so that no earlier run has cached it.
    let salt = format!(
        "{:x}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let task = serde_json::json!({
        "task_id": "Toy/double", "prompt": "def double(x):\n", "entry_point": "double",
        "canonical_solution": format!("    return 2 * x  # {salt}\n"),
        "test": "", "contract": "", "atol": 0,
        "base_input": [[1], [2]], "plus_input": [[3]]});
    let sample = serde_json::json!({"task_id": "Toy/double", "completion": "    return x + x\n"});
    let (tasks, samples) = (work.path().join("t.jsonl"), work.path().join("s.jsonl"));
    std::fs::write(&tasks, format!("{task}\n")).unwrap();
    std::fs::write(&samples, format!("{sample}\n")).unwrap();
    let stderr = |out: &str| {
        let output = run(&tasks, &samples, &work.path().join(out), &[]);
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let first = stderr("first");
    assert!(
        first.contains("(3 cases): 0 from the cache, 1 computed in the sandbox"),
        "{first}"
    );
    let second = stderr("second");
    assert!(
        second.contains("(3 cases): 1 from the cache, 0 computed in the sandbox"),
        "{second}"
    );
    assert_eq!(results(&work.path().join("second"))[0]["verdict"], "passed");
}

/// `serve` computes (or finds) the same expected values as `run`: a sample gets the same result
/// through its native API.
#[test]
fn serve_judges_as_run_does() {
    let work = tempfile::tempdir().unwrap();
    let (results, _) = fixture_run(&work.path().join("out"));
    let (tasks, samples) = fixture("evalplus");
    let server = crate::support::Server::start_with(&tasks, &["--jobs", "2"]);
    for (index, sample) in read_jsonl(&samples).into_iter().enumerate() {
        let (_, _, json) = server.post("/api/v1/evaluate", &sample.to_string(), "");
        let served: Value = serde_json::from_str(&json).expect("a result");
        let ran = &results[index];
        assert_eq!(
            (&served["verdict"], &served["cases"]),
            (&ran["verdict"], &ran["cases"]),
            "sample {index}: {sample}"
        );
    }
}
