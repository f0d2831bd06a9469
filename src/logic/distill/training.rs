//! A training run as the playground shows it: a fresh student started from the reader's
//! settings, a few gradient steps per animation frame, the history its charts draw, and stop
//! and clear. Plain state with methods; the widget only calls them from its button handlers and
//! animation frames, and draws what they hold.
//!
//! A run owns its own [`Trainer`]: changing the playground's inputs mid-run does not touch it
//! (the reader sees the run they started, to its end, and presses Train again for the new
//! inputs).

use super::{entropy, Comparison, LossKind, Step, StudentInit, TrainConfig, Trainer};
use crate::logic::format;
use crate::logic::stats;
use crate::logic::InputError;

/// A run is spread over about this many animation frames, whatever its length.
pub const RUN_FRAMES: usize = 150;
/// Seed of the random starting student: fixed, so every run with the same inputs is the same.
pub const RUN_SEED: u64 = 7;

/// Which loss the reader trains on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrainLoss {
    /// The hard label only.
    Hard,
    /// The teacher's soft targets only.
    #[default]
    Soft,
    /// The α mix of both.
    Mix,
}

impl TrainLoss {
    /// Every choice, in menu order.
    pub const ALL: [TrainLoss; 3] = [TrainLoss::Hard, TrainLoss::Soft, TrainLoss::Mix];

    /// Its id in the menu, the address and storage.
    pub fn id(self) -> &'static str {
        match self {
            TrainLoss::Hard => "hard",
            TrainLoss::Soft => "soft",
            TrainLoss::Mix => "mix",
        }
    }

    /// The choice with id `id`.
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.id() == id)
    }

    /// The loss a trainer minimises, with `alpha` the weight of the hard loss in a mix.
    pub fn kind(self, alpha: f64) -> LossKind {
        match self {
            TrainLoss::Hard => LossKind::Hard,
            TrainLoss::Soft => LossKind::Soft,
            TrainLoss::Mix => LossKind::Mix(alpha),
        }
    }
}

/// How the trained student starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrainStart {
    /// All logits 0.
    #[default]
    Uniform,
    /// Random logits from the fixed seed [`RUN_SEED`].
    Seeded,
}

impl TrainStart {
    /// Its id in the menu, the address and storage.
    pub fn id(self) -> &'static str {
        match self {
            TrainStart::Uniform => "uniform",
            TrainStart::Seeded => "seeded",
        }
    }

    /// The choice with id `id`.
    pub fn from_id(id: &str) -> Option<Self> {
        [TrainStart::Uniform, TrainStart::Seeded]
            .into_iter()
            .find(|s| s.id() == id)
    }

    /// Where the trainer's student starts.
    pub fn init(self) -> StudentInit {
        match self {
            TrainStart::Uniform => StudentInit::Uniform,
            TrainStart::Seeded => StudentInit::Seeded(RUN_SEED),
        }
    }
}

/// The training settings as the reader set them, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSettings {
    /// What the student is trained on.
    pub loss: TrainLoss,
    /// How the student starts.
    pub start: TrainStart,
    /// The learning rate, or why the typed one cannot be used.
    pub learning_rate: Result<f64, InputError>,
    /// The number of gradient steps, or why the typed one cannot be used.
    pub steps: Result<usize, InputError>,
}

/// Which run an animation frame belongs to: every start and stop makes a new one, so a frame
/// of a run that was stopped or replaced does nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunId(u32);

/// What an animation frame did to a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameOutcome {
    /// The frame belongs to a run that was stopped or replaced: nothing happened.
    Stale,
    /// Steps were taken and more are left: ask for the next frame.
    Continue,
    /// The run reached its last step (or could take none) and is no longer running.
    Done,
}

/// The playground's training run: not started, running, stopped or finished.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrainingRun {
    id: RunId,
    trainer: Option<Trainer>,
    history: Vec<Step>,
    total: usize,
    loss_max: f64,
    floor: f64,
    running: bool,
}

