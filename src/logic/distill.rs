//! Distillation loss: how far a student's next-token distribution is from a target, in nats.
//!
//! The loss is the cross-entropy Σ −target × ln(student) with the natural log. A hard target is
//! one-hot on the right token; a soft target is the teacher's whole distribution. Following
//! Hinton et al. (2015), a temperature T softens both distributions, the soft loss is scaled by T²
//! so its gradients keep their size, and α mixes the hard and soft losses. A small deterministic
//! trainer runs gradient descent on a student's logits so a widget can show the student learning;
//! [`training`] is the playground's run of it, a few steps per animation frame.

pub mod inputs;
mod trainer;
pub mod training;

pub use trainer::*;

use super::rng::SplitMix64;
use super::{format, parse_number, InputError};

super::input::form_fields! {
    Distill:
    /// The playground's and the trainer's fields.
    pub enum Field {
        Probabilities => "Probabilities",
        Logits => "Logits",
        Teacher => "Teacher",
        /// A typed weight or logit of one token.
        Value => "Value",
        RightToken => "Right token",
        Temperature => "Temperature",
        Alpha => "\u{3b1}",
        LearningRate => "Learning rate",
        Steps => "Steps",
    }
}

/// An error of the playground's fields as the learner reads it: "Temperature: Must be …".
pub fn said(e: &InputError) -> String {
    match Field::ALL.iter().find(|&&f| e.field == f) {
        Some(field) => format!("{}: {}", field.name(), e.message),
        None => e.message.clone(),
    }
}

/// Fewest candidate tokens a distribution may have.
pub const MIN_TOKENS: usize = 2;
/// Most candidate tokens a distribution may have.
pub const MAX_TOKENS: usize = 10;
/// Smallest temperature a learner may choose (dimensionless).
pub const MIN_TEMPERATURE: f64 = 0.1;
/// Largest temperature a learner may choose (dimensionless).
pub const MAX_TEMPERATURE: f64 = 20.0;
/// Largest learning rate a learner may choose (logit units per unit of gradient).
pub const MAX_LEARNING_RATE: f64 = 100.0;
#[cfg(test)]
/// Most gradient steps [`train`] runs in one call.
pub const MAX_STEPS: usize = 100_000;
/// Probability used in place of 0 when turning probabilities into logits (so ln stays finite).
pub const PROB_FLOOR: f64 = 1e-12;
/// Seeded student logits are drawn uniformly from −`INIT_SPREAD`..`INIT_SPREAD` (nats).
pub const INIT_SPREAD: f64 = 2.0;

/// One example prediction: a context, four candidate next tokens, a teacher and two students.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    /// Stable id for menus and URLs.
    pub id: &'static str,
    /// The name a menu shows.
    pub name: &'static str,
    /// The text whose next token is predicted.
    pub context: &'static str,
    /// The candidate next tokens, in the order of every distribution below.
    pub labels: [&'static str; 4],
    /// The teacher's distribution (probabilities summing to 1).
    pub teacher: [f64; 4],
    /// Index of the right token: the hard target is one-hot here.
    pub hard_index: usize,
    /// Student A's distribution (probabilities summing to 1).
    pub student_a: [f64; 4],
    /// Student B's distribution (probabilities summing to 1).
    pub student_b: [f64; 4],
}

/// The course's example: both students give the right token 0.60, but only A ranks the
/// teacher's second choice second.
pub const SEED_PRESET: Preset = Preset {
    id: "eiffel",
    name: "Course example",
    context: "The Eiffel Tower is in",
    labels: ["Paris", "France", "Europe", "Texas"],
    teacher: [0.70, 0.20, 0.07, 0.03],
    hard_index: 0,
    student_a: [0.6, 0.25, 0.1, 0.05],
    student_b: [0.6, 0.05, 0.05, 0.3],
};

