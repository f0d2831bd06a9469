//! The latency explorer: a seeded right-skewed sample of response times, its histogram with the
//! mean, P50, P90 and P99 marked, and the split of end-to-end time into its parts.

use super::calc_parts::output_rows;
use super::controls::{Calculation, Chart, NumberField, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::chart::latency::{histogram_svg, split_svg};
use crate::logic::latency::Field;
use crate::logic::latency::{
    diagnose, ms_text, EndToEnd, Explored, LatencyModel, EXPLORER_REQUESTS,
};
use leptos::prelude::*;

/// Mounts the widget (it takes no parameters).
pub fn mount(_params: WidgetParams) -> AnyView {
    view! { <Latency /> }.into_any()
}

/// The two views: the skewed sample, and where end-to-end time goes.
#[component]
pub fn Latency() -> impl IntoView {
    view! {
        <WidgetCard title="Latency explorer" name="latency">
            {skewed_sample()}
            <h4 class="widget-subtitle">"Where the end-to-end time goes"</h4>
            {end_to_end()}
        </WidgetCard>
    }
}

/// The sample's shape, as typed: median (ms), tail (sigma), how rare slow requests are, and how
/// much slower they are. It starts with the lesson's example.
#[derive(Clone, Copy)]
struct SampleFields {
    median: RwSignal<String>,
    sigma: RwSignal<String>,
    one_in: RwSignal<String>,
    factor: RwSignal<String>,
}

/// The skewed sample: its fields, the mean and percentiles, its histogram, and what they say.
fn skewed_sample() -> impl IntoView {
    let ex = LatencyModel::EXAMPLE;
    let f = SampleFields {
        median: RwSignal::new(crate::logic::format::plain(ex.median_ms)),
        sigma: RwSignal::new(crate::logic::format::plain(ex.sigma)),
        one_in: RwSignal::new(ex.slow_one_in.to_string()),
        factor: RwSignal::new(crate::logic::format::plain(ex.slow_factor)),
    };
    let explored = Calculation::new(move || {
        Explored::from_text(
            &f.median.get(),
            &f.sigma.get(),
            &f.one_in.get(),
            &f.factor.get(),
        )
    });
    let shown = explored.shown;
    let stale = explored.stale();
    view! {
        {sample_controls(f, explored)}
        <div class="outputs">
            {output_rows(stale, [
                ("Mean", "latency-mean", explored.show(|e| ms_text(e.story.now.mean))),
                ("P50 (median)", "latency-p50", explored.show(|e| ms_text(e.story.now.p50))),
                ("P90", "latency-p90", explored.show(|e| ms_text(e.story.now.p90))),
                ("P99", "latency-p99", explored.show(|e| ms_text(e.story.now.p99))),
            ])}
        </div>
        {histogram(shown)}
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
    }
}

/// The sample's fields, with presets for the tail and the slow requests.
fn sample_controls(f: SampleFields, explored: Calculation<Explored>) -> impl IntoView {
    view! {
        <div class="controls">
            <NumberField label="Median response time" testid="latency-median" text=f.median error=explored.error_for(Field::Median) unit="ms" step=50.0 />
            <div class="control-group">
                <NumberField label="Tail (sigma)" testid="latency-sigma" text=f.sigma error=explored.error_for(Field::Sigma) step=0.1 />
                <Presets label="Tail presets" options=vec![("Narrow", "0.2"), ("Moderate", "0.5"), ("Long", "1")] text=f.sigma />
            </div>
            <div class="control-group">
                <NumberField label="1 in N requests is slow (0: none)" testid="latency-slow-one-in" text=f.one_in error=explored.error_for(Field::SlowOneIn) step=1.0 />
                <Presets label="Slow request presets" options=vec![("None", "0"), ("1 in 10", "10"), ("1 in 20", "20")] text=f.one_in />
            </div>
            <NumberField label="Slow requests take" testid="latency-slow-factor" text=f.factor error=explored.error_for(Field::SlowFactor) unit="\u{d7}" step=1.0 min=1.0 />
        </div>
    }
}

/// The sample's histogram with its legend, and the time axis under it.
fn histogram(shown: Memo<Option<Explored>>) -> impl IntoView {
    let hist_svg =
        Signal::derive(move || shown.with(|s| s.as_ref().map(histogram_svg).unwrap_or_default()));
    let hist_alt = Signal::derive(move || {
        shown.with(|s| s.as_ref().map(Explored::description).unwrap_or_default())
    });
    let upper = move || shown.with(|s| s.as_ref().map(|e| e.upper).unwrap_or(0.0));
    view! {
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
    }
}

/// Where end-to-end time goes: scenarios, the three parts, the total and inference's share, the
/// split drawn, and what to fix.
fn end_to_end() -> impl IntoView {
    let network = RwSignal::new("600".to_string());
    let queue = RwSignal::new("150".to_string());
    let inference = RwSignal::new("250".to_string());
    let e2e = Calculation::new(move || {
        EndToEnd::from_text(&network.get(), &queue.get(), &inference.get())
    });
    let e2e_shown = e2e.shown;
    let e2e_stale = e2e.stale();
    let scenario = move |n: &'static str, q: &'static str, i: &'static str| {
        move |_| {
            network.set(n.into());
            queue.set(q.into());
            inference.set(i.into());
        }
    };
    view! {
        <div class="presets" role="group" aria-label="End-to-end scenarios">
            <button type="button" class="chip" on:click=scenario("600", "150", "250")>"Far from users"</button>
            <button type="button" class="chip" on:click=scenario("80", "900", "300")>"Busy queue"</button>
            <button type="button" class="chip" on:click=scenario("40", "10", "950")>"GPU-bound"</button>
        </div>
        <div class="controls">
            <NumberField label="Network" testid="latency-network" text=network error=e2e.error_for(Field::Network) unit="ms" step=10.0 />
            <NumberField label="Queueing" testid="latency-queue" text=queue error=e2e.error_for(Field::Queue) unit="ms" step=10.0 />
            <NumberField label="Inference" testid="latency-inference" text=inference error=e2e.error_for(Field::Inference) unit="ms" step=10.0 />
        </div>
        <div class="outputs">
            {output_rows(e2e_stale, [
                ("End-to-end", "latency-e2e-total", e2e.show(|e| ms_text(e.total_ms()))),
                ("Inference share", "latency-inference-share", e2e.show(EndToEnd::inference_share_text)),
            ])}
        </div>
        {split(e2e_shown)}
    }
}

/// The end-to-end split drawn with its legend, and the diagnosis under it.
fn split(e2e_shown: Memo<Option<EndToEnd>>) -> impl IntoView {
    view! {
        <ul class="chart-legend" aria-hidden="true">
            <li><span class="swatch swatch-network"></span>"Network"</li>
            <li><span class="swatch swatch-queue"></span>"Queueing"</li>
            <li><span class="swatch swatch-inference"></span>"Inference"</li>
        </ul>
        <Chart
            svg=Signal::derive(move || e2e_shown.get().as_ref().map(split_svg).unwrap_or_default())
            description=Signal::derive(move || e2e_shown.get().as_ref().map(EndToEnd::description).unwrap_or_default())
            testid="latency-split"
        />
        <p
            class="latency-diagnosis"
            class:infrastructure=move || e2e_shown.get().is_some_and(|e| diagnose(&e).fix_infrastructure)
            data-testid="latency-diagnosis"
        >
            {move || e2e_shown.get().map(|e| diagnose(&e).text)}
        </p>
    }
}
