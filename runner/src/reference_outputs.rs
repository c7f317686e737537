//! Expected values from the tasks' reference solutions (EvalPlus's HumanEval+ and MBPP+): each
//! waiting case's expected value is the reference's output on its arguments, computed once in the
//! sandbox and cached by content in `$WASMEVAL_HOME/reference-outputs`, so that `run`, `serve`
//! and the Python package judge against the same stored values (and `run` writes them into its
//! `tasks.jsonl`, which `report`'s bundle carries to the site). Core's `reference_outputs` is the
//! pure part: the job, the report, how the values go into a task.
//!
//! The reference runs in the Python harness as a sample's program does, under a budget of its own
//! ([`computing_limits`]): an input on which it raises or does not finish is a defect of the
//! dataset, left out and named. Its fuel on the cases kept gives the task's time limit (core's
//! `budget_seconds`: four times it, at least four seconds of native CPython).

use crate::evaluator::Evaluator;
use crate::languages::fresh_token;
use crate::languages::python::PythonRuntime;
use crate::sandbox::{Limits, Sandbox};
use anyhow::Context;
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use wasmeval_core::judging::Outcome;
use wasmeval_core::reference_outputs::{
    self as core, apply, pending_cases, read_answers, reference_job, to_digest, Answer, Ask,
    Defect, Output, Outputs,
};
use wasmeval_core::results::Verdict;
use wasmeval_core::{Task, TaskId};

/// The cache's folder, under wasmeval's home.
pub fn cache_dir() -> PathBuf {
    crate::cli::wasmeval_home().join("reference-outputs")
}

/// Fuel a reference may burn computing one task's outputs: about 350 s of native CPython, far
/// above any sample's budget (EvalPlus runs its references without a limit).
pub const COMPUTING_FUEL: u64 = 20_000_000_000_000;

/// The limits of computing the reference outputs: [`COMPUTING_FUEL`], a wall clock that the fuel
/// ends first, room for the values reported, and the run's memory limit (an input the reference
/// cannot finish within it could not be passed by a sample either).
pub fn computing_limits(run: Limits) -> Limits {
    Limits {
        fuel: COMPUTING_FUEL,
        timeout: Duration::from_secs(3 * 3600),
        output: 512 << 20,
        fuel_from_time_limit: false,
        ..run
    }
}

/// What [`resolve`] did.
#[derive(Debug, Default)]
pub struct Resolution {
    /// Tasks whose cases waited for their reference.
    pub tasks: usize,
    /// Of those, how many had their outputs in the cache.
    pub cached: usize,
    /// Cases given an expected value.
    pub cases: usize,
    /// The cases left out, per task.
    pub defects: Vec<(TaskId, Defect)>,
    /// The time limit each task got from its reference's fuel, in seconds of native CPython.
    pub budgets: Vec<(TaskId, f64)>,
    /// Time spent computing (not reading the cache).
    pub computing: Duration,
}

impl Resolution {
    /// What a run says about it on stderr (nothing when no task waited).
    pub fn lines(&self) -> Vec<String> {
        if self.tasks == 0 {
            return Vec::new();
        }
        let computed = self.tasks - self.cached;
        let mut lines = vec![format!(
            "expected outputs of {} {} from {} reference {} ({} cases): {} from the cache, {} \
             computed in the sandbox{}",
            self.tasks,
            plural(self.tasks, "task", "tasks"),
            plural(self.tasks, "its", "their"),
            plural(self.tasks, "solution", "solutions"),
            self.cases,
            self.cached,
            computed,
            match computed {
                0 => String::new(),
                _ => format!(" in {:.1} s", self.computing.as_secs_f64()),
            }
        )];
        if !self.defects.is_empty() {
            lines.push(format!(
                "{} {} left out: the reference does not pass {} in the sandbox (a defect of the \
                 dataset, or beyond the run's limits):",
                self.defects.len(),
                plural(self.defects.len(), "input", "inputs"),
                plural(self.defects.len(), "it", "them"),
            ));
            lines.extend(
                self.defects
                    .iter()
                    .map(|(task, defect)| format!("  {task} {}: {}", defect.case, defect.reason)),
            );
        }
        lines
    }