/// A confidently wrong teacher: most mass on "Sydney" while the right token is "Canberra".
/// Student A copies the teacher and wins on the soft loss; student B is right and wins on the
/// hard loss. Distillation copies behaviour, bad as well as good.
pub const WRONG_TEACHER_PRESET: Preset = Preset {
    id: "wrong-teacher",
    name: "Confidently wrong teacher",
    context: "The capital of Australia is",
    labels: ["Sydney", "Canberra", "Melbourne", "Perth"],
    teacher: [0.85, 0.10, 0.04, 0.01],
    hard_index: 1,
    student_a: [0.80, 0.12, 0.05, 0.03],
    student_b: [0.15, 0.75, 0.07, 0.03],
};

/// Every preset, in menu order.
pub const PRESETS: [Preset; 2] = [SEED_PRESET, WRONG_TEACHER_PRESET];

/// Scales non-negative weights into probabilities that sum to 1.
///
/// Needs 2..=10 finite, non-negative weights, not all zero (so `[70, 20, 7, 3]` works as well as
/// `[0.70, 0.20, 0.07, 0.03]`).
pub fn normalize(weights: &[f64]) -> Result<Vec<f64>, InputError> {
    const FIELD: Field = Field::Probabilities;
    if weights.len() < MIN_TOKENS || weights.len() > MAX_TOKENS {
        return Err(InputError::new(
            FIELD,
            format!("Give between {MIN_TOKENS} and {MAX_TOKENS} tokens."),
        ));
    }
    for (i, &w) in weights.iter().enumerate() {
        if !w.is_finite() {
            return Err(InputError::new(
                FIELD,
                format!("Token {} is not a finite number.", i + 1),
            ));
        }
        if w < 0.0 {
            return Err(InputError::new(
                FIELD,
                format!("Token {} is negative; probabilities cannot be.", i + 1),
            ));
        }
    }
    let max = weights.iter().fold(0.0f64, |m, &w| m.max(w));
    if max <= 0.0 {
        return Err(InputError::new(
            FIELD,
            "At least one token needs a weight above 0.",
        ));
    }
    // Dividing by the largest weight first keeps the sum finite even for weights near f64::MAX.
    let scaled: Vec<f64> = weights.iter().map(|&w| w / max).collect();
    let sum: f64 = scaled.iter().sum();
    Ok(scaled.iter().map(|&w| w / sum).collect())
}

#[cfg(test)]
/// Parses one typed weight per token and normalizes them into probabilities summing to 1.
///
/// The message of an error names the token (`Token 2: …`) under `field`.
pub fn parse_distribution(field: Field, texts: &[&str]) -> Result<Vec<f64>, InputError> {
    let mut weights = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let w = parse_number(field, text, 0.0, false, 1e9)
            .map_err(|e| InputError::new(field, format!("Token {}: {}", i + 1, e.message)))?;
        weights.push(w);
    }
    normalize(&weights).map_err(|e| InputError::new(field, e.message))
}

/// Parses a temperature T, as typed (dimensionless, `MIN_TEMPERATURE..=MAX_TEMPERATURE`).
pub fn parse_temperature(text: &str) -> Result<f64, InputError> {
    parse_number(
        Field::Temperature,
        text,
        MIN_TEMPERATURE,
        false,
        MAX_TEMPERATURE,
    )
}

/// Parses the mixing weight α of the hard-label loss, as typed (a fraction, 0..=1).
pub fn parse_alpha(text: &str) -> Result<f64, InputError> {
    parse_number(Field::Alpha, text, 0.0, false, 1.0)
}

/// Parses a learning rate, as typed (more than 0, at most `MAX_LEARNING_RATE`).
pub fn parse_learning_rate(text: &str) -> Result<f64, InputError> {
    parse_number(Field::LearningRate, text, 0.0, true, MAX_LEARNING_RATE)
}

/// Cross-entropy Σ −t·ln(s) of `student` against `target`, in nats (natural log).
///
/// A term with t = 0 adds 0 even when s = 0; a term with t > 0 and s = 0 makes the loss
/// `f64::INFINITY`, never NaN. Pairs entries up to the shorter slice.
pub fn cross_entropy(target: &[f64], student: &[f64]) -> f64 {
    terms(target, student).iter().map(|t| t.product).sum()
}

