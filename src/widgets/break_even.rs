//! Break-even: the monthly bill of a per-token API against dedicated GPUs, every volume where
//! dedicated is cheaper (a staircase of ranges, then for good), and both costs on a chart.

use super::controls::{Calculation, Chart, ChartAxes, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::break_even::{
    self as be, volume_text, CostInputs, DedicatedWins, HOURS_PER_MONTH,
};
use crate::logic::chart::loglog::WIDTH;
use crate::logic::chart::{compact, decades, Band, Line, LogLogChart, Stroke};
use crate::logic::format::{fixed, plain};
use crate::logic::InputError;
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
    /// Every volume where dedicated is cheaper, if there is one.
    wins: Option<DedicatedWins>,
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
            let wins = inputs.dedicated_wins();
            let mut worked = vec![
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
            worked.extend(wins.map(|w| w.worked_line()));
            Ok(Bills {
                inputs,
                volume,
                api: point.api_cost,
                dedicated: point.dedicated_cost,
                gpus,
                wins,
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

/// Where dedicated wins, in words: the volume above which it always does (or "None"), then
/// the ranges below it, e.g. (`12,167 M tokens/month`, `; below that, dedicated wins only
/// from 3,042 to 3,942 M, …`). The output shows the two as one text.
fn wins_text(b: &Bills) -> (String, String) {
    let Some(wins) = b.wins else {
        return (
            "None".into(),
            ": the API is always cheaper at these inputs".into(),
        );
    };
    let always = format!("{} tokens/month", volume_text(wins.always_from()));
    let below = match (wins.ranges_text(), wins.range_count()) {
        (None, _) => "; below that, the API is cheaper".into(),
        (Some(list), n) if n <= be::MAX_LISTED_RANGES as u64 => {
            format!("; below that, dedicated wins only from {list}")
        }
        (Some(list), n) => format!(
            "; below that, dedicated wins only in {} ranges, from {list}",
            fixed(n as f64, 0)
        ),
    };
    (always, below)
}

/// The shaded stretches of a chart over `x` where dedicated wins: one band per range
/// (`break-even-win-band`) and one from the always-wins volume on (`break-even-always-band`).
///
/// The gaps between ranges narrow as GPUs are added; once a gap would be under one unit of
/// the SVG's width (about a pixel), the ranges from there to the always-wins volume are drawn
/// as one band, as they would look anyway. So at most about 280 ranges are visited (the gap
/// after range n is under ln(1 + 1/n) < 1/n on a log axis, and the chart spans at least a
/// decade), however many there are.
fn win_bands(wins: &DedicatedWins, x: (f64, f64)) -> Vec<Band> {
    let min_gap = (x.1 / x.0).ln().max(std::f64::consts::LN_10) / WIDTH as f64;
    let always = wins.always_from();
    let mut bands = Vec::new();
    let mut merged_from = None;
    for range in wins.ranges() {
        if range.from >= x.1 {
            break;
        }
        let next = wins.range(range.gpus + 1).map_or(always, |r| r.from);
        if (next / range.to).ln() < min_gap {
            merged_from = Some(range.from);
            break;
        }
        bands.push(Band {
            x: (range.from, range.to),
            testid: "break-even-win-band",
        });
    }
    if let Some(from) = merged_from {
        bands.push(Band {
            x: (from, always),
            testid: "break-even-win-band",
        });
    }
    bands.push(Band {
        x: (always, f64::INFINITY),
        testid: "break-even-always-band",
    });
    bands
}

/// Both monthly costs against volume, with the volumes where dedicated wins shaded, the
/// always-wins volume as a vertical line and the chosen volume marked.
fn cost_chart(b: &Bills) -> LogLogChart {
    let first = b.inputs.break_even_tokens_per_month();
    // Far enough to show where dedicated wins for good, but no more than four decades past
    // the first crossing (the ranges there are too thin to see).
    let reach = b.wins.map(|w| w.always_from().min(first * 1e4));
    let lo = reach.map_or(b.volume, |_| first.min(b.volume));
    let hi = reach.map_or(b.volume, |r| r.max(b.volume));
    let x = decades(lo / 10.0, hi * 3.0);
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
        guide_x: b.wins.map(|w| w.always_from()),
        bands: b.wins.map(|w| win_bands(&w, x)).unwrap_or_default(),
    }
}

fn chart_description(b: &Bills) -> String {
    let cross = match b.wins {
        Some(wins) => {
            let shaded = match wins.range_count() {
                0 => String::new(),
                1 => "one range below that and ".into(),
                n => format!("{} ranges below that and ", fixed(n as f64, 0)),
            };
            format!(
                "The lines first cross at {} M tokens a month. Shaded: where dedicated is \
                 cheaper, {shaded}every volume from {} tokens on, marked by the vertical line",
                plain(b.inputs.break_even_tokens_per_month() / 1e6),
                volume_text(wins.always_from())
            )
        }
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

    fn example(volume: &str) -> Bills {
        bills("0.6", "2.5", "1500", "100", volume).unwrap()
    }

    /// The output's whole text, as a reader (or a test) reads it.
    fn wins_said(b: &Bills) -> String {
        let (value, detail) = wins_text(b);
        value + &detail
    }

    #[test]
    fn the_example_inputs() {
        let b = example("1000000000");
        assert_eq!(dollars(b.api), "$600");
        assert_eq!(dollars(b.dedicated), "$1,825");
        assert_eq!(b.gpus, 1);
        assert_eq!(
            plain(b.inputs.break_even_tokens_per_month() / 1e6),
            "3,041.667"
        );
        assert_eq!(verdict(&b), "$1,225 less on the API");
        assert_eq!(dollars(b.dedicated_per_m), "$0.46");
        assert_eq!(
            wins_said(&b),
            "12,167 M tokens/month; below that, dedicated wins only from 3,042 to 3,942 M, \
             6,083 to 7,884 M and 9,125 to 11,826 M"
        );
        assert_eq!(b.worked.len(), 4);
        assert!(b.worked[3].starts_with("From 4 \u{d7} 3,041.667 M = 12,166.667 M"));
        let big = example("1e10");
        assert_eq!(big.gpus, 3);
        assert_eq!(verdict(&big), "$525 less on dedicated");
        // Past a step: 5 billion needs a second GPU, and the API is cheaper again.
        assert_eq!(verdict(&example("5e9")), "$650 less on the API");
    }

    #[test]
    fn one_crossing_and_none() {
        let once = bills("2", "2.5", "1500", "50", "1e9").unwrap();
        assert_eq!(
            wins_said(&once),
            "913 M tokens/month; below that, the API is cheaper"
        );
        assert!(chart_description(&once).contains("every volume from 913 M tokens on"));
        let never = bills("0.1", "2.5", "1500", "100", "1e9").unwrap();
        assert_eq!(never.wins, None);
        assert!(wins_said(&never).starts_with("None: the API is always cheaper"));
        assert!(chart_description(&never).contains("never cross"));
        assert_eq!(never.worked.len(), 3);
        let c = cost_chart(&never);
        assert!(c.bands.is_empty() && c.guide_x.is_none());
    }

    #[test]
    fn many_narrow_ranges_are_counted_not_listed() {
        // One GPU breaks even at 3,041.667 M and holds 3,042.173 M: 6,009 ranges.
        let b = bills("0.6", "2.5", "1157.6", "100", "1e9").unwrap();
        let text = wins_said(&b);
        assert!(
            text.starts_with(
                "18,280,417 M tokens/month; below that, dedicated wins only in \
                 6,009 ranges, from 3,041.7 to 3,042.2 M, 6,083 to 6,084 M, \u{2026} and "
            ),
            "{text}"
        );
        let c = cost_chart(&b);
        assert!(c.bands.len() < 300, "{}", c.bands.len());
        assert!(c.svg().is_ok());
    }

    #[test]
    fn chart_shades_where_dedicated_wins() {
        let b = example("1000000000");
        let c = cost_chart(&b);
        let wins = b.wins.unwrap();
        assert!(c.x.0 < 1e9 && c.x.1 > wins.always_from());
        assert_eq!(c.guide_x, Some(wins.always_from()));
        assert_eq!(c.marks.len(), 2);
        let bands: Vec<(f64, f64, &str)> =
            c.bands.iter().map(|b| (b.x.0, b.x.1, b.testid)).collect();
        assert_eq!(bands.len(), 4);
        for (band, range) in bands.iter().zip(wins.ranges()) {
            assert_eq!(
                (band.0, band.1, band.2),
                (range.from, range.to, "break-even-win-band")
            );
        }
        assert_eq!(bands[3].0, wins.always_from());
        assert_eq!(bands[3].2, "break-even-always-band");
        let svg = c.svg().unwrap();
        assert!(svg.contains("var(--chart-2)") && svg.contains("var(--accent)"));
        assert_eq!(
            svg.matches("data-testid=\"break-even-win-band\"").count(),
            3
        );
        assert_eq!(
            svg.matches("data-testid=\"break-even-always-band\"")
                .count(),
            1
        );
        let text = chart_description(&b);
        assert!(text.contains("first cross at 3,041.667 M tokens"), "{text}");
        assert!(text.contains("3 ranges below that and every volume from 12,167 M tokens on"));
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
            let text = format!("{} {} {} {}", verdict(&b), chart_description(&b), wins_said(&b), b.worked.join(" "));
            let clean = !text.contains("NaN") && !text.contains('\u{221e}');
            proptest::prop_assert!(clean, "{}", text);
            proptest::prop_assert!(wins_said(&b).starts_with(|c: char| c.is_ascii_digit()) == b.wins.is_some());
            let c = cost_chart(&b);
            proptest::prop_assert!(c.x.1 > c.x.0 && c.y.1 > c.y.0);
            proptest::prop_assert!(c.bands.len() < 300);
        }
    }
}
