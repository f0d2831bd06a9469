//! The sample, its statistics, the end-to-end split and the diagnosis.

use super::*;

#[test]
fn summary_of_one_to_a_hundred() {
    let s: Vec<f64> = (1..=100).map(f64::from).collect();
    let summary = Summary::of(&s).expect("non-empty");
    assert_eq!(summary.mean, 50.5);
    assert_eq!((summary.p50, summary.p90, summary.p99), (50.0, 90.0, 99.0));
    assert_eq!((summary.max, summary.count), (100.0, 100));
}

#[test]
fn mean_and_summary_of_nothing() {
    assert_eq!(mean(&[]), None);
    assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
    assert_eq!(Summary::of(&[]), None);
    assert_eq!(Summary::of(&[f64::NAN]), None);
}

#[test]
fn lognormal_sample_is_right_skewed_around_the_median() {
    let model = LatencyModel {
        slow_one_in: 0,
        ..LatencyModel::EXAMPLE
    };
    let s = Summary::of(&model.sample(1, 2000)).expect("samples");
    assert!((s.p50 / 800.0 - 1.0).abs() < 0.1, "p50 {}", s.p50);
    // Mean of a lognormal is median × e^(σ²/2) ≈ 906 ms for σ = 0.5.
    assert!(
        s.mean > s.p50 && (s.mean / 906.0 - 1.0).abs() < 0.1,
        "mean {}",
        s.mean
    );
    assert!(s.p99 > 2.0 * s.p50);
    let flat = LatencyModel {
        sigma: 0.0,
        ..model
    };
    assert!(flat.sample(1, 10).iter().all(|&v| v == 800.0));
}

#[test]
fn one_in_n_slows_an_exact_share() {
    let base = LatencyModel {
        slow_one_in: 0,
        ..LatencyModel::EXAMPLE
    };
    let slowed = LatencyModel {
        slow_one_in: 10,
        slow_factor: 4.0,
        ..base
    };
    let (a, b) = (base.sample(3, 1000), slowed.sample(3, 1000));
    let changed = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    assert_eq!(changed, 100);
    assert!(a.iter().zip(&b).all(|(x, y)| y == x || *y == x * 4.0));
    let all = LatencyModel {
        slow_one_in: 1,
        ..slowed
    };
    assert_eq!(
        all.sample(3, 5),
        a[..5].iter().map(|x| x * 4.0).collect::<Vec<_>>()
    );
}

#[test]
fn odd_models_still_give_finite_non_negative_samples() {
    let odd = [
        LatencyModel {
            median_ms: f64::NAN,
            ..LatencyModel::EXAMPLE
        },
        LatencyModel {
            median_ms: -5.0,
            ..LatencyModel::EXAMPLE
        },
        LatencyModel {
            median_ms: f64::INFINITY,
            sigma: f64::INFINITY,
            ..LatencyModel::EXAMPLE
        },
        LatencyModel {
            sigma: f64::NAN,
            slow_factor: f64::NAN,
            ..LatencyModel::EXAMPLE
        },
        LatencyModel {
            sigma: -1.0,
            slow_factor: -3.0,
            ..LatencyModel::EXAMPLE
        },
    ];
    for model in odd {
        let s = model.sample(9, 500);
        assert!(s.iter().all(|v| v.is_finite() && *v >= 0.0), "{model:?}");
    }
    assert_eq!(
        LatencyModel::EXAMPLE.sample(1, usize::MAX).len(),
        MAX_SAMPLES
    );
}

#[test]
fn histogram_bins_and_clips() {
    let h = histogram(&[0.0, 1.0, 2.5, 9.9, 10.0, 10.5, f64::NAN, -1.0], 4, 10.0);
    assert_eq!(h.edges, vec![0.0, 2.5, 5.0, 7.5, 10.0]);
    assert_eq!(h.counts, vec![3, 1, 0, 2]);
    assert_eq!(h.overflow, 1);
    let all = histogram(&[1.0, 4.0], 2, f64::NAN);
    assert_eq!(
        (all.edges.last(), all.counts.iter().sum::<u64>()),
        (Some(&4.0), 2)
    );
    assert!(histogram(&[1.0], 0, 10.0).counts.is_empty());
    assert!(histogram(&[], 5, 0.0).edges.is_empty());
    assert_eq!(histogram(&[1.0], usize::MAX, 10.0).counts.len(), MAX_BINS);
}

#[test]
fn end_to_end_split_names_the_bottleneck() {
    let slow_network = EndToEnd {
        network_ms: 600.0,
        queue_ms: 150.0,
        inference_ms: 250.0,
    };
    assert_eq!(slow_network.total_ms(), 1000.0);
    assert_eq!(slow_network.inference_share(), 0.25);
    assert_eq!(slow_network.bottleneck(), Part::Network);
    let busy = EndToEnd {
        queue_ms: 900.0,
        ..slow_network
    };
    assert_eq!(busy.bottleneck(), Part::Queue);
    let gpu_bound = EndToEnd {
        network_ms: 40.0,
        queue_ms: 10.0,
        inference_ms: 950.0,
    };
    assert_eq!(gpu_bound.bottleneck(), Part::Inference);
    assert_eq!(gpu_bound.bottleneck().id(), "inference");
    let nothing = EndToEnd {
        network_ms: 0.0,
        queue_ms: 0.0,
        inference_ms: 0.0,
    };
    assert_eq!(
        (nothing.inference_share(), nothing.bottleneck()),
        (0.0, Part::Network)
    );
    let nan = EndToEnd {
        network_ms: f64::NAN,
        ..gpu_bound
    };
    assert_eq!(nan.bottleneck(), Part::Inference);
}

