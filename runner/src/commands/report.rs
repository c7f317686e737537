//! `wasmeval report`: every metric of a run per scenario, as a table, CSV or JSON, and the results
//! bundle the static site opens. All numbers come from wasmeval-core's [`Report`].

use crate::atomic_file;
use crate::commands::run::TASKS_FILE;
use crate::errors::ExpectedError::BadInput;
use crate::input;
use anyhow::Context;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};
use wasmeval_core::facets::Facet;
use wasmeval_core::formats::{jsonl, tasks};
use wasmeval_core::metrics::{ScoreOptions, DEFAULT_ATTEMPT_K};
use wasmeval_core::query::Query;
use wasmeval_core::report::{self, Bundle, Report};
use wasmeval_core::{SampleResult, Task};

/// Flags of `wasmeval report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A run's output folder (with results.jsonl and tasks.jsonl), or a bundle (.json). Several
    /// runs over the same tasks combine into one report; results that name no model are
    /// labelled by their folder's name (`report out/model-a out/model-b --by model`).
    #[arg(value_name = "RESULTS", required = true, num_args = 1..)]
    pub results: Vec<PathBuf>,
    /// Task file, for a results folder written without tasks.jsonl.
    #[arg(long, value_name = "FILE")]
    pub tasks: Option<PathBuf>,
    /// Group by a facet; repeat for a cross product (`--by model --by topic`). `--by failure`
    /// prints the failing samples counted by cause (AssertionError, NameError, compile error,
    /// timeout (fuel), ...) per model instead of the metrics.
    #[arg(long = "by", value_name = "FACET", value_parser = parse_group)]
    pub by: Vec<GroupBy>,
    /// Select tasks and samples; repeat to narrow further. A query, JSON, or @FILE.
    #[arg(long = "where", value_name = "QUERY")]
    pub queries: Vec<String>,
    /// Save the selection (all --where together) as a JSON query file.
    #[arg(long, value_name = "FILE")]
    pub save_query: Option<PathBuf>,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ReportFormat,
    /// The k of each pass@k; repeat for several [default: 1, 10, 100].
    #[arg(long = "k", value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub ks: Vec<u32>,
    /// Attempts allowed by #attempt_k.
    #[arg(long, default_value_t = DEFAULT_ATTEMPT_K, value_name = "K")]
    pub attempts: u32,
    /// Add each pass@k's 95% interval (a bootstrap over tasks) as columns pass@k_low, pass@k_high.
    #[arg(long)]
    pub ci: bool,
    /// Append the generated-versus-reference table (ScenEval's Tables IV and V: static metrics
    /// of the samples beside their tasks' references, for all, correct and incorrect samples)
    /// to the table format; `--format json` always holds it as `comparison`.
    #[arg(long)]
    pub reference_table: bool,
    /// Also write the results bundle (tasks, results, metrics) for the static site.
    #[arg(long, value_name = "FILE")]
    pub bundle: Option<PathBuf>,
    /// Also write a ready-to-host static site: the site's files and this report's bundle as
    /// DIR/bundle.json, which the site opens on start.
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// A note the site shows under its header for whoever opens the bundle (the built-in demo's
    /// says it is synthetic).
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
    /// Reviewers' score files (exported by the site's Review view): prints their scores per
    /// model and property (grouped by --by facets, and split by passed/failed), how often each
    /// model was judged better, and the reviewers' agreement (Cohen's kappa, Krippendorff's alpha).
    #[arg(long = "reviews", value_name = "FILE", num_args = 1..)]
    pub reviews: Vec<PathBuf>,
    /// Write the site's bundle gzipped, as bundle.json.gz (the site inflates it: a 20 MB bundle
    /// travels as about 1 MB from a static host that does not compress). `--bundle FILE.gz` is
    /// always gzipped.
    #[arg(long)]
    pub gzip: bool,
    /// The built site (index.html, wasmeval_web.js, wasmeval_web_bg.wasm) that --site copies
    /// [default: $WASMEVAL_SITE_ASSETS, else web/dist of this source tree].
    #[arg(long, value_name = "DIR", requires = "site")]
    pub site_assets: Option<PathBuf>,
    /// Ship the Python and JavaScript guests with the site (metered for the browser, the Python
    /// standard library in 128 kB chunks fetched only where imports read: about 30 MB
    /// gzipped in all), so that its Playground and "Edit and run" run code in the browser
    /// when no `wasmeval serve` answers. Without it a site carries results only.
    #[arg(long, requires = "site")]
    pub with_runtimes: bool,
}

