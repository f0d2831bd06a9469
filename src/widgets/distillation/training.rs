//! "Watch a student learn": the training settings, Train and Stop, the step counter and the run's
//! two charts. The run itself is [`TrainingRun`]; this file asks it for a frame on every
//! animation frame and draws what it holds.
//!
//! The frames' own clock ([`FrameClock`]) exists only when the page's address asks for it
//! (`?bench`, read once when the playground mounts): the benchmark and a browser test read it
//! from `data-longest-frame-ms`, `data-p95-frame-ms` and `data-frames`, and a reader's page
//! carries none of them.

use super::field;
use crate::logic::chart::distill::{loss_svg, probs_svg};
use crate::logic::distill::inputs::{
    parse_steps, shown_label, Inputs, Problems, TrainLoss, TrainStart,
};
use crate::logic::distill::training::{FrameClock, FrameOutcome, RunId, RunSettings, TrainingRun};
use crate::logic::distill::{self, Comparison};
use crate::logic::InputError;
use crate::widgets::controls::{unique_id, Chart, Menu, NumberField};
use leptos::prelude::*;

/// The run on screen, the message under the Train button, and the benchmark's frame clock.
#[derive(Clone, Copy)]
pub struct Training {
    /// The run: not started, running, stopped or finished.
    pub run: RwSignal<TrainingRun>,
    /// Why the last press of Train started nothing.
    pub error: RwSignal<Option<String>>,
    /// Frame times, only on a page opened with `?bench`.
    pub clock: Option<RwSignal<FrameClock>>,
}

impl Training {
    /// A playground's training, with a frame clock when `bench` is true.
    pub fn new(bench: bool) -> Self {
        Training {
            run: RwSignal::new(TrainingRun::default()),
            error: RwSignal::new(None),
            clock: bench.then(|| RwSignal::new(FrameClock::default())),
        }
    }

    /// Back to "Not started", with no message.
    pub fn clear(self) {
        self.run.update(TrainingRun::clear);
        self.error.set(None);
    }

    /// Starts a fresh student from `comparison` and `settings` and animates it, or shows why not.
    fn start(self, comparison: Option<&Comparison>, settings: &RunSettings) {
        let Some(started) = self.run.try_update(|r| r.start_from(comparison, settings)) else {
            return;
        };
        match started {
            Ok(id) => {
                self.error.set(None);
                if let Some(clock) = self.clock {
                    clock.update(FrameClock::clear);
                }
                request_animation_frame(move || self.frame(id));
            }
            Err(message) => self.error.set(Some(message)),
        }
    }

    /// One animation frame of run `id`: a few gradient steps (the charts follow), then the next.
    fn frame(self, id: RunId) {
        // The widget may be gone (the reader left the page), or the run stopped or replaced.
        if self.run.try_with_untracked(|r| r.is_current(id)) != Some(true) {
            return;
        }
        let start = self.clock.map(|_| now_ms());
        let Some(outcome) = self.run.try_update(|r| r.frame(id)) else {
            return;
        };
        if let (Some(clock), Some(start)) = (self.clock, start) {
            // Measured once the effects this frame woke (the charts' DOM updates) have run: they
            // are queued before this task.
            leptos::task::spawn_local(async move {
                let spent = now_ms() - start;
                let _ = clock.try_update(|c| c.record(spent));
            });
        }
        if outcome == FrameOutcome::Continue {
            request_animation_frame(move || self.frame(id));
        }
    }
}

/// Milliseconds from the page's clock (`performance.now()`), only to measure frames; 0 where
/// there is none.
fn now_ms() -> f64 {
    use wasm_bindgen::JsCast;
    let perf = js_sys::Reflect::get(&js_sys::global(), &"performance".into()).ok();
    perf.and_then(|p| {
        let now = js_sys::Reflect::get(&p, &"now".into()).ok()?;
        now.dyn_into::<js_sys::Function>()
            .ok()?
            .call0(&p)
            .ok()?
            .as_f64()
    })
    .unwrap_or(0.0)
}

/// The "Watch a student learn" section.
#[component]
pub fn TrainingPanel(
    /// The run and its message.
    training: Training,
    /// The playground's inputs (the training settings among them, and the tokens' labels).
    inputs: RwSignal<Inputs>,
    /// The playground's comparison of the current inputs (a run starts from it).
    result: Memo<Result<Comparison, Problems>>,
) -> impl IntoView {
    let run = training.run;
    let lr = Memo::new(move |_| inputs.with(|i| distill::parse_learning_rate(&i.learning_rate)));
    let steps = Memo::new(move |_| inputs.with(|i| parse_steps(&i.steps)));
    let start_training = move |_| {
        let settings = inputs.with_untracked(|i| RunSettings {
            loss: i.train_loss,
            start: i.train_start,
            learning_rate: lr.get_untracked(),
            steps: steps.get_untracked(),
        });
        result.with_untracked(|r| training.start(r.as_ref().ok(), &settings));
    };
    on_cleanup(move || {
        // Stops the animation when the widget goes away (the frames check the run).
        let _ = run.try_update_untracked(TrainingRun::stop);
    });

    let heading_id = unique_id("distill-train-h");
    let labelled_by = heading_id.clone();
    view! {
        <section class="distill-train" aria-labelledby=labelled_by>
            <h4 class="distill-subhead" id=heading_id>"Watch a student learn"</h4>
            {run_settings(inputs, lr, steps)}
            {run_controls(training, start_training)}
            <p class="field-message" role="alert">{move || training.error.get()}</p>
            {run_charts(run, inputs)}
        </section>
    }
}

