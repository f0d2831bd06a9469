//! One step of undo: what the last reset, import or removal replaced, and putting it back.

use super::{CaseId, EvalEditor};
use crate::logic::eval::execution::Grading;
use crate::logic::eval::{EvalCase, Verdict};

/// What one step of undo gives back.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Undo {
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

impl EvalEditor {
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
}
