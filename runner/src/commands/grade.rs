//! `wasmeval grade`: the two-stage LLM judge. For each sample an evaluator call writes a report
//! against the accuracy and completeness levels; a separate grader call reads only that report
//! and answers a grade 1-4 for each (prompts and parsing: `wasmeval_core::generation::grading`).
//! An answer that does not parse is asked again, then the sample is recorded as ungraded: a
//! grade is never guessed.
//!
//! Each graded sample is appended to `<out>.partial` as it finishes, so a kill loses only the
//! samples in flight; at the end the samples are written to `--out` in their order, with
//! `grades` (which the EPAM score reads) and `grading` (report, answer, level probabilities).

use crate::cli::ModelArgs;
use crate::commands::generate::{open_appending, Progress};
use crate::errors::ExpectedError::BadInput;
use crate::input::{self, SampleLine};
use crate::model_client::{Api, ClientError, Message, ModelClient, Prompt, Sampling};
use anyhow::Context;
use clap::Args;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use wasmeval_core::generation::grading::{self, GradingRecord};
use wasmeval_core::{Grades, Language, Sample, Task, TaskId};

/// Flags of `wasmeval grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// The samples to grade (any samples file `run` reads).
    #[arg(long, value_name = "FILE")]
    pub samples: PathBuf,
    /// Their task file.
    #[arg(long, value_name = "FILE")]
    pub tasks: PathBuf,
    /// Language of the tasks of a benchmark that does not fix one (PSB2).
    #[arg(long, default_value = "python", value_parser = parse_language)]
    pub language: Language,
    /// The graded samples file [default: the samples file's name with `.graded.jsonl`].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The judge model's server (the chat API).
    #[command(flatten)]
    pub model: ModelArgs,
    /// Grader calls per sample before it is recorded as ungraded.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub tries: u32,
    /// Longest report of the evaluator stage, in tokens.
    #[arg(long, default_value_t = 512, value_name = "N")]
    pub max_tokens: u32,
    /// JSON fields added to the grader stage's requests only, as text or @FILE (a grammar that
    /// forces the two grade lines, on servers that take one).
    #[arg(long, value_name = "JSON|@FILE")]
    pub grader_extra_body: Option<String>,
}

fn parse_language(name: &str) -> Result<Language, String> {
    Language::parse(name).ok_or_else(|| format!("unknown language `{name}`"))
}

/// Longest sample record read.
const MAX_SAMPLE_LINE: u64 = 8 << 20;

