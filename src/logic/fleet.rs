//! Fleet swap: what serving the same traffic with a smaller model does to a GPU fleet.
//!
//! Decode time per token scales with the weights read per token (`decode`), so when two models
//! both pass the evals, the smaller one needs that ratio less GPU time: 8 GPUs of a 40 GB model
//! become 1 of a 5 GB model, or the same 8 serve 8× the traffic. For a mixture-of-experts model
//! the weights read are its active parameters; the GPUs must still hold all of its weights.

use super::decode::ModelWeights;
use super::format::{fixed, plain};
use super::memory::gpus_needed;
use super::{parse_number, InputError};

/// Seconds in a day.
pub const SECONDS_PER_DAY: f64 = 86_400.0;

/// Largest traffic accepted, in requests per day (a trillion).
pub const MAX_REQUESTS_PER_DAY: f64 = 1e12;
/// Largest output accepted, in tokens per request.
pub const MAX_OUTPUT_TOKENS: f64 = 1_000_000.0;
/// Largest fleet accepted, in GPUs.
pub const MAX_GPUS: f64 = 1_000_000.0;

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

/// How the fleet's GPU memory bears on a swap: every GPU serving a model must together hold all
/// its weights, whatever the traffic, and for a mixture-of-experts model that is far more than it
/// reads per token.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FleetMemory {
    /// Memory of one GPU, in GB.
    pub gpu_memory_gb: f64,
    /// GPUs it takes to hold the large model's weights: today's fleet needs at least this many.
    pub large_gpus_to_hold: u64,
    /// GPUs it takes to hold the small model's weights: the new fleet needs at least this many.
    pub small_gpus_to_hold: u64,
}

impl FleetMemory {
    /// GPUs of `gpu_memory_gb` (GB) needed to hold each model's weights in memory.
    pub fn new(large: ModelWeights, small: ModelWeights, gpu_memory_gb: f64) -> Self {
        Self {
            gpu_memory_gb,
            large_gpus_to_hold: gpus_needed(large.in_memory_gb, gpu_memory_gb),
            small_gpus_to_hold: gpus_needed(small.in_memory_gb, gpu_memory_gb),
        }
    }
}

/// Every number of a fleet swap from a large model to a small one that both pass the evals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FleetSwap {
    /// The large (current) model's weights, in memory and read per token (GB).
    pub large: ModelWeights,
    /// The small (candidate) model's weights, in memory and read per token (GB).
    pub small: ModelWeights,
    /// GPUs the large model uses today.
    pub large_gpus: u64,
    /// GPU time of the large model per token ÷ that of the small one (×): the weights each reads
    /// per token, large ÷ small.
    pub gpu_time_ratio: f64,
    /// GPUs the small model needs for the same decode work: ⌈large GPUs ÷ GPU time ratio⌉, at
    /// least 1.
    pub small_gpus_for_decode: u64,
    /// The memory check, when the GPUs' memory is known.
    pub memory: Option<FleetMemory>,
    /// GPUs the small model needs for the same traffic: those for decode, and at least enough
    /// to hold its weights when the memory is known.
    pub small_gpus: u64,
    /// Traffic the same GPUs serve with the small model, as a multiple of today's (×).
    pub traffic_multiple: f64,
}

impl FleetSwap {
    /// Works out the swap, with GPUs of `gpu_memory_gb` (GB) if known. Also valid the other way
    /// round (a larger candidate gives a ratio below 1 and more GPUs). Zero sizes give infinite
    /// or NaN ratios rather than panics; the `parse_*` helpers keep them out.
    pub fn new(
        large: ModelWeights,
        small: ModelWeights,
        large_gpus: u64,
        gpu_memory_gb: Option<f64>,
    ) -> Self {
        let gpu_time_ratio = large.read_per_token_gb / small.read_per_token_gb;
        let small_gpus_for_decode =
            whole_gpus(large_gpus as f64 * small.read_per_token_gb / large.read_per_token_gb);
        let memory = gpu_memory_gb.map(|gb| FleetMemory::new(large, small, gb));
        Self {
            large,
            small,
            large_gpus,
            gpu_time_ratio,
            small_gpus_for_decode,
            memory,
            small_gpus: small_gpus_for_decode.max(memory.map_or(1, |m| m.small_gpus_to_hold)),
            traffic_multiple: gpu_time_ratio,
        }
    }

