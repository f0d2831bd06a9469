//! The editor's tests: each change the widget offers, the counts kept as it goes, and (in
//! `tests/model.rs`) a model of the editor that any sequence of changes must agree with.

use super::counts::KEY_GAP;
use super::*;
use super::{accuracy_text, changed_text};
use crate::logic::eval::execution::*;
use crate::logic::eval::tally::*;
use crate::logic::eval::*;
use crate::logic::storage::{self, Backend, MemoryBackend, Read};

const LESSON_JSON: &str = include_str!("../../../../content/mini-eval.json");

fn lesson() -> EvalSet {
    parse_eval_json(LESSON_JSON).unwrap()
}

fn editor() -> EvalEditor {
    EvalEditor::new(lesson())
}

fn id_of(e: &EvalEditor, name: &str) -> CaseId {
    let at = e.cases().iter().position(|c| c.name == name).unwrap();
    e.ids().nth(at).unwrap()
}

fn names(e: &EvalEditor) -> Vec<String> {
    e.cases().iter().map(|c| c.name.clone()).collect()
}

/// The editor's bookkeeping agrees with its cases: every id finds its case, every cached
/// outcome is the case's grade, and the ids are distinct.
fn check(e: &EvalEditor) {
    assert_eq!(e.rows.len(), e.cases.len());
    for (i, row) in e.rows.iter().enumerate() {
        assert_eq!(e.index_of(row.id), Some(i));
        assert_eq!(row.outcome, e.grade(i), "case {i}");
    }
    let in_use = e.positions.iter().filter(|p| p.is_some()).count();
    assert_eq!(in_use, e.cases.len());
    // The running counts and ordered sets are what counting from scratch gives.
    let scratch = Summary::of_outcomes((0..e.cases.len()).map(|i| e.grade(i)));
    assert_eq!(e.tally(), Tally::of_summary(&scratch));
    assert!(
        e.rows.windows(2).all(|w| w[0].key < w[1].key),
        "keys ascend"
    );
    for b in Bucket::ALL {
        let members: Vec<usize> = e.members_of(b).collect();
        assert_eq!(members, scratch.buckets.get(b), "{b:?}");
    }
    let critical: Vec<String> = scratch
        .buckets
        .regressed
        .iter()
        .filter(|&&i| e.cases[i].critical)
        .map(|&i| case_label(&e.cases, i))
        .collect();
    assert_eq!(e.critical_regressed_names(), critical);
    for tolerance in ["0", "5"] {
        let t: f64 = tolerance.parse().unwrap();
        assert_eq!(
            e.decision(tolerance).unwrap(),
            crate::logic::eval::decide_on(&e.cases, &scratch, t)
        );
    }
}

#[test]
fn starts_at_the_lesson_eval() {
    let e = editor();
    check(&e);
    assert_eq!(e.len(), 10);
    assert!(!e.is_empty());
    assert_eq!(e.cases(), lesson().cases.as_slice());
    assert_eq!(e.schema(), lesson().schema);
    let s = e.summary();
    assert_eq!(s, summarize(&lesson().cases));
    assert_eq!((s.baseline_passes, s.candidate_passes), (9, 9));
    assert_eq!(e.undo_label(), None);
    assert_eq!(e.import_message(), None);
    assert_eq!(e.slot(e.ids().nth(3).unwrap()).unwrap().index, 3);
}

