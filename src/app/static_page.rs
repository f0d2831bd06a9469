//! The pages the build writes: the app's own [`Shell`](super::Shell) rendered to HTML natively,
//! for one route, with what a first visit without storage would show. Readers without
//! JavaScript get these pages as they are; with JavaScript the app replaces them with the same
//! markup plus what needs a running app ([`interactive`](super::interactive) parts).
//!
//! Effects do not run here: the executor this sets up drops every task, as a server render
//! would. Everything an effect does (focus, scrolling, mounting widgets) is the browser's.

use super::diagrams::drawn_html;
use super::progress::ReadingProgress;
use super::prose::{Pages, Prose, Text};
use super::router::Location;
use super::Shell;
use crate::content::{Block, GLOSSARY, GLOSSARY_KEY, LESSONS};
use crate::nav::Route;
use crate::services::storage::Persist;
use any_spawner::{CustomExecutor, Executor, PinnedFuture, PinnedLocalFuture};
use leptos::prelude::*;

/// An executor that runs nothing: effects and tasks created while rendering are dropped.
struct Unrun;

impl CustomExecutor for Unrun {
    fn spawn(&self, _: PinnedFuture<()>) {}
    fn spawn_local(&self, _: PinnedLocalFuture<()>) {}
    fn poll_local(&self) {}
}

/// Every page's prose by its key, as HTML (as `Prose` holds a fetched page's), with the widgets
/// the build draws among it.
fn all_prose() -> Pages {
    let texts = |blocks: &[Block]| -> std::sync::Arc<[Text]> {
        blocks
            .iter()
            .filter_map(|b| match b {
                Block::Prose(html) => Some(Text::Html(html.to_string())),
                // The build checked every drawn widget's name against the diagrams' words.
                Block::Drawn(name) => Some(Text::Html(drawn_html(name).unwrap_or_else(|| {
                    format!("<p class=\"widget-error\">No drawing named {name}.</p>")
                }))),
                Block::Widget(_) => None,
            })
            .collect()
    };
    let mut pages: Pages = LESSONS
        .iter()
        .map(|l| (l.slug.to_string(), texts(l.blocks)))
        .collect();
    pages.insert(GLOSSARY_KEY.to_string(), texts(GLOSSARY.blocks));
    pages
}

/// The HTML inside `<div id="app">` for `route`'s page.
pub fn render(route: Route) -> String {
    // Once per process; a second call finds it set, which is as good.
    let _ = Executor::init_local_custom_executor(Unrun);
    let owner = Owner::new();
    // This render reads each signal once to write the page and never runs again, so reads
    // outside a tracking context are meant here: no debug warning for each of them.
    let _once = leptos::reactive::diagnostics::SpecialNonReactiveZone::enter();
    owner.with(|| {
        let persist = Persist::unused();
        provide_context(persist);
        provide_context(Location::at(route));
        provide_context(ReadingProgress::none(persist));
        provide_context(Prose::new(all_prose()));
        view! {
            <Shell
                menu_open=RwSignal::new(false)
                search_open=RwSignal::new(false)
                shortcuts_open=RwSignal::new(false)
                page_shown=RwSignal::new(true)
            />
        }
        .to_html()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Block, LESSONS};

    #[test]
    fn every_page_renders_its_text_and_widget_places_from_the_app_components() {
        let mut routes = vec![Route::Home, Route::Print, Route::Glossary, Route::NotFound];
        routes.extend((0..LESSONS.len()).map(Route::Lesson));
        for route in routes {
            let html = render(route);
            // The prose is in hand: no loading line, no failure notice.
            assert!(!html.contains("lesson-loading"), "{route:?}");
            assert!(!html.contains("lesson-failed"), "{route:?}");
            // What needs a running app is left out.
            assert!(!html.contains("data-testid=\"menu-button\""), "{route:?}");
            assert!(!html.contains("data-testid=\"mark-read\""), "{route:?}");
            assert!(
                !html.contains("data-testid=\"reading-progress\""),
                "{route:?}"
            );
            assert!(html.contains("class=\"site-title\""), "{route:?}");
        }
        for (i, lesson) in LESSONS.iter().enumerate() {
            let html = render(Route::Lesson(i));
            assert!(html.contains(&format!("data-lesson=\"{}\"", lesson.slug)));
            for block in lesson.blocks {
                match block {
                    Block::Prose(text) => assert!(html.contains(text), "{}", lesson.slug),
                    Block::Drawn(name) => assert!(
                        html.contains(&format!(
                            "data-drawn=\"{name}\" class=\"drawn\"><section data-widget=\"{name}\""
                        )),
                        "{name}"
                    ),
                    Block::Widget(w) => assert!(
                        html.contains(&format!("data-widget-slot=\"{}\"", w.name)),
                        "{}",
                        w.name
                    ),
                }
            }
            // The current lesson is marked in the contents.
            assert!(html.contains(&format!("href=\"{}/\" aria-current=\"page\"", lesson.slug)));
        }
    }
}
