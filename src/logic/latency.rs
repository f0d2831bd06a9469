//! Response-time statistics for the latency explorer: a seeded skewed sample, its percentiles
//! and histogram, and the split of end-to-end time into network, queue and inference.
//!
//! LLM response times are right-skewed: most requests cluster near the median and a tail takes
//! far longer, so the mean hides the shape and P90/P99 show it. The sample is lognormal (the
//! log of each time is normal), which has exactly that shape, plus an optional "1 in N
//! requests is slow" tail. Everything is deterministic for a seed, so a figure in the text
//! matches the widget.

use super::rng::SplitMix64;
use super::stats::{percentile_nearest_rank, sorted};
use super::{parse_number, InputError};

/// Largest median accepted, in ms (one hour).
pub const MAX_MEDIAN_MS: f64 = 3_600_000.0;
/// Largest sigma accepted (the spread of log-times); 0 means every request takes the median.
pub const MAX_SIGMA: f64 = 3.0;
/// Largest slow factor accepted (×).
pub const MAX_SLOW_FACTOR: f64 = 1_000.0;
/// Largest "1 in N" accepted.
pub const MAX_SLOW_ONE_IN: f64 = 100_000.0;
/// Most samples drawn at once.
pub const MAX_SAMPLES: usize = 100_000;
/// Most histogram bins.
pub const MAX_BINS: usize = 1_000;
/// Largest part of an end-to-end time accepted, in ms (one hour).
pub const MAX_PART_MS: f64 = 3_600_000.0;

/// Parses a whole count in `min..=max`, as typed.
fn parse_count(field: &'static str, text: &str, min: f64, max: f64) -> Result<u64, InputError> {
    let value = parse_number(field, text, min, false, max)?;
    if value.fract() != 0.0 {
        return Err(InputError::new(field, "Enter a whole number."));
    }
    Ok(value as u64)
}

/// Parses the median response time in ms, as typed (more than 0, at most one hour).
pub fn parse_median_ms(text: &str) -> Result<f64, InputError> {
    parse_number("Median", text, 0.0, true, MAX_MEDIAN_MS)
}

/// Parses sigma, the tail control, as typed (0 to 3; 0.5 is moderately skewed).
pub fn parse_sigma(text: &str) -> Result<f64, InputError> {
    parse_number("Tail (sigma)", text, 0.0, false, MAX_SIGMA)
}

/// Parses N of "1 in N requests is slow", as typed (a whole number, 0 to 100,000; 0 means
/// none are slow, 1 means all are).
pub fn parse_slow_one_in(text: &str) -> Result<u32, InputError> {
    parse_count("1 in N is slow", text, 0.0, MAX_SLOW_ONE_IN).map(|n| n as u32)
}

/// Parses how many times longer a slow request takes, as typed (1 to 1,000; ×).
pub fn parse_slow_factor(text: &str) -> Result<f64, InputError> {
    parse_number("Slow factor", text, 1.0, false, MAX_SLOW_FACTOR)
}

#[cfg(test)]
/// Parses the number of requests to sample, as typed (a whole number, 1 to 100,000).
pub fn parse_sample_count(text: &str) -> Result<usize, InputError> {
    parse_count("Requests", text, 1.0, MAX_SAMPLES as f64).map(|n| n as usize)
}

/// Parses network time in ms, as typed (0 to one hour).
pub fn parse_network_ms(text: &str) -> Result<f64, InputError> {
    parse_number("Network", text, 0.0, false, MAX_PART_MS)
}

/// Parses queueing time in ms, as typed (0 to one hour).
pub fn parse_queue_ms(text: &str) -> Result<f64, InputError> {
    parse_number("Queue", text, 0.0, false, MAX_PART_MS)
}

/// Parses inference (on-GPU) time in ms, as typed (0 to one hour).
pub fn parse_inference_ms(text: &str) -> Result<f64, InputError> {
    parse_number("Inference", text, 0.0, false, MAX_PART_MS)
}

