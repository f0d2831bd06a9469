//! Decode ceiling: each generated token reads the model's weights from memory once (all of
//! them, for a dense model), so memory bandwidth caps the decode speed of one sequence.
//!
//! tokens/s ≤ bandwidth (GB/s) ÷ weights read per token (GB). It is an upper bound, not a
//! benchmark: real runs reach part of peak bandwidth and also read the KV cache. The ratio
//! between two models holds on any machine, because it comes from their sizes alone.
//!
//! A mixture-of-experts (MoE) model keeps every expert in memory but sends each token through
//! only a few of them, so it reads its *active* parameters per token, not all of them:
//! [`ModelWeights`] carries both figures. Memory sets how many GPUs hold the model ([`fit`]);
//! the weights read per token set the ceiling.

use super::format::plain;
use super::memory::gpus_needed;
use super::{parse_number, InputError};

/// Which model of a two-model calculator a field belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// The decode ceiling's first model.
    A,
    /// The decode ceiling's second model.
    B,
    /// The fleet swap's model today.
    Large,
    /// The fleet swap's candidate.
    Small,
}

impl Model {
    /// Every model a calculator names.
    pub const ALL: [Model; 4] = [Model::A, Model::B, Model::Large, Model::Small];
}

/// The decode ceiling's fields, and each model's weights (in memory, and read per token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The GPU's memory bandwidth.
    MemoryBandwidth,
    /// A model's weights in memory.
    Weights(Model),
    /// A model's weights read per token, if fewer (a mixture of experts).
    ReadPerToken(Model),
}

super::input::form_field_of!(Decode, Field, |f: Field| match f {
    Field::MemoryBandwidth => 0,
    Field::Weights(m) => 1 + m as u8,
    Field::ReadPerToken(m) => 5 + m as u8,
});

impl Field {
    /// The field's name in the learner's words.
    pub fn name(self) -> &'static str {
        match self {
            Field::MemoryBandwidth => "Memory bandwidth",
            Field::Weights(Model::A) => "Model A",
            Field::Weights(Model::B) => "Model B",
            Field::Weights(Model::Large) => "Large model",
            Field::Weights(Model::Small) => "Small model",
            Field::ReadPerToken(Model::A) => "Model A per token",
            Field::ReadPerToken(Model::B) => "Model B per token",
            Field::ReadPerToken(Model::Large) => "Large model per token",
            Field::ReadPerToken(Model::Small) => "Small model per token",
        }
    }
}

/// The course's example small model: an 8B model at about 4 bits, about 5 GB.
pub const EXAMPLE_SMALL_GB: f64 = 5.0;
/// The course's example large model: a 70B model at about 4 bits, about 40 GB.
pub const EXAMPLE_LARGE_GB: f64 = 40.0;

/// Largest bandwidth accepted, in GB/s (100 TB/s).
pub const MAX_BANDWIDTH_GB_S: f64 = 100_000.0;
/// Largest weights per token accepted, in GB (100 TB).
pub const MAX_WEIGHTS_GB: f64 = 100_000.0;

/// A model's weights as decode sees them, in GB (10⁹ bytes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelWeights {
    /// Weights held in memory: every parameter × bytes per parameter, in GB.
    pub in_memory_gb: f64,
    /// Weights read to produce one token, in GB: all of them for a dense model, the active
    /// parameters only for a mixture-of-experts model.
    pub read_per_token_gb: f64,
}

impl ModelWeights {
    /// A dense model: each token reads every weight, so both figures are `gb`.
    pub const fn dense(gb: f64) -> Self {
        Self {
            in_memory_gb: gb,
            read_per_token_gb: gb,
        }
    }

    /// True when a token reads less than the whole model (a mixture of experts).
    pub fn is_mixture_of_experts(self) -> bool {
        self.read_per_token_gb < self.in_memory_gb
    }

    /// Upper bound on decode speed on one GPU of `bandwidth_gb_s`, in tokens/s, from the weights
    /// read per token (not those in memory).
    pub fn ceiling_tps(self, bandwidth_gb_s: f64) -> f64 {
        decode_ceiling_tps(bandwidth_gb_s, self.read_per_token_gb)
    }
}

