//! Weight memory and GPU count: parameters × bytes per parameter → GB, and how many GPUs hold it,
//! optionally with a runtime allowance (KV cache plus a percentage for activations and overhead).

use super::calc_parts::GpuSelect;
use super::controls::{Calculation, Chart, ChartAxes, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::chart::{Line, LogLogChart, Stroke, Tick};
use crate::logic::format::{fixed, plain};
use crate::logic::kv_cache::{self, KvCacheInputs, MODEL_SHAPES};
use crate::logic::memory::{self, Precision};
use crate::logic::InputError;
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

/// The runtime allowance as typed: KV-cache shape and load, and an overhead percentage.
#[derive(Debug, Clone, PartialEq)]
struct RuntimeText {
    layers: String,
    kv_heads: String,
    head_dim: String,
    context: String,
    batch: String,
    kv_precision: String,
    overhead: String,
}

/// The runtime allowance, checked.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Runtime {
    kv: KvCacheInputs,
    overhead_percent: f64,
}

fn runtime(text: &RuntimeText) -> Result<Runtime, Vec<InputError>> {
    let layers = kv_cache::parse_layers(&text.layers);
    let kv_heads = kv_cache::parse_kv_heads(&text.kv_heads);
    let head_dim = kv_cache::parse_head_dim(&text.head_dim);
    let context = kv_cache::parse_context_tokens(&text.context);
    let batch = kv_cache::parse_batch(&text.batch);
    let overhead = kv_cache::parse_overhead_percent(&text.overhead);
    let bytes = Precision::from_id(&text.kv_precision)
        .map(Precision::bytes_per_param)
        .unwrap_or(2.0);
    match (layers, kv_heads, head_dim, context, batch, overhead) {
        (Ok(layers), Ok(kv_heads), Ok(head_dim), Ok(context_tokens), Ok(batch), Ok(overhead)) => {
            Ok(Runtime {
                kv: KvCacheInputs {
                    layers,
                    kv_heads,
                    head_dim,
                    context_tokens,
                    batch,
                    bytes_per_element: bytes,
                },
                overhead_percent: overhead,
            })
        }
        (a, b, c, d, e, f) => Err([a.err(), b.err(), c.err(), d.err(), e.err(), f.err()]
            .into_iter()
            .flatten()
            .collect()),
    }
}

/// A good result of the calculator.
#[derive(Debug, Clone, PartialEq)]
struct Sizing {
    params_b: f64,
    precision: Precision,
    weight_gb: f64,
    /// KV cache, when the runtime allowance is on.
    kv_gb: Option<f64>,
    /// What must fit: the weights, or weights + KV cache + overhead.
    total_gb: f64,
    fraction: f64,
    gpus: u64,
    gpu_gb: f64,
    worked: Vec<String>,
}

#[cfg(test)]
fn size(
    params: &str,
    precision_id: &str,
    bits: &str,
    gpu: &str,
) -> Result<Sizing, Vec<InputError>> {
    size_with(params, precision_id, bits, gpu, None)
}

