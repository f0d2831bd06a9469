//! The distillation-loss playground: a teacher and two students over 2–10 tokens, their
//! hard-label and soft-target losses term by term, temperature and α, and a student that learns.
//!
//! The maths is `calc::distill`; this file parses what the reader typed, draws the charts (pure
//! functions, tested natively) and wires signals to them. The reader's inputs are kept between
//! visits and mirrored in the address (`inputs`).

mod inputs;

use super::controls::{unique_id, Chart, NumberField, Output, WidgetCard};
use crate::app::persist::Persist;
use crate::content::WidgetParams;
use crate::logic::chart::{self, Area, GRID, INK, MUTED};
use crate::logic::distill::{
    self, Comparison, Entry, LossKind, LossSum, Preset, Step, StudentInit, TrainConfig, Trainer,
    MAX_TOKENS, MIN_TOKENS, PRESETS, SEED_PRESET,
};
use crate::logic::format::{fixed, plain};
use crate::logic::stats;
use crate::logic::InputError;
use crate::widgets::url_state;
use inputs::{
    entry_from_id, entry_id as entry_key, parse_steps, preset_by_id, starting_inputs, Inputs, Row,
    TrainLoss, TrainStart, DISTS, STORE_NAME, STORE_VERSION, URL_PREFIX,
};
use leptos::prelude::*;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// Mounts the playground with the directive's parameter `preset` (`eiffel` or `wrong-teacher`).
pub fn mount(params: WidgetParams) -> AnyView {
    let id = params.get("preset").unwrap_or(SEED_PRESET.id);
    let preset = preset_by_id(id).unwrap_or(&SEED_PRESET);
    view! { <Distillation preset=preset /> }.into_any()
}

/// A run is spread over about this many animation frames, whatever its length.
const TRAIN_FRAMES: usize = 150;
/// Seed of the random starting student: fixed, so every run with the same inputs is the same.
const TRAIN_SEED: u64 = 7;
/// Most points a training chart draws per line (longer runs are sampled evenly).
const MAX_CHART_POINTS: usize = 200;

/// The label shown for token `i` (a blank label shows as "token i").
fn shown_label(rows: &[Row], i: usize) -> String {
    match rows.get(i).map(|r| r.label.trim()) {
        Some(l) if !l.is_empty() => l.to_string(),
        _ => format!("token {i}"),
    }
}

/// What is wrong with the reader's inputs: per cell, per distribution, and per setting.
#[derive(Debug, Clone, Default, PartialEq)]
struct Problems {
    /// (distribution, token, message).
    cells: Vec<(usize, usize, String)>,
    /// (distribution, message) for a column that cannot be a distribution (e.g. all zero).
    columns: Vec<(usize, String)>,
    temperature: Option<String>,
    alpha: Option<String>,
}

/// Parses every input and compares the students with the teacher, or says what is wrong.
fn evaluate(
    rows: &[Row],
    entry: Entry,
    hard_pick: Option<usize>,
    temperature: &str,
    alpha: &str,
) -> Result<Comparison, Problems> {
    let mut problems = Problems::default();
    let mut columns: Vec<Vec<f64>> = Vec::with_capacity(3);
    for (d, (_, name)) in DISTS.iter().enumerate() {
        let mut values = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            match distill::parse_value(name, entry, &row.values[d]) {
                Ok(v) => values.push(v),
                Err(e) => problems.cells.push((d, i, e.message)),
            }
        }
        if values.len() == rows.len() {
            match distill::log_probs(entry, &values) {
                Ok(z) => columns.push(z),
                Err(e) => problems.columns.push((d, e.message)),
            }
        }
    }
    let t = distill::parse_temperature(temperature);
    let a = distill::parse_alpha(alpha);
    problems.temperature = t.as_ref().err().map(|e| e.message.clone());
    problems.alpha = a.as_ref().err().map(|e| e.message.clone());
    match (columns.as_slice(), t, a) {
        ([teacher, sa, sb], Ok(t), Ok(a)) => Ok(distill::compare(
            teacher,
            [sa.as_slice(), sb.as_slice()],
            hard_pick,
            t,
            a,
        )),
        _ => Err(problems),
    }
}

/// Rewrites the typed values of every valid column for a new entry mode, keeping the
/// distributions: weights become ln p (logits), logits become probabilities.
fn convert_rows(rows: &[Row], from: Entry, to: Entry) -> Vec<Row> {
    let mut out = rows.to_vec();
    if from == to {
        return out;
    }
    for d in 0..3 {
        let values: Result<Vec<f64>, InputError> = rows
            .iter()
            .map(|r| distill::parse_value("", from, &r.values[d]))
            .collect();
        let Ok(z) = values.and_then(|v| distill::log_probs(from, &v)) else {
            continue;
        };
        let probs = distill::softmax(&z, 1.0);
        for (i, row) in out.iter_mut().enumerate() {
            let x = match to {
                Entry::Logits => z[i].max(-distill::MAX_LOGIT),
                Entry::Weights => probs[i],
            };
            row.values[d] = distill::value_text(to, x);
        }
    }
    out
}

/// A loss as its output shows it: the number to 3 decimals, or ∞.
fn loss_text(x: f64) -> String {
    fixed(x, 3)
}

/// One sentence on why a loss is infinite, naming the token the student gives 0.
fn infinity_sentence(rows: &[Row], student: &str, loss: &str, sum: &LossSum) -> Option<String> {
    let i = sum.infinite_at()?;
    let target = sum.terms.get(i).map(|t| t.target).unwrap_or(0.0);
    Some(format!(
        "{student}\u{2019}s {loss} loss is \u{221e}: it gives \u{201c}{}\u{201d} probability 0 \
         while the target gives it {}, and \u{2212}ln 0 is unbounded, so a single such token \
         makes the whole sum infinite.",
        shown_label(rows, i),
        fixed(target, 3)
    ))
}

/// Stand-in colour of token `i`'s line (replaced by `var(--distill-c<i>)`).
fn token_colour(i: usize) -> RGBColor {
    RGBColor(0x01, 0x03, (i % MAX_TOKENS) as u8)
}

