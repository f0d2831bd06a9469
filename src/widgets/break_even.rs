//! Break-even: the monthly bill of a per-token API against dedicated GPUs, every volume where
//! dedicated is cheaper (a staircase of ranges, then for good), and both costs on a chart.

use super::calc_parts::{log_log_chart, output_rows, share_link, worked_lines, LogLogLook};
use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::break_even::Field;
use crate::logic::break_even::{bills, chart_description, dollars, verdict, wins_text, Bills};
use crate::logic::chart::sizing::{break_even_chart, dollars_tick, volume_tick};
use crate::logic::chart::Stroke;
use crate::services::url_state::Shared;
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
    let f = CostFields {
        price: RwSignal::new(api_price),
        hourly: RwSignal::new(gpu_hourly),
        tps: RwSignal::new(throughput),
        util: RwSignal::new(utilisation),
        vol: RwSignal::new(volume),
    };
    let calc = Calculation::new(move || f.bills());
    let shown = calc.shown;
    let stale = calc.stale();
    share_link("be", f.shared(), stale);
    let show = move |f: fn(&Bills) -> String| calc.show(f);
    let worked = Signal::derive(move || shown.with(|b| b.as_ref().map(|b| b.worked.clone())));
    // The words after the volume: none before there is a result (the value's dash says it).
    let wins_detail = Signal::derive(move || {
        shown.with(|b| b.as_ref().map(|b| wins_text(b).1).unwrap_or_default())
    });

    view! {
        <WidgetCard title="Break-even: per-token API or dedicated GPUs" name="break-even">
            <p class="widget-example-note" data-testid="break-even-example-note">
                "The starting values are examples to show the arithmetic, not quoted prices. Enter your own."
            </p>
            {cost_controls(f, calc)}
            <div class="outputs">
                {output_rows(stale, [
                    ("API, a month", "break-even-api-cost", show(|b| dollars(b.api))),
                    ("Dedicated, a month", "break-even-dedicated-cost", show(Bills::dedicated_text)),
                    ("Difference at your volume", "break-even-verdict", show(verdict)),
                ])}
                <Output label="Dedicated cheaper for good from" testid="break-even-volume-out" value=show(|b| wins_text(b).0) detail=wins_detail stale=stale />
            </div>
            {worked_lines("break-even-worked", worked)}
            {bills_chart(shown)}
            <p class="widget-note">
                {move || shown.get().map(|b| b.note())}
            </p>
        </WidgetCard>
    }
}

/// The costs and the volume, as typed: API price ($ per million tokens), GPU price ($ an hour),
/// one GPU's throughput (tok/s), utilisation (%) and tokens a month.
#[derive(Clone, Copy)]
struct CostFields {
    price: RwSignal<String>,
    hourly: RwSignal<String>,
    tps: RwSignal<String>,
    util: RwSignal<String>,
    vol: RwSignal<String>,
}

impl CostFields {
    /// Both bills from the fields' texts.
    fn bills(self) -> Result<Bills, Vec<crate::logic::InputError>> {
        bills(
            &self.price.get(),
            &self.hourly.get(),
            &self.tps.get(),
            &self.util.get(),
            &self.vol.get(),
        )
    }

    /// Every input the link carries, by its key in the address.
    fn shared(self) -> Vec<Shared> {
        vec![
            ("api", self.price.into()),
            ("gpu", self.hourly.into()),
            ("tps", self.tps.into()),
            ("util", self.util.into()),
            ("vol", self.vol.into()),
        ]
    }
}

/// The prices, the throughput and its share of the month, and the volume with its presets.
fn cost_controls(f: CostFields, calc: Calculation<Bills>) -> impl IntoView {
    view! {
        <div class="controls">
            <NumberField label="API price per million tokens (example)" testid="break-even-api-price" text=f.price error=calc.error_for(Field::ApiPrice) unit="$/M" step=0.1 />
            <NumberField label="GPU price per hour (example)" testid="break-even-gpu-hourly" text=f.hourly error=calc.error_for(Field::GpuHourly) unit="$/h" step=0.1 />
            <NumberField label="Throughput of one GPU (example)" testid="break-even-throughput" text=f.tps error=calc.error_for(Field::Throughput) unit="tok/s" step=100.0 />
            <NumberField label="Share of the month at that throughput" testid="break-even-utilisation" text=f.util error=calc.error_for(Field::Utilisation) unit="%" step=5.0 />
            <div class="control-group">
                <NumberField label="Your volume, tokens a month" testid="break-even-volume" text=f.vol error=calc.error_for(Field::TokensPerMonth) unit="tokens" step=100000000.0 />
                <Presets label="Volume presets" options=vec![("100M", "100000000"), ("1B", "1000000000"), ("10B", "10000000000"), ("100B", "100000000000")] text=f.vol />
            </div>
        </div>
    }
}

/// Both monthly costs against volume, shaded where dedicated is cheaper, the volume marked.
fn bills_chart(shown: Memo<Option<Bills>>) -> impl IntoView {
    let chart = Memo::new(move |_| shown.with(|b| b.as_ref().map(break_even_chart)));
    let description = Signal::derive(move || {
        shown.with(|b| b.as_ref().map(chart_description).unwrap_or_default())
    });
    let look = LogLogLook {
        testid: "break-even-chart",
        x_tick: volume_tick,
        y_tick: dollars_tick,
        x_label: "Tokens a month (log scale)",
        y_label: "Cost a month, $ (log scale)",
        legend: vec![
            (Stroke::Main, "API, per token"),
            (Stroke::Second, "Dedicated, whole GPUs"),
            (Stroke::Shade, "Dedicated cheaper"),
        ],
    };
    log_log_chart(chart, description, look)
}