/// Environment variable naming the built site's folder (see [`ReportArgs::site_assets`]).
pub const SITE_ASSETS_ENV: &str = "WASMEVAL_SITE_ASSETS";

/// Files a built site must have; `xtask site` writes them.
const SITE_FILES: [&str; 3] = ["index.html", "wasmeval_web.js", "wasmeval_web_bg.wasm"];

/// The name of the bundle the site opens on start, beside its index.html.
pub const SITE_BUNDLE: &str = "bundle.json";

/// How `wasmeval report` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Aligned columns and the dataset's distributions.
    Table,
    /// The whole report as JSON.
    Json,
    /// The metrics table as CSV.
    Csv,
}

/// What `--by` names: a facet of the metrics, or the failures table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    /// Group the metrics by this facet.
    Facet(Facet),
    /// Count the failing samples by cause.
    Failure,
}

fn parse_group(text: &str) -> Result<GroupBy, String> {
    match text {
        "failure" | "failures" => Ok(GroupBy::Failure),
        _ => text
            .parse()
            .map(GroupBy::Facet)
            .map_err(|e: String| e.replace("model, task", "model, task, or failure")),
    }
}

impl ReportArgs {
    /// The facets `--by` groups the metrics by (`--by failure` is a table of its own).
    fn facets(&self) -> Vec<Facet> {
        self.by
            .iter()
            .filter_map(|g| match g {
                GroupBy::Facet(f) => Some(*f),
                GroupBy::Failure => None,
            })
            .collect()
    }
}

/// What `report` computes before printing: the inputs read, the selection and the report
/// (also the Python package's `wasmeval.report`).
pub struct Computed {
    /// The tasks read.
    pub tasks: Vec<Task>,
    /// The results read.
    pub results: Vec<SampleResult>,
    /// Where each run's results start, when several were combined.
    pub runs: Vec<report::RunPart>,
    /// The selection in force.
    pub query: Query,
    /// The report of that selection.
    pub report: Report,
}

/// Reads the inputs `args` name and scores them as `report` does (saving the query when asked).
pub fn compute(args: &ReportArgs) -> anyhow::Result<Computed> {
    let report::Combined {
        tasks,
        results,
        runs,
    } = load_all(&args.results, args.tasks.as_deref())?;
    let mut query = Query::default();
    for text in &args.queries {
        query = query.and(parse_query(text)?);
    }
    if let Some(path) = &args.save_query {
        atomic_file::write(path, &serde_json::to_vec_pretty(&query)?)
            .with_context(|| format!("cannot save the query to {}", path.display()))?;
    }
    let defaults = ScoreOptions::default();
    let options = ScoreOptions {
        ks: if args.ks.is_empty() {
            defaults.ks
        } else {
            args.ks.clone()
        },
        attempt_k: args.attempts.max(1),
        max_rate: None,
        intervals: args.ci,
    };
    let report = Report::with_options(&tasks, &results, &query, &args.facets(), &options);
    Ok(Computed {
        tasks,
        results,
        runs,
        query,
        report,
    })
}