/// How response times are drawn: lognormal around a median, plus an optional slow tail.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatencyModel {
    /// Median response time, in ms (half the requests are faster, before the slow tail).
    pub median_ms: f64,
    /// Spread of the log of response time; larger sigma stretches the right tail. Clamped to
    /// `0..=MAX_SIGMA` when sampling (NaN counts as 0).
    pub sigma: f64,
    /// Every N-th request is slow (exactly ⌊count ÷ N⌋ of them); 0 turns this off.
    pub slow_one_in: u32,
    /// How many times longer a slow request takes (×); values below 1 count as 1.
    pub slow_factor: f64,
}

impl LatencyModel {
    /// An example: median 800 ms, sigma 0.5, 1 in 20 requests 5× slower.
    pub const EXAMPLE: LatencyModel = LatencyModel {
        median_ms: 800.0,
        sigma: 0.5,
        slow_one_in: 20,
        slow_factor: 5.0,
    };

    /// `count` response times in ms (at most [`MAX_SAMPLES`]), the same for the same `seed`.
    ///
    /// Each time is median × e^(sigma × z) for a standard normal z, so the sample's median is
    /// near `median_ms` and its logarithm is normal. Every value is finite and non-negative:
    /// a median that is not finite and positive gives zeros, and the median is capped at
    /// [`MAX_MEDIAN_MS`].
    pub fn sample(&self, seed: u64, count: usize) -> Vec<f64> {
        self.sample_from(&standard_normals(seed, count))
    }

    /// The response times for the standard normal draws `z`, one request per draw, in order:
    /// what [`sample`](Self::sample) computes from [`standard_normals`]. Two models sampled
    /// from the same draws differ only where the models differ (the explorer's "trimmed" tail).
    pub fn sample_from(&self, z: &[f64]) -> Vec<f64> {
        let median = if self.median_ms.is_finite() && self.median_ms > 0.0 {
            self.median_ms.min(MAX_MEDIAN_MS)
        } else {
            0.0
        };
        let sigma = if self.sigma.is_nan() {
            0.0
        } else {
            self.sigma.clamp(0.0, MAX_SIGMA)
        };
        let slow_factor = if self.slow_factor.is_nan() {
            1.0
        } else {
            self.slow_factor.clamp(1.0, MAX_SLOW_FACTOR)
        };
        z.iter()
            .take(MAX_SAMPLES)
            .enumerate()
            .map(|(i, z)| {
                let ms = median * (sigma * z).exp();
                // Every N-th, by position: an exact share, unbiased as the draws are independent.
                let slow = self.slow_one_in > 0 && (i + 1) % self.slow_one_in as usize == 0;
                if slow {
                    ms * slow_factor
                } else {
                    ms
                }
            })
            .collect()
    }
}

/// `count` standard normal draws (at most [`MAX_SAMPLES`]), the same for the same `seed`: the
/// randomness of a sample, which [`LatencyModel::sample_from`] scales into response times.
pub fn standard_normals(seed: u64, count: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..count.min(MAX_SAMPLES))
        .map(|_| rng.next_standard_normal())
        .collect()
}

/// Arithmetic mean of `samples`, in their unit; `None` when empty.
pub fn mean(samples: &[f64]) -> Option<f64> {
    if samples.is_empty() {
        None
    } else {
        Some(samples.iter().sum::<f64>() / samples.len() as f64)
    }
}

/// The figures the latency explorer shows for a sample, in its unit (ms).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (nearest rank).
    pub p50: f64,
    /// 90th percentile (nearest rank): 1 request in 10 is slower.
    pub p90: f64,
    /// 99th percentile (nearest rank): 1 request in 100 is slower.
    pub p99: f64,
    /// Largest value.
    pub max: f64,
    /// Number of values summarised (NaNs are left out).
    pub count: usize,
}

impl Summary {
    /// Summarises `samples` (any order; NaNs left out); `None` when nothing is left.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        let s = sorted(samples);
        Some(Summary {
            mean: mean(&s)?,
            p50: percentile_nearest_rank(&s, 50.0)?,
            p90: percentile_nearest_rank(&s, 90.0)?,
            p99: percentile_nearest_rank(&s, 99.0)?,
            max: *s.last()?,
            count: s.len(),
        })
    }
}

