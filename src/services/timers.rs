//! Work put off: until the browser has time for it, or until the reader pauses.

use leptos::prelude::{
    on_cleanup, request_idle_callback, set_timeout_with_handle, SetValue, StoredValue,
    TimeoutHandle, UpdateValue,
};
use std::time::Duration;

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

/// Work that waits for a pause: each [`Pause::restart`] drops the work still waiting and schedules
/// the new one `delay` later, so a burst of keystrokes does the work once, after the last. Made
/// while a component is built; what is still waiting when the component goes is dropped, never
/// run against signals that are gone.
#[derive(Clone, Copy)]
pub struct Pause {
    waiting: StoredValue<Option<TimeoutHandle>>,
    delay: Duration,
}

impl Pause {
    /// A pause of `delay`, with nothing waiting.
    pub fn new(delay: Duration) -> Self {
        let pause = Self {
            waiting: StoredValue::new(None),
            delay,
        };
        on_cleanup(move || pause.cancel());
        pause
    }

    /// Drops the work still waiting and has `work` run `delay` from now.
    pub fn restart(&self, work: impl FnOnce() + 'static) {
        self.cancel();
        let handle = set_timeout_with_handle(work, self.delay).ok();
        let _ = self.waiting.try_set_value(handle);
    }

    /// Drops the work still waiting, if any.
    pub fn cancel(&self) {
        if let Some(Some(handle)) = self.waiting.try_update_value(Option::take) {
            handle.clear();
        }
    }
}