/// A model a calculator offers with one click: a label that states its figures, its weights,
/// and its architecture (for the KV cache and arithmetic of a batch, `batching`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPreset {
    /// Button text, e.g. `70B · FP16 140 GB`.
    pub label: &'static str,
    /// The weights the button fills in.
    pub weights: ModelWeights,
    /// Id of its architecture in `batching::ARCHITECTURES`, e.g. `llama3-70b`.
    pub architecture: &'static str,
}

/// DeepSeek-R1 as shipped, the course's mixture-of-experts example: 671B parameters in all and
/// 37B active per token, stored in FP8 (1 byte per parameter), so 671 GB in memory and 37 GB
/// read per token.
pub const DEEPSEEK_R1: ModelWeights = ModelWeights {
    in_memory_gb: 671.0,
    read_per_token_gb: 37.0,
};

/// Small models offered as presets: the course's 8B at about 4 bits, and 8B and 3B in FP16.
pub const SMALL_MODEL_PRESETS: &[ModelPreset] = &[
    ModelPreset {
        label: "8B \u{b7} ~4-bit \u{2248} 5 GB",
        weights: ModelWeights::dense(EXAMPLE_SMALL_GB),
        architecture: "llama3-8b",
    },
    ModelPreset {
        label: "8B \u{b7} FP16 16 GB",
        weights: ModelWeights::dense(16.0),
        architecture: "llama3-8b",
    },
    ModelPreset {
        label: "3B \u{b7} FP16 6 GB",
        weights: ModelWeights::dense(6.0),
        architecture: "llama3-3b",
    },
];

/// Large models offered as presets: the course's 70B at about 4 bits, 70B in FP16, 405B in FP8
/// and DeepSeek-R1, a mixture of experts.
pub const LARGE_MODEL_PRESETS: &[ModelPreset] = &[
    ModelPreset {
        label: "70B \u{b7} ~4-bit \u{2248} 40 GB",
        weights: ModelWeights::dense(EXAMPLE_LARGE_GB),
        architecture: "llama3-70b",
    },
    ModelPreset {
        label: "70B \u{b7} FP16 140 GB",
        weights: ModelWeights::dense(140.0),
        architecture: "llama3-70b",
    },
    ModelPreset {
        label: "405B \u{b7} FP8 405 GB",
        weights: ModelWeights::dense(405.0),
        architecture: "llama3-405b",
    },
    ModelPreset {
        label: "DeepSeek-R1 \u{b7} FP8 671 GB, 37 GB active",
        weights: DEEPSEEK_R1,
        architecture: "deepseek-r1",
    },
];

/// Parses memory bandwidth in GB/s, as typed (more than 0, at most 100,000).
pub fn parse_bandwidth_gb_s(text: &str) -> Result<f64, InputError> {
    parse_number(Field::MemoryBandwidth, text, 0.0, true, MAX_BANDWIDTH_GB_S)
}

/// Parses a model's weights as typed: in memory (GB, more than 0, at most 100,000) and read per
/// token (GB). A blank read field means a dense model, which reads all its weights; a typed one
/// must be more than 0 and at most the weights in memory. Errors name `model`'s two fields, so
/// each message sits by its own field.
pub fn parse_model_weights(
    in_memory: &str,
    read_per_token: &str,
    model: Model,
) -> Result<ModelWeights, Vec<InputError>> {
    let memory = parse_number(Field::Weights(model), in_memory, 0.0, true, MAX_WEIGHTS_GB);
    let read = match read_per_token.trim() {
        "" => Ok(None),
        text => {
            let field = Field::ReadPerToken(model);
            parse_number(field, text, 0.0, true, MAX_WEIGHTS_GB).and_then(|read| match memory {
                Ok(memory) if read > memory => Err(InputError::new(
                    field,
                    format!(
                        "Must be at most the weights in memory, {} GB.",
                        plain(memory)
                    ),
                )),
                _ => Ok(Some(read)),
            })
        }
    };
    match (memory, read) {
        (Ok(memory), Ok(read)) => Ok(ModelWeights {
            in_memory_gb: memory,
            read_per_token_gb: read.unwrap_or(memory),
        }),
        (memory, read) => Err([memory.err(), read.err()].into_iter().flatten().collect()),
    }
}

