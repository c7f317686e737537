//! Reports: every metric per group of a selection, the dataset's distributions, and the results
//! bundle that carries tasks, results and metrics to the static site.
//!
//! Numbers are formatted here too ([`Report::table`]), so that the command line's tables and CSV
//! and the site's show the same digits.

use crate::code_metrics::CodeMetrics;
use crate::facets::{distribution, ComplexityMetric, Facet, GroupKey};
use crate::metrics::{
    group_by_unit, score_units, unit_key, CaseTotals, Metrics, PassAtK, ScoreOptions, Unit,
};
use crate::query::Query;
use crate::reference_tables::{generated_metrics, Generated, ReferenceTables};
use crate::results::{SampleResult, Verdict};
use crate::task::{Task, TaskId};
use serde::{Deserialize, Serialize};
// FxHash, not SipHash, for the maps that group results: SipHash was most of a rescore's
// time; a bundle crafted to collide only slows the tab or command that opened it, and every
// grouping is sorted afterwards, so iteration order is never observed.
use rustc_hash::FxHashMap as FastMap;

/// The metrics of one group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupRow {
    /// The group's value of each facet, in the order of [`Report::facets`].
    pub keys: Vec<String>,
    /// Its metrics.
    pub metrics: Metrics,
}

/// A distribution of the selected tasks over one facet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Distribution {
    /// The facet's name.
    pub facet: String,
    /// Each value with its number of tasks, in report order.
    pub counts: Vec<(String, u64)>,
}

/// Every metric of a selection, overall and per group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`crate::FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// The selection.
    pub query: Query,
    /// The facets grouped by, by name.
    pub facets: Vec<String>,
    /// Tasks selected.
    pub tasks: u64,
    /// Metrics of every selected sample together.
    pub overall: Metrics,
    /// Metrics per group, in facet order.
    pub groups: Vec<GroupRow>,
    /// The selected tasks by topic, year and complexity (ScenEval's Figs. 6 to 8).
    pub distributions: Vec<Distribution>,
    /// Static metrics of the selected samples against their tasks' first reference (ScenEval's
    /// Tables IV and V); empty when no result carries metrics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<ReferenceTables>,
    /// Results whose task is not among the tasks (not scored).
    #[serde(default, skip_serializing_if = "crate::results::is_zero")]
    pub results_without_task: u64,
    /// How many cases of the selected samples each judge decided (see
    /// [`crate::results::JudgedBy`]): `guest` counts the verdicts a candidate could forge.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub judged_by: std::collections::BTreeMap<crate::results::JudgedBy, u64>,
}

/// The facets whose distributions every report carries.
pub const DISTRIBUTION_FACETS: [Facet; 3] = [
    Facet::Topic,
    Facet::Year,
    Facet::Complexity(ComplexityMetric::Cyclomatic),
];

impl Report {
    /// What the selection holds, in one line, the same in the command line and the site:
    /// `20 tasks with samples (of 164 selected), 2000 samples scored` when some selected tasks
    /// have no sample, else `164 tasks selected, 16400 samples scored`; then how many samples
    /// were not run for want of a guest for their language, when any were.
    pub fn headline(&self) -> String {
        let count =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let samples = count(self.overall.samples, "sample", "samples");
        let headline = self.scored_headline(&samples, count);
        match self.overall.not_run {
            0 => headline,
            n => format!(
                "{headline}; {} not run (unsupported_language: no guest for their language yet), \
                 counted apart",
                count(n, "sample", "samples")
            ),
        }
    }

    fn scored_headline(&self, samples: &str, count: impl Fn(u64, &str, &str) -> String) -> String {
        if self.overall.tasks < self.tasks {
            format!(
                "{} with samples (of {} selected), {samples} scored",
                count(self.overall.tasks, "task", "tasks"),
                self.tasks
            )
        } else {
            format!(
                "{} selected, {samples} scored",
                count(self.tasks, "task", "tasks")
            )
        }
    }

    /// Scores the results that `query` selects, overall and grouped by the cross product of
    /// `facets` (a sample of a task with two topics counts in both topics' groups).
    pub fn new(tasks: &[Task], results: &[SampleResult], query: &Query, facets: &[Facet]) -> Self {
        Self::with_options(tasks, results, query, facets, &ScoreOptions::default())
    }

    /// [`Report::new`] with other k values or attempts allowed; `max_rate` is always taken from
    /// the selected results.
    pub fn with_options(
        tasks: &[Task],
        results: &[SampleResult],
        query: &Query,
        facets: &[Facet],
        options: &ScoreOptions,
    ) -> Self {
        let prepared = Prepared::new(tasks, results);
        Self::prepared(&prepared, tasks, results, query, facets, options)
    }

