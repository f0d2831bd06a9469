//! The mini eval: grade a baseline and a candidate on the same cases, then compare them case by
//! case, not only by their averages.
//!
//! Cases are text-to-SQL questions. An answer passes when it matches the reference after
//! normalization, unless a person overrode the verdict. Accuracy comes with a 95% Wilson
//! interval; the changed cases are bucketed and tested with the exact McNemar test; and a
//! decision rule rejects a candidate that breaks a critical case or loses too much accuracy.

use super::{format, parse_number, InputError};
use serde::{Deserialize, Serialize};

pub mod chunked;
pub mod editor;
pub mod execution;
pub mod tally;

#[cfg(test)]
mod fuzz_tests;

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

/// A piece of SQL text: a word, a punctuation mark, or a quoted string literal.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Punct(char),
    Literal(String),
}

impl Token {
    /// The text as written.
    fn text(&self) -> String {
        match self {
            Token::Word(w) | Token::Literal(w) => w.clone(),
            Token::Punct(c) => c.to_string(),
        }
    }

    /// What two tokens must share to count as the same: words ignore case, literals do not.
    fn key(&self) -> String {
        match self {
            Token::Word(w) => w.to_lowercase(),
            other => other.text(),
        }
    }
}

/// Splits SQL into tokens, each with whether whitespace came before it. Single-quoted literals
/// (with `''` as an escaped quote) stay whole; an unclosed literal runs to the end.
fn tokenize(sql: &str, is_punct: fn(char) -> bool) -> Vec<(Token, bool)> {
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
fn is_grading_punct(c: char) -> bool {
    matches!(c, '(' | ')' | ',' | ';' | '=' | '<' | '>')
}

/// The punctuation [`diff_tokens`] splits on: ASCII punctuation except `_` and the quote.
fn is_diff_punct(c: char) -> bool {
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
pub fn graded_outcome(
    case: &EvalCase,
    grading: Grading,
    runs: Option<&execution::CaseRuns>,
) -> (bool, bool) {
    let by_rows = match (grading, runs) {
        (Grading::Execution, Some(runs)) => {
            Some(runs.outcome(execution::has_order_by(&case.reference_sql)))
        }
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

/// Accuracy as a fraction (0.9 = 90%): `passes / n`, with `passes` capped at `n`; 0 when n = 0.
pub fn accuracy(passes: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        passes.min(n) as f64 / n as f64
    }
}

/// Wilson score interval (lo, hi) for `passes` of `n`, as fractions in 0..=1; `z` = [`Z_95`]
/// gives 95%. It always contains [`accuracy`]. With n = 0, or a z that is not finite, it is
/// (0, 1): no data, no knowledge.
pub fn wilson_interval(passes: usize, n: usize, z: f64) -> (f64, f64) {
    if n == 0 || !z.is_finite() {
        return (0.0, 1.0);
    }
    let p = accuracy(passes, n);
    let n = n as f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z.abs() / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // In exact arithmetic lo ≤ p ≤ hi; clamping only removes rounding noise.
    (
        (center - half).max(0.0).min(p),
        (center + half).min(1.0).max(p),
    )
}

/// How a case changed from baseline to candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// Baseline passed, candidate fails: a loss.
    Regressed,
    /// Baseline failed, candidate passes: a gain.
    Fixed,
    /// Both fail.
    StillFailing,
    /// Both pass.
    UnchangedPass,
}

impl Bucket {
    /// Every bucket, changed ones first, in display order.
    pub const ALL: [Bucket; 4] = [
        Bucket::Regressed,
        Bucket::Fixed,
        Bucket::StillFailing,
        Bucket::UnchangedPass,
    ];

    /// The bucket of a case that (baseline, candidate) pass or fail.
    pub fn of(baseline_pass: bool, candidate_pass: bool) -> Bucket {
        match (baseline_pass, candidate_pass) {
            (true, false) => Bucket::Regressed,
            (false, true) => Bucket::Fixed,
            (false, false) => Bucket::StillFailing,
            (true, true) => Bucket::UnchangedPass,
        }
    }

    /// The bucket's id in markup (`data-bucket`, test ids): `regressed`, `fixed`,
    /// `still-failing`, `unchanged`.
    pub fn id(self) -> &'static str {
        match self {
            Bucket::Regressed => "regressed",
            Bucket::Fixed => "fixed",
            Bucket::StillFailing => "still-failing",
            Bucket::UnchangedPass => "unchanged",
        }
    }

    /// What the bucket means, in a few words: "baseline pass, candidate fail", ….
    pub fn hint(self) -> &'static str {
        match self {
            Bucket::Regressed => "baseline pass, candidate fail",
            Bucket::Fixed => "baseline fail, candidate pass",
            Bucket::StillFailing => "both fail",
            Bucket::UnchangedPass => "both pass",
        }
    }

    /// The name a reader sees: "regressed", "fixed", "still failing", "unchanged pass".
    pub fn label(self) -> &'static str {
        match self {
            Bucket::Regressed => "regressed",
            Bucket::Fixed => "fixed",
            Bucket::StillFailing => "still failing",
            Bucket::UnchangedPass => "unchanged pass",
        }
    }
}

/// Case indices (into the case list) grouped by bucket, each list in ascending order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Buckets {
    /// Baseline pass, candidate fail.
    pub regressed: Vec<usize>,
    /// Baseline fail, candidate pass.
    pub fixed: Vec<usize>,
    /// Both fail.
    pub still_failing: Vec<usize>,
    /// Both pass.
    pub unchanged_pass: Vec<usize>,
}

impl Buckets {
    /// The indices in `bucket`.
    pub fn get(&self, bucket: Bucket) -> &[usize] {
        match bucket {
            Bucket::Regressed => &self.regressed,
            Bucket::Fixed => &self.fixed,
            Bucket::StillFailing => &self.still_failing,
            Bucket::UnchangedPass => &self.unchanged_pass,
        }
    }

    /// How many cases changed outcome (regressed + fixed).
    pub fn changed(&self) -> usize {
        self.regressed.len() + self.fixed.len()
    }
}

#[cfg(test)]
/// Groups the cases by how their outcome changed.
pub fn bucket_cases(cases: &[EvalCase]) -> Buckets {
    summarize(cases).buckets
}

