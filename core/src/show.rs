//! One task's samples as a reader needs them to see why a sample failed: the prompt, each
//! sample's program and cases (verdict, message, the test and the expected value the task
//! holds), each model's tally, and two models' programs as a unified diff. `wasmeval show`
//! prints it and the site's Compare shows it in place, both from [`show`], so the two say the
//! same.
//!
//! Samples are numbered as their run's samples file numbers them ([`SampleNumber`]): several
//! runs combined renumber their results ([`crate::report::combine_runs`]), and
//! [`crate::report::RunPart`] maps a combined index back to its run and its own number.

use crate::report::{natural_cmp, RunPart};
use crate::results::{failure_cause, JudgedBy, SampleResult, TimeoutCause, Verdict};
use crate::task::{CallCheck, Language, Task, TaskId, TestSuite};
use serde::Serialize;

/// What to show: a task (or the task of a sample), some of its models, or one sample.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// The task; `None` when `sample` names it.
    pub task: Option<TaskId>,
    /// The models whose samples are shown, in this order; empty: every model with samples of it.
    pub models: Vec<String>,
    /// One sample, by its number in its run's samples file (several runs may each have one).
    pub sample: Option<u64>,
}

/// A sample's number as its run's samples file gives it, and the run's name when the results
/// combine several runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SampleNumber {
    /// The run it comes from, when several were combined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// Its index in that run's samples file, from 0.
    pub number: u64,
}

impl SampleNumber {
    /// The number of the result whose (combined) index is `index`, given the runs combined
    /// (`runs`, in the order of their first index; empty for a single run).
    pub fn of(runs: &[RunPart], index: u64) -> SampleNumber {
        match runs.iter().rev().find(|part| part.first_index <= index) {
            Some(part) => SampleNumber {
                run: Some(part.name.clone()),
                number: index - part.first_index,
            },
            None => SampleNumber {
                run: None,
                number: index,
            },
        }
    }

    /// `sample 37`, or `sample 37 of run-b`.
    pub fn label(&self) -> String {
        match &self.run {
            Some(run) => format!("sample {} of {run}", self.number),
            None => format!("sample {}", self.number),
        }
    }
}

/// One task with the samples selected.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shown {
    /// The task.
    pub task_id: TaskId,
    /// Its title, when it has one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Its language.
    pub language: Language,
    /// What the model saw.
    pub prompt: String,
    /// The function the tests call, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry_point: Option<String>,
    /// Each model shown, with its samples of the task passed and run.
    pub models: Vec<ModelTally>,
    /// The samples shown, model by model (in `models`' order), each in sample order.
    pub samples: Vec<ShownSample>,
    /// The two models' telling samples as a unified diff, when exactly two models are shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Diff>,
}

/// A model's samples of the task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelTally {
    /// The model (`None` for results that name none).
    pub model: Option<String>,
    /// Its samples shown that passed.
    pub passed: u64,
    /// Its samples shown.
    pub samples: u64,
    /// The index of its telling sample (see [`Shown::telling`]).
    pub telling: u64,
}

/// One sample as shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShownSample {
    /// Its index in the results (the combined one: the site's `?sample=`).
    pub index: u64,
    /// Its number in its run's samples file.
    #[serde(flatten)]
    pub number: SampleNumber,
    /// Its model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// How it ended.
    pub verdict: Verdict,
    /// Set when `verdict` is `timeout`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_cause: Option<TimeoutCause>,
    /// Why it did not pass, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Its failure's cause as `report --by failure` counts it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    /// The program as evaluated, when the results carry it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Whether `code` is only the start of a longer program.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub code_truncated: bool,
    /// Its cases, in the task's order.
    pub cases: Vec<ShownCase>,
    /// Start of what it wrote to stdout.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stdout: String,
    /// Start of what it wrote to stderr.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stderr: String,
}

