use super::*;
use crate::logic::distill::{SEED_PRESET, WRONG_TEACHER_PRESET};
use crate::logic::storage::{self, Backend, MemoryBackend, Read};
use proptest::prelude::*;

#[test]
fn tokens_are_added_and_removed_within_the_limits_and_the_hard_label_follows_its_token() {
    let mut x = Inputs::lesson(&WRONG_TEACHER_PRESET);
    assert_eq!(x.hard_pick, Some(1));
    let n = x.rows.len();
    x.add_token();
    assert_eq!(x.rows.len(), n + 1);
    assert_eq!(x.rows[n].label, format!("token {n}"));
    assert_eq!(x.rows[n].values, ["0", "0", "0"].map(String::from));
    // Removing a token before the hard label moves the label down with its token.
    x.remove_token(0);
    assert_eq!(x.hard_pick, Some(0));
    // Removing the hard label's own token gives the choice back to the teacher.
    x.remove_token(0);
    assert_eq!(x.hard_pick, None);
    // Never fewer than two tokens, never more than ten, and no index past the end.
    while x.rows.len() > MIN_TOKENS {
        x.remove_token(x.rows.len() - 1);
    }
    x.remove_token(0);
    x.remove_token(99);
    assert_eq!(x.rows.len(), MIN_TOKENS);
    x.set_entry(Entry::Logits);
    for _ in 0..20 {
        x.add_token();
    }
    assert_eq!(x.rows.len(), MAX_TOKENS);
    assert_eq!(x.rows[MAX_TOKENS - 1].values[0], "-5");
    assert!(x.check().is_ok(), "{:?}", x.check());
}

#[test]
fn an_example_replaces_the_tokens_but_keeps_the_settings_and_edits_land_in_place() {
    let mut x = Inputs::lesson(&SEED_PRESET);
    x.temperature = "3".into();
    x.steps = "40".into();
    x.set_entry(Entry::Logits);
    x.set_label(0, "Paris!".into());
    x.set_value(1, 2, "-1".into());
    x.set_value(99, 0, "junk".into());
    x.set_label(99, "junk".into());
    assert_eq!(x.rows[0].label, "Paris!");
    assert_eq!(x.rows[1].values[2], "-1");
    x.apply_example(&WRONG_TEACHER_PRESET);
    assert_eq!(x.preset, WRONG_TEACHER_PRESET.id);
    assert_eq!(x.rows, rows_of(&WRONG_TEACHER_PRESET));
    assert_eq!((x.entry, x.hard_pick), (Entry::Weights, Some(1)));
    assert_eq!((x.temperature.as_str(), x.steps.as_str()), ("3", "40"));
}

fn seed_rows() -> Vec<Row> {
    rows_of(&SEED_PRESET)
}

#[test]
fn evaluates_the_course_example_and_collects_every_problem() {
    let c = evaluate(&seed_rows(), Entry::Weights, None, "1", "0.5").unwrap();
    assert_eq!(loss_text(c.students[0].soft.value), "0.886");
    assert_eq!(loss_text(c.students[1].soft.value), "1.203");
    let mut rows = seed_rows();
    rows[1].values[0] = "x".into();
    rows[2].values[1] = "-1".into();
    for v in &mut rows.iter_mut().map(|r| &mut r.values[2]) {
        *v = "0".into();
    }
    let p = evaluate(&rows, Entry::Weights, None, "0", "2").unwrap_err();
    assert_eq!(p.cells.len(), 2);
    assert_eq!((p.cells[0].0, p.cells[0].1), (0, 1));
    assert_eq!((p.cells[1].0, p.cells[1].1), (1, 2));
    assert_eq!(p.columns.len(), 1);
    assert_eq!(p.columns[0].0, 2);
    assert!(p.temperature.is_some() && p.alpha.is_some());
    for bad in ["", "NaN", "1e309", "abc"] {
        let mut rows = seed_rows();
        rows[0].values[1] = bad.into();
        assert!(evaluate(&rows, Entry::Weights, None, "1", "0.5").is_err());
    }
}

