//! Break-even: the monthly bill of a per-token API against dedicated GPUs, the volume where
//! they cross, and both costs on a chart.

use super::calc_parts::{compact, decades, AxisChart, Line, LogLogChart, Stroke};
use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::calc::break_even::{self as be, CostInputs, HOURS_PER_MONTH};
use crate::calc::decode::three_figures;
use crate::calc::format::{fixed, plain};
use crate::calc::InputError;
use crate::content::WidgetParams;
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

/// A good result: both bills at the chosen volume, and where they cross.
#[derive(Debug, Clone, PartialEq)]
struct Bills {
    inputs: CostInputs,
    volume: f64,
    api: f64,
    dedicated: f64,
    gpus: u64,
    /// Volume where one GPU's rent equals the API bill (tokens a month), if dedicated can win.
    break_even: Option<f64>,
    /// Dedicated cost per million tokens with the GPUs as busy as `utilisation` says ($).
    dedicated_per_m: f64,
    worked: Vec<String>,
}

fn bills(
    price: &str,
    hourly: &str,
    tps: &str,
    utilisation: &str,
    volume: &str,
) -> Result<Bills, Vec<InputError>> {
    let price = be::parse_api_price_per_m(price);
    let hourly = be::parse_gpu_hourly(hourly);
    let tps = be::parse_throughput_tps(tps);
    let utilisation = be::parse_utilisation_percent(utilisation);
    let volume = be::parse_tokens_per_month(volume);
    match (price, hourly, tps, utilisation, volume) {
        (Ok(api_price_per_m), Ok(gpu_hourly), Ok(throughput_tps), Ok(utilisation), Ok(volume)) => {
            let inputs = CostInputs {
                api_price_per_m,
                gpu_hourly,
                throughput_tps,
                utilisation,
            };
            let point = inputs.point(volume);
            let gpus = inputs.gpus_needed(volume);
            let dedicated_per_m =
                inputs.gpu_monthly_cost() / inputs.gpu_capacity_tokens_per_month() * 1e6;
            let break_even = inputs
                .dedicated_can_win()
                .then(|| inputs.break_even_tokens_per_month());
            let worked = vec![
                format!(
                    "API: {} M tokens \u{d7} ${} per M = {} a month",
                    plain(volume / 1e6),
                    plain(api_price_per_m),
                    dollars(point.api_cost)
                ),
                format!(
                    "Dedicated: {} \u{d7} ${}/h \u{d7} {} h = {} a month (one GPU serves {} M tokens a month)",
                    gpus,
                    plain(gpu_hourly),
                    plain(HOURS_PER_MONTH),
                    dollars(point.dedicated_cost),
                    plain(inputs.gpu_capacity_tokens_per_month() / 1e6)
                ),
                inputs.worked_line(),
            ];
            Ok(Bills {
                inputs,
                volume,
                api: point.api_cost,
                dedicated: point.dedicated_cost,
                gpus,
                break_even,
                dedicated_per_m,
                worked,
            })
        }
        (a, b, c, d, e) => Err([a.err(), b.err(), c.err(), d.err(), e.err()]
            .into_iter()
            .flatten()
            .collect()),
    }
}

/// Money as a reader reads it: `$600`, `$1,825`, `$0.46`.
fn dollars(v: f64) -> String {
    if v >= 100.0 {
        format!("${}", fixed(v, 0))
    } else {
        format!("${}", fixed(v, 2))
    }
}

/// Which path is cheaper at the chosen volume, and by how much.
fn verdict(b: &Bills) -> String {
    let gap = (b.api - b.dedicated).abs();
    if gap < 0.005 {
        "$0: both cost the same".into()
    } else if b.api < b.dedicated {
        format!("{} less on the API", dollars(gap))
    } else {
        format!("{} less on dedicated", dollars(gap))
    }
}