/// Runs `wasmeval report`.
pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let Computed {
        tasks,
        results,
        runs,
        query,
        report,
    } = compute(&args)?;
    warn_about_ks(&args.ks, &results);
    let models: Vec<String> = results
        .iter()
        .filter_map(|r| r.model.clone())
        .collect::<std::collections::BTreeSet<String>>()
        .into_iter()
        .collect();
    if (report.tasks == 0 || report.overall.samples == 0) && query != Query::default() {
        for line in wasmeval_core::query::explain_empty(&query, &tasks, &models) {
            eprintln!("wasmeval: the selection is empty: {line}");
        }
    }
    if !args.reviews.is_empty() {
        let text = reviews_text(&args, &tasks, &results, &args.facets())?;
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
        return Ok(());
    }
    let failures = args.by.contains(&GroupBy::Failure).then(|| {
        let prepared = report::Prepared::new(&tasks, &results);
        report::failures_by_cause(&prepared, &tasks, &results, &query, &models)
    });
    let text = match (args.format, &failures) {
        (ReportFormat::Table, Some(table)) => table.to_text(),
        (ReportFormat::Csv, Some(table)) => table.to_csv(),
        (ReportFormat::Json, Some(table)) => serde_json::to_string_pretty(table)? + "\n",
        (ReportFormat::Table, None) => table_text(&report, args.reference_table),
        (ReportFormat::Json, None) => serde_json::to_string_pretty(&report)? + "\n",
        (ReportFormat::Csv, None) => report.table().to_csv(),
    };
    if args.bundle.is_some() || args.site.is_some() {
        // Check the site's files before the (possibly long) serialisation.
        let assets = match &args.site {
            Some(_) => Some(site_assets(args.site_assets.as_deref())?),
            None => None,
        };
        let about = about(&args.results, args.note.as_deref());
        let bundle = serde_json::to_vec(
            &Bundle::new(tasks, results)
                .with_about(about)
                .with_runs(runs),
        )?;
        if let Some(path) = &args.bundle {
            let gzipped = path.extension().is_some_and(|e| e == "gz");
            let bytes = if gzipped {
                gzip(&bundle)?
            } else {
                bundle.clone()
            };
            atomic_file::write(path, &bytes)
                .with_context(|| format!("cannot write the bundle {}", path.display()))?;
            eprintln!("wasmeval: bundle written to {}", path.display());
        }
        if let (Some(dir), Some(assets)) = (&args.site, assets) {
            write_site(&assets, dir, &bundle, args.gzip)?;
            if args.with_runtimes {
                let home = crate::cli::wasmeval_home();
                let written = crate::site_guests::write(
                    &home.join("python"),
                    &home.join("js"),
                    dir,
                    &home.join("metered"),
                    &home.join("modules"),
                )?;
                for (guest, module, files) in written.guests {
                    eprintln!(
                        "wasmeval: {guest} guest for the browser: {:.1} MB module, {:.1} MB of files in chunks",
                        module as f64 / 1e6,
                        files as f64 / 1e6
                    );
                }
            } else {
                // A results-only site: guests of an earlier build would be stale.
                let _ = std::fs::remove_dir_all(dir.join("runtimes"));
            }
            eprintln!(
                "wasmeval: site written to {} (serve the folder over HTTP, e.g. `python3 -m http.server -d {}`)",
                dir.display(),
                dir.display()
            );
        }
    }
    // A closed pipe (`| head`) is not an error.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(())
}

/// `report --reviews`: the reviewers' files read, checked against these results and merged,
/// then their tables (or JSON: the report by facets and the rows split by result).
fn reviews_text(
    args: &ReportArgs,
    tasks: &[Task],
    results: &[SampleResult],
    facets: &[Facet],
) -> anyhow::Result<String> {
    use wasmeval_core::review::{ReviewFile, ReviewSummary, Reviews};
    let known: std::collections::BTreeSet<(wasmeval_core::TaskId, u64)> = results
        .iter()
        .map(|r| (r.task_id.clone(), r.index))
        .collect();
    let mut files = Vec::new();
    for path in &args.reviews {
        let text = input::read_text(path)?;
        let file = ReviewFile::parse(&text, Some(&known))
            .map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
        files.push((path.display().to_string(), file));
    }
    let reviews = Reviews::merge(files).map_err(BadInput)?;
    for note in &reviews.notes {
        eprintln!("wasmeval: {note}");
    }
    let summary = ReviewSummary::new(&reviews, tasks, results, facets);
    Ok(match args.format {
        ReportFormat::Json => {
            serde_json::to_string_pretty(&serde_json::json!({
                "reviews": summary.by_facets,
                "by_result": summary.by_result.rows,
                "epam": summary.epam,
            }))? + "\n"
        }
        format => {
            let mut text = format!(
                "{} review file(s), rubric `{}`, reviewers: {}\n",
                reviews.files.len(),
                reviews.rubric.id,
                summary.by_facets.reviewers.join(", ")
            );
            for (title, table) in summary.tables() {
                text.push_str(&format!("\n{title}:\n"));
                text.push_str(&match format {
                    ReportFormat::Csv => table.to_csv(),
                    _ => table.to_text(),
                });
            }
            text
        }
    })
}

