//! Generated versus reference code (ScenEval's Tables IV and V): for each static metric, the
//! averages over the reference solutions (AvgRS) and the generated solutions (AvgGS), how often
//! the generated code is above, equal to or below its task's reference, and the average absolute
//! difference; over all samples and split by correct and incorrect samples.
//!
//! Choices (ScenEval compares each generated solution with its task's reference):
//! - The unit is the **sample**: each generated sample is paired with its task's reference, and
//!   the percentages are of the paired samples (a task with 100 samples weighs 100 times).
//! - A sample whose task has no reference metrics (none given, or not analysable) is counted in
//!   `samples` but not compared, and is left out of every average, so AvgRS and AvgGS are over
//!   the same pairs and AvgGS − AvgRS is the mean signed difference. AvgRS is thus the average of
//!   the reference's value over the paired samples (each sample bringing its task's reference).
//! - Percentages are 0–100; averages of an empty set are `None` (shown as `-`).
//! - A sample whose own code could not be analysed (syntax errors, no analyser for its language,
//!   not read) is counted in `samples` and, by reason, in `not_analysed`, and compared with
//!   nothing: the table says how many were left out and why.

use crate::code_metrics::{CodeMetrics, NotAnalysed};
use crate::report::Table;
use crate::results::SampleResult;
use crate::task::{Language, Task};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A generated sample's metrics, or why it has none.
pub type Generated<'a> = Result<&'a CodeMetrics, NotAnalysed>;

/// The metrics of `result`'s code, or why it has none: the reason the run recorded, else (in
/// results written before runs recorded it) `language` for a language with no analyser, and
/// `unknown` otherwise.
pub fn generated_metrics<'a>(task: &Task, result: &'a SampleResult) -> Generated<'a> {
    match (&result.code_metrics, result.not_analysed) {
        (Some(metrics), _) => Ok(metrics),
        (None, Some(why)) => Err(why),
        (None, None) if task.language == Language::Java => Err(NotAnalysed::Language),
        (None, None) => Err(NotAnalysed::Unknown),
    }
}

/// Reads one metric of a program.
pub type MetricFn = fn(&CodeMetrics) -> u32;

/// The metrics compared, in table order, with their names.
pub const METRICS: [(&str, MetricFn); 8] = [
    ("loc", |m| m.loc),
    ("lloc", |m| m.lloc),
    ("cloc", |m| m.cloc),
    ("cl", |m| m.cl),
    ("nos", |m| m.nos),
    ("cyclomatic", |m| m.cyclomatic),
    ("cognitive", |m| m.cognitive),
    ("max_nesting", |m| m.max_nesting),
];

/// One metric's comparison over a set of samples.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricRow {
    /// The metric's name (a field of [`CodeMetrics`]).
    pub metric: String,
    /// AvgRS: average of the reference's value over the paired samples.
    pub avg_reference: Option<f64>,
    /// AvgGS: average of the generated sample's value over the paired samples.
    pub avg_generated: Option<f64>,
    /// % of paired samples whose value is above their reference's.
    pub above: Option<f64>,
    /// % of paired samples whose value equals their reference's.
    pub equal: Option<f64>,
    /// % of paired samples whose value is below their reference's.
    pub below: Option<f64>,
    /// Average of |generated − reference| over the paired samples.
    pub avg_abs_difference: Option<f64>,
}

/// The comparison of one set of samples (all, correct or incorrect).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Split {
    /// Samples in the set, analysed or not.
    pub samples: u64,
    /// Samples of the set paired with a reference (the base of every number in `rows`).
    pub compared: u64,
    /// Samples of the set whose code could not be analysed, by reason (in no row).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub not_analysed: BTreeMap<NotAnalysed, u64>,
    /// One row per metric, in [`METRICS`] order.
    pub rows: Vec<MetricRow>,
}

/// ScenEval's Tables IV (all samples) and V (correct and incorrect samples).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReferenceTables {
    /// Every sample.
    pub all: Split,
    /// Samples that passed their tests.
    pub correct: Split,
    /// Samples that did not.
    pub incorrect: Split,
}

