//! Fleet swap: daily traffic, and what moving it from a large model to a smaller one (both
//! passing the evals) does to the GPUs that serve it, and whether those GPUs hold the weights.

use super::calc_parts::{FitNote, GpuSelect, ModelPresets};
use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::decode::{self, three_figures, LARGE_MODEL_PRESETS, SMALL_MODEL_PRESETS};
use crate::logic::fleet::{self, FleetSwap};
use crate::logic::format::{fixed, plain};
use crate::logic::InputError;
use leptos::prelude::*;

/// Mounts the widget with the directive's parameters (`requests`, `tokens`, `large-gb`,
/// `small-gb`, `gpus`).
pub fn mount(params: WidgetParams) -> AnyView {
    view! {
        <FleetSwapCalc
            requests=params.get("requests").unwrap_or("1000000")
            tokens=params.get("tokens").unwrap_or("400")
            large_gb=params.get("large-gb").unwrap_or("40")
            small_gb=params.get("small-gb").unwrap_or("5")
            gpus=params.get("gpus").unwrap_or("8")
        />
    }
    .into_any()
}

/// One model's two fields as typed: weights in memory, and read per token (blank: all).
type ModelText<'a> = (&'a str, &'a str);

/// A good result: the traffic and the swap.
#[derive(Debug, Clone, PartialEq)]
struct Fleet {
    tokens_per_day: f64,
    average_tps: f64,
    swap: FleetSwap,
    worked: Vec<String>,
    /// Whether the GPUs hold each model's weights, in words.
    fit_note: String,
    /// True when memory, not decode time, limits a fleet.
    overflow: bool,
}

fn fleet_of(
    requests: &str,
    tokens: &str,
    large: ModelText,
    small: ModelText,
    gpus: &str,
    gpu_memory: &str,
) -> Result<Fleet, Vec<InputError>> {
    let requests = fleet::parse_requests_per_day(requests);
    let tokens = fleet::parse_output_tokens(tokens);
    let large =
        decode::parse_model_weights(large.0, large.1, ("Large model", "Large model per token"));
    let small =
        decode::parse_model_weights(small.0, small.1, ("Small model", "Small model per token"));
    let gpus = fleet::parse_gpu_count(gpus);
    let gpu_memory = decode::parse_gpu_memory_gb(gpu_memory);
    match (requests, tokens, large, small, gpus, gpu_memory) {
        (Ok(requests), Ok(tokens), Ok(large), Ok(small), Ok(gpus), Ok(gpu_memory)) => {
            let tokens_per_day = fleet::tokens_per_day(requests, tokens);
            let average_tps = fleet::average_tokens_per_s(tokens_per_day);
            let swap = FleetSwap::new(large, small, gpus, gpu_memory);
            let mut worked = vec![format!(
                "{} requests \u{d7} {} tokens = {} tokens a day \u{f7} 86,400 s = {} tok/s on average",
                plain(requests),
                plain(tokens),
                fixed(tokens_per_day, 0),
                fixed(average_tps, 1)
            )];
            worked.extend(swap.worked_lines());
            let (fit_note, overflow) = fit_note(&swap);
            Ok(Fleet {
                tokens_per_day,
                average_tps,
                swap,
                worked,
                fit_note,
                overflow,
            })
        }
        (a, b, c, d, e, f) => Err([a.err(), b.err()]
            .into_iter()
            .flatten()
            .chain(c.err().into_iter().flatten())
            .chain(d.err().into_iter().flatten())
            .chain([e.err(), f.err()].into_iter().flatten())
            .collect()),
    }
}

