//! Compiled programs: Rust assertion programs (each case is the candidate plus the case's `main`,
//! judged by how it exits), C and C++ programs using what wasmeval's sysroot adds to wasi-libc
//! and libc++ (guests/cxx): `<boost/any.hpp>`, `<openssl/md5.h>` and glibc's `rand()`, and the
//! names of a test that a candidate sharing its program cannot rebind.

use crate::support::{case_verdicts, fixture_results, results, run};

#[test]
fn compiled_programs_are_judged_and_the_sysroot_additions_work() {
    let results = fixture_results("compiled", &["--jobs", "2", "--fuel", "2000000000"]);
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
    // The message is the first error, in one line, not the unused-import warning before it;
    // the compiler's whole output is the stderr excerpt.
    let message = results[2]["message"].as_str().unwrap();
    assert!(
        message.starts_with("small: error[E0308]: mismatched types (at main.rs:2:")
            && !message.contains('\n'),
        "{message}"
    );
    assert!(results[2]["stderr"]
        .as_str()
        .unwrap()
        .contains("warning: unused import"));
    assert_eq!(verdicts[3], ("runtime_error", vec!["runtime_error"; 2]));
    assert!(results[3]["message"]
        .as_str()
        .unwrap()
        .contains("panicked: index out of bounds"));
    assert_eq!(verdicts[4], ("timeout", vec!["timeout"; 2]));
    assert_eq!(results[4]["timeout_cause"], "fuel");

    // HumanEval-X's CPP/22, CPP/137 and CPP/162 include boost and OpenSSL headers; CPP/32's test
    // only terminates with glibc's rand() sequence.
    assert_eq!(results[5]["task_id"], "cpp/boost-any");
    assert_eq!(verdicts[5], ("passed", vec!["passed"]));
    assert_eq!(verdicts[6], ("runtime_error", vec!["runtime_error"]));
    assert_eq!(
        results[6]["stderr"],
        "terminate: exception thrown (exceptions cannot be caught in this sandbox): \
         type N5boost12bad_any_castE\n"
    );
    assert_eq!(results[7]["task_id"], "cpp/md5");
    assert_eq!(verdicts[7], ("passed", vec!["passed"; 5]));
    assert_eq!(results[8]["task_id"], "c/rand");
    assert_eq!(verdicts[8], ("passed", vec!["passed"]));
    assert_eq!(results[9]["task_id"], "cpp/rand");
    assert_eq!(verdicts[9], ("passed", vec!["passed"]));
}

#[test]
fn a_suite_a_compiled_language_cannot_run_fails_visibly_instead_of_passing() {
    // A C task whose only suite is `calls` with arguments, which compiled routes do not run (they
    // run C++ and Rust drivers): before, its sample had no case at all and passed.
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = crate::support::fixture("compiled-unsupported");
    crate::support::run(&tasks, &samples, work.path(), &[]);
    let result = &crate::support::results(work.path())[0];
    assert_eq!(result["verdict"], "harness_error", "{result}");
    assert!(result["message"]
        .as_str()
        .unwrap()
        .contains("calls suites of c samples must be a driver program"));
}

/// Runs MultiPL-E's `tests/fixtures/multipl-e/int_width_<language>.jsonl` with its hand-written
/// samples; the results in sample order.
fn int_width_results(language: &str) -> Vec<serde_json::Value> {
    multipl_e_results(
        &format!("int_width_{language}.jsonl"),
        &format!("int_width_{language}_solutions.jsonl"),
    )
}

/// Runs the task file `tasks` of `tests/fixtures/multipl-e` with its samples file `samples`; the
/// results in sample order.
fn multipl_e_results(tasks: &str, samples: &str) -> Vec<serde_json::Value> {
    let fixtures = crate::support::repo().join("tests/fixtures/multipl-e");
    let out = tempfile::tempdir().unwrap();
    run(
        &fixtures.join(tasks),
        &fixtures.join(samples),
        out.path(),
        &["--jobs", "2"],
    );
    results(out.path())
}