    /// The budget of the tasks it set, as `run`'s budget line says it: `None` without such tasks.
    pub fn budget_part(&self) -> Option<String> {
        let floor = self
            .budgets
            .iter()
            .filter(|(_, s)| *s <= core::FLOOR_SECONDS)
            .count();
        let largest = self
            .budgets
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))?;
        // As the sample gets it: at most the ceiling of every time limit's fuel.
        let fuel = |seconds: f64| {
            let (units, _) = wasmeval_core::evaluation::time_limit_budget(
                wasmeval_core::Language::Python,
                Some(seconds),
            )
            .unwrap_or_default();
            let ceiling = match units == wasmeval_core::evaluation::TIME_LIMIT_FUEL_CEILING {
                true => ", the ceiling",
                false => "",
            };
            format!("{:.1e} fuel{ceiling}", units as f64).replace(".0e", "e")
        };
        let mut part = format!(
            "{} × the reference's fuel, at least {} s of native CPython ({}), for {} {} \
             (EvalPlus's factor and floor)",
            core::FUEL_FACTOR,
            core::FLOOR_SECONDS,
            fuel(core::FLOOR_SECONDS),
            self.budgets.len(),
            plural(self.budgets.len(), "task", "tasks"),
        );
        if floor < self.budgets.len() {
            part.push_str(&format!(
                ": {floor} at the floor, the largest {} s ({}, {})",
                largest.1,
                fuel(largest.1),
                largest.0
            ));
        }
        Some(part)
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Gives every waiting case of the tasks `wanted` accepts its expected value from the task's
/// reference (from the cache, or computed on `workers` threads and cached), leaves out the cases
/// the reference does not pass, and sets those tasks' time limits from the reference's fuel.
pub fn resolve(
    evaluator: &Evaluator<'_>,
    tasks: &mut [Task],
    wanted: impl Fn(&Task) -> bool,
    workers: usize,
) -> anyhow::Result<Resolution> {
    let waiting: Vec<usize> = (0..tasks.len())
        .filter(|&i| wanted(&tasks[i]) && !pending_cases(&tasks[i]).is_empty())
        .collect();
    let mut resolution = Resolution {
        tasks: waiting.len(),
        ..Resolution::default()
    };
    if waiting.is_empty() {
        return Ok(resolution);
    }
    let python = evaluator.python.as_ref().context(
        "tasks whose expected values come from their reference solutions need the Python runtime",
    )?;
    let limits = computing_limits(evaluator.limits);
    let started = Instant::now();
    let to_compute = waiting
        .iter()
        .filter(|&&i| {
            cache_key(python, &tasks[i], &limits).is_ok_and(|key| !cache_path(&key).exists())
        })
        .count();
    if to_compute > 0 {
        eprintln!(
            "wasmeval: computing the expected outputs of {to_compute} {} from {} reference {} in \
             the sandbox (once: cached in {})",
            plural(to_compute, "task", "tasks"),
            plural(to_compute, "its", "their"),
            plural(to_compute, "solution", "solutions"),
            cache_dir().display()
        );
    }
    let mut found: Vec<(usize, Outputs, bool)> = Vec::new();
    {
        let tasks: &[Task] = tasks;
        crate::worker_pool::run_pool(
            waiting.iter().copied(),
            workers,
            |i| {
                let (outputs, cached) = outputs_of(python, evaluator.sandbox, &tasks[i], limits)
                    .with_context(|| {
                        format!("computing the expected outputs of {}", tasks[i].id)
                    })?;
                Ok((i, outputs, cached))
            },
            |done| {
                found.push(done);
                Ok(())
            },
        )?;
    }
    found.sort_by_key(|(i, _, _)| *i);
    for (i, outputs, cached) in found {
        let task = &mut tasks[i];
        resolution.cached += usize::from(cached);
        resolution.cases += outputs.cases.len();
        let applied = apply(task, &outputs)
            .map_err(|e| anyhow::anyhow!("the cached outputs of {} do not fit it: {e}", task.id))?;
        resolution.cases -= applied.defects.len();
        resolution
            .defects
            .extend(applied.defects.into_iter().map(|d| (task.id.clone(), d)));
        resolution
            .budgets
            .push((task.id.clone(), applied.time_limit));
    }
    if resolution.cached < resolution.tasks {
        resolution.computing = started.elapsed();
    }
    Ok(resolution)
}

fn cache_path(key: &str) -> PathBuf {
    cache_dir().join(format!("{key}.json"))
}

/// The cache key of `task`'s outputs: its core key material, the harness, the interpreter and
/// the memory limit (which decides the inputs a reference cannot finish).
fn cache_key(python: &PythonRuntime, task: &Task, limits: &Limits) -> anyhow::Result<String> {
    let material = core::key_material(task).map_err(|e| anyhow::anyhow!("{}: {e}", task.id))?;
    let mut hash = Sha256::new();
    for part in [
        material.as_bytes(),
        wasmeval_core::evaluation::python::HARNESS.as_bytes(),
        python.sha256().as_bytes(),
        limits.memory.to_string().as_bytes(),
    ] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    Ok(format!("{:x}", hash.finalize()))
}

/// `task`'s outputs from the cache, or computed and cached; with whether they were cached.
fn outputs_of(
    python: &PythonRuntime,
    sandbox: &Sandbox,
    task: &Task,
    limits: Limits,
) -> anyhow::Result<(Outputs, bool)> {
    let path = cache_path(&cache_key(python, task, &limits)?);
    if let Ok(bytes) = std::fs::read(&path) {
        // A file that does not read (cut short by a crash of an older version) is computed again.
        if let Ok(outputs) = serde_json::from_slice::<Outputs>(&bytes) {
            if outputs.cases.len() == pending_cases(task).len() {
                return Ok((outputs, true));
            }
        }
    }
    let outputs = compute(python, sandbox, task, limits)?;
    std::fs::create_dir_all(cache_dir())
        .with_context(|| format!("cannot create {}", cache_dir().display()))?;
    crate::atomic_file::write(&path, &serde_json::to_vec(&outputs)?)?;
    Ok((outputs, false))
}

