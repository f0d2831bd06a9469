//! The deck, the scheduler, stored progress, merging and the statistics.

use super::schedule::time;
use super::*;
use proptest::prelude::*;
use rs_fsrs::Parameters;
use std::collections::BTreeSet;

/// 2022-11-29 12:30:00 UTC, the crate's own reference start.
const T0: i64 = 1_669_725_000_000;

fn card(id: &str, lesson: &str) -> CardDef {
    CardDef {
        id: id.into(),
        lesson: lesson.into(),
        question: "q".into(),
        answer: "a".into(),
    }
}

#[test]
fn the_deck_file_is_valid_and_names_real_lessons() {
    let deck = parse_deck(CARDS_JSON).unwrap_or_else(|e| panic!("{e}"));
    assert!((30..=50).contains(&deck.len()), "{} cards", deck.len());
    for c in &deck {
        assert!(
            crate::content::lesson_by_slug(&c.lesson).is_some(),
            "content/cards.json: card {:?} names lesson {:?}, which is not in SUMMARY.md",
            c.id,
            c.lesson
        );
    }
    // At least one card per lesson page that ends with its cards.
    for l in crate::content::LESSONS {
        assert!(
            deck.iter().any(|c| c.lesson == l.slug),
            "no card for {}",
            l.slug
        );
    }
    // The build's cut by lesson is the file, in its order, and each part one lesson's.
    assert_eq!(super::deck(), deck.as_slice());
    for (slug, json) in crate::content::lesson_cards::BY_LESSON {
        let part = super::deck_of(std::slice::from_ref(json));
        assert!(
            !part.is_empty() && part.iter().all(|c| c.lesson == *slug),
            "{slug}"
        );
    }
}

#[test]
fn malformed_decks_are_refused_with_a_clear_message() {
    let e = parse_deck("[{\"id\": \"a\"}]").unwrap_err();
    assert!(
        e.contains("content/cards.json") && e.contains("missing field"),
        "{e}"
    );
    let two = r#"[{"id":"a","lesson":"x","question":"q","answer":"a"},
                  {"id":"a","lesson":"x","question":"q","answer":"a"}]"#;
    assert!(parse_deck(two).unwrap_err().contains("used twice"));
    let empty = r#"[{"id":"a","lesson":"x","question":" ","answer":"a"}]"#;
    assert!(parse_deck(empty).unwrap_err().contains("question is empty"));
    let bad_id = r#"[{"id":"A b","lesson":"x","question":"q","answer":"a"}]"#;
    assert!(parse_deck(bad_id).unwrap_err().contains("id"));
    assert!(parse_deck("[]").is_err());
}

/// The crate's own test `test_basic_scheduler_interval`: the same grades, each given when
/// the card comes due, give the same scheduled days through our stored state and log.
#[test]
fn fsrs_intervals_match_the_crates_reference() {
    use Grade::*;
    let grades = [
        Good, Good, Good, Good, Good, Good, Again, Again, Good, Good, Good, Good, Good,
    ];
    let mut p = Progress::default();
    let mut now = T0;
    let mut days = vec![];
    for g in grades {
        p.grade("c", g, now);
        let s = p.state("c").unwrap();
        days.push(s.scheduled_days);
        now = s.due;
    }
    assert_eq!(days, [0, 4, 15, 48, 136, 351, 0, 0, 7, 13, 24, 43, 77]);
    // Replaying the log gives the same state.
    let replayed = p.clone().normalized();
    assert_eq!(replayed.cards, p.cards);
    let phases: Vec<Phase> = p.log.iter().map(|r| r.phase).collect();
    assert_eq!(phases[0], Phase::New);
    assert_eq!(phases[1], Phase::Learning);
    assert_eq!(phases[7], Phase::Relearning);
}