    /// The sums a reader can check, e.g.
    /// `40 GB ÷ 5 GB = 8× → 8 GPUs ÷ 8 = 1 GPU, or 8 GPUs serve 8× the traffic`, from the
    /// weights read per token; when memory is known and holding the small model takes more
    /// GPUs than its decode work, a second line shows that sum.
    pub fn worked_lines(&self) -> Vec<String> {
        let unit = |n: u64| if n == 1 { "GPU" } else { "GPUs" };
        let mut lines = vec![format!(
            "{} GB \u{f7} {} GB = {}\u{d7} \u{2192} {} {} \u{f7} {} = {} {}, \
             or {} {} serve {}\u{d7} the traffic",
            plain(self.large.read_per_token_gb),
            plain(self.small.read_per_token_gb),
            plain(self.gpu_time_ratio),
            self.large_gpus,
            unit(self.large_gpus),
            plain(self.gpu_time_ratio),
            self.small_gpus_for_decode,
            unit(self.small_gpus_for_decode),
            self.large_gpus,
            unit(self.large_gpus),
            plain(self.traffic_multiple),
        )];
        if let Some(m) = self
            .memory
            .filter(|_| self.small_gpus > self.small_gpus_for_decode)
        {
            lines.push(format!(
                "{} GB in memory \u{f7} {} GB per GPU = {} \u{2192} at least {} {} to hold the weights",
                plain(self.small.in_memory_gb),
                plain(m.gpu_memory_gb),
                fixed(self.small.in_memory_gb / m.gpu_memory_gb, 2),
                m.small_gpus_to_hold,
                unit(m.small_gpus_to_hold),
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::super::decode::DEEPSEEK_R1;
    use super::*;

    /// The course's example traffic: requests per day.
    const EXAMPLE_REQUESTS_PER_DAY: f64 = 1_000_000.0;
    /// The course's example output length: tokens per request.
    const EXAMPLE_OUTPUT_TOKENS: f64 = 400.0;
    /// The course's example fleet for the large model: GPUs.
    const EXAMPLE_LARGE_GPUS: u64 = 8;

    /// A swap between two dense models, with no memory check (as the lesson's figures do).
    fn dense(large_gb: f64, small_gb: f64, gpus: u64) -> FleetSwap {
        FleetSwap::new(
            ModelWeights::dense(large_gb),
            ModelWeights::dense(small_gb),
            gpus,
            None,
        )
    }

    #[test]
    fn reproduces_the_why_size_wins_fleet() {
        let tokens = tokens_per_day(EXAMPLE_REQUESTS_PER_DAY, EXAMPLE_OUTPUT_TOKENS);
        assert_eq!(tokens, 400_000_000.0);
        assert_eq!(fixed(tokens, 0), "400,000,000");
        let swap = dense(40.0, 5.0, EXAMPLE_LARGE_GPUS);
        assert_eq!(swap.gpu_time_ratio, 8.0);
        assert_eq!(swap.small_gpus, 1);
        assert_eq!(swap.traffic_multiple, 8.0);
        assert_eq!(
            swap.worked_lines(),
            [
                "40 GB \u{f7} 5 GB = 8\u{d7} \u{2192} 8 GPUs \u{f7} 8 = 1 GPU, \
             or 8 GPUs serve 8\u{d7} the traffic"
            ]
        );
        // 80 GB GPUs hold both models on one each: memory changes nothing.
        let held = FleetSwap::new(
            ModelWeights::dense(40.0),
            ModelWeights::dense(5.0),
            EXAMPLE_LARGE_GPUS,
            Some(80.0),
        );
        assert_eq!(held.small_gpus, 1);
        assert_eq!(held.worked_lines(), swap.worked_lines());
        let m = held.memory.unwrap();
        assert_eq!((m.large_gpus_to_hold, m.small_gpus_to_hold), (1, 1));
    }

    #[test]
    fn an_moe_model_saves_gpu_time_by_its_active_weights() {
        // Today: DeepSeek-R1 in FP8 (671 GB held, 37 GB read per token) on 16 GPUs of 80 GB.
        // Candidate: the 8B model at about 4 bits (5 GB). GPU time falls by 37 ÷ 5, not 671 ÷ 5.
        let swap = FleetSwap::new(DEEPSEEK_R1, ModelWeights::dense(5.0), 16, Some(80.0));
        assert_eq!(swap.gpu_time_ratio, 7.4);
        assert_eq!(swap.small_gpus, 3);
        assert_eq!(swap.traffic_multiple, 7.4);
        assert!(swap.worked_lines()[0].starts_with("37 GB \u{f7} 5 GB = 7.4\u{d7}"));
        let m = swap.memory.unwrap();
        assert_eq!((m.large_gpus_to_hold, m.small_gpus_to_hold), (9, 1));
    }

    #[test]
    fn memory_sets_a_floor_under_the_new_fleet() {
        // Today: a dense 70B in FP16 (140 GB) on 8 GPUs. Moving to R1 cuts the reads per token
        // to 37 GB, so decode alone would take 3 GPUs, but 671 GB need 9 GPUs of 80 GB to hold.
        let swap = FleetSwap::new(ModelWeights::dense(140.0), DEEPSEEK_R1, 8, Some(80.0));
        assert_eq!(plain(swap.gpu_time_ratio), "3.784");
        assert_eq!(swap.small_gpus_for_decode, 3);
        assert_eq!(swap.small_gpus, 9);
        assert_eq!(
            swap.worked_lines()[1],
            "671 GB in memory \u{f7} 80 GB per GPU = 8.39 \u{2192} at least 9 GPUs to hold the weights"
        );
        // Without a memory figure there is no floor to apply.
        let unknown = FleetSwap::new(ModelWeights::dense(140.0), DEEPSEEK_R1, 8, None);
        assert_eq!(unknown.small_gpus, 3);
        assert_eq!(unknown.worked_lines().len(), 1);
        // On GPUs of 141 GB, 5 hold it.
        let h200 = FleetSwap::new(ModelWeights::dense(140.0), DEEPSEEK_R1, 8, Some(141.0));
        assert_eq!(h200.small_gpus, 5);
    }

    #[test]
    fn rounds_up_partial_gpus_but_not_binary_noise() {
        assert_eq!(dense(40.0, 5.0, 9).small_gpus, 2);
        assert_eq!(dense(40.0, 5.0, 16).small_gpus, 2);
        assert_eq!(dense(0.3, 0.1 + 0.2, 3).small_gpus, 3);
        assert_eq!(dense(5.0, 40.0, 1).small_gpus, 8);
        assert_eq!(dense(0.0, 0.0, 4).small_gpus, 1);
    }

    #[test]
    fn average_rate_divides_by_the_seconds_in_a_day() {
        // 400 M tokens a day is 4,629.6 tokens/s on average.
        assert_eq!(fixed(average_tokens_per_s(400_000_000.0), 1), "4,629.6");
        assert_eq!(average_tokens_per_s(86_400_000.0), 1000.0);
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
    }

    proptest::proptest! {
        #[test]
        fn a_smaller_model_never_needs_more_gpus(
            large in 0.1f64..10_000.0,
            shrink in 1.0f64..1000.0,
            gpus in 1u64..100_000,
        ) {
            let swap = dense(large, large / shrink, gpus);
            proptest::prop_assert!(swap.small_gpus >= 1 && swap.small_gpus <= gpus);
            proptest::prop_assert!((swap.gpu_time_ratio - shrink).abs() <= 1e-9 * shrink);
            // Enough GPUs: the small fleet has at least the GPU time the traffic needs.
            let needed = gpus as f64 / swap.gpu_time_ratio;
            proptest::prop_assert!(swap.small_gpus as f64 >= needed - 1e-6);
        }

        #[test]
        fn the_new_fleet_holds_the_weights_and_does_the_work(
            large in 0.1f64..10_000.0,
            active in 0.01f64..=1.0,
            small in 0.1f64..10_000.0,
            gpus in 1u64..10_000,
            gpu_gb in 1.0f64..1000.0,
        ) {
            let large = ModelWeights { in_memory_gb: large, read_per_token_gb: large * active };
            let swap = FleetSwap::new(large, ModelWeights::dense(small), gpus, Some(gpu_gb));
            proptest::prop_assert!(swap.small_gpus as f64 * gpu_gb >= small * (1.0 - 1e-9));
            proptest::prop_assert!(swap.small_gpus >= swap.small_gpus_for_decode);
            proptest::prop_assert!(swap.small_gpus_for_decode as f64 >= gpus as f64 / swap.gpu_time_ratio - 1e-6);
        }
    }
}
