use super::*;
use crate::logic::gpus::preset;

fn h100() -> Machine {
    Machine::of(preset("h100-80").expect("H100 preset"))
}

fn arch(id: &str) -> &'static Architecture {
    architecture(id).expect("listed architecture")
}

/// Within a part in a thousand: the hand-worked figures are written to four figures.
fn near(got: f64, want: f64) -> bool {
    (got - want).abs() <= want.abs() * 1e-3
}

#[test]
fn kv_bytes_per_token_match_the_kv_cache_calculator() {
    // Llama 3 8B: 2 × 32 layers × 8 KV heads × 128 × 2 B = 131,072 B.
    assert_eq!(arch("llama3-8b").kv_bytes_per_token, 131_072.0);
    // Llama 3 70B: 80 layers, 327,680 B.
    assert_eq!(arch("llama3-70b").kv_bytes_per_token, 327_680.0);
    // The same figure the KV-cache calculator computes from each published shape.
    for shape in kv_cache::MODEL_SHAPES {
        let inputs = kv_cache::KvCacheInputs {
            layers: shape.layers,
            kv_heads: shape.kv_heads,
            head_dim: shape.head_dim,
            context_tokens: 1,
            batch: 1,
            bytes_per_element: 2.0,
        };
        let a = arch(shape.id);
        assert_eq!(a.kv_bytes_per_token, kv_cache::kv_bytes_per_token(&inputs));
        assert_eq!(a.active_params_b, shape.params_b, "{}", shape.id);
    }
    // R1's latent cache: 61 × 576 × 2 B.
    assert_eq!(arch("deepseek-r1").kv_bytes_per_token, 70_272.0);
}

/// The course plan's golden figures (COURSE.md, "Batching"), on an H100 SXM.
#[test]
fn golden_figures_of_the_course_plan() {
    let gpu = preset("h100-80").expect("H100");
    assert_eq!(
        (gpu.bandwidth_gb_s, gpu.memory_gb, gpu.peak_tflops),
        (3350.0, 80.0, 989.0)
    );
    let a8 = arch("llama3-8b");
    let fp16_8b = ModelWeights::dense(16.0);
    // Batch 1, context 1,024: 3,350 ÷ (16 + 0.134) = 207.6 tok/s; 209 without the KV read.
    let s = Serving::new(a8, fp16_8b, h100(), 1, 1024);
    assert_eq!(figure(s.step.per_request_tps), "208");
    assert_eq!(figure(fp16_8b.ceiling_tps(3350.0)), "209");
    // (80 − 16) GB ÷ 134 MB per sequence ≈ 477 (476.8): 476 whole sequences fit.
    assert!(near(s.kv_gb_per_seq, 0.134_217_728));
    assert_eq!(fixed((80.0 - 16.0) / s.kv_gb_per_seq, 0), "477");
    assert_eq!(s.max_batch, Some(476));
    // Compute would bind past batch ≈ 295 with FP16 weights and no KV cache.
    let b = compute_bound_batch_weights_only(989.0, 3350.0, 2.0);
    assert_eq!(fixed(b, 0), "295");
    // 70B at 8k context, batch 32: 85.9 GB of KV cache, more than its ~40 GB at INT4.
    let kv = 32.0 * kv_gb_per_sequence(arch("llama3-70b"), 8192);
    assert_eq!(fixed(kv, 1), "85.9");
    assert!(
        kv > crate::logic::memory::weight_memory_gb(70.0, crate::logic::memory::Precision::Int4)
    );
    // R1 (8 of 256): 22 % of routed experts at batch 8, 64 % at 32, 87 % at 64.
    let r1 = arch("deepseek-r1").routing.expect("R1 routes");
    let pct = |b| fixed(r1.share_read(b) * 100.0, 0);
    assert_eq!(
        (pct(8), pct(32), pct(64)),
        ("22".into(), "64".into(), "87".into())
    );
}

