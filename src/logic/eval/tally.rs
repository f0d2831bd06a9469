//! Running counts of an eval: how many cases, how many each system passes, and how many fall
//! in each bucket. A tally is kept up to date one case at a time (take a case's old outcome
//! out, put its new one in), so a long eval's headline figures never need a pass over every
//! case; McNemar's p is computed from the counts only when a view asks.

use super::{accuracy, mcnemar_exact_p, Bucket, Summary};

/// The headline counts of an eval; [`Summary`] without the case lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Number of cases.
    pub cases: usize,
    /// Cases the baseline passes.
    pub baseline_passes: usize,
    /// Cases the candidate passes.
    pub candidate_passes: usize,
    /// Cases per bucket, in [`Bucket::ALL`] order.
    buckets: [usize; 4],
}

/// `bucket`'s place in [`Bucket::ALL`].
pub fn bucket_slot(bucket: Bucket) -> usize {
    match bucket {
        Bucket::Regressed => 0,
        Bucket::Fixed => 1,
        Bucket::StillFailing => 2,
        Bucket::UnchangedPass => 3,
    }
}

impl Tally {
    /// Counts a case that (baseline, candidate) pass or fail.
    pub fn add(&mut self, (base, cand): (bool, bool)) {
        self.cases += 1;
        self.baseline_passes += usize::from(base);
        self.candidate_passes += usize::from(cand);
        if let Some(n) = self.buckets.get_mut(bucket_slot(Bucket::of(base, cand))) {
            *n += 1;
        }
    }

    /// Takes back a case counted by [`Tally::add`] with the same outcome. Counts never go
    /// below zero, even for an outcome that was never added.
    pub fn remove(&mut self, (base, cand): (bool, bool)) {
        self.cases = self.cases.saturating_sub(1);
        self.baseline_passes = self.baseline_passes.saturating_sub(usize::from(base));
        self.candidate_passes = self.candidate_passes.saturating_sub(usize::from(cand));
        if let Some(n) = self.buckets.get_mut(bucket_slot(Bucket::of(base, cand))) {
            *n = n.saturating_sub(1);
        }
    }

    /// The counts of these outcomes, from scratch.
    pub fn of_outcomes(outcomes: impl IntoIterator<Item = (bool, bool)>) -> Tally {
        let mut t = Tally::default();
        for o in outcomes {
            t.add(o);
        }
        t
    }

    /// The counts of a full summary.
    pub fn of_summary(s: &Summary) -> Tally {
        let mut buckets = [0; 4];
        for (n, b) in buckets.iter_mut().zip(Bucket::ALL) {
            *n = s.buckets.get(b).len();
        }
        Tally {
            cases: s.cases,
            baseline_passes: s.baseline_passes,
            candidate_passes: s.candidate_passes,
            buckets,
        }
    }

    /// How many cases are in `bucket`.
    pub fn count(&self, bucket: Bucket) -> usize {
        self.buckets
            .get(bucket_slot(bucket))
            .copied()
            .unwrap_or_default()
    }

    /// Baseline pass, candidate fail.
    pub fn regressed(&self) -> usize {
        self.count(Bucket::Regressed)
    }

    /// Baseline fail, candidate pass.
    pub fn fixed(&self) -> usize {
        self.count(Bucket::Fixed)
    }

    /// How many cases changed outcome (regressed + fixed).
    pub fn changed(&self) -> usize {
        self.regressed() + self.fixed()
    }

    /// The exact McNemar p-value of regressed against fixed ([`mcnemar_exact_p`]).
    pub fn mcnemar_p(&self) -> f64 {
        mcnemar_exact_p(self.regressed(), self.fixed())
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
mod tests {
    use super::*;

    const ALL: [(bool, bool); 4] = [(true, false), (false, true), (false, false), (true, true)];

    #[test]
    fn adding_and_removing_matches_counting_from_scratch() {
        let outcomes = [ALL[0], ALL[0], ALL[1], ALL[3], ALL[2], ALL[3], ALL[3]];
        let t = Tally::of_outcomes(outcomes);
        assert_eq!(t, Tally::of_summary(&Summary::of_outcomes(outcomes)));
        assert_eq!((t.cases, t.baseline_passes, t.candidate_passes), (7, 5, 4));
        assert_eq!(
            Bucket::ALL.map(|b| t.count(b)),
            [2, 1, 1, 3],
            "regressed, fixed, still failing, unchanged"
        );
        assert_eq!(t.changed(), 3);
        assert_eq!(t.mcnemar_p(), mcnemar_exact_p(2, 1));
        let mut u = t;
        u.remove(ALL[0]);
        u.add(ALL[1]);
        let moved = [ALL[1], ALL[0], ALL[1], ALL[3], ALL[2], ALL[3], ALL[3]];
        assert_eq!(u, Tally::of_outcomes(moved));
        for o in moved {
            u.remove(o);
        }
        assert_eq!(u, Tally::default());
        // Taking out what was never put in cannot underflow.
        u.remove(ALL[3]);
        assert_eq!(u, Tally::default());
        assert_eq!(u.baseline_accuracy(), 0.0);
    }
}