#[test]
fn switching_entry_keeps_the_distributions() {
    let rows = seed_rows();
    let logits = convert_rows(&rows, Entry::Weights, Entry::Logits);
    assert_eq!(logits[0].values[0], "-0.357");
    let c = evaluate(&logits, Entry::Logits, None, "1", "0.5").unwrap();
    assert_eq!(loss_text(c.students[0].soft.value), "0.886");
    assert_eq!(loss_text(c.entropy), "0.863");
    let back = convert_rows(&logits, Entry::Logits, Entry::Weights);
    let close = |text: &str, x: f64| (text.parse::<f64>().unwrap() - x).abs() < 1e-3;
    assert!(close(&back[0].values[0], 0.7), "{}", back[0].values[0]);
    assert!(close(&back[3].values[2], 0.3), "{}", back[3].values[2]);
    // A zero weight becomes the smallest logit, and a column with junk is left alone.
    let mut rows = seed_rows();
    rows[3].values[1] = "0".into();
    rows[0].values[2] = "x".into();
    let logits = convert_rows(&rows, Entry::Weights, Entry::Logits);
    assert_eq!(logits[3].values[1], "-100");
    assert_eq!(logits[0].values[2], "x");
}

#[test]
fn infinite_losses_get_a_sentence_naming_the_token() {
    let mut rows = seed_rows();
    rows[2].values[2] = "0".into();
    let c = evaluate(&rows, Entry::Weights, None, "1", "0.5").unwrap();
    assert_eq!(loss_text(c.students[1].soft.value), "\u{221e}");
    assert_eq!(loss_text(c.students[1].kl), "\u{221e}");
    let s = infinity_sentence(&rows, "Student B", "soft-target", &c.students[1].soft).unwrap();
    assert!(s.contains("\u{201c}Europe\u{201d} probability 0"), "{s}");
    assert!(infinity_sentence(&rows, "Student B", "hard-label", &c.students[1].hard).is_none());
    assert_eq!(shown_label(&rows, 9), "token 9");
}

#[test]
fn presets_pick_the_hard_label_only_when_the_teacher_is_wrong() {
    assert_eq!(hard_pick_of(&SEED_PRESET), None);
    assert_eq!(hard_pick_of(&distill::WRONG_TEACHER_PRESET), Some(1));
}

/// The inputs an address holds, or the lesson's when it holds none.
fn through_address(inputs: &Inputs) -> Result<Inputs, String> {
    let search = query::merged("?keep=1", URL_PREFIX, &inputs.to_query(&SEED_PRESET));
    Inputs::from_query(&search, &SEED_PRESET)
        .map(|found| found.unwrap_or_else(|| Inputs::lesson(&SEED_PRESET)))
}

fn stored(raw: &str) -> Read<Inputs> {
    let b = MemoryBackend::default();
    b.set("ie-course:distillation", raw).unwrap();
    storage::read::<Inputs>(&b, STORE_NAME, STORE_VERSION, 42, |_, _| None)
}

#[test]
fn the_lesson_and_its_presets_make_short_links() {
    let lesson = Inputs::lesson(&SEED_PRESET);
    assert_eq!(lesson.check(), Ok(()));
    assert!(lesson.to_query(&SEED_PRESET).is_empty());
    assert_eq!(Inputs::from_query("", &SEED_PRESET), Ok(None));
    assert_eq!(Inputs::from_query("?wm.params=8&x", &SEED_PRESET), Ok(None));
    let wrong = Inputs::lesson(&WRONG_TEACHER_PRESET);
    assert_eq!(wrong.hard_pick, Some(1));
    assert_eq!(
        wrong.to_query(&SEED_PRESET),
        [("preset", "wrong-teacher".to_string())]
    );
    assert_eq!(through_address(&wrong), Ok(wrong));
}

