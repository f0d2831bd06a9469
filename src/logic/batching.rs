//! Batching: how one GPU serves many sequences at once, and what caps it.
//!
//! The decode ceiling (`decode`) is a bound for one sequence: every token reads the weights.
//! A serving engine runs a *batch* of sequences through each decode step, and a step reads the
//! weights once for all of them. So per GPU:
//!
//! - step time = max(bytes read ÷ bandwidth, arithmetic ÷ peak arithmetic);
//! - bytes read = weights read + batch × KV cache read per sequence;
//! - arithmetic ≈ 2 × parameters at work per token × batch (one multiply and one add each);
//! - each sequence gets one token a step (per request: 1 ÷ step time), and the GPU produces
//!   batch tokens a step (per GPU: batch ÷ step time).
//!
//! Three limits follow. While the weights dominate the bytes, raising the batch multiplies
//! the GPU's output almost for free and slows each sequence only a little: the step is
//! bound by **bandwidth**. Every sequence's KV cache must sit in memory beside the weights, so
//! memory caps the batch (**KV memory**). And the arithmetic grows with the batch while the
//! weights do not, so at a large enough batch (and a short enough context) the step becomes
//! bound by **compute**.
//!
//! A mixture-of-experts model sends each token through `k` of its `E` routed experts. A step
//! over a batch of `B` sequences reads every expert that any of them needs: for experts picked
//! evenly, a share 1 − (1 − k/E)^B of them. DeepSeek-R1 (8 of 256) reads 22 % of its routed
//! experts at batch 8, 64 % at 32 and 87 % at 64: at serving batch sizes a mixture of experts
//! saves arithmetic, not bandwidth.
//!
//! These are bounds, like the ceiling: real engines reach part of peak bandwidth and peak
//! arithmetic, and also spend memory on activations and their own buffers.

use super::decode::{self, three_figures, Ceilings, ModelText, ModelWeights};
use super::format::{fixed, plain, short_e};
use super::kv_cache;
use super::{parse_number, InputError};

/// Batching's fields: the GPU's peak compute, and each model's architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Peak dense arithmetic.
    PeakCompute,
    /// A model's architecture.
    Architecture(decode::Model),
}

super::input::form_field_of!(Batching, Field, |f: Field| match f {
    Field::PeakCompute => 0,
    Field::Architecture(m) => 1 + m as u8,
});

impl Field {
    /// The field's name in the learner's words.
    pub fn name(self) -> &'static str {
        match self {
            Field::PeakCompute => "Peak compute",
            Field::Architecture(decode::Model::A) => "Model A architecture",
            Field::Architecture(decode::Model::B) => "Model B architecture",
            Field::Architecture(decode::Model::Large) => "Large model architecture",
            Field::Architecture(decode::Model::Small) => "Small model architecture",
        }
    }
}

/// How a mixture-of-experts model routes each token: through `per_token` of its `routed`
/// experts (shared experts, always run, count with the rest of the model).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Routing {
    /// Routed experts each token goes through (`k`).
    pub per_token: u32,
    /// Routed experts in each mixture-of-experts layer (`E`).
    pub routed: u32,
}

impl Routing {
    /// The share of routed experts one token uses: k ÷ E, in 0..=1.
    pub fn fraction(self) -> f64 {
        if self.routed == 0 {
            return 1.0;
        }
        (f64::from(self.per_token) / f64::from(self.routed)).clamp(0.0, 1.0)
    }

    /// The share of routed experts a decode step reads for `batch` sequences, in 0..=1:
    /// 1 − (1 − k/E)^batch, if each token picks its experts independently and evenly (real
    /// routers are uneven, which lowers it a little).
    pub fn share_read(self, batch: u64) -> f64 {
        let miss = 1.0 - self.fraction();
        // powi takes an i32; past that many sequences every expert is read anyway.
        let b = i32::try_from(batch).unwrap_or(i32::MAX);
        (1.0 - miss.powi(b)).clamp(0.0, 1.0)
    }
}

