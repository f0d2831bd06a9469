//! Decode ceiling: memory bandwidth ÷ weights read per token bounds tokens per second, for two
//! models side by side on the same machine.

use super::calc_parts::GpuSelect;
use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::calc::decode::{self, three_figures};
use crate::calc::format::plain;
use crate::calc::InputError;
use crate::content::WidgetParams;
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

/// A good result: both ceilings and how they compare.
#[derive(Debug, Clone, PartialEq)]
struct Ceilings {
    tps_a: f64,
    tps_b: f64,
    ms_a: f64,
    ms_b: f64,
    /// How many times faster A's ceiling is than B's (×).
    ratio: f64,
    worked: [String; 2],
}

fn ceilings(bandwidth: &str, a_gb: &str, b_gb: &str) -> Result<Ceilings, Vec<InputError>> {
    let bw = decode::parse_bandwidth_gb_s(bandwidth);
    let a = decode::parse_model_gb(a_gb).map_err(|e| InputError::new("Model A", e.message));
    let b = decode::parse_model_gb(b_gb).map_err(|e| InputError::new("Model B", e.message));
    match (bw, a, b) {
        (Ok(bw), Ok(a), Ok(b)) => {
            let line = |gb: f64| {
                format!(
                    "{} GB/s \u{f7} {} GB = {} tok/s at most \u{2192} at least {} ms per token",
                    plain(bw),
                    plain(gb),
                    three_figures(decode::decode_ceiling_tps(bw, gb)),
                    three_figures(decode::min_ms_per_token(bw, gb))
                )
            };
            Ok(Ceilings {
                tps_a: decode::decode_ceiling_tps(bw, a),
                tps_b: decode::decode_ceiling_tps(bw, b),
                ms_a: decode::min_ms_per_token(bw, a),
                ms_b: decode::min_ms_per_token(bw, b),
                ratio: decode::speed_ratio(a, b),
                worked: [format!("A: {}", line(a)), format!("B: {}", line(b))],
            })
        }
        (x, y, z) => Err([x.err(), y.err(), z.err()].into_iter().flatten().collect()),
    }
}

/// How A compares with B, in words: `8× faster`, `2× slower`, `the same speed`.
fn comparison(ratio: f64) -> String {
    if (ratio - 1.0).abs() < 1e-9 {
        "1\u{d7}: the same ceiling".into()
    } else if ratio > 1.0 {
        format!("{}\u{d7} faster", three_figures(ratio))
    } else {
        format!("{}\u{d7} slower", three_figures(1.0 / ratio))
    }
}

