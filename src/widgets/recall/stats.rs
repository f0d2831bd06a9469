//! The counters above the review, and the statistics panel with the forecast chart.

use crate::logic::chart::{self, ACCENT, GRID};
use crate::logic::recall::Stats;
use crate::widgets::controls::{Chart, Output};
use leptos::prelude::*;
use plotters::prelude::*;

/// Due now, new, learning and review: the scope's cards by where they are.
#[component]
pub fn Counts(
    /// The scope's statistics now.
    stats: Memo<Stats>,
) -> impl IntoView {
    let count = move |of: fn(&Stats) -> usize| Signal::derive(move || stats.with(of).to_string());
    view! {
        <div class="outputs recall-counts">
            <Output label="Due now" testid="cards-due" value=Signal::derive(move || stats.with(Stats::due_text)) stale=false />
            <Output label="New" testid="cards-new" value=count(|s| s.new) stale=false />
            <Output label="Learning" testid="cards-learning" value=count(|s| s.learning) stale=false />
            <Output label="Review" testid="cards-review" value=count(|s| s.review) stale=false />
        </div>
    }
}

/// Retention, streak and the forecast chart.
#[component]
pub fn Statistics(
    /// The scope's statistics now.
    stats: Memo<Stats>,
) -> impl IntoView {
    let due_today = Signal::derive(move || stats.with(|s| s.due_today.to_string()));
    let retention = Signal::derive(move || stats.with(Stats::retention_text));
    let streak = Signal::derive(move || stats.with(Stats::streak_text));
    let svg = Signal::derive(move || stats.with(|s| forecast_svg(&s.forecast)));
    let description = Signal::derive(move || stats.with(Stats::forecast_text));
    view! {
        <h4 class="recall-subhead">"Statistics"</h4>
        <div class="outputs">
            <Output label="Due today" testid="cards-due-today" value=due_today stale=false />
            <Output label="True retention, last 30 days" testid="cards-retention-30d" value=retention stale=false />
            <Output label="Streak" testid="cards-streak" value=streak stale=false />
        </div>
        <p class="widget-note">{move || stats.with(Stats::retention_note)}</p>
        <p class="recall-chart-title">
            "Reviews due over the next 30 days "
            <span class="recall-chart-scale">
                {move || format!("(tallest bar: {})", stats.with(Stats::forecast_peak))}
            </span>
        </p>
        <Chart svg=svg description=description testid="cards-forecast" />
        <div class="recall-chart-axis" aria-hidden="true">
            <span>"today"</span>
            <span>"in 29 days"</span>
        </div>
        {move || {
            stats.with(Stats::removed_note).map(|note| view! { <p class="widget-note">{note}</p> })
        }}
    }
}

/// The forecast as SVG bars, one per day.
fn forecast_svg(forecast: &[u32; 30]) -> String {
    let top = forecast.iter().copied().max().unwrap_or(0).max(1) as f64;
    chart::svg(600, 160, |area| {
        let mut c = ChartBuilder::on(area)
            .margin(6)
            .build_cartesian_2d(-0.5f64..29.5f64, 0f64..top * 1.05)?;
        let step = (top / 4.0).ceil().max(1.0);
        let mut y = step;
        while y <= top {
            c.draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, y), (29.5, y)],
                GRID.stroke_width(1),
            )))?;
            y += step;
        }
        c.draw_series(std::iter::once(PathElement::new(
            vec![(-0.5, 0.0), (29.5, 0.0)],
            GRID.stroke_width(2),
        )))?;
        c.draw_series(
            forecast
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(d, n)| {
                    let x = d as f64;
                    Rectangle::new(
                        [(x - 0.36, 0.0), (x + 0.36, f64::from(*n))],
                        ACCENT.filled(),
                    )
                }),
        )?;
        Ok(())
    })
    .unwrap_or_default()
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
        assert!(!forecast_svg(&[0; 30]).is_empty());
    }
}
