//! Response-time statistics for the latency explorer: a seeded skewed sample, its percentiles
//! and histogram, and the split of end-to-end time into network, queue and inference.
//!
//! LLM response times are right-skewed: most requests cluster near the median and a tail takes
//! far longer, so the mean hides the shape and P90/P99 show it. The sample is lognormal (the
//! log of each time is normal), which has exactly that shape, plus an optional "1 in N
//! requests is slow" tail. Everything is deterministic for a seed, so a figure in the text
//! matches the widget.

//!
//! This file holds the inputs, the sample and its statistics; the end-to-end split is
//! `end_to_end`, the explorer's state and words `explorer`.

mod end_to_end;
mod explorer;

pub use end_to_end::{diagnose, Diagnosis, EndToEnd, Part};
pub use explorer::{
    ms_text, Explored, Marker, TailStory, EXPLORER_BINS, EXPLORER_REQUESTS, EXPLORER_SEED,
};

use super::rng::SplitMix64;
use super::stats::{percentile_nearest_rank, sorted};
use super::{parse_number, InputError};

super::input::form_fields! {
    Latency:
    /// The latency widgets' fields: the distribution's shape, then an end-to-end request's parts.
    pub enum Field {
        Median => "Median",
        Sigma => "Tail (sigma)",
        SlowOneIn => "1 in N is slow",
        SlowFactor => "Slow factor",
        Requests => "Requests",
        Network => "Network",
        Queue => "Queue",
        Inference => "Inference",
    }
}

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
fn parse_count(field: Field, text: &str, min: f64, max: f64) -> Result<u64, InputError> {
    let value = parse_number(field, text, min, false, max)?;
    if value.fract() != 0.0 {
        return Err(InputError::new(field, "Enter a whole number."));
    }
    Ok(value as u64)
}

/// Parses the median response time in ms, as typed (more than 0, at most one hour).
pub fn parse_median_ms(text: &str) -> Result<f64, InputError> {
    parse_number(Field::Median, text, 0.0, true, MAX_MEDIAN_MS)
}

/// Parses sigma, the tail control, as typed (0 to 3; 0.5 is moderately skewed).
pub fn parse_sigma(text: &str) -> Result<f64, InputError> {
    parse_number(Field::Sigma, text, 0.0, false, MAX_SIGMA)
}

/// Parses N of "1 in N requests is slow", as typed (a whole number, 0 to 100,000; 0 means
/// none are slow, 1 means all are).
pub fn parse_slow_one_in(text: &str) -> Result<u32, InputError> {
    parse_count(Field::SlowOneIn, text, 0.0, MAX_SLOW_ONE_IN).map(|n| n as u32)
}

/// Parses how many times longer a slow request takes, as typed (1 to 1,000; ×).
pub fn parse_slow_factor(text: &str) -> Result<f64, InputError> {
    parse_number(Field::SlowFactor, text, 1.0, false, MAX_SLOW_FACTOR)
}

#[cfg(test)]
/// Parses the number of requests to sample, as typed (a whole number, 1 to 100,000).
pub fn parse_sample_count(text: &str) -> Result<usize, InputError> {
    parse_count(Field::Requests, text, 1.0, MAX_SAMPLES as f64).map(|n| n as usize)
}

/// Parses network time in ms, as typed (0 to one hour).
pub fn parse_network_ms(text: &str) -> Result<f64, InputError> {
    parse_number(Field::Network, text, 0.0, false, MAX_PART_MS)
}

/// Parses queueing time in ms, as typed (0 to one hour).
pub fn parse_queue_ms(text: &str) -> Result<f64, InputError> {
    parse_number(Field::Queue, text, 0.0, false, MAX_PART_MS)
}

/// Parses inference (on-GPU) time in ms, as typed (0 to one hour).
pub fn parse_inference_ms(text: &str) -> Result<f64, InputError> {
    parse_number(Field::Inference, text, 0.0, false, MAX_PART_MS)
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

#[cfg(test)]
mod explorer_tests;
#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod tests;
