//! MultiPL-E's C++, Rust, JavaScript and Python tasks end to end: hand-written solutions to the
//! made-up tasks of tests/fixtures/multipl-e/{cpp,rs,js,py}*.jsonl (MultiPL-E ships none) pass,
//! with the tests of the shapes the converters read judged on the host, and wrong solutions fail
//! with the verdict their mistake deserves. TypeScript, Go, Ruby and Lua have their own files.

use crate::support::{case_verdicts, repo, results, run};
use serde_json::json;

/// A language's fixture and which of its tasks are not converted to host-judged calls.
struct Fixture {
    language: &'static str,
    /// How the cases of a converted task are judged.
    converted: &'static str,
    /// Tasks whose test stays whole (one case), and how that case is judged.
    whole: &'static [&'static str],
    whole_judge: &'static str,
}

const FIXTURES: [Fixture; 4] = [
    Fixture {
        language: "cpp",
        converted: "host",
        // `std::make_tuple` and `std::optional`/`std::nullopt`: `calls.hpp` does not report tuples
        // or optionals yet.
        whole: &[
            "HumanEval_8_sum_product",
            "HumanEval_12_longest",
            "HumanEval_87_get_row",
            "HumanEval_136_largest_smallest_integers",
        ],
        whole_judge: "guest",
    },
    Fixture {
        language: "rs",
        converted: "host",
        whole: &[],
        whole_judge: "guest",
    },
    Fixture {
        language: "js",
        converted: "host",
        // `undefined` is not plain data; `assert.ok(Math.abs(..) < eps)` is not a converted shape.
        whole: &[
            "HumanEval_4_mean_absolute_deviation",
            "HumanEval_12_longest",
            "HumanEval_136_largest_smallest_integers",
        ],
        whole_judge: "guest",
    },
    Fixture {
        language: "py",
        // MultiPL-E's Python tests run whole in the isolated judge (multipl_e.rs).
        converted: "isolated",
        whole: &[],
        whole_judge: "isolated",
    },
];

#[test]
fn hand_written_multipl_e_solutions_pass_in_cpp_rust_javascript_and_python() {
    let fixtures = repo().join("tests/fixtures/multipl-e");
    for fixture in &FIXTURES {
        let language = fixture.language;
        let work = tempfile::tempdir().unwrap();
        let out = work.path().join("out");
        run(
            &fixtures.join(format!("{language}.jsonl")),
            &fixtures.join(format!("{language}_solutions.jsonl")),
            &out,
            &["--jobs", "2"],
        );
        let results = results(&out);
        assert_eq!(results.len(), 11, "{language}");
        for result in &results {
            assert_eq!(result["verdict"], "passed", "{language}: {result}");
            let task = result["task_id"].as_str().unwrap();
            let whole = fixture.whole.contains(&task);
            let cases = result["cases"].as_array().unwrap();
            let judge = match whole || language == "py" {
                true => {
                    assert_eq!(cases.len(), 1, "{language}: {result}");
                    fixture.whole_judge
                }
                false => {
                    assert!(cases.len() >= 2, "{language}: {result}");
                    fixture.converted
                }
            };
            for case in cases {
                assert_eq!(case["judged_by"], judge, "{language}: {result}");
            }
        }
    }
}

