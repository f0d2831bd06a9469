//! The course shell: header, table of contents, the page for the current URL, notices.

#[cfg(not(target_arch = "wasm32"))]
pub mod diagrams;
mod glossary;
mod home;
mod lesson;
mod notices;
pub mod progress;
mod prose;
pub mod router;
mod search;
#[cfg(not(target_arch = "wasm32"))]
pub mod static_page;
pub mod theme;
mod widget_slot;

use crate::content::{COURSE_TITLE, GLOSSARY_TITLE, LESSONS};
use crate::nav::{self, Route};
use crate::services::page::typing_in_field;
use crate::services::storage::Persist;
use leptos::prelude::*;
use notices::NoticeArea;
use progress::{ProgressBar, ReadingProgress};
use router::Location;
use wasm_bindgen::JsCast;

/// Mounts the app into `#app`, replacing the page the build pre-rendered there. On a lesson, the
/// widgets on or near the screen are live already: the start script mounted them in that page
/// (`window.ieCourseEarly`, in `widget_slot.rs`), and the shell's slots take them over as they
/// are, with the focus where the reader left it.
///
/// The start takes two tasks, so that neither keeps the page busy for long (at 4× CPU the one
/// task it was on `/latency-and-throughput/` went over 50 ms): this one draws the frame (header,
/// contents, notices) into an element outside the page, while the build's page stays as it is;
/// the next puts that frame in `#app` in the build's page's place and draws the page for the
/// route into it (`Shell`'s `page_shown`). The browser paints between tasks, not within one, so
/// a reader never sees a half-drawn page.
pub fn mount() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        // Not a page (a worker, a test harness): there is nothing to mount into.
        return;
    };
    // The lesson text the build put in the page, kept before the app replaces it.
    let prose = prose::Prose::read_page();
    prose::dismissable_tips();
    let root = match document.get_element_by_id("app") {
        Some(el) => el,
        None => {
            // A page without the build's `#app` (an old or hand-made shell): add one.
            let Some((el, body)) = document.create_element("div").ok().zip(document.body()) else {
                return;
            };
            el.set_id("app");
            if body.append_child(&el).is_err() {
                return;
            }
            el
        }
    };
    let Ok(staged) = document.create_element("div") else {
        return;
    };
    // Made outside the app's owner, so that the next task can set it; it lives as long as the page.
    let page_shown = RwSignal::new(false);
    leptos::mount::mount_to(staged.clone().unchecked_into(), move || {
        provide_context(prose::Prose::new(prose));
        view! { <App page_shown /> }
    })
    .forget();
    let show = move || {
        root.set_inner_html("");
        while let Some(node) = staged.first_child() {
            if root.append_child(&node).is_err() {
                break;
            }
        }
        // The page for the route is drawn in place, so its widget slots find the build's
        // early widgets gone from the page and take them over (`adopt`).
        page_shown.set(true);
    };
    set_timeout(show, std::time::Duration::ZERO);
}

/// True when a key press comes from a field the reader is typing in.
fn typed_in_field(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| typing_in_field(&el))
}

/// The whole app.
#[component]
pub fn App(
    /// The page for the route is drawn (see [`Shell`]).
    page_shown: RwSignal<bool>,
) -> impl IntoView {
    let persist = Persist::new();
    persist.receive_forwarded();
    provide_context(persist);
    let loc = Location::start();
    provide_context(loc);
    let reading = ReadingProgress::load(persist);
    provide_context(reading);
    let menu_open = RwSignal::new(false);
    let search_open = RwSignal::new(false);
    let shortcuts_open = RwSignal::new(false);

    // Single-key shortcuts, only when no field has focus and no dialog is open: `/` or `s`
    // search, `?` help, `[` and `]` turn pages. Bare arrows are left to scrolling and
    // screen readers.
    window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.default_prevented()
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
            || typed_in_field(&ev)
            || search_open.get_untracked()
            || shortcuts_open.get_untracked()
        {
            return;
        }
        match ev.key().as_str() {
            "/" | "s" => {
                ev.prevent_default();
                search_open.set(true);
                return;
            }
            "?" => {
                ev.prevent_default();
                shortcuts_open.set(true);
                return;
            }
            _ => {}
        }
        let index = match loc.route.get_untracked() {
            Route::Lesson(i) => Some(i),
            _ => None,
        };
        let (prev, next) = match index {
            Some(i) => nav::neighbours(i),
            None => (None, Some(0)),
        };
        let target = match ev.key().as_str() {
            "[" => prev,
            "]" => next,
            _ => return,
        };
        if let Some(i) = target {
            ev.prevent_default();
            loc.go(&nav::href(Route::Lesson(i)));
        }
    });

    // The document's title follows the page (the build wrote the first one from the same table).
    Effect::new(move |_| {
        let title = nav::title(loc.route.get());
        if let Some(d) = web_sys::window().and_then(|w| w.document()) {
            d.set_title(&title);
        }
    });
    view! { <Shell menu_open search_open shortcuts_open page_shown /> }
}