/// What a run trains on, how the student starts, the learning rate and the number of steps.
fn run_settings(
    inputs: RwSignal<Inputs>,
    lr: Memo<Result<f64, InputError>>,
    steps: Memo<Result<usize, InputError>>,
) -> impl IntoView {
    view! {
        <div class="controls">
            <Menu
                label="Train on"
                testid="distill-train-loss"
                options=[
                    ("hard", "The hard label only"),
                    ("soft", "The teacher\u{2019}s soft targets only"),
                    ("mix", "The \u{3b1} mix of both"),
                ]
                value=Signal::derive(move || inputs.with(|i| i.train_loss.id().to_string()))
                on_pick=move |v: String| inputs.update(|i| i.train_loss = TrainLoss::from_id(&v).unwrap_or_default())
            />
            <Menu
                label="Student starts"
                testid="distill-train-start"
                options=[("uniform", "Uniform (all logits 0)"), ("seeded", "Random (fixed seed 7)")]
                value=Signal::derive(move || inputs.with(|i| i.train_start.id().to_string()))
                on_pick=move |v: String| inputs.update(|i| i.train_start = TrainStart::from_id(&v).unwrap_or_default())
            />
            <NumberField label="Learning rate" testid="distill-lr" text=field(inputs, |i| &i.learning_rate, |i| &mut i.learning_rate) error=Signal::derive(move || lr.get().err().map(|e| e.message)) step=0.1 />
            <NumberField label="Steps" testid="distill-steps" text=field(inputs, |i| &i.steps, |i| &mut i.steps) error=Signal::derive(move || steps.get().err().map(|e| e.message)) step=10.0 min=1.0 />
        </div>
    }
}

/// Train and Stop, and the step counter (which carries the frame timings on a `?bench` page).
fn run_controls(
    training: Training,
    start_training: impl Fn(web_sys::MouseEvent) + 'static,
) -> impl IntoView {
    let run = training.run;
    let clock = training.clock;
    let clock_text = move |f: fn(&FrameClock) -> String| move || clock.map(|c| c.with(f));
    view! {
        <div class="distill-row-actions">
            <button type="button" class="button primary" data-testid="distill-train" on:click=start_training>
                "Train a fresh student"
            </button>
            <button type="button" data-testid="distill-stop" on:click=move |_| run.update(TrainingRun::stop) disabled=move || !run.with(TrainingRun::is_running)>
                "Stop"
            </button>
            <output
                class="distill-step"
                data-testid="distill-train-step"
                data-running=move || run.with(TrainingRun::is_running).to_string()
                data-longest-frame-ms=clock_text(|c| format!("{:.2}", c.percentile_ms(100.0)))
                data-p95-frame-ms=clock_text(|c| format!("{:.2}", c.percentile_ms(95.0)))
                data-frames=clock_text(|c| c.count().to_string())
            >
                {move || run.with(TrainingRun::step_text)}
            </output>
        </div>
    }
}

/// The run's two charts (the loss, and the student's probabilities against the teacher's) with
/// the tokens' colours, once it has a step.
fn run_charts(run: RwSignal<TrainingRun>, inputs: RwSignal<Inputs>) -> impl IntoView {
    let loss_chart =
        Memo::new(move |_| run.with(|r| loss_svg(r.history(), r.total(), r.loss_max(), r.floor())));
    let probs_chart =
        Memo::new(move |_| run.with(|r| probs_svg(r.history(), r.total(), r.teacher())));
    let description = Signal::derive(move || {
        run.with(|r| inputs.with(|x| r.description(|i| shown_label(&x.rows, i))))
    });
    let loss_description = Signal::derive(move || run.with(TrainingRun::loss_description));
    view! {
        <Show when=move || run.with(|r| !r.history().is_empty())>
            <p class="distill-chart-label">"Loss (nats), step by step; the coloured line is the floor it cannot go below"</p>
            <Chart svg=loss_chart description=loss_description testid="distill-train-loss-chart" />
            <p class="distill-chart-label">"Student\u{2019}s probabilities (bold) and the teacher\u{2019}s (faint)"</p>
            <Chart svg=probs_chart description=description testid="distill-train-chart" />
            <ul class="distill-legend distill-token-legend" aria-hidden="true">
                {move || inputs.with(|x| (0..x.rows.len()).map(|i| {
                    view! { <li><i class="swatch" style=format!("background: var(--distill-c{i})")></i>{shown_label(&x.rows, i)}</li> }
                }).collect_view())}
            </ul>
        </Show>
    }
}
