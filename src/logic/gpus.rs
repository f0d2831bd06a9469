//! GPU presets: the memory (GB), memory bandwidth (GB/s) and peak dense BF16 arithmetic
//! (TFLOPS) of common inference GPUs, so a widget can offer "H100 80 GB" instead of asking a
//! learner to look the numbers up.
//!
//! Memory sets how many GPUs hold the weights (`memory`) and how many sequences' KV cache fit
//! beside them (`batching`); bandwidth sets the decode ceiling (`decode`); peak arithmetic sets
//! the batch past which decode becomes compute-bound (`batching`). Figures are the vendors'
//! data-sheet peaks, in decimal units (1 GB = 10⁹ bytes, 1 GB/s = 10⁹ bytes per second,
//! 1 TFLOPS = 10¹² floating-point operations per second). Real kernels reach roughly 60–90 %
//! of peak bandwidth and less of peak arithmetic.
//!
//! The arithmetic is the *dense* BF16 (or FP16) tensor-core rate: data sheets often print the
//! rate "with sparsity", twice as high, which only 2:4-sparse weights reach. Decode with
//! weights quantized to 8 or 4 bits still does its arithmetic in BF16 in most engines, so the
//! BF16 rate is the one that matters for the batch at which compute binds.
//!
//! Sources (vendor data sheets and product pages; dense BF16 = half the "with sparsity" figure
//! where only that is printed):
//! - NVIDIA A10G (AWS G5): 24 GB GDDR6, 600 GB/s. NVIDIA publishes no data sheet for this AWS
//!   variant of the A10; its tensor rate is given as about 70 TFLOPS dense FP16/BF16 (Baseten,
//!   "NVIDIA A10 vs A10G for ML model inference", against the A10's 125).
//! - NVIDIA L4 data sheet: 24 GB GDDR6, 300 GB/s, BF16 242 TFLOPS with sparsity (121 dense).
//! - NVIDIA Ada (GeForce RTX 4090) architecture whitepaper: 24 GB GDDR6X, 1,008 GB/s, BF16
//!   with FP32 accumulate 165.2 TFLOPS dense.
//! - NVIDIA L40S data sheet: 48 GB GDDR6, 864 GB/s, BF16 362.05 TFLOPS dense (733 sparse).
//! - NVIDIA A100 data sheet: 40 GB HBM2 at 1,555 GB/s; 80 GB HBM2e (SXM) at 2,039 GB/s; BF16
//!   312 TFLOPS dense (624 sparse) for both.
//! - NVIDIA H100 data sheet: H100 SXM 80 GB HBM3, 3.35 TB/s, BF16 1,979 TFLOPS with sparsity
//!   (989 dense).
//! - NVIDIA H200 data sheet: 141 GB HBM3e, 4.8 TB/s, BF16 1,979 TFLOPS with sparsity (989
//!   dense, the H100's compute).
//! - NVIDIA Blackwell (GTC 2024) B200: 192 GB HBM3e, 8 TB/s. Later HGX/DGX B200 sheets list
//!   180 GB usable per GPU; the preset keeps the announced 192 GB. HGX B200 data sheet: FP16/BF16
//!   36 PFLOPS with sparsity for 8 GPUs, so 2,250 TFLOPS dense per GPU.
//! - NVIDIA Blackwell Ultra, HGX B300 data sheet: 288 GB HBM3e and up to 8 TB/s per GPU
//!   (2.3 TB for 8), FP16/BF16 36 PFLOPS with sparsity for 8 GPUs, so 2,250 TFLOPS dense per GPU.
//!   The GB300 NVL72 rack uses the same GPU (20.7 TB of HBM3e and 576 TB/s for 72 GPUs: 288 GB
//!   and 8 TB/s each), at a slightly higher power and arithmetic rate per GPU; the preset keeps
//!   the HGX figure.
//! - AMD Instinct MI300X data sheet: 192 GB HBM3, 5.3 TB/s, BF16 1,307.4 TFLOPS dense.
//! - AMD Instinct MI355X (CDNA 4, June 2025) specifications: 288 GB HBM3E, 8 TB/s, FP16/BF16
//!   about 2.5 PFLOPS dense (twice that with sparsity).

/// One GPU a learner can pick from a menu.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpuPreset {
    /// Stable lowercase id used in menus, URLs and lesson directives, e.g. `h100-80`.
    pub id: &'static str,
    /// The name a reader knows, with its memory, e.g. `H100 SXM 80 GB`.
    pub name: &'static str,
    /// Memory on one GPU, in GB (10⁹ bytes).
    pub memory_gb: f64,
    /// Peak memory bandwidth of one GPU, in GB/s (10⁹ bytes per second).
    pub bandwidth_gb_s: f64,
    /// Peak dense BF16 tensor arithmetic of one GPU, in TFLOPS (10¹² operations per second),
    /// without the doubling data sheets print for 2:4 sparsity.
    pub peak_tflops: f64,
}