/// Hand-worked: Llama 3 8B in FP16 (16 GB) on one H100, 1,024 tokens of context each.
///
/// KV per sequence: 131,072 B × 1,024 = 0.134 GB.
/// - Batch 1: (16 + 0.134) GB ÷ 3,350 GB/s = 4.816 ms → 207.6 tok/s, per request and per
///   GPU. Arithmetic: 2 × 8e9 = 16 GFLOP ÷ 989 TFLOPS = 0.0162 ms.
/// - Batch 32: (16 + 4.295) GB ÷ 3,350 = 6.058 ms → 165.1 tok/s per request, 5,282 per
///   GPU. Arithmetic: 512 GFLOP ÷ 989 TFLOPS = 0.518 ms: bandwidth binds.
/// - The KV limit, batch 476: (16 + 63.89) GB ÷ 3,350 = 23.85 ms → 41.93 tok/s per
///   request, 19,960 per GPU; arithmetic 7.70 ms: still bandwidth.
#[test]
fn llama_3_8b_fp16_on_an_h100_at_1_32_and_the_kv_limit() {
    let a8 = arch("llama3-8b");
    let w = ModelWeights::dense(16.0);
    let at = |b| Serving::new(a8, w, h100(), b, 1024);
    let one = at(1);
    assert!(near(one.step.memory_ms, 4.816));
    assert!(near(one.step.per_request_tps, 207.6));
    assert_eq!(one.step.total_tps, one.step.per_request_tps);
    assert!(near(one.step.compute_ms.unwrap_or_default(), 0.016_18));
    assert_eq!(one.bound, Bound::Bandwidth);
    let b32 = at(32);
    assert!(near(b32.step.memory_ms, 6.058));
    assert!(near(b32.step.per_request_tps, 165.1));
    assert!(near(b32.step.total_tps, 5282.0));
    assert!(near(b32.step.compute_ms.unwrap_or_default(), 0.5177));
    assert_eq!(b32.bound, Bound::Bandwidth);
    let full = at(476);
    assert!(near(full.step.memory_ms, 23.85));
    assert!(near(full.step.per_request_tps, 41.93));
    assert!(near(full.step.total_tps, 19_960.0));
    assert!(near(full.step.compute_ms.unwrap_or_default(), 7.701));
    assert_eq!(full.bound, Bound::Bandwidth);
    // One more sequence does not fit: the GPU runs the 476 and KV memory binds.
    let over = at(477);
    assert_eq!(over.bound, Bound::KvMemory);
    assert_eq!(over.step.batch, 476);
    assert_eq!(over.step, full.step);
    // Per GPU rises 96× from batch 1 to 476 while each request slows 5×.
    assert!(full.step.total_tps / one.step.total_tps > 95.0);
    assert!(one.step.per_request_tps / full.step.per_request_tps < 5.0);
    // At 1,024 tokens a sequence's KV read (40 µs) outlasts its arithmetic (16 µs), so
    // compute never binds; at 128 tokens it binds from batch 428.
    assert_eq!(full.compute_from_batch, None);
    let short = Serving::new(a8, w, h100(), 512, 128);
    assert_eq!(short.compute_from_batch, Some(428));
    assert_eq!(short.bound, Bound::Compute);
    assert_eq!(
        Serving::new(a8, w, h100(), 427, 128).bound,
        Bound::Bandwidth
    );
}

/// Hand-worked: Llama 3 70B at about 4 bits (the course's 40 GB) on one H100, 1,024
/// tokens each. KV per sequence: 327,680 B × 1,024 = 0.3355 GB.
/// - Batch 1: (40 + 0.336) GB ÷ 3,350 = 12.04 ms → 83.05 tok/s.
/// - Batch 32: (40 + 10.74) GB ÷ 3,350 = 15.15 ms → 66.03 tok/s per request, 2,113 per
///   GPU; arithmetic 2 × 70e9 × 32 = 4.48 TFLOP ÷ 989 TFLOPS = 4.53 ms.
/// - The KV limit: 40 GB ÷ 0.3355 = 119.2, so 119: (40 + 39.93) GB ÷ 3,350 = 23.86 ms →
///   41.91 tok/s per request, 4,988 per GPU; arithmetic 16.8 ms, still under.
#[test]
fn llama_3_70b_at_4_bits_on_an_h100_at_1_32_and_the_kv_limit() {
    let a70 = arch("llama3-70b");
    let w = ModelWeights::dense(40.0);
    let at = |b| Serving::new(a70, w, h100(), b, 1024);
    let one = at(1);
    assert!(near(one.step.memory_ms, 12.04));
    assert!(near(one.step.per_request_tps, 83.05));
    let b32 = at(32);
    assert!(near(b32.step.memory_ms, 15.15));
    assert!(near(b32.step.per_request_tps, 66.03));
    assert!(near(b32.step.total_tps, 2113.0));
    assert!(near(b32.step.compute_ms.unwrap_or_default(), 4.530));
    assert_eq!(b32.max_batch, Some(119));
    let full = at(119);
    assert!(near(full.step.memory_ms, 23.86));
    assert!(near(full.step.per_request_tps, 41.91));
    assert!(near(full.step.total_tps, 4988.0));
    assert!(near(full.step.compute_ms.unwrap_or_default(), 16.84));
    assert_eq!(full.bound, Bound::Bandwidth);
    assert_eq!(at(120).bound, Bound::KvMemory);
    // The smaller model wins twice: 4× the batch (476 against 119) on top of the faster
    // step, so nearly 4× the tokens per GPU at its limit.
    let small = Serving::new(
        arch("llama3-8b"),
        ModelWeights::dense(16.0),
        h100(),
        1,
        1024,
    );
    assert_eq!(small.max_batch, Some(476));
    // In FP16 (140 GB) the 70B does not fit one H100 at all.
    let fp16 = Serving::new(a70, ModelWeights::dense(140.0), h100(), 32, 1024);
    assert!(fp16.weights_do_not_fit());
    assert_eq!(fp16.step.batch, 32, "figures as if the weights fitted");
}

