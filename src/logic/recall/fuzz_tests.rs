//! Property tests for everything recall reads from outside: typed retention, the deck file,
//! export files and stored progress of every version. None may panic, whatever the text, and
//! what the course exports or stores reads back unchanged.

use super::*;
use crate::logic::fuzz::any_text;
use crate::logic::storage::{self, Backend, MemoryBackend, Read};
use proptest::prelude::*;

/// 2022-11-29 12:30:00 UTC.
const T0: i64 = 1_669_725_000_000;
/// The last millisecond chrono can name (the end of year 262,142), less a day.
const LATE: i64 = 8_210_266_876_799_999 - DAY;

fn clock(now: i64) -> Clock {
    Clock {
        now,
        utc_offset_min: 0,
    }
}

/// A time anywhere an export could put it: usual times, 0, the far past and future, and the
/// edges of `i64` and of the calendar.
fn any_time() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => (0i64..400 * DAY).prop_map(|d| T0 + d),
        1 => any::<i64>(),
        1 => proptest::sample::select(vec![0, -1, i64::MIN, i64::MAX, LATE, LATE + DAY, -LATE]),
    ]
}

/// A review as an export file could hold it: any card id, time, grade and retention.
fn any_review_json() -> impl Strategy<Value = serde_json::Value> {
    (
        prop_oneof![
            "[a-z]{1,3}",
            proptest::sample::select(deck().iter().map(|c| c.id.clone()).collect::<Vec<_>>())
        ],
        any_time(),
        0u8..6,
        prop_oneof![
            any::<f64>().prop_filter("JSON holds finite numbers", |r| r.is_finite()),
            0.7f64..0.99
        ],
        proptest::sample::select(vec!["new", "learning", "review", "relearning"]),
    )
        .prop_map(|(card, at, grade, retention, phase)| {
            serde_json::json!({
                "card": card, "at": at, "grade": grade, "retention": retention, "phase": phase,
            })
        })
}

/// Progress made the way the widget makes it: reviews of deck cards at increasing times.
fn valid_progress() -> impl Strategy<Value = Progress> {
    (
        proptest::collection::vec((0usize..40, 1i64..3 * DAY, 1u8..=4), 0..30),
        0.7f64..=0.99,
    )
        .prop_map(|(reviews, retention)| {
            let mut p = Progress::default();
            p.set_retention(retention, T0);
            let mut now = T0;
            let ids: Vec<&str> = deck().iter().map(|c| c.id.as_str()).collect();
            for (card, step, grade) in reviews {
                now += step;
                let id = ids.get(card % ids.len().max(1)).copied().unwrap_or("x");
                if let Ok(g) = Grade::try_from(grade) {
                    p.grade(id, g, now);
                }
            }
            p
        })
}

/// Everything a session shows, read once: none of it may panic, and every counter and
/// sentence reads.
fn exercise(p: Progress, now: i64) -> Result<(), TestCaseError> {
    use crate::logic::fuzz::{unreadable, unreadable_figure};
    let mut s = Session::start(deck(), Some(p), None, clock(now));
    let stats = s.stats();
    for figure in [
        stats.due_text(),
        stats.streak_text(),
        stats.forecast_text(),
        s.retention_percent(),
    ] {
        prop_assert!(
            unreadable_figure(&figure).is_none(),
            "{:?}",
            unreadable_figure(&figure)
        );
    }
    for line in [
        stats.retention_text(),
        stats.retention_note(),
        stats.removed_note().unwrap_or_default(),
        s.reset_question(),
    ] {
        prop_assert!(unreadable(&line).is_none(), "{:?}", unreadable(&line));
    }
    let _ = (s.previews(), s.next_due_in());
    if s.reveal() {
        s.grade(Grade::Good, || None, clock(now));
        prop_assert!(
            unreadable(s.announcement()).is_none(),
            "{}",
            s.announcement()
        );
    }
    let _ = s.progress().export_json();
    Ok(())
}

