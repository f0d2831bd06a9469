//! The latency explorer: a seeded right-skewed sample of response times, its histogram with the
//! mean, P50, P90 and P99 marked, and the split of end-to-end time into its parts.

use super::controls::{Calculation, Chart, NumberField, Output, Presets, WidgetCard};
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
    let ex = LatencyModel::EXAMPLE;
    let median = RwSignal::new(crate::logic::format::plain(ex.median_ms));
    let sigma = RwSignal::new(crate::logic::format::plain(ex.sigma));
    let one_in = RwSignal::new(ex.slow_one_in.to_string());
    let factor = RwSignal::new(crate::logic::format::plain(ex.slow_factor));

    let explored = Calculation::new(move || {
        Explored::from_text(&median.get(), &sigma.get(), &one_in.get(), &factor.get())
    });
    let shown = explored.shown;
    let stale = explored.stale();
    let hist_svg =
        Signal::derive(move || shown.with(|s| s.as_ref().map(histogram_svg).unwrap_or_default()));
    let hist_alt = Signal::derive(move || {
        shown.with(|s| s.as_ref().map(Explored::description).unwrap_or_default())
    });
    let upper = move || shown.with(|s| s.as_ref().map(|e| e.upper).unwrap_or(0.0));

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
        <WidgetCard title="Latency explorer" name="latency">
            <div class="controls">
                <NumberField label="Median response time" testid="latency-median" text=median error=explored.error_for(Field::Median) unit="ms" step=50.0 />
                <div class="control-group">
                    <NumberField label="Tail (sigma)" testid="latency-sigma" text=sigma error=explored.error_for(Field::Sigma) step=0.1 />
                    <Presets label="Tail presets" options=vec![("Narrow", "0.2"), ("Moderate", "0.5"), ("Long", "1")] text=sigma />
                </div>
                <div class="control-group">
                    <NumberField label="1 in N requests is slow (0: none)" testid="latency-slow-one-in" text=one_in error=explored.error_for(Field::SlowOneIn) step=1.0 />
                    <Presets label="Slow request presets" options=vec![("None", "0"), ("1 in 10", "10"), ("1 in 20", "20")] text=one_in />
                </div>
                <NumberField label="Slow requests take" testid="latency-slow-factor" text=factor error=explored.error_for(Field::SlowFactor) unit="\u{d7}" step=1.0 min=1.0 />
            </div>
            <div class="outputs">
                <Output label="Mean" testid="latency-mean" value=explored.show(|e| ms_text(e.story.now.mean)) stale=stale />
                <Output label="P50 (median)" testid="latency-p50" value=explored.show(|e| ms_text(e.story.now.p50)) stale=stale />
                <Output label="P90" testid="latency-p90" value=explored.show(|e| ms_text(e.story.now.p90)) stale=stale />
                <Output label="P99" testid="latency-p99" value=explored.show(|e| ms_text(e.story.now.p99)) stale=stale />
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
                <NumberField label="Network" testid="latency-network" text=network error=e2e.error_for(Field::Network) unit="ms" step=10.0 />
                <NumberField label="Queueing" testid="latency-queue" text=queue error=e2e.error_for(Field::Queue) unit="ms" step=10.0 />
                <NumberField label="Inference" testid="latency-inference" text=inference error=e2e.error_for(Field::Inference) unit="ms" step=10.0 />
            </div>
            <div class="outputs">
                <Output label="End-to-end" testid="latency-e2e-total" value=e2e.show(|e| ms_text(e.total_ms())) stale=e2e_stale />
                <Output
                    label="Inference share"
                    testid="latency-inference-share"
                    value=e2e.show(EndToEnd::inference_share_text)
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
        </WidgetCard>
    }
}