#[test]
fn the_direct_scheduler_agrees_with_the_crates_fsrs() {
    // `scheduler` skips `rs_fsrs::FSRS` (for size); it must schedule as FSRS with the same
    // retention would, in every phase and at every retention the reader can choose.
    use Grade::*;
    for retention in [RETENTION_RANGE.0, DEFAULT_RETENTION, RETENTION_RANGE.1] {
        let fsrs = rs_fsrs::FSRS::new(Parameters {
            request_retention: clamp_retention(retention),
            enable_fuzz: false,
            ..Parameters::default()
        });
        let mut p = Progress {
            retention,
            ..Progress::default()
        };
        let mut now = T0;
        for g in [Good, Again, Hard, Good, Easy, Again, Good, Good] {
            let card = p.state("c").map_or_else(|| new_card(now), to_fsrs);
            let reference = fsrs.repeat(card.clone(), time(now));
            for (grade, ms) in p.previews("c", now) {
                let due = reference[&grade.rating()].card.due.timestamp_millis();
                assert_eq!(ms, due - now, "{grade:?} at retention {retention}");
            }
            p.grade("c", g, now);
            let expected = fsrs.next(card, time(now), g.rating()).card;
            assert_eq!(p.state("c"), Some(&from_fsrs(&expected)));
            now = p.state("c").map_or(now, |s| s.due);
        }
    }
}

#[test]
fn grade_buttons_show_when_the_card_returns() {
    let p = Progress::default();
    let labels: Vec<String> = p
        .previews("x", T0)
        .iter()
        .map(|(_, ms)| interval_label(*ms))
        .collect();
    // A new card: Again 1 min, Hard 5 min, Good 10 min, Easy a number of days.
    assert_eq!(labels[..3], ["1 min", "5 min", "10 min"]);
    assert!(labels[3].ends_with(" d"), "{labels:?}");
    assert_eq!(interval_label(3 * DAY), "3 d");
    assert_eq!(interval_label(90 * DAY), "3 mo");
    assert_eq!(interval_label(45 * DAY), "1.5 mo");
    assert_eq!(interval_label(2 * 365 * DAY), "2 y");
    assert_eq!(interval_label(2 * HOUR), "2 h");
    assert_eq!(interval_label(1000), "<1 min");
}

#[test]
fn higher_desired_retention_brings_cards_back_sooner() {
    let mut lo = Progress::default();
    lo.set_retention(0.8, 0);
    let mut hi = Progress::default();
    hi.set_retention(0.97, 0);
    for p in [&mut lo, &mut hi] {
        p.grade("c", Grade::Good, T0);
        let due = p.state("c").unwrap().due;
        p.grade("c", Grade::Good, due);
    }
    assert!(hi.state("c").unwrap().scheduled_days < lo.state("c").unwrap().scheduled_days);
    assert_eq!(parse_retention("90"), Ok(0.9));
    assert_eq!(parse_retention("0.85"), Ok(0.85));
    assert_eq!(parse_retention("95 %"), Ok(0.95));
    assert!(parse_retention("50").is_err());
    assert!(parse_retention("abc").is_err());
    assert!(parse_retention("NaN").is_err());
}

#[test]
fn the_due_queue_follows_a_moving_clock() {
    let deck = vec![card("a", "l1"), card("b", "l1"), card("c", "l2")];
    let mut p = Progress::default();
    let ids = |q: Vec<&CardDef>| q.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(p.queue(&deck, None, T0, false)), ["a", "b", "c"]);
    p.grade("a", Grade::Good, T0); // back in 10 min
    p.grade("b", Grade::Again, T0 + 1000); // back in 1 min
    assert_eq!(ids(p.queue(&deck, None, T0 + 2000, false)), ["c"]);
    assert_eq!(
        ids(p.queue(&deck, Some("l1"), T0 + 2000, false)),
        Vec::<String>::new()
    );
    assert_eq!(ids(p.queue(&deck, Some("l1"), T0 + 2000, true)), ["b", "a"]);
    assert_eq!(
        ids(p.queue(&deck, None, T0 + 2 * MINUTE, false)),
        ["b", "c"]
    );
    assert_eq!(
        ids(p.queue(&deck, None, T0 + 11 * MINUTE, false)),
        ["b", "a", "c"]
    );
    let s = p.stats(&deck, None, Clock::utc(T0 + 2000));
    assert_eq!((s.due_now, s.new, s.learning, s.review), (1, 1, 2, 0));
    let s = p.stats(&deck, None, Clock::utc(T0 + 11 * MINUTE));
    assert_eq!(s.due_now, 3);
}

