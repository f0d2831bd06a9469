//! Decode ceiling: each generated token reads every weight from memory once, so memory
//! bandwidth caps the decode speed of one sequence.
//!
//! tokens/s ≤ bandwidth (GB/s) ÷ weights read per token (GB). It is an upper bound, not a
//! benchmark: real runs reach part of peak bandwidth and also read the KV cache. The ratio
//! between two models holds on any machine, because it comes from their sizes alone.

use super::format::plain;
use super::{parse_number, InputError};

/// The course's example machine: 100 GB/s of memory bandwidth.
pub const EXAMPLE_BANDWIDTH_GB_S: f64 = 100.0;
/// The course's example small model: an 8B model at about 4 bits, about 5 GB.
pub const EXAMPLE_SMALL_GB: f64 = 5.0;
/// The course's example large model: a 70B model at about 4 bits, about 40 GB.
pub const EXAMPLE_LARGE_GB: f64 = 40.0;

/// Largest bandwidth accepted, in GB/s (100 TB/s).
pub const MAX_BANDWIDTH_GB_S: f64 = 100_000.0;
/// Largest weights per token accepted, in GB (100 TB).
pub const MAX_WEIGHTS_GB: f64 = 100_000.0;

/// Parses memory bandwidth in GB/s, as typed (more than 0, at most 100,000).
pub fn parse_bandwidth_gb_s(text: &str) -> Result<f64, InputError> {
    parse_number("Memory bandwidth", text, 0.0, true, MAX_BANDWIDTH_GB_S)
}

/// Parses the weights a model reads per token, in GB, as typed (more than 0, at most 100,000).
pub fn parse_model_gb(text: &str) -> Result<f64, InputError> {
    parse_number("Model size", text, 0.0, true, MAX_WEIGHTS_GB)
}

/// Upper bound on decode speed for one sequence, in tokens/s: bandwidth (GB/s) ÷ weights read
/// per token (GB).
///
/// Zero weights give infinity and zero bandwidth gives zero; `parse_*` keeps both out.
pub fn decode_ceiling_tps(bandwidth_gb_s: f64, weights_gb: f64) -> f64 {
    bandwidth_gb_s / weights_gb
}

/// Lower bound on the time between tokens, in ms: weights (GB) ÷ bandwidth (GB/s) × 1,000.
pub fn min_ms_per_token(bandwidth_gb_s: f64, weights_gb: f64) -> f64 {
    weights_gb / bandwidth_gb_s * 1000.0
}

/// How many times faster a model of `a_gb` decodes than one of `b_gb` on the same machine
/// (×): ceiling(a) ÷ ceiling(b) = `b_gb ÷ a_gb`. 5 GB against 40 GB gives 8.
pub fn speed_ratio(a_gb: f64, b_gb: f64) -> f64 {
    b_gb / a_gb
}

/// The sum a reader can check, e.g. `100 GB/s ÷ 5 GB = 20 tok/s (upper bound)`.
pub fn worked_line(bandwidth_gb_s: f64, weights_gb: f64) -> String {
    format!(
        "{} GB/s \u{f7} {} GB = {} tok/s (upper bound)",
        plain(bandwidth_gb_s),
        plain(weights_gb),
        plain(decode_ceiling_tps(bandwidth_gb_s, weights_gb))
    )
}

/// A speed or ratio to three significant figures, with thousands separators and no trailing
/// zeros: `20`, `2.5`, `23.9`, `1,235`, `0.0125`. Speeds are bounds, so more digits would
/// suggest a precision the estimate does not have.
pub fn three_figures(value: f64) -> String {
    if !value.is_finite() || value <= 0.0 {
        return super::format::plain(value);
    }
    let decimals = (2 - value.log10().floor() as i32).clamp(0, 6) as usize;
    let s = super::format::fixed(value, decimals);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_show_three_figures() {
        assert_eq!(three_figures(20.0), "20");
        assert_eq!(three_figures(2.5), "2.5");
        assert_eq!(three_figures(23.928_571), "23.9");
        assert_eq!(three_figures(1234.5), "1,235");
        assert_eq!(three_figures(0.012_5), "0.0125");
        assert_eq!(three_figures(8.0), "8");
        assert_eq!(three_figures(99.96), "100");
    }

    #[test]
    fn reproduces_the_why_size_wins_figures() {
        let bw = EXAMPLE_BANDWIDTH_GB_S;
        assert_eq!(decode_ceiling_tps(bw, EXAMPLE_SMALL_GB), 20.0);
        assert_eq!(decode_ceiling_tps(bw, EXAMPLE_LARGE_GB), 2.5);
        assert_eq!(speed_ratio(EXAMPLE_SMALL_GB, EXAMPLE_LARGE_GB), 8.0);
        assert_eq!(min_ms_per_token(bw, EXAMPLE_SMALL_GB), 50.0);
        assert_eq!(min_ms_per_token(bw, EXAMPLE_LARGE_GB), 400.0);
    }

    #[test]
    fn worked_line_shows_the_arithmetic() {
        assert_eq!(
            worked_line(100.0, 5.0),
            "100 GB/s \u{f7} 5 GB = 20 tok/s (upper bound)"
        );
        assert_eq!(
            worked_line(100.0, 40.0),
            "100 GB/s \u{f7} 40 GB = 2.5 tok/s (upper bound)"
        );
        assert_eq!(
            worked_line(3350.0, 140.0),
            "3,350 GB/s \u{f7} 140 GB = 23.929 tok/s (upper bound)"
        );
    }

    #[test]
    fn parse_helpers_guard_zero_and_name_the_field() {
        assert_eq!(parse_bandwidth_gb_s("3350"), Ok(3350.0));
        assert_eq!(parse_model_gb("4.5"), Ok(4.5));
        let err = parse_model_gb("0").unwrap_err();
        assert_eq!(
            (err.field, err.message.as_str()),
            ("Model size", "Must be more than 0.")
        );
        assert_eq!(
            parse_bandwidth_gb_s("1e6").unwrap_err().field,
            "Memory bandwidth"
        );
    }

    proptest::proptest! {
        #[test]
        fn ceiling_rises_with_bandwidth_and_falls_with_size(
            bw in 0.001f64..100_000.0,
            gb in 0.001f64..100_000.0,
            factor in 1.0f64..100.0,
        ) {
            let tps = decode_ceiling_tps(bw, gb);
            proptest::prop_assert!(tps.is_finite() && tps > 0.0);
            proptest::prop_assert!(decode_ceiling_tps(bw * factor, gb) >= tps);
            proptest::prop_assert!(decode_ceiling_tps(bw, gb * factor) <= tps);
            // The ratio of ceilings is the inverse ratio of sizes, whatever the bandwidth.
            let ratio = decode_ceiling_tps(bw, gb) / decode_ceiling_tps(bw, gb * factor);
            proptest::prop_assert!((ratio - speed_ratio(gb, gb * factor)).abs() <= 1e-9 * ratio);
            proptest::prop_assert!((tps * min_ms_per_token(bw, gb) - 1000.0).abs() < 1e-6);
        }
    }
}
