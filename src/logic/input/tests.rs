use super::*;
use crate::logic::{batching, decode, distill, eval, fleet, kv_cache, latency, memory, worksheet};

/// Every field of every form, with the learner's words for it: the tests' way to say which
/// field an error is on by the name the learner reads beside it.
fn every_field() -> Vec<(FormField, &'static str)> {
    fn of<F: Copy + Into<FormField>>(
        fields: &[F],
        name: fn(F) -> &'static str,
    ) -> Vec<(FormField, &'static str)> {
        fields.iter().map(|&f| (f.into(), name(f))).collect()
    }
    let models = decode::Model::ALL;
    let decode: Vec<decode::Field> = std::iter::once(decode::Field::MemoryBandwidth)
        .chain(models.map(decode::Field::Weights))
        .chain(models.map(decode::Field::ReadPerToken))
        .collect();
    let batching: Vec<batching::Field> = std::iter::once(batching::Field::PeakCompute)
        .chain(models.map(batching::Field::Architecture))
        .collect();
    [
        of(memory::Field::ALL, memory::Field::name),
        of(kv_cache::Field::ALL, kv_cache::Field::name),
        of(&decode, decode::Field::name),
        of(&batching, batching::Field::name),
        of(
            crate::logic::break_even::Field::ALL,
            crate::logic::break_even::Field::name,
        ),
        of(fleet::Field::ALL, fleet::Field::name),
        of(latency::Field::ALL, latency::Field::name),
        of(worksheet::Field::ALL, worksheet::Field::name),
        of(distill::Field::ALL, distill::Field::name),
        of(eval::InputField::ALL, eval::InputField::name),
    ]
    .concat()
}

impl FormField {
    /// The form the field is on.
    fn form_of(self) -> Form {
        self.form
    }

    /// The field's name in the learner's words (tests only: the browser's code names a field
    /// through its own form's enum).
    pub fn name(self) -> &'static str {
        every_field()
            .into_iter()
            .find(|(f, _)| *f == self)
            .map_or("", |(_, name)| name)
    }
}

impl PartialEq<&str> for FormField {
    fn eq(&self, name: &&str) -> bool {
        self.name() == *name
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field.name(), self.message)
    }
}

/// Any field: these tests are about the numbers.
const P: crate::logic::memory::Field = crate::logic::memory::Field::Parameters;
use crate::logic::fuzz::{any_text, finite};
use proptest::prelude::*;

/// Within a form, no two fields share a name or a number: the name starts each message the
/// learner reads, so two alike would leave them guessing which field is wrong.
#[test]
fn a_forms_fields_have_distinct_names_and_numbers() {
    let all = every_field();
    for (i, (a, a_name)) in all.iter().enumerate() {
        assert!(!a_name.is_empty(), "{a:?}");
        for (b, b_name) in &all[i + 1..] {
            assert_ne!(a, b, "{a_name} and {b_name}");
            if a.form_of() == b.form_of() {
                assert_ne!(a_name, b_name, "{a:?} and {b:?}");
            }
        }
    }
    assert_eq!(
        FormField::from(memory::Field::GpuMemory).name(),
        "GPU memory"
    );
}

