//! Weight memory and GPU count: how many bytes a model's weights take, and how many GPUs hold them.
//!
//! Weights only: the KV cache, activations and runtime overhead come on top; the widget offers
//! them as an option (see `kv_cache`).

use super::format::{fixed, plain};
use super::kv_cache::{self, KvCacheInputs};
use super::{parse_number, InputError};

super::input::form_fields! {
    Memory:
    /// The weight-memory calculator's fields.
    pub enum Field {
        Parameters => "Parameters",
        Precision => "Precision",
        BitsPerWeight => "Bits per weight",
        GpuMemory => "GPU memory",
        KvPrecision => "KV-cache precision",
    }
}

/// How each weight is stored. Bytes per parameter follow from the bit width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Precision {
    /// 32-bit float: 4 bytes per parameter.
    Fp32,
    /// 16-bit float: 2 bytes per parameter.
    Fp16,
    /// bfloat16: 2 bytes per parameter.
    Bf16,
    /// 8-bit float: 1 byte per parameter.
    Fp8,
    /// 8-bit integer: 1 byte per parameter.
    Int8,
    /// 4-bit integer: half a byte per parameter.
    Int4,
    /// Any average bits per weight, e.g. GGUF Q4_K_M at about 4.85.
    Bits(f64),
}

impl Precision {
    /// The fixed precisions, in the order a menu lists them, with their stable ids.
    pub const NAMED: [(&'static str, Precision); 6] = [
        ("fp32", Precision::Fp32),
        ("fp16", Precision::Fp16),
        ("bf16", Precision::Bf16),
        ("fp8", Precision::Fp8),
        ("int8", Precision::Int8),
        ("int4", Precision::Int4),
    ];

    /// Bytes each parameter takes (B/parameter).
    pub fn bytes_per_param(self) -> f64 {
        match self {
            Precision::Fp32 => 4.0,
            Precision::Fp16 | Precision::Bf16 => 2.0,
            Precision::Fp8 | Precision::Int8 => 1.0,
            Precision::Int4 => 0.5,
            Precision::Bits(bits) => bits / 8.0,
        }
    }

    /// The stable id used in menus, URLs and lesson directives (`custom` for [`Precision::Bits`]).
    pub fn id(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Fp16 => "fp16",
            Precision::Bf16 => "bf16",
            Precision::Fp8 => "fp8",
            Precision::Int8 => "int8",
            Precision::Int4 => "int4",
            Precision::Bits(_) => "custom",
        }
    }

    /// The name a reader knows: `FP16`, or `4.85-bit` for a custom width.
    pub fn label(self) -> String {
        match self {
            Precision::Bits(bits) => format!("{}-bit", super::format::plain(bits)),
            named => named.id().to_ascii_uppercase(),
        }
    }

    /// Looks up a named precision by id (`fp16`); `None` for unknown ids and for `custom`.
    pub fn from_id(id: &str) -> Option<Precision> {
        Self::NAMED
            .iter()
            .find(|(name, _)| *name == id)
            .map(|(_, p)| *p)
    }
}

/// Largest bits per weight accepted for a custom precision (FP64).
pub const MAX_BITS: f64 = 64.0;
/// Largest model accepted, in billions of parameters (100 trillion).
pub const MAX_PARAMS_B: f64 = 100_000.0;
/// Largest GPU memory accepted, in GB.
pub const MAX_GPU_GB: f64 = 100_000.0;

/// Most GPUs the calculator counts (a trillion): past that a count is no figure to act on, and
/// soon no whole number a computer holds.
pub const MAX_GPUS: f64 = 1e12;

/// The refusal of a model that needs more than [`MAX_GPUS`], said by the GPU memory field.
fn too_many_gpus() -> InputError {
    InputError::new(
        Field::GpuMemory,
        format!(
            "This would take more than {} GPUs of this size; enter more memory per GPU, or a \
             smaller model or context.",
            plain(MAX_GPUS)
        ),
    )
}

