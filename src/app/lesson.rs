//! A lesson page: its prose and widgets in order, then links to the lessons around it.

use super::prose::{self, Pages, Prose, State, Text};
use super::router::{brought_back, scroll_to, Location};
use crate::content::{Block, Lesson, GLOSSARY, GLOSSARY_KEY, GLOSSARY_TITLE, LESSONS};
use crate::nav::{self, Route};
use leptos::prelude::*;

/// The lessons' text the shell provides; where none was provided (a component drawn outside
/// the shell), none in hand: each lesson's text is then fetched from its page, as after a move.
fn prose() -> Prose {
    use_context::<Prose>().unwrap_or_else(|| Prose::new(Pages::default()))
}

/// Where the prose of lesson `slug` stands, fetching `page` (a page that carries it, relative
/// to the site's base) when it is not in hand yet.
pub(super) fn prose_of(slug: &'static str, page: String) -> Memo<State> {
    let prose = prose();
    Memo::new(move |_| prose.get(slug, page.clone()))
}

/// A lesson's prose and widgets, in order, once its prose is in hand; until then a loading
/// line, or a notice with a retry button when the fetch failed.
#[component]
pub fn LessonBody(
    /// The lesson's slug.
    slug: &'static str,
    /// The compiled blocks of the lesson.
    blocks: &'static [Block],
    /// Its prose (see [`prose_of`]).
    state: Memo<State>,
    /// What the page is, for the loading and failure lines: "lesson" or "glossary".
    noun: &'static str,
) -> impl IntoView {
    let prose = prose();
    move || match state.get() {
        State::Loading => view! {
            <p class="lesson-loading" role="status">{format!("Loading the {noun}\u{2026}")}</p>
        }
        .into_any(),
        State::Failed(why) => {
            let message = format!(
                "This {noun}\u{2019}s text could not be loaded ({why}). Check the connection, then "
            );
            view! {
                <div class="lesson-failed" role="alert">
                    <p>
                        {message}
                        <button type="button" on:click=move |_| prose.retry(slug)>"try again"</button>
                        "."
                    </p>
                </div>
            }
            .into_any()
        }
        State::Ready(texts) => {
            let mut texts = texts.iter().cloned().enumerate();
            blocks
                .iter()
                .map(|block| match block {
                    Block::Prose(_) => text_block(prose, slug, texts.next(), None),
                    Block::Drawn(name) => text_block(prose, slug, texts.next(), Some(name)),
                    Block::Widget(w) => {
                        view! { <super::widget_slot::WidgetSlot widget=w /> }.into_any()
                    }
                })
                .collect_view()
                .into_any()
        }
    }
}

/// A block of the page's text (`text`, the `i`th of `slug`'s): prose, or the widget `drawn`
/// that the build drew (its markup travels with the prose, and a script answers it: see
/// `widget_slot::drawn_shown`).
fn text_block(
    prose: Prose,
    slug: &'static str,
    text: Option<(usize, Text)>,
    drawn: Option<&'static str>,
) -> AnyView {
    let here = NodeRef::<leptos::html::Div>::new();
    let (in_page, html) = match text {
        Some((i, Text::InPage)) => (Some(i), None),
        Some((_, Text::Html(html))) => (None, Some(html)),
        None => (None, None),
    };
    here.on_load(move |el| {
        // The page's own text, as the browser parsed it, moved in once the block is in the
        // page (before the next frame is drawn).
        if let Some(i) = in_page {
            if !prose::adopt(&el, slug, i) {
                prose.forget(slug);
            }
        }
        if drawn.is_some() {
            super::widget_slot::drawn_shown(&el);
        }
    });
    // Our own Markdown and the build's drawings: the one place inner_html is used.
    match drawn {
        None => view! { <div class="prose" inner_html=html node_ref=here></div> }.into_any(),
        Some(name) => {
            view! { <div class="drawn" data-drawn=name inner_html=html node_ref=here></div> }
                .into_any()
        }
    }
}