    /// [`Report::with_options`] over results already arranged in units by [`Prepared::new`]
    /// (from the same `tasks` and `results`): what the site does on every change of selection,
    /// so that rescoring never hashes a result again.
    pub fn prepared(
        prepared: &Prepared,
        tasks: &[Task],
        results: &[SampleResult],
        query: &Query,
        facets: &[Facet],
        options: &ScoreOptions,
    ) -> Self {
        // Whether a sample is selected depends only on its task and model: decide per unit.
        let (unit_tasks, units): (Vec<&Task>, Vec<Unit>) = prepared
            .units
            .iter()
            .filter_map(|unit| {
                let task = &tasks[unit.task as usize];
                let model = results[unit.results[0] as usize].model.as_deref();
                query.matches_sample(task, model).then(|| {
                    let results = unit.results.iter().map(|&i| &results[i as usize]);
                    (
                        task,
                        Unit {
                            key: (&task.id, model),
                            results: results.collect(),
                            cases: unit.cases,
                        },
                    )
                })
            })
            .unzip();
        let selected = || units.iter().flat_map(|u| u.results.iter().copied());
        let options = ScoreOptions {
            max_rate: crate::metrics::max_rate(selected()),
            ..options.clone()
        };

        // Facets depend only on the task and the model too, so a unit falls whole into its
        // groups: group units, not samples. Units come sorted, and each group keeps them in
        // that order, so every sum runs in a fixed order.
        let mut group_of: FastMap<Vec<GroupKey>, usize> = FastMap::default();
        let mut groups: Vec<(Vec<GroupKey>, Vec<&Unit>)> = Vec::new();
        if !facets.is_empty() {
            for (unit, task) in units.iter().zip(&unit_tasks) {
                for keys in key_product(facets, task, unit.key.1) {
                    let number = match group_of.get(&keys) {
                        Some(&number) => number,
                        None => {
                            group_of.insert(keys.clone(), groups.len());
                            groups.push((keys, Vec::new()));
                            groups.len() - 1
                        }
                    };
                    groups[number].1.push(unit);
                }
            }
        }
        groups.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let selected_tasks: Vec<&Task> = tasks.iter().filter(|t| query.matches_task(t)).collect();
        // Every sample: those whose code could not be analysed are counted by reason.
        let pairs: Vec<(Option<&CodeMetrics>, Generated<'_>, bool)> = units
            .iter()
            .zip(&unit_tasks)
            .flat_map(|(unit, task)| unit.results.iter().map(move |r| (*task, *r)))
            .map(|(task, result)| {
                let reference = task
                    .references
                    .first()
                    .and_then(|r| r.code_metrics.as_ref());
                let generated = generated_metrics(task, result);
                (reference, generated, result.verdict == Verdict::Passed)
            })
            .collect();
        Report {
            format_version: crate::FORMAT_VERSION,
            query: query.clone(),
            facets: facets.iter().map(ToString::to_string).collect(),
            tasks: selected_tasks.len() as u64,
            overall: score_units(&units, &options),
            groups: groups
                .into_iter()
                .map(|(keys, units)| GroupRow {
                    keys: keys.into_iter().map(|k| k.label).collect(),
                    metrics: score_units(units, &options),
                })
                .collect(),
            distributions: DISTRIBUTION_FACETS
                .iter()
                .map(|&facet| Distribution {
                    facet: facet.to_string(),
                    counts: distribution(selected_tasks.iter().copied(), facet)
                        .into_iter()
                        .map(|(k, n)| (k.label, n))
                        .collect(),
                })
                .collect(),
            comparison: ReferenceTables::of(&pairs),
            results_without_task: prepared.results_without_task,
            judged_by: crate::results::judged_by_counts(selected()),
        }
    }

    /// The report as a table: one row per group (or one `all` row), one column per metric.
    pub fn table(&self) -> Table {
        self.table_with_values().0
    }

    /// [`Report::table`] and, cell for cell, the number each cell shows before formatting
    /// (`None` for group keys and undefined metrics), so that a page can expose exact values.
    pub fn table_with_values(&self) -> (Table, Vec<Vec<Option<f64>>>) {
        let ks: Vec<u32> = self.overall.pass_at_k.ks().collect();
        let intervals = !self.overall.pass_at_k_interval.is_empty();
        let (attempts, epam) = self.optional_columns();
        let mut headers: Vec<String> = if self.facets.is_empty() {
            vec!["group".into()]
        } else {
            self.facets.clone()
        };
        headers.extend(["samples", "tasks", "passed"].iter().map(|s| s.to_string()));
        for &k in &ks {
            headers.push(PassAtK::name(k));
            if intervals {
                headers.push(format!("{}_low", PassAtK::name(k)));
                headers.push(format!("{}_high", PassAtK::name(k)));
            }
        }
        headers.extend(
            ["avg_pass_ratio", "sceneval_pass_rate", "solvability"]
                .iter()
                .map(|s| s.to_string()),
        );
        if attempts {
            headers.push(format!("attempts@{}", self.overall.attempt_k));
        }
        if epam {
            headers.push("epam".into());
        }
        let not_run = self.overall.not_run > 0;
        if not_run {
            headers.push("not_run".into());
        }
        let row = |keys: Vec<String>, m: &Metrics| -> (Vec<String>, Vec<Option<f64>>) {
            let mut values: Vec<Option<f64>> = vec![None; keys.len()];
            values.extend([m.samples, m.tasks, m.passed].map(|n| Some(n as f64)));
            for &k in &ks {
                values.push(m.pass_at_k.get(k));
                if intervals {
                    let interval = m.pass_at_k_interval.get(&k);
                    values.extend([interval.map(|i| i[0]), interval.map(|i| i[1])]);
                }
            }
            values.extend([m.avg_pass_ratio, m.sceneval_pass_rate, m.solvability]);
            if attempts {
                values.push(m.attempts);
            }
            if epam {
                values.push(m.epam);
            }
            let mut cells = keys;
            cells.extend([m.samples, m.tasks, m.passed].map(|n| n.to_string()));
            let first_metric = cells.len();
            cells.extend(values[first_metric..].iter().map(|v| number(*v)));
            if not_run {
                // A count, like `samples`: no decimals.
                values.push(Some(m.not_run as f64));
                cells.push(m.not_run.to_string());
            }
            (cells, values)
        };
        let (rows, values) = if self.facets.is_empty() {
            vec![row(vec!["all".into()], &self.overall)]
        } else {
            self.groups
                .iter()
                .map(|g| row(g.keys.clone(), &g.metrics))
                .collect()
        }
        .into_iter()
        .unzip();
        (Table { headers, rows }, values)
    }

    /// Whether the table has its `attempts@k` and `epam` columns: each needs data that samples
    /// may lack (which attempt a sample is; grades), and a column computed without it would read
    /// as a measurement. [`Report::hidden_columns`] says what is left out and why.
    fn optional_columns(&self) -> (bool, bool) {
        (self.overall.attempted > 0, self.overall.graded > 0)
    }

    /// The metric columns [`Report::table`] leaves out for want of data, with what they need,
    /// e.g. "attempts@3 needs samples with an `attempt` field".
    pub fn hidden_columns(&self) -> Vec<String> {
        let (attempts, epam) = self.optional_columns();
        let mut hidden = Vec::new();
        if !attempts && self.overall.samples > 0 {
            hidden.push(format!(
                "attempts@{} needs samples with an `attempt` field",
                self.overall.attempt_k
            ));
        }
        if !epam && self.overall.samples > 0 {
            hidden.push("epam needs samples with `grades` (accuracy, completeness)".to_owned());
        }
        hidden
    }
}

/// Results arranged once for any number of reports: joined with their tasks and split into
/// units (one task, one model) in (task id, model) order, as indices. Preparing hashes every
/// result's task id and model; a [`Report::prepared`] afterwards only walks the units.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prepared {
    units: Vec<PreparedUnit>,
    results_without_task: u64,
}

