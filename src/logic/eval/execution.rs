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

#[cfg(any(test, all(target_arch = "wasm32", feature = "sql")))]
pub mod sqlite;

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

/// The wire form of a [`RunOutcome`], as the SQL module hands it over.
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
enum Wire {
    Ok(QueryResult),
    Error(String),
}

/// A run's outcome as JSON (`{"ok": {"columns": …, "rows": …}}` or `{"error": "…"}`), as the
/// SQL module returns it.
pub fn wire_json(outcome: &RunOutcome) -> String {
    let wire = match outcome {
        Ok(result) => Wire::Ok(result.clone()),
        Err(message) => Wire::Error(message.clone()),
    };
    // Strings, finite numbers and lists cannot fail to serialize.
    serde_json::to_string(&wire).unwrap_or_default()
}

/// Reads what the SQL module returned ([`wire_json`]); anything unreadable is an error to show.
///
/// Read through `serde_json::Value` by hand rather than derived: the widgets module, which
/// reads it, stays smaller without serde's machinery for untagged enums.
pub fn parse_wire(json: &str) -> RunOutcome {
    use serde_json::Value as Json;
    let unreadable = |why: String| format!("the SQL engine's answer could not be read ({why})");
    let wire: Json = serde_json::from_str(json).map_err(|e| unreadable(e.to_string()))?;
    if let Some(message) = wire.get("error").and_then(Json::as_str) {
        return Err(message.to_string());
    }
    let ok = wire
        .get("ok")
        .ok_or_else(|| unreadable("no result".into()))?;
    let columns = ok
        .get("columns")
        .and_then(Json::as_array)
        .ok_or_else(|| unreadable("no columns".into()))?
        .iter()
        .map(|c| c.as_str().map(str::to_string))
        .collect::<Option<Vec<String>>>()
        .ok_or_else(|| unreadable("a column name is not text".into()))?;
    let value = |v: &Json| -> Option<Value> {
        Some(match v {
            Json::Null => Value::Null,
            Json::Number(n) => match n.as_i64() {
                Some(i) => Value::Integer(i),
                None => Value::Real(n.as_f64()?),
            },
            Json::String(t) => Value::Text(t.clone()),
            Json::Object(o) => Value::Blob {
                blob: o.get("blob")?.as_str()?.to_string(),
            },
            _ => return None,
        })
    };
    let rows = ok
        .get("rows")
        .and_then(Json::as_array)
        .ok_or_else(|| unreadable("no rows".into()))?
        .iter()
        .map(|row| {
            row.as_array()?
                .iter()
                .map(value)
                .collect::<Option<Vec<Value>>>()
        })
        .collect::<Option<Vec<Vec<Value>>>>()
        .ok_or_else(|| unreadable("a value of an unknown kind".into()))?;
    Ok(QueryResult { columns, rows })
}

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

