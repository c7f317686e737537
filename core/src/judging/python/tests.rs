//! Unit tests of the Python harness's input, protocol and judge.
use super::*;
use crate::compare::{canonical, compare_values};
use crate::formats::tasks::parse_task;
use crate::judging::tests::execution;
use crate::judging::token::tests::token;
use crate::judging::{CaseLog, Exit};
use crate::results::{SampleResult, TimeoutCause, Verdict};
use crate::{Sample, SampleCode};
use serde_json::Value;

const TOKEN: &str = "wasmeval-0123456789abcdef0123456789abcdef";

fn mbpp_task() -> Task {
    parse_task(
        r#"{"task_id":1,"text":"","code":"","test_list":["assert f(x)","assert f(x)","assert f(x)"]}"#,
    )
    .unwrap()
}

fn sample() -> Sample {
    Sample {
        index: 4,
        task_id: "1".into(),
        model: None,
        code: SampleCode::Solution(String::new()),
        info: Default::default(),
    }
}

fn verdicts(result: &SampleResult) -> Vec<Verdict> {
    result.cases.iter().map(|c| c.verdict).collect()
}

fn judged(exit: Exit, stdout: &str) -> SampleResult {
    judged_with(&mbpp_task(), &execution(exit, stdout))
}

#[test]
fn a_full_report_gives_every_case_its_verdict_and_strips_harness_lines() {
    let stdout = format!(
        "hello\n\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n\n{TOKEN} start 1\nmid\n\n{TOKEN} end 1 wrong_answer \"AssertionError\"\n\n{TOKEN} start 2\n\n{TOKEN} end 2 passed null\n\n{TOKEN} done\n"
    );
    let result = judged(Exit::Code(0), &stdout);
    assert_eq!(
        verdicts(&result),
        [Verdict::Passed, Verdict::WrongAnswer, Verdict::Passed]
    );
    assert_eq!(result.verdict, Verdict::WrongAnswer);
    assert_eq!(result.message.as_deref(), Some("assert 2: AssertionError"));
    assert_eq!(result.stdout, "hello\nmid\n");
}

#[test]
fn lines_with_another_token_are_only_output() {
    let forged = "wasmeval-ffffffffffffffffffffffffffffffff";
    let stdout = format!(
        "\n{forged} loaded\n\n{forged} start 0\n\n{forged} end 0 passed null\n\n{forged} done\n\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 wrong_answer \"AssertionError\"\n"
    );
    let result = judged(Exit::Code(0), &stdout);
    assert_eq!(result.verdict, Verdict::WrongAnswer);
    assert!(result.stdout.contains(forged));
}

#[test]
fn exiting_early_never_passes() {
    // Loaded, first case passed, then the process exited 0 inside the second case.
    let stdout = format!(
        "\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n\n{TOKEN} start 1\n"
    );
    let result = judged(Exit::Code(0), &stdout);
    assert_eq!(
        verdicts(&result),
        [
            Verdict::Passed,
            Verdict::RuntimeError,
            Verdict::RuntimeError
        ]
    );
    assert!(result.cases[2]
        .message
        .as_deref()
        .unwrap()
        .starts_with("not run: "));
    // Exited before loading finished: no case passes.
    let result = judged(Exit::Code(0), "all tests passed\n");
    assert_eq!(verdicts(&result), [Verdict::RuntimeError; 3]);
    // Every case ended but `done` never came: still not a pass.
    let stdout = format!(
        "\n{TOKEN} loaded\n{}",
        (0..3)
            .map(|i| format!("\n{TOKEN} start {i}\n\n{TOKEN} end {i} passed null\n"))
            .collect::<String>()
    );
    // ... unless every case reported its end: the checks really ran and held; a crash after them
    // (at interpreter shutdown) does not undo that.
    assert_eq!(
        judged(Exit::Trap("unreachable".into()), &stdout).verdict,
        Verdict::Passed
    );
}