/// One term of a cross-entropy sum, for showing the sum term by term.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Term {
    /// The target probability t of this token.
    pub target: f64,
    /// −ln(s) of the student's probability s, in nats (∞ when s = 0).
    pub neg_ln_student: f64,
    /// t × −ln(s), in nats; 0 when t = 0.
    pub product: f64,
}

/// The terms of [`cross_entropy`], one per token (up to the shorter slice).
pub fn terms(target: &[f64], student: &[f64]) -> Vec<Term> {
    target
        .iter()
        .zip(student)
        .map(|(&t, &s)| {
            let neg_ln_student = if s > 0.0 { -s.ln() } else { f64::INFINITY };
            let product = if t == 0.0 { 0.0 } else { t * neg_ln_student };
            Term {
                target: t,
                neg_ln_student,
                product,
            }
        })
        .collect()
}

/// Index of the term that adds most to the loss (the first on a tie); `None` when empty.
pub fn largest_term(terms: &[Term]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, t) in terms.iter().enumerate() {
        if best.is_none_or(|(_, p)| t.product > p) {
            best = Some((i, t.product));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
/// The sum a reader can check, e.g.
/// `0.70 × 0.511 + 0.20 × 1.386 + 0.07 × 2.303 + 0.03 × 2.996 = 0.886` (nats).
///
/// Terms whose target is 0 are left out, since they add nothing.
pub fn worked_line(target: &[f64], student: &[f64]) -> String {
    let ts = terms(target, student);
    let parts: Vec<String> = ts
        .iter()
        .filter(|t| t.target != 0.0)
        .map(|t| {
            format!(
                "{} \u{d7} {}",
                target_text(t.target),
                format::fixed(t.neg_ln_student, 3)
            )
        })
        .collect();
    let lhs = if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join(" + ")
    };
    format!(
        "{lhs} = {}",
        format::fixed(cross_entropy(target, student), 3)
    )
}

/// A probability as the course prints it: two decimals (`0.70`), or up to three when two would
/// hide part of it.
fn target_text(t: f64) -> String {
    let two = (t * 100.0).round() / 100.0;
    if (t - two).abs() < 1e-9 {
        format::fixed(t, 2)
    } else {
        format::plain(t)
    }
}

/// Entropy Σ −p·ln(p) of a distribution, in nats (0·ln 0 counts as 0).
pub fn entropy(p: &[f64]) -> f64 {
    cross_entropy(p, p)
}

/// Kullback–Leibler divergence KL(p ‖ q) = Σ p·ln(p/q), in nats: cross-entropy minus entropy.
///
/// Computed term by term (not as a difference) so that it is exactly 0 when p = q. Terms with
/// p = 0 add 0; q = 0 < p gives `f64::INFINITY`. For distributions summing to 1 it is ≥ 0;
/// rounding below 0 is clamped to 0.
pub fn kl_divergence(p: &[f64], q: &[f64]) -> f64 {
    let kl: f64 = p
        .iter()
        .zip(q)
        .map(|(&pi, &qi)| {
            if pi == 0.0 {
                0.0
            } else if qi > 0.0 {
                pi * (pi / qi).ln()
            } else {
                f64::INFINITY
            }
        })
        .sum();
    kl.max(0.0)
}

/// The one-hot hard target: probability 1 on `index` of `n` tokens, 0 elsewhere.
///
/// An `index` of `n` or more gives all zeros (no target).
pub fn hard_target(n: usize, index: usize) -> Vec<f64> {
    (0..n).map(|i| if i == index { 1.0 } else { 0.0 }).collect()
}

/// Index of the most probable token (the first on a tie, NaN ignored); `None` when empty.
pub fn argmax(p: &[f64]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, &x) in p.iter().enumerate() {
        if x.is_nan() {
            continue;
        }
        if best.is_none_or(|(_, b)| x > b) {
            best = Some((i, x));
        }
    }
    best.map(|(i, _)| i)
}

/// A temperature the maths can always use: NaN becomes 1, and T is kept within 0.001..=1000.
fn usable_temperature(t: f64) -> f64 {
    if t.is_nan() {
        1.0
    } else {
        t.clamp(1e-3, 1e3)
    }
}

