//! Decode ceiling: memory bandwidth ÷ weights read per token bounds tokens per second, for two
//! models side by side on the same machine, with a check that each model's weights fit its memory.

use super::calc_parts::{FitNote, GpuSelect, ModelPresets};
use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::decode::{ceilings, Ceilings, LARGE_MODEL_PRESETS, SMALL_MODEL_PRESETS};
use leptos::prelude::*;

/// Mounts the widget with the directive's parameters (`bandwidth`, `a-gb`, `b-gb`).
pub fn mount(params: WidgetParams) -> AnyView {
    view! {
        <DecodeCeiling
            bandwidth=params.get("bandwidth").unwrap_or("100")
            a_gb=params.get("a-gb").unwrap_or("5")
            b_gb=params.get("b-gb").unwrap_or("40")
        />
    }
    .into_any()
}

/// The calculator: one machine's bandwidth and memory, two models' weights, two ceilings.
#[component]
pub fn DecodeCeiling(
    /// Starting bandwidth, GB/s.
    #[prop(into)]
    bandwidth: String,
    /// Starting weights of model A, GB (a dense model).
    #[prop(into)]
    a_gb: String,
    /// Starting weights of model B, GB (a dense model).
    #[prop(into)]
    b_gb: String,
) -> impl IntoView {
    let bw_text = RwSignal::new(bandwidth.to_string());
    let memory_text = RwSignal::new(String::new());
    let gpu_id = RwSignal::new("custom".to_string());
    let a_text = RwSignal::new(a_gb.to_string());
    let a_read = RwSignal::new(String::new());
    let b_text = RwSignal::new(b_gb.to_string());
    let b_read = RwSignal::new(String::new());
    let calc = Calculation::new(move || {
        ceilings(
            &bw_text.get(),
            &memory_text.get(),
            (&a_text.get(), &a_read.get()),
            (&b_text.get(), &b_read.get()),
        )
    });
    let shown = calc.shown;
    let stale = calc.stale();
    crate::services::url_state::share(
        "dc",
        vec![
            ("bw", bw_text),
            ("mem", memory_text),
            ("gpu", gpu_id),
            ("a", a_text),
            ("ar", a_read),
            ("b", b_text),
            ("br", b_read),
        ],
        Signal::derive(move || !stale.get()),
    );
    let error_for = move |field: &'static str| calc.error_for(field);
    let show = move |f: fn(&Ceilings) -> String| calc.show(f);

    view! {
        <WidgetCard title="Decode ceiling: two models on one machine" name="decode-ceiling">
            <div class="controls">
                <div class="control-group">
                    <GpuSelect label="Machine" testid="decode-gpu" gpu=gpu_id bandwidth=bw_text memory=memory_text />
                    <NumberField label="Memory bandwidth" testid="decode-bandwidth" text=bw_text error=error_for("Memory bandwidth") unit="GB/s" step=10.0 />
                    <Presets label="Bandwidth examples" options=vec![("The lesson's example: 100 GB/s", "100")] text=bw_text />
                    <NumberField label="Memory" testid="decode-gpu-memory" text=memory_text error=error_for("GPU memory") unit="GB" placeholder="not set" />
                </div>
                <div class="control-group">
                    <NumberField label="Model A: weights in memory" testid="decode-model-gb-a" text=a_text error=error_for("Model A") unit="GB" />
                    <NumberField label="Model A: read per token, if fewer (mixture of experts)" testid="decode-read-gb-a" text=a_read error=error_for("Model A per token") unit="GB" placeholder="all (dense)" />
                    <ModelPresets label="Model A presets" options=SMALL_MODEL_PRESETS in_memory=a_text read_per_token=a_read />
                </div>
                <div class="control-group">
                    <NumberField label="Model B: weights in memory" testid="decode-model-gb-b" text=b_text error=error_for("Model B") unit="GB" />
                    <NumberField label="Model B: read per token, if fewer (mixture of experts)" testid="decode-read-gb-b" text=b_read error=error_for("Model B per token") unit="GB" placeholder="all (dense)" />
                    <ModelPresets label="Model B presets" options=LARGE_MODEL_PRESETS in_memory=b_text read_per_token=b_read />
                </div>
            </div>
            <div class="outputs">
                <Output label="Model A, upper bound" testid="decode-tps-a" value=show(Ceilings::tps_a_text) stale=stale />
                <Output label="Model B, upper bound" testid="decode-tps-b" value=show(Ceilings::tps_b_text) stale=stale />
                <Output label="A against B" testid="decode-ratio" value=show(Ceilings::comparison_text) stale=stale />
                <Output label="Time per token, A / B (at least)" testid="decode-ms" value=show(Ceilings::ms_text) stale=stale />
            </div>
            <FitNote
                testid="decode-fit-note"
                text=Signal::derive(move || shown.with(|c| c.as_ref().map(|c| c.fit_note.clone())))
                overflow=Signal::derive(move || shown.with(|c| c.as_ref().is_some_and(|c| c.overflow)))
            />
            <div class="worked" data-testid="decode-worked">
                {move || shown.get().map(|c| c.worked.into_iter().map(|line| view! { <p>{line}</p> }).collect_view())}
            </div>
            <p class="widget-note">
                "Upper bounds for one sequence: real runs reach part of the peak bandwidth and also read the KV cache. A mixture-of-experts model reads only its active experts for each token, but must hold all of them in memory. The ratio between A and B holds on any machine."
            </p>
        </WidgetCard>
    }
}
