//! Execution grading's values, comparison, wire form and result views.

use super::*;

fn int(i: i64) -> Value {
    Value::Integer(i)
}

fn text(t: &str) -> Value {
    Value::Text(t.into())
}

fn result(columns: &[&str], rows: Vec<Vec<Value>>) -> RunOutcome {
    Ok(QueryResult {
        columns: columns.iter().map(|c| c.to_string()).collect(),
        rows,
    })
}

#[test]
fn rows_compare_as_multisets_unless_the_reference_sorts() {
    let a = result(&["n"], vec![vec![int(1)], vec![int(2)], vec![int(2)]]);
    let shuffled = result(&["n"], vec![vec![int(2)], vec![int(1)], vec![int(2)]]);
    assert!(compare(&a, &shuffled, false).matches);
    let c = compare(&a, &shuffled, true);
    assert!(!c.matches);
    assert_eq!(c.differing, [true, true, false]);
    assert_eq!(c.summary, "3 rows, the reference's rows in another order");
    assert!(compare(&a, &a, true).matches);
    assert_eq!(
        compare(&a, &a, false).summary,
        "3 rows, the same as the reference"
    );
}

#[test]
fn duplicates_count() {
    let once = result(&["city"], vec![vec![text("Paris")], vec![text("Lyon")]]);
    let twice = result(
        &["city"],
        vec![vec![text("Paris")], vec![text("Lyon")], vec![text("Paris")]],
    );
    let c = compare(&once, &twice, false);
    assert!(!c.matches);
    assert_eq!(c.differing.iter().filter(|&&d| d).count(), 1);
    assert_eq!(c.summary, "3 rows: 1 row not in the reference");
    let c = compare(&twice, &once, false);
    assert!(!c.matches);
    assert_eq!(c.differing, [false, false]);
    assert_eq!(c.summary, "2 rows: 1 of the reference's rows missing");
}

#[test]
fn nulls_are_values_and_numbers_compare_by_value() {
    let a = result(
        &["x", "y"],
        vec![vec![Value::Null, int(2)], vec![int(0), Value::Real(1.5)]],
    );
    let b = result(
        &["x", "y"],
        vec![
            vec![Value::Real(-0.0), Value::Real(1.5)],
            vec![Value::Null, Value::Real(2.0)],
        ],
    );
    assert!(compare(&a, &b, false).matches);
    let c = result(
        &["x", "y"],
        vec![
            vec![Value::Null, int(2)],
            vec![Value::Null, Value::Real(1.5)],
        ],
    );
    let cmp = compare(&a, &c, false);
    assert!(!cmp.matches);
    assert_eq!(cmp.differing, [false, true]);
    // NULL is not the text "NULL", nor 0, nor the empty text.
    for other in [text("NULL"), int(0), text("")] {
        let r = result(&["x"], vec![vec![other]]);
        assert!(!compare(&result(&["x"], vec![vec![Value::Null]]), &r, false).matches);
    }
    assert!(
        !compare(
            &result(&["x"], vec![vec![text("1")]]),
            &result(&["x"], vec![vec![int(1)]]),
            false
        )
        .matches
    );
}

#[test]
fn column_count_matters_and_names_do_not() {
    let a = result(&["COUNT(*)"], vec![vec![int(6)]]);
    let b = result(&["count( * )"], vec![vec![int(6)]]);
    assert!(compare(&a, &b, false).matches);
    let wide = result(&["id", "name"], vec![vec![int(6), text("x")]]);
    let c = compare(&a, &wide, false);
    assert!(!c.matches);
    assert_eq!(c.summary, "2 columns where the reference has 1");
    assert_eq!(c.differing, [true]);
}

#[test]
fn an_answer_that_fails_to_run_fails_with_the_engines_message() {
    let a = result(&["n"], vec![vec![int(1)]]);
    let err: RunOutcome = Err("near \"SELEC\": syntax error".into());
    let c = compare(&a, &err, false);
    assert!(!c.matches);
    assert_eq!(c.summary, "fails to run: near \"SELEC\": syntax error");
    // A reference that fails grades nothing: even the same error fails.
    let c = compare(&err, &err, false);
    assert!(!c.matches);
    assert!(c.summary.starts_with("fails to run"));
    assert_eq!(
        compare(&err, &a, false).summary,
        "cannot be graded: the reference fails to run"
    );
    // Empty results match each other.
    assert!(compare(&result(&[], vec![]), &result(&[], vec![]), true).matches);
}

