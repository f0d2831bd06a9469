//! The latency explorer: a seeded right-skewed sample of response times, its histogram with the
//! mean, P50, P90 and P99 marked, and the split of end-to-end time into its parts.

use super::controls::{Chart, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::chart::{self, ACCENT, DANGER, FILL, GRID, INK, MUTED, SECOND};
use crate::logic::latency::{
    self, diagnose, histogram, ms_text, EndToEnd, Histogram, LatencyModel, Part, Summary,
    TailStory, EXPLORER_REQUESTS, EXPLORER_SEED,
};
use crate::logic::InputError;
use leptos::prelude::*;
use plotters::prelude::*;

/// Bars in the histogram.
const BINS: usize = 40;

/// Mounts the widget (it takes no parameters).
pub fn mount(_params: WidgetParams) -> AnyView {
    view! { <Latency /> }.into_any()
}

/// A drawn sample: what the explorer shows.
#[derive(Debug, Clone, PartialEq)]
struct Explored {
    story: TailStory,
    hist: Histogram,
    upper: f64,
}

fn explore(
    median: &str,
    sigma: &str,
    one_in: &str,
    factor: &str,
) -> Result<Explored, Vec<InputError>> {
    let parsed = (
        latency::parse_median_ms(median),
        latency::parse_sigma(sigma),
        latency::parse_slow_one_in(one_in),
        latency::parse_slow_factor(factor),
    );
    let (median_ms, sigma, slow_one_in, slow_factor) = match parsed {
        (Ok(a), Ok(b), Ok(c), Ok(d)) => (a, b, c, d),
        (a, b, c, d) => {
            return Err([a.err(), b.err(), c.err(), d.err()]
                .into_iter()
                .flatten()
                .collect())
        }
    };
    let model = LatencyModel {
        median_ms,
        sigma,
        slow_one_in,
        slow_factor,
    };
    let samples = model.sample(EXPLORER_SEED, EXPLORER_REQUESTS);
    let story = TailStory::of(&model, EXPLORER_SEED, EXPLORER_REQUESTS)
        .ok_or_else(|| vec![InputError::new("Median", "No requests to show.")])?;
    // Room past P99 so its marker is visible; the far tail is counted, not drawn.
    let upper = (story.now.p99 * 1.15).max(story.now.mean * 1.15);
    let hist = histogram(&samples, BINS, upper);
    Ok(Explored { story, hist, upper })
}

/// The markers drawn on the histogram: name, colour, value.
fn markers(s: &Summary) -> [(&'static str, RGBColor, f64); 4] {
    [
        ("Mean", SECOND, s.mean),
        ("P50", INK, s.p50),
        ("P90", MUTED, s.p90),
        ("P99", DANGER, s.p99),
    ]
}

fn histogram_svg(e: &Explored) -> String {
    let top = e.hist.counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.08;
    let upper = e.upper;
    let marks = markers(&e.story.now);
    let bars: Vec<(f64, f64, f64)> = e
        .hist
        .counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (e.hist.edges[i], e.hist.edges[i + 1], c as f64))
        .collect();
    chart::svg(640, 240, |area| {
        area.fill(&FILL)?;
        let mut c = ChartBuilder::on(area)
            .margin(10)
            .build_cartesian_2d(0.0..upper, 0.0..top)?;
        for q in 1..4 {
            let y = top * q as f64 / 4.0;
            c.draw_series(std::iter::once(PathElement::new(
                vec![(0.0, y), (upper, y)],
                GRID,
            )))?;
        }
        c.draw_series(bars.iter().map(|&(a, b, n)| {
            Rectangle::new(
                [(a + (b - a) * 0.06, 0.0), (b - (b - a) * 0.06, n)],
                ACCENT.mix(0.45).filled(),
            )
        }))?;
        c.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (upper, 0.0)],
            INK,
        )))?;
        for (_, colour, x) in marks {
            c.draw_series(std::iter::once(PathElement::new(
                vec![(x, 0.0), (x, top)],
                colour.stroke_width(3),
            )))?;
        }
        Ok(())
    })
    .unwrap_or_default()
}

