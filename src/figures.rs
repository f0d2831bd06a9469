//! Figures that lessons quote, computed by the same code the widgets run.
//!
//! A lesson writes `` `=weight-gb params=70 precision=fp16` `` and the build (see
//! `build/main.rs`) calls [`inline`] to put "140 GB" in its place; ` ```figure weight-table `
//! blocks call [`block`] for HTML. The build fails on any error these return, naming the line.

use crate::logic::break_even::{volume_text, CostInputs, DedicatedWins};
use crate::logic::distill::{self, SEED_PRESET};
use crate::logic::format::{escape_html, fixed, plain};
use crate::logic::memory::{gpu_fraction, gpus_needed, weight_memory_gb, Precision};
use crate::logic::{batching, decode, eval, fleet, gpus, lab};

/// The measuring lab's and the real distillation's figures (`figures/lab.rs`: native only).
#[cfg(not(target_arch = "wasm32"))]
mod lab_models;

/// Arguments of a figure directive, as `key=value` pairs in the order written.
pub type Args = [(String, String)];

/// Every inline figure a lesson may use, with its arguments (for error messages and docs).
pub const INLINE_FIGURES: &[(&str, &str)] = &[
    (
        "weight-gb",
        "params=<billions> precision=<fp16…>|bits=<n> [decimals=<0-3>]",
    ),
    ("gpu-fraction", "params precision|bits gpu-gb"),
    ("gpus-needed", "params precision|bits gpu-gb"),
    ("size-ratio", "small=<billions> large=<billions>"),
    ("ratio", "a=<number> b=<number>"),
    ("quotient", "a=<number> b=<number>"),
    ("weight-gb-approx", "params=<billions> precision|bits"),
    (
        "decode-tps",
        "weights-gb|(params precision|bits)|(read-params precision|bits) bandwidth|gpu=<preset id> \
         [gpus=<n>: split over n GPUs]",
    ),
    ("gpu-bandwidth", "gpu=<preset id>"),
    ("gpu-tflops", "gpu=<preset id>"),
    ("gpu-memory", "gpu=<preset id>"),
    (
        "batch-tps",
        "gpu=<preset id> arch=<architecture id> weights-gb|(params precision|bits) batch context \
         per=request|gpu",
    ),
    (
        "max-batch",
        "gpu=<preset id> arch=<architecture id> weights-gb|(params precision|bits) context",
    ),
    (
        "compute-from",
        "gpu=<preset id> arch=<architecture id> weights-gb|(params precision|bits) context",
    ),
    ("kv-gb", "arch=<architecture id> context batch"),
    ("wilson", "passes=<n> n=<cases> (95% interval, as the mini eval shows it)"),
    (
        "queue-e2e",
        "network=<ms> service=<ms> load=<0-1> [speedup=<×>] [part=total|queue] (one server)",
    ),
    (
        "compute-batch",
        "gpu=<preset id> precision|bits (weights only, no KV cache)",
    ),
    ("expert-share", "arch=<architecture id> batch"),
    (
        "weight-ratio",
        "large=<billions> small=<billions> precision|bits",
    ),
    (
        "weight-ratio-exact",
        "large=<billions> small=<billions> precision|bits",
    ),
    ("tokens-per-day", "requests tokens"),
    (
        "fleet-gpus",
        "gpus (large-gb small-gb)|(large small precision|bits)",
    ),
    ("loss-hard", "student=a|b"),
    ("loss-soft", "student=a|b"),
    ("kl", "student=a|b"),
    ("teacher-entropy", ""),
    ("soft-gap", "t=<temperature> (student B's T²-scaled soft loss − A's)"),
    ("kl-gap", "t=<temperature> (student B's KL − A's, unscaled)"),
    ("teacher-probs", ""),
    ("neg-ln", "p=<probability>"),
    ("eval-accuracy", "system=baseline|optimized"),
    ("break-even-first", BREAK_EVEN_ARGS),
    (
        "break-even-range",
        "gpus=<n> [api-price …] (the range on n GPUs)",
    ),
    ("break-even-always", BREAK_EVEN_ARGS),
];

