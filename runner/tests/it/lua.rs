//! Lua samples end to end: MultiPL-E `lua` tasks with hand-written solutions
//! (tests/fixtures/multipl-e/lua*.jsonl), their asserts judged on the host or, for a test of
//! another shape, by our luaunit stand-in; wrong answers and errors; the hostile corpus
//! (tests/hostile/lua), its `as_*` programs against a luaunit case judged in the guest.

use crate::hostile::{
    assertion_corpus, calls_corpus, check_corpus, check_corpus_against, run_time_corpus,
};
use crate::support::{repo, results, run};
use serde_json::json;

#[test]
fn hand_written_multipl_e_lua_solutions_pass_judged_on_the_host_where_the_asserts_allow() {
    let fixtures = repo().join("tests/fixtures/multipl-e");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    run(
        &fixtures.join("lua.jsonl"),
        &fixtures.join("lua_solutions.jsonl"),
        &out,
        &[],
    );
    let results = results(&out);
    assert!(results.len() >= 10, "{} solutions", results.len());
    for result in &results {
        assert_eq!(result["verdict"], "passed", "{result}");
        // HumanEval_55_fib's test asserts in a loop: it stays whole, for luaunit in the guest.
        let judge = match result["task_id"] == "HumanEval_55_fib" {
            true => "guest",
            false => "host",
        };
        for case in result["cases"].as_array().unwrap() {
            assert_eq!(case["judged_by"], judge, "{result}");
        }
    }
}

#[test]
fn failed_asserts_are_wrong_answers_and_errors_runtime_errors_naming_their_line() {
    let tasks = repo().join("tests/fixtures/multipl-e/lua.jsonl");
    let work = tempfile::tempdir().unwrap();
    let samples = work.path().join("samples.jsonl");
    let records = [
        json!({"task_id": "HumanEval_23_strlen", "completion": "    return #text + 1\nend\n"}),
        json!({"task_id": "HumanEval_23_strlen", "completion": "    return text:size()\nend\n"}),
        json!({"task_id": "HumanEval_23_strlen", "completion": "    return #text\nen\n"}),
        // A table whose metatable claims equality, an index and a length.
        json!({"task_id": "HumanEval_34_unique", "completion": "    return setmetatable({}, {__eq = function() return true end, __index = function(_, i) return ({0, 2, 3, 5, 9, 123})[i] end, __len = function() return 6 end})\nend\n"}),
        // luaunit in the guest: the failed assert names its line.
        json!({"task_id": "HumanEval_55_fib", "completion": "    return n\nend\n"}),
        json!({"task_id": "HumanEval_55_fib", "completion": "    return n .. {}\nend\n"}),
    ];
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&samples, text).unwrap();
    let out = work.path().join("out");
    run(&tasks, &samples, &out, &[]);
    let results = results(&out);
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        [
            "wrong_answer",
            "runtime_error",
            "runtime_error",
            "wrong_answer",
            "wrong_answer",
            "runtime_error"
        ]
    );
    let messages: Vec<&str> = results
        .iter()
        .map(|r| r["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages[0], "assert 1: expected 0, got 1");
    assert!(
        messages[1].starts_with(
            "assert 1: lua: program.lua:7: attempt to call a nil value (method 'size')"
        ),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].starts_with("assert 1: lua: program.lua:8:"),
        "{}",
        messages[2]
    );
    // The metatable's `__eq`, `__index` and `__len` take no part: the table is empty.
    assert_eq!(messages[3], "assert 1: expected [0,2,3,5,9,123], got []");
    // The prompt is six lines and the completion two, then MultiPL-E's line break, so the
    // tests' first assert (their line 5) is line 14 of the program.
    assert_eq!(
        messages[4],
        "tests: test_humaneval failed: program.lua:14: expected: 55, actual: 10"
    );
    assert!(
        messages[5]
            .starts_with("tests: test_humaneval error: program.lua:7: attempt to concatenate"),
        "{}",
        messages[5]
    );
}

#[test]
fn a_whole_lua_program_reads_stdin_and_writes_its_scratch_folder() {
    let work = tempfile::tempdir().unwrap();
    let tasks = work.path().join("tasks.jsonl");
    let task = json!({
        "id": "lua-io", "language": "lua", "prompt": "",
        "tests": [{"kind": "io", "cases": [{"name": "sum", "stdin": "3 4\n", "stdout": "7\n"}]}]
    });
    std::fs::write(&tasks, format!("{task}\n")).unwrap();
    let program = "local a, b = io.read('n', 'n')\nlocal f = assert(io.open('/tmp/sum', 'w'))\nf:write(a + b)\nf:close()\nprint(io.open('/tmp/sum'):read('a'))\n";
    let samples = work.path().join("samples.jsonl");
    std::fs::write(
        &samples,
        format!("{}\n", json!({"task_id": "lua-io", "solution": program})),
    )
    .unwrap();
    let out = work.path().join("out");
    run(&tasks, &samples, &out, &[]);
    let result = &results(&out)[0];
    assert_eq!(result["verdict"], "passed", "{result}");
}

#[test]
fn every_hostile_lua_program_gets_its_expected_verdict() {
    check_corpus("lua", &run_time_corpus("lua", "lua"), 10);
    check_corpus_against("lua", "calls_task.json", &calls_corpus("lua", "lua"), 5);
    check_corpus_against(
        "lua",
        "assertion_task.json",
        &assertion_corpus("lua", "lua"),
        7,
    );
}

#[test]
fn rebinding_ipairs_does_not_skip_a_guest_judged_loop_issue_32() {
    // HumanEval_55_fib's test checks fib(1..5) in an `ipairs` loop after five literal asserts; a
    // candidate that knows the five answers and empties `ipairs` used to pass.
    let tasks = repo().join("tests/fixtures/multipl-e/lua.jsonl");
    let work = tempfile::tempdir().unwrap();
    let samples = work.path().join("samples.jsonl");
    let forging = "    local known = {[10] = 55, [1] = 1, [8] = 21, [11] = 89, [12] = 144}\n    return known[n] or 0\nend\nipairs = function() return function() end end\nmath.abs = function() return 0 end\n";
    let record = json!({"task_id": "HumanEval_55_fib", "completion": forging});
    std::fs::write(&samples, format!("{record}\n")).unwrap();
    let out = work.path().join("out");
    run(&tasks, &samples, &out, &[]);
    let result = &results(&out)[0];
    assert_eq!(result["verdict"], "wrong_answer", "{result}");
    assert_eq!(
        result["message"],
        "tests: test_humaneval failed: program.lua:23: expected: 1, actual: 0"
    );
}
