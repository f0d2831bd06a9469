//! The latency explorer's words and state: its sample, the story of its tail, the histogram's
//! markers, and the fields as typed.

use super::{
    histogram, parse_median_ms, parse_sigma, parse_slow_factor, parse_slow_one_in,
    standard_normals, Histogram, LatencyModel, Summary,
};
use crate::logic::{format, InputError};

/// Seed of the explorer's sample, fixed so the text and the widget agree.
pub const EXPLORER_SEED: u64 = 42;

/// Requests in the explorer's sample.
pub const EXPLORER_REQUESTS: usize = 2_000;

/// Bars in the explorer's histogram.
pub const EXPLORER_BINS: usize = 40;

/// A time in ms as the explorer prints it, without thousands separators so the text starts
/// with a plain number: whole ms from 100 up, one decimal from 10, two below (trailing zeros
/// dropped). `"812 ms"`, `"42.5 ms"`, `"0.25 ms"`.
pub fn ms_text(ms: f64) -> String {
    let decimals = if ms.abs() >= 100.0 {
        0
    } else if ms.abs() >= 10.0 {
        1
    } else {
        2
    };
    let s = format::fixed(ms, decimals).replace(',', "");
    format!("{} ms", format::trim_zeros(&s))
}

/// What the explorer says about a sample: how the mean hides the tail, and what removing the
/// tail would change.
#[derive(Debug, Clone, PartialEq)]
pub struct TailStory {
    /// The sample as drawn.
    pub now: Summary,
    /// The same requests with the tail trimmed: slow requests fixed if there are any, else
    /// sigma halved.
    pub trimmed: Summary,
    /// What was trimmed, e.g. "the 1-in-20 slow requests were fixed".
    pub trimmed_how: String,
}

impl TailStory {
    /// Draws the explorer's sample for `model` and the trimmed comparison; `None` if the
    /// sample is empty.
    pub fn of(model: &LatencyModel, seed: u64, count: usize) -> Option<TailStory> {
        let z = standard_normals(seed, count);
        TailStory::from_sample(model, &model.sample_from(&z), &z)
    }

    /// The story of `sample`, which `model` drew from the standard normal draws `z`
    /// ([`LatencyModel::sample_from`]); the trimmed comparison is drawn from the same `z`.
    /// `None` if the sample is empty.
    pub fn from_sample(model: &LatencyModel, sample: &[f64], z: &[f64]) -> Option<TailStory> {
        let now = Summary::of(sample)?;
        let has_slow = model.slow_one_in > 0 && model.slow_factor > 1.0;
        let (trimmed_model, trimmed_how) = if has_slow {
            (
                LatencyModel {
                    slow_one_in: 0,
                    ..*model
                },
                format!("the 1-in-{} slow requests were fixed", model.slow_one_in),
            )
        } else {
            (
                LatencyModel {
                    sigma: model.sigma / 2.0,
                    ..*model
                },
                format!(
                    "the spread were halved (sigma {} \u{2192} {})",
                    format::plain(model.sigma),
                    format::plain(model.sigma / 2.0)
                ),
            )
        };
        let trimmed = Summary::of(&trimmed_model.sample_from(z))?;
        Some(TailStory {
            now,
            trimmed,
            trimmed_how,
        })
    }

    /// One paragraph on how the mean hides the tail.
    pub fn mean_hides_tail(&self) -> String {
        let s = &self.now;
        let vs_median = if s.p50 > 0.0 { s.mean / s.p50 } else { 1.0 };
        let tail_ratio = if s.p50 > 0.0 { s.p99 / s.p50 } else { 1.0 };
        format!(
            "The mean, {}, is {}\u{d7} the median ({}), pulled up by the tail, yet it says nothing \
             of the slowest requests: 1 request in 10 takes longer than {}, and 1 in 100 longer \
             than {}, {}\u{d7} the median.",
            ms_text(s.mean),
            format::fixed(vs_median, 2),
            ms_text(s.p50),
            ms_text(s.p90),
            ms_text(s.p99),
            format::fixed(tail_ratio, 1),
        )
    }

