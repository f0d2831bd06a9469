//! The measuring lab ("Measure it yourself"): one run of the lab's worker (`js/lab-worker.js`), as
//! the page holds it. The worker measures; this module keeps what it said and works out what the
//! page shows beside it: each run's ceiling from the course's own decode maths
//! ([`decode::decode_ceiling_tps`] with the measured bandwidth), its share of that ceiling, which
//! roof binds it, the text and JSON a reader can take away, and the result kept in storage.
//!
//! A run goes idle → measuring → done, stopped (the reader pressed Stop: what was measured stays)
//! or failed (the worker could not go on). Each message of the worker is one [`LabMessage`]
//! (its JSON, parsed with [`LabMessage::parse`]), applied with [`LabRun::apply`].

use super::decode::{decode_ceiling_tps, three_figures};
use super::format::{fixed, plain};
use serde::{Deserialize, Serialize};

/// Where the result is kept (`ie-course:lab`) and its schema version.
pub const STORE_NAME: &str = "lab";
/// Version of [`LabResult`]'s stored form.
pub const STORE_VERSION: u32 = 1;
/// Storage name of [`Device`]: what the decode ceiling reads of the last run.
pub const DEVICE_STORE_NAME: &str = "lab-device";
/// Version of [`Device`]'s stored form.
pub const DEVICE_STORE_VERSION: u32 = 1;

/// What the decode-ceiling calculator needs of the lab's last run, kept apart from the whole
/// result so that the calculator's module (another lesson's) does not carry the lab's types.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Device {
    /// The main-memory read bandwidth of one core, GB/s, as the lab shows it (three figures).
    pub gb_per_s: f64,
}

impl Device {
    /// The bandwidth, if it is one a calculator can use (finite and positive: a stored value
    /// may come from anywhere).
    pub fn usable(self) -> Option<f64> {
        (self.gb_per_s.is_finite() && self.gb_per_s > 0.0).then_some(self.gb_per_s)
    }
}

/// Share of the memory roof from which memory counts as binding (50%), and above which a run
/// counts as running from cache (115%: the measurement's noise stays under it).
const MEMORY_BOUND_FROM: f64 = 0.5;
const ABOVE_MEMORY_ROOF: f64 = 1.15;
/// Share of the cache roof from which the cache counts as binding a run above the memory roof.
const CACHE_BOUND_FROM: f64 = 0.5;

/// A model the lab times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabModel {
    /// The trained character model (the distillation teacher), about 0.9M parameters.
    Tiny,
    /// Random weights, about 26M parameters.
    M,
    /// Random weights, about 85M parameters.
    L,
}

impl LabModel {
    /// The test hooks' name: `tiny`, `m`, `l`.
    pub fn id(self) -> &'static str {
        match self {
            LabModel::Tiny => "tiny",
            LabModel::M => "m",
            LabModel::L => "l",
        }
    }

    /// The name a reader sees.
    pub fn name(self) -> &'static str {
        match self {
            LabModel::Tiny => "tiny (trained)",
            LabModel::M => "M (random)",
            LabModel::L => "L (random)",
        }
    }
}

/// How the weights are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// 4 bytes a weight.
    F32,
    /// 1 byte a weight and a scale per 32.
    Int8,
    /// Half a byte a weight and a scale per 128.
    Int4,
}

impl Precision {
    /// Every precision, widest first.
    pub const ALL: [Precision; 3] = [Precision::F32, Precision::Int8, Precision::Int4];

    /// `f32`, `int8` or `int4` (the test hooks' values, and what a reader sees).
    pub fn id(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::Int8 => "int8",
            Precision::Int4 => "int4",
        }
    }

    /// The precision named `id`, if any.
    pub fn from_id(id: &str) -> Option<Precision> {
        Precision::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// A read-bandwidth measurement of one core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bandwidth {
    /// GB/s (10⁹ bytes a second).
    pub gb_per_s: f64,
    /// Size of the buffer read, bytes.
    pub bytes: f64,
    /// Why the buffer is not the one planned, if it is not.
    pub note: Option<String>,
}

impl Bandwidth {
    /// `13.2 GB/s from main memory (256 MiB)`: the figure first.
    pub fn text(&self, place: &str) -> String {
        format!(
            "{} GB/s from {place} ({} MiB)",
            fixed(self.gb_per_s, 1),
            plain(self.bytes / 1_048_576.0)
        )
    }
}

