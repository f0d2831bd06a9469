//! Line charts with logarithmic axes (the sizing calculators' charts): lines, shaded bands and
//! marked points drawn by plotters, and tick labels placed as HTML over the SVG (charts carry
//! no fonts; see the parent module).

use super::plot::{Mark, Plot};
use super::{ACCENT, DANGER, GRID, INK, MUTED, SECOND};
use crate::logic::format::plain;
use plotters::prelude::*;

/// How a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stroke {
    /// The main series.
    Main,
    /// A second series.
    Second,
    /// A limit (GPU memory).
    Limit,
    /// A shaded stretch of the x axis ([`Band`]), faint in the second series' colour.
    Shade,
}

/// One line of a chart, in data units.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Points, x rising.
    pub points: Vec<(f64, f64)>,
    /// How it is drawn.
    pub stroke: Stroke,
}

/// A tick: where it sits, in percent of the chart's width (x) or height from the top (y), and
/// its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// Position in percent.
    pub at: f64,
    /// Label.
    pub text: String,
}

/// A shaded stretch of the x axis, full height, behind the lines (e.g. volumes where one
/// option is cheaper). Its SVG `<rect>` carries `data-testid` = `testid`.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// Where it starts and ends, in x units (clipped to the chart).
    pub x: (f64, f64),
    /// `data-testid` of its `<rect>`.
    pub testid: &'static str,
}

/// A chart with logarithmic axes: shaded bands, lines, marked points and an optional
/// vertical marker.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLogChart {
    /// x range (both > 0).
    pub x: (f64, f64),
    /// y range (both > 0).
    pub y: (f64, f64),
    /// The lines.
    pub lines: Vec<Line>,
    /// Marked points (the reader's current inputs), with the stroke that colours them.
    pub marks: Vec<((f64, f64), Stroke)>,
    /// An x where a vertical guide is drawn (e.g. break-even), if any.
    pub guide_x: Option<f64>,
    /// Shaded stretches of the x axis, left to right.
    pub bands: Vec<Band>,
}

/// Chart size in SVG units; it scales to the card's width.
pub const WIDTH: u32 = 640;
/// Chart height in SVG units.
pub const HEIGHT: u32 = 260;
const MARGIN: u32 = 14;

/// The power of ten at or below `v` (`v` > 0).
pub fn decade_floor(v: f64) -> f64 {
    10f64.powf(v.log10().floor())
}

/// The power of ten at or above `v` (`v` > 0).
pub fn decade_ceil(v: f64) -> f64 {
    10f64.powf(v.log10().ceil())
}

/// A range of whole decades around `lo..hi`, at least one decade wide, within 1e-6..1e18.
pub fn decades(lo: f64, hi: f64) -> (f64, f64) {
    let ok = |v: f64| if v.is_finite() && v > 0.0 { v } else { 1.0 };
    let (lo, hi) = (ok(lo).clamp(1e-6, 1e18), ok(hi).clamp(1e-6, 1e18));
    let (lo, hi) = (decade_floor(lo.min(hi)), decade_ceil(hi.max(lo)));
    if hi / lo < 9.99 {
        (lo, hi * 10.0)
    } else {
        (lo, hi)
    }
}

fn frac(v: f64, (lo, hi): (f64, f64)) -> f64 {
    ((v.ln() - lo.ln()) / (hi.ln() - lo.ln())).clamp(0.0, 1.0)
}

fn stroke_style(stroke: Stroke) -> ShapeStyle {
    match stroke {
        Stroke::Main => ACCENT.stroke_width(3),
        Stroke::Second => SECOND.stroke_width(3),
        Stroke::Limit => DANGER.stroke_width(2),
        Stroke::Shade => SECOND.mix(SHADE_OPACITY).filled(),
    }
}

/// Opacity of a [`Band`]'s fill (and of the legend's [`Stroke::Shade`] swatch in CSS).
const SHADE_OPACITY: f64 = 0.16;

/// Puts `data-testid="…"` on each `<rect>` of `svg`, in order, one id per rect. Plotters
/// writes a rect only for a filled rectangle, and [`LogLogChart`] draws none but its bands.
fn tag_rects<'a>(svg: &str, testids: impl IntoIterator<Item = &'a str>) -> String {
    let mut ids = testids.into_iter();
    let mut parts = svg.split("<rect ");
    let mut out = parts.next().unwrap_or_default().to_string();
    for part in parts {
        out.push_str("<rect ");
        if let Some(id) = ids.next() {
            out.push_str(&format!("data-testid=\"{id}\" "));
        }
        out.push_str(part);
    }
    out
}