/// Swaps the token stand-in colours for the widget's CSS variables.
fn themed_tokens(svg: String) -> String {
    let mut out = svg;
    for i in 0..MAX_TOKENS {
        let RGBColor(r, g, b) = token_colour(i);
        out = out
            .replace(
                &format!("#{r:02X}{g:02X}{b:02X}"),
                &format!("var(--distill-c{i})"),
            )
            .replace(
                &format!("#{r:02x}{g:02x}{b:02x}"),
                &format!("var(--distill-c{i})"),
            );
    }
    out
}

/// Light horizontal grid lines at the quarters of a 0..1 axis.
fn quarter_grid(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    x_max: f64,
    y_max: f64,
) -> Result<(), Box<dyn std::error::Error>> {
    for q in 1..=4 {
        let y = y_max * q as f64 / 4.0;
        chart.draw_series(LineSeries::new(
            [(0.0, y), (x_max, y)],
            GRID.stroke_width(1),
        ))?;
    }
    Ok(())
}

/// Bars of the teacher at T = 1 (muted) next to the teacher at the chosen T (accent), one pair
/// per token, token `i` in the slot `i..i + 1` so HTML labels in equal columns line up.
fn temperature_svg(teacher: &[f64], teacher_t: &[f64]) -> String {
    let n = teacher.len().max(1) as f64;
    chart::svg(640, 200, |area: &Area<'_>| {
        let mut chart = ChartBuilder::on(area)
            .margin_top(6)
            .build_cartesian_2d(0.0..n, 0.0..1.0)?;
        quarter_grid(&mut chart, n, 1.0)?;
        chart.draw_series(teacher.iter().enumerate().map(|(i, &p)| {
            let x = i as f64;
            Rectangle::new([(x + 0.14, 0.0), (x + 0.48, p)], MUTED.filled())
        }))?;
        chart.draw_series(teacher_t.iter().enumerate().map(|(i, &p)| {
            let x = i as f64;
            Rectangle::new([(x + 0.52, 0.0), (x + 0.86, p)], chart::ACCENT.filled())
        }))?;
        chart.draw_series(LineSeries::new([(0.0, 0.0), (n, 0.0)], INK.stroke_width(1)))?;
        Ok(())
    })
    .unwrap_or_default()
}

/// Evenly sampled points of a run, at most `MAX_CHART_POINTS` (always keeping the last).
fn sampled(history: &[Step]) -> Vec<&Step> {
    let every = history.len().div_ceil(MAX_CHART_POINTS).max(1);
    let mut out: Vec<&Step> = history.iter().step_by(every).collect();
    if let Some(last) = history.last() {
        if out.last().map(|s| s.step) != Some(last.step) {
            out.push(last);
        }
    }
    out
}

/// The lowest loss a run can reach, in nats: the part of the soft loss that is the teacher's own
/// entropy, T² × H(p_T), weighted by 1 − α in a mix (the hard loss can reach 0).
fn loss_floor(trainer: &Trainer) -> f64 {
    let config = trainer.config();
    let t = config.temperature;
    let soft_floor = t * t * distill::entropy(trainer.soft_targets());
    match config.loss {
        LossKind::Hard => 0.0,
        LossKind::Soft => soft_floor,
        LossKind::Mix(alpha) => (1.0 - alpha) * soft_floor,
    }
}

/// The loss of a run step by step, on an x axis fixed at the run's full length so it grows, with
/// the floor it cannot go below as a faint line.
fn loss_svg(history: &[Step], total: usize, y_max: f64, floor: f64) -> String {
    let x_max = total.max(1) as f64;
    let y_max = if y_max.is_finite() && y_max > 0.0 {
        y_max
    } else {
        1.0
    };
    let points = sampled(history);
    chart::svg(640, 150, |area: &Area<'_>| {
        let mut chart = ChartBuilder::on(area)
            .margin(6)
            .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
        quarter_grid(&mut chart, x_max, y_max)?;
        if floor > 0.0 && floor < y_max {
            chart.draw_series(LineSeries::new(
                [(0.0, floor), (x_max, floor)],
                chart::ACCENT.stroke_width(2),
            ))?;
        }
        chart.draw_series(LineSeries::new(
            points
                .iter()
                .filter(|s| s.loss.is_finite())
                .map(|s| (s.step as f64, s.loss.min(y_max))),
            INK.stroke_width(2),
        ))?;
        Ok(())
    })
    .unwrap_or_default()
}

/// The student's probability of each token step by step (one coloured line per token), with
/// the teacher's probabilities as faint lines of the same colours to compare the end against.
fn probs_svg(history: &[Step], total: usize, teacher: &[f64]) -> String {
    let x_max = total.max(1) as f64;
    let points = sampled(history);
    let svg = chart::svg(640, 220, |area: &Area<'_>| {
        let mut chart = ChartBuilder::on(area)
            .margin(6)
            .build_cartesian_2d(0.0..x_max, 0.0..1.0)?;
        quarter_grid(&mut chart, x_max, 1.0)?;
        for (i, &p) in teacher.iter().enumerate() {
            chart.draw_series(LineSeries::new(
                [(0.0, p), (x_max, p)],
                token_colour(i).mix(0.45).stroke_width(1),
            ))?;
        }
        for i in 0..teacher.len() {
            chart.draw_series(LineSeries::new(
                points
                    .iter()
                    .map(|s| (s.step as f64, s.probs.get(i).copied().unwrap_or(0.0))),
                token_colour(i).stroke_width(2),
            ))?;
        }
        Ok(())
    })
    .unwrap_or_default();
    themed_tokens(svg)
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

/// The `q` quantile (0..=1) of frame times, nearest rank; 0 when there are none.
fn percentile(times: &[f64], q: f64) -> f64 {
    stats::percentile_nearest_rank(&stats::sorted(times), q * 100.0).unwrap_or(0.0)
}

/// A training run's state, shared by the button and the animation frames.
#[derive(Clone, Copy)]
struct TrainRun {
    /// Bumped by every start and stop; a frame of an older run does nothing.
    run: RwSignal<u32>,
    trainer: StoredValue<Option<Trainer>>,
    history: RwSignal<Vec<Step>>,
    total: RwSignal<usize>,
    loss_max: RwSignal<f64>,
    loss_floor: RwSignal<f64>,
    loss_chart: RwSignal<String>,
    probs_chart: RwSignal<String>,
    running: RwSignal<bool>,
    /// Time each frame's work took in the last run, DOM updates included (ms), for tests.
    frame_ms: RwSignal<Vec<f64>>,
}

