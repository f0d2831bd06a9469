//! Versioned, guarded storage: the schema every stored value follows, and what happens when a
//! read fails. Pure: the browser's `localStorage` is one [`Backend`] (see
//! `services::storage::browser`), an in-memory map is another (for tests, and when the browser
//! blocks storage).
//!
//! Rules:
//! - every key starts with [`PREFIX`];
//! - every value is an envelope `{"v": <schema version>, "data": …}`;
//! - a value that cannot be read, or has a version this build does not know, is copied to
//!   `ie-course:backup:<name>:<unix-ms>` before anything replaces it, and the caller gets a
//!   [`Notice`] to show; nothing the learner stored is silently dropped;
//! - a failed write (quota) gives a notice too.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Every key this app writes starts with this.
pub const PREFIX: &str = "ie-course:";

/// Where values are kept: `localStorage`, or memory.
///
/// Values are read and written as whole envelopes ([`get_envelope`](Self::get_envelope),
/// [`set_envelope`](Self::set_envelope)); the raw text of a key is for copying a value that
/// cannot be read to a backup, byte for byte.
pub trait Backend {
    /// The raw text at `key`, `Ok(None)` if absent, `Err` if the store refused to answer.
    fn get(&self, key: &str) -> Result<Option<String>, String>;
    /// Stores the text `value` at `key`; `Err` with the browser's reason (e.g. quota) on failure.
    fn set(&self, key: &str, value: &str) -> Result<(), String>;
    /// Removes `key` (nothing happens if it is absent); `Err` with the browser's reason.
    fn remove(&self, key: &str) -> Result<(), String>;

    /// The envelope stored at `key`, read as JSON; `Ok(None)` if absent. By default over
    /// [`get`](Self::get), as `gloo-storage`'s `get` is over `getItem`.
    fn get_envelope(&self, key: &str) -> Result<Option<EnvelopeIn>, Fault> {
        match self.get(key) {
            Ok(None) => Ok(None),
            Ok(Some(text)) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| Fault::Json(e.to_string())),
            Err(reason) => Err(Fault::Refused(reason)),
        }
    }

    /// Stores `envelope` at `key` as JSON, in one write. By default over [`set`](Self::set), as
    /// `gloo-storage`'s `set` is over `setItem`.
    fn set_envelope<T: Serialize>(
        &self,
        key: &str,
        envelope: &EnvelopeOut<'_, T>,
    ) -> Result<(), Fault>
    where
        Self: Sized,
    {
        let json = serde_json::to_string(envelope).map_err(|e| Fault::Json(e.to_string()))?;
        self.set(key, &json).map_err(Fault::Refused)
    }
}

/// Why a backend could not read or write an envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The text is not an envelope's JSON, or the value does not encode: serde's message.
    Json(String),
    /// The store refused (blocked, quota): the browser's reason, such as `QuotaExceededError`.
    Refused(String),
}

/// A backend in memory: used by tests, and by the app when the browser blocks storage.
#[derive(Debug, Default)]
pub struct MemoryBackend {
    values: RefCell<BTreeMap<String, String>>,
    /// When set, every write fails with this reason (to test quota handling).
    pub fail_writes: RefCell<Option<String>>,
}

impl Backend for MemoryBackend {
    fn get(&self, key: &str) -> Result<Option<String>, String> {
        Ok(self.values.borrow().get(key).cloned())
    }
    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        if let Some(reason) = self.fail_writes.borrow().clone() {
            return Err(reason);
        }
        self.values
            .borrow_mut()
            .insert(key.to_string(), value.to_string());
        Ok(())
    }
    fn remove(&self, key: &str) -> Result<(), String> {
        self.values.borrow_mut().remove(key);
        Ok(())
    }
}

#[cfg(test)]
impl MemoryBackend {
    /// Every key stored, for tests to see what was kept.
    fn keys(&self) -> Vec<String> {
        self.values.borrow().keys().cloned().collect()
    }
}

/// Something the learner should know about their stored data, shown as a visible notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// What happened and what the app did, in plain words.
    pub text: String,
}

/// A value as it is written: `{"v": <schema version>, "data": …}`.
#[derive(Serialize)]
pub struct EnvelopeOut<'a, T> {
    v: u32,
    data: &'a T,
}

/// A value as it is read. The data stays JSON text until the version is known: it is then read
/// straight into the caller's type (or handed to its migration), so no module carries
/// serde_json's `Value` reader for it. (Its name is in serde's messages, which the reader sees
/// in a notice: it stays `EnvelopeIn`.)
#[derive(Deserialize)]
pub struct EnvelopeIn {
    v: u32,
    data: Box<serde_json::value::RawValue>,
}

/// The full key for a stored value named `name` (e.g. `theme` → `ie-course:theme`).
pub fn key(name: &str) -> String {
    format!("{PREFIX}{name}")
}