impl ShownSample {
    /// `hare-1b sample 37`: its model and number, and its run when the model is not named
    /// after it (`hare-1b sample 37 of run-b`).
    pub fn label(&self) -> String {
        let model = self.model.as_deref().unwrap_or("(no model)");
        match &self.number.run {
            Some(run) if run != model => format!("{model} {}", self.number.label()),
            _ => format!("{model} sample {}", self.number.number),
        }
    }

    /// Its cases that passed.
    pub fn cases_passed(&self) -> usize {
        self.cases
            .iter()
            .filter(|c| c.verdict == Verdict::Passed)
            .count()
    }
}

/// One case of a sample, with what the task says of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShownCase {
    /// Its name in the results.
    pub name: String,
    /// How it ended.
    pub verdict: Verdict,
    /// Set when `verdict` is `timeout`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_cause: Option<TimeoutCause>,
    /// The exception, trap or difference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Who judged it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged_by: Option<JudgedBy>,
    /// The test as a reader should see it ([`Task::case_tests`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// The expected value the task holds: a `calls` case's value (JSON), or what its check
    /// asks for; an `io` case's expected output. An assertion holds its own (see `test`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What the case's own execution wrote to stdout (an `io` case's output), capped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
}

/// Two programs as a unified diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diff {
    /// The index of the sample diffed from (`---`).
    pub from: u64,
    /// The index of the sample diffed to (`+++`).
    pub to: u64,
    /// The unified diff, headers included; empty when the programs are the same.
    pub unified: String,
}

/// Why nothing can be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShowError {
    /// The task is not in the results' tasks.
    #[error("no task `{asked}`{}", close_text(close, *tasks))]
    NoTask {
        /// The id asked for.
        asked: String,
        /// Ids that look like it, closest first.
        close: Vec<TaskId>,
        /// How many tasks there are.
        tasks: u64,
    },
    /// The task has no sample in the results (of the models asked for, when some were).
    #[error("task {task} has no samples{}", if models.is_empty() { String::new() } else { format!(" by {}", models.join(" or ")) })]
    NoSamples {
        /// The task.
        task: TaskId,
        /// The models asked for.
        models: Vec<String>,
    },
    /// A model asked for has no sample of the task.
    #[error("no sample of task {task} is by model `{model}`; its samples are by: {}", known.join(", "))]
    NoModel {
        /// The task.
        task: TaskId,
        /// The model asked for.
        model: String,
        /// The models with samples of the task.
        known: Vec<String>,
    },
    /// No sample has the number asked for (of the task, when one was given).
    #[error("no sample {number}{}{}", task.as_ref().map(|t| format!(" of task {t}")).unwrap_or_default(), numbers_text(known))]
    NoSample {
        /// The number asked for.
        number: u64,
        /// The task asked for.
        task: Option<TaskId>,
        /// The numbers of the task's samples (a few).
        known: Vec<u64>,
    },
    /// The number names samples of several tasks (one in each of several runs).
    #[error("sample {number} is a sample of several tasks ({}): name the task", tasks.iter().map(|t| t.0.as_str()).collect::<Vec<_>>().join(", "))]
    SeveralTasks {
        /// The number asked for.
        number: u64,
        /// The tasks.
        tasks: Vec<TaskId>,
    },
}

