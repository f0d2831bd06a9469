//! The browser's `localStorage` as a storage [`Backend`], guarded: a browser that blocks storage
//! (privacy settings, sandboxed frames) gets the in-memory backend instead, and the learner is
//! told.
//!
//! `gloo-storage` hands out the storage, but only after a probe has shown it works: its
//! [`LocalStorage::raw`] throws when storage is blocked, and its `get`/`set` would JSON-encode
//! the values, whereas ours are stored as raw strings (versioned envelopes and backups) that must
//! read back byte for byte. So values go through the storage's own calls, which return errors.

use crate::logic::storage::{Backend, MemoryBackend};
use gloo_storage::{LocalStorage, Storage};

/// `localStorage`, or memory when the browser refuses it.
pub enum BrowserStorage {
    /// The real thing.
    Local(web_sys::Storage),
    /// Storage is unavailable; values live until the tab closes.
    Memory(MemoryBackend),
}

fn js_reason(e: wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.name()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the browser refused".into())
}

/// Whether the browser hands out a `localStorage` that can be written: every step that may
/// throw (no window, storage blocked, a storage that refuses every write) is a value here.
fn probe() -> Result<(), String> {
    let storage = web_sys::window()
        .ok_or_else(|| "no window".to_string())?
        .local_storage()
        .map_err(js_reason)?
        .ok_or_else(|| "no localStorage".to_string())?;
    // Some browsers hand out a storage object that throws on every write.
    let key = "ie-course:probe";
    storage.set_item(key, "1").map_err(js_reason)?;
    storage.remove_item(key).map_err(js_reason)?;
    Ok(())
}

impl BrowserStorage {
    /// Opens `localStorage` if the browser allows reading and writing it.
    pub fn open() -> Self {
        match probe() {
            // `LocalStorage::raw` throws (`expect_throw`) only when there is no window or the
            // window's `localStorage` getter throws or gives null. The probe has just had each
            // of these succeed, in this same task with nothing run in between, and the getter
            // then returns the object it made the first time (HTML: the document keeps its
            // "local storage holder"), so this call cannot throw.
            Ok(()) => BrowserStorage::Local(LocalStorage::raw()),
            Err(_) => BrowserStorage::Memory(MemoryBackend::default()),
        }
    }

    /// True when values only live in memory.
    pub fn is_memory(&self) -> bool {
        matches!(self, BrowserStorage::Memory(_))
    }
}

impl Backend for BrowserStorage {
    fn get(&self, key: &str) -> Result<Option<String>, String> {
        match self {
            BrowserStorage::Local(s) => s.get_item(key).map_err(js_reason),
            BrowserStorage::Memory(m) => m.get(key),
        }
    }
    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        match self {
            BrowserStorage::Local(s) => s.set_item(key, value).map_err(js_reason),
            BrowserStorage::Memory(m) => m.set(key, value),
        }
    }
    fn remove(&self, key: &str) -> Result<(), String> {
        match self {
            BrowserStorage::Local(s) => s.remove_item(key).map_err(js_reason),
            BrowserStorage::Memory(m) => m.remove(key),
        }
    }
}
