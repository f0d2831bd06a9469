//! At scale and against models: fifty thousand cases, keys handed out afresh, and any sequence
//! of changes agreeing with a plain list and with `summarize`.

use super::*;

#[test]
fn fifty_thousand_cases_edit_one_case_at_a_time() {
    let cases: Vec<EvalCase> = (0..50_000)
        .map(|i| EvalCase {
            name: format!("c{i}"),
            reference_sql: "SELECT 1".into(),
            baseline_sql: "SELECT 1".into(),
            candidate_sql: if i % 10 == 0 { "SELECT 2" } else { "SELECT 1" }.into(),
            ..EvalCase::default()
        })
        .collect();
    let mut e = EvalEditor::new(EvalSet {
        cases,
        ..EvalSet::default()
    });
    let ids: Vec<CaseId> = e.ids().collect();
    let slots: Vec<Option<Slot>> = ids.iter().map(|&id| e.slot(id)).collect();
    assert!(e.edit(ids[25_001], Field::CandidateSql, "SELECT 2".into()));
    let changed: Vec<usize> = ids
        .iter()
        .enumerate()
        .filter(|&(i, &id)| e.slot(id) != slots[i])
        .map(|(i, _)| i)
        .collect();
    assert_eq!(changed, [25_001]);
    let s = e.summary();
    assert_eq!(s.cases, 50_000);
    assert_eq!(s.buckets.regressed.len(), 5_001);
    assert!(e.move_up(ids[49_999]));
    assert!(e.remove(ids[0]));
    assert_eq!(e.slot(ids[49_999]).unwrap().index, 49_997);
    check(&e);
}

#[test]
fn an_insert_with_no_room_between_keys_hands_out_keys_afresh() {
    let mut e = editor();
    let first = e.ids().next().unwrap();
    e.set_verdict(first, System::Candidate, Verdict::Fail);
    // Keys packed tight: no room between any two.
    for (i, row) in e.rows.iter_mut().enumerate() {
        row.key = i as u64 + 1;
    }
    e.count_all();
    check(&e);
    let case = EvalCase {
        name: "squeezed".into(),
        baseline_verdict: Verdict::Pass,
        candidate_verdict: Verdict::Fail,
        critical: true,
        ..EvalCase::default()
    };
    e.insert(1, case);
    check(&e);
    assert_eq!(e.rows[1].key, 2 * KEY_GAP, "renumbered");
    assert_eq!(
        e.members_of(Bucket::Regressed).take(2).collect::<Vec<_>>(),
        [0, 1]
    );
    assert!(e.decision("0").unwrap().reason.contains("'squeezed'"));
    // Room again: an insert takes the middle of the gap.
    e.insert(1, EvalCase::default());
    assert_eq!(e.rows[1].key, KEY_GAP + KEY_GAP / 2);
    check(&e);
}

/// A change to outcomes the tally proptest applies, by place in the list.
#[derive(Debug, Clone)]
enum Change {
    Verdict(usize, bool, u8),
    Critical(usize),
    Sql(usize, bool),
    Remove(usize),
    Down(usize),
    Add,
    Undo,
    Columns(Vec<(bool, bool)>),
    Reset,
}

fn change() -> impl proptest::strategy::Strategy<Value = Change> {
    use proptest::prelude::*;
    let pair = (any::<bool>(), any::<bool>());
    prop_oneof![
        4 => (0..14usize, any::<bool>(), 0..3u8).prop_map(|(i, b, v)| Change::Verdict(i, b, v)),
        2 => (0..14usize).prop_map(Change::Critical),
        2 => (0..14usize, any::<bool>()).prop_map(|(i, b)| Change::Sql(i, b)),
        2 => (0..14usize).prop_map(Change::Remove),
        1 => (0..14usize).prop_map(Change::Down),
        1 => Just(Change::Add),
        2 => Just(Change::Undo),
        1 => proptest::collection::vec(pair, 1..14).prop_map(Change::Columns),
        1 => Just(Change::Reset),
    ]
}