fn close_text(close: &[TaskId], tasks: u64) -> String {
    match close {
        [] => format!(" among the results' {tasks} tasks"),
        _ => format!(
            "; close ids: {}",
            close
                .iter()
                .map(|id| id.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn numbers_text(known: &[u64]) -> String {
    if known.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = known.iter().take(8).map(u64::to_string).collect();
    let more = if known.len() > 8 { ", ..." } else { "" };
    format!("; its samples are {}{more}", shown.join(", "))
}

/// The samples of `results` that `selection` names, with their task from `tasks`; `runs` are
/// the runs the results combine (empty for one run), which number the samples.
pub fn show(
    tasks: &[Task],
    results: &[SampleResult],
    runs: &[RunPart],
    selection: &Selection,
) -> Result<Shown, ShowError> {
    let number = |r: &SampleResult| SampleNumber::of(runs, r.index).number;
    let task_id = match (&selection.task, selection.sample) {
        (Some(id), _) => {
            if !tasks.iter().any(|t| &t.id == id) {
                return Err(ShowError::NoTask {
                    asked: id.0.clone(),
                    close: close_ids(&id.0, tasks.iter().map(|t| &t.id)),
                    tasks: tasks.len() as u64,
                });
            }
            id.clone()
        }
        (None, Some(n)) => {
            let mut of: Vec<TaskId> = results
                .iter()
                .filter(|r| number(r) == n)
                .filter(|r| in_models(&selection.models, r))
                .map(|r| r.task_id.clone())
                .collect();
            of.sort_by(|a, b| natural_cmp(&a.0, &b.0));
            of.dedup();
            match of.len() {
                0 => {
                    return Err(ShowError::NoSample {
                        number: n,
                        task: None,
                        known: Vec::new(),
                    })
                }
                1 => of.remove(0),
                _ => {
                    return Err(ShowError::SeveralTasks {
                        number: n,
                        tasks: of,
                    })
                }
            }
        }
        (None, None) => {
            return Err(ShowError::NoTask {
                asked: String::new(),
                close: Vec::new(),
                tasks: tasks.len() as u64,
            })
        }
    };
    let task = tasks
        .iter()
        .find(|t| t.id == task_id)
        .expect("the task was found above");
    let of_task: Vec<&SampleResult> = results.iter().filter(|r| r.task_id == task_id).collect();
    let mut known: Vec<String> = of_task.iter().filter_map(|r| r.model.clone()).collect();
    known.sort();
    known.dedup();
    if of_task.is_empty() {
        return Err(ShowError::NoSamples {
            task: task_id,
            models: Vec::new(),
        });
    }
    for model in &selection.models {
        if !known.contains(model) {
            return Err(ShowError::NoModel {
                task: task_id,
                model: model.clone(),
                known,
            });
        }
    }
    let mut chosen: Vec<&SampleResult> = of_task
        .iter()
        .copied()
        .filter(|r| in_models(&selection.models, r))
        .filter(|r| selection.sample.is_none_or(|n| number(r) == n))
        .collect();
    if chosen.is_empty() {
        let mut numbers: Vec<u64> = of_task
            .iter()
            .filter(|r| in_models(&selection.models, r))
            .map(|r| number(r))
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        return Err(match selection.sample {
            Some(n) => ShowError::NoSample {
                number: n,
                task: Some(task_id),
                known: numbers,
            },
            None => ShowError::NoSamples {
                task: task_id,
                models: selection.models.clone(),
            },
        });
    }
    // Model by model: in the order asked for, else by name (results without a model first).
    let order: Vec<Option<String>> = if selection.models.is_empty() {
        let mut models: Vec<Option<String>> = chosen.iter().map(|r| r.model.clone()).collect();
        models.sort();
        models.dedup();
        models
    } else {
        selection.models.iter().cloned().map(Some).collect()
    };
    chosen.sort_by_key(|r| {
        (
            order
                .iter()
                .position(|m| *m == r.model)
                .unwrap_or(usize::MAX),
            r.index,
        )
    });
    let mut models: Vec<ModelTally> = order
        .iter()
        .map(|model| {
            let own: Vec<&&SampleResult> = chosen.iter().filter(|r| r.model == *model).collect();
            ModelTally {
                model: model.clone(),
                passed: own.iter().filter(|r| r.verdict == Verdict::Passed).count() as u64,
                samples: own.len() as u64,
                telling: own.first().map_or(0, |r| r.index),
            }
        })
        .collect();
    telling(&mut models, &chosen);
    let samples: Vec<ShownSample> = chosen
        .iter()
        .map(|r| shown_sample(task, r, SampleNumber::of(runs, r.index)))
        .collect();
    let diff = match models.as_slice() {
        [a, b] => {
            let side = |tally: &ModelTally| samples.iter().find(|s| s.index == tally.telling);
            match (side(a), side(b)) {
                (Some(from), Some(to)) => Some(diff_samples(from, to)),
                _ => None,
            }
        }
        _ => None,
    };
    Ok(Shown {
        task_id: task.id.clone(),
        title: task.title.clone(),
        language: task.language,
        prompt: task.prompt.clone(),
        entry_point: task.entry_point.clone(),
        models,
        samples,
        diff,
    })
}

fn in_models(models: &[String], result: &SampleResult) -> bool {
    models.is_empty() || result.model.as_ref().is_some_and(|m| models.contains(m))
}

/// Each model's telling sample, the one shown first and diffed: for two models whose pass
/// rates differ, a passing sample of the one that passed more often and a failing one of the
/// other (the first of each, in sample order); otherwise each model's first sample.
fn telling(models: &mut [ModelTally], chosen: &[&SampleResult]) {
    let rate = |t: &ModelTally| t.passed as f64 / t.samples.max(1) as f64;
    let wanted: Vec<Option<bool>> = match models {
        [a, b] if rate(a) != rate(b) => {
            let a_better = rate(a) > rate(b);
            vec![Some(a_better), Some(!a_better)]
        }
        _ => vec![None; models.len()],
    };
    for (tally, wanted) in models.iter_mut().zip(wanted) {
        let own = chosen.iter().filter(|r| r.model == tally.model);
        let pick = match wanted {
            Some(passed) => own
                .clone()
                .find(|r| (r.verdict == Verdict::Passed) == passed)
                .or_else(|| own.clone().next()),
            None => own.clone().next(),
        };
        if let Some(pick) = pick {
            tally.telling = pick.index;
        }
    }
}

/// A result as shown, its cases beside their tests and expected values.
fn shown_sample(task: &Task, r: &SampleResult, number: SampleNumber) -> ShownSample {
    let tests = task.case_tests();
    let sets: Vec<&str> = r.alternative.as_deref().unwrap_or("").split(", ").collect();
    let test_of = |name: &str| {
        let mut named = tests.iter().filter(|(n, _)| n == name).map(|(_, t)| t);
        let all: Vec<&String> = named.clone().collect();
        all.iter()
            .find(|t| sets.iter().any(|s| t.starts_with(&format!("# {s}\n"))))
            .map(|t| (*t).clone())
            .or_else(|| named.next().cloned())
    };
    ShownSample {
        index: r.index,
        number,
        model: r.model.clone(),
        verdict: r.verdict,
        timeout_cause: r.timeout_cause,
        message: r.message.clone(),
        cause: failure_cause(r),
        code: r.code.clone(),
        code_truncated: r.code_sha256.is_some(),
        cases: r
            .cases
            .iter()
            .map(|c| ShownCase {
                name: c.name.clone(),
                verdict: c.verdict,
                timeout_cause: c.timeout_cause,
                message: c.message.clone(),
                judged_by: c.judged_by,
                test: io_input(task, &c.name).or_else(|| test_of(&c.name)),
                expected: expected_of(task, &c.name),
                output: c.run.as_ref().map(|run| run.stdout.clone()),
            })
            .collect(),
        stdout: r.stdout.clone(),
        stderr: r.stderr.clone(),
    }
}

/// The expected value the task holds for its case `name`: a `calls` case's (JSON) or what its
/// check asks for, an `io` case's output; `None` for assertions, which hold theirs in the test.
pub fn expected_of(task: &Task, name: &str) -> Option<String> {
    for suite in &task.tests {
        match suite {
            TestSuite::Calls { cases, .. } => {
                if let Some(case) = cases.iter().find(|c| c.name == name) {
                    return Some(match case.check {
                        CallCheck::Truthy => "a true value".to_owned(),
                        CallCheck::Falsy => "a false value".to_owned(),
                        _ => case.expected.to_string(),
                    });
                }
            }
            TestSuite::Io { group, cases, .. } => {
                if let Some(case) = cases
                    .iter()
                    .find(|c| crate::judging::io::case_name(group, &c.name) == name)
                {
                    return Some(case.stdout.clone());
                }
            }
            TestSuite::Assertions { .. } | TestSuite::Alternatives { .. } => {}
        }
    }
    None
}

/// An `io` case's input, as its test (its expected output is [`expected_of`]'s).
fn io_input(task: &Task, name: &str) -> Option<String> {
    task.tests.iter().find_map(|suite| match suite {
        TestSuite::Io { group, cases, .. } => cases
            .iter()
            .find(|c| crate::judging::io::case_name(group, &c.name) == name)
            .map(|c| format!("stdin:\n{}", c.stdin)),
        _ => None,
    })
}

/// `from`'s program against `to`'s, labelled with their models, numbers and verdicts.
fn diff_samples(from: &ShownSample, to: &ShownSample) -> Diff {
    let label = |s: &ShownSample| format!("{} ({})", s.label(), s.verdict.as_str());
    let text = |s: &ShownSample| s.code.clone().unwrap_or_default();
    Diff {
        from: from.index,
        to: to.index,
        unified: unified_diff(&text(from), &text(to), &label(from), &label(to)),
    }
}

/// Lines of context around each change in [`unified_diff`].
const CONTEXT: usize = 3;

/// Cells of the longest-common-subsequence table beyond which the differing middle of two
/// programs is shown as removed then added (a 2,000-line change each way).
const MAX_CELLS: usize = 4_000_000;

/// `old` against `new` as a unified diff (`diff -u`'s format, 3 lines of context), headed
/// `--- old_name` and `+++ new_name`; empty when they are equal.
pub fn unified_diff(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let edits = line_edits(&a, &b);
    if edits.iter().all(|e| matches!(e, Edit::Same(..))) {
        return String::new();
    }
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    // Hunks: runs of edits with at most 2 * CONTEXT unchanged lines between changes.
    let changed: Vec<usize> = (0..edits.len())
        .filter(|&i| !matches!(edits[i], Edit::Same(..)))
        .collect();
    let mut start = 0;
    while start < changed.len() {
        let mut end = start;
        while end + 1 < changed.len() && changed[end + 1] - changed[end] <= 2 * CONTEXT + 1 {
            end += 1;
        }
        let from = changed[start].saturating_sub(CONTEXT);
        let to = (changed[end] + CONTEXT + 1).min(edits.len());
        let (mut old_start, mut new_start) = (None, None);
        let (mut old_count, mut new_count) = (0, 0);
        let mut body = String::new();
        for edit in &edits[from..to] {
            match *edit {
                Edit::Same(i, j) => {
                    old_start.get_or_insert(i);
                    new_start.get_or_insert(j);
                    old_count += 1;
                    new_count += 1;
                    body.push_str(&format!(" {}\n", a[i]));
                }
                Edit::Removed(i, j) => {
                    old_start.get_or_insert(i);
                    new_start.get_or_insert(j);
                    old_count += 1;
                    body.push_str(&format!("-{}\n", a[i]));
                }
                Edit::Added(i, j) => {
                    old_start.get_or_insert(i);
                    new_start.get_or_insert(j);
                    new_count += 1;
                    body.push_str(&format!("+{}\n", b[j]));
                }
            }
        }
        // diff -u numbers an empty side by the line before it.
        let range = |start: Option<usize>, count: usize| match count {
            0 => format!("{},0", start.unwrap_or(0)),
            1 => format!("{}", start.unwrap_or(0) + 1),
            n => format!("{},{n}", start.unwrap_or(0) + 1),
        };
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(old_start, old_count),
            range(new_start, new_count)
        ));
        out.push_str(&body);
        start = end + 1;
    }
    out
}

/// One line of an edit script: kept (old line, new line), removed (old line, the new line it
/// goes before) or added (the old line it goes before, new line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Same(usize, usize),
    Removed(usize, usize),
    Added(usize, usize),
}

/// The edit script from `a` to `b`: a longest common subsequence of lines, after the common
/// start and end are taken off.
fn line_edits(a: &[&str], b: &[&str]) -> Vec<Edit> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut edits: Vec<Edit> = (0..prefix).map(|i| Edit::Same(i, i)).collect();
    let (n, m) = (ma.len(), mb.len());
    if n.saturating_mul(m) > MAX_CELLS {
        edits.extend((0..n).map(|i| Edit::Removed(prefix + i, prefix)));
        edits.extend((0..m).map(|j| Edit::Added(prefix + n, prefix + j)));
    } else {
        // lcs[i][j]: the longest common subsequence of ma[i..] and mb[j..].
        let width = m + 1;
        let mut lcs = vec![0u32; (n + 1) * width];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i * width + j] = if ma[i] == mb[j] {
                    lcs[(i + 1) * width + j + 1] + 1
                } else {
                    lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && ma[i] == mb[j] {
                edits.push(Edit::Same(prefix + i, prefix + j));
                i += 1;
                j += 1;
            } else if i < n && (j == m || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
                // Removals first, as diff -u writes a changed block.
                edits.push(Edit::Removed(prefix + i, prefix + j));
                i += 1;
            } else {
                edits.push(Edit::Added(prefix + i, prefix + j));
                j += 1;
            }
        }
    }
    let (end_a, end_b) = (a.len() - suffix, b.len() - suffix);
    edits.extend((0..suffix).map(|k| Edit::Same(end_a + k, end_b + k)));
    edits
}