/// Optional arguments of the break-even figures; each defaults to the widget's example.
const BREAK_EVEN_ARGS: &str =
    "[api-price=<$/M>] [gpu-hourly=<$/h>] [throughput=<tok/s>] [utilisation=<%>]";

/// The lesson's eval (Example 2), the same data the mini-eval widget starts from.
pub const LESSON_EVAL_JSON: &str = include_str!("../content/mini-eval.json");

fn student(args: &Args) -> Result<[f64; 4], String> {
    match arg(args, "student")? {
        "a" => Ok(SEED_PRESET.student_a),
        "b" => Ok(SEED_PRESET.student_b),
        other => Err(format!("unknown student `{other}`; use a or b")),
    }
}

/// Every block figure a lesson may use.
pub const BLOCK_FIGURES: &[&str] = &["weight-table", "lab-commands"];

fn arg<'a>(args: &'a Args, key: &str) -> Result<&'a str, String> {
    args.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .ok_or_else(|| format!("missing argument `{key}`"))
}

fn num(args: &Args, key: &str) -> Result<f64, String> {
    let text = arg(args, key)?;
    crate::logic::read_f64(text)
        .filter(|v| v.is_finite() && *v > 0.0)
        .ok_or_else(|| format!("`{key}={text}` is not a positive number"))
}

fn check_known(args: &Args, known: &[&str]) -> Result<(), String> {
    match args.iter().find(|(k, _)| !known.contains(&k.as_str())) {
        Some((k, _)) => Err(format!(
            "unknown argument `{k}`; expected {}",
            known.join(", ")
        )),
        None => Ok(()),
    }
}

fn precision(args: &Args) -> Result<Precision, String> {
    match (
        args.iter().find(|(k, _)| k == "precision"),
        args.iter().find(|(k, _)| k == "bits"),
    ) {
        (Some((_, id)), None) => Precision::from_id(id).ok_or_else(|| {
            format!("unknown precision `{id}`; use fp32, fp16, bf16, fp8, int8, int4, or bits=<n>")
        }),
        (None, Some(_)) => Ok(Precision::Bits(num(args, "bits")?)),
        _ => Err("give either `precision=` or `bits=`".into()),
    }
}

/// The break-even widget's inputs: its examples, with any of them replaced by `args`
/// (which may also hold the keys in `extra`).
fn cost_inputs(args: &Args, extra: &[&str]) -> Result<CostInputs, String> {
    let mut known = vec!["api-price", "gpu-hourly", "throughput", "utilisation"];
    known.extend(extra);
    check_known(args, &known)?;
    let or = |key: &str, example: f64| match arg(args, key) {
        Ok(_) => num(args, key),
        Err(_) => Ok(example),
    };
    let example = CostInputs::EXAMPLE;
    let utilisation = or("utilisation", example.utilisation * 100.0)?;
    if utilisation > 100.0 {
        return Err("`utilisation` is a percentage: at most 100".into());
    }
    Ok(CostInputs {
        api_price_per_m: or("api-price", example.api_price_per_m)?,
        gpu_hourly: or("gpu-hourly", example.gpu_hourly)?,
        throughput_tps: or("throughput", example.throughput_tps)?,
        utilisation: utilisation / 100.0,
    })
}

/// Where dedicated wins at the inputs in `args`, or why a lesson cannot quote it.
fn dedicated_wins(args: &Args, extra: &[&str]) -> Result<DedicatedWins, String> {
    cost_inputs(args, extra)?
        .dedicated_wins()
        .ok_or_else(|| "dedicated never wins at these inputs: nothing to quote".into())
}

/// `value` rounded to one significant figure: 4.85 → 5, 42.4 → 40. Sources quote quantized
/// weight sizes this loosely ("about 5 GB"), and the decode and fleet figures follow from them.
pub fn one_figure(value: f64) -> f64 {
    if value <= 0.0 || !value.is_finite() {
        return value;
    }
    let scale = 10f64.powf(value.log10().floor());
    (value / scale).round() * scale
}

