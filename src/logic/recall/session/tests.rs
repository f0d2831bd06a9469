//! A review session driven as the widget drives it, with a clock the tests move.

use super::super::{Phase, DAY, SCHEMA, STORE_NAME};
use super::*;
use crate::logic::storage::{self, Backend, MemoryBackend, Read};

/// 2022-11-29 12:30:00 UTC.
const T0: i64 = 1_669_725_000_000;
const MINUTE: i64 = 60_000;

fn card(id: &str, lesson: &str) -> CardDef {
    CardDef {
        id: id.into(),
        lesson: lesson.into(),
        question: format!("{id}?"),
        answer: format!("{id}."),
    }
}

/// Cards a and b from lesson l1, c from l2.
fn deck() -> Vec<CardDef> {
    vec![card("a", "l1"), card("b", "l1"), card("c", "l2")]
}

fn at(ms: i64) -> Clock {
    Clock::utc(ms)
}

fn ids(cards: &[&CardDef]) -> Vec<String> {
    cards.iter().map(|c| c.id.clone()).collect()
}

fn on_screen(s: &Session) -> Option<String> {
    s.current().map(|c| c.id.clone())
}

/// Reveals and grades the card on screen, with nothing new stored.
fn review(s: &mut Session, g: Grade, now: i64) -> String {
    let id = on_screen(s).unwrap();
    assert!(s.reveal());
    assert!(s.grade(g, || None, at(now)));
    id
}

#[test]
fn a_session_starts_with_the_scope_s_queue_at_its_clock() {
    let deck = deck();
    let all = Session::start(&deck, None, None, at(T0));
    assert_eq!(ids(&all.queue()), ["a", "b", "c"]);
    assert_eq!(on_screen(&all).as_deref(), Some("a"));
    assert!(!all.is_revealed() && !all.is_done() && !all.current_is_early());
    assert_eq!(all.lesson(), None);
    let s = all.stats();
    assert_eq!((s.due_now, s.new, s.learning, s.review), (3, 3, 0, 0));
    assert_eq!(s.due_text(), "3 cards");

    let l2 = Session::start(&deck, None, Some("l2"), at(T0));
    assert_eq!(ids(&l2.queue()), ["c"]);
    assert_eq!(l2.lesson(), Some("l2"));
    assert_eq!(l2.stats().due_text(), "1 card");
    // "" is the select's "All lessons".
    assert_eq!(Session::start(&deck, None, Some(""), at(T0)).lesson(), None);

    // From stored progress: a reviewed card is not due yet, so the queue starts after it.
    let mut p = Progress::default();
    p.grade("a", Grade::Good, T0 - MINUTE);
    let s = Session::start(&deck, Some(p), None, at(T0));
    assert_eq!(ids(&s.queue()), ["b", "c"]);
    assert_eq!(s.stats().learning, 1);
}

#[test]
fn a_session_on_one_lesson_s_cards_keeps_every_other_card_s_reviews() {
    // A lesson's widgets module carries that lesson's cards only: what is stored for the
    // others must come through its grades and saves untouched.
    let whole = deck();
    let mut stored = Progress::default();
    stored.grade("a", Grade::Good, T0 - 2 * MINUTE);
    stored.grade("gone", Grade::Easy, T0 - MINUTE);
    let l2_only = [card("c", "l2")];
    let mut s = Session::start(&l2_only, Some(stored.clone()), Some("l2"), at(T0));
    assert_eq!(ids(&s.queue()), ["c"]);
    assert_eq!(review(&mut s, Grade::Hard, T0), "c");
    let mut also = stored.clone();
    also.grade("b", Grade::Again, T0 + 1);
    assert!(s.merge_stored(also, at(T0 + 2)));
    let cards: Vec<&str> = s.progress().log.iter().map(|r| r.card.as_str()).collect();
    assert_eq!(cards, ["a", "gone", "c", "b"]);
    // The whole deck then sees the lesson's review and the others' alike.
    let all = Session::start(&whole, Some(s.progress().clone()), None, at(T0 + 3));
    assert!(!ids(&all.queue()).contains(&"a".to_string()));
}

