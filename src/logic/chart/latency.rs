//! The latency explorer's two charts: the sample's histogram with its markers, and the bar of
//! end-to-end time split into its parts.

use super::plot::Plot;
use super::{ACCENT, DANGER, FILL, INK, MUTED, SECOND};
use crate::logic::latency::{EndToEnd, Explored, Marker, Part};
use plotters::prelude::*;

/// The colour of a marker's line (the legend's swatches match it in CSS).
fn marker_colour(m: Marker) -> RGBColor {
    match m {
        Marker::Mean => SECOND,
        Marker::P50 => INK,
        Marker::P90 => MUTED,
        Marker::P99 => DANGER,
    }
}

/// The colour of a part of the split bar.
fn part_colour(p: Part) -> RGBColor {
    match p {
        Part::Network => MUTED,
        Part::Queue => SECOND,
        Part::Inference => ACCENT,
    }
}

/// The histogram of the explorer's sample, its markers drawn as vertical lines; empty if
/// plotters fails.
pub fn histogram_svg(e: &Explored) -> String {
    let top = e.hist.counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.08;
    let upper = e.upper;
    let bars: Vec<(f64, f64, f64)> = e
        .hist
        .edges
        .windows(2)
        .zip(&e.hist.counts)
        .filter_map(|(edge, &n)| match edge {
            [a, b] => Some((*a, *b, n as f64)),
            _ => None,
        })
        .collect();
    let mut plot = Plot::new((640, 240), 10, (0.0, upper), (0.0, top));
    plot.background = Some(FILL);
    plot.grid_y((1..4).map(|q| top * q as f64 / 4.0));
    for (a, b, n) in bars {
        plot.rect(
            [(a + (b - a) * 0.06, 0.0), (b - (b - a) * 0.06, n)],
            ACCENT.mix(0.45).filled(),
        );
    }
    plot.rule_y([0.0], INK.stroke_width(1));
    for m in Marker::ALL {
        let x = m.of(&e.story.now);
        plot.line(vec![(x, 0.0), (x, top)], marker_colour(m).stroke_width(3));
    }
    plot.svg().unwrap_or_default()
}

/// One bar of the end-to-end time, its parts left to right in the order a request meets
/// them; empty if plotters fails.
pub fn split_svg(e: &EndToEnd) -> String {
    let total = e.total_ms().max(f64::MIN_POSITIVE);
    let mut plot = Plot::new((640, 70), 10, (0.0, total), (0.0, 1.0));
    plot.background = Some(FILL);
    let mut start = 0.0;
    for p in Part::ALL {
        let end = start + e.part_ms(p);
        if end > start {
            plot.rect([(start, 0.1), (end, 0.9)], part_colour(p).filled());
        }
        start = end;
    }
    plot.svg().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_the_histogram_with_its_markers() {
        let e = Explored::from_text("800", "0.5", "20", "5").unwrap();
        let svg = histogram_svg(&e);
        assert!(svg.contains("var(--danger)"), "P99 marker");
        assert!(svg.contains("var(--chart-2)"), "mean marker");
        // One rect per non-empty bin, plus the background.
        let bins = e.hist.counts.iter().filter(|&&n| n > 0).count();
        assert!(svg.matches("<rect").count() >= bins, "{svg}");
    }

    #[test]
    fn draws_the_split_bar() {
        let e = EndToEnd::from_text("600", "150", "250").unwrap();
        let svg = split_svg(&e);
        assert!(svg.contains("var(--accent)") && svg.contains("var(--muted)"));
        let zero = EndToEnd::from_text("0", "0", "0").unwrap();
        assert!(split_svg(&zero).contains("<svg"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 32, ..Default::default() })]
        /// The drawings hold no NaN or infinity, whatever the fields accept.
        #[test]
        fn every_drawing_is_finite(
            parts in proptest::collection::vec(crate::logic::fuzz::in_range(0.0, crate::logic::latency::MAX_PART_MS), 3),
            median in crate::logic::fuzz::in_range(0.0, crate::logic::latency::MAX_MEDIAN_MS),
            sigma in crate::logic::fuzz::in_range(0.0, crate::logic::latency::MAX_SIGMA),
        ) {
            if let (Some(a), Some(b), Some(c)) = (parts.first(), parts.get(1), parts.get(2)) {
                if let Ok(e) = EndToEnd::from_text(a, b, c) {
                    let svg = split_svg(&e);
                    proptest::prop_assert!(!svg.contains("NaN") && !svg.contains("inf"), "{}", svg);
                }
            }
            if let Ok(e) = Explored::from_text(&median, &sigma, "20", "5") {
                let svg = histogram_svg(&e);
                proptest::prop_assert!(!svg.contains("NaN") && !svg.contains("inf"), "{}", svg);
            }
        }
    }
}