/// Parses parameters in billions, as typed.
pub fn parse_params_b(text: &str) -> Result<f64, InputError> {
    parse_number(Field::Parameters, text, 0.0, true, MAX_PARAMS_B)
}

/// Parses a custom bits-per-weight value, as typed.
pub fn parse_bits(text: &str) -> Result<f64, InputError> {
    parse_number(Field::BitsPerWeight, text, 0.0, true, MAX_BITS)
}

/// Parses GPU memory in GB, as typed.
pub fn parse_gpu_gb(text: &str) -> Result<f64, InputError> {
    parse_number(Field::GpuMemory, text, 0.0, true, MAX_GPU_GB)
}

/// Memory of the weights alone, in GB (10⁹ bytes): billions of parameters × bytes per parameter.
pub fn weight_memory_gb(params_b: f64, precision: Precision) -> f64 {
    // params_b × 10⁹ parameters × bytes ÷ 10⁹ bytes per GB: the powers of ten cancel.
    params_b * precision.bytes_per_param()
}

/// How much of one GPU the weights fill: weight GB ÷ GPU GB (1.75 means one and three quarters).
pub fn gpu_fraction(weight_gb: f64, gpu_gb: f64) -> f64 {
    weight_gb / gpu_gb
}

/// Whole GPUs needed to hold `weight_gb`: the fraction rounded up, at least 1.
///
/// The fraction is first rounded to 9 decimals so that binary noise (e.g. 2.0000000001) does
/// not cost a whole GPU.
pub fn gpus_needed(weight_gb: f64, gpu_gb: f64) -> u64 {
    let fraction = (gpu_fraction(weight_gb, gpu_gb) * 1e9).round() / 1e9;
    (fraction.ceil() as u64).max(1)
}

/// The sum a reader can check, e.g. `70 × 10⁹ × 2 B = 140 GB → 140 / 80 = 1.75 GPUs → 2`.
pub fn worked_line(params_b: f64, precision: Precision, gpu_gb: f64) -> String {
    use super::format::{fixed, plain};
    let gb = weight_memory_gb(params_b, precision);
    format!(
        "{} \u{d7} 10\u{2079} \u{d7} {} B = {} GB \u{2192} {} / {} = {} GPUs \u{2192} {}",
        plain(params_b),
        plain(precision.bytes_per_param()),
        plain(gb),
        plain(gb),
        plain(gpu_gb),
        fixed(gpu_fraction(gb, gpu_gb), 2),
        gpus_needed(gb, gpu_gb)
    )
}

/// The runtime allowance as typed: KV-cache shape and load, and an overhead percentage.
#[derive(Debug, Clone, PartialEq)]
pub struct RuntimeText {
    /// Transformer layers.
    pub layers: String,
    /// KV heads per layer.
    pub kv_heads: String,
    /// Elements per head vector.
    pub head_dim: String,
    /// Tokens held per sequence.
    pub context: String,
    /// Sequences served at once.
    pub batch: String,
    /// Precision id of the cache (`fp16`, …).
    pub kv_precision: String,
    /// Activations and runtime overhead, percent.
    pub overhead: String,
}

/// The runtime allowance, checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Runtime {
    /// The KV cache's shape and load.
    pub kv: KvCacheInputs,
    /// Activations and runtime overhead, percent of weights + KV cache.
    pub overhead_percent: f64,
}

/// Reads a precision id as chosen (or as a link carried it): a named precision, or a message
/// naming `field` that says what is wrong.
pub fn parse_precision(field: Field, id: &str) -> Result<Precision, InputError> {
    Precision::from_id(id.trim()).ok_or_else(|| {
        InputError::new(
            field,
            format!(
                "\u{201c}{}\u{201d} is not a precision this calculator knows: pick one from the \
                 list.",
                id.trim()
            ),
        )
    })
}