/// The page's frame and content: the header, the contents, and the page for the current route.
/// The app mounts it with live signals; the build renders the same component to HTML for every
/// page (`app::static_page`), so a page's text is written once. Parts that only work with a
/// running app (buttons, dialogs, the reader's progress) sit in [`interactive`].
#[component]
pub fn Shell(
    /// The contents menu is open (narrow screens).
    menu_open: RwSignal<bool>,
    /// The search dialog is open.
    search_open: RwSignal<bool>,
    /// The keyboard shortcuts dialog is open.
    shortcuts_open: RwSignal<bool>,
    /// The page for the route is drawn: false while the app's frame is drawn away from the
    /// page, in the first of its start's two tasks (see [`mount`]); the build draws it all.
    page_shown: RwSignal<bool>,
) -> impl IntoView {
    let loc = Location::from_context();
    let search_built = Memo::new(move |was: Option<&bool>| was == Some(&true) || search_open.get());
    let shortcuts_built =
        Memo::new(move |was: Option<&bool>| was == Some(&true) || shortcuts_open.get());
    let skip_href = move || format!("{}#main", nav::href(loc.route.get()));
    view! {
        <a class="skip-link" href=skip_href on:click=move |ev: web_sys::MouseEvent| {
            ev.prevent_default();
            if let Some(main) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("main"))
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = main.focus();
            }
        }>"Skip to the lesson"</a>
        <SiteHeader menu_open search_open shortcuts_open />
        <NoticeArea />
        // Each dialog is built the first time it opens, not at start-up, and kept from then on.
        {interactive(move || view! {
        <Show when=move || search_built.get()>
            <search::SearchDialog open=search_open />
        </Show>
        <Show when=move || shortcuts_built.get()>
            <search::ShortcutsDialog open=shortcuts_open />
        </Show>
        })}
        <div class="layout">
            <Contents menu_open />
            <main id="main" tabindex="-1">
                {move || match loc.route.get() {
                    _ if !page_shown.get() => ().into_any(),
                    Route::Home => view! { <home::Home /> }.into_any(),
                    Route::Lesson(i) => match LESSONS.get(i) {
                        Some(l) => view! { <lesson::LessonPage index=i lesson=l /> }.into_any(),
                        // Lesson routes come from the lesson table; anything else is no page.
                        None => view! { <NotFound /> }.into_any(),
                    },
                    Route::Print => view! { <lesson::PrintPage /> }.into_any(),
                    Route::Glossary => view! { <glossary::GlossaryPage /> }.into_any(),
                    Route::NotFound => view! { <NotFound /> }.into_any(),
                }}
            </main>
        </div>
    }
}

/// The site's header: the contents menu's button (narrow screens), the title, search, the
/// keyboard shortcuts and the theme.
#[component]
fn SiteHeader(
    /// The contents menu is open (narrow screens).
    menu_open: RwSignal<bool>,
    /// The search dialog is open.
    search_open: RwSignal<bool>,
    /// The keyboard shortcuts dialog is open.
    shortcuts_open: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <header class="site-header">
            {interactive(move || view! {
            <button
                type="button"
                class="menu-button"
                data-testid="menu-button"
                aria-controls="toc"
                aria-expanded=move || menu_open.get().to_string()
                on:click=move |_| menu_open.update(|o| *o = !*o)
            >
                // The header's icons are drawn by the stylesheet (`.icon`), not written as
                // characters (☰, ⌕, ☀, ☾): no text font of the page holds those, and the
                // fallback fonts the browser then asked the system for were half the text shaping
                // of the shell's first layout on `/about-your-app/` (2-core VM, 2026-12-04).
                <span class="icon icon-menu" aria-hidden="true"></span>
                " Lessons"
            </button>
            })}
            <a class="site-title" href="./">{COURSE_TITLE}</a>
            {interactive(move || view! {
            {dialog_button(search_open, ("search-button", "search-button"), ("Search", "/ s"), view! {
                <span class="icon icon-search" aria-hidden="true"></span>
                <span class="label-text">" Search"</span>
                <kbd class="label-text" aria-hidden="true">"/"</kbd>
            })}
            {dialog_button(shortcuts_open, ("help-button", "shortcuts-button"), ("Keyboard shortcuts", "?"), "?")}
            <theme::ThemeToggle />
            })}
        </header>
    }
}

