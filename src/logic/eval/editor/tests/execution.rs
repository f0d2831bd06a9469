//! Execution grading in the editor, on the real SQLite (natively).

use super::*;

/// Runs every waiting case on the real SQLite (natively), in one go.
fn run_all(e: &mut EvalEditor) -> usize {
    e.run_waiting(&mut crate::logic::eval::execution::sqlite::run, &mut || {
        true
    })
}

fn ran(e: &EvalEditor, name: &str) -> CaseResultView {
    match e.execution(id_of(e, name)) {
        CaseExecution::Ran(view) => *view,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn execution_grading_runs_the_lesson_eval_on_its_rows() {
    let mut e = editor();
    let text = e.summary();
    assert_eq!(e.execution(id_of(&e, "all names")), CaseExecution::Off);
    assert_eq!(run_all(&mut e), 0, "nothing runs under text grading");
    let (wanted, revision) = (e.runs_wanted(), e.revision());
    assert!(e.set_grading(Grading::Execution));
    assert!(!e.set_grading(Grading::Execution));
    assert!(e.runs_wanted() > wanted);
    assert!(
        e.revision() > revision,
        "a new grading is a change to save and export"
    );
    assert!(e.is_waiting());
    assert_eq!(e.execution(id_of(&e, "all names")), CaseExecution::Waiting);
    assert_eq!(
        e.summary(),
        text,
        "the text grades stand until the runs are in"
    );
    assert_eq!(e.runs_done(), (0, 10));
    // In chunks: `more` says when to stop (at least one case a call).
    assert_eq!(
        e.run_waiting(&mut crate::logic::eval::execution::sqlite::run, &mut || {
            false
        }),
        1
    );
    assert_eq!(e.runs_done(), (1, 10));
    assert_eq!(run_all(&mut e), 9);
    assert!(!e.is_waiting());
    check(&e);
    // The lesson's figures hold on the rows: 9 of 10 each, the same two changed cases.
    let s = e.summary();
    assert_eq!((s.baseline_passes, s.candidate_passes), (9, 9));
    assert_eq!(changed_text(&e.tally()), "1 regressed, 1 fixed");
    assert_eq!(
        e.bucket_entries(Bucket::Regressed, 10)[0].name,
        "emails of admins"
    );
    assert_eq!(
        e.bucket_entries(Bucket::Fixed, 10)[0].name,
        "distinct cities"
    );
    // The admins regression returns every user's email: the four non-admins marked.
    let admins = ran(&e, "emails of admins");
    let [reference, baseline, candidate] = &admins.sides;
    assert_eq!(reference.summary, "2 rows");
    assert_eq!(baseline.matches, Some(true));
    assert_eq!(candidate.matches, Some(false));
    assert_eq!(candidate.summary, "6 rows: 4 rows not in the reference");
    let marked: Vec<&str> = candidate
        .rows
        .iter()
        .filter(|r| r.differs)
        .map(|r| r.cells[0].text.as_str())
        .collect();
    assert_eq!(
        marked,
        ["bruno@example.com", "chen@example.com", "emil@example.com"]
    );
    assert_eq!((candidate.more, candidate.more_differing), (1, 1));
    assert!(ran(&e, "busiest city").ordered);
    assert_eq!(
        ran(&e, "busiest city").sides[0].rows[0].cells[0].text,
        "Paris"
    );
    assert!(e.results_csv().contains(
        "emails of admins,What are the email addresses of the admins?,yes,pass,fail,regressed,"
    ));
}

#[test]
fn execution_grading_follows_edits_and_manual_verdicts_still_win() {
    let mut e = editor();
    e.set_grading(Grading::Execution);
    run_all(&mut e);
    let admins = id_of(&e, "emails of admins");
    // The same rows written differently: text grading fails it, the rows pass it.
    let wanted = e.runs_wanted();
    assert!(e.edit(
        admins,
        Field::CandidateSql,
        "select email from users where is_admin".into()
    ));
    assert!(e.runs_wanted() > wanted);
    assert_eq!(e.execution(admins), CaseExecution::Waiting);
    assert_eq!(
        e.outcome(admins),
        Some((true, false)),
        "its text grade until it runs"
    );
    assert_eq!(run_all(&mut e), 1, "only the edited case runs again");
    assert_eq!(e.outcome(admins), Some((true, true)));
    // A name is not SQL: nothing runs again.
    e.edit(admins, Field::Name, "admins".into());
    assert!(!e.is_waiting());
    // An answer that fails to run fails, with the engine's message.
    let names = id_of(&e, "all names");
    e.edit(names, Field::CandidateSql, "SELEC name FROM users".into());
    run_all(&mut e);
    assert_eq!(e.outcome(names), Some((true, false)));
    let CaseExecution::Ran(view) = e.execution(names) else {
        panic!()
    };
    assert_eq!(
        view.sides[2].error.as_deref(),
        Some("near \"SELEC\": syntax error")
    );
    // A verdict by hand overrides the rows.
    e.set_verdict(names, System::Candidate, Verdict::Pass);
    assert_eq!(e.outcome(names), Some((true, true)));
    // A new schema runs every case again.
    let rows =
        "CREATE TABLE users (id INTEGER, name TEXT, email TEXT, city TEXT, is_admin BOOLEAN);";
    assert!(e.set_schema(rows.into()));
    assert_eq!(e.runs_done(), (0, 10));
    run_all(&mut e);
    // No rows at all: the dropped WHERE no longer shows, and DISTINCT makes no difference.
    assert_eq!(e.outcome(id_of(&e, "distinct cities")), Some((true, true)));
    check(&e);
    // Added cases wait too; back to text grading, nothing shows.
    let added = e.add_case();
    assert!(e.is_waiting());
    assert_eq!(e.execution(added), CaseExecution::Waiting);
    assert!(e.set_grading(Grading::Text));
    assert!(!e.is_waiting());
    assert_eq!(e.execution(admins), CaseExecution::Off);
    assert_eq!(e.outcome(admins), Some((true, false)));
    check(&e);
}

#[test]
fn a_waiting_case_moved_before_the_runner_still_runs() {
    let mut e = editor();
    e.set_grading(Grading::Execution);
    let only_three = |e: &mut EvalEditor| {
        let mut n = 0;
        e.run_waiting(&mut crate::logic::eval::execution::sqlite::run, &mut || {
            n += 1;
            n < 3
        })
    };
    assert_eq!(only_three(&mut e), 3);
    // The fourth case, not run yet, moves up to third place.
    let fourth = e.ids().nth(3).unwrap();
    assert!(e.move_up(fourth));
    assert_eq!(run_all(&mut e), 7);
    assert_eq!(e.runs_done(), (10, 10));
    assert!(!e.is_waiting());
    check(&e);
}

#[test]
fn the_grading_choice_is_stored_exported_imported_and_undone() {
    let mut e = editor();
    e.set_grading(Grading::Execution);
    let json = serde_json::to_string(&e.stored("0")).unwrap();
    assert!(json.starts_with(r#"{"eval":{"version":2,"schema":"CREATE TABLE users"#));
    assert!(json.contains(r#""grading":"execution","cases":["#));
    let stored: Stored = serde_json::from_str(&json).unwrap();
    assert_eq!(stored.eval.grading, Grading::Execution);
    let (again, _) = EvalEditor::open(lesson(), Some(stored));
    assert_eq!(again.grading(), Grading::Execution);
    assert!(again.is_waiting());
    // The eval file carries the schema and the grading.
    let file = e.eval_json();
    assert!(file.contains("\"grading\": \"execution\""), "{file}");
    assert!(file.contains("INSERT INTO users"), "{file}");
    let mut other = editor();
    assert!(other.import(&file));
    assert_eq!(other.grading(), Grading::Execution);
    assert_eq!(other.schema(), e.schema());
    other.undo();
    assert_eq!(other.grading(), Grading::Text);
    // A reset gives the lesson's grading back; its undo, the reader's.
    e.reset("0");
    assert_eq!(e.grading(), Grading::Text);
    e.undo();
    assert_eq!(e.grading(), Grading::Execution);
    // Pasted verdicts keep the grading.
    assert!(e.import("pass,pass\nfail,pass"));
    assert_eq!(e.grading(), Grading::Execution);
    check(&e);
}