fn runtime(text: &RuntimeText) -> Result<Runtime, Vec<InputError>> {
    let layers = kv_cache::parse_layers(&text.layers);
    let kv_heads = kv_cache::parse_kv_heads(&text.kv_heads);
    let head_dim = kv_cache::parse_head_dim(&text.head_dim);
    let context = kv_cache::parse_context_tokens(&text.context);
    let batch = kv_cache::parse_batch(&text.batch);
    let overhead = kv_cache::parse_overhead_percent(&text.overhead);
    let kv_precision = parse_precision(Field::KvPrecision, &text.kv_precision);
    match (
        layers,
        kv_heads,
        head_dim,
        context,
        batch,
        kv_precision,
        overhead,
    ) {
        (
            Ok(layers),
            Ok(kv_heads),
            Ok(head_dim),
            Ok(context_tokens),
            Ok(batch),
            Ok(kv_precision),
            Ok(overhead),
        ) => Ok(Runtime {
            kv: KvCacheInputs {
                layers,
                kv_heads,
                head_dim,
                context_tokens,
                batch,
                bytes_per_element: kv_precision.bytes_per_param(),
            },
            overhead_percent: overhead,
        }),
        (a, b, c, d, e, f, g) => Err([
            a.err(),
            b.err(),
            c.err(),
            d.err(),
            e.err(),
            f.err(),
            g.err(),
        ]
        .into_iter()
        .flatten()
        .collect()),
    }
}

/// A good result of the calculator.
#[derive(Debug, Clone, PartialEq)]
pub struct Sizing {
    /// Parameters, in billions.
    pub params_b: f64,
    /// How each weight is stored.
    pub precision: Precision,
    /// Memory of the weights, GB.
    pub weight_gb: f64,
    /// KV cache, GB, when the runtime allowance is on.
    pub kv_gb: Option<f64>,
    /// What must fit, GB: the weights, or weights + KV cache + overhead.
    pub total_gb: f64,
    /// How much of one GPU that fills (1.75: one and three quarters).
    pub fraction: f64,
    /// Whole GPUs needed.
    pub gpus: u64,
    /// Memory of one GPU, GB.
    pub gpu_gb: f64,
    /// The sums a reader can check, one line each.
    pub worked: Vec<String>,
}

#[cfg(test)]
/// [`size_with`] without the runtime allowance.
pub fn size(
    params: &str,
    precision_id: &str,
    bits: &str,
    gpu: &str,
) -> Result<Sizing, Vec<InputError>> {
    size_with(params, precision_id, bits, gpu, None)
}

/// The precision menu's last choice: bits per weight typed by hand.
pub const CUSTOM: &str = "custom";