#[test]
fn a_mixture_of_experts_reads_more_of_itself_as_the_batch_grows() {
    let r1 = arch("deepseek-r1");
    let w = decode::DEEPSEEK_R1;
    // Batch 1 reads exactly the 37 GB a token reads.
    assert_eq!(weights_read_gb(w, r1.routing, 1), 37.0);
    // Batch 64: 37 + 634 × (0.869 − 1/32) ÷ (1 − 1/32) = 37 + 548 = 585 GB.
    let b64 = weights_read_gb(w, r1.routing, 64);
    assert!((b64 - 585.0).abs() < 1.0, "{b64}");
    // It never reads more than it holds, and grows with the batch.
    let mut last = 0.0;
    for b in [1, 2, 8, 32, 64, 256, 10_000] {
        let gb = weights_read_gb(w, r1.routing, b);
        assert!(gb >= last && gb <= w.in_memory_gb, "{b}: {gb}");
        last = gb;
    }
    // On a machine that holds it (8 B300s' worth, as one), at batch 64 each step reads
    // most of the model while doing only 37B parameters' arithmetic per token.
    let big = Machine {
        bandwidth_gb_s: 64_000.0,
        memory_gb: Some(2304.0),
        peak_tflops: Some(18_000.0),
    };
    let s = Serving::new(r1, w, big, 64, 1024);
    assert_eq!(
        fixed(s.step.expert_share.unwrap_or_default() * 100.0, 0),
        "87"
    );
    assert!(near(s.step.flops, 2.0 * 37e9 * 64.0));
    assert_eq!(s.bound, Bound::Bandwidth);
    // A dense model, or an MoE typed as dense (nothing unread), reads the same at any batch.
    assert_eq!(weights_read_gb(ModelWeights::dense(16.0), None, 64), 16.0);
    assert_eq!(
        weights_read_gb(ModelWeights::dense(671.0), r1.routing, 64),
        671.0
    );
    // A degenerate routing (no experts) reads everything, the safe side.
    assert_eq!(
        Routing {
            per_token: 0,
            routed: 0
        }
        .share_read(8),
        1.0
    );
    assert_eq!(
        Routing {
            per_token: 4,
            routed: 4
        }
        .share_read(1),
        1.0
    );
}

#[test]
fn the_calculator_reads_every_field_and_names_each_error() {
    let inputs = DecodeInputs {
        bandwidth: "3350",
        memory: "80",
        peak_tflops: "989",
        a: ("16", ""),
        a_arch: "llama3-8b",
        b: ("40", ""),
        b_arch: "llama3-70b",
        batch: "32",
        context: "1024",
    };
    let c = decode_card(inputs).expect("valid");
    assert_eq!(c.per_request_text(), "165 / 66 tok/s");
    assert_eq!(c.total_text(), "5,282 / 2,113 tok/s");
    assert_eq!(c.max_batch_text(), "476 / 119");
    assert_eq!(c.bound_text(), "bandwidth / bandwidth");
    assert_eq!(
        c.worked[0],
        "A, 32 \u{d7} 1,024 tokens (Llama 3 8B): (16 GB + 32 \u{d7} 0.134 GB of KV) \u{f7} \
         3,350 GB/s = 6.06 ms; 2 \u{d7} 8B \u{d7} 32 = 512 GFLOP \u{f7} 989 TFLOPS = \
         0.518 ms \u{2192} bandwidth binds: 165 tok/s per request, 5,282 per GPU"
    );
    assert_eq!(
        c.worked[1],
        "A: (80 \u{2212} 16) GB \u{f7} 0.134 GB per sequence = 476 sequences fit"
    );
    // Past B's limit, B runs what fits and says so.
    let c = decode_card(DecodeInputs {
        batch: "200",
        ..inputs
    })
    .expect("valid");
    assert_eq!(c.bound_text(), "bandwidth / KV memory");
    assert!(
        c.worked[3].ends_with("fewer than the 200 asked for: the figures are for 119"),
        "{}",
        c.worked[3]
    );
    // Without memory or peak arithmetic: no cap, no compute check, and the text says so.
    let c = decode_card(DecodeInputs {
        memory: "",
        peak_tflops: "",
        ..inputs
    })
    .expect("valid");
    assert_eq!(c.max_batch_text(), "not capped: memory not given");
    assert!(
        c.worked[0].contains("compute not checked"),
        "{}",
        c.worked[0]
    );
    assert_eq!(c.worked.len(), 2);
    // Every bad field is named, the machine's first.
    let errs = decode_card(DecodeInputs {
        bandwidth: "0",
        peak_tflops: "-1",
        a: ("x", ""),
        a_arch: "gpt-9",
        batch: "0",
        context: "1.5",
        ..inputs
    })
    .unwrap_err();
    let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
    assert_eq!(
        fields,
        [
            "Memory bandwidth",
            "Peak compute",
            "Model A",
            "Model A architecture",
            "Batch size",
            "Context length"
        ]
    );
    assert!(errs[3].message.contains("gpt-9"), "{}", errs[3].message);
}

