//! Decode ceiling: memory bandwidth ÷ weights read per token bounds tokens per second, for two
//! models side by side on the same machine, with a check that each model's weights fit its
//! memory; then both models served at a batch, with what caps the batch and what binds.

use super::calc_parts::{
    output_rows, share_link, worked_lines, FitNote, GpuSelect, ModelFieldNames, ModelFields,
};
use super::controls::{Calculation, NumberField, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::batching::{decode_card, DecodeCard, DecodeInputs};
use crate::logic::decode::{LARGE_MODEL_PRESETS, SMALL_MODEL_PRESETS};
use crate::logic::{batching, decode, kv_cache, memory};
use crate::services::storage::Persist;
use crate::services::url_state::Shared;
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
    let text = |t: &str| RwSignal::new(t.to_string());
    let f = DecodeFields {
        bandwidth: RwSignal::new(bandwidth),
        memory: text(""),
        tflops: text(""),
        gpu: text("custom"),
        a: RwSignal::new(a_gb),
        a_read: text(""),
        a_arch: text("llama3-8b"),
        b: RwSignal::new(b_gb),
        b_read: text(""),
        b_arch: text("llama3-70b"),
        batch: text(START_BATCH),
        context: text(START_CONTEXT),
    };
    let calc = Calculation::new(move || f.card());
    let shown = calc.shown;
    share_link("dc", f.shared(), calc.stale());
    let field_errors = Callback::new(move |field: crate::logic::FormField| calc.error_for(field));
    let worked = Signal::derive(move || {
        shown.with(|c| {
            c.as_ref()
                .map(|c| c.ceilings.worked.iter().chain(&c.worked).cloned().collect())
        })
    });

    view! {
        <WidgetCard title="Decode ceiling: two models on one machine" name="decode-ceiling">
            <div class="controls">
                {machine_controls(f, calc)}
                <ModelFields names=MODEL_A in_memory=f.a read_per_token=f.a_read error_for=field_errors presets=SMALL_MODEL_PRESETS architecture=(f.a_arch, "decode-arch-a") />
                <ModelFields names=MODEL_B in_memory=f.b read_per_token=f.b_read error_for=field_errors presets=LARGE_MODEL_PRESETS architecture=(f.b_arch, "decode-arch-b") />
                {batch_controls(f, calc)}
            </div>
            {card_outputs(calc)}
            <FitNote
                testid="decode-fit-note"
                text=Signal::derive(move || shown.with(|c| c.as_ref().map(|c| c.ceilings.fit_note.clone())))
                overflow=Signal::derive(move || shown.with(|c| c.as_ref().is_some_and(|c| c.ceilings.overflow)))
            />
            {worked_lines("decode-worked", worked)}
            <p class="widget-note">
                "Upper bounds. The first two are for one sequence, which reads only the weights. A batch reads the weights once for all its sequences, plus each one's KV cache, and does arithmetic for each; memory must hold every sequence's KV cache beside the weights. Real runs reach part of the peak figures and keep memory for activations too. A mixture-of-experts model reads only its active experts for one token, but a batch reads every expert any of its sequences needs. "
                <a href="measure-it-yourself/">"Measure this browser"</a>
                " and it joins the machines."
            </p>
        </WidgetCard>
    }
}

/// The card's inputs, as typed: the machine (its preset, bandwidth GB/s, memory GB and peak
/// TFLOPS, the last two blank when not given), each model's weights in memory and read per
/// token (GB) and its architecture, and the batch and its context.
#[derive(Clone, Copy)]
struct DecodeFields {
    bandwidth: RwSignal<String>,
    memory: RwSignal<String>,
    tflops: RwSignal<String>,
    gpu: RwSignal<String>,
    a: RwSignal<String>,
    a_read: RwSignal<String>,
    a_arch: RwSignal<String>,
    b: RwSignal<String>,
    b_read: RwSignal<String>,
    b_arch: RwSignal<String>,
    batch: RwSignal<String>,
    context: RwSignal<String>,
}

impl DecodeFields {
    /// The card from the fields' texts.
    fn card(self) -> Result<DecodeCard, Vec<crate::logic::InputError>> {
        decode_card(DecodeInputs {
            bandwidth: &self.bandwidth.get(),
            memory: &self.memory.get(),
            peak_tflops: &self.tflops.get(),
            a: (&self.a.get(), &self.a_read.get()),
            a_arch: &self.a_arch.get(),
            b: (&self.b.get(), &self.b_read.get()),
            b_arch: &self.b_arch.get(),
            batch: &self.batch.get(),
            context: &self.context.get(),
        })
    }

