//! The measuring lab's roofline: MB read per token against tokens per second, both on log scales.
//! Each roof is a bandwidth's ceiling, tok/s = bandwidth ÷ bytes per token, a straight line of
//! slope −1 in these axes: the memory roof from the measured main-memory bandwidth, the cache roof
//! from the cache's. Each run is a point; a point on a roof is bound by it, a point under both is
//! bound by the arithmetic.

use super::loglog::{decades, LegendEntry, Line, LogLogChart, Stroke};
use crate::logic::decode::{decode_ceiling_tps, three_figures};
use crate::logic::lab_run::LabResult;

/// The x range when there is no run yet, MB per token.
const EMPTY_X: (f64, f64) = (0.1, 1000.0);

/// The chart's legend.
pub const LEGEND: [LegendEntry; 3] = [
    (Stroke::Limit, "memory roof: its bandwidth ÷ MB per token"),
    (Stroke::Second, "cache roof"),
    (Stroke::Main, "a run of this lab"),
];

/// A roof: tokens/s at bandwidth `gb_per_s` across `x` (MB per token), by the decode maths.
fn roof(gb_per_s: f64, x: (f64, f64), stroke: Stroke) -> Line {
    let at = |mb: f64| (mb, decode_ceiling_tps(gb_per_s, mb / 1e3));
    Line {
        points: vec![at(x.0), at(x.1)],
        stroke,
    }
}

/// The roofline of `r`, once its memory bandwidth is measured.
pub fn roofline(r: &LabResult) -> Option<LogLogChart> {
    let memory = r.memory.as_ref()?.gb_per_s;
    let cache = r.cache.as_ref().map(|c| c.gb_per_s);
    let points: Vec<(f64, f64)> = r
        .runs
        .iter()
        .map(|run| (run.mb_per_token(), run.tokens_per_second))
        .filter(|(x, y)| x.is_finite() && y.is_finite() && *x > 0.0 && *y > 0.0)
        .collect();
    let x = if points.is_empty() {
        EMPTY_X
    } else {
        let lo = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let hi = points.iter().map(|p| p.0).fold(0.0, f64::max);
        decades(lo / 2.0, hi * 2.0)
    };
    let top_roof = decode_ceiling_tps(cache.unwrap_or(memory).max(memory), x.0 / 1e3);
    let low_roof = decode_ceiling_tps(memory, x.1 / 1e3);
    let lo = points.iter().map(|p| p.1).fold(low_roof, f64::min);
    let hi = points.iter().map(|p| p.1).fold(top_roof, f64::max);
    let mut lines = vec![roof(memory, x, Stroke::Limit)];
    if let Some(c) = cache {
        lines.push(roof(c, x, Stroke::Second));
    }
    Some(LogLogChart {
        x,
        y: decades(lo, hi),
        lines,
        marks: points.into_iter().map(|p| (p, Stroke::Main)).collect(),
        guide_x: None,
        bands: Vec::new(),
    })
}

/// The chart in words: the roofs, then each run's point.
pub fn roofline_description(r: &LabResult) -> String {
    let Some(memory) = &r.memory else {
        return String::new();
    };
    let mut out = format!(
        "Roofline of this browser, one core: the memory roof at {} GB/s",
        three_figures(memory.gb_per_s)
    );
    if let Some(c) = &r.cache {
        out += &format!(" and the cache roof at {} GB/s", three_figures(c.gb_per_s));
    }
    out += ", tokens per second against MB read per token, both on log scales.";
    for run in &r.runs {
        out += &format!(
            " {}: {} MB per token, {} tok/s.",
            run.label(),
            three_figures(run.mb_per_token()),
            three_figures(run.tokens_per_second)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::lab_run::{Bandwidth, LabModel, Precision, Run};

    fn result(runs: &[(f64, f64)]) -> LabResult {
        LabResult {
            memory: Some(Bandwidth {
                gb_per_s: 13.0,
                bytes: 268_435_456.0,
                note: None,
            }),
            cache: Some(Bandwidth {
                gb_per_s: 45.0,
                bytes: 1_048_576.0,
                note: None,
            }),
            runs: runs
                .iter()
                .map(|&(mb, tps)| Run {
                    model: LabModel::M,
                    precision: Precision::F32,
                    layers: 8,
                    reduced: false,
                    parameters: 1.0,
                    model_bytes: mb * 1e6,
                    bytes_per_token: mb * 1e6,
                    tokens_per_second: tps,
                    kernels: "simd128".into(),
                    simd128_tokens_per_second: None,
                })
                .collect(),
            ..LabResult::default()
        }
    }

    #[test]
    fn roofs_are_the_decode_ceiling_across_the_runs() {
        let r = result(&[(104.0, 110.0), (3.6, 4000.0)]);
        let c = roofline(&r).unwrap_or_else(|| panic!("a chart"));
        assert_eq!(c.x, (1.0, 1000.0));
        // The memory roof: 13 GB/s ÷ 1 MB = 13,000 tok/s at the left, 13 at the right.
        assert_eq!(c.lines[0].points, [(1.0, 13_000.0), (1000.0, 13.0)]);
        assert_eq!(c.lines[0].stroke, Stroke::Limit);
        assert_eq!(c.lines[1].points[0], (1.0, 45_000.0));
        // Every point and both roofs' ends are in view.
        assert_eq!(c.y, (10.0, 100_000.0));
        assert_eq!(
            c.marks,
            [
                ((104.0, 110.0), Stroke::Main),
                ((3.6, 4000.0), Stroke::Main)
            ]
        );
        assert!(c.svg().is_ok_and(|s| s.matches("<circle").count() == 4));
        let words = roofline_description(&r);
        assert!(words.starts_with("Roofline of this browser, one core: the memory roof at 13 GB/s and the cache roof at 45 GB/s"), "{words}");
        assert!(words.contains("M (random) at f32: 104 MB per token, 110 tok/s."));
    }

    #[test]
    fn no_chart_before_the_bandwidth_and_roofs_alone_before_the_first_run() {
        assert_eq!(roofline(&LabResult::default()), None);
        assert_eq!(roofline_description(&LabResult::default()), "");
        let c = roofline(&result(&[])).unwrap_or_else(|| panic!("a chart"));
        assert_eq!(c.x, EMPTY_X);
        assert!(c.marks.is_empty());
        assert_eq!(c.lines.len(), 2);
    }
}
