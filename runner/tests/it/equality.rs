//! Issue 33: a host-judged case means exactly what the test's own operator means in its language.
//! tests/fixtures/equality holds, per language, tasks in the datasets' own shapes (MultiPL-E's,
//! HumanEval-X's) whose one assert compares a call with a literal, and samples whose answers are
//! "almost equal" to it under a looser or stricter rule than the test's: a float against a double,
//! `"22"` against `22`, `true` against `1`, `-0.0`, NaN, a vector against a tuple. Each sample's
//! `model` is `<verdict>: <why>`, the verdict the language's own test gives it (checked natively
//! by `native.py` there: g++, rustc, node, lua with luaunit, ruby with test-unit, go test).

use crate::support::{repo, results, run};

/// Runs a fixture pair and checks every sample's verdict against its `model`'s, and that the
/// cases of passed or wrong answers were judged where the fixture says: in the guest when the
/// reason says so ("in the guest"), else on the host.
fn check(tasks: &str, samples: &str) {
    let dir = repo().join("tests/fixtures/equality");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    run(&dir.join(tasks), &dir.join(samples), &out, &["--jobs", "2"]);
    let mut failures = Vec::new();
    for result in results(&out) {
        let model = result["model"].as_str().unwrap();
        let (expected, why) = model.split_once(": ").unwrap();
        let verdict = result["verdict"].as_str().unwrap();
        if verdict != expected {
            failures.push(format!(
                "{}: {model}: got {verdict} ({})",
                result["task_id"], result["message"]
            ));
            continue;
        }
        if matches!(verdict, "passed" | "wrong_answer") {
            let judge = match why.contains("in the guest") {
                true => "guest",
                false => "host",
            };
            for case in result["cases"].as_array().unwrap() {
                if case["judged_by"] != judge {
                    failures.push(format!(
                        "{}: {model}: judged by {}, not the {judge}",
                        result["task_id"], case["judged_by"]
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{tasks}:\n{}", failures.join("\n"));
}

#[test]
fn regression_issue_33_cpp_compares_as_its_own_equals_does() {
    // A float against the double literal 1.2 is promoted (g++ fails it; it passed here), bool
    // and char convert to int, a comparison g++ refuses does not compile.
    check("cpp.jsonl", "cpp_samples.jsonl");
}

#[test]
fn rust_compares_as_partial_eq_on_the_declared_types() {
    check("rs.jsonl", "rs_samples.jsonl");
}

#[test]
fn regression_issue_33_node_deep_equal_is_loose_and_deep_strict_equal_is_object_is() {
    // `assert.deepEqual(22, "22")` holds in node (it was a wrong answer here); -0 is not 0 to
    // deepStrictEqual; `==` compares arrays by reference.
    check("js.jsonl", "js_samples.jsonl");
    check("ts.jsonl", "ts_samples.jsonl");
    check("humaneval_x_js.jsonl", "humaneval_x_js_samples.jsonl");
}

#[test]
fn go_compares_printed_values_in_multipl_e_and_typed_values_in_humaneval_x() {
    check("go.jsonl", "go_samples.jsonl");
    check("humaneval_x_go.jsonl", "humaneval_x_go_samples.jsonl");
}

#[test]
fn lua_and_ruby_compare_numbers_by_value_and_nothing_else_as_a_number() {
    check("lua.jsonl", "lua_samples.jsonl");
    check("rb.jsonl", "rb_samples.jsonl");
}
