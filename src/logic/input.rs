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

/// Parses a number a learner typed, accepting a decimal comma-free form like `70`, `4.85` or
/// `1e3`, and checks it lies in `min..=max`.
///
/// Rejects empty text, non-numbers, NaN, infinities and values out of range, each with its own
/// message. `min_exclusive` makes the lower bound strict (for quantities that cannot be zero).
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
        assert_eq!(msg("200000"), "Must be at most 100,000.");
    }
}