/// What a model's architecture brings to a decode step besides its weights: the parameters
/// each token works with (for the arithmetic), the KV cache each token adds, and how it routes
/// tokens if it is a mixture of experts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Architecture {
    /// Stable lowercase id used in menus and URLs, e.g. `llama3-8b`.
    pub id: &'static str,
    /// The name a reader knows, e.g. `Llama 3 8B`.
    pub name: &'static str,
    /// Parameters at work for each token, in billions: all of them for a dense model, the
    /// active ones for a mixture of experts. Arithmetic per token ≈ 2 × this (FLOPs).
    pub active_params_b: f64,
    /// KV cache one token adds to one sequence, in bytes, stored at 2 bytes per element
    /// (FP16/BF16; an FP8 cache halves it).
    pub kv_bytes_per_token: f64,
    /// The routing of a mixture-of-experts model; `None` for a dense one.
    pub routing: Option<Routing>,
}

/// KV bytes per token of a Llama-3-class shape from `kv_cache::MODEL_SHAPES`, at 2 bytes an
/// element: 2 (K and V) × layers × KV heads × head dim × 2.
const fn llama_kv_bytes(layers: u64, kv_heads: u64, head_dim: u64) -> f64 {
    (2 * layers * kv_heads * head_dim * 2) as f64
}

/// DeepSeek-R1's KV cache per token. Its multi-head latent attention (MLA) caches one
/// compressed vector per layer and token instead of keys and values per head: 512 latent
/// elements plus 64 for the rotary part, over 61 layers, at 2 bytes (the model's `config.json`:
/// `kv_lora_rank` 512, `qk_rope_head_dim` 64, `num_hidden_layers` 61).
pub const DEEPSEEK_R1_KV_BYTES_PER_TOKEN: f64 = (61 * (512 + 64) * 2) as f64;

/// The architectures a calculator can assume, in menu order. The Llama shapes are those of
/// `kv_cache::MODEL_SHAPES` (published `config.json` files); DeepSeek-R1 is 671B parameters with
/// about 37B at work per token, 8 of 256 routed experts per token in each mixture layer.
pub const ARCHITECTURES: &[Architecture] = &[
    Architecture {
        id: "llama3-3b",
        name: "Llama 3.2 3B",
        active_params_b: 3.0,
        kv_bytes_per_token: llama_kv_bytes(28, 8, 128),
        routing: None,
    },
    Architecture {
        id: "llama3-8b",
        name: "Llama 3 8B",
        active_params_b: 8.0,
        kv_bytes_per_token: llama_kv_bytes(32, 8, 128),
        routing: None,
    },
    Architecture {
        id: "llama3-70b",
        name: "Llama 3 70B",
        active_params_b: 70.0,
        kv_bytes_per_token: llama_kv_bytes(80, 8, 128),
        routing: None,
    },
    Architecture {
        id: "llama3-405b",
        name: "Llama 3.1 405B",
        active_params_b: 405.0,
        kv_bytes_per_token: llama_kv_bytes(126, 8, 128),
        routing: None,
    },
    Architecture {
        id: "deepseek-r1",
        name: "DeepSeek-R1",
        active_params_b: 37.0,
        kv_bytes_per_token: DEEPSEEK_R1_KV_BYTES_PER_TOKEN,
        routing: Some(Routing {
            per_token: 8,
            routed: 256,
        }),
    },
];

/// The architecture with `id` (`llama3-8b`), if it is listed.
pub fn architecture(id: &str) -> Option<&'static Architecture> {
    ARCHITECTURES.iter().find(|a| a.id == id)
}

/// Reads an architecture id as chosen (or as a link carried it): a listed id, or a message
/// naming `field` that says what is wrong.
pub fn parse_architecture(field: Field, id: &str) -> Result<&'static Architecture, InputError> {
    architecture(id.trim()).ok_or_else(|| {
        InputError::new(
            field,
            format!(
                "\u{201c}{}\u{201d} is not an architecture this calculator knows: pick one from \
                 the list.",
                id.trim()
            ),
        )
    })
}