impl TrainRun {
    fn new() -> Self {
        Self {
            run: RwSignal::new(0),
            trainer: StoredValue::new(None),
            history: RwSignal::new(Vec::new()),
            total: RwSignal::new(0),
            loss_max: RwSignal::new(1.0),
            loss_floor: RwSignal::new(0.0),
            loss_chart: RwSignal::new(String::new()),
            probs_chart: RwSignal::new(String::new()),
            running: RwSignal::new(false),
            frame_ms: RwSignal::new(Vec::new()),
        }
    }

    /// Starts a fresh student and animates its training.
    fn start(self, trainer: Trainer, total: usize) {
        let run = self.run.get_untracked().wrapping_add(1);
        self.run.set(run);
        let first = trainer.current();
        let teacher = trainer.teacher().to_vec();
        let floor = loss_floor(&trainer);
        self.loss_max.set(first.loss * 1.05);
        self.loss_floor.set(floor);
        self.loss_chart.set(loss_svg(
            std::slice::from_ref(&first),
            total,
            first.loss * 1.05,
            floor,
        ));
        self.probs_chart
            .set(probs_svg(std::slice::from_ref(&first), total, &teacher));
        self.history.set(vec![first]);
        self.total.set(total);
        self.trainer.set_value(Some(trainer));
        self.running.set(true);
        self.frame_ms.set(Vec::new());
        let per_frame = total.div_ceil(TRAIN_FRAMES).max(1);
        request_animation_frame(move || self.frame(run, per_frame, teacher));
    }

    fn stop(self) {
        self.run.update(|r| *r = r.wrapping_add(1));
        self.running.set(false);
    }

    /// One animation frame: a few gradient steps and both charts redrawn, then the next frame.
    fn frame(self, run: u32, per_frame: usize, teacher: Vec<f64>) {
        // The widget may be gone (the reader left the page) or the run replaced.
        if self.run.try_get_untracked() != Some(run) {
            return;
        }
        let start = now_ms();
        let total = self.total.get_untracked();
        let done = self.history.with_untracked(|h| h.len().saturating_sub(1));
        let n = per_frame.min(total.saturating_sub(done));
        let steps = self
            .trainer
            .try_update_value(|t| t.as_mut().map(|t| t.run(n)))
            .flatten()
            .unwrap_or_default();
        self.history.update(|h| h.extend(steps));
        let finished = self.history.with_untracked(|h| {
            let y_max = self.loss_max.get_untracked();
            let floor = self.loss_floor.get_untracked();
            self.loss_chart.set(loss_svg(h, total, y_max, floor));
            self.probs_chart.set(probs_svg(h, total, &teacher));
            h.len() > total
        });
        // Measured once the effects this frame woke (the charts' DOM updates) have run: they are
        // queued before this task.
        let frame_ms = self.frame_ms;
        leptos::task::spawn_local(async move {
            let spent = now_ms() - start;
            let _ = frame_ms.try_update(|f| f.push(spent));
        });
        if finished || n == 0 {
            self.running.set(false);
        } else {
            request_animation_frame(move || self.frame(run, per_frame, teacher));
        }
    }
}

