//! wasmeval-core's integration tests: files written by earlier versions still load, and the
//! readers accept the real public formats.

mod hostile_input;

use std::collections::BTreeSet;
use wasmeval_core::facets::{distribution, ComplexityMetric, Facet};
use wasmeval_core::formats::{jsonl, tasks};
use wasmeval_core::query::Query;
use wasmeval_core::{RunSummary, SampleResult, TestSuite, Verdict};

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
    assert!(summary.pass_at_k.get(1).is_some());
}

#[test]
fn the_demo_covers_every_scenario_dimension() {
    let demo = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/tasks.jsonl"),
    )
    .unwrap();
    let tasks = tasks::parse_tasks("demo/tasks.jsonl", &demo).unwrap();
    assert!(tasks.len() >= 40, "{} tasks", tasks.len());
    assert!(tasks
        .iter()
        .all(|t| !t.references.is_empty() && t.case_count() > 0));
    let distinct = |values: Vec<String>| values.into_iter().collect::<BTreeSet<_>>();
    // At least 8 topics, each on several tasks.
    let topics = distribution(&tasks, Facet::Topic);
    let common = topics.iter().filter(|(_, n)| *n >= 3).count();
    assert!(common >= 8, "{topics:?}");
    let kinds = distinct(
        tasks
            .iter()
            .filter_map(|t| {
                t.metadata
                    .source
                    .as_ref()
                    .map(|s| s.kind.as_str().to_owned())
            })
            .collect(),
    );
    assert!(kinds.len() >= 3, "{kinds:?}");
    let years = distinct(
        tasks
            .iter()
            .filter_map(|t| t.metadata.year.map(|y| y.to_string()))
            .collect(),
    );
    assert!(years.len() >= 4, "{years:?}");
    let buckets = distribution(&tasks, Facet::Complexity(ComplexityMetric::Cyclomatic));
    assert!(buckets.len() >= 3, "{buckets:?}");
    let languages = distinct(
        tasks
            .iter()
            .map(|t| t.language.as_str().to_owned())
            .collect(),
    );
    assert!(
        languages.contains("python") && languages.contains("rust"),
        "{languages:?}"
    );
    let alternatives = tasks
        .iter()
        .filter(|t| {
            t.tests.iter().any(|s| {
                matches!(s, TestSuite::Alternatives { sets, .. } if (2..=4).contains(&sets.len()))
            })
        })
        .count();
    assert!(alternatives >= 5, "{alternatives} MBUPP tasks");

    let mbpp = tasks::parse_tasks("mbpp/tasks.jsonl", &fixture("mbpp/tasks.jsonl")).unwrap();
    assert_eq!(mbpp[0].case_count(), 3);
}

#[test]
fn the_sceneval_fixture_imports_with_its_metadata() {
    let tasks = tasks::parse_tasks("sceneval/tasks.json", &fixture("sceneval/tasks.json")).unwrap();
    assert_eq!(tasks.len(), 5);
    let languages: BTreeSet<&str> = tasks.iter().map(|t| t.language.as_str()).collect();
    assert_eq!(languages, BTreeSet::from(["java", "python"]));
    for task in &tasks {
        let source = task
            .metadata
            .source
            .as_ref()
            .expect("every record names its source");
        assert!(source.name.is_some(), "{}: no source name", task.id);
        assert!(!task.metadata.topics.is_empty(), "{}", task.id);
        assert!(task.metadata.year.is_some(), "{}", task.id);
        assert!(task.complexity().cyclomatic.is_some(), "{}", task.id);
        assert!(!task.references.is_empty(), "{}", task.id);
        assert!(task.case_count() > 0, "{}", task.id);
    }
    let textbook = Query::parse("source=textbook").unwrap();
    assert!(tasks.iter().any(|t| textbook.matches_task(t)));
    assert!(tasks.iter().any(|t| !textbook.matches_task(t)));
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
    assert_eq!(summary.pass_at_k.get(1), Some(0.0));
}
