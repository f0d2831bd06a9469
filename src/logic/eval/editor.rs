//! The mini eval's editor: the reader's copy of the eval (schema and cases) and every change the
//! widget offers, as plain methods with native tests. The view keeps one of these in a signal.
//!
//! Sized for long evals: each case carries a stable id, its graded outcome and the revision of
//! its last change, so an edit touches one case (no copy of the list), a view can redraw only
//! the row that changed, and summaries are one pass over outcomes already graded. Undo keeps
//! what the last reset, import or removal replaced, not a copy of the whole eval.
//!
//! The tolerance is typed in a shared number field that owns its text, so it is not held here;
//! the steps that touch it (reset, its undo, the stored form) take or give it.

//!
//! One type, one job a file: editing the cases (`cases`), moving them (`reorder`), the running
//! counts (`counts`), one step of undo (`undo`), pasted imports (`import`), execution grading
//! (`runs`), the results panel (`results`), pages of cases (`pages`), the stored form and the
//! exports (`stored`). This file holds the type and the list's own bookkeeping: ids, places,
//! revisions, a case inserted or the whole eval replaced.

mod cases;
mod counts;
mod import;
pub mod pages;
mod reorder;
mod results;
mod runs;
mod stored;
mod undo;

pub use cases::{Field, System};
pub use results::{accuracy_text, changed_text, BucketEntry, ChangedCase};
pub use runs::CaseExecution;
pub use stored::{Stored, StoredRef, STORE_NAME, STORE_VERSION};

use super::execution::{CaseRuns, Grading};
use super::tally::Tally;
use super::{EvalCase, EvalSet};
use counts::Member;
use std::collections::BTreeSet;
use undo::Undo;

/// The tolerance a fresh eval starts with, in percentage points, as typed.
pub const DEFAULT_TOLERANCE: &str = "0";

/// A case's id: stable while the case is in the list (moves keep it), for keyed rendering.
/// Ids are small numbers, reused once a reset, import or undo replaces the whole list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CaseId(usize);

/// Where a case is and when it last changed or moved: what a case's row redraws on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Its place in the list, from 0.
    pub index: usize,
    /// The editor's revision when the case last changed or moved (never 0).
    pub revision: u64,
}

/// A case's id, its graded outcome (cached: grading normalizes SQL) and its last change.
///
/// `outcome`, `critical` and `key` are what the case counts for in the editor's tally and
/// bucket sets: they change only in [`EvalEditor::uncount`]/[`EvalEditor::count`]'s company.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RowMeta {
    id: CaseId,
    outcome: (bool, bool),
    revision: u64,
    /// Whether the case was critical when last counted.
    critical: bool,
    /// Orders the cases: ascending with the place in the list, gaps left for inserts.
    key: u64,
}

/// The reader's eval: schema, cases in order, one step of undo, and the last import's message.
#[derive(Debug)]
pub struct EvalEditor {
    /// The lesson's eval, for reset.
    lesson: EvalSet,
    schema: String,
    cases: Vec<EvalCase>,
    /// One per case, in the same order.
    rows: Vec<RowMeta>,
    /// By id: the case's index, `None` for an id no longer in use.
    positions: Vec<Option<usize>>,
    /// Counts changes; a case's revision is the count at its last change.
    clock: u64,
    /// The count when the order or number of cases last changed.
    order: u64,
    /// The count when the whole eval was last replaced (an import, a reset, or the undo of one).
    replaced: u64,
    undo: Option<Undo>,
    import_message: Option<Result<String, String>>,
    /// Counts changes to what the buttons and messages say: the undo offered, the import
    /// message, and every import tried (a refusal repeated is announced again).
    status: u64,
    /// The counts of the rows' outcomes, kept case by case.
    tally: Tally,
    /// The cases of each bucket, in [`Bucket::ALL`] order, ordered by place.
    members: [BTreeSet<Member>; 4],
    /// The critical cases that regressed, ordered by place.
    critical_regressed: BTreeSet<Member>,
    /// How answers are graded.
    grading: Grading,
    /// By case id: the case's runs on the SQL engine, `None` until they are in (and again once
    /// its SQL or the schema changes).
    runs: Vec<Option<CaseRuns>>,
    /// Counts the times runs were dropped or wanted anew: what the engine's runner wakes on.
    runs_wanted: u64,
    /// The first index that may still wait for its runs.
    runs_from: usize,
}

/// A case's name for headings: its name, or "case N" (N from 1) when it has none.
pub fn display_name(case: &EvalCase, index: usize) -> String {
    if case.name.trim().is_empty() {
        format!("case {}", index + 1)
    } else {
        case.name.clone()
    }
}

