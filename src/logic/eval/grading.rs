//! Text grading: SQL read as tokens, normalized, and compared with the reference; and the one
//! place a case's outcome is decided, by hand, by text or by the rows it returned.

use super::execution::{has_order_by, CaseRuns, Grading};
use super::EvalCase;

/// A piece of SQL text: a word, a punctuation mark, or a quoted string literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Token {
    Word(String),
    Punct(char),
    Literal(String),
}

impl Token {
    /// The text as written.
    pub(super) fn text(&self) -> String {
        match self {
            Token::Word(w) | Token::Literal(w) => w.clone(),
            Token::Punct(c) => c.to_string(),
        }
    }

    /// What two tokens must share to count as the same: words ignore case, literals do not.
    pub(super) fn key(&self) -> String {
        match self {
            Token::Word(w) => w.to_lowercase(),
            other => other.text(),
        }
    }
}

/// Splits SQL into tokens, each with whether whitespace came before it. Single-quoted literals
/// (with `''` as an escaped quote) stay whole; an unclosed literal runs to the end.
pub(super) fn tokenize(sql: &str, is_punct: fn(char) -> bool) -> Vec<(Token, bool)> {
    let mut out = Vec::new();
    let mut chars = sql.chars().peekable();
    let mut space = false;
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            space = true;
            chars.next();
        } else if c == '\'' {
            let mut lit = String::from('\'');
            chars.next();
            while let Some(ch) = chars.next() {
                lit.push(ch);
                if ch == '\'' {
                    if chars.peek() == Some(&'\'') {
                        lit.push('\'');
                        chars.next();
                    } else {
                        break;
                    }
                }
            }
            out.push((Token::Literal(lit), space));
            space = false;
        } else if is_punct(c) {
            out.push((Token::Punct(c), space));
            chars.next();
            space = false;
        } else {
            let mut word = String::new();
            while let Some(&ch) = chars.peek() {
                if ch.is_whitespace() || ch == '\'' || is_punct(ch) {
                    break;
                }
                word.push(ch);
                chars.next();
            }
            out.push((Token::Word(word), space));
            space = false;
        }
    }
    out
}

/// The punctuation around which [`normalize_sql`] removes spaces.
pub(super) fn is_grading_punct(c: char) -> bool {
    matches!(c, '(' | ')' | ',' | ';' | '=' | '<' | '>')
}

/// The punctuation [`diff_tokens`] splits on: ASCII punctuation except `_` and the quote.
pub(super) fn is_diff_punct(c: char) -> bool {
    c.is_ascii_punctuation() && c != '_' && c != '\''
}

/// SQL in a canonical form for grading: lowercase outside single-quoted literals, whitespace
/// collapsed, spaces around `( ) , ; = < >` set by one rule, trailing semicolons dropped.
///
/// The rule: no space after `(` or before `)`, `,` and `;`; none between a word and the `(` that
/// follows it (`count(*)`); one space around `=`, `<`, `>` and their pairs (`a <= 1`); one space
/// after `)`, `,` and `;`. Between words and literals a space stays where there was whitespace.
/// So `SELECT  Name FROM users WHERE city='Paris';` becomes
/// `select name from users where city = 'Paris'`. Literals keep their case and spacing, and
/// normalizing twice changes nothing.
pub fn normalize_sql(s: &str) -> String {
    let mut tokens = tokenize(s, is_grading_punct);
    while matches!(tokens.last(), Some((Token::Punct(';'), _))) {
        tokens.pop();
    }
    let is_op = |t: &Token| matches!(t, Token::Punct('=' | '<' | '>'));
    let mut out = String::with_capacity(s.len());
    let mut prev: Option<&Token> = None;
    for (token, space) in &tokens {
        let gap = match (prev, token) {
            (None, _) => false,
            (_, Token::Punct(')' | ',' | ';')) => false,
            (Some(Token::Punct('(')), _) => false,
            (Some(p), t) if is_op(p) && is_op(t) => false,
            (Some(p), t) if is_op(p) || is_op(t) => true,
            (Some(Token::Word(_)), Token::Punct('(')) => false,
            (Some(Token::Punct(_)), _) | (_, Token::Punct(_)) => true,
            _ => *space,
        };
        if gap {
            out.push(' ');
        }
        match token {
            Token::Word(w) => out.push_str(&w.to_lowercase()),
            other => out.push_str(&other.text()),
        }
        prev = Some(token);
    }
    out
}

/// Whether `answer` matches `reference` after [`normalize_sql`]. An empty reference matches
/// nothing, since there is nothing to grade against.
pub fn auto_grade(reference: &str, answer: &str) -> bool {
    let reference = normalize_sql(reference);
    !reference.is_empty() && reference == normalize_sql(answer)
}

/// Whether (baseline, candidate) pass on `case` under text grading: manual verdicts first,
/// else [`auto_grade`].
pub fn outcome(case: &EvalCase) -> (bool, bool) {
    graded_outcome(case, Grading::Text, None)
}

/// Whether (baseline, candidate) pass on `case` under `grading`: manual verdicts first; under
/// execution grading, whether each answer returned the reference's rows in `runs`, or the text
/// until the runs are in (`None`); under text grading, [`auto_grade`].
pub fn graded_outcome(case: &EvalCase, grading: Grading, runs: Option<&CaseRuns>) -> (bool, bool) {
    let by_rows = match (grading, runs) {
        (Grading::Execution, Some(runs)) => Some(runs.outcome(has_order_by(&case.reference_sql))),
        _ => None,
    };
    let reference = &case.reference_sql;
    (
        case.baseline_verdict.passes(|| match by_rows {
            Some((base, _)) => base,
            None => auto_grade(reference, &case.baseline_sql),
        }),
        case.candidate_verdict.passes(|| match by_rows {
            Some((_, cand)) => cand,
            None => auto_grade(reference, &case.candidate_sql),
        }),
    )
}
