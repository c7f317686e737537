//! Agreement between reviewers (issue 13's human review): Cohen's kappa for two reviewers, plain
//! or weighted for ordinal scales, and Krippendorff's alpha for any number of reviewers with
//! missing scores, at the nominal, ordinal and interval levels. Pure arithmetic on scores, so
//! the site and `wasmeval report --reviews` agree to the last digit.

use std::collections::BTreeMap;

/// How disagreements between two ordered categories weigh in a weighted kappa.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KappaWeights {
    /// Any disagreement counts fully (Cohen 1960).
    Unweighted,
    /// By the distance between the categories' ranks.
    Linear,
    /// By the squared distance (Cohen 1968; the usual choice for ordinal scales).
    Quadratic,
}

/// Cohen's kappa of two reviewers' scores of the same items (`(first, second)` per item), over
/// the `categories` of the scale in their order (a score outside them is ignored). `None` with no
/// items, or when chance agreement is total (every score the same category), where kappa is
/// undefined.
pub fn cohen_kappa(pairs: &[(i32, i32)], categories: &[i32], weights: KappaWeights) -> Option<f64> {
    let rank = |score: i32| categories.iter().position(|&c| c == score);
    let pairs: Vec<(usize, usize)> = pairs
        .iter()
        .filter_map(|&(a, b)| Some((rank(a)?, rank(b)?)))
        .collect();
    let k = categories.len();
    if pairs.is_empty() || k < 2 {
        return None;
    }
    let n = pairs.len() as f64;
    let mut observed = vec![vec![0.0; k]; k];
    for &(a, b) in &pairs {
        observed[a][b] += 1.0 / n;
    }
    let rows: Vec<f64> = (0..k).map(|i| observed[i].iter().sum()).collect();
    let columns: Vec<f64> = (0..k)
        .map(|j| (0..k).map(|i| observed[i][j]).sum())
        .collect();
    let disagreement = |i: usize, j: usize| {
        let distance = i.abs_diff(j) as f64 / (k - 1) as f64;
        match weights {
            KappaWeights::Unweighted => f64::from(u8::from(i != j)),
            KappaWeights::Linear => distance,
            KappaWeights::Quadratic => distance * distance,
        }
    };
    let (mut seen, mut expected) = (0.0, 0.0);
    for i in 0..k {
        for j in 0..k {
            seen += disagreement(i, j) * observed[i][j];
            expected += disagreement(i, j) * rows[i] * columns[j];
        }
    }
    (expected > 0.0).then(|| 1.0 - seen / expected)
}

/// The level of measurement Krippendorff's alpha compares scores at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlphaLevel {
    /// Categories without order.
    Nominal,
    /// Ordered categories: a disagreement weighs by how many scores lie between the two.
    Ordinal,
    /// Numbers: a disagreement weighs by the squared difference.
    Interval,
}