/// Weights of `params` (billions) at the precision in `args`, rounded to one significant figure.
fn approx_weight_gb(args: &Args, params_key: &str) -> Result<f64, String> {
    Ok(one_figure(weight_memory_gb(
        num(args, params_key)?,
        precision(args)?,
    )))
}

/// The GPU preset named by `gpu=<id>` (`h100-80`), whose data-sheet figures the widgets offer.
fn gpu(args: &Args) -> Result<&'static gpus::GpuPreset, String> {
    let id = arg(args, "gpu")?;
    gpus::preset(id).ok_or_else(|| {
        let ids: Vec<_> = gpus::GPU_PRESETS.iter().map(|g| g.id).collect();
        format!("unknown GPU `{id}`; use one of {}", ids.join(", "))
    })
}

/// The architecture named by `arch=<id>` (`llama3-8b`), as the decode-ceiling widget offers it.
fn architecture(args: &Args) -> Result<&'static batching::Architecture, String> {
    let id = arg(args, "arch")?;
    batching::architecture(id).ok_or_else(|| {
        let ids: Vec<_> = batching::ARCHITECTURES.iter().map(|a| a.id).collect();
        format!("unknown architecture `{id}`; use one of {}", ids.join(", "))
    })
}

/// Mean wait in the queue of one server (an M/M/1 queue), in ms: load ÷ (1 − load) × service
/// time, for requests arriving at random at `load` (0 to 1) of what the server can serve, each
/// taking `service_ms` on average. At 75 % load, 300 ms of service waits 900 ms; the same
/// arrivals with 150 ms of service are a 37.5 % load and wait 90 ms.
pub fn mm1_queue_ms(service_ms: f64, load: f64) -> f64 {
    load / (1.0 - load) * service_ms
}

/// A whole count from `key` that may be 0 (passes of an eval).
fn whole_or_zero(args: &Args, key: &str) -> Result<u64, String> {
    let text = arg(args, key)?;
    match crate::logic::read_f64(text) {
        Some(0.0) => Ok(0),
        _ => whole(args, key),
    }
}

/// A whole count from `key` (a batch, a context length), at least 1.
fn whole(args: &Args, key: &str) -> Result<u64, String> {
    let n = num(args, key)?;
    if n.fract() != 0.0 || n > 1e12 {
        return Err(format!("`{key}` must be a whole number"));
    }
    Ok(n as u64)
}

/// A model served on one GPU preset, from `gpu`, `arch`, the weights (`weights-gb`, or
/// `params` at a precision) and `batch` (1 when not asked for) and `context`. A dense model:
/// the lessons quote batches of dense models, and the MoE share on its own (`expert-share`).
fn serving(args: &Args) -> Result<batching::Serving, String> {
    let weights_gb = match arg(args, "weights-gb") {
        Ok(_) => num(args, "weights-gb")?,
        Err(_) => weight_memory_gb(num(args, "params")?, precision(args)?),
    };
    let batch = match arg(args, "batch") {
        Ok(_) => whole(args, "batch")?,
        Err(_) => 1,
    };
    Ok(batching::Serving::new(
        architecture(args)?,
        decode::ModelWeights::dense(weights_gb),
        batching::Machine::of(gpu(args)?),
        batch,
        whole(args, "context")?,
    ))
}

