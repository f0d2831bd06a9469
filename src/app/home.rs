//! The title page: what the course is, and every lesson with what it teaches.

use super::progress::ReadingProgress;
use crate::content::{COURSE_LEDE, COURSE_TITLE, LESSONS};
use crate::nav::{self, Route};
use leptos::prelude::*;

/// The title page.
#[component]
pub fn Home() -> impl IntoView {
    let reading = ReadingProgress::from_context();
    let resume = move || {
        reading.last().and_then(|(i, heading)| {
            let lesson = LESSONS.get(i)?;
            let where_ = lesson
                .headings
                .iter()
                .find(|h| h.id == heading)
                .map(|h| format!("{} \u{2014} {}", lesson.title, h.text))
                .unwrap_or_else(|| lesson.title.to_string());
            let href = if heading.is_empty() {
                nav::href(Route::Lesson(i))
            } else {
                format!("{}#{heading}", nav::href(Route::Lesson(i)))
            };
            Some(view! {
                <p class="resume">
                    <a class="button" href=href data-testid="continue-reading">
                        "Continue where you left off: " {where_}
                    </a>
                </p>
            })
        })
    };
    view! {
        <article class="lesson home">
            <p class="eyebrow">"An interactive course"</p>
            <h1 tabindex="-1">{COURSE_TITLE}</h1>
            <p class="lede">{COURSE_LEDE}</p>
            <p>
                <a class="button primary" href=nav::href(Route::Lesson(0)) data-testid="start-course">
                    "Start the course"
                </a>
            </p>
            {resume}
            <h2>"Lessons"</h2>
            <ol class="lesson-list">
                {LESSONS
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        view! {
                            <li>
                                <a href=nav::href(Route::Lesson(i))>{l.title}</a>
                                <p>{l.description}</p>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </article>
    }
}
