//! Editing the cases: their fields, verdicts and critical flags, the schema, a case added or
//! removed.

use super::undo::Undo;
use super::{display_name, CaseId, EvalEditor};
use crate::logic::eval::execution::Grading;
use crate::logic::eval::{EvalCase, Verdict};

/// A text field of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Its short name.
    Name,
    /// The question.
    Question,
    /// The correct SQL.
    ReferenceSql,
    /// The baseline's SQL.
    BaselineSql,
    /// The candidate's SQL.
    CandidateSql,
}

impl Field {
    /// The field's text in `case`.
    pub fn get(self, case: &EvalCase) -> &str {
        match self {
            Field::Name => &case.name,
            Field::Question => &case.question,
            Field::ReferenceSql => &case.reference_sql,
            Field::BaselineSql => &case.baseline_sql,
            Field::CandidateSql => &case.candidate_sql,
        }
    }

    pub(super) fn get_mut(self, case: &mut EvalCase) -> &mut String {
        match self {
            Field::Name => &mut case.name,
            Field::Question => &mut case.question,
            Field::ReferenceSql => &mut case.reference_sql,
            Field::BaselineSql => &mut case.baseline_sql,
            Field::CandidateSql => &mut case.candidate_sql,
        }
    }

    /// Whether the field takes part in grading (the SQL texts).
    pub(super) fn grades(self) -> bool {
        !matches!(self, Field::Name | Field::Question)
    }
}

/// One of the two systems compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    /// The system in service.
    Baseline,
    /// The optimized system that would replace it.
    Candidate,
}

impl System {
    /// How this system's answer in `case` is graded.
    pub fn verdict(self, case: &EvalCase) -> Verdict {
        match self {
            System::Baseline => case.baseline_verdict,
            System::Candidate => case.candidate_verdict,
        }
    }

    pub(super) fn verdict_mut(self, case: &mut EvalCase) -> &mut Verdict {
        match self {
            System::Baseline => &mut case.baseline_verdict,
            System::Candidate => &mut case.candidate_verdict,
        }
    }

    /// Whether this system passes, given a case's (baseline, candidate) outcome.
    pub fn passes(self, outcome: (bool, bool)) -> bool {
        match self {
            System::Baseline => outcome.0,
            System::Candidate => outcome.1,
        }
    }
}

impl EvalEditor {
    /// Sets the schema; false if it was already `text`.
    pub fn set_schema(&mut self, text: String) -> bool {
        if self.schema == text {
            return false;
        }
        self.schema = text;
        self.clock += 1;
        self.drop_runs();
        if self.grading == Grading::Execution {
            self.regrade_all();
        }
        true
    }

    /// Sets `field` of case `id` to `text`, regrading the case if it is SQL; false if nothing
    /// changed.
    pub fn edit(&mut self, id: CaseId, field: Field, text: String) -> bool {
        let Some(at) = self.index_of(id) else {
            return false;
        };
        let Some(slot) = self.cases.get_mut(at).map(|c| field.get_mut(c)) else {
            return false;
        };
        if *slot == text {
            return false;
        }
        *slot = text;
        if field.grades() {
            if let Some(runs) = self.runs.get_mut(id.0) {
                *runs = None;
            }
            self.want_runs();
        }
        self.touch(at, field.grades());
        true
    }

    /// Sets how `system`'s answer in case `id` is graded; false if nothing changed.
    pub fn set_verdict(&mut self, id: CaseId, system: System, verdict: Verdict) -> bool {
        let Some(at) = self.index_of(id) else {
            return false;
        };
        let Some(slot) = self.cases.get_mut(at).map(|c| system.verdict_mut(c)) else {
            return false;
        };
        if *slot == verdict {
            return false;
        }
        *slot = verdict;
        self.touch(at, true);
        true
    }

    /// Marks case `id` critical or not; false if nothing changed.
    pub fn set_critical(&mut self, id: CaseId, critical: bool) -> bool {
        let Some(at) = self.index_of(id) else {
            return false;
        };
        match self.cases.get_mut(at) {
            Some(case) if case.critical != critical => case.critical = critical,
            _ => return false,
        }
        self.touch(at, false);
        true
    }

    /// Adds an empty case, "new case N", at the end.
    pub fn add_case(&mut self) -> CaseId {
        let case = EvalCase {
            name: format!("new case {}", self.cases.len() + 1),
            ..EvalCase::default()
        };
        self.insert(self.cases.len(), case)
    }

    /// Removes case `id`, which one undo puts back; false if there is no such case.
    pub fn remove(&mut self, id: CaseId) -> bool {
        let Some(at) = self.index_of(id) else {
            return false;
        };
        if at >= self.cases.len() {
            return false;
        }
        self.uncount(at);
        let case = self.cases.remove(at);
        self.rows.remove(at);
        if let Some(p) = self.positions.get_mut(id.0) {
            *p = None;
        }
        self.clock += 1;
        self.order = self.clock;
        self.place_from(at);
        self.status += 1;
        self.undo = Some(Undo::Removed {
            index: at,
            name: display_name(&case, at),
            case,
        });
        true
    }
}
