//! An answer's rows against the reference's: in order when the reference sorts them (a
//! top-level `ORDER BY`), else as multisets; with the rows that differ and a summary in words.

use super::{RunOutcome, Value};
use std::cmp::Ordering;

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
pub(super) fn compare_rows(a: &[Value], b: &[Value]) -> Ordering {
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
pub(super) fn plural(n: usize) -> &'static str {
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
pub(super) fn same_multiset(a: &[Vec<Value>], b: &[Vec<Value>]) -> bool {
    a.len() == b.len() && !unmatched(a, b).iter().any(|&d| d)
}

/// For each row of `answer`: whether it is left over once each row of `reference` has been
/// matched with at most one equal answer row (a multiset difference, duplicates counted).
pub(super) fn unmatched(reference: &[Vec<Value>], answer: &[Vec<Value>]) -> Vec<bool> {
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