/// Krippendorff's alpha of `units` (per item, the scores the reviewers who scored it gave; a
/// reviewer who skipped it gives none). Items with fewer than two scores are not pairable and
/// are left out. `None` when fewer than two scores are pairable or every pairable score is the
/// same value (no variation to agree on). Computed from the coincidence matrix (Krippendorff
/// 2011, "Computing Krippendorff's Alpha-Reliability").
pub fn krippendorff_alpha(units: &[Vec<i32>], level: AlphaLevel) -> Option<f64> {
    // Coincidences o[c][k]: each ordered pair of scores within a unit of m scores counts 1/(m-1).
    let mut coincidences: BTreeMap<(i32, i32), f64> = BTreeMap::new();
    for scores in units.iter().filter(|s| s.len() >= 2) {
        let weight = 1.0 / (scores.len() - 1) as f64;
        for (i, &c) in scores.iter().enumerate() {
            for (j, &k) in scores.iter().enumerate() {
                if i != j {
                    *coincidences.entry((c, k)).or_insert(0.0) += weight;
                }
            }
        }
    }
    let mut marginals: BTreeMap<i32, f64> = BTreeMap::new();
    for (&(c, _), &o) in &coincidences {
        *marginals.entry(c).or_insert(0.0) += o;
    }
    let n: f64 = marginals.values().sum();
    if n < 2.0 || marginals.len() < 2 {
        return None;
    }
    let values: Vec<i32> = marginals.keys().copied().collect();
    let delta = |c: i32, k: i32| -> f64 {
        match level {
            AlphaLevel::Nominal => f64::from(u8::from(c != k)),
            AlphaLevel::Interval => f64::from(c - k).powi(2),
            AlphaLevel::Ordinal => {
                let (low, high) = (c.min(k), c.max(k));
                let between: f64 = values
                    .iter()
                    .filter(|&&g| g >= low && g <= high)
                    .map(|g| marginals[g])
                    .sum();
                (between - (marginals[&low] + marginals[&high]) / 2.0).powi(2)
            }
        }
    };
    let observed: f64 = coincidences
        .iter()
        .map(|(&(c, k), &o)| o * delta(c, k))
        .sum();
    let mut expected = 0.0;
    for &c in &values {
        for &k in &values {
            expected += marginals[&c] * marginals[&k] * delta(c, k);
        }
    }
    expected /= n - 1.0;
    (expected > 0.0).then(|| 1.0 - observed / expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kappa_of_the_textbook_two_by_two() {
        // 50 items: both yes 20, yes/no 5, no/yes 10, both no 15 (the example of Cohen's kappa
        // in most textbooks): p_o = 0.7, p_e = 0.5, kappa = 0.4.
        let mut pairs = vec![(1, 1); 20];
        pairs.extend(vec![(1, 0); 5]);
        pairs.extend(vec![(0, 1); 10]);
        pairs.extend(vec![(0, 0); 15]);
        let kappa = cohen_kappa(&pairs, &[0, 1], KappaWeights::Unweighted).unwrap();
        assert!((kappa - 0.4).abs() < 1e-12, "{kappa}");
        // Two categories: every weighting is the same.
        let quadratic = cohen_kappa(&pairs, &[0, 1], KappaWeights::Quadratic).unwrap();
        assert!((quadratic - 0.4).abs() < 1e-12);
    }

    #[test]
    fn weighted_kappa_by_hand() {
        // Three ordered categories, four items: (1,1), (1,2), (2,3), (3,3).
        // Observed proportions: rows 0.5, 0.25, 0.25; columns 0.25, 0.25, 0.5.
        // Linear weights (|i-j|/2): observed 0.25·0.5 + 0.25·0.5 = 0.25; expected =
        // sum w·r_i·c_j = 0.5·(0.5·0.25 + 0.25·0.25 + 0.25·0.5 + 0.25·0.25) + 1·(0.5·0.5 + 0.25·0.25)
        // = 0.5·0.375 + 0.3125 = 0.5; kappa = 1 - 0.25/0.5 = 0.5.
        let pairs = [(1, 1), (1, 2), (2, 3), (3, 3)];
        let linear = cohen_kappa(&pairs, &[1, 2, 3], KappaWeights::Linear).unwrap();
        assert!((linear - 0.5).abs() < 1e-12, "{linear}");
        // Quadratic (w = (|i-j|/2)², so 0.25 and 1): observed 0.25·0.25·2 = 0.125; expected
        // 0.25·0.375 + 1·0.3125 = 0.40625; kappa = 1 - 0.125/0.40625.
        let quadratic = cohen_kappa(&pairs, &[1, 2, 3], KappaWeights::Quadratic).unwrap();
        assert!(
            (quadratic - (1.0 - 0.125 / 0.40625)).abs() < 1e-12,
            "{quadratic}"
        );
        // Perfect agreement, and no variation at all.
        assert_eq!(
            cohen_kappa(&[(1, 1), (2, 2)], &[1, 2], KappaWeights::Unweighted),
            Some(1.0)
        );
        assert_eq!(
            cohen_kappa(&[(1, 1), (1, 1)], &[1, 2], KappaWeights::Unweighted),
            None
        );
        assert_eq!(cohen_kappa(&[], &[1, 2], KappaWeights::Unweighted), None);
    }

    /// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C: four
    /// observers, twelve units, values 1 to 5, missing scores.
    fn krippendorff_example() -> Vec<Vec<i32>> {
        let rows: [[Option<i32>; 12]; 4] = [
            [
                Some(1),
                Some(2),
                Some(3),
                Some(3),
                Some(2),
                Some(1),
                Some(4),
                Some(1),
                Some(2),
                None,
                None,
                None,
            ],
            [
                Some(1),
                Some(2),
                Some(3),
                Some(3),
                Some(2),
                Some(2),
                Some(4),
                Some(1),
                Some(2),
                Some(5),
                None,
                Some(3),
            ],
            [
                None,
                Some(3),
                Some(3),
                Some(3),
                Some(2),
                Some(3),
                Some(4),
                Some(2),
                Some(2),
                Some(5),
                Some(1),
                None,
            ],
            [
                Some(1),
                Some(2),
                Some(3),
                Some(3),
                Some(2),
                Some(4),
                Some(4),
                Some(1),
                Some(2),
                Some(5),
                Some(1),
                None,
            ],
        ];
        (0..12)
            .map(|unit| rows.iter().filter_map(|row| row[unit]).collect())
            .collect()
    }

    #[test]
    fn alpha_matches_krippendorffs_worked_example() {
        let units = krippendorff_example();
        let nominal = krippendorff_alpha(&units, AlphaLevel::Nominal).unwrap();
        let ordinal = krippendorff_alpha(&units, AlphaLevel::Ordinal).unwrap();
        let interval = krippendorff_alpha(&units, AlphaLevel::Interval).unwrap();
        // The published values, to their three decimals.
        assert!((nominal - 0.743).abs() < 5e-4, "nominal {nominal}");
        assert!((ordinal - 0.815).abs() < 5e-4, "ordinal {ordinal}");
        assert!((interval - 0.849).abs() < 5e-4, "interval {interval}");
    }

    #[test]
    fn alpha_needs_pairable_varied_scores() {
        assert_eq!(
            krippendorff_alpha(&[vec![1], vec![2]], AlphaLevel::Ordinal),
            None
        );
        assert_eq!(
            krippendorff_alpha(&[vec![2, 2], vec![2, 2]], AlphaLevel::Ordinal),
            None
        );
        assert_eq!(
            krippendorff_alpha(&[vec![1, 1], vec![3, 3]], AlphaLevel::Interval),
            Some(1.0)
        );
    }
}