/// Parses the memory of one GPU in GB, as typed. Blank means not given (`None`): with only a
/// bandwidth, there is no memory to check the weights against.
pub fn parse_gpu_memory_gb(text: &str) -> Result<Option<f64>, InputError> {
    match text.trim() {
        "" => Ok(None),
        text => super::memory::parse_gpu_gb(text).map(Some),
    }
}

/// How a model's weights sit in the memory of GPUs of one kind, and the ceiling that follows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// Whole GPUs needed to hold the weights in memory: 1 when they fit on one.
    pub gpus: u64,
    /// Upper bound on decode speed with the weights split over those GPUs, in tokens/s: together
    /// they read `gpus` × bandwidth, so gpus × bandwidth ÷ weights read per token. The same as
    /// the one-GPU ceiling when the weights fit; it ignores the traffic between the GPUs.
    pub split_ceiling_tps: f64,
}

impl Fit {
    /// True when one GPU holds all the weights.
    pub fn fits(self) -> bool {
        self.gpus == 1
    }
}

/// Checks `weights` against GPUs of `gpu_memory_gb` (GB) and `bandwidth_gb_s` (GB/s): how many
/// hold them (from the weights in memory), and the ceiling across that many (from those read).
pub fn fit(weights: ModelWeights, gpu_memory_gb: f64, bandwidth_gb_s: f64) -> Fit {
    let gpus = gpus_needed(weights.in_memory_gb, gpu_memory_gb);
    Fit {
        gpus,
        split_ceiling_tps: gpus as f64 * weights.ceiling_tps(bandwidth_gb_s),
    }
}

/// Upper bound on decode speed for one sequence, in tokens/s: bandwidth (GB/s) ÷ weights read
/// per token (GB).
///
/// Zero weights give infinity and zero bandwidth gives zero; `parse_*` keeps both out.
pub fn decode_ceiling_tps(bandwidth_gb_s: f64, weights_gb: f64) -> f64 {
    bandwidth_gb_s / weights_gb
}

/// Lower bound on the time between tokens, in ms: weights (GB) ÷ bandwidth (GB/s) × 1,000.
pub fn min_ms_per_token(bandwidth_gb_s: f64, weights_gb: f64) -> f64 {
    weights_gb / bandwidth_gb_s * 1000.0
}

/// How many times faster a model of `a_gb` decodes than one of `b_gb` on the same machine
/// (×): ceiling(a) ÷ ceiling(b) = `b_gb ÷ a_gb`. 5 GB against 40 GB gives 8.
pub fn speed_ratio(a_gb: f64, b_gb: f64) -> f64 {
    b_gb / a_gb
}

/// A speed or ratio to three significant figures, with thousands separators and no trailing
/// zeros: `20`, `2.5`, `23.9`, `1,235`, `0.0125`. Speeds are bounds, so more digits would
/// suggest a precision the estimate does not have.
pub fn three_figures(value: f64) -> String {
    if !value.is_finite() || value <= 0.0 {
        return super::format::plain(value);
    }
    let decimals = (2 - value.log10().floor() as i32).clamp(0, 6) as usize;
    super::format::trim_zeros(&super::format::fixed(value, decimals)).to_string()
}

/// One model's two fields as typed: weights in memory, and read per token (blank: all).
pub type ModelText<'a> = (&'a str, &'a str);

/// A good result: both ceilings, how they compare, and whether the weights fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Ceilings {
    /// The bandwidth read, GB/s.
    pub bandwidth_gb_s: f64,
    /// The GPU memory read, GB, if given.
    pub memory_gb: Option<f64>,
    /// Model A's and model B's weights as read.
    pub weights: [ModelWeights; 2],
    /// Model A's ceiling, tokens/s.
    pub tps_a: f64,
    /// Model B's ceiling, tokens/s.
    pub tps_b: f64,
    /// Model A's least time per token, ms.
    pub ms_a: f64,
    /// Model B's least time per token, ms.
    pub ms_b: f64,
    /// How many times faster A's ceiling is than B's (×).
    pub ratio: f64,
    /// The sums a reader can check, A's then B's.
    pub worked: [String; 2],
    /// Whether each model's weights fit the machine's memory, in words.
    pub fit_note: String,
    /// True when a model's weights do not fit.
    pub overflow: bool,
}

