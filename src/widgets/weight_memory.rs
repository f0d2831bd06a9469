//! Weight memory and GPU count: parameters × bytes per parameter → GB, and how many GPUs hold it,
//! optionally with a runtime allowance (KV cache plus a percentage for activations and overhead).

use super::calc_parts::{
    log_log_chart, share_link, worked_lines, GpuSelect, LogLogLook, PrecisionSelect,
};
use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::chart::sizing::{gb_tick, params_tick, weight_memory_chart};
use crate::logic::chart::Stroke;
use crate::logic::kv_cache::{model_shape, MODEL_SHAPES};
use crate::logic::memory::{size_with, RuntimeText, Sizing};
use crate::logic::{kv_cache, memory};
use crate::services::url_state::Shared;
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

/// The calculator: model size and precision in, weight memory and GPUs out.
#[component]
pub fn WeightMemory(
    /// Starting parameters, in billions.
    #[prop(into)]
    params_b: String,
    /// Starting precision id (`fp16`, …, or `custom`).
    #[prop(into)]
    precision: String,
    /// Starting bits per weight for a custom precision.
    #[prop(into)]
    bits: String,
    /// Starting GPU memory, in GB.
    #[prop(into)]
    gpu_gb: String,
) -> impl IntoView {
    let size = SizeFields {
        params: RwSignal::new(params_b),
        precision: RwSignal::new(precision),
        bits: RwSignal::new(bits),
        gpu_memory: RwSignal::new(gpu_gb),
        gpu: RwSignal::new(crate::logic::gpus::DEFAULT_PRESET_ID.to_string()),
    };
    let runtime_on = RwSignal::new(false);
    let runtime = RuntimeFields::new();
    let with_runtime = move || runtime_on.get();

    let calc = Calculation::new(move || size.sizing(with_runtime().then(|| runtime.text())));
    // The last good result stays on screen, marked stale, while an input is wrong.
    let shown = calc.shown;
    share_link("wm", shared(size, runtime_on, runtime), calc.stale());
    let worked = Signal::derive(move || shown.with(|s| s.as_ref().map(|s| s.worked.clone())));

    view! {
        <WidgetCard title="Weight memory and GPU count" name="weight-memory">
            {size_controls(size, calc)}
            <div class="runtime-toggle">
                <label>
                    <input
                        type="checkbox"
                        data-testid="weight-runtime"
                        prop:checked=with_runtime
                        on:change=move |ev| runtime_on.set(event_target_checked(&ev))
                    />
                    " Add runtime memory: KV cache and overhead"
                </label>
            </div>
            <Show when=with_runtime>
                {runtime_box(runtime, calc)}
            </Show>
            {sizing_outputs(calc, runtime_on)}
            {worked_lines("weight-worked", worked)}
            {sizing_chart(shown)}
            <p class="widget-note">
                {move || {
                    if with_runtime() {
                        "The KV cache grows with context and batch; the overhead percentage stands in for activations and the serving runtime's own buffers."
                    } else {
                        "Weights only: the KV cache, activations and the serving runtime need memory on top of this. Tick the box above to add them."
                    }
                }}
            </p>
        </WidgetCard>
    }
}

/// The model and the GPU, as typed: parameters (billions), precision, custom bits per weight,
/// GPU memory (GB), and the GPU preset that filled it.
#[derive(Clone, Copy)]
struct SizeFields {
    params: RwSignal<String>,
    precision: RwSignal<String>,
    bits: RwSignal<String>,
    gpu_memory: RwSignal<String>,
    gpu: RwSignal<String>,
}

impl SizeFields {
    /// The sizing from the fields' texts, with the runtime allowance if there is one.
    fn sizing(
        self,
        allowance: Option<RuntimeText>,
    ) -> Result<Sizing, Vec<crate::logic::InputError>> {
        size_with(
            &self.params.get(),
            &self.precision.get(),
            &self.bits.get(),
            &self.gpu_memory.get(),
            allowance.as_ref(),
        )
    }
}

