use super::*;

fn example(volume: &str) -> Bills {
    bills("0.6", "2.5", "1500", "100", volume).unwrap()
}

/// The output's whole text, as a reader (or a test) reads it.
fn wins_said(b: &Bills) -> String {
    let (value, detail) = wins_text(b);
    value + &detail
}

#[test]
fn the_example_inputs() {
    let b = example("1000000000");
    assert_eq!(dollars(b.api), "$600");
    assert_eq!(dollars(b.dedicated), "$1,825");
    assert_eq!(b.gpus, 1);
    assert_eq!(
        plain(b.inputs.break_even_tokens_per_month() / 1e6),
        "3,041.667"
    );
    assert_eq!(verdict(&b), "$1,225 less on the API");
    assert_eq!(dollars(b.dedicated_per_m), "$0.46");
    assert_eq!(
        wins_said(&b),
        "12,167 M tokens/month; below that, dedicated wins only from 3,042 to 3,942 M, \
         6,083 to 7,884 M and 9,125 to 11,826 M"
    );
    assert_eq!(b.worked.len(), 4);
    assert!(b.worked[3].starts_with("From 4 \u{d7} 3,041.667 M = 12,166.667 M"));
    let big = example("1e10");
    assert_eq!(big.gpus, 3);
    assert_eq!(verdict(&big), "$525 less on dedicated");
    // Past a step: 5 billion needs a second GPU, and the API is cheaper again.
    assert_eq!(verdict(&example("5e9")), "$650 less on the API");
}

#[test]
fn one_crossing_and_none() {
    let once = bills("2", "2.5", "1500", "50", "1e9").unwrap();
    assert_eq!(
        wins_said(&once),
        "913 M tokens/month; below that, the API is cheaper"
    );
    assert!(chart_description(&once).contains("every volume from 913 M tokens on"));
    let never = bills("0.1", "2.5", "1500", "100", "1e9").unwrap();
    assert_eq!(never.wins, None);
    assert!(wins_said(&never).starts_with("None: the API is always cheaper"));
    assert!(chart_description(&never).contains("never cross"));
    assert_eq!(never.worked.len(), 3);
}

#[test]
fn many_narrow_ranges_are_counted_not_listed() {
    // One GPU breaks even at 3,041.667 M and holds 3,042.173 M: 6,009 ranges.
    let b = bills("0.6", "2.5", "1157.6", "100", "1e9").unwrap();
    let text = wins_said(&b);
    assert!(
        text.starts_with(
            "18,280,417 M tokens/month; below that, dedicated wins only in \
             6,009 ranges, from 3,041.7 to 3,042.2 M, 6,083 to 6,084 M, \u{2026} and "
        ),
        "{text}"
    );
}

#[test]
fn every_bad_field_is_named() {
    let errs = bills("0", "-1", "x", "101", "").unwrap_err();
    assert_eq!(errs.len(), 5);
}

proptest::proptest! {
    #[test]
    fn valid_inputs_never_show_nan(
        price in 0.001f64..10_000.0,
        hourly in 0.001f64..10_000.0,
        tps in 0.001f64..1e9,
        util in 0.1f64..100.0,
        volume in 1.0f64..1e15,
    ) {
        let b = bills(&price.to_string(), &hourly.to_string(), &tps.to_string(), &util.to_string(), &volume.to_string()).unwrap();
        proptest::prop_assert!(b.api.is_finite() && b.dedicated.is_finite() && b.gpus >= 1);
        let text = format!("{} {} {} {}", verdict(&b), chart_description(&b), wins_said(&b), b.worked.join(" "));
        let clean = !text.contains("NaN") && !text.contains('\u{221e}');
        proptest::prop_assert!(clean, "{}", text);
        proptest::prop_assert!(wins_said(&b).starts_with(|c: char| c.is_ascii_digit()) == b.wins.is_some());
    }
}