/// Counts of a sample in equal-width bins over `[0, upper]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// Bin edges, in the sample's unit: `counts.len() + 1` of them, from 0 to `upper`.
    pub edges: Vec<f64>,
    /// How many values fall in each bin; a bin holds `edges[i] <= v < edges[i + 1]`, and the
    /// last bin also holds `v == upper`. Negative values count in the first bin.
    pub counts: Vec<u64>,
    /// How many values lie above `upper` (shown as "n beyond the chart").
    pub overflow: u64,
}

/// Bins `samples` into `bins` equal bins over `[0, upper]` (at most [`MAX_BINS`]).
///
/// `upper` clips a long tail so the body of the distribution stays readable (e.g. 1.5 × P99);
/// pass the maximum to show everything. When `upper` is not finite and positive, the largest
/// sample is used; when that is not positive either, or `bins` is 0, the histogram is empty
/// (no edges, no counts). NaNs are skipped.
pub fn histogram(samples: &[f64], bins: usize, upper: f64) -> Histogram {
    let empty = Histogram {
        edges: Vec::new(),
        counts: Vec::new(),
        overflow: 0,
    };
    let bins = bins.min(MAX_BINS);
    let upper = if upper.is_finite() && upper > 0.0 {
        upper
    } else {
        samples
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max)
    };
    if bins == 0 || upper <= 0.0 {
        return empty;
    }
    let width = upper / bins as f64;
    let edges = (0..=bins).map(|i| width * i as f64).collect();
    let mut counts = vec![0u64; bins];
    let mut overflow = 0;
    for &v in samples.iter().filter(|v| !v.is_nan()) {
        if v > upper {
            overflow += 1;
        } else {
            let bin = ((v / width).floor().max(0.0) as usize).min(bins - 1);
            if let Some(count) = counts.get_mut(bin) {
                *count += 1;
            }
        }
    }
    Histogram {
        edges,
        counts,
        overflow,
    }
}

/// One part of an end-to-end response time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Time on the wire, both ways.
    Network,
    /// Time waiting for a free replica.
    Queue,
    /// Time on the GPU generating tokens.
    Inference,
}

impl Part {
    /// The parts in the order a request meets them.
    pub const ALL: [Part; 3] = [Part::Network, Part::Queue, Part::Inference];

    #[cfg(test)]
    /// Stable lowercase id, for test ids and lesson directives.
    pub fn id(self) -> &'static str {
        match self {
            Part::Network => "network",
            Part::Queue => "queue",
            Part::Inference => "inference",
        }
    }
}

/// What a user waits for, split into its parts, each in ms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EndToEnd {
    /// Network time, in ms.
    pub network_ms: f64,
    /// Queueing time, in ms.
    pub queue_ms: f64,
    /// Inference (on-GPU) time, in ms.
    pub inference_ms: f64,
}

impl EndToEnd {
    /// The time of one part, in ms.
    pub fn part_ms(&self, part: Part) -> f64 {
        match part {
            Part::Network => self.network_ms,
            Part::Queue => self.queue_ms,
            Part::Inference => self.inference_ms,
        }
    }

    /// End-to-end time the user perceives, in ms: network + queue + inference.
    pub fn total_ms(&self) -> f64 {
        self.network_ms + self.queue_ms + self.inference_ms
    }

    /// Share of the total that is `part`, as a fraction 0–1; 0 when the total is not positive.
    pub fn share(&self, part: Part) -> f64 {
        let total = self.total_ms();
        if total > 0.0 {
            self.part_ms(part) / total
        } else {
            0.0
        }
    }

    /// Share of the total spent in inference, as a fraction 0–1 (0 when the total is 0). When
    /// it is small, faster kernels cannot help much: fix the infrastructure.
    pub fn inference_share(&self) -> f64 {
        self.share(Part::Inference)
    }

