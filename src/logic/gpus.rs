//! GPU presets: the memory (GB) and memory bandwidth (GB/s) of common inference GPUs, so a
//! widget can offer "H100 80 GB" instead of asking a learner to look the numbers up.
//!
//! Memory sets how many GPUs hold the weights (`memory`); bandwidth sets the decode ceiling
//! (`decode`). Figures are the vendors' data-sheet peaks, in decimal units (1 GB = 10⁹ bytes,
//! 1 GB/s = 10⁹ bytes per second). Real kernels reach roughly 60–90 % of peak bandwidth.
//!
//! Sources (vendor data sheets and product pages):
//! - NVIDIA A10G (AWS G5): 24 GB GDDR6, 600 GB/s.
//! - NVIDIA L4 data sheet: 24 GB GDDR6, 300 GB/s.
//! - NVIDIA GeForce RTX 4090 specifications: 24 GB GDDR6X, 1,008 GB/s.
//! - NVIDIA L40S data sheet: 48 GB GDDR6, 864 GB/s.
//! - NVIDIA A100 data sheet: 40 GB HBM2 at 1,555 GB/s; 80 GB HBM2e (SXM) at 2,039 GB/s.
//! - NVIDIA H100 data sheet: H100 SXM 80 GB HBM3, 3.35 TB/s.
//! - NVIDIA H200 data sheet: 141 GB HBM3e, 4.8 TB/s.
//! - NVIDIA Blackwell (GTC 2024) B200: 192 GB HBM3e, 8 TB/s. Later HGX/DGX B200 sheets list
//!   180 GB usable per GPU; the preset keeps the announced 192 GB.
//! - AMD Instinct MI300X data sheet: 192 GB HBM3, 5.3 TB/s.

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
}

/// The presets, in the order a menu lists them: by memory, then by bandwidth.
pub const GPU_PRESETS: &[GpuPreset] = &[
    GpuPreset {
        id: "l4-24",
        name: "L4 24 GB",
        memory_gb: 24.0,
        bandwidth_gb_s: 300.0,
    },
    GpuPreset {
        id: "a10g-24",
        name: "A10G 24 GB",
        memory_gb: 24.0,
        bandwidth_gb_s: 600.0,
    },
    GpuPreset {
        id: "rtx4090-24",
        name: "RTX 4090 24 GB",
        memory_gb: 24.0,
        bandwidth_gb_s: 1008.0,
    },
    GpuPreset {
        id: "a100-40",
        name: "A100 40 GB",
        memory_gb: 40.0,
        bandwidth_gb_s: 1555.0,
    },
    GpuPreset {
        id: "l40s-48",
        name: "L40S 48 GB",
        memory_gb: 48.0,
        bandwidth_gb_s: 864.0,
    },
    GpuPreset {
        id: "a100-80",
        name: "A100 SXM 80 GB",
        memory_gb: 80.0,
        bandwidth_gb_s: 2039.0,
    },
    GpuPreset {
        id: "h100-80",
        name: "H100 SXM 80 GB",
        memory_gb: 80.0,
        bandwidth_gb_s: 3350.0,
    },
    GpuPreset {
        id: "h200-141",
        name: "H200 141 GB",
        memory_gb: 141.0,
        bandwidth_gb_s: 4800.0,
    },
    GpuPreset {
        id: "mi300x-192",
        name: "MI300X 192 GB",
        memory_gb: 192.0,
        bandwidth_gb_s: 5300.0,
    },
    GpuPreset {
        id: "b200-192",
        name: "B200 192 GB",
        memory_gb: 192.0,
        bandwidth_gb_s: 8000.0,
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
            ("a10g-24", 24.0, 600.0),
            ("l4-24", 24.0, 300.0),
            ("a100-40", 40.0, 1555.0),
            ("a100-80", 80.0, 2039.0),
            ("h100-80", 80.0, 3350.0),
            ("h200-141", 141.0, 4800.0),
            ("b200-192", 192.0, 8000.0),
            ("mi300x-192", 192.0, 5300.0),
        ];
        for (id, memory, bandwidth) in rows {
            let gpu = preset(id).unwrap_or_else(|| panic!("missing {id}"));
            assert_eq!(gpu.memory_gb, memory, "{id}");
            assert_eq!(gpu.bandwidth_gb_s, bandwidth, "{id}");
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
            assert!(gpu.memory_gb > 0.0 && gpu.bandwidth_gb_s > 0.0);
            assert!(GPU_PRESETS[i + 1..].iter().all(|other| other.id != gpu.id));
        }
    }

    #[test]
    fn menu_is_ordered_and_default_exists() {
        for pair in GPU_PRESETS.windows(2) {
            let key = |g: &GpuPreset| (g.memory_gb, g.bandwidth_gb_s);
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
