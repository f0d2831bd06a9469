//! Number formatting shared by widgets and lesson figures, so both print a figure the same way.

/// Figures from this size up are written in e-notation (see [`short_e`]): 16 digits and more
/// are too many to read.
pub const LONGEST: f64 = 1e15;

/// Formats `value` with `decimals` places and thousands separators: `1342.0, 0` → `"1,342"`.
/// A figure that would run past 15 digits drops its decimals, and from [`LONGEST`] up is
/// written as [`short_e`] gives it, to three significant figures: `5.12e17`.
///
/// Rounds half away from zero on the decimal value a reader sees, so `16.775` (stored in binary
/// as 16.77499…) prints as `16.78`, as it does on paper.
pub fn fixed(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return if value.is_nan() {
            "NaN".into()
        } else if value > 0.0 {
            "\u{221e}".into()
        } else {
            "\u{2212}\u{221e}".into()
        };
    }
    let scale = 10f64.powi(decimals as i32);
    let scaled = value.abs() * scale;
    if scaled >= LONGEST {
        // No reader needs decimals here, and past 15 digits a row of figures is unreadable.
        return if value.abs().round() >= LONGEST {
            short_e(value, 3)
        } else {
            fixed(value, 0)
        };
    }
    // A relative nudge of 1e-12 undoes binary representation error before rounding; capped,
    // so that it never moves a large figure's last digit (1e12 stays 1,000,000,000,000).
    let units = (scaled + (scaled * 1e-12).min(1e-3)).round() as u128;
    let digits = units.to_string();
    let digits = format!("{digits:0>width$}", width = decimals + 1);
    let (int, frac) = digits.split_at(digits.len() - decimals);
    let mut out = group(int, value < 0.0 && units > 0);
    if decimals > 0 {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// A count with thousands separators, as every count of cases, lines or tokens is shown:
/// `50000` → `"50,000"`.
pub fn count(n: usize) -> String {
    fixed(n as f64, 0)
}

/// `value` to `figures` significant figures (1 to 10) in the short e-notation the number fields
/// accept, without trailing zeros or a `+`: `(5.1213e17, 3)` → `"5.12e17"`, `(1e15, 3)` →
/// `"1e15"`, `(-2.5e-7, 2)` → `"−2.5e-7"`. For figures too large or too small to write out.
pub fn short_e(value: f64, figures: usize) -> String {
    let figures = figures.clamp(1, 10);
    let s = format!("{:.*e}", figures - 1, value.abs());
    let (mantissa, exponent) = s.split_once('e').unwrap_or((s.as_str(), "0"));
    let sign = if value < 0.0 { "\u{2212}" } else { "" };
    format!("{sign}{}e{exponent}", trim_zeros(mantissa))
}

/// Puts a comma between each group of three digits of `int`, and a minus sign before it.
fn group(int: &str, negative: bool) -> String {
    let mut out = String::with_capacity(int.len() + int.len() / 3 + 3);
    if negative {
        out.push('\u{2212}');
    }
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Formats `value` with as few decimals as it needs (up to 3) and thousands separators:
/// `140.0` → `"140"`, `4.85` → `"4.85"`, `1342.0` → `"1,342"`.
pub fn plain(value: f64) -> String {
    trim_zeros(&fixed(value, 3)).to_string()
}

/// `value` as a reader would type it into a number field, which reads it back: [`plain`]
/// without thousands separators, with an ASCII minus: `3350`, `4.85`, `-2.5`, `1.23e20`.
pub fn typed(value: f64) -> String {
    plain(value).replace(',', "").replace('\u{2212}', "-")
}

/// `text` without the trailing zeros of its decimal part, nor a bare point left after them:
/// `"4.850"` → `"4.85"`, `"140.00"` → `"140"`. Text with no point, or in e-notation
/// (`"1e10"`, whose zeros are the exponent's), is returned whole.
pub fn trim_zeros(text: &str) -> &str {
    if text.contains('.') && !text.contains(['e', 'E']) {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// `s` made safe as HTML text or a double-quoted attribute value:
/// `<a & "b">` → `&lt;a &amp; &quot;b&quot;&gt;`. Apostrophes stay as they are (every attribute we
/// write is double-quoted), so text such as a CSP's `'self'` reads the same in the page source.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands_and_trims() {
        assert_eq!(fixed(1342.0, 0), "1,342");
        assert_eq!(fixed(400_000_000.0, 0), "400,000,000");
        assert_eq!(fixed(16.775, 2), "16.78");
        assert_eq!(fixed(0.075, 2), "0.08");
        assert_eq!(plain(140.0), "140");
        assert_eq!(plain(4.85), "4.85");
        assert_eq!(plain(1342.0), "1,342");
        assert_eq!(plain(-2.5), "\u{2212}2.5");
        assert_eq!(plain(-0.0001), "0");
        assert_eq!(plain(-0.0), "0");
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(50_000), "50,000");
        assert_eq!(count(1_234_567), "1,234,567");
    }

    #[test]
    fn figures_past_fifteen_digits_switch_to_e_notation() {
        assert_eq!(fixed(999_999_999_999_999.0, 0), "999,999,999,999,999");
        assert_eq!(fixed(1e15, 0), "1e15");
        assert_eq!(fixed(512_139_089_581_586_304.0, 0), "5.12e17");
        assert_eq!(fixed(-2.5e300, 2), "\u{2212}2.5e300");
        assert_eq!(fixed(f64::MAX, 3), "1.8e308");
        // Decimals go first: 13 digits and 2 decimals would make 15.
        assert_eq!(fixed(12_345_678_901_234.5, 2), "12,345,678,901,235");
        assert_eq!(plain(1e14 + 0.25), "100,000,000,000,000");
        assert_eq!(fixed(1e12, 0), "1,000,000,000,000");
        assert_eq!(fixed(400_000_000_001.0, 0), "400,000,000,001");
        assert_eq!(short_e(1e15, 3), "1e15");
        assert_eq!(short_e(-2.5e-7, 2), "\u{2212}2.5e-7");
        assert_eq!(short_e(1.23456e25, 10), "1.23456e25");
        assert_eq!(typed(-2.5), "-2.5");
        assert_eq!(typed(1342.0), "1342");
        assert_eq!(typed(5.12e17), "5.12e17");
    }

    #[test]
    fn trims_only_a_decimal_part() {
        assert_eq!(trim_zeros("4.850"), "4.85");
        assert_eq!(trim_zeros("140.000"), "140");
        assert_eq!(trim_zeros("1,340.0"), "1,340");
        assert_eq!(trim_zeros("100"), "100");
        assert_eq!(trim_zeros("1e10"), "1e10");
        assert_eq!(trim_zeros("1.50e10"), "1.50e10");
        assert_eq!(trim_zeros("0.0"), "0");
        assert_eq!(trim_zeros(""), "");
    }

    #[test]
    fn escape_html_leaves_no_markup() {
        assert_eq!(
            escape_html(r#"<a href='x'>&"</a>"#),
            "&lt;a href='x'&gt;&amp;&quot;&lt;/a&gt;"
        );
        assert_eq!(escape_html("$SMALL </dev/null"), "$SMALL &lt;/dev/null");
    }
}