#[test]
fn the_end_of_the_process_names_the_limit_that_stopped_it() {
    let running = format!("\n{TOKEN} loaded\n\n{TOKEN} start 0\n");
    let result = judged(Exit::OutOfFuel, &running);
    assert_eq!(
        (result.verdict, result.timeout_cause),
        (Verdict::Timeout, Some(TimeoutCause::Fuel))
    );
    let result = judged(Exit::WallTimeout, &running);
    assert_eq!(
        (result.verdict, result.timeout_cause),
        (Verdict::Timeout, Some(TimeoutCause::Wall))
    );
    assert_eq!(
        judged(Exit::OutputLimit, &running).verdict,
        Verdict::OutputLimit
    );
    let mut denied = execution(Exit::Code(1), &running);
    denied.memory_denied = true;
    assert_eq!(
        judged_with(&mbpp_task(), &denied).verdict,
        Verdict::MemoryLimit
    );
}

#[test]
fn a_program_that_fails_to_load_fails_every_case_with_its_error() {
    let stdout = format!(
        "\n{TOKEN} load runtime_error \"SyntaxError: invalid syntax (program.py, line 1)\"\n"
    );
    let result = judged(Exit::Code(0), &stdout);
    assert_eq!(verdicts(&result), [Verdict::RuntimeError; 3]);
    assert_eq!(
        result.message.as_deref(),
        Some("assert 1: SyntaxError: invalid syntax (program.py, line 1)")
    );
}

/// A plain suite (`p`), an io suite the harness never sees, and alternatives `A` (a1, a2),
/// `B` (b1..b3), `C` (c1, c2): the harness numbers p, a1, a2, b1, b2, b3, c1, c2 from 0.
fn alternatives_task() -> Task {
    parse_task(
        r#"{"id":"alt","prompt":"","tests":[
            {"kind":"assertions","cases":[{"name":"p","code":"assert f"}]},
            {"kind":"io","cases":[{"name":"io1","stdin":"","stdout":"x"}]},
            {"kind":"alternatives","entry_point":"f","sets":[
                {"name":"A","cases":[{"name":"a1","code":"1"},{"name":"a2","code":"2"}]},
                {"name":"B","setup":"s = 1","cases":[{"name":"b1","code":"1"},{"name":"b2","code":"2"},{"name":"b3","code":"3"}]},
                {"name":"C","cases":[{"name":"c1","code":"1"},{"name":"c2","code":"2"}]}]}]}"#,
    )
    .unwrap()
}

/// A complete report in which case i ended with `kinds[i]`.
fn full_report(kinds: &[&str]) -> String {
    let mut stdout = format!("\n{TOKEN} loaded\n");
    for (i, kind) in kinds.iter().enumerate() {
        let message = if *kind == "passed" { "null" } else { "\"E\"" };
        stdout += &format!("\n{TOKEN} start {i}\n\n{TOKEN} end {i} {kind} {message}\n");
    }
    stdout + &format!("\n{TOKEN} done\n")
}

fn judged_alternatives(exit: Exit, stdout: &str) -> SampleResult {
    let task = alternatives_task();
    judged_with(&task, &execution(exit, stdout))
}

fn names(result: &SampleResult) -> Vec<&str> {
    result.cases.iter().map(|c| c.name.as_str()).collect()
}

#[test]
fn the_harness_gets_assertion_and_alternatives_suites_but_not_io_suites() {
    let task = alternatives_task();
    let suites = harness_suites(&task);
    let kinds: Vec<&str> = suites.iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["assertions", "alternatives"]);
    assert_eq!(suites[1]["entry_point"], "f");
    assert_eq!(suites[1]["sets"][1]["setup"], "s = 1");
    assert_eq!(suites[1]["sets"][1]["cases"][2], "3");
    assert_eq!(
        Layout::of(&task).names,
        ["p", "a1", "a2", "b1", "b2", "b3", "c1", "c2"]
    );
    // Without alternatives, nothing changes: no alternative, every case shown.
    let result = judged(Exit::Code(0), &full_report(&["passed"; 3]));
    assert_eq!(
        (result.verdict, result.alternative),
        (Verdict::Passed, None)
    );
}

