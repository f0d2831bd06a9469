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

use super::execution::{case_result_view, CaseResultView, CaseRuns, Grading, RunOutcome};
use super::tally::{bucket_slot, Tally};
use super::{
    accuracy, case_label, cases_from_pass_fail, decide_tally, diff_sides, format_version,
    graded_outcome, parse_import, parse_tolerance, percent_text, results_csv_graded,
    wilson_interval, Bucket, Decision, DiffRun, EvalCase, EvalSet, Import, InputError, Summary,
    Verdict, Z_95,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub mod pages;

/// Name of the stored value (`ie-course:mini-eval`) and its schema version.
pub const STORE_NAME: &str = "mini-eval";
pub const STORE_VERSION: u32 = 1;
/// The tolerance a fresh eval starts with, in percentage points, as typed.
pub const DEFAULT_TOLERANCE: &str = "0";

/// What is stored: the eval as edited and the tolerance as typed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    /// The eval.
    pub eval: EvalSet,
    /// The tolerance field's text.
    pub tolerance: String,
}

/// The stored form of an editor, borrowed: reads back as [`Stored`], without copying the
/// cases. A case's fields that hold their default (empty text, `auto`, not critical) are left
/// out, which [`Stored`] reads back as those defaults: a long eval of pasted verdicts takes
/// half the room, so it fits the browser's storage.
#[derive(Debug, Serialize)]
pub struct StoredRef<'a> {
    eval: StoredEvalRef<'a>,
    tolerance: &'a str,
}

/// An [`EvalSet`], borrowed, its cases written compactly.
#[derive(Debug, Serialize)]
struct StoredEvalRef<'a> {
    version: u32,
    schema: &'a str,
    #[serde(skip_serializing_if = "Grading::is_text")]
    grading: Grading,
    cases: CompactCases<'a>,
}

/// Cases written without their default fields.
#[derive(Debug)]
struct CompactCases<'a>(&'a [EvalCase]);

impl Serialize for CompactCases<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(CompactCase::of))
    }
}

/// One [`EvalCase`], its default fields left out.
#[derive(Debug, Serialize)]
struct CompactCase<'a> {
    #[serde(skip_serializing_if = "str::is_empty")]
    name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    question: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    reference_sql: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    baseline_sql: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    candidate_sql: &'a str,
    #[serde(skip_serializing_if = "is_auto")]
    baseline_verdict: Verdict,
    #[serde(skip_serializing_if = "is_auto")]
    candidate_verdict: Verdict,
    #[serde(skip_serializing_if = "is_false")]
    critical: bool,
}

impl<'a> CompactCase<'a> {
    fn of(c: &'a EvalCase) -> Self {
        CompactCase {
            name: &c.name,
            question: &c.question,
            reference_sql: &c.reference_sql,
            baseline_sql: &c.baseline_sql,
            candidate_sql: &c.candidate_sql,
            baseline_verdict: c.baseline_verdict,
            candidate_verdict: c.candidate_verdict,
            critical: c.critical,
        }
    }
}

