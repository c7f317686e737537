//! MultiPL-E (Cassano et al., 2023; nuprl/MultiPL-E): HumanEval and MBPP translated to many
//! languages, each record `{name, language, prompt, doctests, original, prompt_terminology, tests,
//! stop_tokens}`.
//!
//! MultiPL-E's program is `prompt + completion + "\n" + tests`, where `tests` is a string of test
//! code: for C++ a `main` that `assert`s, for Rust `fn main() { let candidate = f; assert!(..) }`,
//! for JavaScript a `test()` function using `node:assert` followed by its call, for Python
//! `def check(candidate): ..` followed by a call that passes the function. That is wasmeval's
//! `candidate + "\n" + case`, so a task gets **one assertion case named `tests`** whose code is
//! `tests` unchanged, unless its asserts have the shapes the converters read: then they are
//! host-judged `calls` cases (C++ and Rust: `compiled_asserts`, the tests kept as the driver;
//! JavaScript: `javascript_asserts::multipl_e_test`; Ruby: `ruby_asserts::multipl_e_test`; Lua:
//! `lua_asserts::multipl_e_test`, a test of other shapes run with our luaunit stand-in; Go:
//! `go_asserts::multipl_e_calls`, its rows compared as their `fmt.Sprintf("%v")` strings, as
//! MultiPL-E compares them). A Go test of another shape is one assertion case whose setup imports
//! what MultiPL-E's prompts import for the tests (`testing`, `fmt`). The languages wasmeval runs
//! are `cpp`, `rs`, `js`, `ts`, `go_test.go` (MultiPL-E names Go by its test files' extension;
//! `go` is read too), `rb`, `lua` and `py`; `java` is read as Java tasks, whose samples end as
//! `unsupported_language`; any other `language` is an error naming it. Records carry no reference solution; `doctests`, `original`,
//! `prompt_terminology` and `stop_tokens` are not used.
//!
//! Derivatives rename `tests` to `test` (Reflexion's `programming_runs/benchmarks`, which also
//! give `entry_point`): read the same, `entry_point` taking precedence over the one found in the
//! tests. Reflexion's `humaneval-py.jsonl` lost the first letter of every test (`ef
//! check(candidate):`): a Python test starting so gets its `d` back.

use super::{compiled_asserts, go_asserts, javascript_asserts, lua_asserts, ruby_asserts};
use crate::task::{AssertionCase, Language, Task, TaskId, TestSuite};
use serde::Deserialize;

/// A MultiPL-E record.
#[derive(Debug, Deserialize)]
pub(crate) struct Problem {
    name: String,
    language: String,
    prompt: String,
    /// The test code (MultiPL-E).
    #[serde(default)]
    tests: Option<String>,
    /// The test code, as derivatives name it (Reflexion).
    #[serde(default)]
    test: Option<String>,
    /// The function under test, when the record says (Reflexion).
    #[serde(default)]
    entry_point: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    stop_tokens: Vec<String>,
}

impl Problem {
    /// Whether the tests are in `test` (a derivative's record) rather than `tests`.
    pub(crate) fn names_it_test(&self) -> bool {
        self.tests.is_none() && self.test.is_some()
    }