#[derive(Debug, Clone, PartialEq)]
struct PreparedUnit {
    /// Index of the task in `tasks`.
    task: u32,
    /// Indices of its results in `results`, in their order there; never empty.
    results: Vec<u32>,
    /// Its results' case totals.
    cases: CaseTotals,
}

impl Prepared {
    /// Arranges `results` against `tasks`; results whose task is missing are counted, not kept.
    /// Indices are `u32`: a bundle holds fewer than 2^32 results (the site runs on 32-bit wasm).
    pub fn new(tasks: &[Task], results: &[SampleResult]) -> Self {
        let by_id: FastMap<&TaskId, u32> = tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (&t.id, i as u32))
            .collect();
        let known = results.iter().enumerate().filter_map(|(i, r)| {
            let task = *by_id.get(&r.task_id)?;
            Some((unit_key(r), (task, i as u32)))
        });
        let units: Vec<PreparedUnit> = group_by_unit(known)
            .into_iter()
            .map(|(_, members)| PreparedUnit {
                task: members[0].0,
                cases: CaseTotals::of(members.iter().map(|&(_, i)| &results[i as usize])),
                results: members.iter().map(|&(_, i)| i).collect(),
            })
            .collect();
        let kept: usize = units.iter().map(|u| u.results.len()).sum();
        Prepared {
            units,
            results_without_task: (results.len() - kept) as u64,
        }
    }
}

impl Prepared {
    /// The results `query` selects, as indices into `results`, in their order there: the one
    /// selection rule of the pages that list samples.
    pub fn select_results(
        &self,
        tasks: &[Task],
        results: &[SampleResult],
        query: &Query,
    ) -> Vec<u32> {
        let mut selected: Vec<u32> = self
            .units
            .iter()
            .filter(|unit| {
                let model = results[unit.results[0] as usize].model.as_deref();
                query.matches_sample(&tasks[unit.task as usize], model)
            })
            .flat_map(|unit| unit.results.iter().copied())
            .collect();
        selected.sort_unstable();
        selected
    }

    /// The tasks `query` selects that one model solved (a sample of it passed) and the other
    /// did not, both ways: `[solved by a only, solved by b only]`, in natural id order. A task
    /// counts only when both models have samples of it.
    pub fn solved_by_one(
        &self,
        tasks: &[Task],
        results: &[SampleResult],
        query: &Query,
        models: [&str; 2],
    ) -> [Vec<TaskId>; 2] {
        // Per task: (has samples, solved) for each model.
        let mut per_task: std::collections::BTreeMap<&TaskId, [(bool, bool); 2]> =
            Default::default();
        for unit in &self.units {
            let task = &tasks[unit.task as usize];
            let model = results[unit.results[0] as usize].model.as_deref();
            let Some(slot) = models.iter().position(|m| Some(*m) == model) else {
                continue;
            };
            if !query.matches_sample(task, model) {
                continue;
            }
            let solved = unit
                .results
                .iter()
                .any(|&i| results[i as usize].verdict == Verdict::Passed);
            let entry = &mut per_task.entry(&task.id).or_default()[slot];
            *entry = (true, entry.1 || solved);
        }
        let only = |slot: usize| {
            let mut ids: Vec<TaskId> = per_task
                .iter()
                .filter(|(_, s)| s[0].0 && s[1].0 && s[slot].1 && !s[1 - slot].1)
                .map(|(id, _)| (*id).clone())
                .collect();
            ids.sort_by(|a, b| natural_cmp(&a.0, &b.0));
            ids
        };
        [only(0), only(1)]
    }

    /// One row per task `query` selects (in task id order): each of `models`' passed samples of
    /// samples run (`-` when it has none), and whether their pass rates differ (`yes`).
    pub fn passes_per_task(
        &self,
        tasks: &[Task],
        results: &[SampleResult],
        query: &Query,
        models: &[String],
    ) -> Table {
        let mut headers = vec!["task".to_owned()];
        headers.extend(models.iter().cloned());
        headers.push("differs".into());
        // task index -> per model (passed, run)
        let mut counts: std::collections::BTreeMap<&TaskId, Vec<Option<(u64, u64)>>> = tasks
            .iter()
            .filter(|t| query.matches_task(t))
            .map(|t| (&t.id, vec![None; models.len()]))
            .collect();
        for unit in &self.units {
            let task = &tasks[unit.task as usize];
            let model = results[unit.results[0] as usize].model.as_deref();
            let Some(slot) = models.iter().position(|m| Some(m.as_str()) == model) else {
                continue;
            };
            if !query.matches_sample(task, model) {
                continue;
            }
            if let Some(row) = counts.get_mut(&task.id) {
                let passed = unit
                    .results
                    .iter()
                    .filter(|&&i| results[i as usize].verdict == Verdict::Passed)
                    .count() as u64;
                row[slot] = Some((passed, unit.results.len() as u64));
            }
        }
        let mut counts: Vec<_> = counts.into_iter().collect();
        counts.sort_by(|a, b| natural_cmp(&a.0 .0, &b.0 .0));
        let rows = counts
            .into_iter()
            .map(|(task, cells)| {
                let rates: Vec<Option<f64>> = cells
                    .iter()
                    .map(|c| c.and_then(|(p, n)| (n > 0).then(|| p as f64 / n as f64)))
                    .collect();
                let mut row = vec![task.0.clone()];
                row.extend(
                    cells
                        .iter()
                        .map(|c| c.map_or("-".into(), |(p, n)| format!("{p}/{n}"))),
                );
                let differs = rates.windows(2).any(|w| w[0] != w[1]);
                row.push(if differs { "yes" } else { "" }.into());
                row
            })
            .collect();
        Table { headers, rows }
    }
}

