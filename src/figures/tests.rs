//! The figures lessons quote, checked against the course plan and the widgets' code.

use super::*;

pub(super) fn args(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Checks each figure, written as a lesson writes it (`weight-gb params=70 precision=fp16`),
/// against the text it must produce.
fn check(cases: &[(&str, &str)]) {
    for (written, want) in cases {
        let mut words = written.split_whitespace();
        let name = words.next().unwrap_or_default();
        let a: Vec<(String, String)> = words
            .map(|w| w.split_once('=').unwrap())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(inline(name, &a).as_deref(), Ok(*want), "{written}");
    }
}

#[test]
fn inline_figures_format_like_the_widgets() {
    let a = args(&[("params", "70"), ("precision", "fp16")]);
    assert_eq!(inline("weight-gb", &a).unwrap(), "140 GB");
    let a = args(&[("params", "671"), ("precision", "fp16"), ("gpu-gb", "80")]);
    assert_eq!(inline("gpu-fraction", &a).unwrap(), "16.78");
    assert_eq!(inline("gpus-needed", &a).unwrap(), "17");
    let a = args(&[("small", "3"), ("large", "300")]);
    assert_eq!(inline("size-ratio", &a).unwrap(), "100\u{d7}");
}

/// Every golden figure of the course plan, from the code the lessons quote.
#[test]
fn golden_figures_of_the_course_plan() {
    let cases: &[(&str, &str)] = &[
        ("weight-gb params=3 precision=fp16", "6 GB"),
        ("weight-gb params=8 precision=fp16", "16 GB"),
        ("weight-gb params=70 precision=fp16", "140 GB"),
        ("weight-gb params=671 precision=fp16", "1,342 GB"),
        ("gpu-fraction params=3 precision=fp16 gpu-gb=80", "0.08"),
        ("gpu-fraction params=8 precision=fp16 gpu-gb=80", "0.20"),
        ("gpu-fraction params=70 precision=fp16 gpu-gb=80", "1.75"),
        ("gpu-fraction params=671 precision=fp16 gpu-gb=80", "16.78"),
        ("gpus-needed params=70 precision=fp16 gpu-gb=80", "2"),
        ("gpus-needed params=671 precision=fp16 gpu-gb=80", "17"),
        ("size-ratio small=3 large=150", "50\u{d7}"),
        ("size-ratio small=3 large=300", "100\u{d7}"),
        ("decode-tps weights-gb=5 bandwidth=100", "20 tok/s"),
        ("decode-tps weights-gb=40 bandwidth=100", "2.5 tok/s"),
        ("ratio a=40 b=5", "8\u{d7}"),
        ("tokens-per-day requests=1000000 tokens=400", "400,000,000"),
        ("fleet-gpus gpus=8 large-gb=40 small-gb=5", "1"),
        ("weight-gb params=8 bits=4.85", "4.85 GB"),
        ("weight-gb params=70 bits=4.85", "42.438 GB"),
        ("weight-gb params=70 bits=4.85 decimals=1", "42.4 GB"),
        ("weight-gb-approx params=8 bits=4.85", "5 GB"),
        ("weight-gb-approx params=70 bits=4.85", "40 GB"),
        ("decode-tps params=8 bits=4.85 bandwidth=100", "20 tok/s"),
        ("decode-tps params=70 bits=4.85 bandwidth=100", "2.5 tok/s"),
        ("weight-ratio large=70 small=8 bits=4.85", "8\u{d7}"),
        (
            "weight-ratio-exact large=70 small=8 bits=4.85",
            "8.75\u{d7}",
        ),
        ("fleet-gpus gpus=8 large=70 small=8 bits=4.85", "1"),
        ("kl student=a", "0.023"),
        ("kl student=b", "0.340"),
        ("loss-hard student=a", "0.511"),
        ("loss-hard student=b", "0.511"),
        ("loss-soft student=a", "0.886"),
        ("loss-soft student=b", "1.203"),
        ("teacher-entropy", "0.863"),
        ("teacher-probs", "0.70, 0.20, 0.07, 0.03"),
        ("quotient a=150 b=3", "50"),
        ("neg-ln p=0.25", "1.386"),
        ("neg-ln p=0.10", "2.303"),
        ("neg-ln p=0.05", "2.996"),
        ("neg-ln p=0.30", "1.204"),
        ("eval-accuracy system=baseline", "90%"),
        ("eval-accuracy system=optimized", "90%"),
        // The break-even widget's examples (not quoted prices; the throughput is the 8B FP16
        // ceiling on an H100 at batch 8): a staircase of crossings.
        ("break-even-first", "3,042 M"),
        ("break-even-range gpus=1", "3,042 to 3,882 M"),
        ("break-even-range gpus=2", "6,083 to 7,763 M"),
        ("break-even-range gpus=3", "9,125 to 11,645 M"),
        ("break-even-always", "12,167 M"),
        ("break-even-always api-price=2 utilisation=50", "913 M"),
    ];
    check(cases);
}

/// DeepSeek-R1, the mixture-of-experts example: memory from all 671B parameters, the decode
/// ceiling from the 37B active ones, both in FP8, on an H100's data-sheet bandwidth.
#[test]
fn mixture_of_experts_figures() {
    let cases: &[(&str, &str)] = &[
        ("weight-gb params=671 precision=fp8", "671 GB"),
        ("weight-gb params=37 precision=fp8", "37 GB"),
        ("gpus-needed params=671 precision=fp8 gpu-gb=80", "9"),
        ("gpu-bandwidth gpu=h100-80", "3,350 GB/s"),
        (
            "decode-tps read-params=37 precision=fp8 gpu=h100-80",
            "90.5 tok/s",
        ),
        (
            "decode-tps read-params=671 precision=fp8 gpu=h100-80",
            "4.99 tok/s",
        ),
        ("decode-tps weights-gb=140 bandwidth=3350", "23.9 tok/s"),
    ];
    check(cases);
}

/// The batching figures the lessons quote (COURSE.md, "Batching"), from the code the
/// decode-ceiling widget runs, on an H100's data-sheet figures.
#[test]
fn batching_figures() {
    let fp16_8b: &[(&str, &str)] = &[
        ("gpu", "h100-80"),
        ("arch", "llama3-8b"),
        ("params", "8"),
        ("precision", "fp16"),
        ("context", "1024"),
    ];
    let with = |extra: &[(&'static str, &'static str)]| -> Vec<(String, String)> {
        args(&[fp16_8b, extra].concat())
    };
    assert_eq!(
        inline("batch-tps", &with(&[("batch", "1"), ("per", "request")])).as_deref(),
        Ok("208 tok/s")
    );
    assert_eq!(
        inline("batch-tps", &with(&[("batch", "32"), ("per", "request")])).as_deref(),
        Ok("165 tok/s")
    );
    assert_eq!(
        inline("batch-tps", &with(&[("batch", "32"), ("per", "gpu")])).as_deref(),
        Ok("5,282 tok/s")
    );
    assert_eq!(inline("max-batch", &with(&[])).as_deref(), Ok("476"));
    // Past the limit a lesson cannot quote a figure that no GPU runs.
    assert!(
        inline("batch-tps", &with(&[("batch", "477"), ("per", "gpu")]))
            .unwrap_err()
            .contains("at most 476")
    );
    assert!(
        inline("batch-tps", &with(&[("batch", "8"), ("per", "user")]))
            .unwrap_err()
            .contains("unknown `per=user`")
    );
    let cases: &[(&str, &str)] = &[
        ("gpu-tflops gpu=h100-80", "989 TFLOPS"),
        ("gpu-memory gpu=h100-80", "80 GB"),
        ("compute-batch gpu=h100-80 precision=fp16", "295"),
        ("kv-gb arch=llama3-70b context=8192 batch=32", "85.9 GB"),
        ("expert-share arch=deepseek-r1 batch=8", "22%"),
        ("expert-share arch=deepseek-r1 batch=32", "64%"),
        ("expert-share arch=deepseek-r1 batch=64", "87%"),
    ];
    check(cases);
    // With 128 tokens of context, compute binds from batch 428; at 1,024 it never does.
    let short: Vec<(&str, &str)> = fp16_8b
        .iter()
        .copied()
        .filter(|(k, _)| *k != "context")
        .chain([("context", "128")])
        .collect();
    assert_eq!(inline("compute-from", &args(&short)).as_deref(), Ok("428"));
    assert!(inline("compute-from", &with(&[]))
        .unwrap_err()
        .contains("never binds"));
    // R1 split over the 9 H100s that hold it: 9 × 90.5 tok/s, before any traffic between
    // them.
    let r1_split = [
        ("read-params", "37"),
        ("precision", "fp8"),
        ("gpu", "h100-80"),
        ("gpus", "9"),
    ];
    assert_eq!(
        inline("decode-tps", &args(&r1_split)).as_deref(),
        Ok("815 tok/s")
    );
    assert!(inline(
        "expert-share",
        &args(&[("arch", "llama3-8b"), ("batch", "8")])
    )
    .unwrap_err()
    .contains("dense"));
    assert!(inline(
        "kv-gb",
        &args(&[("arch", "gpt"), ("context", "1"), ("batch", "1")])
    )
    .unwrap_err()
    .contains("unknown architecture `gpt`; use one of llama3-3b"));
    // The 70B in FP16 does not fit an H100: no batch figure.
    let big = args(&[
        ("gpu", "h100-80"),
        ("arch", "llama3-70b"),
        ("params", "70"),
        ("precision", "fp16"),
        ("context", "1024"),
        ("per", "gpu"),
    ]);
    assert!(inline("batch-tps", &big)
        .unwrap_err()
        .contains("do not fit"));
}

/// The playground's "Try this" at T = 4: the T²-scaled soft losses of the two students move
/// apart while the unscaled KL between them shrinks.
#[test]
fn temperature_widens_the_scaled_gap_and_narrows_the_kl_gap() {
    let at = |name, t| inline(name, &args(&[("t", t)]));
    assert_eq!(at("soft-gap", "1").as_deref(), Ok("0.317"));
    assert_eq!(at("soft-gap", "4").as_deref(), Ok("0.745"));
    let (kl1, kl4) = (at("kl-gap", "1").unwrap(), at("kl-gap", "4").unwrap());
    assert_eq!(kl1, "0.317");
    assert!(kl4.parse::<f64>().unwrap() < 0.317, "{kl4}");
}

/// Small samples: the interval the mini eval shows, quoted in the lessons.
#[test]
fn wilson_intervals_and_a_busy_queue() {
    assert_eq!(
        inline("wilson", &args(&[("passes", "8"), ("n", "10")])).as_deref(),
        Ok("49% to 94%")
    );
    assert_eq!(
        inline("wilson", &args(&[("passes", "0"), ("n", "10")])).as_deref(),
        Ok("0% to 28%")
    );
    assert!(inline("wilson", &args(&[("passes", "11"), ("n", "10")])).is_err());
    // The latency explorer's "Busy queue" (80 ms network, 900 ms queue, 300 ms inference)
    // is one server at 75 % load: halving inference time cuts the wait to 90 ms and the
    // whole to 320 ms, not 1,130.
    let busy = [("network", "80"), ("service", "300"), ("load", "0.75")];
    assert_eq!(inline("queue-e2e", &args(&busy)).as_deref(), Ok("1280 ms"));
    let half: Vec<_> = busy.iter().copied().chain([("speedup", "2")]).collect();
    assert_eq!(inline("queue-e2e", &args(&half)).as_deref(), Ok("320 ms"));
    let wait: Vec<_> = half.iter().copied().chain([("part", "queue")]).collect();
    assert_eq!(inline("queue-e2e", &args(&wait)).as_deref(), Ok("90 ms"));
    let full = [("network", "80"), ("service", "300"), ("load", "1")];
    assert!(inline("queue-e2e", &args(&full)).is_err());
}

#[test]
fn one_figure_rounds_like_the_source() {
    assert_eq!(one_figure(4.85), 5.0);
    assert!((one_figure(42.4375) - 40.0).abs() < 1e-9);
    assert!((one_figure(0.034) - 0.03).abs() < 1e-12);
    assert_eq!(one_figure(0.0), 0.0);
}

#[test]
fn bad_figures_say_what_is_wrong() {
    assert!(inline("nope", &[])
        .unwrap_err()
        .contains("unknown figure `nope`"));
    let a = args(&[("params", "x"), ("precision", "fp16")]);
    assert_eq!(
        inline("weight-gb", &a).unwrap_err(),
        "`params=x` is not a positive number"
    );
    let a = args(&[("params", "7"), ("precision", "fp12")]);
    assert!(inline("weight-gb", &a)
        .unwrap_err()
        .contains("unknown precision"));
    let a = args(&[("gpu", "h100")]);
    assert!(inline("gpu-bandwidth", &a)
        .unwrap_err()
        .contains("unknown GPU `h100`; use one of l4-24"));
    let cheap = args(&[("api-price", "0.1")]);
    assert!(inline("break-even-always", &cheap)
        .unwrap_err()
        .contains("never wins"));
    // The example inputs have three ranges, so the lesson names three.
    let fourth = args(&[("gpus", "4")]);
    assert_eq!(
        inline("break-even-range", &fourth).unwrap_err(),
        "`gpus=4`: the ranges are on 1 to 3 GPUs (a whole number)"
    );
    assert!(inline("break-even-range", &args(&[("gpus", "1.5")])).is_err());
    let once = args(&[("gpus", "1"), ("api-price", "2"), ("utilisation", "50")]);
    assert!(inline("break-even-range", &once)
        .unwrap_err()
        .contains("no ranges"));
    let a = args(&[("utilisation", "120")]);
    assert!(inline("break-even-first", &a)
        .unwrap_err()
        .contains("at most 100"));
    let a = args(&[("price", "1")]);
    assert!(inline("break-even-first", &a)
        .unwrap_err()
        .contains("unknown argument `price`"));
}

#[test]
fn weight_table_has_the_example_rows() {
    let html = block("weight-table", &[]).unwrap();
    for cell in [
        "<td>671B</td><td>1,342 GB</td><td>16.78</td><td>17</td>",
        "<td>3B</td><td>6 GB</td><td>0.08</td>",
    ] {
        assert!(html.contains(cell), "{cell}");
    }
}