/// Largest peak arithmetic accepted, in TFLOPS (an exaFLOPS).
pub const MAX_PEAK_TFLOPS: f64 = 1_000_000.0;

/// Parses a GPU's peak arithmetic in TFLOPS, as typed. Blank means not given (`None`): the
/// compute limit is then not checked.
pub fn parse_peak_tflops(text: &str) -> Result<Option<f64>, InputError> {
    match text.trim() {
        "" => Ok(None),
        text => parse_number(Field::PeakCompute, text, 0.0, true, MAX_PEAK_TFLOPS).map(Some),
    }
}

/// One GPU as a decode step sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Machine {
    /// Peak memory bandwidth, GB/s.
    pub bandwidth_gb_s: f64,
    /// Memory, GB; `None` when not given (the batch is then not capped).
    pub memory_gb: Option<f64>,
    /// Peak dense arithmetic, TFLOPS; `None` when not given (compute is then not checked).
    pub peak_tflops: Option<f64>,
}

impl Machine {
    /// A GPU preset's data-sheet figures.
    pub fn of(gpu: &super::gpus::GpuPreset) -> Self {
        Self {
            bandwidth_gb_s: gpu.bandwidth_gb_s,
            memory_gb: Some(gpu.memory_gb),
            peak_tflops: Some(gpu.peak_tflops),
        }
    }
}

/// What limits a decode step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Reading weights and KV cache from memory takes longer than the arithmetic.
    Bandwidth,
    /// The arithmetic takes longer than the reading.
    Compute,
    /// The batch asked for does not fit: memory holds the KV cache of fewer sequences.
    KvMemory,
}

impl Bound {
    /// The limit's name as the course writes it: `bandwidth`, `compute`, `KV memory`.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Bandwidth => "bandwidth",
            Bound::Compute => "compute",
            Bound::KvMemory => "KV memory",
        }
    }
}

/// KV cache one sequence holds (and a step reads) at `context_tokens`, in GB.
pub fn kv_gb_per_sequence(arch: &Architecture, context_tokens: u64) -> f64 {
    arch.kv_bytes_per_token * context_tokens as f64 / 1e9
}

/// Weights a step reads for `batch` sequences, in GB. A dense model reads them all, whatever
/// the batch. For a mixture of experts, `weights.read_per_token_gb` is what one sequence reads
/// (the shared part and k of E routed experts); the rest of the memory, beyond that, is the
/// other routed experts, and a step over `batch` sequences reads the share of them that
/// [`Routing::share_read`] gives. Batch 1 reads exactly the read-per-token figure; a large
/// batch, nearly everything in memory.
pub fn weights_read_gb(weights: ModelWeights, routing: Option<Routing>, batch: u64) -> f64 {
    let unread = weights.in_memory_gb - weights.read_per_token_gb;
    match routing {
        Some(r) if unread > 0.0 && r.fraction() < 1.0 => {
            let f = r.fraction();
            // Of the routed experts not read by one token, the share a batch adds.
            let extra = (r.share_read(batch) - f) / (1.0 - f);
            weights.read_per_token_gb + unread * extra.clamp(0.0, 1.0)
        }
        _ => weights.read_per_token_gb,
    }
}

/// The largest batch whose KV cache (`kv_gb_per_seq` each, GB) fits beside the weights in
/// `memory_gb`: ⌊(memory − weights in memory) ÷ KV per sequence⌋; 0 when the weights alone do
/// not fit. Capped at `kv_cache::MAX_BATCH` × 10,000, far past any real engine.
pub fn max_batch(weights_in_memory_gb: f64, memory_gb: f64, kv_gb_per_seq: f64) -> u64 {
    let free = memory_gb - weights_in_memory_gb;
    if free <= 0.0 || kv_gb_per_seq <= 0.0 || !free.is_finite() {
        return 0;
    }
    // A millionth of a sequence of slack, so binary noise in an exact fit does not cost one.
    let n = (free / kv_gb_per_seq + 1e-6).floor();
    n.clamp(0.0, kv_cache::MAX_BATCH * 1e4) as u64
}

