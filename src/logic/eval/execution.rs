//! Execution grading: an answer passes when running it returns the reference's rows.
//!
//! The eval's `schema` (CREATE TABLE and INSERT statements) is run in a fresh in-memory SQLite
//! database, then the reference and each answer. Their rows are compared as multisets (order
//! ignored, duplicates counted), or in order when the reference sorts them (a top-level
//! `ORDER BY`). Column names are ignored (`COUNT(*)` and `count( * )` name their column
//! differently); the number of columns is not. An answer that fails to run fails, with the
//! engine's message.
//!
//! The engine runs in its own wasm module, loaded only when a reader turns execution grading
//! on; it hands each result over as JSON in the [`wire_json`] shape. [`sqlite`] is the adapter
//! over SQLite's C API, compiled into that module and into the native tests, which run it on
//! a real SQLite.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

mod compare;
#[cfg(any(test, all(target_arch = "wasm32", feature = "sql")))]
pub mod sqlite;
mod view;
mod wire;

pub use compare::{compare, has_order_by, Comparison};
pub use view::{case_result_view, CaseResultView, CellView, RowView, SideView};
pub use wire::{parse_wire, wire_json};

/// Rows shown per side of a case's result before "n more".
pub const SHOWN_ROWS: usize = 5;

/// How answers are graded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grading {
    /// The normalized SQL text must equal the reference's.
    #[default]
    Text,
    /// The rows the SQL returns must equal the reference's.
    Execution,
}

impl Grading {
    /// The id in the menu and the eval file: `text` or `execution`.
    pub fn id(self) -> &'static str {
        match self {
            Grading::Text => "text",
            Grading::Execution => "execution",
        }
    }

    /// The grading with id `id` ([`Grading::id`]); anything else is [`Grading::Text`].
    pub fn from_id(id: &str) -> Grading {
        match id {
            "execution" => Grading::Execution,
            _ => Grading::Text,
        }
    }

    /// Whether it is [`Grading::Text`] (the default, left out of the files).
    pub fn is_text(&self) -> bool {
        *self == Grading::Text
    }

    /// The menu's words for it.
    pub fn label(self) -> &'static str {
        match self {
            Grading::Text => "Compare the SQL text",
            Grading::Execution => "Run the SQL and compare the rows",
        }
    }
}

/// One value SQLite returned. Serialized untagged: `null`, a number (a real always with a
/// fraction or exponent, so `2.0` stays a real), a string, or `{"blob": "00ff"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// A 64-bit integer.
    Integer(i64),
    /// A floating-point number (finite: the adapter turns SQLite's infinities into text).
    Real(f64),
    /// Text.
    Text(String),
    /// Bytes, as lowercase hex.
    Blob {
        /// The bytes in hex, two digits each.
        blob: String,
    },
}

impl Value {
    /// The value as a cell shows it: `NULL`, `42`, `2.5`, the text, or `x'00ff'`.
    pub fn shown(&self) -> String {
        match self {
            Value::Null => "NULL".into(),
            Value::Integer(i) => i.to_string(),
            Value::Real(r) => format_real(*r),
            Value::Text(t) => t.clone(),
            Value::Blob { blob } => format!("x'{blob}'"),
        }
    }

    /// Kinds in the order rows sort by: NULL, numbers, text, blobs.
    fn rank(&self) -> u8 {
        match self {
            Value::Null => 0,
            Value::Integer(_) | Value::Real(_) => 1,
            Value::Text(_) => 2,
            Value::Blob { .. } => 3,
        }
    }

    /// A number as f64, with -0 as 0 (so 0 and -0.0 are one value).
    fn number(&self) -> Option<f64> {
        let x = match self {
            Value::Integer(i) => *i as f64,
            Value::Real(r) => *r,
            _ => return None,
        };
        Some(if x == 0.0 { 0.0 } else { x })
    }

    /// A total order in which equal values are next to each other: an integer equals the real
    /// of the same value (`2` and `2.0`), as SQLite's own comparison has it. Numbers compare
    /// as f64, so integers beyond 2^53 that round alike count as equal.
    fn compare(&self, other: &Value) -> Ordering {
        match (self, other) {
            (Value::Text(a), Value::Text(b)) => a.cmp(b),
            (Value::Blob { blob: a }, Value::Blob { blob: b }) => a.cmp(b),
            _ => match (self.number(), other.number()) {
                (Some(a), Some(b)) => a.total_cmp(&b),
                _ => self.rank().cmp(&other.rank()),
            },
        }
    }
}

/// A real as SQLite prints it (`%!.15g`): 15 significant digits, trailing zeros dropped, and
/// `.0` kept on whole numbers; scientific notation below 1e-4 and from 1e15 on.
fn format_real(r: f64) -> String {
    if !r.is_finite() {
        return if r > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    if r == 0.0 {
        return "0.0".into();
    }
    let sci = format!("{r:.14e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        let t = s.trim_end_matches('0');
        if t.ends_with('.') {
            format!("{t}0")
        } else {
            t.to_string()
        }
    };
    if !(-4..15).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exp.abs())
    } else {
        let decimals = usize::try_from(14 - exp).unwrap_or(0);
        trim(&format!("{r:.decimals$}"))
    }
}

/// The rows a query returned, with its column names.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct QueryResult {
    /// The column names, as SQLite names them.
    pub columns: Vec<String>,
    /// The rows, in the order SQLite returned them.
    pub rows: Vec<Vec<Value>>,
}

/// What running one query gave: its rows, or the engine's error message.
pub type RunOutcome = Result<QueryResult, String>;

/// The three runs of one case: the reference and both answers, each in a fresh database
/// holding the schema.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseRuns {
    /// The reference SQL's outcome.
    pub reference: RunOutcome,
    /// The baseline's outcome.
    pub baseline: RunOutcome,
    /// The candidate's outcome.
    pub candidate: RunOutcome,
}

impl CaseRuns {
    /// Runs the case's three queries with `run(schema, sql)`.
    pub fn run(
        schema: &str,
        reference: &str,
        baseline: &str,
        candidate: &str,
        run: &mut dyn FnMut(&str, &str) -> RunOutcome,
    ) -> CaseRuns {
        CaseRuns {
            reference: run(schema, reference),
            baseline: run(schema, baseline),
            candidate: run(schema, candidate),
        }
    }

    /// Whether (baseline, candidate) return the reference's rows; `ordered` when the
    /// reference sorts them ([`has_order_by`]).
    pub fn outcome(&self, ordered: bool) -> (bool, bool) {
        (
            compare(&self.reference, &self.baseline, ordered).matches,
            compare(&self.reference, &self.candidate, ordered).matches,
        )
    }
}

#[cfg(test)]
mod tests;
