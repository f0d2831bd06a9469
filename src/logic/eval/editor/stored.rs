//! The editor's stored form and its exports: the eval file and the results CSV.

use super::EvalEditor;
use crate::logic::eval::execution::Grading;
use crate::logic::eval::{format_version, results_csv_graded, EvalCase, EvalSet, Verdict};
use serde::{Deserialize, Serialize};

/// Name of the stored value (`ie-course:mini-eval`) and its schema version.
pub const STORE_NAME: &str = "mini-eval";

pub const STORE_VERSION: u32 = 1;

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
    pub(super) fn of(c: &'a EvalCase) -> Self {
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

impl EvalEditor {
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
}
