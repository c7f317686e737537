//! `wasmeval show` on hand-written runs of two models (tests/fixtures/show: `model-a` and
//! `model-b`, results that name no model, so each is labelled by its folder): the printout and
//! JSON equal the expected files (`BLESS=1` rewrites them), samples keep their run's numbers
//! through folders and bundles, and every error names the folder and what exists.

use crate::support::repo;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

fn fixtures() -> PathBuf {
    repo().join("tests/fixtures/show")
}

/// `wasmeval show` with `args` (run folders given relative to the fixtures, so that messages
/// name them as a user would type them).
fn show(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_wasmeval"))
        .current_dir(fixtures())
        .arg("show")
        .args(args)
        .output()
        .expect("wasmeval starts")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

/// Compares `actual` with `expected/NAME`, or writes it there when `BLESS` is set.
fn assert_expected(name: &str, actual: &str) {
    let path = fixtures().join("expected").join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e}); BLESS=1 writes it", path.display()));
    assert_eq!(
        actual,
        expected,
        "{} differs (BLESS=1 rewrites it)",
        path.display()
    );
}

/// Exit code 2 and stderr, for a command that must fail as bad input.
fn bad_input(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    stderr
}

#[test]
fn why_model_a_failed_where_model_b_passed_in_one_command() {
    let text = stdout(&show(&[
        "model-a", "model-b", "--task", "MBPP/12", "--model", "model-a", "--model", "model-b",
    ]));
    assert_expected("two-models.txt", &text);
    // The failing case with its message, test and expected value; the passing program; the diff.
    assert!(text.contains("model-a passed 0 of 1 · model-b passed 1 of 2"));
    assert!(text.contains(
        "    wrong_answer   median(1, 2, 3)\n      message:  expected 2, got 1\n      test:     median(1, 2, 3) == 2\n      expected: 2\n"
    ));
    assert!(text.contains("  1 other sample(s) of model-b:\n    sample 3 wrong_answer"));
    assert!(text.ends_with(
        "--- model-a sample 0 (wrong_answer)\n+++ model-b sample 0 (passed)\n@@ -1,3 +1,3 @@\n def median(a, b, c):\n     \"\"\"The median of three numbers.\"\"\"\n-    return sorted([a, b, c])[0]\n+    return sorted([a, b, c])[1]\n"
    ));
}

#[test]
fn an_io_case_shows_its_input_expected_and_actual_output_and_json_has_everything() {
    let json = stdout(&show(&[
        "model-a", "model-b", "--task", "MBPP/2", "--format", "json",
    ]));
    assert_expected("io.json", &json);
    let shown: Value = serde_json::from_str(&json).unwrap();
    let failing = &shown["samples"][1];
    assert_eq!(failing["model"], "model-b");
    let case = &failing["cases"][0];
    assert_eq!(case["test"], "stdin:\n3\n");
    assert_eq!(case["expected"], "6\n");
    assert_eq!(case["output"], "33\n");
    // From model-a's passing sample 1 to model-b's failing sample 2 (5 once combined).
    assert_eq!(
        (&shown["diff"]["from"], &shown["diff"]["to"]),
        (&Value::from(1), &Value::from(5))
    );
    let text = stdout(&show(&["model-a", "model-b", "--task", "MBPP/2"]));
    assert_expected("io.txt", &text);
}

#[test]
fn samples_keep_their_runs_numbers_in_folders_and_bundles() {
    // Sample 3 of model-b's samples file is its fourth line: index 3 there, 6 once combined
    // after model-a's three.
    let from_folders = stdout(&show(&[
        "model-a", "model-b", "--sample", "3", "--format", "json",
    ]));
    let shown: Value = serde_json::from_str(&from_folders).unwrap();
    assert_eq!(shown["task_id"], "MBPP/12");
    let samples = shown["samples"].as_array().unwrap();
    assert_eq!(samples.len(), 1, "model-a has no sample 3");
    assert_eq!(
        (
            &samples[0]["run"],
            &samples[0]["number"],
            &samples[0]["index"]
        ),
        (&Value::from("model-b"), &Value::from(3), &Value::from(6))
    );
    // A bundle of the two runs numbers them alike (it carries where each run starts).
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("both.json");
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeval"))
        .current_dir(fixtures())
        .args(["report", "model-a", "model-b", "--bundle"])
        .arg(&bundle)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let runs: Value = serde_json::from_slice(&std::fs::read(&bundle).unwrap()).unwrap();
    assert_eq!(
        runs["runs"],
        serde_json::json!([{"name": "model-a", "first_index": 0}, {"name": "model-b", "first_index": 3}])
    );
    let from_bundle = stdout(&show(&[
        bundle.to_str().unwrap(),
        "--sample",
        "3",
        "--format",
        "json",
    ]));
    assert_eq!(from_bundle, from_folders);
    // One run alone: the number is the index of its results.jsonl.
    let alone: Value = serde_json::from_str(&stdout(&show(&[
        "model-b", "--sample", "3", "--format", "json",
    ])))
    .unwrap();
    assert_eq!(alone["samples"][0]["number"], 3);
    assert_eq!(alone["samples"][0]["index"], 3);
    assert!(alone["samples"][0].get("run").is_none());
}

#[test]
fn errors_name_the_folder_and_what_exists() {
    let missing = bad_input(&show(&["model-a", "model-b", "--task", "MBPP/1200"]));
    assert_eq!(
        missing,
        "wasmeval: error: model-a model-b: no task `MBPP/1200`; close ids: MBPP/120, MBPP/12\n"
    );
    let unknown = bad_input(&show(&["model-a", "--task", "zzzzzzzz"]));
    assert_eq!(
        unknown,
        "wasmeval: error: model-a: no task `zzzzzzzz` among the results' 3 tasks \
         (`wasmeval report model-a --by task` lists them)\n"
    );
    let model = bad_input(&show(&[
        "model-a", "model-b", "--task", "MBPP/2", "--model", "gpt",
    ]));
    assert!(
        model.ends_with(
            "no sample of task MBPP/2 is by model `gpt`; its samples are by: model-a, model-b\n"
        ),
        "{model}"
    );
    let sample = bad_input(&show(&["model-b", "--task", "MBPP/12", "--sample", "1"]));
    assert!(
        sample.ends_with("no sample 1 of task MBPP/12; its samples are 0, 3\n"),
        "{sample}"
    );
    let none = bad_input(&show(&["model-a", "model-b", "--sample", "9"]));
    assert!(none.ends_with("no sample 9\n"), "{none}");
    // Sample 1 is MBPP/2 in model-a's samples file and MBPP/120 in model-b's.
    let several = bad_input(&show(&["model-a", "model-b", "--sample", "1"]));
    assert!(
        several.ends_with(
            "sample 1 is a sample of several tasks (MBPP/2, MBPP/120): name the task with --task, or the model with --model\n"
        ),
        "{several}"
    );
    let folder = bad_input(&show(&["model-c", "--task", "MBPP/2"]));
    assert!(
        folder.contains("model-c: no such folder or file"),
        "{folder}"
    );
    // Neither a task nor a sample: clap says which flags are missing.
    let nothing = bad_input(&show(&["model-a"]));
    assert!(nothing.contains("--task <ID>"), "{nothing}");
}

#[test]
fn help_has_examples() {
    let help = stdout(&show(&["--help"]));
    assert!(
        help.contains("wasmeval show out/demo --task demo/3 --model hare-1b --model tortoise-7b")
    );
    assert!(help.contains("--format <FORMAT>"));
}