/// Every input the link carries, by its key in the address.
fn shared(size: SizeFields, runtime_on: RwSignal<bool>, runtime: RuntimeFields) -> Vec<Shared> {
    vec![
        ("params", size.params.into()),
        ("prec", size.precision.into()),
        ("bits", size.bits.into()),
        ("mem", size.gpu_memory.into()),
        ("gpu", size.gpu.into()),
        ("rt", runtime_on.into()),
        ("layers", runtime.layers.into()),
        ("kvh", runtime.kv_heads.into()),
        ("hd", runtime.head_dim.into()),
        ("ctx", runtime.context.into()),
        ("batch", runtime.batch.into()),
        ("kvprec", runtime.kv_precision.into()),
        ("oh", runtime.overhead.into()),
    ]
}

/// The model's size and precision (custom bits only for a custom precision), and the GPU.
/// A view of any type, as is the runtime box: with both fields behind a `Show` nested whole in
/// the card, the card's type is too deep for the compiler's native (page-building) build.
fn size_controls(size: SizeFields, calc: Calculation<Sizing>) -> AnyView {
    let is_custom = move || size.precision.get() == memory::CUSTOM;
    view! {
        <div class="controls">
            <div class="control-group">
                <NumberField label="Parameters (billions)" testid="weight-params" text=size.params error=calc.error_for(memory::Field::Parameters) unit="B" />
                <Presets
                    label="Model size presets"
                    options=vec![("3B", "3"), ("8B", "8"), ("70B", "70"), ("405B", "405"), ("DeepSeek-R1 671B", "671"), ("1T", "1000")]
                    text=size.params
                />
            </div>
            <PrecisionSelect label="Precision" testid="weight-precision" value=size.precision per="parameter" error=calc.error_for(memory::Field::Precision) custom=true />
            <Show when=is_custom>
                <div class="control-group">
                    <NumberField label="Bits per weight" testid="weight-bits" text=size.bits error=calc.error_for(memory::Field::BitsPerWeight) unit="bits" step=0.05 />
                    <Presets label="Bits per weight presets" options=vec![("GGUF Q4_K_M", "4.85"), ("Q8_0", "8.5"), ("3-bit", "3")] text=size.bits />
                </div>
            </Show>
            <div class="control-group">
                <GpuSelect label="GPU" testid="weight-gpu" gpu=size.gpu memory=size.gpu_memory />
                <NumberField label="GPU memory" testid="weight-gpu-memory" text=size.gpu_memory error=calc.error_for(memory::Field::GpuMemory) unit="GB" />
            </div>
        </div>
    }
    .into_any()
}

/// The weights, the KV cache and the total with the runtime allowance, and the GPUs they take.
fn sizing_outputs(calc: Calculation<Sizing>, runtime_on: RwSignal<bool>) -> impl IntoView {
    let stale = calc.stale();
    let show = move |f: fn(&Sizing) -> String| calc.show(f);
    view! {
        <div class="outputs">
            <Output label="Weights" testid="weight-gb" value=show(Sizing::weight_text) stale=stale />
            <Show when=move || runtime_on.get()>
                <Output label="KV cache" testid="weight-kv-gb" value=show(Sizing::kv_text) stale=stale />
                <Output label="Weights + KV + overhead" testid="weight-total-gb" value=show(Sizing::total_text) stale=stale />
            </Show>
            <Output label="Share of one GPU" testid="weight-gpu-fraction" value=show(Sizing::fraction_text) stale=stale />
            <Output label="Whole GPUs" testid="weight-gpus" value=show(Sizing::gpus_text) stale=stale />
        </div>
    }
}

/// Weight memory against model size at this precision, one GPU's memory, and the runtime
/// allowance, with the model marked.
fn sizing_chart(shown: Memo<Option<Sizing>>) -> impl IntoView {
    let chart = Memo::new(move |_| shown.with(|s| s.as_ref().map(weight_memory_chart)));
    let description = Signal::derive(move || {
        shown.with(|s| {
            s.as_ref()
                .map(Sizing::chart_description)
                .unwrap_or_default()
        })
    });
    let look = LogLogLook {
        testid: "weight-chart",
        x_tick: params_tick,
        y_tick: gb_tick,
        x_label: "Model size, billions of parameters (log scale)",
        y_label: "Memory, GB (log scale)",
        legend: vec![
            (Stroke::Main, "Weights at this precision"),
            (Stroke::Limit, "Memory of one GPU"),
            (Stroke::Second, "With runtime allowance"),
        ],
    };
    log_log_chart(chart, description, look)
}