/// The batch past which a dense model's decode step would be compute-bound if the KV cache
/// were left out: peak FLOPS × bytes per parameter ÷ (2 × bandwidth). 989 TFLOPS, 2 bytes
/// (FP16) and 3,350 GB/s give about 295: the arithmetic per byte of weights a step does grows
/// with the batch, and there it reaches what the GPU can do per byte it reads.
pub fn compute_bound_batch_weights_only(
    peak_tflops: f64,
    bandwidth_gb_s: f64,
    bytes_per_param: f64,
) -> f64 {
    peak_tflops * 1e12 * bytes_per_param / (2.0 * bandwidth_gb_s * 1e9)
}

/// One decode step at a batch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// Sequences in the step.
    pub batch: u64,
    /// Weights read, GB.
    pub weights_read_gb: f64,
    /// KV cache read, GB: batch × KV per sequence.
    pub kv_read_gb: f64,
    /// Time to read both at peak bandwidth, ms.
    pub memory_ms: f64,
    /// Arithmetic, FLOPs: 2 × parameters at work per token × batch.
    pub flops: f64,
    /// Time for the arithmetic at peak, ms; `None` when the peak is not given.
    pub compute_ms: Option<f64>,
    /// The longer of the two, ms.
    pub step_ms: f64,
    /// Tokens a second each sequence gets: 1,000 ÷ step ms.
    pub per_request_tps: f64,
    /// Tokens a second the GPU produces: batch × 1,000 ÷ step ms.
    pub total_tps: f64,
    /// For a mixture of experts, the share of routed experts the step reads.
    pub expert_share: Option<f64>,
}

impl Step {
    /// The step for `batch` sequences of `context_tokens` each.
    pub fn at(
        arch: &Architecture,
        weights: ModelWeights,
        machine: Machine,
        batch: u64,
        context_tokens: u64,
    ) -> Self {
        let weights_read_gb = weights_read_gb(weights, arch.routing, batch);
        let kv_read_gb = batch as f64 * kv_gb_per_sequence(arch, context_tokens);
        let memory_ms = (weights_read_gb + kv_read_gb) / machine.bandwidth_gb_s * 1000.0;
        let flops = 2.0 * arch.active_params_b * 1e9 * batch as f64;
        let compute_ms = machine.peak_tflops.map(|t| flops / (t * 1e12) * 1000.0);
        let step_ms = compute_ms.map_or(memory_ms, |c| c.max(memory_ms));
        Self {
            batch,
            weights_read_gb,
            kv_read_gb,
            memory_ms,
            flops,
            compute_ms,
            step_ms,
            per_request_tps: 1000.0 / step_ms,
            total_tps: batch as f64 * 1000.0 / step_ms,
            expert_share: arch
                .routing
                .filter(|_| weights.is_mixture_of_experts())
                .map(|r| r.share_read(batch)),
        }
    }

    /// True when the arithmetic takes longer than the reading.
    pub fn compute_bound(&self) -> bool {
        self.compute_ms.is_some_and(|c| c > self.memory_ms)
    }
}

/// One model served on one GPU at a batch and a context length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Serving {
    /// The architecture assumed.
    pub arch: &'static Architecture,
    /// The weights, in memory and read per token (GB).
    pub weights: ModelWeights,
    /// The batch asked for.
    pub asked_batch: u64,
    /// Tokens of context per sequence.
    pub context_tokens: u64,
    /// KV cache per sequence, GB.
    pub kv_gb_per_seq: f64,
    /// The largest batch that fits beside the weights; `None` when the memory is not given.
    pub max_batch: Option<u64>,
    /// The step the GPU runs: at the batch asked for, or at the largest that fits when that is
    /// smaller (an engine queues the rest). When the weights alone do not fit, at the batch
    /// asked for, as if they did.
    pub step: Step,
    /// What limits the step.
    pub bound: Bound,
    /// The smallest batch at which compute would bind, if it ever does (peak given and the
    /// arithmetic per sequence outgrowing its KV read).
    pub compute_from_batch: Option<u64>,
}

