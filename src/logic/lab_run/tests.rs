use super::*;

fn run(model: LabModel, precision: Precision, mb: f64, tps: f64) -> Run {
    Run {
        model,
        precision,
        layers: 8,
        reduced: false,
        parameters: 26e6,
        model_bytes: mb * 1e6,
        bytes_per_token: mb * 1e6,
        tokens_per_second: tps,
        kernels: "relaxed-simd".into(),
        simd128_tokens_per_second: None,
    }
}

fn msg(json: &str) -> LabMessage {
    LabMessage::parse(json)
}

#[test]
fn ceilings_come_from_the_decode_maths_with_the_measured_bandwidth() {
    // 104 MB a token at 13 GB/s: 125 tok/s at most; 110 measured is 88%.
    let r = run(LabModel::M, Precision::F32, 104.0, 110.0);
    assert!((r.ceiling(13.0) - 125.0).abs() < 1e-9);
    assert_eq!(r.ceiling(13.0), decode_ceiling_tps(13.0, 0.104));
    assert!((r.share(13.0) - 0.88).abs() < 1e-9);
    assert_eq!(r.mb_per_token(), 104.0);
}

#[test]
fn the_sentence_names_the_roof_that_binds() {
    let mem = 13.0;
    let cache = Some(45.0);
    // At 88% of the memory roof: memory.
    let m = run(LabModel::M, Precision::F32, 104.0, 110.0);
    assert_eq!(m.roof(mem, cache), Roof::Memory);
    assert_eq!(
        m.roof_sentence(mem, cache),
        "M (random) at f32: memory binds. It reads its 104 MB of weights for every token and runs at 88% of the memory roof."
    );
    // 3.5 MB at 10,000 tok/s reads 35 GB/s: above the memory roof, 78% of the cache roof.
    let t = run(LabModel::Tiny, Precision::F32, 3.5, 10_000.0);
    assert_eq!(t.roof(mem, cache), Roof::Cache);
    assert!(t
        .roof_sentence(mem, cache)
        .contains("above the memory roof (269% of it)"));
    assert!(t
        .roof_sentence(mem, cache)
        .contains("cache roof binds: 78% of it"));
    // Above the memory roof but far below the cache's: arithmetic.
    let slow = run(LabModel::Tiny, Precision::Int4, 0.5, 40_000.0);
    assert_eq!(slow.roof(mem, cache), Roof::Arithmetic);
    assert_eq!(slow.roof(mem, None), Roof::Arithmetic);
    // Well under the memory roof: arithmetic, with what relaxed SIMD was worth for int4.
    let mut i4 = run(LabModel::M, Precision::Int4, 14.0, 300.0);
    i4.simd128_tokens_per_second = Some(200.0);
    assert_eq!(i4.roof(mem, cache), Roof::Arithmetic);
    let s = i4.roof_sentence(mem, cache);
    assert!(
        s.starts_with("M (random) at int4: arithmetic binds."),
        "{s}"
    );
    assert!(
        s.ends_with("Without relaxed SIMD it ran at 200 tok/s, 1.5× slower."),
        "{s}"
    );
    // int8 leans on the same instruction and says so; f32 never does.
    let mut i8 = run(LabModel::M, Precision::Int8, 30.0, 100.0);
    i8.simd128_tokens_per_second = Some(50.0);
    assert_eq!(i8.roof(mem, cache), Roof::Arithmetic);
    assert!(i8
        .roof_sentence(mem, cache)
        .ends_with("Without relaxed SIMD it ran at 50 tok/s, 2× slower."));
    let mut f = run(LabModel::M, Precision::F32, 100.0, 30.0);
    f.simd128_tokens_per_second = Some(20.0);
    assert!(!f.roof_sentence(mem, cache).contains("relaxed"));
    // The boundaries.
    assert_eq!(
        run(LabModel::M, Precision::F32, 100.0, 65.0).roof(13.0, cache),
        Roof::Memory
    );
    assert_eq!(
        run(LabModel::M, Precision::F32, 100.0, 64.9).roof(13.0, cache),
        Roof::Arithmetic
    );
    assert_eq!(
        run(LabModel::M, Precision::F32, 100.0, 149.5).roof(13.0, cache),
        Roof::Memory
    );
    // A reduced model says so.
    let mut q = run(LabModel::M, Precision::Int8, 10.0, 1.0);
    q.reduced = true;
    q.layers = 2;
    assert_eq!(q.label(), "M (random, 2 blocks) at int8");
}