impl TrainingRun {
    /// Starts a fresh student from `comparison` (the playground's last computed inputs, `None`
    /// while they are wrong) and `settings`; or says, in a sentence, what to fix first. On an
    /// error the run on screen is left as it is.
    pub fn start_from(
        &mut self,
        comparison: Option<&Comparison>,
        settings: &RunSettings,
    ) -> Result<RunId, String> {
        let Some(c) = comparison else {
            return Err(
                "Fix the inputs marked above first: training starts from the teacher \
                        and settings shown."
                    .into(),
            );
        };
        let (Ok(learning_rate), Ok(total)) = (&settings.learning_rate, &settings.steps) else {
            return Err("Fix the learning rate or the number of steps first.".into());
        };
        let config = TrainConfig {
            loss: settings.loss.kind(c.alpha),
            learning_rate: *learning_rate,
            temperature: c.temperature,
        };
        let trainer = Trainer::new(&c.teacher.at_1, c.hard_index, settings.start.init(), config)
            .map_err(|e| super::said(&e))?;
        Ok(self.start(trainer, *total))
    }

    /// Starts `trainer`'s student (usually fresh) for `total` gradient steps, replacing any run.
    pub fn start(&mut self, trainer: Trainer, total: usize) -> RunId {
        let first = trainer.current();
        self.id = RunId(self.id.0.wrapping_add(1));
        self.loss_max = first.loss * 1.05;
        self.floor = loss_floor(&trainer);
        self.history = vec![first];
        self.total = total;
        self.trainer = Some(trainer);
        self.running = true;
        self.id
    }

    /// Gradient steps one animation frame takes, so a run lasts about [`RUN_FRAMES`] frames.
    pub fn steps_per_frame(&self) -> usize {
        self.total.div_ceil(RUN_FRAMES).max(1)
    }

    /// One animation frame of run `id`: [`Self::steps_per_frame`] gradient steps (fewer at the
    /// end), and whether to ask for another frame.
    pub fn frame(&mut self, id: RunId) -> FrameOutcome {
        if !self.is_current(id) {
            return FrameOutcome::Stale;
        }
        let taken = self.advance(self.steps_per_frame());
        if taken == 0 || self.is_finished() {
            self.running = false;
            FrameOutcome::Done
        } else {
            FrameOutcome::Continue
        }
    }

    /// Takes up to `n` gradient steps, never past the run's length, and returns how many it
    /// took (0 when there is no run).
    pub fn advance(&mut self, n: usize) -> usize {
        let n = n.min(self.total.saturating_sub(self.steps_done()));
        let Some(trainer) = self.trainer.as_mut() else {
            return 0;
        };
        let steps = trainer.run(n);
        self.history.extend(steps);
        n
    }

    /// Stops the run where it is (its history stays on screen); its frames do nothing from now.
    pub fn stop(&mut self) {
        self.id = RunId(self.id.0.wrapping_add(1));
        self.running = false;
    }

    /// Stops the run and forgets it: back to "Not started".
    pub fn clear(&mut self) {
        self.stop();
        self.trainer = None;
        self.history.clear();
        self.total = 0;
    }

    /// True while `id` is the run in progress (its frames still have work to do).
    pub fn is_current(&self, id: RunId) -> bool {
        id == self.id && self.running
    }

    /// True while frames are still to come.
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// True once the run has taken all its steps.
    pub fn is_finished(&self) -> bool {
        !self.history.is_empty() && self.steps_done() >= self.total
    }

    /// Gradient steps taken so far in this run.
    pub fn steps_done(&self) -> usize {
        self.history.len().saturating_sub(1)
    }

    /// The student at step 0, 1, …, up to now; empty before the first run.
    pub fn history(&self) -> &[Step] {
        &self.history
    }

    /// The number of steps the run takes in all.
    pub fn total(&self) -> usize {
        self.total
    }

