//! The explorer as the widget drives it.

use super::*;

#[test]
fn explores_the_example_and_collects_errors() {
    let e = Explored::from_text("800", "0.5", "20", "5").unwrap();
    assert!(e.upper > e.story.now.p99);
    assert_eq!(e.hist.counts.len(), EXPLORER_BINS);
    let text = e.description();
    assert!(
        text.starts_with("Histogram of 2000 response times from 0 to "),
        "{text}"
    );
    assert!(
        text.contains(&format!("P99 {},", ms_text(e.story.now.p99))),
        "{text}"
    );
    let markers: Vec<f64> = Marker::ALL.iter().map(|m| m.of(&e.story.now)).collect();
    let s = &e.story.now;
    assert_eq!(markers, [s.mean, s.p50, s.p90, s.p99]);
    let errs = Explored::from_text("0", "9", "2.5", "0").unwrap_err();
    let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
    assert_eq!(
        fields,
        ["Median", "Tail (sigma)", "1 in N is slow", "Slow factor"]
    );
}

#[test]
fn every_edit_shows_what_a_fresh_sample_of_its_model_gives() {
    // The explorer draws once for the shown sample and its trimmed comparison; each edit
    // must still show exactly the sample, story and histogram of its model drawn afresh.
    for (median, sigma, one_in, factor) in [
        ("800", "0.5", "20", "5"),
        ("250", "1.2", "0", "1"),
        ("3000", "0", "7", "40"),
        ("800", "0.5", "20", "5"),
    ] {
        let e = Explored::from_text(median, sigma, one_in, factor).unwrap();
        let model = LatencyModel {
            median_ms: median.parse().unwrap(),
            sigma: sigma.parse().unwrap(),
            slow_one_in: one_in.parse().unwrap(),
            slow_factor: factor.parse().unwrap(),
        };
        let fresh = model.sample(EXPLORER_SEED, EXPLORER_REQUESTS);
        let story = TailStory::of(&model, EXPLORER_SEED, EXPLORER_REQUESTS).unwrap();
        assert_eq!(e.story, story, "{median} {sigma} {one_in} {factor}");
        assert_eq!(e.hist, histogram(&fresh, EXPLORER_BINS, e.upper));
        assert_eq!(story.now, Summary::of(&fresh).unwrap());
    }
}

#[test]
fn a_tail_past_the_edge_is_counted_in_words() {
    let e = Explored::from_text("100", "0.2", "0", "1").unwrap();
    assert!(e.hist.overflow > 0, "{:?}", e.hist.overflow);
    assert!(
        e.description().contains(&format!(
            "; {} requests lie beyond the right edge.",
            e.hist.overflow
        )),
        "{}",
        e.description()
    );
}

#[test]
fn splits_end_to_end_in_words() {
    let e = EndToEnd::from_text("600", "150", "250").unwrap();
    assert_eq!(e.total_ms(), 1000.0);
    assert_eq!(
        e.description(),
        "One bar of 1000 ms end-to-end, split left to right into network 600 ms (60%), \
         queueing 150 ms (15%), inference 250 ms (25%)."
    );
    assert_eq!(e.inference_share_text(), "25%");
    assert_eq!(Part::Queue.label(), "Queueing");
    let errs = EndToEnd::from_text("-1", "x", "").unwrap_err();
    let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
    assert_eq!(fields, ["Network", "Queue", "Inference"]);
}
