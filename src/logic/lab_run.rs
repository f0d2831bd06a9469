//! The measuring lab ("Measure it yourself"): one run of the lab's worker (`js/lab-worker.js`), as
//! the page holds it. The worker measures; this module keeps what it said and works out what the
//! page shows beside it: each run's ceiling from the course's own decode maths
//! ([`decode::decode_ceiling_tps`] with the measured bandwidth), its share of that ceiling, which
//! roof binds it, the text and JSON a reader can take away, and the result kept in storage.
//!
//! A run goes idle → measuring → done, stopped (the reader pressed Stop: what was measured stays)
//! or failed (the worker could not go on). Each message of the worker is one [`LabMessage`]
//! (its JSON, parsed with [`LabMessage::parse`]), applied with [`LabRun::apply`].

use super::calendar::iso_date;
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

/// How the weights are stored: the engine's own type, `f32`, `int8` or `int4` in what is
/// stored, in the worker's messages and on the page ([`Precision::name`], [`precision_name`]).
pub use ie_lm::Precision;

/// A [`Precision`] in JSON (what is stored, and the worker's messages): its name.
mod precision_name {
    use super::Precision;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    /// The names a precision can have, for the message about any other.
    const NAMES: &[&str] = &["f32", "int8", "int4"];

    /// Writes `p`'s name.
    pub fn serialize<S: Serializer>(p: &Precision, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.name())
    }

    /// Reads a precision's name; any other text is an unknown variant, as serde says it.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Precision, D::Error> {
        let name = String::deserialize(d)?;
        Precision::parse(&name).map_err(|_| D::Error::unknown_variant(&name, NAMES))
    }

    /// The same for a precision that may be absent (`null`).
    pub mod option {
        use super::Precision;
        use serde::{Deserialize, Deserializer, Serializer};

        /// Writes `p`'s name, or `null`.
        pub fn serialize<S: Serializer>(p: &Option<Precision>, s: S) -> Result<S::Ok, S::Error> {
            match p {
                Some(p) => super::serialize(p, s),
                None => s.serialize_none(),
            }
        }

        /// Reads a precision's name, or `null`.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Precision>, D::Error> {
            #[derive(Deserialize)]
            struct Named(#[serde(with = "super")] Precision);
            Ok(Option::<Named>::deserialize(d)?.map(|Named(p)| p))
        }
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
    #[serde(with = "precision_name")]
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
        format!("{name} at {}", self.precision.name())
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
    #[serde(with = "precision_name")]
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
    #[serde(with = "precision_name")]
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
    #[serde(default, with = "precision_name::option")]
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
                    Some(p) => format!("{name} at {}", p.name()),
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
                r.precision.name(),
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
mod tests;