#[test]
fn parse_helpers_name_the_field() {
    assert_eq!(parse_median_ms("800"), Ok(800.0));
    assert_eq!(parse_median_ms("0").unwrap_err().field, "Median");
    assert_eq!(parse_sigma("0"), Ok(0.0));
    assert!(parse_sigma("3.5").is_err());
    assert_eq!(parse_slow_one_in("0"), Ok(0));
    assert_eq!(
        parse_slow_one_in("2.5").unwrap_err().message,
        "Enter a whole number."
    );
    assert_eq!(
        parse_slow_factor("0.5").unwrap_err().message,
        "Must be at least 1."
    );
    assert_eq!(parse_sample_count("2000"), Ok(2000));
    assert_eq!(parse_network_ms("0"), Ok(0.0));
    assert_eq!(parse_queue_ms("-1").unwrap_err().field, "Queue");
    assert_eq!(parse_inference_ms("x").unwrap_err().field, "Inference");
}

#[test]
fn explorer_prints_plain_ms() {
    assert_eq!(ms_text(812.4), "812 ms");
    assert_eq!(ms_text(4132.6), "4133 ms");
    assert_eq!(ms_text(42.5), "42.5 ms");
    assert_eq!(ms_text(0.25), "0.25 ms");
    assert_eq!(ms_text(10.0), "10 ms");
}

#[test]
fn the_tail_story_shows_the_mean_hiding_the_tail() {
    let story = TailStory::of(&LatencyModel::EXAMPLE, EXPLORER_SEED, EXPLORER_REQUESTS).unwrap();
    let (now, trimmed) = (story.now, story.trimmed);
    assert!(now.mean > now.p50, "the tail drags the mean up");
    assert!(now.p99 > 3.0 * now.p50);
    assert!(now.p99 - trimmed.p99 > 5.0 * (now.p50 - trimmed.p50).abs());
    assert!(story.mean_hides_tail().starts_with("The mean, "));
    assert!(story
        .trimming()
        .starts_with("If the 1-in-20 slow requests were fixed"));
    let no_slow = LatencyModel {
        slow_one_in: 0,
        ..LatencyModel::EXAMPLE
    };
    let story = TailStory::of(&no_slow, 1, 500).unwrap();
    assert!(story.trimming().contains("sigma 0.5 \u{2192} 0.25"));
    assert!(story.trimmed.p99 < story.now.p99);
    assert!(TailStory::of(&no_slow, 1, 0).is_none());
}

#[test]
fn diagnosis_sends_slow_end_to_end_to_the_infrastructure() {
    let slow_network = EndToEnd {
        network_ms: 600.0,
        queue_ms: 150.0,
        inference_ms: 250.0,
    };
    let d = diagnose(&slow_network);
    assert!(d.fix_infrastructure);
    assert!(d.text.contains("only 25% of the 1000 ms"), "{}", d.text);
    assert!(d.text.contains("the network"));
    let queued = diagnose(&EndToEnd {
        queue_ms: 700.0,
        ..slow_network
    });
    assert!(queued.fix_infrastructure && queued.text.contains("queueing"));
    let gpu = diagnose(&EndToEnd {
        network_ms: 40.0,
        queue_ms: 10.0,
        inference_ms: 950.0,
    });
    assert!(!gpu.fix_infrastructure);
    assert!(gpu.text.starts_with("Inference is 95% of the 1000 ms"));
    let zero = diagnose(&EndToEnd {
        network_ms: 0.0,
        queue_ms: 0.0,
        inference_ms: 0.0,
    });
    assert!(!zero.fix_infrastructure);
}

proptest::proptest! {
    #[test]
    fn summary_is_ordered(values in proptest::collection::vec(0.0f64..1e6, 1..500)) {
        let s = Summary::of(&values).expect("non-empty");
        proptest::prop_assert!(s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.max);
        proptest::prop_assert!(s.mean <= s.max && s.count == values.len());
    }

    #[test]
    fn sampler_is_deterministic_finite_and_non_negative(
        seed in proptest::prelude::any::<u64>(),
        median in 0.001f64..3_600_000.0,
        sigma in 0.0f64..=3.0,
        slow_one_in in 0u32..50,
        slow_factor in 1.0f64..1000.0,
        count in 0usize..300,
    ) {
        let model = LatencyModel { median_ms: median, sigma, slow_one_in, slow_factor };
        let a = model.sample(seed, count);
        proptest::prop_assert_eq!(a.len(), count);
        proptest::prop_assert!(a.iter().all(|v| v.is_finite() && *v >= 0.0));
        proptest::prop_assert_eq!(&a, &model.sample(seed, count));
        let h = histogram(&a, 20, f64::NAN);
        let binned: u64 = h.counts.iter().sum::<u64>() + h.overflow;
        proptest::prop_assert!(binned == count as u64 || h.counts.is_empty());
    }

    #[test]
    fn more_sigma_lifts_p99_more_than_p50(
        median in 1.0f64..10_000.0,
        sigma in 0.05f64..2.0,
        extra in 0.05f64..1.0,
    ) {
        let at = |sigma: f64| {
            let model = LatencyModel {
                median_ms: median,
                sigma,
                slow_one_in: 0,
                slow_factor: 1.0,
            };
            Summary::of(&model.sample(42, 2000)).expect("samples")
        };
        let (narrow, wide) = (at(sigma), at(sigma + extra));
        proptest::prop_assert!(wide.p99 > narrow.p99);
        proptest::prop_assert!(wide.p99 - narrow.p99 > (wide.p50 - narrow.p50).abs());
    }
}