#[test]
fn wrong_multipl_e_solutions_fail_with_the_verdict_of_their_mistake() {
    // (language, task, completion, the verdict of each case)
    let wrong: [(&str, &str, &str, &[&str]); 15] = [
        // Off by one: every host-judged case is wrong.
        ("cpp", "HumanEval_23_strlen", "    return string.size() + 1;\n", &["wrong_answer"; 3]),
        // Right for the palindromes only.
        ("cpp", "HumanEval_48_is_palindrome", "    return true;\n", &["passed", "passed", "wrong_answer"]),
        // A whole test (tuples) in the guest: the failed assert is a wrong answer.
        ("cpp", "HumanEval_8_sum_product", "    return std::make_tuple((long)numbers.size(), 1);\n", &["wrong_answer"]),
        ("cpp", "HumanEval_23_strlen", "    return string.size()\n", &["compile_error"; 3]),
        ("cpp", "HumanEval_111_histogram", "    return {};\n", &["wrong_answer", "wrong_answer", "wrong_answer", "passed"]),
        ("rs", "HumanEval_23_strlen", "    string.len() as isize + 1\n", &["wrong_answer"; 3]),
        // `None` where a value is expected: only the two all-`None` cases pass.
        ("rs", "HumanEval_136_largest_smallest_integers", "    (None, None)\n", &["wrong_answer", "wrong_answer", "passed", "passed"]),
        // Maps are compared as dicts on the host: only the empty one is right.
        ("rs", "HumanEval_111_histogram", "    HashMap::new()\n", &["wrong_answer", "wrong_answer", "wrong_answer", "passed"]),
        // `usize` where `isize` is declared.
        ("rs", "HumanEval_23_strlen", "    string.len()\n", &["compile_error"; 3]),
        ("js", "HumanEval_23_strlen", "  return string.length + 1;\n}\n", &["wrong_answer"; 3]),
        // Throws for the empty string only: the other cases still pass.
        ("js", "HumanEval_48_is_palindrome", "  if (text === \"\") throw new Error(\"empty\");\n  return text === text.split(\"\").reverse().join(\"\");\n}\n", &["runtime_error", "passed", "passed"]),
        ("js", "HumanEval_12_longest", "  return strings[0];\n}\n", &["wrong_answer"]),
        ("py", "HumanEval_23_strlen", "    return len(string) + 1\n", &["wrong_answer"]),
        // `min([])` raises before any assert fails.
        ("py", "HumanEval_3_below_zero", "    return min(operations) < 0\n", &["runtime_error"]),
        ("py", "HumanEval_136_largest_smallest_integers", "    return (None, None)\n", &["wrong_answer"]),
    ];
    let fixtures = repo().join("tests/fixtures/multipl-e");
    for language in ["cpp", "rs", "js", "py"] {
        let rows: Vec<_> = wrong.iter().filter(|row| row.0 == language).collect();
        let work = tempfile::tempdir().unwrap();
        let samples = work.path().join("samples.jsonl");
        let text: String = rows
            .iter()
            .map(|(_, task, completion, _)| {
                format!("{}\n", json!({"task_id": task, "completion": completion}))
            })
            .collect();
        std::fs::write(&samples, text).unwrap();
        let out = work.path().join("out");
        let tasks = fixtures.join(format!("{language}.jsonl"));
        run(&tasks, &samples, &out, &["--jobs", "2"]);
        let results = results(&out);
        assert_eq!(results.len(), rows.len(), "{language}");
        for (result, (_, task, _, expected)) in results.iter().zip(&rows) {
            assert_eq!(result["task_id"], *task, "{language}");
            assert_eq!(case_verdicts(result), *expected, "{language}: {result}");
            assert_ne!(result["verdict"], "passed", "{language}: {result}");
        }
    }
}

#[test]
fn regression_issue_33_a_completion_ending_in_a_comment_keeps_the_tests_brace() {
    // MultiPL-E's stop tokens leave completions whose last line is a comment, with no line break
    // after it: MultiPL-E joins `prompt + completion + "\n" + tests`, so the tests' first line (in
    // C++ and Rust, the brace that closes the candidate's function) is never commented out.
    // (language, tasks: a converted one, and one whose test stays whole where there is one)
    let languages: [(&str, &str, &[&str]); 7] = [
        (
            "cpp",
            "//",
            &["HumanEval_23_strlen", "HumanEval_8_sum_product"],
        ),
        ("rs", "//", &["HumanEval_23_strlen"]),
        ("js", "//", &["HumanEval_23_strlen", "HumanEval_12_longest"]),
        ("ts", "//", &["HumanEval_23_strlen"]),
        ("go", "//", &["HumanEval_900_sum_pair"]),
        ("lua", "--", &["HumanEval_23_strlen", "HumanEval_55_fib"]),
        ("rb", "#", &["HumanEval_23_strlen"]),
    ];
    let fixtures = repo().join("tests/fixtures/multipl-e");
    for (language, comment, tasks) in languages {
        let work = tempfile::tempdir().unwrap();
        let solutions =
            crate::support::read_jsonl(&fixtures.join(format!("{language}_solutions.jsonl")));
        let samples: String = tasks
            .iter()
            .map(|task| {
                let solution = solutions
                    .iter()
                    .find(|s| s["task_id"] == *task)
                    .unwrap_or_else(|| panic!("{language}: no solution of {task}"));
                let completion = solution["completion"].as_str().unwrap().trim_end();
                let completion = format!("{completion} {comment} the end, no line break");
                format!("{}\n", json!({"task_id": task, "completion": completion}))
            })
            .collect();
        std::fs::write(work.path().join("samples.jsonl"), samples).unwrap();
        // MultiPL-E names Go by its test files' extension.
        let tasks_file = work.path().join("tasks.jsonl");
        let text = std::fs::read_to_string(fixtures.join(format!("{language}.jsonl"))).unwrap();
        std::fs::write(
            &tasks_file,
            text.replace(r#""language": "go""#, r#""language": "go_test.go""#),
        )
        .unwrap();
        let out = work.path().join("out");
        run(
            &tasks_file,
            &work.path().join("samples.jsonl"),
            &out,
            &["--jobs", "2"],
        );
        let results = results(&out);
        assert_eq!(results.len(), tasks.len(), "{language}");
        for result in &results {
            assert_eq!(result["verdict"], "passed", "{language}: {result}");
        }
    }
}
