//! `run --jobs N` (N > 1) evaluates in child processes (runner/src/child_evaluators.rs): the same
//! results as one process, and a child that dies stops the run without losing what was done.

use crate::support::{repo, results, run, run_command};
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// Each result without its wall times: everything else is deterministic.
fn without_wall_times(result: &Value) -> Value {
    let mut result = result.clone();
    if let Some(object) = result.as_object_mut() {
        object.remove("wall_us");
    }
    if let Some(cases) = result["cases"].as_array_mut() {
        for case in cases {
            if let Some(case) = case.as_object_mut() {
                case.remove("wall_us");
            }
        }
    }
    result
}

#[test]
fn child_processes_give_one_process_s_results() {
    let work = tempfile::tempdir().unwrap();
    let multipl_e = repo().join("tests/fixtures/multipl-e");
    let demo = repo().join("demo");
    for (tasks, samples, language) in [
        (
            demo.join("tasks.jsonl"),
            demo.join("samples.jsonl"),
            "python",
        ),
        (
            multipl_e.join("js.jsonl"),
            multipl_e.join("js_solutions.jsonl"),
            "javascript",
        ),
    ] {
        let one = work.path().join(format!("{language}-1"));
        let two = work.path().join(format!("{language}-2"));
        let flags = ["--fuel", "1000000000", "--language", language];
        run(
            &tasks,
            &samples,
            &one,
            &[&flags[..], &["--jobs", "1"]].concat(),
        );
        run(
            &tasks,
            &samples,
            &two,
            &[&flags[..], &["--jobs", "2"]].concat(),
        );
        let (one, two) = (results(&one), results(&two));
        assert!(!one.is_empty());
        assert_eq!(one.len(), two.len(), "{language}");
        for (a, b) in one.iter().zip(&two) {
            assert_eq!(without_wall_times(a), without_wall_times(b), "{language}");
        }
    }
}

/// The pids of `parent`'s children.
fn children_of(parent: u32) -> Vec<u32> {
    let mut pids = Vec::new();
    let tasks = std::fs::read_dir(format!("/proc/{parent}/task")).unwrap();
    for task in tasks.flatten() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        pids.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    pids
}

fn kill(pid: u32) {
    let status = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

fn results_on_disk(out: &Path) -> usize {
    std::fs::read_to_string(out.join("results.jsonl"))
        .unwrap_or_default()
        .matches('\n')
        .count()
}

/// The two worker processes of the `run --jobs 2` `parent`, once it has written `results`
/// results to `out` (waiting at most two minutes).
fn worker_processes_once(parent: &mut std::process::Child, out: &Path, results: usize) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "no worker processes appeared");
        assert!(parent.try_wait().unwrap().is_none(), "the run ended first");
        let children = children_of(parent.id());
        if children.len() == 2 && results_on_disk(out) >= results {
            return children;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_killed_child_stops_the_run_naming_its_sample_and_the_run_resumes() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let demo = repo().join("demo");
    let (tasks, samples) = (demo.join("tasks.jsonl"), demo.join("samples.jsonl"));
    let total = crate::support::read_jsonl(&samples).len();
    let args = ["--fuel", "4000000000", "--jobs", "2"];
    let mut parent = run_command(&tasks, &samples, &out, &args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let child = worker_processes_once(&mut parent, &out, 3)[0];
    kill(child);
    let output = parent.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the worker process {child} ended while evaluating sample"
        )) && stderr.contains("run the same command again to resume"),
        "{stderr}"
    );
    let kept = results_on_disk(&out);
    assert!(kept < total, "every sample ran before the kill");

    let again = run(&tasks, &samples, &out, &args);
    assert!(
        String::from_utf8_lossy(&again.stderr).contains(&format!("resuming: {kept} results kept")),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let results = results(&out);
    assert_eq!(results.len(), total);
}

#[test]
fn children_end_with_their_killed_parent() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let demo = repo().join("demo");
    let mut parent = run_command(
        &demo.join("tasks.jsonl"),
        &demo.join("samples.jsonl"),
        &out,
        &["--jobs", "2"],
    )
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let children = worker_processes_once(&mut parent, &out, 1);
    parent.kill().unwrap();
    parent.wait().unwrap();
    // A child notices when its next reply has no reader, at the latest after the sample it is
    // running (bounded by its limits: the demo's wall-clock backstop is 10 s).
    let deadline = Instant::now() + Duration::from_secs(60);
    for child in children {
        while Path::new(&format!("/proc/{child}")).exists() {
            let state = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
            // A zombie has ended; only its parent (now gone; init reaps it) could wait for it.
            if state.split_whitespace().nth(2) == Some("Z") {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "worker {child} outlived its parent"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