#[test]
fn cards_due_at_the_same_time_keep_deck_order() {
    let deck = vec![
        card("a", "l"),
        card("b", "l"),
        card("c", "l"),
        card("d", "l"),
    ];
    let mut p = Progress::default();
    p.grade("a", Grade::Good, T0);
    let mut state = p.state("a").unwrap().clone();
    let due = state.due;
    // "c" comes due with "a", "d" a minute before both; "b" is new.
    p.cards.insert("c".into(), state.clone());
    state.due -= MINUTE;
    p.cards.insert("d".into(), state);
    let ids = |q: Vec<&CardDef>| q.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(p.queue(&deck, None, due, false)), ["d", "a", "c", "b"]);
    assert_eq!(
        ids(p.queue(&deck, None, due - MINUTE, true)),
        ["d", "b", "a", "c"]
    );
}

#[test]
fn statistics_count_retention_streak_and_forecast() {
    let deck = [card("a", "l"), card("b", "l")];
    let mut p = Progress::default();
    // Three consecutive days of reviews; "a" graduates to review.
    p.grade("a", Grade::Good, T0);
    p.grade("a", Grade::Good, T0 + 11 * MINUTE);
    let due = p.state("a").unwrap().due;
    p.grade("a", Grade::Again, due); // a lapse of a learnt card
    let due = p.state("a").unwrap().due;
    p.grade("a", Grade::Good, due);
    p.grade("removed", Grade::Good, T0);
    let deck = &deck[..];
    let now = p.log.last().unwrap().at + HOUR;
    let s = p.stats(deck, None, Clock::utc(now));
    assert_eq!(s.mature_reviews_30d, 1);
    assert_eq!(s.retention_30d, Some(0.0));
    assert_eq!(s.removed, 1);
    assert_eq!(s.new, 1);
    assert!(s.streak >= 1);
    assert_eq!(s.forecast.iter().sum::<u32>(), 1, "{:?}", s.forecast);
    // Streak: reviews today, yesterday and the day before, a gap before that.
    let mut q = Progress::default();
    for d in [0, 2, 3, 4] {
        q.grade(&format!("c{d}"), Grade::Good, T0 + d * DAY);
    }
    let deck: Vec<CardDef> = (0..5).map(|d| card(&format!("c{d}"), "l")).collect();
    assert_eq!(q.stats(&deck, None, Clock::utc(T0 + 4 * DAY)).streak, 3);
    assert_eq!(q.stats(&deck, None, Clock::utc(T0 + 5 * DAY)).streak, 3);
    assert_eq!(q.stats(&deck, None, Clock::utc(T0 + 6 * DAY)).streak, 0);
    // "Today" follows the reader's offset: 23:30 UTC is already tomorrow at UTC+1.
    let late = Clock {
        now: 1_669_764_600_000, // 2022-11-29 23:30 UTC
        utc_offset_min: 60,
    };
    assert_eq!(late.today(), Clock::utc(late.now).today() + 1);
}

#[test]
fn removed_cards_keep_their_history_without_trouble() {
    let deck = vec![card("kept", "l")];
    let mut p = Progress::default();
    p.grade("old-id", Grade::Good, T0);
    p.grade("kept", Grade::Good, T0 + 1);
    assert_eq!(p.queue(&deck, None, T0 + DAY, false).len(), 1);
    let back = Progress::import_json(&p.export_json()).unwrap();
    assert!(back.state("old-id").is_some());
    assert_eq!(back.stats(&deck, None, Clock::utc(T0)).removed, 1);
}

#[test]
fn export_then_import_round_trips_and_is_idempotent() {
    let mut p = Progress::default();
    p.set_retention(0.85, T0 - 1);
    p.grade("a", Grade::Good, T0);
    p.grade("b", Grade::Hard, T0 + 5);
    p.grade("a", Grade::Easy, T0 + 20 * MINUTE);
    let text = p.export_json();
    let imported = Progress::import_json(&text).unwrap();
    assert_eq!(imported, p);
    let once = p.merge(&imported);
    assert_eq!(once, p);
    let twice = once.merge(&imported);
    assert_eq!(twice, once);
    // Into an empty profile: the same state.
    assert_eq!(Progress::default().merge(&imported), p);
    // A stored value (no "kind") imports too; foreign or newer files are refused.
    assert!(Progress::import_json(&format!(
        "{{\"v\":1,\"data\":{}}}",
        serde_json::to_string(&p).unwrap()
    ))
    .is_ok());
    assert!(Progress::import_json("{\"kind\":\"other\",\"v\":1,\"data\":{}}").is_err());
    assert!(Progress::import_json("{\"v\":2,\"data\":{}}")
        .unwrap_err()
        .contains("newer"));
    assert!(Progress::import_json("not json").is_err());
    let bad_grade = text.replacen("\"grade\": 3", "\"grade\": 9", 1);
    assert!(Progress::import_json(&bad_grade).is_err());
}

