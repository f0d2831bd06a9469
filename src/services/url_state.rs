//! Shareable calculator state: each calculator mirrors its inputs in the page's query string
//! (`?wm.params=8&wm.prec=int4`), so a copied link opens the same result.
//!
//! The query, not the fragment: the fragment names the heading a link points at (see
//! `app::router`). Each widget owns the keys under its own prefix (`wm.`, `dc.`, `fs.`, `be.`)
//! and leaves every other key, and the fragment, as it found them. Only inputs that differ from
//! the lesson's defaults are written, and only while the result is valid, so an untouched page
//! keeps a clean address and a link never carries a broken state.
//!
//! Reading and writing the query's text is pure (`logic::query`); this module talks to the
//! page's location and history.

pub use crate::logic::query::{decode, encode, merged, read, value_of};
use crate::services::timers::Pause;
use leptos::prelude::*;

/// One input a calculator shares: its key (without prefix) and its value.
pub type Shared = (&'static str, Value);

/// A shared input's value: typed text, or a box ticked (`1`) or not (`0`) in the address.
#[derive(Clone, Copy)]
pub enum Value {
    /// Text as the reader typed it.
    Text(RwSignal<String>),
    /// A checkbox.
    Flag(RwSignal<bool>),
}

impl From<RwSignal<String>> for Value {
    fn from(text: RwSignal<String>) -> Self {
        Value::Text(text)
    }
}

impl From<RwSignal<bool>> for Value {
    fn from(flag: RwSignal<bool>) -> Self {
        Value::Flag(flag)
    }
}

impl Value {
    /// The value as the address writes it.
    fn get(self) -> String {
        match self {
            Value::Text(text) => text.get(),
            Value::Flag(flag) => if flag.get() { "1" } else { "0" }.to_string(),
        }
    }

    /// Sets the value from the address: a flag is ticked by `1` only.
    fn set(self, value: &str) {
        match self {
            Value::Text(text) => text.set(value.to_string()),
            Value::Flag(flag) => flag.set(value.trim() == "1"),
        }
    }
}

/// Fills `fields` from the address (keys `prefix.key`), then keeps the address in step with
/// them: while `valid`, every field that differs from its starting value is written, a quarter
/// of a second after the last change (browsers throttle rapid history updates).
///
/// Call once, while building the component, after the signals hold the lesson's defaults.
pub fn share(prefix: &'static str, fields: Vec<Shared>, valid: Signal<bool>) {
    let defaults: Vec<String> = fields
        .iter()
        .map(|(_, value)| untrack(|| value.get()))
        .collect();
    let from_url = read(&current_search(), prefix);
    for (key, value) in &fields {
        if let Some(text) = value_of(&from_url, key) {
            value.set(text);
        }
    }
    keep_in_address(
        prefix,
        Signal::derive(move || {
            let values: Vec<(&'static str, String)> = fields
                .iter()
                .zip(&defaults)
                .map(|((key, value), default)| (*key, value.get(), default))
                .filter(|(_, value, default)| value.trim() != default.trim())
                .map(|(key, value, _)| (key, value.trim().to_string()))
                .collect();
            valid.get().then_some(values)
        }),
    );
}

/// Keeps the keys under `prefix` in the address equal to `values` (written as `prefix.key`),
/// a quarter of a second after the last change, by replacing the current history entry (one
/// entry per keystroke would bury the reader's Back button). `None` leaves the address as it
/// is: a widget passes it while its inputs are invalid, so a link never carries a broken state.
///
/// Call once, while building the component.
pub fn keep_in_address(prefix: &'static str, values: Signal<Option<Vec<(&'static str, String)>>>) {
    let pause = Pause::new(std::time::Duration::from_millis(250));
    // The page the widget is on: a widget can outlive its page for a moment (the widgets module
    // disposes of widgets lazily), and must not write its keys into the next page's address.
    let page = web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default();
    Effect::new(move |_| {
        let Some(values) = values.get() else { return };
        let page = page.clone();
        pause.restart(move || write(&page, prefix, &values));
    });
}

/// The page's query string as it is now (`?…`, or empty).
pub fn current_search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Replaces the current history entry's query, keeping its path, fragment and state, if the
/// reader is still on `page` (a path).
fn write(page: &str, prefix: &str, values: &[(&str, String)]) {
    let Some(w) = web_sys::window() else { return };
    let location = w.location();
    let path = location.pathname().unwrap_or_default();
    if path != page {
        return;
    }
    let search = location.search().unwrap_or_default();
    let next = merged(&search, prefix, values);
    if next == search || (next.is_empty() && search == "?") {
        return;
    }
    let hash = location.hash().unwrap_or_default();
    if let Ok(history) = w.history() {
        let state = history.state().unwrap_or(wasm_bindgen::JsValue::NULL);
        let _ = history.replace_state_with_url(&state, "", Some(&format!("{path}{next}{hash}")));
    }
}