#[test]
fn the_first_complete_set_is_shown_and_passes_the_sample() {
    let p = "passed";
    let w = "wrong_answer";
    // A fails, B and C pass completely: B is shown.
    let result = judged_alternatives(Exit::Code(0), &full_report(&[p, w, p, p, p, p, p, p]));
    assert_eq!(result.verdict, Verdict::Passed);
    assert_eq!(result.alternative.as_deref(), Some("B"));
    assert_eq!(names(&result), ["p", "b1", "b2", "b3"]);
    assert_eq!(result.message, None);
}

#[test]
fn without_a_complete_set_the_closest_is_shown_ties_going_to_the_first() {
    let p = "passed";
    let w = "wrong_answer";
    let r = "runtime_error";
    // A 0, B 2, C 1 passed: B.
    let result = judged_alternatives(Exit::Code(0), &full_report(&[p, w, r, p, w, p, p, w]));
    assert_eq!(result.verdict, Verdict::WrongAnswer);
    assert_eq!(result.alternative.as_deref(), Some("B"));
    assert_eq!(names(&result), ["p", "b1", "b2", "b3"]);
    assert_eq!(
        verdicts(&result),
        [
            Verdict::Passed,
            Verdict::Passed,
            Verdict::WrongAnswer,
            Verdict::Passed
        ]
    );
    // One each: A, the first. The verdict is that of the shown set's first failing case.
    let result = judged_alternatives(Exit::Code(0), &full_report(&[p, p, r, p, w, w, w, p]));
    assert_eq!(result.alternative.as_deref(), Some("A"));
    assert_eq!(result.verdict, Verdict::RuntimeError);
}

#[test]
fn a_complete_set_does_not_excuse_a_failing_plain_suite() {
    let p = "passed";
    let result = judged_alternatives(
        Exit::Code(0),
        &full_report(&["wrong_answer", p, p, p, p, p, p, p]),
    );
    assert_eq!(result.verdict, Verdict::WrongAnswer);
    assert_eq!(result.alternative.as_deref(), Some("A"));
    assert_eq!(names(&result), ["p", "a1", "a2"]);
}

#[test]
fn a_set_cut_short_by_a_limit_leaves_the_later_sets_not_run() {
    // A's second case ran out of fuel: B and C never ran.
    let stdout = format!(
        "\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n\n{TOKEN} start 1\n\n{TOKEN} end 1 passed null\n\n{TOKEN} start 2\n"
    );
    let result = judged_alternatives(Exit::OutOfFuel, &stdout);
    assert_eq!(result.alternative.as_deref(), Some("A"));
    assert_eq!(
        (result.verdict, result.timeout_cause),
        (Verdict::Timeout, Some(TimeoutCause::Fuel))
    );
    assert_eq!(result.message.as_deref(), Some("a2: fuel budget exhausted"));
    // A report that ends every case of every set but misses `done` after a trap still counts.
    let mut complete = full_report(&["passed"; 8]);
    complete.truncate(complete.len() - format!("\n{TOKEN} done\n").len());
    let result = judged_alternatives(Exit::Trap("unreachable".into()), &complete);
    assert_eq!(result.verdict, Verdict::Passed);
    assert_eq!(result.alternative.as_deref(), Some("A"));
}

/// A calls suite (`add`: c0, c1) after a plain suite (`p`): the harness numbers p, c0, c1.
fn calls_task() -> Task {
    parse_task(
        r#"{"id":"calls","prompt":"","tests":[
            {"kind":"assertions","cases":[{"name":"p","code":"assert add(1, 1) == 2"}]},
            {"kind":"calls","entry_point":"add","tolerance":0.001,"cases":[
                {"name":"c0","args":[2,3],"expected":5},
                {"name":"c1","args":[{"$tuple":[1]}],"expected":{"$tuple":[0.5,{"$set":[3,1,2]}]}}]}]}"#,
    )
    .unwrap()
}

fn judged_calls(exit: Exit, stdout: &str) -> SampleResult {
    let task = calls_task();
    judged_with(&task, &execution(exit, stdout))
}