/// ln softmax(logits / T), in nats, computed stably (the largest logit is subtracted first).
///
/// NaN logits count as −∞ (so a token of probability 0, entered as ln 0 = −∞, keeps probability
/// 0 at every temperature). If some logits are +∞ they share all the mass; if every logit is −∞
/// (or NaN) the result is uniform.
pub fn log_softmax(logits: &[f64], temperature: f64) -> Vec<f64> {
    let t = usable_temperature(temperature);
    let z: Vec<f64> = logits
        .iter()
        .map(|&x| if x.is_nan() { f64::NEG_INFINITY } else { x / t })
        .collect();
    let max = z.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(x));
    if max.is_infinite() {
        let hot = |x: f64| max == f64::NEG_INFINITY || x == f64::INFINITY;
        let count = z.iter().filter(|&&x| hot(x)).count() as f64;
        return z
            .iter()
            .map(|&x| {
                if hot(x) {
                    -count.ln()
                } else {
                    f64::NEG_INFINITY
                }
            })
            .collect();
    }
    let sum: f64 = z.iter().map(|&x| (x - max).exp()).sum();
    // (x − max) − ln Σ keeps the precision that x − (max + ln Σ) would lose for large logits.
    let ln_sum = sum.ln();
    z.iter().map(|&x| (x - max) - ln_sum).collect()
}

/// softmax(logits / T): probabilities summing to 1, computed stably (largest logit subtracted).
///
/// T is the temperature: above 1 it flattens the distribution, below 1 it sharpens it. A NaN
/// temperature counts as 1, and T is kept within 0.001..=1000, so the result is always a
/// distribution (an empty slice gives an empty one).
pub fn softmax(logits: &[f64], temperature: f64) -> Vec<f64> {
    log_softmax(logits, temperature)
        .into_iter()
        .map(f64::exp)
        .collect()
}

/// Logits (nats) whose softmax at T = 1 gives back `p`: ln p, with 0 floored at `PROB_FLOOR`.
pub fn probs_to_logits(p: &[f64]) -> Vec<f64> {
    p.iter()
        .map(|&x| {
            if x > PROB_FLOOR {
                x.ln()
            } else {
                PROB_FLOOR.ln()
            }
        })
        .collect()
}

/// The teacher's distribution softened at temperature T: softmax(ln p / T).
pub fn soften(p: &[f64], temperature: f64) -> Vec<f64> {
    softmax(&probs_to_logits(p), temperature)
}

/// Cross-entropy of softmax(logits / T) against `target`, in nats, from logits so that it stays
/// finite however peaked the student is. Terms with target 0 add 0.
fn cross_entropy_logits(target: &[f64], logits: &[f64], temperature: f64) -> f64 {
    target
        .iter()
        .zip(log_softmax(logits, temperature))
        .map(|(&t, ls)| if t == 0.0 { 0.0 } else { -t * ls })
        .sum()
}

/// Hard-label loss −ln softmax(student_logits)[index], in nats (T = 1).
///
/// An `index` out of range means no target and gives 0, like [`hard_target`].
pub fn hard_loss(student_logits: &[f64], index: usize) -> f64 {
    cross_entropy_logits(
        &hard_target(student_logits.len(), index),
        student_logits,
        1.0,
    )
}

/// Soft-target loss T² × CE(softmax(teacher/T), softmax(student/T)), in nats.
///
/// Gradients of the softened loss shrink as 1/T², so the T² factor keeps the soft loss
/// comparable to the hard loss whatever the temperature (Hinton et al. 2015).
#[cfg(test)]
fn soft_loss_scaled(teacher_logits: &[f64], student_logits: &[f64], t: f64) -> f64 {
    let t = usable_temperature(t);
    let target = softmax(teacher_logits, t);
    t * t * cross_entropy_logits(&target, student_logits, t)
}

