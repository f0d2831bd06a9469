use super::*;

const EX: CostInputs = CostInputs::EXAMPLE;

/// The example throughput is the decode-ceiling widget's figure for the model, GPU, batch
/// and context its doc names, so the break-even lesson and the ceiling agree.
#[test]
fn the_example_throughput_is_the_batched_ceiling_it_names() {
    use crate::logic::batching::{architecture, figure, Machine, Serving};
    use crate::logic::decode::ModelWeights;
    let h100 = crate::logic::gpus::preset("h100-80").expect("H100");
    let s = Serving::new(
        architecture("llama3-8b").expect("8B"),
        ModelWeights::dense(16.0),
        Machine::of(h100),
        EXAMPLE_BATCH,
        EXAMPLE_CONTEXT_TOKENS,
    );
    assert_eq!(figure(s.step.total_tps), "1,477");
    assert_eq!(
        figure(s.step.total_tps).replace(',', ""),
        plain(EXAMPLE_THROUGHPUT_TPS).replace(',', "")
    );
    assert_eq!(s.bound, crate::logic::batching::Bound::Bandwidth);
}

#[test]
fn costs_of_the_example_inputs() {
    assert!((EX.api_cost(1e9) - 600.0).abs() < 1e-9);
    assert_eq!(EX.gpu_monthly_cost(), 1825.0);
    // 1,477 tok/s × 3,600 s × 730 h = 3.882 billion tokens a month per GPU.
    assert_eq!(EX.gpu_capacity_tokens_per_month(), 3_881_556_000.0);
    assert_eq!(EX.gpus_needed(1e9), 1);
    assert_eq!(EX.gpus_needed(3_881_556_000.0), 1);
    // Binary noise below a billionth of a GPU does not cost a whole GPU; a real overrun does.
    assert_eq!(EX.gpus_needed(3_881_556_001.0), 1);
    assert_eq!(EX.gpus_needed(3_881_656_000.0), 2);
    assert_eq!(EX.gpus_needed(12e9), 4);
    assert_eq!(EX.dedicated_cost(12e9), 7300.0);
    assert_eq!(EX.gpus_needed(0.0), 1);
}

#[test]
fn break_even_of_the_example_inputs() {
    let volume = EX.break_even_tokens_per_month();
    assert!((volume - 3_041_666_666.667).abs() < 1.0);
    assert!((EX.api_cost(volume) - EX.dedicated_cost(volume)).abs() < 1e-6);
    assert!(EX.dedicated_wins().is_some());
    assert_eq!(
        EX.worked_line(),
        "$2.5/h \u{d7} 730 h = $1,825 a month \u{f7} $0.6 per M = 3,041.667 M tokens a month"
    );
    // A cheap API: one busy GPU's tokens cost less through the API than the GPU does.
    let cheap_api = CostInputs {
        api_price_per_m: 0.10,
        ..EX
    };
    assert_eq!(cheap_api.dedicated_wins(), None);
}

/// Whether dedicated costs less than the API at `tokens`, by the two bills themselves.
fn dedicated_cheaper(inputs: &CostInputs, tokens: f64) -> bool {
    inputs.dedicated_cost(tokens) < inputs.api_cost(tokens)
}

#[test]
fn the_example_inputs_cross_seven_times() {
    let wins = EX.dedicated_wins().unwrap();
    assert_eq!(wins.range_count(), 3);
    assert_eq!(wins.always_from_gpus, 4);
    assert_eq!(volume_text(wins.always_from()), "12,167 M");
    assert!((wins.always_from() - 12_166_666_666.667).abs() < 1.0);
    let texts: Vec<String> = wins.ranges().map(|r| r.text()).collect();
    assert_eq!(
        texts,
        ["3,042 to 3,882 M", "6,083 to 7,763 M", "9,125 to 11,645 M"]
    );
    assert_eq!(
        wins.ranges_text().as_deref(),
        Some("3,042 to 3,882 M, 6,083 to 7,763 M and 9,125 to 11,645 M")
    );
    let third = wins.range(3).unwrap();
    assert_eq!((third.gpus, third.to), (3, 11_644_668_000.0));
    assert_eq!(wins.range(4), None);
    assert_eq!(wins.range(0), None);
    // The examples: the API is cheaper again at 4.5, 6, 8 and 9 billion.
    for billions in [1.0, 3.0, 4.5, 6.0, 8.0, 9.0, 12.0] {
        assert!(!dedicated_cheaper(&EX, billions * 1e9), "{billions}B");
    }
    for billions in [
        3.1, 3.88, 6.1, 7.76, 9.2, 11.6, 12.2, 13.0, 15.0, 100.0, 1e5,
    ] {
        assert!(dedicated_cheaper(&EX, billions * 1e9), "{billions}B");
    }
    assert_eq!(
        wins.worked_line(),
        "From 4 \u{d7} 3,041.667 M = 12,166.667 M tokens a month on, dedicated always wins: \
         5 GPUs cost $9,125, less than the API bill of $9,315.734 for the 15,526.224 M tokens that \
         4 full GPUs serve"
    );
}

