//! Pasted text applied: an eval file, or columns of pass/fail verdicts.

use super::undo::Undo;
use super::{plural, EvalEditor};
use crate::logic::eval::execution::Grading;
use crate::logic::eval::{
    cases_from_pass_fail, parse_import, EvalCase, Import, InputError, Verdict,
};

impl EvalEditor {
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

    pub(super) fn replace_for_import(
        &mut self,
        schema: String,
        grading: Grading,
        cases: Vec<EvalCase>,
    ) {
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
    pub(super) fn set_verdicts(&mut self, results: &[(bool, bool)]) {
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

    /// The last import's message: `Ok` when it applied, `Err` (ending "Nothing was
    /// changed.") when it was refused; cleared by a reset or an undo.
    pub fn import_message(&self) -> Option<&Result<String, String>> {
        self.import_message.as_ref()
    }
}