/// Two-sided exact McNemar p-value (a probability) for `b` regressed and `c` fixed cases:
/// min(1, 2 × Σ_{i=0}^{min(b,c)} C(b+c, i) / 2^(b+c)); 1 when b + c = 0.
///
/// The chance of a split at least this uneven if baseline and candidate were equally good.
/// Above `MCNEMAR_EXACT_LIMIT` changed cases the normal approximation with continuity
/// correction is used, which is accurate far beyond any displayed digit at that size.
pub fn mcnemar_exact_p(b: usize, c: usize) -> f64 {
    if b == c {
        // Σ covers at least half the symmetric distribution, so 2 × Σ ≥ 1.
        return 1.0;
    }
    let k = b.min(c);
    let n = b as f64 + c as f64;
    if n > MCNEMAR_EXACT_LIMIT as f64 {
        let z = ((b.abs_diff(c) as f64 - 1.0) / n.sqrt()).max(0.0);
        return erfc(z / std::f64::consts::SQRT_2).clamp(0.0, 1.0);
    }
    // Terms in log space, so 0.5^n cannot underflow before it meets C(n, i).
    let ln_half_n = -n * std::f64::consts::LN_2;
    let mut ln_choose = 0.0;
    let mut sum = 0.0;
    for i in 0..=k {
        sum += (ln_choose + ln_half_n).exp();
        let i = i as f64;
        ln_choose += ((n - i) / (i + 1.0)).ln();
    }
    (2.0 * sum).clamp(0.0, 1.0)
}

/// Complementary error function, with a relative error below 1.2 × 10⁻⁷ (Numerical Recipes'
/// Chebyshev fit).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Headline figures of an eval, for the results panel.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Number of cases.
    pub cases: usize,
    /// Cases the baseline passes.
    pub baseline_passes: usize,
    /// Cases the candidate passes.
    pub candidate_passes: usize,
    /// The cases by how they changed.
    pub buckets: Buckets,
    /// Exact McNemar p-value of regressed against fixed (a probability).
    pub mcnemar_p: f64,
}

impl Summary {
    /// The headline figures of cases already graded: each case's (baseline, candidate) pass,
    /// in case order. One pass over them.
    pub fn of_outcomes(outcomes: impl IntoIterator<Item = (bool, bool)>) -> Summary {
        let mut buckets = Buckets::default();
        let (mut cases, mut baseline_passes, mut candidate_passes) = (0, 0, 0);
        for (i, (base, cand)) in outcomes.into_iter().enumerate() {
            cases += 1;
            baseline_passes += usize::from(base);
            candidate_passes += usize::from(cand);
            match Bucket::of(base, cand) {
                Bucket::Regressed => buckets.regressed.push(i),
                Bucket::Fixed => buckets.fixed.push(i),
                Bucket::StillFailing => buckets.still_failing.push(i),
                Bucket::UnchangedPass => buckets.unchanged_pass.push(i),
            }
        }
        Summary {
            cases,
            baseline_passes,
            candidate_passes,
            mcnemar_p: mcnemar_exact_p(buckets.regressed.len(), buckets.fixed.len()),
            buckets,
        }
    }

    /// Baseline accuracy as a fraction (0.9 = 90%).
    pub fn baseline_accuracy(&self) -> f64 {
        accuracy(self.baseline_passes, self.cases)
    }

    /// Candidate accuracy as a fraction (0.9 = 90%).
    pub fn candidate_accuracy(&self) -> f64 {
        accuracy(self.candidate_passes, self.cases)
    }
}

#[cfg(test)]
/// Grades every case and gathers the headline figures.
pub fn summarize(cases: &[EvalCase]) -> Summary {
    Summary::of_outcomes(cases.iter().map(outcome))
}

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

/// The accept-or-reject verdict on a candidate, with the reason in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Whether the candidate may replace the baseline.
    pub accept: bool,
    /// Why, citing the figures, e.g. "rejected: critical case 'emails of admins' regressed".
    pub reason: String,
}

/// Parses a tolerance in percentage points, as typed (0..=100).
pub fn parse_tolerance(text: &str) -> Result<f64, InputError> {
    parse_number("Tolerance", text, 0.0, false, 100.0)
}

/// A case's name for a sentence: its name, or "case N" when it has none.
pub fn case_label(cases: &[EvalCase], i: usize) -> String {
    match cases.get(i) {
        Some(c) if !c.name.trim().is_empty() => c.name.trim().to_string(),
        _ => format!("case {}", i + 1),
    }
}

/// Accuracy for a sentence: `90% (9/10)`.
fn accuracy_text(passes: usize, n: usize) -> String {
    format!(
        "{}% ({passes}/{n})",
        format::plain(accuracy(passes, n) * 100.0)
    )
}

#[cfg(test)]
/// Decides whether the candidate replaces the baseline.
///
/// Rejects when a critical case regressed, or when candidate accuracy is more than
/// `tolerance_pct` percentage points below the baseline's (a tolerance that is negative or NaN
/// counts as 0); an eval with no cases is rejected too. Otherwise accepts, citing both
/// accuracies and the number of changed cases, each of which deserves a look.
pub fn decide(cases: &[EvalCase], tolerance_pct: f64) -> Decision {
    decide_on(cases, &summarize(cases), tolerance_pct)
}

/// [`decide`] with the [`summarize`] of `cases` already at hand.
pub fn decide_on(cases: &[EvalCase], s: &Summary, tolerance_pct: f64) -> Decision {
    let critical: Vec<String> = s
        .buckets
        .regressed
        .iter()
        .filter(|&&i| cases.get(i).is_some_and(|c| c.critical))
        .map(|&i| case_label(cases, i))
        .collect();
    decide_tally(&tally::Tally::of_summary(s), &critical, tolerance_pct)
}

/// [`decide`] from the counts alone and the names of the critical cases that regressed, in
/// order (each as [`case_label`] gives it).
pub fn decide_tally(t: &tally::Tally, critical: &[String], tolerance_pct: f64) -> Decision {
    let reject = |reason: String| Decision {
        accept: false,
        reason,
    };
    if t.cases == 0 {
        return reject("rejected: the eval has no cases".into());
    }
    if !critical.is_empty() {
        let noun = if critical.len() == 1 { "case" } else { "cases" };
        let names: Vec<String> = critical.iter().map(|c| format!("'{c}'")).collect();
        return reject(format!(
            "rejected: critical {noun} {} regressed",
            names.join(", ")
        ));
    }
    let tolerance = if tolerance_pct.is_nan() {
        0.0
    } else {
        tolerance_pct.clamp(0.0, 100.0)
    };
    let base = accuracy_text(t.baseline_passes, t.cases);
    let cand = accuracy_text(t.candidate_passes, t.cases);
    let tol = format::plain(tolerance);
    let points = if tol == "1" { "point" } else { "points" };
    let drop_pct = (t.baseline_accuracy() - t.candidate_accuracy()) * 100.0;
    if drop_pct > tolerance + 1e-9 {
        return reject(format!(
            "rejected: candidate accuracy {cand} is more than {tol} {points} below baseline {base}"
        ));
    }
    let changed = t.changed();
    let cases_word = if changed == 1 { "case" } else { "cases" };
    Decision {
        accept: true,
        reason: format!(
            "accepted: candidate {cand} vs baseline {base}, within {tol} {points}; \
             {changed} changed {cases_word} ({} fixed, {} regressed)",
            t.fixed(),
            t.regressed()
        ),
    }
}