proptest! {
    #[test]
    fn typed_retention_never_panics_and_stays_in_range(text in any_text()) {
        if let Ok(r) = parse_retention(&text) {
            prop_assert!((RETENTION_RANGE.0 - 1e-9..=RETENTION_RANGE.1 + 1e-9).contains(&r));
        }
        let _ = Grade::from_key(&text);
    }

    #[test]
    fn every_interval_reads(ms in any::<i64>()) {
        let shown = interval_label(ms);
        prop_assert!(crate::logic::fuzz::unreadable(&shown).is_none(), "{:?}", crate::logic::fuzz::unreadable(&shown));
    }

    #[test]
    fn any_deck_file_is_read_or_refused(text in any_text()) {
        if let Ok(cards) = parse_deck(&text) {
            prop_assert!(cards.iter().all(|c| !c.id.is_empty()));
        }
    }

    #[test]
    fn any_text_imports_or_is_refused_with_a_message(text in any_text()) {
        match Progress::import_json(&text) {
            Ok(p) => exercise(p, T0)?,
            Err(e) => prop_assert!(!e.is_empty()),
        }
        let mut s = Session::start(deck(), None, None, clock(T0));
        if let Err(e) = s.import(&text, || None, clock(T0)) {
            prop_assert!(!e.is_empty());
            prop_assert_eq!(s.progress(), &Progress::default());
        }
    }

    #[test]
    fn any_export_shaped_file_imports_or_is_refused(
        v in 0u32..3,
        kind in proptest::option::of(prop_oneof![Just(EXPORT_KIND.to_string()), "[a-z-]{0,12}"]),
        retention in prop_oneof![any::<f64>().prop_filter("finite", |r| r.is_finite()), 0.7f64..0.99],
        reset_at in any_time(),
        log in proptest::collection::vec(any_review_json(), 0..12),
        now in 0..LATEST_TIME,
    ) {
        let mut file = serde_json::json!({
            "v": v,
            "data": { "retention": retention, "reset_at": reset_at, "log": log },
        });
        if let (Some(kind), Some(o)) = (kind, file.as_object_mut()) {
            o.insert("kind".into(), kind.into());
        }
        let text = file.to_string();
        match Progress::import_json(&text) {
            Ok(p) => {
                prop_assert!((RETENTION_RANGE.0..=RETENTION_RANGE.1).contains(&p.retention));
                exercise(p.clone(), T0)?;
                exercise(p, now)?;
            }
            Err(e) => prop_assert!(!e.is_empty()),
        }
        // The same data stored in this tab's storage: read, or backed up, never a panic.
        let backend = MemoryBackend::default();
        backend.set(&storage::key(STORE_NAME), &text).map_err(TestCaseError::fail)?;
        match storage::read::<Progress>(&backend, STORE_NAME, SCHEMA, 1, |_, _| None) {
            Read::Value(p) => exercise(p, now)?,
            Read::Recovered(notice) => prop_assert!(notice.text.contains("backup")),
            Read::Missing => prop_assert!(false, "a stored value was missed"),
        }
    }

    #[test]
    fn any_stored_bytes_read_or_are_backed_up(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let raw = String::from_utf8_lossy(&bytes);
        let backend = MemoryBackend::default();
        backend.set(&storage::key(STORE_NAME), &raw).map_err(TestCaseError::fail)?;
        match storage::read::<Progress>(&backend, STORE_NAME, SCHEMA, 1, |_, _| None) {
            Read::Value(p) => exercise(p, T0)?,
            Read::Recovered(notice) => {
                prop_assert!(notice.text.contains("backup"));
                let kept = backend.get(&storage::backup_key(STORE_NAME, 1)).map_err(TestCaseError::fail)?;
                prop_assert_eq!(kept.as_deref(), Some(&*raw));
            }
            Read::Missing => prop_assert!(false, "a stored value was missed"),
        }
    }

    #[test]
    fn exports_and_stored_values_read_back_unchanged(p in valid_progress()) {
        // The log is the record; the card states follow from it (replaying it may differ from
        // grading one by one in the last bit of a stability, which no one sees).
        let settled = p.clone().normalized();
        prop_assert_eq!(&settled.log, &p.log);
        prop_assert_eq!(&settled.clone().normalized(), &settled);
        let back = Progress::import_json(&p.export_json()).map_err(TestCaseError::fail)?;
        prop_assert_eq!(&back, &settled);
        let back = Progress::import_json(&settled.export_json()).map_err(TestCaseError::fail)?;
        prop_assert_eq!(&back, &settled);
        let backend = MemoryBackend::default();
        storage::write(&backend, STORE_NAME, SCHEMA, &p).map_err(|n| TestCaseError::fail(n.text))?;
        match storage::read::<Progress>(&backend, STORE_NAME, SCHEMA, 1, |_, _| None) {
            Read::Value(stored) => {
                // The JSON reader may round a stored stability in its last bit; the log, which
                // the states are replayed from on loading, comes back exactly.
                prop_assert_eq!(&stored.log, &p.log);
                prop_assert_eq!((stored.retention, stored.retention_set_at, stored.reset_at), (p.retention, p.retention_set_at, p.reset_at));
                let session = Session::start(deck(), Some(stored), None, clock(T0));
                prop_assert_eq!(session.progress(), &settled);
            }
            other => prop_assert!(false, "{:?}", other),
        }
    }
}