    pub(crate) fn into_task(self) -> Result<Task, String> {
        let Some(mut tests) = self.tests.or(self.test) else {
            return Err(format!(
                "`{}`: missing field `tests` (or `test`)",
                self.name
            ));
        };
        // MultiPL-E names a language by its programs' extension: `go_test.go` for Go (its Go
        // programs are test files), `rs`, `rb`, `py`. Java is read (its samples end as
        // `unsupported_language`, as AixBench's do); any other is an error.
        let language = match Language::parse(&self.language) {
            Some(language) if language != Language::C => language,
            _ => {
                return Err(format!(
                    "`{}`: unsupported language `{}` (expected cpp, rs, js, ts, go_test.go, rb, \
                     lua, py or java)",
                    self.name, self.language
                ))
            }
        };
        if language == Language::Python && tests.starts_with("ef check(") {
            tests.insert(0, 'd');
        }
        let entry_point = self
            .entry_point
            .filter(|e| !e.is_empty())
            .or(match language {
                Language::Python => called_with(&tests, "check("),
                Language::Go => called_with(&tests, "candidate := "),
                Language::Ruby => called_with(&tests, "candidate = method(:"),
                _ => called_with(&tests, "candidate = "),
            });
        // Asserts of the common shapes are judged on the host (the same converters as
        // HumanEval-X's); Python's run in the isolated judge.
        let converted = match language {
            Language::Cpp => compiled_asserts::cpp_calls(&tests),
            Language::Rust => compiled_asserts::rust_calls(&tests),
            // TypeScript's tests are JavaScript's after one declaration that types `require`.
            Language::Javascript | Language::Typescript => {
                let untyped = tests.trim_start();
                let untyped = untyped
                    .strip_prefix("declare var require: any;")
                    .unwrap_or(untyped);
                javascript_asserts::multipl_e_test(untyped)
                    .ok()
                    .map(|(entry_point, cases)| TestSuite::Calls {
                        setup: String::new(),
                        entry_point,
                        tolerance: 0.0,
                        cases,
                    })
            }
            Language::Go => go_asserts::multipl_e_calls(&tests).map(|(_, suite)| suite),
            Language::Ruby => {
                ruby_asserts::multipl_e_test(&tests).map(|(entry_point, cases)| TestSuite::Calls {
                    setup: String::new(),
                    entry_point,
                    tolerance: 0.0,
                    cases,
                })
            }
            Language::Lua => {
                lua_asserts::multipl_e_test(&tests)
                    .ok()
                    .map(|(entry_point, cases)| TestSuite::Calls {
                        setup: String::new(),
                        entry_point,
                        tolerance: 0.0,
                        cases,
                    })
            }
            _ => None,
        };
        // Go's test file (beside the candidate's, with the prompt's package clause and imports)
        // imports what MultiPL-E's prompt imports for the tests.
        let setup = match language {
            Language::Go => go_asserts::MULTIPL_E_SETUP.to_owned(),
            _ => String::new(),
        };
        let tests = converted.unwrap_or_else(|| TestSuite::Assertions {
            setup,
            cases: vec![AssertionCase {
                name: "tests".into(),
                code: tests,
            }],
        });
        Ok(Task {
            id: TaskId(self.name),
            language,
            prompt: self.prompt,
            entry_point,
            metadata: super::humaneval::benchmark_metadata("MultiPL-E"),
            tests: vec![tests],
            time_limit: Some(REFERENCE_SECONDS),
            ..Task::default()
        })
    }
}

/// The time limit of MultiPL-E's own evaluator per program, in every language (its
/// containerized evaluation gives each program 15 s): a sample's default budget is that many
/// native seconds of its language (core's `evaluation::time_limit_budget`).
pub(crate) const REFERENCE_SECONDS: f64 = 15.0;

