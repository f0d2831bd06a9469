//! What changed between the baseline's and the candidate's SQL: a token diff, and the runs of
//! text each side shows with its changed tokens marked.

use super::grading::{is_diff_punct, tokenize, Token};
use super::MAX_DIFF_CELLS;

/// One step of a token diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffOp {
    /// A token in both (text as in the first SQL).
    Same(String),
    /// A token only in the first SQL.
    Removed(String),
    /// A token only in the second SQL.
    Added(String),
}

/// Token diff from SQL `a` to SQL `b` by longest common subsequence, for showing what an answer
/// changed. Tokens are words, punctuation marks and quoted literals; words match ignoring case.
///
/// `SELECT DISTINCT city FROM users` → `SELECT city FROM users` marks `DISTINCT` removed. Where
/// a and b differ by more than `MAX_DIFF_CELLS` token pairs, the differing middle is shown as
/// removed then added.
pub fn diff_tokens(a: &str, b: &str) -> Vec<DiffOp> {
    let keyed = |s: &str| -> Vec<(String, Token)> {
        tokenize(s, is_diff_punct)
            .into_iter()
            .map(|(t, _)| (t.key(), t))
            .collect()
    };
    let (a, b) = (keyed(a), keyed(b));
    let same = |x: &&(String, Token), y: &&(String, Token)| x.0 == y.0;
    let prefix = a.iter().zip(&b).take_while(|(x, y)| same(x, y)).count();
    let suffix = a
        .iter()
        .skip(prefix)
        .rev()
        .zip(b.iter().skip(prefix).rev())
        .take_while(|(x, y)| same(x, y))
        .count();
    // The differing middles: prefix + suffix never exceeds either length.
    let a_mid: Vec<&(String, Token)> = a
        .iter()
        .skip(prefix)
        .take(a.len().saturating_sub(prefix + suffix))
        .collect();
    let b_mid: Vec<&(String, Token)> = b
        .iter()
        .skip(prefix)
        .take(b.len().saturating_sub(prefix + suffix))
        .collect();
    let mut ops: Vec<DiffOp> = a
        .iter()
        .take(prefix)
        .map(|t| DiffOp::Same(t.1.text()))
        .collect();
    let (n, m) = (a_mid.len(), b_mid.len());
    if n.saturating_mul(m) > MAX_DIFF_CELLS {
        ops.extend(a_mid.iter().map(|t| DiffOp::Removed(t.1.text())));
        ops.extend(b_mid.iter().map(|t| DiffOp::Added(t.1.text())));
    } else {
        // lcs[i * (m + 1) + j]: longest common subsequence of a_mid[i..] and b_mid[j..]; the
        // row i = n and the column j = m are 0.
        let mut lcs = vec![0u32; (n + 1) * (m + 1)];
        let cell = |lcs: &[u32], i: usize, j: usize| lcs.get(i * (m + 1) + j).copied().unwrap_or(0);
        let matches = |i: usize, j: usize| match (a_mid.get(i), b_mid.get(j)) {
            (Some(x), Some(y)) => x.0 == y.0,
            _ => false,
        };
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                let value = if matches(i, j) {
                    cell(&lcs, i + 1, j + 1) + 1
                } else {
                    cell(&lcs, i + 1, j).max(cell(&lcs, i, j + 1))
                };
                if let Some(c) = lcs.get_mut(i * (m + 1) + j) {
                    *c = value;
                }
            }
        }
        let (mut i, mut j) = (0, 0);
        loop {
            match (a_mid.get(i), b_mid.get(j)) {
                (Some(x), Some(y)) if x.0 == y.0 => {
                    ops.push(DiffOp::Same(x.1.text()));
                    i += 1;
                    j += 1;
                }
                (Some(x), None) => {
                    ops.push(DiffOp::Removed(x.1.text()));
                    i += 1;
                }
                (Some(x), Some(_)) if cell(&lcs, i + 1, j) >= cell(&lcs, i, j + 1) => {
                    ops.push(DiffOp::Removed(x.1.text()));
                    i += 1;
                }
                (_, Some(y)) => {
                    ops.push(DiffOp::Added(y.1.text()));
                    j += 1;
                }
                (None, None) => break,
            }
        }
    }
    ops.extend(
        a.iter()
            .skip(a.len().saturating_sub(suffix))
            .map(|t| DiffOp::Same(t.1.text())),
    );
    ops
}

/// A run of tokens on one side of a side-by-side diff, spaced for reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffRun {
    /// The text, with the spaces between its tokens.
    pub text: String,
    /// Whether these tokens are missing from the other side.
    pub changed: bool,
}

/// Whether a space goes between two tokens when SQL is shown again: none after `(` or `.`,
/// none before `)`, `,`, `;` or `.`, and none between a word and its `(` (`COUNT(*)`).
pub(super) fn space_between(prev: &str, next: &str) -> bool {
    let word = |s: &str| s.chars().all(|c| c.is_alphanumeric() || c == '_');
    !(prev == "("
        || prev == "."
        || matches!(next, ")" | "," | ";" | ".")
        || (next == "(" && word(prev) && !prev.is_empty()))
}

/// The two sides of the token diff from `a` to `b`: `a` with the tokens `b` lacks marked, and
/// `b` with the tokens `a` lacks marked. Neighbouring tokens of one kind form one run, so a
/// dropped `WHERE is_admin = TRUE` is one highlight.
pub fn diff_sides(a: &str, b: &str) -> (Vec<DiffRun>, Vec<DiffRun>) {
    let mut left: Vec<(String, bool)> = Vec::new();
    let mut right: Vec<(String, bool)> = Vec::new();
    for op in diff_tokens(a, b) {
        match op {
            DiffOp::Same(t) => {
                left.push((t.clone(), false));
                right.push((t, false));
            }
            DiffOp::Removed(t) => left.push((t, true)),
            DiffOp::Added(t) => right.push((t, true)),
        }
    }
    (runs(&left), runs(&right))
}

/// Joins (token, changed) pairs into runs; a space between a plain and a changed token stays
/// outside the highlight.
pub(super) fn runs(tokens: &[(String, bool)]) -> Vec<DiffRun> {
    let mut out: Vec<DiffRun> = Vec::new();
    let mut prev: Option<&str> = None;
    for (text, changed) in tokens {
        let space = prev.is_some_and(|p| space_between(p, text));
        match out.last_mut() {
            Some(run) if run.changed == *changed => {
                if space {
                    run.text.push(' ');
                }
                run.text.push_str(text);
            }
            Some(run) if !run.changed => {
                // Plain text, then a change: the space stays plain.
                if space {
                    run.text.push(' ');
                }
                out.push(DiffRun {
                    text: text.clone(),
                    changed: true,
                });
            }
            _ => out.push(DiffRun {
                text: if space {
                    format!(" {text}")
                } else {
                    text.clone()
                },
                changed: *changed,
            }),
        }
        prev = Some(text);
    }
    out
}