impl LogLogChart {
    /// Decade ticks along a range, at most about six, labelled by `label`.
    fn ticks(range: (f64, f64), label: fn(f64) -> String, vertical: bool) -> Vec<Tick> {
        Self::ticks_at(range, &decade_values(range), label, vertical)
    }

    /// Ticks at `values` along a range, labelled by `label`.
    fn ticks_at(
        range: (f64, f64),
        values: &[f64],
        label: fn(f64) -> String,
        vertical: bool,
    ) -> Vec<Tick> {
        values
            .iter()
            .map(|&v| {
                let f = frac(v, range);
                let at = if vertical {
                    (MARGIN as f64 + (1.0 - f) * (HEIGHT - 2 * MARGIN) as f64) / HEIGHT as f64
                } else {
                    (MARGIN as f64 + f * (WIDTH - 2 * MARGIN) as f64) / WIDTH as f64
                };
                Tick {
                    at: at * 100.0,
                    text: label(v),
                }
            })
            .collect()
    }

    /// Ticks of the x axis.
    pub fn x_ticks(&self, label: fn(f64) -> String) -> Vec<Tick> {
        Self::ticks(self.x, label, false)
    }

    /// Ticks of the y axis.
    pub fn y_ticks(&self, label: fn(f64) -> String) -> Vec<Tick> {
        Self::ticks(self.y, label, true)
    }

    /// Ticks of the y axis at `values` (for a range narrower than a few decades).
    pub fn y_ticks_at(&self, values: &[f64], label: fn(f64) -> String) -> Vec<Tick> {
        Self::ticks_at(self.y, values, label, true)
    }

    /// The bands that show on the chart, clipped to its x range.
    fn visible_bands(&self) -> Vec<Band> {
        self.bands
            .iter()
            .map(|b| Band {
                x: (b.x.0.max(self.x.0), b.x.1.min(self.x.1)),
                testid: b.testid,
            })
            .filter(|b| b.x.0 < b.x.1)
            .collect()
    }

    /// The themed SVG. Plotters draws on linear axes of log10 of each value: the same picture as
    /// its log-scaled axes, with the coordinate code every other chart of a module already has.
    pub fn svg(&self) -> Result<String, String> {
        let (x, y) = (log_range(self.x), log_range(self.y));
        let at = |(px, py): (f64, f64)| (log_at(px, x), log_at(py, y));
        let bands = self.visible_bands();
        let mut plot = Plot::new((WIDTH, HEIGHT), MARGIN, x, y);
        for band in &bands {
            let corners = [at((band.x.0, self.y.0)), at((band.x.1, self.y.1))];
            plot.rect(corners, stroke_style(Stroke::Shade));
        }
        let mut line = |points: &[(f64, f64)], style: ShapeStyle| {
            plot.marks
                .push(Mark::Line(points.iter().map(|&p| at(p)).collect(), style));
        };
        // Decade grid lines, drawn by hand: the mesh would want a font for its labels.
        let inside = |v: &f64, (lo, hi): (f64, f64)| *v >= lo && *v <= hi;
        for gx in decade_values(self.x)
            .into_iter()
            .filter(|v| inside(v, self.x))
        {
            line(&[(gx, self.y.0), (gx, self.y.1)], GRID.into());
        }
        for gy in decade_values(self.y)
            .into_iter()
            .filter(|v| inside(v, self.y))
        {
            line(&[(self.x.0, gy), (self.x.1, gy)], GRID.into());
        }
        line(
            &[(self.x.0, self.y.0), (self.x.1, self.y.0)],
            MUTED.stroke_width(1),
        );
        if let Some(g) = self.guide_x.filter(|g| *g >= self.x.0 && *g <= self.x.1) {
            line(&[(g, self.y.0), (g, self.y.1)], INK.stroke_width(1));
        }
        for l in &self.lines {
            line(&l.points, stroke_style(l.stroke));
        }
        for &(point, stroke) in &self.marks {
            let colour = match stroke {
                Stroke::Main => ACCENT,
                Stroke::Second | Stroke::Shade => SECOND,
                Stroke::Limit => DANGER,
            };
            for style in [colour.filled(), INK.stroke_width(1)] {
                plot.marks.push(Mark::Dot(at(point), style));
            }
        }
        let svg = plot.svg()?;
        Ok(tag_rects(&svg, bands.iter().map(|b| b.testid)))
    }
}