proptest! {
    #[test]
    fn any_text_is_a_number_in_range_or_a_message(
        text in any_text(),
        lo in finite(),
        hi in finite(),
        exclusive in any::<bool>(),
    ) {
        let (min, max) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        match parse_number(P, &text, min, exclusive, max) {
            Ok(x) => {
                prop_assert!(x.is_finite() && x >= min && x <= max);
                prop_assert!(!(exclusive && x == min));
                prop_assert!(!(exclusive && min == 0.0 && x < SMALLEST_POSITIVE));
            }
            Err(e) => {
                prop_assert_eq!(e.field, P);
                prop_assert!(e.message.ends_with('.') && e.message.len() > 5);
            }
        }
    }

    #[test]
    fn a_number_written_out_reads_back_within_two_units_in_the_last_place(x in finite()) {
        for text in [format!("{x}"), format!(" {x:e} ")] {
            let back = parse_number(P, &text, f64::MIN, false, f64::MAX);
            // Within a few units of the largest `f64`, the product can round past it.
            if x.abs() > 1.7976931348623e308 && back.is_err() {
                continue;
            }
            prop_assert!(back.is_ok(), "{text}: {back:?}");
            let back = back.unwrap_or(f64::NAN);
            prop_assert!(ulps_apart(back, x) <= 2, "{text} read back as {back:e}");
        }
    }

    #[test]
    fn any_text_reads_as_the_standard_parser_reads_it(text in any_text()) {
        let ours = read_f64(&text);
        let std = text.trim().parse::<f64>();
        prop_assert_eq!(ours.is_some(), std.is_ok(), "{:?}: {:?} against {:?}", text, ours, std);
        if let (Some(a), Ok(b)) = (ours, std) {
            prop_assert!(a.to_bits() == b.to_bits() || ulps_apart(a, b) <= 2, "{text:?}: {a:e} against {b:e}");
        }
    }

    #[test]
    fn what_a_learner_types_reads_exactly_as_the_standard_parser_reads_it(
        sign in proptest::sample::select(vec!["", "-", "+"]),
        digits in "[0-9]{0,15}",
        point in 0..=16usize,
        exponent in proptest::option::of(-22..=22i32),
        upper in any::<bool>(),
    ) {
        let point = point.min(digits.len());
        let (whole, fraction) = digits.split_at(point);
        let mut text = format!("{sign}{whole}.{fraction}");
        // The digits are scaled by 10^(exponent - fraction digits): kept within ±22.
        let shift = fraction.len() as i32;
        if let Some(e) = exponent.map(|e| e.clamp(shift - 22, shift + 22)) {
            text.push_str(&format!("{}{e}", if upper { 'E' } else { 'e' }));
        }
        let std = text.parse::<f64>().ok();
        prop_assert_eq!(read_f64(&text).map(f64::to_bits), std.map(f64::to_bits), "{}", text);
    }
}

/// How many representable `f64`s lie between two values of the same sign (an infinity
/// is one past the largest finite value).
fn ulps_apart(a: f64, b: f64) -> u64 {
    if a.is_sign_negative() != b.is_sign_negative() {
        return if a == b { 0 } else { u64::MAX };
    }
    a.to_bits().abs_diff(b.to_bits())
}

#[test]
fn the_forms_a_learner_types_read_as_numbers() {
    for (text, want) in [
        ("70", 70.0_f64),
        (" -4.85 ", -4.85),
        ("+.5", 0.5),
        ("5.", 5.0),
        ("007", 7.0),
        ("1e3", 1000.0),
        ("2.5E-4", 2.5e-4),
        ("1e+2", 100.0),
        ("-0", -0.0),
        ("1e-400", 0.0),
    ] {
        assert_eq!(
            read_f64(text).map(f64::to_bits),
            Some(want.to_bits()),
            "{text}"
        );
    }
    assert_eq!(read_f64("1e400"), Some(f64::INFINITY));
    assert_eq!(read_f64("-Infinity"), Some(f64::NEG_INFINITY));
    assert!(read_f64("NaN").is_some_and(f64::is_nan));
    for text in [
        "", "-", "+", ".", "e5", ".e5", "5e", "5e+", "+-5", "1,000", "0x10", "5 0", "1.2.3", "١٢٣",
        "--1",
    ] {
        assert_eq!(read_f64(text), None, "{text:?}");
    }
}

#[test]
fn parses_plain_and_scientific_numbers() {
    assert_eq!(parse_number(P, " 70 ", 0.0, true, 1e6), Ok(70.0));
    assert_eq!(parse_number(P, "4.85", 0.0, true, 1e6), Ok(4.85));
    assert_eq!(parse_number(P, "1e3", 0.0, true, 1e6), Ok(1000.0));
}

#[test]
fn rejects_what_makes_no_sense_with_a_message() {
    let msg = |t: &str| parse_number(P, t, 0.0, true, 1e5).unwrap_err().message;
    assert_eq!(msg(""), "Enter a number.");
    assert_eq!(msg("abc"), "\u{201c}abc\u{201d} is not a number.");
    assert_eq!(msg("NaN"), "Enter a finite number.");
    assert_eq!(msg("1e309"), "Enter a finite number.");
    assert_eq!(msg("0"), "Must be more than 0.");
    assert_eq!(msg("-3"), "Must be more than 0.");
    assert_eq!(msg("-0"), "Must be more than 0.");
    assert_eq!(msg("1e-308"), "Must be at least 0.001.");
    assert_eq!(msg("0.0009"), "Must be at least 0.001.");
    assert_eq!(parse_number(P, "0.001", 0.0, true, 1.0), Ok(0.001));
    assert_eq!(msg("200000"), "Must be at most 100,000.");
}