    /// The teacher the run trains towards (probabilities at T = 1); empty before the first run.
    pub fn teacher(&self) -> &[f64] {
        self.trainer.as_ref().map_or(&[], Trainer::teacher)
    }

    /// Top of the loss chart's axis, in nats: 5% above the starting loss, fixed for the run.
    pub fn loss_max(&self) -> f64 {
        self.loss_max
    }

    /// The lowest loss this run can reach, in nats (see [`loss_floor`]).
    pub fn floor(&self) -> f64 {
        self.floor
    }

    /// "Step 12 of 150", or "Not started".
    pub fn step_text(&self) -> String {
        match self.history.last() {
            Some(s) => format!("Step {} of {}", s.step, self.total),
            None => "Not started".to_string(),
        }
    }

    /// The student's probabilities now, in words, each token named by `label`.
    pub fn description(&self, label: impl Fn(usize) -> String) -> String {
        let Some(last) = self.history.last() else {
            return "No run yet: press Train to start one.".to_string();
        };
        let probs = last
            .probs
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{} {}", label(i), format::fixed(*p, 2)))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "After {} of {} steps the loss is {} and the student gives {}.",
            last.step,
            self.total,
            format::fixed(last.loss, 3),
            probs
        )
    }

    /// The loss from the first step to now, and its floor, in words; empty before a run.
    pub fn loss_description(&self) -> String {
        match (self.history.first(), self.history.last()) {
            (Some(a), Some(b)) => format!(
                "Loss from {} at step 0 to {} at step {}; it cannot go below {}.",
                format::fixed(a.loss, 3),
                format::fixed(b.loss, 3),
                b.step,
                format::fixed(self.floor, 3)
            ),
            _ => String::new(),
        }
    }
}

/// The lowest loss a run can reach, in nats: the part of the soft loss that is the teacher's own
/// entropy, T² × H(p_T), weighted by 1 − α in a mix (the hard loss can reach 0).
pub fn loss_floor(trainer: &Trainer) -> f64 {
    let config = trainer.config();
    let t = config.temperature;
    let soft_floor = t * t * entropy(trainer.soft_targets());
    match config.loss {
        LossKind::Hard => 0.0,
        LossKind::Soft => soft_floor,
        LossKind::Mix(alpha) => (1.0 - alpha) * soft_floor,
    }
}

/// How long each frame of a run took to compute and draw (ms), kept only when a benchmark asks
/// for it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FrameClock {
    times: Vec<f64>,
}

impl FrameClock {
    /// Forgets every frame (a new run starts).
    pub fn clear(&mut self) {
        self.times.clear();
    }

    /// Adds one frame's time (ms).
    pub fn record(&mut self, ms: f64) {
        self.times.push(ms);
    }

    /// Frames recorded.
    pub fn count(&self) -> usize {
        self.times.len()
    }

