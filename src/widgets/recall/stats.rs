//! The counters above the review, and the statistics panel with the forecast chart.

use crate::logic::chart::forecast::forecast_svg;
use crate::logic::recall::Stats;
use crate::widgets::controls::{Chart, Output};
use leptos::prelude::*;

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
