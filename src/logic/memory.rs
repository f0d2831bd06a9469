//! Weight memory and GPU count: how many bytes a model's weights take, and how many GPUs hold them.
//!
//! Weights only: the KV cache, activations and runtime overhead come on top; the widget offers
//! them as an option (see `kv_cache`).

use super::{parse_number, InputError};

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
            named => named.id().to_uppercase(),
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

/// Parses parameters in billions, as typed.
pub fn parse_params_b(text: &str) -> Result<f64, InputError> {
    parse_number("Parameters", text, 0.0, true, MAX_PARAMS_B)
}

/// Parses a custom bits-per-weight value, as typed.
pub fn parse_bits(text: &str) -> Result<f64, InputError> {
    parse_number("Bits per weight", text, 0.0, true, MAX_BITS)
}

/// Parses GPU memory in GB, as typed.
pub fn parse_gpu_gb(text: &str) -> Result<f64, InputError> {
    parse_number("GPU memory", text, 0.0, true, MAX_GPU_GB)
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