/// Distillation loss α·hard + (1 − α)·soft_scaled, in nats.
///
/// α weights the hard-label side: α = 1 is the hard label alone, α = 0 the teacher alone.
/// α is clamped to 0..=1.
pub fn mixed_loss(alpha: f64, hard: f64, soft_scaled: f64) -> f64 {
    let a = alpha.clamp(0.0, 1.0);
    if a == 0.0 {
        soft_scaled
    } else if a == 1.0 {
        hard
    } else {
        a * hard + (1.0 - a) * soft_scaled
    }
}

/// Gradient of T² × CE(p_T, softmax(z/T)) with respect to the student logits z (nats per logit
/// unit): T × (softmax(z/T) − p_T), where `teacher_probs_t` is p_T (summing to 1).
///
/// One entry per student logit; missing targets count as 0.
pub fn grad_soft_wrt_logits(teacher_probs_t: &[f64], student_logits: &[f64], t: f64) -> Vec<f64> {
    let t = usable_temperature(t);
    softmax(student_logits, t)
        .iter()
        .enumerate()
        .map(|(i, &q)| t * (q - teacher_probs_t.get(i).copied().unwrap_or(0.0)))
        .collect()
}

/// Gradient of the hard-label loss −ln softmax(z)[index] with respect to z (nats per logit
/// unit): softmax(z) − onehot(index).
pub fn grad_hard_wrt_logits(student_logits: &[f64], index: usize) -> Vec<f64> {
    softmax(student_logits, 1.0)
        .iter()
        .enumerate()
        .map(|(i, &q)| if i == index { q - 1.0 } else { q })
        .collect()
}

/// Gradient of α·hard + (1 − α)·T²·soft with respect to z (nats per logit unit); α (clamped to
/// 0..=1) weights the hard-label side, as in [`mixed_loss`].
pub fn grad_mixed_wrt_logits(
    alpha: f64,
    hard_index: usize,
    teacher_probs_t: &[f64],
    student_logits: &[f64],
    t: f64,
) -> Vec<f64> {
    let hard = grad_hard_wrt_logits(student_logits, hard_index);
    let soft = grad_soft_wrt_logits(teacher_probs_t, student_logits, t);
    hard.iter()
        .zip(&soft)
        .map(|(&h, &s)| mixed_loss(alpha, h, s))
        .collect()
}

/// How a reader types a distribution in the playground.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// Non-negative weights, normalized into probabilities.
    Weights,
    /// Logits (nats): any real numbers, turned into probabilities by softmax.
    Logits,
}

/// Largest logit, in absolute value, a reader may type (nats).
pub const MAX_LOGIT: f64 = 100.0;
/// Largest weight a reader may type (weights are relative, so the unit does not matter).
pub const MAX_WEIGHT: f64 = 1e9;

/// Parses one typed value of a distribution: a weight (0..=`MAX_WEIGHT`) or a logit
/// (−`MAX_LOGIT`..=`MAX_LOGIT`, nats).
pub fn parse_value(entry: Entry, text: &str) -> Result<f64, InputError> {
    match entry {
        Entry::Weights => parse_number(Field::Value, text, 0.0, false, MAX_WEIGHT),
        Entry::Logits => parse_number(Field::Value, text, -MAX_LOGIT, false, MAX_LOGIT),
    }
}

/// Log-probabilities (nats) of typed values: ln of the normalized weights (−∞ for a weight of
/// 0), or the logits as they are (softmax turns them into probabilities).
pub fn log_probs(entry: Entry, values: &[f64]) -> Result<Vec<f64>, InputError> {
    match entry {
        Entry::Weights => Ok(normalize(values)?
            .into_iter()
            .map(|p| if p > 0.0 { p.ln() } else { f64::NEG_INFINITY })
            .collect()),
        Entry::Logits => {
            if values.len() < MIN_TOKENS || values.len() > MAX_TOKENS {
                return Err(InputError::new(
                    Field::Logits,
                    format!("Give between {MIN_TOKENS} and {MAX_TOKENS} tokens."),
                ));
            }
            Ok(values.to_vec())
        }
    }
}