/// The failing samples `query` selects, counted by cause ([`crate::results::failure_cause`]):
/// one row per cause, most frequent first, a column per model (`models`, or one "samples"
/// column when empty) and the total. `wasmeval report --by failure` prints it; the site's
/// Samples view shows it.
pub fn failures_by_cause(
    prepared: &Prepared,
    tasks: &[Task],
    results: &[SampleResult],
    query: &Query,
    models: &[String],
) -> Table {
    let columns: Vec<Option<&str>> = if models.is_empty() {
        vec![None]
    } else {
        models.iter().map(|m| Some(m.as_str())).collect()
    };
    let mut counts: std::collections::BTreeMap<String, Vec<u64>> = Default::default();
    for i in prepared.select_results(tasks, results, query) {
        let result = &results[i as usize];
        let Some(cause) = crate::results::failure_cause(result) else {
            continue;
        };
        let column = columns
            .iter()
            .position(|c| c.is_none() || *c == result.model.as_deref());
        let row = counts
            .entry(cause)
            .or_insert_with(|| vec![0; columns.len()]);
        if let Some(column) = column {
            row[column] += 1;
        }
    }
    let mut rows: Vec<(String, Vec<u64>)> = counts.into_iter().collect();
    rows.sort_by(|a, b| {
        b.1.iter()
            .sum::<u64>()
            .cmp(&a.1.iter().sum())
            .then(a.0.cmp(&b.0))
    });
    let mut headers = vec!["failure".to_owned()];
    match models.is_empty() {
        true => headers.push("samples".into()),
        false => {
            headers.extend(models.iter().cloned());
            headers.push("total".into());
        }
    }
    Table {
        headers,
        rows: rows
            .into_iter()
            .map(|(cause, counts)| {
                let mut row = vec![cause];
                row.extend(counts.iter().map(u64::to_string));
                if !models.is_empty() {
                    row.push(counts.iter().sum::<u64>().to_string());
                }
                row
            })
            .collect(),
    }
}

/// The one-line definition of a report column (`pass@10`, `avg_pass_ratio`, ...), as
/// docs/metrics.md gives it, for tooltips and legends; `None` for a group's key column.
pub fn column_help(header: &str) -> Option<String> {
    let k = |prefix: &str| {
        header
            .strip_prefix(prefix)
            .and_then(|k| k.parse::<u32>().ok())
    };
    if let Some(k) = k("pass@") {
        let chance = match k {
            1 => "the chance that a sample passes".to_owned(),
            k => format!("the chance that at least one of {k} samples passes"),
        };
        return Some(format!(
            "pass@{k}: {chance}, estimated per task and model (Chen et al. 2021) and averaged \
             (docs/metrics.md)"
        ));
    }
    for (suffix, bound) in [("_low", "lower"), ("_high", "upper")] {
        if let Some(k) = header
            .strip_suffix(suffix)
            .and_then(|h| h.strip_prefix("pass@"))
            .and_then(|k| k.parse::<u32>().ok())
        {
            return Some(format!(
                "the {bound} end of pass@{k}'s 95% interval: a bootstrap over tasks (1000 \
                 resamples of the (task, model) pairs, docs/metrics.md)"
            ));
        }
    }
    if let Some(k) = k("attempts@") {
        return Some(format!(
            "#attempt_{k}: the attempt that first passed among the first {k}, or {} when none did, \
             averaged per task and model; lower is better (MBUPP, docs/metrics.md)",
            k + 1
        ));
    }
    Some(
        match header {
            "samples" => "samples scored",
            "tasks" => "tasks with at least one sample scored",
            "passed" => "samples whose every test case passed",
            "avg_pass_ratio" => {
                "AvgPassRatio: the fraction of a sample's test cases that passed, averaged per task \
                 and model, then over them (AixBench, docs/metrics.md)"
            }
            "sceneval_pass_rate" => {
                "ScenEval pass rate: 1 - failed cases / all cases, pooled over every sample of the \
                 group (docs/metrics.md)"
            }
            "solvability" => {
                "solvability: the share of (task, model) pairs in which at least one sample passed \
                 (MBUPP, docs/metrics.md)"
            }
            "not_run" => {
                "samples not run because their language has no guest or compiler yet (verdict \
                 unsupported_language, e.g. Java): counted apart, in no other column"
            }
            "epam" => {
                "EPAM score: 0.4 accuracy + 0.4 completeness (graded 0 to 4) + 0.1 generation rate + \
                 0.1 attempt, over graded samples; needs `grades` in the samples (docs/metrics.md)"
            }
            _ => return None,
        }
        .to_owned(),
    )
}

/// Compares text as people read it: runs of digits by their value, so `HumanEval/2` comes before
/// `HumanEval/10`, and letters without regard to case (then with it, to break ties).
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    natural_cmp_folded(a, b, true)
        .then_with(|| natural_cmp_folded(a, b, false))
        // `01` and `1` read alike but differ: equal only when equal.
        .then_with(|| a.cmp(b))
}

