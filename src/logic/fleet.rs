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

super::input::form_fields! {
    Fleet:
    /// The fleet-swap calculator's own fields (its models' are the decode ceiling's).
    pub enum Field {
        RequestsPerDay => "Requests per day",
        OutputTokens => "Output tokens per request",
        Gpus => "GPUs",
    }
}

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
    parse_number(Field::RequestsPerDay, text, 0.0, true, MAX_REQUESTS_PER_DAY)
}

/// Parses output tokens per request, as typed (more than 0).
pub fn parse_output_tokens(text: &str) -> Result<f64, InputError> {
    parse_number(Field::OutputTokens, text, 0.0, true, MAX_OUTPUT_TOKENS)
}

/// Parses the current GPU count, as typed (a whole number, 1 to 1,000,000).
pub fn parse_gpu_count(text: &str) -> Result<u64, InputError> {
    const FIELD: Field = Field::Gpus;
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

/// A good result: the traffic and the swap.
#[derive(Debug, Clone, PartialEq)]
pub struct Fleet {
    /// Output tokens a day.
    pub tokens_per_day: f64,
    /// Output tokens a second, averaged over the day.
    pub average_tps: f64,
    /// The swap's fleets.
    pub swap: FleetSwap,
    /// The sums a reader can check, one line each.
    pub worked: Vec<String>,
    /// Whether the GPUs hold each model's weights, in words.
    pub fit_note: String,
    /// True when memory, not decode time, limits a fleet.
    pub overflow: bool,
}

/// The fleet-swap calculator's result for its fields as typed (requests a day, output tokens
/// per request, each model's weights in memory and read per token, today's GPUs, and GPU
/// memory in GB or blank), or every field's error.
pub fn fleet_of(
    requests: &str,
    tokens: &str,
    large: super::decode::ModelText,
    small: super::decode::ModelText,
    gpus: &str,
    gpu_memory: &str,
) -> Result<Fleet, Vec<InputError>> {
    let requests = parse_requests_per_day(requests);
    let tokens = parse_output_tokens(tokens);
    let large = super::decode::parse_model_weights(large.0, large.1, super::decode::Model::Large);
    let small = super::decode::parse_model_weights(small.0, small.1, super::decode::Model::Small);
    let gpus = parse_gpu_count(gpus);
    let gpu_memory = super::decode::parse_gpu_memory_gb(gpu_memory);
    match (requests, tokens, large, small, gpus, gpu_memory) {
        (Ok(requests), Ok(tokens), Ok(large), Ok(small), Ok(gpus), Ok(gpu_memory)) => {
            let tokens_per_day = tokens_per_day(requests, tokens);
            let average_tps = average_tokens_per_s(tokens_per_day);
            let swap = FleetSwap::new(large, small, gpus, gpu_memory);
            let mut worked = vec![format!(
                "{} requests \u{d7} {} tokens = {} tokens a day \u{f7} 86,400 s = {} tok/s on average",
                plain(requests),
                plain(tokens),
                fixed(tokens_per_day, 0),
                fixed(average_tps, 1)
            )];
            worked.extend(swap.worked_lines());
            worked.push(format!(
                "{} tok/s \u{f7} {} = {} tok/s per GPU today; \u{f7} {} = {} tok/s per GPU after",
                fixed(average_tps, 1),
                gpus_text(swap.large_gpus),
                super::decode::three_figures(average_tps / swap.large_gpus as f64),
                gpus_text(swap.small_gpus),
                super::decode::three_figures(average_tps / swap.small_gpus as f64),
            ));
            let (fit_note, overflow) = fit_note(&swap);
            Ok(Fleet {
                tokens_per_day,
                average_tps,
                swap,
                worked,
                fit_note,
                overflow,
            })
        }
        (a, b, c, d, e, f) => Err([a.err(), b.err()]
            .into_iter()
            .flatten()
            .chain(c.err().into_iter().flatten())
            .chain(d.err().into_iter().flatten())
            .chain([e.err(), f.err()].into_iter().flatten())
            .collect()),
    }
}

/// Whether the GPUs hold each model's weights, in words, and whether memory limits a fleet:
/// today's fleet too small for the large model, or the small model needing more GPUs to hold
/// its weights than to do its decode work.
fn fit_note(swap: &FleetSwap) -> (String, bool) {
    let Some(m) = swap.memory else {
        return (
            "GPU memory not given, so the fleets are sized by decode work alone. Pick a GPU, or \
             type its memory, to check that they hold the weights."
                .into(),
            false,
        );
    };
    let gpu = format!("{} GB", plain(m.gpu_memory_gb));
    let mut sentences = Vec::new();
    if swap.large_gpus < m.large_gpus_to_hold {
        sentences.push(format!(
            "Today's {} of {gpu} cannot hold the large model's {} GB of weights: that takes at \
             least {}.",
            gpus_text(swap.large_gpus),
            plain(swap.large.in_memory_gb),
            gpus_text(m.large_gpus_to_hold)
        ));
    }
    if swap.small_gpus > swap.small_gpus_for_decode {
        sentences.push(format!(
            "The small model's decode work needs {}, but its {} GB of weights need {} of {gpu} \
             to hold, so memory sets its fleet.",
            gpus_text(swap.small_gpus_for_decode),
            plain(swap.small.in_memory_gb),
            gpus_text(m.small_gpus_to_hold)
        ));
    }
    if m.small_gpus_to_hold > swap.large_gpus {
        sentences.push(format!(
            "Today's {} cannot hold the small model's weights, so the figure for traffic on \
             the same GPUs does not apply.",
            gpus_text(swap.large_gpus)
        ));
    }
    if sentences.is_empty() {
        return (
            format!(
                "Memory is not the limit: on GPUs of {gpu}, the large model's {} GB of weights \
                 need {} to hold and the small model's {} GB need {}.",
                plain(swap.large.in_memory_gb),
                gpus_text(m.large_gpus_to_hold),
                plain(swap.small.in_memory_gb),
                gpus_text(m.small_gpus_to_hold)
            ),
            false,
        );
    }
    (sentences.join(" "), true)
}

/// `1 GPU`, `8 GPUs`.
pub fn gpus_text(n: u64) -> String {
    format!(
        "{} GPU{}",
        fixed(n as f64, 0),
        if n == 1 { "" } else { "s" }
    )
}

impl Fleet {
    /// Output tokens a day, e.g. `400,000,000 tokens`.
    pub fn tokens_per_day_text(&self) -> String {
        format!("{} tokens", fixed(self.tokens_per_day, 0))
    }

    /// GPU time of the large model over the small one's, e.g. `8×`.
    pub fn ratio_text(&self) -> String {
        format!(
            "{}\u{d7}",
            super::decode::three_figures(self.swap.gpu_time_ratio)
        )
    }

    /// The small model's fleet, e.g. `1 GPU`.
    pub fn small_gpus_text(&self) -> String {
        gpus_text(self.swap.small_gpus)
    }

    /// Average output each GPU carries, today's fleet then the small model's, in tokens/s:
    /// the day's average rate ÷ each fleet's GPUs.
    pub fn load_per_gpu(&self) -> (f64, f64) {
        (
            self.average_tps / self.swap.large_gpus as f64,
            self.average_tps / self.swap.small_gpus as f64,
        )
    }

    /// The average load per GPU before and after the swap, e.g. `579 → 4,630 tok/s`.
    pub fn load_text(&self) -> String {
        let (today, after) = self.load_per_gpu();
        format!(
            "{} \u{2192} {} tok/s",
            super::decode::three_figures(today),
            super::decode::three_figures(after)
        )
    }

    /// Traffic today's GPUs would carry on the small model, e.g. `8× today's`.
    pub fn traffic_text(&self) -> String {
        format!(
            "{}\u{d7} today's",
            super::decode::three_figures(self.swap.traffic_multiple)
        )
    }

    /// The note under the fleets: why they shrink, and the average traffic they carry.
    pub fn note(&self) -> String {
        format!(
            "Decode time per token follows the weights read per token (for a mixture of experts, \
             its active experts), so the fleet shrinks by their ratio, down to the GPUs that hold \
             the weights. Traffic is averaged over the day ({} tok/s); size for your peaks by \
             raising it, and check that one GPU sustains the load per GPU at the batch you run \
             (the decode ceiling's per-GPU figure).",
            fixed(self.average_tps, 0)
        )
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

#[cfg(test)]
mod calculator_tests {
    use super::super::decode::three_figures;
    use super::*;

    #[test]
    fn the_defaults_give_the_lesson_figures() {
        let f = fleet_of("1000000", "400", ("40", ""), ("5", ""), "8", "80").unwrap();
        assert_eq!(fixed(f.tokens_per_day, 0), "400,000,000");
        assert_eq!(f.swap.gpu_time_ratio, 8.0);
        assert_eq!(gpus_text(f.swap.small_gpus), "1 GPU");
        assert_eq!(f.swap.traffic_multiple, 8.0);
        assert!(f.worked[0].starts_with("1,000,000 requests \u{d7} 400 tokens = 400,000,000"));
        assert_eq!(f.worked.len(), 3);
        assert_eq!(f.load_text(), "579 \u{2192} 4,630 tok/s");
        assert_eq!(
            f.worked[2],
            "4,629.6 tok/s \u{f7} 8 GPUs = 579 tok/s per GPU today; \u{f7} 1 GPU = 4,630 tok/s per GPU after"
        );
        assert!(!f.overflow);
        assert_eq!(
            f.fit_note,
            "Memory is not the limit: on GPUs of 80 GB, the large model's 40 GB of weights need \
             1 GPU to hold and the small model's 5 GB need 1 GPU."
        );
    }

    /// The lesson's "Try this": doubling the traffic leaves both fleets as typed (the widget
    /// starts from today's GPUs) and doubles what each GPU must carry; doubling today's fleet
    /// to match doubles the small one, 8× apart as before.
    #[test]
    fn doubling_traffic_doubles_the_load_per_gpu_not_the_fleets() {
        let f = fleet_of("2000000", "400", ("40", ""), ("5", ""), "8", "80").unwrap();
        assert_eq!(gpus_text(f.swap.small_gpus), "1 GPU");
        assert_eq!(f.load_text(), "1,157 \u{2192} 9,259 tok/s");
        let f = fleet_of("2000000", "400", ("40", ""), ("5", ""), "16", "80").unwrap();
        assert_eq!(gpus_text(f.swap.small_gpus), "2 GPUs");
        assert_eq!(f.ratio_text(), "8\u{d7}");
        assert_eq!(f.load_text(), "579 \u{2192} 4,630 tok/s");
    }

    #[test]
    fn every_bad_field_is_named() {
        let errs = fleet_of("0", "x", ("-1", "2"), ("", "0"), "1.5", "0").unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "Requests per day",
                "Output tokens per request",
                "Large model",
                "Small model",
                "Small model per token",
                "GPUs",
                "GPU memory"
            ]
        );
    }

    #[test]
    fn deepseek_r1_today_counts_its_active_weights_and_its_memory() {
        // R1 (671 GB held, 37 GB read) on 8 GPUs of 80 GB, swapped for the 8B at about 4 bits.
        let f = fleet_of("1000000", "400", ("671", "37"), ("5", ""), "8", "80").unwrap();
        assert_eq!(three_figures(f.swap.gpu_time_ratio), "7.4");
        assert_eq!(gpus_text(f.swap.small_gpus), "2 GPUs");
        assert!(
            f.worked[1].starts_with("37 GB \u{f7} 5 GB = 7.4\u{d7}"),
            "{}",
            f.worked[1]
        );
        assert!(f.overflow);
        assert_eq!(
            f.fit_note,
            "Today's 8 GPUs of 80 GB cannot hold the large model's 671 GB of weights: that \
             takes at least 9 GPUs."
        );
    }

    #[test]
    fn moving_to_r1_is_limited_by_memory_not_decode_work() {
        // A dense 70B in FP16 on 8 GPUs, swapped for R1: decode work needs 3, memory 9.
        let f = fleet_of("1000000", "400", ("140", ""), ("671", "37"), "8", "80").unwrap();
        assert_eq!(gpus_text(f.swap.small_gpus), "9 GPUs");
        assert_eq!(f.worked.len(), 4);
        assert!(f.overflow);
        assert_eq!(
            f.fit_note,
            "The small model's decode work needs 3 GPUs, but its 671 GB of weights need 9 GPUs \
             of 80 GB to hold, so memory sets its fleet. Today's 8 GPUs cannot hold the small \
             model's weights, so the figure for traffic on the same GPUs does not apply."
        );
        // With no memory given, the widget says it sized by decode work alone.
        let f = fleet_of("1000000", "400", ("140", ""), ("671", "37"), "8", "").unwrap();
        assert_eq!(gpus_text(f.swap.small_gpus), "3 GPUs");
        assert!(f.fit_note.starts_with("GPU memory not given"));
    }

    proptest::proptest! {
        #[test]
        fn valid_inputs_give_sane_fleets(
            req in 1.0f64..1e12,
            tok in 1.0f64..1e6,
            large in 0.01f64..100_000.0,
            small in 0.01f64..100_000.0,
            gpus in 1u64..1_000_000,
            memory in proptest::option::of(1.0f64..100_000.0),
        ) {
            let memory = memory.map(|m| m.to_string()).unwrap_or_default();
            let f = fleet_of(&req.to_string(), &tok.to_string(), (&large.to_string(), ""), (&small.to_string(), ""), &gpus.to_string(), &memory).unwrap();
            proptest::prop_assert!(f.tokens_per_day.is_finite() && f.tokens_per_day > 0.0);
            proptest::prop_assert!(f.swap.small_gpus >= 1);
            proptest::prop_assert!(f.swap.small_gpus as f64 >= gpus as f64 / f.swap.gpu_time_ratio - 1e-6);
            let text = format!("{} {}", f.worked.join(" "), f.fit_note);
            proptest::prop_assert!(!text.contains("NaN"), "{}", text);
        }
    }
}

#[cfg(test)]
mod fuzz_tests {
    use super::super::decode::MAX_WEIGHTS_GB;
    use super::*;
    use crate::logic::fuzz::{any_text, in_range, unreadable, unreadable_figure};
    use proptest::prelude::*;

    /// Found by the test below: a trillion requests of half a million tokens printed an
    /// 18-digit count; past 15 digits a count is now written in e-notation.
    #[test]
    fn the_largest_traffic_reads() {
        let f = fleet_of("1e12", "512139.08958107413", ("40", ""), ("5", ""), "8", "").unwrap();
        assert_eq!(f.tokens_per_day_text(), "5.12e17 tokens");
        assert!(
            f.worked[0].contains("= 5.12e17 tokens a day"),
            "{}",
            f.worked[0]
        );
    }

    fn model_text() -> impl Strategy<Value = (String, String)> {
        (
            in_range(0.0, MAX_WEIGHTS_GB),
            proptest::option::of(in_range(0.0, MAX_WEIGHTS_GB)),
        )
            .prop_map(|(memory, read)| (memory, read.unwrap_or_default()))
    }

    proptest! {
        #[test]
        fn field_parsers_never_panic_and_keep_their_range(text in any_text()) {
            match parse_requests_per_day(&text) {
                Ok(x) => prop_assert!(x > 0.0 && x <= MAX_REQUESTS_PER_DAY),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            match parse_output_tokens(&text) {
                Ok(x) => prop_assert!(x > 0.0 && x <= MAX_OUTPUT_TOKENS),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            match parse_gpu_count(&text) {
                Ok(n) => prop_assert!((1..=MAX_GPUS as u64).contains(&n)),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
        }

        #[test]
        fn every_shown_figure_is_readable(
            requests in in_range(0.0, MAX_REQUESTS_PER_DAY),
            tokens in in_range(0.0, MAX_OUTPUT_TOKENS),
            large in model_text(),
            small in model_text(),
            gpus in (1u64..=MAX_GPUS as u64).prop_map(|n| n.to_string()),
            memory in proptest::option::of(in_range(0.0, super::super::memory::MAX_GPU_GB)),
        ) {
            let memory = memory.unwrap_or_default();
            match fleet_of(&requests, &tokens, (&large.0, &large.1), (&small.0, &small.1), &gpus, &memory) {
                Ok(f) => {
                    for shown in [f.tokens_per_day_text(), f.ratio_text(), f.small_gpus_text(), f.traffic_text(), f.load_text()] {
                        prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                    }
                    for line in f.worked.iter().chain([&f.fit_note, &f.note()]) {
                        prop_assert!(unreadable(line).is_none(), "{:?}", unreadable(line));
                    }
                }
                Err(errors) => prop_assert!(errors.iter().all(|e| !e.message.is_empty())),
            }
        }
    }
}
