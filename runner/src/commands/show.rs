//! `wasmeval show`: why a sample failed, in one command. One task of a run (or of several runs,
//! or a bundle): the prompt, each model's telling sample with its program and cases (verdict,
//! message, test, expected value), the others in a line each, and two models' programs as a
//! unified diff. What is shown, and every judgment in it, comes from wasmeval-core's
//! [`show::show`], which the site's Compare view shows too; this file only prints it.

use crate::commands::report::load_all;
use crate::errors::ExpectedError::BadInput;
use clap::{ArgGroup, Args, ValueEnum};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use wasmeval_core::show::{self, Selection, ShowError, Shown, ShownSample};
use wasmeval_core::TaskId;

/// Flags of `wasmeval show`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("what").required(true).multiple(true).args(["task", "sample"])))]
pub struct ShowArgs {
    /// A run's output folder, or a bundle (.json); several runs over the same tasks combine as
    /// `report` combines them (results that name no model labelled by their folder's name).
    #[arg(value_name = "RESULTS", required = true, num_args = 1..)]
    pub results: Vec<PathBuf>,
    /// The task to show (`HumanEval/12`).
    #[arg(long, value_name = "ID")]
    pub task: Option<String>,
    /// Only this model's samples; twice (`--model A --model B`): the two side by side, with a
    /// diff of their programs.
    #[arg(long = "model", value_name = "MODEL")]
    pub models: Vec<String>,
    /// Only the sample with this number, as its run's samples file numbers it (from 0, as
    /// results.jsonl's `index` and the site's Samples view give it); names the task by itself.
    #[arg(long, value_name = "N")]
    pub sample: Option<u64>,
    /// Every sample in full (by default each model's telling sample is, the others one line each).
    #[arg(long)]
    pub all: bool,
    /// Task file, for a results folder written without tasks.jsonl.
    #[arg(long, value_name = "FILE")]
    pub tasks: Option<PathBuf>,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ShowFormat,
}

/// How `wasmeval show` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    /// For a person: the prompt, programs with line numbers, cases, the diff.
    Text,
    /// Everything, every sample in full, as JSON (core's `show::Shown`).
    Json,
}

/// Samples listed in a line each after a model's telling sample, at most.
const LISTED: usize = 12;

/// Runs `wasmeval show`.
pub fn run(args: ShowArgs) -> anyhow::Result<()> {
    let combined = load_all(&args.results, args.tasks.as_deref())?;
    let selection = Selection {
        task: args.task.as_deref().map(TaskId::from),
        models: args.models.clone(),
        sample: args.sample,
    };
    let shown = show::show(
        &combined.tasks,
        &combined.results,
        &combined.runs,
        &selection,
    )
    .map_err(|e| BadInput(explain(&args, e)))?;
    let text = match args.format {
        ShowFormat::Json => serde_json::to_string_pretty(&shown)? + "\n",
        ShowFormat::Text => text(&shown, args.all || args.sample.is_some()),
    };
    // A closed pipe (`| head`) is not an error.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(())
}

/// The error, naming the results it looked in and what to do.
fn explain(args: &ShowArgs, error: ShowError) -> String {
    let paths: Vec<String> = args
        .results
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let paths = paths.join(" ");
    let hint = match &error {
        ShowError::NoTask { close, .. } if close.is_empty() => {
            format!(" (`wasmeval report {paths} --by task` lists them)")
        }
        ShowError::SeveralTasks { .. } => " with --task, or the model with --model".to_owned(),
        ShowError::NoSamples { .. } => {
            " (its samples may be in another run: give every run folder)".to_owned()
        }
        _ => String::new(),
    };
    format!("{paths}: {error}{hint}")
}