/// The runtime allowance's fields, as typed: a model's shape, context, batch, KV-cache
/// precision and overhead. It starts with a Llama 3 70B shape at 8K tokens.
#[derive(Clone, Copy)]
struct RuntimeFields {
    layers: RwSignal<String>,
    kv_heads: RwSignal<String>,
    head_dim: RwSignal<String>,
    context: RwSignal<String>,
    batch: RwSignal<String>,
    kv_precision: RwSignal<String>,
    overhead: RwSignal<String>,
}

impl RuntimeFields {
    fn new() -> Self {
        let (layers, kv_heads, head_dim) =
            model_shape("llama3-70b").map_or((80, 8, 128), |m| (m.layers, m.kv_heads, m.head_dim));
        let text = |t: String| RwSignal::new(t);
        RuntimeFields {
            layers: text(layers.to_string()),
            kv_heads: text(kv_heads.to_string()),
            head_dim: text(head_dim.to_string()),
            context: text("8192".into()),
            batch: text("1".into()),
            kv_precision: text("fp16".into()),
            overhead: text("10".into()),
        }
    }

    /// The fields' texts, for the calculator.
    fn text(self) -> RuntimeText {
        RuntimeText {
            layers: self.layers.get(),
            kv_heads: self.kv_heads.get(),
            head_dim: self.head_dim.get(),
            context: self.context.get(),
            batch: self.batch.get(),
            kv_precision: self.kv_precision.get(),
            overhead: self.overhead.get(),
        }
    }

    /// Fills in a model's shape: layers, KV heads and head dimension.
    fn fill_shape(self, layers: u64, kv_heads: u64, head_dim: u64) {
        self.layers.set(layers.to_string());
        self.kv_heads.set(kv_heads.to_string());
        self.head_dim.set(head_dim.to_string());
    }

    /// Whether the fields hold that shape (its preset button shows pressed).
    fn has_shape(self, layers: u64, kv_heads: u64, head_dim: u64) -> bool {
        let is = |field: RwSignal<String>, n: u64| field.with(|t| t.trim() == n.to_string());
        is(self.layers, layers) && is(self.kv_heads, kv_heads) && is(self.head_dim, head_dim)
    }
}

/// The runtime allowance's box: model-shape presets and the fields, each with its message.
fn runtime_box(f: RuntimeFields, calc: Calculation<Sizing>) -> AnyView {
    view! {
            <div class="runtime-box">
                <div class="presets" role="group" aria-label="Model shape presets">
                    {MODEL_SHAPES
                        .iter()
                        .map(|m| {
                            let (l, h, d) = (m.layers, m.kv_heads, m.head_dim);
                            let pressed = move || f.has_shape(l, h, d).to_string();
                            view! {
                                <button type="button" class="chip" aria-pressed=pressed on:click=move |_| f.fill_shape(l, h, d)>
                                    {format!("{} shape", m.name)}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
                <div class="controls">
                    <NumberField label="Layers" testid="weight-layers" text=f.layers error=calc.error_for(kv_cache::Field::Layers) min=1.0 />
                    <NumberField label="KV heads (GQA groups)" testid="weight-kv-heads" text=f.kv_heads error=calc.error_for(kv_cache::Field::KvHeads) min=1.0 />
                    <NumberField label="Head dimension" testid="weight-head-dim" text=f.head_dim error=calc.error_for(kv_cache::Field::HeadDimension) min=1.0 />
                    <div class="control-group">
                        <NumberField label="Context length" testid="weight-context" text=f.context error=calc.error_for(kv_cache::Field::ContextLength) unit="tokens" step=1024.0 min=1.0 />
                        <Presets label="Context presets" options=vec![("4K", "4096"), ("8K", "8192"), ("32K", "32768"), ("128K", "131072")] text=f.context />
                    </div>
                    <NumberField label="Batch (sequences at once)" testid="weight-batch" text=f.batch error=calc.error_for(kv_cache::Field::BatchSize) min=1.0 />
                    <PrecisionSelect label="KV-cache precision" testid="weight-kv-precision" value=f.kv_precision per="element" error=calc.error_for(memory::Field::KvPrecision) />
                    <NumberField label="Activations and overhead" testid="weight-overhead" text=f.overhead error=calc.error_for(kv_cache::Field::RuntimeOverhead) unit="%" step=5.0 />
                </div>
            </div>
    }
    .into_any()
}
