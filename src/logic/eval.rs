//! The mini eval: grade a baseline and a candidate on the same cases, then compare them case by
//! case, not only by their averages.
//!
//! Cases are text-to-SQL questions. An answer passes when it matches the reference after
//! normalization, unless a person overrode the verdict. Accuracy comes with a 95% Wilson
//! interval; the changed cases are bucketed and tested with the exact McNemar test; and a
//! decision rule rejects a candidate that breaks a critical case or loses too much accuracy.

//!
//! This file holds the eval's types; each job has a file: text grading (`grading`), the
//! statistics (`stats`), the SQL diff (`diff`), the decision and its sentences (`decision`), the
//! eval's files (`files`), running counts (`tally`), execution grading (`execution`), imports a
//! piece at a time (`chunked`) and the reader's editor (`editor`).

use super::{format, InputError};
use serde::{Deserialize, Serialize};

super::input::form_fields! {
    Eval:
    /// The mini eval's fields that take typed or pasted text (its cases' fields are the
    /// editor's [`editor::Field`]).
    pub enum InputField {
        Tolerance => "Tolerance",
        /// Two columns of pass/fail, pasted.
        PastedResults => "Pasted results",
        /// An eval file (JSON), pasted or chosen.
        EvalFile => "Eval file",
        /// The import box, before its text is known to be either.
        Import => "Import",
    }
}

pub mod chunked;
mod decision;
mod diff;
pub mod editor;
pub mod execution;
mod files;
mod grading;
mod stats;
pub mod tally;

#[cfg(test)]
mod fuzz_tests;

pub use decision::{
    case_label, decide_on, decide_tally, interval_sentence, mcnemar_sentence_with, p_value_text,
    parse_tolerance, percent_text, Decision,
};
pub use diff::{diff_sides, diff_tokens, DiffOp, DiffRun};
pub use files::{
    cases_from_pass_fail, csv_field, parse_eval_json, parse_import, parse_pass_fail_columns,
    results_csv, results_csv_graded, Import,
};
pub use grading::{auto_grade, graded_outcome, normalize_sql, outcome};
pub use stats::{accuracy, mcnemar_exact_p, wilson_interval, Bucket, Buckets, Summary};
#[cfg(test)]
pub use {
    decision::{decide, mcnemar_sentence},
    files::eval_json,
    stats::{bucket_cases, summarize},
};

use execution::Grading;

/// The newest eval file format this code reads: 2 added the grading choice (`grading`);
/// version 1 files load with text grading.
pub const EVAL_FORMAT_VERSION: u32 = 2;

/// The format version a file with `grading` is written as: 1 under text grading (the file is
/// exactly what version 1 wrote), 2 under execution grading, which an older build cannot
/// honour and so refuses with a message instead of grading by text unawares.
pub fn format_version(grading: Grading) -> u32 {
    match grading {
        Grading::Text => 1,
        Grading::Execution => 2,
    }
}
/// Largest eval file or paste accepted, in bytes (1 MB).
pub const MAX_INPUT_BYTES: usize = 1_000_000;
/// z for a two-sided 95% interval (the usual rounded value).
pub const Z_95: f64 = 1.96;
/// Above this many changed cases (b + c), McNemar uses the normal approximation.
pub const MCNEMAR_EXACT_LIMIT: usize = 1_000_000;
/// Largest token grid (tokens of `a` × tokens of `b`) that [`diff_tokens`] aligns exactly.
pub const MAX_DIFF_CELLS: usize = 1_000_000;

/// How an answer is graded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Graded by comparing the normalized SQL with the reference ([`auto_grade`]).
    #[default]
    Auto,
    /// Marked correct by a person.
    Pass,
    /// Marked wrong by a person.
    Fail,
}

impl Verdict {
    /// The verdict's id in a menu and in the eval file: `auto`, `pass` or `fail`.
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Auto => "auto",
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
        }
    }

    /// The verdict with id `id` ([`Verdict::id`]); anything else is [`Verdict::Auto`].
    pub fn from_id(id: &str) -> Verdict {
        match id {
            "pass" => Verdict::Pass,
            "fail" => Verdict::Fail,
            _ => Verdict::Auto,
        }
    }

    /// Whether the answer passes: the manual verdict, or `auto` for [`Verdict::Auto`].
    pub fn passes(self, auto: impl FnOnce() -> bool) -> bool {
        match self {
            Verdict::Auto => auto(),
            Verdict::Pass => true,
            Verdict::Fail => false,
        }
    }
}

/// One eval case: a question, its reference SQL, and both systems' answers.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct EvalCase {
    /// Short name used in lists and decisions, e.g. "emails of admins".
    pub name: String,
    /// The question in natural language.
    pub question: String,
    /// The correct SQL.
    pub reference_sql: String,
    /// The baseline system's SQL.
    pub baseline_sql: String,
    /// The candidate (optimized) system's SQL.
    pub candidate_sql: String,
    /// How the baseline answer is graded.
    pub baseline_verdict: Verdict,
    /// How the candidate answer is graded.
    pub candidate_verdict: Verdict,
    /// Whether a regression on this case alone rejects the candidate.
    pub critical: bool,
}

/// A whole eval: the schema the questions are about and the cases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EvalSet {
    /// Format version (`EVAL_FORMAT_VERSION`).
    pub version: u32,
    /// The database schema, as SQL, shown next to the questions: CREATE TABLE statements, and
    /// the INSERT statements that execution grading runs the queries on.
    pub schema: String,
    /// How answers are graded (text when absent, as in version 1 files; written only when it
    /// is execution).
    #[serde(skip_serializing_if = "Grading::is_text")]
    pub grading: Grading,
    /// The cases, in display order.
    pub cases: Vec<EvalCase>,
}

impl Default for EvalSet {
    fn default() -> Self {
        Self {
            version: EVAL_FORMAT_VERSION,
            schema: String::new(),
            grading: Grading::Text,
            cases: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests;