/// The identifier after the last `marker` in the tests (`check(f)`, `candidate = f;`): the
/// function under test.
fn called_with(tests: &str, marker: &str) -> Option<String> {
    tests.rmatch_indices(marker).find_map(|(at, _)| {
        let name: String = tests[at + marker.len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let first = name.chars().next()?;
        (!first.is_ascii_digit() && name != "candidate").then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::tasks::parse_tasks;
    use crate::task::SourceKind;

    fn fixture() -> Vec<Task> {
        parse_tasks(
            "tasks.jsonl",
            include_str!("../../../tests/fixtures/multipl-e/tasks.jsonl"),
        )
        .unwrap()
    }

    fn case(task: &Task) -> &str {
        let TestSuite::Assertions { setup, cases } = &task.tests[0] else {
            panic!("expected assertions")
        };
        assert_eq!(task.tests.len(), 1);
        assert_eq!(setup, "");
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].name, "tests");
        &cases[0].code
    }

    #[test]
    fn every_language_is_read() {
        let tasks = fixture();
        let expected = [
            ("HumanEval_900_add_two", Language::Cpp, "add_two"),
            ("HumanEval_901_triple", Language::Rust, "triple"),
            ("HumanEval_902_shout", Language::Javascript, "shout"),
            ("HumanEval_903_is_even", Language::Python, "is_even"),
        ];
        assert_eq!(tasks.len(), expected.len());
        for (task, (id, language, entry)) in tasks.iter().zip(expected) {
            assert_eq!(task.id.0, id);
            assert_eq!(task.language, language);
            assert_eq!(task.entry_point.as_deref(), Some(entry));
            assert!(task.references.is_empty());
            let source = task.metadata.source.as_ref().unwrap();
            assert_eq!(source.kind, SourceKind::Benchmark);
            assert_eq!(source.name.as_deref(), Some("MultiPL-E"));
        }
    }

    /// The driver and cases of a task imported as a `calls` suite.
    fn calls(task: &Task) -> (&str, &[crate::task::CallCase]) {
        let TestSuite::Calls { setup, cases, .. } = &task.tests[0] else {
            panic!("expected calls: {:?}", task.tests[0])
        };
        (setup, cases)
    }

    #[test]
    fn cpp_keeps_prompt_and_main_as_the_driver_of_host_judged_calls() {
        let task = &fixture()[0];
        assert!(task.prompt.starts_with("#include<assert.h>\n"));
        assert!(task.prompt.ends_with("long add_two(long n) {\n"));
        let (driver, cases) = calls(task);
        assert!(driver.starts_with("}\nint main() {\n    auto candidate = add_two;\n"));
        assert!(
            driver.contains(
                "WASMEVAL_CASE(1, wasmeval_calls::compared<decltype((0))>(candidate((-2))));"
            ),
            "{driver}"
        );
        assert_eq!(cases[0].expected, serde_json::json!(5));
    }

    #[test]
    fn rust_tests_are_a_main_and_its_asserts_calls() {
        let task = &fixture()[1];
        assert!(task.prompt.ends_with("fn triple(x: isize) -> isize {\n"));
        let (driver, cases) = calls(task);
        assert!(driver.contains("fn main() {\n    let candidate = triple;\n"));
        assert!(
            driver.contains("crate::__wasmeval_calls::case(0, || candidate(2));"),
            "{driver}"
        );
        assert_eq!(cases[1].expected, serde_json::json!(-3));
    }

    #[test]
    fn javascript_tests_become_calls_of_the_function_candidate_names() {
        let task = &fixture()[2];
        assert!(task.prompt.ends_with("function shout(s){\n"));
        let TestSuite::Calls {
            entry_point, cases, ..
        } = &task.tests[0]
        else {
            panic!("expected calls")
        };
        assert_eq!(entry_point, "shout");
        assert_eq!(cases[1].args, [serde_json::json!("")]);
        assert_eq!(cases[1].expected, serde_json::json!("!"));
    }

    #[test]
    fn python_tests_are_kept_with_their_call() {
        let task = &fixture()[3];
        assert!(task.prompt.starts_with("def is_even(n: int) -> bool:\n"));
        let code = case(task);
        assert!(code.starts_with("def check(candidate):\n"));
        assert!(code.ends_with("\ncheck(is_even)\n"), "{code}");
    }

    #[test]
    fn multipl_e_go_named_by_its_extension_and_java_are_read() {
        // The first records of MultiPL-E's humaneval-go.jsonl and humaneval-java.jsonl, shortened.
        let go = r#"{"name":"HumanEval_23_strlen","language":"go_test.go","prompt":"package strlen_test\n\nimport (\n    \"testing\"\n    \"fmt\"\n)\n\nfunc strlen(myString string) int {\n","tests":"func TestStrlen(t *testing.T) {\n  candidate := strlen\n\ttype test struct {\n\t\tactual   interface{}\n\t\texpected interface{}\n\t}\n   tests := []test{\n     { actual: candidate(\"x\"), expected: 1 },\n   }\n\n\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf(\"test num % d\", i), func(t *testing.T) {\n\t\t\tif fmt.Sprintf(\"%v\", tc.actual) != fmt.Sprintf(\"%v\", tc.expected) {\n\t\t\t\tt.Errorf(\"expected '%s', got '%s'\", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n","stop_tokens":["\nfunc","struct","\n// "]}"#;
        let java = r#"{"name":"HumanEval_23_strlen","language":"java","prompt":"import java.util.*;\nclass Problem {\n    public static long strlen(String string) {\n","tests":"    }\n    public static void main(String[] args) {\n    assert(strlen((\"\")) == (0l));\n    }\n\n}\n","stop_tokens":["\n    }\n"]}"#;
        let tasks = parse_tasks("m.jsonl", &format!("{go}\n")).unwrap();
        assert_eq!(tasks[0].language, Language::Go);
        assert_eq!(tasks[0].entry_point.as_deref(), Some("strlen"));
        assert!(matches!(tasks[0].tests[0], TestSuite::Calls { .. }));
        let tasks = parse_tasks("m.jsonl", &format!("{java}\n")).unwrap();
        assert_eq!(tasks[0].language, Language::Java);
        assert_eq!(Language::parse("go_test.go"), Some(Language::Go));
        let language: Language = serde_json::from_str(r#""go_test.go""#).unwrap();
        assert_eq!(language, Language::Go);
    }

    #[test]
    fn unknown_language_is_an_error_at_its_line() {
        let fine = r#"{"name":"HumanEval_1_a","language":"py","prompt":"def a():\n","tests":"def check(candidate):\n    assert candidate() is None\n\ncheck(a)\n","stop_tokens":["\ndef"]}"#;
        let php = r#"{"name":"HumanEval_2_b","language":"php","prompt":"<?php\nfunction b() {\n","tests":"function candidate(...$args) {\n","stop_tokens":["\nfunction"]}"#;
        let e = parse_tasks("m.jsonl", &format!("{fine}\n{php}\n")).unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(
            e.to_string(),
            "m.jsonl:2: multipl-e problem: `HumanEval_2_b`: unsupported language `php` (expected \
             cpp, rs, js, ts, go_test.go, rb, lua, py or java)"
        );
    }

    #[test]
    fn lua_asserts_become_host_judged_calls_and_other_tests_one_luaunit_case() {
        let tasks = parse_tasks(
            "lua.jsonl",
            include_str!("../../../tests/fixtures/multipl-e/lua.jsonl"),
        )
        .unwrap();
        assert!(tasks.len() >= 10);
        let task = &tasks[0];
        assert_eq!(task.language, Language::Lua);
        assert_eq!(task.id.0, "HumanEval_23_strlen");
        assert_eq!(task.entry_point.as_deref(), Some("strlen"));
        assert!(task.prompt.ends_with("local function strlen(text)\n"));
        let (_, cases) = calls(task);
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[2].args, [serde_json::json!("asdasnakj")]);
        assert_eq!(cases[2].expected, serde_json::json!(9));
        // A test with a loop stays whole, for luaunit in the guest.
        let looped = tasks.iter().find(|t| t.id.0 == "HumanEval_55_fib").unwrap();
        let code = case(looped);
        assert!(code.starts_with("lu = require('luaunit')\n"), "{code}");
        assert!(code.ends_with("os.exit(lu.LuaUnit.run())\n"), "{code}");
    }

    #[test]
    fn typescript_tests_become_host_judged_calls() {
        let tasks = parse_tasks(
            "ts.jsonl",
            include_str!("../../../tests/fixtures/multipl-e/ts.jsonl"),
        )
        .unwrap();
        assert!(tasks.len() >= 10);
        for task in &tasks {
            assert_eq!(task.language, Language::Typescript);
            // Its tests expect `undefined`, which is not plain data: an assertion it stays.
            if task.id.0 == "HumanEval_12_longest" {
                assert!(matches!(task.tests[0], TestSuite::Assertions { .. }));
                continue;
            }
            let TestSuite::Calls {
                entry_point, cases, ..
            } = &task.tests[0]
            else {
                panic!("{}: not converted to calls: {:?}", task.id, task.tests[0]);
            };
            assert_eq!(Some(entry_point), task.entry_point.as_ref());
            assert!(!cases.is_empty());
        }
    }

    #[test]
    fn go_rows_become_calls_compared_as_their_percent_v_strings() {
        let tasks = parse_tasks(
            "go.jsonl",
            include_str!("../../../tests/fixtures/multipl-e/go.jsonl"),
        )
        .unwrap();
        assert!(tasks.len() >= 10);
        for task in &tasks {
            assert_eq!(task.language, Language::Go);
            assert!(task.prompt.starts_with("package "));
            // Its test has a statement before the table: not the translator's shape.
            if task.id.0 == "HumanEval_911_first_word" {
                let TestSuite::Assertions { setup, cases } = &task.tests[0] else {
                    panic!("{:?}", task.tests[0])
                };
                assert_eq!(setup, go_asserts::MULTIPL_E_SETUP);
                assert_eq!(cases.len(), 1);
                continue;
            }
            let TestSuite::Calls {
                entry_point, cases, ..
            } = &task.tests[0]
            else {
                panic!("{}: not converted to calls: {:?}", task.id, task.tests[0]);
            };
            assert_eq!(Some(entry_point), task.entry_point.as_ref());
            assert!(!cases.is_empty());
        }
        let mean = tasks
            .iter()
            .find(|t| t.id.0 == "HumanEval_903_mean")
            .unwrap();
        let (_, cases) = calls(mean);
        let expected: Vec<&serde_json::Value> = cases.iter().map(|c| &c.expected).collect();
        assert_eq!(expected, ["2.5", "1e+06", "0.15000000000000002"]);
    }

    #[test]
    fn tests_as_a_string_is_not_the_native_format() {
        // Without `stop_tokens` a string `tests` falls to the native reader, which wants an array.
        let line = r#"{"name":"x","language":"py","prompt":"","tests":"check(x)\n"}"#;
        assert!(parse_tasks("m.jsonl", line).is_err());
        let line =
            r#"{"name":"x","language":"py","prompt":"","tests":"check(x)\n","stop_tokens":[]}"#;
        assert_eq!(parse_tasks("m.jsonl", line).unwrap()[0].id.0, "x");
    }
}