/// The built site's folder: `--site-assets`, else [`SITE_ASSETS_ENV`], else `web/dist` of the
/// source tree this binary was built from; an error names the folder and how to build it (bad
/// input when the flag or the variable named the folder).
pub(crate) fn site_assets(flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    let (dir, named) = match (flag, std::env::var_os(SITE_ASSETS_ENV)) {
        (Some(dir), _) => (dir.to_owned(), true),
        (None, Some(dir)) if !dir.is_empty() => (PathBuf::from(dir), true),
        _ => (
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/dist"),
            false,
        ),
    };
    let missing: Vec<&str> = SITE_FILES
        .into_iter()
        .filter(|file| !dir.join(file).is_file())
        .collect();
    if !missing.is_empty() {
        let message = format!(
            "the static site is not built: {} has no {} (build it with scripts/build-site, \
             i.e. `cargo run --release -p xtask -- site`, or point --site-assets or {SITE_ASSETS_ENV} \
             at a built site)",
            dir.display(),
            missing.join(", ")
        );
        // A folder the user named is bad input; this source tree's own, an install not done.
        return Err(match named {
            true => BadInput(message).into(),
            false => anyhow::anyhow!(message),
        });
    }
    Ok(dir)
}

/// Copies the built site from `assets` into `dir` and writes `bundle` as its `bundle.json`.
fn write_site(assets: &Path, dir: &Path, bundle: &[u8], gzipped: bool) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    copy_tree(assets, dir)?;
    // One bundle only: the site opens bundle.json before bundle.json.gz.
    let (name, stale, bytes) = if gzipped {
        (
            format!("{SITE_BUNDLE}.gz"),
            SITE_BUNDLE.to_owned(),
            gzip(bundle)?,
        )
    } else {
        (
            SITE_BUNDLE.to_owned(),
            format!("{SITE_BUNDLE}.gz"),
            bundle.to_vec(),
        )
    };
    let _ = std::fs::remove_file(dir.join(stale));
    let path = dir.join(name);
    atomic_file::write(&path, &bytes)
        .with_context(|| format!("cannot write the bundle {}", path.display()))
}

/// What a bundle of `paths` (run folders or bundles) says of itself: the runs' names, the date
/// of the newest results, and `note`, else the demo's own note when the tasks are the built-in
/// demo's.
pub(crate) fn about(paths: &[PathBuf], note: Option<&str>) -> report::About {
    let names: Vec<&str> = paths.iter().map(|p| run_label(p)).collect();
    let newest = paths
        .iter()
        .filter_map(|path| {
            let file = if path.is_dir() {
                path.join(crate::store::RESULTS)
            } else {
                path.clone()
            };
            std::fs::metadata(file).and_then(|m| m.modified()).ok()
        })
        .max();
    let date = newest
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| report::utc_date(d.as_secs() as i64));
    let note = match note {
        Some(note) => Some(note.to_owned()),
        None => paths
            .iter()
            .any(|p| is_demo_run(p))
            .then(|| report::DEMO_NOTE.to_owned()),
    };
    report::About {
        name: names.join(" + "),
        date,
        note,
    }
}

/// A run folder's or bundle's name, as `report A B` labels runs.
fn run_label(path: &Path) -> &str {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("results");
    report::run_name(name)
}