#[test]
fn order_by_is_found_at_the_top_level_only() {
    assert!(has_order_by("SELECT name FROM users ORDER BY name;"));
    assert!(has_order_by("select a from t order\n  by 1 desc limit 1"));
    assert!(has_order_by(
        "SELECT a FROM t UNION SELECT b FROM u ORDER BY 1"
    ));
    assert!(!has_order_by("SELECT name FROM users"));
    assert!(!has_order_by("SELECT 'ORDER BY' FROM t"));
    assert!(!has_order_by("SELECT \"order\" FROM t WHERE \"by\" = 1"));
    assert!(!has_order_by("SELECT x FROM (SELECT x FROM t ORDER BY x)"));
    assert!(!has_order_by("SELECT rank() OVER (ORDER BY s) FROM t"));
    assert!(!has_order_by("SELECT x FROM t -- ORDER BY x"));
    assert!(!has_order_by("SELECT x /* ORDER BY x */ FROM t"));
    assert!(!has_order_by("SELECT border, by FROM t"));
    assert!(!has_order_by("SELECT 'it''s' FROM t"));
}

#[test]
fn the_wire_form_round_trips_every_kind_of_value() {
    let outcome = result(
        &["a", "b", "c", "d", "e"],
        vec![vec![
            Value::Null,
            int(-7),
            Value::Real(2.0),
            text("x\"y"),
            Value::Blob {
                blob: "00ff".into(),
            },
        ]],
    );
    assert_eq!(parse_wire(&wire_json(&outcome)), outcome);
    let err: RunOutcome = Err("no such table: u".into());
    assert_eq!(wire_json(&err), r#"{"error":"no such table: u"}"#);
    assert_eq!(parse_wire(&wire_json(&err)), err);
    assert!(parse_wire("junk")
        .unwrap_err()
        .starts_with("the SQL engine's answer"));
    assert!(parse_wire(r#"{"ok": {"columns": ["a"], "rows": [[[1]]]}}"#)
        .unwrap_err()
        .ends_with("(a value of an unknown kind)"));
    assert!(parse_wire(r#"{"ok": {"rows": []}}"#)
        .unwrap_err()
        .ends_with("(no columns)"));
    // A whole real stays a real; an integer stays an integer.
    let two = parse_wire(r#"{"ok": {"columns": ["a", "b"], "rows": [[2.0, 2]]}}"#).unwrap();
    assert_eq!(two.rows[0], [Value::Real(2.0), int(2)]);
}

#[test]
fn values_show_as_sqlite_prints_them() {
    assert_eq!(Value::Null.shown(), "NULL");
    assert_eq!(int(42).shown(), "42");
    assert_eq!(Value::Real(2.0).shown(), "2.0");
    assert_eq!(Value::Real(2.5).shown(), "2.5");
    assert_eq!(Value::Real(1.0 / 3.0).shown(), "0.333333333333333");
    assert_eq!(Value::Real(1e20).shown(), "1.0e+20");
    assert_eq!(Value::Real(-1.5e-7).shown(), "-1.5e-07");
    assert_eq!(Value::Real(123456.75).shown(), "123456.75");
    assert_eq!(Value::Real(-0.0).shown(), "0.0");
    assert_eq!(
        Value::Blob {
            blob: "00ff".into()
        }
        .shown(),
        "x'00ff'"
    );
}

#[test]
fn the_result_view_caps_rows_and_marks_the_differing_ones() {
    let emails: Vec<Vec<Value>> = (0..7).map(|i| vec![text(&format!("u{i}@x"))]).collect();
    let runs = CaseRuns {
        reference: result(&["email"], vec![emails[1].clone(), emails[6].clone()]),
        baseline: result(&["email"], vec![emails[1].clone(), emails[6].clone()]),
        candidate: result(&["email"], emails.clone()),
    };
    let view = case_result_view(&runs, "SELECT email FROM users WHERE is_admin");
    assert!(!view.ordered);
    let [reference, baseline, candidate] = &view.sides;
    assert_eq!(reference.summary, "2 rows");
    assert_eq!(reference.matches, None);
    assert_eq!(baseline.matches, Some(true));
    assert_eq!(candidate.matches, Some(false));
    assert_eq!(candidate.summary, "7 rows: 5 rows not in the reference");
    assert_eq!(candidate.rows.len(), SHOWN_ROWS);
    let marks: Vec<bool> = candidate.rows.iter().map(|r| r.differs).collect();
    assert_eq!(marks, [true, false, true, true, true]);
    assert_eq!((candidate.more, candidate.more_differing), (2, 1));
    assert_eq!(candidate.columns, ["email"]);
    assert_eq!(runs.outcome(false), (true, false));
    // An error shows the engine's message on its side.
    let broken = CaseRuns {
        candidate: Err("near \"FORM\": syntax error".into()),
        ..runs
    };
    let view = case_result_view(&broken, "SELECT 1");
    assert_eq!(
        view.sides[2].error.as_deref(),
        Some("near \"FORM\": syntax error")
    );
    assert!(view.sides[2].rows.is_empty());
    assert_eq!(
        view.sides[2].summary,
        "fails to run: near \"FORM\": syntax error"
    );
}

#[test]
fn grading_ids_round_trip() {
    for g in [Grading::Text, Grading::Execution] {
        assert_eq!(Grading::from_id(g.id()), g);
    }
    assert_eq!(Grading::from_id("junk"), Grading::Text);
    assert_eq!(Grading::default(), Grading::Text);
}