/// A value as the playground writes it back into a field when the entry mode changes: a
/// probability (up to 4 decimals, or 3 significant digits when tiny) or a logit (3 decimals).
/// Plain ASCII, so [`parse_value`] reads it back.
pub fn value_text(entry: Entry, x: f64) -> String {
    let trimmed = |s: String| {
        if s.contains('.') && !s.contains('e') {
            let t = super::format::trim_zeros(&s);
            if t == "-0" {
                "0".to_string()
            } else {
                t.to_string()
            }
        } else {
            s
        }
    };
    match entry {
        Entry::Weights if x > 0.0 && x < 1e-3 => format!("{x:.2e}"),
        Entry::Weights => trimmed(format!("{x:.4}")),
        Entry::Logits => trimmed(format!("{:.3}", x.clamp(-MAX_LOGIT, MAX_LOGIT))),
    }
}

/// The terms of a cross-entropy against a student given as log-probabilities (nats), so that
/// a very unlikely token keeps a finite −ln s while a probability of exactly 0 (ln s = −∞) gives
/// ∞. Terms with target 0 add 0.
pub fn terms_from_log_probs(target: &[f64], student_log_probs: &[f64]) -> Vec<Term> {
    target
        .iter()
        .zip(student_log_probs)
        .map(|(&t, &ls)| {
            let neg_ln_student = if ls.is_nan() { f64::INFINITY } else { -ls };
            let product = if t == 0.0 { 0.0 } else { t * neg_ln_student };
            Term {
                target: t,
                neg_ln_student,
                product,
            }
        })
        .collect()
}

/// One loss of the playground, as a sum a reader can check term by term.
#[derive(Debug, Clone, PartialEq)]
pub struct LossSum {
    /// One term per token: target × −ln(student).
    pub terms: Vec<Term>,
    /// The factor in front of the sum: T² for the soft loss, 1 otherwise.
    pub scale: f64,
    /// scale × Σ terms, in nats (∞ when a positive target meets a student probability of 0).
    pub value: f64,
    /// The token whose term adds most.
    pub largest: Option<usize>,
}

impl LossSum {
    fn new(target: &[f64], student_log_probs: &[f64], scale: f64) -> Self {
        let terms = terms_from_log_probs(target, student_log_probs);
        let sum: f64 = terms.iter().map(|t| t.product).sum();
        Self {
            largest: largest_term(&terms),
            value: if scale == 1.0 { sum } else { scale * sum },
            terms,
            scale,
        }
    }

    /// The sum before the scale, in nats.
    pub fn unscaled(&self) -> f64 {
        self.terms.iter().map(|t| t.product).sum()
    }

    /// Each term that adds something, as `(token index, "0.70 × 0.511")`.
    pub fn term_texts(&self) -> Vec<(usize, String)> {
        self.terms
            .iter()
            .enumerate()
            .filter(|(_, t)| t.target != 0.0)
            .map(|(i, t)| {
                (
                    i,
                    format!(
                        "{} \u{d7} {}",
                        target_text(t.target),
                        format::fixed(t.neg_ln_student, 3)
                    ),
                )
            })
            .collect()
    }

    /// The token of the first infinite term: the one a student gives 0 while the target does not.
    pub fn infinite_at(&self) -> Option<usize> {
        self.terms.iter().position(|t| t.product == f64::INFINITY)
    }

    #[cfg(test)]
    /// The whole sum as one line, e.g. `0.70 × 0.511 + … = 0.886`, or with a temperature
    /// `4 × (0.52 × 0.6 + …) = 4 × 0.93 = 3.72`.
    pub fn worked(&self) -> String {
        let parts: Vec<String> = self.term_texts().into_iter().map(|(_, s)| s).collect();
        let sum = if parts.is_empty() {
            "0".to_string()
        } else {
            parts.join(" + ")
        };
        if self.scale == 1.0 {
            format!("{sum} = {}", format::fixed(self.value, 3))
        } else {
            format!(
                "{} \u{d7} ({sum}) = {} \u{d7} {} = {}",
                format::plain(self.scale),
                format::plain(self.scale),
                format::fixed(self.unscaled(), 3),
                format::fixed(self.value, 3)
            )
        }
    }
}

