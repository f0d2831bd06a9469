//! Execution grading: each case's queries run on the SQL engine, waiting cases handed to the
//! runner in order, and what a case's result box shows.

use super::{CaseId, EvalEditor};
use crate::logic::eval::execution::{
    case_result_view, CaseResultView, CaseRuns, Grading, RunOutcome,
};

/// Where a case stands with the SQL engine, for its result box.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseExecution {
    /// Text grading: nothing runs.
    Off,
    /// Execution grading, the case's runs not in yet.
    Waiting,
    /// The rows each side returned.
    Ran(Box<CaseResultView>),
}

impl EvalEditor {
    pub(super) fn runs_of(&self, id: CaseId) -> Option<&CaseRuns> {
        self.runs.get(id.0)?.as_ref()
    }

    /// Drops every case's runs (the schema or the cases changed) and wakes the runner.
    pub(super) fn drop_runs(&mut self) {
        self.runs.clear();
        self.want_runs();
    }

    /// Asks the runner for the cases that have no runs, from the first one.
    pub(super) fn want_runs(&mut self) {
        self.runs_wanted += 1;
        self.runs_from = 0;
    }

    /// Regrades every case (the grading or the runs changed for all of them), touching only
    /// those whose outcome changes: a case's row redraws when its own outcome does.
    pub(super) fn regrade_all(&mut self) {
        for at in 0..self.cases.len() {
            if Some(self.grade(at)) != self.rows.get(at).map(|r| r.outcome) {
                self.touch(at, true);
            }
        }
    }

    /// How answers are graded.
    pub fn grading(&self) -> Grading {
        self.grading
    }

    /// Chooses how answers are graded and regrades every case; false if it was already so.
    /// Under execution grading each case keeps its text grade until its runs are in
    /// ([`Self::run_waiting`]).
    pub fn set_grading(&mut self, grading: Grading) -> bool {
        if self.grading == grading {
            return false;
        }
        self.grading = grading;
        // The eval changed (its file carries the grading), whichever case's outcome does.
        self.clock += 1;
        self.want_runs();
        self.regrade_all();
        true
    }

    /// Counts the times cases came to wait for the engine (runs dropped, cases added, grading
    /// chosen): the runner checks for waiting cases when this changes.
    pub fn runs_wanted(&self) -> u64 {
        self.runs_wanted
    }

    /// Under execution grading, how many cases have their runs, of how many.
    pub fn runs_done(&self) -> (usize, usize) {
        let done = self
            .rows
            .iter()
            .filter(|r| self.runs_of(r.id).is_some())
            .count();
        (done, self.rows.len())
    }

    /// Whether a case waits for its runs (execution grading only).
    pub fn is_waiting(&self) -> bool {
        self.grading == Grading::Execution
            && self
                .rows
                .iter()
                .skip(self.runs_from)
                .any(|r| self.runs_of(r.id).is_none())
    }

    /// Stores case `id`'s runs and regrades it; false if there is no such case.
    pub fn store_runs(&mut self, id: CaseId, runs: CaseRuns) -> bool {
        let Some(at) = self.index_of(id) else {
            return false;
        };
        if self.runs.len() <= id.0 {
            self.runs.resize(id.0 + 1, None);
        }
        if let Some(slot) = self.runs.get_mut(id.0) {
            *slot = Some(runs);
        }
        self.touch(at, true);
        true
    }

    /// Under execution grading, runs the waiting cases in order on the engine
    /// (`run(schema, sql)`): at least one, then more while `more()` says so; stores their runs
    /// and regrades them. Returns how many ran (0 when none waits or grading is by text).
    pub fn run_waiting(
        &mut self,
        run: &mut dyn FnMut(&str, &str) -> RunOutcome,
        more: &mut dyn FnMut() -> bool,
    ) -> usize {
        if self.grading != Grading::Execution {
            return 0;
        }
        let mut ran = 0;
        while let Some(at) = (self.runs_from..self.rows.len()).find(|&at| {
            self.rows
                .get(at)
                .is_some_and(|r| self.runs_of(r.id).is_none())
        }) {
            self.runs_from = at + 1;
            let (Some(row), Some(case)) = (self.rows.get(at), self.cases.get(at)) else {
                break;
            };
            let id = row.id;
            let runs = CaseRuns::run(
                &self.schema,
                &case.reference_sql,
                &case.baseline_sql,
                &case.candidate_sql,
                run,
            );
            self.store_runs(id, runs);
            ran += 1;
            if !more() {
                break;
            }
        }
        ran
    }

    /// What case `id`'s result box shows.
    pub fn execution(&self, id: CaseId) -> CaseExecution {
        if self.grading == Grading::Text {
            return CaseExecution::Off;
        }
        match (self.runs_of(id), self.case(id)) {
            (Some(runs), Some(case)) => {
                CaseExecution::Ran(Box::new(case_result_view(runs, &case.reference_sql)))
            }
            _ => CaseExecution::Waiting,
        }
    }
}
