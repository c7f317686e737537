//! wasmeval-core's integration tests: files written by earlier versions still load, and the
//! readers accept the real public formats.

use wasmeval_core::formats::{jsonl, tasks};
use wasmeval_core::{RunSummary, SampleResult, Verdict};

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn format_version_1_results_and_summary_still_load() {
    let results: Vec<SampleResult> =
        jsonl::parse_lines("results_v1.jsonl", &fixture("formats/results_v1.jsonl")).unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0].format_version, 1);
    assert_eq!(results[0].verdict, Verdict::RuntimeError);
    assert_eq!(results[0].cases[0].name, "check");
    let summary: RunSummary = serde_json::from_str(&fixture("formats/summary_v1.json")).unwrap();
    assert_eq!(summary.samples, 95);
    assert!(summary.pass_at_k.contains_key("pass@1"));
}

#[test]
fn the_demo_and_fixture_task_files_parse() {
    let demo = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/tasks.jsonl"),
    )
    .unwrap();
    let demo_tasks = tasks::parse_tasks("demo/tasks.jsonl", &demo).unwrap();
    assert!(demo_tasks.len() >= 15);
    assert!(demo_tasks
        .iter()
        .all(|t| t.case_count() == 1 && !t.references.is_empty()));
    let mbpp = tasks::parse_tasks("mbpp/tasks.jsonl", &fixture("mbpp/tasks.jsonl")).unwrap();
    assert_eq!(mbpp[0].case_count(), 3);
}

#[test]
fn summary_counts_verdicts_and_lists_tasks_without_samples() {
    let task_text = fixture("mbpp/tasks.jsonl");
    let mut all = tasks::parse_tasks("t", &task_text).unwrap();
    let mut second = all[0].clone();
    second.id = "other".into();
    all.push(second);
    let results: Vec<SampleResult> =
        jsonl::parse_lines("r", &fixture("formats/results_v1.jsonl")).unwrap();
    let results: Vec<SampleResult> = results
        .into_iter()
        .map(|r| SampleResult {
            task_id: all[0].id.clone(),
            ..r
        })
        .collect();
    let summary = RunSummary::new(&all, &results, Default::default());
    assert_eq!(summary.samples, 2);
    assert_eq!(summary.tasks, 1);
    assert_eq!(summary.tasks_without_samples, vec!["other".into()]);
    assert_eq!(
        summary.verdicts[&Verdict::RuntimeError] + summary.verdicts[&Verdict::WrongAnswer],
        2
    );
    assert_eq!(summary.pass_at_k["pass@1"], 0.0);
}
