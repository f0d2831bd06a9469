//! The browser's `localStorage` as a storage [`Backend`], guarded: a browser that blocks storage
//! (privacy settings, sandboxed frames) gets the in-memory backend instead, and the learner is
//! told. `gloo-storage` is not used because it panics (`expect_throw`) when storage is blocked.

use crate::logic::storage::{Backend, MemoryBackend};

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

impl BrowserStorage {
    /// Opens `localStorage` if the browser allows reading and writing it.
    pub fn open() -> Self {
        let storage = web_sys::window()
            .ok_or_else(|| "no window".to_string())
            .and_then(|w| w.local_storage().map_err(js_reason))
            .and_then(|s| s.ok_or_else(|| "no localStorage".to_string()))
            .and_then(|s| {
                // Some browsers hand out a storage object that throws on every write.
                let probe = "ie-course:probe";
                s.set_item(probe, "1").map_err(js_reason)?;
                s.remove_item(probe).map_err(js_reason)?;
                Ok(s)
            });
        match storage {
            Ok(s) => BrowserStorage::Local(s),
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
