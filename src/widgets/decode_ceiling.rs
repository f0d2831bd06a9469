//! Decode ceiling: memory bandwidth ÷ weights read per token bounds tokens per second, for two
//! models side by side on the same machine, with a check that each model's weights fit its
//! memory; then both models served at a batch, with what caps the batch and what binds.

use super::calc_parts::{FitNote, GpuSelect, ModelFieldNames, ModelFields};
use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::batching::{decode_card, DecodeCard, DecodeInputs};
use crate::logic::decode::{LARGE_MODEL_PRESETS, SMALL_MODEL_PRESETS};
use crate::logic::{batching, decode, kv_cache, memory};
use crate::services::storage::Persist;
use leptos::prelude::*;

/// Model A's fields: the smaller model, by default the course's 8B at about 4 bits.
const MODEL_A: ModelFieldNames = crate::model_field_names!(
    crate::logic::decode::Model::A,
    "Model A",
    "decode-model-gb-a",
    "decode-read-gb-a"
);
/// Model B's fields: the larger model, by default the course's 70B at about 4 bits.
const MODEL_B: ModelFieldNames = crate::model_field_names!(
    crate::logic::decode::Model::B,
    "Model B",
    "decode-model-gb-b",
    "decode-read-gb-b"
);

/// The batch the card starts on: one sequence, where the batch outputs meet the ceilings.
const START_BATCH: &str = "1";
/// The context the card starts on, tokens per sequence.
const START_CONTEXT: &str = "1024";

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