#[test]
fn long_and_isize_are_64_bits_wide_as_on_the_hosts_the_tests_were_written_on() {
    // Issue 21 item 6: on wasm32 `long` and `isize` are 32 bits wide. MultiPL-E's HumanEval_139
    // expects 125411328000 (correct C++ got 857276416, a wrong answer) and HumanEval_114 passes
    // -9999999999999999 (correct Rust did not compile: "literal out of range for `isize`").
    for language in ["cpp", "rs"] {
        let results = int_width_results(language);
        let summary: Vec<(&str, &str, &str)> = results
            .iter()
            .map(|r| {
                (
                    r["task_id"].as_str().unwrap(),
                    r["model"].as_str().unwrap(),
                    r["verdict"].as_str().unwrap(),
                )
            })
            .collect();
        let (wrong_task, wrong_verdict) = match language {
            "cpp" => ("HumanEval_139_special_factorial", "wrong_answer"),
            _ => ("HumanEval_114_minSubArraySum", "compile_error"),
        };
        assert_eq!(
            summary,
            [
                ("HumanEval_139_special_factorial", "hand-written", "passed"),
                ("HumanEval_114_minSubArraySum", "hand-written", "passed"),
                (wrong_task, "wrong", wrong_verdict),
            ],
            "{language}: {results:#?}"
        );
        // Every case ran, and was judged on the host.
        assert_eq!(case_verdicts(&results[0]), ["passed"; 4]);
        assert_eq!(case_verdicts(&results[1]), ["passed"; 12]);
        assert!(results[1]["cases"][3]["name"]
            .as_str()
            .unwrap()
            .contains("-9999999999999999"));
        assert!(results[..2]
            .iter()
            .flat_map(|r| r["cases"].as_array().unwrap())
            .all(|c| c["judged_by"] == "host"));
    }
}

#[test]
fn cpp_sizes_are_as_wide_as_lp64s_size_t_and_what_needs_a_32_bit_size_t_still_builds() {
    // Issue 33: MultiPL-E's HumanEval_70 and 105 (`long r = lst.size() - 1` on an empty vector:
    // -1 with g++ on LP64, 4294967295 with wasm32's `size_t`, then an out-of-bounds trap).
    let results = multipl_e_results("size_width_cpp.jsonl", "size_width_cpp_solutions.jsonl");
    let summary: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["model"].as_str().unwrap(), r["verdict"].as_str().unwrap()))
        .collect();
    // As g++ judges them: the wide sizes fix the first; the second deduces `std::max`'s type
    // from a 32-bit `size_t` (built again without wide sizes); the third formats a size with
    // `%lu` (left alone: a wide one would shift the `%d` after it); the last is wrong.
    assert_eq!(
        summary,
        [
            ("size-minus-one", "passed"),
            ("deduces-size-t", "passed"),
            ("formats-a-size", "passed"),
            ("wrong", "wrong_answer"),
        ],
        "{results:#?}"
    );
}

#[test]
fn rust_that_mixes_isize_and_i64_is_a_compile_error_as_with_rustc_on_a_64_bit_host() {
    // Issue 33: `isize` widened to `i64` made the two one type, so a program rustc rejects
    // (E0308, as MultiPL-E's own harness does) passed; it is type-checked as written first.
    let results = multipl_e_results("int_width_rs.jsonl", "isize_i64_rs_solutions.jsonl");
    let mixed = &results[0];
    assert_eq!(mixed["model"], "mixes-i64");
    assert_eq!(mixed["verdict"], "compile_error", "{mixed:#}");
    let message = mixed["message"].as_str().unwrap();
    assert!(
        message.ends_with("error[E0308]: mismatched types (at main.rs:13:22)"),
        "{message}"
    );
    // The same program with its conversions written out passes, 125411328000 included.
    assert_eq!(results[1]["model"], "casts-to-i64");
    assert_eq!(results[1]["verdict"], "passed", "{:#}", results[1]);
}

#[test]
fn a_rust_compile_error_is_named_by_its_error_not_the_non_snake_case_warning_before_it() {
    let results = int_width_results("rs");
    let wrong = &results[2];
    assert_eq!(wrong["verdict"], "compile_error");
    let stderr = wrong["stderr"].as_str().unwrap();
    assert!(stderr.starts_with("warning: function `minSubArraySum` should have a snake case name"));
    let message = wrong["message"].as_str().unwrap();
    // The case's name, then the first error with its place: the sample's own line and column, as
    // the rewrite of `isize` (to `i64`, padded) moves neither.
    assert!(
        message.ends_with(": error: literal out of range for `i64` (at main.rs:9:27)")
            && !message.contains("snake")
            && !message.contains('\n'),
        "{message}"
    );
}