impl ReferenceTables {
    /// [`ReferenceTables::new`], or `None` when there is nothing to show: no sample analysed, and
    /// none saying why (results written before samples were analysed).
    pub fn of(samples: &[(Option<&CodeMetrics>, Generated<'_>, bool)]) -> Option<Self> {
        samples
            .iter()
            .any(|(_, generated, _)| !matches!(generated, Err(NotAnalysed::Unknown)))
            .then(|| ReferenceTables::new(samples))
    }

    /// Compares each sample (`generated`, whether it `passed`) with its task's `reference`.
    pub fn new(samples: &[(Option<&CodeMetrics>, Generated<'_>, bool)]) -> Self {
        let pick = |filter: fn(bool) -> bool| {
            Split::new(
                samples
                    .iter()
                    .filter(|(_, _, passed)| filter(*passed))
                    .map(|(r, g, _)| (*r, *g)),
            )
        };
        ReferenceTables {
            all: pick(|_| true),
            correct: pick(|passed| passed),
            incorrect: pick(|passed| !passed),
        }
    }

    /// The three splits as one table (columns: set, metric, n, AvgRS, AvgGS, % above, % equal,
    /// % below, avg |diff|), numbers with two decimals.
    pub fn table(&self) -> Table {
        let mut table = Split::empty_table();
        for (name, split) in [
            ("all", &self.all),
            ("correct", &self.correct),
            ("incorrect", &self.incorrect),
        ] {
            table.rows.extend(split.table_rows(name));
        }
        table
    }
}

impl Split {
    /// Compares (reference, generated) pairs; a sample not analysed is counted by its reason.
    pub fn new<'a>(
        pairs: impl IntoIterator<Item = (Option<&'a CodeMetrics>, Generated<'a>)>,
    ) -> Self {
        let pairs: Vec<(Option<&CodeMetrics>, Generated<'a>)> = pairs.into_iter().collect();
        let mut not_analysed = BTreeMap::new();
        for (_, generated) in &pairs {
            if let Err(why) = generated {
                *not_analysed.entry(*why).or_insert(0) += 1;
            }
        }
        let paired: Vec<(&CodeMetrics, &CodeMetrics)> = pairs
            .iter()
            .filter_map(|(r, g)| match (r, g) {
                (Some(r), Ok(g)) => Some((*r, *g)),
                _ => None,
            })
            .collect();
        let n = paired.len() as f64;
        let average = |sum: f64| (n > 0.0).then(|| sum / n);
        let rows = METRICS
            .iter()
            .map(|(metric, value)| {
                let (mut reference, mut generated, mut abs) = (0.0, 0.0, 0.0);
                let (mut above, mut equal, mut below) = (0.0, 0.0, 0.0);
                for (r, g) in &paired {
                    let (r, g) = (f64::from(value(r)), f64::from(value(g)));
                    reference += r;
                    generated += g;
                    abs += (g - r).abs();
                    match g.partial_cmp(&r) {
                        Some(std::cmp::Ordering::Greater) => above += 1.0,
                        Some(std::cmp::Ordering::Less) => below += 1.0,
                        _ => equal += 1.0,
                    }
                }
                MetricRow {
                    metric: (*metric).to_owned(),
                    avg_reference: average(reference),
                    avg_generated: average(generated),
                    above: average(100.0 * above),
                    equal: average(100.0 * equal),
                    below: average(100.0 * below),
                    avg_abs_difference: average(abs),
                }
            })
            .collect();
        Split {
            samples: pairs.len() as u64,
            compared: paired.len() as u64,
            not_analysed,
            rows,
        }
    }

    /// What the numbers are over, and what was left out: `3 of 10 samples paired with a
    /// reference; 2 not analysed: 1 with syntax errors, 1 not read (over --max-sample-bytes); 5
    /// whose task has no analysed reference`.
    pub fn coverage(&self) -> String {
        let plural = |n: u64| if n == 1 { "sample" } else { "samples" };
        let mut text = format!(
            "{} of {} {} paired with a reference",
            self.compared,
            self.samples,
            plural(self.samples)
        );
        let left_out: u64 = self.not_analysed.values().sum();
        if left_out > 0 {
            let reasons: Vec<String> = self
                .not_analysed
                .iter()
                .map(|(why, n)| format!("{n} {}", why.describe()))
                .collect();
            text.push_str(&format!(
                "; {left_out} not analysed: {}",
                reasons.join(", ")
            ));
        }
        let without_reference = self.samples - self.compared - left_out;
        if without_reference > 0 {
            text.push_str(&format!(
                "; {without_reference} whose task has no analysed reference"
            ));
        }
        text
    }

    /// This set as a table, its first column saying `name`.
    pub fn table(&self, name: &str) -> Table {
        let mut table = Self::empty_table();
        table.rows = self.table_rows(name);
        table
    }

    fn empty_table() -> Table {
        Table {
            headers: [
                "set",
                "metric",
                "n",
                "AvgRS",
                "AvgGS",
                "%above",
                "%equal",
                "%below",
                "avg|diff|",
            ]
            .map(String::from)
            .to_vec(),
            rows: Vec::new(),
        }
    }

    fn table_rows(&self, name: &str) -> Vec<Vec<String>> {
        let number = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"));
        self.rows
            .iter()
            .map(|row| {
                vec![
                    name.to_owned(),
                    row.metric.clone(),
                    self.compared.to_string(),
                    number(row.avg_reference),
                    number(row.avg_generated),
                    number(row.above),
                    number(row.equal),
                    number(row.below),
                    number(row.avg_abs_difference),
                ]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(loc: u32, cyclomatic: u32) -> CodeMetrics {
        CodeMetrics {
            loc,
            cyclomatic,
            ..CodeMetrics::default()
        }
    }

    #[test]
    fn hand_computed_tables() {
        // Task A's reference: loc 10, cc 3. Task B's: loc 4, cc 1. Task C has no reference.
        let (a, b) = (metrics(10, 3), metrics(4, 1));
        let s1 = metrics(12, 3); // A, passed: loc above (+2), cc equal
        let s2 = metrics(10, 2); // A, failed: loc equal, cc below (-1)
        let s3 = metrics(4, 4); // B, passed: loc equal, cc above (+3)
        let s4 = metrics(7, 9); // C, failed: not compared
        let samples = [
            (Some(&a), Ok(&s1), true),
            (Some(&a), Ok(&s2), false),
            (Some(&b), Ok(&s3), true),
            (None, Ok(&s4), false),
        ];
        let table = ReferenceTables::new(&samples);

        assert_eq!((table.all.samples, table.all.compared), (4, 3));
        let loc = &table.all.rows[0];
        assert_eq!(loc.metric, "loc");
        // AvgRS (10 + 10 + 4) / 3 = 8; AvgGS (12 + 10 + 4) / 3 = 26/3.
        assert_eq!(loc.avg_reference, Some(8.0));
        assert!((loc.avg_generated.unwrap() - 26.0 / 3.0).abs() < 1e-12);
        assert!((loc.above.unwrap() - 100.0 / 3.0).abs() < 1e-12);
        assert!((loc.equal.unwrap() - 200.0 / 3.0).abs() < 1e-12);
        assert_eq!(loc.below, Some(0.0));
        // |2| + 0 + 0 over 3.
        assert!((loc.avg_abs_difference.unwrap() - 2.0 / 3.0).abs() < 1e-12);

        let cc = &table.all.rows[5];
        assert_eq!(cc.metric, "cyclomatic");
        // AvgRS (3 + 3 + 1) / 3; AvgGS (3 + 2 + 4) / 3 = 3; |0| + |1| + |3| = 4 over 3.
        assert!((cc.avg_reference.unwrap() - 7.0 / 3.0).abs() < 1e-12);
        assert_eq!(cc.avg_generated, Some(3.0));
        assert!((cc.avg_abs_difference.unwrap() - 4.0 / 3.0).abs() < 1e-12);

        // Correct: s1, s3. loc: above 50 %, equal 50 %; cc: equal 50 %, above 50 %.
        assert_eq!((table.correct.samples, table.correct.compared), (2, 2));
        assert_eq!(table.correct.rows[0].above, Some(50.0));
        assert_eq!(table.correct.rows[0].equal, Some(50.0));
        assert_eq!(table.correct.rows[5].above, Some(50.0));
        assert_eq!(table.correct.rows[5].avg_reference, Some(2.0));
        assert_eq!(table.correct.rows[5].avg_generated, Some(3.5));
        // Incorrect: s2 compared, s4 not. cc below 100 %, |diff| 1.
        assert_eq!((table.incorrect.samples, table.incorrect.compared), (2, 1));
        assert_eq!(table.incorrect.rows[5].below, Some(100.0));
        assert_eq!(table.incorrect.rows[5].avg_abs_difference, Some(1.0));
    }

    /// Issue 20 item 9: the samples left out of the comparison are counted, by reason.
    #[test]
    fn samples_not_analysed_are_counted_by_reason() {
        let (reference, generated) = (metrics(10, 3), metrics(12, 3));
        let samples = [
            (Some(&reference), Ok(&generated), true),
            (Some(&reference), Err(NotAnalysed::SyntaxErrors), false),
            (Some(&reference), Err(NotAnalysed::SyntaxErrors), false),
            (None, Err(NotAnalysed::NotRead), false),
            (None, Ok(&generated), false),
        ];
        let table = ReferenceTables::of(&samples).unwrap();
        assert_eq!((table.all.samples, table.all.compared), (5, 1));
        assert_eq!(
            table.all.not_analysed,
            BTreeMap::from([(NotAnalysed::SyntaxErrors, 2), (NotAnalysed::NotRead, 1)])
        );
        // The one analysed sample's numbers are unchanged by the others.
        assert_eq!(table.all.rows[0].avg_generated, Some(12.0));
        assert_eq!(
            table.all.coverage(),
            "1 of 5 samples paired with a reference; 3 not analysed: 2 with syntax errors, 1 not \
             read (over --max-sample-bytes); 1 whose task has no analysed reference"
        );
        assert_eq!(
            table.correct.coverage(),
            "1 of 1 sample paired with a reference"
        );
        let json = serde_json::to_string(&table).unwrap();
        assert!(
            json.contains(r#""not_analysed":{"syntax_errors":2,"not_read":1}"#),
            "{json}"
        );
        assert_eq!(
            serde_json::from_str::<ReferenceTables>(&json).unwrap(),
            table
        );
        // Results that never recorded metrics nor why: nothing to show, as before.
        assert_eq!(
            ReferenceTables::of(&[(None, Err(NotAnalysed::Unknown), true)]),
            None
        );
        assert!(ReferenceTables::of(&[(None, Err(NotAnalysed::Language), true)]).is_some());
    }

    #[test]
    fn a_result_says_why_it_has_no_metrics_or_its_language_does() {
        let task = Task::default();
        let mut result = SampleResult::for_sample(&crate::Sample {
            index: 0,
            task_id: task.id.clone(),
            model: None,
            code: crate::SampleCode::Solution(String::new()),
            info: Default::default(),
        });
        assert_eq!(generated_metrics(&task, &result), Err(NotAnalysed::Unknown));
        let java = Task {
            language: Language::Java,
            ..Task::default()
        };
        assert_eq!(
            generated_metrics(&java, &result),
            Err(NotAnalysed::Language)
        );
        result.not_analysed = Some(NotAnalysed::SyntaxErrors);
        assert_eq!(
            generated_metrics(&task, &result),
            Err(NotAnalysed::SyntaxErrors)
        );
        result.code_metrics = Some(metrics(1, 1));
        assert_eq!(generated_metrics(&task, &result), Ok(&metrics(1, 1)));
    }

    #[test]
    fn empty_sets_and_table() {
        let table = ReferenceTables::new(&[]);
        assert_eq!(table.correct.compared, 0);
        assert_eq!(table.correct.rows[0].avg_reference, None);
        let text = table.table();
        assert_eq!(text.rows.len(), 3 * METRICS.len());
        assert_eq!(text.rows[0][3], "-");
        let json = serde_json::to_string(&table).unwrap();
        assert_eq!(
            serde_json::from_str::<ReferenceTables>(&json).unwrap(),
            table
        );
    }
}
