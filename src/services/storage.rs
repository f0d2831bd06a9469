//! Stored data: the handle the shell and the widgets load and save through ([`Persist`]), and
//! the notices that tell the learner when something about it went wrong. The schema (versioned
//! envelopes, backups) is `logic::storage`; the browser's side, `browser`.

mod browser;

use crate::logic::storage::{self, Read};
use browser::BrowserStorage;
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;

thread_local! {
    static STORAGE: BrowserStorage = BrowserStorage::open();
}

/// A notice shown to the learner, with an id for dismissing it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownNotice {
    /// Unique within the page's life.
    pub id: u32,
    /// What happened.
    pub text: String,
}

/// The window event by which widgets (a separate wasm module, see `src/bin/ie-widgets.rs`) hand
/// their notices to the shell, which shows them with its own.
pub const NOTICE_EVENT: &str = "ie-course-notice";

/// Loads and saves stored values, turning every problem into a visible notice.
/// `Copy`, so components take it from context and move it into closures freely.
#[derive(Clone, Copy)]
pub struct Persist {
    notices: RwSignal<Vec<ShownNotice>>,
    /// True in the widgets module: notices go to the shell as [`NOTICE_EVENT`]s.
    forward: bool,
}

impl Persist {
    /// Creates the handle, and says so at once if the browser blocks storage.
    pub fn new() -> Self {
        let p = Persist {
            notices: RwSignal::new(Vec::new()),
            forward: false,
        };
        if STORAGE.with(BrowserStorage::is_memory) {
            p.notify(
                "Your browser is blocking storage for this site, so your progress and settings \
                 are kept only until you close this tab.",
            );
        }
        p
    }

    /// A handle that has loaded nothing and shows nothing: for the pages the build renders,
    /// where no storage exists (nothing there loads or saves).
    pub fn unused() -> Self {
        Persist {
            notices: RwSignal::new(Vec::new()),
            forward: false,
        }
    }

    /// The handle for the widgets module: same storage, notices sent to the shell.
    pub fn forwarding() -> Self {
        Persist {
            notices: RwSignal::new(Vec::new()),
            forward: true,
        }
    }

    /// The handle the page provides (the shell's, or a widgets module's), or where none was
    /// provided, one that hands its notices to the shell as [`NOTICE_EVENT`]s: the same storage
    /// either way, so nothing stored is lost, and the reader still hears about problems.
    pub fn from_context() -> Self {
        use_context::<Persist>().unwrap_or_else(Persist::forwarding)
    }

    /// Shows notices that the widgets module sends as [`NOTICE_EVENT`]s.
    pub fn receive_forwarded(&self) {
        use wasm_bindgen::JsCast;
        let me = *self;
        let on_notice = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::Event)>::new(
            move |ev: web_sys::Event| {
                if let Some(text) = ev
                    .dyn_ref::<web_sys::CustomEvent>()
                    .and_then(|e| e.detail().as_string())
                {
                    me.notify(text);
                }
            },
        );
        if let Some(w) = web_sys::window() {
            let _ = w
                .add_event_listener_with_callback(NOTICE_EVENT, on_notice.as_ref().unchecked_ref());
        }
        // Lives as long as the page.
        on_notice.forget();
    }

    /// The notices to show.
    pub fn notices(&self) -> ReadSignal<Vec<ShownNotice>> {
        self.notices.read_only()
    }

    /// Shows `text` as a notice.
    pub fn notify(&self, text: impl Into<String>) {
        let text = text.into();
        if self.forward {
            let init = web_sys::CustomEventInit::new();
            init.set_detail(&wasm_bindgen::JsValue::from_str(&text));
            if let (Some(w), Ok(ev)) = (
                web_sys::window(),
                web_sys::CustomEvent::new_with_event_init_dict(NOTICE_EVENT, &init),
            ) {
                let _ = w.dispatch_event(&ev);
            }
            return;
        }
        self.notices.update(|n| {
            let id = n.last().map_or(1, |last| last.id + 1);
            n.push(ShownNotice { id, text });
        });
    }

    /// Removes notice `id`.
    pub fn dismiss(&self, id: u32) {
        self.notices.update(|n| n.retain(|x| x.id != id));
    }

    /// Reads value `name` (schema `version`); a value that cannot be used is backed up and
    /// reported, and `None` returned so the caller starts from its defaults.
    pub fn load<T: DeserializeOwned>(
        &self,
        name: &str,
        version: u32,
        migrate: impl Fn(u32, &str) -> Option<T>,
    ) -> Option<T> {
        self.load_reporting(name, version, migrate).0
    }

    /// Like [`load`](Self::load), and also hands back the notice's text when the stored value
    /// could not be used, for a widget that says so in place as well.
    pub fn load_reporting<T: DeserializeOwned>(
        &self,
        name: &str,
        version: u32,
        migrate: impl Fn(u32, &str) -> Option<T>,
    ) -> (Option<T>, Option<String>) {
        let now = js_sys::Date::now() as u64;
        match STORAGE.with(|s| storage::read(s, name, version, now, migrate)) {
            Read::Value(v) => (Some(v), None),
            Read::Missing => (None, None),
            Read::Recovered(notice) => {
                self.notify(notice.text.clone());
                (None, Some(notice.text))
            }
        }
    }

    /// Saves `data` as value `name` (schema `version`); a failure becomes a notice.
    pub fn save<T: Serialize>(&self, name: &str, version: u32, data: &T) {
        if let Err(notice) = STORAGE.with(|s| storage::write(s, name, version, data)) {
            self.notify(notice.text);
        }
    }

    /// Removes value `name` (its backups stay); a failure becomes a notice.
    pub fn clear(&self, name: &str) {
        if let Err(notice) = STORAGE.with(|s| storage::remove(s, name)) {
            self.notify(notice.text);
        }
    }
}

impl Default for Persist {
    fn default() -> Self {
        Self::new()
    }
}