#[test]
fn two_tabs_merge_without_losing_either_review() {
    let start = Progress::default();
    let mut tab_a = start.clone();
    let mut tab_b = start.clone();
    tab_a.grade("x", Grade::Good, T0);
    tab_b.grade("y", Grade::Again, T0 + 3);
    let stored = tab_a.clone(); // tab A wrote first
    let merged = tab_b.merge(&stored); // tab B merges on write
    assert_eq!(merged.log.len(), 2);
    assert!(merged.state("x").is_some() && merged.state("y").is_some());
    assert_eq!(merged, stored.merge(&tab_b));
}

#[test]
fn a_reset_wins_over_older_reviews_from_another_tab() {
    let mut tab_a = Progress::default();
    tab_a.grade("x", Grade::Good, T0);
    let mut tab_b = tab_a.clone();
    tab_b.reset(T0 + 10);
    let merged = tab_b.merge(&tab_a);
    assert!(merged.log.is_empty() && merged.cards.is_empty());
    tab_a.grade("y", Grade::Good, T0 + 20);
    assert_eq!(merged.merge(&tab_a).log.len(), 1);
}

fn review_strategy() -> impl Strategy<Value = (u8, i64, u8)> {
    (0u8..4, 0i64..(60 * DAY), 1u8..=4)
}

proptest! {
    #[test]
    fn merge_is_a_union_that_is_commutative_and_idempotent(
        a in prop::collection::vec(review_strategy(), 0..20),
        b in prop::collection::vec(review_strategy(), 0..20),
    ) {
        let build = |rs: &[(u8, i64, u8)]| {
            let mut p = Progress::default();
            for (c, at, g) in rs {
                p.log.push(Review {
                    card: format!("c{c}"),
                    at: T0 + at,
                    grade: Grade::try_from(*g).unwrap(),
                    retention: 0.9,
                    phase: Phase::New,
                });
            }
            p.normalized()
        };
        let (pa, pb) = (build(&a), build(&b));
        let ab = pa.merge(&pb);
        prop_assert_eq!(&ab, &pb.merge(&pa));
        prop_assert_eq!(&ab.merge(&pb), &ab);
        let keys: BTreeSet<(i64, String)> =
            a.iter().chain(&b).map(|(c, at, _)| (T0 + at, format!("c{c}"))).collect();
        prop_assert_eq!(ab.log.len(), keys.len());
        for s in ab.cards.values() {
            prop_assert!(s.stability.is_finite() && s.difficulty.is_finite());
        }
    }
}

#[test]
fn keys_reveal_then_grade_and_leave_controls_alone() {
    use KeyAction::{Grade as G, Reveal};
    let cases = [
        // key, on a button, answer shown, a card up → action
        (" ", false, false, true, Some(Reveal)),
        ("Enter", false, false, true, Some(Reveal)),
        (" ", true, false, true, None),
        (" ", false, false, false, None),
        ("3", false, false, true, None),
        (" ", false, true, true, Some(G(Grade::Good))),
        ("Enter", true, true, true, None),
        ("1", false, true, true, Some(G(Grade::Again))),
        ("2", true, true, true, Some(G(Grade::Hard))),
        ("4", false, true, true, Some(G(Grade::Easy))),
        ("5", false, true, true, None),
        ("a", false, true, true, None),
    ];
    for (key, on_control, revealed, has_card, want) in cases {
        assert_eq!(
            KeyAction::of_key(key, on_control, revealed, has_card),
            want,
            "{key:?} on_control={on_control} revealed={revealed} has_card={has_card}"
        );
    }
}
