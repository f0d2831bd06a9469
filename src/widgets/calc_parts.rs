//! Pieces the sizing calculators share: a GPU preset menu, a model's fields with their presets,
//! a note on whether the weights fit, and the wiring every calculator repeats: a block of
//! outputs, the worked lines, a log–log chart and the shared link.

use super::controls::{Chart, ChartAxes, Menu, NumberField, Output};
use crate::logic::batching::{self, ARCHITECTURES};
use crate::logic::chart::{LegendEntry, LogLogChart};
use crate::logic::decode::{self, Model, ModelPreset};
use crate::logic::format::plain;
use crate::logic::gpus::{GpuPreset, GPU_PRESETS};
use crate::logic::memory::{Precision, CUSTOM};
use crate::logic::FormField;
use crate::services::url_state::Shared;
use leptos::prelude::*;

/// A number as a reader would type it back: `3350`, `4.85` (no thousands separators).
pub fn typed(value: f64) -> String {
    crate::logic::format::typed(value)
}

/// A precision menu: each named precision with its bytes per `per` ("parameter", "element"),
/// and with `custom`, a last option for bits per weight typed by hand.
#[component]
pub fn PrecisionSelect(
    /// The visible label.
    label: &'static str,
    /// `data-testid` of the `<select>`.
    testid: &'static str,
    /// The chosen precision id (`fp16`, …, or `custom`).
    value: RwSignal<String>,
    /// What one of the bytes is per, in the options' text.
    per: &'static str,
    /// Why the id cannot be used, if it cannot.
    error: Signal<Option<String>>,
    /// Whether to offer custom bits per weight.
    #[prop(optional)]
    custom: bool,
) -> impl IntoView {
    let mut options: Vec<(&'static str, String)> = Precision::NAMED
        .iter()
        .map(|(id, p)| {
            let text = format!(
                "{} \u{b7} {} B per {per}",
                p.label(),
                plain(p.bytes_per_param())
            );
            (*id, text)
        })
        .collect();
    if custom {
        options.push((CUSTOM, "Custom bits per weight".into()));
    }
    view! { <Menu label testid value options on_pick=move |v: String| value.set(v) error /> }
}

/// The GPU menu: picking a GPU fills `memory` (GB), `bandwidth` (GB/s) and/or `tflops` (peak
/// dense BF16 TFLOPS), whichever the calculator has, with its data-sheet figures. It shows
/// "Custom" once a filled field no longer holds the preset's figure. Given a `device` bandwidth
/// (the measuring lab's, once it has run), it offers this browser too.
#[component]
pub fn GpuSelect(
    /// The visible label.
    label: &'static str,
    /// `data-testid` of the `<select>`.
    testid: &'static str,
    /// The chosen preset id, or `custom`.
    gpu: RwSignal<String>,
    /// The memory field this menu fills, if any.
    #[prop(optional)]
    memory: Option<RwSignal<String>>,
    /// The bandwidth field this menu fills, if any.
    #[prop(optional)]
    bandwidth: Option<RwSignal<String>>,
    /// The peak-arithmetic field this menu fills, if any.
    #[prop(optional)]
    tflops: Option<RwSignal<String>>,
    /// The read bandwidth the measuring lab measured here, GB/s: offered as
    /// [`THIS_DEVICE`] ("this browser, one core"), which fills the bandwidth and clears the
    /// memory (unknown).
    #[prop(optional)]
    device: Option<Signal<Option<f64>>>,
) -> impl IntoView {
    let id = super::controls::unique_id(testid);
    let label_for = id.clone();
    let matches = move |g: &GpuPreset| {
        let same = |field: Option<RwSignal<String>>, want: f64| {
            field.is_none_or(|f| f.with(|t| crate::logic::read_f64(t) == Some(want)))
        };
        same(memory, g.memory_gb)
            && same(bandwidth, g.bandwidth_gb_s)
            && same(tflops, g.peak_tflops)
    };
    let measured = move || device.and_then(|d| d.get());
    let shown = move || {
        let id = gpu.get();
        match crate::logic::gpus::preset(&id) {
            Some(g) if matches(g) => id,
            None if id == THIS_DEVICE && this_device_shown(measured(), bandwidth, memory) => id,
            _ => "custom".to_string(),
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let (THIS_DEVICE, Some(bw)) = (id.as_str(), measured()) {
            if let Some(m) = memory {
                m.set(String::new());
            }
            if let Some(b) = bandwidth {
                b.set(typed(bw));
            }
        }
        if let Some(g) = crate::logic::gpus::preset(&id) {
            if let Some(m) = memory {
                m.set(typed(g.memory_gb));
            }
            if let Some(b) = bandwidth {
                b.set(typed(g.bandwidth_gb_s));
            }
            if let Some(t) = tflops {
                t.set(typed(g.peak_tflops));
            }
        }
        gpu.set(id);
    };
    view! {
        <form method="dialog" class="field">
            <label for=label_for>{label}</label>
            <select id=id data-testid=testid prop:value=shown on:change=on_change>
                {GPU_PRESETS
                    .iter()
                    .map(|g| {
                        let text = format!("{} \u{b7} {} GB/s", g.name, plain(g.bandwidth_gb_s));
                        view! { <option value=g.id>{text}</option> }
                    })
                    .collect_view()}
                {move || measured().map(|bw| {
                    let text = format!("This browser, one core \u{b7} {} GB/s", plain(bw));
                    view! { <option value=THIS_DEVICE>{text}</option> }
                })}
                <option value="custom">"Custom (type the figures)"</option>
            </select>
        </form>
    }
}

/// The GPU menu's value for the measuring lab's device.
pub const THIS_DEVICE: &str = "this-device";

/// Whether the menu shows [`THIS_DEVICE`]: measured, and the fields still hold its figures (the
/// bandwidth measured, the memory blank).
fn this_device_shown(
    measured: Option<f64>,
    bandwidth: Option<RwSignal<String>>,
    memory: Option<RwSignal<String>>,
) -> bool {
    measured.is_some_and(|bw| {
        bandwidth.is_none_or(|b| b.with(|t| crate::logic::read_f64(t) == Some(bw)))
            && memory.is_none_or(|m| m.with(|t| t.trim().is_empty()))
    })
}

/// Keeps a calculator's inputs in the page's address under `prefix` (`wm`, `dc`, …), each
/// `fields` key beside its signal, while no input is wrong (`stale` is false): a link never
/// carries a broken state.
pub fn share_link(prefix: &'static str, fields: Vec<Shared>, stale: Signal<bool>) {
    crate::services::url_state::share(prefix, fields, Signal::derive(move || !stale.get()));
}

/// One output of a block: its label, its `data-testid`, and its text.
pub type OutputRow = (&'static str, &'static str, Signal<String>);

/// A calculator's outputs, in order, all marked stale together, to stand in its
/// `<div class="outputs">`. An array, not a `Vec`: a list's view leaves a placeholder node
/// after its items, an array's none, so the block holds the outputs alone as before.
pub fn output_rows<const N: usize>(
    stale: Signal<bool>,
    rows: [OutputRow; N],
) -> [impl IntoView; N] {
    rows.map(|(label, testid, value)| view! { <Output label testid value stale /> })
}

/// The worked lines of the last good result, a paragraph each (none before there is one).
pub fn worked_lines(testid: &'static str, lines: Signal<Option<Vec<String>>>) -> impl IntoView {
    view! {
        <div class="worked" data-testid=testid>
            {move || lines.get().map(|l| l.into_iter().map(|line| view! { <p>{line}</p> }).collect_view())}
        </div>
    }
}

/// How a calculator's log–log chart reads: its `data-testid`, each axis's tick labels and name,
/// and its legend.
pub struct LogLogLook {
    /// `data-testid` of the chart.
    pub testid: &'static str,
    /// The x ticks' text, from their value.
    pub x_tick: fn(f64) -> String,
    /// The y ticks' text, from their value.
    pub y_tick: fn(f64) -> String,
    /// What the x axis measures (with unit).
    pub x_label: &'static str,
    /// What the y axis measures (with unit).
    pub y_label: &'static str,
    /// A swatch in each series' colour and its meaning.
    pub legend: Vec<LegendEntry>,
}

/// A calculator's log–log chart of its last good result (empty before there is one), with its
/// ticks, axis names and legend, and `description` for its words.
pub fn log_log_chart(
    chart: Memo<Option<LogLogChart>>,
    description: Signal<String>,
    look: LogLogLook,
) -> impl IntoView {
    let LogLogLook {
        testid,
        x_tick,
        y_tick,
        x_label,
        y_label,
        legend,
    } = look;
    let svg = Signal::derive(move || {
        chart.with(|c| c.as_ref().and_then(|c| c.svg().ok()).unwrap_or_default())
    });
    let x_ticks = Signal::derive(move || {
        chart.with(|c| c.as_ref().map(|c| c.x_ticks(x_tick)).unwrap_or_default())
    });
    let y_ticks = Signal::derive(move || {
        chart.with(|c| c.as_ref().map(|c| c.y_ticks(y_tick)).unwrap_or_default())
    });
    let axes = ChartAxes {
        x_ticks,
        y_ticks,
        x_label,
        y_label,
        legend,
    };
    view! { <Chart svg description testid axes /> }
}

/// Whether the weights fit the GPUs, in words under a calculator's outputs: marked when they
/// do not (`overflow`), empty (and hidden) when there is nothing to say.
#[component]
pub fn FitNote(
    /// `data-testid` of the note.
    testid: &'static str,
    /// The note's text, if the calculation could be made.
    text: Signal<Option<String>>,
    /// True when the weights do not fit: the note is marked.
    overflow: Signal<bool>,
) -> impl IntoView {
    view! {
        <p class="fit-note" class:overflow=move || overflow.get() data-testid=testid aria-live="polite">
            {move || text.get()}
        </p>
    }
}

/// Buttons that fill a model's two weight fields from [`ModelPreset`]s: the weights in memory,
/// and the weights read per token for a mixture-of-experts model (left blank for a dense one,
/// which reads them all), and its architecture when the calculator asks for one. A button
/// shows pressed while the fields hold its figures.
#[component]
fn ModelPresets(
    /// What the presets are for, read by screen readers.
    label: &'static str,
    /// The models offered.
    options: &'static [ModelPreset],
    /// The field for the weights in memory, GB.
    in_memory: RwSignal<String>,
    /// The field for the weights read per token, GB (blank: all of them).
    read_per_token: RwSignal<String>,
    /// The architecture menu's id, if the calculator has one.
    architecture: Option<RwSignal<String>>,
) -> impl IntoView {
    view! {
        <div class="presets" role="group" aria-label=label>
            {options
                .iter()
                .map(|preset| {
                    let memory = typed(preset.weights.in_memory_gb);
                    let read = if preset.weights.is_mixture_of_experts() {
                        typed(preset.weights.read_per_token_gb)
                    } else {
                        String::new()
                    };
                    let (memory_now, read_now) = (memory.clone(), read.clone());
                    let arch = preset.architecture;
                    let pressed = move || {
                        (in_memory.with(|t| t.trim() == memory_now)
                            && read_per_token.with(|t| t.trim() == read_now)
                            && architecture.is_none_or(|a| a.with(|id| id == arch)))
                            .to_string()
                    };
                    view! {
                        <button
                            type="button"
                            class="chip"
                            aria-pressed=pressed
                            on:click=move |_| {
                                in_memory.set(memory.clone());
                                read_per_token.set(read.clone());
                                if let Some(a) = architecture {
                                    a.set(arch.to_string());
                                }
                            }
                        >
                            {preset.label}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// The words and hooks of one model's fields: labels, `data-testid`s, and which model the
/// calculator's errors name. Built by [`model_field_names!`](crate::model_field_names) from the
/// model's name.
#[derive(Debug, Clone, Copy)]
pub struct ModelFieldNames {
    /// The model, as its fields' errors name it.
    pub model: Model,
    /// Label of the weights-in-memory field, e.g. `Model A: weights in memory`.
    pub memory_label: &'static str,
    /// Its `data-testid`.
    pub memory_testid: &'static str,
    /// Label of the read-per-token field.
    pub read_label: &'static str,
    /// Its `data-testid`.
    pub read_testid: &'static str,
    /// What the preset buttons are for, read by screen readers.
    pub presets_label: &'static str,
    /// Label of the architecture menu, e.g. `Model A: architecture`.
    pub architecture_label: &'static str,
}

/// [`ModelFieldNames`] for `$model` called `$name` (`"Model A"`), with the `data-testid`s of
/// its weights-in-memory and read-per-token fields.
#[macro_export]
macro_rules! model_field_names {
    ($model:expr, $name:literal, $memory_testid:literal, $read_testid:literal) => {
        $crate::widgets::calc_parts::ModelFieldNames {
            model: $model,
            memory_label: concat!($name, ": weights in memory"),
            memory_testid: $memory_testid,
            read_label: concat!($name, ": read per token, if fewer (mixture of experts)"),
            read_testid: $read_testid,
            presets_label: concat!($name, " presets"),
            architecture_label: concat!($name, ": architecture"),
        }
    };
}

/// One model's fields in a calculator: its weights in memory, the weights it reads per token
/// if fewer (a mixture of experts), preset buttons that fill both, and, when the calculator
/// serves a batch, its architecture (KV cache per token and parameters at work).
#[component]
pub fn ModelFields(
    /// Labels, hooks and error field names.
    names: ModelFieldNames,
    /// The weights in memory, GB, as typed.
    in_memory: RwSignal<String>,
    /// The weights read per token, GB, as typed (blank: all of them).
    read_per_token: RwSignal<String>,
    /// Each field's message (called once per field, as the view is built).
    error_for: Callback<FormField, Signal<Option<String>>>,
    /// The models the buttons offer.
    presets: &'static [ModelPreset],
    /// The architecture's id and the menu's `data-testid`, for a calculator that serves a batch.
    #[prop(optional)]
    architecture: Option<(RwSignal<String>, &'static str)>,
) -> impl IntoView {
    let error = move |field: FormField| error_for.run(field);
    let model = names.model;
    view! {
        <div class="control-group">
            <NumberField label=names.memory_label testid=names.memory_testid text=in_memory error=error(decode::Field::Weights(model).into()) unit="GB" />
            <NumberField label=names.read_label testid=names.read_testid text=read_per_token error=error(decode::Field::ReadPerToken(model).into()) unit="GB" placeholder="all (dense)" />
            {architecture.map(|(id, testid)| view! {
                <Menu
                    label=names.architecture_label
                    testid=testid
                    value=id
                    options={ARCHITECTURES.iter().map(|a| (a.id, architecture_label(a))).collect::<Vec<_>>()}
                    on_pick=move |v: String| id.set(v)
                    error=error(batching::Field::Architecture(model).into())
                />
            })}
            <ModelPresets label=names.presets_label options=presets in_memory=in_memory read_per_token=read_per_token architecture=architecture.map(|(id, _)| id) />
        </div>
    }
}

/// A menu line for an architecture, short enough for a phone: `Llama 3 8B`, or for a mixture
/// of experts `DeepSeek-R1 (MoE, 8 of 256)`. Its KV cache per token and the parameters it works
/// with are in the calculator's sums.
fn architecture_label(a: &crate::logic::batching::Architecture) -> String {
    match a.routing {
        Some(r) => format!("{} (MoE, {} of {})", a.name, r.per_token, r.routed),
        None => a.name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::typed;

    #[test]
    fn typed_numbers_have_no_separators() {
        assert_eq!(typed(3350.0), "3350");
        assert_eq!(typed(4.85), "4.85");
    }

    #[test]
    fn architecture_lines_are_short_and_name_a_mixture_of_experts() {
        let line = |id| {
            crate::logic::batching::architecture(id)
                .map(super::architecture_label)
                .unwrap_or_default()
        };
        assert_eq!(line("llama3-8b"), "Llama 3 8B");
        assert_eq!(line("deepseek-r1"), "DeepSeek-R1 (MoE, 8 of 256)");
    }

    use crate::logic::decode::{self, Model};
    use crate::logic::{batching, FormField};

    #[test]
    fn model_labels_match_the_names_the_logic_gives_errors() {
        let a =
            crate::model_field_names!(Model::A, "Model A", "decode-model-gb-a", "decode-read-gb-a");
        // The labels say the name the errors give the model's fields.
        for field in [
            FormField::from(decode::Field::Weights(a.model)),
            decode::Field::ReadPerToken(a.model).into(),
            batching::Field::Architecture(a.model).into(),
        ] {
            assert!(field.name().starts_with("Model A"), "{field:?}");
        }
        assert_eq!(
            a.read_label,
            "Model A: read per token, if fewer (mixture of experts)"
        );
    }
}
