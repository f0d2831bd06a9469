//! Fleet swap: daily traffic, and what moving it from a large model to a smaller one (both
//! passing the evals) does to the GPUs that serve it.

use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::calc::decode::{self, three_figures};
use crate::calc::fleet::{self, FleetSwap};
use crate::calc::format::{fixed, plain};
use crate::calc::InputError;
use crate::content::WidgetParams;
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

/// A good result: the traffic and the swap.
#[derive(Debug, Clone, PartialEq)]
struct Fleet {
    tokens_per_day: f64,
    average_tps: f64,
    swap: FleetSwap,
    worked: [String; 2],
}

fn fleet_of(
    requests: &str,
    tokens: &str,
    large_gb: &str,
    small_gb: &str,
    gpus: &str,
) -> Result<Fleet, Vec<InputError>> {
    let requests = fleet::parse_requests_per_day(requests);
    let tokens = fleet::parse_output_tokens(tokens);
    let large =
        decode::parse_model_gb(large_gb).map_err(|e| InputError::new("Large model", e.message));
    let small =
        decode::parse_model_gb(small_gb).map_err(|e| InputError::new("Small model", e.message));
    let gpus = fleet::parse_gpu_count(gpus);
    match (requests, tokens, large, small, gpus) {
        (Ok(requests), Ok(tokens), Ok(large), Ok(small), Ok(gpus)) => {
            let tokens_per_day = fleet::tokens_per_day(requests, tokens);
            let average_tps = fleet::average_tokens_per_s(tokens_per_day);
            let swap = FleetSwap::new(large, small, gpus);
            Ok(Fleet {
                tokens_per_day,
                average_tps,
                swap,
                worked: [
                    format!(
                        "{} requests \u{d7} {} tokens = {} tokens a day \u{f7} 86,400 s = {} tok/s on average",
                        plain(requests),
                        plain(tokens),
                        fixed(tokens_per_day, 0),
                        fixed(average_tps, 1)
                    ),
                    swap.worked_line(),
                ],
            })
        }
        (a, b, c, d, e) => Err([a.err(), b.err(), c.err(), d.err(), e.err()]
            .into_iter()
            .flatten()
            .collect()),
    }
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
    requests: &'static str,
    /// Starting output tokens per request.
    tokens: &'static str,
    /// Starting weights of the large model, GB.
    large_gb: &'static str,
    /// Starting weights of the small model, GB.
    small_gb: &'static str,
    /// Starting GPUs of the large model's fleet.
    gpus: &'static str,
) -> impl IntoView {
    let requests_text = RwSignal::new(requests.to_string());
    let tokens_text = RwSignal::new(tokens.to_string());
    let large_text = RwSignal::new(large_gb.to_string());
    let small_text = RwSignal::new(small_gb.to_string());
    let gpus_text_in = RwSignal::new(gpus.to_string());
    let calc = Calculation::new(move || {
        fleet_of(
            &requests_text.get(),
            &tokens_text.get(),
            &large_text.get(),
            &small_text.get(),
            &gpus_text_in.get(),
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
            ("small", small_text),
            ("gpus", gpus_text_in),
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
                    <NumberField label="Large model: weights per token" testid="fleet-large-gb" text=large_text error=error_for("Large model") unit="GB" />
                    <Presets label="Large model presets" options=vec![("70B \u{b7} ~4-bit \u{2248} 40 GB", "40"), ("70B \u{b7} FP16 140 GB", "140")] text=large_text />
                </div>
                <div class="control-group">
                    <NumberField label="Small model: weights per token" testid="fleet-small-gb" text=small_text error=error_for("Small model") unit="GB" />
                    <Presets label="Small model presets" options=vec![("8B \u{b7} ~4-bit \u{2248} 5 GB", "5"), ("8B \u{b7} FP16 16 GB", "16")] text=small_text />
                </div>
                <NumberField label="GPUs serving the large model today" testid="fleet-gpus" text=gpus_text_in error=error_for("GPUs") unit="GPUs" min=1.0 />
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
            <div class="worked" data-testid="fleet-worked">
                {move || shown.get().map(|f| f.worked.into_iter().map(|line| view! { <p>{line}</p> }).collect_view())}
            </div>
            <p class="widget-note">
                {move || shown.get().map(|f| format!(
                    "Decode time per token follows the weights read, so the fleet shrinks by their ratio. Traffic is averaged over the day ({} tok/s); size for your peaks by raising it.",
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
        let f = fleet_of("1000000", "400", "40", "5", "8").unwrap();
        assert_eq!(fixed(f.tokens_per_day, 0), "400,000,000");
        assert_eq!(f.swap.gpu_time_ratio, 8.0);
        assert_eq!(gpus_text(f.swap.small_gpus), "1 GPU");
        assert_eq!(f.swap.traffic_multiple, 8.0);
        assert!(f.worked[0].starts_with("1,000,000 requests \u{d7} 400 tokens = 400,000,000"));
    }

    #[test]
    fn every_bad_field_is_named() {
        let errs = fleet_of("0", "x", "-1", "", "1.5").unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "Requests per day",
                "Output tokens per request",
                "Large model",
                "Small model",
                "GPUs"
            ]
        );
    }

    proptest::proptest! {
        #[test]
        fn valid_inputs_give_sane_fleets(
            req in 1.0f64..1e12,
            tok in 1.0f64..1e6,
            large in 0.01f64..100_000.0,
            small in 0.01f64..100_000.0,
            gpus in 1u64..1_000_000,
        ) {
            let f = fleet_of(&req.to_string(), &tok.to_string(), &large.to_string(), &small.to_string(), &gpus.to_string()).unwrap();
            proptest::prop_assert!(f.tokens_per_day.is_finite() && f.tokens_per_day > 0.0);
            proptest::prop_assert!(f.swap.small_gpus >= 1);
            proptest::prop_assert!(f.swap.small_gpus as f64 >= gpus as f64 / f.swap.gpu_time_ratio - 1e-6);
            proptest::prop_assert!(!f.worked.join(" ").contains("NaN"));
        }
    }
}