impl Serving {
    /// Works out the serving figures of one model on `machine`.
    pub fn new(
        arch: &'static Architecture,
        weights: ModelWeights,
        machine: Machine,
        batch: u64,
        context_tokens: u64,
    ) -> Self {
        let kv_gb_per_seq = kv_gb_per_sequence(arch, context_tokens);
        let max_batch = machine
            .memory_gb
            .map(|m| max_batch(weights.in_memory_gb, m, kv_gb_per_seq));
        let capped = matches!(max_batch, Some(m) if m >= 1 && m < batch);
        let run = if capped {
            max_batch.unwrap_or(batch)
        } else {
            batch
        };
        let step = Step::at(arch, weights, machine, run, context_tokens);
        let bound = if capped {
            Bound::KvMemory
        } else if step.compute_bound() {
            Bound::Compute
        } else {
            Bound::Bandwidth
        };
        Self {
            arch,
            weights,
            asked_batch: batch,
            context_tokens,
            kv_gb_per_seq,
            max_batch,
            step,
            bound,
            compute_from_batch: compute_from_batch(arch, weights, machine, context_tokens),
        }
    }

    /// True when memory is given and the weights alone do not fit in it.
    pub fn weights_do_not_fit(&self) -> bool {
        self.max_batch == Some(0)
    }
}