/// A complete report: `p` passed, then each call's lines as given (without the token).
fn calls_report(c0: &[&str], c1: &[&str]) -> String {
    let mut stdout = format!("\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n");
    for (index, lines) in [(1, c0), (2, c1)] {
        stdout += &format!("\n{TOKEN} start {index}\n");
        for line in lines {
            stdout += &format!("\n{TOKEN} {line}\n");
        }
    }
    stdout + &format!("\n{TOKEN} done\n")
}

#[test]
fn the_harness_gets_a_calls_suites_arguments_but_never_its_expected_values() {
    let task = calls_task();
    let suites = harness_suites(&task);
    assert_eq!(
        suites[1],
        serde_json::json!({"kind": "calls", "setup": "", "entry_point": "add", "cases": [[2, 3], [{"$tuple": [1]}]]})
    );
    let sent = serde_json::to_string(&suites).unwrap();
    assert!(!sent.contains("0.5") && !sent.contains("$set") && !sent.contains("c0"));
    let layout = Layout::of(&task);
    assert_eq!(layout.names, ["p", "c0", "c1"]);
    assert!(layout.expected[0].is_none() && layout.expected[2].is_some());
}

#[test]
fn the_judge_trusts_the_tasks_entry_points_and_its_own_code_not_the_candidates() {
    // Issue 32: the judge resolves the tests' names itself; only entry points are the
    // candidate's, even one named like a builtin.
    let task = parse_task(
        r#"{"id":"t","prompt":"def halve(y):\n    return y / 2\n\ndef sum(x):\n    \"\"\"doc\"\"\"\n",
            "prelude":"from typing import *\n","entry_point":"sum","tests":[
            {"kind":"assertions","cases":[{"name":"p","code":"assert halve(sum(1)) == 1"}]},
            {"kind":"alternatives","entry_point":"g","sets":[{"name":"A","cases":[{"name":"a","code":"1"}]}]},
            {"kind":"calls","entry_point":"sum","cases":[{"name":"c","args":[1],"expected":2}]}]}"#,
    )
    .unwrap();
    assert_eq!(
        judge_trust(&task),
        serde_json::json!({"entry_points": ["g", "sum"], "sources": [
            {"name": "prelude.py", "code": "from typing import *\n"},
            {"name": "prompt.py", "code": task.prompt}]})
    );
    // No entry point, no code: nothing to trust but the judge's builtins.
    assert_eq!(
        judge_trust(&mbpp_task()),
        serde_json::json!({"entry_points": [], "sources": []})
    );
}

