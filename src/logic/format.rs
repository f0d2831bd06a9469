//! Number formatting shared by widgets and lesson figures, so both print a figure the same way.

/// Formats `value` with `decimals` places and thousands separators: `1342.0, 0` → `"1,342"`.
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
    if scaled >= 1e18 {
        // Beyond exact integer range: no reader needs decimals here.
        return group(&format!("{:.0}", value.abs()), value < 0.0);
    }
    // A relative nudge of 1e-12 undoes binary representation error before rounding.
    let units = (scaled * (1.0 + 1e-12)).round() as u128;
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