/// The weight-memory calculator's result for its fields as typed (parameters in billions, a
/// precision id or `custom` with bits per weight, GPU memory in GB, and the runtime allowance
/// when it is on), or every field's error.
pub fn size_with(
    params: &str,
    precision_id: &str,
    bits: &str,
    gpu: &str,
    allowance: Option<&RuntimeText>,
) -> Result<Sizing, Vec<InputError>> {
    let params_b = parse_params_b(params);
    let precision = match precision_id.trim() {
        CUSTOM => parse_bits(bits).map(Precision::Bits),
        id => parse_precision(Field::Precision, id),
    };
    let gpu_gb = parse_gpu_gb(gpu);
    let rt = allowance.map(runtime).transpose();
    match (params_b, precision, gpu_gb, rt) {
        (Ok(params_b), Ok(precision), Ok(gpu_gb), Ok(rt)) => {
            let weight_gb = weight_memory_gb(params_b, precision);
            let kv_gb = rt.map(|r| kv_cache::kv_cache_gb(&r.kv));
            let total_gb = match rt {
                Some(r) => {
                    kv_cache::runtime_total_gb(weight_gb, kv_gb.unwrap_or(0.0), r.overhead_percent)
                }
                None => weight_gb,
            };
            let fraction = gpu_fraction(total_gb, gpu_gb);
            if fraction > MAX_GPUS {
                return Err(vec![too_many_gpus()]);
            }
            let gpus = gpus_needed(total_gb, gpu_gb);
            let worked = match rt {
                None => vec![worked_line(params_b, precision, gpu_gb)],
                Some(r) => vec![
                    format!(
                        "{} \u{d7} 10\u{2079} \u{d7} {} B = {} GB of weights",
                        plain(params_b),
                        plain(precision.bytes_per_param()),
                        plain(weight_gb)
                    ),
                    format!("KV cache: {}", kv_cache::worked_line(&r.kv)),
                    format!(
                        "({} + {}) GB \u{d7} {} = {} GB \u{2192} {} / {} = {} GPUs \u{2192} {}",
                        plain(weight_gb),
                        plain(kv_gb.unwrap_or(0.0)),
                        plain(1.0 + r.overhead_percent / 100.0),
                        plain(total_gb),
                        plain(total_gb),
                        plain(gpu_gb),
                        fixed(fraction, 2),
                        gpus
                    ),
                ],
            };
            Ok(Sizing {
                params_b,
                precision,
                weight_gb,
                kv_gb,
                total_gb,
                fraction,
                gpus,
                gpu_gb,
                worked,
            })
        }
        (a, b, c, d) => Err([a.err(), b.err(), c.err()]
            .into_iter()
            .flatten()
            .chain(d.err().into_iter().flatten())
            .collect()),
    }
}

impl Sizing {
    /// The chart in words, for screen readers and as its caption.
    pub fn chart_description(&self) -> String {
        let s = self;
        let fits_b = s.gpu_gb / s.precision.bytes_per_param();
        let mut text = format!(
            "At {} ({} B per parameter), weight memory grows in step with model size. One {} GB GPU \
             holds the weights of a model up to {}B parameters. This model, {}B, needs {} GB of weights",
            s.precision.label(),
            plain(s.precision.bytes_per_param()),
            plain(s.gpu_gb),
            plain(fits_b),
            plain(s.params_b),
            plain(s.weight_gb)
        );
        if s.kv_gb.is_some() {
            text.push_str(&format!(
                " and {} GB with the runtime allowance",
                plain(s.total_gb)
            ));
        }
        text.push('.');
        text
    }

    /// The weights, e.g. `140 GB`.
    pub fn weight_text(&self) -> String {
        format!("{} GB", plain(self.weight_gb))
    }

    /// The KV cache, e.g. `2.684 GB` (`0 GB` without the runtime allowance).
    pub fn kv_text(&self) -> String {
        format!("{} GB", plain(self.kv_gb.unwrap_or(0.0)))
    }

    /// What must fit, e.g. `156.953 GB`.
    pub fn total_text(&self) -> String {
        format!("{} GB", plain(self.total_gb))
    }

    /// The share of one GPU, e.g. `1.75 of one 80 GB GPU`.
    pub fn fraction_text(&self) -> String {
        format!(
            "{} of one {} GB GPU",
            fixed(self.fraction, 2),
            plain(self.gpu_gb)
        )
    }