/// Whether the GPUs hold each model's weights, in words, and whether memory limits a fleet:
/// today's fleet too small for the large model, or the small model needing more GPUs to hold
/// its weights than to do its decode work.
fn fit_note(swap: &FleetSwap) -> (String, bool) {
    let Some(m) = swap.memory else {
        return (
            "GPU memory not given, so the fleets are sized by decode work alone. Pick a GPU, or \
             type its memory, to check that they hold the weights."
                .into(),
            false,
        );
    };
    let gpu = format!("{} GB", plain(m.gpu_memory_gb));
    let mut sentences = Vec::new();
    if swap.large_gpus < m.large_gpus_to_hold {
        sentences.push(format!(
            "Today's {} of {gpu} cannot hold the large model's {} GB of weights: that takes at \
             least {}.",
            gpus_text(swap.large_gpus),
            plain(swap.large.in_memory_gb),
            gpus_text(m.large_gpus_to_hold)
        ));
    }
    if swap.small_gpus > swap.small_gpus_for_decode {
        sentences.push(format!(
            "The small model's decode work needs {}, but its {} GB of weights need {} of {gpu} \
             to hold, so memory sets its fleet.",
            gpus_text(swap.small_gpus_for_decode),
            plain(swap.small.in_memory_gb),
            gpus_text(m.small_gpus_to_hold)
        ));
    }
    if m.small_gpus_to_hold > swap.large_gpus {
        sentences.push(format!(
            "Today's {} cannot hold the small model's weights, so the figure for traffic on \
             the same GPUs does not apply.",
            gpus_text(swap.large_gpus)
        ));
    }
    if sentences.is_empty() {
        return (
            format!(
                "Memory is not the limit: on GPUs of {gpu}, the large model's {} GB of weights \
                 need {} to hold and the small model's {} GB need {}.",
                plain(swap.large.in_memory_gb),
                gpus_text(m.large_gpus_to_hold),
                plain(swap.small.in_memory_gb),
                gpus_text(m.small_gpus_to_hold)
            ),
            false,
        );
    }
    (sentences.join(" "), true)
}

/// `1 GPU`, `8 GPUs`.
fn gpus_text(n: u64) -> String {
    format!(
        "{} GPU{}",
        fixed(n as f64, 0),
        if n == 1 { "" } else { "s" }
    )
}

/// Most GPU squares drawn in a row; beyond it the row says how many more.
const MAX_DRAWN: u64 = 48;

/// A row of squares, one per GPU, with its count in words for screen readers.
#[component]
fn GpuRow(
    /// What the row is.
    label: &'static str,
    /// How many GPUs.
    #[prop(into)]
    count: Signal<u64>,
    /// `data-testid` of the row.
    testid: &'static str,
) -> impl IntoView {
    view! {
        <div class="gpu-row" data-testid=testid>
            <span class="gpu-row-label">{label}</span>
            <span class="gpu-squares" role="img" aria-label=move || format!("{label}: {}", gpus_text(count.get()))>
                {move || (0..count.get().min(MAX_DRAWN)).map(|_| view! { <span class="gpu-square"></span> }).collect_view()}
                {move || (count.get() > MAX_DRAWN).then(|| view! { <span class="gpu-more">{format!("+{}", fixed((count.get() - MAX_DRAWN) as f64, 0))}</span> })}
            </span>
        </div>
    }
}