    /// The `p`-th percentile (0..=100, nearest rank) of the frame times, in ms; 0 when there
    /// are none.
    pub fn percentile_ms(&self, p: f64) -> f64 {
        stats::percentile_nearest_rank(&stats::sorted(&self.times), p).unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{compare, log_probs, Entry, SEED_PRESET, WRONG_TEACHER_PRESET};
    use super::*;

    fn comparison(teacher: &[f64], temperature: f64) -> Comparison {
        let z = |p: &[f64]| log_probs(Entry::Weights, p).unwrap();
        compare(
            &z(teacher),
            [&z(&SEED_PRESET.student_a), &z(&SEED_PRESET.student_b)],
            None,
            temperature,
            0.5,
        )
    }

    /// The seed example at T = 1, and a run started on its soft targets for `steps` steps.
    fn soft_run(steps: usize) -> (Comparison, TrainingRun, RunId) {
        let c = comparison(&SEED_PRESET.teacher, 1.0);
        let mut run = TrainingRun::default();
        let id = run
            .start_from(
                Some(&c),
                &settings(TrainLoss::Soft, TrainStart::Uniform, steps),
            )
            .unwrap();
        (c, run, id)
    }

    fn settings(loss: TrainLoss, start: TrainStart, steps: usize) -> RunSettings {
        RunSettings {
            loss,
            start,
            learning_rate: Ok(1.0),
            steps: Ok(steps),
        }
    }

    /// Runs frames until the run says it is done; returns how many frames it took.
    fn run_out(run: &mut TrainingRun, id: RunId) -> usize {
        let mut frames = 1;
        while run.frame(id) == FrameOutcome::Continue {
            frames += 1;
            assert!(frames <= 10 * RUN_FRAMES, "never finished");
        }
        frames
    }

    #[test]
    fn a_run_takes_its_steps_over_about_a_hundred_and_fifty_frames() {
        let c = comparison(&SEED_PRESET.teacher, 2.0);
        for (total, frames) in [(150, 150), (300, 150), (1, 1), (2000, 143)] {
            let mut run = TrainingRun::default();
            let id = run
                .start_from(
                    Some(&c),
                    &settings(TrainLoss::Soft, TrainStart::Uniform, total),
                )
                .unwrap();
            assert!(run.is_running());
            assert_eq!((run.steps_done(), run.history().len()), (0, 1));
            assert_eq!(run.steps_per_frame(), total.div_ceil(RUN_FRAMES));
            assert_eq!(run_out(&mut run, id), frames, "{total} steps");
            assert!(!run.is_running() && run.is_finished());
            assert_eq!(run.steps_done(), total);
            assert_eq!(run.history().len(), total + 1);
            assert_eq!(run.step_text(), format!("Step {total} of {total}"));
            // A finished run's late frame does nothing.
            assert_eq!(run.frame(id), FrameOutcome::Stale);
            assert_eq!(run.steps_done(), total);
        }
    }

    #[test]
    fn the_same_settings_give_the_same_run_and_a_seed_changes_it() {
        let c = comparison(&SEED_PRESET.teacher, 1.0);
        let history = |start| {
            let mut run = TrainingRun::default();
            let id = run
                .start_from(Some(&c), &settings(TrainLoss::Mix, start, 150))
                .unwrap();
            run_out(&mut run, id);
            run.history().to_vec()
        };
        assert_eq!(history(TrainStart::Seeded), history(TrainStart::Seeded));
        assert_eq!(history(TrainStart::Uniform), history(TrainStart::Uniform));
        assert_ne!(history(TrainStart::Seeded), history(TrainStart::Uniform));
        // The uniform student starts with every token equally likely; the seeded one does not.
        assert_eq!(history(TrainStart::Uniform)[0].probs, vec![0.25; 4]);
        assert_ne!(history(TrainStart::Seeded)[0].probs, vec![0.25; 4]);
        // Frame by frame is the same as the plain trainer run in one go.
        let config = TrainConfig {
            loss: LossKind::Mix(0.5),
            learning_rate: 1.0,
            temperature: 1.0,
        };
        let plain = super::super::train(
            &SEED_PRESET.teacher,
            0,
            StudentInit::Seeded(RUN_SEED),
            config,
            150,
        )
        .unwrap();
        assert_eq!(history(TrainStart::Seeded), plain);
    }

    #[test]
    fn advance_counts_steps_and_stops_at_the_end() {
        let c = comparison(&SEED_PRESET.teacher, 1.0);
        let mut run = TrainingRun::default();
        assert_eq!(run.advance(5), 0);
        run.start_from(
            Some(&c),
            &settings(TrainLoss::Hard, TrainStart::Uniform, 10),
        )
        .unwrap();
        assert_eq!(run.advance(3), 3);
        assert_eq!(run.advance(4), 4);
        assert_eq!(run.steps_done(), 7);
        assert_eq!(run.advance(100), 3);
        assert_eq!(run.advance(1), 0);
        assert!(run.is_finished());
        let steps: Vec<usize> = run.history().iter().map(|s| s.step).collect();
        assert_eq!(steps, (0..=10).collect::<Vec<_>>());
    }

    #[test]
    fn stop_keeps_the_history_and_ends_the_frames() {
        let (c, mut run, id) = soft_run(300);
        assert_eq!(run.frame(id), FrameOutcome::Continue);
        assert_eq!(run.frame(id), FrameOutcome::Continue);
        assert!(run.is_current(id));
        run.stop();
        assert!(!run.is_current(id));
        assert!(!run.is_running() && !run.is_finished());
        assert_eq!(run.frame(id), FrameOutcome::Stale);
        assert_eq!(run.steps_done(), 4);
        assert_eq!(run.step_text(), "Step 4 of 300");
        // Train again: a fresh student, and the old run's frames stay dead.
        let again = run
            .start_from(
                Some(&c),
                &settings(TrainLoss::Soft, TrainStart::Uniform, 300),
            )
            .unwrap();
        assert_ne!(again, id);
        assert_eq!(run.steps_done(), 0);
        assert_eq!(run.frame(id), FrameOutcome::Stale);
        assert_eq!(run.frame(again), FrameOutcome::Continue);
    }

    #[test]
    fn clear_goes_back_to_not_started() {
        let c = comparison(&SEED_PRESET.teacher, 1.0);
        let mut run = TrainingRun::default();
        assert_eq!(run.step_text(), "Not started");
        assert_eq!(
            run.description(|i| format!("t{i}")),
            "No run yet: press Train to start one."
        );
        assert_eq!(run.loss_description(), "");
        let id = run
            .start_from(
                Some(&c),
                &settings(TrainLoss::Soft, TrainStart::Uniform, 150),
            )
            .unwrap();
        run.frame(id);
        run.clear();
        assert_eq!(
            run,
            TrainingRun {
                id: run.id,
                loss_max: run.loss_max,
                floor: run.floor,
                ..TrainingRun::default()
            }
        );
        assert!(!run.is_running() && !run.is_finished());
        assert_eq!(run.step_text(), "Not started");
        assert!(run.teacher().is_empty());
        assert_eq!(run.frame(id), FrameOutcome::Stale);
    }

    #[test]
    fn changing_the_inputs_mid_run_does_not_touch_it() {
        let before = comparison(&SEED_PRESET.teacher, 2.0);
        let s = settings(TrainLoss::Soft, TrainStart::Seeded, 150);
        let mut undisturbed = TrainingRun::default();
        let id = undisturbed.start_from(Some(&before), &s).unwrap();
        run_out(&mut undisturbed, id);

        let mut run = TrainingRun::default();
        let id = run.start_from(Some(&before), &s).unwrap();
        run.frame(id);
        // The reader picks another teacher and temperature, or breaks an input: the run goes on.
        // (The widget computes a new comparison; only a new start would read it.)
        let after = comparison(&WRONG_TEACHER_PRESET.teacher, 4.0);
        run_out(&mut run, id);
        assert_eq!(run.history(), undisturbed.history());
        assert_eq!(run.teacher(), &before.teacher.at_1[..]);
        assert_ne!(run.teacher(), &after.teacher.at_1[..]);
        assert_eq!(run.floor(), undisturbed.floor());
    }

    #[test]
    fn wrong_inputs_or_settings_give_a_sentence_and_leave_the_run() {
        let (c, mut run, id) = soft_run(150);
        run.frame(id);
        let kept = run.clone();
        let err = run
            .start_from(None, &settings(TrainLoss::Soft, TrainStart::Uniform, 150))
            .unwrap_err();
        assert!(
            err.starts_with("Fix the inputs marked above first"),
            "{err}"
        );
        let mut bad = settings(TrainLoss::Soft, TrainStart::Uniform, 150);
        bad.learning_rate = Err(InputError::new(
            super::super::Field::LearningRate,
            "Must be more than 0.",
        ));
        assert_eq!(
            run.start_from(Some(&c), &bad).unwrap_err(),
            "Fix the learning rate or the number of steps first."
        );
        let mut bad = settings(TrainLoss::Soft, TrainStart::Uniform, 150);
        bad.steps = Err(InputError::new(
            super::super::Field::Steps,
            "Enter a whole number of steps.",
        ));
        assert!(run.start_from(Some(&c), &bad).is_err());
        assert_eq!(run, kept);
        assert_eq!(run.frame(id), FrameOutcome::Continue);
    }

    #[test]
    fn the_floor_is_the_soft_targets_entropy_scaled_by_t_squared() {
        let c = comparison(&SEED_PRESET.teacher, 2.0);
        let mut run = TrainingRun::default();
        let id = run
            .start_from(
                Some(&c),
                &settings(TrainLoss::Soft, TrainStart::Uniform, 600),
            )
            .unwrap();
        let soft_floor = 4.0 * entropy(&c.teacher.at_t);
        assert!((run.floor() - soft_floor).abs() < 1e-12);
        let first = run.history()[0].loss;
        assert!((run.loss_max() - 1.05 * first).abs() < 1e-12);
        run_out(&mut run, id);
        let last = run.history()[600].loss;
        assert!(last >= run.floor() - 1e-9 && last - run.floor() < 1e-3);
        // The axis stays where the run started it.
        assert!((run.loss_max() - 1.05 * first).abs() < 1e-12);
        let text = run.loss_description();
        assert!(
            text.starts_with(&format!(
                "Loss from {} at step 0 to ",
                format::fixed(first, 3)
            )),
            "{text}"
        );
        assert!(
            text.ends_with(&format!(
                "at step 600; it cannot go below {}.",
                format::fixed(soft_floor, 3)
            )),
            "{text}"
        );
        let words = run.description(|i| ["Paris", "France", "Europe", "Texas"][i].to_string());
        assert!(
            words.starts_with("After 600 of 600 steps the loss is "),
            "{words}"
        );
        assert!(
            words.contains("Paris 0.70, France 0.20, Europe 0.07, Texas 0.03"),
            "{words}"
        );
        // Hard label: floor 0; a mix weights the soft floor by 1 − α.
        run.start_from(
            Some(&c),
            &settings(TrainLoss::Hard, TrainStart::Uniform, 10),
        )
        .unwrap();
        assert_eq!(run.floor(), 0.0);
        run.start_from(Some(&c), &settings(TrainLoss::Mix, TrainStart::Uniform, 10))
            .unwrap();
        assert!((run.floor() - 0.5 * soft_floor).abs() < 1e-12);
    }

    #[test]
    fn choices_have_stable_ids() {
        for l in TrainLoss::ALL {
            assert_eq!(TrainLoss::from_id(l.id()), Some(l));
        }
        assert_eq!(TrainLoss::from_id("other"), None);
        assert_eq!(TrainLoss::Hard.kind(0.5), LossKind::Hard);
        assert_eq!(TrainLoss::Mix.kind(0.5), LossKind::Mix(0.5));
        for s in [TrainStart::Uniform, TrainStart::Seeded] {
            assert_eq!(TrainStart::from_id(s.id()), Some(s));
        }
        assert_eq!(TrainStart::Seeded.init(), StudentInit::Seeded(7));
        assert_eq!(TrainStart::Uniform.init(), StudentInit::Uniform);
    }

    #[test]
    fn the_frame_clock_gives_the_longest_and_the_95th_percentile() {
        let mut clock = FrameClock::default();
        assert_eq!((clock.count(), clock.percentile_ms(95.0)), (0, 0.0));
        for ms in (1..=100).rev() {
            clock.record(f64::from(ms));
        }
        assert_eq!(clock.count(), 100);
        assert_eq!(clock.percentile_ms(95.0), 95.0);
        assert_eq!(clock.percentile_ms(100.0), 100.0);
        clock.clear();
        assert_eq!(clock.count(), 0);
    }
}