/// `shown` for a person: the task, then each model's telling sample in full and its others in a
/// line each (every sample in full with `all`), then the diff.
fn text(shown: &Shown, all: bool) -> String {
    let mut out = String::new();
    let title = if shown.title.is_empty() {
        String::new()
    } else {
        format!(": {}", shown.title)
    };
    let _ = writeln!(
        out,
        "task {}{title} ({})",
        shown.task_id,
        shown.language.as_str()
    );
    let tallies: Vec<String> = shown
        .models
        .iter()
        .map(|t| {
            format!(
                "{} passed {} of {}",
                t.model.as_deref().unwrap_or("(no model)"),
                t.passed,
                t.samples
            )
        })
        .collect();
    let _ = writeln!(out, "{}", tallies.join(" · "));
    if !shown.prompt.is_empty() {
        let _ = writeln!(out, "\nprompt:");
        out.push_str(&numbered(&shown.prompt));
    }
    for tally in &shown.models {
        let own: Vec<&ShownSample> = shown
            .samples
            .iter()
            .filter(|s| s.model == tally.model)
            .collect();
        let (full, listed): (Vec<&ShownSample>, Vec<&ShownSample>) =
            own.iter().partition(|s| all || s.index == tally.telling);
        for sample in full {
            out.push('\n');
            out.push_str(&sample_text(sample));
        }
        if !listed.is_empty() {
            let _ = writeln!(
                out,
                "  {} other sample(s) of {}:",
                listed.len(),
                tally.model.as_deref().unwrap_or("(no model)")
            );
            for sample in listed.iter().take(LISTED) {
                let _ = writeln!(out, "    {}", one_line(sample));
            }
            if listed.len() > LISTED {
                let _ = writeln!(
                    out,
                    "    ... and {} more (--all shows every one)",
                    listed.len() - LISTED
                );
            }
        }
    }
    match &shown.diff {
        Some(diff) if diff.unified.is_empty() => {
            let _ = writeln!(out, "\nthe two programs are the same");
        }
        Some(diff) => {
            let _ = writeln!(out, "\ndiff of the two programs:");
            out.push_str(&diff.unified);
        }
        None if shown.models.len() > 2 => {
            let _ = writeln!(
                out,
                "\n(--model A --model B shows two models' programs as a diff)"
            );
        }
        None => {}
    }
    out
}

/// A sample in full: heading, message, program, cases, output excerpts.
fn sample_text(s: &ShownSample) -> String {
    let mut out = String::new();
    let cause = match &s.cause {
        Some(cause) => format!(" ({cause})"),
        None => String::new(),
    };
    let _ = writeln!(out, "{}: {}{cause}", s.label(), s.verdict.as_str());
    if let Some(message) = &s.message {
        let _ = writeln!(out, "  message: {}", indent_rest(message, 4));
    }
    match &s.code {
        Some(code) => {
            let _ = writeln!(
                out,
                "  program{}:",
                if s.code_truncated {
                    " (its start only)"
                } else {
                    ""
                }
            );
            out.push_str(&numbered(code));
        }
        None => {
            let _ = writeln!(out, "  program: not in these results");
        }
    }
    let _ = writeln!(
        out,
        "  cases: {} of {} passed",
        s.cases_passed(),
        s.cases.len()
    );
    for case in &s.cases {
        let _ = writeln!(out, "    {:<14} {}", case.verdict.as_str(), case.name);
        if case.verdict == wasmeval_core::Verdict::Passed {
            continue;
        }
        for (label, value) in [
            ("message", &case.message),
            ("test", &case.test),
            ("expected", &case.expected),
            ("output", &case.output),
        ] {
            if let Some(value) = value {
                let label = format!("{label}:");
                let _ = writeln!(out, "      {label:<10}{}", indent_rest(value, 16));
            }
        }
    }
    for (name, excerpt) in [("stdout", &s.stdout), ("stderr", &s.stderr)] {
        if !excerpt.is_empty() {
            let _ = writeln!(out, "  {name}:");
            for line in excerpt.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
    out
}

/// A sample in one line: its number, verdict and message.
fn one_line(s: &ShownSample) -> String {
    let message = s
        .message
        .as_deref()
        .and_then(|m| m.lines().next())
        .map(|m| format!(": {}", shorten(m, 100)))
        .unwrap_or_default();
    let number = match &s.number.run {
        Some(run) if Some(run.as_str()) != s.model.as_deref() => s.number.label(),
        _ => format!("sample {}", s.number.number),
    };
    format!("{number} {}{message}", s.verdict.as_str())
}

/// `text` with line numbers, indented.
fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, line)| format!("  {:>4}  {line}\n", i + 1))
        .collect()
}

/// `text` with its lines after the first indented by `width` spaces.
fn indent_rest(text: &str, width: usize) -> String {
    let pad = format!("\n{}", " ".repeat(width));
    text.trim_end_matches('\n').replace('\n', &pad)
}

/// The first `max` characters of `text`, with `…` when cut.
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
