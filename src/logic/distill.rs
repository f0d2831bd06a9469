//! Distillation loss: how far a student's next-token distribution is from a target, in nats.
//!
//! The loss is the cross-entropy Σ −target × ln(student) with the natural log. A hard target is
//! one-hot on the right token; a soft target is the teacher's whole distribution. Following
//! Hinton et al. (2015), a temperature T softens both distributions, the soft loss is scaled by T²
//! so its gradients keep their size, and α mixes the hard and soft losses. A small deterministic
//! trainer runs gradient descent on a student's logits so a widget can show the student learning;
//! [`training`] is the playground's run of it, a few steps per animation frame.

pub mod inputs;
pub mod training;

use super::rng::SplitMix64;
use super::{format, parse_number, InputError};

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
    const FIELD: &str = "Probabilities";
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
pub fn parse_distribution(field: &'static str, texts: &[&str]) -> Result<Vec<f64>, InputError> {
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
    parse_number("Temperature", text, MIN_TEMPERATURE, false, MAX_TEMPERATURE)
}

/// Parses the mixing weight α of the hard-label loss, as typed (a fraction, 0..=1).
pub fn parse_alpha(text: &str) -> Result<f64, InputError> {
    parse_number("\u{3b1}", text, 0.0, false, 1.0)
}

/// Parses a learning rate, as typed (more than 0, at most `MAX_LEARNING_RATE`).
pub fn parse_learning_rate(text: &str) -> Result<f64, InputError> {
    parse_number("Learning rate", text, 0.0, true, MAX_LEARNING_RATE)
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

/// Which loss the trainer descends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LossKind {
    /// The hard label alone: −ln softmax(z)[right token], at T = 1.
    Hard,
    /// The teacher alone: T² × CE(p_T, softmax(z/T)).
    Soft,
    /// α × hard + (1 − α) × soft; the value is α, the weight of the hard label (0..=1).
    Mix(f64),
}

/// Where the student's logits start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StudentInit {
    /// All logits 0: every token equally likely.
    Uniform,
    /// Logits drawn uniformly from −`INIT_SPREAD`..`INIT_SPREAD` by [`SplitMix64`] with this seed.
    Seeded(u64),
}

/// The knobs of a training run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainConfig {
    /// Which loss to descend.
    pub loss: LossKind,
    /// Step size: logits move by −learning_rate × gradient each step.
    pub learning_rate: f64,
    /// Temperature T of the soft loss (dimensionless; ignored by [`LossKind::Hard`]).
    pub temperature: f64,
}

/// The student after some number of gradient steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Gradient steps taken so far (0 is the starting student).
    pub step: usize,
    /// The chosen loss of the student at this step, in nats.
    pub loss: f64,
    /// The student's distribution at T = 1 (probabilities summing to 1).
    pub probs: Vec<f64>,
}

/// Deterministic gradient descent on a student's logits, one step at a time, so a widget can run
/// a few steps per animation frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Trainer {
    teacher: Vec<f64>,
    teacher_t: Vec<f64>,
    hard_index: usize,
    config: TrainConfig,
    logits: Vec<f64>,
    steps_done: usize,
}

/// Checks a training configuration, with a message a learner can read.
fn check_config(config: &TrainConfig) -> Result<(), InputError> {
    let lr = config.learning_rate;
    if !(lr.is_finite() && lr > 0.0 && lr <= MAX_LEARNING_RATE) {
        return Err(InputError::new(
            "Learning rate",
            format!(
                "Must be more than 0 and at most {}.",
                format::plain(MAX_LEARNING_RATE)
            ),
        ));
    }
    let t = config.temperature;
    if !(MIN_TEMPERATURE..=MAX_TEMPERATURE).contains(&t) {
        return Err(InputError::new(
            "Temperature",
            format!(
                "Must be between {} and {}.",
                format::plain(MIN_TEMPERATURE),
                format::plain(MAX_TEMPERATURE)
            ),
        ));
    }
    if let LossKind::Mix(alpha) = config.loss {
        if !(0.0..=1.0).contains(&alpha) {
            return Err(InputError::new("\u{3b1}", "Must be between 0 and 1."));
        }
    }
    Ok(())
}

impl Trainer {
    /// A fresh student for `teacher` (weights, normalized here) whose right token is
    /// `hard_index`, starting from `init`.
    pub fn new(
        teacher: &[f64],
        hard_index: usize,
        init: StudentInit,
        config: TrainConfig,
    ) -> Result<Self, InputError> {
        let teacher = normalize(teacher).map_err(|e| InputError::new("Teacher", e.message))?;
        if hard_index >= teacher.len() {
            return Err(InputError::new(
                "Right token",
                format!("Pick one of the {} tokens.", teacher.len()),
            ));
        }
        check_config(&config)?;
        let logits = match init {
            StudentInit::Uniform => vec![0.0; teacher.len()],
            StudentInit::Seeded(seed) => {
                let mut rng = SplitMix64::new(seed);
                (0..teacher.len())
                    .map(|_| (rng.next_f64() * 2.0 - 1.0) * INIT_SPREAD)
                    .collect()
            }
        };
        Ok(Self {
            teacher_t: soften(&teacher, config.temperature),
            teacher,
            hard_index,
            config,
            logits,
            steps_done: 0,
        })
    }