    #[cfg(test)]
    /// The largest part. Ties go to the part met first (network, then queue, then inference);
    /// NaN parts never win.
    pub fn bottleneck(&self) -> Part {
        let mut best = Part::Network;
        for part in Part::ALL {
            if self.part_ms(part) > self.part_ms(best) || self.part_ms(best).is_nan() {
                best = part;
            }
        }
        best
    }
}

/// Seed of the explorer's sample, fixed so the text and the widget agree.
pub const EXPLORER_SEED: u64 = 42;
/// Requests in the explorer's sample.
pub const EXPLORER_REQUESTS: usize = 2_000;

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
    let s = super::format::fixed(ms, decimals).replace(',', "");
    format!("{} ms", super::format::trim_zeros(&s))
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
                    super::format::plain(model.sigma),
                    super::format::plain(model.sigma / 2.0)
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
            super::format::fixed(vs_median, 2),
            ms_text(s.p50),
            ms_text(s.p90),
            ms_text(s.p99),
            super::format::fixed(tail_ratio, 1),
        )
    }

    /// One paragraph on what trimming the tail changes.
    pub fn trimming(&self) -> String {
        let pct = |from: f64, to: f64| {
            if from > 0.0 {
                super::format::fixed((from - to) / from * 100.0, 0)
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

/// Where to look, given the split of an end-to-end time.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnosis {
    /// True when inference is under half of the end-to-end time: the fix is infrastructure.
    pub fix_infrastructure: bool,
    /// The advice, citing the numbers.
    pub text: String,
}

/// Reads an end-to-end split: if inference is under half the wait, model work cannot fix the
/// wait, so fix the infrastructure (network or queueing, whichever is larger).
pub fn diagnose(e2e: &EndToEnd) -> Diagnosis {
    let total = e2e.total_ms();
    if total <= 0.0 || total.is_nan() {
        return Diagnosis {
            fix_infrastructure: false,
            text: "Enter a time above zero for at least one part.".into(),
        };
    }
    let share = super::format::fixed(e2e.inference_share() * 100.0, 0);
    if e2e.inference_share() < 0.5 {
        let culprit = if e2e.queue_ms > e2e.network_ms {
            "queueing: add replicas or autoscale sooner so requests stop waiting for a GPU"
        } else {
            "the network: serve from a region near the users, reuse connections, send less"
        };
        Diagnosis {
            fix_infrastructure: true,
            text: format!(
                "Inference is fast, only {share}% of the {} users wait, but end-to-end is slow. \
                 Even infinitely fast inference would save at most {}. Fix the infrastructure; \
                 the largest part is {culprit}.",
                ms_text(total),
                ms_text(e2e.inference_ms),
            ),
        }
    } else {
        Diagnosis {
            fix_infrastructure: false,
            text: format!(
                "Inference is {share}% of the {} users wait, so model-side work pays here: a \
                 smaller model, quantization or faster kernels shorten what users feel.",
                ms_text(total),
            ),
        }
    }
}

/// Bars in the explorer's histogram.
pub const EXPLORER_BINS: usize = 40;

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
        let story = TailStory::from_sample(&model, &samples, &z)
            .ok_or_else(|| vec![InputError::new("Median", "No requests to show.")])?;
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

impl Part {
    /// The part's name as the explorer shows it: `Network`, `Queueing`, `Inference`.
    pub fn label(self) -> &'static str {
        match self {
            Part::Network => "Network",
            Part::Queue => "Queueing",
            Part::Inference => "Inference",
        }
    }
}

impl EndToEnd {
    /// The split for the explorer's three fields as typed (network, queueing and inference
    /// ms), or every field's error.
    pub fn from_text(
        network: &str,
        queue: &str,
        inference: &str,
    ) -> Result<EndToEnd, Vec<InputError>> {
        match (
            parse_network_ms(network),
            parse_queue_ms(queue),
            parse_inference_ms(inference),
        ) {
            (Ok(network_ms), Ok(queue_ms), Ok(inference_ms)) => Ok(EndToEnd {
                network_ms,
                queue_ms,
                inference_ms,
            }),
            (a, b, c) => Err([a.err(), b.err(), c.err()].into_iter().flatten().collect()),
        }
    }

    /// The inference share as a whole percentage: `25%`.
    pub fn inference_share_text(&self) -> String {
        format!(
            "{}%",
            super::format::fixed(self.inference_share() * 100.0, 0)
        )
    }

    /// The split bar in words: its text alternative and caption.
    pub fn description(&self) -> String {
        let parts: Vec<String> = Part::ALL
            .iter()
            .map(|&p| {
                format!(
                    "{} {} ({}%)",
                    p.label().to_ascii_lowercase(),
                    ms_text(self.part_ms(p)),
                    super::format::fixed(self.share(p) * 100.0, 0)
                )
            })
            .collect();
        format!(
            "One bar of {} end-to-end, split left to right into {}.",
            ms_text(self.total_ms()),
            parts.join(", ")
        )
    }
}

#[cfg(test)]
mod explorer_tests {
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
}

#[cfg(test)]
mod tests {
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
        let story =
            TailStory::of(&LatencyModel::EXAMPLE, EXPLORER_SEED, EXPLORER_REQUESTS).unwrap();
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
}

#[cfg(test)]
mod fuzz_tests {
    use super::*;
    use crate::logic::fuzz::{any_text, in_range, unreadable, unreadable_figure};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn field_parsers_never_panic_and_keep_their_range(text in any_text()) {
            for (parse, min, max) in [
                (parse_median_ms as fn(&str) -> Result<f64, InputError>, 0.0, MAX_MEDIAN_MS),
                (parse_sigma, 0.0, MAX_SIGMA),
                (parse_slow_factor, 1.0, MAX_SLOW_FACTOR),
                (parse_network_ms, 0.0, MAX_PART_MS),
                (parse_queue_ms, 0.0, MAX_PART_MS),
                (parse_inference_ms, 0.0, MAX_PART_MS),
            ] {
                match parse(&text) {
                    Ok(x) => prop_assert!(x >= min && x <= max),
                    Err(e) => prop_assert!(!e.message.is_empty()),
                }
            }
            match parse_slow_one_in(&text) {
                Ok(n) => prop_assert!(f64::from(n) <= MAX_SLOW_ONE_IN),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            match parse_sample_count(&text) {
                Ok(n) => prop_assert!((1..=MAX_SAMPLES).contains(&n)),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
        }

        #[test]
        fn every_shown_end_to_end_figure_is_readable(
            network in in_range(0.0, MAX_PART_MS),
            queue in in_range(0.0, MAX_PART_MS),
            inference in in_range(0.0, MAX_PART_MS),
        ) {
            match EndToEnd::from_text(&network, &queue, &inference) {
                Ok(e) => {
                    for shown in [ms_text(e.total_ms()), e.inference_share_text()] {
                        prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                    }
                    for line in [e.description(), diagnose(&e).text] {
                        prop_assert!(unreadable(&line).is_none(), "{:?}", unreadable(&line));
                    }
                }
                Err(errors) => prop_assert!(errors.iter().all(|e| !e.message.is_empty())),
            }
        }
    }

    proptest! {
        // Each case draws two samples of 2,000 requests.
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn every_shown_explorer_figure_is_readable(
            median in in_range(0.0, MAX_MEDIAN_MS),
            sigma in in_range(0.0, MAX_SIGMA),
            one_in in (0u32..=MAX_SLOW_ONE_IN as u32).prop_map(|n| n.to_string()),
            factor in in_range(1.0, MAX_SLOW_FACTOR),
        ) {
            match Explored::from_text(&median, &sigma, &one_in, &factor) {
                Ok(e) => {
                    let s = &e.story.now;
                    for ms in [s.mean, s.p50, s.p90, s.p99, e.upper / 2.0, e.upper] {
                        let shown = ms_text(ms);
                        prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                    }
                    for line in [e.description(), e.story.mean_hides_tail(), e.story.trimming()] {
                        prop_assert!(unreadable(&line).is_none(), "{:?}", unreadable(&line));
                    }
                }
                Err(errors) => prop_assert!(errors.iter().all(|e| !e.message.is_empty())),
            }
        }
    }
}
