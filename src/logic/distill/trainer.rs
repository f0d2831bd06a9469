//! The trainer: gradient descent on a student's logits towards a hard label, a teacher's soft
//! targets, or a mix, one deterministic step at a time.

use super::*;

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
            Field::LearningRate,
            format!(
                "Must be more than 0 and at most {}.",
                format::plain(MAX_LEARNING_RATE)
            ),
        ));
    }
    let t = config.temperature;
    if !(MIN_TEMPERATURE..=MAX_TEMPERATURE).contains(&t) {
        return Err(InputError::new(
            Field::Temperature,
            format!(
                "Must be between {} and {}.",
                format::plain(MIN_TEMPERATURE),
                format::plain(MAX_TEMPERATURE)
            ),
        ));
    }
    if let LossKind::Mix(alpha) = config.loss {
        if !(0.0..=1.0).contains(&alpha) {
            return Err(InputError::new(Field::Alpha, "Must be between 0 and 1."));
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
        let teacher = normalize(teacher).map_err(|e| InputError::new(Field::Teacher, e.message))?;
        if hard_index >= teacher.len() {
            return Err(InputError::new(
                Field::RightToken,
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
            Field::Steps,
            format!("Must be at most {}.", format::plain(MAX_STEPS as f64)),
        ));
    }
    let mut trainer = Trainer::new(teacher, hard_index, init, config)?;
    let mut out = Vec::with_capacity(steps + 1);
    out.push(trainer.current());
    out.extend(trainer.run(steps));
    Ok(out)
}