/// The decode-ceiling calculator's result for its fields as typed (bandwidth GB/s, memory GB or
/// blank, and each model's weights in memory and read per token), or every field's error.
pub fn ceilings(
    bandwidth: &str,
    memory: &str,
    a: ModelText,
    b: ModelText,
) -> Result<Ceilings, Vec<InputError>> {
    let bw = parse_bandwidth_gb_s(bandwidth);
    let memory = parse_gpu_memory_gb(memory);
    let wa = parse_model_weights(a.0, a.1, Model::A);
    let wb = parse_model_weights(b.0, b.1, Model::B);
    match (bw, memory, wa, wb) {
        (Ok(bw), Ok(memory), Ok(wa), Ok(wb)) => {
            let (fit_note, overflow) = fit_note(bw, memory, [("A", wa), ("B", wb)]);
            Ok(Ceilings {
                bandwidth_gb_s: bw,
                memory_gb: memory,
                weights: [wa, wb],
                tps_a: wa.ceiling_tps(bw),
                tps_b: wb.ceiling_tps(bw),
                ms_a: min_ms_per_token(bw, wa.read_per_token_gb),
                ms_b: min_ms_per_token(bw, wb.read_per_token_gb),
                ratio: speed_ratio(wa.read_per_token_gb, wb.read_per_token_gb),
                worked: [
                    format!("A: {}", model_worked_line(bw, wa)),
                    format!("B: {}", model_worked_line(bw, wb)),
                ],
                fit_note,
                overflow,
            })
        }
        (bw, memory, wa, wb) => Err([bw.err(), memory.err()]
            .into_iter()
            .flatten()
            .chain(wa.err().into_iter().flatten())
            .chain(wb.err().into_iter().flatten())
            .collect()),
    }
}

/// `100 GB/s ÷ 5 GB = 20 tok/s at most → at least 50 ms per token`; a mixture-of-experts model
/// says what it reads of what it holds.
pub fn model_worked_line(bw: f64, w: ModelWeights) -> String {
    let read = if w.is_mixture_of_experts() {
        format!(
            "{} GB read per token (of {} GB in memory)",
            plain(w.read_per_token_gb),
            plain(w.in_memory_gb)
        )
    } else {
        format!("{} GB", plain(w.read_per_token_gb))
    };
    format!(
        "{} GB/s \u{f7} {read} = {} tok/s at most \u{2192} at least {} ms per token",
        plain(bw),
        three_figures(w.ceiling_tps(bw)),
        three_figures(min_ms_per_token(bw, w.read_per_token_gb))
    )
}

/// Whether each model's weights fit in `memory` (GB, if given), in words, and whether any does
/// not. A model that does not fit keeps its ceiling on screen, and the note says it is the
/// ceiling only if the weights fitted, and what the GPUs that could hold them might reach.
fn fit_note(bw: f64, memory: Option<f64>, models: [(&str, ModelWeights); 2]) -> (String, bool) {
    let Some(memory) = memory else {
        return (
            "Memory not given, so these ceilings assume each model's weights fit on the machine. \
             Pick a GPU, or type its memory, to check."
                .into(),
            false,
        );
    };
    let fits = models.map(|(_, w)| fit(w, memory, bw));
    if fits.iter().all(|f| f.fits()) {
        return (
            format!(
                "Both models' weights fit in {} GB of memory.",
                plain(memory)
            ),
            false,
        );
    }
    let sentences: Vec<String> = models
        .iter()
        .zip(fits)
        .map(|((name, w), f)| {
            if f.fits() {
                format!(
                    "Model {name}'s {} GB of weights fit.",
                    plain(w.in_memory_gb)
                )
            } else {
                format!(
                    "Model {name}'s {} GB of weights do not fit in {} GB of memory, so its {} tok/s \
                     is only the ceiling if they did. They need {} GPUs like this one; reading \
                     their shares at once, those could reach up to {} tok/s.",
                    plain(w.in_memory_gb),
                    plain(memory),
                    three_figures(w.ceiling_tps(bw)),
                    f.gpus,
                    three_figures(f.split_ceiling_tps)
                )
            }
        })
        .collect();
    (sentences.join(" "), true)
}

