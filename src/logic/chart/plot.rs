//! The one drawing path of the course's charts: a [`Plot`] is a list of marks (lines, filled
//! rectangles, dots) in the chart's own coordinates, and [`Plot::svg`] has plotters draw them,
//! themed by [`super::svg`]. Each chart type (the log-log charts, the distillation playground's
//! bars and training curves) says *what* to draw as a `Plot`; none sets up plotters itself.
//!
//! Coordinates are those of the axes as drawn: a logarithmic axis is given as log10 values
//! (see [`super::loglog`]), so one linear coordinate system serves every chart.

use plotters::prelude::*;

/// One thing a chart draws, in data coordinates.
#[derive(Debug, Clone)]
pub enum Mark {
    /// A polyline through the points, in order.
    Line(Vec<(f64, f64)>, ShapeStyle),
    /// A rectangle between two opposite corners (filled when its style is).
    Rect([(f64, f64); 2], ShapeStyle),
    /// A circle of radius [`DOT_RADIUS`] pixels around a point.
    Dot((f64, f64), ShapeStyle),
}

/// A dot's radius, in pixels.
pub const DOT_RADIUS: i32 = 6;

/// A chart: its size in SVG units, its margins, its axes' ranges and its marks, drawn in order
/// (later marks on top).
#[derive(Debug, Clone)]
pub struct Plot {
    /// Width and height in SVG units (the SVG scales to its container).
    pub size: (u32, u32),
    /// Margins in SVG units: top, right, bottom, left.
    pub margins: [u32; 4],
    /// x range (left to right).
    pub x: (f64, f64),
    /// y range (bottom to top).
    pub y: (f64, f64),
    /// A colour filling the whole chart first, if any.
    pub background: Option<RGBColor>,
    /// What is drawn.
    pub marks: Vec<Mark>,
}

impl Plot {
    /// An empty plot of `size` with the same margin on every side.
    pub fn new(size: (u32, u32), margin: u32, x: (f64, f64), y: (f64, f64)) -> Plot {
        Plot {
            size,
            margins: [margin; 4],
            x,
            y,
            background: None,
            marks: Vec::new(),
        }
    }

    /// Adds a line.
    pub fn line(&mut self, points: Vec<(f64, f64)>, style: ShapeStyle) {
        self.marks.push(Mark::Line(points, style));
    }

    /// Adds a rectangle between two opposite corners (filled when `style` is).
    pub fn rect(&mut self, corners: [(f64, f64); 2], style: ShapeStyle) {
        self.marks.push(Mark::Rect(corners, style));
    }

    /// Light horizontal grid lines across the chart at each of `ys`.
    pub fn grid_y(&mut self, ys: impl IntoIterator<Item = f64>) {
        self.rule_y(ys, super::GRID.stroke_width(1));
    }

    /// Horizontal lines across the chart at each of `ys`, drawn in `style`.
    pub fn rule_y(&mut self, ys: impl IntoIterator<Item = f64>, style: ShapeStyle) {
        for y in ys {
            self.line(vec![(self.x.0, y), (self.x.1, y)], style);
        }
    }

    /// The themed SVG (see [`super::svg`]); plotters' errors come back as text.
    pub fn svg(&self) -> Result<String, String> {
        let (width, height) = self.size;
        let [top, right, bottom, left] = self.margins;
        super::svg(width, height, |area| {
            if let Some(colour) = self.background {
                area.fill(&colour)?;
            }
            let mut c = ChartBuilder::on(area)
                .margin_top(top)
                .margin_right(right)
                .margin_bottom(bottom)
                .margin_left(left)
                .build_cartesian_2d(self.x.0..self.x.1, self.y.0..self.y.1)?;
            for mark in &self.marks {
                match mark {
                    Mark::Line(points, style) => {
                        c.draw_series(std::iter::once(PathElement::new(points.clone(), *style)))?;
                    }
                    Mark::Rect(corners, style) => {
                        c.draw_series(std::iter::once(Rectangle::new(*corners, *style)))?;
                    }
                    Mark::Dot(at, style) => {
                        c.draw_series(std::iter::once(Circle::new(*at, DOT_RADIUS, *style)))?;
                    }
                }
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ACCENT, INK, MUTED};
    use super::*;

    #[test]
    fn draws_every_mark_in_order_in_theme_colours() {
        let mut p = Plot::new((300, 100), 5, (0.0, 10.0), (0.0, 1.0));
        p.grid_y([0.5, 1.0]);
        p.marks
            .push(Mark::Rect([(1.0, 0.0), (2.0, 0.5)], MUTED.filled()));
        p.line(vec![(0.0, 0.0), (10.0, 1.0)], ACCENT.stroke_width(2));
        p.marks.push(Mark::Dot((5.0, 0.5), INK.stroke_width(1)));
        let svg = p.svg().unwrap();
        // Two grid lines and the line.
        assert_eq!(svg.matches("<polyline").count(), 3, "{svg}");
        assert_eq!(svg.matches("<rect").count(), 1, "{svg}");
        assert_eq!(svg.matches("<circle").count(), 1, "{svg}");
        assert!(svg.contains("var(--border)") && svg.contains("var(--muted)"));
        assert!(svg.find("<rect").unwrap() < svg.find("<circle").unwrap());
        assert!(svg.contains("viewBox=\"0 0 300 100\""), "{svg}");
    }

    #[test]
    fn a_background_fills_the_chart_first() {
        let mut p = Plot::new((100, 50), 0, (0.0, 1.0), (0.0, 1.0));
        assert!(!p.svg().unwrap().contains("<rect"));
        p.background = Some(super::super::FILL);
        p.line(vec![(0.0, 0.5), (1.0, 0.5)], INK.stroke_width(1));
        let svg = p.svg().unwrap();
        assert!(
            svg.find("var(--surface-2)").unwrap() < svg.find("<polyline").unwrap(),
            "{svg}"
        );
    }

    #[test]
    fn a_margin_moves_the_drawing_in() {
        let draw = |margins: [u32; 4]| {
            let mut p = Plot::new((200, 100), 0, (0.0, 1.0), (0.0, 1.0));
            p.margins = margins;
            p.marks
                .push(Mark::Rect([(0.0, 0.0), (1.0, 1.0)], INK.filled()));
            p.svg().unwrap()
        };
        let flush = draw([0; 4]);
        assert!(flush.contains("x=\"0\" y=\"0\""), "{flush}");
        let inset = draw([10, 0, 0, 20]);
        assert!(inset.contains("x=\"20\" y=\"10\""), "{inset}");
    }
}