fn is_auto(v: &Verdict) -> bool {
    *v == Verdict::Auto
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// An [`EvalSet`], borrowed; the same fields in the same order.
#[derive(Debug, Serialize)]
struct EvalRef<'a> {
    version: u32,
    schema: &'a str,
    #[serde(skip_serializing_if = "Grading::is_text")]
    grading: Grading,
    cases: &'a [EvalCase],
}

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

    fn get_mut(self, case: &mut EvalCase) -> &mut String {
        match self {
            Field::Name => &mut case.name,
            Field::Question => &mut case.question,
            Field::ReferenceSql => &mut case.reference_sql,
            Field::BaselineSql => &mut case.baseline_sql,
            Field::CandidateSql => &mut case.candidate_sql,
        }
    }

    /// Whether the field takes part in grading (the SQL texts).
    fn grades(self) -> bool {
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

    fn verdict_mut(self, case: &mut EvalCase) -> &mut Verdict {
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

/// The gap between neighbours' keys when keys are handed out afresh.
const KEY_GAP: u64 = 1 << 24;

/// A case in one of the ordered sets: its key, then its id.
type Member = (u64, CaseId);

/// What one step of undo gives back.
#[derive(Debug, Clone, PartialEq)]
enum Undo {
    /// A removed case and where it was.
    Removed {
        index: usize,
        case: EvalCase,
        name: String,
    },
    /// The whole eval a reset or import replaced, and the tolerance a reset replaced.
    Replaced {
        what: &'static str,
        schema: String,
        grading: Grading,
        cases: Vec<EvalCase>,
        tolerance: Option<String>,
    },
    /// The verdicts a pasted column of pass/fail replaced, by case.
    Verdicts(Vec<(CaseId, Verdict, Verdict)>),
}

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

/// A case's name for headings: its name, or "case N" (N from 1) when it has none.
pub fn display_name(case: &EvalCase, index: usize) -> String {
    if case.name.trim().is_empty() {
        format!("case {}", index + 1)
    } else {
        case.name.clone()
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

    /// The stored form of this eval with the tolerance `tolerance` (as typed).
    pub fn stored<'a>(&'a self, tolerance: &'a str) -> StoredRef<'a> {
        StoredRef {
            eval: StoredEvalRef {
                version: format_version(self.grading),
                schema: &self.schema,
                grading: self.grading,
                cases: CompactCases(&self.cases),
            },
            tolerance,
        }
    }

    fn eval_ref(&self) -> EvalRef<'_> {
        EvalRef {
            version: format_version(self.grading),
            schema: &self.schema,
            grading: self.grading,
            cases: &self.cases,
        }
    }

    /// The eval as an eval file (pretty JSON), as [`super::eval_json`] writes it.
    pub fn eval_json(&self) -> String {
        // Plain strings, numbers and enums cannot fail to serialize.
        serde_json::to_string_pretty(&self.eval_ref()).unwrap_or_default()
    }

    /// Per-case results as CSV ([`super::results_csv`]), as graded here.
    pub fn results_csv(&self) -> String {
        results_csv_graded(self.cases.iter().zip(self.rows.iter().map(|r| r.outcome)))
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

    /// Whether (baseline, candidate) pass the case at `at`: the one place a case is graded.
    /// Text or execution grading as the eval is set, with the case's runs once they are in;
    /// manual verdicts first.
    fn grade(&self, at: usize) -> (bool, bool) {
        let Some(case) = self.cases.get(at) else {
            return (false, false);
        };
        let runs = self.rows.get(at).and_then(|r| self.runs_of(r.id));
        graded_outcome(case, self.grading, runs)
    }

    /// Marks the case at `at` changed, regrading it if `regrade`, and counts it again: every
    /// change to a case's outcome or critical flag comes through here.
    fn touch(&mut self, at: usize, regrade: bool) {
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
    fn count(&mut self, at: usize) {
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
    fn uncount(&mut self, at: usize) {
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
    fn count_all(&mut self) {
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
    fn renumber(&mut self) {
        for (i, row) in self.rows.iter_mut().enumerate() {
            row.key = (i as u64 + 1).saturating_mul(KEY_GAP);
        }
        self.count_all();
    }

    /// A key for a case about to be inserted at `at`, between its neighbours' keys; `None`
    /// when there is no room left between them.
    fn key_for(&self, at: usize) -> Option<u64> {
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

    fn runs_of(&self, id: CaseId) -> Option<&CaseRuns> {
        self.runs.get(id.0)?.as_ref()
    }

    /// Drops every case's runs (the schema or the cases changed) and wakes the runner.
    fn drop_runs(&mut self) {
        self.runs.clear();
        self.want_runs();
    }

    /// Asks the runner for the cases that have no runs, from the first one.
    fn want_runs(&mut self) {
        self.runs_wanted += 1;
        self.runs_from = 0;
    }

    /// Regrades every case (the grading or the runs changed for all of them), touching only
    /// those whose outcome changes: a case's row redraws when its own outcome does.
    fn regrade_all(&mut self) {
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

    /// Moves case `id` one place up; false if it is first (or gone).
    pub fn move_up(&mut self, id: CaseId) -> bool {
        self.move_by(id, -1)
    }

    /// Moves case `id` one place down; false if it is last (or gone).
    pub fn move_down(&mut self, id: CaseId) -> bool {
        self.move_by(id, 1)
    }

    fn move_by(&mut self, id: CaseId, by: isize) -> bool {
        let Some(from) = self.index_of(id) else {
            return false;
        };
        let Some(to) = from
            .checked_add_signed(by)
            .filter(|&to| to < self.cases.len() && from < self.cases.len())
        else {
            return false;
        };
        self.uncount(from);
        self.uncount(to);
        self.cases.swap(from, to);
        self.rows.swap(from, to);
        // Keys stay with places: the two cases trade keys as they trade places.
        let (a, b) = (
            self.rows.get(from).map(|r| r.key),
            self.rows.get(to).map(|r| r.key),
        );
        if let (Some(a), Some(b)) = (a, b) {
            if let Some(r) = self.rows.get_mut(from) {
                r.key = b;
            }
            if let Some(r) = self.rows.get_mut(to) {
                r.key = a;
            }
        }
        self.count(from);
        self.count(to);
        self.clock += 1;
        self.order = self.clock;
        self.place(from);
        self.place(to);
        true
    }

    /// Puts the lesson's eval back. `tolerance` is the tolerance as typed before, which an
    /// undo gives back; the caller sets the field to [`DEFAULT_TOLERANCE`].
    pub fn reset(&mut self, tolerance: &str) {
        let grading = std::mem::replace(&mut self.grading, self.lesson.grading);
        let (schema, cases) = self.replace(self.lesson.schema.clone(), self.lesson.cases.clone());
        self.undo = Some(Undo::Replaced {
            what: "reset",
            schema,
            grading,
            cases,
            tolerance: Some(tolerance.to_string()),
        });
        self.import_message = None;
        self.status += 1;
    }

    /// Applies pasted text ([`parse_import`]): an eval file replaces the eval; two columns of
    /// pass/fail set both verdicts by hand, case by case when there is one line per case, or
    /// else replace the eval with that many unnamed cases (the schema kept). The message says
    /// what happened, or why nothing did. True if the eval changed.
    pub fn import(&mut self, text: &str) -> bool {
        self.import_parsed(parse_import(text))
    }

    /// [`Self::import`] of text already read (by [`parse_import`], or a piece at a time by
    /// [`super::chunked`]); an `Err` is a refusal, said in the message.
    pub fn import_parsed(&mut self, parsed: Result<Import, InputError>) -> bool {
        self.status += 1;
        let message = match parsed {
            Err(e) => {
                self.import_message = Some(Err(format!("{} Nothing was changed.", e.message)));
                return false;
            }
            Ok(Import::Eval(set)) => {
                let n = set.cases.len();
                self.replace_for_import(set.schema, set.grading, set.cases);
                format!("Imported the eval file: {n} case{}.", plural(n))
            }
            Ok(Import::Verdicts(results)) if results.len() == self.cases.len() => {
                let n = results.len();
                self.set_verdicts(&results);
                format!(
                    "Set both verdicts of all {n} case{} by hand from the pasted columns, in order.",
                    plural(n)
                )
            }
            Ok(Import::Verdicts(results)) => {
                let (n, had) = (results.len(), self.cases.len());
                self.replace_for_import(
                    self.schema.clone(),
                    self.grading,
                    cases_from_pass_fail(&results),
                );
                format!(
                    "The paste has {n} line{} and the eval had {had} case{}, so it replaced the \
                     eval with {n} case{} named \u{201c}case 1\u{201d} onwards.",
                    plural(n),
                    plural(had),
                    plural(n)
                )
            }
        };
        self.import_message = Some(Ok(message));
        true
    }

    fn replace_for_import(&mut self, schema: String, grading: Grading, cases: Vec<EvalCase>) {
        let grading = std::mem::replace(&mut self.grading, grading);
        let (schema, cases) = self.replace(schema, cases);
        self.undo = Some(Undo::Replaced {
            what: "import",
            schema,
            grading,
            cases,
            tolerance: None,
        });
    }

    /// Sets every case's verdicts by hand from (baseline, candidate) results, in order.
    fn set_verdicts(&mut self, results: &[(bool, bool)]) {
        let verdict = |p: bool| if p { Verdict::Pass } else { Verdict::Fail };
        let mut before = Vec::with_capacity(results.len());
        for (at, &(b, c)) in results.iter().enumerate() {
            let (Some(case), Some(row)) = (self.cases.get_mut(at), self.rows.get(at)) else {
                break;
            };
            before.push((row.id, case.baseline_verdict, case.candidate_verdict));
            case.baseline_verdict = verdict(b);
            case.candidate_verdict = verdict(c);
            self.touch(at, true);
        }
        self.undo = Some(Undo::Verdicts(before));
    }

    /// What the undo button offers: "Undo the reset", "Undo the import", "Undo the removal of
    /// “distinct cities”"; `None` when there is nothing to undo.
    pub fn undo_label(&self) -> Option<String> {
        Some(match self.undo.as_ref()? {
            Undo::Removed { name, .. } => format!("Undo the removal of \u{201c}{name}\u{201d}"),
            Undo::Replaced { what, .. } => format!("Undo the {what}"),
            Undo::Verdicts(_) => "Undo the import".to_string(),
        })
    }

    /// Undoes the last reset, import or removal (one step), and clears the import message.
    /// A removed case goes back where it was; a reset or import gives back the eval it
    /// replaced. Returns the tolerance text to put back, when the step undone was a reset.
    pub fn undo(&mut self) -> Option<String> {
        let step = self.undo.take()?;
        self.import_message = None;
        self.status += 1;
        match step {
            Undo::Removed { index, case, .. } => {
                self.insert(index, case);
                None
            }
            Undo::Replaced {
                schema,
                grading,
                cases,
                tolerance,
                ..
            } => {
                self.grading = grading;
                self.replace(schema, cases);
                tolerance
            }
            Undo::Verdicts(before) => {
                for (id, baseline, candidate) in before {
                    let Some(at) = self.index_of(id) else {
                        continue;
                    };
                    if let Some(case) = self.cases.get_mut(at) {
                        case.baseline_verdict = baseline;
                        case.candidate_verdict = candidate;
                    }
                    self.touch(at, true);
                }
                None
            }
        }
    }

    /// The last import's message: `Ok` when it applied, `Err` (ending "Nothing was
    /// changed.") when it was refused; cleared by a reset or an undo.
    pub fn import_message(&self) -> Option<&Result<String, String>> {
        self.import_message.as_ref()
    }

    /// Counts changes to the undo offered and the import message, and imports tried (a
    /// refusal repeated is a new message to announce).
    pub fn status_revision(&self) -> u64 {
        self.status
    }

    /// The headline figures, in one pass over the graded cases (the view keeps to
    /// [`Self::tally`] and the paged lists below, which need no such pass).
    pub fn summary(&self) -> Summary {
        Summary::of_outcomes(self.rows.iter().map(|r| r.outcome))
    }

    /// The names of the critical cases that regressed, in order.
    fn critical_regressed_names(&self) -> Vec<String> {
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
    fn members_of(&self, bucket: Bucket) -> impl Iterator<Item = usize> + '_ {
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

#[cfg(test)]
mod tests {
    use super::super::{eval_json, parse_eval_json, results_csv, summarize, MAX_INPUT_BYTES};
    use super::*;
    use crate::logic::storage::{self, Backend, MemoryBackend, Read};

    const LESSON_JSON: &str = include_str!("../../../content/mini-eval.json");

    fn lesson() -> EvalSet {
        parse_eval_json(LESSON_JSON).unwrap()
    }

    fn editor() -> EvalEditor {
        EvalEditor::new(lesson())
    }

    fn id_of(e: &EvalEditor, name: &str) -> CaseId {
        let at = e.cases().iter().position(|c| c.name == name).unwrap();
        e.ids().nth(at).unwrap()
    }

    fn names(e: &EvalEditor) -> Vec<String> {
        e.cases().iter().map(|c| c.name.clone()).collect()
    }

    /// The editor's bookkeeping agrees with its cases: every id finds its case, every cached
    /// outcome is the case's grade, and the ids are distinct.
    fn check(e: &EvalEditor) {
        assert_eq!(e.rows.len(), e.cases.len());
        for (i, row) in e.rows.iter().enumerate() {
            assert_eq!(e.index_of(row.id), Some(i));
            assert_eq!(row.outcome, e.grade(i), "case {i}");
        }
        let in_use = e.positions.iter().filter(|p| p.is_some()).count();
        assert_eq!(in_use, e.cases.len());
        // The running counts and ordered sets are what counting from scratch gives.
        let scratch = Summary::of_outcomes((0..e.cases.len()).map(|i| e.grade(i)));
        assert_eq!(e.tally(), Tally::of_summary(&scratch));
        assert!(
            e.rows.windows(2).all(|w| w[0].key < w[1].key),
            "keys ascend"
        );
        for b in Bucket::ALL {
            let members: Vec<usize> = e.members_of(b).collect();
            assert_eq!(members, scratch.buckets.get(b), "{b:?}");
        }
        let critical: Vec<String> = scratch
            .buckets
            .regressed
            .iter()
            .filter(|&&i| e.cases[i].critical)
            .map(|&i| case_label(&e.cases, i))
            .collect();
        assert_eq!(e.critical_regressed_names(), critical);
        for tolerance in ["0", "5"] {
            let t: f64 = tolerance.parse().unwrap();
            assert_eq!(
                e.decision(tolerance).unwrap(),
                super::super::decide_on(&e.cases, &scratch, t)
            );
        }
    }

    #[test]
    fn starts_at_the_lesson_eval() {
        let e = editor();
        check(&e);
        assert_eq!(e.len(), 10);
        assert!(!e.is_empty());
        assert_eq!(e.cases(), lesson().cases.as_slice());
        assert_eq!(e.schema(), lesson().schema);
        let s = e.summary();
        assert_eq!(s, summarize(&lesson().cases));
        assert_eq!((s.baseline_passes, s.candidate_passes), (9, 9));
        assert_eq!(e.undo_label(), None);
        assert_eq!(e.import_message(), None);
        assert_eq!(e.slot(e.ids().nth(3).unwrap()).unwrap().index, 3);
    }

    #[test]
    fn editing_a_field_changes_that_case_only_and_regrades_sql() {
        let mut e = editor();
        let admins = id_of(&e, "emails of admins");
        let other = id_of(&e, "all names");
        let other_slot = e.slot(other);
        let (before, order) = (e.revision(), e.order_revision());
        assert!(e.edit(admins, Field::Name, "admin emails".into()));
        assert_eq!(e.case(admins).unwrap().name, "admin emails");
        assert!(e.revision() > before);
        assert_eq!(
            e.slot(other),
            other_slot,
            "another case's row must not redraw"
        );
        assert_eq!(e.order_revision(), order, "an edit keeps the order");
        // SQL: the grade follows.
        assert_eq!(e.outcome(admins), Some((true, false)));
        assert!(e.edit(
            admins,
            Field::CandidateSql,
            "select email from users where is_admin = true".into()
        ));
        assert_eq!(e.outcome(admins), Some((true, true)));
        for field in [Field::Question, Field::ReferenceSql, Field::BaselineSql] {
            assert!(e.edit(admins, field, "x".into()));
            assert_eq!(field.get(e.case(admins).unwrap()), "x");
        }
        assert_eq!(e.outcome(admins), Some((true, false)));
        check(&e);
        // The same text again changes nothing, and neither does a case that is gone.
        let rev = e.revision();
        assert!(!e.edit(admins, Field::Question, "x".into()));
        assert_eq!(e.revision(), rev);
        assert!(!e.edit(CaseId(999), Field::Name, "y".into()));
        // Editing is not a step of undo.
        assert_eq!(e.undo_label(), None);
    }

    #[test]
    fn verdicts_critical_flags_and_schema() {
        let mut e = editor();
        let paris = id_of(&e, "users in Paris");
        assert!(e.set_verdict(paris, System::Candidate, Verdict::Fail));
        assert!(!e.set_verdict(paris, System::Candidate, Verdict::Fail));
        assert_eq!(e.outcome(paris), Some((true, false)));
        assert_eq!(
            System::Candidate.verdict(e.case(paris).unwrap()),
            Verdict::Fail
        );
        assert!(e.set_verdict(paris, System::Baseline, Verdict::Fail));
        assert_eq!(e.summary().buckets.still_failing.len(), 1);
        assert!(System::Baseline.passes((true, false)));
        assert!(!System::Candidate.passes((true, false)));
        assert!(e.set_verdict(paris, System::Baseline, Verdict::Auto));
        assert_eq!(e.outcome(paris), Some((true, false)));

        let admins = id_of(&e, "emails of admins");
        assert!(!e.decision("100").unwrap().accept);
        assert!(e.set_critical(admins, false));
        assert!(!e.set_critical(admins, false));
        assert!(!e.case(admins).unwrap().critical);
        assert!(e.decision("100").unwrap().accept);
        assert!(!e.set_critical(CaseId(999), true));
        assert!(!e.set_verdict(CaseId(999), System::Baseline, Verdict::Pass));

        assert!(e.set_schema("CREATE TABLE t (x INT);".into()));
        assert!(!e.set_schema("CREATE TABLE t (x INT);".into()));
        assert_eq!(e.schema(), "CREATE TABLE t (x INT);");
        assert_eq!(e.undo_label(), None);
        check(&e);
    }

    #[test]
    fn add_appends_a_named_empty_case() {
        let mut e = editor();
        let order = e.order_revision();
        let id = e.add_case();
        assert_eq!(e.len(), 11);
        assert_eq!(e.case(id).unwrap().name, "new case 11");
        assert_eq!(e.slot(id).unwrap().index, 10);
        assert!(e.order_revision() > order);
        // An empty reference grades nothing as a pass: both fail.
        assert_eq!(e.outcome(id), Some((false, false)));
        assert_eq!(e.summary().buckets.still_failing, [10]);
        assert!(e
            .ids()
            .all(|other| other == id || e.case(other).unwrap().name != "new case 11"));
        assert_eq!(e.undo_label(), None);
        check(&e);
    }

    #[test]
    fn moves_up_and_down_and_stops_at_the_ends() {
        let mut e = editor();
        let first = e.ids().next().unwrap();
        let last = e.ids().last().unwrap();
        let order = e.order_revision();
        assert!(!e.move_up(first));
        assert!(!e.move_down(last));
        assert_eq!(
            e.order_revision(),
            order,
            "a move that cannot happen changes nothing"
        );
        // A move redraws the two rows that swapped places, no other.
        let before: Vec<Option<Slot>> = e.ids().map(|id| e.slot(id)).collect();
        assert!(e.move_down(first));
        let redrawn: Vec<usize> = e
            .ids()
            .zip(&before)
            .enumerate()
            .filter(|(_, (id, slot))| e.slot(*id) != **slot)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(redrawn, [0, 1]);
        assert_eq!(e.slot(first).unwrap().index, 1);
        assert_eq!(names(&e)[..2], ["count users", "all names"]);
        assert!(e.move_up(last));
        assert_eq!(e.slot(last).unwrap().index, 8);
        assert_eq!(e.cases()[9].name, "names in order");
        assert!(e.order_revision() > order);
        // The buckets follow the order.
        let admins = id_of(&e, "emails of admins");
        for _ in 0..10 {
            e.move_up(admins);
        }
        assert_eq!(e.slot(admins).unwrap().index, 0);
        assert_eq!(e.summary().buckets.regressed, [0]);
        assert!(!e.move_up(CaseId(999)));
        assert_eq!(e.undo_label(), None);
        check(&e);
    }

    #[test]
    fn removal_undoes_back_into_place_keeping_later_edits() {
        let mut e = editor();
        let admins = id_of(&e, "emails of admins");
        assert!(e.remove(admins));
        assert!(!e.remove(admins));
        assert_eq!(e.slot(admins), None);
        assert_eq!(e.case(admins), None);
        assert_eq!(e.len(), 9);
        assert!(e.summary().buckets.regressed.is_empty());
        assert_eq!(
            e.undo_label().unwrap(),
            "Undo the removal of \u{201c}emails of admins\u{201d}"
        );
        check(&e);
        // An edit after the removal survives its undo.
        let paris = id_of(&e, "users in Paris");
        e.edit(paris, Field::Name, "Parisians".into());
        assert_eq!(e.undo(), None);
        assert_eq!(e.len(), 10);
        assert_eq!(e.cases()[4].name, "emails of admins");
        assert_eq!(e.cases()[2].name, "Parisians");
        assert_eq!(e.summary().buckets.regressed, [4]);
        assert_eq!(e.undo_label(), None);
        check(&e);
        // A case with no name is named by its place.
        let blank = e.add_case();
        e.edit(blank, Field::Name, " ".into());
        e.remove(blank);
        assert_eq!(
            e.undo_label().unwrap(),
            "Undo the removal of \u{201c}case 11\u{201d}"
        );
        // The last case removed, then a case added: undo puts it back before the new one.
        let last = e.ids().last().unwrap();
        e.remove(last);
        e.add_case();
        e.undo();
        assert_eq!(e.len(), 11);
        assert_eq!(e.cases()[9].name, "busiest city");
        assert_eq!(e.cases()[10].name, "new case 10");
        check(&e);
    }

    #[test]
    fn reset_brings_back_the_lesson_and_undoes_with_its_tolerance() {
        let mut e = editor();
        let id = id_of(&e, "all names");
        e.edit(id, Field::Name, "every name".into());
        e.add_case();
        e.set_schema("S".into());
        e.import("junk");
        assert!(e.import_message().is_some());
        e.reset("5");
        assert_eq!(e.cases(), lesson().cases.as_slice());
        assert_eq!(e.schema(), lesson().schema);
        assert_eq!(e.import_message(), None);
        assert_eq!(e.undo_label().unwrap(), "Undo the reset");
        check(&e);
        assert_eq!(e.undo(), Some("5".to_string()));
        assert_eq!(e.len(), 11);
        assert_eq!(e.cases()[0].name, "every name");
        assert_eq!(e.schema(), "S");
        assert_eq!(e.undo_label(), None);
        assert_eq!(e.undo(), None, "one step only");
        check(&e);
    }

    #[test]
    fn import_of_an_eval_file_replaces_and_undoes() {
        let mut e = editor();
        e.remove(id_of(&e, "all names"));
        let json = r#"{"version": 1, "schema": "S", "cases": [{"name": "one",
            "reference_sql": "SELECT 1", "baseline_sql": "select 1;", "candidate_sql": "SELECT 2"}]}"#;
        assert!(e.import(json));
        assert_eq!(
            e.import_message(),
            Some(&Ok("Imported the eval file: 1 case.".to_string()))
        );
        assert_eq!(names(&e), ["one"]);
        assert_eq!(e.schema(), "S");
        assert_eq!(e.summary().buckets.regressed, [0]);
        assert_eq!(e.undo_label().unwrap(), "Undo the import");
        check(&e);
        // Our own export imports back to the same eval.
        let mut other = editor();
        assert!(other.import(&e.eval_json()));
        assert_eq!(other.cases(), e.cases());
        assert_eq!(e.undo(), None);
        assert_eq!(e.len(), 9);
        assert_eq!(e.schema(), lesson().schema);
        assert_eq!(e.import_message(), None);
        check(&e);
    }

    #[test]
    fn import_of_columns_sets_verdicts_or_makes_a_new_eval() {
        let mut e = editor();
        let lines: Vec<&str> = (0..10)
            .map(|i| if i < 3 { "pass\tfail" } else { "pass\tpass" })
            .collect();
        let paste = format!("baseline\tcandidate\n{}", lines.join("\n"));
        assert!(e.import(&paste));
        assert_eq!(
            e.import_message(),
            Some(&Ok(
                "Set both verdicts of all 10 cases by hand from the pasted columns, in order."
                    .to_string()
            ))
        );
        let s = e.summary();
        assert_eq!((s.baseline_passes, s.candidate_passes), (10, 7));
        assert_eq!(s.buckets.regressed, [0, 1, 2]);
        assert_eq!(e.cases()[0].name, "all names");
        assert_eq!(e.cases()[0].candidate_verdict, Verdict::Fail);
        check(&e);
        // Undo gives back the verdicts, case by case, even after a move.
        let first = e.ids().next().unwrap();
        e.move_down(first);
        assert_eq!(e.undo(), None);
        assert!(e
            .cases()
            .iter()
            .all(|c| c.baseline_verdict == Verdict::Auto && c.candidate_verdict == Verdict::Auto));
        assert_eq!(e.cases()[1].name, "all names");
        check(&e);
        // Another count: a new eval of unnamed cases, the schema kept.
        assert!(e.import("1,0\n0,0"));
        assert_eq!(names(&e), ["case 1", "case 2"]);
        assert_eq!(e.schema(), lesson().schema);
        assert_eq!(e.summary().buckets.still_failing, [1]);
        assert_eq!(
            e.import_message().unwrap().as_ref().unwrap(),
            "The paste has 2 lines and the eval had 10 cases, so it replaced the eval with 2 \
             cases named \u{201c}case 1\u{201d} onwards."
        );
        assert!(!e.import("pass"));
        check(&e);
    }

    #[test]
    fn only_a_replaced_eval_counts_as_replaced() {
        let mut e = editor();
        let mut last = e.replaced_revision();
        // Runs `f`, then checks whether the eval counted as replaced since the step before.
        let mut step = |e: &mut EvalEditor, yes: bool, what: &str, f: &dyn Fn(&mut EvalEditor)| {
            f(e);
            let now = e.replaced_revision();
            assert_eq!(now != std::mem::replace(&mut last, now), yes, "{what}");
        };
        let admins = id_of(&e, "emails of admins");
        step(&mut e, false, "an edit", &|e| {
            e.edit(admins, Field::Name, "admin emails".into());
        });
        step(&mut e, false, "an added case", &|e| {
            e.add_case();
        });
        step(&mut e, false, "a removed case", &|e| {
            e.remove(admins);
        });
        step(&mut e, false, "the removal undone", &|e| {
            e.undo();
        });
        let columns = vec!["pass\tfail"; e.len()].join("\n");
        step(&mut e, false, "verdicts set in place", &|e| {
            assert!(e.import(&columns));
        });
        step(&mut e, true, "columns of another length", &|e| {
            assert!(e.import("pass\tpass\nfail\tpass"));
        });
        step(&mut e, true, "that import undone", &|e| {
            e.undo();
        });
        step(&mut e, false, "a refused import", &|e| {
            assert!(!e.import("pass\tperhaps"));
        });
        step(&mut e, true, "an eval file", &|e| {
            assert!(e.import(r#"{"version": 1, "cases": [{"name": "one"}]}"#));
        });
        step(&mut e, true, "a reset", &|e| {
            e.reset("0");
        });
    }

    #[test]
    fn bad_imports_change_nothing_and_say_why() {
        let mut e = editor();
        e.remove(id_of(&e, "all names"));
        let (rev, status) = (e.revision(), e.status_revision());
        let label = e.undo_label();
        let refused = |e: &mut EvalEditor, text: &str| -> String {
            assert!(!e.import(text));
            e.import_message().unwrap().clone().unwrap_err()
        };
        let m = refused(
            &mut e,
            "{\n  \"cases\": [\n    {\"name\": \"a\", \"critical\": \"very\"}\n  ]\n}",
        );
        assert!(m.starts_with("Line 3"), "{m}");
        assert!(m.contains("field \u{201c}critical\u{201d}"), "{m}");
        assert!(m.ends_with(" Nothing was changed."), "{m}");
        let m = refused(&mut e, "pass, pass\npass, perhaps");
        assert!(
            m.starts_with("Line 2: \u{201c}perhaps\u{201d} is not pass/fail"),
            "{m}"
        );
        assert!(refused(&mut e, "{\"cases\": [").starts_with("Line 1, column 11"));
        assert!(refused(&mut e, "   ").starts_with("Paste an eval file"));
        assert!(refused(&mut e, r#"{"version": 3}"#).contains("version 3"));
        let big = format!("{{\"cases\": []}}{}", " ".repeat(MAX_INPUT_BYTES));
        assert!(refused(&mut e, &big).contains("1 MB"));
        assert_eq!(e.revision(), rev);
        assert_eq!(e.status_revision(), status + 6, "each refusal is news");
        assert_eq!(e.len(), 9);
        assert_eq!(
            e.undo_label(),
            label,
            "a refused import keeps the undo it found"
        );
        check(&e);
    }

    #[test]
    fn the_status_changes_with_the_undo_offer_and_the_import_message_only() {
        let mut e = editor();
        let mut status = e.status_revision();
        let mut changed = |e: &EvalEditor| {
            let now = e.status_revision();
            let news = now != status;
            status = now;
            news
        };
        let id = e.ids().next().unwrap();
        e.edit(id, Field::Name, "x".into());
        e.set_critical(id, true);
        e.move_down(id);
        e.add_case();
        e.set_schema("S".into());
        assert!(!changed(&e), "edits leave the buttons and messages alone");
        e.remove(id);
        assert!(changed(&e));
        e.undo();
        assert!(changed(&e));
        e.import("junk");
        assert!(changed(&e));
        e.reset("0");
        assert!(changed(&e));
    }

    #[test]
    fn undo_with_nothing_to_undo_does_nothing() {
        let mut e = editor();
        let rev = e.revision();
        assert_eq!(e.undo(), None);
        assert_eq!(e.revision(), rev);
        assert_eq!(e.cases(), lesson().cases.as_slice());
    }

    #[test]
    fn results_panel_texts() {
        let e = editor();
        let s = e.tally();
        assert_eq!(
            accuracy_text(&s, System::Baseline),
            (
                "90%".to_string(),
                "9 of 10 \u{b7} 95% interval 59.6\u{2013}98.2%".to_string()
            )
        );
        assert_eq!(accuracy_text(&s, System::Candidate).0, "90%");
        assert_eq!(changed_text(&s), "1 regressed, 1 fixed");
        let empty = Tally::default();
        assert_eq!(
            accuracy_text(&empty, System::Baseline),
            ("\u{2014}".to_string(), "no cases".to_string())
        );
        assert_eq!(
            e.decision("0").unwrap().reason,
            "rejected: critical case 'emails of admins' regressed"
        );
        let err = e.decision("abc").unwrap_err();
        assert_eq!(err.field, "Tolerance");
        assert!(err.message.contains("is not a number"));
    }

    #[test]
    fn buckets_and_changed_cases_with_their_diffs() {
        let mut e = editor();
        assert_eq!(
            e.bucket_entries(Bucket::Regressed, 100),
            [BucketEntry {
                id: id_of(&e, "emails of admins"),
                name: "emails of admins".into(),
                shown: "emails of admins".into(),
                critical: true
            }]
        );
        assert_eq!(e.bucket_entries(Bucket::UnchangedPass, 100).len(), 8);
        assert!(e.bucket_entries(Bucket::StillFailing, 100).is_empty());
        let changed = e.changed_cases(100);
        assert_eq!(changed.len(), 2);
        assert_eq!(changed[0].bucket, Bucket::Regressed);
        assert_eq!(changed[0].name, "emails of admins");
        assert!(changed[0].critical);
        let marked: Vec<&str> = changed[0]
            .baseline
            .iter()
            .filter(|r| r.changed)
            .map(|r| r.text.as_str())
            .collect();
        assert_eq!(marked, ["WHERE is_admin = TRUE"]);
        assert_eq!(changed[1].bucket, Bucket::Fixed);
        assert_eq!(changed[1].name, "distinct cities");
        assert!(!changed[1].same_sql);
        // Same SQL, verdicts set by hand: said so. A blank name shows as "case N".
        let busiest = id_of(&e, "busiest city");
        e.set_verdict(busiest, System::Candidate, Verdict::Fail);
        e.edit(busiest, Field::Name, String::new());
        let changed = e.changed_cases(100);
        let last = changed.iter().find(|c| c.name == "case 10").unwrap();
        assert!(last.same_sql);
        let entries = e.bucket_entries(Bucket::Regressed, 100);
        assert_eq!(entries[1].name, "");
        assert_eq!(entries[1].shown, "case 10");
    }

    #[test]
    fn a_changed_case_keeps_its_key_until_its_view_would_change() {
        let mut e = editor();
        let keys = |e: &EvalEditor| -> Vec<_> {
            e.changed_cases(100).iter().map(ChangedCase::key).collect()
        };
        let before = keys(&e);
        assert_eq!(before.len(), 2);
        // An edit to a case outside the list leaves both keys as they were.
        e.edit(
            id_of(&e, "count users"),
            Field::Question,
            "How many?".into(),
        );
        assert_eq!(keys(&e), before);
        // An edit to a listed case that keeps it listed changes its key only.
        let cities = id_of(&e, "distinct cities");
        e.edit(cities, Field::Question, "Which cities?".into());
        let after = keys(&e);
        assert_eq!(after[0], before[0]);
        assert_ne!(after[1], before[1]);
        assert_eq!(after[1].0, cities);
        // A case removed above a nameless listed case renumbers it ("case N"): a new key.
        e.edit(cities, Field::Name, String::new());
        let nameless = keys(&e)[1].clone();
        assert_eq!(nameless.3, "case 4");
        e.remove(id_of(&e, "all names"));
        let moved = keys(&e)[1].clone();
        assert_eq!((moved.0, moved.3.as_str()), (cities, "case 3"));
        assert_ne!(moved, nameless);
        // Bucket entries are their own keys: an entry's id, names and flag.
        let entries = e.bucket_entries(Bucket::Regressed, 100);
        assert_eq!(entries[0].id, id_of(&e, "emails of admins"));
    }

    #[test]
    fn exports_match_the_eval_file_and_csv_writers() {
        let mut e = editor();
        e.set_verdict(id_of(&e, "count users"), System::Candidate, Verdict::Fail);
        let set = EvalSet {
            version: format_version(e.grading()),
            schema: e.schema().to_string(),
            grading: e.grading(),
            cases: e.cases().to_vec(),
        };
        assert_eq!(e.eval_json(), eval_json(&set));
        assert_eq!(e.results_csv(), results_csv(&set.cases));
        assert!(e
            .results_csv()
            .contains("count users,How many users are there?,no,pass,fail,regressed,"));
    }

    #[test]
    fn stored_form_round_trips_and_keeps_the_old_shape() {
        let mut e = editor();
        e.edit(id_of(&e, "all names"), Field::Name, "every name".into());
        e.set_verdict(
            id_of(&e, "distinct cities"),
            System::Baseline,
            Verdict::Pass,
        );
        e.move_down(id_of(&e, "every name"));
        // The owned form's fields in its order, defaults left out; both shapes read back
        // as the same eval.
        let stored = Stored {
            eval: EvalSet {
                version: format_version(e.grading()),
                schema: e.schema().to_string(),
                grading: e.grading(),
                cases: e.cases().to_vec(),
            },
            tolerance: "5".into(),
        };
        let json = serde_json::to_string(&e.stored("5")).unwrap();
        let full = serde_json::to_string(&stored).unwrap();
        assert!(json.starts_with(r#"{"eval":{"version":1,"schema":"CREATE TABLE users"#));
        assert!(
            !json.contains("grading"),
            "text grading keeps the version 1 shape"
        );
        assert!(json.ends_with(r#""tolerance":"5"}"#));
        assert!(json.contains(
            r#""candidate_sql":"SELECT DISTINCT city FROM users;","baseline_verdict":"pass"},"#
        ));
        assert!(!json.contains(r#""auto""#) && !json.contains("false"));
        assert!(json.len() < full.len());
        assert_eq!(serde_json::from_str::<Stored>(&json).unwrap(), stored);
        assert_eq!(serde_json::from_str::<Stored>(&full).unwrap(), stored);
        // Through storage and back.
        let backend = MemoryBackend::default();
        storage::write(&backend, STORE_NAME, STORE_VERSION, &e.stored("5")).unwrap();
        let Read::Value(read) =
            storage::read::<Stored>(&backend, STORE_NAME, STORE_VERSION, 1, |_, _| None)
        else {
            panic!("the stored eval must read back");
        };
        assert_eq!(read, stored);
        let (again, tolerance) = EvalEditor::open(lesson(), Some(read));
        assert_eq!(tolerance, "5");
        assert_eq!(again.cases(), e.cases());
        assert_eq!(again.schema(), e.schema());
        assert_eq!(again.summary(), e.summary());
        check(&again);
        // Nothing stored: the lesson and the default tolerance.
        let (fresh, tolerance) = EvalEditor::open(lesson(), None);
        assert_eq!(tolerance, DEFAULT_TOLERANCE);
        assert_eq!(fresh.cases(), lesson().cases.as_slice());
    }

    #[test]
    fn old_stored_data_loads_and_corrupt_data_is_backed_up() {
        let backend = MemoryBackend::default();
        let key = storage::key(STORE_NAME);
        assert_eq!(key, "ie-course:mini-eval");
        // As an earlier build wrote it: a case with only some fields.
        let old = r#"{"v":1,"data":{"eval":{"version":1,"schema":"S","cases":[{"name":"x","candidate_verdict":"pass"}]},"tolerance":"2"}}"#;
        backend.set(&key, old).unwrap();
        let Read::Value(stored) =
            storage::read::<Stored>(&backend, STORE_NAME, STORE_VERSION, 1, |_, _| None)
        else {
            panic!("old data must load");
        };
        let (e, tolerance) = EvalEditor::open(lesson(), Some(stored));
        assert_eq!(tolerance, "2");
        assert_eq!(names(&e), ["x"]);
        assert_eq!(e.cases()[0].baseline_verdict, Verdict::Auto);
        assert_eq!(e.outcome(e.ids().next().unwrap()), Some((false, true)));
        // Corrupt: backed up, and the eval starts from the lesson.
        backend.set(&key, r#"{"v":1,"data":{"eval":3}}"#).unwrap();
        let read = storage::read::<Stored>(&backend, STORE_NAME, STORE_VERSION, 7, |_, _| None);
        assert!(matches!(read, Read::Recovered(_)));
        assert_eq!(
            backend
                .get(&storage::backup_key(STORE_NAME, 7))
                .unwrap()
                .as_deref(),
            Some(r#"{"v":1,"data":{"eval":3}}"#)
        );
    }

    /// Runs every waiting case on the real SQLite (natively), in one go.
    fn run_all(e: &mut EvalEditor) -> usize {
        e.run_waiting(&mut crate::logic::eval::execution::sqlite::run, &mut || {
            true
        })
    }

    fn ran(e: &EvalEditor, name: &str) -> CaseResultView {
        match e.execution(id_of(e, name)) {
            CaseExecution::Ran(view) => *view,
            other => panic!("{name}: {other:?}"),
        }
    }

    #[test]
    fn execution_grading_runs_the_lesson_eval_on_its_rows() {
        let mut e = editor();
        let text = e.summary();
        assert_eq!(e.execution(id_of(&e, "all names")), CaseExecution::Off);
        assert_eq!(run_all(&mut e), 0, "nothing runs under text grading");
        let (wanted, revision) = (e.runs_wanted(), e.revision());
        assert!(e.set_grading(Grading::Execution));
        assert!(!e.set_grading(Grading::Execution));
        assert!(e.runs_wanted() > wanted);
        assert!(
            e.revision() > revision,
            "a new grading is a change to save and export"
        );
        assert!(e.is_waiting());
        assert_eq!(e.execution(id_of(&e, "all names")), CaseExecution::Waiting);
        assert_eq!(
            e.summary(),
            text,
            "the text grades stand until the runs are in"
        );
        assert_eq!(e.runs_done(), (0, 10));
        // In chunks: `more` says when to stop (at least one case a call).
        assert_eq!(
            e.run_waiting(&mut crate::logic::eval::execution::sqlite::run, &mut || {
                false
            }),
            1
        );
        assert_eq!(e.runs_done(), (1, 10));
        assert_eq!(run_all(&mut e), 9);
        assert!(!e.is_waiting());
        check(&e);
        // The lesson's figures hold on the rows: 9 of 10 each, the same two changed cases.
        let s = e.summary();
        assert_eq!((s.baseline_passes, s.candidate_passes), (9, 9));
        assert_eq!(changed_text(&e.tally()), "1 regressed, 1 fixed");
        assert_eq!(
            e.bucket_entries(Bucket::Regressed, 10)[0].name,
            "emails of admins"
        );
        assert_eq!(
            e.bucket_entries(Bucket::Fixed, 10)[0].name,
            "distinct cities"
        );
        // The admins regression returns every user's email: the four non-admins marked.
        let admins = ran(&e, "emails of admins");
        let [reference, baseline, candidate] = &admins.sides;
        assert_eq!(reference.summary, "2 rows");
        assert_eq!(baseline.matches, Some(true));
        assert_eq!(candidate.matches, Some(false));
        assert_eq!(candidate.summary, "6 rows: 4 rows not in the reference");
        let marked: Vec<&str> = candidate
            .rows
            .iter()
            .filter(|r| r.differs)
            .map(|r| r.cells[0].text.as_str())
            .collect();
        assert_eq!(
            marked,
            ["bruno@example.com", "chen@example.com", "emil@example.com"]
        );
        assert_eq!((candidate.more, candidate.more_differing), (1, 1));
        assert!(ran(&e, "busiest city").ordered);
        assert_eq!(
            ran(&e, "busiest city").sides[0].rows[0].cells[0].text,
            "Paris"
        );
        assert!(e.results_csv().contains(
            "emails of admins,What are the email addresses of the admins?,yes,pass,fail,regressed,"
        ));
    }

    #[test]
    fn execution_grading_follows_edits_and_manual_verdicts_still_win() {
        let mut e = editor();
        e.set_grading(Grading::Execution);
        run_all(&mut e);
        let admins = id_of(&e, "emails of admins");
        // The same rows written differently: text grading fails it, the rows pass it.
        let wanted = e.runs_wanted();
        assert!(e.edit(
            admins,
            Field::CandidateSql,
            "select email from users where is_admin".into()
        ));
        assert!(e.runs_wanted() > wanted);
        assert_eq!(e.execution(admins), CaseExecution::Waiting);
        assert_eq!(
            e.outcome(admins),
            Some((true, false)),
            "its text grade until it runs"
        );
        assert_eq!(run_all(&mut e), 1, "only the edited case runs again");
        assert_eq!(e.outcome(admins), Some((true, true)));
        // A name is not SQL: nothing runs again.
        e.edit(admins, Field::Name, "admins".into());
        assert!(!e.is_waiting());
        // An answer that fails to run fails, with the engine's message.
        let names = id_of(&e, "all names");
        e.edit(names, Field::CandidateSql, "SELEC name FROM users".into());
        run_all(&mut e);
        assert_eq!(e.outcome(names), Some((true, false)));
        let CaseExecution::Ran(view) = e.execution(names) else {
            panic!()
        };
        assert_eq!(
            view.sides[2].error.as_deref(),
            Some("near \"SELEC\": syntax error")
        );
        // A verdict by hand overrides the rows.
        e.set_verdict(names, System::Candidate, Verdict::Pass);
        assert_eq!(e.outcome(names), Some((true, true)));
        // A new schema runs every case again.
        let rows =
            "CREATE TABLE users (id INTEGER, name TEXT, email TEXT, city TEXT, is_admin BOOLEAN);";
        assert!(e.set_schema(rows.into()));
        assert_eq!(e.runs_done(), (0, 10));
        run_all(&mut e);
        // No rows at all: the dropped WHERE no longer shows, and DISTINCT makes no difference.
        assert_eq!(e.outcome(id_of(&e, "distinct cities")), Some((true, true)));
        check(&e);
        // Added cases wait too; back to text grading, nothing shows.
        let added = e.add_case();
        assert!(e.is_waiting());
        assert_eq!(e.execution(added), CaseExecution::Waiting);
        assert!(e.set_grading(Grading::Text));
        assert!(!e.is_waiting());
        assert_eq!(e.execution(admins), CaseExecution::Off);
        assert_eq!(e.outcome(admins), Some((true, false)));
        check(&e);
    }

    #[test]
    fn a_waiting_case_moved_before_the_runner_still_runs() {
        let mut e = editor();
        e.set_grading(Grading::Execution);
        let only_three = |e: &mut EvalEditor| {
            let mut n = 0;
            e.run_waiting(&mut crate::logic::eval::execution::sqlite::run, &mut || {
                n += 1;
                n < 3
            })
        };
        assert_eq!(only_three(&mut e), 3);
        // The fourth case, not run yet, moves up to third place.
        let fourth = e.ids().nth(3).unwrap();
        assert!(e.move_up(fourth));
        assert_eq!(run_all(&mut e), 7);
        assert_eq!(e.runs_done(), (10, 10));
        assert!(!e.is_waiting());
        check(&e);
    }

    #[test]
    fn the_grading_choice_is_stored_exported_imported_and_undone() {
        let mut e = editor();
        e.set_grading(Grading::Execution);
        let json = serde_json::to_string(&e.stored("0")).unwrap();
        assert!(json.starts_with(r#"{"eval":{"version":2,"schema":"CREATE TABLE users"#));
        assert!(json.contains(r#""grading":"execution","cases":["#));
        let stored: Stored = serde_json::from_str(&json).unwrap();
        assert_eq!(stored.eval.grading, Grading::Execution);
        let (again, _) = EvalEditor::open(lesson(), Some(stored));
        assert_eq!(again.grading(), Grading::Execution);
        assert!(again.is_waiting());
        // The eval file carries the schema and the grading.
        let file = e.eval_json();
        assert!(file.contains("\"grading\": \"execution\""), "{file}");
        assert!(file.contains("INSERT INTO users"), "{file}");
        let mut other = editor();
        assert!(other.import(&file));
        assert_eq!(other.grading(), Grading::Execution);
        assert_eq!(other.schema(), e.schema());
        other.undo();
        assert_eq!(other.grading(), Grading::Text);
        // A reset gives the lesson's grading back; its undo, the reader's.
        e.reset("0");
        assert_eq!(e.grading(), Grading::Text);
        e.undo();
        assert_eq!(e.grading(), Grading::Execution);
        // Pasted verdicts keep the grading.
        assert!(e.import("pass,pass\nfail,pass"));
        assert_eq!(e.grading(), Grading::Execution);
        check(&e);
    }

    #[test]
    fn fifty_thousand_cases_edit_one_case_at_a_time() {
        let cases: Vec<EvalCase> = (0..50_000)
            .map(|i| EvalCase {
                name: format!("c{i}"),
                reference_sql: "SELECT 1".into(),
                baseline_sql: "SELECT 1".into(),
                candidate_sql: if i % 10 == 0 { "SELECT 2" } else { "SELECT 1" }.into(),
                ..EvalCase::default()
            })
            .collect();
        let mut e = EvalEditor::new(EvalSet {
            cases,
            ..EvalSet::default()
        });
        let ids: Vec<CaseId> = e.ids().collect();
        let slots: Vec<Option<Slot>> = ids.iter().map(|&id| e.slot(id)).collect();
        assert!(e.edit(ids[25_001], Field::CandidateSql, "SELECT 2".into()));
        let changed: Vec<usize> = ids
            .iter()
            .enumerate()
            .filter(|&(i, &id)| e.slot(id) != slots[i])
            .map(|(i, _)| i)
            .collect();
        assert_eq!(changed, [25_001]);
        let s = e.summary();
        assert_eq!(s.cases, 50_000);
        assert_eq!(s.buckets.regressed.len(), 5_001);
        assert!(e.move_up(ids[49_999]));
        assert!(e.remove(ids[0]));
        assert_eq!(e.slot(ids[49_999]).unwrap().index, 49_997);
        check(&e);
    }

    #[test]
    fn an_insert_with_no_room_between_keys_hands_out_keys_afresh() {
        let mut e = editor();
        let first = e.ids().next().unwrap();
        e.set_verdict(first, System::Candidate, Verdict::Fail);
        // Keys packed tight: no room between any two.
        for (i, row) in e.rows.iter_mut().enumerate() {
            row.key = i as u64 + 1;
        }
        e.count_all();
        check(&e);
        let case = EvalCase {
            name: "squeezed".into(),
            baseline_verdict: Verdict::Pass,
            candidate_verdict: Verdict::Fail,
            critical: true,
            ..EvalCase::default()
        };
        e.insert(1, case);
        check(&e);
        assert_eq!(e.rows[1].key, 2 * KEY_GAP, "renumbered");
        assert_eq!(
            e.members_of(Bucket::Regressed).take(2).collect::<Vec<_>>(),
            [0, 1]
        );
        assert!(e.decision("0").unwrap().reason.contains("'squeezed'"));
        // Room again: an insert takes the middle of the gap.
        e.insert(1, EvalCase::default());
        assert_eq!(e.rows[1].key, KEY_GAP + KEY_GAP / 2);
        check(&e);
    }

    /// A change to outcomes the tally proptest applies, by place in the list.
    #[derive(Debug, Clone)]
    enum Change {
        Verdict(usize, bool, u8),
        Critical(usize),
        Sql(usize, bool),
        Remove(usize),
        Down(usize),
        Add,
        Undo,
        Columns(Vec<(bool, bool)>),
        Reset,
    }

    fn change() -> impl proptest::strategy::Strategy<Value = Change> {
        use proptest::prelude::*;
        let pair = (any::<bool>(), any::<bool>());
        prop_oneof![
            4 => (0..14usize, any::<bool>(), 0..3u8).prop_map(|(i, b, v)| Change::Verdict(i, b, v)),
            2 => (0..14usize).prop_map(Change::Critical),
            2 => (0..14usize, any::<bool>()).prop_map(|(i, b)| Change::Sql(i, b)),
            2 => (0..14usize).prop_map(Change::Remove),
            1 => (0..14usize).prop_map(Change::Down),
            1 => Just(Change::Add),
            2 => Just(Change::Undo),
            1 => proptest::collection::vec(pair, 1..14).prop_map(Change::Columns),
            1 => Just(Change::Reset),
        ]
    }

    proptest::proptest! {
        /// After any edits, the running counts, the bucket lists, the critical regressions
        /// and the decision are what counting the cases from scratch gives (`check`).
        #[test]
        fn incremental_summary_matches_summarize(changes in proptest::collection::vec(change(), 0..60)) {
            let mut e = editor();
            for c in changes {
                let id = |e: &EvalEditor, i: usize| e.ids().nth(i);
                match c {
                    Change::Verdict(i, base, v) => if let Some(id) = id(&e, i) {
                        let v = [Verdict::Auto, Verdict::Pass, Verdict::Fail][usize::from(v)];
                        let system = if base { System::Baseline } else { System::Candidate };
                        e.set_verdict(id, system, v);
                    },
                    Change::Critical(i) => if let Some(id) = id(&e, i) {
                        let on = !e.case(id).unwrap().critical;
                        e.set_critical(id, on);
                    },
                    Change::Sql(i, same) => if let Some(id) = id(&e, i) {
                        let sql = if same { e.case(id).unwrap().reference_sql.clone() } else { "SELECT 0".into() };
                        e.edit(id, Field::CandidateSql, sql);
                    },
                    Change::Remove(i) => if let Some(id) = id(&e, i) {
                        e.remove(id);
                    },
                    Change::Down(i) => if let Some(id) = id(&e, i) {
                        e.move_down(id);
                    },
                    Change::Add => {
                        e.add_case();
                    }
                    Change::Undo => {
                        e.undo();
                    }
                    Change::Columns(rows) => {
                        // One line per case sets verdicts; another count replaces the eval.
                        let rows = if rows.len() % 2 == 0 { rows } else { rows.into_iter().cycle().take(e.len()).collect() };
                        e.import_parsed(Ok(Import::Verdicts(rows)));
                    }
                    Change::Reset => e.reset("0"),
                }
                check(&e);
                proptest::prop_assert_eq!(e.tally(), Tally::of_summary(&summarize(e.cases())));
            }
        }
    }

    /// A change the proptest applies, by place in the list.
    #[derive(Debug, Clone)]
    enum Op {
        Edit(usize, String),
        Sql(usize, bool),
        Verdict(usize, bool),
        Critical(usize),
        Add,
        Remove(usize),
        Up(usize),
        Down(usize),
        Undo,
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        prop_oneof![
            (0..12usize, "[a-z ]{0,6}").prop_map(|(i, s)| Op::Edit(i, s)),
            (0..12usize, any::<bool>()).prop_map(|(i, b)| Op::Sql(i, b)),
            (0..12usize, any::<bool>()).prop_map(|(i, b)| Op::Verdict(i, b)),
            (0..12usize).prop_map(Op::Critical),
            Just(Op::Add),
            (0..12usize).prop_map(Op::Remove),
            (0..12usize).prop_map(Op::Up),
            (0..12usize).prop_map(Op::Down),
            Just(Op::Undo),
        ]
    }

    proptest::proptest! {
        /// Any sequence of changes does to the cases what the same changes do to a plain
        /// list, and keeps the bookkeeping (ids, places, cached grades) true.
        #[test]
        fn any_changes_match_a_plain_list(ops in proptest::collection::vec(op(), 0..40)) {
            let mut e = editor();
            let mut model: Vec<EvalCase> = lesson().cases;
            let mut removed: Option<(usize, EvalCase)> = None;
            for op in ops {
                let id = |i: usize| e.ids().nth(i);
                match op {
                    Op::Edit(i, s) => if let Some(id) = id(i) {
                        e.edit(id, Field::Name, s.clone());
                        model[i].name = s;
                    },
                    Op::Sql(i, b) => if let Some(id) = id(i) {
                        let sql = if b { "SELECT 1" } else { "SELECT 2" };
                        e.edit(id, Field::CandidateSql, sql.into());
                        model[i].candidate_sql = sql.into();
                    },
                    Op::Verdict(i, b) => if let Some(id) = id(i) {
                        let v = if b { Verdict::Pass } else { Verdict::Auto };
                        e.set_verdict(id, System::Baseline, v);
                        model[i].baseline_verdict = v;
                    },
                    Op::Critical(i) => if let Some(id) = id(i) {
                        let on = !model[i].critical;
                        e.set_critical(id, on);
                        model[i].critical = on;
                    },
                    Op::Add => {
                        e.add_case();
                        model.push(EvalCase { name: format!("new case {}", model.len() + 1), ..EvalCase::default() });
                    }
                    Op::Remove(i) => if let Some(id) = id(i) {
                        e.remove(id);
                        removed = Some((i, model.remove(i)));
                    },
                    Op::Up(i) => if let Some(id) = id(i) {
                        e.move_up(id);
                        if i > 0 { model.swap(i, i - 1); }
                    },
                    Op::Down(i) => if let Some(id) = id(i) {
                        e.move_down(id);
                        if i + 1 < model.len() { model.swap(i, i + 1); }
                    },
                    Op::Undo => {
                        e.undo();
                        if let Some((i, case)) = removed.take() {
                            let i = i.min(model.len());
                            model.insert(i, case);
                        }
                    }
                }
                proptest::prop_assert_eq!(e.cases(), model.as_slice());
                check(&e);
                proptest::prop_assert_eq!(e.summary(), summarize(&model));
            }
        }
    }
}