#[test]
fn dedicated_can_win_for_good_at_the_first_crossing() {
    // At 50% utilisation and $2 per M, one GPU breaks even at 912.5 M and holds 1,971 M:
    // the second GPU is paid for by the time the first is full.
    let busy_api = CostInputs {
        api_price_per_m: 2.0,
        utilisation: 0.5,
        ..EX
    };
    let wins = busy_api.dedicated_wins().unwrap();
    assert_eq!(wins.range_count(), 0);
    assert_eq!(wins.ranges().count(), 0);
    assert_eq!(wins.ranges_text(), None);
    assert_eq!(wins.always_from(), 912_500_000.0);
    assert_eq!(volume_text(wins.always_from()), "913 M");
    for tokens in [913e6, 1.971e9, 1.972e9, 5e9, 1e12] {
        assert!(dedicated_cheaper(&busy_api, tokens), "{tokens}");
    }
    assert!(!dedicated_cheaper(&busy_api, 912e6));
    assert!(wins.worked_line().ends_with("1 full GPU serves"));
}

#[test]
fn dedicated_never_wins_at_these_inputs() {
    let never = |inputs: CostInputs| assert_eq!(inputs.dedicated_wins(), None, "{inputs:?}");
    // A busy GPU costs more per token than the API: $0.1 per M, or the GPU mostly idle.
    never(CostInputs {
        api_price_per_m: 0.1,
        ..EX
    });
    never(CostInputs {
        utilisation: 0.01,
        ..EX
    });
    // Inputs the fields refuse still give an answer, not a panic or an endless loop.
    never(CostInputs {
        api_price_per_m: 0.0,
        ..EX
    });
    never(CostInputs {
        utilisation: 0.0,
        ..EX
    });
    never(CostInputs {
        api_price_per_m: f64::NAN,
        ..EX
    });
    never(CostInputs {
        throughput_tps: f64::INFINITY,
        ..EX
    });
}

#[test]
fn a_first_crossing_just_below_capacity_gives_many_ranges_in_constant_work() {
    // One GPU's capacity a hair (about 1e-12) above its break-even: about a trillion
    // narrow ranges before dedicated wins for good.
    let first = EX.break_even_tokens_per_month();
    let hair = CostInputs {
        throughput_tps: first * (1.0 + 1e-12) / (3600.0 * HOURS_PER_MONTH),
        ..EX
    };
    let wins = hair.dedicated_wins().unwrap();
    let count = wins.range_count();
    assert!((5e11..2e12).contains(&(count as f64)), "{count}");
    assert!(wins.range(count).is_some() && wins.range(count + 1).is_none());
    assert_eq!(wins.ranges().take(3).count(), 3);
    assert!(wins.always_from().is_finite());
    let text = wins.ranges_text().unwrap();
    assert!(
        text.starts_with(
            "3,041.666667 M (a range 0.00304 tokens wide), \
             6,083.333333 M (a range 0.00608 tokens wide), \u{2026} and "
        ),
        "{text}"
    );
    assert!(volume_text(wins.always_from()).ends_with("e15 M"));
    // The last range and the always-wins volume agree with the bills.
    let last = wins.range(count).unwrap();
    let past = wins.always_from() * (1.0 + 1e-9);
    assert!(dedicated_cheaper(&hair, past));
    assert!(dedicated_cheaper(&hair, last.to));
    // The smallest spare a float allows: capacity one step above the break-even.
    let ulp = CostInputs {
        throughput_tps: 1.0,
        utilisation: 1.0,
        gpu_hourly: 1.0,
        api_price_per_m: HOURS_PER_MONTH * 1e6
            / f64::from_bits((3600.0 * HOURS_PER_MONTH).to_bits() - 1),
    };
    if let Some(wins) = ulp.dedicated_wins() {
        assert!(wins.always_from().is_finite() && wins.range_count() < 1 << 60);
        assert!(wins.ranges_text().is_some_and(|t| !t.contains("NaN")));
    }
}