/// The calculator: traffic and two model sizes in, the fleet after the swap out.
#[component]
pub fn FleetSwapCalc(
    /// Starting requests per day.
    #[prop(into)]
    requests: String,
    /// Starting output tokens per request.
    #[prop(into)]
    tokens: String,
    /// Starting weights of the large model, GB (a dense model).
    #[prop(into)]
    large_gb: String,
    /// Starting weights of the small model, GB (a dense model).
    #[prop(into)]
    small_gb: String,
    /// Starting GPUs of the large model's fleet.
    #[prop(into)]
    gpus: String,
) -> impl IntoView {
    let requests_text = RwSignal::new(requests.to_string());
    let tokens_text = RwSignal::new(tokens.to_string());
    let large_text = RwSignal::new(large_gb.to_string());
    let large_read = RwSignal::new(String::new());
    let small_text = RwSignal::new(small_gb.to_string());
    let small_read = RwSignal::new(String::new());
    let gpus_text_in = RwSignal::new(gpus.to_string());
    let gpu_id = RwSignal::new(crate::logic::gpus::DEFAULT_PRESET_ID.to_string());
    let gpu_memory = RwSignal::new(
        crate::logic::gpus::preset(crate::logic::gpus::DEFAULT_PRESET_ID)
            .map(|g| super::calc_parts::typed(g.memory_gb))
            .unwrap_or_default(),
    );
    let calc = Calculation::new(move || {
        fleet_of(
            &requests_text.get(),
            &tokens_text.get(),
            (&large_text.get(), &large_read.get()),
            (&small_text.get(), &small_read.get()),
            &gpus_text_in.get(),
            &gpu_memory.get(),
        )
    });
    let shown = calc.shown;
    let stale = calc.stale();
    super::url_state::share(
        "fs",
        vec![
            ("req", requests_text),
            ("tok", tokens_text),
            ("large", large_text),
            ("lr", large_read),
            ("small", small_text),
            ("sr", small_read),
            ("gpus", gpus_text_in),
            ("gpu", gpu_id),
            ("mem", gpu_memory),
        ],
        Signal::derive(move || !stale.get()),
    );
    let error_for = move |field: &'static str| calc.error_for(field);
    let show = move |f: fn(&Fleet) -> String| calc.show(f);
    let before = Signal::derive(move || shown.get().map_or(0, |f| f.swap.large_gpus));
    let after = Signal::derive(move || shown.get().map_or(0, |f| f.swap.small_gpus));

    view! {
        <WidgetCard title="Fleet swap: the same traffic on a smaller model" name="fleet-swap">
            <div class="controls">
                <div class="control-group">
                    <NumberField label="Requests per day" testid="fleet-requests" text=requests_text error=error_for("Requests per day") step=100000.0 />
                    <Presets label="Traffic presets" options=vec![("100K", "100000"), ("1M", "1000000"), ("10M", "10000000")] text=requests_text />
                </div>
                <NumberField label="Output tokens per request" testid="fleet-tokens" text=tokens_text error=error_for("Output tokens per request") unit="tokens" step=50.0 />
                <div class="control-group">
                    <NumberField label="Large model: weights in memory" testid="fleet-large-gb" text=large_text error=error_for("Large model") unit="GB" />
                    <NumberField label="Large model: read per token, if fewer (mixture of experts)" testid="fleet-large-read-gb" text=large_read error=error_for("Large model per token") unit="GB" placeholder="all (dense)" />
                    <ModelPresets label="Large model presets" options=LARGE_MODEL_PRESETS in_memory=large_text read_per_token=large_read />
                </div>
                <div class="control-group">
                    <NumberField label="Small model: weights in memory" testid="fleet-small-gb" text=small_text error=error_for("Small model") unit="GB" />
                    <NumberField label="Small model: read per token, if fewer (mixture of experts)" testid="fleet-small-read-gb" text=small_read error=error_for("Small model per token") unit="GB" placeholder="all (dense)" />
                    <ModelPresets label="Small model presets" options=SMALL_MODEL_PRESETS in_memory=small_text read_per_token=small_read />
                </div>
                <div class="control-group">
                    <NumberField label="GPUs serving the large model today" testid="fleet-gpus" text=gpus_text_in error=error_for("GPUs") unit="GPUs" min=1.0 />
                    <GpuSelect label="GPU" testid="fleet-gpu" gpu=gpu_id memory=gpu_memory />
                    <NumberField label="Memory per GPU" testid="fleet-gpu-memory" text=gpu_memory error=error_for("GPU memory") unit="GB" placeholder="not set" />
                </div>
            </div>
            <div class="outputs">
                <Output label="Output tokens a day" testid="fleet-tokens-per-day" value=show(|f| format!("{} tokens", fixed(f.tokens_per_day, 0))) stale=stale />
                <Output label="GPU time, large \u{f7} small" testid="fleet-ratio" value=show(|f| format!("{}\u{d7}", three_figures(f.swap.gpu_time_ratio))) stale=stale />
                <Output label="GPUs for the same traffic" testid="fleet-small-gpus" value=show(|f| gpus_text(f.swap.small_gpus)) stale=stale />
                <Output label="Traffic on the same GPUs" testid="fleet-traffic" value=show(|f| format!("{}\u{d7} today's", three_figures(f.swap.traffic_multiple))) stale=stale />
            </div>
            <div class="gpu-rows">
                <GpuRow label="Large model" count=before testid="fleet-before" />
                <GpuRow label="Small model" count=after testid="fleet-after" />
            </div>
            <FitNote
                testid="fleet-fit-note"
                text=Signal::derive(move || shown.with(|f| f.as_ref().map(|f| f.fit_note.clone())))
                overflow=Signal::derive(move || shown.with(|f| f.as_ref().is_some_and(|f| f.overflow)))
            />
            <div class="worked" data-testid="fleet-worked">
                {move || shown.get().map(|f| f.worked.into_iter().map(|line| view! { <p>{line}</p> }).collect_view())}
            </div>
            <p class="widget-note">
                {move || shown.get().map(|f| format!(
                    "Decode time per token follows the weights read per token (for a mixture of experts, its active experts), so the fleet shrinks by their ratio, down to the GPUs that hold the weights. Traffic is averaged over the day ({} tok/s); size for your peaks by raising it.",
                    fixed(f.average_tps, 0)
                ))}
            </p>
        </WidgetCard>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_give_the_lesson_figures() {
        let f = fleet_of("1000000", "400", ("40", ""), ("5", ""), "8", "80").unwrap();
        assert_eq!(fixed(f.tokens_per_day, 0), "400,000,000");
        assert_eq!(f.swap.gpu_time_ratio, 8.0);
        assert_eq!(gpus_text(f.swap.small_gpus), "1 GPU");
        assert_eq!(f.swap.traffic_multiple, 8.0);
        assert!(f.worked[0].starts_with("1,000,000 requests \u{d7} 400 tokens = 400,000,000"));
        assert_eq!(f.worked.len(), 2);
        assert!(!f.overflow);
        assert_eq!(
            f.fit_note,
            "Memory is not the limit: on GPUs of 80 GB, the large model's 40 GB of weights need \
             1 GPU to hold and the small model's 5 GB need 1 GPU."
        );
    }

    #[test]
    fn every_bad_field_is_named() {
        let errs = fleet_of("0", "x", ("-1", "2"), ("", "0"), "1.5", "0").unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "Requests per day",
                "Output tokens per request",
                "Large model",
                "Small model",
                "Small model per token",
                "GPUs",
                "GPU memory"
            ]
        );
    }

    #[test]
    fn deepseek_r1_today_counts_its_active_weights_and_its_memory() {
        // R1 (671 GB held, 37 GB read) on 8 GPUs of 80 GB, swapped for the 8B at about 4 bits.
        let f = fleet_of("1000000", "400", ("671", "37"), ("5", ""), "8", "80").unwrap();
        assert_eq!(three_figures(f.swap.gpu_time_ratio), "7.4");
        assert_eq!(gpus_text(f.swap.small_gpus), "2 GPUs");
        assert!(
            f.worked[1].starts_with("37 GB \u{f7} 5 GB = 7.4\u{d7}"),
            "{}",
            f.worked[1]
        );
        assert!(f.overflow);
        assert_eq!(
            f.fit_note,
            "Today's 8 GPUs of 80 GB cannot hold the large model's 671 GB of weights: that \
             takes at least 9 GPUs."
        );
    }

    #[test]
    fn moving_to_r1_is_limited_by_memory_not_decode_work() {
        // A dense 70B in FP16 on 8 GPUs, swapped for R1: decode work needs 3, memory 9.
        let f = fleet_of("1000000", "400", ("140", ""), ("671", "37"), "8", "80").unwrap();
        assert_eq!(gpus_text(f.swap.small_gpus), "9 GPUs");
        assert_eq!(f.worked.len(), 3);
        assert!(f.overflow);
        assert_eq!(
            f.fit_note,
            "The small model's decode work needs 3 GPUs, but its 671 GB of weights need 9 GPUs \
             of 80 GB to hold, so memory sets its fleet. Today's 8 GPUs cannot hold the small \
             model's weights, so the figure for traffic on the same GPUs does not apply."
        );
        // With no memory given, the widget says it sized by decode work alone.
        let f = fleet_of("1000000", "400", ("140", ""), ("671", "37"), "8", "").unwrap();
        assert_eq!(gpus_text(f.swap.small_gpus), "3 GPUs");
        assert!(f.fit_note.starts_with("GPU memory not given"));
    }

    proptest::proptest! {
        #[test]
        fn valid_inputs_give_sane_fleets(
            req in 1.0f64..1e12,
            tok in 1.0f64..1e6,
            large in 0.01f64..100_000.0,
            small in 0.01f64..100_000.0,
            gpus in 1u64..1_000_000,
            memory in proptest::option::of(1.0f64..100_000.0),
        ) {
            let memory = memory.map(|m| m.to_string()).unwrap_or_default();
            let f = fleet_of(&req.to_string(), &tok.to_string(), (&large.to_string(), ""), (&small.to_string(), ""), &gpus.to_string(), &memory).unwrap();
            proptest::prop_assert!(f.tokens_per_day.is_finite() && f.tokens_per_day > 0.0);
            proptest::prop_assert!(f.swap.small_gpus >= 1);
            proptest::prop_assert!(f.swap.small_gpus as f64 >= gpus as f64 / f.swap.gpu_time_ratio - 1e-6);
            let text = format!("{} {}", f.worked.join(" "), f.fit_note);
            proptest::prop_assert!(!text.contains("NaN"), "{}", text);
        }
    }
}
