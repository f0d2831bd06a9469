//! Which lesson's cards to review, and the desired retention.

use crate::content::LESSON_TITLES;
use crate::logic::recall::{self, parse_retention};
use crate::widgets::controls::{Menu, NumberField};
use leptos::prelude::*;

/// The lesson filter and the desired-retention field.
#[component]
pub fn ScopeAndRetention(
    /// The lesson whose cards are reviewed ("" for all), as the select's value.
    scope: Memo<String>,
    /// Another lesson (or "" for all) was chosen.
    on_scope: impl Fn(String) + Copy + Send + Sync + 'static,
    /// The desired retention in percent, as the field first shows it.
    retention: String,
    /// The reader set a valid desired retention (a fraction, 0.7–0.99).
    on_retention: impl Fn(f64) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let deck = recall::deck();
    let retention_text = RwSignal::new(retention);
    let parsed = Memo::new(move |_| parse_retention(&retention_text.get()));
    // The field's own handlers (typing, arrow-key steps) have updated the text by the time
    // the event reaches this box, so the box hands a valid new value on from here.
    let retention_edited = move || {
        if let Ok(r) = parse_retention(&retention_text.get_untracked()) {
            on_retention(r);
        }
    };
    let options: Vec<(&'static str, String)> = std::iter::once(("", "All lessons"))
        .chain(
            LESSON_TITLES
                .iter()
                .filter(|(slug, _)| deck.iter().any(|c| c.lesson == *slug))
                .copied(),
        )
        .map(|(slug, title)| (slug, title.to_string()))
        .collect();
    view! {
        <div
            class="controls recall-controls"
            on:input=move |_| retention_edited()
            on:keydown=move |ev| {
                if matches!(ev.key().as_str(), "ArrowUp" | "ArrowDown") {
                    retention_edited();
                }
            }
        >
            <Menu
                label="Cards from"
                testid="cards-filter"
                options=options
                value=scope
                on_pick=on_scope
            />
            <NumberField
                label="Desired retention"
                testid="cards-retention"
                text=retention_text
                error=Signal::derive(move || parsed.get().err())
                unit="%"
                min=70.0
            />
        </div>
        <p class="widget-note recall-retention-note">
            "The chance you still recall a card when it comes back. Higher means more frequent reviews; 90 % is the usual choice."
        </p>
    }
}
