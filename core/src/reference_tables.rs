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

use crate::code_metrics::CodeMetrics;
use crate::report::Table;
use serde::{Deserialize, Serialize};

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
    /// Samples in the set.
    pub samples: u64,
    /// Samples of the set paired with a reference (the base of every number in `rows`).
    pub compared: u64,
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
    /// Compares each sample (`generated`, whether it `passed`) with its task's `reference`.
    pub fn new(samples: &[(Option<&CodeMetrics>, &CodeMetrics, bool)]) -> Self {
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
    /// Compares (reference, generated) pairs.
    pub fn new<'a>(
        pairs: impl IntoIterator<Item = (Option<&'a CodeMetrics>, &'a CodeMetrics)>,
    ) -> Self {
        let pairs: Vec<(Option<&CodeMetrics>, &CodeMetrics)> = pairs.into_iter().collect();
        let paired: Vec<(&CodeMetrics, &CodeMetrics)> = pairs
            .iter()
            .filter_map(|(r, g)| r.map(|r| (r, *g)))
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
            rows,
        }
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
            (Some(&a), &s1, true),
            (Some(&a), &s2, false),
            (Some(&b), &s3, true),
            (None, &s4, false),
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
