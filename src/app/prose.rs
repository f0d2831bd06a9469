//! The lessons' prose, which the shell's wasm does not carry (see `content::lesson_text!`):
//! every page the build writes holds its own lesson's text, so the app reads the page it
//! starts on, and fetches a lesson's own page when the reader goes there. The glossary's text
//! travels the same way, under the key `glossary`. The HTML is the
//! build's, compiled from our Markdown; it is only ever shown through `inner_html` there.

use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
function collect(doc) {
  const out = {};
  for (const el of doc.querySelectorAll("article[data-lesson], section.print-lesson[id], [data-prose]")) {
    out[el.dataset.lesson || el.dataset.prose || el.id] = Array.from(el.querySelectorAll(".prose"), (p) => p.innerHTML);
  }
  return JSON.stringify(out);
}
export function prose_in_page() { return collect(document); }
export async function fetch_text(url) {
  const r = await fetch(new URL(url, document.baseURI).href);
  if (!r.ok) throw new Error(r.status + " " + r.statusText);
  return r.text();
}
export function prose_in_html(html) { return collect(new DOMParser().parseFromString(html, "text/html")); }
const tipShown = ".term-wrap:hover,.term-wrap:focus-within";
const tipBack = () => { for (const w of document.querySelectorAll("[data-tip-off]")) if (!w.matches(tipShown)) w.removeAttribute("data-tip-off"); };
export function dismissable_tips() {
  addEventListener("keydown", (e) => { if (e.key === "Escape") for (const w of document.querySelectorAll(tipShown)) w.setAttribute("data-tip-off", ""); });
  addEventListener("focusin", tipBack);
  addEventListener("mouseover", tipBack);
}
"#)]
extern "C" {
    /// From now on, Escape hides the glossary tooltips open under the pointer or the focus
    /// (`style/main.css` shows them on hover and keyboard focus, with no script), until both
    /// have left the term: WCAG 1.4.13, content on hover or focus can be dismissed.
    pub fn dismissable_tips();
    fn prose_in_page() -> String;
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

/// Lesson slug → its prose blocks.
pub type Pages = HashMap<String, Arc<[String]>>;

fn parse(json: &str) -> Pages {
    serde_json::from_str::<HashMap<String, Vec<String>>>(json)
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, v.into()))
        .collect()
}

/// Where a lesson's prose stands.
#[derive(Clone, Debug, PartialEq)]
pub enum State {
    /// Being fetched.
    Loading,
    /// Here: the lesson's prose blocks in order.
    Ready(Arc<[String]>),
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
    /// Reads the prose of the page the app starts on; call before the app replaces it.
    pub fn read_page() -> Pages {
        parse(&prose_in_page())
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
}
