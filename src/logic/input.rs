//! Numbers a learner types: parsed, range-checked, and turned into readable messages.

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

/// The forms whose fields an [`InputError`] can name: each has a module in `logic` with an
/// enum of its fields (declared with `form_fields!`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Weight memory: the model's size, its precision and the GPU's memory (`memory`).
    Memory,
    /// The KV cache and runtime allowance: a model's shape, context and batch (`kv_cache`).
    KvCache,
    /// The decode ceiling: bandwidth and each model's weights (`decode`).
    Decode,
    /// Batching: peak compute and each model's architecture (`batching`).
    Batching,
    /// Shared or dedicated: prices, throughput and volume (`break_even`).
    BreakEven,
    /// Swapping a fleet to a smaller model: traffic and GPUs (`fleet`).
    Fleet,
    /// Latency: the distribution's shape and an end-to-end request's parts (`latency`).
    Latency,
    /// The try-it worksheet: prompts, threshold and speeds (`worksheet`).
    Worksheet,
    /// The distillation playground: distributions and training settings (`distill`).
    Distill,
    /// The mini eval: tolerance and imports (`eval`).
    Eval,
}

/// The field an [`InputError`] is about: a field of one form, as that form's enum names it
/// (`memory::Field::Parameters` converts into one, and compares with one). The learner's words
/// for it are that enum's `name()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormField {
    form: Form,
    field: u8,
}

impl FormField {
    /// Field number `field` of `form`: what a form's enum converts into.
    pub const fn new(form: Form, field: u8) -> Self {
        FormField { form, field }
    }
}

/// Declares a form's fields: an enum of them, each with its name in the learner's words, that
/// converts into a [`FormField`] of `$form` and compares with one.
macro_rules! form_fields {
    ($form:ident: $(#[$doc:meta])* pub enum $field:ident { $($(#[$vdoc:meta])* $variant:ident => $name:literal,)* }) => {
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

        super::input::form_field_of!($form, $field, |f: $field| f as u8);
    };
}
pub(crate) use form_fields;

/// Converts a form's enum of fields into [`FormField`]s of `$form`, numbering each with
/// `$number`, and lets a [`FormField`] compare with it.
macro_rules! form_field_of {
    ($form:ident, $field:ty, $number:expr) => {
        impl From<$field> for super::input::FormField {
            fn from(f: $field) -> Self {
                let number: fn($field) -> u8 = $number;
                super::input::FormField::new(super::input::Form::$form, number(f))
            }
        }

        impl PartialEq<$field> for super::input::FormField {
            fn eq(&self, f: &$field) -> bool {
                *self == Self::from(*f)
            }
        }
    };
}
pub(crate) use form_field_of;

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
mod tests;
