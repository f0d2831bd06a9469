use super::*;
use crate::logic::fuzz::{any_text, in_range, unreadable, unreadable_figure};
use proptest::prelude::*;

fn arch_id() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(ARCHITECTURES.iter().map(|a| a.id.to_string()).collect::<Vec<_>>()),
        1 => any_text(),
    ]
}

proptest! {
    #[test]
    fn field_parsers_never_panic(text in any_text()) {
        match parse_peak_tflops(&text) {
            Ok(Some(x)) => prop_assert!(x > 0.0 && x <= MAX_PEAK_TFLOPS),
            Ok(None) => prop_assert!(text.trim().is_empty()),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
        match parse_architecture(Field::Architecture(decode::Model::A), &text) {
            Ok(a) => prop_assert_eq!(a.id, text.trim()),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }

    #[test]
    fn every_shown_figure_is_readable(
        bandwidth in in_range(0.0, decode::MAX_BANDWIDTH_GB_S),
        memory in proptest::option::of(in_range(0.0, crate::logic::memory::MAX_GPU_GB)),
        tflops in proptest::option::of(in_range(0.0, MAX_PEAK_TFLOPS)),
        a in decode::fuzz_tests::model_text(),
        b in decode::fuzz_tests::model_text(),
        a_arch in arch_id(),
        b_arch in arch_id(),
        batch in in_range(1.0, kv_cache::MAX_BATCH),
        context in in_range(1.0, kv_cache::MAX_CONTEXT_TOKENS),
    ) {
        let memory = memory.unwrap_or_default();
        let tflops = tflops.unwrap_or_default();
        let inputs = DecodeInputs {
            bandwidth: &bandwidth,
            memory: &memory,
            peak_tflops: &tflops,
            a: (&a.0, &a.1),
            a_arch: &a_arch,
            b: (&b.0, &b.1),
            b_arch: &b_arch,
            batch: &batch,
            context: &context,
        };
        match decode_card(inputs) {
            Ok(c) => {
                for shown in [c.per_request_text(), c.total_text()] {
                    prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                }
                for line in c.worked.iter().chain([&c.max_batch_text(), &c.bound_text()]) {
                    prop_assert!(unreadable(line).is_none(), "{:?}", unreadable(line));
                }
                for s in &c.serving {
                    prop_assert!(s.step.per_request_tps.is_finite() && s.step.per_request_tps > 0.0);
                    prop_assert!(s.step.total_tps >= s.step.per_request_tps * (1.0 - 1e-9));
                }
            }
            Err(errors) => prop_assert!(errors.iter().all(|e| !e.message.is_empty())),
        }
    }
}
