use super::super::format::fixed;
use super::*;
use proptest::strategy::Strategy;

const TEACHER: [f64; 4] = SEED_PRESET.teacher;
const A: [f64; 4] = SEED_PRESET.student_a;
const B: [f64; 4] = SEED_PRESET.student_b;

/// Central finite difference of `f` at `z` along each logit.
fn numeric_grad(f: impl Fn(&[f64]) -> f64, z: &[f64]) -> Vec<f64> {
    let h = 1e-5;
    (0..z.len())
        .map(|i| {
            let mut up = z.to_vec();
            let mut down = z.to_vec();
            up[i] += h;
            down[i] -= h;
            (f(&up) - f(&down)) / (2.0 * h)
        })
        .collect()
}

fn assert_close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() < tol, "{a:?} vs {b:?}");
    }
}

/// The golden figures of the course plan.
#[test]
fn reproduces_the_course_figures() {
    let hard = hard_target(4, 0);
    assert_eq!(hard, [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(fixed(cross_entropy(&hard, &A), 3), "0.511");
    assert_eq!(fixed(cross_entropy(&hard, &B), 3), "0.511");
    assert_eq!(fixed(cross_entropy(&TEACHER, &A), 3), "0.886");
    assert_eq!(fixed(cross_entropy(&TEACHER, &B), 3), "1.203");
    assert_eq!(fixed(entropy(&TEACHER), 3), "0.863");
    assert_eq!(
        worked_line(&TEACHER, &A),
        "0.70 \u{d7} 0.511 + 0.20 \u{d7} 1.386 + 0.07 \u{d7} 2.303 + 0.03 \u{d7} 2.996 = 0.886"
    );
    assert_eq!(
        worked_line(&TEACHER, &B),
        "0.70 \u{d7} 0.511 + 0.20 \u{d7} 2.996 + 0.07 \u{d7} 2.996 + 0.03 \u{d7} 1.204 = 1.203"
    );
    assert_eq!(worked_line(&hard, &A), "1.00 \u{d7} 0.511 = 0.511");
    // KL = CE − H makes the gap between the students visible.
    let kl_a = kl_divergence(&TEACHER, &A);
    let kl_b = kl_divergence(&TEACHER, &B);
    assert!((kl_a - (cross_entropy(&TEACHER, &A) - entropy(&TEACHER))).abs() < 1e-12);
    assert_eq!(fixed(kl_a, 3), "0.023");
    assert_eq!(fixed(kl_b, 3), "0.340");
}

#[test]
fn terms_show_the_sum_and_its_largest_part() {
    let ts = terms(&TEACHER, &B);
    let shown: Vec<String> = ts.iter().map(|t| fixed(t.neg_ln_student, 3)).collect();
    assert_eq!(shown, ["0.511", "2.996", "2.996", "1.204"]);
    assert_eq!(largest_term(&ts), Some(1));
    assert_eq!(largest_term(&terms(&TEACHER, &A)), Some(0));
    assert_eq!(largest_term(&[]), None);
}

#[test]
fn zeros_give_zero_or_infinity_never_nan() {
    assert_eq!(cross_entropy(&[0.0, 1.0], &[0.0, 1.0]), 0.0);
    assert_eq!(cross_entropy(&[0.5, 0.5], &[0.0, 1.0]), f64::INFINITY);
    assert_eq!(kl_divergence(&[0.5, 0.5], &[1.0, 0.0]), f64::INFINITY);
    assert_eq!(kl_divergence(&[0.0, 1.0], &[0.5, 0.5]), 2f64.ln());
    assert_eq!(kl_divergence(&TEACHER, &TEACHER), 0.0);
    assert_eq!(entropy(&[1.0, 0.0]), 0.0);
    assert_eq!(hard_target(3, 7), [0.0, 0.0, 0.0]);
    assert_eq!(hard_loss(&[0.0, 0.0], 5), 0.0);
    assert_eq!(argmax(&[0.1, f64::NAN, 0.5, 0.5]), Some(2));
    assert_eq!(argmax(&[]), None);
}

#[test]
fn normalize_checks_its_input() {
    let p = normalize(&[70.0, 20.0, 7.0, 3.0]).unwrap();
    assert_close(&p, &TEACHER, 1e-15);
    let msg = |w: &[f64]| normalize(w).unwrap_err().message;
    assert_eq!(msg(&[1.0]), "Give between 2 and 10 tokens.");
    assert_eq!(msg(&[1.0; 11]), "Give between 2 and 10 tokens.");
    assert_eq!(
        msg(&[1.0, -1.0]),
        "Token 2 is negative; probabilities cannot be."
    );
    assert_eq!(msg(&[f64::NAN, 1.0]), "Token 1 is not a finite number.");
    assert_eq!(
        msg(&[0.0, 0.0]),
        "At least one token needs a weight above 0."
    );
    let big = normalize(&[f64::MAX, f64::MAX]).unwrap();
    assert_eq!(big, [0.5, 0.5]);
    let parsed = parse_distribution(Field::Teacher, &["0.70", "0.20", "0.07", "0.03"]).unwrap();
    assert_close(&parsed, &TEACHER, 1e-12);
    let err = parse_distribution(Field::Teacher, &["0.7", "x"]).unwrap_err();
    assert_eq!(err.field, "Teacher");
    assert_eq!(err.message, "Token 2: \u{201c}x\u{201d} is not a number.");
    assert!(parse_temperature("0").is_err());
    assert_eq!(parse_temperature("4"), Ok(4.0));
    assert!(parse_alpha("1.5").is_err());
    assert!(parse_learning_rate("0").is_err());
}

#[test]
fn presets_are_distributions_that_tell_the_story() {
    for p in PRESETS {
        for d in [p.teacher, p.student_a, p.student_b] {
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{}", p.id);
        }
        assert!(p.hard_index < 4);
    }
    let w = WRONG_TEACHER_PRESET;
    let hard = hard_target(4, w.hard_index);
    assert_ne!(argmax(&w.teacher), Some(w.hard_index));
    // The copying student wins on the teacher's loss, the right one on the hard label.
    assert!(cross_entropy(&w.teacher, &w.student_a) < cross_entropy(&w.teacher, &w.student_b));
    assert!(cross_entropy(&hard, &w.student_b) < cross_entropy(&hard, &w.student_a));
}

#[test]
fn softmax_is_stable_and_tempered() {
    let p = softmax(&[1000.0, 1000.0], 1.0);
    assert_eq!(p, [0.5, 0.5]);
    let p = softmax(&[f64::INFINITY, 0.0, f64::INFINITY], 1.0);
    assert_eq!(p, [0.5, 0.0, 0.5]);
    assert_eq!(softmax(&[f64::NEG_INFINITY; 2], 1.0), [0.5, 0.5]);
    assert_eq!(softmax(&[f64::NAN, 0.0], 1.0), [0.0, 1.0]);
    assert!(softmax(&[], 1.0).is_empty());
    assert_close(&softmax(&probs_to_logits(&TEACHER), 1.0), &TEACHER, 1e-12);
    // A higher temperature flattens: the entropy rises.
    let z = probs_to_logits(&TEACHER);
    assert!(entropy(&softmax(&z, 4.0)) > entropy(&softmax(&z, 1.0)));
    assert!(entropy(&softmax(&z, 0.5)) < entropy(&softmax(&z, 1.0)));
    assert!(softmax(&z, f64::NAN).iter().all(|x| x.is_finite()));
    assert!(softmax(&z, -1.0).iter().all(|x| x.is_finite()));
    assert!(probs_to_logits(&[0.0, 1.0])[0].is_finite());
}

#[test]
fn soft_loss_is_t_squared_times_softened_cross_entropy() {
    let tz = probs_to_logits(&TEACHER);
    let sz = probs_to_logits(&A);
    for t in [0.5, 1.0, 2.0, 4.0, 10.0] {
        let ce = cross_entropy(&softmax(&tz, t), &softmax(&sz, t));
        assert!(
            (soft_loss_scaled(&tz, &sz, t) - t * t * ce).abs() < 1e-10,
            "T = {t}"
        );
    }
    assert_eq!(
        fixed(soft_loss_scaled(&tz, &sz, 1.0), 3),
        fixed(cross_entropy(&TEACHER, &A), 3)
    );
    assert_eq!(mixed_loss(1.0, 2.0, 3.0), 2.0);
    assert_eq!(mixed_loss(0.0, 2.0, 3.0), 3.0);
    assert_eq!(mixed_loss(0.25, 2.0, 3.0), 2.75);
    assert_eq!(mixed_loss(7.0, 2.0, 3.0), 2.0);
}

#[test]
fn analytic_gradients_match_finite_differences() {
    let z = [0.3, -1.2, 2.0, 0.5];
    let tz = probs_to_logits(&TEACHER);
    for t in [0.5, 1.0, 2.5, 6.0] {
        let pt = softmax(&tz, t);
        let soft = |z: &[f64]| soft_loss_scaled(&tz, z, t);
        assert_close(
            &grad_soft_wrt_logits(&pt, &z, t),
            &numeric_grad(soft, &z),
            1e-6,
        );
        for index in 0..4 {
            let hard = |z: &[f64]| hard_loss(z, index);
            assert_close(
                &grad_hard_wrt_logits(&z, index),
                &numeric_grad(hard, &z),
                1e-6,
            );
            for alpha in [0.0, 0.3, 1.0] {
                let mixed = |z: &[f64]| mixed_loss(alpha, hard_loss(z, index), soft(z));
                assert_close(
                    &grad_mixed_wrt_logits(alpha, index, &pt, &z, t),
                    &numeric_grad(mixed, &z),
                    1e-6,
                );
            }
        }
    }
}

#[test]
fn trainer_is_deterministic_and_incremental() {
    let config = TrainConfig {
        loss: LossKind::Mix(0.5),
        learning_rate: 0.5,
        temperature: 2.0,
    };
    let run = train(&TEACHER, 0, StudentInit::Seeded(7), config, 20).unwrap();
    assert_eq!(run.len(), 21);
    assert_eq!(run[0].step, 0);
    assert_eq!(run[20].step, 20);
    assert_eq!(
        run,
        train(&TEACHER, 0, StudentInit::Seeded(7), config, 20).unwrap()
    );
    let mut trainer = Trainer::new(&TEACHER, 0, StudentInit::Seeded(7), config).unwrap();
    assert_eq!(trainer.current(), run[0]);
    let mut steps = trainer.run(5);
    steps.extend(trainer.run(15));
    assert_eq!(steps, run[1..]);
    assert!(run[20].loss < run[0].loss);
    assert_ne!(
        train(&TEACHER, 0, StudentInit::Seeded(8), config, 0).unwrap(),
        run[..1]
    );
    let uniform = Trainer::new(&TEACHER, 0, StudentInit::Uniform, config).unwrap();
    assert_eq!(uniform.probs(), [0.25; 4]);
    assert!(trainer
        .set_config(TrainConfig {
            temperature: 1.0,
            ..config
        })
        .is_ok());
    assert_close(trainer.soft_targets(), &TEACHER, 1e-12);
}

#[test]
fn trainer_rejects_what_makes_no_sense() {
    let ok = TrainConfig {
        loss: LossKind::Soft,
        learning_rate: 1.0,
        temperature: 1.0,
    };
    let field = |teacher: &[f64], index: usize, config: TrainConfig| {
        Trainer::new(teacher, index, StudentInit::Uniform, config)
            .unwrap_err()
            .field
    };
    assert_eq!(field(&[1.0], 0, ok), "Teacher");
    assert_eq!(field(&TEACHER, 4, ok), "Right token");
    let bad_lr = TrainConfig {
        learning_rate: f64::NAN,
        ..ok
    };
    assert_eq!(field(&TEACHER, 0, bad_lr), "Learning rate");
    let bad_t = TrainConfig {
        temperature: 0.0,
        ..ok
    };
    assert_eq!(field(&TEACHER, 0, bad_t), "Temperature");
    let bad_alpha = TrainConfig {
        loss: LossKind::Mix(f64::NAN),
        ..ok
    };
    assert_eq!(field(&TEACHER, 0, bad_alpha), "\u{3b1}");
    let err = train(&TEACHER, 0, StudentInit::Uniform, ok, MAX_STEPS + 1).unwrap_err();
    assert_eq!(err.field, "Steps");
}

#[test]
fn the_student_copies_a_wrong_teacher_under_the_soft_loss() {
    let w = WRONG_TEACHER_PRESET;
    let config = |loss| TrainConfig {
        loss,
        learning_rate: 1.0,
        temperature: 2.0,
    };
    let soft = train(
        &w.teacher,
        w.hard_index,
        StudentInit::Uniform,
        config(LossKind::Soft),
        300,
    )
    .unwrap();
    let hard = train(
        &w.teacher,
        w.hard_index,
        StudentInit::Uniform,
        config(LossKind::Hard),
        300,
    )
    .unwrap();
    assert_eq!(argmax(&soft[300].probs), argmax(&w.teacher));
    assert_eq!(argmax(&hard[300].probs), Some(w.hard_index));
}

fn log_weights(w: &[f64]) -> Vec<f64> {
    log_probs(Entry::Weights, w).unwrap()
}

#[test]
fn the_playground_reproduces_the_course_figures() {
    let c = compare(
        &log_weights(&TEACHER),
        [&log_weights(&A), &log_weights(&B)],
        None,
        1.0,
        0.5,
    );
    assert_eq!(c.hard_index, 0);
    let [a, b] = &c.students;
    let shown = |x: f64| fixed(x, 3);
    assert_eq!(shown(a.hard.value), "0.511");
    assert_eq!(shown(b.hard.value), "0.511");
    assert_eq!(shown(a.soft.value), "0.886");
    assert_eq!(shown(b.soft.value), "1.203");
    assert_eq!(shown(c.entropy), "0.863");
    assert_eq!(shown(a.kl), "0.023");
    assert_eq!(shown(b.kl), "0.340");
    assert_eq!(a.soft.worked(), worked_line(&TEACHER, &A));
    assert_eq!(b.soft.worked(), worked_line(&TEACHER, &B));
    assert_eq!(a.hard.worked(), "1.00 \u{d7} 0.511 = 0.511");
    assert_eq!((a.soft.largest, b.soft.largest), (Some(0), Some(1)));
    assert!((a.mixed - 0.5 * (a.hard.value + a.soft.value)).abs() < 1e-12);
    // Weights need not sum to 1, and logits give the same result as their probabilities.
    let scaled = compare(
        &log_weights(&[70.0, 20.0, 7.0, 3.0]),
        [&log_weights(&A), &log_weights(&B)],
        None,
        1.0,
        0.5,
    );
    assert_eq!(shown(scaled.students[0].soft.value), "0.886");
    let logits = |p: &[f64]| -> Vec<f64> { p.iter().map(|x| x.ln() + 3.0).collect() };
    let from_logits = compare(
        &log_probs(Entry::Logits, &logits(&TEACHER)).unwrap(),
        [&logits(&A), &logits(&B)],
        None,
        1.0,
        0.5,
    );
    assert_eq!(shown(from_logits.students[1].soft.value), "1.203");
    assert_eq!(shown(from_logits.entropy), "0.863");
    // A chosen hard label overrides the teacher's top token.
    let picked = compare(
        &log_weights(&TEACHER),
        [&log_weights(&A), &log_weights(&B)],
        Some(3),
        1.0,
        0.5,
    );
    assert_eq!(shown(picked.students[1].hard.value), "1.204");
    assert_eq!(picked.students[1].hard.largest, Some(3));
}

#[test]
fn the_playground_scales_the_soft_loss_by_t_squared() {
    let c = compare(
        &log_weights(&TEACHER),
        [&log_weights(&A), &log_weights(&B)],
        None,
        2.0,
        1.0,
    );
    let a = &c.students[0];
    let ce = cross_entropy(&soften(&TEACHER, 2.0), &soften(&A, 2.0));
    assert!((a.soft.value - 4.0 * ce).abs() < 1e-12);
    assert!((a.soft.unscaled() - ce).abs() < 1e-12);
    assert_close(&c.teacher.at_t, &soften(&TEACHER, 2.0), 1e-12);
    assert!((c.entropy - entropy(&c.teacher.at_t)).abs() < 1e-12);
    assert!((a.kl - (ce - c.entropy)).abs() < 1e-12);
    // The hard loss does not feel T; α = 1 is the hard loss alone.
    assert_eq!(fixed(a.hard.value, 3), "0.511");
    assert_eq!(a.mixed, a.hard.value);
    assert!(
        a.soft.worked().starts_with("4 \u{d7} (0."),
        "{}",
        a.soft.worked()
    );
    assert!(a.soft.worked().ends_with(&fixed(a.soft.value, 3)));
    // Softening lifts the small probabilities.
    assert!(c.teacher.at_t[3] > TEACHER[3]);
}

#[test]
fn a_zero_under_a_positive_target_is_infinite_never_nan() {
    let zero_b = [0.6, 0.4, 0.0, 0.0];
    for t in [0.5, 1.0, 3.0] {
        for alpha in [0.0, 0.5, 1.0] {
            let c = compare(
                &log_weights(&TEACHER),
                [&log_weights(&A), &log_weights(&zero_b)],
                None,
                t,
                alpha,
            );
            let b = &c.students[1];
            assert_eq!(b.soft.value, f64::INFINITY);
            assert_eq!(b.soft.infinite_at(), Some(2));
            assert_eq!(b.soft.largest, Some(2));
            assert_eq!(b.kl, f64::INFINITY);
            assert!(b.hard.value.is_finite());
            assert!(!b.mixed.is_nan());
            assert_eq!(b.mixed.is_finite(), alpha == 1.0);
            assert!(b.soft.worked().contains('\u{221e}'));
            assert_eq!(b.probs.at_t[2], 0.0);
        }
    }
    // A zero where the target is zero adds nothing.
    let c = compare(
        &log_weights(&[1.0, 0.0]),
        [&log_weights(&[1.0, 0.0]), &log_weights(&[0.5, 0.5])],
        None,
        2.0,
        0.5,
    );
    assert_eq!(c.students[0].soft.value, 0.0);
    assert_eq!(c.students[0].kl, 0.0);
    assert_eq!(c.entropy, 0.0);
    // Very unlikely logits stay finite.
    let c = compare(&[0.0, 0.0], [&[100.0, -100.0], &[0.0, 0.0]], None, 0.1, 0.0);
    assert!(c.students[0].soft.value.is_finite());
}

#[test]
fn values_are_parsed_and_written_back() {
    assert_eq!(parse_value(Entry::Weights, "70"), Ok(70.0));
    assert!(parse_value(Entry::Weights, "-1").is_err());
    assert_eq!(parse_value(Entry::Logits, "-1.5"), Ok(-1.5));
    assert!(parse_value(Entry::Logits, "1e309").is_err());
    assert!(parse_value(Entry::Logits, "500").is_err());
    assert!(log_probs(Entry::Logits, &[1.0]).is_err());
    assert!(log_probs(Entry::Weights, &[0.0, 0.0]).is_err());
    assert_eq!(value_text(Entry::Weights, 0.7), "0.7");
    assert_eq!(value_text(Entry::Weights, 0.0), "0");
    assert_eq!(value_text(Entry::Weights, 1.2345e-5), "1.23e-5");
    assert_eq!(value_text(Entry::Logits, 0.7f64.ln()), "-0.357");
    assert_eq!(value_text(Entry::Logits, -0.0001), "0");
    assert_eq!(value_text(Entry::Logits, -1e6), "-100");
    for x in [0.7, 0.0, 1.2345e-5, 3.25] {
        let text = value_text(Entry::Weights, x);
        assert!(parse_value(Entry::Weights, &text).is_ok(), "{text}");
    }
}

/// A distribution of 2..=10 tokens, some of them 0.
fn distribution() -> impl Strategy<Value = Vec<f64>> {
    proptest::collection::vec(
        proptest::prop_oneof![1 => proptest::strategy::Just(0.0), 4 => 0.001f64..1.0],
        MIN_TOKENS..=MAX_TOKENS,
    )
    .prop_filter_map("all zero", |w| normalize(&w).ok())
}

/// A distribution of exactly `n` tokens, all positive.
fn positive(n: usize) -> impl Strategy<Value = Vec<f64>> {
    proptest::collection::vec(0.001f64..1.0, n).prop_map(|w| normalize(&w).unwrap())
}

proptest::proptest! {
    #[test]
    fn the_playground_never_shows_nan(
        teacher in distribution(),
        a_seed in 0u64..1000,
        zero_at in 0usize..10,
        t in MIN_TEMPERATURE..=MAX_TEMPERATURE,
        alpha in 0.0f64..=1.0,
        pick in proptest::option::of(0usize..12),
    ) {
        let mut rng = SplitMix64::new(a_seed);
        let mut w: Vec<f64> = teacher.iter().map(|_| rng.next_f64()).collect();
        w[zero_at % teacher.len()] = 0.0;
        let Ok(a) = log_probs(Entry::Weights, &w) else { return Ok(()); };
        let tz = log_probs(Entry::Weights, &teacher).unwrap();
        let c = compare(&tz, [&a, &tz], pick, t, alpha);
        proptest::prop_assert!(c.hard_index < teacher.len());
        proptest::prop_assert!(!c.entropy.is_nan() && c.entropy >= 0.0);
        for s in &c.students {
            for x in [s.hard.value, s.soft.value, s.kl, s.mixed] {
                proptest::prop_assert!(!x.is_nan() && x >= 0.0);
            }
            // Soft cross-entropy ≥ entropy of the soft target.
            proptest::prop_assert!(s.soft.unscaled() >= c.entropy - 1e-9);
            proptest::prop_assert!((s.probs.at_1.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
        // A student equal to the teacher has KL 0 at any T.
        proptest::prop_assert!(c.students[1].kl < 1e-9);
    }

    #[test]
    fn normalize_sums_to_one(w in proptest::collection::vec(0.0f64..1e6, 2..=10)) {
        if let Ok(p) = normalize(&w) {
            proptest::prop_assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            proptest::prop_assert!(p.iter().all(|&x| (0.0..=1.0).contains(&x)));
        } else {
            proptest::prop_assert!(w.iter().all(|&x| x == 0.0));
        }
    }

    #[test]
    fn cross_entropy_is_at_least_entropy(p in distribution(), seed in 0u64..1000) {
        let mut rng = SplitMix64::new(seed);
        let w: Vec<f64> = p.iter().map(|_| rng.next_f64()).collect();
        if let Ok(q) = normalize(&w) {
            let ce = cross_entropy(&p, &q);
            let h = entropy(&p);
            proptest::prop_assert!(!ce.is_nan());
            proptest::prop_assert!(ce >= h - 1e-12, "CE {} < H {}", ce, h);
            let kl = kl_divergence(&p, &q);
            proptest::prop_assert!(kl >= 0.0);
            if kl.is_finite() {
                proptest::prop_assert!((kl - (ce - h)).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn kl_is_zero_exactly_when_equal(p in distribution(), q in distribution()) {
        proptest::prop_assert!(kl_divergence(&p, &p).abs() < 1e-12);
        if p.len() == q.len() {
            let kl = kl_divergence(&p, &q);
            proptest::prop_assert!(kl >= 0.0);
            let differ = p.iter().zip(&q).any(|(a, b)| (a - b).abs() > 1e-3);
            if differ {
                proptest::prop_assert!(kl > 1e-12);
            }
        }
    }

    #[test]
    fn gradient_steps_never_give_nan(
        teacher in distribution(),
        index in 0usize..10,
        seed in proptest::prelude::any::<u64>(),
        kind in 0u8..3,
        alpha in 0.0f64..=1.0,
        lr in 0.001f64..=MAX_LEARNING_RATE,
        t in MIN_TEMPERATURE..=MAX_TEMPERATURE,
    ) {
        let loss = match kind {
            0 => LossKind::Hard,
            1 => LossKind::Soft,
            _ => LossKind::Mix(alpha),
        };
        let config = TrainConfig { loss, learning_rate: lr, temperature: t };
        let index = index % teacher.len();
        let run = train(&teacher, index, StudentInit::Seeded(seed), config, 50).unwrap();
        for s in &run {
            proptest::prop_assert!(!s.loss.is_nan() && s.loss >= -1e-9);
            proptest::prop_assert!(s.probs.iter().all(|x| x.is_finite()));
            proptest::prop_assert!((s.probs.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn soft_training_moves_the_student_toward_the_teacher(
        teacher in (2usize..=10).prop_flat_map(positive),
        t in 0.5f64..=4.0,
    ) {
        let config = TrainConfig { loss: LossKind::Soft, learning_rate: 1.0, temperature: t };
        let run = train(&teacher, 0, StudentInit::Uniform, config, 300).unwrap();
        let kl: Vec<f64> = run.iter().map(|s| kl_divergence(&teacher, &s.probs)).collect();
        if kl[0] > 1e-9 {
            proptest::prop_assert!(kl[300] < 0.5 * kl[0], "KL {} → {}", kl[0], kl[300]);
        }
        // At a step size below 4 the convex soft loss never rises.
        for w in run.windows(2) {
            proptest::prop_assert!(w[1].loss <= w[0].loss + 1e-12);
        }
    }

    #[test]
    fn hard_training_pushes_the_right_token_toward_one(
        n in 2usize..=10,
        index in 0usize..10,
        lr in 0.1f64..=2.0,
    ) {
        let index = index % n;
        let config = TrainConfig { loss: LossKind::Hard, learning_rate: lr, temperature: 1.0 };
        let run = train(&vec![1.0; n], index, StudentInit::Uniform, config, 500).unwrap();
        for w in run.windows(2) {
            proptest::prop_assert!(w[1].probs[index] > w[0].probs[index]);
        }
        proptest::prop_assert!(run[500].probs[index] > 0.9);
    }
}