/// Both monthly costs against volume, with the break-even volume and the chosen volume marked.
fn cost_chart(b: &Bills) -> LogLogChart {
    let centre_lo = b.break_even.map_or(b.volume, |v| v.min(b.volume));
    let centre_hi = b.break_even.map_or(b.volume, |v| v.max(b.volume));
    let x = decades(centre_lo / 30.0, centre_hi * 30.0);
    let api_line = vec![(x.0, b.inputs.api_cost(x.0)), (x.1, b.inputs.api_cost(x.1))];
    let dedicated: Vec<(f64, f64)> = b
        .inputs
        .cost_curve(x.0, x.1, 400)
        .into_iter()
        .map(|p| (p.tokens_per_month, p.dedicated_cost))
        .collect();
    let top = dedicated
        .iter()
        .chain(&api_line)
        .map(|p| p.1)
        .fold(0.0, f64::max);
    let bottom = b.inputs.api_cost(x.0).min(b.inputs.gpu_monthly_cost());
    let y = decades(bottom, top * 1.2);
    LogLogChart {
        x,
        y,
        lines: vec![
            Line {
                points: api_line,
                stroke: Stroke::Main,
            },
            Line {
                points: dedicated,
                stroke: Stroke::Second,
            },
        ],
        marks: vec![
            ((b.volume, b.api), Stroke::Main),
            ((b.volume, b.dedicated), Stroke::Second),
        ],
        guide_x: b.break_even,
    }
}

fn chart_description(b: &Bills) -> String {
    let cross = match b.break_even {
        Some(v) => format!(
            "The lines cross at {} M tokens a month, marked by the vertical line",
            plain(v / 1e6)
        ),
        None => "The lines never cross: a busy GPU still costs more per token than the API".into(),
    };
    format!(
        "Monthly cost against tokens a month. The API line rises with volume; the dedicated line \
         starts at one GPU's rent, {}, and steps up by that much each time another GPU is needed. {}. \
         At {} M tokens the API costs {} and dedicated {}.",
        dollars(b.inputs.gpu_monthly_cost()),
        cross,
        plain(b.volume / 1e6),
        dollars(b.api),
        dollars(b.dedicated)
    )
}

fn dollars_tick(v: f64) -> String {
    format!("${}", compact(v))
}

fn volume_tick(v: f64) -> String {
    compact(v)
}