/// A distribution over the tokens as it is (at T = 1) and softened at the chosen T.
#[derive(Debug, Clone, PartialEq)]
pub struct Softened {
    /// At T = 1.
    pub at_1: Vec<f64>,
    /// At the chosen T (for the teacher: the soft target).
    pub at_t: Vec<f64>,
}

/// What the playground shows for one student.
#[derive(Debug, Clone, PartialEq)]
pub struct StudentLosses {
    /// The student's distribution.
    pub probs: Softened,
    /// Hard-label loss: −ln(student at T = 1) of the right token, in nats.
    pub hard: LossSum,
    /// Soft-target loss: T² × CE(teacher at T, student at T), in nats.
    pub soft: LossSum,
    /// KL(teacher at T ‖ student at T) = CE − teacher entropy, in nats (≥ 0, ∞ possible).
    pub kl: f64,
    /// α × hard + (1 − α) × soft, in nats.
    pub mixed: f64,
}

/// Everything the playground shows: the teacher, both students, and their losses.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The teacher's distribution; softened, it is the soft target.
    pub teacher: Softened,
    /// Entropy of the soft target, in nats: the floor of the unscaled soft loss.
    pub entropy: f64,
    /// The right token of the hard label.
    pub hard_index: usize,
    /// The temperature T (dimensionless).
    pub temperature: f64,
    /// The weight α of the hard-label loss (0..=1).
    pub alpha: f64,
    /// Student A, then student B.
    pub students: [StudentLosses; 2],
}

/// Compares two students with a teacher, all given as log-probabilities or logits of the same
/// tokens (see [`log_probs`]).
///
/// The hard label is `hard_index`, or the teacher's top token when it is `None` or out of
/// range. `temperature` softens teacher and students for the soft loss, which is scaled by T²;
/// the hard loss is always at T = 1. `alpha` (clamped to 0..=1) weights the hard loss in the mix.
pub fn compare(
    teacher: &[f64],
    students: [&[f64]; 2],
    hard_index: Option<usize>,
    temperature: f64,
    alpha: f64,
) -> Comparison {
    let t = usable_temperature(temperature);
    let teacher_probs = softmax(teacher, 1.0);
    let teacher_log_t = log_softmax(teacher, t);
    let teacher_t: Vec<f64> = teacher_log_t.iter().map(|x| x.exp()).collect();
    let entropy = terms_from_log_probs(&teacher_t, &teacher_log_t)
        .iter()
        .map(|x| x.product)
        .sum::<f64>()
        .max(0.0);
    let hard_index = hard_index
        .filter(|&i| i < teacher.len())
        .or_else(|| argmax(&teacher_probs))
        .unwrap_or(0);
    let hard = hard_target(teacher.len(), hard_index);
    let alpha = if alpha.is_nan() {
        0.0
    } else {
        alpha.clamp(0.0, 1.0)
    };
    let student = |z: &[f64]| {
        let log1 = log_softmax(z, 1.0);
        let log_t = log_softmax(z, t);
        let hard = LossSum::new(&hard, &log1, 1.0);
        let soft = LossSum::new(&teacher_t, &log_t, t * t);
        let kl: f64 = teacher_t
            .iter()
            .zip(&teacher_log_t)
            .zip(&log_t)
            .map(|((&p, &lp), &lq)| {
                if p == 0.0 {
                    0.0
                } else if lq == f64::NEG_INFINITY {
                    f64::INFINITY
                } else {
                    p * (lp - lq)
                }
            })
            .sum();
        StudentLosses {
            probs: Softened {
                at_1: log1.iter().map(|x| x.exp()).collect(),
                at_t: log_t.iter().map(|x| x.exp()).collect(),
            },
            mixed: mixed_loss(alpha, hard.value, soft.value),
            hard,
            soft,
            kl: kl.max(0.0),
        }
    };
    Comparison {
        students: [student(students[0]), student(students[1])],
        teacher: Softened {
            at_1: teacher_probs,
            at_t: teacher_t,
        },
        entropy,
        hard_index,
        temperature: t,
        alpha,
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fuzz_tests;