/// Whether `sql` sorts its result: an `ORDER BY` at the top level, outside strings, quoted
/// names, comments and parentheses (subqueries, window definitions).
pub fn has_order_by(sql: &str) -> bool {
    let mut depth = 0usize;
    let mut prev_order = false;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' | '`' | '[' => {
                let close = if c == '[' { ']' } else { c };
                // A doubled quote inside is part of the text; skipping it as two closes and
                // opens gives the same place in the end.
                for ch in chars.by_ref() {
                    if ch == close {
                        break;
                    }
                }
                prev_order = false;
            }
            '-' if chars.peek() == Some(&'-') => {
                for ch in chars.by_ref() {
                    if ch == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut star = false;
                for ch in chars.by_ref() {
                    if star && ch == '/' {
                        break;
                    }
                    star = ch == '*';
                }
            }
            '(' => {
                depth += 1;
                prev_order = false;
            }
            ')' => {
                depth = depth.saturating_sub(1);
                prev_order = false;
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut word = String::from(c);
                while let Some(&ch) = chars.peek() {
                    if ch.is_alphanumeric() || ch == '_' || ch == '$' {
                        word.push(ch);
                        chars.next();
                    } else {
                        break;
                    }
                }
                let word = word.to_lowercase();
                if depth == 0 && prev_order && word == "by" {
                    return true;
                }
                prev_order = depth == 0 && word == "order";
            }
            c if c.is_whitespace() => {}
            _ => prev_order = false,
        }
    }
    false
}

/// Compares two rows value by value (a shorter row first when one is a prefix of the other).
fn compare_rows(a: &[Value], b: &[Value]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match x.compare(y) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    a.len().cmp(&b.len())
}

/// How an answer's rows stand against the reference's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// Whether the answer passes: it ran, and returned the reference's rows.
    pub matches: bool,
    /// One per answer row: whether that row is not in the reference (multiset), or not at its
    /// place in the reference (ordered). Empty when either failed to run.
    pub differing: Vec<bool>,
    /// The answer in words, starting with what decided it: "same 2 rows as the reference",
    /// "4 extra rows", "fails to run: …".
    pub summary: String,
}

/// `s` when `n` is not 1.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Compares an answer's outcome with the reference's: `ordered` when the reference sorts its
/// rows ([`has_order_by`]), else as multisets. A reference that fails to run grades nothing:
/// every answer fails.
pub fn compare(reference: &RunOutcome, answer: &RunOutcome, ordered: bool) -> Comparison {
    let fail = |summary: String| Comparison {
        matches: false,
        differing: Vec::new(),
        summary,
    };
    let answer = match answer {
        Err(message) => return fail(format!("fails to run: {message}")),
        Ok(answer) => answer,
    };
    let Ok(reference) = reference else {
        return fail("cannot be graded: the reference fails to run".into());
    };
    let (want, got) = (reference.columns.len(), answer.columns.len());
    if want != got {
        return Comparison {
            matches: false,
            differing: vec![true; answer.rows.len()],
            summary: format!("{got} column{} where the reference has {want}", plural(got)),
        };
    }
    let differing: Vec<bool> = if ordered {
        answer
            .rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                reference
                    .rows
                    .get(i)
                    .is_none_or(|r| compare_rows(r, row) != Ordering::Equal)
            })
            .collect()
    } else {
        unmatched(&reference.rows, &answer.rows)
    };
    let extra = differing.iter().filter(|&&d| d).count();
    let n = answer.rows.len();
    // Rows of the reference no answer row stands for.
    let missing = if ordered {
        reference.rows.len().saturating_sub(n - extra.min(n))
    } else {
        unmatched(&answer.rows, &reference.rows)
            .iter()
            .filter(|&&d| d)
            .count()
    };
    let matches = extra == 0 && missing == 0;
    let summary = if matches {
        format!("{n} row{}, the same as the reference", plural(n))
    } else if ordered && extra > 0 && same_multiset(&reference.rows, &answer.rows) {
        format!(
            "{n} row{}, the reference's rows in another order",
            plural(n)
        )
    } else {
        let mut parts = Vec::new();
        if extra > 0 {
            parts.push(format!("{extra} row{} not in the reference", plural(extra)));
        }
        if missing > 0 {
            parts.push(format!("{missing} of the reference's rows missing",));
        }
        format!("{n} row{}: {}", plural(n), parts.join(", "))
    };
    Comparison {
        matches,
        differing,
        summary,
    }
}

/// Whether two row lists hold the same rows, order aside.
fn same_multiset(a: &[Vec<Value>], b: &[Vec<Value>]) -> bool {
    a.len() == b.len() && !unmatched(a, b).iter().any(|&d| d)
}

/// For each row of `answer`: whether it is left over once each row of `reference` has been
/// matched with at most one equal answer row (a multiset difference, duplicates counted).
fn unmatched(reference: &[Vec<Value>], answer: &[Vec<Value>]) -> Vec<bool> {
    let mut want: Vec<&Vec<Value>> = reference.iter().collect();
    crate::logic::order::sort_by(&mut want, |a, b| compare_rows(a, b));
    let order = crate::logic::order::positions_in_order(answer.len(), &|i, j| match (
        answer.get(i),
        answer.get(j),
    ) {
        (Some(a), Some(b)) => compare_rows(a, b),
        _ => Ordering::Equal,
    });
    // Walk both sorted lists together; answer rows in answer order get their flags.
    let mut differing = vec![true; answer.len()];
    let mut w = want.iter().peekable();
    for i in order {
        let Some(row) = answer.get(i) else { continue };
        while w
            .next_if(|r| compare_rows(r, row) == Ordering::Less)
            .is_some()
        {}
        if w.next_if(|r| compare_rows(r, row) == Ordering::Equal)
            .is_some()
        {
            if let Some(d) = differing.get_mut(i) {
                *d = false;
            }
        }
    }
    differing
}

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
fn side_view(title: &'static str, outcome: &RunOutcome, cmp: Option<&Comparison>) -> SideView {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn int(i: i64) -> Value {
        Value::Integer(i)
    }

    fn text(t: &str) -> Value {
        Value::Text(t.into())
    }

    fn result(columns: &[&str], rows: Vec<Vec<Value>>) -> RunOutcome {
        Ok(QueryResult {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows,
        })
    }

    #[test]
    fn rows_compare_as_multisets_unless_the_reference_sorts() {
        let a = result(&["n"], vec![vec![int(1)], vec![int(2)], vec![int(2)]]);
        let shuffled = result(&["n"], vec![vec![int(2)], vec![int(1)], vec![int(2)]]);
        assert!(compare(&a, &shuffled, false).matches);
        let c = compare(&a, &shuffled, true);
        assert!(!c.matches);
        assert_eq!(c.differing, [true, true, false]);
        assert_eq!(c.summary, "3 rows, the reference's rows in another order");
        assert!(compare(&a, &a, true).matches);
        assert_eq!(
            compare(&a, &a, false).summary,
            "3 rows, the same as the reference"
        );
    }

    #[test]
    fn duplicates_count() {
        let once = result(&["city"], vec![vec![text("Paris")], vec![text("Lyon")]]);
        let twice = result(
            &["city"],
            vec![vec![text("Paris")], vec![text("Lyon")], vec![text("Paris")]],
        );
        let c = compare(&once, &twice, false);
        assert!(!c.matches);
        assert_eq!(c.differing.iter().filter(|&&d| d).count(), 1);
        assert_eq!(c.summary, "3 rows: 1 row not in the reference");
        let c = compare(&twice, &once, false);
        assert!(!c.matches);
        assert_eq!(c.differing, [false, false]);
        assert_eq!(c.summary, "2 rows: 1 of the reference's rows missing");
    }

    #[test]
    fn nulls_are_values_and_numbers_compare_by_value() {
        let a = result(
            &["x", "y"],
            vec![vec![Value::Null, int(2)], vec![int(0), Value::Real(1.5)]],
        );
        let b = result(
            &["x", "y"],
            vec![
                vec![Value::Real(-0.0), Value::Real(1.5)],
                vec![Value::Null, Value::Real(2.0)],
            ],
        );
        assert!(compare(&a, &b, false).matches);
        let c = result(
            &["x", "y"],
            vec![
                vec![Value::Null, int(2)],
                vec![Value::Null, Value::Real(1.5)],
            ],
        );
        let cmp = compare(&a, &c, false);
        assert!(!cmp.matches);
        assert_eq!(cmp.differing, [false, true]);
        // NULL is not the text "NULL", nor 0, nor the empty text.
        for other in [text("NULL"), int(0), text("")] {
            let r = result(&["x"], vec![vec![other]]);
            assert!(!compare(&result(&["x"], vec![vec![Value::Null]]), &r, false).matches);
        }
        assert!(
            !compare(
                &result(&["x"], vec![vec![text("1")]]),
                &result(&["x"], vec![vec![int(1)]]),
                false
            )
            .matches
        );
    }

    #[test]
    fn column_count_matters_and_names_do_not() {
        let a = result(&["COUNT(*)"], vec![vec![int(6)]]);
        let b = result(&["count( * )"], vec![vec![int(6)]]);
        assert!(compare(&a, &b, false).matches);
        let wide = result(&["id", "name"], vec![vec![int(6), text("x")]]);
        let c = compare(&a, &wide, false);
        assert!(!c.matches);
        assert_eq!(c.summary, "2 columns where the reference has 1");
        assert_eq!(c.differing, [true]);
    }

    #[test]
    fn an_answer_that_fails_to_run_fails_with_the_engines_message() {
        let a = result(&["n"], vec![vec![int(1)]]);
        let err: RunOutcome = Err("near \"SELEC\": syntax error".into());
        let c = compare(&a, &err, false);
        assert!(!c.matches);
        assert_eq!(c.summary, "fails to run: near \"SELEC\": syntax error");
        // A reference that fails grades nothing: even the same error fails.
        let c = compare(&err, &err, false);
        assert!(!c.matches);
        assert!(c.summary.starts_with("fails to run"));
        assert_eq!(
            compare(&err, &a, false).summary,
            "cannot be graded: the reference fails to run"
        );
        // Empty results match each other.
        assert!(compare(&result(&[], vec![]), &result(&[], vec![]), true).matches);
    }

    #[test]
    fn order_by_is_found_at_the_top_level_only() {
        assert!(has_order_by("SELECT name FROM users ORDER BY name;"));
        assert!(has_order_by("select a from t order\n  by 1 desc limit 1"));
        assert!(has_order_by(
            "SELECT a FROM t UNION SELECT b FROM u ORDER BY 1"
        ));
        assert!(!has_order_by("SELECT name FROM users"));
        assert!(!has_order_by("SELECT 'ORDER BY' FROM t"));
        assert!(!has_order_by("SELECT \"order\" FROM t WHERE \"by\" = 1"));
        assert!(!has_order_by("SELECT x FROM (SELECT x FROM t ORDER BY x)"));
        assert!(!has_order_by("SELECT rank() OVER (ORDER BY s) FROM t"));
        assert!(!has_order_by("SELECT x FROM t -- ORDER BY x"));
        assert!(!has_order_by("SELECT x /* ORDER BY x */ FROM t"));
        assert!(!has_order_by("SELECT border, by FROM t"));
        assert!(!has_order_by("SELECT 'it''s' FROM t"));
    }

    #[test]
    fn the_wire_form_round_trips_every_kind_of_value() {
        let outcome = result(
            &["a", "b", "c", "d", "e"],
            vec![vec![
                Value::Null,
                int(-7),
                Value::Real(2.0),
                text("x\"y"),
                Value::Blob {
                    blob: "00ff".into(),
                },
            ]],
        );
        assert_eq!(parse_wire(&wire_json(&outcome)), outcome);
        let err: RunOutcome = Err("no such table: u".into());
        assert_eq!(wire_json(&err), r#"{"error":"no such table: u"}"#);
        assert_eq!(parse_wire(&wire_json(&err)), err);
        assert!(parse_wire("junk")
            .unwrap_err()
            .starts_with("the SQL engine's answer"));
        assert!(parse_wire(r#"{"ok": {"columns": ["a"], "rows": [[[1]]]}}"#)
            .unwrap_err()
            .ends_with("(a value of an unknown kind)"));
        assert!(parse_wire(r#"{"ok": {"rows": []}}"#)
            .unwrap_err()
            .ends_with("(no columns)"));
        // A whole real stays a real; an integer stays an integer.
        let two = parse_wire(r#"{"ok": {"columns": ["a", "b"], "rows": [[2.0, 2]]}}"#).unwrap();
        assert_eq!(two.rows[0], [Value::Real(2.0), int(2)]);
    }

    #[test]
    fn values_show_as_sqlite_prints_them() {
        assert_eq!(Value::Null.shown(), "NULL");
        assert_eq!(int(42).shown(), "42");
        assert_eq!(Value::Real(2.0).shown(), "2.0");
        assert_eq!(Value::Real(2.5).shown(), "2.5");
        assert_eq!(Value::Real(1.0 / 3.0).shown(), "0.333333333333333");
        assert_eq!(Value::Real(1e20).shown(), "1.0e+20");
        assert_eq!(Value::Real(-1.5e-7).shown(), "-1.5e-07");
        assert_eq!(Value::Real(123456.75).shown(), "123456.75");
        assert_eq!(Value::Real(-0.0).shown(), "0.0");
        assert_eq!(
            Value::Blob {
                blob: "00ff".into()
            }
            .shown(),
            "x'00ff'"
        );
    }

    #[test]
    fn the_result_view_caps_rows_and_marks_the_differing_ones() {
        let emails: Vec<Vec<Value>> = (0..7).map(|i| vec![text(&format!("u{i}@x"))]).collect();
        let runs = CaseRuns {
            reference: result(&["email"], vec![emails[1].clone(), emails[6].clone()]),
            baseline: result(&["email"], vec![emails[1].clone(), emails[6].clone()]),
            candidate: result(&["email"], emails.clone()),
        };
        let view = case_result_view(&runs, "SELECT email FROM users WHERE is_admin");
        assert!(!view.ordered);
        let [reference, baseline, candidate] = &view.sides;
        assert_eq!(reference.summary, "2 rows");
        assert_eq!(reference.matches, None);
        assert_eq!(baseline.matches, Some(true));
        assert_eq!(candidate.matches, Some(false));
        assert_eq!(candidate.summary, "7 rows: 5 rows not in the reference");
        assert_eq!(candidate.rows.len(), SHOWN_ROWS);
        let marks: Vec<bool> = candidate.rows.iter().map(|r| r.differs).collect();
        assert_eq!(marks, [true, false, true, true, true]);
        assert_eq!((candidate.more, candidate.more_differing), (2, 1));
        assert_eq!(candidate.columns, ["email"]);
        assert_eq!(runs.outcome(false), (true, false));
        // An error shows the engine's message on its side.
        let broken = CaseRuns {
            candidate: Err("near \"FORM\": syntax error".into()),
            ..runs
        };
        let view = case_result_view(&broken, "SELECT 1");
        assert_eq!(
            view.sides[2].error.as_deref(),
            Some("near \"FORM\": syntax error")
        );
        assert!(view.sides[2].rows.is_empty());
        assert_eq!(
            view.sides[2].summary,
            "fails to run: near \"FORM\": syntax error"
        );
    }

    #[test]
    fn grading_ids_round_trip() {
        for g in [Grading::Text, Grading::Execution] {
            assert_eq!(Grading::from_id(g.id()), g);
        }
        assert_eq!(Grading::from_id("junk"), Grading::Text);
        assert_eq!(Grading::default(), Grading::Text);
    }
}