fn natural_cmp_folded(a: &str, b: &str, fold: bool) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut a, mut b) = (a, b);
    loop {
        let (Some(x), Some(y)) = (a.chars().next(), b.chars().next()) else {
            return a.len().cmp(&b.len());
        };
        if x.is_ascii_digit() && y.is_ascii_digit() {
            let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
            let (da, db) = (digits(a), digits(b));
            let (na, nb) = (
                a[..da].trim_start_matches('0'),
                b[..db].trim_start_matches('0'),
            );
            let order = na.len().cmp(&nb.len()).then_with(|| na.cmp(nb));
            if order != Ordering::Equal {
                return order;
            }
            (a, b) = (&a[da..], &b[db..]);
        } else {
            let (fx, fy) = match fold {
                true => (
                    x.to_lowercase().next().unwrap_or(x),
                    y.to_lowercase().next().unwrap_or(y),
                ),
                false => (x, y),
            };
            if fx != fy {
                return fx.cmp(&fy);
            }
            (a, b) = (&a[x.len_utf8()..], &b[y.len_utf8()..]);
        }
    }
}

/// The tasks `query` selects, in their order.
pub fn select_tasks<'a>(tasks: &'a [Task], query: &Query) -> Vec<&'a Task> {
    tasks.iter().filter(|t| query.matches_task(t)).collect()
}

/// A metric as reports show it: four decimals, or `-` when undefined.
pub fn number(value: Option<f64>) -> String {
    value.map_or("-".into(), |v| format!("{v:.4}"))
}

/// Every combination of the facets' values for one sample.
fn key_product(facets: &[Facet], task: &Task, model: Option<&str>) -> Vec<Vec<GroupKey>> {
    let mut combinations: Vec<Vec<GroupKey>> = vec![Vec::new()];
    for facet in facets {
        let values = facet.values(task, model);
        combinations = combinations
            .into_iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut keys = prefix.clone();
                    keys.push(v.clone());
                    keys
                })
            })
            .collect();
    }
    combinations
}

/// A table of text cells, for terminals, CSV and the site's exports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Column names.
    pub headers: Vec<String>,
    /// Rows, each as long as `headers`.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// RFC 4180 CSV: fields with a comma, quote or line break are quoted; lines end with CRLF.
    pub fn to_csv(&self) -> String {
        let line = |cells: &[String]| -> String {
            let quoted: Vec<String> = cells
                .iter()
                .map(|c| {
                    if c.contains([',', '"', '\n', '\r']) {
                        format!("\"{}\"", c.replace('"', "\"\""))
                    } else {
                        c.clone()
                    }
                })
                .collect();
            quoted.join(",") + "\r\n"
        };
        std::iter::once(line(&self.headers))
            .chain(self.rows.iter().map(|r| line(r)))
            .collect()
    }

    /// Aligned columns for a terminal: text left, numbers right.
    pub fn to_text(&self) -> String {
        let widths: Vec<usize> = (0..self.headers.len())
            .map(|i| {
                std::iter::once(&self.headers[i])
                    .chain(self.rows.iter().map(|r| &r[i]))
                    .map(|c| c.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let numeric = |i: usize| {
            self.rows
                .iter()
                .all(|r| r[i] == "-" || r[i].parse::<f64>().is_ok())
        };
        let line = |cells: &[String]| -> String {
            let padded: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if numeric(i) {
                        format!("{c:>width$}", width = widths[i])
                    } else {
                        format!("{c:<width$}", width = widths[i])
                    }
                })
                .collect();
            padded.join("  ").trim_end().to_owned() + "\n"
        };
        std::iter::once(line(&self.headers))
            .chain(self.rows.iter().map(|r| line(r)))
            .collect()
    }
}

/// What a results bundle declares itself to be, so the site can refuse other JSON clearly.
pub const BUNDLE_KIND: &str = "wasmeval-bundle";

/// Everything the static site needs, in one JSON file: the tasks with their metadata, every
/// result, and the headline metrics (overall and per model) as the command line computed them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bundle {
    /// Always [`BUNDLE_KIND`].
    pub kind: String,
    /// [`crate::FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// The tasks.
    pub tasks: Vec<Task>,
    /// The results, in sample order.
    pub results: Vec<SampleResult>,
    /// Metrics of everything, grouped by model.
    pub metrics: Report,
    /// What the bundle is, for the site's header (absent in bundles written before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<About>,
    /// The runs its results combine, when several were ([`combine_runs`]), so that a sample
    /// keeps the number its run's samples file gave it ([`crate::show::SampleNumber`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<RunPart>,
}

/// One of several runs combined: its name, and the index its results start at once combined
/// (its sample `n` is index `first_index + n`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunPart {
    /// The run's name (its folder's or bundle's, as [`run_name`] gives it).
    pub name: String,
    /// The combined index of its sample 0.
    pub first_index: u64,
}

/// What a bundle is: the site's header names it, so that a screenshot or a shared link says
/// whose numbers it shows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct About {
    /// The run's name (its output folder's), or the runs' names joined by ` + `.
    pub name: String,
    /// When its results were written, `YYYY-MM-DD` (UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// A note for whoever opens it, such as [`DEMO_NOTE`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What the built-in demo's bundle says of itself.
pub const DEMO_NOTE: &str = "Synthetic data: the demo's tasks and samples were written for \
     wasmeval, and its models (hare-1b, tortoise-7b) are fictional. No real model is measured here.";