/// The key a value that could not be read is copied to before it is replaced.
pub fn backup_key(name: &str, now_ms: u64) -> String {
    format!("{PREFIX}backup:{name}:{now_ms}")
}

/// The result of reading a stored value.
#[derive(Debug, PartialEq)]
pub enum Read<T> {
    /// Nothing stored yet.
    Missing,
    /// The value, read (and migrated if it was older).
    Value(T),
    /// The stored value could not be used; it was backed up, and the notice says so.
    Recovered(Notice),
}

/// Reads value `name` of schema `version`.
///
/// `migrate` turns the data of an older version, as JSON text, into the current type (return
/// `None` if it cannot); for values that never changed shape, pass `|_, _| None`. A value that is not an
/// envelope, whose data does not fit, or whose version is newer than `version` or cannot be
/// migrated, is copied to a backup key stamped `now_ms` and reported.
pub fn read<T: DeserializeOwned>(
    backend: &impl Backend,
    name: &str,
    version: u32,
    now_ms: u64,
    migrate: impl Fn(u32, &str) -> Option<T>,
) -> Read<T> {
    let key = key(name);
    let problem = match backend.get_envelope(&key) {
        Ok(None) => return Read::Missing,
        Err(Fault::Refused(reason)) => {
            return Read::Recovered(Notice {
                text: format!("Your saved {name} could not be read ({reason}); starting afresh."),
            })
        }
        Err(Fault::Json(e)) => format!("it is not in a format this version understands ({e})"),
        Ok(Some(env)) if env.v == version => match serde_json::from_str::<T>(env.data.get()) {
            Ok(value) => return Read::Value(value),
            Err(e) => format!("its contents do not fit ({e})"),
        },
        Ok(Some(env)) if env.v < version => match migrate(env.v, env.data.get()) {
            Some(value) => return Read::Value(value),
            None => format!(
                "it was saved by an older version (schema {}) that cannot be upgraded",
                env.v
            ),
        },
        Ok(Some(env)) => format!(
            "it was saved by a newer version of the course (schema {})",
            env.v
        ),
    };
    Read::Recovered(Notice {
        text: format!(
            "Your saved {name} could not be used: {problem}. {} This part starts from its defaults.",
            back_up(backend, name, &key, now_ms)
        ),
    })
}

/// Copies the text at `key` (value `name`'s, which cannot be used) to its backup key, byte for
/// byte, and says where it went, or why it could not.
fn back_up(backend: &impl Backend, name: &str, key: &str, now_ms: u64) -> String {
    let backup = backup_key(name, now_ms);
    let copied = backend
        .get(key)
        .and_then(|raw| raw.ok_or_else(|| "it is no longer stored".to_string()))
        .and_then(|raw| backend.set(&backup, &raw));
    match copied {
        Ok(()) => format!("A copy is kept under \u{201c}{backup}\u{201d}."),
        Err(e) => format!("A copy could not be kept ({e}); the original is left in place."),
    }
}

/// Writes `data` as value `name` of schema `version`, whole, in one `set`.
pub fn write<T: Serialize>(
    backend: &impl Backend,
    name: &str,
    version: u32,
    data: &T,
) -> Result<(), Notice> {
    let envelope = EnvelopeOut { v: version, data };
    backend
        .set_envelope(&key(name), &envelope)
        .map_err(|fault| match fault {
            Fault::Json(e) => Notice {
                text: format!("Your {name} could not be saved: {e}."),
            },
            Fault::Refused(reason) => Notice {
                text: format!(
                    "Your {name} could not be saved ({reason}). It is kept in this tab until you \
                     close it; free some browser storage to save it."
                ),
            },
        })
}