/// A topic's figures: a function from a figure's name and arguments to its text, `Ok(None)`
/// for a name that is not one of the topic's (`inline` then asks the next topic).
macro_rules! topic {
    ($(#[$doc:meta])* fn $topic:ident($name:ident, $args:ident) { $($arms:tt)* }) => {
        $(#[$doc])*
        fn $topic($name: &str, $args: &Args) -> Result<Option<String>, String> {
            let text = match $name {
                $($arms)*
                _ => return Ok(None),
            };
            text.map(Some)
        }
    };
}

/// The text of inline figure `name` for `args`, e.g. `"140 GB"`.
pub fn inline(name: &str, args: &Args) -> Result<String, String> {
    let topics = [
        sizing_figure,
        decode_figure,
        batching_figure,
        eval_latency_figure,
        fleet_figure,
        distill_figure,
        break_even_figure,
    ];
    for topic in topics {
        if let Some(text) = topic(name, args)? {
            return Ok(text);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(figure) = lab_models::inline(name, args) {
        return figure;
    }
    #[cfg(not(target_arch = "wasm32"))]
    let lab = lab_models::FIGURES.iter().map(|(n, _)| *n);
    #[cfg(target_arch = "wasm32")]
    let lab = std::iter::empty();
    Err(unknown(
        name,
        INLINE_FIGURES
            .iter()
            .map(|(n, _)| *n)
            .chain(lab)
            .collect::<Vec<_>>()
            .as_slice(),
    ))
}

topic! {
    /// Weight memory, GPU counts and ratios: what a model needs to sit in memory.
    fn sizing_figure(name, args) {
        "weight-gb" => {
            check_known(args, &["params", "precision", "bits", "decimals"])?;
            let gb = weight_memory_gb(num(args, "params")?, precision(args)?);
            Ok(match arg(args, "decimals") {
                Ok(d) => {
                    let d: usize = d
                        .parse()
                        .ok()
                        .filter(|d| *d <= 3)
                        .ok_or_else(|| format!("`decimals={d}` must be 0 to 3"))?;
                    format!("{} GB", fixed(gb, d))
                }
                Err(_) => format!("{} GB", plain(gb)),
            })
        }
        "gpu-fraction" | "gpus-needed" => {
            check_known(args, &["params", "precision", "bits", "gpu-gb"])?;
            let gb = weight_memory_gb(num(args, "params")?, precision(args)?);
            let gpu = num(args, "gpu-gb")?;
            Ok(if name == "gpu-fraction" {
                fixed(gpu_fraction(gb, gpu), 2)
            } else {
                gpus_needed(gb, gpu).to_string()
            })
        }
        "size-ratio" => {
            check_known(args, &["small", "large"])?;
            Ok(format!(
                "{}\u{d7}",
                plain(num(args, "large")? / num(args, "small")?)
            ))
        }
        "ratio" => {
            check_known(args, &["a", "b"])?;
            Ok(format!(
                "{}\u{d7}",
                plain(num(args, "a")? / num(args, "b")?)
            ))
        }
        "quotient" => {
            check_known(args, &["a", "b"])?;
            Ok(plain(num(args, "a")? / num(args, "b")?))
        }
        "weight-gb-approx" => {
            check_known(args, &["params", "precision", "bits"])?;
            Ok(format!("{} GB", plain(approx_weight_gb(args, "params")?)))
        }
    }
}

topic! {
    /// Decode ceilings and GPUs' data-sheet figures.
    fn decode_figure(name, args) {
        "decode-tps" => {
            check_known(
                args,
                &[
                    "weights-gb",
                    "params",
                    "read-params",
                    "precision",
                    "bits",
                    "bandwidth",
                    "gpu",
                    "gpus",
                ],
            )?;
            // Weights read per token: given in GB; or `params` at about `bits`, rounded as the
            // sources round quantized sizes; or exactly `read-params` (billions) at a precision,
            // such as the active parameters of a mixture-of-experts model.
            let weights = if arg(args, "weights-gb").is_ok() {
                num(args, "weights-gb")?
            } else if arg(args, "read-params").is_ok() {
                weight_memory_gb(num(args, "read-params")?, precision(args)?)
            } else {
                approx_weight_gb(args, "params")?
            };
            let bandwidth = match arg(args, "gpu") {
                Ok(_) => gpu(args)?.bandwidth_gb_s,
                Err(_) => num(args, "bandwidth")?,
            };
            // Split over `gpus` GPUs, each reads its share at once: the bound the decode
            // ceiling's fit note gives (`decode::fit`), before any traffic between them.
            let gpus = match arg(args, "gpus") {
                Ok(_) => whole(args, "gpus")? as f64,
                Err(_) => 1.0,
            };
            let tps = gpus * decode::decode_ceiling_tps(bandwidth, weights);
            Ok(format!("{} tok/s", decode::three_figures(tps)))
        }
        "gpu-bandwidth" => {
            check_known(args, &["gpu"])?;
            Ok(format!("{} GB/s", plain(gpu(args)?.bandwidth_gb_s)))
        }
        "gpu-tflops" => {
            check_known(args, &["gpu"])?;
            Ok(format!("{} TFLOPS", plain(gpu(args)?.peak_tflops)))
        }
        "gpu-memory" => {
            check_known(args, &["gpu"])?;
            Ok(format!("{} GB", plain(gpu(args)?.memory_gb)))
        }
    }
}

/// The arguments of a figure of one GPU serving one model ([`serving`]).
const SERVING_KEYS: &[&str] = &[
    "gpu",
    "arch",
    "weights-gb",
    "params",
    "precision",
    "bits",
    "context",
];

topic! {
    /// Batching: throughput, the largest batch, where compute binds, the KV cache and experts.
    fn batching_figure(name, args) {
        "batch-tps" => {
            check_known(args, &[SERVING_KEYS, &["batch", "per"]].concat())?;
            let s = serving(args)?;
            if s.weights_do_not_fit() {
                return Err("the weights do not fit this GPU: no batch runs".into());
            }
            if s.bound == batching::Bound::KvMemory {
                return Err(format!(
                    "batch {} does not fit: at most {} sequences of this context do",
                    s.asked_batch,
                    s.max_batch.unwrap_or_default()
                ));
            }
            let tps = match arg(args, "per")? {
                "request" => s.step.per_request_tps,
                "gpu" => s.step.total_tps,
                other => return Err(format!("unknown `per={other}`; use request or gpu")),
            };
            Ok(format!("{} tok/s", batching::figure(tps)))
        }
        "max-batch" => {
            check_known(args, SERVING_KEYS)?;
            let s = serving(args)?;
            Ok(fixed(s.max_batch.unwrap_or_default() as f64, 0))
        }
        "compute-from" => {
            check_known(args, SERVING_KEYS)?;
            let s = serving(args)?;
            s.compute_from_batch
                .map(|b| fixed(b as f64, 0))
                .ok_or_else(|| "compute never binds at this context: nothing to quote".into())
        }
        "kv-gb" => {
            check_known(args, &["arch", "context", "batch"])?;
            let gb = whole(args, "batch")? as f64
                * batching::kv_gb_per_sequence(architecture(args)?, whole(args, "context")?);
            Ok(format!("{} GB", decode::three_figures(gb)))
        }
        "compute-batch" => {
            check_known(args, &["gpu", "precision", "bits"])?;
            let g = gpu(args)?;
            let b = batching::compute_bound_batch_weights_only(
                g.peak_tflops,
                g.bandwidth_gb_s,
                precision(args)?.bytes_per_param(),
            );
            Ok(fixed(b, 0))
        }
        "expert-share" => {
            check_known(args, &["arch", "batch"])?;
            let routing = architecture(args)?
                .routing
                .ok_or("this architecture is dense: it has no experts to share")?;
            Ok(format!(
                "{}%",
                fixed(routing.share_read(whole(args, "batch")?) * 100.0, 0)
            ))
        }
    }
}

topic! {
    /// Evals (accuracy, Wilson intervals) and a queue's end-to-end latency.
    fn eval_latency_figure(name, args) {
        "wilson" => {
            check_known(args, &["passes", "n"])?;
            let (passes, n) = (whole_or_zero(args, "passes")?, whole(args, "n")?);
            if passes > n {
                return Err("`passes` must be at most `n`".into());
            }
            let (lo, hi) = eval::wilson_interval(passes as usize, n as usize, eval::Z_95);
            Ok(format!(
                "{}% to {}%",
                fixed(lo * 100.0, 0),
                fixed(hi * 100.0, 0)
            ))
        }
        "queue-e2e" => {
            check_known(args, &["network", "service", "load", "speedup", "part"])?;
            let load = num(args, "load")?;
            if load >= 1.0 {
                return Err("`load` is a share of one server's capacity: below 1".into());
            }
            let speedup = match arg(args, "speedup") {
                Ok(_) => num(args, "speedup")?,
                Err(_) => 1.0,
            };
            let service = num(args, "service")? / speedup;
            let queue = mm1_queue_ms(service, load / speedup);
            let ms = match arg(args, "part").unwrap_or("total") {
                "total" => num(args, "network")? + queue + service,
                "queue" => queue,
                other => return Err(format!("unknown `part={other}`; use total or queue")),
            };
            // As the latency explorer prints a time, so the lesson and the widget read alike.
            Ok(crate::logic::latency::ms_text(ms))
        }
        "eval-accuracy" => {
            check_known(args, &["system"])?;
            let set = eval::parse_eval_json(LESSON_EVAL_JSON).map_err(|e| e.message)?;
            let (base, cand) = set
                .cases
                .iter()
                .map(eval::outcome)
                .fold((0, 0), |(b, c), (pb, pc)| {
                    (b + usize::from(pb), c + usize::from(pc))
                });
            let passes = match arg(args, "system")? {
                "baseline" => base,
                "optimized" | "candidate" => cand,
                other => {
                    return Err(format!(
                        "unknown system `{other}`; use baseline or optimized"
                    ))
                }
            };
            Ok(format!(
                "{}%",
                fixed(eval::accuracy(passes, set.cases.len()) * 100.0, 0)
            ))
        }
    }
}

topic! {
    /// Swapping a fleet to a smaller model: weight ratios, tokens a day, GPUs.
    fn fleet_figure(name, args) {
        "weight-ratio" => {
            check_known(args, &["large", "small", "precision", "bits"])?;
            // How many times faster the small model's decode ceiling is: large GB ÷ small GB.
            let ratio = decode::speed_ratio(
                approx_weight_gb(args, "small")?,
                approx_weight_gb(args, "large")?,
            );
            Ok(format!("{}\u{d7}", plain(ratio)))
        }
        "weight-ratio-exact" => {
            check_known(args, &["large", "small", "precision", "bits"])?;
            // The same ratio from unrounded sizes (the sizes' ratio is the parameters' ratio).
            let p = precision(args)?;
            let ratio = decode::speed_ratio(
                weight_memory_gb(num(args, "small")?, p),
                weight_memory_gb(num(args, "large")?, p),
            );
            Ok(format!("{}\u{d7}", plain(ratio)))
        }
        "tokens-per-day" => {
            check_known(args, &["requests", "tokens"])?;
            let t = fleet::tokens_per_day(num(args, "requests")?, num(args, "tokens")?);
            Ok(fixed(t, 0))
        }
        "fleet-gpus" => {
            check_known(
                args,
                &[
                    "gpus",
                    "large-gb",
                    "small-gb",
                    "large",
                    "small",
                    "precision",
                    "bits",
                ],
            )?;
            let gpus = num(args, "gpus")?;
            if gpus.fract() != 0.0 {
                return Err("`gpus` must be a whole number".into());
            }
            let (large_gb, small_gb) = match arg(args, "large-gb") {
                Ok(_) => (num(args, "large-gb")?, num(args, "small-gb")?),
                Err(_) => (
                    approx_weight_gb(args, "large")?,
                    approx_weight_gb(args, "small")?,
                ),
            };
            let swap = fleet::FleetSwap::new(
                decode::ModelWeights::dense(large_gb),
                decode::ModelWeights::dense(small_gb),
                gpus as u64,
                None,
            );
            Ok(swap.small_gpus.to_string())
        }
    }
}

topic! {
    /// Distillation losses and the teacher's distribution.
    fn distill_figure(name, args) {
        "loss-hard" | "loss-soft" | "kl" => {
            check_known(args, &["student"])?;
            let s = student(args)?;
            let target = match name {
                "loss-hard" => distill::hard_target(4, SEED_PRESET.hard_index),
                _ => SEED_PRESET.teacher.to_vec(),
            };
            Ok(fixed(
                if name == "kl" {
                    distill::kl_divergence(&target, &s)
                } else {
                    distill::cross_entropy(&target, &s)
                },
                3,
            ))
        }
        "soft-gap" | "kl-gap" => {
            check_known(args, &["t"])?;
            let t = num(args, "t")?;
            let logs = |p: &[f64]| {
                distill::log_probs(distill::Entry::Weights, p).map_err(|e| e.message)
            };
            let teacher = logs(&SEED_PRESET.teacher)?;
            let (a, b) = (logs(&SEED_PRESET.student_a)?, logs(&SEED_PRESET.student_b)?);
            // The playground's own comparison, at its default α (it does not enter either gap).
            let c = distill::compare(&teacher, [&a, &b], Some(SEED_PRESET.hard_index), t, 0.5);
            let [sa, sb] = &c.students;
            let gap = if name == "soft-gap" {
                sb.soft.value - sa.soft.value
            } else {
                sb.kl - sa.kl
            };
            Ok(fixed(gap, 3))
        }
        "teacher-entropy" => {
            check_known(args, &[])?;
            Ok(fixed(distill::entropy(&SEED_PRESET.teacher), 3))
        }
        "teacher-probs" => {
            check_known(args, &[])?;
            let probs: Vec<String> = SEED_PRESET
                .teacher
                .iter()
                .map(|p| format!("{p:.2}"))
                .collect();
            Ok(probs.join(", "))
        }
        "neg-ln" => {
            check_known(args, &["p"])?;
            let p = num(args, "p")?;
            if p > 1.0 {
                return Err("`p` is a probability: at most 1".into());
            }
            Ok(fixed(distill::cross_entropy(&[1.0], &[p]), 3))
        }
    }
}

topic! {
    /// Shared or dedicated: the volumes where dedicated GPUs win.
    fn break_even_figure(name, args) {
        "break-even-first" => Ok(volume_text(
            cost_inputs(args, &[])?.break_even_tokens_per_month(),
        )),
        // One range per figure: a figure does not wrap, and a list of them would overflow.
        "break-even-range" => {
            let wins = dedicated_wins(args, &["gpus"])?;
            let gpus = num(args, "gpus")?;
            wins.range(gpus as u64)
                .filter(|_| gpus.fract() == 0.0)
                .map(|r| r.text())
                .ok_or_else(|| match wins.range_count() {
                    0 => "no ranges: dedicated wins for good from the first crossing".into(),
                    n => format!("`gpus={gpus}`: the ranges are on 1 to {n} GPUs (a whole number)"),
                })
        }
        "break-even-always" => Ok(volume_text(dedicated_wins(args, &[])?.always_from())),
    }
}

fn unknown(name: &str, known: &[&str]) -> String {
    format!(
        "unknown figure `{name}`; known figures: {}",
        known.join(", ")
    )
}

/// The sizes of Example 1: a small, a mid-size, a large and a frontier-scale model.
pub const EXAMPLE_1_PARAMS_B: [f64; 4] = [3.0, 8.0, 70.0, 671.0];

/// The HTML of block figure `name` for `args`.
pub fn block(name: &str, args: &Args) -> Result<String, String> {
    match name {
        "lab-commands" => {
            check_known(args, &[])?;
            // The same commands the try-it worksheet offers for copying.
            Ok(format!(
                "<pre><code class=\"language-sh\">{}</code></pre>\n",
                escape_html(&lab::lab_script())
            ))
        }
        "weight-table" => {
            check_known(args, &["gpu-gb"])?;
            let gpu = match arg(args, "gpu-gb") {
                Ok(_) => num(args, "gpu-gb")?,
                Err(_) => 80.0,
            };
            let mut html = format!(
                "<table class=\"figure-table\"><thead><tr><th scope=\"col\">Parameters</th>\
                 <th scope=\"col\">FP16 weights</th><th scope=\"col\">GPUs of {} GB</th>\
                 <th scope=\"col\">Whole GPUs</th></tr></thead><tbody>",
                plain(gpu)
            );
            for params in EXAMPLE_1_PARAMS_B {
                let gb = weight_memory_gb(params, Precision::Fp16);
                html.push_str(&format!(
                    "<tr><td>{}B</td><td>{} GB</td><td>{}</td><td>{}</td></tr>",
                    plain(params),
                    plain(gb),
                    fixed(gpu_fraction(gb, gpu), 2),
                    gpus_needed(gb, gpu)
                ));
            }
            html.push_str("</tbody></table>\n");
            Ok(html)
        }
        _ => Err(unknown(name, BLOCK_FIGURES)),
    }
}

#[cfg(test)]
mod tests;
