//! A run split with `run --shard K/N` and joined with `merge` writes the folder the unsplit run
//! writes; missing, repeated or foreign parts are refused by name.

use crate::support::{repo, run, wasmeval};
use std::path::Path;

/// A folder's file, with the wall-clock times (the only thing two runs may differ in) removed.
fn without_times(dir: &Path, name: &str) -> String {
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    if !name.ends_with("results.jsonl") || name.contains('_') {
        return text;
    }
    text.lines()
        .map(|line| {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            value.as_object_mut().unwrap().remove("wall_us");
            format!("{value}\n")
        })
        .collect()
}

/// How many of the demo's samples the runs take.
const SAMPLES: usize = 90;

#[test]
fn three_parts_merged_equal_the_single_run_and_bad_sets_of_parts_are_refused() {
    let work = tempfile::tempdir().unwrap();
    // The demo's first 90 samples (Python, with endless loops and wrong answers among them): five
    // runs of the whole demo would spend most of this test's time on the same samples.
    let tasks = repo().join("demo/tasks.jsonl");
    let samples = work.path().join("samples.jsonl");
    let demo_samples = std::fs::read_to_string(repo().join("demo/samples.jsonl")).unwrap();
    let first: String = demo_samples
        .lines()
        .take(SAMPLES)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&samples, first).unwrap();
    let single = work.path().join("single");
    // A small budget: the demo's endless loops end sooner, and every part has the same.
    run(&tasks, &samples, &single, &["--jobs", "2", "--fuel", "1e9"]);
    let parts: Vec<_> = (0..3)
        .map(|k| work.path().join(format!("part-{k}")))
        .collect();
    for (k, part) in parts.iter().enumerate() {
        run(
            &tasks,
            &samples,
            part,
            &["--jobs", "2", "--fuel", "1e9", "--shard", &format!("{k}/3")],
        );
    }
    let sizes: Vec<usize> = parts
        .iter()
        .map(|p| {
            std::fs::read_to_string(p.join("results.jsonl"))
                .unwrap()
                .lines()
                .count()
        })
        .collect();
    assert!(
        sizes.iter().all(|&n| n > SAMPLES / 6),
        "every part has a share: {sizes:?}"
    );
    assert_eq!(sizes.iter().sum::<usize>(), SAMPLES);

    let merged = work.path().join("merged");
    let output = wasmeval()
        .arg("merge")
        .arg(&merged)
        .args(&parts)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for name in [
        "results.jsonl",
        "summary.json",
        "tasks.jsonl",
        "run.json",
        "samples.jsonl_results.jsonl",
    ] {
        assert_eq!(
            without_times(&merged, name),
            without_times(&single, name),
            "{name}"
        );
    }

    let refused = |dirs: &[&Path]| {
        let output = wasmeval()
            .arg("merge")
            .arg(work.path().join("no"))
            .args(dirs)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    assert!(refused(&[&parts[0], &parts[2]]).contains("parts missing: 1/3"));
    let twice = refused(&[&parts[0], &parts[1], &parts[2], &parts[1]]);
    assert!(twice.contains("part 1/3 is given twice"), "{twice}");
    let other = work.path().join("other");
    run(
        &tasks,
        &samples,
        &other,
        &["--jobs", "2", "--shard", "1/3", "--fuel", "2e9"],
    );
    let foreign = refused(&[&parts[0], &other, &parts[2]]);
    assert!(
        foreign.contains("are not parts of one run: their limits differ"),
        "{foreign}"
    );
    assert!(refused(&[&single]).contains("not a part of a split run"));
}
