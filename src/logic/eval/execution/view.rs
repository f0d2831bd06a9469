//! What a case's result box shows: each side's first rows, the differing ones marked.

use super::compare::plural;
use super::{compare, has_order_by, CaseRuns, Comparison, RunOutcome, Value, SHOWN_ROWS};

/// A cell as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellView {
    /// Its text.
    pub text: String,
    /// Whether it is NULL (shown apart from the text "NULL").
    pub null: bool,
}

/// A row as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowView {
    /// Its cells.
    pub cells: Vec<CellView>,
    /// Whether the row differs from the reference (always false on the reference's side).
    pub differs: bool,
}

/// One side of a case's result (reference, baseline or candidate) as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideView {
    /// "Reference", "Baseline" or "Candidate".
    pub title: &'static str,
    /// Starts with the row count: "2 rows", "6 rows: 4 rows not in the reference, …"; or
    /// "fails to run: …".
    pub summary: String,
    /// For an answer: whether it passes on its rows; `None` for the reference.
    pub matches: Option<bool>,
    /// The engine's message, when the query failed to run.
    pub error: Option<String>,
    /// The column names.
    pub columns: Vec<String>,
    /// The first rows ([`SHOWN_ROWS`] at most).
    pub rows: Vec<RowView>,
    /// Rows not shown.
    pub more: usize,
    /// Differing rows among those not shown.
    pub more_differing: usize,
}

/// What a case's result box shows: the reference and both answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseResultView {
    /// Whether the reference sorts its rows (so order counts).
    pub ordered: bool,
    /// The three sides, reference first.
    pub sides: [SideView; 3],
}

/// One side as shown, from its outcome and (for an answer) its comparison.
pub(super) fn side_view(
    title: &'static str,
    outcome: &RunOutcome,
    cmp: Option<&Comparison>,
) -> SideView {
    let (columns, rows, error) = match outcome {
        Ok(r) => (r.columns.clone(), r.rows.as_slice(), None),
        Err(message) => (Vec::new(), &[][..], Some(message.clone())),
    };
    let differs = |i: usize| {
        cmp.and_then(|c| c.differing.get(i).copied())
            .unwrap_or(false)
    };
    let shown = rows
        .iter()
        .take(SHOWN_ROWS)
        .enumerate()
        .map(|(i, row)| RowView {
            cells: row
                .iter()
                .map(|v| CellView {
                    text: v.shown(),
                    null: matches!(v, Value::Null),
                })
                .collect(),
            differs: differs(i),
        })
        .collect();
    let summary = match (cmp, &error) {
        (Some(c), _) => c.summary.clone(),
        (None, Some(message)) => format!("fails to run: {message}"),
        (None, None) => format!("{} row{}", rows.len(), plural(rows.len())),
    };
    SideView {
        title,
        summary,
        matches: cmp.map(|c| c.matches),
        error,
        columns,
        rows: shown,
        more: rows.len().saturating_sub(SHOWN_ROWS),
        more_differing: (SHOWN_ROWS..rows.len()).filter(|&i| differs(i)).count(),
    }
}

/// The result box of a case whose runs are `runs`; `reference_sql` decides whether order counts.
pub fn case_result_view(runs: &CaseRuns, reference_sql: &str) -> CaseResultView {
    let ordered = has_order_by(reference_sql);
    let base = compare(&runs.reference, &runs.baseline, ordered);
    let cand = compare(&runs.reference, &runs.candidate, ordered);
    CaseResultView {
        ordered,
        sides: [
            side_view("Reference", &runs.reference, None),
            side_view("Baseline", &runs.baseline, Some(&base)),
            side_view("Candidate", &runs.candidate, Some(&cand)),
        ],
    }
}