/// The calculator: one machine's bandwidth, memory and arithmetic, two models' weights, their
/// two ceilings, and both served at a batch.
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
    let tflops_text = RwSignal::new(String::new());
    let gpu_id = RwSignal::new("custom".to_string());
    let a_text = RwSignal::new(a_gb.to_string());
    let a_read = RwSignal::new(String::new());
    let a_arch = RwSignal::new("llama3-8b".to_string());
    let b_text = RwSignal::new(b_gb.to_string());
    let b_read = RwSignal::new(String::new());
    let b_arch = RwSignal::new("llama3-70b".to_string());
    let batch_text = RwSignal::new(START_BATCH.to_string());
    let context_text = RwSignal::new(START_CONTEXT.to_string());
    let calc = Calculation::new(move || {
        decode_card(DecodeInputs {
            bandwidth: &bw_text.get(),
            memory: &memory_text.get(),
            peak_tflops: &tflops_text.get(),
            a: (&a_text.get(), &a_read.get()),
            a_arch: &a_arch.get(),
            b: (&b_text.get(), &b_read.get()),
            b_arch: &b_arch.get(),
            batch: &batch_text.get(),
            context: &context_text.get(),
        })
    });
    let shown = calc.shown;
    let stale = calc.stale();
    crate::services::url_state::share(
        "dc",
        vec![
            ("bw", bw_text.into()),
            ("mem", memory_text.into()),
            ("tf", tflops_text.into()),
            ("gpu", gpu_id.into()),
            ("a", a_text.into()),
            ("ar", a_read.into()),
            ("aa", a_arch.into()),
            ("b", b_text.into()),
            ("br", b_read.into()),
            ("ba", b_arch.into()),
            ("batch", batch_text.into()),
            ("ctx", context_text.into()),
        ],
        Signal::derive(move || !stale.get()),
    );
    let field_errors = Callback::new(move |field: crate::logic::FormField| calc.error_for(field));
    // Once the measuring lab has run, this browser joins the machines.
    let persist = use_context::<Persist>().unwrap_or_else(Persist::forwarding);
    let device = super::lab_result::measured_device(persist);
    let device = Signal::derive(move || device.get());
    let show = move |f: fn(&DecodeCard) -> String| calc.show(f);

    view! {
        <WidgetCard title="Decode ceiling: two models on one machine" name="decode-ceiling">
            <div class="controls">
                <div class="control-group">
                    <GpuSelect label="Machine" testid="decode-gpu" gpu=gpu_id bandwidth=bw_text memory=memory_text tflops=tflops_text device=device />
                    <NumberField label="Memory bandwidth" testid="decode-bandwidth" text=bw_text error=calc.error_for(decode::Field::MemoryBandwidth) unit="GB/s" step=10.0 />
                    <Presets label="Bandwidth examples" options=vec![("The lesson's example: 100 GB/s", "100")] text=bw_text />
                    <NumberField label="Memory" testid="decode-gpu-memory" text=memory_text error=calc.error_for(memory::Field::GpuMemory) unit="GB" placeholder="not set" />
                    <NumberField label="Peak compute (dense BF16)" testid="decode-tflops" text=tflops_text error=calc.error_for(batching::Field::PeakCompute) unit="TFLOPS" step=10.0 placeholder="not set" />
                </div>
                <ModelFields names=MODEL_A in_memory=a_text read_per_token=a_read error_for=field_errors presets=SMALL_MODEL_PRESETS architecture=(a_arch, "decode-arch-a") />
                <ModelFields names=MODEL_B in_memory=b_text read_per_token=b_read error_for=field_errors presets=LARGE_MODEL_PRESETS architecture=(b_arch, "decode-arch-b") />
                <div class="control-group">
                    <NumberField label="Batch: sequences decoded together" testid="decode-batch" text=batch_text error=calc.error_for(kv_cache::Field::BatchSize) unit="seq." min=1.0 />
                    <Presets label="Batch presets" options=vec![("1", "1"), ("8", "8"), ("32", "32"), ("256", "256")] text=batch_text />
                    <NumberField label="Context per sequence" testid="decode-context" text=context_text error=calc.error_for(kv_cache::Field::ContextLength) unit="tokens" step=256.0 min=1.0 />
                    <Presets label="Context presets" options=vec![("128", "128"), ("1K", "1024"), ("8K", "8192"), ("32K", "32768")] text=context_text />
                </div>
            </div>
            <div class="outputs">
                <Output label="Model A, upper bound" testid="decode-tps-a" value=show(|c| c.ceilings.tps_a_text()) stale=stale />
                <Output label="Model B, upper bound" testid="decode-tps-b" value=show(|c| c.ceilings.tps_b_text()) stale=stale />
                <Output label="A against B" testid="decode-ratio" value=show(|c| c.ceilings.comparison_text()) stale=stale />
                <Output label="Time per token, A / B (at least)" testid="decode-ms" value=show(|c| c.ceilings.ms_text()) stale=stale />
            </div>
            <p class="outputs-heading">"Serving the batch on one GPU"</p>
            <div class="outputs">
                <Output label="Each request, A / B" testid="decode-per-request-out" value=show(DecodeCard::per_request_text) stale=stale />
                <Output label="The whole GPU, A / B" testid="decode-total-out" value=show(DecodeCard::total_text) stale=stale />
                <Output label="Largest batch that fits, A / B" testid="decode-max-batch-out" value=show(DecodeCard::max_batch_text) stale=stale />
                <Output label="What limits the step, A / B" testid="decode-bound-out" value=show(DecodeCard::bound_text) stale=stale />
            </div>
            <FitNote
                testid="decode-fit-note"
                text=Signal::derive(move || shown.with(|c| c.as_ref().map(|c| c.ceilings.fit_note.clone())))
                overflow=Signal::derive(move || shown.with(|c| c.as_ref().is_some_and(|c| c.ceilings.overflow)))
            />
            <div class="worked" data-testid="decode-worked">
                {move || shown.get().map(|c| c.ceilings.worked.into_iter().chain(c.worked).map(|line| view! { <p>{line}</p> }).collect_view())}
            </div>
            <p class="widget-note">
                "Upper bounds. The first two are for one sequence, which reads only the weights. A batch reads the weights once for all its sequences, plus each one's KV cache, and does arithmetic for each; memory must hold every sequence's KV cache beside the weights. Real runs reach part of the peak figures and keep memory for activations too. A mixture-of-experts model reads only its active experts for one token, but a batch reads every expert any of its sequences needs. "
                <a href="measure-it-yourself/">"Measure this browser"</a>
                " and it joins the machines."
            </p>
        </WidgetCard>
    }
}
