//! Shared pieces of the property tests that throw outside input at every reader and check that
//! every shown figure stays readable. Test-only.

use proptest::prelude::*;

/// Text a reader could type or paste, or a file could hold: any printable text, any bytes read
/// lossily as UTF-8, numbers at the edges of `f64` and of the integers, and a few tricky words.
pub fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "\\PC{0,40}",
        2 => proptest::collection::vec(any::<u8>(), 0..60)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        3 => number_text(),
        1 => proptest::sample::select(TRICKY.to_vec()).prop_map(str::to_string),
    ]
}

/// Words and numbers that have tripped parsers before.
pub const TRICKY: [&str; 24] = [
    "",
    " ",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "infinity",
    "1e309",
    "-1e309",
    "1e308",
    "1e-308",
    "5e-324",
    "-0",
    "-0.0",
    "+0",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "1_000",
    "0x10",
    "١٢٣",
    "<b>1</b>",
    "1,000",
];

/// A finite number as text, in plain or e-notation, from anywhere in `f64`'s range (and the
/// extremes 0, −0, the largest and the smallest).
pub fn number_text() -> impl Strategy<Value = String> {
    (finite(), any::<bool>()).prop_map(|(x, e)| if e { format!("{x:e}") } else { format!("{x}") })
}

/// Any finite `f64`, with its extremes and small whole numbers made likely.
pub fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        2 => any::<f64>().prop_filter("finite", |x| x.is_finite()),
        1 => proptest::sample::select(vec![
            0.0,
            -0.0,
            1.0,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            5e-324,
            1e308,
            1e-308,
            1e15,
            1e16,
            1e18,
            1e19,
            1e20,
            u64::MAX as f64,
        ]),
        2 => -1e6f64..1e6,
        1 => (0u32..10_000).prop_map(f64::from),
        1 => (-20i32..20).prop_map(|e| 10f64.powi(e)),
    ]
}

/// A number as text from within `lo..=hi` (often at or near its ends): what the calculators
/// accept, so that the outputs computed from it can be checked.
pub fn in_range(lo: f64, hi: f64) -> impl Strategy<Value = String> {
    let lo_up = if lo == 0.0 { f64::MIN_POSITIVE } else { lo };
    prop_oneof![
        proptest::sample::select(vec![lo, hi, lo_up, (lo + hi) / 2.0, lo_up * 1.000_001]),
        (0.0f64..=1.0).prop_map(move |t| lo + t * (hi - lo)),
        // Spread over the decades of a positive range.
        (0.0f64..=1.0).prop_map(move |t| {
            let (a, b) = (lo_up.max(1e-300).ln(), hi.max(1e-300).ln());
            (a + t * (b - a)).exp().clamp(lo, hi)
        }),
    ]
    .prop_map(|x| {
        if x == x.trunc() && x.abs() < 1e15 {
            format!("{x}")
        } else {
            format!("{x:e}")
        }
    })
}

/// Why `shown` is not readable, or `None` when it is: it must not hold `NaN`, an infinity
/// (`inf`, `∞`), JavaScript's e-notation (`1e+20`), a negative zero, the digits of a saturated
/// integer, or a number of more than 15 digits. The course's own short e-notation for figures
/// past any real use (`1.2e25 M`, as the fields accept it) is readable.
pub fn unreadable(shown: &str) -> Option<String> {
    let bad = |why: &str| Some(format!("{why} in \u{201c}{shown}\u{201d}"));
    for word in shown.split(|c: char| !c.is_alphanumeric()) {
        if matches!(word, "NaN" | "nan" | "inf" | "Infinity" | "infinity") {
            return bad("not a number");
        }
    }
    if shown.contains('\u{221e}') {
        return bad("an infinity");
    }
    if shown.contains("e+") {
        return bad("JavaScript's e-notation");
    }
    for max in [
        u64::MAX.to_string(),
        i64::MAX.to_string(),
        u32::MAX.to_string(),
        i32::MAX.to_string(),
        (u128::MAX).to_string(),
    ] {
        if shown.contains(&max) {
            return bad("a saturated integer");
        }
    }
    let chars: Vec<char> = shown.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let Some(&c) = chars.get(i) else { break };
        if !c.is_ascii_digit() {
            i += 1;
            continue;
        }
        // A number: digits with group commas and one point.
        let start = i;
        let mut digits = 0;
        while let Some(&d) = chars.get(i) {
            let grouped = d == ','
                && chars.get(i + 1).is_some_and(char::is_ascii_digit)
                && chars.get(i + 2).is_some_and(char::is_ascii_digit)
                && chars.get(i + 3).is_some_and(char::is_ascii_digit);
            let point = d == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if d.is_ascii_digit() {
                digits += 1;
            } else if !(grouped || point) {
                break;
            }
            i += 1;
        }
        if digits > 15 {
            return bad("a figure of more than 15 digits");
        }
        let number: String = chars.get(start..i).unwrap_or_default().iter().collect();
        let before = start.checked_sub(1).and_then(|b| chars.get(b)).copied();
        if matches!(before, Some('-' | '\u{2212}'))
            && number.chars().all(|d| matches!(d, '0' | '.' | ','))
        {
            return bad("a negative zero");
        }
    }
    None
}