/// `s` when `n` is not 1.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl EvalEditor {
    /// An editor holding the lesson's eval.
    pub fn new(lesson: EvalSet) -> Self {
        let mut editor = EvalEditor {
            schema: String::new(),
            cases: Vec::new(),
            rows: Vec::new(),
            positions: Vec::new(),
            clock: 0,
            order: 0,
            replaced: 0,
            undo: None,
            import_message: None,
            status: 0,
            lesson: EvalSet::default(),
            tally: Tally::default(),
            members: Default::default(),
            critical_regressed: BTreeSet::new(),
            grading: lesson.grading,
            runs: Vec::new(),
            runs_wanted: 0,
            runs_from: 0,
        };
        editor.replace(lesson.schema.clone(), lesson.cases.clone());
        editor.lesson = lesson;
        editor
    }

    /// An editor holding what was stored, or the lesson's eval when nothing was; and the
    /// tolerance text to show with it.
    pub fn open(lesson: EvalSet, stored: Option<Stored>) -> (Self, String) {
        let mut editor = Self::new(lesson);
        match stored {
            Some(stored) => {
                editor.grading = stored.eval.grading;
                editor.replace(stored.eval.schema, stored.eval.cases);
                (editor, stored.tolerance)
            }
            None => (editor, DEFAULT_TOLERANCE.to_string()),
        }
    }

    /// The schema the questions are about.
    pub fn schema(&self) -> &str {
        &self.schema
    }

    #[cfg(test)]
    /// The cases, in order.
    pub fn cases(&self) -> &[EvalCase] {
        &self.cases
    }

    /// How many cases there are.
    pub fn len(&self) -> usize {
        self.cases.len()
    }

    /// Whether there are no cases.
    pub fn is_empty(&self) -> bool {
        self.cases.is_empty()
    }

    /// The cases' ids, in order.
    pub fn ids(&self) -> impl Iterator<Item = CaseId> + '_ {
        self.rows.iter().map(|r| r.id)
    }

    /// Counts every change to the eval (schema, cases, order): equal revisions, same eval.
    pub fn revision(&self) -> u64 {
        self.clock
    }

    /// The revision when cases were last added, removed, moved or replaced.
    pub fn order_revision(&self) -> u64 {
        self.order
    }

    /// The revision when the whole eval was last replaced: by an import that brought its own
    /// cases, a reset, or the undo of either. A list of the cases goes back to its first page
    /// then; an edit, an added or removed case or verdicts set in place leave it unchanged.
    pub fn replaced_revision(&self) -> u64 {
        self.replaced
    }

    /// Where case `id` is and when it last changed; `None` once it is gone.
    pub fn slot(&self, id: CaseId) -> Option<Slot> {
        let index = self.index_of(id)?;
        let row = self.rows.get(index)?;
        Some(Slot {
            index,
            revision: row.revision,
        })
    }

    /// Case `id`.
    pub fn case(&self, id: CaseId) -> Option<&EvalCase> {
        self.cases.get(self.index_of(id)?)
    }

    /// Whether (baseline, candidate) pass case `id`.
    pub fn outcome(&self, id: CaseId) -> Option<(bool, bool)> {
        Some(self.rows.get(self.index_of(id)?)?.outcome)
    }

    fn index_of(&self, id: CaseId) -> Option<usize> {
        self.positions.get(id.0).copied().flatten()
    }

    /// Records the place of the case at `at`, which moved there at the current revision.
    fn place(&mut self, at: usize) {
        // A case still waiting for its runs may have moved before where the runner is.
        self.runs_from = self.runs_from.min(at);
        if let Some(row) = self.rows.get_mut(at) {
            row.revision = self.clock;
            if let Some(p) = self.positions.get_mut(row.id.0) {
                *p = Some(at);
            }
        }
    }

    /// [`Self::place`] for every case from index `from` on.
    fn place_from(&mut self, from: usize) {
        for at in from..self.rows.len() {
            self.place(at);
        }
    }

    /// Replaces the whole eval, handing back the schema and cases it replaced. Ids start
    /// again from 0.
    fn replace(&mut self, schema: String, cases: Vec<EvalCase>) -> (String, Vec<EvalCase>) {
        self.clock += 1;
        self.order = self.clock;
        self.replaced = self.clock;
        let clock = self.clock;
        // New ids: no runs yet, so every case starts from its text grade.
        self.drop_runs();
        let old = (
            std::mem::replace(&mut self.schema, schema),
            std::mem::replace(&mut self.cases, cases),
        );
        self.rows = (0..self.cases.len())
            .map(|i| RowMeta {
                id: CaseId(i),
                outcome: self.grade(i),
                revision: clock,
                critical: self.cases.get(i).is_some_and(|c| c.critical),
                key: 0,
            })
            .collect();
        self.positions = (0..self.cases.len()).map(Some).collect();
        self.renumber();
        old
    }

    /// Puts `case` at `at` (at most the end) under a new id.
    fn insert(&mut self, at: usize, case: EvalCase) -> CaseId {
        let at = at.min(self.cases.len());
        let id = CaseId(self.positions.len());
        self.positions.push(None);
        self.clock += 1;
        self.order = self.clock;
        self.want_runs();
        let key = self.key_for(at);
        let critical = case.critical;
        self.cases.insert(at, case);
        self.rows.insert(
            at,
            RowMeta {
                id,
                outcome: (false, false),
                revision: self.clock,
                critical,
                key: key.unwrap_or(0),
            },
        );
        let graded = self.grade(at);
        if let Some(row) = self.rows.get_mut(at) {
            row.outcome = graded;
        }
        self.place_from(at);
        if key.is_some() {
            self.count(at);
        } else {
            self.renumber();
        }
        id
    }

    /// Counts changes to the undo offered and the import message, and imports tried (a
    /// refusal repeated is a new message to announce).
    pub fn status_revision(&self) -> u64 {
        self.status
    }
}

#[cfg(test)]
mod tests;