/// Runs `task`'s reference on its waiting cases until each has an output or a defect: values
/// first; a case that raised (or whose value could not be reported) again for its digest; the
/// largest values again as digests (core's `to_digest`); then, when that took more than one run,
/// once more over the cases kept, for the fuel a sample's run of them takes.
fn compute(
    python: &PythonRuntime,
    sandbox: &Sandbox,
    task: &Task,
    limits: Limits,
) -> anyhow::Result<Outputs> {
    let waiting = pending_cases(task);
    let mut ask = vec![Ask::Value; waiting.len()];
    let mut outputs: Vec<Option<Output>> = vec![None; waiting.len()];
    let mut runs: Vec<u64> = Vec::new();
    let mut digests_chosen = false;
    loop {
        let todo: Vec<usize> = (0..waiting.len())
            .filter(|&i| outputs[i].is_none())
            .collect();
        if todo.is_empty() {
            if digests_chosen {
                break;
            }
            digests_chosen = true;
            let values: Vec<(usize, &serde_json::Value)> = (0..waiting.len())
                .filter_map(|i| match (&outputs[i], ask[i]) {
                    (Some(Output::Value(value)), Ask::Value) => Some((i, value)),
                    _ => None,
                })
                .collect();
            for i in to_digest(&values) {
                ask[i] = Ask::Digest;
                outputs[i] = None;
            }
            continue;
        }
        let asked: Vec<_> = todo.iter().map(|&i| (waiting[i], ask[i])).collect();
        let token = fresh_token()?;
        let job = reference_job(task, &asked, &token, python.harness_code())
            .map_err(|e| anyhow::anyhow!("{}: {e}", task.id))?;
        let execution = python.run_job(sandbox, &job, limits)?;
        runs.push(execution.fuel);
        for (answer, &i) in read_answers(asked.len(), &token, &execution)
            .into_iter()
            .zip(&todo)
        {
            match (answer, ask[i]) {
                (Answer::Value(value), _) => outputs[i] = Some(Output::Value(value)),
                // A value too large or too deep for `encode` raises there: its digest may do.
                (Answer::Raised(_), Ask::Value) => ask[i] = Ask::Digest,
                (Answer::Raised(message), Ask::Digest) => {
                    outputs[i] = Some(Output::Defect(raised(&message, &limits)))
                }
                (Answer::Cut(outcome), Ask::Value) if outcome.verdict == Verdict::OutputLimit => {
                    ask[i] = Ask::Digest
                }
                (Answer::Cut(outcome), _) => {
                    outputs[i] = Some(Output::Defect(not_finished(&outcome)))
                }
                (Answer::NotReached, _) => {}
            }
        }
    }
    let fuel = match runs.as_slice() {
        [only] => *only,
        _ => measure(python, sandbox, task, &waiting, &ask, &outputs, limits)?,
    };
    Ok(Outputs {
        // (Each run answers or cuts every case it asks: none is left without an output.)
        cases: outputs
            .into_iter()
            .map(|o| o.unwrap_or_else(|| Output::Defect("no output".into())))
            .collect(),
        fuel,
    })
}

/// The reference's fuel in one run over the cases kept, each asked as it was answered.
fn measure(
    python: &PythonRuntime,
    sandbox: &Sandbox,
    task: &Task,
    waiting: &[(usize, usize)],
    ask: &[Ask],
    outputs: &[Option<Output>],
    limits: Limits,
) -> anyhow::Result<u64> {
    let asked: Vec<_> = (0..waiting.len())
        .filter(|&i| matches!(outputs[i], Some(Output::Value(_))))
        .map(|i| (waiting[i], ask[i]))
        .collect();
    if asked.is_empty() {
        return Ok(0);
    }
    let token = fresh_token()?;
    let job = reference_job(task, &asked, &token, python.harness_code())
        .map_err(|e| anyhow::anyhow!("{}: {e}", task.id))?;
    Ok(python.run_job(sandbox, &job, limits)?.fuel)
}

/// Why an input whose reference raised `message` has no output.
fn raised(message: &str, limits: &Limits) -> String {
    match message.starts_with("MemoryError") {
        true => format!(
            "the reference runs out of memory within the run's limit of {} MiB ({message})",
            limits.memory >> 20
        ),
        false => format!("the reference raised: {message}"),
    }
}

fn not_finished(outcome: &Outcome) -> String {
    format!(
        "the reference did not finish within {:.0e} fuel and the run's memory limit: {}",
        COMPUTING_FUEL as f64,
        outcome
            .message
            .as_deref()
            .unwrap_or(outcome.verdict.as_str())
    )
}
