//! Fleet swap: what serving the same traffic with a smaller model does to a GPU fleet.
//!
//! Decode time per token scales with the weights read per token (`decode`), so when two models
//! both pass the evals, the smaller one needs that ratio less GPU time: 8 GPUs of a 40 GB model
//! become 1 of a 5 GB model, or the same 8 serve 8× the traffic.

use super::format::plain;
use super::{parse_number, InputError};

/// Seconds in a day.
pub const SECONDS_PER_DAY: f64 = 86_400.0;

/// The course's example traffic: requests per day.
pub const EXAMPLE_REQUESTS_PER_DAY: f64 = 1_000_000.0;
/// The course's example output length: tokens per request.
pub const EXAMPLE_OUTPUT_TOKENS: f64 = 400.0;
/// The course's example fleet for the large model: GPUs.
pub const EXAMPLE_LARGE_GPUS: u64 = 8;

/// Largest traffic accepted, in requests per day (a trillion).
pub const MAX_REQUESTS_PER_DAY: f64 = 1e12;
/// Largest output accepted, in tokens per request.
pub const MAX_OUTPUT_TOKENS: f64 = 1_000_000.0;
/// Largest fleet accepted, in GPUs.
pub const MAX_GPUS: f64 = 1_000_000.0;
/// Largest per-GPU decode throughput accepted, in tokens/s.
pub const MAX_GPU_TPS: f64 = 1e9;

/// Parses requests per day, as typed (more than 0).
pub fn parse_requests_per_day(text: &str) -> Result<f64, InputError> {
    parse_number("Requests per day", text, 0.0, true, MAX_REQUESTS_PER_DAY)
}

/// Parses output tokens per request, as typed (more than 0).
pub fn parse_output_tokens(text: &str) -> Result<f64, InputError> {
    parse_number(
        "Output tokens per request",
        text,
        0.0,
        true,
        MAX_OUTPUT_TOKENS,
    )
}

/// Parses the current GPU count, as typed (a whole number, 1 to 1,000,000).
pub fn parse_gpu_count(text: &str) -> Result<u64, InputError> {
    const FIELD: &str = "GPUs";
    let value = parse_number(FIELD, text, 1.0, false, MAX_GPUS)?;
    if value.fract() != 0.0 {
        return Err(InputError::new(FIELD, "Enter a whole number."));
    }
    Ok(value as u64)
}

/// Parses one GPU's decode throughput in tokens/s, as typed (more than 0).
pub fn parse_gpu_tps(text: &str) -> Result<f64, InputError> {
    parse_number("Throughput per GPU", text, 0.0, true, MAX_GPU_TPS)
}

/// Output tokens per day: requests per day × output tokens per request.
pub fn tokens_per_day(requests_per_day: f64, output_tokens_per_request: f64) -> f64 {
    requests_per_day * output_tokens_per_request
}

/// Average output rate over a day, in tokens/s: tokens per day ÷ 86,400. Peaks run higher.
pub fn average_tokens_per_s(tokens_per_day: f64) -> f64 {
    tokens_per_day / SECONDS_PER_DAY
}

/// `value` rounded up to a whole count, at least 1. Rounds to 9 decimals first so that binary
/// noise (1.0000000001) does not cost a whole GPU; NaN gives 1, infinity saturates.
fn whole_gpus(value: f64) -> u64 {
    let value = (value * 1e9).round() / 1e9;
    (value.ceil() as u64).max(1)
}

/// GPUs needed to serve `tokens_per_day` when each GPU decodes `gpu_tps` tokens/s on average:
/// tokens/day ÷ 86,400 ÷ per-GPU tokens/s, rounded up, at least 1.
///
/// Assumes traffic spread evenly over the day; size for peaks by raising the traffic.
pub fn gpus_for_traffic(tokens_per_day: f64, gpu_tps: f64) -> u64 {
    whole_gpus(average_tokens_per_s(tokens_per_day) / gpu_tps)
}

/// Every number of a fleet swap from a large model to a small one that both pass the evals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FleetSwap {
    /// Weights the large (current) model reads per token, in GB.
    pub large_gb: f64,
    /// Weights the small (candidate) model reads per token, in GB.
    pub small_gb: f64,
    /// GPUs the large model uses today.
    pub large_gpus: u64,
    /// GPU time of the large model per token ÷ that of the small one (×): large GB ÷ small GB.
    pub gpu_time_ratio: f64,
    /// GPUs the small model needs for the same traffic: ⌈large GPUs × small GB ÷ large GB⌉, at
    /// least 1.
    pub small_gpus: u64,
    /// Traffic the same GPUs serve with the small model, as a multiple of today's (×).
    pub traffic_multiple: f64,
}

impl FleetSwap {
    /// Works out the swap. Also valid the other way round (a larger candidate gives a ratio
    /// below 1 and more GPUs). Zero sizes give infinite or NaN ratios rather than panics; the
    /// `parse_*` helpers and `decode::parse_model_gb` keep them out.
    pub fn new(large_gb: f64, small_gb: f64, large_gpus: u64) -> Self {
        let gpu_time_ratio = large_gb / small_gb;
        Self {
            large_gb,
            small_gb,
            large_gpus,
            gpu_time_ratio,
            small_gpus: whole_gpus(large_gpus as f64 * small_gb / large_gb),
            traffic_multiple: gpu_time_ratio,
        }
    }