/// The presets, in the order a menu lists them: by memory, then by bandwidth, then by
/// arithmetic.
pub const GPU_PRESETS: &[GpuPreset] = &[
    GpuPreset {
        id: "l4-24",
        name: "L4 24 GB",
        memory_gb: 24.0,
        bandwidth_gb_s: 300.0,
        peak_tflops: 121.0,
    },
    GpuPreset {
        id: "a10g-24",
        name: "A10G 24 GB",
        memory_gb: 24.0,
        bandwidth_gb_s: 600.0,
        peak_tflops: 70.0,
    },
    GpuPreset {
        id: "rtx4090-24",
        name: "RTX 4090 24 GB",
        memory_gb: 24.0,
        bandwidth_gb_s: 1008.0,
        peak_tflops: 165.2,
    },
    GpuPreset {
        id: "a100-40",
        name: "A100 40 GB",
        memory_gb: 40.0,
        bandwidth_gb_s: 1555.0,
        peak_tflops: 312.0,
    },
    GpuPreset {
        id: "l40s-48",
        name: "L40S 48 GB",
        memory_gb: 48.0,
        bandwidth_gb_s: 864.0,
        peak_tflops: 362.05,
    },
    GpuPreset {
        id: "a100-80",
        name: "A100 SXM 80 GB",
        memory_gb: 80.0,
        bandwidth_gb_s: 2039.0,
        peak_tflops: 312.0,
    },
    GpuPreset {
        id: "h100-80",
        name: "H100 SXM 80 GB",
        memory_gb: 80.0,
        bandwidth_gb_s: 3350.0,
        peak_tflops: 989.0,
    },
    GpuPreset {
        id: "h200-141",
        name: "H200 141 GB",
        memory_gb: 141.0,
        bandwidth_gb_s: 4800.0,
        peak_tflops: 989.0,
    },
    GpuPreset {
        id: "mi300x-192",
        name: "MI300X 192 GB",
        memory_gb: 192.0,
        bandwidth_gb_s: 5300.0,
        peak_tflops: 1307.4,
    },
    GpuPreset {
        id: "b200-192",
        name: "B200 192 GB",
        memory_gb: 192.0,
        bandwidth_gb_s: 8000.0,
        peak_tflops: 2250.0,
    },
    GpuPreset {
        id: "b300-288",
        name: "B300 / GB300 288 GB",
        memory_gb: 288.0,
        bandwidth_gb_s: 8000.0,
        peak_tflops: 2250.0,
    },
    GpuPreset {
        id: "mi355x-288",
        name: "MI355X 288 GB",
        memory_gb: 288.0,
        bandwidth_gb_s: 8000.0,
        peak_tflops: 2500.0,
    },
];

/// The preset a widget starts on: an 80 GB GPU, the course's default GPU memory.
pub const DEFAULT_PRESET_ID: &str = "h100-80";

/// Looks up a preset by its id (`h100-80`); `None` for an unknown id.
pub fn preset(id: &str) -> Option<&'static GpuPreset> {
    GPU_PRESETS.iter().find(|gpu| gpu.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_course_gpus_have_their_data_sheet_figures() {
        let rows = [
            ("a10g-24", 24.0, 600.0, 70.0),
            ("l4-24", 24.0, 300.0, 121.0),
            ("rtx4090-24", 24.0, 1008.0, 165.2),
            ("l40s-48", 48.0, 864.0, 362.05),
            ("a100-40", 40.0, 1555.0, 312.0),
            ("a100-80", 80.0, 2039.0, 312.0),
            ("h100-80", 80.0, 3350.0, 989.0),
            ("h200-141", 141.0, 4800.0, 989.0),
            ("b200-192", 192.0, 8000.0, 2250.0),
            ("mi300x-192", 192.0, 5300.0, 1307.4),
            ("b300-288", 288.0, 8000.0, 2250.0),
            ("mi355x-288", 288.0, 8000.0, 2500.0),
        ];
        assert_eq!(
            rows.len(),
            GPU_PRESETS.len(),
            "every preset has its row here"
        );
        for (id, memory, bandwidth, tflops) in rows {
            let gpu = preset(id).unwrap_or_else(|| panic!("missing {id}"));
            assert_eq!(gpu.memory_gb, memory, "{id}");
            assert_eq!(gpu.bandwidth_gb_s, bandwidth, "{id}");
            assert_eq!(gpu.peak_tflops, tflops, "{id}");
        }
        assert_eq!(preset("h100"), None);
        assert_eq!(preset(""), None);
    }

    #[test]
    fn ids_are_unique_lowercase_and_end_in_the_memory() {
        for (i, gpu) in GPU_PRESETS.iter().enumerate() {
            assert_eq!(gpu.id, gpu.id.to_lowercase());
            let memory = format!("{}", gpu.memory_gb as u64);
            assert!(gpu.id.ends_with(&format!("-{memory}")), "{}", gpu.id);
            assert!(gpu.name.contains(&format!("{memory} GB")), "{}", gpu.name);
            assert!(gpu.memory_gb > 0.0 && gpu.bandwidth_gb_s > 0.0 && gpu.peak_tflops > 0.0);
            assert!(GPU_PRESETS[i + 1..].iter().all(|other| other.id != gpu.id));
        }
    }

    #[test]
    fn menu_is_ordered_and_default_exists() {
        for pair in GPU_PRESETS.windows(2) {
            let key = |g: &GpuPreset| (g.memory_gb, g.bandwidth_gb_s, g.peak_tflops);
            assert!(
                key(&pair[0]) < key(&pair[1]),
                "{} before {}",
                pair[0].id,
                pair[1].id
            );
        }
        assert_eq!(preset(DEFAULT_PRESET_ID).map(|g| g.memory_gb), Some(80.0));
    }

    proptest::proptest! {
        #[test]
        fn lookup_never_panics_and_finds_only_listed_ids(id in "\\PC{0,12}") {
            match preset(&id) {
                Some(gpu) => proptest::prop_assert_eq!(gpu.id, id.as_str()),
                None => proptest::prop_assert!(GPU_PRESETS.iter().all(|g| g.id != id)),
            }
        }
    }
}
