use super::*;
use crate::logic::fuzz::any_text;
use proptest::prelude::*;

proptest! {
    #[test]
    fn typed_values_read_in_range_or_say_why(
        text in any_text(),
        texts in proptest::collection::vec(any_text(), 0..12),
    ) {
        match parse_temperature(&text) {
            Ok(t) => prop_assert!((MIN_TEMPERATURE..=MAX_TEMPERATURE).contains(&t)),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
        match parse_alpha(&text) {
            Ok(a) => prop_assert!((0.0..=1.0).contains(&a)),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
        match parse_learning_rate(&text) {
            Ok(lr) => prop_assert!(lr > 0.0 && lr <= MAX_LEARNING_RATE),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
        for entry in [Entry::Weights, Entry::Logits] {
            if let Ok(x) = parse_value(entry, &text) {
                prop_assert!(x.is_finite());
                // What the playground writes back into a field reads back.
                let back = parse_value(entry, &value_text(entry, x));
                prop_assert!(back.is_ok(), "{:?}", back);
            }
        }
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        if let Ok(p) = parse_distribution(Field::Teacher, &refs) {
            let sum: f64 = p.iter().sum();
            prop_assert!((sum - 1.0).abs() < 1e-9 && p.iter().all(|x| *x >= 0.0));
        }
    }
}