    /// One paragraph on what trimming the tail changes.
    pub fn trimming(&self) -> String {
        let pct = |from: f64, to: f64| {
            if from > 0.0 {
                format::fixed((from - to) / from * 100.0, 0)
            } else {
                "0".into()
            }
        };
        let (a, b) = (&self.now, &self.trimmed);
        format!(
            "If {}, P99 would go from {} to {} ({}% less) and P90 from {} to {}, while the \
             median moves from {} to {}. The users who hit slow requests feel that change; \
             the median never showed it.",
            self.trimmed_how,
            ms_text(a.p99),
            ms_text(b.p99),
            pct(a.p99, b.p99),
            ms_text(a.p90),
            ms_text(b.p90),
            ms_text(a.p50),
            ms_text(b.p50),
        )
    }
}

/// The explorer's markers on the histogram, in the order the legend lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// The arithmetic mean.
    Mean,
    /// The median.
    P50,
    /// The 90th percentile.
    P90,
    /// The 99th percentile.
    P99,
}

impl Marker {
    /// Every marker, in the legend's order.
    pub const ALL: [Marker; 4] = [Marker::Mean, Marker::P50, Marker::P90, Marker::P99];

    /// Where the marker sits in `s`, in ms.
    pub fn of(self, s: &Summary) -> f64 {
        match self {
            Marker::Mean => s.mean,
            Marker::P50 => s.p50,
            Marker::P90 => s.p90,
            Marker::P99 => s.p99,
        }
    }
}

/// A drawn sample: what the latency explorer shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Explored {
    /// The sample's figures and what trimming its tail would change.
    pub story: TailStory,
    /// Its histogram over `0..=upper`.
    pub hist: Histogram,
    /// Right edge of the histogram, in ms: a little past P99 (and the mean), so its marker
    /// shows; the far tail is counted, not drawn.
    pub upper: f64,
}

impl Explored {
    /// The explorer's sample for its four fields as typed (median ms, sigma, 1 in N slow,
    /// slow factor), or every field's error.
    pub fn from_text(
        median: &str,
        sigma: &str,
        one_in: &str,
        factor: &str,
    ) -> Result<Explored, Vec<InputError>> {
        let parsed = (
            parse_median_ms(median),
            parse_sigma(sigma),
            parse_slow_one_in(one_in),
            parse_slow_factor(factor),
        );
        let (median_ms, sigma, slow_one_in, slow_factor) = match parsed {
            (Ok(a), Ok(b), Ok(c), Ok(d)) => (a, b, c, d),
            (a, b, c, d) => {
                return Err([a.err(), b.err(), c.err(), d.err()]
                    .into_iter()
                    .flatten()
                    .collect())
            }
        };
        let model = LatencyModel {
            median_ms,
            sigma,
            slow_one_in,
            slow_factor,
        };
        // One set of draws for the shown sample and its trimmed comparison.
        let z = standard_normals(EXPLORER_SEED, EXPLORER_REQUESTS);
        let samples = model.sample_from(&z);
        let story = TailStory::from_sample(&model, &samples, &z).ok_or_else(|| {
            vec![InputError::new(
                super::Field::Median,
                "No requests to show.",
            )]
        })?;
        let upper = (story.now.p99 * 1.15).max(story.now.mean * 1.15);
        let hist = histogram(&samples, EXPLORER_BINS, upper);
        Ok(Explored { story, hist, upper })
    }

    /// The histogram in words: its text alternative and caption.
    pub fn description(&self) -> String {
        let s = &self.story.now;
        format!(
            "Histogram of {} response times from 0 to {}: most requests cluster near the median \
             and a long tail runs right. Mean {}, P50 {}, P90 {}, P99 {}, slowest {}{}.",
            EXPLORER_REQUESTS,
            ms_text(self.upper),
            ms_text(s.mean),
            ms_text(s.p50),
            ms_text(s.p90),
            ms_text(s.p99),
            ms_text(s.max),
            if self.hist.overflow > 0 {
                format!(
                    "; {} requests lie beyond the right edge",
                    self.hist.overflow
                )
            } else {
                String::new()
            }
        )
    }
}