proptest::proptest! {
    /// After any edits, the running counts, the bucket lists, the critical regressions
    /// and the decision are what counting the cases from scratch gives (`check`).
    #[test]
    fn incremental_summary_matches_summarize(changes in proptest::collection::vec(change(), 0..60)) {
        let mut e = editor();
        for c in changes {
            let id = |e: &EvalEditor, i: usize| e.ids().nth(i);
            match c {
                Change::Verdict(i, base, v) => if let Some(id) = id(&e, i) {
                    let v = [Verdict::Auto, Verdict::Pass, Verdict::Fail][usize::from(v)];
                    let system = if base { System::Baseline } else { System::Candidate };
                    e.set_verdict(id, system, v);
                },
                Change::Critical(i) => if let Some(id) = id(&e, i) {
                    let on = !e.case(id).unwrap().critical;
                    e.set_critical(id, on);
                },
                Change::Sql(i, same) => if let Some(id) = id(&e, i) {
                    let sql = if same { e.case(id).unwrap().reference_sql.clone() } else { "SELECT 0".into() };
                    e.edit(id, Field::CandidateSql, sql);
                },
                Change::Remove(i) => if let Some(id) = id(&e, i) {
                    e.remove(id);
                },
                Change::Down(i) => if let Some(id) = id(&e, i) {
                    e.move_down(id);
                },
                Change::Add => {
                    e.add_case();
                }
                Change::Undo => {
                    e.undo();
                }
                Change::Columns(rows) => {
                    // One line per case sets verdicts; another count replaces the eval.
                    let rows = if rows.len() % 2 == 0 { rows } else { rows.into_iter().cycle().take(e.len()).collect() };
                    e.import_parsed(Ok(Import::Verdicts(rows)));
                }
                Change::Reset => e.reset("0"),
            }
            check(&e);
            proptest::prop_assert_eq!(e.tally(), Tally::of_summary(&summarize(e.cases())));
        }
    }
}

/// A change the proptest applies, by place in the list.
#[derive(Debug, Clone)]
enum Op {
    Edit(usize, String),
    Sql(usize, bool),
    Verdict(usize, bool),
    Critical(usize),
    Add,
    Remove(usize),
    Up(usize),
    Down(usize),
    Undo,
}

fn op() -> impl proptest::strategy::Strategy<Value = Op> {
    use proptest::prelude::*;
    prop_oneof![
        (0..12usize, "[a-z ]{0,6}").prop_map(|(i, s)| Op::Edit(i, s)),
        (0..12usize, any::<bool>()).prop_map(|(i, b)| Op::Sql(i, b)),
        (0..12usize, any::<bool>()).prop_map(|(i, b)| Op::Verdict(i, b)),
        (0..12usize).prop_map(Op::Critical),
        Just(Op::Add),
        (0..12usize).prop_map(Op::Remove),
        (0..12usize).prop_map(Op::Up),
        (0..12usize).prop_map(Op::Down),
        Just(Op::Undo),
    ]
}

proptest::proptest! {
    /// Any sequence of changes does to the cases what the same changes do to a plain
    /// list, and keeps the bookkeeping (ids, places, cached grades) true.
    #[test]
    fn any_changes_match_a_plain_list(ops in proptest::collection::vec(op(), 0..40)) {
        let mut e = editor();
        let mut model: Vec<EvalCase> = lesson().cases;
        let mut removed: Option<(usize, EvalCase)> = None;
        for op in ops {
            let id = |i: usize| e.ids().nth(i);
            match op {
                Op::Edit(i, s) => if let Some(id) = id(i) {
                    e.edit(id, Field::Name, s.clone());
                    model[i].name = s;
                },
                Op::Sql(i, b) => if let Some(id) = id(i) {
                    let sql = if b { "SELECT 1" } else { "SELECT 2" };
                    e.edit(id, Field::CandidateSql, sql.into());
                    model[i].candidate_sql = sql.into();
                },
                Op::Verdict(i, b) => if let Some(id) = id(i) {
                    let v = if b { Verdict::Pass } else { Verdict::Auto };
                    e.set_verdict(id, System::Baseline, v);
                    model[i].baseline_verdict = v;
                },
                Op::Critical(i) => if let Some(id) = id(i) {
                    let on = !model[i].critical;
                    e.set_critical(id, on);
                    model[i].critical = on;
                },
                Op::Add => {
                    e.add_case();
                    model.push(EvalCase { name: format!("new case {}", model.len() + 1), ..EvalCase::default() });
                }
                Op::Remove(i) => if let Some(id) = id(i) {
                    e.remove(id);
                    removed = Some((i, model.remove(i)));
                },
                Op::Up(i) => if let Some(id) = id(i) {
                    e.move_up(id);
                    if i > 0 { model.swap(i, i - 1); }
                },
                Op::Down(i) => if let Some(id) = id(i) {
                    e.move_down(id);
                    if i + 1 < model.len() { model.swap(i, i + 1); }
                },
                Op::Undo => {
                    e.undo();
                    if let Some((i, case)) = removed.take() {
                        let i = i.min(model.len());
                        model.insert(i, case);
                    }
                }
            }
            proptest::prop_assert_eq!(e.cases(), model.as_slice());
            check(&e);
            proptest::prop_assert_eq!(e.summary(), summarize(&model));
        }
    }
}