#[test]
fn editing_a_field_changes_that_case_only_and_regrades_sql() {
    let mut e = editor();
    let admins = id_of(&e, "emails of admins");
    let other = id_of(&e, "all names");
    let other_slot = e.slot(other);
    let (before, order) = (e.revision(), e.order_revision());
    assert!(e.edit(admins, Field::Name, "admin emails".into()));
    assert_eq!(e.case(admins).unwrap().name, "admin emails");
    assert!(e.revision() > before);
    assert_eq!(
        e.slot(other),
        other_slot,
        "another case's row must not redraw"
    );
    assert_eq!(e.order_revision(), order, "an edit keeps the order");
    // SQL: the grade follows.
    assert_eq!(e.outcome(admins), Some((true, false)));
    assert!(e.edit(
        admins,
        Field::CandidateSql,
        "select email from users where is_admin = true".into()
    ));
    assert_eq!(e.outcome(admins), Some((true, true)));
    for field in [Field::Question, Field::ReferenceSql, Field::BaselineSql] {
        assert!(e.edit(admins, field, "x".into()));
        assert_eq!(field.get(e.case(admins).unwrap()), "x");
    }
    assert_eq!(e.outcome(admins), Some((true, false)));
    check(&e);
    // The same text again changes nothing, and neither does a case that is gone.
    let rev = e.revision();
    assert!(!e.edit(admins, Field::Question, "x".into()));
    assert_eq!(e.revision(), rev);
    assert!(!e.edit(CaseId(999), Field::Name, "y".into()));
    // Editing is not a step of undo.
    assert_eq!(e.undo_label(), None);
}

#[test]
fn verdicts_critical_flags_and_schema() {
    let mut e = editor();
    let paris = id_of(&e, "users in Paris");
    assert!(e.set_verdict(paris, System::Candidate, Verdict::Fail));
    assert!(!e.set_verdict(paris, System::Candidate, Verdict::Fail));
    assert_eq!(e.outcome(paris), Some((true, false)));
    assert_eq!(
        System::Candidate.verdict(e.case(paris).unwrap()),
        Verdict::Fail
    );
    assert!(e.set_verdict(paris, System::Baseline, Verdict::Fail));
    assert_eq!(e.summary().buckets.still_failing.len(), 1);
    assert!(System::Baseline.passes((true, false)));
    assert!(!System::Candidate.passes((true, false)));
    assert!(e.set_verdict(paris, System::Baseline, Verdict::Auto));
    assert_eq!(e.outcome(paris), Some((true, false)));

    let admins = id_of(&e, "emails of admins");
    assert!(!e.decision("100").unwrap().accept);
    assert!(e.set_critical(admins, false));
    assert!(!e.set_critical(admins, false));
    assert!(!e.case(admins).unwrap().critical);
    assert!(e.decision("100").unwrap().accept);
    assert!(!e.set_critical(CaseId(999), true));
    assert!(!e.set_verdict(CaseId(999), System::Baseline, Verdict::Pass));

    assert!(e.set_schema("CREATE TABLE t (x INT);".into()));
    assert!(!e.set_schema("CREATE TABLE t (x INT);".into()));
    assert_eq!(e.schema(), "CREATE TABLE t (x INT);");
    assert_eq!(e.undo_label(), None);
    check(&e);
}

#[test]
fn add_appends_a_named_empty_case() {
    let mut e = editor();
    let order = e.order_revision();
    let id = e.add_case();
    assert_eq!(e.len(), 11);
    assert_eq!(e.case(id).unwrap().name, "new case 11");
    assert_eq!(e.slot(id).unwrap().index, 10);
    assert!(e.order_revision() > order);
    // An empty reference grades nothing as a pass: both fail.
    assert_eq!(e.outcome(id), Some((false, false)));
    assert_eq!(e.summary().buckets.still_failing, [10]);
    assert!(e
        .ids()
        .all(|other| other == id || e.case(other).unwrap().name != "new case 11"));
    assert_eq!(e.undo_label(), None);
    check(&e);
}