/// How A compares with B, in words: `8× faster`, `2× slower`, `the same speed`.
pub fn comparison(ratio: f64) -> String {
    if (ratio - 1.0).abs() < 1e-9 {
        "1\u{d7}: the same ceiling".into()
    } else if ratio > 1.0 {
        format!("{}\u{d7} faster", three_figures(ratio))
    } else {
        format!("{}\u{d7} slower", three_figures(1.0 / ratio))
    }
}

impl Ceilings {
    /// Model A's ceiling, e.g. `20 tok/s`.
    pub fn tps_a_text(&self) -> String {
        format!("{} tok/s", three_figures(self.tps_a))
    }

    /// Model B's ceiling, e.g. `2.5 tok/s`.
    pub fn tps_b_text(&self) -> String {
        format!("{} tok/s", three_figures(self.tps_b))
    }

    /// A against B in words, e.g. `8× faster`.
    pub fn comparison_text(&self) -> String {
        comparison(self.ratio)
    }

    /// Both least times per token, e.g. `50 / 400 ms`.
    pub fn ms_text(&self) -> String {
        format!(
            "{} / {} ms",
            three_figures(self.ms_a),
            three_figures(self.ms_b)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_show_three_figures() {
        assert_eq!(three_figures(20.0), "20");
        assert_eq!(three_figures(2.5), "2.5");
        assert_eq!(three_figures(23.928_571), "23.9");
        assert_eq!(three_figures(1234.5), "1,235");
        assert_eq!(three_figures(0.012_5), "0.0125");
        assert_eq!(three_figures(8.0), "8");
        assert_eq!(three_figures(99.96), "100");
    }

    #[test]
    fn reproduces_the_why_size_wins_figures() {
        // The course's example machine: 100 GB/s of memory bandwidth.
        let bw = 100.0;
        assert_eq!(decode_ceiling_tps(bw, EXAMPLE_SMALL_GB), 20.0);
        assert_eq!(decode_ceiling_tps(bw, EXAMPLE_LARGE_GB), 2.5);
        assert_eq!(speed_ratio(EXAMPLE_SMALL_GB, EXAMPLE_LARGE_GB), 8.0);
        assert_eq!(min_ms_per_token(bw, EXAMPLE_SMALL_GB), 50.0);
        assert_eq!(min_ms_per_token(bw, EXAMPLE_LARGE_GB), 400.0);
    }

    const FIELDS: Model = Model::B;

    #[test]
    fn parse_helpers_guard_zero_and_name_the_field() {
        assert_eq!(parse_bandwidth_gb_s("3350"), Ok(3350.0));
        assert_eq!(
            parse_model_weights("4.5", "", FIELDS),
            Ok(ModelWeights::dense(4.5))
        );
        let errs = parse_model_weights("0", "", FIELDS).unwrap_err();
        assert_eq!(
            (errs[0].field.name(), errs[0].message.as_str()),
            ("Model B", "Must be more than 0.")
        );
        assert_eq!(
            parse_bandwidth_gb_s("1e6").unwrap_err().field,
            "Memory bandwidth"
        );
        assert_eq!(parse_gpu_memory_gb(" "), Ok(None));
        assert_eq!(parse_gpu_memory_gb("80"), Ok(Some(80.0)));
        assert_eq!(parse_gpu_memory_gb("-1").unwrap_err().field, "GPU memory");
    }

    #[test]
    fn a_blank_read_field_means_a_dense_model() {
        let dense = parse_model_weights("140", "  ", FIELDS).unwrap();
        assert_eq!(dense, ModelWeights::dense(140.0));
        assert!(!dense.is_mixture_of_experts());
        // Typing the whole model again is also dense.
        assert!(!parse_model_weights("140", "140", FIELDS)
            .unwrap()
            .is_mixture_of_experts());
    }

    #[test]
    fn the_read_field_cannot_exceed_memory_and_each_error_is_named() {
        let errs = parse_model_weights("40", "41", FIELDS).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "Model B per token");
        assert_eq!(
            errs[0].message,
            "Must be at most the weights in memory, 40 GB."
        );
        let errs = parse_model_weights("", "0", FIELDS).unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, ["Model B", "Model B per token"]);
        // With memory unreadable, a sensible read figure is not blamed.
        let errs = parse_model_weights("x", "37", FIELDS).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "Model B");
    }

    #[test]
    fn deepseek_r1_is_671b_in_all_and_37b_active_in_fp8() {
        use crate::logic::memory::{weight_memory_gb, Precision};
        assert_eq!(
            DEEPSEEK_R1.in_memory_gb,
            weight_memory_gb(671.0, Precision::Fp8)
        );
        assert_eq!(
            DEEPSEEK_R1.read_per_token_gb,
            weight_memory_gb(37.0, Precision::Fp8)
        );
        assert!(DEEPSEEK_R1.is_mixture_of_experts());
        let preset = LARGE_MODEL_PRESETS
            .iter()
            .find(|p| p.label.starts_with("DeepSeek-R1"))
            .map(|p| p.weights);
        assert_eq!(preset, Some(DEEPSEEK_R1));
        // Presets come back unchanged through the fields they fill (the read field left blank
        // for a dense model).
        for p in SMALL_MODEL_PRESETS.iter().chain(LARGE_MODEL_PRESETS) {
            let read = if p.weights.is_mixture_of_experts() {
                plain(p.weights.read_per_token_gb)
            } else {
                String::new()
            };
            let typed = parse_model_weights(
                &plain(p.weights.in_memory_gb).replace(',', ""),
                &read,
                FIELDS,
            );
            assert_eq!(typed, Ok(p.weights), "{}", p.label);
            assert!(
                p.label
                    .contains(&format!("{} GB", plain(p.weights.in_memory_gb))),
                "{}",
                p.label
            );
        }
    }

    #[test]
    fn an_moe_model_is_bound_by_its_active_weights_not_all_of_them() {
        // DeepSeek-R1 in FP8 on an H100's 3,350 GB/s: 37 GB read per token, not 671.
        let h100 = crate::logic::gpus::preset("h100-80").unwrap();
        let tps = DEEPSEEK_R1.ceiling_tps(h100.bandwidth_gb_s);
        assert_eq!(three_figures(tps), "90.5");
        assert_eq!(tps, decode_ceiling_tps(3350.0, 37.0));
        let if_dense = ModelWeights::dense(671.0).ceiling_tps(h100.bandwidth_gb_s);
        assert_eq!(three_figures(if_dense), "4.99");
        assert_eq!(three_figures(speed_ratio(37.0, 671.0)), "18.1");
    }

    #[test]
    fn fit_counts_gpus_from_memory_and_the_split_ceiling_from_reads() {
        // 140 GB on one 80 GB H100 does not fit: 2 GPUs, which together read twice as fast.
        let f = fit(ModelWeights::dense(140.0), 80.0, 3350.0);
        assert!(!f.fits());
        assert_eq!(f.gpus, 2);
        assert_eq!(
            three_figures(ModelWeights::dense(140.0).ceiling_tps(3350.0)),
            "23.9"
        );
        assert_eq!(three_figures(f.split_ceiling_tps), "47.9");
        // 40 GB fits, and the ceiling is the one-GPU ceiling.
        let f = fit(ModelWeights::dense(40.0), 80.0, 100.0);
        assert!(f.fits());
        assert_eq!(f.split_ceiling_tps, 2.5);
        // R1 needs 9 GPUs of 80 GB to hold, whatever it reads per token.
        let f = fit(DEEPSEEK_R1, 80.0, 3350.0);
        assert_eq!(f.gpus, 9);
        assert_eq!(three_figures(f.split_ceiling_tps), "815");
        assert!(fit(DEEPSEEK_R1, 1000.0, 3350.0).fits());
    }

    proptest::proptest! {
        #[test]
        fn ceiling_rises_with_bandwidth_and_falls_with_size(
            bw in 0.001f64..100_000.0,
            gb in 0.001f64..100_000.0,
            factor in 1.0f64..100.0,
        ) {
            let tps = decode_ceiling_tps(bw, gb);
            proptest::prop_assert!(tps.is_finite() && tps > 0.0);
            proptest::prop_assert!(decode_ceiling_tps(bw * factor, gb) >= tps);
            proptest::prop_assert!(decode_ceiling_tps(bw, gb * factor) <= tps);
            // The ratio of ceilings is the inverse ratio of sizes, whatever the bandwidth.
            let ratio = decode_ceiling_tps(bw, gb) / decode_ceiling_tps(bw, gb * factor);
            proptest::prop_assert!((ratio - speed_ratio(gb, gb * factor)).abs() <= 1e-9 * ratio);
            proptest::prop_assert!((tps * min_ms_per_token(bw, gb) - 1000.0).abs() < 1e-6);
        }
    }
}

