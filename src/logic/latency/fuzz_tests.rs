//! Any text in any field: a result or messages, never a panic or an absurd number.

use super::*;
use crate::logic::fuzz::{any_text, in_range, unreadable, unreadable_figure};
use proptest::prelude::*;

proptest! {
    #[test]
    fn field_parsers_never_panic_and_keep_their_range(text in any_text()) {
        for (parse, min, max) in [
            (parse_median_ms as fn(&str) -> Result<f64, InputError>, 0.0, MAX_MEDIAN_MS),
            (parse_sigma, 0.0, MAX_SIGMA),
            (parse_slow_factor, 1.0, MAX_SLOW_FACTOR),
            (parse_network_ms, 0.0, MAX_PART_MS),
            (parse_queue_ms, 0.0, MAX_PART_MS),
            (parse_inference_ms, 0.0, MAX_PART_MS),
        ] {
            match parse(&text) {
                Ok(x) => prop_assert!(x >= min && x <= max),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
        }
        match parse_slow_one_in(&text) {
            Ok(n) => prop_assert!(f64::from(n) <= MAX_SLOW_ONE_IN),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
        match parse_sample_count(&text) {
            Ok(n) => prop_assert!((1..=MAX_SAMPLES).contains(&n)),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }

    #[test]
    fn every_shown_end_to_end_figure_is_readable(
        network in in_range(0.0, MAX_PART_MS),
        queue in in_range(0.0, MAX_PART_MS),
        inference in in_range(0.0, MAX_PART_MS),
    ) {
        match EndToEnd::from_text(&network, &queue, &inference) {
            Ok(e) => {
                for shown in [ms_text(e.total_ms()), e.inference_share_text()] {
                    prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                }
                for line in [e.description(), diagnose(&e).text] {
                    prop_assert!(unreadable(&line).is_none(), "{:?}", unreadable(&line));
                }
            }
            Err(errors) => prop_assert!(errors.iter().all(|e| !e.message.is_empty())),
        }
    }
}

proptest! {
    // Each case draws two samples of 2,000 requests.
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn every_shown_explorer_figure_is_readable(
        median in in_range(0.0, MAX_MEDIAN_MS),
        sigma in in_range(0.0, MAX_SIGMA),
        one_in in (0u32..=MAX_SLOW_ONE_IN as u32).prop_map(|n| n.to_string()),
        factor in in_range(1.0, MAX_SLOW_FACTOR),
    ) {
        match Explored::from_text(&median, &sigma, &one_in, &factor) {
            Ok(e) => {
                let s = &e.story.now;
                for ms in [s.mean, s.p50, s.p90, s.p99, e.upper / 2.0, e.upper] {
                    let shown = ms_text(ms);
                    prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                }
                for line in [e.description(), e.story.mean_hides_tail(), e.story.trimming()] {
                    prop_assert!(unreadable(&line).is_none(), "{:?}", unreadable(&line));
                }
            }
            Err(errors) => prop_assert!(errors.iter().all(|e| !e.message.is_empty())),
        }
    }
}