    #[cfg(test)]
    /// Changes the loss, learning rate or temperature mid-run; the student keeps its logits.
    pub fn set_config(&mut self, config: TrainConfig) -> Result<(), InputError> {
        check_config(&config)?;
        self.teacher_t = soften(&self.teacher, config.temperature);
        self.config = config;
        Ok(())
    }

    /// The configuration in use.
    pub fn config(&self) -> TrainConfig {
        self.config
    }

    /// The teacher's distribution at T = 1 (probabilities summing to 1).
    pub fn teacher(&self) -> &[f64] {
        &self.teacher
    }

    /// The teacher softened at the configured temperature, p_T (probabilities summing to 1).
    pub fn soft_targets(&self) -> &[f64] {
        &self.teacher_t
    }

    #[cfg(test)]
    /// The student's logits (nats).
    pub fn logits(&self) -> &[f64] {
        &self.logits
    }

    /// The student's distribution at T = 1 (probabilities summing to 1).
    pub fn probs(&self) -> Vec<f64> {
        softmax(&self.logits, 1.0)
    }

    #[cfg(test)]
    /// Gradient steps taken so far.
    pub fn steps_done(&self) -> usize {
        self.steps_done
    }

    /// The chosen loss of the current student, in nats.
    pub fn loss(&self) -> f64 {
        let t = self.config.temperature;
        let hard = || hard_loss(&self.logits, self.hard_index);
        let soft = || t * t * cross_entropy_logits(&self.teacher_t, &self.logits, t);
        match self.config.loss {
            LossKind::Hard => hard(),
            LossKind::Soft => soft(),
            LossKind::Mix(alpha) => mixed_loss(alpha, hard(), soft()),
        }
    }

    /// The current student as a [`Step`].
    pub fn current(&self) -> Step {
        Step {
            step: self.steps_done,
            loss: self.loss(),
            probs: self.probs(),
        }
    }

    /// Takes one gradient step and returns the student after it.
    pub fn step(&mut self) -> Step {
        let t = self.config.temperature;
        let grad = match self.config.loss {
            LossKind::Hard => grad_hard_wrt_logits(&self.logits, self.hard_index),
            LossKind::Soft => grad_soft_wrt_logits(&self.teacher_t, &self.logits, t),
            LossKind::Mix(alpha) => {
                grad_mixed_wrt_logits(alpha, self.hard_index, &self.teacher_t, &self.logits, t)
            }
        };
        for (z, g) in self.logits.iter_mut().zip(grad) {
            *z -= self.config.learning_rate * g;
        }
        // Softmax ignores a common shift; removing the mean keeps the logits small for ever.
        let mean = self.logits.iter().sum::<f64>() / self.logits.len() as f64;
        for z in &mut self.logits {
            *z -= mean;
        }
        self.steps_done += 1;
        self.current()
    }

    /// Takes `n` gradient steps and returns the student after each.
    pub fn run(&mut self, n: usize) -> Vec<Step> {
        (0..n).map(|_| self.step()).collect()
    }
}