/// Whether `dir` is a run over the built-in demo's tasks (its run.json has their hash; the demo
/// is looked for in the source tree this binary was built from).
pub(crate) fn is_demo_run(dir: &Path) -> bool {
    use sha2::Digest;
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/tasks.jsonl");
    let (Ok(manifest), Ok(demo)) = (std::fs::read(dir.join("run.json")), std::fs::read(demo))
    else {
        return false;
    };
    let hash = format!("{:x}", sha2::Sha256::digest(&demo));
    serde_json::from_slice::<serde_json::Value>(&manifest)
        .ok()
        .and_then(|m| m.get("tasks_sha256")?.as_str().map(|h| h == hash))
        .unwrap_or(false)
}

/// `bytes` gzipped.
fn gzip(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

/// The built site's demo bundle, which a researcher's site does not ship.
const DEMO_BUNDLE: &str = "demo-bundle.json";

/// Copies every file under `from` into `to`; a built site's own bundle.json and its demo
/// bundle are left out.
fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    let entries =
        std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", from.display()))?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if (entry.file_name() == SITE_BUNDLE
            || entry.file_name() == *format!("{SITE_BUNDLE}.gz")
            || entry.file_name() == DEMO_BUNDLE)
            && from.join("index.html").is_file()
        {
            continue;
        }
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)
                .with_context(|| format!("cannot create {}", target.display()))?;
            copy_tree(&source, &target)?;
        } else {
            std::fs::copy(&source, &target).with_context(|| {
                format!("cannot copy {} to {}", source.display(), target.display())
            })?;
        }
    }
    Ok(())
}

/// Warns about each asked-for k that no pass@k can be computed for: pass@k needs k samples of
/// every (task, model), and the report leaves the column out otherwise.
fn warn_about_ks(ks: &[u32], results: &[SampleResult]) {
    let mut counts: std::collections::HashMap<(&str, Option<&str>), u64> = Default::default();
    for result in results {
        *counts
            .entry((result.task_id.0.as_str(), result.model.as_deref()))
            .or_default() += 1;
    }
    let fewest = counts.values().copied().min().unwrap_or(0);
    for &k in ks.iter().filter(|&&k| u64::from(k) > fewest) {
        eprintln!(
            "wasmeval: warning: pass@{k} is left out: it needs at least {k} samples of every task \
             (per model), and the fewest here is {fewest}"
        );
    }
}

/// A `--where` value: a query, JSON, or `@FILE` holding one.
fn parse_query(text: &str) -> anyhow::Result<Query> {
    let (source, query_text) = match text.strip_prefix('@') {
        Some(path) => (
            path.to_owned(),
            std::fs::read_to_string(path).map_err(|e| {
                BadInput(format!(
                    "--where @{path}: cannot read {path} ({e}); `@FILE` names a query file \
                     written by --save-query"
                ))
            })?,
        ),
        None => ("--where".to_owned(), text.to_owned()),
    };
    Query::parse(&query_text).map_err(|e| BadInput(format!("{source}: {e}")).into())
}

/// Tasks and results of several run folders or bundles, combined (see [`report::combine_runs`]).
pub(crate) fn load_all(
    paths: &[PathBuf],
    tasks_file: Option<&Path>,
) -> anyhow::Result<report::Combined> {
    let name_of = |path: &Path| match path.file_name() {
        Some(name) => report::run_name(&name.to_string_lossy()).to_owned(),
        None => path.display().to_string(),
    };
    let names: Vec<String> = paths.iter().map(|p| name_of(p)).collect();
    let mut runs = Vec::new();
    for (path, name) in paths.iter().zip(&names) {
        let (tasks, results, parts) = load_parts(path, tasks_file)?;
        // Two folders of one name (a/out, b/out) are told apart by their whole paths.
        let unique = names.iter().filter(|n| *n == name).count() == 1;
        runs.push(report::NamedRun {
            name: if unique {
                name.clone()
            } else {
                path.display().to_string()
            },
            tasks,
            results,
            parts,
        });
    }
    report::combine_runs(runs).map_err(|e| BadInput(e).into())
}

