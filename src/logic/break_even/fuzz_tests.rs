use super::*;
use crate::logic::fuzz::{any_text, in_range, unreadable, unreadable_figure};
use proptest::prelude::*;

/// Found by the test below: a throughput of 2.2e-308 tok/s priced a 27-digit bill for
/// 18446744073709551615 GPUs, and a utilisation of 5e-324 % read as 0.
#[test]
fn absurd_inputs_are_refused_with_a_message() {
    let e = bills("0.6", "2.5", "2.2250738585072014e-308", "100", "1e15").unwrap_err();
    assert_eq!(e[0].message, "Must be at least 0.001.");
    assert_eq!(
        parse_utilisation_percent("5e-324").unwrap_err().message,
        "Must be at least 0.001."
    );
    let e = bills("0.6", "2.5", "0.001", "0.001", "1e15").unwrap_err();
    assert_eq!(e[0].field, "Tokens per month");
    assert!(
        e[0].message.contains("more than 1,000,000,000,000 GPUs"),
        "{}",
        e[0].message
    );
    let b = bills("10000", "10000", "1", "100", "1e15").unwrap();
    assert_eq!(dollars(b.api), "$10,000,000,000,000");
}

proptest! {
    #[test]
    fn field_parsers_never_panic_and_keep_their_range(text in any_text()) {
        for (parse, max) in [
            (parse_api_price_per_m as fn(&str) -> Result<f64, InputError>, MAX_API_PRICE_PER_M),
            (parse_gpu_hourly, MAX_GPU_HOURLY),
            (parse_throughput_tps, MAX_THROUGHPUT_TPS),
            (parse_tokens_per_month, MAX_TOKENS_PER_MONTH),
            (parse_utilisation_percent, 1.0),
        ] {
            match parse(&text) {
                Ok(x) => prop_assert!(x > 0.0 && x <= max),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
        }
    }

    #[test]
    fn every_shown_figure_is_readable(
        price in in_range(0.0, MAX_API_PRICE_PER_M),
        hourly in in_range(0.0, MAX_GPU_HOURLY),
        tps in in_range(0.0, MAX_THROUGHPUT_TPS),
        utilisation in in_range(0.0, 100.0),
        volume in in_range(0.0, MAX_TOKENS_PER_MONTH),
    ) {
        match bills(&price, &hourly, &tps, &utilisation, &volume) {
            Ok(b) => {
                let (always, below) = wins_text(&b);
                for shown in [dollars(b.api), b.dedicated_text(), verdict(&b)] {
                    prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                }
                if b.wins.is_some() {
                    prop_assert!(unreadable_figure(&always).is_none(), "{:?}", unreadable_figure(&always));
                }
                for line in b.worked.iter().chain([&below, &b.note(), &chart_description(&b)]) {
                    prop_assert!(unreadable(line).is_none(), "{:?}", unreadable(line));
                }
            }
            Err(errors) => prop_assert!(errors.iter().all(|e| !e.message.is_empty())),
        }
    }
}
