//! The running counts: each case graded once, and counted in the tally and the ordered bucket
//! sets as it changes, so that no summary needs a pass over the cases.

use super::{CaseId, EvalEditor};
use crate::logic::eval::tally::{bucket_slot, Tally};
use crate::logic::eval::{graded_outcome, Bucket, Summary};

/// The gap between neighbours' keys when keys are handed out afresh.
pub(super) const KEY_GAP: u64 = 1 << 24;

/// A case in one of the ordered sets: its key, then its id.
pub(super) type Member = (u64, CaseId);

impl EvalEditor {
    /// Whether (baseline, candidate) pass the case at `at`: the one place a case is graded.
    /// Text or execution grading as the eval is set, with the case's runs once they are in;
    /// manual verdicts first.
    pub(super) fn grade(&self, at: usize) -> (bool, bool) {
        let Some(case) = self.cases.get(at) else {
            return (false, false);
        };
        let runs = self.rows.get(at).and_then(|r| self.runs_of(r.id));
        graded_outcome(case, self.grading, runs)
    }

    /// Marks the case at `at` changed, regrading it if `regrade`, and counts it again: every
    /// change to a case's outcome or critical flag comes through here.
    pub(super) fn touch(&mut self, at: usize, regrade: bool) {
        self.clock += 1;
        let graded = if regrade { Some(self.grade(at)) } else { None };
        let critical = self.cases.get(at).is_some_and(|c| c.critical);
        self.uncount(at);
        if let Some(row) = self.rows.get_mut(at) {
            row.revision = self.clock;
            row.critical = critical;
            if let Some(o) = graded {
                row.outcome = o;
            }
        }
        self.count(at);
    }

    /// Adds the row at `at` to the tally and the ordered sets, as it stands.
    pub(super) fn count(&mut self, at: usize) {
        let Some(&row) = self.rows.get(at) else {
            return;
        };
        self.tally.add(row.outcome);
        let bucket = Bucket::of(row.outcome.0, row.outcome.1);
        if let Some(set) = self.members.get_mut(bucket_slot(bucket)) {
            set.insert((row.key, row.id));
        }
        if bucket == Bucket::Regressed && row.critical {
            self.critical_regressed.insert((row.key, row.id));
        }
    }

    /// Takes the row at `at` out of the tally and the ordered sets ([`Self::count`] undone).
    pub(super) fn uncount(&mut self, at: usize) {
        let Some(&row) = self.rows.get(at) else {
            return;
        };
        self.tally.remove(row.outcome);
        let bucket = Bucket::of(row.outcome.0, row.outcome.1);
        if let Some(set) = self.members.get_mut(bucket_slot(bucket)) {
            set.remove(&(row.key, row.id));
        }
        self.critical_regressed.remove(&(row.key, row.id));
    }

    /// Counts every row afresh (after a replace, or once keys are handed out again).
    pub(super) fn count_all(&mut self) {
        self.tally = Tally::of_outcomes(self.rows.iter().map(|r| r.outcome));
        for (slot, bucket) in Bucket::ALL.into_iter().enumerate() {
            let set = self
                .rows
                .iter()
                .filter(|r| Bucket::of(r.outcome.0, r.outcome.1) == bucket)
                .map(|r| (r.key, r.id))
                .collect();
            if let Some(m) = self.members.get_mut(slot) {
                *m = set;
            }
        }
        self.critical_regressed = self
            .rows
            .iter()
            .filter(|r| r.critical && Bucket::of(r.outcome.0, r.outcome.1) == Bucket::Regressed)
            .map(|r| (r.key, r.id))
            .collect();
    }

    /// Hands out keys afresh, evenly spaced, and recounts.
    pub(super) fn renumber(&mut self) {
        for (i, row) in self.rows.iter_mut().enumerate() {
            row.key = (i as u64 + 1).saturating_mul(KEY_GAP);
        }
        self.count_all();
    }

    /// A key for a case about to be inserted at `at`, between its neighbours' keys; `None`
    /// when there is no room left between them.
    pub(super) fn key_for(&self, at: usize) -> Option<u64> {
        let before = at
            .checked_sub(1)
            .and_then(|i| self.rows.get(i))
            .map(|r| r.key);
        match (before, self.rows.get(at).map(|r| r.key)) {
            (before, Some(after)) => {
                let lo = before.unwrap_or(0);
                (after.saturating_sub(lo) >= 2).then(|| lo + (after - lo) / 2)
            }
            (Some(before), None) => before.checked_add(KEY_GAP),
            (None, None) => Some(KEY_GAP),
        }
    }

    /// The running counts: what [`Self::summary`] counts, without a pass over the cases.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The headline figures, in one pass over the graded cases (the view keeps to
    /// [`Self::tally`] and the paged lists below, which need no such pass).
    pub fn summary(&self) -> Summary {
        Summary::of_outcomes(self.rows.iter().map(|r| r.outcome))
    }
}