#[test]
fn volumes_read_in_millions() {
    assert_eq!(volume_text(912_500_000.0), "913 M");
    assert_eq!(volume_text(3_041_666_666.667), "3,042 M");
    assert_eq!(volume_text(1.5e5), "0.15 M");
    assert_eq!(volume_text(1e15), "1e9 M");
    assert_eq!(volume_text(1.2345e31), "1.23e25 M");
    let close = WinRange {
        gpus: 1,
        from: 3_941.9e6,
        to: 3_942e6,
    };
    assert_eq!(close.text(), "3,941.9 to 3,942 M");
}

#[test]
fn utilisation_shrinks_capacity() {
    let half = CostInputs {
        utilisation: 0.5,
        ..EX
    };
    assert_eq!(half.gpu_capacity_tokens_per_month(), 1_940_778_000.0);
    assert_eq!(half.gpus_needed(3e9), 2);
    assert_eq!(
        half.break_even_tokens_per_month(),
        EX.break_even_tokens_per_month()
    );
}

#[test]
fn cost_curve_is_log_spaced_with_exact_ends() {
    let curve = EX.cost_curve(1e6, 1e12, 7);
    let volumes: Vec<f64> = curve.iter().map(|p| p.tokens_per_month).collect();
    for (got, want) in volumes.iter().zip([1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12]) {
        assert!((got / want - 1.0).abs() < 1e-12, "{got} vs {want}");
    }
    assert_eq!(curve[0].tokens_per_month, 1e6);
    assert_eq!(curve[6].tokens_per_month, 1e12);
    assert!(EX.cost_curve(1e6, 1e12, 0).is_empty());
    assert!(EX.cost_curve(0.0, 1e12, 5).is_empty());
    assert!(EX.cost_curve(1e9, 1e6, 5).is_empty());
    assert!(EX.cost_curve(f64::NAN, 1e6, 5).is_empty());
    assert_eq!(EX.cost_curve(1e6, 1e12, 1).len(), 1);
    assert_eq!(EX.cost_curve(1e6, 1e12, usize::MAX).len(), MAX_CURVE_POINTS);
}

#[test]
fn parse_helpers_name_the_field() {
    assert_eq!(parse_api_price_per_m("0.60"), Ok(0.6));
    assert_eq!(parse_utilisation_percent("60"), Ok(0.6));
    assert_eq!(
        parse_utilisation_percent("0").unwrap_err().field,
        "Utilisation"
    );
    assert!(parse_utilisation_percent("101").is_err());
    assert_eq!(
        parse_gpu_hourly("-1").unwrap_err().message,
        "Must be more than 0."
    );
    assert!(parse_throughput_tps("1500").is_ok());
    assert_eq!(parse_tokens_per_month("1e9"), Ok(1e9));
}

