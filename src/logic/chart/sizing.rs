//! The sizing calculators' charts: weight memory against model size, and the monthly bills of
//! an API and of dedicated GPUs against volume (log–log, see [`super::loglog`]).

use super::loglog::{compact, decades, Band, Line, LogLogChart, Stroke, WIDTH};
use crate::logic::break_even::{Bills, DedicatedWins};
use crate::logic::format::plain;
use crate::logic::memory::Sizing;

/// Memory against model size at the chosen precision, GPU memory as a line, the model marked.
pub fn weight_memory_chart(s: &Sizing) -> LogLogChart {
    let x = decades(s.params_b.min(1.0), (s.params_b * 1.5).max(1000.0));
    let bytes = s.precision.bytes_per_param();
    let top = (x.1 * bytes).max(s.gpu_gb).max(s.total_gb) * 1.2;
    let y = decades((x.0 * bytes).min(s.gpu_gb * 0.8), top);
    let mut marks = vec![((s.params_b, s.weight_gb), Stroke::Main)];
    if s.kv_gb.is_some() {
        marks.push(((s.params_b, s.total_gb), Stroke::Second));
    }
    LogLogChart {
        x,
        y,
        lines: vec![
            Line {
                points: vec![(x.0, s.gpu_gb), (x.1, s.gpu_gb)],
                stroke: Stroke::Limit,
            },
            Line {
                points: vec![(x.0, x.0 * bytes), (x.1, x.1 * bytes)],
                stroke: Stroke::Main,
            },
        ],
        marks,
        guide_x: None,
        bands: Vec::new(),
    }
}

/// Tick text of the parameter axis: `1B`, `10B`, `1,000B`.
pub fn params_tick(v: f64) -> String {
    format!("{}B", plain(v))
}

/// Tick text of the memory axis: `10 GB`, `1,000 GB`.
pub fn gb_tick(v: f64) -> String {
    format!("{} GB", plain(v))
}

/// The shaded stretches of a chart over `x` where dedicated wins: one band per range
/// (`break-even-win-band`) and one from the always-wins volume on (`break-even-always-band`).
///
/// The gaps between ranges narrow as GPUs are added; once a gap would be under one unit of
/// the SVG's width (about a pixel), the ranges from there to the always-wins volume are drawn
/// as one band, as they would look anyway. So at most about 280 ranges are visited (the gap
/// after range n is under ln(1 + 1/n) < 1/n on a log axis, and the chart spans at least a
/// decade), however many there are.
/// The most ranges [`win_bands`] draws one by one (the argument above keeps it under 300).
const MAX_BANDS: usize = 1_000;