/// The smallest batch at which a step becomes compute-bound, or `None` if it never does (no
/// peak given, or each added sequence's KV read takes longer than its arithmetic). Compute
/// time grows in step with the batch; memory time grows by the KV read per sequence and, for
/// a mixture of experts, by experts that flatten out, so once compute overtakes it stays ahead.
pub fn compute_from_batch(
    arch: &Architecture,
    weights: ModelWeights,
    machine: Machine,
    context_tokens: u64,
) -> Option<u64> {
    let peak = machine.peak_tflops?;
    let bw = machine.bandwidth_gb_s;
    // Seconds per sequence: arithmetic, and reading its KV cache.
    let compute_per_seq = 2.0 * arch.active_params_b * 1e9 / (peak * 1e12);
    let kv_per_seq = kv_gb_per_sequence(arch, context_tokens) / bw;
    let margin = compute_per_seq - kv_per_seq;
    if margin <= 0.0 {
        return None;
    }
    // Past this batch even all the weights in memory take less time than the margin gains.
    let ceiling = (weights.in_memory_gb / bw / margin).ceil() + 1.0;
    let limit = kv_cache::MAX_BATCH * 1e4;
    if ceiling.is_nan() || ceiling > limit {
        return None;
    }
    let binds = |b: u64| Step::at(arch, weights, machine, b, context_tokens).compute_bound();
    let (mut lo, mut hi) = (1u64, ceiling as u64);
    if binds(lo) {
        return Some(1);
    }
    if !binds(hi) {
        return None;
    }
    // Invariant: not at lo, bound at hi.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if binds(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// A rate or a time to three figures, or in short e-notation when it is too small to show
/// three figures in six decimals (`7.7e-13`).
pub fn figure(value: f64) -> String {
    if value > 0.0 && value < 0.001 {
        short_e(value, 3)
    } else {
        three_figures(value)
    }
}

/// FLOPs in the unit that keeps the figure short: `512 GFLOP`, `5.67 TFLOP`, `81 PFLOP`.
pub fn flop_text(flops: f64) -> String {
    let (value, unit) = if flops < 1e12 {
        (flops / 1e9, "GFLOP")
    } else if flops < 1e15 {
        (flops / 1e12, "TFLOP")
    } else {
        (flops / 1e15, "PFLOP")
    };
    format!("{} {unit}", figure(value))
}

/// The serving line a reader can check, e.g.
/// `A, 32 × 1,024 tokens (Llama 3 8B): (16 GB + 32 × 0.134 GB of KV) ÷ 3,350 GB/s = 6.06 ms;
/// 2 × 8B × 32 = 512 GFLOP ÷ 989 TFLOPS = 0.518 ms → bandwidth binds: 165 tok/s per request,
/// 5,282 per GPU`.
pub fn serving_line(name: &str, s: &Serving, machine: Machine) -> String {
    let step = &s.step;
    let weights = match step.expert_share {
        Some(share) => format!(
            "{} GB of weights ({}% of the routed experts)",
            plain(step.weights_read_gb),
            fixed(share * 100.0, 0)
        ),
        None => format!("{} GB", plain(step.weights_read_gb)),
    };
    let compute = match (step.compute_ms, machine.peak_tflops) {
        (Some(ms), Some(peak)) => format!(
            "2 \u{d7} {}B \u{d7} {} = {} \u{f7} {} TFLOPS = {} ms",
            plain(s.arch.active_params_b),
            fixed(step.batch as f64, 0),
            flop_text(step.flops),
            plain(peak),
            figure(ms)
        ),
        _ => "compute not checked (no peak arithmetic given)".into(),
    };
    let limit = if step.compute_bound() {
        "compute"
    } else {
        "bandwidth"
    };
    format!(
        "{name}, {} \u{d7} {} tokens ({}): ({weights} + {} \u{d7} {} GB of KV) \u{f7} {} GB/s = {} ms; \
         {compute} \u{2192} {limit} binds: {} tok/s per request, {} per GPU",
        fixed(step.batch as f64, 0),
        fixed(s.context_tokens as f64, 0),
        s.arch.name,
        fixed(step.batch as f64, 0),
        kv_text(s.kv_gb_per_seq),
        plain(machine.bandwidth_gb_s),
        figure(step.memory_ms),
        figure(step.per_request_tps),
        figure(step.total_tps),
    )
}

/// A KV size in GB with enough places to read: `0.134`, `2.68`, `0.000131`.
fn kv_text(gb: f64) -> String {
    if gb >= 0.001 {
        three_figures(gb)
    } else {
        figure(gb)
    }
}

/// How many sequences fit, and why, e.g.
/// `A: (80 − 16) GB ÷ 0.134 GB per sequence = 476 sequences fit`.
pub fn fit_line(name: &str, s: &Serving, memory_gb: f64) -> String {
    match s.max_batch {
        Some(0) => format!(
            "{name}: {} GB of weights do not fit in {} GB, so no batch does",
            plain(s.weights.in_memory_gb),
            plain(memory_gb)
        ),
        Some(n) => {
            let mut line = format!(
                "{name}: ({} \u{2212} {}) GB \u{f7} {} GB per sequence = {} sequence{} fit",
                plain(memory_gb),
                plain(s.weights.in_memory_gb),
                kv_text(s.kv_gb_per_seq),
                fixed(n as f64, 0),
                if n == 1 { "" } else { "s" }
            );
            if s.bound == Bound::KvMemory {
                line.push_str(&format!(
                    ", fewer than the {} asked for: the figures are for {}",
                    fixed(s.asked_batch as f64, 0),
                    fixed(n as f64, 0)
                ));
            }
            line
        }
        None => format!("{name}: memory not given, so the batch is not capped"),
    }
}

/// Every input of the decode-ceiling calculator, as typed.
#[derive(Debug, Clone, Copy)]
pub struct DecodeInputs<'a> {
    /// Memory bandwidth, GB/s.
    pub bandwidth: &'a str,
    /// GPU memory, GB, or blank.
    pub memory: &'a str,
    /// Peak arithmetic, TFLOPS, or blank.
    pub peak_tflops: &'a str,
    /// Model A's weights in memory and read per token.
    pub a: ModelText<'a>,
    /// Model A's architecture id.
    pub a_arch: &'a str,
    /// Model B's weights in memory and read per token.
    pub b: ModelText<'a>,
    /// Model B's architecture id.
    pub b_arch: &'a str,
    /// Sequences served at once.
    pub batch: &'a str,
    /// Tokens of context per sequence.
    pub context: &'a str,
}