#[test]
fn a_run_goes_idle_measuring_done() {
    let mut lab = LabRun::default();
    assert_eq!(lab.phase, Phase::Idle);
    assert_eq!(lab.progress_text(), "0% · not started");
    // Messages before a start are ignored.
    assert!(!lab.apply(msg(r#"{"type":"done"}"#), 1.0));
    lab.start(true);
    assert!(lab.running());
    assert!(lab.result.quick);
    lab.apply(
        msg(r#"{"type":"engine","kernels":"relaxed-simd","relaxed":true}"#),
        0.0,
    );
    lab.apply(msg(r#"{"type":"plan","models":["tiny","m"]}"#), 0.0);
    lab.apply(
        msg(r#"{"type":"progress","share":0.42,"label":"Timing M (random weights) at int8"}"#),
        0.0,
    );
    assert_eq!(
        lab.progress_text(),
        "42% · Timing M (random weights) at int8"
    );
    lab.apply(
        msg(
            r#"{"type":"bandwidth","where":"memory","gbPerS":13.25,"bytes":268435456,"note":null}"#,
        ),
        0.0,
    );
    lab.apply(
        msg(r#"{"type":"bandwidth","where":"cache","gbPerS":45.04,"bytes":1048576,"note":null}"#),
        0.0,
    );
    lab.apply(msg(r#"{"type":"row","model":"tiny","precision":"f32","layers":4,"reduced":false,"parameters":863744,"modelBytes":3500000,"bytesPerToken":3600000,"tokensPerSecond":4000,"kernels":"relaxed-simd","simd128TokensPerSecond":null}"#), 0.0);
    lab.apply(
        msg(r#"{"type":"quality","precision":"f32","bitsPerChar":2.2696,"agreement":1}"#),
        0.0,
    );
    lab.apply(msg(r#"{"type":"sample","precision":"f32","prompt":"KING.\n","text":"the st","done":false}"#), 0.0);
    lab.apply(msg(r#"{"type":"sample","precision":"f32","prompt":"KING.\n","text":"the stand","done":true}"#), 0.0);
    lab.apply(msg(r#"{"type":"failed","model":"m","precision":"f32","message":"not enough memory for the weights: 103.0 MB could not be allocated"}"#), 0.0);
    lab.apply(msg(r#"{"type":"note","text":"L is left out."}"#), 0.0);
    lab.apply(msg(r#"{"type":"kd-row","student":"hard"}"#), 0.0);
    let r = &lab.result;
    assert_eq!(r.kernels.as_deref(), Some("relaxed-simd"));
    assert_eq!(lab.plan, [LabModel::Tiny, LabModel::M]);
    assert_eq!(
        r.memory.as_ref().map(|b| b.text("main memory")).as_deref(),
        Some("13.3 GB/s from main memory (256 MiB)")
    );
    assert_eq!(
        r.cache.as_ref().map(|b| b.text("cache")).as_deref(),
        Some("45.0 GB/s from cache (1 MiB)")
    );
    assert_eq!(r.runs.len(), 1);
    assert_eq!(
        r.sample_at(Precision::F32).map(|s| s.text.as_str()),
        Some("the stand")
    );
    assert_eq!(r.samples.len(), 1);
    assert_eq!(
        r.quality_at(Precision::F32).map(|q| q.bits_per_char),
        Some(2.2696)
    );
    assert_eq!(
        r.failures[0].text(),
        "M (random) at f32 could not be measured: not enough memory for the weights: 103.0 MB could not be allocated."
    );
    assert_eq!(r.device_bandwidth(), Some(13.3));
    assert!(lab.apply(msg(r#"{"type":"done"}"#), 1_765_000_000_000.0));
    assert_eq!(lab.phase, Phase::Done);
    assert_eq!(lab.progress, 1.0);
    assert_eq!(lab.result.ended, Some(Ended::Done));
    assert_eq!(lab.result.finished_at, 1_765_000_000_000.0);
    // After the end nothing changes.
    assert!(!lab.apply(msg(r#"{"type":"note","text":"late"}"#), 2.0));
    assert_eq!(lab.result.notes, ["L is left out."]);
    // A new start clears the old result.
    lab.start(false);
    assert!(lab.result.runs.is_empty() && !lab.result.quick);
}

#[test]
fn stop_keeps_what_was_measured_and_an_error_ends_the_run() {
    let mut lab = LabRun::default();
    assert!(!lab.stop(1.0), "nothing to stop");
    lab.start(false);
    lab.apply(
        LabMessage::Row(run(LabModel::Tiny, Precision::F32, 3.5, 4000.0)),
        0.0,
    );
    assert!(lab.stop(5.0));
    assert_eq!(lab.phase, Phase::Stopped);
    assert_eq!(lab.result.runs.len(), 1);
    assert_eq!(lab.result.ended, Some(Ended::Stopped));
    assert!(
        lab.progress_text()
            .ends_with("Stopped: the rows measured so far stay"),
        "{}",
        lab.progress_text()
    );
    assert!(!lab.apply(
        LabMessage::Row(run(LabModel::M, Precision::F32, 104.0, 1.0)),
        6.0
    ));
    assert_eq!(lab.result.runs.len(), 1);

    lab.start(false);
    assert!(lab.apply(
        msg(r#"{"type":"error","message":"engine.js could not be loaded (HTTP 404)"}"#),
        7.0
    ));
    assert_eq!(lab.phase, Phase::Failed);
    assert_eq!(
        lab.result.error.as_deref(),
        Some("engine.js could not be loaded (HTTP 404)")
    );
    // A message that cannot be read fails the run with a message, never a panic.
    lab.start(false);
    assert!(lab.apply(msg("{not json"), 8.0));
    assert!(lab
        .result
        .error
        .as_deref()
        .unwrap_or_default()
        .starts_with("the lab's worker sent a message"));
    assert!(
        lab.apply(msg("{\"type\":\"row\",\"model\":\"xl\"}"), 9.0) || lab.phase == Phase::Failed
    );
}

#[test]
fn a_kept_result_comes_back_as_it_ended() {
    let mut lab = LabRun::default();
    lab.start(false);
    lab.apply(
        LabMessage::Row(run(LabModel::M, Precision::Int8, 30.0, 300.0)),
        0.0,
    );
    lab.stop(3.0);
    let json = serde_json::to_string(&lab.result).unwrap_or_default();
    let back: LabResult = serde_json::from_str(&json).unwrap_or_default();
    assert_eq!(back, lab.result);
    let again = LabRun::restored(back);
    assert_eq!(again.phase, Phase::Stopped);
    assert!(again.restored && !again.running());
    // A kept run's progress says only what is true of it now.
    assert_eq!(again.progress_text(), "");
    assert_eq!(LabRun::restored(LabResult::default()).progress_text(), "");
    let mut done = LabRun::default();
    done.start(true);
    done.apply(LabMessage::Done, 5.0);
    assert_eq!(done.progress_text(), "100% · Done");
    assert_eq!(
        LabRun::restored(done.result).progress_text(),
        "100% · Done, on an earlier visit"
    );
}

#[test]
fn the_result_is_kept_through_the_courses_storage() {
    use crate::logic::storage::{read, write, MemoryBackend, Read};
    let mut lab = LabRun::default();
    lab.start(false);
    lab.apply(
        msg(r#"{"type":"bandwidth","where":"memory","gbPerS":13.0,"bytes":268435456,"note":null}"#),
        0.0,
    );
    lab.apply(msg(r#"{"type":"done"}"#), 10.0);
    let b = MemoryBackend::default();
    assert!(write(&b, STORE_NAME, STORE_VERSION, &lab.result).is_ok());
    assert_eq!(
        read::<LabResult>(&b, STORE_NAME, STORE_VERSION, 0, |_, _| None),
        Read::Value(lab.result.clone())
    );
    // The decode ceiling's part: the bandwidth alone, and only a usable one.
    let device = lab.result.device();
    assert!(device.is_some_and(|d| d.usable() == lab.result.device_bandwidth()));
    for junk in [f64::NAN, -1.0, 0.0, f64::INFINITY] {
        assert_eq!(Device { gb_per_s: junk }.usable(), None);
    }
    // Another version's value is backed up, never lost.
    let _ = crate::logic::storage::Backend::set(&b, "ie-course:lab", r#"{"v":2,"data":{}}"#);
    assert!(matches!(
        read::<LabResult>(&b, STORE_NAME, STORE_VERSION, 99, |_, _| None),
        Read::Recovered(_)
    ));
    assert_eq!(
        crate::logic::storage::Backend::get(&b, "ie-course:backup:lab:99")
            .ok()
            .flatten()
            .as_deref(),
        Some(r#"{"v":2,"data":{}}"#)
    );
}

#[test]
fn text_and_json_exports_hold_every_figure() {
    let mut lab = LabRun::default();
    lab.start(false);
    lab.apply(
        msg(r#"{"type":"engine","kernels":"simd128","relaxed":false}"#),
        0.0,
    );
    lab.apply(
        msg(r#"{"type":"bandwidth","where":"memory","gbPerS":13.0,"bytes":268435456,"note":null}"#),
        0.0,
    );
    lab.apply(
        LabMessage::Row(run(LabModel::M, Precision::F32, 104.0, 110.0)),
        0.0,
    );
    lab.apply(
        LabMessage::Row(run(LabModel::Tiny, Precision::Int8, 1.0, 5000.0)),
        0.0,
    );
    lab.apply(
        msg(r#"{"type":"quality","precision":"int8","bitsPerChar":2.26946,"agreement":0.9917}"#),
        0.0,
    );
    lab.apply(msg(r#"{"type":"done"}"#), 1_765_000_000_000.0);
    let text = lab.result.text();
    assert!(
        text.starts_with(
            "Measured in this browser, on one CPU core (simd128 kernels), 2025-12-06.\n"
        ),
        "{text}"
    );
    assert!(text.contains("Read bandwidth: 13.0 GB/s from main memory (256 MiB)\n"));
    assert!(
        text.contains("M (random) | f32 | 104.00 | 125 | 110 | 88% | - | -\n"),
        "{text}"
    );
    assert!(
        text.contains("tiny (trained) | int8 | 1.00 | 13,000 | 5,000 | 38% | 2.269 | 99.2%\n"),
        "{text}"
    );
    assert!(text.contains("M (random) at f32: memory binds."));
    let json = lab.result.json();
    assert!(json.contains("\"gbPerS\": 13.0"), "{json}");
    assert!(json.contains("\"tokensPerSecond\": 110.0"));
    let back: LabResult = serde_json::from_str(&json).unwrap_or_default();
    assert_eq!(back, lab.result);
}

#[test]
fn precisions_and_models_use_the_hooks_names() {
    for p in Precision::ALL {
        assert_eq!(Precision::parse(p.name()).ok(), Some(p));
    }
    assert!(Precision::parse("fp16").is_err());
    assert_eq!(
        serde_json::to_string(&[LabModel::Tiny, LabModel::M, LabModel::L]).unwrap_or_default(),
        r#"["tiny","m","l"]"#
    );
}

#[test]
fn precisions_travel_by_name_in_messages_and_what_is_stored() {
    let quality = Quality {
        precision: Precision::Int8,
        bits_per_char: 2.5,
        agreement: 0.99,
    };
    let json = serde_json::to_string(&quality).unwrap_or_default();
    assert_eq!(
        json,
        r#"{"precision":"int8","bitsPerChar":2.5,"agreement":0.99}"#
    );
    assert_eq!(serde_json::from_str::<Quality>(&json).ok(), Some(quality));
    // A failure names its precision, or none (null or missing).
    for (json, want) in [
        (
            r#"{"model":"m","precision":"int4","message":"x"}"#,
            Some(Precision::Int4),
        ),
        (
            r#"{"model":"bandwidth","precision":null,"message":"x"}"#,
            None,
        ),
        (r#"{"model":"bandwidth","message":"x"}"#, None),
    ] {
        let f: Result<Failure, _> = serde_json::from_str(json);
        assert_eq!(f.map(|f| f.precision).ok(), Some(want), "{json}");
    }
    // Another name is refused, with the names that would do.
    let e = serde_json::from_str::<Quality>(
        r#"{"precision":"fp16","bitsPerChar":2.5,"agreement":0.99}"#,
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(
        e.contains("unknown variant `fp16`, expected one of `f32`, `int8`, `int4`"),
        "{e}"
    );
    assert!(matches!(
        msg(r#"{"type":"quality","precision":"fp16","bitsPerChar":2.2,"agreement":0.9}"#),
        LabMessage::Error { .. }
    ));
}