fn win_bands(wins: &DedicatedWins, x: (f64, f64)) -> Vec<Band> {
    let min_gap = (x.1 / x.0).ln().max(std::f64::consts::LN_10) / WIDTH as f64;
    let always = wins.always_from();
    let mut bands = Vec::new();
    let mut merged_from = None;
    for (visited, range) in wins.ranges().enumerate() {
        if range.from >= x.1 {
            break;
        }
        // The gaps shrink as argued above; should a figure at the edge of f64 keep them from
        // it, the rest is drawn as one band rather than walked range by range.
        if visited >= MAX_BANDS {
            merged_from = Some(range.from);
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
pub fn break_even_chart(b: &Bills) -> LogLogChart {
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

/// Tick text of the cost axis: `$100`, `$10k`.
pub fn dollars_tick(v: f64) -> String {
    format!("${}", compact(v))
}

/// Tick text of the volume axis: `100M`, `10B`.
pub fn volume_tick(v: f64) -> String {
    compact(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::break_even::bills;

    #[test]
    fn chart_marks_the_model_and_draws_the_gpu_line() {
        let s = crate::logic::memory::size("70", "fp16", "", "80").unwrap();
        let c = weight_memory_chart(&s);
        assert_eq!(c.marks[0].0, (70.0, 140.0));
        assert!(c
            .lines
            .iter()
            .any(|l| l.stroke == Stroke::Limit && l.points.iter().all(|p| p.1 == 80.0)));
        assert!(c.x.0 <= 70.0 && c.x.1 >= 1000.0 && c.y.0 <= 80.0 && c.y.1 >= 2000.0);
        let svg = c.svg().unwrap();
        assert!(svg.contains("var(--danger)") && svg.contains("<circle"));
        assert!(s.chart_description().contains("up to 40B parameters"));
    }

    #[test]
    fn many_narrow_ranges_are_merged_into_few_bands() {
        // 6,009 ranges, each under a pixel apart near the always-wins volume.
        let b = bills("0.6", "2.5", "1157.6", "100", "1e9").unwrap();
        let c = break_even_chart(&b);
        assert!(c.bands.len() < 300, "{}", c.bands.len());
        assert!(c.svg().is_ok());
        let never = bills("0.1", "2.5", "1500", "100", "1e9").unwrap();
        let c = break_even_chart(&never);
        assert!(c.bands.is_empty() && c.guide_x.is_none());
    }

    #[test]
    fn the_chart_of_extreme_inputs_is_drawn_at_once() {
        // Corners of what the fields accept: the shading never walks more than its cap.
        for (price, hourly, tps, utilisation, volume) in [
            ("1e-9", "10000", "0.001", "0.001", "1e15"),
            ("1000", "0.001", "1e9", "100", "0.001"),
            ("0.001", "0.001", "1e9", "100", "1e15"),
            ("1000", "10000", "0.001", "0.001", "1"),
        ] {
            if let Ok(b) = bills(price, hourly, tps, utilisation, volume) {
                let c = break_even_chart(&b);
                assert!(c.bands.len() <= MAX_BANDS + 2);
                assert!(c.svg().is_ok());
            }
        }
    }

    #[test]
    fn chart_shades_where_dedicated_wins() {
        let b = bills("0.6", "2.5", "1500", "100", "1e9").unwrap();
        let c = break_even_chart(&b);
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
        let text = crate::logic::break_even::chart_description(&b);
        assert!(text.contains("first cross at 3,041.667 M tokens"), "{text}");
        assert!(text.contains("3 ranges below that and every volume from 12,167 M tokens on"));
    }

    proptest::proptest! {
        #[test]
        fn charts_have_ranges_for_any_valid_input(
            params in 0.001f64..100_000.0,
            bits in 0.5f64..64.0,
            gpu in 1.0f64..100_000.0,
            price in 0.001f64..10_000.0,
            hourly in 0.001f64..10_000.0,
            tps in 0.001f64..1e9,
            util in 0.1f64..100.0,
            volume in 1.0f64..1e15,
        ) {
            let s = crate::logic::memory::size(&params.to_string(), "custom", &bits.to_string(), &gpu.to_string()).unwrap();
            let c = weight_memory_chart(&s);
            proptest::prop_assert!(c.x.0 > 0.0 && c.x.1 > c.x.0 && c.y.1 > c.y.0);
            let b = bills(&price.to_string(), &hourly.to_string(), &tps.to_string(), &util.to_string(), &volume.to_string()).unwrap();
            let c = break_even_chart(&b);
            proptest::prop_assert!(c.x.1 > c.x.0 && c.y.1 > c.y.0);
            proptest::prop_assert!(c.bands.len() < 300);
        }
    }

    proptest::proptest! {
        /// Every tick a chart shows reads, and its drawing holds no NaN or infinity, whatever
        /// the fields accept.
        #[test]
        fn every_tick_reads_and_every_chart_draws(
            params in crate::logic::fuzz::in_range(0.0, crate::logic::memory::MAX_PARAMS_B),
            gpu in crate::logic::fuzz::in_range(0.0, crate::logic::memory::MAX_GPU_GB),
            price in crate::logic::fuzz::in_range(0.0, crate::logic::break_even::MAX_API_PRICE_PER_M),
            hourly in crate::logic::fuzz::in_range(0.0, crate::logic::break_even::MAX_GPU_HOURLY),
            tps in crate::logic::fuzz::in_range(0.0, crate::logic::break_even::MAX_THROUGHPUT_TPS),
            volume in crate::logic::fuzz::in_range(0.0, crate::logic::break_even::MAX_TOKENS_PER_MONTH),
        ) {
            use crate::logic::fuzz::unreadable_figure;
            let mut charts = Vec::new();
            if let Ok(s) = crate::logic::memory::size(&params, "int4", "", &gpu) {
                charts.push((weight_memory_chart(&s), params_tick as fn(f64) -> String, gb_tick as fn(f64) -> String));
            }
            if let Ok(b) = bills(&price, &hourly, &tps, "100", &volume) {
                charts.push((break_even_chart(&b), volume_tick, dollars_tick));
            }
            for (c, x_label, y_label) in charts {
                for t in c.x_ticks(x_label).into_iter().chain(c.y_ticks(y_label)) {
                    let text = t.text.trim_start_matches('$');
                    proptest::prop_assert!(unreadable_figure(text).is_none(), "{:?}", unreadable_figure(text));
                    proptest::prop_assert!(t.at.is_finite());
                }
                if let Ok(svg) = c.svg() {
                    proptest::prop_assert!(!svg.contains("NaN") && !svg.contains("inf"), "{}", svg);
                }
            }
        }
    }
}