#[cfg(test)]
/// Trains a fresh student for `steps` gradient steps (at most `MAX_STEPS`) and returns every
/// state, from step 0 (the starting student) to `steps`: `steps + 1` entries.
pub fn train(
    teacher: &[f64],
    hard_index: usize,
    init: StudentInit,
    config: TrainConfig,
    steps: usize,
) -> Result<Vec<Step>, InputError> {
    if steps > MAX_STEPS {
        return Err(InputError::new(
            "Steps",
            format!("Must be at most {}.", format::plain(MAX_STEPS as f64)),
        ));
    }
    let mut trainer = Trainer::new(teacher, hard_index, init, config)?;
    let mut out = Vec::with_capacity(steps + 1);
    out.push(trainer.current());
    out.extend(trainer.run(steps));
    Ok(out)
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
pub fn parse_value(field: &'static str, entry: Entry, text: &str) -> Result<f64, InputError> {
    match entry {
        Entry::Weights => parse_number(field, text, 0.0, false, MAX_WEIGHT),
        Entry::Logits => parse_number(field, text, -MAX_LOGIT, false, MAX_LOGIT),
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
                    "Logits",
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

/// What the playground shows for one student.
#[derive(Debug, Clone, PartialEq)]
pub struct StudentLosses {
    /// The student's distribution at T = 1.
    pub probs: Vec<f64>,
    /// The student's distribution softened at the chosen T.
    pub probs_t: Vec<f64>,
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
    /// The teacher's distribution at T = 1.
    pub teacher: Vec<f64>,
    /// The teacher softened at the chosen T: the soft target.
    pub teacher_t: Vec<f64>,
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
            probs: log1.iter().map(|x| x.exp()).collect(),
            probs_t: log_t.iter().map(|x| x.exp()).collect(),
            mixed: mixed_loss(alpha, hard.value, soft.value),
            hard,
            soft,
            kl: kl.max(0.0),
        }
    };
    Comparison {
        students: [student(students[0]), student(students[1])],
        teacher: teacher_probs,
        teacher_t,
        entropy,
        hard_index,
        temperature: t,
        alpha,
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::fixed;
    use super::*;
    use proptest::strategy::Strategy;

    const TEACHER: [f64; 4] = SEED_PRESET.teacher;
    const A: [f64; 4] = SEED_PRESET.student_a;
    const B: [f64; 4] = SEED_PRESET.student_b;

    /// Central finite difference of `f` at `z` along each logit.
    fn numeric_grad(f: impl Fn(&[f64]) -> f64, z: &[f64]) -> Vec<f64> {
        let h = 1e-5;
        (0..z.len())
            .map(|i| {
                let mut up = z.to_vec();
                let mut down = z.to_vec();
                up[i] += h;
                down[i] -= h;
                (f(&up) - f(&down)) / (2.0 * h)
            })
            .collect()
    }

    fn assert_close(a: &[f64], b: &[f64], tol: f64) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < tol, "{a:?} vs {b:?}");
        }
    }

    /// The golden figures of the course plan.
    #[test]
    fn reproduces_the_course_figures() {
        let hard = hard_target(4, 0);
        assert_eq!(hard, [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(fixed(cross_entropy(&hard, &A), 3), "0.511");
        assert_eq!(fixed(cross_entropy(&hard, &B), 3), "0.511");
        assert_eq!(fixed(cross_entropy(&TEACHER, &A), 3), "0.886");
        assert_eq!(fixed(cross_entropy(&TEACHER, &B), 3), "1.203");
        assert_eq!(fixed(entropy(&TEACHER), 3), "0.863");
        assert_eq!(
            worked_line(&TEACHER, &A),
            "0.70 \u{d7} 0.511 + 0.20 \u{d7} 1.386 + 0.07 \u{d7} 2.303 + 0.03 \u{d7} 2.996 = 0.886"
        );
        assert_eq!(
            worked_line(&TEACHER, &B),
            "0.70 \u{d7} 0.511 + 0.20 \u{d7} 2.996 + 0.07 \u{d7} 2.996 + 0.03 \u{d7} 1.204 = 1.203"
        );
        assert_eq!(worked_line(&hard, &A), "1.00 \u{d7} 0.511 = 0.511");
        // KL = CE − H makes the gap between the students visible.
        let kl_a = kl_divergence(&TEACHER, &A);
        let kl_b = kl_divergence(&TEACHER, &B);
        assert!((kl_a - (cross_entropy(&TEACHER, &A) - entropy(&TEACHER))).abs() < 1e-12);
        assert_eq!(fixed(kl_a, 3), "0.023");
        assert_eq!(fixed(kl_b, 3), "0.340");
    }

    #[test]
    fn terms_show_the_sum_and_its_largest_part() {
        let ts = terms(&TEACHER, &B);
        let shown: Vec<String> = ts.iter().map(|t| fixed(t.neg_ln_student, 3)).collect();
        assert_eq!(shown, ["0.511", "2.996", "2.996", "1.204"]);
        assert_eq!(largest_term(&ts), Some(1));
        assert_eq!(largest_term(&terms(&TEACHER, &A)), Some(0));
        assert_eq!(largest_term(&[]), None);
    }

    #[test]
    fn zeros_give_zero_or_infinity_never_nan() {
        assert_eq!(cross_entropy(&[0.0, 1.0], &[0.0, 1.0]), 0.0);
        assert_eq!(cross_entropy(&[0.5, 0.5], &[0.0, 1.0]), f64::INFINITY);
        assert_eq!(kl_divergence(&[0.5, 0.5], &[1.0, 0.0]), f64::INFINITY);
        assert_eq!(kl_divergence(&[0.0, 1.0], &[0.5, 0.5]), 2f64.ln());
        assert_eq!(kl_divergence(&TEACHER, &TEACHER), 0.0);
        assert_eq!(entropy(&[1.0, 0.0]), 0.0);
        assert_eq!(hard_target(3, 7), [0.0, 0.0, 0.0]);
        assert_eq!(hard_loss(&[0.0, 0.0], 5), 0.0);
        assert_eq!(argmax(&[0.1, f64::NAN, 0.5, 0.5]), Some(2));
        assert_eq!(argmax(&[]), None);
    }

    #[test]
    fn normalize_checks_its_input() {
        let p = normalize(&[70.0, 20.0, 7.0, 3.0]).unwrap();
        assert_close(&p, &TEACHER, 1e-15);
        let msg = |w: &[f64]| normalize(w).unwrap_err().message;
        assert_eq!(msg(&[1.0]), "Give between 2 and 10 tokens.");
        assert_eq!(msg(&[1.0; 11]), "Give between 2 and 10 tokens.");
        assert_eq!(
            msg(&[1.0, -1.0]),
            "Token 2 is negative; probabilities cannot be."
        );
        assert_eq!(msg(&[f64::NAN, 1.0]), "Token 1 is not a finite number.");
        assert_eq!(
            msg(&[0.0, 0.0]),
            "At least one token needs a weight above 0."
        );
        let big = normalize(&[f64::MAX, f64::MAX]).unwrap();
        assert_eq!(big, [0.5, 0.5]);
        let parsed = parse_distribution("Teacher", &["0.70", "0.20", "0.07", "0.03"]).unwrap();
        assert_close(&parsed, &TEACHER, 1e-12);
        let err = parse_distribution("Teacher", &["0.7", "x"]).unwrap_err();
        assert_eq!(err.field, "Teacher");
        assert_eq!(err.message, "Token 2: \u{201c}x\u{201d} is not a number.");
        assert!(parse_temperature("0").is_err());
        assert_eq!(parse_temperature("4"), Ok(4.0));
        assert!(parse_alpha("1.5").is_err());
        assert!(parse_learning_rate("0").is_err());
    }

    #[test]
    fn presets_are_distributions_that_tell_the_story() {
        for p in PRESETS {
            for d in [p.teacher, p.student_a, p.student_b] {
                assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{}", p.id);
            }
            assert!(p.hard_index < 4);
        }
        let w = WRONG_TEACHER_PRESET;
        let hard = hard_target(4, w.hard_index);
        assert_ne!(argmax(&w.teacher), Some(w.hard_index));
        // The copying student wins on the teacher's loss, the right one on the hard label.
        assert!(cross_entropy(&w.teacher, &w.student_a) < cross_entropy(&w.teacher, &w.student_b));
        assert!(cross_entropy(&hard, &w.student_b) < cross_entropy(&hard, &w.student_a));
    }

    #[test]
    fn softmax_is_stable_and_tempered() {
        let p = softmax(&[1000.0, 1000.0], 1.0);
        assert_eq!(p, [0.5, 0.5]);
        let p = softmax(&[f64::INFINITY, 0.0, f64::INFINITY], 1.0);
        assert_eq!(p, [0.5, 0.0, 0.5]);
        assert_eq!(softmax(&[f64::NEG_INFINITY; 2], 1.0), [0.5, 0.5]);
        assert_eq!(softmax(&[f64::NAN, 0.0], 1.0), [0.0, 1.0]);
        assert!(softmax(&[], 1.0).is_empty());
        assert_close(&softmax(&probs_to_logits(&TEACHER), 1.0), &TEACHER, 1e-12);
        // A higher temperature flattens: the entropy rises.
        let z = probs_to_logits(&TEACHER);
        assert!(entropy(&softmax(&z, 4.0)) > entropy(&softmax(&z, 1.0)));
        assert!(entropy(&softmax(&z, 0.5)) < entropy(&softmax(&z, 1.0)));
        assert!(softmax(&z, f64::NAN).iter().all(|x| x.is_finite()));
        assert!(softmax(&z, -1.0).iter().all(|x| x.is_finite()));
        assert!(probs_to_logits(&[0.0, 1.0])[0].is_finite());
    }

    #[test]
    fn soft_loss_is_t_squared_times_softened_cross_entropy() {
        let tz = probs_to_logits(&TEACHER);
        let sz = probs_to_logits(&A);
        for t in [0.5, 1.0, 2.0, 4.0, 10.0] {
            let ce = cross_entropy(&softmax(&tz, t), &softmax(&sz, t));
            assert!(
                (soft_loss_scaled(&tz, &sz, t) - t * t * ce).abs() < 1e-10,
                "T = {t}"
            );
        }
        assert_eq!(
            fixed(soft_loss_scaled(&tz, &sz, 1.0), 3),
            fixed(cross_entropy(&TEACHER, &A), 3)
        );
        assert_eq!(mixed_loss(1.0, 2.0, 3.0), 2.0);
        assert_eq!(mixed_loss(0.0, 2.0, 3.0), 3.0);
        assert_eq!(mixed_loss(0.25, 2.0, 3.0), 2.75);
        assert_eq!(mixed_loss(7.0, 2.0, 3.0), 2.0);
    }

    #[test]
    fn analytic_gradients_match_finite_differences() {
        let z = [0.3, -1.2, 2.0, 0.5];
        let tz = probs_to_logits(&TEACHER);
        for t in [0.5, 1.0, 2.5, 6.0] {
            let pt = softmax(&tz, t);
            let soft = |z: &[f64]| soft_loss_scaled(&tz, z, t);
            assert_close(
                &grad_soft_wrt_logits(&pt, &z, t),
                &numeric_grad(soft, &z),
                1e-6,
            );
            for index in 0..4 {
                let hard = |z: &[f64]| hard_loss(z, index);
                assert_close(
                    &grad_hard_wrt_logits(&z, index),
                    &numeric_grad(hard, &z),
                    1e-6,
                );
                for alpha in [0.0, 0.3, 1.0] {
                    let mixed = |z: &[f64]| mixed_loss(alpha, hard_loss(z, index), soft(z));
                    assert_close(
                        &grad_mixed_wrt_logits(alpha, index, &pt, &z, t),
                        &numeric_grad(mixed, &z),
                        1e-6,
                    );
                }
            }
        }
    }

    #[test]
    fn trainer_is_deterministic_and_incremental() {
        let config = TrainConfig {
            loss: LossKind::Mix(0.5),
            learning_rate: 0.5,
            temperature: 2.0,
        };
        let run = train(&TEACHER, 0, StudentInit::Seeded(7), config, 20).unwrap();
        assert_eq!(run.len(), 21);
        assert_eq!(run[0].step, 0);
        assert_eq!(run[20].step, 20);
        assert_eq!(
            run,
            train(&TEACHER, 0, StudentInit::Seeded(7), config, 20).unwrap()
        );
        let mut trainer = Trainer::new(&TEACHER, 0, StudentInit::Seeded(7), config).unwrap();
        assert_eq!(trainer.current(), run[0]);
        let mut steps = trainer.run(5);
        steps.extend(trainer.run(15));
        assert_eq!(steps, run[1..]);
        assert!(run[20].loss < run[0].loss);
        assert_ne!(
            train(&TEACHER, 0, StudentInit::Seeded(8), config, 0).unwrap(),
            run[..1]
        );
        let uniform = Trainer::new(&TEACHER, 0, StudentInit::Uniform, config).unwrap();
        assert_eq!(uniform.probs(), [0.25; 4]);
        assert!(trainer
            .set_config(TrainConfig {
                temperature: 1.0,
                ..config
            })
            .is_ok());
        assert_close(trainer.soft_targets(), &TEACHER, 1e-12);
    }

    #[test]
    fn trainer_rejects_what_makes_no_sense() {
        let ok = TrainConfig {
            loss: LossKind::Soft,
            learning_rate: 1.0,
            temperature: 1.0,
        };
        let field = |teacher: &[f64], index: usize, config: TrainConfig| {
            Trainer::new(teacher, index, StudentInit::Uniform, config)
                .unwrap_err()
                .field
        };
        assert_eq!(field(&[1.0], 0, ok), "Teacher");
        assert_eq!(field(&TEACHER, 4, ok), "Right token");
        let bad_lr = TrainConfig {
            learning_rate: f64::NAN,
            ..ok
        };
        assert_eq!(field(&TEACHER, 0, bad_lr), "Learning rate");
        let bad_t = TrainConfig {
            temperature: 0.0,
            ..ok
        };
        assert_eq!(field(&TEACHER, 0, bad_t), "Temperature");
        let bad_alpha = TrainConfig {
            loss: LossKind::Mix(f64::NAN),
            ..ok
        };
        assert_eq!(field(&TEACHER, 0, bad_alpha), "\u{3b1}");
        let err = train(&TEACHER, 0, StudentInit::Uniform, ok, MAX_STEPS + 1).unwrap_err();
        assert_eq!(err.field, "Steps");
    }

    #[test]
    fn the_student_copies_a_wrong_teacher_under_the_soft_loss() {
        let w = WRONG_TEACHER_PRESET;
        let config = |loss| TrainConfig {
            loss,
            learning_rate: 1.0,
            temperature: 2.0,
        };
        let soft = train(
            &w.teacher,
            w.hard_index,
            StudentInit::Uniform,
            config(LossKind::Soft),
            300,
        )
        .unwrap();
        let hard = train(
            &w.teacher,
            w.hard_index,
            StudentInit::Uniform,
            config(LossKind::Hard),
            300,
        )
        .unwrap();
        assert_eq!(argmax(&soft[300].probs), argmax(&w.teacher));
        assert_eq!(argmax(&hard[300].probs), Some(w.hard_index));
    }

    fn log_weights(w: &[f64]) -> Vec<f64> {
        log_probs(Entry::Weights, w).unwrap()
    }

    #[test]
    fn the_playground_reproduces_the_course_figures() {
        let c = compare(
            &log_weights(&TEACHER),
            [&log_weights(&A), &log_weights(&B)],
            None,
            1.0,
            0.5,
        );
        assert_eq!(c.hard_index, 0);
        let [a, b] = &c.students;
        let shown = |x: f64| fixed(x, 3);
        assert_eq!(shown(a.hard.value), "0.511");
        assert_eq!(shown(b.hard.value), "0.511");
        assert_eq!(shown(a.soft.value), "0.886");
        assert_eq!(shown(b.soft.value), "1.203");
        assert_eq!(shown(c.entropy), "0.863");
        assert_eq!(shown(a.kl), "0.023");
        assert_eq!(shown(b.kl), "0.340");
        assert_eq!(a.soft.worked(), worked_line(&TEACHER, &A));
        assert_eq!(b.soft.worked(), worked_line(&TEACHER, &B));
        assert_eq!(a.hard.worked(), "1.00 \u{d7} 0.511 = 0.511");
        assert_eq!((a.soft.largest, b.soft.largest), (Some(0), Some(1)));
        assert!((a.mixed - 0.5 * (a.hard.value + a.soft.value)).abs() < 1e-12);
        // Weights need not sum to 1, and logits give the same result as their probabilities.
        let scaled = compare(
            &log_weights(&[70.0, 20.0, 7.0, 3.0]),
            [&log_weights(&A), &log_weights(&B)],
            None,
            1.0,
            0.5,
        );
        assert_eq!(shown(scaled.students[0].soft.value), "0.886");
        let logits = |p: &[f64]| -> Vec<f64> { p.iter().map(|x| x.ln() + 3.0).collect() };
        let from_logits = compare(
            &log_probs(Entry::Logits, &logits(&TEACHER)).unwrap(),
            [&logits(&A), &logits(&B)],
            None,
            1.0,
            0.5,
        );
        assert_eq!(shown(from_logits.students[1].soft.value), "1.203");
        assert_eq!(shown(from_logits.entropy), "0.863");
        // A chosen hard label overrides the teacher's top token.
        let picked = compare(
            &log_weights(&TEACHER),
            [&log_weights(&A), &log_weights(&B)],
            Some(3),
            1.0,
            0.5,
        );
        assert_eq!(shown(picked.students[1].hard.value), "1.204");
        assert_eq!(picked.students[1].hard.largest, Some(3));
    }

    #[test]
    fn the_playground_scales_the_soft_loss_by_t_squared() {
        let c = compare(
            &log_weights(&TEACHER),
            [&log_weights(&A), &log_weights(&B)],
            None,
            2.0,
            1.0,
        );
        let a = &c.students[0];
        let ce = cross_entropy(&soften(&TEACHER, 2.0), &soften(&A, 2.0));
        assert!((a.soft.value - 4.0 * ce).abs() < 1e-12);
        assert!((a.soft.unscaled() - ce).abs() < 1e-12);
        assert_close(&c.teacher_t, &soften(&TEACHER, 2.0), 1e-12);
        assert!((c.entropy - entropy(&c.teacher_t)).abs() < 1e-12);
        assert!((a.kl - (ce - c.entropy)).abs() < 1e-12);
        // The hard loss does not feel T; α = 1 is the hard loss alone.
        assert_eq!(fixed(a.hard.value, 3), "0.511");
        assert_eq!(a.mixed, a.hard.value);
        assert!(
            a.soft.worked().starts_with("4 \u{d7} (0."),
            "{}",
            a.soft.worked()
        );
        assert!(a.soft.worked().ends_with(&fixed(a.soft.value, 3)));
        // Softening lifts the small probabilities.
        assert!(c.teacher_t[3] > TEACHER[3]);
    }

    #[test]
    fn a_zero_under_a_positive_target_is_infinite_never_nan() {
        let zero_b = [0.6, 0.4, 0.0, 0.0];
        for t in [0.5, 1.0, 3.0] {
            for alpha in [0.0, 0.5, 1.0] {
                let c = compare(
                    &log_weights(&TEACHER),
                    [&log_weights(&A), &log_weights(&zero_b)],
                    None,
                    t,
                    alpha,
                );
                let b = &c.students[1];
                assert_eq!(b.soft.value, f64::INFINITY);
                assert_eq!(b.soft.infinite_at(), Some(2));
                assert_eq!(b.soft.largest, Some(2));
                assert_eq!(b.kl, f64::INFINITY);
                assert!(b.hard.value.is_finite());
                assert!(!b.mixed.is_nan());
                assert_eq!(b.mixed.is_finite(), alpha == 1.0);
                assert!(b.soft.worked().contains('\u{221e}'));
                assert_eq!(b.probs_t[2], 0.0);
            }
        }
        // A zero where the target is zero adds nothing.
        let c = compare(
            &log_weights(&[1.0, 0.0]),
            [&log_weights(&[1.0, 0.0]), &log_weights(&[0.5, 0.5])],
            None,
            2.0,
            0.5,
        );
        assert_eq!(c.students[0].soft.value, 0.0);
        assert_eq!(c.students[0].kl, 0.0);
        assert_eq!(c.entropy, 0.0);
        // Very unlikely logits stay finite.
        let c = compare(&[0.0, 0.0], [&[100.0, -100.0], &[0.0, 0.0]], None, 0.1, 0.0);
        assert!(c.students[0].soft.value.is_finite());
    }

    #[test]
    fn values_are_parsed_and_written_back() {
        assert_eq!(parse_value("Teacher", Entry::Weights, "70"), Ok(70.0));
        assert!(parse_value("Teacher", Entry::Weights, "-1").is_err());
        assert_eq!(parse_value("Teacher", Entry::Logits, "-1.5"), Ok(-1.5));
        assert!(parse_value("Teacher", Entry::Logits, "1e309").is_err());
        assert!(parse_value("Teacher", Entry::Logits, "500").is_err());
        assert!(log_probs(Entry::Logits, &[1.0]).is_err());
        assert!(log_probs(Entry::Weights, &[0.0, 0.0]).is_err());
        assert_eq!(value_text(Entry::Weights, 0.7), "0.7");
        assert_eq!(value_text(Entry::Weights, 0.0), "0");
        assert_eq!(value_text(Entry::Weights, 1.2345e-5), "1.23e-5");
        assert_eq!(value_text(Entry::Logits, 0.7f64.ln()), "-0.357");
        assert_eq!(value_text(Entry::Logits, -0.0001), "0");
        assert_eq!(value_text(Entry::Logits, -1e6), "-100");
        for x in [0.7, 0.0, 1.2345e-5, 3.25] {
            let text = value_text(Entry::Weights, x);
            assert!(parse_value("T", Entry::Weights, &text).is_ok(), "{text}");
        }
    }

    /// A distribution of 2..=10 tokens, some of them 0.
    fn distribution() -> impl Strategy<Value = Vec<f64>> {
        proptest::collection::vec(
            proptest::prop_oneof![1 => proptest::strategy::Just(0.0), 4 => 0.001f64..1.0],
            MIN_TOKENS..=MAX_TOKENS,
        )
        .prop_filter_map("all zero", |w| normalize(&w).ok())
    }

    /// A distribution of exactly `n` tokens, all positive.
    fn positive(n: usize) -> impl Strategy<Value = Vec<f64>> {
        proptest::collection::vec(0.001f64..1.0, n).prop_map(|w| normalize(&w).unwrap())
    }

    proptest::proptest! {
        #[test]
        fn the_playground_never_shows_nan(
            teacher in distribution(),
            a_seed in 0u64..1000,
            zero_at in 0usize..10,
            t in MIN_TEMPERATURE..=MAX_TEMPERATURE,
            alpha in 0.0f64..=1.0,
            pick in proptest::option::of(0usize..12),
        ) {
            let mut rng = SplitMix64::new(a_seed);
            let mut w: Vec<f64> = teacher.iter().map(|_| rng.next_f64()).collect();
            w[zero_at % teacher.len()] = 0.0;
            let Ok(a) = log_probs(Entry::Weights, &w) else { return Ok(()); };
            let tz = log_probs(Entry::Weights, &teacher).unwrap();
            let c = compare(&tz, [&a, &tz], pick, t, alpha);
            proptest::prop_assert!(c.hard_index < teacher.len());
            proptest::prop_assert!(!c.entropy.is_nan() && c.entropy >= 0.0);
            for s in &c.students {
                for x in [s.hard.value, s.soft.value, s.kl, s.mixed] {
                    proptest::prop_assert!(!x.is_nan() && x >= 0.0);
                }
                // Soft cross-entropy ≥ entropy of the soft target.
                proptest::prop_assert!(s.soft.unscaled() >= c.entropy - 1e-9);
                proptest::prop_assert!((s.probs.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            }
            // A student equal to the teacher has KL 0 at any T.
            proptest::prop_assert!(c.students[1].kl < 1e-9);
        }

        #[test]
        fn normalize_sums_to_one(w in proptest::collection::vec(0.0f64..1e6, 2..=10)) {
            if let Ok(p) = normalize(&w) {
                proptest::prop_assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                proptest::prop_assert!(p.iter().all(|&x| (0.0..=1.0).contains(&x)));
            } else {
                proptest::prop_assert!(w.iter().all(|&x| x == 0.0));
            }
        }

        #[test]
        fn cross_entropy_is_at_least_entropy(p in distribution(), seed in 0u64..1000) {
            let mut rng = SplitMix64::new(seed);
            let w: Vec<f64> = p.iter().map(|_| rng.next_f64()).collect();
            if let Ok(q) = normalize(&w) {
                let ce = cross_entropy(&p, &q);
                let h = entropy(&p);
                proptest::prop_assert!(!ce.is_nan());
                proptest::prop_assert!(ce >= h - 1e-12, "CE {} < H {}", ce, h);
                let kl = kl_divergence(&p, &q);
                proptest::prop_assert!(kl >= 0.0);
                if kl.is_finite() {
                    proptest::prop_assert!((kl - (ce - h)).abs() < 1e-9);
                }
            }
        }

        #[test]
        fn kl_is_zero_exactly_when_equal(p in distribution(), q in distribution()) {
            proptest::prop_assert!(kl_divergence(&p, &p).abs() < 1e-12);
            if p.len() == q.len() {
                let kl = kl_divergence(&p, &q);
                proptest::prop_assert!(kl >= 0.0);
                let differ = p.iter().zip(&q).any(|(a, b)| (a - b).abs() > 1e-3);
                if differ {
                    proptest::prop_assert!(kl > 1e-12);
                }
            }
        }

        #[test]
        fn gradient_steps_never_give_nan(
            teacher in distribution(),
            index in 0usize..10,
            seed in proptest::prelude::any::<u64>(),
            kind in 0u8..3,
            alpha in 0.0f64..=1.0,
            lr in 0.001f64..=MAX_LEARNING_RATE,
            t in MIN_TEMPERATURE..=MAX_TEMPERATURE,
        ) {
            let loss = match kind {
                0 => LossKind::Hard,
                1 => LossKind::Soft,
                _ => LossKind::Mix(alpha),
            };
            let config = TrainConfig { loss, learning_rate: lr, temperature: t };
            let index = index % teacher.len();
            let run = train(&teacher, index, StudentInit::Seeded(seed), config, 50).unwrap();
            for s in &run {
                proptest::prop_assert!(!s.loss.is_nan() && s.loss >= -1e-9);
                proptest::prop_assert!(s.probs.iter().all(|x| x.is_finite()));
                proptest::prop_assert!((s.probs.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            }
        }

        #[test]
        fn soft_training_moves_the_student_toward_the_teacher(
            teacher in (2usize..=10).prop_flat_map(positive),
            t in 0.5f64..=4.0,
        ) {
            let config = TrainConfig { loss: LossKind::Soft, learning_rate: 1.0, temperature: t };
            let run = train(&teacher, 0, StudentInit::Uniform, config, 300).unwrap();
            let kl: Vec<f64> = run.iter().map(|s| kl_divergence(&teacher, &s.probs)).collect();
            if kl[0] > 1e-9 {
                proptest::prop_assert!(kl[300] < 0.5 * kl[0], "KL {} → {}", kl[0], kl[300]);
            }
            // At a step size below 4 the convex soft loss never rises.
            for w in run.windows(2) {
                proptest::prop_assert!(w[1].loss <= w[0].loss + 1e-12);
            }
        }

        #[test]
        fn hard_training_pushes_the_right_token_toward_one(
            n in 2usize..=10,
            index in 0usize..10,
            lr in 0.1f64..=2.0,
        ) {
            let index = index % n;
            let config = TrainConfig { loss: LossKind::Hard, learning_rate: lr, temperature: 1.0 };
            let run = train(&vec![1.0; n], index, StudentInit::Uniform, config, 500).unwrap();
            for w in run.windows(2) {
                proptest::prop_assert!(w[1].probs[index] > w[0].probs[index]);
            }
            proptest::prop_assert!(run[500].probs[index] > 0.9);
        }
    }
}

#[cfg(test)]
mod fuzz_tests {
    use super::*;
    use crate::logic::fuzz::any_text;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn typed_values_read_in_range_or_say_why(
            text in any_text(),
            texts in proptest::collection::vec(any_text(), 0..12),
        ) {
            match parse_temperature(&text) {
                Ok(t) => prop_assert!((MIN_TEMPERATURE..=MAX_TEMPERATURE).contains(&t)),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            match parse_alpha(&text) {
                Ok(a) => prop_assert!((0.0..=1.0).contains(&a)),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            match parse_learning_rate(&text) {
                Ok(lr) => prop_assert!(lr > 0.0 && lr <= MAX_LEARNING_RATE),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            for entry in [Entry::Weights, Entry::Logits] {
                if let Ok(x) = parse_value("Teacher", entry, &text) {
                    prop_assert!(x.is_finite());
                    // What the playground writes back into a field reads back.
                    let back = parse_value("Teacher", entry, &value_text(entry, x));
                    prop_assert!(back.is_ok(), "{:?}", back);
                }
            }
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            if let Ok(p) = parse_distribution("Teacher", &refs) {
                let sum: f64 = p.iter().sum();
                prop_assert!((sum - 1.0).abs() < 1e-9 && p.iter().all(|x| *x >= 0.0));
            }
        }
    }
}