#[test]
fn a_reported_value_is_compared_on_the_host() {
    let right = calls_report(
        &["value 1 5", "end 1 returned null"],
        // Within the tolerance, the set in another order.
        &[
            r#"value 2 {"$tuple":[0.5001,{"$set":[1,2,3]}]}"#,
            "end 2 returned null",
        ],
    );
    let result = judged_calls(Exit::Code(0), &right);
    assert_eq!(verdicts(&result), [Verdict::Passed; 3]);
    assert_eq!(result.verdict, Verdict::Passed);

    let wrong = calls_report(
        &["value 1 5.0", "end 1 returned null"],
        &[r#"value 2 [0.5,{"$set":[1,2,3]}]"#, "end 2 returned null"],
    );
    let result = judged_calls(Exit::Code(0), &wrong);
    assert_eq!(
        verdicts(&result),
        [Verdict::Passed, Verdict::Passed, Verdict::WrongAnswer]
    );
    assert_eq!(
        result.message.as_deref(),
        Some(r#"c1: expected {"$tuple":[0.5,{"$set":[1,2,3]}]}, got [0.5,{"$set":[1,2,3]}]"#)
    );

    // Failures reported by the guest stand; the process's end still counts.
    let failed = calls_report(
        &[r#"end 1 runtime_error "return value of type X is not plain data""#],
        &[r#"end 2 memory_limit "MemoryError""#],
    );
    let result = judged_calls(Exit::Code(0), &failed);
    assert_eq!(
        verdicts(&result),
        [Verdict::Passed, Verdict::RuntimeError, Verdict::MemoryLimit]
    );
    let cut = format!(
        "\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 passed null\n\n{TOKEN} start 1\n\n{TOKEN} value 1 5\n"
    );
    let result = judged_calls(Exit::OutOfFuel, &cut);
    assert_eq!(
        verdicts(&result),
        [Verdict::Passed, Verdict::Timeout, Verdict::Timeout]
    );
    assert!(result.cases[2]
        .message
        .as_deref()
        .unwrap()
        .starts_with("not run: "));
}

#[test]
fn a_call_never_takes_a_verdict_from_the_guest_and_a_bad_sequence_is_the_candidates_doing() {
    let returned = "end 1 returned null";
    let c1 = ["value 2 1", "end 2 returned null"];
    for c0 in [
        // `passed` from the guest, with or without a value.
        &["end 1 passed null"][..],
        &["value 1 5", "end 1 passed null"],
        // No value, two values, a value after the end, a failure after a value.
        &[returned],
        &["value 1 5", "value 1 5", returned],
        &["value 1 5", returned, "value 1 5"],
        &["value 1 5", r#"end 1 runtime_error "E""#],
        &["value 1 5", returned, returned],
        // A value for another case, for a case not running, or not JSON.
        &["value 0 5", returned],
        &["value 2 5", returned],
        &["value 9 5", returned],
        &["value 1 {5", returned],
        &["value 1", returned],
    ] {
        // The candidate ran in the process that reported, so it wrote the lines (issue 33).
        let result = judged_calls(Exit::Code(0), &calls_report(c0, &c1));
        assert_eq!(result.verdict, Verdict::RuntimeError, "{c0:?}");
        assert!(result
            .cases
            .iter()
            .all(|c| c.verdict == Verdict::RuntimeError
                && c.message
                    .as_deref()
                    .unwrap()
                    .contains("harness's report format")));
    }
    // `returned` for an assertion case.
    let stdout = format!("\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 returned null\n");
    assert_eq!(
        judged_calls(Exit::Code(0), &stdout).verdict,
        Verdict::RuntimeError
    );
    // Lines without the token are output, whatever they say.
    let forged = "wasmeval-ffffffffffffffffffffffffffffffff";
    let stdout = calls_report(&[r#"end 1 runtime_error "E""#], &c1).replace(
        &format!("{TOKEN} start 1\n"),
        &format!("{TOKEN} start 1\n\n{forged} value 1 5\n\n{forged} end 1 returned null\n"),
    );
    let result = judged_calls(Exit::Code(0), &stdout);
    assert_eq!(result.cases[1].verdict, Verdict::RuntimeError);
    assert!(result.stdout.contains(forged));
}

#[test]
fn sets_and_dicts_compare_in_any_order_and_string_keyed_dicts_either_way() {
    use serde_json::json;
    let same = |a: Value, b: Value| {
        compare_values(
            &canonical(&a),
            &canonical(&b),
            0.0,
            crate::compare::Equality::Python,
        )
    };
    assert_eq!(
        same(json!({"$set": [3, 1, 2]}), json!({"$set": [1, 2, 3.0]})),
        Ok(())
    );
    assert_eq!(
        same(
            json!({"$dict": [[2, "b"], [{"$tuple": [1]}, "t"], [1, "a"]]}),
            json!({"$dict": [[1, "a"], [2, "b"], [{"$tuple": [1]}, "t"]]})
        ),
        Ok(())
    );
    assert_eq!(
        same(
            json!({"a": {"$set": ["y", "x"]}}),
            json!({"$dict": [["a", {"$set": ["x", "y"]}]]})
        ),
        Ok(())
    );
    assert_eq!(
        same(
            json!({"$set": [{"$set": [2, 1]}, [1]]}),
            json!({"$set": [[1], {"$set": [1, 2]}]})
        ),
        Ok(())
    );
    // A dict whose only key is a tag name stays a `$dict`: it is not the tagged value.
    assert!(same(json!({"$tuple": [1]}), json!({"$dict": [["$tuple", [1]]]})).is_err());
    assert!(same(json!({"$set": [1, 2]}), json!({"$set": [1, 2, 2]})).is_err());
    assert!(same(json!({"$set": [1]}), json!([1])).is_err());
    assert!(same(json!({"$float": "nan"}), json!({"$float": "inf"})).is_err());
}

#[test]
fn regression_issue_33_a_garbled_report_is_a_harness_error_only_from_an_isolated_judge() {
    // From the candidate's process, a report that breaks the protocol is the candidate's doing
    // (it found the token and printed lines of its own): a runtime error that says so.
    let stdout = format!("\n{TOKEN} loaded\n\n{TOKEN} start 7\n");
    let result = judged(Exit::Code(0), &stdout);
    assert_eq!(result.verdict, Verdict::RuntimeError);
    assert!(result.message.unwrap().contains("case index out of range"));
    // One bad line spoils the whole report, even one in which every case passed.
    let stdout = full_report(&["passed"; 3]) + &format!("\n{TOKEN} bogus\n");
    assert_eq!(
        verdicts(&judged(Exit::Code(0), &stdout)),
        [Verdict::RuntimeError; 3]
    );
    // A `done` before every case ended: no case passes.
    let stdout = format!("\n{TOKEN} loaded\n\n{TOKEN} done\n");
    assert_eq!(
        verdicts(&judged(Exit::Code(0), &stdout)),
        [Verdict::RuntimeError; 3]
    );
    // An isolated judge runs no code of the candidate's: there it is wasmeval's failure.
    let layout = Layout {
        isolated: true,
        ..Layout::of(&mbpp_task())
    };
    let mut log = CaseLog::new();
    judge(
        &layout,
        &token(),
        &execution(Exit::Code(0), &stdout),
        &mut log,
    );
    let result = log.finish(SampleResult::for_sample(&sample()));
    assert_eq!(verdicts(&result), [Verdict::HarnessError; 3]);
}

#[test]
fn a_call_whose_value_is_not_plain_data_and_a_case_that_cannot_cross_are_named_for_judging_again() {
    let stdout = calls_report(
        &[r#"end 1 isolate "returned a value of type complex, which is not plain data""#],
        &[
            r#"value 2 {"$tuple":[0.5,{"$set":[1,2,3]}]}"#,
            "end 2 returned null",
        ],
    );
    let layout = Layout::of(&calls_task());
    let verdicts = judge_cases(&layout, &token(), &execution(Exit::Code(0), &stdout));
    assert_eq!(verdicts.isolate, [1]);
    // Until another execution judges it, it is a runtime error saying why.
    assert_eq!(verdicts.cases[1].verdict, Verdict::RuntimeError);
    assert!(verdicts.cases[1]
        .message
        .as_deref()
        .unwrap()
        .contains("complex"));
    assert!(!verdicts.failing_besides(&layout, &[1]));
    assert!(verdicts.failing_besides(&layout, &[]));
    // `alone` is for assertion cases, `isolate` for calls only.
    let stdout = calls_report(
        &[r#"end 1 alone "x""#],
        &["value 2 1", "end 2 returned null"],
    );
    assert!(
        judge_cases(&layout, &token(), &execution(Exit::Code(0), &stdout))
            .alone
            .is_empty()
    );
    let stdout = format!(
        "\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 alone \"a function\"\n\n{TOKEN} start 1\n\n{TOKEN} end 1 isolate \"x\"\n"
    );
    let verdicts = judge_cases(&layout, &token(), &execution(Exit::Code(0), &stdout));
    assert_eq!((verdicts.alone.len(), verdicts.isolate.len()), (1, 1));
    let stdout = format!("\n{TOKEN} loaded\n\n{TOKEN} start 0\n\n{TOKEN} end 0 isolate \"x\"\n");
    let verdicts = judge_cases(&layout, &token(), &execution(Exit::Code(0), &stdout));
    assert!(verdicts.isolate.is_empty());
    assert_eq!(verdicts.cases[0].verdict, Verdict::RuntimeError);
}

/// The sample's result after judging `execution` of `task`'s harness.
fn judged_with(task: &Task, execution: &crate::judging::Execution) -> SampleResult {
    let mut log = CaseLog::new();
    let judged = judge(&Layout::of(task), &token(), execution, &mut log);
    SampleResult {
        alternative: judged.alternative,
        ..log.finish(SampleResult::for_sample(&sample()))
    }
}