/// The playground: a teacher and two students, their losses, temperature, and training.
#[component]
pub fn Distillation(
    /// The example the lesson starts it from.
    preset: &'static Preset,
) -> impl IntoView {
    let persist = expect_context::<Persist>();
    let lesson = Inputs::lesson(preset);
    // Storage is read even when the address wins, so that a stored value this build cannot use
    // is backed up now, before a later save replaces it.
    let (saved, saved_problem) =
        persist.load_reporting::<Inputs>(STORE_NAME, STORE_VERSION, |_, _| None);
    let address = Inputs::from_query(&url_state::current_search(), preset);
    let (start, address_problem) = starting_inputs(preset, address, saved);
    let start = start.trimmed();
    let start_problems: Vec<String> = [address_problem, saved_problem]
        .into_iter()
        .flatten()
        .collect();

    let preset_id = RwSignal::new(start.preset);
    let rows = RwSignal::new(start.rows.clone());
    let entry = RwSignal::new(start.entry);
    let hard_pick = RwSignal::new(start.hard_pick);
    let temperature = RwSignal::new(start.temperature.clone());
    let alpha = RwSignal::new(start.alpha.clone());

    let result = Memo::new(move |_| {
        rows.with(|r| {
            evaluate(
                r,
                entry.get(),
                hard_pick.get(),
                &temperature.get(),
                &alpha.get(),
            )
        })
    });
    // The last good comparison stays on screen, marked stale, while an input is wrong.
    let shown = Memo::new(
        move |prev: Option<&Option<Comparison>>| match result.get() {
            Ok(c) => Some(c),
            Err(_) => prev.cloned().flatten(),
        },
    );
    let stale = Signal::derive(move || result.with(Result::is_err));
    let problems = move || result.with(|r| r.as_ref().err().cloned().unwrap_or_default());
    let n = Memo::new(move |_| rows.with(Vec::len));

    let show = move |f: fn(&Comparison) -> String| {
        Signal::derive(move || {
            shown.with(|c| c.as_ref().map(f).unwrap_or_else(|| "\u{2014}".into()))
        })
    };

    let apply_preset = move |p: &'static Preset| {
        let example = Inputs::lesson(p);
        preset_id.set(example.preset);
        rows.set(example.rows);
        entry.set(example.entry);
        hard_pick.set(example.hard_pick);
    };
    let set_entry = move |to: Entry| {
        let from = entry.get_untracked();
        rows.update(|r| *r = convert_rows(r, from, to));
        entry.set(to);
    };
    let add_token = move |_| {
        let fill = match entry.get_untracked() {
            Entry::Weights => "0",
            Entry::Logits => "-5",
        };
        rows.update(|r| {
            if r.len() < MAX_TOKENS {
                let label = format!("token {}", r.len());
                r.push(Row {
                    label,
                    values: [fill.to_string(), fill.to_string(), fill.to_string()],
                });
            }
        });
    };
    let remove_token = move |i: usize| {
        rows.update(|r| {
            if r.len() > MIN_TOKENS && i < r.len() {
                r.remove(i);
            }
        });
        hard_pick.update(|h| {
            *h = match *h {
                Some(k) if k == i => None,
                Some(k) if k > i => Some(k - 1),
                other => other,
            }
        });
    };

    let t_error = Signal::derive(move || problems().temperature);
    let a_error = Signal::derive(move || problems().alpha);

    // Training.
    let train = TrainRun::new();
    let train_loss = RwSignal::new(start.train_loss);
    let train_start = RwSignal::new(start.train_start);
    let lr_text = RwSignal::new(start.learning_rate.clone());
    let steps_text = RwSignal::new(start.steps.clone());
    let lr = Memo::new(move |_| distill::parse_learning_rate(&lr_text.get()));
    let steps = Memo::new(move |_| parse_steps(&steps_text.get()));
    let train_error = RwSignal::new(None::<String>);
    let start_training = move |_| {
        let Ok(c) = result.get_untracked() else {
            train_error.set(Some(
                "Fix the inputs marked above first: training starts from the teacher and settings shown."
                    .into(),
            ));
            return;
        };
        let (Ok(lr), Ok(total)) = (lr.get_untracked(), steps.get_untracked()) else {
            train_error.set(Some(
                "Fix the learning rate or the number of steps first.".into(),
            ));
            return;
        };
        let config = TrainConfig {
            loss: train_loss.get_untracked().kind(c.alpha),
            learning_rate: lr,
            temperature: c.temperature,
        };
        let init = match train_start.get_untracked() {
            TrainStart::Seeded => StudentInit::Seeded(TRAIN_SEED),
            TrainStart::Uniform => StudentInit::Uniform,
        };
        match Trainer::new(&c.teacher, c.hard_index, init, config) {
            Ok(t) => {
                train_error.set(None);
                train.start(t, total);
            }
            Err(e) => train_error.set(Some(format!("{}: {}", e.field, e.message))),
        }
    };
    on_cleanup(move || {
        // Stops the animation when the widget goes away; the frames check the run id.
        let _ = train.run.try_update(|r| *r = r.wrapping_add(1));
    });

    // What the reader has set, as it is saved and put in the address.
    let current = Memo::new(move |_| {
        Inputs {
            preset: preset_id.get(),
            rows: rows.get(),
            entry: entry.get(),
            hard_pick: hard_pick.get(),
            temperature: temperature.get(),
            alpha: alpha.get(),
            train_loss: train_loss.get(),
            train_start: train_start.get(),
            learning_rate: lr_text.get(),
            steps: steps_text.get(),
        }
        .trimmed()
    });
    let usable = Memo::new(move |_| current.with(|c| c.check().is_ok()));
    // Storage is the outside world: it follows every change that can be used. The state the
    // playground started from is not saved, so opening a shared link leaves this reader's own
    // saved playground as it was until they edit; and the lesson's example is not stored at
    // all, since there is nothing to restore.
    let started = StoredValue::new(false);
    let lesson_example = lesson.clone();
    Effect::new(move |_| {
        let ok = usable.get();
        current.with(|c| {
            if !started.get_value() {
                started.set_value(true);
            } else if ok && *c == lesson_example {
                persist.clear(STORE_NAME);
            } else if ok {
                persist.save(STORE_NAME, STORE_VERSION, c);
            }
        })
    });
    url_state::keep_in_address(
        URL_PREFIX,
        Signal::derive(move || usable.get().then(|| current.with(|c| c.to_query(preset)))),
    );

    // Why the playground does not show what a link or storage held: shown until the reader
    // changes something or resets.
    let dismissed = RwSignal::new(false);
    let (start_loss, start_student) = (start.train_loss, start.train_start);
    let start_note = move || {
        let untouched = !dismissed.get() && current.with(|c| *c == start);
        (untouched && !start_problems.is_empty()).then(|| {
            view! {
                <div class="distill-restore" role="status" data-testid="distill-restore-message">
                    {start_problems.iter().map(|p| view! { <p>{p.clone()}</p> }).collect_view()}
                </div>
            }
        })
    };
    let reset = move |_| {
        let l = lesson.clone();
        preset_id.set(l.preset);
        rows.set(l.rows);
        entry.set(l.entry);
        hard_pick.set(l.hard_pick);
        temperature.set(l.temperature);
        alpha.set(l.alpha);
        train_loss.set(l.train_loss);
        train_start.set(l.train_start);
        lr_text.set(l.learning_rate);
        steps_text.set(l.steps);
        train.stop();
        train.history.set(Vec::new());
        train_error.set(None);
        dismissed.set(true);
        persist.clear(STORE_NAME);
    };

    let entry_id = unique_id("distill-entry");
    let hard_id = unique_id("distill-hard");
    let loss_id = unique_id("distill-train-loss");
    let start_id = unique_id("distill-train-start");
    let train_heading_id = format!("{loss_id}-h");
    let train_labelled_by = train_heading_id.clone();

    let worked = move |student: usize, soft: bool| {
        move || {
            shown.with(|c| {
                let Some(c) = c else { return Vec::new() };
                let Some(s) = c.students.get(student) else { return Vec::new() };
                let sum = if soft { &s.soft } else { &s.hard };
                let texts = sum.term_texts();
                let mut out = Vec::new();
                if sum.scale != 1.0 {
                    out.push(view! { <span>{format!("{} \u{d7} (", plain(sum.scale))}</span> }.into_any());
                }
                for (k, (i, text)) in texts.iter().enumerate() {
                    if k > 0 {
                        out.push(view! { <span>" + "</span> }.into_any());
                    }
                    let text = text.clone();
                    if sum.largest == Some(*i) && texts.len() > 1 {
                        out.push(view! { <mark class="distill-largest" title="The largest term">{text}</mark> }.into_any());
                    } else {
                        out.push(view! { <span>{text}</span> }.into_any());
                    }
                }
                let tail = if sum.scale != 1.0 {
                    format!(") = {} \u{d7} {} = {}", plain(sum.scale), fixed(sum.unscaled(), 3), loss_text(sum.value))
                } else {
                    format!(" = {}", loss_text(sum.value))
                };
                out.push(view! { <span>{tail}</span> }.into_any());
                out
            })
        }
    };

    let infinity_notes = move || {
        let c = result.get().ok()?;
        let notes: Vec<String> = rows.with(|r| {
            ["Student A", "Student B"]
                .iter()
                .zip(&c.students)
                .flat_map(|(name, s)| {
                    [
                        infinity_sentence(r, name, "hard-label", &s.hard),
                        infinity_sentence(r, name, "soft-target", &s.soft),
                    ]
                })
                .flatten()
                .collect()
        });
        (!notes.is_empty()).then(|| {
            view! {
                <div class="distill-infinity" data-testid="distill-infinity-note">
                    {notes.into_iter().map(|s| view! { <p>{s}</p> }).collect_view()}
                </div>
            }
        })
    };

    let kl_sentence = move || {
        shown.with(|c| {
            let c = c.as_ref()?;
            let h = fixed(c.entropy, 3);
            Some(if c.temperature == 1.0 {
                format!(
                    "Soft loss = teacher entropy + KL: even a student that copied the teacher exactly \
                     would score the entropy, {h}, so neither loss is near zero, and only KL, the part \
                     above that floor, tells the students apart."
                )
            } else {
                format!(
                    "At T = {}, soft loss = T\u{b2} \u{d7} (entropy of the softened teacher + KL): a \
                     perfect copy would still score T\u{b2} \u{d7} {h}, so only KL, the part above that \
                     floor, tells the students apart.",
                    plain(c.temperature)
                )
            })
        })
    };

    let temp_svg = Signal::derive(move || {
        shown.with(|c| {
            c.as_ref()
                .map(|c| temperature_svg(&c.teacher, &c.teacher_t))
                .unwrap_or_default()
        })
    });
    let temp_description = Signal::derive(move || {
        shown.with(|c| {
            let Some(c) = c else { return String::new() };
            let list = |p: &[f64]| {
                rows.with(|r| {
                    p.iter()
                        .enumerate()
                        .map(|(i, x)| format!("{} {}", shown_label(r, i), fixed(*x, 2)))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
            };
            format!(
                "Teacher at T = 1: {}. Softened at T = {}: {}.",
                list(&c.teacher),
                plain(c.temperature),
                list(&c.teacher_t)
            )
        })
    });
    let t_label = move || {
        shown.with(|c| {
            c.as_ref()
                .map(|c| format!("T = {}", plain(c.temperature)))
                .unwrap_or_default()
        })
    };

    let train_description = Signal::derive(move || {
        train.history.with(|h| {
            let Some(last) = h.last() else {
                return "No run yet: press Train to start one.".to_string();
            };
            let probs = rows.with(|r| {
                last.probs
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("{} {}", shown_label(r, i), fixed(*p, 2)))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            format!(
                "After {} of {} steps the loss is {} and the student gives {}.",
                last.step,
                train.total.get(),
                loss_text(last.loss),
                probs
            )
        })
    });
    let train_loss_description = Signal::derive(move || {
        train.history.with(|h| match (h.first(), h.last()) {
            (Some(a), Some(b)) => format!(
                "Loss from {} at step 0 to {} at step {}; it cannot go below {}.",
                loss_text(a.loss),
                loss_text(b.loss),
                b.step,
                loss_text(train.loss_floor.get())
            ),
            _ => String::new(),
        })
    });

    view! {
        <WidgetCard title="Distillation loss playground" name="distillation">
            {start_note}
            <div class="distill-top">
            <div class="presets" role="group" aria-label="Examples">
                {PRESETS
                    .iter()
                    .map(|p| {
                        view! {
                            <button
                                type="button"
                                class="chip"
                                data-testid=format!("distill-preset-{}", p.id)
                                aria-pressed=move || (preset_id.get() == p.id).to_string()
                                on:click=move |_| apply_preset(p)
                            >
                                {p.name}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <button type="button" data-testid="distill-reset" on:click=reset>
                "Reset to the lesson\u{2019}s example"
            </button>
            </div>
            <p class="distill-context">
                "Next token after \u{201c}" {move || preset_by_id(preset_id.get()).map_or("", |p| p.context)} " \u{2026}\u{201d}"
            </p>
            <div class="controls">
                <div class="field">
                    <label for=entry_id.clone()>"Enter values as"</label>
                    <select
                        id=entry_id
                        data-testid="distill-entry"
                        prop:value=move || entry_key(entry.get())
                        on:change=move |ev| set_entry(entry_from_id(&event_target_value(&ev)).unwrap_or(Entry::Weights))
                    >
                        <option value="weights">"Weights (normalized)"</option>
                        <option value="logits">"Logits (softmax)"</option>
                    </select>
                </div>
                <div class="field">
                    <label for=hard_id.clone()>"Hard label (the right token)"</label>
                    <select
                        id=hard_id
                        data-testid="distill-hard-target"
                        prop:value=move || hard_pick.get().map(|i| i.to_string()).unwrap_or_else(|| "auto".into())
                        on:change=move |ev| hard_pick.set(event_target_value(&ev).parse().ok())
                    >
                        <option value="auto">"The teacher\u{2019}s top token"</option>
                        {move || {
                            rows.with(|r| {
                                (0..r.len())
                                    .map(|i| {
                                        let label = format!("{i} \u{b7} {}", shown_label(r, i));
                                        view! { <option value=i.to_string() selected=hard_pick.get_untracked() == Some(i)>{label}</option> }
                                    })
                                    .collect_view()
                            })
                        }}
                    </select>
                </div>
                <NumberField label="Temperature T" testid="distill-temperature" text=temperature error=t_error step=0.5 min=0.1 />
                <NumberField label="\u{3b1} (weight of the hard loss)" testid="distill-alpha" text=alpha error=a_error step=0.1 />
            </div>

            <div class="distill-table-wrap">
                <table class="distill-table" class:stale=move || stale.get()>
                    <thead>
                        <tr>
                            <th scope="col">"Token"</th>
                            {DISTS.iter().map(|(_, name)| view! { <th scope="col">{*name}</th> }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>
                        <For each=move || 0..n.get() key=|i| *i let:i>
                            <TokenRow i=i rows=rows entry=entry shown=shown problems=Signal::derive(problems) remove=remove_token />
                        </For>
                    </tbody>
                </table>
            </div>
            {move || {
                let cols = problems().columns;
                cols.into_iter()
                    .map(|(d, msg)| view! { <p class="field-message" role="alert">{format!("{}: {msg}", DISTS[d % 3].1)}</p> })
                    .collect_view()
            }}
            <div class="distill-row-actions">
                <button type="button" data-testid="distill-add-token" on:click=add_token disabled=move || { n.get() >= MAX_TOKENS }>
                    "Add a token"
                </button>
                <span class="widget-note">{move || format!("{} tokens (2\u{2013}10). \u{201c}= \u{2026}\u{201d} is the normalized probability.", n.get())}</span>
            </div>

            <div class="outputs distill-outputs">
                <Output label="Hard-label loss, A" testid="loss-hard-a" value=show(|c| loss_text(c.students[0].hard.value)) stale=stale />
                <Output label="Hard-label loss, B" testid="loss-hard-b" value=show(|c| loss_text(c.students[1].hard.value)) stale=stale />
                <Output label="Soft-target loss, A" testid="loss-soft-a" value=show(|c| loss_text(c.students[0].soft.value)) stale=stale />
                <Output label="Soft-target loss, B" testid="loss-soft-b" value=show(|c| loss_text(c.students[1].soft.value)) stale=stale />
                <Output label="KL, A" testid="kl-a" value=show(|c| loss_text(c.students[0].kl)) stale=stale />
                <Output label="KL, B" testid="kl-b" value=show(|c| loss_text(c.students[1].kl)) stale=stale />
                <Output label="\u{3b1} mix, A" testid="loss-mix-a" value=show(|c| loss_text(c.students[0].mixed)) stale=stale />
                <Output label="\u{3b1} mix, B" testid="loss-mix-b" value=show(|c| loss_text(c.students[1].mixed)) stale=stale />
                <Output label="Teacher entropy" testid="teacher-entropy" value=show(|c| format!("{} nats", fixed(c.entropy, 3))) stale=stale />
            </div>
            {infinity_notes}
            <div class="distill-worked">
                <p class="worked" data-testid="distill-worked-hard-a">"Hard, A: " {worked(0, false)}</p>
                <p class="worked" data-testid="distill-worked-hard-b">"Hard, B: " {worked(1, false)}</p>
                <p class="worked" data-testid="distill-worked-soft-a">"Soft, A: " {worked(0, true)}</p>
                <p class="worked" data-testid="distill-worked-soft-b">"Soft, B: " {worked(1, true)}</p>
            </div>
            <p class="widget-note" data-testid="distill-kl-note">{kl_sentence}</p>

            <h4 class="distill-subhead">"What T does to the teacher"</h4>
            <div class="distill-legend" aria-hidden="true">
                <span><i class="swatch swatch-muted"></i>"T = 1"</span>
                <span><i class="swatch swatch-accent"></i>{t_label}</span>
            </div>
            // Like the shared Chart, with the token labels between the bars and the caption.
            <figure class="chart">
                // SVG drawn by our own code from numbers, never from user text.
                <div class="chart-svg-box" role="img" aria-label=move || temp_description.get() data-testid="distill-temperature-chart" inner_html=move || temp_svg.get()></div>
                <div class="distill-axis" aria-hidden="true" style=move || format!("grid-template-columns: repeat({}, 1fr)", n.get())>
                    {move || rows.with(|r| (0..r.len()).map(|i| view! { <span>{shown_label(r, i)}</span> }).collect_view())}
                </div>
                <figcaption class="chart-caption">{move || temp_description.get()}</figcaption>
            </figure>

            <section class="distill-train" aria-labelledby=train_labelled_by>
                <h4 class="distill-subhead" id=train_heading_id>"Watch a student learn"</h4>
                <div class="controls">
                    <div class="field">
                        <label for=loss_id.clone()>"Train on"</label>
                        <select id=loss_id data-testid="distill-train-loss" prop:value=move || train_loss.get().id() on:change=move |ev| train_loss.set(TrainLoss::from_id(&event_target_value(&ev)).unwrap_or_default())>
                            <option value="hard" selected=start_loss == TrainLoss::Hard>"The hard label only"</option>
                            <option value="soft" selected=start_loss == TrainLoss::Soft>"The teacher\u{2019}s soft targets only"</option>
                            <option value="mix" selected=start_loss == TrainLoss::Mix>"The \u{3b1} mix of both"</option>
                        </select>
                    </div>
                    <div class="field">
                        <label for=start_id.clone()>"Student starts"</label>
                        <select id=start_id data-testid="distill-train-start" prop:value=move || train_start.get().id() on:change=move |ev| train_start.set(TrainStart::from_id(&event_target_value(&ev)).unwrap_or_default())>
                            <option value="uniform" selected=start_student == TrainStart::Uniform>"Uniform (all logits 0)"</option>
                            <option value="seeded" selected=start_student == TrainStart::Seeded>"Random (fixed seed 7)"</option>
                        </select>
                    </div>
                    <NumberField label="Learning rate" testid="distill-lr" text=lr_text error=Signal::derive(move || lr.get().err().map(|e| e.message)) step=0.1 />
                    <NumberField label="Steps" testid="distill-steps" text=steps_text error=Signal::derive(move || steps.get().err().map(|e| e.message)) step=10.0 min=1.0 />
                </div>
                <div class="distill-row-actions">
                    <button type="button" class="button primary" data-testid="distill-train" on:click=start_training>
                        "Train a fresh student"
                    </button>
                    <button type="button" data-testid="distill-stop" on:click=move |_| train.stop() disabled=move || !train.running.get()>
                        "Stop"
                    </button>
                    <output
                        class="distill-step"
                        data-testid="distill-train-step"
                        data-running=move || train.running.get().to_string()
                        data-longest-frame-ms=move || train.frame_ms.with(|f| format!("{:.2}", percentile(f, 1.0)))
                        data-p95-frame-ms=move || train.frame_ms.with(|f| format!("{:.2}", percentile(f, 0.95)))
                        data-frames=move || train.frame_ms.with(Vec::len).to_string()
                    >
                        {move || {
                            train.history.with(|h| match h.last() {
                                Some(s) => format!("Step {} of {}", s.step, train.total.get()),
                                None => "Not started".to_string(),
                            })
                        }}
                    </output>
                </div>
                <p class="field-message" role="alert">{move || train_error.get()}</p>
                <Show when=move || train.history.with(|h| !h.is_empty())>
                    <p class="distill-chart-label">"Loss (nats), step by step; the coloured line is the floor it cannot go below"</p>
                    <Chart svg=train.loss_chart description=train_loss_description testid="distill-train-loss-chart" />
                    <p class="distill-chart-label">"Student\u{2019}s probabilities (bold) and the teacher\u{2019}s (faint)"</p>
                    <Chart svg=train.probs_chart description=train_description testid="distill-train-chart" />
                    <ul class="distill-legend distill-token-legend" aria-hidden="true">
                        {move || rows.with(|r| (0..r.len()).map(|i| {
                            view! { <li><i class="swatch" style=format!("background: var(--distill-c{i})")></i>{shown_label(r, i)}</li> }
                        }).collect_view())}
                    </ul>
                </Show>
            </section>
        </WidgetCard>
    }
}

/// One token's row: its label and remove button, then a cell per distribution.
#[component]
fn TokenRow(
    /// Index of the token.
    i: usize,
    /// Every token.
    rows: RwSignal<Vec<Row>>,
    /// How values are typed.
    entry: RwSignal<Entry>,
    /// The last good comparison (for the normalized probabilities).
    shown: Memo<Option<Comparison>>,
    /// What is wrong with the inputs.
    problems: Signal<Problems>,
    /// Removes token `i`.
    remove: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let label_text = move || rows.with(|r| r.get(i).map(|x| x.label.clone()).unwrap_or_default());
    let label_id = unique_id("distill-label");
    view! {
        <tr>
            <th scope="row" class="distill-token">
                <div class="distill-token-cell">
                    <span class="distill-index" aria-hidden="true">{i}</span>
                    <input
                        id=label_id
                        type="text"
                        class="distill-label"
                        maxlength="24"
                        autocomplete="off"
                        spellcheck="false"
                        data-testid=format!("token-label-{i}")
                        aria-label=format!("Label of token {i}")
                        prop:value=label_text
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            rows.update(|r| if let Some(row) = r.get_mut(i) { row.label = v; });
                        }
                    />
                    <button
                        type="button"
                        class="distill-remove"
                        data-testid=format!("distill-remove-{i}")
                        aria-label=move || format!("Remove token {i} ({})", rows.with(|r| shown_label(r, i)))
                        disabled=move || { rows.with(Vec::len) <= MIN_TOKENS }
                        on:click=move |_| remove(i)
                    >
                        "\u{d7}"
                    </button>
                </div>
            </th>
            {(0..3).map(|d| view! { <ValueCell i=i d=d rows=rows entry=entry shown=shown problems=problems /> }).collect_view()}
        </tr>
    }
}

/// One typed value: number field, slider and the normalized probability it gives.
#[component]
fn ValueCell(
    /// Token index.
    i: usize,
    /// Distribution index (0 teacher, 1 student A, 2 student B).
    d: usize,
    /// Every token.
    rows: RwSignal<Vec<Row>>,
    /// How values are typed.
    entry: RwSignal<Entry>,
    /// The last good comparison.
    shown: Memo<Option<Comparison>>,
    /// What is wrong with the inputs.
    problems: Signal<Problems>,
) -> impl IntoView {
    let (prefix, name) = DISTS[d % 3];
    let text = move || rows.with(|r| r.get(i).map(|x| x.values[d].clone()).unwrap_or_default());
    let set = move |v: String| {
        rows.update(|r| {
            if let Some(row) = r.get_mut(i) {
                row.values[d] = v;
            }
        })
    };
    let error = move || {
        problems.with(|p| {
            p.cells
                .iter()
                .find(|(pd, pi, _)| *pd == d && *pi == i)
                .map(|(_, _, m)| m.clone())
        })
    };
    let field_id = unique_id(prefix);
    let msg_id = format!("{field_id}-msg");
    let aria = move || format!("{name}, {}", rows.with(|r| shown_label(r, i)));
    // The slider covers 0..1 for probabilities (or up to the largest weight typed) and −10..10
    // for logits.
    let range = move || match entry.get() {
        Entry::Logits => (-10.0, 10.0, 0.1),
        Entry::Weights => {
            let top = rows.with(|r| {
                r.iter()
                    .filter_map(|row| row.values[d].trim().parse::<f64>().ok())
                    .filter(|v| v.is_finite())
                    .fold(1.0f64, f64::max)
            });
            (0.0, top, top / 100.0)
        }
    };
    let slider_value = move || {
        text()
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .unwrap_or(0.0)
            .to_string()
    };
    let normalized = move || {
        shown.with(|c| {
            let c = c.as_ref()?;
            let p = match d {
                0 => c.teacher.get(i),
                _ => c.students.get(d - 1).and_then(|s| s.probs.get(i)),
            };
            p.map(|p| format!("= {}", fixed(*p, 3)))
        })
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let delta = match ev.key().as_str() {
            "ArrowUp" => 1.0,
            "ArrowDown" => -1.0,
            _ => return,
        };
        ev.prevent_default();
        let step = match entry.get_untracked() {
            Entry::Weights => 0.01,
            Entry::Logits => 0.1,
        };
        let min = match entry.get_untracked() {
            Entry::Weights => 0.0,
            Entry::Logits => -distill::MAX_LOGIT,
        };
        if let Ok(v) = text().trim().parse::<f64>() {
            if v.is_finite() {
                let next = ((v + delta * step).max(min) * 1e6).round() / 1e6;
                set(distill::value_text(entry.get_untracked(), next));
            }
        }
    };
    view! {
        <td class="distill-cell" class:invalid=move || error().is_some()>
            <input
                id=field_id
                type="text"
                inputmode="decimal"
                autocomplete="off"
                spellcheck="false"
                class="distill-value"
                data-testid=format!("{prefix}-p{i}")
                aria-label=aria
                aria-invalid=move || error().is_some().to_string()
                aria-describedby=msg_id.clone()
                prop:value=text
                on:input=move |ev| set(event_target_value(&ev))
                on:keydown=on_keydown
            />
            <input
                type="range"
                class="distill-slider"
                tabindex="-1"
                aria-label=move || format!("{} (slider)", aria())
                min=move || range().0.to_string()
                max=move || range().1.to_string()
                step=move || range().2.to_string()
                prop:value=slider_value
                on:input=move |ev| {
                    let v: f64 = event_target_value(&ev).parse().unwrap_or(0.0);
                    set(distill::value_text(entry.get_untracked(), v));
                }
            />
            <span class="distill-prob" data-testid=format!("{prefix}-prob{i}")>{normalized}</span>
            <p class="field-message" id=msg_id role="alert">{error}</p>
        </td>
    }
}

#[cfg(test)]
mod tests {
    use super::inputs::{hard_pick_of, rows_of};
    use super::*;

    fn seed_rows() -> Vec<Row> {
        rows_of(&SEED_PRESET)
    }

    #[test]
    fn evaluates_the_course_example_and_collects_every_problem() {
        let c = evaluate(&seed_rows(), Entry::Weights, None, "1", "0.5").unwrap();
        assert_eq!(loss_text(c.students[0].soft.value), "0.886");
        assert_eq!(loss_text(c.students[1].soft.value), "1.203");
        let mut rows = seed_rows();
        rows[1].values[0] = "x".into();
        rows[2].values[1] = "-1".into();
        for v in &mut rows.iter_mut().map(|r| &mut r.values[2]) {
            *v = "0".into();
        }
        let p = evaluate(&rows, Entry::Weights, None, "0", "2").unwrap_err();
        assert_eq!(p.cells.len(), 2);
        assert_eq!((p.cells[0].0, p.cells[0].1), (0, 1));
        assert_eq!((p.cells[1].0, p.cells[1].1), (1, 2));
        assert_eq!(p.columns.len(), 1);
        assert_eq!(p.columns[0].0, 2);
        assert!(p.temperature.is_some() && p.alpha.is_some());
        for bad in ["", "NaN", "1e309", "abc"] {
            let mut rows = seed_rows();
            rows[0].values[1] = bad.into();
            assert!(evaluate(&rows, Entry::Weights, None, "1", "0.5").is_err());
        }
    }

    #[test]
    fn switching_entry_keeps_the_distributions() {
        let rows = seed_rows();
        let logits = convert_rows(&rows, Entry::Weights, Entry::Logits);
        assert_eq!(logits[0].values[0], "-0.357");
        let c = evaluate(&logits, Entry::Logits, None, "1", "0.5").unwrap();
        assert_eq!(loss_text(c.students[0].soft.value), "0.886");
        assert_eq!(loss_text(c.entropy), "0.863");
        let back = convert_rows(&logits, Entry::Logits, Entry::Weights);
        let close = |text: &str, x: f64| (text.parse::<f64>().unwrap() - x).abs() < 1e-3;
        assert!(close(&back[0].values[0], 0.7), "{}", back[0].values[0]);
        assert!(close(&back[3].values[2], 0.3), "{}", back[3].values[2]);
        // A zero weight becomes the smallest logit, and a column with junk is left alone.
        let mut rows = seed_rows();
        rows[3].values[1] = "0".into();
        rows[0].values[2] = "x".into();
        let logits = convert_rows(&rows, Entry::Weights, Entry::Logits);
        assert_eq!(logits[3].values[1], "-100");
        assert_eq!(logits[0].values[2], "x");
    }

    #[test]
    fn infinite_losses_get_a_sentence_naming_the_token() {
        let mut rows = seed_rows();
        rows[2].values[2] = "0".into();
        let c = evaluate(&rows, Entry::Weights, None, "1", "0.5").unwrap();
        assert_eq!(loss_text(c.students[1].soft.value), "\u{221e}");
        assert_eq!(loss_text(c.students[1].kl), "\u{221e}");
        let s = infinity_sentence(&rows, "Student B", "soft-target", &c.students[1].soft).unwrap();
        assert!(s.contains("\u{201c}Europe\u{201d} probability 0"), "{s}");
        assert!(infinity_sentence(&rows, "Student B", "hard-label", &c.students[1].hard).is_none());
        assert_eq!(shown_label(&rows, 9), "token 9");
    }

    #[test]
    fn presets_pick_the_hard_label_only_when_the_teacher_is_wrong() {
        assert_eq!(hard_pick_of(&SEED_PRESET), None);
        assert_eq!(hard_pick_of(&distill::WRONG_TEACHER_PRESET), Some(1));
    }

    #[test]
    fn charts_draw_in_theme_colours_and_grow() {
        let svg = temperature_svg(&[0.7, 0.3], &[0.6, 0.4]);
        assert!(svg.contains("var(--accent)") && svg.contains("var(--muted)"));
        let config = TrainConfig {
            loss: LossKind::Soft,
            learning_rate: 1.0,
            temperature: 2.0,
        };
        let teacher = SEED_PRESET.teacher;
        let run = distill::train(&teacher, 0, StudentInit::Uniform, config, 600).unwrap();
        let early = probs_svg(&run[..10], 600, &teacher);
        let late = probs_svg(&run, 600, &teacher);
        assert!(late.len() > early.len());
        assert!(late.contains("var(--distill-c3)") && !late.contains("#010303"));
        assert!(sampled(&run).len() <= MAX_CHART_POINTS + 1);
        assert_eq!(sampled(&run).last().unwrap().step, 600);
        let loss = loss_svg(&run, 600, run[0].loss, 1.0);
        assert!(loss.contains("var(--text)") && loss.contains("var(--accent)"));
        let trainer = Trainer::new(&teacher, 0, StudentInit::Uniform, config).unwrap();
        let floor = loss_floor(&trainer);
        assert!((floor - 4.0 * distill::entropy(&distill::soften(&teacher, 2.0))).abs() < 1e-12);
        assert!(run[600].loss >= floor - 1e-9 && run[600].loss - floor < 1e-3);
        assert_eq!(TrainLoss::Hard.kind(0.5), LossKind::Hard);
        assert_eq!(percentile(&[], 0.95), 0.0);
        let times: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&times, 0.95), 95.0);
        assert_eq!(percentile(&times, 1.0), 100.0);
        assert_eq!(TrainLoss::Mix.kind(0.5), LossKind::Mix(0.5));
    }
}