#[test]
fn reveal_then_grade_records_the_review_and_moves_on() {
    let deck = deck();
    let mut s = Session::start(&deck, None, None, at(T0));
    // No grade before the answer shows.
    assert!(!s.grade(
        Grade::Good,
        || panic!("storage is read only for a grade"),
        at(T0)
    ));
    assert!(s.progress().log.is_empty());
    assert!(s.reveal());
    assert!(s.is_revealed());
    let labels = s.previews().unwrap().map(|(_, ms)| interval_label(ms));
    assert_eq!(labels[..3], ["1 min", "5 min", "10 min"]);
    assert!(s.grade(Grade::Good, || None, at(T0 + 1000)));
    assert!(!s.is_revealed());
    assert_eq!(s.progress().log.len(), 1);
    let r = &s.progress().log[0];
    assert_eq!(
        (r.card.as_str(), r.grade, r.at),
        ("a", Grade::Good, T0 + 1000)
    );
    assert_eq!(on_screen(&s).as_deref(), Some("b"));
    assert_eq!(s.announcement(), "Good: back in 10 min. 2 due now.");
    // Revealing the next card clears what the last grade said.
    assert!(s.reveal());
    assert_eq!(s.announcement(), "");
    assert!(s.grade(Grade::Again, || None, at(T0 + 2000)));
    assert_eq!(s.announcement(), "Again: back in 1 min. 1 due now.");
    let st = s.stats();
    assert_eq!((st.due_now, st.new, st.learning), (1, 1, 2));
}

#[test]
fn the_card_on_screen_stays_while_the_clock_ticks() {
    let deck = deck();
    let mut s = Session::start(&deck, None, None, at(T0));
    review(&mut s, Grade::Again, T0); // a: back in 1 min
    assert_eq!(on_screen(&s).as_deref(), Some("b"));
    s.tick(at(T0 + 90_000));
    // a is due again and heads the queue, but b stays on screen until it is graded.
    assert_eq!(ids(&s.queue()), ["a", "b", "c"]);
    assert_eq!(on_screen(&s).as_deref(), Some("b"));
    assert_eq!(s.stats().due_now, 3);
    review(&mut s, Grade::Good, T0 + 91_000);
    assert_eq!(on_screen(&s).as_deref(), Some("a"));
}

#[test]
fn another_tab_s_reviews_merge_in_while_an_answer_shows() {
    let deck = deck();
    let mut b = Session::start(&deck, None, None, at(T0));
    let mut a = b.clone();
    assert!(b.reveal()); // tab B shows card a's answer
                         // Meanwhile tab A reviews a and b, and saves.
    review(&mut a, Grade::Good, T0 + 1000);
    review(&mut a, Grade::Good, T0 + 2000);
    let stored = a.progress().clone();
    // B hears of it: card a is no longer due, yet its answer stays on screen.
    assert!(!b.merge_stored(stored.clone(), at(T0 + 3000)));
    assert_eq!(b.progress().log.len(), 2);
    assert!(b.is_revealed());
    assert_eq!(on_screen(&b).as_deref(), Some("a"));
    assert!(b.current_is_early());
    // B grades it: its write merges what is stored, so all three reviews are kept.
    assert!(b.grade(Grade::Hard, || Some(stored.clone()), at(T0 + 4000)));
    let grades: Vec<Grade> = b.progress().log.iter().map(|r| r.grade).collect();
    assert_eq!(grades, [Grade::Good, Grade::Good, Grade::Hard]);
    assert_eq!(on_screen(&b).as_deref(), Some("c"));
    // A hears of B's write with B's review; what A had stored lacks nothing of A's.
    assert!(!a.merge_stored(b.progress().clone(), at(T0 + 5000)));
    assert_eq!(a.progress(), b.progress());
    // Had B's write missed A's reviews, A says to write the union back.
    let mut late = Progress::default();
    late.grade("c", Grade::Easy, T0 + 6000);
    assert!(a.merge_stored(late, at(T0 + 7000)));
    assert_eq!(a.progress().log.len(), 4);
    assert_eq!(a.stats().due_text(), "0 cards");
}

