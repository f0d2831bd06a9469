//! Decode ceiling: memory bandwidth ÷ weights read per token bounds tokens per second, for two
//! models side by side on the same machine, with a check that each model's weights fit its memory.

use super::calc_parts::{FitNote, GpuSelect, ModelPresets};
use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::decode::{
    self, three_figures, ModelWeights, LARGE_MODEL_PRESETS, SMALL_MODEL_PRESETS,
};
use crate::logic::format::plain;
use crate::logic::InputError;
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

/// One model's two fields as typed: weights in memory, and read per token (blank: all).
type ModelText<'a> = (&'a str, &'a str);

/// A good result: both ceilings, how they compare, and whether the weights fit.
#[derive(Debug, Clone, PartialEq)]
struct Ceilings {
    tps_a: f64,
    tps_b: f64,
    ms_a: f64,
    ms_b: f64,
    /// How many times faster A's ceiling is than B's (×).
    ratio: f64,
    worked: [String; 2],
    /// Whether each model's weights fit the machine's memory, in words.
    fit_note: String,
    /// True when a model's weights do not fit.
    overflow: bool,
}

fn ceilings(
    bandwidth: &str,
    memory: &str,
    a: ModelText,
    b: ModelText,
) -> Result<Ceilings, Vec<InputError>> {
    let bw = decode::parse_bandwidth_gb_s(bandwidth);
    let memory = decode::parse_gpu_memory_gb(memory);
    let wa = decode::parse_model_weights(a.0, a.1, ("Model A", "Model A per token"));
    let wb = decode::parse_model_weights(b.0, b.1, ("Model B", "Model B per token"));
    match (bw, memory, wa, wb) {
        (Ok(bw), Ok(memory), Ok(wa), Ok(wb)) => {
            let (fit_note, overflow) = fit_note(bw, memory, [("A", wa), ("B", wb)]);
            Ok(Ceilings {
                tps_a: wa.ceiling_tps(bw),
                tps_b: wb.ceiling_tps(bw),
                ms_a: decode::min_ms_per_token(bw, wa.read_per_token_gb),
                ms_b: decode::min_ms_per_token(bw, wb.read_per_token_gb),
                ratio: decode::speed_ratio(wa.read_per_token_gb, wb.read_per_token_gb),
                worked: [
                    format!("A: {}", worked_line(bw, wa)),
                    format!("B: {}", worked_line(bw, wb)),
                ],
                fit_note,
                overflow,
            })
        }
        (bw, memory, wa, wb) => Err([bw.err(), memory.err()]
            .into_iter()
            .flatten()
            .chain(wa.err().into_iter().flatten())
            .chain(wb.err().into_iter().flatten())
            .collect()),
    }
}

/// `100 GB/s ÷ 5 GB = 20 tok/s at most → at least 50 ms per token`; a mixture-of-experts model
/// says what it reads of what it holds.
fn worked_line(bw: f64, w: ModelWeights) -> String {
    let read = if w.is_mixture_of_experts() {
        format!(
            "{} GB read per token (of {} GB in memory)",
            plain(w.read_per_token_gb),
            plain(w.in_memory_gb)
        )
    } else {
        format!("{} GB", plain(w.read_per_token_gb))
    };
    format!(
        "{} GB/s \u{f7} {read} = {} tok/s at most \u{2192} at least {} ms per token",
        plain(bw),
        three_figures(w.ceiling_tps(bw)),
        three_figures(decode::min_ms_per_token(bw, w.read_per_token_gb))
    )
}

