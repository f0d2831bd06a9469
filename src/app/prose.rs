//! The lessons' prose, which the shell's wasm does not carry (see `content::lesson_text!`), and
//! with it the widgets the build draws (`content::Block::Drawn`), block by block in page order:
//! every page the build writes holds its own lesson's text, so the app keeps the text of the
//! page it starts on, and fetches a lesson's own page when the reader goes there. The glossary's
//! text travels the same way, under the key `glossary`.
//!
//! The page's own text is kept as the browser parsed it: the app moves those nodes into its view
//! ([`adopt`]) rather than reading them out as HTML and parsing them again, which on a long
//! lesson was a large part of the app's start. A fetched page's text is HTML, the build's,
//! compiled from our Markdown; it is only ever shown through `inner_html` in `lesson.rs`. A
//! fetched page also names the widgets module its lesson needs: that goes to the widget loader
//! as soon as the page is read, so the module loads while the lesson is drawn (`widget_slot.rs`).
//!
//! A page's fetch starts when the reader presses on a link to it, before the click that follows
//! (`js/prose.js`, which holds the page's side of all this).

use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/prose.js")]
extern "C" {
    /// From now on, Escape hides the glossary tooltips open under the pointer or the focus
    /// (`style/main.css` shows them on hover and keyboard focus, with no script), until both
    /// have left the term: WCAG 1.4.13, content on hover or focus can be dismissed.
    pub fn dismissable_tips();
    fn prose_in_page() -> String;
    /// Moves block `i` of `key`'s prose, as the page the app started on holds it (or the view
    /// that last showed it), into `el`. False when the page held no such block.
    #[wasm_bindgen(js_name = adopt_prose)]
    pub fn adopt(el: &web_sys::Element, key: &str, i: usize) -> bool;
    #[wasm_bindgen(catch)]
    async fn fetch_text(url: &str) -> Result<JsValue, JsValue>;
    fn prose_in_html(html: &str) -> String;
}

/// Fetches `url` (relative to the site's base) as text.
pub async fn fetch(url: &str) -> Result<String, String> {
    match fetch_text(url).await {
        Ok(v) => v.as_string().ok_or_else(|| "not text".to_string()),
        Err(e) => Err(e
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| "no connection".into())),
    }
}

/// One prose block of a page.
#[derive(Clone, Debug, PartialEq)]
pub enum Text {
    /// Its HTML (a fetched page's, or the build's).
    Html(String),
    /// Kept in the page the app started on, to be moved into the view ([`adopt`]).
    InPage,
}

/// Lesson slug → its prose blocks, in order.
pub type Pages = HashMap<String, Arc<[Text]>>;

/// What `collect` found: each key's blocks, as `text` makes them of what it gave for each.
fn parse_with(json: &str, text: fn(String) -> Text) -> Pages {
    serde_json::from_str::<HashMap<String, Vec<String>>>(json)
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, v.into_iter().map(text).collect()))
        .collect()
}

/// The prose of a fetched page: each key's blocks as HTML.
fn parse(json: &str) -> Pages {
    parse_with(json, Text::Html)
}

/// The prose of the page the app starts on: a place for each block it keeps (its HTML is not
/// read out: `collect` gives an empty string for each).
fn parse_in_page(json: &str) -> Pages {
    parse_with(json, |_| Text::InPage)
}

/// Where a lesson's prose stands.
#[derive(Clone, Debug, PartialEq)]
pub enum State {
    /// Being fetched.
    Loading,
    /// Here: the lesson's prose blocks in order.
    Ready(Arc<[Text]>),
    /// The fetch failed, with why.
    Failed(String),
}

/// The prose of every lesson seen so far, by slug.
#[derive(Clone, Copy)]
pub struct Prose {
    pages: RwSignal<Pages>,
    failed: RwSignal<HashMap<String, String>>,
    pending: StoredValue<Vec<String>>,
}

impl Prose {
    /// Keeps the prose of the page the app starts on; call before the app replaces it.
    pub fn read_page() -> Pages {
        parse_in_page(&prose_in_page())
    }

    /// A store holding `pages` (from [`Prose::read_page`]).
    pub fn new(pages: Pages) -> Self {
        Self {
            pages: RwSignal::new(pages),
            failed: RwSignal::new(HashMap::new()),
            pending: StoredValue::new(Vec::new()),
        }
    }

    /// The prose of `slug`, fetching `page` (a page that holds it, relative to the base) when
    /// it is not here yet. Reactive.
    pub fn get(&self, slug: &'static str, page: String) -> State {
        if let Some(p) = self.pages.with(|p| p.get(slug).cloned()) {
            return State::Ready(p);
        }
        if let Some(e) = self.failed.with(|f| f.get(slug).cloned()) {
            return State::Failed(e);
        }
        if !self.pending.with_value(|p| p.contains(&page)) {
            self.pending.update_value(|p| p.push(page.clone()));
            let this = *self;
            leptos::task::spawn_local(async move {
                let result = fetch(&page).await;
                this.pending.update_value(|p| p.retain(|u| *u != page));
                match result.map(|html| parse(&prose_in_html(&html))) {
                    Ok(found) if found.contains_key(slug) => this.pages.update(|p| p.extend(found)),
                    Ok(_) => this.failed.update(|f| {
                        drop(f.insert(slug.to_string(), "the page has no lesson text".into()))
                    }),
                    Err(e) => this.failed.update(|f| drop(f.insert(slug.to_string(), e))),
                }
            });
        }
        State::Loading
    }

    /// Forgets a failure, so that the next `get` fetches again.
    pub fn retry(&self, slug: &str) {
        self.failed.update(|f| drop(f.remove(slug)));
    }

    /// Forgets what is held of `slug`, so that the next `get` fetches it.
    pub fn forget(&self, slug: &str) {
        self.pages.update(|p| drop(p.remove(slug)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetched_page_gives_each_block_as_html() {
        let pages = parse(r#"{"overview":["<p>a</p>","<p>b</p>"],"glossary":[]}"#);
        assert_eq!(
            pages["overview"].as_ref(),
            [Text::Html("<p>a</p>".into()), Text::Html("<p>b</p>".into())]
        );
        assert!(pages["glossary"].is_empty());
    }

    #[test]
    fn the_start_page_gives_a_place_for_each_block() {
        let pages = parse_in_page(r#"{"overview":["",""],"glossary":[]}"#);
        assert_eq!(pages["overview"].as_ref(), [Text::InPage, Text::InPage]);
        assert!(pages["glossary"].is_empty());
    }

    #[test]
    fn what_cannot_be_read_holds_nothing() {
        assert!(parse("not json").is_empty());
        assert!(parse_in_page(r#"{"overview":2}"#).is_empty());
        assert!(parse_in_page(r#"{"overview":[1,2]}"#).is_empty());
    }
}
