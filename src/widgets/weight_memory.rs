//! Weight memory and GPU count: parameters × bytes per parameter → GB, and how many GPUs hold it.

use super::controls::{NumberField, Output, Presets, WidgetCard};
use crate::calc::format::{fixed, plain};
use crate::calc::memory::{self, Precision};
use crate::calc::InputError;
use crate::content::WidgetParams;
use leptos::prelude::*;

/// Mounts the widget with the directive's parameters (`params`, `precision`, `bits`, `gpu-gb`).
pub fn mount(params: WidgetParams) -> AnyView {
    view! {
        <WeightMemory
            params_b=params.get("params").unwrap_or("70")
            precision=params.get("precision").unwrap_or("fp16")
            bits=params.get("bits").unwrap_or("4.85")
            gpu_gb=params.get("gpu-gb").unwrap_or("80")
        />
    }
    .into_any()
}

/// A good result of the calculator.
#[derive(Debug, Clone, PartialEq)]
struct Sizing {
    weight_gb: f64,
    fraction: f64,
    gpus: u64,
    gpu_gb: f64,
    worked: String,
}

fn size(
    params: &str,
    precision_id: &str,
    bits: &str,
    gpu: &str,
) -> Result<Sizing, Vec<InputError>> {
    let params_b = memory::parse_params_b(params);
    let precision = match Precision::from_id(precision_id) {
        Some(p) => Ok(p),
        None => memory::parse_bits(bits).map(Precision::Bits),
    };
    let gpu_gb = memory::parse_gpu_gb(gpu);
    match (params_b, precision, gpu_gb) {
        (Ok(params_b), Ok(precision), Ok(gpu_gb)) => {
            let weight_gb = memory::weight_memory_gb(params_b, precision);
            Ok(Sizing {
                weight_gb,
                fraction: memory::gpu_fraction(weight_gb, gpu_gb),
                gpus: memory::gpus_needed(weight_gb, gpu_gb),
                gpu_gb,
                worked: memory::worked_line(params_b, precision, gpu_gb),
            })
        }
        (a, b, c) => Err([a.err(), b.err(), c.err()].into_iter().flatten().collect()),
    }
}

/// The calculator: model size and precision in, weight memory and GPUs out.
#[component]
pub fn WeightMemory(
    /// Starting parameters, in billions.
    params_b: &'static str,
    /// Starting precision id (`fp16`, …, or `custom`).
    precision: &'static str,
    /// Starting bits per weight for a custom precision.
    bits: &'static str,
    /// Starting GPU memory, in GB.
    gpu_gb: &'static str,
) -> impl IntoView {
    let params_text = RwSignal::new(params_b.to_string());
    let precision_id = RwSignal::new(precision.to_string());
    let bits_text = RwSignal::new(bits.to_string());
    let gpu_text = RwSignal::new(gpu_gb.to_string());

    let result = Memo::new(move |_| {
        size(
            &params_text.get(),
            &precision_id.get(),
            &bits_text.get(),
            &gpu_text.get(),
        )
    });
    // The last good result stays on screen, marked stale, while an input is wrong.
    let shown = Memo::new(move |prev: Option<&Option<Sizing>>| match result.get() {
        Ok(s) => Some(s),
        Err(_) => prev.cloned().flatten(),
    });
    let stale = Signal::derive(move || result.with(Result::is_err));
    let error_for = move |field: &'static str| {
        Signal::derive(move || {
            result.with(|r| {
                r.as_ref()
                    .err()
                    .and_then(|errs| errs.iter().find(|e| e.field == field))
                    .map(|e| e.message.clone())
            })
        })
    };
    let is_custom = move || precision_id.get() == "custom";
    let show = move |f: fn(&Sizing) -> String| {
        Signal::derive(move || {
            shown
                .get()
                .as_ref()
                .map(f)
                .unwrap_or_else(|| "\u{2014}".into())
        })
    };

    view! {
        <WidgetCard title="Weight memory and GPU count" name="weight-memory">
            <div class="controls">
                <div class="control-group">
                    <NumberField label="Parameters (billions)" testid="weight-params" text=params_text error=error_for("Parameters") unit="B" />
                    <Presets
                        label="Model size presets"
                        options=vec![("3B", "3"), ("8B", "8"), ("70B", "70"), ("405B", "405"), ("671B", "671"), ("1T", "1000")]
                        text=params_text
                    />
                </div>
                <div class="field">
                    <label for="weight-precision">"Precision"</label>
                    <select
                        id="weight-precision"
                        data-testid="weight-precision"
                        prop:value=move || precision_id.get()
                        on:change=move |ev| precision_id.set(event_target_value(&ev))
                    >
                        {Precision::NAMED
                            .iter()
                            .map(|(id, p)| {
                                let label = format!("{} \u{b7} {} B per parameter", p.label(), plain(p.bytes_per_param()));
                                view! { <option value=*id selected=*id == precision>{label}</option> }
                            })
                            .collect_view()}
                        <option value="custom" selected=precision == "custom">"Custom bits per weight"</option>
                    </select>
                </div>
                <Show when=is_custom>
                    <NumberField label="Bits per weight" testid="weight-bits" text=bits_text error=error_for("Bits per weight") unit="bits" step=0.05 />
                </Show>
                <NumberField label="GPU memory" testid="weight-gpu-memory" text=gpu_text error=error_for("GPU memory") unit="GB" />
            </div>
            <div class="outputs">
                <Output label="Weights" testid="weight-gb" value=show(|s| format!("{} GB", plain(s.weight_gb))) stale=stale />
                <Output
                    label="Share of one GPU"
                    testid="weight-gpu-fraction"
                    value=show(|s| format!("{} of one {} GB GPU", fixed(s.fraction, 2), plain(s.gpu_gb)))
                    stale=stale
                />
                <Output
                    label="Whole GPUs"
                    testid="weight-gpus"
                    value=show(|s| format!("{} GPU{}", s.gpus, if s.gpus == 1 { "" } else { "s" }))
                    stale=stale
                />
            </div>
            <p class="worked" data-testid="weight-worked">{move || shown.get().map(|s| s.worked)}</p>
            <p class="widget-note">
                "Weights only: the KV cache, activations and the serving runtime need memory on top of this."
            </p>
        </WidgetCard>
    }
}

#[cfg(test)]
mod tests {
    use super::size;

    #[test]
    fn sizes_the_lesson_example_and_collects_every_error() {
        let s = size("70", "fp16", "", "80").unwrap();
        assert_eq!((s.weight_gb, s.gpus), (140.0, 2));
        let s = size("8", "custom", "4.85", "24").unwrap();
        assert!((s.weight_gb - 4.85).abs() < 1e-9);
        let errs = size("", "custom", "x", "-1").unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, ["Parameters", "Bits per weight", "GPU memory"]);
    }
}