#[test]
fn an_edited_playground_travels_in_a_readable_address() {
    let mut inputs = Inputs::lesson(&SEED_PRESET);
    inputs.rows[1].values[0] = "0.25".into();
    inputs.rows[3].label = "Lyon, 100%".into();
    inputs.temperature = "2".into();
    inputs.train_loss = TrainLoss::Mix;
    inputs.hard_pick = Some(2);
    let query = inputs.to_query(&SEED_PRESET);
    assert_eq!(
        query::merged("", URL_PREFIX, &query),
        "?dl.labels=Paris%2CFrance%2CEurope%2CLyon%252C%20100%2525\
         &dl.teacher=0.7%2C0.25%2C0.07%2C0.03&dl.hard=2&dl.t=2&dl.train=mix"
    );
    assert_eq!(through_address(&inputs), Ok(inputs.clone()));
    // A hand-written link with the lesson's other keys left out.
    let found = Inputs::from_query("?dl.t=3&dl.entry=logits&dl.a=1,2,3,4", &SEED_PRESET);
    let found = found.unwrap().unwrap();
    assert_eq!(found.temperature, "3");
    assert_eq!(found.entry, Entry::Logits);
    assert_eq!(found.rows[3].values, ["0.03", "4", "0.3"]);
}

#[test]
fn a_broken_address_says_what_is_wrong() {
    for (search, expected) in [
        (
            "?dl.t=abc",
            "Temperature T: \u{201c}abc\u{201d} is not a number.",
        ),
        ("?dl.t=0", "Temperature T: Must be at least 0.1."),
        ("?dl.alpha=2", "\u{3b1}: Must be at most 1."),
        ("?dl.steps=2.5", "Steps: Enter a whole number of steps."),
        ("?dl.lr=0", "Learning rate: Must be more than 0."),
        (
            "?dl.preset=nope",
            "There is no example called \u{201c}nope\u{201d}.",
        ),
        ("?dl.entry=bits", "not \u{201c}bits\u{201d}"),
        (
            "?dl.teacher=1,2,3",
            "gives 4 labels but 3 values for Teacher",
        ),
        (
            "?dl.labels=a&dl.teacher=1&dl.a=1&dl.b=1",
            "2 to 10 tokens, not 1",
        ),
        ("?dl.b=0,0,0,0", "Student B: At least one token"),
        ("?dl.a=1,-1,1,1", "Student A, token 1: Must be at least 0."),
        (
            "?dl.a=1,NaN,1,1",
            "Student A, token 1: Enter a finite number.",
        ),
        (
            "?dl.entry=logits&dl.a=1,1,1,1e9",
            "Student A, token 3: Must be at most 100.",
        ),
        ("?dl.hard=4", "numbered 0 to 3"),
        ("?dl.hard=-1", "not \u{201c}-1\u{201d}"),
        ("?dl.train=all", "not \u{201c}all\u{201d}"),
        ("?dl.start=random", "not \u{201c}random\u{201d}"),
    ] {
        let problem = Inputs::from_query(search, &SEED_PRESET).unwrap_err();
        assert!(problem.contains(expected), "{search}: {problem}");
    }
    let long = format!("?dl.t={}", "9".repeat(500));
    let problem = Inputs::from_query(&long, &SEED_PRESET).unwrap_err();
    assert!(
        problem.contains("too long") && problem.len() < 80,
        "{problem}"
    );
    let label = format!("?dl.labels=a,b,c,{}", "x".repeat(25));
    let problem = Inputs::from_query(&label, &SEED_PRESET).unwrap_err();
    assert!(problem.contains("longer than 24"), "{problem}");
    let many = format!("?dl.labels={}", ",".repeat(100_000));
    let problem = Inputs::from_query(&many, &SEED_PRESET).unwrap_err();
    assert!(problem.contains("not 100001"), "{problem}");
}

