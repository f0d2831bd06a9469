//! The statistics of the comparison: accuracy with its Wilson interval, the four buckets of
//! (baseline, candidate) outcomes, the exact McNemar test, and the summary of an eval.

use super::MCNEMAR_EXACT_LIMIT;
#[cfg(test)]
use super::{outcome, EvalCase};

/// Accuracy as a fraction (0.9 = 90%): `passes / n`, with `passes` capped at `n`; 0 when n = 0.
pub fn accuracy(passes: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        passes.min(n) as f64 / n as f64
    }
}

/// Wilson score interval (lo, hi) for `passes` of `n`, as fractions in 0..=1; `z` = [`Z_95`]
/// gives 95%. It always contains [`accuracy`]. With n = 0, or a z that is not finite, it is
/// (0, 1): no data, no knowledge.
pub fn wilson_interval(passes: usize, n: usize, z: f64) -> (f64, f64) {
    if n == 0 || !z.is_finite() {
        return (0.0, 1.0);
    }
    let p = accuracy(passes, n);
    let n = n as f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z.abs() / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // In exact arithmetic lo ≤ p ≤ hi; clamping only removes rounding noise.
    (
        (center - half).max(0.0).min(p),
        (center + half).min(1.0).max(p),
    )
}

/// How a case changed from baseline to candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// Baseline passed, candidate fails: a loss.
    Regressed,
    /// Baseline failed, candidate passes: a gain.
    Fixed,
    /// Both fail.
    StillFailing,
    /// Both pass.
    UnchangedPass,
}

impl Bucket {
    /// Every bucket, changed ones first, in display order.
    pub const ALL: [Bucket; 4] = [
        Bucket::Regressed,
        Bucket::Fixed,
        Bucket::StillFailing,
        Bucket::UnchangedPass,
    ];

    /// The bucket of a case that (baseline, candidate) pass or fail.
    pub fn of(baseline_pass: bool, candidate_pass: bool) -> Bucket {
        match (baseline_pass, candidate_pass) {
            (true, false) => Bucket::Regressed,
            (false, true) => Bucket::Fixed,
            (false, false) => Bucket::StillFailing,
            (true, true) => Bucket::UnchangedPass,
        }
    }

    /// The bucket's id in markup (`data-bucket`, test ids): `regressed`, `fixed`,
    /// `still-failing`, `unchanged`.
    pub fn id(self) -> &'static str {
        match self {
            Bucket::Regressed => "regressed",
            Bucket::Fixed => "fixed",
            Bucket::StillFailing => "still-failing",
            Bucket::UnchangedPass => "unchanged",
        }
    }

    /// What the bucket means, in a few words: "baseline pass, candidate fail", ….
    pub fn hint(self) -> &'static str {
        match self {
            Bucket::Regressed => "baseline pass, candidate fail",
            Bucket::Fixed => "baseline fail, candidate pass",
            Bucket::StillFailing => "both fail",
            Bucket::UnchangedPass => "both pass",
        }
    }

    /// The name a reader sees: "regressed", "fixed", "still failing", "unchanged pass".
    pub fn label(self) -> &'static str {
        match self {
            Bucket::Regressed => "regressed",
            Bucket::Fixed => "fixed",
            Bucket::StillFailing => "still failing",
            Bucket::UnchangedPass => "unchanged pass",
        }
    }
}

/// Case indices (into the case list) grouped by bucket, each list in ascending order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Buckets {
    /// Baseline pass, candidate fail.
    pub regressed: Vec<usize>,
    /// Baseline fail, candidate pass.
    pub fixed: Vec<usize>,
    /// Both fail.
    pub still_failing: Vec<usize>,
    /// Both pass.
    pub unchanged_pass: Vec<usize>,
}

impl Buckets {
    /// The indices in `bucket`.
    pub fn get(&self, bucket: Bucket) -> &[usize] {
        match bucket {
            Bucket::Regressed => &self.regressed,
            Bucket::Fixed => &self.fixed,
            Bucket::StillFailing => &self.still_failing,
            Bucket::UnchangedPass => &self.unchanged_pass,
        }
    }

