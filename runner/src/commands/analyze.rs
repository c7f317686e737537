//! `wasmeval analyze`: static metrics ([`crate::analysis`]) of every sample and of its task's
//! reference, without running anything. Prints per-sample JSON lines (`--jsonl`) or the
//! generated-versus-reference table (ScenEval's Table IV, all samples counted as one set since no
//! verdicts are read), and the time taken on stderr. Doubles as the metrics' benchmark
//! (`bench/analysis.sh`).

use crate::analysis::{analyze, analyze_or_why};
use crate::input::{read_samples, read_tasks};
use crate::worker_pool::run_pool;
use clap::Args;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use wasmeval_core::code_metrics::{CodeMetrics, NotAnalysed};
use wasmeval_core::reference_tables::Split;
use wasmeval_core::{Sample, Task, TaskId};

/// Flags of `wasmeval analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Tasks file (`.jsonl` or `.jsonl.gz`): prompts, languages and reference solutions.
    #[arg(long, value_name = "FILE")]
    pub tasks: PathBuf,
    /// Samples file (`.jsonl` or `.jsonl.gz`); a completion is appended to its task's prompt.
    #[arg(long, value_name = "FILE")]
    pub samples: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Print one JSON line per sample (`index`, `task_id`, `metrics`) instead of the table.
    #[arg(long)]
    pub jsonl: bool,
}

/// Runs `wasmeval analyze`.
pub fn run(args: AnalyzeArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let tasks = read_tasks(&args.tasks)?;
    let samples: Vec<Sample> = read_samples(&args.samples)?
        .into_iter()
        .map(|(sample, _)| sample)
        .collect();
    let by_id: BTreeMap<&TaskId, &Task> = tasks.iter().map(|t| (&t.id, t)).collect();
    let loaded = started.elapsed();

    let analysing = Instant::now();
    let references: BTreeMap<&TaskId, Option<CodeMetrics>> = tasks
        .iter()
        .map(|t| {
            let reference = t
                .references
                .first()
                .and_then(|r| analyze(t.language, &r.code));
            (&t.id, reference)
        })
        .collect();
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    // Per sample: its metrics or why there are none; `None` for a sample of an unknown task.
    let mut metrics: Vec<Option<Result<CodeMetrics, NotAnalysed>>> = vec![None; samples.len()];
    run_pool(
        samples.iter().enumerate(),
        jobs,
        |(i, sample)| {
            let measured = by_id
                .get(&sample.task_id)
                .map(|task| analyze_or_why(task.language, &sample.program(task)));
            Ok((i, measured))
        },
        |(i, measured)| {
            metrics[i] = measured;
            Ok(())
        },
    )?;
    let analysed = analysing.elapsed();

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.jsonl {
        for (sample, metrics) in samples.iter().zip(&metrics) {
            let line = serde_json::json!({
                "index": sample.index,
                "task_id": sample.task_id,
                "metrics": metrics.as_ref().and_then(|m| m.as_ref().ok()),
            });
            writeln!(out, "{line}")?;
        }
    } else {
        let pairs = samples.iter().zip(&metrics).filter_map(|(sample, m)| {
            let reference = references.get(&sample.task_id)?.as_ref();
            Some((reference, m.as_ref()?.as_ref().map_err(|why| *why)))
        });
        let split = Split::new(pairs);
        writeln!(out, "generated vs reference code: {}", split.coverage())?;
        write!(out, "{}", split.table("all").to_text())?;
    }
    out.flush()?;

    let failed = metrics.iter().filter(|m| !matches!(m, Some(Ok(_)))).count();
    let seconds = analysed.as_secs_f64();
    eprintln!(
        "analysed {} samples and {} references in {:.3} s ({:.0} samples/s, {} jobs; {} not analysable); loading took {:.3} s, total {:.3} s",
        samples.len(),
        references.len(),
        seconds,
        samples.len() as f64 / seconds.max(1e-9),
        jobs,
        failed,
        loaded.as_secs_f64(),
        started.elapsed().as_secs_f64(),
    );
    Ok(())
}