#[test]
fn moves_up_and_down_and_stops_at_the_ends() {
    let mut e = editor();
    let first = e.ids().next().unwrap();
    let last = e.ids().last().unwrap();
    let order = e.order_revision();
    assert!(!e.move_up(first));
    assert!(!e.move_down(last));
    assert_eq!(
        e.order_revision(),
        order,
        "a move that cannot happen changes nothing"
    );
    // A move redraws the two rows that swapped places, no other.
    let before: Vec<Option<Slot>> = e.ids().map(|id| e.slot(id)).collect();
    assert!(e.move_down(first));
    let redrawn: Vec<usize> = e
        .ids()
        .zip(&before)
        .enumerate()
        .filter(|(_, (id, slot))| e.slot(*id) != **slot)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(redrawn, [0, 1]);
    assert_eq!(e.slot(first).unwrap().index, 1);
    assert_eq!(names(&e)[..2], ["count users", "all names"]);
    assert!(e.move_up(last));
    assert_eq!(e.slot(last).unwrap().index, 8);
    assert_eq!(e.cases()[9].name, "names in order");
    assert!(e.order_revision() > order);
    // The buckets follow the order.
    let admins = id_of(&e, "emails of admins");
    for _ in 0..10 {
        e.move_up(admins);
    }
    assert_eq!(e.slot(admins).unwrap().index, 0);
    assert_eq!(e.summary().buckets.regressed, [0]);
    assert!(!e.move_up(CaseId(999)));
    assert_eq!(e.undo_label(), None);
    check(&e);
}

#[test]
fn removal_undoes_back_into_place_keeping_later_edits() {
    let mut e = editor();
    let admins = id_of(&e, "emails of admins");
    assert!(e.remove(admins));
    assert!(!e.remove(admins));
    assert_eq!(e.slot(admins), None);
    assert_eq!(e.case(admins), None);
    assert_eq!(e.len(), 9);
    assert!(e.summary().buckets.regressed.is_empty());
    assert_eq!(
        e.undo_label().unwrap(),
        "Undo the removal of \u{201c}emails of admins\u{201d}"
    );
    check(&e);
    // An edit after the removal survives its undo.
    let paris = id_of(&e, "users in Paris");
    e.edit(paris, Field::Name, "Parisians".into());
    assert_eq!(e.undo(), None);
    assert_eq!(e.len(), 10);
    assert_eq!(e.cases()[4].name, "emails of admins");
    assert_eq!(e.cases()[2].name, "Parisians");
    assert_eq!(e.summary().buckets.regressed, [4]);
    assert_eq!(e.undo_label(), None);
    check(&e);
    // A case with no name is named by its place.
    let blank = e.add_case();
    e.edit(blank, Field::Name, " ".into());
    e.remove(blank);
    assert_eq!(
        e.undo_label().unwrap(),
        "Undo the removal of \u{201c}case 11\u{201d}"
    );
    // The last case removed, then a case added: undo puts it back before the new one.
    let last = e.ids().last().unwrap();
    e.remove(last);
    e.add_case();
    e.undo();
    assert_eq!(e.len(), 11);
    assert_eq!(e.cases()[9].name, "busiest city");
    assert_eq!(e.cases()[10].name, "new case 10");
    check(&e);
}

#[test]
fn reset_brings_back_the_lesson_and_undoes_with_its_tolerance() {
    let mut e = editor();
    let id = id_of(&e, "all names");
    e.edit(id, Field::Name, "every name".into());
    e.add_case();
    e.set_schema("S".into());
    e.import("junk");
    assert!(e.import_message().is_some());
    e.reset("5");
    assert_eq!(e.cases(), lesson().cases.as_slice());
    assert_eq!(e.schema(), lesson().schema);
    assert_eq!(e.import_message(), None);
    assert_eq!(e.undo_label().unwrap(), "Undo the reset");
    check(&e);
    assert_eq!(e.undo(), Some("5".to_string()));
    assert_eq!(e.len(), 11);
    assert_eq!(e.cases()[0].name, "every name");
    assert_eq!(e.schema(), "S");
    assert_eq!(e.undo_label(), None);
    assert_eq!(e.undo(), None, "one step only");
    check(&e);
}

