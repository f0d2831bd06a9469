//! Break-even: the monthly bill of a per-token API against dedicated GPUs, every volume where
//! dedicated is cheaper (a staircase of ranges, then for good), and both costs on a chart.

use super::controls::{Calculation, Chart, ChartAxes, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::break_even::Field;
use crate::logic::break_even::{bills, chart_description, dollars, verdict, wins_text, Bills};
use crate::logic::chart::sizing::{break_even_chart, dollars_tick, volume_tick};
use crate::logic::chart::Stroke;
use leptos::prelude::*;

/// Mounts the widget with the directive's parameters (`api-price`, `gpu-hourly`, `throughput`,
/// `utilisation`, `volume`).
pub fn mount(params: WidgetParams) -> AnyView {
    view! {
        <BreakEven
            api_price=params.get("api-price").unwrap_or("0.6")
            gpu_hourly=params.get("gpu-hourly").unwrap_or("2.5")
            throughput=params.get("throughput").unwrap_or("1500")
            utilisation=params.get("utilisation").unwrap_or("100")
            volume=params.get("volume").unwrap_or("1000000000")
        />
    }
    .into_any()
}

/// The calculator: prices and throughput in, monthly bills and break-even out.
#[component]
pub fn BreakEven(
    /// Starting API price, $ per million tokens.
    #[prop(into)]
    api_price: String,
    /// Starting GPU price, $ per hour.
    #[prop(into)]
    gpu_hourly: String,
    /// Starting throughput of one GPU, tokens/s.
    #[prop(into)]
    throughput: String,
    /// Starting utilisation, percent.
    #[prop(into)]
    utilisation: String,
    /// Starting volume, tokens a month.
    #[prop(into)]
    volume: String,
) -> impl IntoView {
    let price = RwSignal::new(api_price.to_string());
    let hourly = RwSignal::new(gpu_hourly.to_string());
    let tps = RwSignal::new(throughput.to_string());
    let util = RwSignal::new(utilisation.to_string());
    let vol = RwSignal::new(volume.to_string());
    let calc = Calculation::new(move || {
        bills(
            &price.get(),
            &hourly.get(),
            &tps.get(),
            &util.get(),
            &vol.get(),
        )
    });
    let shown = calc.shown;
    let stale = calc.stale();
    crate::services::url_state::share(
        "be",
        vec![
            ("api", price.into()),
            ("gpu", hourly.into()),
            ("tps", tps.into()),
            ("util", util.into()),
            ("vol", vol.into()),
        ],
        Signal::derive(move || !stale.get()),
    );
    let show = move |f: fn(&Bills) -> String| calc.show(f);
    let chart = Memo::new(move |_| shown.get().map(|b| break_even_chart(&b)));
    let svg = Signal::derive(move || chart.get().and_then(|c| c.svg().ok()).unwrap_or_default());
    let x_ticks = Signal::derive(move || {
        chart
            .get()
            .map(|c| c.x_ticks(volume_tick))
            .unwrap_or_default()
    });
    let y_ticks = Signal::derive(move || {
        chart
            .get()
            .map(|c| c.y_ticks(dollars_tick))
            .unwrap_or_default()
    });
    let description = Signal::derive(move || {
        shown
            .get()
            .map(|b| chart_description(&b))
            .unwrap_or_default()
    });

    let axes = ChartAxes {
        x_ticks,
        y_ticks,
        x_label: "Tokens a month (log scale)",
        y_label: "Cost a month, $ (log scale)",
        legend: vec![
            (Stroke::Main, "API, per token"),
            (Stroke::Second, "Dedicated, whole GPUs"),
            (Stroke::Shade, "Dedicated cheaper"),
        ],
    };

    view! {
        <WidgetCard title="Break-even: per-token API or dedicated GPUs" name="break-even">
            <p class="widget-example-note" data-testid="break-even-example-note">
                "The starting values are examples to show the arithmetic, not quoted prices. Enter your own."
            </p>
            <div class="controls">
                <NumberField label="API price per million tokens (example)" testid="break-even-api-price" text=price error=calc.error_for(Field::ApiPrice) unit="$/M" step=0.1 />
                <NumberField label="GPU price per hour (example)" testid="break-even-gpu-hourly" text=hourly error=calc.error_for(Field::GpuHourly) unit="$/h" step=0.1 />
                <NumberField label="Throughput of one GPU (example)" testid="break-even-throughput" text=tps error=calc.error_for(Field::Throughput) unit="tok/s" step=100.0 />
                <NumberField label="Share of the month at that throughput" testid="break-even-utilisation" text=util error=calc.error_for(Field::Utilisation) unit="%" step=5.0 />
                <div class="control-group">
                    <NumberField label="Your volume, tokens a month" testid="break-even-volume" text=vol error=calc.error_for(Field::TokensPerMonth) unit="tokens" step=100000000.0 />
                    <Presets label="Volume presets" options=vec![("100M", "100000000"), ("1B", "1000000000"), ("10B", "10000000000"), ("100B", "100000000000")] text=vol />
                </div>
            </div>
            <div class="outputs">
                <Output label="API, a month" testid="break-even-api-cost" value=show(|b| dollars(b.api)) stale=stale />
                <Output label="Dedicated, a month" testid="break-even-dedicated-cost" value=show(Bills::dedicated_text) stale=stale />
                <Output label="Difference at your volume" testid="break-even-verdict" value=show(verdict) stale=stale />
                <Output label="Dedicated cheaper for good from" testid="break-even-volume-out" value=show(|b| wins_text(b).0) detail=show(|b| wins_text(b).1) stale=stale />
            </div>
            <div class="worked" data-testid="break-even-worked">
                {move || shown.get().map(|b| b.worked.into_iter().map(|line| view! { <p>{line}</p> }).collect_view())}
            </div>
            <Chart
                svg=svg
                description=description
                testid="break-even-chart"
                axes=axes
            />
            <p class="widget-note">
                {move || shown.get().map(|b| b.note())}
            </p>
        </WidgetCard>
    }
}