/// A review dated past what the calendar holds used to abort the page when replayed; it is
/// now refused on import and backed up when stored.
#[test]
fn a_review_past_the_calendar_is_refused_not_a_crash() {
    for at in [LATEST_TIME + 1, 8_210_266_876_799_999, i64::MAX, -1] {
        let raw = format!(
            r#"{{"v":1,"data":{{"retention":0.9,"log":[{{"card":"a","at":{at},"grade":1,"retention":0.9,"phase":"new"}}]}}}}"#
        );
        let e = Progress::import_json(&raw).unwrap_err();
        assert!(e.contains("from 1970 to 9999"), "{e}");
        let backend = MemoryBackend::default();
        backend.set(&storage::key(STORE_NAME), &raw).unwrap();
        assert!(matches!(
            storage::read::<Progress>(&backend, STORE_NAME, SCHEMA, 1, |_, _| None),
            Read::Recovered(_)
        ));
    }
    // Two grades in one millisecond at the end of time: the second is a millisecond later,
    // without overflowing.
    let mut p = Progress::default();
    p.grade("a", Grade::Again, i64::MAX);
    p.grade("a", Grade::Again, i64::MAX);
    assert_eq!(p.log.len(), 2);
}

/// Stored progress as each earlier build wrote it still loads, with its reviews.
#[test]
fn every_stored_shape_of_schema_1_still_loads() {
    for raw in [
        // The first build: retention and the log only.
        r#"{"v":1,"data":{"retention":0.9,"log":[{"card":"a","at":1669725000000,"grade":3,"retention":0.9,"phase":"new"}]}}"#,
        // With the card states it led to, and the reset and retention times.
        r#"{"v":1,"data":{"retention":0.85,"retention_set_at":1669725000000,"reset_at":0,"cards":{"a":{"due":1669725600000,"stability":2.3,"difficulty":5.0,"elapsed_days":0,"scheduled_days":0,"reps":1,"lapses":0,"phase":"learning","last_review":1669725000000}},"log":[{"card":"a","at":1669725000000,"grade":3,"retention":0.85,"phase":"new"}]}}"#,
    ] {
        let backend = MemoryBackend::default();
        backend.set(&storage::key(STORE_NAME), raw).unwrap();
        let Read::Value(p) =
            storage::read::<Progress>(&backend, STORE_NAME, SCHEMA, 1, |_, _| None)
        else {
            panic!("{raw} must load");
        };
        let p = p.normalized();
        assert_eq!(p.log.len(), 1, "{raw}");
        assert!(p.state("a").is_some(), "{raw}");
        // An export of the same data reads the same.
        assert_eq!(Progress::import_json(raw).unwrap(), p);
    }
}