#[test]
fn tiny_rates_and_large_flops_read() {
    assert_eq!(figure(7.7e-13), "7.7e-13");
    assert_eq!(figure(165.1), "165");
    assert_eq!(flop_text(5.12e11), "512 GFLOP");
    assert_eq!(flop_text(4.48e12), "4.48 TFLOP");
    assert_eq!(flop_text(8.1e16), "81 PFLOP");
}

proptest::proptest! {
    /// More sequences never lower the GPU's output nor raise each one's speed; the step is
    /// never faster than reading the weights alone.
    #[test]
    fn batching_trades_speed_per_request_for_output_per_gpu(
        i in 0usize..5,
        gb in 0.5f64..1000.0,
        bw in 10.0f64..10_000.0,
        tflops in proptest::option::of(1.0f64..5000.0),
        batch in 1u64..2000,
        context in 1u64..200_000,
    ) {
        let a = &ARCHITECTURES[i];
        let w = ModelWeights { in_memory_gb: gb, read_per_token_gb: if a.routing.is_some() { gb / 18.0 } else { gb } };
        let m = Machine { bandwidth_gb_s: bw, memory_gb: None, peak_tflops: tflops };
        let s1 = Step::at(a, w, m, batch, context);
        let s2 = Step::at(a, w, m, batch + 1, context);
        proptest::prop_assert!(s2.total_tps >= s1.total_tps * (1.0 - 1e-9));
        proptest::prop_assert!(s2.per_request_tps <= s1.per_request_tps * (1.0 + 1e-9));
        proptest::prop_assert!(s1.step_ms >= w.read_per_token_gb / bw * 1000.0 * (1.0 - 1e-9));
        proptest::prop_assert!(s1.per_request_tps <= w.ceiling_tps(bw) * (1.0 + 1e-9));
    }

    /// The largest batch fits and one more does not.
    #[test]
    fn the_kv_limit_is_exact(
        gb in 0.5f64..200.0,
        memory in 1.0f64..300.0,
        context in 1u64..100_000,
        i in 0usize..5,
    ) {
        let a = &ARCHITECTURES[i];
        let kv = kv_gb_per_sequence(a, context);
        let n = max_batch(gb, memory, kv);
        if n > 0 {
            proptest::prop_assert!(gb + n as f64 * kv <= memory * (1.0 + 1e-9));
        }
        proptest::prop_assert!(gb + (n + 1) as f64 * kv > memory * (1.0 - 1e-9));
    }

    /// Where compute starts to bind, it binds, and one sequence fewer it does not.
    #[test]
    fn compute_binds_from_the_batch_found(
        i in 0usize..5,
        gb in 0.5f64..800.0,
        bw in 100.0f64..10_000.0,
        tflops in 10.0f64..5000.0,
        context in 1u64..4096,
    ) {
        let a = &ARCHITECTURES[i];
        let w = ModelWeights { in_memory_gb: gb, read_per_token_gb: if a.routing.is_some() { gb / 18.0 } else { gb } };
        let m = Machine { bandwidth_gb_s: bw, memory_gb: None, peak_tflops: Some(tflops) };
        if let Some(b) = compute_from_batch(a, w, m, context) {
            proptest::prop_assert!(Step::at(a, w, m, b, context).compute_bound());
            if b > 1 {
                proptest::prop_assert!(!Step::at(a, w, m, b - 1, context).compute_bound());
            }
        }
    }
}