    /// How many cases changed outcome (regressed + fixed).
    pub fn changed(&self) -> usize {
        self.regressed.len() + self.fixed.len()
    }
}

#[cfg(test)]
/// Groups the cases by how their outcome changed.
pub fn bucket_cases(cases: &[EvalCase]) -> Buckets {
    summarize(cases).buckets
}

/// Two-sided exact McNemar p-value (a probability) for `b` regressed and `c` fixed cases:
/// min(1, 2 × Σ_{i=0}^{min(b,c)} C(b+c, i) / 2^(b+c)); 1 when b + c = 0.
///
/// The chance of a split at least this uneven if baseline and candidate were equally good.
/// Above `MCNEMAR_EXACT_LIMIT` changed cases the normal approximation with continuity
/// correction is used, which is accurate far beyond any displayed digit at that size.
pub fn mcnemar_exact_p(b: usize, c: usize) -> f64 {
    if b == c {
        // Σ covers at least half the symmetric distribution, so 2 × Σ ≥ 1.
        return 1.0;
    }
    let k = b.min(c);
    let n = b as f64 + c as f64;
    if n > MCNEMAR_EXACT_LIMIT as f64 {
        let z = ((b.abs_diff(c) as f64 - 1.0) / n.sqrt()).max(0.0);
        return erfc(z / std::f64::consts::SQRT_2).clamp(0.0, 1.0);
    }
    // Terms in log space, so 0.5^n cannot underflow before it meets C(n, i).
    let ln_half_n = -n * std::f64::consts::LN_2;
    let mut ln_choose = 0.0;
    let mut sum = 0.0;
    for i in 0..=k {
        sum += (ln_choose + ln_half_n).exp();
        let i = i as f64;
        ln_choose += ((n - i) / (i + 1.0)).ln();
    }
    (2.0 * sum).clamp(0.0, 1.0)
}

/// Complementary error function, with a relative error below 1.2 × 10⁻⁷ (Numerical Recipes'
/// Chebyshev fit).
pub(super) fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Headline figures of an eval, for the results panel.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Number of cases.
    pub cases: usize,
    /// Cases the baseline passes.
    pub baseline_passes: usize,
    /// Cases the candidate passes.
    pub candidate_passes: usize,
    /// The cases by how they changed.
    pub buckets: Buckets,
    /// Exact McNemar p-value of regressed against fixed (a probability).
    pub mcnemar_p: f64,
}

impl Summary {
    /// The headline figures of cases already graded: each case's (baseline, candidate) pass,
    /// in case order. One pass over them.
    pub fn of_outcomes(outcomes: impl IntoIterator<Item = (bool, bool)>) -> Summary {
        let mut buckets = Buckets::default();
        let (mut cases, mut baseline_passes, mut candidate_passes) = (0, 0, 0);
        for (i, (base, cand)) in outcomes.into_iter().enumerate() {
            cases += 1;
            baseline_passes += usize::from(base);
            candidate_passes += usize::from(cand);
            match Bucket::of(base, cand) {
                Bucket::Regressed => buckets.regressed.push(i),
                Bucket::Fixed => buckets.fixed.push(i),
                Bucket::StillFailing => buckets.still_failing.push(i),
                Bucket::UnchangedPass => buckets.unchanged_pass.push(i),
            }
        }
        Summary {
            cases,
            baseline_passes,
            candidate_passes,
            mcnemar_p: mcnemar_exact_p(buckets.regressed.len(), buckets.fixed.len()),
            buckets,
        }
    }

    /// Baseline accuracy as a fraction (0.9 = 90%).
    pub fn baseline_accuracy(&self) -> f64 {
        accuracy(self.baseline_passes, self.cases)
    }

    /// Candidate accuracy as a fraction (0.9 = 90%).
    pub fn candidate_accuracy(&self) -> f64 {
        accuracy(self.candidate_passes, self.cases)
    }
}

#[cfg(test)]
/// Grades every case and gathers the headline figures.
pub fn summarize(cases: &[EvalCase]) -> Summary {
    Summary::of_outcomes(cases.iter().map(outcome))
}