/// One timed run: a model at a precision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    /// Which model.
    pub model: LabModel,
    /// At which precision.
    pub precision: Precision,
    /// Its transformer blocks.
    pub layers: u32,
    /// Fewer blocks than the model has (a quick run's M).
    pub reduced: bool,
    /// Its parameters.
    pub parameters: f64,
    /// Bytes its weights take in memory.
    pub model_bytes: f64,
    /// Bytes read per token, weights and KV cache (mean over the timed window).
    pub bytes_per_token: f64,
    /// Measured decode speed, tokens/s.
    pub tokens_per_second: f64,
    /// The kernels it ran with (`relaxed-simd` or `simd128`).
    pub kernels: String,
    /// For int8 and int4 where relaxed SIMD runs: tok/s with the simd128 kernels alone.
    pub simd128_tokens_per_second: Option<f64>,
}

/// Which limit sets a run's speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Roof {
    /// Reading the weights from main memory: the decode ceiling's case.
    Memory,
    /// The weights fit in cache, which is read faster than main memory.
    Cache,
    /// The arithmetic on each byte read: the core computes slower than memory delivers.
    Arithmetic,
}

impl Run {
    /// MB (10⁶ bytes) read per token.
    pub fn mb_per_token(&self) -> f64 {
        self.bytes_per_token / 1e6
    }

    /// The decode ceiling at a read bandwidth of `gb_per_s`: bandwidth ÷ bytes per token, by the
    /// calculator's own maths, tokens/s.
    pub fn ceiling(&self, gb_per_s: f64) -> f64 {
        decode_ceiling_tps(gb_per_s, self.bytes_per_token / 1e9)
    }

    /// Measured speed as a share of the ceiling at `gb_per_s` (1 = at the ceiling).
    pub fn share(&self, gb_per_s: f64) -> f64 {
        self.tokens_per_second / self.ceiling(gb_per_s)
    }

    /// Which limit binds, from the shares of the memory roof and (above it) the cache roof.
    pub fn roof(&self, memory_gb_s: f64, cache_gb_s: Option<f64>) -> Roof {
        let memory = self.share(memory_gb_s);
        if memory > ABOVE_MEMORY_ROOF {
            match cache_gb_s {
                Some(c) if self.share(c) >= CACHE_BOUND_FROM => Roof::Cache,
                _ => Roof::Arithmetic,
            }
        } else if memory >= MEMORY_BOUND_FROM {
            Roof::Memory
        } else {
            Roof::Arithmetic
        }
    }

    /// The model and precision in words: `M (random) at int8`, `M (random, 2 blocks) at f32`.
    pub fn label(&self) -> String {
        let name = if self.reduced {
            format!(
                "{}, {} blocks",
                self.model.name().trim_end_matches(')'),
                self.layers
            ) + ")"
        } else {
            self.model.name().to_string()
        };
        format!("{name} at {}", self.precision.id())
    }

    /// The sentence saying which roof binds this run.
    pub fn roof_sentence(&self, memory_gb_s: f64, cache_gb_s: Option<f64>) -> String {
        let mb = three_figures(self.model_bytes / 1e6);
        let memory = percent(self.share(memory_gb_s));
        let label = self.label();
        match self.roof(memory_gb_s, cache_gb_s) {
            Roof::Memory => format!(
                "{label}: memory binds. It reads its {mb} MB of weights for every token and runs at {memory} of the memory roof."
            ),
            Roof::Cache => format!(
                "{label}: above the memory roof ({memory} of it). Its {mb} MB of weights stay in the cache, so the cache roof binds: {} of it.",
                percent(cache_gb_s.map_or(0.0, |c| self.share(c)))
            ),
            Roof::Arithmetic => {
                let simd = match self.simd128_tokens_per_second {
                    Some(plain) if self.precision != Precision::F32 => format!(
                        " Without relaxed SIMD it ran at {} tok/s, {}× slower.",
                        three_figures(plain),
                        three_figures(self.tokens_per_second / plain)
                    ),
                    _ => String::new(),
                };
                format!(
                    "{label}: arithmetic binds. The core spends longer working on each byte than memory takes to deliver it ({memory} of the memory roof).{simd}"
                )
            }
        }
    }
}

/// `87%`.
fn percent(share: f64) -> String {
    format!("{}%", fixed(share * 100.0, 0))
}

/// The trained model's quality at one precision, on the held-out text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Quality {
    /// Which precision.
    pub precision: Precision,
    /// Cross-entropy, bits per character.
    pub bits_per_char: f64,
    /// Share of positions whose top character is f32's, 0 to 1.
    pub agreement: f64,
}

/// The trained model's greedy continuation of the lab's prompt, at one precision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sample {
    /// Which precision.
    pub precision: Precision,
    /// The prompt.
    pub prompt: String,
    /// The continuation so far.
    pub text: String,
    /// Whether it is whole.
    pub done: bool,
}

/// A part of the run that could not be done, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    /// What it was: a model's id, or `bandwidth`.
    pub model: String,
    /// At which precision, if it was a model's run.
    pub precision: Option<Precision>,
    /// The engine's message (a failed allocation names what and how much).
    pub message: String,
}