/// Why `shown` is not an output that starts with a readable number (after an optional sign,
/// `~`, `≈`, `$` or `<`), or `None` when it is.
pub fn unreadable_figure(shown: &str) -> Option<String> {
    if let Some(why) = unreadable(shown) {
        return Some(why);
    }
    let rest = shown.trim_start_matches(['\u{2212}', '-', '~', '\u{2248}', '$', '<', '>', ' ']);
    if rest.starts_with(|c: char| c.is_ascii_digit()) {
        None
    } else {
        Some(format!(
            "\u{201c}{shown}\u{201d} does not start with its number"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::format;

    // The number formatting's own properties live here: `format.rs` is also compiled into the
    // build's test crate, which has no `fuzz`.
    proptest::proptest! {
        /// What a field is given back reads as a number near the value (three figures in
        /// e-notation, three decimals otherwise).
        #[test]
        fn a_typed_figure_reads_back(x in finite()) {
            let text = format::typed(x);
            let back: f64 = text.parse().map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{text}: {e}")))?;
            let back = if back.is_infinite() && x.abs() > 1e307 { x } else { back };
            proptest::prop_assert!((back - x).abs() <= x.abs() * 5e-3 + 5e-4, "{} for {}", text, x);
        }

        #[test]
        fn every_finite_figure_reads(x in finite(), decimals in 0usize..6) {
            let shown = format::fixed(x, decimals);
            proptest::prop_assert!(
                unreadable_figure(&shown).is_none(),
                "{:?}",
                unreadable_figure(&shown)
            );
            let back: f64 = shown.replace(['\u{2212}'], "-").replace(',', "").parse().unwrap_or(f64::NAN);
            let shown_decimals = shown.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
            // Three figures of the largest finite number round past it.
            let back = if back.is_infinite() && x.abs() > 1e307 { x } else { back };
            // Half a unit of the last place shown, and the nudge of a millionth of a millionth
            // that `fixed` gives a figure on purpose (so that 16.775 shows as 16.78).
            let tolerance = if shown.contains('e') {
                x.abs() * 5e-3
            } else {
                0.5 * 10f64.powi(-shown_decimals) + x.abs() * 1e-12
            };
            proptest::prop_assert!((back - x).abs() <= tolerance, "{} read back as {}", shown, back);
        }
    }

    #[test]
    fn tells_readable_figures_from_unreadable_ones() {
        for ok in [
            "140 GB",
            "1,342 GB",
            "0.08 of one 80 GB GPU",
            "\u{2212}2.5 tok/s",
            "400,000,000,000,000 tokens/day",
            "2 GPUs for inference",
            "0.5 × 10⁹",
            "$12.50 per hour",
            "1.2e25 M tokens/month",
        ] {
            assert_eq!(unreadable_figure(ok), None, "{ok}");
        }
        for bad in [
            "NaN GB",
            "inf tok/s",
            "\u{221e} GPUs",
            "18446744073709551615 GPUs",
            "1,844,674,407,370,955,161 GPUs",
            "1e+20 GB",
            "\u{2212}0 GB",
            "-0.00 %",
            "1234567890123456 B",
        ] {
            assert!(unreadable_figure(bad).is_some(), "{bad}");
        }
        assert!(unreadable_figure("GB 140").is_some());
        assert_eq!(unreadable("Must be more than 0."), None);
        assert_eq!(unreadable("about inference time"), None);
    }
}