fn size_with(
    params: &str,
    precision_id: &str,
    bits: &str,
    gpu: &str,
    allowance: Option<&RuntimeText>,
) -> Result<Sizing, Vec<InputError>> {
    let params_b = memory::parse_params_b(params);
    let precision = match Precision::from_id(precision_id) {
        Some(p) => Ok(p),
        None => memory::parse_bits(bits).map(Precision::Bits),
    };
    let gpu_gb = memory::parse_gpu_gb(gpu);
    let rt = allowance.map(runtime).transpose();
    match (params_b, precision, gpu_gb, rt) {
        (Ok(params_b), Ok(precision), Ok(gpu_gb), Ok(rt)) => {
            let weight_gb = memory::weight_memory_gb(params_b, precision);
            let kv_gb = rt.map(|r| kv_cache::kv_cache_gb(&r.kv));
            let total_gb = match rt {
                Some(r) => {
                    kv_cache::runtime_total_gb(weight_gb, kv_gb.unwrap_or(0.0), r.overhead_percent)
                }
                None => weight_gb,
            };
            let fraction = memory::gpu_fraction(total_gb, gpu_gb);
            let gpus = memory::gpus_needed(total_gb, gpu_gb);
            let worked = match rt {
                None => vec![memory::worked_line(params_b, precision, gpu_gb)],
                Some(r) => vec![
                    format!(
                        "{} \u{d7} 10\u{2079} \u{d7} {} B = {} GB of weights",
                        plain(params_b),
                        plain(precision.bytes_per_param()),
                        plain(weight_gb)
                    ),
                    format!("KV cache: {}", kv_cache::worked_line(&r.kv)),
                    format!(
                        "({} + {}) GB \u{d7} {} = {} GB \u{2192} {} / {} = {} GPUs \u{2192} {}",
                        plain(weight_gb),
                        plain(kv_gb.unwrap_or(0.0)),
                        plain(1.0 + r.overhead_percent / 100.0),
                        plain(total_gb),
                        plain(total_gb),
                        plain(gpu_gb),
                        fixed(fraction, 2),
                        gpus
                    ),
                ],
            };
            Ok(Sizing {
                params_b,
                precision,
                weight_gb,
                kv_gb,
                total_gb,
                fraction,
                gpus,
                gpu_gb,
                worked,
            })
        }
        (a, b, c, d) => Err([a.err(), b.err(), c.err()]
            .into_iter()
            .flatten()
            .chain(d.err().into_iter().flatten())
            .collect()),
    }
}

/// Memory against model size at the chosen precision, GPU memory as a line, the model marked.
fn memory_chart(s: &Sizing) -> LogLogChart {
    use crate::logic::chart::decades;
    let x = decades(s.params_b.min(1.0), (s.params_b * 1.5).max(1000.0));
    let bytes = s.precision.bytes_per_param();
    let top = (x.1 * bytes).max(s.gpu_gb).max(s.total_gb) * 1.2;
    let y = decades((x.0 * bytes).min(s.gpu_gb * 0.8), top);
    let mut marks = vec![((s.params_b, s.weight_gb), Stroke::Main)];
    if s.kv_gb.is_some() {
        marks.push(((s.params_b, s.total_gb), Stroke::Second));
    }
    LogLogChart {
        x,
        y,
        lines: vec![
            Line {
                points: vec![(x.0, s.gpu_gb), (x.1, s.gpu_gb)],
                stroke: Stroke::Limit,
            },
            Line {
                points: vec![(x.0, x.0 * bytes), (x.1, x.1 * bytes)],
                stroke: Stroke::Main,
            },
        ],
        marks,
        guide_x: None,
        bands: Vec::new(),
    }
}

/// The chart in words, for screen readers and as its caption.
fn chart_description(s: &Sizing) -> String {
    let fits_b = s.gpu_gb / s.precision.bytes_per_param();
    let mut text = format!(
        "At {} ({} B per parameter), weight memory grows in step with model size. One {} GB GPU \
         holds the weights of a model up to {}B parameters. This model, {}B, needs {} GB of weights",
        s.precision.label(),
        plain(s.precision.bytes_per_param()),
        plain(s.gpu_gb),
        plain(fits_b),
        plain(s.params_b),
        plain(s.weight_gb)
    );
    if s.kv_gb.is_some() {
        text.push_str(&format!(
            " and {} GB with the runtime allowance",
            plain(s.total_gb)
        ));
    }
    text.push('.');
    text
}

/// Tick text of the parameter axis: `1B`, `10B`, `1,000B`.
fn params_tick(v: f64) -> String {
    format!("{}B", plain(v))
}