    /// The sums a reader can check, e.g.
    /// `40 GB ÷ 5 GB = 8× → 8 GPUs ÷ 8 = 1 GPU, or 8 GPUs serve 8× the traffic`.
    pub fn worked_line(&self) -> String {
        let unit = |n: u64| if n == 1 { "GPU" } else { "GPUs" };
        format!(
            "{} GB \u{f7} {} GB = {}\u{d7} \u{2192} {} {} \u{f7} {} = {} {}, \
             or {} {} serve {}\u{d7} the traffic",
            plain(self.large_gb),
            plain(self.small_gb),
            plain(self.gpu_time_ratio),
            self.large_gpus,
            unit(self.large_gpus),
            plain(self.gpu_time_ratio),
            self.small_gpus,
            unit(self.small_gpus),
            self.large_gpus,
            unit(self.large_gpus),
            plain(self.traffic_multiple),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::fixed;
    use super::*;

    #[test]
    fn reproduces_the_why_size_wins_fleet() {
        let tokens = tokens_per_day(EXAMPLE_REQUESTS_PER_DAY, EXAMPLE_OUTPUT_TOKENS);
        assert_eq!(tokens, 400_000_000.0);
        assert_eq!(fixed(tokens, 0), "400,000,000");
        let swap = FleetSwap::new(40.0, 5.0, EXAMPLE_LARGE_GPUS);
        assert_eq!(swap.gpu_time_ratio, 8.0);
        assert_eq!(swap.small_gpus, 1);
        assert_eq!(swap.traffic_multiple, 8.0);
        assert_eq!(
            swap.worked_line(),
            "40 GB \u{f7} 5 GB = 8\u{d7} \u{2192} 8 GPUs \u{f7} 8 = 1 GPU, \
             or 8 GPUs serve 8\u{d7} the traffic"
        );
    }

    #[test]
    fn rounds_up_partial_gpus_but_not_binary_noise() {
        assert_eq!(FleetSwap::new(40.0, 5.0, 9).small_gpus, 2);
        assert_eq!(FleetSwap::new(40.0, 5.0, 16).small_gpus, 2);
        assert_eq!(FleetSwap::new(0.3, 0.1 + 0.2, 3).small_gpus, 3);
        assert_eq!(FleetSwap::new(5.0, 40.0, 1).small_gpus, 8);
        assert_eq!(FleetSwap::new(0.0, 0.0, 4).small_gpus, 1);
    }

    #[test]
    fn gpus_for_traffic_divides_by_seconds_and_throughput() {
        // 400 M tokens a day is 4,629.6 tokens/s on average.
        assert_eq!(fixed(average_tokens_per_s(400_000_000.0), 1), "4,629.6");
        assert_eq!(gpus_for_traffic(400_000_000.0, 1000.0), 5);
        assert_eq!(gpus_for_traffic(86_400_000.0, 1000.0), 1);
        assert_eq!(gpus_for_traffic(1.0, 1000.0), 1);
    }

    #[test]
    fn parse_helpers_name_the_field() {
        assert_eq!(parse_requests_per_day("1e6"), Ok(1_000_000.0));
        assert_eq!(parse_gpu_count("8"), Ok(8));
        assert_eq!(
            parse_gpu_count("1.5").unwrap_err().message,
            "Enter a whole number."
        );
        assert_eq!(parse_gpu_count("0").unwrap_err().field, "GPUs");
        assert_eq!(
            parse_output_tokens("").unwrap_err().field,
            "Output tokens per request"
        );
        assert!(parse_gpu_tps("0").is_err());
    }

    proptest::proptest! {
        #[test]
        fn a_smaller_model_never_needs_more_gpus(
            large in 0.1f64..10_000.0,
            shrink in 1.0f64..1000.0,
            gpus in 1u64..100_000,
        ) {
            let swap = FleetSwap::new(large, large / shrink, gpus);
            proptest::prop_assert!(swap.small_gpus >= 1 && swap.small_gpus <= gpus);
            proptest::prop_assert!((swap.gpu_time_ratio - shrink).abs() <= 1e-9 * shrink);
            // Enough GPUs: the small fleet has at least the GPU time the traffic needs.
            let needed = gpus as f64 / swap.gpu_time_ratio;
            proptest::prop_assert!(swap.small_gpus as f64 >= needed - 1e-6);
        }

        #[test]
        fn traffic_fleet_covers_the_load(tokens in 1.0f64..1e15, tps in 1.0f64..1e6) {
            let gpus = gpus_for_traffic(tokens, tps);
            proptest::prop_assert!(gpus >= 1);
            proptest::prop_assert!(gpus as f64 * tps * SECONDS_PER_DAY >= tokens * (1.0 - 1e-9));
            proptest::prop_assert!(gpus_for_traffic(tokens * 2.0, tps) >= gpus);
        }
    }
}