#[cfg(test)]
mod calculator_tests {
    use super::*;

    /// The widget's inputs with dense models and no memory given.
    fn dense(bw: &str, a: &str, b: &str) -> Result<Ceilings, Vec<InputError>> {
        ceilings(bw, "", (a, ""), (b, ""))
    }

    #[test]
    fn the_lesson_example_gives_20_against_2_5_and_8x() {
        let c = dense("100", "5", "40").unwrap();
        assert_eq!(three_figures(c.tps_a), "20");
        assert_eq!(three_figures(c.tps_b), "2.5");
        assert_eq!(comparison(c.ratio), "8\u{d7} faster");
        assert_eq!(
            c.worked[0],
            "A: 100 GB/s \u{f7} 5 GB = 20 tok/s at most \u{2192} at least 50 ms per token"
        );
        assert_eq!(
            comparison(dense("100", "40", "5").unwrap().ratio),
            "8\u{d7} slower"
        );
        assert_eq!(comparison(1.0), "1\u{d7}: the same ceiling");
        // With no memory given, the note says the fit is assumed, not checked.
        assert!(!c.overflow);
        assert!(c.fit_note.starts_with("Memory not given"), "{}", c.fit_note);
    }

    #[test]
    fn every_bad_field_is_named() {
        let errs = ceilings("0", "-1", ("abc", "0"), ("", "")).unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "Memory bandwidth",
                "GPU memory",
                "Model A",
                "Model A per token",
                "Model B"
            ]
        );
        assert_eq!(errs[0].message, "Must be more than 0.");
        let errs = ceilings("100", "", ("5", ""), ("40", "50")).unwrap_err();
        assert_eq!(errs[0].field, "Model B per token");
    }

    #[test]
    fn deepseek_r1_reads_37_gb_per_token_on_an_h100() {
        let c = ceilings("3350", "", ("5", ""), ("671", "37")).unwrap();
        assert_eq!(three_figures(c.tps_b), "90.5");
        assert_eq!(three_figures(c.ms_b), "11");
        assert_eq!(comparison(c.ratio), "7.4\u{d7} faster");
        assert_eq!(
            c.worked[1],
            "B: 3,350 GB/s \u{f7} 37 GB read per token (of 671 GB in memory) = 90.5 tok/s at most \
             \u{2192} at least 11 ms per token"
        );
    }

    #[test]
    fn weights_that_do_not_fit_the_gpu_are_named_with_the_gpus_they_need() {
        // 140 GB on one 80 GB H100: the ceiling stays, and the note says what it means.
        let c = ceilings("3350", "80", ("5", ""), ("140", "")).unwrap();
        assert_eq!(three_figures(c.tps_b), "23.9");
        assert!(c.overflow);
        assert_eq!(
            c.fit_note,
            "Model A's 5 GB of weights fit. Model B's 140 GB of weights do not fit in 80 GB of \
             memory, so its 23.9 tok/s is only the ceiling if they did. They need 2 GPUs like \
             this one; reading their shares at once, those could reach up to 47.9 tok/s."
        );
        // R1 on an H100: 9 GPUs to hold 671 GB, whatever it reads per token.
        let c = ceilings("3350", "80", ("5", ""), ("671", "37")).unwrap();
        assert!(c.fit_note.contains("They need 9 GPUs"), "{}", c.fit_note);
        // Both fit: one calm sentence.
        let c = ceilings("3350", "80", ("5", ""), ("40", "")).unwrap();
        assert!(!c.overflow);
        assert_eq!(c.fit_note, "Both models' weights fit in 80 GB of memory.");
        // A machine that holds R1 whole.
        let c = ceilings("8000", "1000", ("5", ""), ("671", "37")).unwrap();
        assert!(!c.overflow);
    }

    proptest::proptest! {
        #[test]
        fn valid_inputs_never_show_nan(
            bw in 0.001f64..100_000.0,
            a in 0.001f64..100_000.0,
            b in 0.001f64..100_000.0,
            active in 0.001f64..=1.0,
            memory in proptest::option::of(0.001f64..100_000.0),
        ) {
            let memory = memory.map(|m| m.to_string()).unwrap_or_default();
            let b_read = (b * active).min(b).to_string();
            let c = ceilings(&bw.to_string(), &memory, (&a.to_string(), ""), (&b.to_string(), &b_read)).unwrap();
            for v in [c.tps_a, c.tps_b, c.ms_a, c.ms_b, c.ratio] {
                proptest::prop_assert!(v.is_finite() && v > 0.0);
            }
            let text = format!("{} {} {} {}", three_figures(c.tps_a), comparison(c.ratio), c.worked.join(" "), c.fit_note);
            let clean = !text.contains("NaN") && !text.contains('\u{221e}');
            proptest::prop_assert!(clean, "{}", text);
        }
    }
}