#[test]
fn whole_c_and_cpp_programs_read_compute_and_print_64_bit_longs() {
    // `scanf("%ld")`, `labs` and `printf("%ld")` in C; `vector<long>`, `accumulate(.., 0L)`,
    // `LONG_MAX` and the functional cast `long(x)` in C++: each as on an LP64 host.
    let results = fixture_results("int-width-io", &["--jobs", "2"]);
    for result in &results {
        assert_eq!(result["verdict"], "passed", "{result}");
    }
    assert_eq!(results.len(), 2);
}

#[test]
fn regression_issue_32_a_test_names_the_tasks_values_not_the_candidates() {
    // Guest-judged tests share a translation unit (C, C++) or a crate (Rust) with the candidate,
    // whose names could hide the test's: `#define abs(x) 0` made `assert(abs(f(x) - y) < 1e-6)`
    // hold, and a crate-root `const None` made `assert_eq!(f(x), None)` hold. The candidate's
    // macros are undefined before the test, and the test calls the prelude's values by path.
    let tasks = [
        serde_json::json!({"id": "cpp-abs", "language": "cpp", "prompt": "", "entry_point": "half",
            "tests": [{"kind": "assertions", "cases": [{"name": "loop", "code": "#include <cassert>\n#include <cmath>\nint main() {\n    for (int i = 0; i < 3; i++) assert(abs(half(i) - i / 2.0) < 1e-6);\n}\n"}]}]}),
        serde_json::json!({"id": "rust-none", "language": "rust", "prompt": "", "entry_point": "f",
            "tests": [{"kind": "assertions", "cases": [{"name": "loop", "code": "mod tests {\n    use super::*;\n    pub fn t() {\n        for x in [1, 2, 3] {\n            assert_eq!(f(x), None);\n        }\n    }\n}\nfn main() { tests::t(); }\n"}]}]}),
    ];
    let samples = [
        ("cpp-abs", "honest", "double half(int x) { return x / 2.0; }\n"),
        (
            "cpp-abs",
            "abs_macro",
            "#include <cmath>\n#define abs(x) 0\ndouble half(int x) { return 7; }\n",
        ),
        ("rust-none", "honest", "fn f(_x: i64) -> Option<i64> { None }\n"),
        (
            "rust-none",
            "none_const",
            "#[allow(non_upper_case_globals)]\nconst None: Option<i64> = Some(5);\nfn f(_x: i64) -> Option<i64> { Some(5) }\n",
        ),
    ];
    let samples: Vec<serde_json::Value> = samples
        .iter()
        .map(|(task, model, solution)| {
            serde_json::json!({"task_id": task, "model": model, "solution": solution})
        })
        .collect();
    let results = crate::support::run_records(&tasks, &samples);
    let verdicts: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["model"].as_str().unwrap(), r["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("honest", "passed"),
            ("abs_macro", "wrong_answer"),
            ("honest", "passed"),
            ("none_const", "wrong_answer"),
        ]
    );
}

#[test]
fn regression_issue_35_a_null_pointer_access_is_a_runtime_error_as_its_segfault_is_natively() {
    // tests/fixtures/null-pointers: a write through NULL, a member of a NULL `next`, an index into
    // nullptr; address 0 is ordinary wasm memory, so before the null checks each ran on and
    // passed. A program that only compares with null passes.
    let results = fixture_results("null-pointers", &[]);
    for result in &results {
        let task = result["task_id"].as_str().unwrap();
        if task == "cpp_correct" {
            assert_eq!(result["verdict"], "passed", "{result}");
        } else {
            assert_eq!(result["verdict"], "runtime_error", "{result}");
            assert!(
                result["stderr"]
                    .as_str()
                    .unwrap()
                    .contains("runtime error: null pointer dereference"),
                "{result}"
            );
        }
    }
    assert_eq!(results.len(), 4);
}

#[test]
fn a_go_panic_is_recovered_as_natively_and_a_rust_panic_is_named_by_its_message() {
    // Issue 35: Go's `recover` works; Rust's std for wasm32-wasip1 has no unwinding, so
    // `catch_unwind` cannot catch (a documented difference), and the panic's own message says so
    // rather than the trap it ends in.
    let results = fixture_results("panics", &[]);
    let rust = &results[0];
    assert_eq!(rust["task_id"], "unwind/rust");
    assert_eq!(rust["verdict"], "runtime_error", "{rust:#}");
    assert!(
        rust["message"]
            .as_str()
            .unwrap()
            .ends_with("panicked: index out of bounds: the len is 0 but the index is 3"),
        "{rust:#}"
    );
    assert_eq!(results[1]["task_id"], "unwind/go");
    assert_eq!(results[1]["verdict"], "passed", "{:#}", results[1]);
}