impl Failure {
    /// The message a reader sees: what could not run, then why.
    pub fn text(&self) -> String {
        let what = match (self.model.as_str(), self.precision) {
            ("bandwidth", _) => "The read bandwidth".to_string(),
            (id, p) => {
                let name = [LabModel::Tiny, LabModel::M, LabModel::L]
                    .into_iter()
                    .find(|m| m.id() == id)
                    .map_or(id.to_string(), |m| m.name().to_string());
                match p {
                    Some(p) => format!("{name} at {}", p.id()),
                    None => name.to_string(),
                }
            }
        };
        format!(
            "{what} could not be measured: {}.",
            self.message.trim_end_matches('.')
        )
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ended {
    /// Every part ran (some may have failed one by one).
    Done,
    /// The reader stopped it.
    Stopped,
    /// The worker could not go on.
    Failed,
}

/// What one run measured: the stored and exported form.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabResult {
    /// When it ended, ms since 1970 (0 while it runs).
    pub finished_at: f64,
    /// A quick run (M reduced, no L).
    pub quick: bool,
    /// The main kernels (`relaxed-simd` or `simd128`), once known.
    pub kernels: Option<String>,
    /// Read bandwidth from main memory.
    pub memory: Option<Bandwidth>,
    /// Read bandwidth from cache.
    pub cache: Option<Bandwidth>,
    /// Each timed run, in the order measured.
    pub runs: Vec<Run>,
    /// The trained model's quality per precision.
    pub quality: Vec<Quality>,
    /// The trained model's samples per precision.
    pub samples: Vec<Sample>,
    /// Parts that could not run.
    pub failures: Vec<Failure>,
    /// What the reader should know (a model left out, and why).
    pub notes: Vec<String>,
    /// How the run ended (none while it runs).
    pub ended: Option<Ended>,
    /// Why it failed, when it did.
    pub error: Option<String>,
}

impl LabResult {
    /// The run of `model` at `precision`, if measured.
    pub fn run(&self, model: LabModel, precision: Precision) -> Option<&Run> {
        self.runs
            .iter()
            .find(|r| r.model == model && r.precision == precision)
    }

    /// The trained model's quality at `precision`, if measured.
    pub fn quality_at(&self, precision: Precision) -> Option<&Quality> {
        self.quality.iter().find(|q| q.precision == precision)
    }

    /// The trained model's sample at `precision`, if begun.
    pub fn sample_at(&self, precision: Precision) -> Option<&Sample> {
        self.samples.iter().find(|s| s.precision == precision)
    }

    /// Memory bandwidth to 3 significant figures, GB/s: the decode-ceiling calculator's
    /// "this browser, one core" device.
    pub fn device_bandwidth(&self) -> Option<f64> {
        let bw = self.memory.as_ref()?.gb_per_s;
        let typed: f64 = three_figures(bw).replace(',', "").parse().ok()?;
        (typed.is_finite() && typed > 0.0).then_some(typed)
    }

    /// What the decode ceiling keeps of this result, once the memory bandwidth is measured.
    pub fn device(&self) -> Option<Device> {
        self.device_bandwidth().map(|gb_per_s| Device { gb_per_s })
    }

    /// One sentence per run saying which roof binds it (none without a memory bandwidth).
    pub fn roof_sentences(&self) -> Vec<String> {
        let Some(memory) = &self.memory else {
            return Vec::new();
        };
        let cache = self.cache.as_ref().map(|c| c.gb_per_s);
        self.runs
            .iter()
            .map(|r| r.roof_sentence(memory.gb_per_s, cache))
            .collect()
    }

    /// The whole result as plain text: a table and the sentences, for pasting.
    pub fn text(&self) -> String {
        let mut out = format!(
            "Measured in this browser, on one CPU core ({} kernels){}.\n",
            self.kernels.as_deref().unwrap_or("unknown"),
            match (self.finished_at > 0.0, self.quick) {
                (true, q) => format!(
                    ", {}{}",
                    iso_date(self.finished_at),
                    if q { ", quick run" } else { "" }
                ),
                (false, true) => ", quick run".into(),
                (false, false) => String::new(),
            }
        );
        for (b, place) in [(&self.memory, "main memory"), (&self.cache, "cache")] {
            if let Some(b) = b {
                out += &format!("Read bandwidth: {}\n", b.text(place));
            }
        }
        out += "\nmodel | precision | MB/token | ceiling (tok/s) | measured (tok/s) | share of ceiling | held-out bits/char | agreement with f32\n";
        let bw = self.memory.as_ref().map(|m| m.gb_per_s);
        for r in &self.runs {
            let q = (r.model == LabModel::Tiny)
                .then(|| self.quality_at(r.precision))
                .flatten();
            out += &format!(
                "{} | {} | {} | {} | {} | {} | {} | {}\n",
                r.model.name(),
                r.precision.id(),
                fixed(r.mb_per_token(), 2),
                bw.map_or("-".into(), |b| three_figures(r.ceiling(b))),
                three_figures(r.tokens_per_second),
                bw.map_or("-".into(), |b| percent(r.share(b))),
                q.map_or("-".into(), |q| fixed(q.bits_per_char, 3)),
                q.map_or("-".into(), |q| format!(
                    "{}%",
                    fixed(q.agreement * 100.0, 1)
                )),
            );
        }
        for line in self.roof_sentences() {
            out += &format!("\n{line}");
        }
        for f in &self.failures {
            out += &format!("\n{}", f.text());
        }
        for n in &self.notes {
            out += &format!("\n{n}");
        }
        out.push('\n');
        out
    }