/// A range's ends as log10.
fn log_range((lo, hi): (f64, f64)) -> (f64, f64) {
    (lo.log10(), hi.log10())
}

/// log10 of `v`, clamped to a log10 range (`v` ≤ 0 sits at the range's start).
fn log_at(v: f64, (lo, hi): (f64, f64)) -> f64 {
    let l = v.log10();
    if l.is_nan() {
        lo
    } else {
        l.clamp(lo, hi)
    }
}

/// Powers of ten inside `range`, at most about six of them.
fn decade_values(range: (f64, f64)) -> Vec<f64> {
    let (lo, hi) = (
        range.0.log10().round() as i32,
        range.1.log10().round() as i32,
    );
    let step = ((hi - lo) as f64 / 6.0).ceil().max(1.0) as i32;
    (lo..=hi)
        .filter(|k| (k - lo) % step == 0)
        .map(|k| 10f64.powi(k))
        .collect()
}

/// One entry of a chart's legend: a swatch in a series' colour and its meaning.
pub type LegendEntry = (Stroke, &'static str);

/// Compact tick text: `1`, `10`, `100`, `1k`, `10k`, `1M`, `1B`, `1T`, or `0.1`.
pub fn compact(v: f64) -> String {
    const UNITS: [(f64, &str); 5] = [(1e15, "P"), (1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")];
    for (size, unit) in UNITS {
        if v >= size {
            return format!("{}{unit}", plain(v / size));
        }
    }
    plain(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decade_ranges_cover_their_inputs() {
        assert_eq!(decades(3.0, 671.0), (1.0, 1000.0));
        assert_eq!(decades(10.0, 10.0), (10.0, 100.0));
        assert_eq!(decades(f64::NAN, 50.0), (1.0, 100.0));
        assert_eq!(compact(1e9), "1B");
        assert_eq!(compact(1e4), "10k");
        assert_eq!(compact(0.1), "0.1");
    }

    #[test]
    fn draws_lines_marks_and_ticks() {
        let c = LogLogChart {
            x: (1.0, 1000.0),
            y: (1.0, 10_000.0),
            lines: vec![Line {
                points: vec![(1.0, 2.0), (1000.0, 2000.0)],
                stroke: Stroke::Main,
            }],
            marks: vec![((70.0, 140.0), Stroke::Main)],
            guide_x: Some(10.0),
            bands: vec![
                Band {
                    x: (0.5, 2.0),
                    testid: "band-a",
                },
                Band {
                    x: (2000.0, 3000.0),
                    testid: "band-out-of-view",
                },
                Band {
                    x: (100.0, 1e9),
                    testid: "band-b",
                },
            ],
        };
        let svg = c.svg().unwrap();
        assert!(svg.contains("<circle"), "{svg}");
        // Bands in view become tagged rects, in the second series' colour.
        assert_eq!(svg.matches("<rect ").count(), 2, "{svg}");
        assert_eq!(svg.matches("data-testid=\"band-a\"").count(), 1);
        assert_eq!(svg.matches("data-testid=\"band-b\"").count(), 1);
        assert!(!svg.contains("band-out-of-view"));
        assert!(svg.contains("var(--chart-2)"));
        assert!(svg.contains("var(--accent)"));
        assert!(svg.contains("<polyline"));
        let x = c.x_ticks(compact);
        assert_eq!(x.len(), 4);
        assert_eq!(x[0].text, "1");
        assert!((x[0].at - MARGIN as f64 / WIDTH as f64 * 100.0).abs() < 1e-9);
        assert!((x[3].at - (WIDTH - MARGIN) as f64 / WIDTH as f64 * 100.0).abs() < 1e-9);
        let y = c.y_ticks(compact);
        assert_eq!(y.first().map(|t| t.text.as_str()), Some("1"));
        assert!(y[0].at > y[1].at, "y ticks go up the page");
    }
}
