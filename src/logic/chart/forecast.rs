//! The recall page's forecast: how many cards fall due on each of the next 30 days, as bars.

use super::plot::Plot;
use super::{ACCENT, GRID};
use plotters::prelude::*;

/// The forecast as SVG bars, one per day (today first), over grid lines at whole steps of about
/// a quarter of the busiest day.
pub fn forecast_svg(forecast: &[u32; 30]) -> String {
    let top = forecast.iter().copied().max().unwrap_or(0).max(1) as f64;
    let mut plot = Plot::new((600, 160), 6, (-0.5, 29.5), (0.0, top * 1.05));
    let step = (top / 4.0).ceil().max(1.0);
    let steps = (top / step).floor() as usize;
    plot.grid_y((1..=steps).map(|k| step * k as f64));
    plot.rule_y([0.0], GRID.stroke_width(2));
    for (d, n) in forecast.iter().enumerate().filter(|(_, n)| **n > 0) {
        let x = d as f64;
        plot.rect(
            [(x - 0.36, 0.0), (x + 0.36, f64::from(*n))],
            ACCENT.filled(),
        );
    }
    plot.svg().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forecast_is_drawn() {
        let mut f = [0u32; 30];
        f[0] = 3;
        f[4] = 1;
        let svg = forecast_svg(&f);
        assert!(svg.contains("var(--accent)"), "{svg}");
        assert_eq!(svg.matches("<rect").count(), 2, "{svg}");
        // Grid lines at 1, 2 and 3 cards, and the baseline.
        assert_eq!(svg.matches("<polyline").count(), 4, "{svg}");
        assert!(!forecast_svg(&[0; 30]).is_empty());
    }
}