#[test]
fn import_of_an_eval_file_replaces_and_undoes() {
    let mut e = editor();
    e.remove(id_of(&e, "all names"));
    let json = r#"{"version": 1, "schema": "S", "cases": [{"name": "one",
        "reference_sql": "SELECT 1", "baseline_sql": "select 1;", "candidate_sql": "SELECT 2"}]}"#;
    assert!(e.import(json));
    assert_eq!(
        e.import_message(),
        Some(&Ok("Imported the eval file: 1 case.".to_string()))
    );
    assert_eq!(names(&e), ["one"]);
    assert_eq!(e.schema(), "S");
    assert_eq!(e.summary().buckets.regressed, [0]);
    assert_eq!(e.undo_label().unwrap(), "Undo the import");
    check(&e);
    // Our own export imports back to the same eval.
    let mut other = editor();
    assert!(other.import(&e.eval_json()));
    assert_eq!(other.cases(), e.cases());
    assert_eq!(e.undo(), None);
    assert_eq!(e.len(), 9);
    assert_eq!(e.schema(), lesson().schema);
    assert_eq!(e.import_message(), None);
    check(&e);
}

#[test]
fn import_of_columns_sets_verdicts_or_makes_a_new_eval() {
    let mut e = editor();
    let lines: Vec<&str> = (0..10)
        .map(|i| if i < 3 { "pass\tfail" } else { "pass\tpass" })
        .collect();
    let paste = format!("baseline\tcandidate\n{}", lines.join("\n"));
    assert!(e.import(&paste));
    assert_eq!(
        e.import_message(),
        Some(&Ok(
            "Set both verdicts of all 10 cases by hand from the pasted columns, in order."
                .to_string()
        ))
    );
    let s = e.summary();
    assert_eq!((s.baseline_passes, s.candidate_passes), (10, 7));
    assert_eq!(s.buckets.regressed, [0, 1, 2]);
    assert_eq!(e.cases()[0].name, "all names");
    assert_eq!(e.cases()[0].candidate_verdict, Verdict::Fail);
    check(&e);
    // Undo gives back the verdicts, case by case, even after a move.
    let first = e.ids().next().unwrap();
    e.move_down(first);
    assert_eq!(e.undo(), None);
    assert!(e
        .cases()
        .iter()
        .all(|c| c.baseline_verdict == Verdict::Auto && c.candidate_verdict == Verdict::Auto));
    assert_eq!(e.cases()[1].name, "all names");
    check(&e);
    // Another count: a new eval of unnamed cases, the schema kept.
    assert!(e.import("1,0\n0,0"));
    assert_eq!(names(&e), ["case 1", "case 2"]);
    assert_eq!(e.schema(), lesson().schema);
    assert_eq!(e.summary().buckets.still_failing, [1]);
    assert_eq!(
        e.import_message().unwrap().as_ref().unwrap(),
        "The paste has 2 lines and the eval had 10 cases, so it replaced the eval with 2 \
         cases named \u{201c}case 1\u{201d} onwards."
    );
    assert!(!e.import("pass"));
    check(&e);
}

