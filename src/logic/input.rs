//! Numbers a learner types: parsed, range-checked, and turned into readable messages.

use std::fmt;

/// An input a learner typed that the maths cannot use, with a message they can read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// Which input is wrong, in the learner's words (e.g. "Parameters").
    pub field: &'static str,
    /// What is wrong with it, as a full sentence.
    pub message: String,
}

impl InputError {
    /// An error on `field` with `message`.
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        Self {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
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
    field: &'static str,
    text: &str,
    min: f64,
    min_exclusive: bool,
    max: f64,
) -> Result<f64, InputError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(InputError::new(field, "Enter a number."));
    }
    let value: f64 = t
        .replace('_', "")
        .parse()
        .map_err(|_| InputError::new(field, format!("\u{201c}{t}\u{201d} is not a number.")))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fuzz::{any_text, finite};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_text_is_a_number_in_range_or_a_message(
            text in any_text(),
            lo in finite(),
            hi in finite(),
            exclusive in any::<bool>(),
        ) {
            let (min, max) = if lo <= hi { (lo, hi) } else { (hi, lo) };
            match parse_number("Field", &text, min, exclusive, max) {
                Ok(x) => {
                    prop_assert!(x.is_finite() && x >= min && x <= max);
                    prop_assert!(!(exclusive && x == min));
                    prop_assert!(!(exclusive && min == 0.0 && x < SMALLEST_POSITIVE));
                }
                Err(e) => {
                    prop_assert_eq!(e.field, "Field");
                    prop_assert!(e.message.ends_with('.') && e.message.len() > 5);
                }
            }
        }

        #[test]
        fn a_number_written_out_reads_back(x in finite()) {
            prop_assert_eq!(parse_number("x", &format!("{x}"), f64::MIN, false, f64::MAX), Ok(x));
            prop_assert_eq!(parse_number("x", &format!(" {x:e} "), f64::MIN, false, f64::MAX), Ok(x));
        }
    }

    #[test]
    fn parses_plain_and_scientific_numbers() {
        assert_eq!(parse_number("x", " 70 ", 0.0, true, 1e6), Ok(70.0));
        assert_eq!(parse_number("x", "4.85", 0.0, true, 1e6), Ok(4.85));
        assert_eq!(parse_number("x", "1e3", 0.0, true, 1e6), Ok(1000.0));
    }

    #[test]
    fn rejects_what_makes_no_sense_with_a_message() {
        let msg = |t: &str| {
            parse_number("Parameters", t, 0.0, true, 1e5)
                .unwrap_err()
                .message
        };
        assert_eq!(msg(""), "Enter a number.");
        assert_eq!(msg("abc"), "\u{201c}abc\u{201d} is not a number.");
        assert_eq!(msg("NaN"), "Enter a finite number.");
        assert_eq!(msg("1e309"), "Enter a finite number.");
        assert_eq!(msg("0"), "Must be more than 0.");
        assert_eq!(msg("-3"), "Must be more than 0.");
        assert_eq!(msg("-0"), "Must be more than 0.");
        assert_eq!(msg("1e-308"), "Must be at least 0.001.");
        assert_eq!(msg("0.0009"), "Must be at least 0.001.");
        assert_eq!(parse_number("x", "0.001", 0.0, true, 1.0), Ok(0.001));
        assert_eq!(msg("200000"), "Must be at most 100,000.");
    }
}