/// One CSV field per RFC 4180: quoted when it holds a comma, quote, CR or LF, with quotes
/// doubled.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Per-case results as CSV (RFC 4180, CRLF line ends, a header row): name, question, critical,
/// baseline, candidate (`pass`/`fail`), bucket, and the three SQL texts.
pub fn results_csv(cases: &[EvalCase]) -> String {
    results_csv_graded(cases.iter().map(|c| (c, outcome(c))))
}

/// [`results_csv`] of cases already graded: each case with its (baseline, candidate) pass.
pub fn results_csv_graded<'a>(
    graded: impl IntoIterator<Item = (&'a EvalCase, (bool, bool))>,
) -> String {
    let pass = |p: bool| if p { "pass" } else { "fail" };
    let mut out = String::from(
        "name,question,critical,baseline,candidate,bucket,reference_sql,baseline_sql,candidate_sql\r\n",
    );
    for (case, (base, cand)) in graded {
        let row = [
            case.name.as_str(),
            &case.question,
            if case.critical { "yes" } else { "no" },
            pass(base),
            pass(cand),
            Bucket::of(base, cand).label(),
            &case.reference_sql,
            &case.baseline_sql,
            &case.candidate_sql,
        ];
        let fields: Vec<String> = row.iter().map(|f| csv_field(f)).collect();
        out.push_str(&fields.join(","));
        out.push_str("\r\n");
    }
    out
}

/// Reads one pasted pass/fail value: pass/fail, 1/0, true/false or yes/no, any case.
fn parse_flag(s: &str) -> Option<bool> {
    match s.trim().to_lowercase().as_str() {
        "pass" | "1" | "true" | "yes" => Some(true),
        "fail" | "0" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// Reads line `n` of pasted columns (trimmed, not blank): its (baseline, candidate), `None` for
/// a header (allowed on the `first` non-blank line only), or the error naming the line.
fn read_pass_fail_line(
    line: &str,
    n: usize,
    first: bool,
) -> Result<Option<(bool, bool)>, InputError> {
    const FIELD: &str = "Pasted results";
    let mut fields: Vec<&str> = if line.contains('\t') {
        line.split('\t').map(str::trim).collect()
    } else if line.contains(',') {
        line.split(',').map(str::trim).collect()
    } else {
        line.split_whitespace().collect()
    };
    // Spreadsheets often copy trailing empty cells.
    while fields.last() == Some(&"") {
        fields.pop();
    }
    let &[base, cand] = fields.as_slice() else {
        return Err(InputError::new(
            FIELD,
            format!(
                "Line {n}: expected two values (baseline, candidate), found {}.",
                fields.len()
            ),
        ));
    };
    match (parse_flag(base), parse_flag(cand)) {
        (Some(b), Some(c)) => Ok(Some((b, c))),
        (None, None) if first => Ok(None),
        (b, _) => {
            let bad = if b.is_none() { base } else { cand };
            Err(InputError::new(
                FIELD,
                format!("Line {n}: \u{201c}{bad}\u{201d} is not pass/fail, 1/0 or true/false."),
            ))
        }
    }
}

/// Parses two pasted columns, baseline then candidate, one case per line: pass/fail, 1/0,
/// true/false or yes/no, separated by a tab, a comma or spaces.
///
/// Blank lines are skipped, and so is a first line that is a header (neither value readable).
/// An error names its line number.
pub fn parse_pass_fail_columns(text: &str) -> Result<Vec<(bool, bool)>, InputError> {
    const FIELD: &str = "Pasted results";
    if text.len() > MAX_INPUT_BYTES {
        return Err(InputError::new(FIELD, "Paste at most 1 MB."));
    }
    let mut rows = Vec::new();
    let mut seen_line = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let first = !seen_line;
        seen_line = true;
        if let Some(row) = read_pass_fail_line(line, i + 1, first)? {
            rows.push(row);
        }
    }
    if rows.is_empty() {
        return Err(InputError::new(
            FIELD,
            "Paste one line per case, such as \u{201c}pass, fail\u{201d}.",
        ));
    }
    Ok(rows)
}

/// Cases named "case 1", "case 2", … carrying pasted (baseline, candidate) results as manual
/// verdicts, for grading results that came from elsewhere.
pub fn cases_from_pass_fail(results: &[(bool, bool)]) -> Vec<EvalCase> {
    let verdict = |p: bool| if p { Verdict::Pass } else { Verdict::Fail };
    results
        .iter()
        .enumerate()
        .map(|(i, &(b, c))| EvalCase {
            name: format!("case {}", i + 1),
            baseline_verdict: verdict(b),
            candidate_verdict: verdict(c),
            ..EvalCase::default()
        })
        .collect()
}

/// Reads an eval file: at most 1 MB of JSON in the [`EvalSet`] shape, missing fields taking
/// their defaults. A syntax or shape error names its line and column.
pub fn parse_eval_json(text: &str) -> Result<EvalSet, InputError> {
    const FIELD: &str = "Eval file";
    if text.len() > MAX_INPUT_BYTES {
        return Err(InputError::new(
            FIELD,
            format!(
                "The file is {} bytes; the limit is 1 MB.",
                format::count(text.len())
            ),
        ));
    }
    // serde would read a list as the struct's fields in order; our format is an object.
    if text.trim_start().starts_with('[') {
        return Err(InputError::new(
            FIELD,
            "Line 1: the file is a list; it must be one object with a \"cases\" list.",
        ));
    }
    let set: EvalSet = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let what = full.strip_suffix(&suffix).unwrap_or(&full);
        // serde names the line but not the field; find the field by walking the parsed value.
        let place = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| misplaced_field(&v))
            .map(|p| format!(" (in {p})"))
            .unwrap_or_default();
        InputError::new(
            FIELD,
            format!("Line {}, column {}: {what}{place}.", e.line(), e.column()),
        )
    })?;
    if set.version > EVAL_FORMAT_VERSION {
        return Err(InputError::new(
            FIELD,
            format!(
                "This file is format version {}; this course reads up to version {EVAL_FORMAT_VERSION}.",
                set.version
            ),
        ));
    }
    Ok(set)
}