#[cfg(test)]
pub(crate) mod fuzz_tests {
    use super::*;
    use crate::logic::fuzz::{any_text, in_range, unreadable, unreadable_figure};
    use proptest::prelude::*;

    /// Found by the test below: weights of 1e-300 GB gave a 300-digit ceiling.
    #[test]
    fn vanishing_weights_are_refused() {
        let e = ceilings("100000", "", ("1e-300", ""), ("40", "")).unwrap_err();
        assert_eq!(e[0].message, "Must be at least 0.001.");
        let c = ceilings("100000", "", ("0.001", ""), ("100000", "")).unwrap();
        assert_eq!(c.tps_a_text(), "100,000,000 tok/s");
        assert_eq!(c.comparison_text(), "100,000,000\u{d7} faster");
    }

    /// A model's two fields: weights in memory, and read per token (blank or typed).
    pub fn model_text() -> impl Strategy<Value = (String, String)> {
        (
            in_range(0.0, MAX_WEIGHTS_GB),
            proptest::option::of(in_range(0.0, MAX_WEIGHTS_GB)),
        )
            .prop_map(|(memory, read)| (memory, read.unwrap_or_default()))
    }

    proptest! {
        #[test]
        fn field_parsers_never_panic_and_keep_their_range(
            a in any_text(),
            b in any_text(),
        ) {
            match parse_bandwidth_gb_s(&a) {
                Ok(x) => prop_assert!(x > 0.0 && x <= MAX_BANDWIDTH_GB_S),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            match parse_gpu_memory_gb(&a) {
                Ok(Some(x)) => prop_assert!(x > 0.0 && x.is_finite()),
                Ok(None) => prop_assert!(a.trim().is_empty()),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            match parse_model_weights(&a, &b, Model::A) {
                Ok(w) => prop_assert!(
                    w.read_per_token_gb > 0.0 && w.read_per_token_gb <= w.in_memory_gb
                ),
                Err(errors) => prop_assert!(!errors.is_empty()),
            }
        }

        #[test]
        fn every_shown_figure_is_readable(
            bandwidth in in_range(0.0, MAX_BANDWIDTH_GB_S),
            memory in proptest::option::of(in_range(0.0, super::super::memory::MAX_GPU_GB)),
            a in model_text(),
            b in model_text(),
        ) {
            let memory = memory.unwrap_or_default();
            match ceilings(&bandwidth, &memory, (&a.0, &a.1), (&b.0, &b.1)) {
                Ok(c) => {
                    for shown in [c.tps_a_text(), c.tps_b_text(), c.comparison_text(), c.ms_text()] {
                        prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                    }
                    for line in c.worked.iter().chain([&c.fit_note]) {
                        prop_assert!(unreadable(line).is_none(), "{:?}", unreadable(line));
                    }
                }
                Err(errors) => prop_assert!(errors.iter().all(|e| !e.message.is_empty())),
            }
        }
    }
}