/// Runs `wasmeval grade`.
pub fn run(args: GradeArgs) -> anyhow::Result<()> {
    if args.tries == 0 || args.model.concurrency == 0 {
        return Err(BadInput("--tries and --concurrency are at least 1".into()).into());
    }
    let tasks = input::load_tasks(&args.tasks, args.language)?.tasks;
    let by_id: BTreeMap<&TaskId, &Task> = tasks.iter().map(|t| (&t.id, t)).collect();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| graded_name(&args.samples));
    if out == args.samples {
        return Err(BadInput("--out must differ from --samples".into()).into());
    }
    let mut records: Vec<(Sample, Map<String, Value>)> = Vec::new();
    for line in input::SampleFile::open(&args.samples, MAX_SAMPLE_LINE, &tasks)? {
        match line? {
            SampleLine::Read(record) => records.push(record),
            SampleLine::Oversized { sample, bytes } => {
                return Err(BadInput(format!(
                    "{}: sample {} is {bytes} bytes, more than grade reads",
                    args.samples.display(),
                    sample.index
                ))
                .into())
            }
        }
    }
    let journal_path = partial_name(&out);
    // Opened first: a partial last line a kill left is cut before the journal is read.
    let (journal_file, journal_text) = open_appending(&journal_path)?;
    let mut done = read_journal(&journal_text);
    if done.is_empty() && out.exists() {
        // A finished grading: its records keep their grades.
        done = graded_in(&out, &tasks)?;
    }
    let unknown = records
        .iter()
        .filter(|(s, _)| !by_id.contains_key(&s.task_id))
        .count();
    if unknown > 0 {
        eprintln!(
            "wasmeval: warning: {unknown} samples name tasks that are not in {}; they are written ungraded",
            args.tasks.display()
        );
    }
    let to_grade: VecDeque<usize> = records
        .iter()
        .enumerate()
        .filter(|(i, (s, _))| by_id.contains_key(&s.task_id) && !done.contains_key(&(*i as u64)))
        .map(|(i, _)| i)
        .collect();
    let evaluator = ModelClient::new(args.model.client_config(Api::Chat)?);
    let mut grader_config = args.model.client_config(Api::Chat)?;
    grader_config.extra_body.extend(crate::cli::json_object_arg(
        "--grader-extra-body",
        args.grader_extra_body.as_deref(),
    )?);
    let grader = ModelClient::new(grader_config);
    eprintln!(
        "wasmeval: grading {} of {} samples with {} at {}",
        to_grade.len(),
        records.len(),
        args.model.model,
        evaluator.url()
    );
    let journal = Mutex::new(journal_file);
    let progress = Progress::new(to_grade.len() as u64, "graded");
    let queue = Mutex::new(to_grade);
    let stop = AtomicBool::new(false);
    let first_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let finished: Mutex<BTreeMap<u64, GradingRecord>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..args.model.concurrency {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let Some(i) = queue.lock().expect("queue").pop_front() else {
                        break;
                    };
                    let (sample, _) = &records[i];
                    let task = by_id[&sample.task_id];
                    let graded = grade(&args, &evaluator, &grader, task, sample).and_then(
                        |(record, tokens)| {
                            let line = format!("{}\n", json!({"index": i, "grading": record}));
                            // One write of a whole line: a kill leaves at worst a partial last
                            // line, which the next open cuts.
                            journal
                                .lock()
                                .expect("journal")
                                .write_all(line.as_bytes())
                                .context("cannot append to the journal")?;
                            progress.answered(tokens, record.ungraded.is_none(), true);
                            finished.lock().expect("finished").insert(i as u64, record);
                            Ok(())
                        },
                    );
                    if let Err(error) = graded {
                        stop.store(true, Ordering::Relaxed);
                        first_error.lock().expect("error").get_or_insert(error);
                    }
                }
            });
        }
    });
    progress.finish();
    if let Some(error) = first_error.into_inner().expect("error") {
        return Err(error.context(format!(
            "grading stopped; the grades received are kept in {}, and the same command resumes",
            journal_path.display()
        )));
    }
    done.extend(finished.into_inner().expect("finished"));
    let mut graded = 0;
    crate::atomic_file::write_with(&out, |file| {
        for (index, (_, fields)) in records.iter().enumerate() {
            let mut fields = fields.clone();
            if let Some(record) = done.get(&(index as u64)) {
                if let Some(grades) = grades_of(record) {
                    fields.insert("grades".into(), serde_json::to_value(grades)?);
                    graded += 1;
                }
                fields.insert("grading".into(), serde_json::to_value(record)?);
            }
            serde_json::to_writer(&mut *file, &fields)?;
            file.write_all(b"\n")?;
        }
        Ok(())
    })?;
    let _ = std::fs::remove_file(&journal_path);
    println!(
        "{graded} of {} samples graded; {} in {}",
        records.len(),
        if graded == records.len() {
            "all".to_owned()
        } else {
            format!(
                "{} ungraded (see their `grading.ungraded`)",
                records.len() - graded
            )
        },
        out.display()
    );
    Ok(())
}

/// The grades a record holds: those of its parsed answer.
fn grades_of(record: &GradingRecord) -> Option<Grades> {
    record
        .answer
        .as_deref()
        .and_then(|a| grading::parse_grades(a).ok())
}

