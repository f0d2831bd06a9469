//! The card under review: its question, then its answer and the four grade buttons; or, when
//! nothing is due, when the next card comes back.

use crate::content::title_by_slug;
use crate::logic::recall::{interval_label, CardDef, Grade};
use leptos::prelude::*;

/// The card on screen.
#[component]
pub fn ReviewCard(
    /// The card.
    card: &'static CardDef,
    /// True when it is not due yet (the reader chose to learn ahead).
    early: Memo<bool>,
    /// True while its answer shows.
    revealed: Memo<bool>,
    /// When it would come back after each grade, in ms from now.
    previews: Memo<Option<[(Grade, i64); 4]>>,
    /// "Show answer" was pressed.
    on_reveal: impl Fn() + Copy + Send + Sync + 'static,
    /// A grade button was pressed.
    on_grade: impl Fn(Grade) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let from = title_by_slug(&card.lesson).map_or("", |(_, title)| title);
    view! {
        <div class="recall-card">
            <p class="recall-from">
                {from}
                {move || early.get().then_some(" \u{b7} learning ahead")}
            </p>
            <p class="recall-question" data-testid="card-question" tabindex="-1">
                {card.question.as_str()}
            </p>
            <Show
                when=move || revealed.get()
                fallback=move || {
                    view! {
                        <button type="button" class="button primary recall-reveal" data-testid="card-reveal" on:click=move |_| on_reveal()>
                            "Show answer"
                        </button>
                    }
                }
            >
                <p class="recall-answer" data-testid="card-answer" tabindex="-1">
                    {card.answer.as_str()}
                </p>
                <GradeButtons previews=previews on_grade=on_grade />
            </Show>
        </div>
    }
}

/// Again, Hard, Good, Easy, each with when the card would come back and its key.
#[component]
fn GradeButtons(
    /// When the card would come back after each grade, in ms from now.
    previews: Memo<Option<[(Grade, i64); 4]>>,
    /// A grade button was pressed.
    on_grade: impl Fn(Grade) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <div class="recall-grades" role="group" aria-label="How well did you recall it?">
            {Grade::ALL
                .into_iter()
                .zip(1usize..)
                .map(|(g, key)| {
                    let testid = match g {
                        Grade::Again => "card-grade-again",
                        Grade::Hard => "card-grade-hard",
                        Grade::Good => "card-grade-good",
                        Grade::Easy => "card-grade-easy",
                    };
                    let when = move || {
                        previews
                            .get()
                            .and_then(|p| p.into_iter().find(|(of, _)| *of == g))
                            .map(|(_, ms)| interval_label(ms))
                            .unwrap_or_default()
                    };
                    view! {
                        <button
                            type="button"
                            class="recall-grade"
                            class:primary=g == Grade::Good
                            data-testid=testid
                            aria-keyshortcuts=key.to_string()
                            on:click=move |_| on_grade(g)
                        >
                            <span class="recall-grade-name">{g.label()}</span>
                            <span class="recall-grade-when">{when}</span>
                            <kbd aria-hidden="true">{key}</kbd>
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// Nothing is due: when the next card comes back, and a way to review ahead of time.
#[component]
pub fn NothingDue(
    /// True when the review is of one lesson's cards.
    for_lesson: Memo<bool>,
    /// How long until the next card comes back ("3 d"), if any card has been reviewed.
    next_due: Memo<Option<String>>,
    /// "Learn ahead" was pressed.
    on_learn_ahead: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <div class="recall-empty">
            <p>
                {move || {
                    let lesson_words = if for_lesson.get() { " for this lesson" } else { "" };
                    format!("Nothing is due{lesson_words} right now.")
                }}
                {move || next_due.get().map(|t| format!(" The next card comes back in {t}."))}
            </p>
            <Show when=move || next_due.get().is_some()>
                <button type="button" data-testid="cards-learn-ahead" on:click=move |_| on_learn_ahead()>
                    "Learn ahead"
                </button>
            </Show>
        </div>
    }
}