/// The UTC calendar date (`YYYY-MM-DD`) of a time given in seconds since 1970 (Howard
/// Hinnant's days-to-civil algorithm), so that the command line needs no date crate.
pub fn utc_date(unix_seconds: i64) -> String {
    let days = unix_seconds.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

impl Bundle {
    /// A bundle of `tasks` and `results`, with metrics by model.
    pub fn new(tasks: Vec<Task>, results: Vec<SampleResult>) -> Self {
        let metrics = Report::new(&tasks, &results, &Query::default(), &[Facet::Model]);
        Bundle {
            kind: BUNDLE_KIND.into(),
            format_version: crate::FORMAT_VERSION,
            tasks,
            results,
            metrics,
            about: None,
            runs: Vec::new(),
        }
    }

    /// The bundle with the runs its results combine.
    pub fn with_runs(self, runs: Vec<RunPart>) -> Self {
        Bundle { runs, ..self }
    }

    /// The bundle with `about` said of it.
    pub fn with_about(self, about: About) -> Self {
        Bundle {
            about: Some(about),
            ..self
        }
    }

    /// Parses a bundle, saying what is wrong with the path of the field (`results[3].verdict`).
    /// A run's `results.jsonl` (or one of its lines) is named as such, with the command that
    /// makes a bundle of its run.
    pub fn parse(text: &str) -> Result<Bundle, String> {
        let results_line = |line: &str| {
            serde_json::from_str::<serde_json::Value>(line)
                .is_ok_and(|v| v.get("verdict").is_some() && v.get("task_id").is_some())
        };
        let results_file = || {
            "this is a run's results.jsonl (one result a line), not a bundle: make one with \
             `wasmeval report RUN_FOLDER --bundle bundle.json` (RUN_FOLDER is the --out of \
             `wasmeval run`) and open that"
                .to_owned()
        };
        let value: serde_json::Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(_) if text.lines().next().is_some_and(results_line) => return Err(results_file()),
            Err(e) => return Err(format!("not JSON: {e}")),
        };
        if value.get("kind").is_none() && results_line(text) {
            return Err(results_file());
        }
        match value.get("kind").and_then(|k| k.as_str()) {
            Some(BUNDLE_KIND) => {}
            Some(other) => return Err(format!("kind: expected `{BUNDLE_KIND}`, found `{other}`")),
            None => return Err(format!("kind: missing; this is not a {BUNDLE_KIND}")),
        }
        match value.get("format_version").and_then(|v| v.as_u64()) {
            Some(v) if v <= u64::from(crate::FORMAT_VERSION) => {}
            Some(v) => {
                return Err(format!(
                    "format_version: {v} is newer than this reader's {}",
                    crate::FORMAT_VERSION
                ))
            }
            None => return Err("format_version: missing".into()),
        }
        serde_path_to_error::deserialize(value).map_err(|e| format!("{}: {}", e.path(), e.inner()))
    }
}

/// One run to combine with others: its name (a folder or file name, which labels its results
/// that name no model), its tasks and its results.
#[derive(Debug, Clone)]
pub struct NamedRun {
    /// The folder's or file's name.
    pub name: String,
    /// Its tasks.
    pub tasks: Vec<Task>,
    /// Its results.
    pub results: Vec<SampleResult>,
    /// The runs it combines already (a bundle of several runs), else none.
    pub parts: Vec<RunPart>,
}

/// Runs combined by [`combine_runs`].
#[derive(Debug, Clone)]
pub struct Combined {
    /// The tasks, once.
    pub tasks: Vec<Task>,
    /// Every run's results, renumbered.
    pub results: Vec<SampleResult>,
    /// Where each run's results start (none for a single run that combines none).
    pub runs: Vec<RunPart>,
}

/// The name a run gets from its folder's or bundle file's name: the bundle's without `.json`.
pub fn run_name(file_name: &str) -> &str {
    file_name.strip_suffix(".json").unwrap_or(file_name)
}

/// Several runs over the same tasks as one: the tasks once, every run's results after the
/// previous run's, renumbered so that sample indexes stay distinct, and each result without a
/// model labelled by its run's name. Runs over different task sets are refused, naming the first
/// run that differs and a task that differs: their scores would not be comparable.
pub fn combine(runs: Vec<NamedRun>) -> Result<(Vec<Task>, Vec<SampleResult>), String> {
    combine_runs(runs).map(|c| (c.tasks, c.results))
}