    /// Every input the link carries, by its key in the address.
    fn shared(self) -> Vec<Shared> {
        vec![
            ("bw", self.bandwidth.into()),
            ("mem", self.memory.into()),
            ("tf", self.tflops.into()),
            ("gpu", self.gpu.into()),
            ("a", self.a.into()),
            ("ar", self.a_read.into()),
            ("aa", self.a_arch.into()),
            ("b", self.b.into()),
            ("br", self.b_read.into()),
            ("ba", self.b_arch.into()),
            ("batch", self.batch.into()),
            ("ctx", self.context.into()),
        ]
    }
}

/// The machine: its menu (this browser too, once the measuring lab has run), bandwidth, memory
/// and peak arithmetic.
fn machine_controls(f: DecodeFields, calc: Calculation<DecodeCard>) -> impl IntoView {
    // Once the measuring lab has run, this browser joins the machines.
    let persist = use_context::<Persist>().unwrap_or_else(Persist::forwarding);
    let device = super::lab_result::measured_device(persist);
    let device = Signal::derive(move || device.get());
    view! {
        <div class="control-group">
            <GpuSelect label="Machine" testid="decode-gpu" gpu=f.gpu bandwidth=f.bandwidth memory=f.memory tflops=f.tflops device=device />
            <NumberField label="Memory bandwidth" testid="decode-bandwidth" text=f.bandwidth error=calc.error_for(decode::Field::MemoryBandwidth) unit="GB/s" step=10.0 />
            <Presets label="Bandwidth examples" options=vec![("The lesson's example: 100 GB/s", "100")] text=f.bandwidth />
            <NumberField label="Memory" testid="decode-gpu-memory" text=f.memory error=calc.error_for(memory::Field::GpuMemory) unit="GB" placeholder="not set" />
            <NumberField label="Peak compute (dense BF16)" testid="decode-tflops" text=f.tflops error=calc.error_for(batching::Field::PeakCompute) unit="TFLOPS" step=10.0 placeholder="not set" />
        </div>
    }
}

/// The batch and each sequence's context, with presets.
fn batch_controls(f: DecodeFields, calc: Calculation<DecodeCard>) -> impl IntoView {
    view! {
        <div class="control-group">
            <NumberField label="Batch: sequences decoded together" testid="decode-batch" text=f.batch error=calc.error_for(kv_cache::Field::BatchSize) unit="seq." min=1.0 />
            <Presets label="Batch presets" options=vec![("1", "1"), ("8", "8"), ("32", "32"), ("256", "256")] text=f.batch />
            <NumberField label="Context per sequence" testid="decode-context" text=f.context error=calc.error_for(kv_cache::Field::ContextLength) unit="tokens" step=256.0 min=1.0 />
            <Presets label="Context presets" options=vec![("128", "128"), ("1K", "1024"), ("8K", "8192"), ("32K", "32768")] text=f.context />
        </div>
    }
}

/// The one-sequence ceilings, then both models serving the batch on one GPU.
fn card_outputs(calc: Calculation<DecodeCard>) -> impl IntoView {
    let stale = calc.stale();
    let show = move |f: fn(&DecodeCard) -> String| calc.show(f);
    view! {
        <div class="outputs">
            {output_rows(stale, [
                ("Model A, upper bound", "decode-tps-a", show(|c| c.ceilings.tps_a_text())),
                ("Model B, upper bound", "decode-tps-b", show(|c| c.ceilings.tps_b_text())),
                ("A against B", "decode-ratio", show(|c| c.ceilings.comparison_text())),
                ("Time per token, A / B (at least)", "decode-ms", show(|c| c.ceilings.ms_text())),
            ])}
        </div>
        <p class="outputs-heading">"Serving the batch on one GPU"</p>
        <div class="outputs">
            {output_rows(stale, [
                ("Each request, A / B", "decode-per-request-out", show(DecodeCard::per_request_text)),
                ("The whole GPU, A / B", "decode-total-out", show(DecodeCard::total_text)),
                ("Largest batch that fits, A / B", "decode-max-batch-out", show(DecodeCard::max_batch_text)),
                ("What limits the step, A / B", "decode-bound-out", show(DecodeCard::bound_text)),
            ])}
        </div>
    }
}
