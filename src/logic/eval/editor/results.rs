//! What the results panel shows: the decision, the buckets' cases, the changed cases with their
//! diffs, the accuracies in words.

use super::{display_name, CaseId, EvalEditor, System};
use crate::logic::eval::tally::{bucket_slot, Tally};
use crate::logic::eval::{
    accuracy, case_label, decide_tally, diff_sides, parse_tolerance, percent_text, wilson_interval,
    Bucket, Decision, DiffRun, InputError, Z_95,
};

/// A case in a bucket's list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BucketEntry {
    /// Which case.
    pub id: CaseId,
    /// Its name as written (the `data-case` hook; may be blank).
    pub name: String,
    /// Its name as shown: the name, or "case N".
    pub shown: String,
    /// Whether it is critical.
    pub critical: bool,
}

/// A case whose outcome changed, as the diff list shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangedCase {
    /// Which case.
    pub id: CaseId,
    /// The editor's revision when the case last changed or moved ([`Slot::revision`]).
    pub revision: u64,
    /// Its name as shown: the name, or "case N".
    pub name: String,
    /// The question.
    pub question: String,
    /// The reference SQL.
    pub reference: String,
    /// Regressed or fixed.
    pub bucket: Bucket,
    /// Whether it is critical.
    pub critical: bool,
    /// The baseline's SQL, the tokens the candidate lacks marked.
    pub baseline: Vec<DiffRun>,
    /// The candidate's SQL, the tokens the baseline lacks marked.
    pub candidate: Vec<DiffRun>,
    /// Whether both wrote the same SQL (so a verdict set by hand made the difference).
    pub same_sql: bool,
}

impl ChangedCase {
    /// What its view is drawn from, as a key: equal keys, equal views, so a list keyed by it
    /// redraws only the cases that changed. The case's fields and SQL change its revision;
    /// its bucket and shown name ("case N") can change without it.
    pub fn key(&self) -> (CaseId, u64, Bucket, String) {
        (self.id, self.revision, self.bucket, self.name.clone())
    }
}

/// A system's accuracy for the results panel, starting with its number: (`90%`,
/// `9 of 10 · 95% interval 59.6–98.2%`); a dash and "no cases" for an empty eval.
pub fn accuracy_text(s: &Tally, system: System) -> (String, String) {
    if s.cases == 0 {
        return ("\u{2014}".to_string(), "no cases".to_string());
    }
    let passes = match system {
        System::Baseline => s.baseline_passes,
        System::Candidate => s.candidate_passes,
    };
    let (lo, hi) = wilson_interval(passes, s.cases, Z_95);
    (
        percent_text(accuracy(passes, s.cases)),
        format!(
            "{passes} of {} \u{b7} 95% interval {}\u{2013}{}",
            s.cases,
            percent_text(lo).trim_end_matches('%'),
            percent_text(hi)
        ),
    )
}

/// The changed cases in a few words: `1 regressed, 1 fixed`.
pub fn changed_text(s: &Tally) -> String {
    format!("{} regressed, {} fixed", s.regressed(), s.fixed())
}

impl EvalEditor {
    /// The names of the critical cases that regressed, in order.
    pub(super) fn critical_regressed_names(&self) -> Vec<String> {
        self.critical_regressed
            .iter()
            .filter_map(|&(_, id)| Some(case_label(&self.cases, self.index_of(id)?)))
            .collect()
    }

    /// The accept-or-reject verdict with the tolerance as typed.
    pub fn decision(&self, tolerance: &str) -> Result<Decision, InputError> {
        let tolerance = parse_tolerance(tolerance)?;
        Ok(decide_tally(
            &self.tally,
            &self.critical_regressed_names(),
            tolerance,
        ))
    }

    /// The cases of `bucket` (ordered sets), in list order, from place `skip` on.
    pub(super) fn members_of(&self, bucket: Bucket) -> impl Iterator<Item = usize> + '_ {
        self.members
            .get(bucket_slot(bucket))
            .into_iter()
            .flatten()
            .filter_map(|&(_, id)| self.index_of(id))
    }

    /// The first `limit` cases in `bucket`, in order; there are [`Tally::count`] in all.
    pub fn bucket_entries(&self, bucket: Bucket, limit: usize) -> Vec<BucketEntry> {
        self.members_of(bucket)
            .take(limit)
            .filter_map(|i| {
                let case = self.cases.get(i)?;
                Some(BucketEntry {
                    id: self.rows.get(i)?.id,
                    name: case.name.clone(),
                    shown: display_name(case, i),
                    critical: case.critical,
                })
            })
            .collect()
    }

    /// The first `limit` changed cases: the regressed ones, then the fixed ones, each with its
    /// token diff; there are [`Tally::changed`] in all.
    pub fn changed_cases(&self, limit: usize) -> Vec<ChangedCase> {
        let regressed = self
            .members_of(Bucket::Regressed)
            .map(|i| (i, Bucket::Regressed));
        let fixed = self.members_of(Bucket::Fixed).map(|i| (i, Bucket::Fixed));
        regressed
            .chain(fixed)
            .take(limit)
            .filter_map(|(i, bucket)| {
                let (c, row) = (self.cases.get(i)?, self.rows.get(i)?);
                let (baseline, candidate) = diff_sides(&c.baseline_sql, &c.candidate_sql);
                Some(ChangedCase {
                    id: row.id,
                    revision: row.revision,
                    name: display_name(c, i),
                    question: c.question.clone(),
                    reference: c.reference_sql.clone(),
                    bucket,
                    critical: c.critical,
                    same_sql: !baseline.iter().chain(&candidate).any(|r| r.changed),
                    baseline,
                    candidate,
                })
            })
            .collect()
    }
}