/// [`combine`], also saying where each run's results start ([`Combined::runs`]; a run that
/// combines several already gives its own parts, moved by its offset).
pub fn combine_runs(runs: Vec<NamedRun>) -> Result<Combined, String> {
    let mut runs = runs.into_iter();
    let Some(first) = runs.next() else {
        return Err("no run to combine".into());
    };
    let single = runs.len() == 0;
    let by_id = |tasks: &[Task]| -> std::collections::BTreeMap<crate::TaskId, Task> {
        tasks.iter().map(|t| (t.id.clone(), t.clone())).collect()
    };
    let reference = by_id(&first.tasks);
    let mut results = Vec::new();
    let mut next_index = 0u64;
    let mut parts = Vec::new();
    let (first_name, first_tasks) = (first.name.clone(), first.tasks.clone());
    for run in std::iter::once(first).chain(runs) {
        let tasks = by_id(&run.tasks);
        if tasks != reference {
            let differing = reference
                .keys()
                .chain(tasks.keys())
                .find(|id| reference.get(*id) != tasks.get(*id))
                .map_or_else(String::new, |id| format!(" (task {id} differs)"));
            return Err(format!(
                "{} and {} were run on different tasks{differing}: combine runs of one task set",
                first_name, run.name
            ));
        }
        let offset = next_index;
        if single {
            parts = run.parts.clone();
        } else if run.parts.is_empty() {
            parts.push(RunPart {
                name: run.name.clone(),
                first_index: offset,
            });
        } else {
            parts.extend(run.parts.iter().map(|p| RunPart {
                name: p.name.clone(),
                first_index: p.first_index + offset,
            }));
        }
        for mut result in run.results {
            if !single {
                result.index += offset;
                if result.model.is_none() {
                    result.model = Some(run.name.clone());
                }
            }
            next_index = next_index.max(result.index + 1);
            results.push(result);
        }
    }
    Ok(Combined {
        tasks: first_tasks,
        results,
        runs: parts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_a_dropped_results_file_is_named_with_the_command_that_makes_a_bundle() {
        // Issue 40: dropping results.jsonl on the site said "not JSON: trailing characters".
        let line =
            r#"{"format_version":1,"index":0,"task_id":"demo/0","verdict":"passed","cases":[]}"#;
        for text in [format!("{line}\n{line}\n"), format!("{line}\n")] {
            let error = Bundle::parse(&text).unwrap_err();
            assert!(
                error.contains("results.jsonl") && error.contains("--bundle"),
                "{error}"
            );
        }
        assert!(Bundle::parse("{").unwrap_err().starts_with("not JSON"));
    }

    #[test]
    fn tasks_solved_by_one_model_only_are_listed_both_ways() {
        let bundle = crate::synthetic::bundle(600, 5);
        let prepared = Prepared::new(&bundle.tasks, &bundle.results);
        let models = ["model-a", "model-b"];
        let [a_only, b_only] =
            prepared.solved_by_one(&bundle.tasks, &bundle.results, &Query::default(), models);
        let solved = |model: &str, id: &TaskId| {
            bundle.results.iter().any(|r| {
                &r.task_id == id
                    && r.model.as_deref() == Some(model)
                    && r.verdict == Verdict::Passed
            })
        };
        assert!(!a_only.is_empty() || !b_only.is_empty());
        assert!(a_only
            .iter()
            .all(|id| solved("model-a", id) && !solved("model-b", id)));
        assert!(b_only
            .iter()
            .all(|id| solved("model-b", id) && !solved("model-a", id)));
        // Every task solved by exactly one of them is listed.
        let expected = bundle
            .tasks
            .iter()
            .filter(|t| solved("model-a", &t.id) && !solved("model-b", &t.id))
            .filter(|t| {
                bundle
                    .results
                    .iter()
                    .any(|r| r.task_id == t.id && r.model.as_deref() == Some("model-b"))
            })
            .count();
        assert_eq!(a_only.len(), expected);
    }

    #[test]
    fn every_metric_column_of_a_report_has_a_definition() {
        let bundle = crate::synthetic::bundle(100, 3);
        let options = ScoreOptions {
            intervals: true,
            ..ScoreOptions::default()
        };
        let report = Report::with_options(
            &bundle.tasks,
            &bundle.results,
            &Query::default(),
            &[Facet::Model],
            &options,
        );
        let headers = report.table().headers;
        assert!(headers.contains(&"pass@1_low".to_owned()), "{headers:?}");
        let undefined: Vec<&String> = headers
            .iter()
            .skip(1)
            .filter(|h| column_help(h).is_none())
            .collect();
        assert!(undefined.is_empty(), "{undefined:?}");
        assert!(column_help("pass@10")
            .unwrap()
            .contains("at least one of 10 samples"));
        assert_eq!(column_help("model"), None);
    }

    #[test]
    fn metrics_without_their_data_are_hidden_and_said_so() {
        let mut bundle = crate::synthetic::bundle(20, 3);
        let full = Report::new(&bundle.tasks, &bundle.results, &Query::default(), &[]);
        assert!(full.table().headers.contains(&"attempts@3".to_owned()));
        assert!(full.table().headers.contains(&"epam".to_owned()));
        assert!(full.hidden_columns().is_empty());
        for result in &mut bundle.results {
            result.info.attempt = None;
            result.info.grades = None;
        }
        let bare = Report::new(&bundle.tasks, &bundle.results, &Query::default(), &[]);
        let (table, values) = bare.table_with_values();
        assert!(!table
            .headers
            .iter()
            .any(|h| h.starts_with("attempts@") || h == "epam"));
        assert_eq!(table.headers.len(), table.rows[0].len());
        assert_eq!(table.headers.len(), values[0].len());
        assert_eq!(
            bare.hidden_columns(),
            [
                "attempts@3 needs samples with an `attempt` field",
                "epam needs samples with `grades` (accuracy, completeness)"
            ]
        );
    }

    #[test]
    fn intervals_are_columns_beside_their_pass_at_k() {
        let bundle = crate::synthetic::bundle(50, 3);
        let options = ScoreOptions {
            intervals: true,
            ..ScoreOptions::default()
        };
        let report = Report::with_options(
            &bundle.tasks,
            &bundle.results,
            &Query::default(),
            &[],
            &options,
        );
        let (table, values) = report.table_with_values();
        let at = |name: &str| table.headers.iter().position(|h| h == name).unwrap();
        let (low, mid, high) = (at("pass@1_low"), at("pass@1"), at("pass@1_high"));
        assert_eq!((low, high), (mid + 1, mid + 2));
        let [low, mid, high] = [low, mid, high].map(|i| values[0][i].unwrap());
        assert!(low < mid && mid < high, "{low} {mid} {high}");
        // Off by default: the tables of files written before stay as they were.
        let plain = Report::new(&bundle.tasks, &bundle.results, &Query::default(), &[]);
        assert!(!plain.table().headers.iter().any(|h| h.ends_with("_low")));
    }

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(utc_date(0), "1970-01-01");
        assert_eq!(utc_date(951_782_400), "2000-02-29");
        assert_eq!(utc_date(1_795_600_000), "2026-11-25");
        assert_eq!(utc_date(-1), "1969-12-31");
    }

    #[test]
    fn natural_order_reads_numbers_by_value() {
        let mut ids = vec![
            "HumanEval/10",
            "HumanEval/2",
            "HumanEval/1",
            "a",
            "Zed",
            "HumanEval/02b",
        ];
        ids.sort_by(|a, b| natural_cmp(a, b));
        let expected = [
            "a",
            "HumanEval/1",
            "HumanEval/2",
            "HumanEval/02b",
            "HumanEval/10",
            "Zed",
        ];
        assert_eq!(ids, expected);
    }

    #[test]
    fn csv_quotes_what_needs_it() {
        let table = Table {
            headers: vec!["topic".into(), "n".into()],
            rows: vec![
                vec!["a, b".into(), "1".into()],
                vec!["say \"x\"".into(), "2".into()],
            ],
        };
        assert_eq!(
            table.to_csv(),
            "topic,n\r\n\"a, b\",1\r\n\"say \"\"x\"\"\",2\r\n"
        );
        assert_eq!(table.to_text(), "topic    n\na, b     1\nsay \"x\"  2\n");
    }

    #[test]
    fn runs_combine_with_distinct_indexes_and_their_names_as_models_but_only_over_one_task_set() {
        let bundle = crate::synthetic::bundle(20, 3);
        let unlabelled: Vec<SampleResult> = bundle
            .results
            .iter()
            .cloned()
            .map(|r| SampleResult { model: None, ..r })
            .collect();
        let run = |name: &str, results: Vec<SampleResult>| NamedRun {
            name: name.into(),
            tasks: bundle.tasks.clone(),
            results,
            parts: Vec::new(),
        };
        let (tasks, results) = combine(vec![
            run("a", unlabelled.clone()),
            run("b", bundle.results.clone()),
        ])
        .unwrap();
        assert_eq!(tasks.len(), bundle.tasks.len());
        assert_eq!(results.len(), 2 * bundle.results.len());
        let indexes: std::collections::BTreeSet<u64> = results.iter().map(|r| r.index).collect();
        assert_eq!(indexes.len(), results.len(), "indexes stay distinct");
        let (first, second) = results.split_at(bundle.results.len());
        assert!(first.iter().all(|r| r.model.as_deref() == Some("a")));
        // Results that name their model keep it.
        assert!(second
            .iter()
            .zip(&bundle.results)
            .all(|(r, o)| r.model == o.model));
        // One run alone is left as it is.
        let (_, alone) = combine(vec![run("a", unlabelled.clone())]).unwrap();
        assert_eq!(alone, unlabelled);
        // Where each run starts: a combination combined again keeps its runs, moved.
        let n = bundle.results.len() as u64;
        let ab = combine_runs(vec![
            run("a", unlabelled.clone()),
            run("b", bundle.results.clone()),
        ])
        .unwrap();
        let starts = |parts: &[RunPart]| -> Vec<(String, u64)> {
            parts
                .iter()
                .map(|p| (p.name.clone(), p.first_index))
                .collect()
        };
        assert_eq!(starts(&ab.runs), [("a".into(), 0), ("b".into(), n)]);
        let abc = combine_runs(vec![
            run("c", bundle.results.clone()),
            NamedRun {
                parts: ab.runs.clone(),
                ..run("ab", ab.results.clone())
            },
        ])
        .unwrap();
        assert_eq!(
            starts(&abc.runs),
            [("c".into(), 0), ("a".into(), n), ("b".into(), 2 * n)]
        );
        let alone = combine_runs(vec![NamedRun {
            parts: ab.runs.clone(),
            ..run("ab", ab.results)
        }])
        .unwrap();
        assert_eq!(alone.runs, ab.runs);

        let mut other = run("c", unlabelled);
        other.tasks[0].prompt.push_str("changed");
        let refused = combine(vec![run("a", Vec::new()), other]).unwrap_err();
        assert!(
            refused.starts_with("a and c were run on different tasks (task "),
            "{refused}"
        );
    }

    #[test]
    fn selection_and_per_task_passes_follow_the_query() {
        let bundle = crate::synthetic::bundle(200, 7);
        let prepared = Prepared::new(&bundle.tasks, &bundle.results);
        let everything = prepared.select_results(&bundle.tasks, &bundle.results, &Query::default());
        assert_eq!(everything.len(), bundle.results.len());
        assert!(everything.windows(2).all(|w| w[0] < w[1]));
        let model = bundle.results[0].model.clone().unwrap();
        let one = Query {
            models: vec![model.clone()],
            ..Query::default()
        };
        let selected = prepared.select_results(&bundle.tasks, &bundle.results, &one);
        let expected = bundle
            .results
            .iter()
            .filter(|r| r.model.as_deref() == Some(model.as_str()))
            .count();
        assert_eq!(selected.len(), expected);
        let table = prepared.passes_per_task(
            &bundle.tasks,
            &bundle.results,
            &one,
            std::slice::from_ref(&model),
        );
        assert_eq!(table.headers, ["task", model.as_str(), "differs"]);
        assert_eq!(table.rows.len(), select_tasks(&bundle.tasks, &one).len());
        // Every sample of the model is counted once, in its task's row.
        let run: u64 = table
            .rows
            .iter()
            .filter_map(|row| row[1].split_once('/'))
            .map(|(_, n)| n.parse::<u64>().unwrap())
            .sum();
        assert_eq!(run as usize, expected);
    }

    #[test]
    fn pass_at_k_is_keyed_by_k_and_written_by_name() {
        let pass = PassAtK([(10, 0.5), (2, 0.25), (1, 0.125)].into_iter().collect());
        assert_eq!(pass.ks().collect::<Vec<_>>(), [1, 2, 10]);
        let text = serde_json::to_string(&pass).unwrap();
        assert_eq!(text, r#"{"pass@1":0.125,"pass@2":0.25,"pass@10":0.5}"#);
        assert_eq!(serde_json::from_str::<PassAtK>(&text).unwrap(), pass);
        assert!(serde_json::from_str::<PassAtK>(r#"{"pass@x":1}"#).is_err());
    }
}