/// The first place where well-formed JSON does not fit the [`EvalSet`] shape, in words:
/// `case 3 (“distinct cities”), field “critical”`. `None` when every field fits.
fn misplaced_field(v: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let Some(top) = v.as_object() else {
        return Some("the top level, which must be one object with a \"cases\" list".into());
    };
    let field = |f: &str| format!("field \u{201c}{f}\u{201d}");
    if let Some(x) = top.get("version") {
        if x.as_u64().is_none_or(|n| n > u64::from(u32::MAX)) {
            return Some(field("version"));
        }
    }
    if top.get("schema").is_some_and(|x| !x.is_string()) {
        return Some(field("schema"));
    }
    if top
        .get("grading")
        .is_some_and(|x| !matches!(x.as_str(), Some("text" | "execution")))
    {
        return Some(field("grading"));
    }
    let cases = match top.get("cases") {
        None => return None,
        Some(Value::Array(cases)) => cases,
        Some(_) => return Some(field("cases")),
    };
    const TEXT: [&str; 5] = [
        "name",
        "question",
        "reference_sql",
        "baseline_sql",
        "candidate_sql",
    ];
    for (i, case) in cases.iter().enumerate() {
        let Some(obj) = case.as_object() else {
            return Some(format!("case {}", i + 1));
        };
        let label = match obj.get("name").and_then(Value::as_str) {
            Some(name) if !name.trim().is_empty() => {
                let short: String = name.chars().take(40).collect();
                format!("case {} (\u{201c}{short}\u{201d})", i + 1)
            }
            _ => format!("case {}", i + 1),
        };
        let bad = TEXT
            .iter()
            .copied()
            .find(|f| obj.get(*f).is_some_and(|x| !x.is_string()))
            .or_else(|| {
                ["baseline_verdict", "candidate_verdict"]
                    .into_iter()
                    .find(|f| {
                        obj.get(*f)
                            .is_some_and(|x| !matches!(x.as_str(), Some("auto" | "pass" | "fail")))
                    })
            })
            .or_else(|| {
                obj.get("critical")
                    .is_some_and(|x| !x.is_boolean())
                    .then_some("critical")
            });
        if let Some(f) = bad {
            return Some(format!("{label}, {}", field(f)));
        }
    }
    None
}

/// What pasted text holds, once read.
#[derive(Debug, Clone, PartialEq)]
pub enum Import {
    /// An eval file (JSON): a whole eval.
    Eval(EvalSet),
    /// Two columns of pass/fail: each line's (baseline, candidate) result.
    Verdicts(Vec<(bool, bool)>),
}

