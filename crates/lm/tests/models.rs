#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

//! The committed models against their manifest: the engine reproduces, from the f16 weights in
//! models/, every figure the training script recorded (tolerances stated at each check).

use std::path::PathBuf;

use ie_lm::eval::{compare_log_probs, log_probs, LogProbs};
use ie_lm::{file, generate_greedy, Model, Precision, State};
use serde_json::Value;

/// models/ at the top of the repository (LM_MODELS_DIR overrides it, e.g. for a smoke run of
/// train.py written elsewhere).
fn models_dir() -> PathBuf {
    std::env::var_os("LM_MODELS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models"))
}

fn manifest() -> Value {
    let text =
        std::fs::read_to_string(models_dir().join("manifest.json")).expect("models/manifest.json");
    serde_json::from_str(&text).expect("manifest is JSON")
}

fn load(name: &str, precision: Precision) -> Model {
    let bytes = std::fs::read(models_dir().join(format!("{name}.ielm"))).expect("weights file");
    file::load(&bytes, precision).expect("loads")
}

fn heldout() -> String {
    std::fs::read_to_string(models_dir().join("heldout.txt")).expect("models/heldout.txt")
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Held-out cross-entropy: Python (JAX, f32) and this engine sum in different orders, and the
/// int8/int4 figures come from Python's simulation of the same quantization; 0.002 bits/char.
const BITS_TOLERANCE: f64 = 0.002;
/// Top-1 agreement: a near-tie may flip a few of the ~4,000 positions; 0.3 percentage points.
const AGREEMENT_TOLERANCE: f64 = 0.003;

#[test]
fn the_teacher_reproduces_its_golden_logits() {
    let m = manifest();
    let golden = &m["golden"];
    let prompt = golden["prompt"].as_str().unwrap();
    let model = load("teacher", Precision::F32);
    let tokens = model.tokenizer.encode(prompt).unwrap();
    let mut state = State::for_model(&model).unwrap();
    let mut worst = 0.0f64;
    let mut checked = 0;
    for (pos, &t) in tokens.iter().enumerate() {
        let logits = ie_lm::forward(&model, &mut state, t, pos).unwrap().to_vec();
        for g in golden["teacher_logits_f32"].as_array().unwrap() {
            if g["position"].as_u64() == Some(pos as u64) {
                for (a, b) in logits.iter().zip(g["logits"].as_array().unwrap()) {
                    worst = worst.max((*a as f64 - num(b)).abs());
                }
                checked += 1;
            }
        }
    }
    assert_eq!(
        checked,
        golden["teacher_logits_f32"].as_array().unwrap().len()
    );
    // JAX and this engine agree to within 1e-3 on logits of magnitude ~10 (measured: see the
    // printed figure); the manifest rounds to 1e-5.
    println!("largest logit difference: {worst:.2e}");
    assert!(worst < 1e-3, "largest logit difference {worst}");
}

#[test]
fn every_model_reproduces_its_golden_greedy_sample_exactly() {
    let m = manifest();
    let prompt = m["golden"]["prompt"].as_str().unwrap();
    let new = m["golden"]["new_chars"].as_u64().unwrap() as usize;
    for (name, entry) in m["models"].as_object().unwrap() {
        let model = load(name, Precision::F32);
        let sample = generate_greedy(&model, prompt, new).unwrap();
        assert_eq!(sample, entry["golden_sample"].as_str().unwrap(), "{name}");
    }
}

#[test]
fn the_teachers_quality_at_each_precision_matches_the_manifest_and_the_targets() {
    let m = manifest();
    let t = &m["models"]["teacher"];
    let text = heldout();
    let f32_lp = log_probs(&load("teacher", Precision::F32), &text).unwrap();
    let mut bits = Vec::new();
    for p in Precision::ALL {
        let lp = if p == Precision::F32 {
            f32_lp.clone()
        } else {
            log_probs(&load("teacher", p), &text).unwrap()
        };
        let c = compare_log_probs(&f32_lp, &lp).unwrap();
        let want = num(&t["heldout_bits_per_char"][p.name()]);
        println!(
            "teacher {}: {:.5} bits/char (manifest {want:.5}), agreement {:.5}",
            p.name(),
            c.b_bits_per_char,
            c.agreement
        );
        assert!(
            (c.b_bits_per_char - want).abs() < BITS_TOLERANCE,
            "{}: {} vs {want}",
            p.name(),
            c.b_bits_per_char
        );
        let want_agree = num(&t["agreement_with_f32"][p.name()]);
        assert!(
            (c.agreement - want_agree).abs() < AGREEMENT_TOLERANCE,
            "{}: {} vs {want_agree}",
            p.name(),
            c.agreement
        );
        assert_eq!(
            c.positions as u64,
            m["evaluation"]["heldout_positions"].as_u64().unwrap()
        );
        bits.push(c.b_bits_per_char);
    }
    // Issue 53's targets: f32 ≤ 3.2 bits/char, int8 within 2 % of f32.
    assert!(bits[0] <= 3.2, "f32 {}", bits[0]);
    assert!(
        bits[1] <= bits[0] * 1.02,
        "int8 {} vs f32 {}",
        bits[1],
        bits[0]
    );
}

#[test]
fn every_students_loss_kl_and_agreement_match_the_manifest() {
    let m = manifest();
    let text = heldout();
    let teacher: LogProbs = log_probs(&load("teacher", Precision::F32), &text).unwrap();
    let mut students = 0;
    for (name, entry) in m["models"].as_object().unwrap() {
        if !name.starts_with("student") {
            continue;
        }
        students += 1;
        let lp = log_probs(&load(name, Precision::F32), &text).unwrap();
        let c = compare_log_probs(&teacher, &lp).unwrap();
        println!(
            "{name}: {:.5} bits/char, KL {:.5}, agreement {:.5}",
            c.b_bits_per_char, c.kl_bits_per_char, c.agreement
        );
        let want = num(&entry["heldout_bits_per_char"]["f32"]);
        assert!(
            (c.b_bits_per_char - want).abs() < BITS_TOLERANCE,
            "{name}: {} vs {want}",
            c.b_bits_per_char
        );
        let want_kl = num(&entry["kl_to_teacher_bits_per_char"]);
        assert!(
            (c.kl_bits_per_char - want_kl).abs() < BITS_TOLERANCE,
            "{name}: KL {} vs {want_kl}",
            c.kl_bits_per_char
        );
        let want_agree = num(&entry["agreement_with_teacher"]);
        assert!(
            (c.agreement - want_agree).abs() < AGREEMENT_TOLERANCE,
            "{name}: {} vs {want_agree}",
            c.agreement
        );
    }
    assert_eq!(students, 6);
}

#[test]
fn the_committed_files_are_the_ones_the_manifest_describes() {
    let m = manifest();
    for (name, entry) in m["models"].as_object().unwrap() {
        let bytes = std::fs::read(models_dir().join(format!("{name}.ielm"))).unwrap();
        assert_eq!(
            bytes.len() as u64,
            entry["bytes"].as_u64().unwrap(),
            "{name}"
        );
        let model = file::load(&bytes, Precision::F32).unwrap();
        assert_eq!(
            model.config.parameters(),
            entry["parameters"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            model.tokenizer.chars().iter().collect::<String>(),
            m["corpus"]["vocab"].as_str().unwrap()
        );
    }
    assert_eq!(
        heldout().chars().count() as u64,
        m["corpus"]["heldout"]["chars"].as_u64().unwrap()
    );
}
