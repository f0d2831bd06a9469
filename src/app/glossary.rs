//! The glossary page: every term the lessons mark, with its definition, related terms and the
//! lessons that use it. Its text travels in its own page, like a lesson's (`app::prose`).
//!
//! The marks themselves are the lesson compiler's (`build/glossary.rs`): a link to the term's
//! entry here, and its definition in a `role="tooltip"` beside it, which CSS shows on hover
//! and keyboard focus (`prose::dismissable_tips` lets Escape hide it).

use super::lesson::{land, prose_of, LessonBody};
use super::prose::State;
use crate::content::{GLOSSARY, GLOSSARY_KEY, GLOSSARY_TITLE};
use crate::nav::{self, Route};
use leptos::prelude::*;

/// The glossary page. An entry named in the URL (`#term-<id>`) is scrolled to and focused.
#[component]
pub fn GlossaryPage() -> impl IntoView {
    let heading = NodeRef::<leptos::html::H1>::new();
    let state = prose_of(
        GLOSSARY_KEY,
        format!("{}index.html", nav::href(Route::Glossary)),
    );
    land(
        heading,
        Memo::new(move |_| state.with(|s| matches!(s, State::Ready(_)))),
    );
    view! {
        <article class="lesson glossary" data-testid="glossary" data-prose=GLOSSARY_KEY>
            <p class="eyebrow">"Reference"</p>
            <h1 tabindex="-1" node_ref=heading>{GLOSSARY_TITLE}</h1>
            <LessonBody slug=GLOSSARY_KEY blocks=GLOSSARY.blocks state=state noun="glossary" />
        </article>
    }
}