#[test]
fn the_address_wins_over_storage_and_a_broken_one_gives_the_lesson() {
    let mut saved = Inputs::lesson(&SEED_PRESET);
    saved.temperature = "4".into();
    let linked = Inputs::lesson(&WRONG_TEACHER_PRESET);
    let (start, message) =
        starting_inputs(&SEED_PRESET, Ok(Some(linked.clone())), Some(saved.clone()));
    assert_eq!((start, message), (linked, None));
    let (start, message) = starting_inputs(&SEED_PRESET, Ok(None), Some(saved.clone()));
    assert_eq!((start, message), (saved.clone(), None));
    let (start, message) = starting_inputs(&SEED_PRESET, Ok(None), None);
    assert_eq!((start, message), (Inputs::lesson(&SEED_PRESET), None));
    let (start, message) = starting_inputs(&SEED_PRESET, Err("Steps: No.".into()), Some(saved));
    assert_eq!(start, Inputs::lesson(&SEED_PRESET));
    assert!(message.unwrap().ends_with("example. Steps: No."));
}

#[test]
fn stored_values_are_checked_and_bad_ones_backed_up() {
    let mut inputs = Inputs::lesson(&WRONG_TEACHER_PRESET);
    inputs.entry = Entry::Logits;
    inputs.rows[0].values = ["2".into(), "-1.5".into(), "0".into()];
    let b = MemoryBackend::default();
    storage::write(&b, STORE_NAME, STORE_VERSION, &inputs).unwrap();
    let raw = b.get("ie-course:distillation").unwrap().unwrap();
    assert!(raw.starts_with(r#"{"v":1,"data":{"preset":"wrong-teacher","entry":"logits""#));
    assert_eq!(stored(&raw), Read::Value(inputs));
    let bad_t = raw.replace(r#""temperature":"1""#, r#""temperature":"-3""#);
    for raw in [
        "{\"v\":1,\"data\":",
        r#"{"v":2,"data":{}}"#,
        r#"{"v":1,"data":{"preset":"eiffel"}}"#,
        bad_t.as_str(),
    ] {
        let Read::Recovered(notice) = stored(raw) else {
            panic!("{raw} should not load");
        };
        assert!(
            notice.text.contains("ie-course:backup:distillation:42"),
            "{}",
            notice.text
        );
    }
    let Read::Recovered(notice) = stored(&bad_t) else {
        unreachable!()
    };
    assert!(
        notice.text.contains("Temperature T: Must be at least 0.1."),
        "{}",
        notice.text
    );
}

#[test]
fn lists_keep_commas_and_percent_signs() {
    for items in [
        vec!["a,b", "%2C", "100%", "%", ""],
        vec!["", ""],
        vec!["%zz,%25"],
    ] {
        let items: Vec<String> = items.into_iter().map(String::from).collect();
        assert_eq!(split_list(&join_list(&items)), items);
    }
    assert_eq!(split_list("a%2cb,%q,%"), ["a,b", "%q", "%"]);
}

/// Inputs the playground accepts: any example, 2–10 tokens with any short labels, values
/// of either kind, and every setting in its range.
fn valid_inputs() -> impl Strategy<Value = Inputs> {
    (MIN_TOKENS..=MAX_TOKENS, any::<bool>())
        .prop_flat_map(|(n, logits)| {
            let value = if logits {
                -100.0..100.0f64
            } else {
                0.0..1e8f64
            };
            let column = prop::collection::vec(value, n);
            (
                prop::sample::select(PRESETS.map(|p| p.id).to_vec()),
                prop::collection::vec("\\PC{0,24}", n),
                (column.clone(), column.clone(), column),
                Just(logits),
                prop::option::of(0..n),
                (
                    0.1..=20.0f64,
                    0.0..=1.0f64,
                    0.001..=100.0f64,
                    1..=MAX_TRAIN_STEPS,
                ),
                (prop::sample::select(TrainLoss::ALL.to_vec()), any::<bool>()),
            )
        })
        .prop_map(
            |(preset, labels, columns, logits, hard_pick, numbers, train)| {
                let (t, alpha, lr, steps) = numbers;
                let text = |x: f64| {
                    if x.fract() == 0.0 {
                        format!("{x:.0}")
                    } else {
                        x.to_string()
                    }
                };
                let rows = labels
                    .into_iter()
                    .enumerate()
                    .map(|(i, label)| Row {
                        label,
                        // A column of weights is never all zero: the first token gets at least 1.
                        values: [0, 1, 2].map(|d| {
                            let x = [&columns.0, &columns.1, &columns.2][d][i];
                            text(if i == 0 && !logits { x + 1.0 } else { x })
                        }),
                    })
                    .collect();
                Inputs {
                    preset,
                    rows,
                    entry: if logits {
                        Entry::Logits
                    } else {
                        Entry::Weights
                    },
                    hard_pick,
                    temperature: text(t),
                    alpha: text(alpha),
                    train_loss: train.0,
                    train_start: if train.1 {
                        TrainStart::Seeded
                    } else {
                        TrainStart::Uniform
                    },
                    learning_rate: text(lr),
                    steps: steps.to_string(),
                }
            },
        )
}

proptest! {
    #[test]
    fn what_is_written_reads_back_unchanged(inputs in valid_inputs()) {
        prop_assert_eq!(inputs.check(), Ok(()));
        prop_assert_eq!(through_address(&inputs), Ok(inputs.clone()));
        let b = MemoryBackend::default();
        storage::write(&b, STORE_NAME, STORE_VERSION, &inputs).unwrap();
        prop_assert_eq!(
            storage::read::<Inputs>(&b, STORE_NAME, STORE_VERSION, 0, |_, _| None),
            Read::Value(inputs)
        );
    }

    #[test]
    fn typed_steps_read_in_range_or_say_why(text in crate::logic::fuzz::any_text()) {
        match parse_steps(&text) {
            Ok(n) => prop_assert!(n >= 1),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }

    #[test]
    fn any_address_gives_usable_inputs_or_a_message(search in "\\PC{0,200}") {
        if let Ok(Some(inputs)) = Inputs::from_query(&search, &SEED_PRESET) {
            prop_assert_eq!(inputs.check(), Ok(()));
        }
    }

    #[test]
    fn any_playground_keys_give_usable_inputs_or_a_message(
        pairs in prop::collection::vec(
            (
                prop::sample::select(vec![
                    "preset", "entry", "labels", "teacher", "a", "b", "hard", "t", "alpha",
                    "lr", "steps", "train", "start", "other",
                ]),
                prop_oneof!["[-0-9.,e%]{0,30}", "\\PC{0,30}", "(auto|logits|mix|seeded|wrong-teacher)"],
            ),
            0..8,
        )
    ) {
        let search: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("dl.{k}={}", query::encode(v)))
            .collect();
        match Inputs::from_query(&format!("?{}", search.join("&")), &SEED_PRESET) {
            Ok(Some(inputs)) => prop_assert_eq!(inputs.check(), Ok(())),
            Ok(None) => prop_assert!(pairs.is_empty()),
            Err(problem) => prop_assert!(!problem.is_empty() && problem.len() < 200),
        }
    }

    #[test]
    fn any_stored_bytes_load_or_are_backed_up(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let raw = String::from_utf8_lossy(&bytes);
        if let Read::Value(inputs) = stored(&raw) {
            prop_assert_eq!(inputs.check(), Ok(()));
        }
        let _ = serde_json::from_slice::<Inputs>(&bytes);
        let _ = Inputs::from_query(&raw, &SEED_PRESET);
    }

    #[test]
    fn any_envelope_with_valid_json_loads_or_is_backed_up(
        temperature in "\\PC{0,12}",
        hard in any::<Option<u64>>(),
        count in 0..14usize,
        value in "\\PC{0,12}",
    ) {
        let token = serde_json::json!({
            "label": "x", "teacher": value, "student_a": "1", "student_b": "1"
        });
        let data = serde_json::json!({
            "preset": "eiffel", "entry": "weights", "tokens": vec![token; count],
            "hard": hard, "temperature": temperature, "alpha": "0.5", "train_loss": "soft",
            "train_start": "uniform", "learning_rate": "1", "steps": "150",
        });
        let raw = serde_json::json!({ "v": 1, "data": data }).to_string();
        match stored(&raw) {
            Read::Value(inputs) => prop_assert_eq!(inputs.check(), Ok(())),
            Read::Recovered(notice) => prop_assert!(notice.text.contains("backup")),
            Read::Missing => prop_assert!(false, "a stored value was missed"),
        }
    }
}