    /// Whole GPUs, e.g. `1 GPU`, `2 GPUs`.
    pub fn gpus_text(&self) -> String {
        format!("{} GPU{}", self.gpus, if self.gpus == 1 { "" } else { "s" })
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::{fixed, plain};
    use super::*;

    /// The table of the course plan: FP16 weights on 80 GB GPUs.
    #[test]
    fn reproduces_the_example_1_table() {
        let rows = [
            (3.0, "6", "0.08", 1),
            (8.0, "16", "0.20", 1),
            (70.0, "140", "1.75", 2),
            (671.0, "1,342", "16.78", 17),
        ];
        for (params, gb, fraction, gpus) in rows {
            let w = weight_memory_gb(params, Precision::Fp16);
            assert_eq!(plain(w), gb, "{params}B");
            assert_eq!(fixed(gpu_fraction(w, 80.0), 2), fraction, "{params}B");
            assert_eq!(gpus_needed(w, 80.0), gpus, "{params}B");
        }
    }

    #[test]
    fn bytes_per_parameter_of_each_precision() {
        let bytes: Vec<f64> = Precision::NAMED
            .iter()
            .map(|(_, p)| p.bytes_per_param())
            .collect();
        assert_eq!(bytes, [4.0, 2.0, 2.0, 1.0, 1.0, 0.5]);
        assert!((Precision::Bits(4.85).bytes_per_param() - 0.60625).abs() < 1e-12);
        assert_eq!(Precision::from_id("bf16"), Some(Precision::Bf16));
        assert_eq!(Precision::from_id("custom"), None);
        assert_eq!(Precision::Bits(4.85).label(), "4.85-bit");
        assert_eq!(Precision::Fp16.label(), "FP16");
    }

    #[test]
    fn worked_line_shows_the_arithmetic() {
        assert_eq!(
            worked_line(70.0, Precision::Fp16, 80.0),
            "70 \u{d7} 10\u{2079} \u{d7} 2 B = 140 GB \u{2192} 140 / 80 = 1.75 GPUs \u{2192} 2"
        );
    }

    #[test]
    fn exact_fit_needs_no_extra_gpu() {
        assert_eq!(gpus_needed(160.0, 80.0), 2);
        assert_eq!(gpus_needed(0.1 + 0.2, 0.3), 1);
    }

    proptest::proptest! {
        #[test]
        fn memory_and_gpus_are_monotonic_and_sane(
            params in 0.001f64..100_000.0,
            more in 0.0f64..1000.0,
            bits in 0.5f64..64.0,
            gpu in 1.0f64..1000.0,
        ) {
            let p = Precision::Bits(bits);
            let w = weight_memory_gb(params, p);
            let w_more = weight_memory_gb(params + more, p);
            proptest::prop_assert!(w.is_finite() && w > 0.0);
            proptest::prop_assert!(w_more >= w);
            proptest::prop_assert!(weight_memory_gb(params, Precision::Bits(bits + 1.0)) > w);
            let f = gpu_fraction(w, gpu);
            proptest::prop_assert!(!f.is_nan());
            proptest::prop_assert!(gpus_needed(w, gpu) as f64 >= f - 1e-9);
            proptest::prop_assert!(gpus_needed(w_more, gpu) >= gpus_needed(w, gpu));
        }
    }
}

#[cfg(test)]
mod calculator_tests {
    use super::*;

    fn llama_70b_at_8k(overhead: &str) -> RuntimeText {
        RuntimeText {
            layers: "80".into(),
            kv_heads: "8".into(),
            head_dim: "128".into(),
            context: "8192".into(),
            batch: "1".into(),
            kv_precision: "fp16".into(),
            overhead: overhead.into(),
        }
    }

    #[test]
    fn the_example_1_table_comes_out_of_the_defaults() {
        for (params, gb, fraction, gpus) in [
            ("3", "6", "0.08", 1),
            ("8", "16", "0.20", 1),
            ("70", "140", "1.75", 2),
            ("671", "1,342", "16.78", 17),
        ] {
            let s = size(params, "fp16", "4.85", "80").unwrap();
            assert_eq!(plain(s.weight_gb), gb);
            assert_eq!(fixed(s.fraction, 2), fraction);
            assert_eq!(s.gpus, gpus);
        }
    }