fn histogram_text(e: &Explored) -> String {
    let s = &e.story.now;
    format!(
        "Histogram of {} response times from 0 to {}: most requests cluster near the median and a \
         long tail runs right. Mean {}, P50 {}, P90 {}, P99 {}, slowest {}{}.",
        EXPLORER_REQUESTS,
        ms_text(e.upper),
        ms_text(s.mean),
        ms_text(s.p50),
        ms_text(s.p90),
        ms_text(s.p99),
        ms_text(s.max),
        if e.hist.overflow > 0 {
            format!("; {} requests lie beyond the right edge", e.hist.overflow)
        } else {
            String::new()
        }
    )
}

fn split(network: &str, queue: &str, inference: &str) -> Result<EndToEnd, Vec<InputError>> {
    match (
        latency::parse_network_ms(network),
        latency::parse_queue_ms(queue),
        latency::parse_inference_ms(inference),
    ) {
        (Ok(network_ms), Ok(queue_ms), Ok(inference_ms)) => Ok(EndToEnd {
            network_ms,
            queue_ms,
            inference_ms,
        }),
        (a, b, c) => Err([a.err(), b.err(), c.err()].into_iter().flatten().collect()),
    }
}

fn part_label(p: Part) -> &'static str {
    match p {
        Part::Network => "Network",
        Part::Queue => "Queueing",
        Part::Inference => "Inference",
    }
}

fn part_colour(p: Part) -> RGBColor {
    match p {
        Part::Network => MUTED,
        Part::Queue => SECOND,
        Part::Inference => ACCENT,
    }
}

fn split_svg(e: &EndToEnd) -> String {
    let total = e.total_ms().max(f64::MIN_POSITIVE);
    chart::svg(640, 70, |area| {
        area.fill(&FILL)?;
        let mut c = ChartBuilder::on(area)
            .margin(10)
            .build_cartesian_2d(0.0..total, 0.0..1.0)?;
        let mut start = 0.0;
        for p in Part::ALL {
            let end = start + e.part_ms(p);
            if end > start {
                c.draw_series(std::iter::once(Rectangle::new(
                    [(start, 0.1), (end, 0.9)],
                    part_colour(p).filled(),
                )))?;
            }
            start = end;
        }
        Ok(())
    })
    .unwrap_or_default()
}

fn split_text(e: &EndToEnd) -> String {
    let parts: Vec<String> = Part::ALL
        .iter()
        .map(|&p| {
            format!(
                "{} {} ({}%)",
                part_label(p).to_lowercase(),
                ms_text(e.part_ms(p)),
                crate::logic::format::fixed(e.share(p) * 100.0, 0)
            )
        })
        .collect();
    format!(
        "One bar of {} end-to-end, split left to right into {}.",
        ms_text(e.total_ms()),
        parts.join(", ")
    )
}