/// Grades one sample: its record and the tokens the two stages generated.
fn grade(
    args: &GradeArgs,
    evaluator: &ModelClient,
    grader: &ModelClient,
    task: &Task,
    sample: &Sample,
) -> anyhow::Result<(GradingRecord, u64)> {
    let refused = |e: ClientError| match e {
        ClientError::Refused(message) => anyhow::Error::new(BadInput(message)),
        ClientError::GaveUp(message) => anyhow::anyhow!(message),
    };
    let ask = |text: String| {
        Prompt::Chat(vec![Message {
            role: "user",
            content: text,
        }])
    };
    let report = evaluator
        .ask(
            &ask(grading::evaluator_prompt(task, &sample.program(task))),
            &Sampling {
                temperature: Some(0.0),
                max_tokens: Some(args.max_tokens),
                ..Sampling::default()
            },
        )
        .map_err(refused)?;
    let mut tokens = report.completion_tokens.unwrap_or(0);
    let mut record = GradingRecord {
        model: args.model.model.clone(),
        report: Some(report.text.clone()),
        answer: None,
        distribution: None,
        ungraded: None,
        tries: 0,
    };
    let mut last_problem = String::new();
    for attempt in 0..args.tries {
        // Greedy first; a retry samples, so that a deterministic server can answer otherwise.
        let sampling = Sampling {
            temperature: Some(if attempt == 0 { 0.0 } else { 0.7 }),
            max_tokens: Some(32),
            seed: Some(u64::from(attempt)),
            logprobs: Some(20),
            ..Sampling::default()
        };
        let answer = grader
            .ask(&ask(grading::grader_prompt(&report.text)), &sampling)
            .map_err(refused)?;
        tokens += answer.completion_tokens.unwrap_or(0);
        record.tries = attempt + 1;
        match grading::parse_grades(&answer.text) {
            Ok(_) => {
                record.distribution = grading::distribution(&answer.tokens);
                record.answer = Some(answer.text);
                return Ok((record, tokens));
            }
            Err(problem) => {
                last_problem = format!("{problem} in {:?}", answer.text);
            }
        }
    }
    record.ungraded = Some(format!(
        "no grades after {} tries: {last_problem}",
        args.tries
    ));
    Ok((record, tokens))
}

/// `samples.jsonl` -> `samples.graded.jsonl`.
fn graded_name(samples: &Path) -> PathBuf {
    let name = samples
        .file_name()
        .map_or("samples".into(), |n| n.to_string_lossy().into_owned());
    let stem = name
        .strip_suffix(".gz")
        .unwrap_or(&name)
        .strip_suffix(".jsonl")
        .unwrap_or(&name)
        .to_owned();
    samples.with_file_name(format!("{stem}.graded.jsonl"))
}

/// The journal beside `out`.
fn partial_name(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The gradings a journal's text holds, by sample index.
fn read_journal(text: &str) -> BTreeMap<u64, GradingRecord> {
    let mut done = BTreeMap::new();
    for line in text.lines() {
        #[derive(serde::Deserialize)]
        struct Entry {
            index: u64,
            grading: GradingRecord,
        }
        if let Ok(entry) = serde_json::from_str::<Entry>(line) {
            done.insert(entry.index, entry.grading);
        }
    }
    done
}

/// The gradings of a graded samples file written earlier.
fn graded_in(path: &Path, tasks: &[Task]) -> anyhow::Result<BTreeMap<u64, GradingRecord>> {
    let mut done = BTreeMap::new();
    for line in input::SampleFile::open(path, MAX_SAMPLE_LINE, tasks)? {
        if let SampleLine::Read((sample, _)) = line? {
            if let Some(grading) = sample.info.grading {
                done.insert(sample.index, grading);
            }
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names() {
        assert_eq!(
            graded_name(Path::new("runs/gen.jsonl")),
            PathBuf::from("runs/gen.graded.jsonl")
        );
        assert_eq!(
            partial_name(Path::new("runs/gen.graded.jsonl")),
            PathBuf::from("runs/gen.graded.jsonl.partial")
        );
    }
}
