//! Numbers a learner types: parsed, range-checked, and turned into readable messages.

use std::fmt;

/// An input a learner typed that the maths cannot use, with a message they can read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// Which input is wrong: a field of one form.
    pub field: FormField,
    /// What is wrong with it, as a full sentence.
    pub message: String,
}

impl InputError {
    /// An error on `field` with `message`.
    pub fn new(field: impl Into<FormField>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field.name(), self.message)
    }
}

/// Names a form's fields: each module that reads a form has an enum of its fields, and
/// [`FormField`] holds any of them, so that an error and the field it belongs beside find each
/// other by type, not by text.
macro_rules! forms {
    ($($(#[$doc:meta])* $form:ident($field:ty),)*) => {
        /// The field an [`InputError`] is about: a field of one form.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum FormField {
            $($(#[$doc])* $form($field),)*
        }

        impl FormField {
            /// The field's name in the learner's words, as its messages read it. This knows
            /// every form's words: code in the browser names a field through its own form's
            /// enum (`memory::Field::name`), so that a module carries only its forms' words.
            pub fn name(self) -> &'static str {
                match self {
                    $(FormField::$form(f) => f.name(),)*
                }
            }
        }

        $(
            impl From<$field> for FormField {
                fn from(f: $field) -> Self {
                    FormField::$form(f)
                }
            }

            impl PartialEq<$field> for FormField {
                fn eq(&self, f: &$field) -> bool {
                    *self == FormField::$form(*f)
                }
            }
        )*
    };
}

forms! {
    /// Weight memory: the model's size, its precision and the GPU's memory.
    Memory(super::memory::Field),
    /// The KV cache and runtime allowance: a model's shape, context and batch.
    KvCache(super::kv_cache::Field),
    /// The decode ceiling: bandwidth and each model's weights.
    Decode(super::decode::Field),
    /// Batching: peak compute and each model's architecture.
    Batching(super::batching::Field),
    /// Shared or dedicated: prices, throughput and volume.
    BreakEven(super::break_even::Field),
    /// Swapping a fleet to a smaller model: traffic and GPUs.
    Fleet(super::fleet::Field),
    /// Latency: the distribution's shape and an end-to-end request's parts.
    Latency(super::latency::Field),
    /// The try-it worksheet: prompts, threshold and speeds.
    Worksheet(super::worksheet::Field),
    /// The distillation playground: distributions and training settings.
    Distill(super::distill::Field),
    /// The mini eval: tolerance and imports.
    Eval(super::eval::InputField),
}

/// Tests say which field an error is on by the name the learner reads beside it.
#[cfg(test)]
impl PartialEq<&str> for FormField {
    fn eq(&self, name: &&str) -> bool {
        self.name() == *name
    }
}

/// Declares a form's fields: an enum of them, each with its name in the learner's words.
#[macro_export]
macro_rules! form_fields {
    ($(#[$doc:meta])* pub enum $field:ident { $($(#[$vdoc:meta])* $variant:ident => $name:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $field {
            $($(#[$vdoc])* $variant,)*
        }

        impl $field {
            /// Every field, in the order the form shows them.
            #[allow(dead_code, reason = "tests walk every field; a module may not")]
            pub const ALL: &'static [$field] = &[$($field::$variant,)*];

            /// The field's name in the learner's words.
            pub fn name(self) -> &'static str {
                match self {
                    $($field::$variant => $name,)*
                }
            }
        }
    };
}

/// The smallest value a quantity that must be more than 0 takes: the last place
/// [`super::format::plain`] shows, so an accepted value never reads as 0, and no figure
/// divided by it runs to infinity.
pub const SMALLEST_POSITIVE: f64 = 0.001;

/// Parses a number a learner typed, accepting a decimal comma-free form like `70`, `4.85` or
/// `1e3`, and checks it lies in `min..=max`.
///
/// Rejects empty text, non-numbers, NaN, infinities and values out of range, each with its own
/// message. `min_exclusive` makes the lower bound strict (for quantities that cannot be zero);
/// with a bound of 0, values between 0 and [`SMALLEST_POSITIVE`] are refused too.
pub fn parse_number(
    field: impl Into<FormField>,
    text: &str,
    min: f64,
    min_exclusive: bool,
    max: f64,
) -> Result<f64, InputError> {
    read_number(field.into(), text, min, min_exclusive, max)
}

/// [`parse_number`] for one field type: one copy of the code, however many forms call it.
fn read_number(
    field: FormField,
    text: &str,
    min: f64,
    min_exclusive: bool,
    max: f64,
) -> Result<f64, InputError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(InputError::new(field, "Enter a number."));
    }
    let value = read_f64(&t.replace('_', ""))
        .ok_or_else(|| InputError::new(field, format!("\u{201c}{t}\u{201d} is not a number.")))?;
    if !value.is_finite() {
        return Err(InputError::new(field, "Enter a finite number."));
    }
    if value < min || (min_exclusive && value == min) {
        let bound = super::format::plain(min);
        let msg = if min_exclusive {
            format!("Must be more than {bound}.")
        } else {
            format!("Must be at least {bound}.")
        };
        return Err(InputError::new(field, msg));
    }
    if min_exclusive && min == 0.0 && value < SMALLEST_POSITIVE {
        return Err(InputError::new(
            field,
            format!(
                "Must be at least {}.",
                super::format::plain(SMALLEST_POSITIVE)
            ),
        ));
    }
    if value > max {
        return Err(InputError::new(
            field,
            format!("Must be at most {}.", super::format::plain(max)),
        ));
    }
    Ok(value)
}

/// Reads a number written as text (surrounding spaces allowed): the one reader of numbers in
/// the app. It accepts exactly what Rust's `f64` parser accepts: `70`, `-4.85`, `+.5`, `5.`,
/// `007`, `1e3`, `2.5E-4`, and `inf`, `infinity` or `nan` in any case; `None` for anything else.
///
/// It reads the digits with serde_json's number reader, which every module carries already for
/// stored data, instead of the standard parser, whose tables of powers of five alone cost a
/// module about 12 KB brotli. The two agree exactly on what a learner types: up to 15
/// significant digits scaled by a power of ten within ±22 (`0.005`, `4.85e9`) give the
/// correctly rounded value. Longer digit strings, or further powers, may come back one or two
/// units in the last place off. A value past `f64`'s range reads as an infinity, as it does in
/// the standard parser, and so may one within a few units of the largest `f64`.
pub fn read_f64(text: &str) -> Option<f64> {
    let t = text.trim();
    let (negative, unsigned) = match t.as_bytes().first() {
        Some(b'-') => (true, t.get(1..)?),
        Some(b'+') => (false, t.get(1..)?),
        _ => (false, t),
    };
    let signed = |x: f64| if negative { -x } else { x };
    if ["inf", "infinity"]
        .iter()
        .any(|w| unsigned.eq_ignore_ascii_case(w))
    {
        return Some(signed(f64::INFINITY));
    }
    if unsigned.eq_ignore_ascii_case("nan") {
        return Some(f64::NAN);
    }
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if whole.len() + fraction.len() == 0 || !digits(whole) || !digits(fraction) || !exponent_ok {
        return None;
    }
    // The same number in JSON's grammar: no `+`, no leading zeros, digits on both sides of a
    // point.
    let whole = whole.trim_start_matches('0');
    let mut json = String::with_capacity(t.len() + 2);
    json.push_str(if negative { "-" } else { "" });
    json.push_str(if whole.is_empty() { "0" } else { whole });
    if !fraction.is_empty() {
        json.push('.');
        json.push_str(fraction);
    }
    if let Some(e) = exponent {
        json.push('e');
        json.push_str(e);
    }
    // The grammar is right, so the only refusal left is a value too large for `f64`.
    Some(serde_json::from_str(&json).unwrap_or(signed(f64::INFINITY)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any field: these tests are about the numbers.
    const P: crate::logic::memory::Field = crate::logic::memory::Field::Parameters;
    use crate::logic::fuzz::{any_text, finite};
    use proptest::prelude::*;

    /// Within a form, no two fields share a name: the name starts each message the learner
    /// reads, so two alike would leave them guessing which field is wrong.
    #[test]
    fn a_forms_fields_have_distinct_names() {
        use crate::logic::worksheet;
        use crate::logic::{batching, decode, distill, eval, fleet, kv_cache, latency, memory};
        fn names<F: Copy + Into<FormField>>(fields: &[F]) -> Vec<&'static str> {
            fields.iter().map(|&f| f.into().name()).collect()
        }
        let models = decode::Model::ALL;
        let decode: Vec<decode::Field> = std::iter::once(decode::Field::MemoryBandwidth)
            .chain(models.map(decode::Field::Weights))
            .chain(models.map(decode::Field::ReadPerToken))
            .collect();
        let batching: Vec<batching::Field> = std::iter::once(batching::Field::PeakCompute)
            .chain(models.map(batching::Field::Architecture))
            .collect();
        let forms = [
            names(memory::Field::ALL),
            names(kv_cache::Field::ALL),
            names(&decode),
            names(&batching),
            names(crate::logic::break_even::Field::ALL),
            names(fleet::Field::ALL),
            names(latency::Field::ALL),
            names(worksheet::Field::ALL),
            names(distill::Field::ALL),
            names(eval::InputField::ALL),
        ];
        for form in forms {
            let mut sorted = form.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), form.len(), "{form:?}");
            assert!(form.iter().all(|n| !n.is_empty()), "{form:?}");
        }
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
            "", "-", "+", ".", "e5", ".e5", "5e", "5e+", "+-5", "1,000", "0x10", "5 0", "1.2.3",
            "١٢٣", "--1",
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
}
