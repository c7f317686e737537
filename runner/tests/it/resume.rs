//! Resumption: a run killed at any moment finishes on re-run with no sample lost or run twice.

use crate::support::{fixture, repo, results, run, run_command};
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

fn complete_lines(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let complete = text.rfind('\n').map_or("", |end| &text[..end]);
    complete
        .lines()
        .map(str::to_owned)
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn a_run_killed_with_sigkill_resumes_without_losing_or_repeating_samples() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let demo = repo().join("demo");
    let total = crate::support::read_jsonl(&demo.join("samples.jsonl")).len();
    let args = ["--fuel", "4000000000", "--jobs", "1"];
    let mut child = run_command(
        &demo.join("tasks.jsonl"),
        &demo.join("samples.jsonl"),
        &out,
        &args,
    )
    .stderr(std::process::Stdio::null())
    .stdout(std::process::Stdio::null())
    .spawn()
    .unwrap();
    // Wait (bounded) until some results are on disk, then kill without warning.
    let deadline = Instant::now() + Duration::from_secs(120);
    while complete_lines(&out.join("results.jsonl")).len() < 5 {
        assert!(Instant::now() < deadline, "no results appeared");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let kept: Vec<Value> = complete_lines(&out.join("results.jsonl"))
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(kept.len() < total, "the run finished before the kill");

    let output = run(
        &demo.join("tasks.jsonl"),
        &demo.join("samples.jsonl"),
        &out,
        &args,
    );
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains(&format!("resuming: {} results kept", kept.len())));
    let results = results(&out);
    let indices: BTreeSet<u64> = results
        .iter()
        .map(|r| r["index"].as_u64().unwrap())
        .collect();
    assert_eq!(results.len(), total);
    assert_eq!(indices, (0..total as u64).collect());
    // Kept results are byte-for-byte what the first run wrote (wall time included): not run again.
    for old in &kept {
        let index = old["index"].as_u64().unwrap() as usize;
        assert_eq!(&results[index], old);
    }
}

#[test]
fn a_partial_last_line_left_by_a_kill_is_dropped_and_its_sample_run_again() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let (tasks, samples) = fixture("mbpp");
    let args = ["--fuel", "2000000000"];
    run(&tasks, &samples, &out, &args);
    let full = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    // One whole line and half of the next, as a kill in the middle of a write would leave.
    std::fs::write(
        out.join("results.jsonl"),
        format!("{}\n{}", lines[0], &lines[1][..lines[1].len() / 2]),
    )
    .unwrap();

    run(&tasks, &samples, &out, &args);
    let results = results(&out);
    assert_eq!(results.len(), 3);
    assert_eq!(results[0], serde_json::from_str::<Value>(lines[0]).unwrap());
    assert_eq!(results[1]["verdict"], "passed");
}

#[test]
fn resuming_with_other_limits_is_refused() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let (tasks, samples) = fixture("mbpp");
    run(&tasks, &samples, &out, &["--fuel", "2000000000"]);
    let other_fuel = ["--fuel", "3000000000"];
    let output = run_command(&tasks, &samples, &out, &other_fuel)
        .output()
        .unwrap();
    // The user's to fix: exit 2, saying what differs and what to do.
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("a run with other limits;"), "{stderr}");
    assert!(stderr.contains("pass --fresh"), "{stderr}");
}

#[test]
fn a_run_manifest_names_the_compilers_its_modules_come_from() {
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = fixture("compiled");
    run(&tasks, &samples, work.path(), &[]);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("run.json")).unwrap())
            .unwrap();
    // A resumed run after a compiler or sysroot change is refused, as for a changed guest.
    assert!(
        manifest["rust_compiler"]
            .as_str()
            .is_some_and(|v| v.contains("rustc")),
        "{manifest}"
    );
    assert!(
        manifest["c_compiler"]
            .as_str()
            .is_some_and(|v| v.contains("clang") && v.contains("sysroot")),
        "{manifest}"
    );
}

#[test]
fn a_second_run_on_a_folder_in_use_refuses_and_names_the_first() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    // This test holds the folder as a running `wasmeval run` would: its lock file, locked, with
    // the holder's process id in it.
    let mut lock = std::fs::File::create(out.join("run.lock")).unwrap();
    lock.lock().unwrap();
    std::io::Write::write_all(&mut lock, b"4242").unwrap();
    let (tasks, samples) = fixture("mbpp");
    let output = run_command(&tasks, &samples, &out, &[]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("in use by another wasmeval run (process 4242)"),
        "{stderr}"
    );
    assert!(!out.join("results.jsonl").exists());
    // Once it is released, the run goes ahead.
    drop(lock);
    run(&tasks, &samples, &out, &[]);
    assert!(out.join("results.jsonl").exists());
}

#[test]
fn a_killed_runs_temporary_folders_are_removed_by_the_next_run() {
    let work = tempfile::tempdir().unwrap();
    let temp = work.path().join("tmp");
    // What a run killed by SIGKILL leaves: its folder, a sample's scratch files, its unheld lock.
    let killed = temp.join("wasmeval-run-4242-1");
    std::fs::create_dir_all(killed.join("wasmeval-tmp-abc")).unwrap();
    std::fs::write(
        killed.join("wasmeval-tmp-abc/written-by-a-guest"),
        vec![0u8; 1 << 20],
    )
    .unwrap();
    std::fs::write(killed.join(".lock"), b"4242").unwrap();
    let (tasks, samples) = fixture("mbpp");
    let out = work.path().join("out");
    let status = run_command(&tasks, &samples, &out, &[])
        .env("TMPDIR", &temp)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(!killed.exists(), "the killed run's folder is still there");
    // The finished run removed its samples' folders; only its own (empty) run folder remains.
    let left: Vec<_> = std::fs::read_dir(&temp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
    let inside: Vec<_> = std::fs::read_dir(&left[0])
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(inside, [".lock"], "{inside:?}");
}