/// The two views: the skewed sample, and where end-to-end time goes.
#[component]
pub fn Latency() -> impl IntoView {
    let ex = LatencyModel::EXAMPLE;
    let median = RwSignal::new(crate::logic::format::plain(ex.median_ms));
    let sigma = RwSignal::new(crate::logic::format::plain(ex.sigma));
    let one_in = RwSignal::new(ex.slow_one_in.to_string());
    let factor = RwSignal::new(crate::logic::format::plain(ex.slow_factor));

    let result =
        Memo::new(move |_| explore(&median.get(), &sigma.get(), &one_in.get(), &factor.get()));
    let shown = Memo::new(move |prev: Option<&Option<Explored>>| match result.get() {
        Ok(e) => Some(e),
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
    let stat = move |f: fn(&Summary) -> f64| {
        Signal::derive(move || {
            shown
                .with(|s| s.as_ref().map(|e| ms_text(f(&e.story.now))))
                .unwrap_or_else(|| "\u{2014}".into())
        })
    };
    let hist_svg =
        Signal::derive(move || shown.with(|s| s.as_ref().map(histogram_svg).unwrap_or_default()));
    let hist_alt =
        Signal::derive(move || shown.with(|s| s.as_ref().map(histogram_text).unwrap_or_default()));
    let upper = move || shown.with(|s| s.as_ref().map(|e| e.upper).unwrap_or(0.0));

    let network = RwSignal::new("600".to_string());
    let queue = RwSignal::new("150".to_string());
    let inference = RwSignal::new("250".to_string());
    let e2e = Memo::new(move |_| split(&network.get(), &queue.get(), &inference.get()));
    let e2e_shown = Memo::new(move |prev: Option<&Option<EndToEnd>>| match e2e.get() {
        Ok(e) => Some(e),
        Err(_) => prev.cloned().flatten(),
    });
    let e2e_stale = Signal::derive(move || e2e.with(Result::is_err));
    let e2e_error = move |field: &'static str| {
        Signal::derive(move || {
            e2e.with(|r| {
                r.as_ref()
                    .err()
                    .and_then(|errs| errs.iter().find(|e| e.field == field))
                    .map(|e| e.message.clone())
            })
        })
    };
    let e2e_value = move |f: fn(&EndToEnd) -> String| {
        Signal::derive(move || {
            e2e_shown
                .get()
                .as_ref()
                .map(f)
                .unwrap_or_else(|| "\u{2014}".into())
        })
    };
    let scenario = move |n: &'static str, q: &'static str, i: &'static str| {
        move |_| {
            network.set(n.into());
            queue.set(q.into());
            inference.set(i.into());
        }
    };

    view! {
        <WidgetCard title="Latency explorer" name="latency">
            <div class="controls">
                <NumberField label="Median response time" testid="latency-median" text=median error=error_for("Median") unit="ms" step=50.0 />
                <div class="control-group">
                    <NumberField label="Tail (sigma)" testid="latency-sigma" text=sigma error=error_for("Tail (sigma)") step=0.1 />
                    <Presets label="Tail presets" options=vec![("Narrow", "0.2"), ("Moderate", "0.5"), ("Long", "1")] text=sigma />
                </div>
                <div class="control-group">
                    <NumberField label="1 in N requests is slow (0: none)" testid="latency-slow-one-in" text=one_in error=error_for("1 in N is slow") step=1.0 />
                    <Presets label="Slow request presets" options=vec![("None", "0"), ("1 in 10", "10"), ("1 in 20", "20")] text=one_in />
                </div>
                <NumberField label="Slow requests take" testid="latency-slow-factor" text=factor error=error_for("Slow factor") unit="\u{d7}" step=1.0 min=1.0 />
            </div>
            <div class="outputs">
                <Output label="Mean" testid="latency-mean" value=stat(|s| s.mean) stale=stale />
                <Output label="P50 (median)" testid="latency-p50" value=stat(|s| s.p50) stale=stale />
                <Output label="P90" testid="latency-p90" value=stat(|s| s.p90) stale=stale />
                <Output label="P99" testid="latency-p99" value=stat(|s| s.p99) stale=stale />
            </div>
            <ul class="chart-legend" aria-hidden="true">
                <li><span class="swatch swatch-mean"></span>"Mean"</li>
                <li><span class="swatch swatch-p50"></span>"P50"</li>
                <li><span class="swatch swatch-p90"></span>"P90"</li>
                <li><span class="swatch swatch-p99"></span>"P99"</li>
            </ul>
            <Chart svg=hist_svg description=hist_alt testid="latency-histogram" />
            <div class="chart-axis" aria-hidden="true">
                <span>"0 ms"</span>
                <span>{move || ms_text(upper() / 2.0)}</span>
                <span>{move || ms_text(upper())}</span>
            </div>
            <p class="latency-story" data-testid="latency-story">
                {move || shown.with(|s| s.as_ref().map(|e| e.story.mean_hides_tail()))}
            </p>
            <p class="latency-story" data-testid="latency-trim">
                {move || shown.with(|s| s.as_ref().map(|e| e.story.trimming()))}
            </p>
            <p class="widget-note">
                {format!(
                    "{EXPLORER_REQUESTS} requests drawn from a lognormal distribution with a fixed seed. Percentiles by the nearest-rank method: P\u{2099} is the smallest time that at least n% of requests finish within."
                )}
            </p>

            <h4 class="widget-subtitle">"Where the end-to-end time goes"</h4>
            <div class="presets" role="group" aria-label="End-to-end scenarios">
                <button type="button" class="chip" on:click=scenario("600", "150", "250")>"Far from users"</button>
                <button type="button" class="chip" on:click=scenario("80", "900", "300")>"Busy queue"</button>
                <button type="button" class="chip" on:click=scenario("40", "10", "950")>"GPU-bound"</button>
            </div>
            <div class="controls">
                <NumberField label="Network" testid="latency-network" text=network error=e2e_error("Network") unit="ms" step=10.0 />
                <NumberField label="Queueing" testid="latency-queue" text=queue error=e2e_error("Queue") unit="ms" step=10.0 />
                <NumberField label="Inference" testid="latency-inference" text=inference error=e2e_error("Inference") unit="ms" step=10.0 />
            </div>
            <div class="outputs">
                <Output label="End-to-end" testid="latency-e2e-total" value=e2e_value(|e| ms_text(e.total_ms())) stale=e2e_stale />
                <Output
                    label="Inference share"
                    testid="latency-inference-share"
                    value=e2e_value(|e| format!("{}%", crate::logic::format::fixed(e.inference_share() * 100.0, 0)))
                    stale=e2e_stale
                />
            </div>
            <ul class="chart-legend" aria-hidden="true">
                <li><span class="swatch swatch-network"></span>"Network"</li>
                <li><span class="swatch swatch-queue"></span>"Queueing"</li>
                <li><span class="swatch swatch-inference"></span>"Inference"</li>
            </ul>
            <Chart
                svg=Signal::derive(move || e2e_shown.get().as_ref().map(split_svg).unwrap_or_default())
                description=Signal::derive(move || e2e_shown.get().as_ref().map(split_text).unwrap_or_default())
                testid="latency-split"
            />
            <p
                class="latency-diagnosis"
                class:infrastructure=move || e2e_shown.get().is_some_and(|e| diagnose(&e).fix_infrastructure)
                data-testid="latency-diagnosis"
            >
                {move || e2e_shown.get().map(|e| diagnose(&e).text)}
            </p>
        </WidgetCard>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explores_the_example_and_collects_errors() {
        let e = explore("800", "0.5", "20", "5").unwrap();
        assert!(e.upper > e.story.now.p99);
        assert_eq!(e.hist.counts.len(), BINS);
        assert!(histogram_svg(&e).contains("var(--danger)"));
        assert!(histogram_text(&e).contains("P99"));
        let errs = explore("0", "9", "2.5", "0").unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            ["Median", "Tail (sigma)", "1 in N is slow", "Slow factor"]
        );
    }

    #[test]
    fn splits_end_to_end_and_draws_it() {
        let e = split("600", "150", "250").unwrap();
        assert_eq!(e.total_ms(), 1000.0);
        assert!(split_text(&e).contains("inference 250 ms (25%)"));
        assert!(split_svg(&e).contains("var(--accent)"));
        assert!(split_svg(&split("0", "0", "0").unwrap()).contains("svg"));
        assert_eq!(split("-1", "x", "").unwrap_err().len(), 3);
    }
}