/// The decode-ceiling calculator's whole result: the one-sequence ceilings and both models
/// served at the batch.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeCard {
    /// The one-sequence ceilings of both models.
    pub ceilings: Ceilings,
    /// Model A then model B at the batch and context.
    pub serving: [Serving; 2],
    /// The machine.
    pub machine: Machine,
    /// The batching sums a reader can check.
    pub worked: Vec<String>,
}

/// The decode-ceiling calculator's result for its fields as typed, or every field's error.
pub fn decode_card(inputs: DecodeInputs) -> Result<DecodeCard, Vec<InputError>> {
    let ceilings = decode::ceilings(inputs.bandwidth, inputs.memory, inputs.a, inputs.b);
    let tflops = parse_peak_tflops(inputs.peak_tflops);
    let a_arch = parse_architecture(Field::Architecture(decode::Model::A), inputs.a_arch);
    let b_arch = parse_architecture(Field::Architecture(decode::Model::B), inputs.b_arch);
    let batch = kv_cache::parse_batch(inputs.batch);
    let context = kv_cache::parse_context_tokens(inputs.context);
    match (ceilings, tflops, a_arch, b_arch, batch, context) {
        (Ok(ceilings), Ok(tflops), Ok(a_arch), Ok(b_arch), Ok(batch), Ok(context)) => {
            let machine = Machine {
                bandwidth_gb_s: ceilings.bandwidth_gb_s,
                memory_gb: ceilings.memory_gb,
                peak_tflops: tflops,
            };
            let serving = [
                Serving::new(a_arch, ceilings.weights[0], machine, batch, context),
                Serving::new(b_arch, ceilings.weights[1], machine, batch, context),
            ];
            let mut worked = Vec::new();
            for (name, s) in ["A", "B"].iter().zip(&serving) {
                worked.push(serving_line(name, s, machine));
                if let Some(memory) = machine.memory_gb {
                    worked.push(fit_line(name, s, memory));
                }
            }
            Ok(DecodeCard {
                ceilings,
                serving,
                machine,
                worked,
            })
        }
        (ceilings, tflops, a_arch, b_arch, batch, context) => {
            let mut errors = ceilings.err().unwrap_or_default();
            // The machine's fields first, as on the card, then each model's, then the batch.
            let machine_end = errors
                .iter()
                .position(|e| {
                    decode::Model::ALL.iter().any(|&m| {
                        e.field == decode::Field::Weights(m)
                            || e.field == decode::Field::ReadPerToken(m)
                    })
                })
                .unwrap_or(errors.len());
            if let Err(e) = tflops {
                errors.insert(machine_end, e);
            }
            errors.extend(
                [a_arch.err(), b_arch.err(), batch.err(), context.err()]
                    .into_iter()
                    .flatten(),
            );
            Err(errors)
        }
    }
}

impl DecodeCard {
    /// Each model's tokens a second per request at the batch, A / B, e.g. `165 / 66 tok/s`.
    pub fn per_request_text(&self) -> String {
        let [a, b] = &self.serving;
        format!(
            "{} / {} tok/s",
            figure(a.step.per_request_tps),
            figure(b.step.per_request_tps)
        )
    }

    /// Each model's tokens a second per GPU at the batch, A / B, e.g. `5,282 / 2,113 tok/s`.
    pub fn total_text(&self) -> String {
        let [a, b] = &self.serving;
        format!(
            "{} / {} tok/s",
            figure(a.step.total_tps),
            figure(b.step.total_tps)
        )
    }

    /// The largest batch each model fits, A / B, e.g. `476 / 119`, or why there is none.
    pub fn max_batch_text(&self) -> String {
        match self.serving.map(|s| s.max_batch) {
            [Some(a), Some(b)] => format!("{} / {}", fixed(a as f64, 0), fixed(b as f64, 0)),
            _ => "not capped: memory not given".into(),
        }
    }

    /// What limits each model's step, A / B, e.g. `bandwidth / KV memory`.
    pub fn bound_text(&self) -> String {
        let [a, b] = &self.serving;
        format!("{} / {}", a.bound.name(), b.bound.name())
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fuzz_tests;