/// Task ids like `asked`, closest first (at most 5): the same but for case, or a few edits
/// away, or ending in it (`12` for `MBPP/12`).
pub fn close_ids<'a>(asked: &str, ids: impl Iterator<Item = &'a TaskId>) -> Vec<TaskId> {
    let wanted = asked.to_lowercase();
    let bound = (wanted.chars().count() / 4).max(2);
    let mut scored: Vec<(usize, &TaskId)> = ids
        .filter_map(|id| {
            let lower = id.0.to_lowercase();
            let suffix = lower
                .strip_suffix(&wanted)
                .is_some_and(|rest| rest.ends_with(['/', '_', '-', '.']));
            let distance = if suffix {
                0
            } else {
                edit_distance(&wanted, &lower, bound)?
            };
            Some((distance, id))
        })
        .collect();
    scored.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| natural_cmp(&a.1 .0, &b.1 .0)));
    scored
        .into_iter()
        .take(5)
        .map(|(_, id)| id.clone())
        .collect()
}

/// Levenshtein's distance between `a` and `b` in characters, or `None` when it exceeds `bound`.
fn edit_distance(a: &str, b: &str, bound: usize) -> Option<usize> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > bound {
        return None;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    let distance = row[b.len()];
    (distance <= bound).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::CaseResult;
    use crate::task::{CallCase, IoCase};

    fn task() -> Task {
        Task {
            id: "t/1".into(),
            language: Language::Python,
            prompt: "def f(x):\n".into(),
            entry_point: Some("f".into()),
            tests: vec![
                TestSuite::Calls {
                    setup: String::new(),
                    entry_point: "f".into(),
                    tolerance: 0.0,
                    cases: vec![
                        CallCase {
                            name: "call 1".into(),
                            args: vec![1.into()],
                            expected: 2.into(),
                            check: CallCheck::Equals,
                            tolerance: None,
                        },
                        CallCase {
                            name: "call 2".into(),
                            args: vec![2.into()],
                            expected: serde_json::Value::Null,
                            check: CallCheck::Truthy,
                            tolerance: None,
                        },
                    ],
                },
                TestSuite::Io {
                    group: "edge".into(),
                    compare: Default::default(),
                    tolerance: 1e-5,
                    cases: vec![IoCase {
                        name: "1".into(),
                        stdin: "3\n".into(),
                        stdout: "6\n".into(),
                    }],
                },
            ],
            ..Task::default()
        }
    }

    fn result(index: u64, model: &str, passed: bool, code: &str) -> SampleResult {
        let case = |name: &str, ok: bool| CaseResult {
            name: name.into(),
            verdict: if ok {
                Verdict::Passed
            } else {
                Verdict::WrongAnswer
            },
            timeout_cause: None,
            message: (!ok).then(|| "expected 2, got 1".into()),
            judged_by: Some(JudgedBy::Host),
            run: None,
        };
        let cases = vec![case("call 1", passed), case("call 2", true)];
        SampleResult {
            verdict: Verdict::of_cases(&cases),
            cases,
            code: Some(code.into()),
            model: Some(model.into()),
            ..SampleResult::for_sample(&crate::sample::Sample {
                task_id: "t/1".into(),
                index,
                model: None,
                code: crate::sample::SampleCode::Solution(String::new()),
                info: Default::default(),
            })
        }
    }

    fn two_runs() -> (Vec<Task>, Vec<SampleResult>, Vec<RunPart>) {
        let runs = crate::report::combine_runs(vec![
            crate::report::NamedRun {
                name: "a".into(),
                tasks: vec![task()],
                results: vec![
                    result(0, "a", true, "def f(x):\n    return 2\n"),
                    result(1, "a", false, "def f(x):\n    return x\n"),
                ],
                parts: Vec::new(),
            },
            crate::report::NamedRun {
                name: "b".into(),
                tasks: vec![task()],
                results: vec![
                    result(0, "b", false, "def f(x):\n    return 1\n"),
                    result(1, "b", false, "def f(x):\n    return 0\n"),
                ],
                parts: Vec::new(),
            },
        ])
        .unwrap();
        (runs.tasks, runs.results, runs.runs)
    }

    #[test]
    fn samples_are_numbered_as_their_runs_files_number_them() {
        let (tasks, results, runs) = two_runs();
        assert_eq!(
            runs.iter()
                .map(|p| (p.name.as_str(), p.first_index))
                .collect::<Vec<_>>(),
            [("a", 0), ("b", 2)]
        );
        // Combined, run b's sample 1 is index 3; shown, it is sample 1 of b.
        assert_eq!(
            SampleNumber::of(&runs, 3),
            SampleNumber {
                run: Some("b".into()),
                number: 1
            }
        );
        assert_eq!(SampleNumber::of(&[], 3).label(), "sample 3");
        let shown = show(
            &tasks,
            &results,
            &runs,
            &Selection {
                task: None,
                models: vec!["b".into()],
                sample: Some(1),
            },
        )
        .unwrap();
        assert_eq!(shown.samples.len(), 1);
        assert_eq!(shown.samples[0].index, 3);
        assert_eq!(shown.samples[0].number.label(), "sample 1 of b");
        // Without a model, sample 1 is one in each run, of the same task: both are shown.
        let both = show(
            &tasks,
            &results,
            &runs,
            &Selection {
                sample: Some(1),
                ..Selection::default()
            },
        )
        .unwrap();
        assert_eq!(
            both.samples.iter().map(|s| s.index).collect::<Vec<_>>(),
            [1, 3]
        );
    }

    #[test]
    fn two_models_diff_a_passing_sample_of_the_better_against_a_failing_one_of_the_other() {
        let (tasks, results, runs) = two_runs();
        let shown = show(
            &tasks,
            &results,
            &runs,
            &Selection {
                task: Some("t/1".into()),
                models: vec!["b".into(), "a".into()],
                sample: None,
            },
        )
        .unwrap();
        let tallies: Vec<(Option<&str>, u64, u64, u64)> = shown
            .models
            .iter()
            .map(|t| (t.model.as_deref(), t.passed, t.samples, t.telling))
            .collect();
        // b failed both; a passed sample 0: b's first failing sample against a's passing one.
        assert_eq!(tallies, [(Some("b"), 0, 2, 2), (Some("a"), 1, 2, 0)]);
        let diff = shown.diff.unwrap();
        assert_eq!((diff.from, diff.to), (2, 0));
        assert_eq!(
            diff.unified,
            "--- b sample 0 (wrong_answer)\n+++ a sample 0 (passed)\n@@ -1,2 +1,2 @@\n def f(x):\n-    return 1\n+    return 2\n"
        );
        // Each case beside its test and the expected value the task holds.
        let failing = &shown.samples[0];
        assert_eq!(failing.cause.as_deref(), Some("wrong value"));
        let case = &failing.cases[0];
        assert_eq!(case.test.as_deref(), Some("f(1) == 2"));
        assert_eq!(case.expected.as_deref(), Some("2"));
        assert_eq!(failing.cases[1].expected.as_deref(), Some("a true value"));
        assert_eq!(expected_of(&tasks[0], "edge/1").as_deref(), Some("6\n"));
    }

    #[test]
    fn errors_name_what_exists() {
        let (tasks, results, runs) = two_runs();
        let ask = |selection: Selection| show(&tasks, &results, &runs, &selection).unwrap_err();
        let missing = ask(Selection {
            task: Some("t/2".into()),
            ..Selection::default()
        });
        assert_eq!(missing.to_string(), "no task `t/2`; close ids: t/1");
        let model = ask(Selection {
            task: Some("t/1".into()),
            models: vec!["c".into()],
            sample: None,
        });
        assert_eq!(
            model.to_string(),
            "no sample of task t/1 is by model `c`; its samples are by: a, b"
        );
        let sample = ask(Selection {
            task: Some("t/1".into()),
            models: vec!["a".into()],
            sample: Some(7),
        });
        assert_eq!(
            sample.to_string(),
            "no sample 7 of task t/1; its samples are 0, 1"
        );
    }

    #[test]
    fn close_ids_are_found_by_case_edits_and_suffix() {
        let ids: Vec<TaskId> = ["MBPP/12", "MBPP/120", "MBPP/2", "HumanEval/12", "demo/3"]
            .map(TaskId::from)
            .to_vec();
        let close = |asked: &str| -> Vec<String> {
            close_ids(asked, ids.iter())
                .into_iter()
                .map(|id| id.0)
                .collect()
        };
        assert_eq!(close("mbpp/12"), ["MBPP/12", "MBPP/2", "MBPP/120"]);
        assert_eq!(close("12"), ["HumanEval/12", "MBPP/12"]);
        assert_eq!(close("MBPP/1200"), ["MBPP/120", "MBPP/12"]);
        assert!(close("zzzzzzzz").is_empty());
    }

    #[test]
    fn unified_diff_as_diff_u_writes_it() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n";
        let new = "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
        assert_eq!(
            unified_diff(old, new, "x", "y"),
            "--- x\n+++ y\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -9,3 +9,4 @@\n i\n j\n k\n+l\n"
        );
        assert_eq!(unified_diff(old, old, "x", "y"), "");
        assert_eq!(
            unified_diff("", "one\n", "x", "y"),
            "--- x\n+++ y\n@@ -0,0 +1 @@\n+one\n"
        );
        // Changes close together share a hunk.
        assert_eq!(
            unified_diff("1\n2\n3\n4\n", "0\n2\n3\n5\n", "x", "y"),
            "--- x\n+++ y\n@@ -1,4 +1,4 @@\n-1\n+0\n 2\n 3\n-4\n+5\n"
        );
    }
}
