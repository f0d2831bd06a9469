//! The distillation experiment's loss curves: validation loss (bits per character) against
//! training step, both on log scales, for the teacher and the two students trained on one amount
//! of text. The y axis is labelled at whole bits, not at decades: every curve lies between 2
//! and 7.

use super::loglog::{LegendEntry, Line, LogLogChart, Stroke, Tick};
use crate::logic::format::fixed;
use crate::logic::kd_run::{fraction_text, KdRun, Student};

/// Steps: the students train for 300, the teacher for 800. The axis starts half a step before
/// the first evaluation, so that the curves' first points stand clear of the y axis's labels.
const X: (f64, f64) = (0.5, 1000.0);
/// Bits per character: every curve lies between 2 and 7.
const Y: (f64, f64) = (1.8, 9.0);
/// Where the y axis is labelled.
const Y_LABELS: [f64; 5] = [2.0, 3.0, 4.0, 6.0, 8.0];

/// The chart's legend.
pub const LEGEND: [LegendEntry; 3] = [
    (Stroke::Limit, "teacher, on all the text"),
    (Stroke::Second, "hard-label student"),
    (Stroke::Main, "distilled student"),
];

/// Each model's stroke.
fn stroke(s: Student) -> Stroke {
    match s {
        Student::Teacher => Stroke::Limit,
        Student::Hard => Stroke::Second,
        Student::Soft => Stroke::Main,
    }
}

/// The curves of the teacher and of the students trained on `fraction` of the text, once the
/// manifest's curves have come.
pub fn loss_curves(run: &KdRun, fraction: f64) -> Option<LogLogChart> {
    let lines: Vec<Line> = [Student::Teacher, Student::Hard, Student::Soft]
        .into_iter()
        .filter_map(|s| {
            let c = run.curve(s, fraction)?;
            let points: Vec<(f64, f64)> = c
                .points
                .iter()
                .copied()
                .filter(|(x, y)| x.is_finite() && y.is_finite() && *x > 0.0 && *y > 0.0)
                .collect();
            (!points.is_empty()).then_some(Line {
                points,
                stroke: stroke(s),
            })
        })
        .collect();
    (!lines.is_empty()).then(|| LogLogChart {
        x: X,
        y: Y,
        lines,
        marks: Vec::new(),
        guide_x: None,
        bands: Vec::new(),
    })
}

/// The y axis's labels, at whole bits.
pub fn y_ticks(chart: &LogLogChart) -> Vec<Tick> {
    chart.y_ticks_at(&Y_LABELS, |v| fixed(v, 0))
}

/// The chart in words: each curve's first and last validation loss.
pub fn loss_curves_description(run: &KdRun, fraction: f64) -> String {
    let mut out = format!(
        "Validation loss while training, in bits per character against the training step, both on log scales: the teacher, and the two students trained on {} of the text.",
        fraction_text(fraction)
    );
    for s in [Student::Teacher, Student::Hard, Student::Soft] {
        let Some(c) = run.curve(s, fraction) else {
            continue;
        };
        if let (Some(first), Some(last)) = (c.points.first(), c.points.last()) {
            out += &format!(
                " {}: {} bits at step {}, {} at step {}.",
                s.name(),
                fixed(first.1, 2),
                fixed(first.0, 0),
                fixed(last.1, 2),
                fixed(last.0, 0)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::kd_run::KdMessage;

    fn run() -> KdRun {
        let mut r = KdRun::default();
        r.start();
        r.apply(KdMessage::parse(
            r#"{"type":"kd-curves","curves":[
                {"student":"teacher","fraction":1,"points":[[1,6.34],[800,2.27]]},
                {"student":"hard","fraction":0.01,"points":[[1,6.35],[300,3.3]]},
                {"student":"soft","fraction":0.01,"points":[[1,6.35],[300,3.04]]},
                {"student":"hard","fraction":1,"points":[[1,6.35],[300,2.9]]}]}"#,
        ));
        r
    }

    #[test]
    fn each_amount_of_text_shows_its_two_students_beside_the_teacher() {
        let r = run();
        let c = loss_curves(&r, 0.01).unwrap_or_else(|| panic!("a chart"));
        let strokes: Vec<Stroke> = c.lines.iter().map(|l| l.stroke).collect();
        assert_eq!(strokes, [Stroke::Limit, Stroke::Second, Stroke::Main]);
        assert_eq!(c.lines[2].points, [(1.0, 6.35), (300.0, 3.04)]);
        // Only the curves there are: the 100 % soft student's is missing.
        assert_eq!(loss_curves(&r, 1.0).map(|c| c.lines.len()), Some(2));
        assert!(c.svg().is_ok_and(|s| s.contains("var(--accent)")));
        let words = loss_curves_description(&r, 0.01);
        assert!(words.contains("trained on 1\u{a0}% of the text"), "{words}");
        assert!(
            words.contains("Distilled student: 6.35 bits at step 1, 3.04 at step 300."),
            "{words}"
        );
    }

    #[test]
    fn no_chart_before_the_curves_and_labels_at_whole_bits() {
        assert_eq!(loss_curves(&KdRun::default(), 0.1), None);
        let c = loss_curves(&run(), 0.01).unwrap_or_else(|| panic!("a chart"));
        let ticks = y_ticks(&c);
        assert_eq!(
            ticks.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
            ["2", "3", "4", "6", "8"]
        );
        // Higher losses sit higher on the chart (nearer the top, a smaller percentage).
        assert!(ticks.windows(2).all(|w| w[1].at < w[0].at));
        // Step 1, where every curve starts, stands right of the y labels at the left edge.
        let x = c.x_ticks(crate::logic::chart::compact);
        assert_eq!(x.first().map(|t| t.text.as_str()), Some("1"));
        assert!(x.first().is_some_and(|t| t.at > 5.0), "{x:?}");
    }
}