    #[test]
    fn runtime_allowance_adds_kv_cache_and_overhead() {
        let rt = llama_70b_at_8k("10");
        let s = size_with("70", "fp16", "", "80", Some(&rt)).unwrap();
        assert_eq!(s.weight_gb, 140.0);
        assert_eq!(s.kv_gb, Some(2.68435456));
        assert!((s.total_gb - (140.0 + 2.68435456) * 1.1).abs() < 1e-9);
        assert_eq!(s.gpus, 2);
        assert_eq!(s.worked.len(), 3);
        assert!(
            s.worked[2].ends_with("= 1.96 GPUs \u{2192} 2"),
            "{}",
            s.worked[2]
        );
        // 128K tokens for a batch of 8 needs far more than the weights.
        let long = RuntimeText {
            context: "131072".into(),
            batch: "8".into(),
            ..rt.clone()
        };
        let s = size_with("70", "fp16", "", "80", Some(&long)).unwrap();
        assert!(s.kv_gb.unwrap() > 300.0 && s.gpus >= 6, "{s:?}");
        let bad = RuntimeText {
            kv_heads: "2.5".into(),
            overhead: "-1".into(),
            ..rt
        };
        let errs = size_with("70", "fp16", "", "80", Some(&bad)).unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, ["KV heads", "Runtime overhead"]);
    }

    proptest::proptest! {
        #[test]
        fn any_valid_input_gives_finite_sane_numbers(
            params in 0.001f64..100_000.0,
            bits in 0.5f64..64.0,
            gpu in 1.0f64..100_000.0,
            context in 1u64..1_000_000,
            batch in 1u64..1000,
            overhead in 0.0f64..1000.0,
        ) {
            let rt = RuntimeText {
                context: context.to_string(),
                batch: batch.to_string(),
                overhead: overhead.to_string(),
                ..llama_70b_at_8k("0")
            };
            let plain_s = size_with(&params.to_string(), "custom", &bits.to_string(), &gpu.to_string(), None).unwrap();
            let s = size_with(&params.to_string(), "custom", &bits.to_string(), &gpu.to_string(), Some(&rt)).unwrap();
            for v in [s.weight_gb, s.total_gb, s.fraction] {
                proptest::prop_assert!(v.is_finite() && v > 0.0);
            }
            proptest::prop_assert!(s.total_gb >= plain_s.total_gb);
            proptest::prop_assert!(s.gpus >= plain_s.gpus);
            proptest::prop_assert!(s.gpus as f64 >= s.fraction - 1e-9);
            proptest::prop_assert!(!s.chart_description().contains("NaN"));
        }
    }

    #[test]
    fn sizes_the_lesson_example_and_collects_every_error() {
        let s = size("70", "fp16", "", "80").unwrap();
        assert_eq!((s.weight_gb, s.gpus), (140.0, 2));
        let s = size("8", "custom", "4.85", "24").unwrap();
        assert!((s.weight_gb - 4.85).abs() < 1e-9);
        let errs = size("", "custom", "x", "-1").unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, ["Parameters", "Bits per weight", "GPU memory"]);
    }

    /// A precision no menu offers (from an edited link) is said beside its menu, not read as
    /// custom bits or FP16.
    #[test]
    fn an_unknown_precision_is_named_not_guessed() {
        let errs = size("70", "fp12", "4.85", "80").unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, Field::Precision);
        assert_eq!(
            errs[0].message,
            "\u{201c}fp12\u{201d} is not a precision this calculator knows: pick one from the list."
        );
        assert!(size("70", " int4 ", "", "80").is_ok());
        let rt = RuntimeText {
            kv_precision: "fp7".into(),
            ..llama_70b_at_8k("10")
        };
        let errs = size_with("70", "fp16", "", "80", Some(&rt)).unwrap_err();
        let fields: Vec<_> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, [crate::logic::FormField::from(Field::KvPrecision)]);
        let rt = RuntimeText {
            kv_precision: CUSTOM.into(),
            ..rt
        };
        assert!(size_with("70", "fp16", "", "80", Some(&rt)).is_err());
    }
}

#[cfg(test)]
mod fuzz_tests {
    use super::*;
    use crate::logic::fuzz::{any_text, in_range, unreadable, unreadable_figure};
    use proptest::prelude::*;

