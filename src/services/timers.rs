//! Work put off until the browser has time for it.

use leptos::prelude::request_idle_callback;

/// Runs `work` once, when the browser is next idle: for work that only prepares what a reader's
/// next action needs, such as a widget's warm-up (the recall review's). Browsers without
/// `requestIdleCallback` skip it, and so does the build's native render of a page.
pub fn when_idle(work: impl FnOnce() + 'static) {
    if !cfg!(target_arch = "wasm32") {
        return;
    }
    let work = std::cell::Cell::new(Some(work));
    request_idle_callback(move || {
        if let Some(work) = work.take() {
            work();
        }
    });
}