/// Whether each model's weights fit in `memory` (GB, if given), in words, and whether any does
/// not. A model that does not fit keeps its ceiling on screen, and the note says it is the
/// ceiling only if the weights fitted, and what the GPUs that could hold them might reach.
fn fit_note(bw: f64, memory: Option<f64>, models: [(&str, ModelWeights); 2]) -> (String, bool) {
    let Some(memory) = memory else {
        return (
            "Memory not given, so these ceilings assume each model's weights fit on the machine. \
             Pick a GPU, or type its memory, to check."
                .into(),
            false,
        );
    };
    let fits = models.map(|(_, w)| decode::fit(w, memory, bw));
    if fits.iter().all(|f| f.fits()) {
        return (
            format!(
                "Both models' weights fit in {} GB of memory.",
                plain(memory)
            ),
            false,
        );
    }
    let sentences: Vec<String> = models
        .iter()
        .zip(fits)
        .map(|((name, w), f)| {
            if f.fits() {
                format!(
                    "Model {name}'s {} GB of weights fit.",
                    plain(w.in_memory_gb)
                )
            } else {
                format!(
                    "Model {name}'s {} GB of weights do not fit in {} GB of memory, so its {} tok/s \
                     is only the ceiling if they did. They need {} GPUs like this one; reading \
                     their shares at once, those could reach up to {} tok/s.",
                    plain(w.in_memory_gb),
                    plain(memory),
                    three_figures(w.ceiling_tps(bw)),
                    f.gpus,
                    three_figures(f.split_ceiling_tps)
                )
            }
        })
        .collect();
    (sentences.join(" "), true)
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
    super::url_state::share(
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
                <Output label="Model A, upper bound" testid="decode-tps-a" value=show(|c| format!("{} tok/s", three_figures(c.tps_a))) stale=stale />
                <Output label="Model B, upper bound" testid="decode-tps-b" value=show(|c| format!("{} tok/s", three_figures(c.tps_b))) stale=stale />
                <Output label="A against B" testid="decode-ratio" value=show(|c| comparison(c.ratio)) stale=stale />
                <Output label="Time per token, A / B (at least)" testid="decode-ms" value=show(|c| format!("{} / {} ms", three_figures(c.ms_a), three_figures(c.ms_b))) stale=stale />
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The widget's inputs with dense models and no memory given.
    fn dense(bw: &str, a: &str, b: &str) -> Result<Ceilings, Vec<InputError>> {
        ceilings(bw, "", (a, ""), (b, ""))
    }

    #[test]
    fn the_lesson_example_gives_20_against_2_5_and_8x() {
        let c = dense("100", "5", "40").unwrap();
        assert_eq!(three_figures(c.tps_a), "20");
        assert_eq!(three_figures(c.tps_b), "2.5");
        assert_eq!(comparison(c.ratio), "8\u{d7} faster");
        assert_eq!(
            c.worked[0],
            "A: 100 GB/s \u{f7} 5 GB = 20 tok/s at most \u{2192} at least 50 ms per token"
        );
        assert_eq!(
            comparison(dense("100", "40", "5").unwrap().ratio),
            "8\u{d7} slower"
        );
        assert_eq!(comparison(1.0), "1\u{d7}: the same ceiling");
        // With no memory given, the note says the fit is assumed, not checked.
        assert!(!c.overflow);
        assert!(c.fit_note.starts_with("Memory not given"), "{}", c.fit_note);
    }

    #[test]
    fn every_bad_field_is_named() {
        let errs = ceilings("0", "-1", ("abc", "0"), ("", "")).unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "Memory bandwidth",
                "GPU memory",
                "Model A",
                "Model A per token",
                "Model B"
            ]
        );
        assert_eq!(errs[0].message, "Must be more than 0.");
        let errs = ceilings("100", "", ("5", ""), ("40", "50")).unwrap_err();
        assert_eq!(errs[0].field, "Model B per token");
    }

    #[test]
    fn deepseek_r1_reads_37_gb_per_token_on_an_h100() {
        let c = ceilings("3350", "", ("5", ""), ("671", "37")).unwrap();
        assert_eq!(three_figures(c.tps_b), "90.5");
        assert_eq!(three_figures(c.ms_b), "11");
        assert_eq!(comparison(c.ratio), "7.4\u{d7} faster");
        assert_eq!(
            c.worked[1],
            "B: 3,350 GB/s \u{f7} 37 GB read per token (of 671 GB in memory) = 90.5 tok/s at most \
             \u{2192} at least 11 ms per token"
        );
    }

    #[test]
    fn weights_that_do_not_fit_the_gpu_are_named_with_the_gpus_they_need() {
        // 140 GB on one 80 GB H100: the ceiling stays, and the note says what it means.
        let c = ceilings("3350", "80", ("5", ""), ("140", "")).unwrap();
        assert_eq!(three_figures(c.tps_b), "23.9");
        assert!(c.overflow);
        assert_eq!(
            c.fit_note,
            "Model A's 5 GB of weights fit. Model B's 140 GB of weights do not fit in 80 GB of \
             memory, so its 23.9 tok/s is only the ceiling if they did. They need 2 GPUs like \
             this one; reading their shares at once, those could reach up to 47.9 tok/s."
        );
        // R1 on an H100: 9 GPUs to hold 671 GB, whatever it reads per token.
        let c = ceilings("3350", "80", ("5", ""), ("671", "37")).unwrap();
        assert!(c.fit_note.contains("They need 9 GPUs"), "{}", c.fit_note);
        // Both fit: one calm sentence.
        let c = ceilings("3350", "80", ("5", ""), ("40", "")).unwrap();
        assert!(!c.overflow);
        assert_eq!(c.fit_note, "Both models' weights fit in 80 GB of memory.");
        // A machine that holds R1 whole.
        let c = ceilings("8000", "1000", ("5", ""), ("671", "37")).unwrap();
        assert!(!c.overflow);
    }

    proptest::proptest! {
        #[test]
        fn valid_inputs_never_show_nan(
            bw in 0.001f64..100_000.0,
            a in 0.001f64..100_000.0,
            b in 0.001f64..100_000.0,
            active in 0.001f64..=1.0,
            memory in proptest::option::of(0.001f64..100_000.0),
        ) {
            let memory = memory.map(|m| m.to_string()).unwrap_or_default();
            let b_read = (b * active).min(b).to_string();
            let c = ceilings(&bw.to_string(), &memory, (&a.to_string(), ""), (&b.to_string(), &b_read)).unwrap();
            for v in [c.tps_a, c.tps_b, c.ms_a, c.ms_b, c.ratio] {
                proptest::prop_assert!(v.is_finite() && v > 0.0);
            }
            let text = format!("{} {} {} {}", three_figures(c.tps_a), comparison(c.ratio), c.worked.join(" "), c.fit_note);
            let clean = !text.contains("NaN") && !text.contains('\u{221e}');
            proptest::prop_assert!(clean, "{}", text);
        }
    }
}