proptest::proptest! {
    #[test]
    fn costs_are_sane_and_cross_at_break_even(
        price in 0.01f64..100.0,
        hourly in 0.1f64..100.0,
        tps in 1.0f64..100_000.0,
        utilisation in 0.01f64..=1.0,
        tokens in 1.0f64..1e15,
    ) {
        let inputs = CostInputs {
            api_price_per_m: price,
            gpu_hourly: hourly,
            throughput_tps: tps,
            utilisation,
        };
        let capacity = inputs.gpu_capacity_tokens_per_month();
        let p = inputs.point(tokens);
        proptest::prop_assert!(p.api_cost.is_finite() && p.api_cost > 0.0);
        proptest::prop_assert!(p.dedicated_cost >= inputs.gpu_monthly_cost());
        let gpus = inputs.gpus_needed(tokens) as f64;
        proptest::prop_assert!(gpus * capacity >= tokens * (1.0 - 1e-9));
        proptest::prop_assert!(inputs.dedicated_cost(tokens * 2.0) >= p.dedicated_cost);
        // Below the first crossing the API is cheaper.
        let below = inputs.break_even_tokens_per_month() * 0.99;
        proptest::prop_assert!(inputs.api_cost(below) < inputs.dedicated_cost(below));
    }

    /// The reported ranges against the two bills, at volumes inside each range, in each
    /// gap, past the always-wins volume, and anywhere (well clear of the edges, where
    /// the bills tie or a GPU's last token rounds).
    #[test]
    fn ranges_agree_with_the_bills(
        price in 0.01f64..100.0,
        hourly in 0.1f64..100.0,
        tps in 1.0f64..100_000.0,
        utilisation in 0.01f64..=1.0,
        pick in 0.0f64..1.0,
        t in 0.001f64..0.999,
        anywhere in 0.0f64..1.0,
    ) {
        let inputs = CostInputs {
            api_price_per_m: price,
            gpu_hourly: hourly,
            throughput_tps: tps,
            utilisation,
        };
        let cheaper = |v: f64| inputs.dedicated_cost(v) < inputs.api_cost(v);
        let first = inputs.break_even_tokens_per_month();
        let capacity = inputs.gpu_capacity_tokens_per_month();
        let Some(wins) = inputs.dedicated_wins() else {
            // Never: not even with every GPU full, nor anywhere in between.
            for gpus in 1..=5 {
                proptest::prop_assert!(!cheaper(gpus as f64 * capacity * (1.0 - 1e-9)));
            }
            proptest::prop_assert!(!cheaper(first * (1.0 + anywhere * 10.0)));
            return Ok(());
        };
        let clear = |v: f64, edges: &[f64]| edges.iter().all(|e| (v - e).abs() > 1e-7 * v);
        let count = wins.range_count();
        // Inside a range and in the gap after it.
        if count > 0 {
            let gpus = 1 + ((pick * count as f64) as u64).min(count - 1);
            let r = wins.range(gpus).unwrap();
            let next = wins.range(gpus + 1).map_or(wins.always_from(), |n| n.from);
            let inside = r.from + t * (r.to - r.from);
            let gap = r.to + t * (next - r.to);
            if clear(inside, &[r.from, r.to]) {
                proptest::prop_assert!(cheaper(inside), "{:?} at {}", r, inside);
            }
            if clear(gap, &[r.to, next]) {
                proptest::prop_assert!(!cheaper(gap), "gap after {:?} at {}", r, gap);
            }
        }
        // Past the always-wins volume, every volume (allowing ties where a GPU is added).
        let past = wins.always_from() * (1.0 + 1e-6 + anywhere * 100.0);
        let (api, dedicated) = (inputs.api_cost(past), inputs.dedicated_cost(past));
        proptest::prop_assert!(dedicated <= api * (1.0 + 1e-9), "{} vs {}", dedicated, api);
        // Any volume up to twice the always-wins volume, by scanning every range.
        if count <= 10_000 {
            let v = first * 0.5 + anywhere * (wins.always_from() * 2.0 - first * 0.5);
            let mut edges = vec![wins.always_from()];
            let mut listed = v > wins.always_from();
            for r in wins.ranges() {
                edges.extend([r.from, r.to]);
                listed |= r.from < v && v <= r.to;
            }
            if clear(v, &edges) {
                proptest::prop_assert_eq!(listed, cheaper(v), "at {}", v);
            }
        }
    }

    #[test]
    fn curve_volumes_rise(min in 1.0f64..1e9, span in 1.0f64..1e6, n in 2usize..200) {
        let curve = CostInputs::EXAMPLE.cost_curve(min, min * span, n);
        proptest::prop_assert_eq!(curve.len(), n);
        for pair in curve.windows(2) {
            proptest::prop_assert!(pair[1].tokens_per_month >= pair[0].tokens_per_month);
            proptest::prop_assert!(pair[1].api_cost >= pair[0].api_cost);
        }
    }
}