#[test]
fn only_a_replaced_eval_counts_as_replaced() {
    let mut e = editor();
    let mut last = e.replaced_revision();
    // Runs `f`, then checks whether the eval counted as replaced since the step before.
    let mut step = |e: &mut EvalEditor, yes: bool, what: &str, f: &dyn Fn(&mut EvalEditor)| {
        f(e);
        let now = e.replaced_revision();
        assert_eq!(now != std::mem::replace(&mut last, now), yes, "{what}");
    };
    let admins = id_of(&e, "emails of admins");
    step(&mut e, false, "an edit", &|e| {
        e.edit(admins, Field::Name, "admin emails".into());
    });
    step(&mut e, false, "an added case", &|e| {
        e.add_case();
    });
    step(&mut e, false, "a removed case", &|e| {
        e.remove(admins);
    });
    step(&mut e, false, "the removal undone", &|e| {
        e.undo();
    });
    let columns = vec!["pass\tfail"; e.len()].join("\n");
    step(&mut e, false, "verdicts set in place", &|e| {
        assert!(e.import(&columns));
    });
    step(&mut e, true, "columns of another length", &|e| {
        assert!(e.import("pass\tpass\nfail\tpass"));
    });
    step(&mut e, true, "that import undone", &|e| {
        e.undo();
    });
    step(&mut e, false, "a refused import", &|e| {
        assert!(!e.import("pass\tperhaps"));
    });
    step(&mut e, true, "an eval file", &|e| {
        assert!(e.import(r#"{"version": 1, "cases": [{"name": "one"}]}"#));
    });
    step(&mut e, true, "a reset", &|e| {
        e.reset("0");
    });
}

#[test]
fn bad_imports_change_nothing_and_say_why() {
    let mut e = editor();
    e.remove(id_of(&e, "all names"));
    let (rev, status) = (e.revision(), e.status_revision());
    let label = e.undo_label();
    let refused = |e: &mut EvalEditor, text: &str| -> String {
        assert!(!e.import(text));
        e.import_message().unwrap().clone().unwrap_err()
    };
    let m = refused(
        &mut e,
        "{\n  \"cases\": [\n    {\"name\": \"a\", \"critical\": \"very\"}\n  ]\n}",
    );
    assert!(m.starts_with("Line 3"), "{m}");
    assert!(m.contains("field \u{201c}critical\u{201d}"), "{m}");
    assert!(m.ends_with(" Nothing was changed."), "{m}");
    let m = refused(&mut e, "pass, pass\npass, perhaps");
    assert!(
        m.starts_with("Line 2: \u{201c}perhaps\u{201d} is not pass/fail"),
        "{m}"
    );
    assert!(refused(&mut e, "{\"cases\": [").starts_with("Line 1, column 11"));
    assert!(refused(&mut e, "   ").starts_with("Paste an eval file"));
    assert!(refused(&mut e, r#"{"version": 3}"#).contains("version 3"));
    let big = format!("{{\"cases\": []}}{}", " ".repeat(MAX_INPUT_BYTES));
    assert!(refused(&mut e, &big).contains("1 MB"));
    assert_eq!(e.revision(), rev);
    assert_eq!(e.status_revision(), status + 6, "each refusal is news");
    assert_eq!(e.len(), 9);
    assert_eq!(
        e.undo_label(),
        label,
        "a refused import keeps the undo it found"
    );
    check(&e);
}

#[test]
fn the_status_changes_with_the_undo_offer_and_the_import_message_only() {
    let mut e = editor();
    let mut status = e.status_revision();
    let mut changed = |e: &EvalEditor| {
        let now = e.status_revision();
        let news = now != status;
        status = now;
        news
    };
    let id = e.ids().next().unwrap();
    e.edit(id, Field::Name, "x".into());
    e.set_critical(id, true);
    e.move_down(id);
    e.add_case();
    e.set_schema("S".into());
    assert!(!changed(&e), "edits leave the buttons and messages alone");
    e.remove(id);
    assert!(changed(&e));
    e.undo();
    assert!(changed(&e));
    e.import("junk");
    assert!(changed(&e));
    e.reset("0");
    assert!(changed(&e));
}

#[test]
fn undo_with_nothing_to_undo_does_nothing() {
    let mut e = editor();
    let rev = e.revision();
    assert_eq!(e.undo(), None);
    assert_eq!(e.revision(), rev);
    assert_eq!(e.cases(), lesson().cases.as_slice());
}

#[test]
fn results_panel_texts() {
    let e = editor();
    let s = e.tally();
    assert_eq!(
        accuracy_text(&s, System::Baseline),
        (
            "90%".to_string(),
            "9 of 10 \u{b7} 95% interval 59.6\u{2013}98.2%".to_string()
        )
    );
    assert_eq!(accuracy_text(&s, System::Candidate).0, "90%");
    assert_eq!(changed_text(&s), "1 regressed, 1 fixed");
    let empty = Tally::default();
    assert_eq!(
        accuracy_text(&empty, System::Baseline),
        ("\u{2014}".to_string(), "no cases".to_string())
    );
    assert_eq!(
        e.decision("0").unwrap().reason,
        "rejected: critical case 'emails of admins' regressed"
    );
    let err = e.decision("abc").unwrap_err();
    assert_eq!(err.field, "Tolerance");
    assert!(err.message.contains("is not a number"));
}

#[test]
fn buckets_and_changed_cases_with_their_diffs() {
    let mut e = editor();
    assert_eq!(
        e.bucket_entries(Bucket::Regressed, 100),
        [BucketEntry {
            id: id_of(&e, "emails of admins"),
            name: "emails of admins".into(),
            shown: "emails of admins".into(),
            critical: true
        }]
    );
    assert_eq!(e.bucket_entries(Bucket::UnchangedPass, 100).len(), 8);
    assert!(e.bucket_entries(Bucket::StillFailing, 100).is_empty());
    let changed = e.changed_cases(100);
    assert_eq!(changed.len(), 2);
    assert_eq!(changed[0].bucket, Bucket::Regressed);
    assert_eq!(changed[0].name, "emails of admins");
    assert!(changed[0].critical);
    let marked: Vec<&str> = changed[0]
        .baseline
        .iter()
        .filter(|r| r.changed)
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(marked, ["WHERE is_admin = TRUE"]);
    assert_eq!(changed[1].bucket, Bucket::Fixed);
    assert_eq!(changed[1].name, "distinct cities");
    assert!(!changed[1].same_sql);
    // Same SQL, verdicts set by hand: said so. A blank name shows as "case N".
    let busiest = id_of(&e, "busiest city");
    e.set_verdict(busiest, System::Candidate, Verdict::Fail);
    e.edit(busiest, Field::Name, String::new());
    let changed = e.changed_cases(100);
    let last = changed.iter().find(|c| c.name == "case 10").unwrap();
    assert!(last.same_sql);
    let entries = e.bucket_entries(Bucket::Regressed, 100);
    assert_eq!(entries[1].name, "");
    assert_eq!(entries[1].shown, "case 10");
}

#[test]
fn a_changed_case_keeps_its_key_until_its_view_would_change() {
    let mut e = editor();
    let keys =
        |e: &EvalEditor| -> Vec<_> { e.changed_cases(100).iter().map(ChangedCase::key).collect() };
    let before = keys(&e);
    assert_eq!(before.len(), 2);
    // An edit to a case outside the list leaves both keys as they were.
    e.edit(
        id_of(&e, "count users"),
        Field::Question,
        "How many?".into(),
    );
    assert_eq!(keys(&e), before);
    // An edit to a listed case that keeps it listed changes its key only.
    let cities = id_of(&e, "distinct cities");
    e.edit(cities, Field::Question, "Which cities?".into());
    let after = keys(&e);
    assert_eq!(after[0], before[0]);
    assert_ne!(after[1], before[1]);
    assert_eq!(after[1].0, cities);
    // A case removed above a nameless listed case renumbers it ("case N"): a new key.
    e.edit(cities, Field::Name, String::new());
    let nameless = keys(&e)[1].clone();
    assert_eq!(nameless.3, "case 4");
    e.remove(id_of(&e, "all names"));
    let moved = keys(&e)[1].clone();
    assert_eq!((moved.0, moved.3.as_str()), (cities, "case 3"));
    assert_ne!(moved, nameless);
    // Bucket entries are their own keys: an entry's id, names and flag.
    let entries = e.bucket_entries(Bucket::Regressed, 100);
    assert_eq!(entries[0].id, id_of(&e, "emails of admins"));
}

#[test]
fn exports_match_the_eval_file_and_csv_writers() {
    let mut e = editor();
    e.set_verdict(id_of(&e, "count users"), System::Candidate, Verdict::Fail);
    let set = EvalSet {
        version: format_version(e.grading()),
        schema: e.schema().to_string(),
        grading: e.grading(),
        cases: e.cases().to_vec(),
    };
    assert_eq!(e.eval_json(), eval_json(&set));
    assert_eq!(e.results_csv(), results_csv(&set.cases));
    assert!(e
        .results_csv()
        .contains("count users,How many users are there?,no,pass,fail,regressed,"));
}

#[test]
fn stored_form_round_trips_and_keeps_the_old_shape() {
    let mut e = editor();
    e.edit(id_of(&e, "all names"), Field::Name, "every name".into());
    e.set_verdict(
        id_of(&e, "distinct cities"),
        System::Baseline,
        Verdict::Pass,
    );
    e.move_down(id_of(&e, "every name"));
    // The owned form's fields in its order, defaults left out; both shapes read back
    // as the same eval.
    let stored = Stored {
        eval: EvalSet {
            version: format_version(e.grading()),
            schema: e.schema().to_string(),
            grading: e.grading(),
            cases: e.cases().to_vec(),
        },
        tolerance: "5".into(),
    };
    let json = serde_json::to_string(&e.stored("5")).unwrap();
    let full = serde_json::to_string(&stored).unwrap();
    assert!(json.starts_with(r#"{"eval":{"version":1,"schema":"CREATE TABLE users"#));
    assert!(
        !json.contains("grading"),
        "text grading keeps the version 1 shape"
    );
    assert!(json.ends_with(r#""tolerance":"5"}"#));
    assert!(json.contains(
        r#""candidate_sql":"SELECT DISTINCT city FROM users;","baseline_verdict":"pass"},"#
    ));
    assert!(!json.contains(r#""auto""#) && !json.contains("false"));
    assert!(json.len() < full.len());
    assert_eq!(serde_json::from_str::<Stored>(&json).unwrap(), stored);
    assert_eq!(serde_json::from_str::<Stored>(&full).unwrap(), stored);
    // Through storage and back.
    let backend = MemoryBackend::default();
    storage::write(&backend, STORE_NAME, STORE_VERSION, &e.stored("5")).unwrap();
    let Read::Value(read) =
        storage::read::<Stored>(&backend, STORE_NAME, STORE_VERSION, 1, |_, _| None)
    else {
        panic!("the stored eval must read back");
    };
    assert_eq!(read, stored);
    let (again, tolerance) = EvalEditor::open(lesson(), Some(read));
    assert_eq!(tolerance, "5");
    assert_eq!(again.cases(), e.cases());
    assert_eq!(again.schema(), e.schema());
    assert_eq!(again.summary(), e.summary());
    check(&again);
    // Nothing stored: the lesson and the default tolerance.
    let (fresh, tolerance) = EvalEditor::open(lesson(), None);
    assert_eq!(tolerance, DEFAULT_TOLERANCE);
    assert_eq!(fresh.cases(), lesson().cases.as_slice());
}

#[test]
fn old_stored_data_loads_and_corrupt_data_is_backed_up() {
    let backend = MemoryBackend::default();
    let key = storage::key(STORE_NAME);
    assert_eq!(key, "ie-course:mini-eval");
    // As an earlier build wrote it: a case with only some fields.
    let old = r#"{"v":1,"data":{"eval":{"version":1,"schema":"S","cases":[{"name":"x","candidate_verdict":"pass"}]},"tolerance":"2"}}"#;
    backend.set(&key, old).unwrap();
    let Read::Value(stored) =
        storage::read::<Stored>(&backend, STORE_NAME, STORE_VERSION, 1, |_, _| None)
    else {
        panic!("old data must load");
    };
    let (e, tolerance) = EvalEditor::open(lesson(), Some(stored));
    assert_eq!(tolerance, "2");
    assert_eq!(names(&e), ["x"]);
    assert_eq!(e.cases()[0].baseline_verdict, Verdict::Auto);
    assert_eq!(e.outcome(e.ids().next().unwrap()), Some((false, true)));
    // Corrupt: backed up, and the eval starts from the lesson.
    backend.set(&key, r#"{"v":1,"data":{"eval":3}}"#).unwrap();
    let read = storage::read::<Stored>(&backend, STORE_NAME, STORE_VERSION, 7, |_, _| None);
    assert!(matches!(read, Read::Recovered(_)));
    assert_eq!(
        backend
            .get(&storage::backup_key(STORE_NAME, 7))
            .unwrap()
            .as_deref(),
        Some(r#"{"v":1,"data":{"eval":3}}"#)
    );
}

mod execution;
mod model;