#[test]
fn a_card_another_tab_reviewed_leaves_the_screen_if_its_answer_is_hidden() {
    let deck = deck();
    let mut b = Session::start(&deck, None, None, at(T0));
    let mut a = b.clone();
    review(&mut a, Grade::Good, T0 + 1000);
    b.merge_stored(a.progress().clone(), at(T0 + 2000));
    assert_eq!(on_screen(&b).as_deref(), Some("b"));
    // And the new card on screen stays there when a comes due again.
    b.tick(at(T0 + 20 * MINUTE));
    assert_eq!(ids(&b.queue()), ["a", "b", "c"]);
    assert_eq!(on_screen(&b).as_deref(), Some("b"));
}

#[test]
fn grading_the_last_card_ends_the_queue_until_learning_ahead() {
    let deck = deck();
    let mut s = Session::start(&deck, None, Some("l2"), at(T0));
    assert_eq!(review(&mut s, Grade::Easy, T0), "c");
    assert!(s.is_done());
    assert_eq!(s.current(), None);
    assert!(
        !s.reveal()
            && !s.grade(
                Grade::Good,
                || panic!("storage is read only for a grade"),
                at(T0)
            )
    );
    assert!(s.previews().is_none());
    assert!(
        s.announcement().starts_with("Easy: back in ")
            && s.announcement().ends_with(" d. 0 due now.")
    );
    let next = s.next_due_in().unwrap();
    assert!(next > DAY, "{next}");
    let st = s.stats();
    assert_eq!((st.due_now, st.review), (0, 1));
    // Learn ahead: the card comes back before it is due, marked so.
    s.learn_ahead();
    assert_eq!(on_screen(&s).as_deref(), Some("c"));
    assert!(s.current_is_early());
    review(&mut s, Grade::Good, T0 + 1000);
    assert_eq!(s.progress().log.len(), 2);
    // Another lesson starts afresh, without learning ahead.
    s.set_lesson("l1");
    assert_eq!(ids(&s.queue()), ["a", "b"]);
    s.set_lesson("l2");
    assert!(s.is_done());
}

#[test]
fn an_empty_scope_has_no_card_and_nothing_to_come() {
    let deck = deck();
    let mut s = Session::start(&deck, None, Some("no-such-lesson"), at(T0));
    assert!(s.is_done() && s.queue().is_empty());
    assert!(!s.reveal() && !s.is_revealed());
    assert!(!s.grade(
        Grade::Good,
        || panic!("storage is read only for a grade"),
        at(T0)
    ));
    assert_eq!(s.next_due_in(), None);
    s.learn_ahead();
    assert!(s.is_done());
    assert_eq!(s.stats().due_text(), "0 cards");
    assert!(s.progress().log.is_empty());
    let empty: Vec<CardDef> = Vec::new();
    let mut s = Session::start(&empty, None, None, at(T0));
    assert!(s.is_done() && !s.reveal());
}

#[test]
fn changing_lesson_hides_the_answer_and_starts_at_the_head() {
    let deck = deck();
    let mut s = Session::start(&deck, None, None, at(T0));
    assert!(s.reveal());
    s.set_lesson("l2");
    assert!(!s.is_revealed());
    assert_eq!(on_screen(&s).as_deref(), Some("c"));
    s.set_lesson("");
    assert_eq!(on_screen(&s).as_deref(), Some("a"));
}

