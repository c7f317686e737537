//! TypeScript samples end to end: types stripped on the host, then the JavaScript guest runs them.
//! MultiPL-E `ts` tasks with hand-written solutions (tests/fixtures/multipl-e/ts*.jsonl), compile
//! errors that name their line, and the hostile corpus (tests/hostile/ts).

use crate::hostile::{calls_corpus, check_corpus, check_corpus_against, run_time_corpus};
use crate::support::{repo, results, run};
use serde_json::json;

#[test]
fn hand_written_multipl_e_typescript_solutions_pass_and_are_judged_on_the_host() {
    let fixtures = repo().join("tests/fixtures/multipl-e");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    run(
        &fixtures.join("ts.jsonl"),
        &fixtures.join("ts_solutions.jsonl"),
        &out,
        &[],
    );
    let results = results(&out);
    assert!(results.len() >= 10, "{} solutions", results.len());
    for result in &results {
        assert_eq!(result["verdict"], "passed", "{result}");
        // `undefined` is not plain data, so a test expecting it stays a guest-run assertion.
        let judge = match result["task_id"] == "HumanEval_12_longest" {
            true => "guest",
            false => "host",
        };
        for case in result["cases"].as_array().unwrap() {
            assert_eq!(case["judged_by"], judge, "{result}");
        }
    }
}

#[test]
fn wrong_answers_fail_and_untypeable_syntax_is_a_compile_error_naming_its_line() {
    let tasks = repo().join("tests/fixtures/multipl-e/ts.jsonl");
    let work = tempfile::tempdir().unwrap();
    let samples = work.path().join("samples.jsonl");
    let records = [
        // Right with a type error: types are not checked.
        json!({"task_id": "HumanEval_23_strlen", "completion": "  const n: string = string.length as any;\n  return n as unknown as number;\n}\n"}),
        json!({"task_id": "HumanEval_23_strlen", "completion": "  return string.length + 1;\n}\n"}),
        json!({"task_id": "HumanEval_23_strlen", "completion": "  return string.length;\n}\nfunction (x: number {\n"}),
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
    assert_eq!(verdicts, ["passed", "wrong_answer", "compile_error"]);
    // The prompt is four lines, so the completion's third is line 7 of the program.
    let message = results[2]["message"].as_str().unwrap();
    assert!(message.contains("program.ts: line 7, column "), "{message}");
}

#[test]
fn every_hostile_typescript_program_gets_its_expected_verdict() {
    check_corpus("ts", &run_time_corpus("ts", "ts"), 14);
    check_corpus_against("ts", "calls_task.json", &calls_corpus("ts", "ts"), 2);
}

/// 100,000 levels of `bracket` (and its closing text) around `1` in a TypeScript program.
fn nested(open: &str, close: &str) -> String {
    format!(
        "let x: any = {}1{};\nconsole.log(x);\n",
        open.repeat(100_000),
        close.repeat(100_000)
    )
}

#[test]
fn regression_deeply_nested_typescript_is_a_compile_error_not_a_dead_host() {
    // Issue 32: oxc recurses once per level with no bound; on the host this aborted `run`.
    let work = tempfile::tempdir().unwrap();
    let tasks = work.path().join("tasks.jsonl");
    let task = json!({"id": "t", "language": "typescript", "prompt": "",
        "tests": [{"kind": "io", "cases": [{"name": "one", "stdin": "", "stdout": "1\n"}]}]});
    std::fs::write(&tasks, format!("{task}\n")).unwrap();
    let programs = [
        "let x: number = 1;\nconsole.log(x);\n".to_owned(),
        nested("[", "]"),
        nested("(", ")"),
        nested("{a:", "}"),
        format!(
            "let x: {}number{} = 1;\nconsole.log(x);\n",
            "Array<".repeat(100_000),
            ">".repeat(100_000)
        ),
        format!(
            "function f() {}{}\nconsole.log(1);\n",
            "{".repeat(100_000),
            "}".repeat(100_000)
        ),
        format!("let x = {}1;\nconsole.log(x);\n", "!".repeat(100_000)),
    ];
    let samples = work.path().join("samples.jsonl");
    let lines: String = programs
        .iter()
        .map(|p| format!("{}\n", json!({"task_id": "t", "solution": p})))
        .collect();
    std::fs::write(&samples, lines).unwrap();
    let out = work.path().join("out");
    run(&tasks, &samples, &out, &[]);
    let results = results(&out);
    assert_eq!(results[0]["verdict"], "passed", "{}", results[0]);
    for result in &results[1..] {
        assert_eq!(result["verdict"], "compile_error", "{result}");
        let message = result["message"].as_str().unwrap();
        assert!(
            message.contains("the TypeScript type stripper"),
            "{message}"
        );
    }
}

/// A seeded fuzz of the type stripper (`wasmeval __strip-types`, the child that parses
/// TypeScript on the host): 600 programs of TypeScript token soup, each answered with JavaScript
/// or an error naming a line, never a dead child.
#[test]
fn a_seeded_fuzz_of_typescript_token_soup_is_always_answered() {
    const PIECES: &[&str] = &[
        "let ",
        "x",
        ": ",
        "number",
        "string[]",
        "Array<",
        ">",
        "<T,>",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "=>",
        "=",
        ";",
        "\n",
        ",",
        "?",
        "!",
        "as ",
        "any",
        "satisfies ",
        "unknown",
        "interface I ",
        "type T = ",
        "enum E ",
        "namespace N ",
        "declare ",
        "abstract ",
        "class C ",
        "implements ",
        "extends ",
        "keyof ",
        "typeof ",
        "readonly ",
        "private ",
        "function f",
        "return ",
        "`${",
        "`",
        "'",
        "\"",
        "/*",
        "*/",
        "//",
        "1",
        "0x1F",
        "1n",
        "@",
        "#p",
        "import ",
        "export ",
        "from ",
        "\u{0}",
        "é",
        "|",
        "&",
        "...",
        "infer ",
        "is ",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let programs: Vec<String> = (0..600)
        .map(|_| {
            let length = next() % 80;
            (0..length)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect()
        })
        .collect();
    for batch in programs.chunks(100) {
        let mut child = crate::support::wasmeval()
            .arg("__strip-types")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let input = serde_json::to_vec(batch).unwrap();
        let mut stdin = child.stdin.take().unwrap();
        std::io::Write::write_all(&mut stdin, &input).unwrap();
        drop(stdin);
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", output.status);
        let answers: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(answers.len(), batch.len());
        for (program, answer) in batch.iter().zip(&answers) {
            let answered = answer["ok"].is_string()
                || answer["error"]
                    .as_str()
                    .is_some_and(|e| e.starts_with("line "));
            assert!(answered, "{program:?} -> {answer}");
        }
    }
}

#[test]
fn no_typescript_program_passes_guest_judged_assertions_by_rewriting_the_tests_built_ins() {
    // Issue 32: a `namespace Math` the stripper turns into `Math.abs = ...`, against test code
    // that checks a tolerance with `Math.abs`; the test code runs in a realm of its own.
    check_corpus_against(
        "ts",
        "assertion_task.json",
        &crate::hostile::assertion_corpus("ts", "ts"),
        2,
    );
}
