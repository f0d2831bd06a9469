//! The browser's `localStorage` as a storage [`Backend`], guarded: a browser that blocks storage
//! (privacy settings, sandboxed frames) gets the in-memory backend instead, and the learner is
//! told.
//!
//! A probe first checks that the page's `localStorage` can be written, and hands over the object
//! it found. The course's versioned envelopes are then read and written by `gloo-storage`
//! (`LocalStorage::get` and `set` of the envelope types, which encode them with serde_json as
//! `logic::storage` always has: the stored bytes are the same). The object the probe handed over
//! is used as it is only to copy a value that cannot be read to a backup, byte for byte, and to
//! remove a value, where `gloo-storage` would throw instead of reporting the browser's refusal.

use crate::logic::storage::{Backend, EnvelopeIn, EnvelopeOut, Fault, MemoryBackend};
use gloo_storage::errors::StorageError;
use gloo_storage::{LocalStorage, Storage};
use serde::Serialize;

/// `localStorage`, or memory when the browser refuses it.
pub enum BrowserStorage {
    /// The real thing: the object the probe wrote to.
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

/// A `gloo-storage` error as a [`Fault`]: the browser's reason is the error's name (such as
/// `QuotaExceededError`), as the notices have always said.
fn fault(e: StorageError) -> Fault {
    match e {
        StorageError::SerdeError(e) => Fault::Json(e.to_string()),
        StorageError::JsError(e) => Fault::Refused(e.name),
        StorageError::KeyNotFound(key) => Fault::Refused(format!("{key} is not stored")),
    }
}

/// The page's `localStorage`, once shown to work: every step that may throw (no window, storage
/// blocked, a storage that refuses every write) is a value here.
fn probe() -> Result<web_sys::Storage, String> {
    let storage = web_sys::window()
        .ok_or_else(|| "no window".to_string())?
        .local_storage()
        .map_err(js_reason)?
        .ok_or_else(|| "no localStorage".to_string())?;
    // Some browsers hand out a storage object that throws on every write.
    let key = "ie-course:probe";
    storage.set_item(key, "1").map_err(js_reason)?;
    storage.remove_item(key).map_err(js_reason)?;
    Ok(storage)
}

impl BrowserStorage {
    /// Opens `localStorage` if the browser allows reading and writing it.
    pub fn open() -> Self {
        match probe() {
            Ok(storage) => BrowserStorage::Local(storage),
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

    // `gloo-storage` reaches `localStorage` by the window's getter, which the probe has shown
    // to work and which returns the object the probe has (HTML: the document keeps one "local
    // storage holder"); a storage error is a value, but for `getItem`, which never throws there.
    fn get_envelope(&self, key: &str) -> Result<Option<EnvelopeIn>, Fault> {
        match self {
            BrowserStorage::Local(_) => match LocalStorage::get::<EnvelopeIn>(key) {
                Ok(envelope) => Ok(Some(envelope)),
                Err(StorageError::KeyNotFound(_)) => Ok(None),
                Err(e) => Err(fault(e)),
            },
            BrowserStorage::Memory(m) => m.get_envelope(key),
        }
    }
    fn set_envelope<T: Serialize>(
        &self,
        key: &str,
        envelope: &EnvelopeOut<'_, T>,
    ) -> Result<(), Fault> {
        match self {
            BrowserStorage::Local(_) => LocalStorage::set(key, envelope).map_err(fault),
            BrowserStorage::Memory(m) => m.set_envelope(key, envelope),
        }
    }
}