/// The calculator: prices and throughput in, monthly bills and break-even out.
#[component]
pub fn BreakEven(
    /// Starting API price, $ per million tokens.
    api_price: &'static str,
    /// Starting GPU price, $ per hour.
    gpu_hourly: &'static str,
    /// Starting throughput of one GPU, tokens/s.
    throughput: &'static str,
    /// Starting utilisation, percent.
    utilisation: &'static str,
    /// Starting volume, tokens a month.
    volume: &'static str,
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
    super::url_state::share(
        "be",
        vec![
            ("api", price),
            ("gpu", hourly),
            ("tps", tps),
            ("util", util),
            ("vol", vol),
        ],
        Signal::derive(move || !stale.get()),
    );
    let error_for = move |field: &'static str| calc.error_for(field);
    let show = move |f: fn(&Bills) -> String| calc.show(f);
    let chart = Memo::new(move |_| shown.get().map(|b| cost_chart(&b)));
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

    view! {
        <WidgetCard title="Break-even: per-token API or dedicated GPUs" name="break-even">
            <p class="widget-example-note" data-testid="break-even-example-note">
                "The starting values are examples to show the arithmetic, not quoted prices. Enter your own."
            </p>
            <div class="controls">
                <NumberField label="API price per million tokens (example)" testid="break-even-api-price" text=price error=error_for("API price per million tokens") unit="$/M" step=0.1 />
                <NumberField label="GPU price per hour (example)" testid="break-even-gpu-hourly" text=hourly error=error_for("GPU price per hour") unit="$/h" step=0.1 />
                <NumberField label="Throughput of one GPU (example)" testid="break-even-throughput" text=tps error=error_for("Throughput per GPU") unit="tok/s" step=100.0 />
                <NumberField label="Share of the month at that throughput" testid="break-even-utilisation" text=util error=error_for("Utilisation") unit="%" step=5.0 />
                <div class="control-group">
                    <NumberField label="Your volume, tokens a month" testid="break-even-volume" text=vol error=error_for("Tokens per month") unit="tokens" step=100000000.0 />
                    <Presets label="Volume presets" options=vec![("100M", "100000000"), ("1B", "1000000000"), ("10B", "10000000000"), ("100B", "100000000000")] text=vol />
                </div>
            </div>
            <div class="outputs">
                <Output label="API, a month" testid="break-even-api-cost" value=show(|b| dollars(b.api)) stale=stale />
                <Output label="Dedicated, a month" testid="break-even-dedicated-cost" value=show(|b| format!("{} ({} GPU{})", dollars(b.dedicated), b.gpus, if b.gpus == 1 { "" } else { "s" })) stale=stale />
                <Output
                    label="Break-even, tokens a month"
                    testid="break-even-volume-out"
                    value=show(|b| match b.break_even {
                        Some(v) => format!("{} M tokens", three_figures(v / 1e6)),
                        None => "None: the API is always cheaper".into(),
                    })
                    stale=stale
                />
                <Output label="Difference at your volume" testid="break-even-verdict" value=show(verdict) stale=stale />
            </div>
            <div class="worked" data-testid="break-even-worked">
                {move || shown.get().map(|b| b.worked.into_iter().map(|line| view! { <p>{line}</p> }).collect_view())}
            </div>
            <AxisChart
                svg=svg
                x_ticks=x_ticks
                y_ticks=y_ticks
                x_label="Tokens a month (log scale)"
                y_label="Cost a month, $ (log scale)"
                legend=vec![(Stroke::Main, "API, per token"), (Stroke::Second, "Dedicated, whole GPUs")]
                description=description
                testid="break-even-chart"
            />
            <p class="widget-note">
                {move || shown.get().map(|b| format!(
                    "A dedicated GPU as busy as this costs {} per million tokens. A month is {} hours, and every GPU is paid for all of them; engineering time is not counted.",
                    dollars(b.dedicated_per_m),
                    plain(HOURS_PER_MONTH)
                ))}
            </p>
        </WidgetCard>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_inputs() {
        let b = bills("0.6", "2.5", "1500", "100", "1000000000").unwrap();
        assert_eq!(dollars(b.api), "$600");
        assert_eq!(dollars(b.dedicated), "$1,825");
        assert_eq!(b.gpus, 1);
        assert_eq!(plain(b.break_even.unwrap() / 1e6), "3,041.667");
        assert_eq!(verdict(&b), "$1,225 less on the API");
        assert_eq!(dollars(b.dedicated_per_m), "$0.46");
        let big = bills("0.6", "2.5", "1500", "100", "1e10").unwrap();
        assert_eq!(big.gpus, 3);
        assert_eq!(verdict(&big), "$525 less on dedicated");
        let never = bills("0.1", "2.5", "1500", "100", "1e9").unwrap();
        assert_eq!(never.break_even, None);
        assert!(chart_description(&never).contains("never cross"));
    }

    #[test]
    fn chart_covers_the_break_even_and_the_volume() {
        let b = bills("0.6", "2.5", "1500", "100", "1000000000").unwrap();
        let c = cost_chart(&b);
        let be = b.break_even.unwrap();
        assert!(c.x.0 < 1e9 && c.x.1 > be);
        assert_eq!(c.guide_x, Some(be));
        assert_eq!(c.marks.len(), 2);
        let svg = c.svg().unwrap();
        assert!(svg.contains("var(--chart-2)") && svg.contains("var(--accent)"));
    }

    #[test]
    fn every_bad_field_is_named() {
        let errs = bills("0", "-1", "x", "101", "").unwrap_err();
        assert_eq!(errs.len(), 5);
    }

    proptest::proptest! {
        #[test]
        fn valid_inputs_never_show_nan(
            price in 0.001f64..10_000.0,
            hourly in 0.001f64..10_000.0,
            tps in 0.001f64..1e9,
            util in 0.1f64..100.0,
            volume in 1.0f64..1e15,
        ) {
            let b = bills(&price.to_string(), &hourly.to_string(), &tps.to_string(), &util.to_string(), &volume.to_string()).unwrap();
            proptest::prop_assert!(b.api.is_finite() && b.dedicated.is_finite() && b.gpus >= 1);
            let text = format!("{} {} {}", verdict(&b), chart_description(&b), b.worked.join(" "));
            let clean = !text.contains("NaN") && !text.contains('\u{221e}');
            proptest::prop_assert!(clean, "{}", text);
            let c = cost_chart(&b);
            proptest::prop_assert!(c.x.1 > c.x.0 && c.y.1 > c.y.0);
        }
    }
}