    /// The whole result as JSON (the stored form), indented.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// `2026-12-06` for a time in ms since 1970 (UTC).
pub fn iso_date(ms: f64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let days = (ms / 86_400_000.0).floor() as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Where a bandwidth was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    /// Main memory.
    Memory,
    /// Cache.
    Cache,
}

/// One message of the lab's worker (`js/lab-worker.js`, where each is described).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum LabMessage {
    /// The build in use.
    Engine {
        /// `relaxed-simd` or `simd128`.
        kernels: String,
    },
    /// The models this run times.
    Plan {
        /// In order.
        models: Vec<LabModel>,
    },
    /// How far the run is.
    Progress {
        /// 0 to 1.
        share: f64,
        /// What runs now.
        label: String,
    },
    /// A read bandwidth.
    Bandwidth {
        /// Main memory or cache.
        #[serde(rename = "where")]
        place: Place,
        /// GB/s.
        #[serde(rename = "gbPerS")]
        gb_per_s: f64,
        /// Buffer size, bytes.
        bytes: f64,
        /// Why the buffer is smaller than planned.
        note: Option<String>,
    },
    /// A timed run.
    Row(Run),
    /// The trained model's quality at a precision.
    Quality(Quality),
    /// The trained model's sample so far.
    Sample(Sample),
    /// A part that could not run.
    Failed(Failure),
    /// Something to tell the reader.
    Note {
        /// The text.
        text: String,
    },
    /// The run ended.
    Done,
    /// The worker could not go on.
    Error {
        /// Why.
        message: String,
    },
    /// A message this page does not read (another job's).
    #[serde(other)]
    Other,
}

impl LabMessage {
    /// The message in `json`, or an [`LabMessage::Error`] saying it could not be read.
    pub fn parse(json: &str) -> LabMessage {
        serde_json::from_str(json).unwrap_or_else(|e| LabMessage::Error {
            message: format!("the lab's worker sent a message this page cannot read ({e})"),
        })
    }
}

/// Where a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Nothing measured yet (or a result kept from an earlier visit: [`LabRun::restored`]).
    Idle,
    /// The worker is measuring.
    Measuring,
    /// It ended: the result is whole (some parts may have failed).
    Done,
    /// The reader stopped it; what was measured stays.
    Stopped,
    /// The worker could not go on.
    Failed,
}

/// The lab's state on the page: a phase, progress and the result so far.
#[derive(Debug, Clone, PartialEq)]
pub struct LabRun {
    /// Where the run is.
    pub phase: Phase,
    /// Share of the run done, 0 to 1.
    pub progress: f64,
    /// What runs now (or how the run ended).
    pub step: String,
    /// The models the run times.
    pub plan: Vec<LabModel>,
    /// What was measured.
    pub result: LabResult,
    /// The result was kept from an earlier visit, not measured now.
    pub restored: bool,
}

impl Default for LabRun {
    fn default() -> Self {
        LabRun {
            phase: Phase::Idle,
            progress: 0.0,
            step: String::new(),
            plan: Vec::new(),
            result: LabResult::default(),
            restored: false,
        }
    }
}

impl LabRun {
    /// The page's state with a result kept from an earlier visit.
    pub fn restored(result: LabResult) -> LabRun {
        let phase = match result.ended {
            Some(Ended::Done) => Phase::Done,
            Some(Ended::Stopped) => Phase::Stopped,
            Some(Ended::Failed) => Phase::Failed,
            None => Phase::Idle,
        };
        LabRun {
            phase,
            progress: if phase == Phase::Done { 1.0 } else { 0.0 },
            step: String::new(),
            plan: Vec::new(),
            result,
            restored: true,
        }
    }

    /// True while the worker measures.
    pub fn running(&self) -> bool {
        self.phase == Phase::Measuring
    }

