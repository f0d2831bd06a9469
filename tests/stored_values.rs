//! What readers have stored reads back, and is written again byte for byte: every value in
//! `tests/fixtures/stored-values.json` (captured in Chromium from the build before the course's
//! storage went through `gloo-storage`) goes through `logic::storage::read` into its own type
//! and back through `logic::storage::write`, over the memory backend, whose envelope calls
//! encode and decode with serde_json exactly as `gloo_storage::LocalStorage`'s `get` and `set`
//! do in the browser (`services::storage::browser`).
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test stops at the first thing that is wrong"
)]

use ie_course::app::theme::Theme;
use ie_course::figures::LESSON_EVAL_JSON;
use ie_course::logic::eval::editor::{EvalEditor, Stored};
use ie_course::logic::eval::parse_eval_json;
use ie_course::logic::storage::{self, Backend, MemoryBackend, Read};
use ie_course::logic::{progress, recall, workloads, worksheet};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeMap;

fn snapshots() -> Vec<BTreeMap<String, String>> {
    #[derive(serde::Deserialize)]
    struct Fixture {
        snapshots: Vec<BTreeMap<String, String>>,
    }
    let text = include_str!("fixtures/stored-values.json");
    serde_json::from_str::<Fixture>(text).unwrap().snapshots
}

/// A backend holding `stored` under value `name`'s key.
fn holding(name: &str, stored: &str) -> MemoryBackend {
    let backend = MemoryBackend::default();
    backend.set(&storage::key(name), stored).unwrap();
    backend
}

/// Reads `stored` (value `name`'s text) as a `T`, writes it back, and returns the text then
/// stored.
fn same<T: DeserializeOwned + Serialize>(name: &str, stored: &str) -> String {
    let backend = holding(name, stored);
    let Read::Value(value) = storage::read::<T>(&backend, name, 1, 0, |_, _| None) else {
        panic!("{name}: {stored} did not read back");
    };
    storage::write(&backend, name, 1, &value).unwrap();
    backend.get(&storage::key(name)).unwrap().unwrap()
}

#[test]
fn every_stored_value_writes_back_byte_for_byte() {
    let lesson = parse_eval_json(LESSON_EVAL_JSON).unwrap();
    let mut seen = BTreeMap::<String, usize>::new();
    for snapshot in snapshots() {
        for (key, stored) in &snapshot {
            let name = key.strip_prefix(storage::PREFIX).unwrap();
            let again = match name {
                "theme" => same::<Theme>(name, stored),
                "progress" => same::<progress::Progress>(name, stored),
                "recall" => same::<recall::Progress>(name, stored),
                "workload-sort" => same::<workloads::Sorting>(name, stored),
                "try-it" => same::<worksheet::Worksheet>(name, stored),
                // The mini eval stores its editor's compact form: open the editor on what was
                // stored, as the widget does, and store it again.
                "mini-eval" => {
                    let backend = holding(name, stored);
                    let Read::Value(value) =
                        storage::read::<Stored>(&backend, name, 1, 0, |_, _| None)
                    else {
                        panic!("mini-eval: {stored} did not read back");
                    };
                    let (editor, tolerance) = EvalEditor::open(lesson.clone(), Some(value));
                    storage::write(&backend, name, 1, &editor.stored(&tolerance)).unwrap();
                    backend.get(&storage::key(name)).unwrap().unwrap()
                }
                // The playground's inputs are the widget's own type (`widgets::distillation`,
                // private to it): here the envelope alone is read and written.
                "distillation" => same::<Box<serde_json::value::RawValue>>(name, stored),
                other => panic!("a stored value this test does not know: {other}"),
            };
            assert_eq!(&again, stored, "{name}");
            *seen.entry(name.to_string()).or_default() += 1;
        }
    }
    // Every kind the course stores was captured, in both snapshots.
    let kinds: Vec<&str> = seen.keys().map(String::as_str).collect();
    assert_eq!(
        kinds,
        [
            "distillation",
            "mini-eval",
            "progress",
            "recall",
            "theme",
            "try-it",
            "workload-sort"
        ]
    );
    assert!(seen.values().all(|&n| n == 2), "{seen:?}");
}

#[test]
fn an_envelope_is_written_with_its_version_first() {
    // The same framing as before gloo-storage: `{"v":…,"data":…}`, in that order, no spaces.
    let backend = MemoryBackend::default();
    storage::write(&backend, "theme", 1, &Theme::Dark).unwrap();
    assert_eq!(
        backend.get("ie-course:theme").unwrap().as_deref(),
        Some(r#"{"v":1,"data":"dark"}"#)
    );
}