/// Reads pasted text: an eval file (JSON, starting with `{` or `[`) or two columns of
/// pass/fail. Errors name the line (and, for JSON, the field).
pub fn parse_import(text: &str) -> Result<Import, InputError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(InputError::new(
            "Import",
            format!(
                "The text is {} bytes; the limit is 1 MB (1,000,000 bytes).",
                format::count(text.len())
            ),
        ));
    }
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(InputError::new(
            "Import",
            "Paste an eval file (JSON) or two columns of pass/fail first.",
        ));
    }
    if trimmed.starts_with(['{', '[']) {
        parse_eval_json(text).map(Import::Eval)
    } else {
        parse_pass_fail_columns(text).map(Import::Verdicts)
    }
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
fn space_between(prev: &str, next: &str) -> bool {
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
fn runs(tokens: &[(String, bool)]) -> Vec<DiffRun> {
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

/// A probability for display, starting with its digits: `1.00`, `0.38`, `0.0215`, `2.1e-5`.
pub fn p_value_text(p: f64) -> String {
    if !p.is_finite() {
        return "1.00".into();
    }
    if p >= 0.1 {
        format::fixed(p, 2)
    } else if p >= 0.0001 {
        format::fixed(p, 4)
    } else if p == 0.0 {
        "0".into()
    } else {
        format!("{p:.1e}")
    }
}

/// One sentence on what the exact McNemar test says about `regressed` against `fixed` cases,
/// and what it does not (the app has the p-value at hand: [`mcnemar_sentence_with`]).
#[cfg(test)]
pub fn mcnemar_sentence(regressed: usize, fixed: usize) -> String {
    mcnemar_sentence_with(regressed, fixed, mcnemar_exact_p(regressed, fixed))
}

/// [`mcnemar_sentence`] with `p`, the [`mcnemar_exact_p`] of `regressed` and `fixed`, at hand.
pub fn mcnemar_sentence_with(regressed: usize, fixed: usize, p: f64) -> String {
    if regressed + fixed == 0 {
        return "No case changed, so McNemar's test has nothing to weigh: the two systems agree \
                on every case."
            .into();
    }
    let split = format!("{regressed} regressed against {fixed} fixed");
    if p < 0.05 {
        let side = if regressed > fixed { "worse" } else { "better" };
        format!(
            "McNemar's test looks only at the changed cases: if the two systems were equally \
             good, a split at least as uneven as {split} would happen less than 5% of the time \
             (p = {}), so the candidate is likely {side} on cases like these, though the test \
             cannot say how much any one case matters to your product.",
            p_value_text(p)
        )
    } else {
        format!(
            "McNemar's test looks only at the changed cases: if the two systems were equally \
             good, a split at least as uneven as {split} would still happen 5% of the time or \
             more (p = {}), so the test cannot tell the two systems apart, which does not make \
             a regressed case harmless: read each one.",
            p_value_text(p)
        )
    }
}

/// One sentence on what the two 95% intervals mean for these results: the accuracies that
/// `n` cases cannot rule out for each system, and whether the ranges overlap.
pub fn interval_sentence(baseline_passes: usize, candidate_passes: usize, n: usize) -> String {
    if n == 0 {
        return "With no cases, the 95% intervals cover every accuracy from 0% to 100%: there \
                is nothing to measure yet."
            .into();
    }
    let (b_lo, b_hi) = wilson_interval(baseline_passes, n, Z_95);
    let (c_lo, c_hi) = wilson_interval(candidate_passes, n, Z_95);
    let cases = if n == 1 { "case" } else { "cases" };
    let overlap = if b_lo <= c_hi && c_lo <= b_hi {
        "The ranges overlap, so the two averages alone cannot tell the systems apart; since both \
         systems answered the same cases, McNemar's test on the cases that changed is the \
         sharper comparison."
    } else {
        "The ranges do not overlap, so the difference in accuracy is larger than these cases \
         leave to chance."
    };
    format!(
        "The 95% intervals are the true accuracies that {n} {cases} cannot rule out: the \
         baseline could be anywhere from {} to {}, the candidate from {} to {}. {overlap}",
        percent_text(b_lo),
        percent_text(b_hi),
        percent_text(c_lo),
        percent_text(c_hi)
    )
}

/// Accuracy as a percentage for display: `90%`, `66.7%`; at most one decimal.
pub fn percent_text(fraction: f64) -> String {
    format!("{}%", format::plain((fraction * 1000.0).round() / 10.0))
}

#[cfg(test)]
/// An eval as pretty-printed JSON, readable back by [`parse_eval_json`].
pub fn eval_json(set: &EvalSet) -> String {
    // Plain strings, numbers and enums cannot fail to serialize.
    serde_json::to_string_pretty(set).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::super::format::fixed;
    use super::*;
    use proptest::strategy::Strategy;

    /// A case graded automatically.
    fn case(
        name: &str,
        question: &str,
        reference: &str,
        baseline: &str,
        candidate: &str,
    ) -> EvalCase {
        EvalCase {
            name: name.into(),
            question: question.into(),
            reference_sql: reference.into(),
            baseline_sql: baseline.into(),
            candidate_sql: candidate.into(),
            ..EvalCase::default()
        }
    }

    /// The course plan's mini eval: ten text-to-SQL cases over one `users` table.
    fn course_eval() -> EvalSet {
        let mut admins = case(
            "emails of admins",
            "What are the email addresses of the admins?",
            "SELECT email FROM users WHERE is_admin = TRUE;",
            "SELECT email FROM users WHERE is_admin = TRUE;",
            "SELECT email FROM users;",
        );
        admins.critical = true;
        EvalSet {
            version: 1,
            grading: Grading::Text,
            schema: "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, \
                     email TEXT NOT NULL, city TEXT NOT NULL, is_admin BOOLEAN NOT NULL);"
                .into(),
            cases: vec![
                case(
                    "all names",
                    "List the name of every user.",
                    "SELECT name FROM users;",
                    "SELECT name FROM users;",
                    "select name from users",
                ),
                case(
                    "count users",
                    "How many users are there?",
                    "SELECT COUNT(*) FROM users;",
                    "SELECT COUNT(*) FROM users;",
                    "SELECT count( * ) FROM users;",
                ),
                case(
                    "users in Paris",
                    "What are the names of the users who live in Paris?",
                    "SELECT name FROM users WHERE city = 'Paris';",
                    "SELECT name FROM users WHERE city='Paris';",
                    "SELECT name\nFROM users\nWHERE city = 'Paris';",
                ),
                case(
                    "distinct cities",
                    "Which cities do users live in? List each city once.",
                    "SELECT DISTINCT city FROM users;",
                    "SELECT city FROM users;",
                    "SELECT DISTINCT city FROM users;",
                ),
                admins,
                case(
                    "count admins",
                    "How many users are admins?",
                    "SELECT COUNT(*) FROM users WHERE is_admin = TRUE;",
                    "SELECT COUNT(*) FROM users WHERE is_admin = TRUE;",
                    "SELECT COUNT(*) FROM users WHERE is_admin=true;",
                ),
                case(
                    "users per city",
                    "How many users live in each city?",
                    "SELECT city, COUNT(*) FROM users GROUP BY city;",
                    "SELECT city, COUNT(*) FROM users GROUP BY city;",
                    "SELECT city,COUNT(*) FROM users GROUP BY city;",
                ),
                case(
                    "name by email",
                    "What is the name of the user whose email is ada@example.com?",
                    "SELECT name FROM users WHERE email = 'ada@example.com';",
                    "SELECT name FROM users WHERE email = 'ada@example.com';",
                    "SELECT name FROM users WHERE email = 'ada@example.com'",
                ),
                case(
                    "names in order",
                    "List all user names in alphabetical order.",
                    "SELECT name FROM users ORDER BY name;",
                    "SELECT name FROM users ORDER BY name;",
                    "SELECT name FROM users ORDER BY name ;",
                ),
                case(
                    "busiest city",
                    "Which city has the most users?",
                    "SELECT city FROM users GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1;",
                    "SELECT city FROM users GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1;",
                    "SELECT city FROM users GROUP BY city ORDER BY COUNT(*) DESC LIMIT 1;",
                ),
            ],
        }
    }

    fn names(cases: &[EvalCase], indices: &[usize]) -> Vec<String> {
        indices.iter().map(|&i| cases[i].name.clone()).collect()
    }

    /// The golden figures of the course plan.
    #[test]
    fn reproduces_the_course_mini_eval() {
        let set = course_eval();
        let cases = &set.cases;
        assert_eq!(cases.len(), 10);
        let s = summarize(cases);
        assert_eq!((s.baseline_passes, s.candidate_passes), (9, 9));
        assert_eq!(fixed(s.baseline_accuracy() * 100.0, 0), "90");
        assert_eq!(fixed(s.candidate_accuracy() * 100.0, 0), "90");
        assert_eq!(names(cases, &s.buckets.regressed), ["emails of admins"]);
        assert_eq!(names(cases, &s.buckets.fixed), ["distinct cities"]);
        assert!(s.buckets.still_failing.is_empty());
        assert_eq!(s.buckets.unchanged_pass.len(), 8);
        assert_eq!(s.mcnemar_p, 1.0);
        assert_eq!(
            decide(cases, 0.0),
            Decision {
                accept: false,
                reason: "rejected: critical case 'emails of admins' regressed".into()
            }
        );
        let mut relaxed = cases.clone();
        relaxed[4].critical = false;
        assert_eq!(
            decide(&relaxed, 0.0),
            Decision {
                accept: true,
                reason: "accepted: candidate 90% (9/10) vs baseline 90% (9/10), within 0 points; \
                         2 changed cases (1 fixed, 1 regressed)"
                    .into()
            }
        );
    }

    #[test]
    fn course_eval_survives_json() {
        let set = course_eval();
        let json = eval_json(&set);
        assert_eq!(parse_eval_json(&json), Ok(set));
        assert!(json.contains("\"baseline_verdict\": \"auto\""));
    }

    #[test]
    fn older_or_partial_json_loads_with_defaults() {
        let set =
            parse_eval_json(r#"{"cases": [{"name": "x", "candidate_verdict": "pass"}]}"#).unwrap();
        assert_eq!(set.version, EVAL_FORMAT_VERSION);
        assert_eq!(set.cases[0].baseline_verdict, Verdict::Auto);
        assert_eq!(set.cases[0].candidate_verdict, Verdict::Pass);
        assert!(!set.cases[0].critical);
        assert_eq!(parse_eval_json("{}"), Ok(EvalSet::default()));
    }

    #[test]
    fn the_grading_choice_travels_in_the_file_and_old_files_grade_by_text() {
        let mut set = course_eval();
        assert!(
            !eval_json(&set).contains("grading"),
            "text grading: the version 1 shape"
        );
        set.grading = Grading::Execution;
        set.version = format_version(Grading::Execution);
        let json = eval_json(&set);
        assert!(json.contains("\"grading\": \"execution\""), "{json}");
        assert_eq!(parse_eval_json(&json), Ok(set));
        let old = parse_eval_json(r#"{"version": 1, "schema": "S", "cases": []}"#).unwrap();
        assert_eq!((old.version, old.grading), (1, Grading::Text));
        let m = parse_eval_json(r#"{"grading": "rows"}"#)
            .unwrap_err()
            .message;
        assert!(m.contains("field \u{201c}grading\u{201d}"), "{m}");
    }

    #[test]
    fn execution_grading_uses_the_rows_once_they_are_in_and_verdicts_still_override() {
        use execution::{CaseRuns, QueryResult, Value};
        let mut c = case(
            "admins",
            "",
            "SELECT email FROM users WHERE is_admin = TRUE",
            "SELECT email FROM users WHERE is_admin",
            "SELECT email FROM users",
        );
        let rows = |n: i64| {
            Ok(QueryResult {
                columns: vec!["email".into()],
                rows: (0..n).map(|i| vec![Value::Integer(i)]).collect(),
            })
        };
        let runs = CaseRuns {
            reference: rows(2),
            baseline: rows(2),
            candidate: rows(5),
        };
        assert_eq!(
            graded_outcome(&c, Grading::Text, Some(&runs)),
            (false, false)
        );
        // Until the runs are in, the text decides.
        assert_eq!(graded_outcome(&c, Grading::Execution, None), (false, false));
        assert_eq!(
            graded_outcome(&c, Grading::Execution, Some(&runs)),
            (true, false)
        );
        c.baseline_verdict = Verdict::Fail;
        c.candidate_verdict = Verdict::Pass;
        assert_eq!(
            graded_outcome(&c, Grading::Execution, Some(&runs)),
            (false, true)
        );
    }

    #[test]
    fn bad_json_says_where() {
        let err = parse_eval_json("{\n  \"cases\": [\n    {\"name\": 3}\n  ]\n}").unwrap_err();
        assert_eq!(err.field, "Eval file");
        assert!(
            err.message.starts_with("Line 3, column 14: invalid type"),
            "{}",
            err.message
        );
        let err = parse_eval_json("{\"cases\": [").unwrap_err();
        assert!(
            err.message.starts_with("Line 1, column 11:"),
            "{}",
            err.message
        );
        let err = parse_eval_json(r#"{"cases": [{"baseline_verdict": "maybe"}]}"#).unwrap_err();
        assert!(err.message.contains("unknown variant"), "{}", err.message);
        let err = parse_eval_json(r#"{"version": 3}"#).unwrap_err();
        assert!(err.message.contains("version 3"), "{}", err.message);
        let big = " ".repeat(MAX_INPUT_BYTES + 1);
        assert!(parse_eval_json(&big).unwrap_err().message.contains("1 MB"));
    }

    #[test]
    fn normalizes_sql_for_grading() {
        assert_eq!(
            normalize_sql("SELECT  Name FROM users WHERE city='Paris';"),
            "select name from users where city = 'Paris'"
        );
        assert_eq!(
            normalize_sql("  select COUNT ( * )\n\tfrom USERS ;; "),
            "select count(*) from users"
        );
        assert_eq!(
            normalize_sql("SELECT 'It''s  A' , x"),
            "select 'It''s  A', x"
        );
        assert_eq!(
            normalize_sql("WHERE a>=1 AND b < > 2 AND c IN ( 1,2 )"),
            "where a >= 1 and b <> 2 and c in(1, 2)"
        );
        assert_eq!(normalize_sql("SELECT 1;SELECT (2)"), "select 1; select(2)");
        assert_eq!(normalize_sql("SELECT ';'"), "select ';'");
        assert_eq!(normalize_sql("'unclosed  ;"), "'unclosed  ;");
        assert!(auto_grade("SELECT 1;", "select 1"));
        assert!(!auto_grade(
            "SELECT name FROM users WHERE city = 'Paris'",
            "SELECT name FROM users WHERE city = 'paris'"
        ));
        assert!(!auto_grade("", ""));
        assert!(!auto_grade("SELECT 1", ""));
    }

    #[test]
    fn manual_verdicts_override_auto_grading() {
        let mut c = case("x", "", "SELECT 1", "SELECT 1", "SELECT 2");
        assert_eq!(outcome(&c), (true, false));
        c.baseline_verdict = Verdict::Fail;
        c.candidate_verdict = Verdict::Pass;
        assert_eq!(outcome(&c), (false, true));
    }

    #[test]
    fn wilson_interval_matches_the_formula() {
        let (lo, hi) = wilson_interval(9, 10, Z_95);
        assert_eq!(
            (fixed(lo, 3), fixed(hi, 3)),
            ("0.596".into(), "0.982".into())
        );
        let (lo, hi) = wilson_interval(0, 10, Z_95);
        assert_eq!(lo, 0.0);
        assert_eq!(fixed(hi, 3), "0.278");
        assert_eq!(wilson_interval(10, 10, Z_95).1, 1.0);
        assert_eq!(wilson_interval(0, 0, Z_95), (0.0, 1.0));
        assert_eq!(wilson_interval(3, 10, f64::NAN), (0.0, 1.0));
        assert_eq!(wilson_interval(3, 10, 0.0), (0.3, 0.3));
        assert_eq!(accuracy(9, 10), 0.9);
        assert_eq!(accuracy(12, 10), 1.0);
        assert_eq!(accuracy(0, 0), 0.0);
    }

    #[test]
    fn mcnemar_exact_known_values() {
        assert_eq!(mcnemar_exact_p(0, 0), 1.0);
        assert_eq!(mcnemar_exact_p(1, 1), 1.0);
        assert_eq!(mcnemar_exact_p(0, 5), 0.0625);
        assert_eq!(fixed(mcnemar_exact_p(1, 9), 4), "0.0215");
        assert_eq!(fixed(mcnemar_exact_p(9, 1), 4), "0.0215");
        assert_eq!(mcnemar_exact_p(0, 2000), 0.0);
        assert!(mcnemar_exact_p(3000, 2000) < 1e-40);
        // The normal approximation takes over smoothly above the exact limit.
        let half = MCNEMAR_EXACT_LIMIT / 2;
        let exact = mcnemar_exact_p(half - 400, half);
        let approx = mcnemar_exact_p(half - 399, half + 2);
        assert!((exact - approx).abs() < 0.01, "{exact} vs {approx}");
        assert!(mcnemar_exact_p(usize::MAX, usize::MAX - 1) > 0.9999);
        assert_eq!(mcnemar_exact_p(0, usize::MAX), 0.0);
    }

    #[test]
    fn diff_marks_the_missing_distinct() {
        use DiffOp::*;
        assert_eq!(
            diff_tokens("SELECT DISTINCT city FROM users", "SELECT city FROM users"),
            [
                Same("SELECT".into()),
                Removed("DISTINCT".into()),
                Same("city".into()),
                Same("FROM".into()),
                Same("users".into()),
            ]
        );
        assert_eq!(
            diff_tokens(
                "SELECT email FROM users WHERE is_admin = TRUE;",
                "select email from users;"
            ),
            [
                Same("SELECT".into()),
                Same("email".into()),
                Same("FROM".into()),
                Same("users".into()),
                Removed("WHERE".into()),
                Removed("is_admin".into()),
                Removed("=".into()),
                Removed("TRUE".into()),
                Same(";".into()),
            ]
        );
        assert_eq!(
            diff_tokens("WHERE city = 'Paris'", "WHERE city = 'paris'"),
            [
                Same("WHERE".into()),
                Same("city".into()),
                Same("=".into()),
                Removed("'Paris'".into()),
                Added("'paris'".into()),
            ]
        );
        assert!(diff_tokens("", "").is_empty());
        assert_eq!(diff_tokens("", "x"), [Added("x".into())]);
    }

    #[test]
    fn decision_rejects_a_real_accuracy_loss() {
        let cases =
            cases_from_pass_fail(&[(true, true), (true, false), (true, true), (false, false)]);
        let d = decide(&cases, 10.0);
        assert!(!d.accept);
        assert_eq!(
            d.reason,
            "rejected: candidate accuracy 50% (2/4) is more than 10 points below baseline 75% (3/4)"
        );
        let d = decide(&cases, 25.0);
        assert!(d.accept);
        assert_eq!(
            d.reason,
            "accepted: candidate 50% (2/4) vs baseline 75% (3/4), within 25 points; \
             1 changed case (0 fixed, 1 regressed)"
        );
        assert!(!decide(&cases, f64::NAN).accept);
        assert!(!decide(&[], 100.0).accept);
        let mut two = cases_from_pass_fail(&[(true, false), (true, false)]);
        two[0].critical = true;
        two[1].critical = true;
        two[1].name = String::new();
        assert_eq!(
            decide(&two, 100.0).reason,
            "rejected: critical cases 'case 1', 'case 2' regressed"
        );
    }

    #[test]
    fn csv_quotes_per_rfc_4180() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
        let set = course_eval();
        let csv = results_csv(&set.cases);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines.len(), 12); // header, 10 rows, and the empty end after the last CRLF
        assert!(lines[5].starts_with(
            "emails of admins,What are the email addresses of the admins?,yes,pass,fail,regressed,"
        ));
        assert!(lines[7].contains("\"SELECT city, COUNT(*) FROM users GROUP BY city;\""));
    }

    #[test]
    fn pasted_columns_parse_or_say_which_line() {
        let rows = parse_pass_fail_columns(
            "baseline\tcandidate\npass\tfail\n\n1\t0\nTRUE , false\nyes\tno\t\n",
        )
        .unwrap();
        assert_eq!(
            rows,
            [(true, false), (true, false), (true, false), (true, false)]
        );
        let msg = |t: &str| parse_pass_fail_columns(t).unwrap_err().message;
        assert_eq!(
            msg("pass,pass\npass,maybe"),
            "Line 2: \u{201c}maybe\u{201d} is not pass/fail, 1/0 or true/false."
        );
        assert_eq!(
            msg("pass,pass\n\npass"),
            "Line 3: expected two values (baseline, candidate), found 1."
        );
        assert_eq!(
            msg("pass,pass\nx,y"),
            "Line 2: \u{201c}x\u{201d} is not pass/fail, 1/0 or true/false."
        );
        assert!(msg("").starts_with("Paste one line per case"));
        assert!(msg("baseline,candidate").starts_with("Paste one line per case"));
        let cases = cases_from_pass_fail(&rows);
        assert_eq!(cases[0].name, "case 1");
        assert_eq!(outcome(&cases[0]), (true, false));
    }

    #[test]
    fn bad_json_names_the_field() {
        let msg = |t: &str| parse_eval_json(t).unwrap_err().message;
        let m = msg("{\n  \"cases\": [\n    {\"name\": 3}\n  ]\n}");
        assert!(
            m.ends_with("(in case 1, field \u{201c}name\u{201d})."),
            "{m}"
        );
        let m = msg(r#"{"cases": [{"name": "a"}, {"name": "b", "critical": "yes"}]}"#);
        assert!(
            m.contains("(in case 2 (\u{201c}b\u{201d}), field \u{201c}critical\u{201d})"),
            "{m}"
        );
        let m = msg(r#"{"cases": [{"candidate_verdict": "maybe"}]}"#);
        assert!(
            m.contains("case 1, field \u{201c}candidate_verdict\u{201d}"),
            "{m}"
        );
        assert!(msg(r#"{"cases": 3}"#).contains("field \u{201c}cases\u{201d}"));
        assert!(msg("[1]").starts_with("Line 1: the file is a list"));
        assert!(msg("3").contains("the top level"));
        assert!(msg(r#"{"version": "one"}"#).contains("field \u{201c}version\u{201d}"));
    }

    #[test]
    fn import_reads_json_or_columns_or_refuses() {
        let set = course_eval();
        assert_eq!(parse_import(&eval_json(&set)), Ok(Import::Eval(set)));
        assert_eq!(
            parse_import("pass fail\nfail pass\n1 1\n"),
            Ok(Import::Verdicts(vec![
                (true, false),
                (false, true),
                (true, true)
            ]))
        );
        let err = |t: &str| parse_import(t).unwrap_err().message;
        assert!(err("  ").starts_with("Paste an eval file"));
        assert!(err("{\"cases\": [").starts_with("Line 1, column 11"));
        assert!(err("[1]").starts_with("Line 1: the file is a list"));
        assert!(err("pass pass\nmaybe pass").starts_with("Line 2:"));
        assert!(err(&"x".repeat(MAX_INPUT_BYTES + 1)).contains("1 MB"));
    }

    #[test]
    fn ids_of_verdicts_and_buckets() {
        for v in [Verdict::Auto, Verdict::Pass, Verdict::Fail] {
            assert_eq!(Verdict::from_id(v.id()), v);
        }
        assert_eq!(Verdict::from_id("junk"), Verdict::Auto);
        let ids: Vec<&str> = Bucket::ALL.iter().map(|b| b.id()).collect();
        assert_eq!(ids, ["regressed", "fixed", "still-failing", "unchanged"]);
        assert_eq!(Bucket::Fixed.hint(), "baseline fail, candidate pass");
    }

    #[test]
    fn one_pass_summary_matches_grading_each_case() {
        let set = course_eval();
        let outcomes: Vec<(bool, bool)> = set.cases.iter().map(outcome).collect();
        let s = Summary::of_outcomes(outcomes);
        assert_eq!(s, summarize(&set.cases));
        assert_eq!(s.buckets, bucket_cases(&set.cases));
        assert_eq!(decide_on(&set.cases, &s, 0.0), decide(&set.cases, 0.0));
        assert_eq!(Summary::of_outcomes([]).cases, 0);
    }

    #[test]
    fn diff_sides_highlight_whole_runs() {
        let run = |text: &str, changed| DiffRun {
            text: text.into(),
            changed,
        };
        let (l, r) = diff_sides(
            "SELECT email FROM users WHERE is_admin = TRUE;",
            "SELECT email FROM users;",
        );
        assert_eq!(
            l,
            [
                run("SELECT email FROM users ", false),
                run("WHERE is_admin = TRUE", true),
                run(";", false),
            ]
        );
        assert_eq!(r, [run("SELECT email FROM users;", false)]);
        let (l, r) = diff_sides(
            "SELECT city FROM users;",
            "SELECT DISTINCT city FROM users;",
        );
        assert_eq!(l, [run("SELECT city FROM users;", false)]);
        assert_eq!(
            r,
            [
                run("SELECT ", false),
                run("DISTINCT", true),
                run(" city FROM users;", false),
            ]
        );
        let (l, _) = diff_sides("SELECT COUNT( * ) FROM t", "x");
        let text: String = l.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(text, "SELECT COUNT(*) FROM t");
        assert_eq!(diff_sides("", ""), (vec![], vec![]));
    }

    #[test]
    fn p_values_and_percentages_read_well() {
        assert_eq!(p_value_text(1.0), "1.00");
        assert_eq!(p_value_text(0.0625), "0.0625");
        assert_eq!(p_value_text(mcnemar_exact_p(1, 9)), "0.0215");
        assert_eq!(p_value_text(0.000021), "2.1e-5");
        assert_eq!(p_value_text(0.0), "0");
        assert_eq!(p_value_text(f64::NAN), "1.00");
        assert_eq!(percent_text(0.9), "90%");
        assert_eq!(percent_text(2.0 / 3.0), "66.7%");
        assert_eq!(percent_text(1.0), "100%");
        let s = mcnemar_sentence(1, 1);
        assert!(
            s.contains("1 regressed against 1 fixed") && s.contains("p = 1.00"),
            "{s}"
        );
        assert!(s.contains("cannot tell the two systems apart"), "{s}");
        // The p-value is a chance under the assumption that both systems are equally good:
        // the sentence must state that condition, whichever way the test comes out.
        for (b, c) in [(1, 1), (9, 1), (1, 9), (13, 4)] {
            let s = mcnemar_sentence(b, c);
            assert!(s.contains("if the two systems were equally good"), "{s}");
        }
        assert!(mcnemar_sentence(13, 4).contains("less than 5% of the time"));
        assert!(mcnemar_sentence(9, 1).contains("likely worse"));
        // The lesson's eval: 9 of 10 each, Wilson 95% interval 59.6%–98.2% for both.
        let s = interval_sentence(9, 9, 10);
        assert!(s.contains("that 10 cases cannot rule out"), "{s}");
        assert!(
            s.contains("from 59.6% to 98.2%, the candidate from 59.6% to 98.2%"),
            "{s}"
        );
        assert!(s.contains("The ranges overlap"), "{s}");
        let apart = interval_sentence(990, 500, 1000);
        assert!(apart.contains("do not overlap"), "{apart}");
        assert!(interval_sentence(0, 0, 0).contains("nothing to measure"));
        assert!(interval_sentence(1, 0, 1).contains("that 1 case cannot"));
        assert!(mcnemar_sentence(1, 9).contains("likely better"));
        assert!(mcnemar_sentence(0, 0).starts_with("No case changed"));
    }

    /// SQL-like text, with quotes, punctuation and odd whitespace.
    fn sqlish() -> impl Strategy<Value = String> {
        proptest::prop_oneof![
            "[a-zA-Z0-9_ '(),;=<>*.\t\n]{0,40}",
            proptest::prelude::any::<String>(),
        ]
    }

    proptest::proptest! {
        #[test]
        fn buckets_partition_the_cases(
            results in proptest::collection::vec(
                (proptest::prelude::any::<bool>(), proptest::prelude::any::<bool>()),
                0..60,
            )
        ) {
            let cases = cases_from_pass_fail(&results);
            let b = bucket_cases(&cases);
            let mut all: Vec<usize> = Bucket::ALL.iter().flat_map(|&k| b.get(k).to_vec()).collect();
            all.sort_unstable();
            proptest::prop_assert_eq!(all, (0..cases.len()).collect::<Vec<_>>());
            for k in Bucket::ALL {
                for &i in b.get(k) {
                    proptest::prop_assert_eq!(Bucket::of(results[i].0, results[i].1), k);
                }
            }
        }

        #[test]
        fn wilson_bounds_hold(n in 0usize..2000, passes in 0usize..2000, z in 0.0f64..5.0) {
            let passes = passes.min(n);
            let (lo, hi) = wilson_interval(passes, n, z);
            let p = accuracy(passes, n);
            proptest::prop_assert!((0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi));
            if n > 0 {
                proptest::prop_assert!(lo <= p && p <= hi);
            }
        }

        #[test]
        fn mcnemar_is_a_symmetric_probability(b in 0usize..400, c in 0usize..400) {
            let p = mcnemar_exact_p(b, c);
            proptest::prop_assert!((0.0..=1.0).contains(&p));
            proptest::prop_assert_eq!(p, mcnemar_exact_p(c, b));
            // A more lopsided split is never less surprising.
            proptest::prop_assert!(mcnemar_exact_p(b.min(c), b.max(c) + 1) <= p + 1e-15);
        }

        #[test]
        fn normalize_sql_is_idempotent(s in sqlish()) {
            let once = normalize_sql(&s);
            proptest::prop_assert_eq!(normalize_sql(&once), once.clone());
            proptest::prop_assert!(auto_grade(&s, &once) || once.is_empty());
        }

        #[test]
        fn diff_rebuilds_both_sides(a in sqlish(), b in sqlish()) {
            let ops = diff_tokens(&a, &b);
            let keys = |s: &str| -> Vec<String> {
                tokenize(s, is_diff_punct).into_iter().map(|t| t.0.key()).collect()
            };
            let key = |s: &str| keys(s).concat();
            let left: String = ops.iter().filter_map(|op| match op {
                DiffOp::Same(t) | DiffOp::Removed(t) => Some(key(t)),
                DiffOp::Added(_) => None,
            }).collect();
            let right: String = ops.iter().filter_map(|op| match op {
                DiffOp::Same(t) | DiffOp::Added(t) => Some(key(t)),
                DiffOp::Removed(_) => None,
            }).collect();
            proptest::prop_assert_eq!(left, keys(&a).concat());
            proptest::prop_assert_eq!(right, keys(&b).concat());
        }
    }
}