    /// Found by the test below: a GPU of 1e-300 GB gave a 300-digit share and a saturated
    /// count (18446744073709551615 GPUs); such a GPU is now refused, and so is a model that
    /// would need more than a trillion GPUs.
    #[test]
    fn absurd_sizes_are_refused_with_a_message() {
        let e = size("70", "fp16", "", "1e-300").unwrap_err();
        assert_eq!(e[0].message, "Must be at least 0.001.");
        let rt = RuntimeText {
            layers: "1000".into(),
            kv_heads: "1024".into(),
            head_dim: "4096".into(),
            context: "100000000".into(),
            batch: "100000".into(),
            kv_precision: "fp32".into(),
            overhead: "1000".into(),
        };
        let e = size_with("70", "fp16", "", "0.001", Some(&rt)).unwrap_err();
        assert_eq!(e[0].field, "GPU memory");
        assert!(e[0]
            .message
            .starts_with("This would take more than 1,000,000,000,000 GPUs"));
        // The same runtime on big GPUs is a figure, in e-notation past 15 digits.
        let s = size_with("70", "fp16", "", "100000", Some(&rt)).unwrap();
        assert_eq!(s.kv_text(), "335,544,320,000,000 GB");
        assert_eq!(s.total_text(), "3.69e15 GB");
    }

    fn runtime_text() -> impl Strategy<Value = RuntimeText> {
        (
            in_range(1.0, 1000.0),
            in_range(1.0, 1000.0),
            in_range(1.0, 100_000.0),
            in_range(1.0, 100_000_000.0),
            in_range(1.0, 100_000.0),
            proptest::sample::select(vec!["fp32", "fp16", "int4", "custom", "fp12", ""]),
            in_range(0.0, 1000.0),
        )
            .prop_map(
                |(layers, kv_heads, head_dim, context, batch, p, overhead)| {
                    let whole = |t: String| {
                        t.parse::<f64>()
                            .map(|x| format!("{}", x.round().max(1.0)))
                            .unwrap_or(t)
                    };
                    RuntimeText {
                        layers: whole(layers),
                        kv_heads: whole(kv_heads),
                        head_dim: whole(head_dim),
                        context: whole(context),
                        batch: whole(batch),
                        kv_precision: p.into(),
                        overhead,
                    }
                },
            )
    }

    proptest! {
        #[test]
        fn field_parsers_never_panic_and_keep_their_range(text in any_text()) {
            for (parse, max) in [
                (parse_params_b as fn(&str) -> Result<f64, InputError>, MAX_PARAMS_B),
                (parse_bits, MAX_BITS),
                (parse_gpu_gb, MAX_GPU_GB),
            ] {
                match parse(&text) {
                    Ok(x) => prop_assert!(x.is_finite() && x > 0.0 && x <= max),
                    Err(e) => prop_assert!(!e.message.is_empty()),
                }
            }
            let _ = Precision::from_id(&text);
        }

        #[test]
        fn every_shown_figure_is_readable(
            params in in_range(0.0, MAX_PARAMS_B),
            precision in proptest::sample::select(vec!["fp32", "fp16", "int4", "custom", "?"]),
            bits in in_range(0.0, MAX_BITS),
            gpu in in_range(0.0, MAX_GPU_GB),
            rt in proptest::option::of(runtime_text()),
        ) {
            match size_with(&params, precision, &bits, &gpu, rt.as_ref()) {
                Ok(s) => {
                    for shown in [s.weight_text(), s.kv_text(), s.total_text(), s.fraction_text(), s.gpus_text()] {
                        prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                    }
                    for line in s.worked.iter().chain([&s.chart_description()]) {
                        prop_assert!(unreadable(line).is_none(), "{:?}", unreadable(line));
                    }
                }
                Err(errors) => prop_assert!(!errors.is_empty() && errors.iter().all(|e| !e.message.is_empty())),
            }
        }
    }
}