/// The calculator: one machine's bandwidth, two models' weights, two ceilings.
#[component]
pub fn DecodeCeiling(
    /// Starting bandwidth, GB/s.
    bandwidth: &'static str,
    /// Starting weights of model A, GB.
    a_gb: &'static str,
    /// Starting weights of model B, GB.
    b_gb: &'static str,
) -> impl IntoView {
    let bw_text = RwSignal::new(bandwidth.to_string());
    let gpu_id = RwSignal::new("custom".to_string());
    let a_text = RwSignal::new(a_gb.to_string());
    let b_text = RwSignal::new(b_gb.to_string());
    let calc = Calculation::new(move || ceilings(&bw_text.get(), &a_text.get(), &b_text.get()));
    let shown = calc.shown;
    let stale = calc.stale();
    super::url_state::share(
        "dc",
        vec![
            ("bw", bw_text),
            ("gpu", gpu_id),
            ("a", a_text),
            ("b", b_text),
        ],
        Signal::derive(move || !stale.get()),
    );
    let error_for = move |field: &'static str| calc.error_for(field);
    let show = move |f: fn(&Ceilings) -> String| calc.show(f);

    view! {
        <WidgetCard title="Decode ceiling: two models on one machine" name="decode-ceiling">
            <div class="controls">
                <div class="control-group">
                    <GpuSelect label="Machine" testid="decode-gpu" gpu=gpu_id bandwidth=bw_text />
                    <NumberField label="Memory bandwidth" testid="decode-bandwidth" text=bw_text error=error_for("Memory bandwidth") unit="GB/s" step=10.0 />
                    <Presets label="Bandwidth examples" options=vec![("The lesson's example: 100 GB/s", "100")] text=bw_text />
                </div>
                <div class="control-group">
                    <NumberField label="Model A: weights read per token" testid="decode-model-gb-a" text=a_text error=error_for("Model A") unit="GB" />
                    <Presets label="Model A presets" options=vec![("8B \u{b7} ~4-bit \u{2248} 5 GB", "5"), ("8B \u{b7} FP16 16 GB", "16"), ("3B \u{b7} FP16 6 GB", "6")] text=a_text />
                </div>
                <div class="control-group">
                    <NumberField label="Model B: weights read per token" testid="decode-model-gb-b" text=b_text error=error_for("Model B") unit="GB" />
                    <Presets label="Model B presets" options=vec![("70B \u{b7} ~4-bit \u{2248} 40 GB", "40"), ("70B \u{b7} FP16 140 GB", "140"), ("405B \u{b7} FP8 405 GB", "405")] text=b_text />
                </div>
            </div>
            <div class="outputs">
                <Output label="Model A, upper bound" testid="decode-tps-a" value=show(|c| format!("{} tok/s", three_figures(c.tps_a))) stale=stale />
                <Output label="Model B, upper bound" testid="decode-tps-b" value=show(|c| format!("{} tok/s", three_figures(c.tps_b))) stale=stale />
                <Output label="A against B" testid="decode-ratio" value=show(|c| comparison(c.ratio)) stale=stale />
                <Output label="Time per token, A / B (at least)" testid="decode-ms" value=show(|c| format!("{} / {} ms", three_figures(c.ms_a), three_figures(c.ms_b))) stale=stale />
            </div>
            <div class="worked" data-testid="decode-worked">
                {move || shown.get().map(|c| c.worked.into_iter().map(|line| view! { <p>{line}</p> }).collect_view())}
            </div>
            <p class="widget-note">
                "Upper bounds for one sequence of a dense model: real runs reach part of the peak bandwidth and also read the KV cache. The ratio between A and B holds on any machine."
            </p>
        </WidgetCard>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lesson_example_gives_20_against_2_5_and_8x() {
        let c = ceilings("100", "5", "40").unwrap();
        assert_eq!(three_figures(c.tps_a), "20");
        assert_eq!(three_figures(c.tps_b), "2.5");
        assert_eq!(comparison(c.ratio), "8\u{d7} faster");
        assert_eq!(
            c.worked[0],
            "A: 100 GB/s \u{f7} 5 GB = 20 tok/s at most \u{2192} at least 50 ms per token"
        );
        assert_eq!(
            comparison(ceilings("100", "40", "5").unwrap().ratio),
            "8\u{d7} slower"
        );
        assert_eq!(comparison(1.0), "1\u{d7}: the same ceiling");
    }

    #[test]
    fn every_bad_field_is_named() {
        let errs = ceilings("0", "abc", "").unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, ["Memory bandwidth", "Model A", "Model B"]);
        assert_eq!(errs[0].message, "Must be more than 0.");
    }

    proptest::proptest! {
        #[test]
        fn valid_inputs_never_show_nan(bw in 0.001f64..100_000.0, a in 0.001f64..100_000.0, b in 0.001f64..100_000.0) {
            let c = ceilings(&bw.to_string(), &a.to_string(), &b.to_string()).unwrap();
            for v in [c.tps_a, c.tps_b, c.ms_a, c.ms_b, c.ratio] {
                proptest::prop_assert!(v.is_finite() && v > 0.0);
            }
            let text = format!("{} {} {}", three_figures(c.tps_a), comparison(c.ratio), c.worked.join(" "));
            let clean = !text.contains("NaN") && !text.contains('\u{221e}');
            proptest::prop_assert!(clean, "{}", text);
        }
    }
}
