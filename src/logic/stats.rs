//! The course's one percentile: nearest rank, as the latency lesson defines it (Pₙ is the
//! smallest value that at least n% of the sample is at or below). Used by the latency explorer
//! and by the distillation playground's frame clock.

/// A copy of `samples` sorted ascending, without NaNs (ready for [`percentile_nearest_rank`]).
pub fn sorted(samples: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = samples.iter().copied().filter(|v| !v.is_nan()).collect();
    super::order::sort_by(&mut out, f64::total_cmp);
    out
}

/// The P-th percentile of an ascending `sorted` sample, by the nearest-rank method.
///
/// rank = ⌈p ÷ 100 × n⌉ (1-based), and the answer is the rank-th smallest value, so it is
/// always a value that was observed: for `[15, 20, 35, 40, 50]`, P30 = 20, P50 = 35,
/// P100 = 50. P0 gives the smallest value. `p × n ÷ 100` is rounded to 9 decimals before the
/// ceiling, so binary noise does not push a whole rank up.
///
/// `None` when the sample is empty or `p` is not in `0..=100` (or NaN). The slice is trusted
/// to be sorted; see [`sorted`].
pub fn percentile_nearest_rank(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() || !(0.0..=100.0).contains(&p) {
        return None;
    }
    let n = sorted.len();
    let exact = ((p * n as f64 / 100.0) * 1e9).round() / 1e9;
    let rank = (exact.ceil() as usize).clamp(1, n);
    sorted.get(rank - 1).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_on_a_known_sample() {
        let s = [15.0, 20.0, 35.0, 40.0, 50.0];
        let p = |q| percentile_nearest_rank(&s, q);
        assert_eq!(p(5.0), Some(15.0));
        assert_eq!(p(30.0), Some(20.0));
        assert_eq!(p(40.0), Some(20.0));
        assert_eq!(p(50.0), Some(35.0));
        assert_eq!(p(100.0), Some(50.0));
        assert_eq!(p(0.0), Some(15.0));
        assert_eq!(p(100.1), None);
        assert_eq!(p(-1.0), None);
        assert_eq!(p(f64::NAN), None);
        assert_eq!(percentile_nearest_rank(&[], 50.0), None);
    }

    #[test]
    fn nearest_rank_on_one_to_a_hundred() {
        let s: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile_nearest_rank(&s, 90.0), Some(90.0));
        assert_eq!(percentile_nearest_rank(&s, 95.0), Some(95.0));
        assert_eq!(percentile_nearest_rank(&s, 99.0), Some(99.0));
        assert_eq!(percentile_nearest_rank(&s, 50.0), Some(50.0));
        assert_eq!(percentile_nearest_rank(&s, 99.5), Some(100.0));
    }

    #[test]
    fn sorting_drops_nans() {
        assert_eq!(sorted(&[3.0, f64::NAN, 1.0]), vec![1.0, 3.0]);
        assert!(sorted(&[]).is_empty());
    }

    proptest::proptest! {
        #[test]
        fn percentiles_rise_with_p(
            values in proptest::collection::vec(-1e6f64..1e6, 1..200),
            p in 0.0f64..=100.0,
            q in 0.0f64..=100.0,
        ) {
            let s = sorted(&values);
            let (lo, hi) = (p.min(q), p.max(q));
            let a = percentile_nearest_rank(&s, lo).expect("in range");
            let b = percentile_nearest_rank(&s, hi).expect("in range");
            proptest::prop_assert!(a <= b);
            proptest::prop_assert!(s.contains(&a));
        }
    }
}