/// Every lesson on one page, for printing the whole chapter.
#[component]
pub fn PrintPage() -> impl IntoView {
    view! {
        <article class="lesson print-all" data-testid="print-all">
            <h1 tabindex="-1">{crate::content::COURSE_TITLE}</h1>
            <p class="print-hint no-print">
                "Every lesson on one page. Print it with your browser (Ctrl+P or \u{2318}P): the contents, buttons and fields are left out, and each widget prints its current results."
            </p>
            {LESSONS
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    view! {
                        <section class="print-lesson" id=l.slug>
                            <p class="eyebrow">{format!("Lesson {} of {}", i + 1, LESSONS.len())}</p>
                            <h2 class="print-lesson-title">{l.title}</h2>
                            <LessonBody slug=l.slug blocks=l.blocks state=prose_of(l.slug, format!("{}index.html", nav::href(Route::Print))) noun="lesson" />
                        </section>
                    }
                })
                .collect_view()}
            <section class="print-glossary" data-prose=GLOSSARY_KEY>
                <p class="eyebrow">"Reference"</p>
                <h2>{GLOSSARY_TITLE}</h2>
                <LessonBody slug=GLOSSARY_KEY blocks=GLOSSARY.blocks state=prose_of(GLOSSARY_KEY, format!("{}index.html", nav::href(Route::Print))) noun="glossary" />
            </section>
        </article>
    }
}

/// After a page is drawn (and again once its text is in): goes to the place in the URL (see
/// [`scroll_to`]), or to the top; after an in-app navigation to the page itself, moves focus to
/// its title so that screen readers announce the new page. The page the app starts on, when the
/// browser brought it back (a reload, Back or Forward), stays where the browser put the reader.
pub(super) fn land(heading: NodeRef<leptos::html::H1>, loaded: Memo<bool>) {
    let loc = Location::from_context();
    let restored = brought_back();
    Effect::new(move |_| {
        let hash = loc.hash.get();
        let navigated = loc.navigations.get() > 0;
        let loaded = loaded.get();
        request_animation_frame(move || {
            if navigated || !restored {
                scroll_to(&hash);
            }
            if loaded {
                // The reading follower measures on scroll: let it see the text that came in.
                if let Some(w) = web_sys::window() {
                    if let Ok(ev) = web_sys::Event::new("scroll") {
                        let _ = w.dispatch_event(&ev);
                    }
                }
            }
            if navigated && hash.is_empty() {
                // The page may be gone by this frame (another move came first).
                if let Some(h) = heading.try_get_untracked().flatten() {
                    let _ = h.focus();
                }
            }
        });
    });
}

/// The lesson at `index` in reading order.
#[component]
pub fn LessonPage(
    /// Its index in `LESSONS`, for its number and neighbours.
    index: usize,
    /// The lesson (`LESSONS[index]`).
    lesson: &'static Lesson,
) -> impl IntoView {
    let heading = NodeRef::<leptos::html::H1>::new();

    let state = prose_of(
        lesson.slug,
        format!("{}index.html", nav::href(Route::Lesson(index))),
    );
    let loaded = Memo::new(move |_| state.with(|s| matches!(s, State::Ready(_))));

    land(heading, loaded);

    let pager = NodeRef::<leptos::html::Nav>::new();
    let auto_mark_done = super::progress::follow_reading(lesson, pager);
    let reading = super::progress::ReadingProgress::from_context();
    let read = move || reading.is_read(lesson.slug);

    let (prev, next) = nav::neighbours(index);
    view! {
        <article class="lesson" data-testid="lesson" data-lesson=lesson.slug>
            <p class="eyebrow">{format!("Lesson {} of {}", index + 1, LESSONS.len())}</p>
            <h1 tabindex="-1" node_ref=heading>{lesson.title}</h1>
            <LessonBody slug=lesson.slug blocks=lesson.blocks state=state noun="lesson" />
            <Show when=move || loaded.get()>
            {super::interactive(move || view! {
            <p class="mark-read no-print">
                <button
                    type="button"
                    data-testid="mark-read"
                    aria-pressed=move || read().to_string()
                    on:click=move |_| {
                        auto_mark_done.set_value(true);
                        reading.set_read(lesson.slug, !read());
                    }
                >
                    {move || if read() { "\u{2713} Read" } else { "Mark as read" }}
                </button>
            </p>
            })}
            <nav class="pager" aria-label="Previous and next lesson" node_ref=pager>
                {prev.map(|i| view! {
                    <a class="pager-prev" rel="prev" href=nav::href(Route::Lesson(i)) data-testid="prev-lesson">
                        <span class="pager-label">"Previous"</span>
                        <span class="pager-title">{LESSONS.get(i).map(|l| l.title)}</span>
                    </a>
                })}
                {next.map(|i| view! {
                    <a class="pager-next" rel="next" href=nav::href(Route::Lesson(i)) data-testid="next-lesson">
                        <span class="pager-label">"Next"</span>
                        <span class="pager-title">{LESSONS.get(i).map(|l| l.title)}</span>
                    </a>
                })}
            </nav>
            </Show>
        </article>
    }
}