/// Removes value `name`, so that the next read finds nothing stored (backups are kept).
pub fn remove(backend: &impl Backend, name: &str) -> Result<(), Notice> {
    backend.remove(&key(name)).map_err(|reason| Notice {
        text: format!("Your saved {name} could not be cleared ({reason})."),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_migration(_: u32, _: &str) -> Option<String> {
        None
    }

    #[test]
    fn round_trips_a_value_in_an_envelope() {
        let b = MemoryBackend::default();
        assert_eq!(
            read::<String>(&b, "theme", 1, 0, no_migration),
            Read::Missing
        );
        write(&b, "theme", 1, &"dark".to_string()).unwrap();
        assert_eq!(
            b.get("ie-course:theme").unwrap().unwrap(),
            r#"{"v":1,"data":"dark"}"#
        );
        assert_eq!(
            read::<String>(&b, "theme", 1, 0, no_migration),
            Read::Value("dark".into())
        );
    }

    #[test]
    fn corrupt_values_are_backed_up_and_reported() {
        for raw in [
            "{not json",
            r#"{"v":1,"data":42}"#,
            r#"{"v":9,"data":"dark"}"#,
            r#""dark""#,
        ] {
            let b = MemoryBackend::default();
            b.set("ie-course:theme", raw).unwrap();
            let Read::Recovered(notice) = read::<String>(&b, "theme", 1, 1234, no_migration) else {
                panic!("{raw} should not load");
            };
            assert!(
                notice.text.contains("ie-course:backup:theme:1234"),
                "{}",
                notice.text
            );
            assert_eq!(
                b.get("ie-course:backup:theme:1234").unwrap().as_deref(),
                Some(raw)
            );
            // The original stays until the app writes a new value.
            assert_eq!(b.get("ie-course:theme").unwrap().as_deref(), Some(raw));
        }
    }

    #[test]
    fn older_versions_migrate_or_are_backed_up() {
        let b = MemoryBackend::default();
        b.set("ie-course:count", r#"{"v":1,"data":"7"}"#).unwrap();
        let migrate = |v: u32, data: &str| -> Option<u32> {
            let text: String = serde_json::from_str(data).ok()?;
            (v == 1).then(|| text.parse().ok()).flatten()
        };
        assert_eq!(read(&b, "count", 2, 0, migrate), Read::Value(7));
        b.set("ie-course:count", r#"{"v":1,"data":"seven"}"#)
            .unwrap();
        assert!(matches!(
            read(&b, "count", 2, 5, migrate),
            Read::Recovered(_)
        ));
        assert!(b.keys().contains(&"ie-course:backup:count:5".to_string()));
    }

    #[test]
    fn removing_a_value_leaves_its_backups() {
        let b = MemoryBackend::default();
        b.set("ie-course:theme", "{broken").unwrap();
        let _ = read::<String>(&b, "theme", 1, 7, no_migration);
        remove(&b, "theme").unwrap();
        assert_eq!(
            read::<String>(&b, "theme", 1, 8, no_migration),
            Read::Missing
        );
        assert_eq!(b.keys(), ["ie-course:backup:theme:7"]);
        remove(&b, "theme").unwrap();
    }

    proptest::proptest! {
        /// Whatever text sits under a key, and whichever version and type reads it, the read
        /// gives a value, or backs the text up whole and says so; it never panics.
        #[test]
        fn any_stored_text_reads_or_is_backed_up(
            raw in crate::logic::fuzz::any_text(),
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..120),
            version in 0u32..4,
            now in proptest::prelude::any::<u64>(),
        ) {
            let inner = String::from_utf8_lossy(&bytes).into_owned();
            for raw in [
                raw.clone(),
                inner.clone(),
                format!(r#"{{"v":{version},"data":{raw:?}}}"#),
                format!(r#"{{"v":{version},"data":{inner}}}"#),
            ] {
                let b = MemoryBackend::default();
                b.set("ie-course:x", &raw).map_err(proptest::test_runner::TestCaseError::fail)?;
                let migrate = |v: u32, data: &str| (v == 1).then(|| data.to_string());
                match read::<String>(&b, "x", 2, now, migrate) {
                    Read::Value(_) => {}
                    Read::Recovered(notice) => {
                        let backup = backup_key("x", now);
                        proptest::prop_assert!(notice.text.contains(&backup));
                        proptest::prop_assert_eq!(b.get(&backup).ok().flatten(), Some(raw.clone()));
                        proptest::prop_assert_eq!(b.get("ie-course:x").ok().flatten(), Some(raw.clone()));
                    }
                    Read::Missing => proptest::prop_assert!(false, "a stored value was missed"),
                }
                let _ = read::<crate::logic::progress::Progress>(&b, "x", 1, now, |_, _| None);
                let _ = read::<crate::logic::workloads::Sorting>(&b, "x", 1, now, |_, _| None);
                let _ = read::<Vec<f64>>(&b, "x", 1, now, |_, _| None);
            }
        }

        /// Any text written reads back unchanged.
        #[test]
        fn what_is_written_reads_back(text in crate::logic::fuzz::any_text(), version in 1u32..5) {
            let b = MemoryBackend::default();
            write(&b, "theme", version, &text).map_err(|n| proptest::test_runner::TestCaseError::fail(n.text))?;
            proptest::prop_assert_eq!(read::<String>(&b, "theme", version, 0, no_migration), Read::Value(text));
        }
    }

    #[test]
    fn failed_writes_give_a_notice() {
        let b = MemoryBackend::default();
        *b.fail_writes.borrow_mut() = Some("QuotaExceededError".into());
        let notice = write(&b, "theme", 1, &"dark").unwrap_err();
        assert!(
            notice.text.contains("QuotaExceededError"),
            "{}",
            notice.text
        );
    }
}