    /// A new run begins: what an earlier one measured goes.
    pub fn start(&mut self, quick: bool) {
        *self = LabRun {
            phase: Phase::Measuring,
            step: "Starting".into(),
            result: LabResult {
                quick,
                ..LabResult::default()
            },
            ..LabRun::default()
        };
    }

    /// The reader stopped the run at `now_ms`; what was measured stays. True if it was running.
    pub fn stop(&mut self, now_ms: f64) -> bool {
        self.end(
            Ended::Stopped,
            now_ms,
            "Stopped: the rows measured so far stay.",
        )
    }

    fn end(&mut self, how: Ended, now_ms: f64, step: &str) -> bool {
        if !self.running() {
            return false;
        }
        self.phase = match how {
            Ended::Done => Phase::Done,
            Ended::Stopped => Phase::Stopped,
            Ended::Failed => Phase::Failed,
        };
        self.result.ended = Some(how);
        self.result.finished_at = now_ms;
        self.step = step.into();
        true
    }

    /// Applies a message of the worker at `now_ms`. Returns true when it ended the run (the
    /// result is then whole, to be stored). Messages after the end are ignored: a stopped
    /// worker's last words change nothing.
    pub fn apply(&mut self, message: LabMessage, now_ms: f64) -> bool {
        if !self.running() {
            return false;
        }
        let r = &mut self.result;
        match message {
            LabMessage::Engine { kernels } => r.kernels = Some(kernels),
            LabMessage::Plan { models } => self.plan = models,
            LabMessage::Progress { share, label } => {
                if share.is_finite() {
                    self.progress = share.clamp(0.0, 1.0);
                }
                self.step = label;
            }
            LabMessage::Bandwidth {
                place,
                gb_per_s,
                bytes,
                note,
            } => {
                let b = Some(Bandwidth {
                    gb_per_s,
                    bytes,
                    note,
                });
                match place {
                    Place::Memory => r.memory = b,
                    Place::Cache => r.cache = b,
                }
            }
            LabMessage::Row(run) => {
                // Each model and precision once (a repeat replaces).
                r.runs
                    .retain(|x| !(x.model == run.model && x.precision == run.precision));
                r.runs.push(run);
            }
            LabMessage::Quality(q) => {
                r.quality.retain(|x| x.precision != q.precision);
                r.quality.push(q);
            }
            LabMessage::Sample(s) => {
                r.samples.retain(|x| x.precision != s.precision);
                r.samples.push(s);
            }
            LabMessage::Failed(f) => r.failures.push(f),
            LabMessage::Note { text } => r.notes.push(text),
            LabMessage::Done => {
                self.progress = 1.0;
                return self.end(Ended::Done, now_ms, "Done.");
            }
            LabMessage::Error { message } => {
                r.error = Some(message);
                return self.end(Ended::Failed, now_ms, "The lab could not go on.");
            }
            LabMessage::Other => {}
        }
        false
    }