/// Tick text of the memory axis: `10 GB`, `1,000 GB`.
fn gb_tick(v: f64) -> String {
    format!("{} GB", plain(v))
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
    let gpu_id = RwSignal::new(crate::logic::gpus::DEFAULT_PRESET_ID.to_string());
    // The runtime allowance starts off, with a Llama 3 70B shape at 8K tokens.
    let default_shape = MODEL_SHAPES
        .iter()
        .find(|m| m.id == "llama3-70b")
        .unwrap_or(&MODEL_SHAPES[0]);
    let runtime_on = RwSignal::new("0".to_string());
    let layers = RwSignal::new(default_shape.layers.to_string());
    let kv_heads = RwSignal::new(default_shape.kv_heads.to_string());
    let head_dim = RwSignal::new(default_shape.head_dim.to_string());
    let context = RwSignal::new("8192".to_string());
    let batch = RwSignal::new("1".to_string());
    let kv_precision = RwSignal::new("fp16".to_string());
    let overhead = RwSignal::new("10".to_string());
    let with_runtime = move || runtime_on.get() == "1";

    let calc = Calculation::new(move || {
        let allowance = with_runtime().then(|| RuntimeText {
            layers: layers.get(),
            kv_heads: kv_heads.get(),
            head_dim: head_dim.get(),
            context: context.get(),
            batch: batch.get(),
            kv_precision: kv_precision.get(),
            overhead: overhead.get(),
        });
        size_with(
            &params_text.get(),
            &precision_id.get(),
            &bits_text.get(),
            &gpu_text.get(),
            allowance.as_ref(),
        )
    });
    // The last good result stays on screen, marked stale, while an input is wrong.
    let shown = calc.shown;
    let stale = calc.stale();
    super::url_state::share(
        "wm",
        vec![
            ("params", params_text),
            ("prec", precision_id),
            ("bits", bits_text),
            ("mem", gpu_text),
            ("gpu", gpu_id),
            ("rt", runtime_on),
            ("layers", layers),
            ("kvh", kv_heads),
            ("hd", head_dim),
            ("ctx", context),
            ("batch", batch),
            ("kvprec", kv_precision),
            ("oh", overhead),
        ],
        Signal::derive(move || !stale.get()),
    );
    let error_for = move |field: &'static str| calc.error_for(field);
    let is_custom = move || precision_id.get() == "custom";
    let show = move |f: fn(&Sizing) -> String| calc.show(f);
    let chart = Memo::new(move |_| shown.get().map(|s| memory_chart(&s)));
    let svg = Signal::derive(move || chart.get().and_then(|c| c.svg().ok()).unwrap_or_default());
    let x_ticks = Signal::derive(move || {
        chart
            .get()
            .map(|c| c.x_ticks(params_tick))
            .unwrap_or_default()
    });
    let y_ticks: Signal<Vec<Tick>> =
        Signal::derive(move || chart.get().map(|c| c.y_ticks(gb_tick)).unwrap_or_default());
    let description = Signal::derive(move || {
        shown
            .get()
            .map(|s| chart_description(&s))
            .unwrap_or_default()
    });
    let fill_shape = move |l: u64, h: u64, d: u64| {
        layers.set(l.to_string());
        kv_heads.set(h.to_string());
        head_dim.set(d.to_string());
    };

    let axes = ChartAxes {
        x_ticks,
        y_ticks,
        x_label: "Model size, billions of parameters (log scale)",
        y_label: "Memory, GB (log scale)",
        legend: vec![
            (Stroke::Main, "Weights at this precision"),
            (Stroke::Limit, "Memory of one GPU"),
            (Stroke::Second, "With runtime allowance"),
        ],
    };

    view! {
        <WidgetCard title="Weight memory and GPU count" name="weight-memory">
            <div class="controls">
                <div class="control-group">
                    <NumberField label="Parameters (billions)" testid="weight-params" text=params_text error=error_for("Parameters") unit="B" />
                    <Presets
                        label="Model size presets"
                        options=vec![("3B", "3"), ("8B", "8"), ("70B", "70"), ("405B", "405"), ("DeepSeek-R1 671B", "671"), ("1T", "1000")]
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
                    <div class="control-group">
                        <NumberField label="Bits per weight" testid="weight-bits" text=bits_text error=error_for("Bits per weight") unit="bits" step=0.05 />
                        <Presets label="Bits per weight presets" options=vec![("GGUF Q4_K_M", "4.85"), ("Q8_0", "8.5"), ("3-bit", "3")] text=bits_text />
                    </div>
                </Show>
                <div class="control-group">
                    <GpuSelect label="GPU" testid="weight-gpu" gpu=gpu_id memory=gpu_text />
                    <NumberField label="GPU memory" testid="weight-gpu-memory" text=gpu_text error=error_for("GPU memory") unit="GB" />
                </div>
            </div>
            <div class="runtime-toggle">
                <label>
                    <input
                        type="checkbox"
                        data-testid="weight-runtime"
                        prop:checked=with_runtime
                        on:change=move |ev| runtime_on.set(if event_target_checked(&ev) { "1" } else { "0" }.to_string())
                    />
                    " Add runtime memory: KV cache and overhead"
                </label>
            </div>
            <Show when=with_runtime>
                <div class="runtime-box">
                    <div class="presets" role="group" aria-label="Model shape presets">
                        {MODEL_SHAPES
                            .iter()
                            .map(|m| {
                                let (l, h, d) = (m.layers, m.kv_heads, m.head_dim);
                                let pressed = move || {
                                    (layers.get().trim() == l.to_string()
                                        && kv_heads.get().trim() == h.to_string()
                                        && head_dim.get().trim() == d.to_string())
                                        .to_string()
                                };
                                view! {
                                    <button type="button" class="chip" aria-pressed=pressed on:click=move |_| fill_shape(l, h, d)>
                                        {format!("{} shape", m.name)}
                                    </button>
                                }
                            })
                            .collect_view()}
                    </div>
                    <div class="controls">
                        <NumberField label="Layers" testid="weight-layers" text=layers error=error_for("Layers") min=1.0 />
                        <NumberField label="KV heads (GQA groups)" testid="weight-kv-heads" text=kv_heads error=error_for("KV heads") min=1.0 />
                        <NumberField label="Head dimension" testid="weight-head-dim" text=head_dim error=error_for("Head dimension") min=1.0 />
                        <div class="control-group">
                            <NumberField label="Context length" testid="weight-context" text=context error=error_for("Context length") unit="tokens" step=1024.0 min=1.0 />
                            <Presets label="Context presets" options=vec![("4K", "4096"), ("8K", "8192"), ("32K", "32768"), ("128K", "131072")] text=context />
                        </div>
                        <NumberField label="Batch (sequences at once)" testid="weight-batch" text=batch error=error_for("Batch size") min=1.0 />
                        <div class="field">
                            <label for="weight-kv-precision">"KV-cache precision"</label>
                            <select
                                id="weight-kv-precision"
                                data-testid="weight-kv-precision"
                                prop:value=move || kv_precision.get()
                                on:change=move |ev| kv_precision.set(event_target_value(&ev))
                            >
                                {Precision::NAMED
                                    .iter()
                                    .map(|(id, p)| {
                                        let label = format!("{} \u{b7} {} B per element", p.label(), plain(p.bytes_per_param()));
                                        view! { <option value=*id>{label}</option> }
                                    })
                                    .collect_view()}
                            </select>
                        </div>
                        <NumberField label="Activations and overhead" testid="weight-overhead" text=overhead error=error_for("Runtime overhead") unit="%" step=5.0 />
                    </div>
                </div>
            </Show>
            <div class="outputs">
                <Output label="Weights" testid="weight-gb" value=show(|s| format!("{} GB", plain(s.weight_gb))) stale=stale />
                <Show when=with_runtime>
                    <Output label="KV cache" testid="weight-kv-gb" value=show(|s| format!("{} GB", plain(s.kv_gb.unwrap_or(0.0)))) stale=stale />
                    <Output label="Weights + KV + overhead" testid="weight-total-gb" value=show(|s| format!("{} GB", plain(s.total_gb))) stale=stale />
                </Show>
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
            <div class="worked" data-testid="weight-worked">
                {move || shown.get().map(|s| s.worked.into_iter().map(|line| view! { <p>{line}</p> }).collect_view())}
            </div>
            <Chart
                svg=svg
                description=description
                testid="weight-chart"
                axes=axes
            />
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

#[cfg(test)]
mod tests {
    use super::*;

    fn llama_70b_at_8k(overhead: &str) -> RuntimeText {
        RuntimeText {
            layers: "80".into(),
            kv_heads: "8".into(),
            head_dim: "128".into(),
            context: "8192".into(),
            batch: "1".into(),
            kv_precision: "fp16".into(),
            overhead: overhead.into(),
        }
    }

    #[test]
    fn the_example_1_table_comes_out_of_the_defaults() {
        for (params, gb, fraction, gpus) in [
            ("3", "6", "0.08", 1),
            ("8", "16", "0.20", 1),
            ("70", "140", "1.75", 2),
            ("671", "1,342", "16.78", 17),
        ] {
            let s = size(params, "fp16", "4.85", "80").unwrap();
            assert_eq!(plain(s.weight_gb), gb);
            assert_eq!(fixed(s.fraction, 2), fraction);
            assert_eq!(s.gpus, gpus);
        }
    }

    #[test]
    fn runtime_allowance_adds_kv_cache_and_overhead() {
        let rt = llama_70b_at_8k("10");
        let s = size_with("70", "fp16", "", "80", Some(&rt)).unwrap();
        assert_eq!(s.weight_gb, 140.0);
        assert_eq!(s.kv_gb, Some(2.68435456));
        assert!((s.total_gb - (140.0 + 2.68435456) * 1.1).abs() < 1e-9);
        assert_eq!(s.gpus, 2);
        assert_eq!(s.worked.len(), 3);
        assert!(
            s.worked[2].ends_with("= 1.96 GPUs \u{2192} 2"),
            "{}",
            s.worked[2]
        );
        // 128K tokens for a batch of 8 needs far more than the weights.
        let long = RuntimeText {
            context: "131072".into(),
            batch: "8".into(),
            ..rt.clone()
        };
        let s = size_with("70", "fp16", "", "80", Some(&long)).unwrap();
        assert!(s.kv_gb.unwrap() > 300.0 && s.gpus >= 6, "{s:?}");
        let bad = RuntimeText {
            kv_heads: "2.5".into(),
            overhead: "-1".into(),
            ..rt
        };
        let errs = size_with("70", "fp16", "", "80", Some(&bad)).unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, ["KV heads", "Runtime overhead"]);
    }

    #[test]
    fn chart_marks_the_model_and_draws_the_gpu_line() {
        let s = size("70", "fp16", "", "80").unwrap();
        let c = memory_chart(&s);
        assert_eq!(c.marks[0].0, (70.0, 140.0));
        assert!(c
            .lines
            .iter()
            .any(|l| l.stroke == Stroke::Limit && l.points.iter().all(|p| p.1 == 80.0)));
        assert!(c.x.0 <= 70.0 && c.x.1 >= 1000.0 && c.y.0 <= 80.0 && c.y.1 >= 2000.0);
        let svg = c.svg().unwrap();
        assert!(svg.contains("var(--danger)") && svg.contains("<circle"));
        assert!(chart_description(&s).contains("up to 40B parameters"));
    }

    proptest::proptest! {
        #[test]
        fn any_valid_input_gives_finite_sane_numbers(
            params in 0.001f64..100_000.0,
            bits in 0.5f64..64.0,
            gpu in 1.0f64..100_000.0,
            context in 1u64..1_000_000,
            batch in 1u64..1000,
            overhead in 0.0f64..1000.0,
        ) {
            let rt = RuntimeText {
                context: context.to_string(),
                batch: batch.to_string(),
                overhead: overhead.to_string(),
                ..llama_70b_at_8k("0")
            };
            let plain_s = size_with(&params.to_string(), "custom", &bits.to_string(), &gpu.to_string(), None).unwrap();
            let s = size_with(&params.to_string(), "custom", &bits.to_string(), &gpu.to_string(), Some(&rt)).unwrap();
            for v in [s.weight_gb, s.total_gb, s.fraction] {
                proptest::prop_assert!(v.is_finite() && v > 0.0);
            }
            proptest::prop_assert!(s.total_gb >= plain_s.total_gb);
            proptest::prop_assert!(s.gpus >= plain_s.gpus);
            proptest::prop_assert!(s.gpus as f64 >= s.fraction - 1e-9);
            proptest::prop_assert!(!chart_description(&s).contains("NaN"));
            let c = memory_chart(&s);
            proptest::prop_assert!(c.x.0 > 0.0 && c.x.1 > c.x.0 && c.y.1 > c.y.0);
        }
    }

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
