//! Client-side navigation: one URL per lesson, under whatever base path the site is served at.
//!
//! A small router of our own rather than `leptos_router`: the site has two kinds of page, the
//! base path is only known at run time (from `<base href>`, which Trunk fills with the public
//! URL), and links inside lesson HTML must be caught too. Every page also exists as a real file
//! (`<slug>/index.html`, written by the build), so a reload or a deep link works on any static
//! host and without JavaScript.

use crate::nav::{self, Route};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Where the reader is. `Copy`; provided as context by the shell.
#[derive(Clone, Copy)]
pub struct Location {
    /// The page shown.
    pub route: RwSignal<Route>,
    /// The fragment (heading id) without `#`, or empty.
    pub hash: RwSignal<String>,
    /// Counts in-app navigations, so the first render does not steal focus.
    pub navigations: RwSignal<u32>,
}

#[allow(
    clippy::expect_used,
    reason = "the shell runs only in a page: `app::mount` returns before anything here when there is no window"
)]
fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

/// The path the site is served under, e.g. `/` or `/some/sub/path/`.
pub fn base_path() -> String {
    window()
        .document()
        .and_then(|d| d.base_uri().ok().flatten())
        .and_then(|uri| web_sys::Url::new(&uri).ok())
        .map(|u| u.pathname())
        .unwrap_or_else(|| "/".into())
}

fn current_hash() -> String {
    let hash = window().location().hash().unwrap_or_default();
    let hash = hash.trim_start_matches('#');
    js_sys::decode_uri_component(hash)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| hash.to_string())
}

impl Location {
    /// The reader's place the shell provides; where none was provided (a component drawn
    /// outside the shell), no page: the shell then shows its "no lesson at this address" page
    /// rather than a wrong one.
    pub fn from_context() -> Self {
        use_context::<Location>().unwrap_or_else(|| Location::at(Route::NotFound))
    }

    /// A reader on `route`'s page, at its top, before any navigation: what the build renders.
    pub fn at(route: Route) -> Self {
        Location {
            route: RwSignal::new(route),
            hash: RwSignal::new(String::new()),
            navigations: RwSignal::new(0),
        }
    }

    /// Reads the address bar, and starts following links, back and forward.
    pub fn start() -> Self {
        let base = base_path();
        let path = window().location().pathname().unwrap_or_default();
        let loc = Location {
            route: RwSignal::new(nav::route_for(&path, &base)),
            hash: RwSignal::new(current_hash()),
            navigations: RwSignal::new(0),
        };
        window_event_listener(leptos::ev::popstate, move |_| {
            let path = window().location().pathname().unwrap_or_default();
            loc.route.set(nav::route_for(&path, &base_path()));
            loc.hash.set(current_hash());
            loc.navigations.update(|n| *n += 1);
        });
        window_event_listener(leptos::ev::click, move |ev| loc.on_click(&ev));
        let on_navigate = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(
            move |ev: web_sys::Event| {
                let href = ev
                    .dyn_ref::<web_sys::CustomEvent>()
                    .and_then(|e| e.detail().as_string());
                if href.is_some_and(|h| loc.go(&h)) {
                    ev.prevent_default();
                }
            },
        );
        let _ = window()
            .add_event_listener_with_callback(NAVIGATE_EVENT, on_navigate.as_ref().unchecked_ref());
        // Lives as long as the page.
        on_navigate.forget();
        loc
    }

    /// Goes to `href` (relative to the base, e.g. `model-selection/#evals`) without a reload.
    /// Returns false when the target is not a page of this site.
    pub fn go(&self, href: &str) -> bool {
        let Some(base_uri) = window()
            .document()
            .and_then(|d| d.base_uri().ok().flatten())
        else {
            return false;
        };
        let Ok(url) = web_sys::Url::new_with_base(href, &base_uri) else {
            return false;
        };
        self.go_to_url(&url)
    }

    fn go_to_url(&self, url: &web_sys::Url) -> bool {
        let w = window();
        if url.origin() != w.location().origin().unwrap_or_default() {
            return false;
        }
        let route = nav::route_for(&url.pathname(), &base_path());
        if route == Route::NotFound {
            return false;
        }
        let _ = w.history().and_then(|h| {
            h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()))
        });
        let hash = url.hash();
        let hash = hash.trim_start_matches('#');
        self.route.set(route);
        self.hash.set(
            js_sys::decode_uri_component(hash)
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_else(|| hash.to_string()),
        );
        self.navigations.update(|n| *n += 1);
        true
    }

    fn on_click(&self, ev: &web_sys::MouseEvent) {
        if ev.default_prevented()
            || ev.button() != 0
            || ev.meta_key()
            || ev.ctrl_key()
            || ev.shift_key()
            || ev.alt_key()
        {
            return;
        }
        let Some(anchor) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("a[href]").ok().flatten())
            .and_then(|el| el.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        else {
            return;
        };
        if !anchor.target().is_empty() || anchor.has_attribute("download") {
            return;
        }
        let Ok(url) = web_sys::Url::new(&anchor.href()) else {
            return;
        };
        if self.go_to_url(&url) {
            ev.prevent_default();
        }
    }
}

/// The window event by which the page's scripts (the diagrams', `style/diagrams.js`, which have
/// no router of their own) ask the shell to go to a page; the shell cancels the event when it
/// went.
pub const NAVIGATE_EVENT: &str = "ie-course-navigate";

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// Keeps `el` where the page has just scrolled it while the page above it settles, until the
    /// reader acts, the page scrolls by another's hand, five seconds pass or the next call;
    /// `None` only ends it. The page's first script defines it (`js/boot.js`, where the why
    /// is), so that it holds a deep link's heading from the first frame, before the app starts,
    /// and the app's jumps share that one hold. Without that script (blocked), nothing is held.
    #[wasm_bindgen(catch, js_name = ieCourseHold)]
    fn hold(el: Option<&web_sys::Element>) -> Result<(), wasm_bindgen::JsValue>;
}

/// Whether the browser brought this page back (a reload, Back or Forward from another site):
/// it then puts the reader where they were itself, and the app's start leaves them there
/// rather than going to the top or to the heading in the address. The page's first script
/// (`js/boot.js`) reads the navigation's type, for its own landing and for this; without
/// that script, the answer is no.
pub fn brought_back() -> bool {
    // Not in the build's native render of a page, which has no browser to ask.
    cfg!(target_arch = "wasm32")
        && js_sys::Reflect::get(&js_sys::global(), &"ieCourseBroughtBack".into())
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
}

/// Brings the element `id` (a heading, a glossary entry) into view and holds it there while the
/// page settles (see [`hold`]), or goes to the top of the page when `id` is empty. A target made
/// to take focus (`tabindex`, as a glossary entry) takes it, so that a reader who followed a term
/// lands on its entry.
pub fn scroll_to(id: &str) {
    let w = window();
    let target = (!id.is_empty())
        .then(|| w.document().and_then(|d| d.get_element_by_id(id)))
        .flatten();
    match &target {
        Some(el) => {
            el.scroll_into_view();
            if el.has_attribute("tabindex") {
                if let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        }
        None => w.scroll_to_with_x_and_y(0.0, 0.0),
    }
    // An error only when the page's first script did not run: the jump alone stands.
    let _ = hold(target.as_ref());
}