#[test]
fn retention_changes_are_recorded_once_and_merge_by_time() {
    let deck = deck();
    let mut s = Session::start(&deck, None, None, at(T0));
    assert_eq!(s.retention_percent(), "90");
    assert!(!s.set_retention(0.9, || panic!("storage is read only for a change"), at(T0)));
    assert_eq!(s.progress().retention_set_at, 0);
    // What another tab stored is merged first.
    let mut other = Progress::default();
    other.grade("b", Grade::Good, T0);
    assert!(s.set_retention(0.95, || Some(other), at(T0 + 10)));
    assert_eq!(s.progress().retention, 0.95);
    assert_eq!(s.progress().retention_set_at, T0 + 10);
    assert_eq!(s.progress().log.len(), 1);
    assert_eq!(s.retention_percent(), "95");
    // An older setting from another tab does not win; a newer one does.
    let mut old = Progress::default();
    old.set_retention(0.8, T0);
    s.merge_stored(old, at(T0 + 20));
    assert_eq!(s.progress().retention, 0.95);
    let mut newer = Progress::default();
    newer.set_retention(0.85, T0 + 30);
    s.merge_stored(newer, at(T0 + 40));
    assert_eq!(s.progress().retention, 0.85);
}

#[test]
fn import_counts_what_is_new_and_a_bad_file_changes_nothing() {
    let deck = deck();
    let mut a = Session::start(&deck, None, None, at(T0));
    review(&mut a, Grade::Good, T0);
    review(&mut a, Grade::Easy, T0 + 1000);
    let file = a.progress().export_json();

    let mut b = Session::start(&deck, None, None, at(T0 + 2000));
    assert!(b.reveal());
    assert_eq!(
        b.import(&file, || None, at(T0 + 3000)).as_deref(),
        Ok("2 reviews added (2 in the file, the rest already here).")
    );
    assert!(!b.is_revealed());
    assert_eq!(b.progress(), a.progress());
    assert_eq!(on_screen(&b).as_deref(), Some("c"));
    assert_eq!(
        b.import(&file, || None, at(T0 + 4000)).as_deref(),
        Ok("0 reviews added (2 in the file, the rest already here).")
    );
    // Reviews another tab stored are not counted as the file's.
    let mut c = Session::start(&deck, None, None, at(T0));
    review(&mut c, Grade::Good, T0);
    let mut other = Progress::default();
    other.grade("c", Grade::Good, T0 + 500);
    assert_eq!(
        c.import(&file, || Some(other), at(T0 + 5000)).as_deref(),
        Ok("1 review added (2 in the file, the rest already here).")
    );
    assert_eq!(c.progress().log.len(), 3);

    let before = b.progress().clone();
    let err = b
        .import(
            "{\"hello\": 1}",
            || panic!("read only if the file is good"),
            at(T0 + 6000),
        )
        .unwrap_err();
    assert!(err.contains("not a recall export"), "{err}");
    assert_eq!(b.progress(), &before);
}

#[test]
fn reset_erases_every_review_here_and_stored() {
    let deck = deck();
    let mut s = Session::start(&deck, None, None, at(T0));
    review(&mut s, Grade::Good, T0);
    assert_eq!(
        s.reset_question(),
        "Erase all 1 review and start every card afresh? Export first if you may want them back."
    );
    let mut other = Progress::default();
    other.grade("c", Grade::Good, T0 + 1);
    assert!(s.reveal());
    s.reset(|| Some(other.clone()), at(T0 + 10));
    assert!(s.progress().log.is_empty() && !s.is_revealed());
    assert_eq!(on_screen(&s).as_deref(), Some("a"));
    assert_eq!(s.stats().due_now, 3);
    assert!(s.reset_question().starts_with("Erase all 0 reviews"));
    // The other tab's older review does not come back, and it is told to drop it.
    assert!(s.merge_stored(other, at(T0 + 20)));
    assert!(s.progress().log.is_empty());
}

