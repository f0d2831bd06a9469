//! The decision rule (reject a broken critical case or too large a loss of accuracy) and the
//! sentences that explain the statistics.

use super::tally::Tally;
use super::{accuracy, wilson_interval, EvalCase, Summary, Z_95};
#[cfg(test)]
use super::{mcnemar_exact_p, summarize};
use crate::logic::{format, parse_number, InputError};

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
    parse_number(super::InputField::Tolerance, text, 0.0, false, 100.0)
}

/// A case's name for a sentence: its name, or "case N" when it has none.
pub fn case_label(cases: &[EvalCase], i: usize) -> String {
    match cases.get(i) {
        Some(c) if !c.name.trim().is_empty() => c.name.trim().to_string(),
        _ => format!("case {}", i + 1),
    }
}

/// Accuracy for a sentence: `90% (9/10)`.
pub(super) fn accuracy_text(passes: usize, n: usize) -> String {
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
    decide_tally(&Tally::of_summary(s), &critical, tolerance_pct)
}

/// [`decide`] from the counts alone and the names of the critical cases that regressed, in
/// order (each as [`case_label`] gives it).
pub fn decide_tally(t: &Tally, critical: &[String], tolerance_pct: f64) -> Decision {
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
