//! The distillation playground's charts, as [`Plot`]s in theme colours: the teacher
//! at T = 1 and softened, and a training run's loss and probabilities. Pure functions of
//! numbers, tested natively.

use crate::logic::chart::plot::Plot;
use crate::logic::chart::{self, INK, MUTED};
use crate::logic::distill::{Step, MAX_TOKENS};
use plotters::prelude::*;

/// Most points a training chart draws per line (longer runs are sampled evenly).
pub const MAX_CHART_POINTS: usize = 200;

/// Stand-in colour of token `i`'s line (replaced by `var(--distill-c<i>)`).
fn token_colour(i: usize) -> RGBColor {
    RGBColor(0x01, 0x03, (i % MAX_TOKENS) as u8)
}

/// Swaps the token stand-in colours for the widget's CSS variables.
fn themed_tokens(svg: String) -> String {
    let mut out = svg;
    for i in 0..MAX_TOKENS {
        let RGBColor(r, g, b) = token_colour(i);
        out = out
            .replace(
                &format!("#{r:02X}{g:02X}{b:02X}"),
                &format!("var(--distill-c{i})"),
            )
            .replace(
                &format!("#{r:02x}{g:02x}{b:02x}"),
                &format!("var(--distill-c{i})"),
            );
    }
    out
}

/// The y values of grid lines at the quarters of `0..y_max`.
fn quarters(y_max: f64) -> impl Iterator<Item = f64> {
    (1..=4).map(move |q| y_max * q as f64 / 4.0)
}

/// Bars of the teacher at T = 1 (muted) next to the teacher at the chosen T (accent), one pair
/// per token, token `i` in the slot `i..i + 1` so HTML labels in equal columns line up.
pub fn temperature_svg(teacher: &[f64], teacher_t: &[f64]) -> String {
    let n = teacher.len().max(1) as f64;
    let mut plot = Plot::new((640, 200), 0, (0.0, n), (0.0, 1.0));
    plot.margins[0] = 6;
    plot.grid_y(quarters(1.0));
    for (i, &p) in teacher.iter().enumerate() {
        let x = i as f64;
        plot.rect([(x + 0.14, 0.0), (x + 0.48, p)], MUTED.filled());
    }
    for (i, &p) in teacher_t.iter().enumerate() {
        let x = i as f64;
        plot.rect([(x + 0.52, 0.0), (x + 0.86, p)], chart::ACCENT.filled());
    }
    plot.line(vec![(0.0, 0.0), (n, 0.0)], INK.stroke_width(1));
    plot.svg().unwrap_or_default()
}

/// Evenly sampled points of a run, at most `MAX_CHART_POINTS` (always keeping the last).
fn sampled(history: &[Step]) -> Vec<&Step> {
    let every = history.len().div_ceil(MAX_CHART_POINTS).max(1);
    let mut out: Vec<&Step> = history.iter().step_by(every).collect();
    if let Some(last) = history.last() {
        if out.last().map(|s| s.step) != Some(last.step) {
            out.push(last);
        }
    }
    out
}

/// The loss of a run step by step, on an x axis fixed at the run's full length so it grows, with
/// the floor it cannot go below as a faint line.
pub fn loss_svg(history: &[Step], total: usize, y_max: f64, floor: f64) -> String {
    let x_max = total.max(1) as f64;
    let y_max = if y_max.is_finite() && y_max > 0.0 {
        y_max
    } else {
        1.0
    };
    let mut plot = Plot::new((640, 150), 6, (0.0, x_max), (0.0, y_max));
    plot.grid_y(quarters(y_max));
    if floor > 0.0 && floor < y_max {
        plot.line(
            vec![(0.0, floor), (x_max, floor)],
            chart::ACCENT.stroke_width(2),
        );
    }
    let points = sampled(history)
        .iter()
        .filter(|s| s.loss.is_finite())
        .map(|s| (s.step as f64, s.loss.min(y_max)))
        .collect();
    plot.line(points, INK.stroke_width(2));
    plot.svg().unwrap_or_default()
}

/// The student's probability of each token step by step (one coloured line per token), with
/// the teacher's probabilities as faint lines of the same colours to compare the end against.
pub fn probs_svg(history: &[Step], total: usize, teacher: &[f64]) -> String {
    let x_max = total.max(1) as f64;
    let points = sampled(history);
    let mut plot = Plot::new((640, 220), 6, (0.0, x_max), (0.0, 1.0));
    plot.grid_y(quarters(1.0));
    for (i, &p) in teacher.iter().enumerate() {
        plot.line(
            vec![(0.0, p), (x_max, p)],
            token_colour(i).mix(0.45).stroke_width(1),
        );
    }
    for i in 0..teacher.len() {
        let line = points
            .iter()
            .map(|s| (s.step as f64, s.probs.get(i).copied().unwrap_or(0.0)))
            .collect();
        plot.line(line, token_colour(i).stroke_width(2));
    }
    themed_tokens(plot.svg().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::distill::{self, LossKind, StudentInit, TrainConfig, SEED_PRESET};

    #[test]
    fn charts_draw_in_theme_colours_and_grow() {
        let svg = temperature_svg(&[0.7, 0.3], &[0.6, 0.4]);
        assert!(svg.contains("var(--accent)") && svg.contains("var(--muted)"));
        let config = TrainConfig {
            loss: LossKind::Soft,
            learning_rate: 1.0,
            temperature: 2.0,
        };
        let teacher = SEED_PRESET.teacher;
        let run = distill::train(&teacher, 0, StudentInit::Uniform, config, 600).unwrap();
        let early = probs_svg(&run[..10], 600, &teacher);
        let late = probs_svg(&run, 600, &teacher);
        assert!(late.len() > early.len());
        assert!(late.contains("var(--distill-c3)") && !late.contains("#010303"));
        assert!(sampled(&run).len() <= MAX_CHART_POINTS + 1);
        assert_eq!(sampled(&run).last().unwrap().step, 600);
        let loss = loss_svg(&run, 600, run[0].loss, 1.0);
        assert!(loss.contains("var(--text)") && loss.contains("var(--accent)"));
    }
}
