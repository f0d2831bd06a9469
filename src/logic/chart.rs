//! Charts drawn with plotters as SVG, in the page's colours.
//!
//! Plotters writes literal colours, so charts draw with the stand-in colours below and
//! [`svg`] swaps each for its CSS variable: the chart follows the theme (light, dark, print)
//! without being redrawn. No fonts are compiled in: put axis labels and legends in HTML next to
//! the chart, and give every chart a text alternative (see `widgets::controls::Chart`).
//!
//! Every chart says what it draws as a [`plot::Plot`] (lines, rectangles, dots in its own
//! coordinates), and `Plot::svg` is the one place that drives plotters.

pub mod distill;
pub mod forecast;
pub mod kd;
pub mod lab;
pub mod latency;
pub mod loglog;
pub mod plot;
pub mod sizing;

pub use loglog::{compact, decades, Band, LegendEntry, Line, LogLogChart, Stroke, Tick};

use plotters::coord::Shift;
use plotters::prelude::*;

/// Text and axes: `var(--text)`.
pub const INK: RGBColor = RGBColor(0x01, 0x02, 0x03);
/// Secondary marks: `var(--muted)`.
pub const MUTED: RGBColor = RGBColor(0x01, 0x02, 0x04);
/// The main series: `var(--accent)`.
pub const ACCENT: RGBColor = RGBColor(0x01, 0x02, 0x05);
/// A second series: `var(--chart-2)`.
pub const SECOND: RGBColor = RGBColor(0x01, 0x02, 0x06);
/// Grid lines: `var(--border)`.
pub const GRID: RGBColor = RGBColor(0x01, 0x02, 0x07);
/// Limits and warnings: `var(--danger)`.
pub const DANGER: RGBColor = RGBColor(0x01, 0x02, 0x08);
/// Filled backgrounds: `var(--surface-2)`.
pub const FILL: RGBColor = RGBColor(0x01, 0x02, 0x09);

const THEME: [(RGBColor, &str); 7] = [
    (INK, "var(--text)"),
    (MUTED, "var(--muted)"),
    (ACCENT, "var(--accent)"),
    (SECOND, "var(--chart-2)"),
    (GRID, "var(--border)"),
    (DANGER, "var(--danger)"),
    (FILL, "var(--surface-2)"),
];

/// Area a chart draws on.
pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Draws a `width` × `height` chart with `draw` and returns its SVG, themed and scalable
/// (it fills its container's width). Errors from plotters come back as text.
pub fn svg(
    width: u32,
    height: u32,
    draw: impl FnOnce(&Area<'_>) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        draw(&root).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(themed(&out, width, height))
}

/// Swaps stand-in colours for CSS variables and makes the SVG scale to its container.
fn themed(svg: &str, width: u32, height: u32) -> String {
    let mut out = svg.replacen(
        &format!("width=\"{width}\" height=\"{height}\""),
        "class=\"chart-svg\" preserveAspectRatio=\"xMidYMid meet\" aria-hidden=\"true\" focusable=\"false\"",
        1,
    );
    for (colour, var) in THEME {
        let RGBColor(r, g, b) = colour;
        out = out
            .replace(&format!("#{r:02X}{g:02X}{b:02X}"), var)
            .replace(&format!("#{r:02x}{g:02x}{b:02x}"), var);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_in_theme_variables_and_scales() {
        let svg = svg(300, 150, |area| {
            area.fill(&FILL)?;
            let mut chart = ChartBuilder::on(area)
                .margin(10)
                .build_cartesian_2d(0.0..10.0, 0.0..100.0)?;
            chart.draw_series(LineSeries::new(
                (0..10).map(|x| (x as f64, x as f64 * 10.0)),
                &ACCENT,
            ))?;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(1.0, 0.0), (2.0, 50.0)],
                GRID.filled(),
            )))?;
            Ok(())
        })
        .unwrap();
        assert!(svg.contains("var(--accent)"), "{svg}");
        assert!(svg.contains("var(--surface-2)"));
        assert!(svg.contains("var(--border)"));
        assert!(svg.contains("viewBox=\"0 0 300 150\""), "{svg}");
        assert!(svg.contains("class=\"chart-svg\""));
        assert!(!svg.contains("#010205"));
    }
}