    /// `42% · Timing M at int8`: the progress line, its figure first.
    pub fn progress_text(&self) -> String {
        match self.phase {
            Phase::Done if self.restored => "100% · Done, on an earlier visit".into(),
            _ if self.restored => String::new(),
            Phase::Idle => "0% · not started".into(),
            _ => format!(
                "{}% · {}",
                fixed(self.progress * 100.0, 0),
                self.step.trim_end_matches('.')
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(model: LabModel, precision: Precision, mb: f64, tps: f64) -> Run {
        Run {
            model,
            precision,
            layers: 8,
            reduced: false,
            parameters: 26e6,
            model_bytes: mb * 1e6,
            bytes_per_token: mb * 1e6,
            tokens_per_second: tps,
            kernels: "relaxed-simd".into(),
            simd128_tokens_per_second: None,
        }
    }

    fn msg(json: &str) -> LabMessage {
        LabMessage::parse(json)
    }

    #[test]
    fn ceilings_come_from_the_decode_maths_with_the_measured_bandwidth() {
        // 104 MB a token at 13 GB/s: 125 tok/s at most; 110 measured is 88%.
        let r = run(LabModel::M, Precision::F32, 104.0, 110.0);
        assert!((r.ceiling(13.0) - 125.0).abs() < 1e-9);
        assert_eq!(r.ceiling(13.0), decode_ceiling_tps(13.0, 0.104));
        assert!((r.share(13.0) - 0.88).abs() < 1e-9);
        assert_eq!(r.mb_per_token(), 104.0);
    }

    #[test]
    fn the_sentence_names_the_roof_that_binds() {
        let mem = 13.0;
        let cache = Some(45.0);
        // At 88% of the memory roof: memory.
        let m = run(LabModel::M, Precision::F32, 104.0, 110.0);
        assert_eq!(m.roof(mem, cache), Roof::Memory);
        assert_eq!(
            m.roof_sentence(mem, cache),
            "M (random) at f32: memory binds. It reads its 104 MB of weights for every token and runs at 88% of the memory roof."
        );
        // 3.5 MB at 10,000 tok/s reads 35 GB/s: above the memory roof, 78% of the cache roof.
        let t = run(LabModel::Tiny, Precision::F32, 3.5, 10_000.0);
        assert_eq!(t.roof(mem, cache), Roof::Cache);
        assert!(t
            .roof_sentence(mem, cache)
            .contains("above the memory roof (269% of it)"));
        assert!(t
            .roof_sentence(mem, cache)
            .contains("cache roof binds: 78% of it"));
        // Above the memory roof but far below the cache's: arithmetic.
        let slow = run(LabModel::Tiny, Precision::Int4, 0.5, 40_000.0);
        assert_eq!(slow.roof(mem, cache), Roof::Arithmetic);
        assert_eq!(slow.roof(mem, None), Roof::Arithmetic);
        // Well under the memory roof: arithmetic, with what relaxed SIMD was worth for int4.
        let mut i4 = run(LabModel::M, Precision::Int4, 14.0, 300.0);
        i4.simd128_tokens_per_second = Some(200.0);
        assert_eq!(i4.roof(mem, cache), Roof::Arithmetic);
        let s = i4.roof_sentence(mem, cache);
        assert!(
            s.starts_with("M (random) at int4: arithmetic binds."),
            "{s}"
        );
        assert!(
            s.ends_with("Without relaxed SIMD it ran at 200 tok/s, 1.5× slower."),
            "{s}"
        );
        // int8 leans on the same instruction and says so; f32 never does.
        let mut i8 = run(LabModel::M, Precision::Int8, 30.0, 100.0);
        i8.simd128_tokens_per_second = Some(50.0);
        assert_eq!(i8.roof(mem, cache), Roof::Arithmetic);
        assert!(i8
            .roof_sentence(mem, cache)
            .ends_with("Without relaxed SIMD it ran at 50 tok/s, 2× slower."));
        let mut f = run(LabModel::M, Precision::F32, 100.0, 30.0);
        f.simd128_tokens_per_second = Some(20.0);
        assert!(!f.roof_sentence(mem, cache).contains("relaxed"));
        // The boundaries.
        assert_eq!(
            run(LabModel::M, Precision::F32, 100.0, 65.0).roof(13.0, cache),
            Roof::Memory
        );
        assert_eq!(
            run(LabModel::M, Precision::F32, 100.0, 64.9).roof(13.0, cache),
            Roof::Arithmetic
        );
        assert_eq!(
            run(LabModel::M, Precision::F32, 100.0, 149.5).roof(13.0, cache),
            Roof::Memory
        );
        // A reduced model says so.
        let mut q = run(LabModel::M, Precision::Int8, 10.0, 1.0);
        q.reduced = true;
        q.layers = 2;
        assert_eq!(q.label(), "M (random, 2 blocks) at int8");
    }

    #[test]
    fn a_run_goes_idle_measuring_done() {
        let mut lab = LabRun::default();
        assert_eq!(lab.phase, Phase::Idle);
        assert_eq!(lab.progress_text(), "0% · not started");
        // Messages before a start are ignored.
        assert!(!lab.apply(msg(r#"{"type":"done"}"#), 1.0));
        lab.start(true);
        assert!(lab.running());
        assert!(lab.result.quick);
        lab.apply(
            msg(r#"{"type":"engine","kernels":"relaxed-simd","relaxed":true}"#),
            0.0,
        );
        lab.apply(msg(r#"{"type":"plan","models":["tiny","m"]}"#), 0.0);
        lab.apply(
            msg(r#"{"type":"progress","share":0.42,"label":"Timing M (random weights) at int8"}"#),
            0.0,
        );
        assert_eq!(
            lab.progress_text(),
            "42% · Timing M (random weights) at int8"
        );
        lab.apply(msg(r#"{"type":"bandwidth","where":"memory","gbPerS":13.25,"bytes":268435456,"note":null}"#), 0.0);
        lab.apply(msg(r#"{"type":"bandwidth","where":"cache","gbPerS":45.04,"bytes":1048576,"note":null}"#), 0.0);
        lab.apply(msg(r#"{"type":"row","model":"tiny","precision":"f32","layers":4,"reduced":false,"parameters":863744,"modelBytes":3500000,"bytesPerToken":3600000,"tokensPerSecond":4000,"kernels":"relaxed-simd","simd128TokensPerSecond":null}"#), 0.0);
        lab.apply(
            msg(r#"{"type":"quality","precision":"f32","bitsPerChar":2.2696,"agreement":1}"#),
            0.0,
        );
        lab.apply(msg(r#"{"type":"sample","precision":"f32","prompt":"KING.\n","text":"the st","done":false}"#), 0.0);
        lab.apply(msg(r#"{"type":"sample","precision":"f32","prompt":"KING.\n","text":"the stand","done":true}"#), 0.0);
        lab.apply(msg(r#"{"type":"failed","model":"m","precision":"f32","message":"not enough memory for the weights: 103.0 MB could not be allocated"}"#), 0.0);
        lab.apply(msg(r#"{"type":"note","text":"L is left out."}"#), 0.0);
        lab.apply(msg(r#"{"type":"kd-row","student":"hard"}"#), 0.0);
        let r = &lab.result;
        assert_eq!(r.kernels.as_deref(), Some("relaxed-simd"));
        assert_eq!(lab.plan, [LabModel::Tiny, LabModel::M]);
        assert_eq!(
            r.memory.as_ref().map(|b| b.text("main memory")).as_deref(),
            Some("13.3 GB/s from main memory (256 MiB)")
        );
        assert_eq!(
            r.cache.as_ref().map(|b| b.text("cache")).as_deref(),
            Some("45.0 GB/s from cache (1 MiB)")
        );
        assert_eq!(r.runs.len(), 1);
        assert_eq!(
            r.sample_at(Precision::F32).map(|s| s.text.as_str()),
            Some("the stand")
        );
        assert_eq!(r.samples.len(), 1);
        assert_eq!(
            r.quality_at(Precision::F32).map(|q| q.bits_per_char),
            Some(2.2696)
        );
        assert_eq!(
            r.failures[0].text(),
            "M (random) at f32 could not be measured: not enough memory for the weights: 103.0 MB could not be allocated."
        );
        assert_eq!(r.device_bandwidth(), Some(13.3));
        assert!(lab.apply(msg(r#"{"type":"done"}"#), 1_765_000_000_000.0));
        assert_eq!(lab.phase, Phase::Done);
        assert_eq!(lab.progress, 1.0);
        assert_eq!(lab.result.ended, Some(Ended::Done));
        assert_eq!(lab.result.finished_at, 1_765_000_000_000.0);
        // After the end nothing changes.
        assert!(!lab.apply(msg(r#"{"type":"note","text":"late"}"#), 2.0));
        assert_eq!(lab.result.notes, ["L is left out."]);
        // A new start clears the old result.
        lab.start(false);
        assert!(lab.result.runs.is_empty() && !lab.result.quick);
    }

    #[test]
    fn stop_keeps_what_was_measured_and_an_error_ends_the_run() {
        let mut lab = LabRun::default();
        assert!(!lab.stop(1.0), "nothing to stop");
        lab.start(false);
        lab.apply(
            LabMessage::Row(run(LabModel::Tiny, Precision::F32, 3.5, 4000.0)),
            0.0,
        );
        assert!(lab.stop(5.0));
        assert_eq!(lab.phase, Phase::Stopped);
        assert_eq!(lab.result.runs.len(), 1);
        assert_eq!(lab.result.ended, Some(Ended::Stopped));
        assert!(
            lab.progress_text()
                .ends_with("Stopped: the rows measured so far stay"),
            "{}",
            lab.progress_text()
        );
        assert!(!lab.apply(
            LabMessage::Row(run(LabModel::M, Precision::F32, 104.0, 1.0)),
            6.0
        ));
        assert_eq!(lab.result.runs.len(), 1);

        lab.start(false);
        assert!(lab.apply(
            msg(r#"{"type":"error","message":"engine.js could not be loaded (HTTP 404)"}"#),
            7.0
        ));
        assert_eq!(lab.phase, Phase::Failed);
        assert_eq!(
            lab.result.error.as_deref(),
            Some("engine.js could not be loaded (HTTP 404)")
        );
        // A message that cannot be read fails the run with a message, never a panic.
        lab.start(false);
        assert!(lab.apply(msg("{not json"), 8.0));
        assert!(lab
            .result
            .error
            .as_deref()
            .unwrap_or_default()
            .starts_with("the lab's worker sent a message"));
        assert!(
            lab.apply(msg("{\"type\":\"row\",\"model\":\"xl\"}"), 9.0)
                || lab.phase == Phase::Failed
        );
    }

    #[test]
    fn a_kept_result_comes_back_as_it_ended() {
        let mut lab = LabRun::default();
        lab.start(false);
        lab.apply(
            LabMessage::Row(run(LabModel::M, Precision::Int8, 30.0, 300.0)),
            0.0,
        );
        lab.stop(3.0);
        let json = serde_json::to_string(&lab.result).unwrap_or_default();
        let back: LabResult = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, lab.result);
        let again = LabRun::restored(back);
        assert_eq!(again.phase, Phase::Stopped);
        assert!(again.restored && !again.running());
        // A kept run's progress says only what is true of it now.
        assert_eq!(again.progress_text(), "");
        assert_eq!(LabRun::restored(LabResult::default()).progress_text(), "");
        let mut done = LabRun::default();
        done.start(true);
        done.apply(LabMessage::Done, 5.0);
        assert_eq!(done.progress_text(), "100% · Done");
        assert_eq!(
            LabRun::restored(done.result).progress_text(),
            "100% · Done, on an earlier visit"
        );
    }

    #[test]
    fn the_result_is_kept_through_the_courses_storage() {
        use crate::logic::storage::{read, write, MemoryBackend, Read};
        let mut lab = LabRun::default();
        lab.start(false);
        lab.apply(msg(r#"{"type":"bandwidth","where":"memory","gbPerS":13.0,"bytes":268435456,"note":null}"#), 0.0);
        lab.apply(msg(r#"{"type":"done"}"#), 10.0);
        let b = MemoryBackend::default();
        assert!(write(&b, STORE_NAME, STORE_VERSION, &lab.result).is_ok());
        assert_eq!(
            read::<LabResult>(&b, STORE_NAME, STORE_VERSION, 0, |_, _| None),
            Read::Value(lab.result.clone())
        );
        // The decode ceiling's part: the bandwidth alone, and only a usable one.
        let device = lab.result.device();
        assert!(device.is_some_and(|d| d.usable() == lab.result.device_bandwidth()));
        for junk in [f64::NAN, -1.0, 0.0, f64::INFINITY] {
            assert_eq!(Device { gb_per_s: junk }.usable(), None);
        }
        // Another version's value is backed up, never lost.
        let _ = crate::logic::storage::Backend::set(&b, "ie-course:lab", r#"{"v":2,"data":{}}"#);
        assert!(matches!(
            read::<LabResult>(&b, STORE_NAME, STORE_VERSION, 99, |_, _| None),
            Read::Recovered(_)
        ));
        assert_eq!(
            crate::logic::storage::Backend::get(&b, "ie-course:backup:lab:99")
                .ok()
                .flatten()
                .as_deref(),
            Some(r#"{"v":2,"data":{}}"#)
        );
    }

    #[test]
    fn text_and_json_exports_hold_every_figure() {
        let mut lab = LabRun::default();
        lab.start(false);
        lab.apply(
            msg(r#"{"type":"engine","kernels":"simd128","relaxed":false}"#),
            0.0,
        );
        lab.apply(msg(r#"{"type":"bandwidth","where":"memory","gbPerS":13.0,"bytes":268435456,"note":null}"#), 0.0);
        lab.apply(
            LabMessage::Row(run(LabModel::M, Precision::F32, 104.0, 110.0)),
            0.0,
        );
        lab.apply(
            LabMessage::Row(run(LabModel::Tiny, Precision::Int8, 1.0, 5000.0)),
            0.0,
        );
        lab.apply(
            msg(
                r#"{"type":"quality","precision":"int8","bitsPerChar":2.26946,"agreement":0.9917}"#,
            ),
            0.0,
        );
        lab.apply(msg(r#"{"type":"done"}"#), 1_765_000_000_000.0);
        let text = lab.result.text();
        assert!(
            text.starts_with(
                "Measured in this browser, on one CPU core (simd128 kernels), 2025-12-06.\n"
            ),
            "{text}"
        );
        assert!(text.contains("Read bandwidth: 13.0 GB/s from main memory (256 MiB)\n"));
        assert!(
            text.contains("M (random) | f32 | 104.00 | 125 | 110 | 88% | - | -\n"),
            "{text}"
        );
        assert!(
            text.contains("tiny (trained) | int8 | 1.00 | 13,000 | 5,000 | 38% | 2.269 | 99.2%\n"),
            "{text}"
        );
        assert!(text.contains("M (random) at f32: memory binds."));
        let json = lab.result.json();
        assert!(json.contains("\"gbPerS\": 13.0"), "{json}");
        assert!(json.contains("\"tokensPerSecond\": 110.0"));
        let back: LabResult = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, lab.result);
    }

    #[test]
    fn dates_are_written_as_iso_days() {
        assert_eq!(iso_date(0.0), "1970-01-01");
        assert_eq!(iso_date(951_782_400_000.0), "2000-02-29");
        assert_eq!(iso_date(1_765_000_000_000.0), "2025-12-06");
        assert_eq!(iso_date(4_102_444_799_000.0), "2099-12-31");
    }

    #[test]
    fn precisions_and_models_use_the_hooks_names() {
        for p in Precision::ALL {
            assert_eq!(Precision::from_id(p.id()), Some(p));
        }
        assert_eq!(Precision::from_id("fp16"), None);
        assert_eq!(
            serde_json::to_string(&[LabModel::Tiny, LabModel::M, LabModel::L]).unwrap_or_default(),
            r#"["tiny","m","l"]"#
        );
    }
}