/// A header button that opens a dialog (`opens`): its class, `data-testid`, accessible name,
/// the keys that open the dialog too (`aria-keyshortcuts`), and what it shows.
fn dialog_button(
    opens: RwSignal<bool>,
    (class, testid): (&'static str, &'static str),
    (label, keys): (&'static str, &'static str),
    shows: impl IntoView,
) -> impl IntoView {
    view! {
        <button type="button" class=class data-testid=testid aria-label=label aria-keyshortcuts=keys on:click=move |_| opens.set(true)>
            {shows}
        </button>
    }
}

/// The contents: every lesson, ticked once read, with the reading progress, the glossary and
/// the print page.
#[component]
fn Contents(
    /// The contents menu is open (narrow screens).
    menu_open: RwSignal<bool>,
) -> impl IntoView {
    let loc = Location::from_context();
    let reading = ReadingProgress::from_context();
    // Each navigation closes the menu on narrow screens.
    let close_menu = move |_| menu_open.set(false);
    view! {
        <nav id="toc" class="toc" class:open=move || menu_open.get() aria-label="Lessons" on:click=close_menu>
            {interactive(move || view! {
                <ProgressBar />
            })}
            <ol>
                {LESSONS
                    .iter()
                    .enumerate()
                    .map(|(i, lesson)| {
                        let current = move || loc.route.get() == Route::Lesson(i);
                        let read = move || reading.is_read(lesson.slug);
                        view! {
                            <li class:read=read>
                                <a
                                    href=nav::href(Route::Lesson(i))
                                    aria-current=move || current().then_some("page")
                                >
                                    <span class="toc-title">{lesson.title}</span>
                                    {interactive(move || view! {
                                        <span class="tick" data-testid="toc-tick" hidden=move || !read()>
                                            <span aria-hidden="true">"\u{2713}"</span>
                                            <span class="visually-hidden">" (read)"</span>
                                        </span>
                                    })}
                                </a>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
            <p class="toc-extra">
                <a
                    href=nav::href(Route::Glossary)
                    data-testid="glossary-link"
                    aria-current=move || (loc.route.get() == Route::Glossary).then_some("page")
                >
                    {GLOSSARY_TITLE}
                </a>
                <a href=nav::href(Route::Print) data-testid="print-link">"The whole chapter, to print"</a>
            </p>
        </nav>
    }
}

/// Markup that needs a running app (buttons that act, dialogs, the reader's stored progress),
/// written `{interactive(move || view! { … })}`: left out of the pages the build writes, which
/// readers without JavaScript get as they are. The build renders natively and the app runs in
/// wasm, so the target tells which is which; in the app this is the view itself, at no cost.
#[cfg(target_arch = "wasm32")]
pub fn interactive<T: IntoView>(view: impl FnOnce() -> T) -> impl IntoView {
    view()
}

/// In the build's render, nothing: see the app's version.
#[cfg(not(target_arch = "wasm32"))]
pub fn interactive<T: IntoView>(view: impl FnOnce() -> T) -> impl IntoView {
    drop(view);
}

/// The opposite of [`interactive`]: markup only the build's pages carry, for readers without
/// JavaScript (the app, which has it, leaves it out).
#[cfg(target_arch = "wasm32")]
pub fn without_script<T: IntoView>(view: impl FnOnce() -> T) -> impl IntoView {
    drop(view);
}

/// In the build's render, the view itself: see the app's version.
#[cfg(not(target_arch = "wasm32"))]
pub fn without_script<T: IntoView>(view: impl FnOnce() -> T) -> impl IntoView {
    view()
}

/// A path under the site that is not a page.
#[component]
fn NotFound() -> impl IntoView {
    view! {
        <article class="lesson">
            <h1>"No lesson at this address"</h1>
            <p>
                "The link may be old. "
                <a href="./">"Go to the start of the course"</a>
                " or pick a lesson from the list."
            </p>
        </article>
    }
}