/// Progress stored by another version, or corrupt, is backed up (by the storage schema) and
/// the session starts with every card new; a stored value of this version that is out of
/// order, or lacks the fields added later, loads as its reviews say.
#[test]
fn stored_progress_from_another_version_or_corrupt_starts_afresh() {
    let deck = deck();
    let read = |raw: &str| {
        let backend = MemoryBackend::default();
        backend.set(&storage::key(STORE_NAME), raw).unwrap();
        let got = storage::read::<Progress>(&backend, STORE_NAME, SCHEMA, 7, |_, _| None);
        let backed_up = backend.get(&storage::backup_key(STORE_NAME, 7)).unwrap();
        (got, backed_up)
    };
    for raw in [
        r#"{"v":1,"data":{"log":[{"card":"x","at":"soon"}]}"#,
        r#"{"v":2,"data":{"retention":0.9}}"#,
        r#"{"v":0,"data":{}}"#,
        "not json",
    ] {
        let (got, backed_up) = read(raw);
        assert!(matches!(got, Read::Recovered(_)), "{raw}");
        assert_eq!(backed_up.as_deref(), Some(raw));
        let s = Session::start(&deck, None, None, at(T0));
        assert_eq!(s.progress(), &Progress::default());
        assert_eq!(s.stats().due_now, 3);
    }
    // Two reviews of "b" out of order, one twice, and no cards or later fields stored.
    let raw = r#"{"v":1,"data":{"retention":0.9,"log":[
        {"card":"b","at":1669725060000,"grade":3,"retention":0.9,"phase":"new"},
        {"card":"b","at":1669725000000,"grade":1,"retention":0.9,"phase":"review"},
        {"card":"b","at":1669725000000,"grade":1,"retention":0.9,"phase":"review"}]}}"#;
    let (Read::Value(p), None) = read(raw) else {
        panic!("a value of this version loads");
    };
    let s = Session::start(&deck, Some(p), None, at(T0 + 2 * MINUTE));
    let log = &s.progress().log;
    assert_eq!(log.len(), 2);
    assert_eq!((log[0].grade, log[0].phase), (Grade::Again, Phase::New));
    assert_eq!(log[1].phase, Phase::Learning);
    assert!(s.progress().state("b").is_some());
    assert_eq!(ids(&s.queue()), ["a", "c"]);
}

#[test]
fn the_counters_and_statistics_read_as_numbers_first() {
    let mut s = Session::start(&[], None, None, at(T0)).stats();
    assert_eq!(s.due_text(), "0 cards");
    assert_eq!(s.retention_text(), "\u{2014}");
    assert!(s.retention_note().starts_with("True retention appears"));
    assert_eq!(s.streak_text(), "0 days");
    assert_eq!(s.removed_note(), None);
    assert_eq!(s.forecast_peak(), 0);
    assert!(s
        .forecast_text()
        .starts_with("0 reviews due over the next 30 days"));
    s.due_now = 1;
    s.streak = 1;
    s.retention_30d = Some(0.75);
    s.mature_reviews_30d = 4;
    s.removed = 2;
    s.forecast[0] = 3;
    s.forecast[1] = 1;
    s.forecast[4] = 1;
    assert_eq!(s.due_text(), "1 card");
    assert_eq!(s.streak_text(), "1 day");
    assert_eq!(s.retention_text(), "75 %");
    assert_eq!(
        s.retention_note(),
        "True retention: 3 of 4 reviews of learnt cards in the last 30 days were recalled (not \u{201c}Again\u{201d})."
    );
    assert_eq!(
        s.removed_note().as_deref(),
        Some("The history of 2 cards no longer in the deck is kept with your progress.")
    );
    assert_eq!(s.forecast_peak(), 3);
    assert_eq!(
        s.forecast_text(),
        "5 reviews due over the next 30 days: 3 today, 1 tomorrow, 1 in 4 days."
    );
}