/// Tasks and results from a run folder or a bundle file.
pub(crate) fn load(
    path: &Path,
    tasks_file: Option<&Path>,
) -> anyhow::Result<(Vec<Task>, Vec<SampleResult>)> {
    load_parts(path, tasks_file).map(|(tasks, results, _)| (tasks, results))
}

/// [`load`], with the runs a bundle combines.
fn load_parts(
    path: &Path,
    tasks_file: Option<&Path>,
) -> anyhow::Result<(Vec<Task>, Vec<SampleResult>, Vec<report::RunPart>)> {
    if !path.exists() {
        return Err(BadInput(format!(
            "{}: no such folder or file; give a run's output folder (the --out of `wasmeval run`) \
             or a bundle (.json)",
            path.display()
        ))
        .into());
    }
    if path.is_file() {
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with(".jsonl"))
        {
            let folder = path
                .parent()
                .map_or(".".into(), |p| p.display().to_string());
            return Err(BadInput(format!(
                "{}: report reads a run's output folder or a bundle (.json), not a .jsonl file; \
                 give the folder that holds results.jsonl and tasks.jsonl (`wasmeval report {folder}`)",
                path.display()
            ))
            .into());
        }
        let text = input::read_text(path)?;
        let bundle =
            Bundle::parse(&text).map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
        return Ok((bundle.tasks, bundle.results, bundle.runs));
    }
    let results_path = path.join("results.jsonl");
    if !results_path.is_file() {
        return Err(BadInput(format!(
            "{}: not a run's output folder (it has no results.jsonl); give the --out folder of \
             `wasmeval run`, or a bundle (.json)",
            path.display()
        ))
        .into());
    }
    let results_text = input::read_text(&results_path)?;
    let results: Vec<SampleResult> =
        jsonl::parse_lines(&results_path.display().to_string(), &results_text)?;
    let tasks_path = tasks_file
        .map(Path::to_owned)
        .unwrap_or_else(|| path.join(TASKS_FILE));
    let tasks_text = match tasks_file {
        // The user's own --tasks names its file.
        Some(_) => input::read_text(&tasks_path)?,
        None if !tasks_path.is_file() => {
            return Err(BadInput(format!(
                "{} has no {TASKS_FILE}: pass --tasks with the run's task file",
                path.display()
            ))
            .into())
        }
        None => input::read_text(&tasks_path)?,
    };
    let tasks = tasks::parse_tasks(&tasks_path.display().to_string(), &tasks_text)?;
    Ok((tasks, results, Vec::new()))
}

/// The metrics table, then the selection's distributions, and with `reference_table` the
/// generated-versus-reference table (else a line naming the flag).
fn table_text(report: &Report, reference_table: bool) -> String {
    let mut text = format!("{}\n\n", report.headline());
    text.push_str(&report.table().to_text());
    let hidden = report.hidden_columns();
    if !hidden.is_empty() {
        text.push_str(&format!("\nnot shown: {}\n", hidden.join("; ")));
    }
    if let Some(line) = wasmeval_core::results::judged_by_line(&report.judged_by) {
        text.push_str(&format!("\n{line}\n"));
    }
    if report.results_without_task > 0 {
        text.push_str(&format!(
            "\n{} results name tasks that are not in the task file (not scored)\n",
            report.results_without_task
        ));
    }
    for distribution in &report.distributions {
        let counts: Vec<String> = distribution
            .counts
            .iter()
            .map(|(label, n)| format!("{label} {n}"))
            .collect();
        text.push_str(&format!(
            "\ntasks by {}: {}",
            distribution.facet,
            counts.join(", ")
        ));
    }
    text.push('\n');
    match &report.comparison {
        Some(comparison) if reference_table => {
            text.push_str(&format!(
                "\ngenerated vs reference code: {}\n",
                comparison.all.coverage()
            ));
            text.push_str(&comparison.table().to_text());
        }
        Some(_) => text.push_str(
            "\ngenerated vs reference code (static metrics): --reference-table shows the table\n",
        ),
        None => {}
    }
    text
}
