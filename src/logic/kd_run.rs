//! Real distillation ("Distillation, measured" in 1.3): one run of the lab's worker on its
//! `distill` job (`js/lab-worker.js`), as the page holds it. The worker loads the trained teacher
//! and six students of one shape (hard labels or the teacher's softened distribution, each on 1 %,
//! 10 % and 100 % of the plays), scores each against the teacher on the held-out text, times it,
//! and writes each one's greedy continuation of the reader's prompt. This module keeps what it said
//! and works out what the page says about it: the rows in the table's order, the loss curves, and
//! one sentence per amount of text comparing the two students.
//!
//! A run goes idle → measuring → done, stopped or failed, like the decode lab's
//! ([`super::lab_run`]). The worker's messages for this job are [`KdMessage`]s: read as one flat
//! record rather than as the decode lab's tagged enum, which keeps the code that reads them a
//! few kilobytes smaller in 1.3's module.

use super::decode::three_figures;
use super::format::fixed;
use super::lab_run::{Failure, Phase};
use serde_json::Value;

/// Which model of the experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Student {
    /// The trained tiny model the students learn from.
    Teacher,
    /// A student trained on the next character alone.
    Hard,
    /// A student trained on the teacher's softened distribution mixed with the next character.
    Soft,
}

impl Student {
    /// Its `data-student`.
    pub fn id(self) -> &'static str {
        match self {
            Student::Teacher => "teacher",
            Student::Hard => "hard",
            Student::Soft => "soft",
        }
    }

    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Student::Teacher => "Teacher",
            Student::Hard => "Hard-label student",
            Student::Soft => "Distilled student",
        }
    }
}

/// The amounts of training text the students had, as shares of the plays, in the table's order.
pub const FRACTIONS: [f64; 3] = [0.01, 0.1, 1.0];

/// `0.01`, `0.1` or `1`: a share as the `data-fraction` hook writes it.
pub fn fraction_id(fraction: f64) -> &'static str {
    match fraction_index(fraction) {
        Some(0) => "0.01",
        Some(1) => "0.1",
        _ => "1",
    }
}

/// `1 %`, `10 %`, `100 %`.
pub fn fraction_text(fraction: f64) -> String {
    format!("{}\u{a0}%", fixed(fraction * 100.0, 0))
}

/// Which of [`FRACTIONS`] `fraction` is.
fn fraction_index(fraction: f64) -> Option<usize> {
    FRACTIONS
        .iter()
        .position(|f| (f - fraction).abs() < 1e-9 * f.max(1.0))
}

/// One model's figures, measured in the reader's browser.
#[derive(Debug, Clone, PartialEq)]
pub struct KdRow {
    /// Which model.
    pub student: Student,
    /// Its share of the training text (the teacher's: 1).
    pub fraction: f64,
    /// Parameters.
    pub parameters: f64,
    /// Bytes of its weights in memory (f32).
    pub model_bytes: f64,
    /// Held-out cross-entropy, bits per character.
    pub bits_per_char: f64,
    /// KL(teacher ‖ model) on the held-out text, bits per character (the teacher's: 0).
    pub kl_bits: f64,
    /// Share of held-out positions whose most likely character is the teacher's, 0 to 1.
    pub agreement: f64,
    /// Decode speed on one core, tokens per second.
    pub tokens_per_second: f64,
}

/// One model's validation loss during training.
#[derive(Debug, Clone, PartialEq)]
pub struct KdCurve {
    /// Which model.
    pub student: Student,
    /// Its share of the training text.
    pub fraction: f64,
    /// (step, validation bits per character), steps rising.
    pub points: Vec<(f64, f64)>,
}

/// One model's greedy continuation of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct KdSample {
    /// Which model.
    pub student: Student,
    /// Its share of the training text.
    pub fraction: f64,
    /// The prompt it continued.
    pub prompt: String,
    /// What it wrote.
    pub text: String,
    /// Why it could not write, if it could not.
    pub error: Option<String>,
}

/// One message of the worker's `distill` and `samples` jobs (`js/lab-worker.js` lists them).
#[derive(Debug, Clone, PartialEq)]
pub enum KdMessage {
    /// How far the run is: a share (0 to 1) and what runs now.
    Progress(f64, String),
    /// The loss curves from the manifest.
    Curves(Vec<KdCurve>),
    /// One model, measured.
    Row(KdRow),
    /// One model's greedy continuation of the prompt.
    Sample(KdSample),
    /// A part that could not run.
    Failed(Failure),
    /// The run ended.
    Done,
    /// The worker could not go on.
    Error(String),
    /// A message this job does not read (another job's, or the engine's name).
    Other,
}

impl Student {
    /// The model a `data-student` id names.
    pub fn from_id(id: &str) -> Option<Student> {
        [Student::Teacher, Student::Hard, Student::Soft]
            .into_iter()
            .find(|s| s.id() == id)
    }
}

impl KdMessage {
    /// The message in `json`, or an [`KdMessage::Error`] saying it could not be read. Read
    /// through `serde_json::Value`, whose reader 1.3's module has anyway: a derived reader for
    /// these few messages would cost it kilobytes.
    pub fn parse(json: &str) -> KdMessage {
        let unreadable = |why: &str| {
            KdMessage::Error(format!(
                "the lab's worker sent a message this page cannot read ({why})"
            ))
        };
        match serde_json::from_str::<Value>(json) {
            Ok(v) => Self::read(&v).unwrap_or_else(unreadable),
            Err(e) => unreadable(&e.to_string()),
        }
    }

    fn read(v: &Value) -> Result<KdMessage, &'static str> {
        let text = |key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let number = |key: &'static str| {
            v.get(key)
                .and_then(Value::as_f64)
                .filter(|x| x.is_finite())
                .ok_or(key)
        };
        let model = || -> Result<(Student, f64), &'static str> {
            let student = text("student")
                .as_deref()
                .and_then(Student::from_id)
                .ok_or("student")?;
            Ok((student, number("fraction")?))
        };
        Ok(
            match v.get("type").and_then(Value::as_str).unwrap_or_default() {
                "progress" => {
                    KdMessage::Progress(number("share")?, text("label").unwrap_or_default())
                }
                "kd-curves" => KdMessage::Curves(
                    v.get("curves")
                        .and_then(Value::as_array)
                        .ok_or("curves")?
                        .iter()
                        .map(curve)
                        .collect::<Result<_, _>>()?,
                ),
                "kd-row" => {
                    let (student, fraction) = model()?;
                    KdMessage::Row(KdRow {
                        student,
                        fraction,
                        parameters: number("parameters")?,
                        model_bytes: number("modelBytes")?,
                        bits_per_char: number("bitsPerChar")?,
                        kl_bits: number("klBits")?,
                        agreement: number("agreement")?,
                        tokens_per_second: number("tokensPerSecond")?,
                    })
                }
                "kd-sample" => {
                    let (student, fraction) = model()?;
                    KdMessage::Sample(KdSample {
                        student,
                        fraction,
                        prompt: text("prompt").unwrap_or_default(),
                        text: text("text").unwrap_or_default(),
                        error: text("error"),
                    })
                }
                "failed" => KdMessage::Failed(Failure {
                    model: text("model").unwrap_or_default(),
                    precision: None,
                    message: text("message").unwrap_or_default(),
                }),
                "done" => KdMessage::Done,
                "error" => KdMessage::Error(text("message").unwrap_or_default()),
                _ => KdMessage::Other,
            },
        )
    }
}

/// One curve of a `kd-curves` message.
fn curve(c: &Value) -> Result<KdCurve, &'static str> {
    let student = c
        .get("student")
        .and_then(Value::as_str)
        .and_then(Student::from_id)
        .ok_or("curve student")?;
    let fraction = c
        .get("fraction")
        .and_then(Value::as_f64)
        .ok_or("curve fraction")?;
    let points = c
        .get("points")
        .and_then(Value::as_array)
        .ok_or("curve points")?
        .iter()
        .filter_map(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()?)))
        .collect();
    Ok(KdCurve {
        student,
        fraction,
        points,
    })
}

/// The characters the models know (the manifest's `corpus.vocab`): a prompt may use only these.
pub const ALPHABET: &str =
    "\n !\"&'(),-./0123456789:;?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]_abcdefghijklmnopqrstuvwxyz{}";
/// The longest prompt, in characters: the context holds 256, and the models should have room to
/// write.
pub const MAX_PROMPT: usize = 120;
/// The prompt the page opens with (the manifest's golden samples continue it).
pub const DEFAULT_PROMPT: &str = "KING.\nNow, good my lord, ";

/// What is wrong with `prompt`, as the reader should read it; `None` if the models can take it.
pub fn prompt_problem(prompt: &str) -> Option<String> {
    let count = prompt.chars().count();
    if count == 0 {
        return Some("Type a few words for the models to continue.".into());
    }
    if count > MAX_PROMPT {
        return Some(format!(
            "{count} characters: the models take at most {MAX_PROMPT}, so that their context has room for what they write."
        ));
    }
    let mut unknown: Vec<char> = prompt.chars().filter(|c| !ALPHABET.contains(*c)).collect();
    unknown.dedup();
    unknown.sort_unstable();
    unknown.dedup();
    if unknown.is_empty() {
        return None;
    }
    let shown: Vec<String> = unknown
        .iter()
        .take(8)
        .map(|c| match c {
            '\t' => "tab".to_string(),
            c => format!("\u{201c}{c}\u{201d}"),
        })
        .collect();
    Some(format!(
        "The models never saw {}: they know letters, digits, spaces, new lines and common punctuation only.",
        shown.join(", ")
    ))
}

/// The experiment's state on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct KdRun {
    /// Where the run is.
    pub phase: Phase,
    /// Share done, 0 to 1.
    pub progress: f64,
    /// What runs now (or how the run ended).
    pub step: String,
    /// Each model measured so far, in the order they came.
    pub rows: Vec<KdRow>,
    /// The loss curves from the manifest.
    pub curves: Vec<KdCurve>,
    /// The latest sample of each model.
    pub samples: Vec<KdSample>,
    /// The parts that could not run.
    pub failures: Vec<Failure>,
    /// Why the worker could not go on.
    pub error: Option<String>,
}

impl Default for KdRun {
    fn default() -> Self {
        KdRun {
            phase: Phase::Idle,
            progress: 0.0,
            step: String::new(),
            rows: Vec::new(),
            curves: Vec::new(),
            samples: Vec::new(),
            failures: Vec::new(),
            error: None,
        }
    }
}

impl KdRun {
    /// True while the worker measures.
    pub fn running(&self) -> bool {
        self.phase == Phase::Measuring
    }

    /// A new run begins: what an earlier one measured goes.
    pub fn start(&mut self) {
        *self = KdRun {
            phase: Phase::Measuring,
            step: "Starting".into(),
            ..KdRun::default()
        };
    }

    /// The reader stopped the run: what was measured stays. True if it was running.
    pub fn stop(&mut self) -> bool {
        self.end(Phase::Stopped, "Stopped: the rows measured so far stay.")
    }

    fn end(&mut self, phase: Phase, step: &str) -> bool {
        if !self.running() {
            return false;
        }
        self.phase = phase;
        self.step = step.into();
        true
    }

    /// Applies a message of the worker. Returns true when it ended the run. Samples still come
    /// after the end (the reader changed the prompt and the worker, kept alive, wrote anew); any
    /// other message after the end changes nothing.
    pub fn apply(&mut self, message: KdMessage) -> bool {
        if let KdMessage::Sample(s) = message {
            if self.phase == Phase::Idle {
                return false;
            }
            self.samples
                .retain(|x| !(x.student == s.student && same(x.fraction, s.fraction)));
            self.samples.push(s);
            return false;
        }
        if !self.running() {
            return false;
        }
        match message {
            KdMessage::Progress(share, label) => {
                if share.is_finite() {
                    self.progress = share.clamp(0.0, 1.0);
                }
                self.step = label;
            }
            KdMessage::Curves(curves) => self.curves = curves,
            KdMessage::Row(row) => {
                self.rows
                    .retain(|x| !(x.student == row.student && same(x.fraction, row.fraction)));
                self.rows.push(row);
            }
            KdMessage::Failed(f) => self.failures.push(f),
            KdMessage::Done => {
                self.progress = 1.0;
                return self.end(Phase::Done, "Done.");
            }
            KdMessage::Error(message) => {
                self.error = Some(message);
                return self.end(Phase::Failed, "The experiment could not go on.");
            }
            _ => {}
        }
        false
    }

    /// `42% · Scoring the teacher`: the progress line, its figure first.
    pub fn progress_text(&self) -> String {
        match self.phase {
            Phase::Idle => "0% · not started".into(),
            _ => format!(
                "{}% · {}",
                fixed(self.progress * 100.0, 0),
                self.step.trim_end_matches('.')
            ),
        }
    }

    /// The rows in the table's order: the teacher, then each amount of text, hard before soft.
    pub fn ordered_rows(&self) -> Vec<&KdRow> {
        let rank = |r: &KdRow| match r.student {
            Student::Teacher => 0,
            s => {
                1 + 2 * fraction_index(r.fraction).unwrap_or(FRACTIONS.len())
                    + usize::from(s == Student::Soft)
            }
        };
        let mut rows: Vec<&KdRow> = self.rows.iter().collect();
        rows.sort_by_key(|r| rank(r));
        rows
    }

    /// The row of `student` at `fraction`, if measured.
    pub fn row(&self, student: Student, fraction: f64) -> Option<&KdRow> {
        self.rows.iter().find(|r| {
            r.student == student && (student == Student::Teacher || same(r.fraction, fraction))
        })
    }

    /// The latest sample of `student` at `fraction`, if any.
    pub fn sample(&self, student: Student, fraction: f64) -> Option<&KdSample> {
        self.samples.iter().find(|s| {
            s.student == student && (student == Student::Teacher || same(s.fraction, fraction))
        })
    }

    /// The loss curve of `student` at `fraction`, if the manifest had one.
    pub fn curve(&self, student: Student, fraction: f64) -> Option<&KdCurve> {
        self.curves.iter().find(|c| {
            c.student == student && (student == Student::Teacher || same(c.fraction, fraction))
        })
    }

    /// What the numbers show, one sentence per amount of text whose two students are both
    /// measured: which one the held-out text favours and by how much, and how close each came
    /// to the teacher.
    pub fn findings(&self) -> Vec<String> {
        FRACTIONS
            .iter()
            .filter_map(|&f| {
                let hard = self.row(Student::Hard, f)?;
                let soft = self.row(Student::Soft, f)?;
                Some(finding(f, hard, soft))
            })
            .collect()
    }
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// One amount of text's sentence.
fn finding(fraction: f64, hard: &KdRow, soft: &KdRow) -> String {
    let gap = hard.bits_per_char - soft.bits_per_char;
    let share = fraction_text(fraction);
    let loss = if gap.abs() < 0.005 {
        format!(
            "On {share} of the text the two students tie on held-out loss ({} bits per character)",
            fixed(soft.bits_per_char, 2)
        )
    } else {
        let (better, worse) = if gap > 0.0 {
            ("distilled", "hard-label")
        } else {
            ("hard-label", "distilled")
        };
        format!(
            "On {share} of the text the {better} student predicts the held-out text better: {} bits per character below the {worse} student's",
            fixed(gap.abs(), 2)
        )
    };
    let kl = if soft.kl_bits < hard.kl_bits {
        "the distilled student is closer to the teacher"
    } else {
        "the hard-label student is as close to the teacher or closer"
    };
    format!(
        "{loss}; {kl} (KL {} against {} bits).",
        three_figures(soft.kl_bits),
        three_figures(hard.kl_bits)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(json: &str) -> KdMessage {
        KdMessage::parse(json)
    }

    fn row(student: &str, fraction: f64, bits: f64, kl: f64) -> String {
        format!(
            r#"{{"type":"kd-row","student":"{student}","fraction":{fraction},"parameters":112128,"modelBytes":448512,"bitsPerChar":{bits},"klBits":{kl},"agreement":0.6,"tokensPerSecond":5000}}"#
        )
    }

    fn measured() -> KdRun {
        let mut r = KdRun::default();
        r.start();
        for json in [
            row("soft", 1.0, 2.999, 0.796),
            row("teacher", 1.0, 2.27, 0.0),
            row("hard", 0.01, 3.291, 1.049),
            row("hard", 1.0, 2.896, 0.709),
            row("soft", 0.01, 3.036, 0.832),
            row("hard", 0.1, 2.991, 0.784),
            row("soft", 0.1, 2.965, 0.757),
        ] {
            assert!(!r.apply(msg(&json)));
        }
        r
    }

    #[test]
    fn rows_come_in_the_tables_order_whatever_order_they_arrive_in() {
        let r = measured();
        let order: Vec<(&str, &str)> = r
            .ordered_rows()
            .iter()
            .map(|x| (x.student.id(), fraction_id(x.fraction)))
            .collect();
        assert_eq!(
            order,
            [
                ("teacher", "1"),
                ("hard", "0.01"),
                ("soft", "0.01"),
                ("hard", "0.1"),
                ("soft", "0.1"),
                ("hard", "1"),
                ("soft", "1"),
            ]
        );
    }

    #[test]
    fn a_repeated_row_replaces_the_earlier_one() {
        let mut r = measured();
        r.apply(msg(&row("hard", 0.1, 2.5, 0.5)));
        assert_eq!(r.rows.len(), 7);
        assert_eq!(
            r.row(Student::Hard, 0.1).map(|x| x.bits_per_char),
            Some(2.5)
        );
    }

    #[test]
    fn findings_say_which_student_wins_at_each_amount_and_by_how_much() {
        let f = measured().findings();
        assert_eq!(f.len(), 3);
        assert!(f[0].starts_with("On 1\u{a0}% of the text the distilled student predicts the held-out text better: 0.26 bits"), "{}", f[0]);
        let says = [
            (
                0,
                "the distilled student is closer to the teacher (KL 0.832 against 1.05 bits)",
            ),
            (
                1,
                "distilled student predicts the held-out text better: 0.03 bits",
            ),
            (
                2,
                "the hard-label student predicts the held-out text better: 0.10 bits",
            ),
            (
                2,
                "the hard-label student is as close to the teacher or closer",
            ),
        ];
        for (i, text) in says {
            assert!(f[i].contains(text), "{}", f[i]);
        }
    }

    #[test]
    fn a_tie_is_called_a_tie_and_a_missing_student_gives_no_sentence() {
        let mut r = KdRun::default();
        r.start();
        r.apply(msg(&row("hard", 0.1, 2.9901, 0.8)));
        assert!(r.findings().is_empty());
        r.apply(msg(&row("soft", 0.1, 2.9899, 0.8)));
        assert!(
            r.findings()[0].contains("tie on held-out loss (2.99 bits"),
            "{:?}",
            r.findings()
        );
    }

    #[test]
    fn a_run_ends_on_done_stop_or_error_and_ignores_later_rows_but_not_samples() {
        let mut r = measured();
        assert!(r.apply(msg(r#"{"type":"done"}"#)));
        assert_eq!(r.phase, Phase::Done);
        assert_eq!(r.progress_text(), "100% · Done");
        assert!(!r.apply(msg(&row("hard", 0.1, 1.0, 0.1))));
        assert_eq!(
            r.row(Student::Hard, 0.1).map(|x| x.bits_per_char),
            Some(2.991)
        );
        r.apply(msg(r#"{"type":"kd-sample","student":"soft","fraction":0.1,"prompt":"To be","text":" or not","error":null}"#));
        r.apply(msg(r#"{"type":"kd-sample","student":"soft","fraction":0.1,"prompt":"To be,","text":" and","error":null}"#));
        assert_eq!(r.samples.len(), 1);
        assert_eq!(
            r.sample(Student::Soft, 0.1).map(|s| s.text.as_str()),
            Some(" and")
        );

        let mut stopped = measured();
        assert!(stopped.stop());
        assert!(!stopped.stop());
        assert_eq!(stopped.rows.len(), 7);

        let mut failed = KdRun::default();
        failed.start();
        assert!(failed.apply(msg(r#"{"type":"error","message":"no memory"}"#)));
        assert_eq!(failed.phase, Phase::Failed);
        assert_eq!(failed.error.as_deref(), Some("no memory"));
        // A message the page cannot read ends the run with a message, never a panic.
        let mut garbled = KdRun::default();
        garbled.start();
        assert!(garbled.apply(msg(r#"{"type":"kd-row","student":"uncle"}"#)));
        assert!(garbled
            .error
            .as_deref()
            .unwrap_or_default()
            .contains("cannot read"));
    }

    #[test]
    fn every_message_of_the_worker_reads_and_a_broken_one_says_why() {
        assert_eq!(msg(r#"{"type":"done"}"#), KdMessage::Done);
        assert_eq!(
            msg(r#"{"type":"engine","kernels":"simd128"}"#),
            KdMessage::Other
        );
        assert_eq!(
            msg(
                r#"{"type":"failed","model":"The distilled student on 1 % of the text","precision":null,"message":"out of memory"}"#
            ),
            KdMessage::Failed(Failure {
                model: "The distilled student on 1 % of the text".into(),
                precision: None,
                message: "out of memory".into()
            })
        );
        let KdMessage::Failed(f) =
            msg(r#"{"type":"failed","model":"The teacher","message":"no file."}"#)
        else {
            panic!("a failure")
        };
        assert_eq!(f.text(), "The teacher could not be measured: no file.");
        let missing = msg(r#"{"type":"kd-row","student":"hard","fraction":0.1}"#);
        assert_eq!(
            missing,
            KdMessage::Error(
                "the lab's worker sent a message this page cannot read (parameters)".into()
            )
        );
        assert!(matches!(msg("not json"), KdMessage::Error(e) if e.contains("cannot read")));
        assert!(matches!(
            msg(r#"{"type":"kd-sample","student":"uncle","fraction":1}"#),
            KdMessage::Error(_)
        ));
    }

    #[test]
    fn samples_before_any_start_are_ignored() {
        let mut r = KdRun::default();
        r.apply(msg(r#"{"type":"kd-sample","student":"teacher","fraction":1,"prompt":"a","text":"b","error":null}"#));
        assert!(r.samples.is_empty());
    }

    #[test]
    fn curves_and_progress_are_kept() {
        let mut r = KdRun::default();
        r.start();
        r.apply(msg(r#"{"type":"kd-curves","curves":[{"student":"hard","fraction":0.01,"points":[[1,6.4],[300,3.3]]}]}"#));
        r.apply(msg(
            r#"{"type":"progress","share":0.25,"label":"Scoring the teacher"}"#,
        ));
        assert_eq!(
            r.curve(Student::Hard, 0.01).map(|c| c.points.len()),
            Some(2)
        );
        assert!(r.curve(Student::Soft, 0.01).is_none());
        assert_eq!(r.progress_text(), "25% · Scoring the teacher");
    }

    #[test]
    fn prompts_the_models_cannot_take_get_a_message() {
        assert_eq!(prompt_problem(DEFAULT_PROMPT), None);
        assert!(prompt_problem("").is_some());
        assert!(prompt_problem(&"a".repeat(MAX_PROMPT)).is_none());
        assert!(prompt_problem(&"a".repeat(MAX_PROMPT + 1))
            .unwrap_or_default()
            .starts_with("121 characters"));
        let p = prompt_problem("Caf\u{e9} \u{e9}t\u{e9} #1\t").unwrap_or_default();
        assert!(
            p.contains("\u{201c}#\u{201d}")
                && p.contains("\u{201c}\u{e9}\u{201d}")
                && p.contains("tab"),
            "{p}"
        );
        assert_eq!(p.matches('\u{e9}').count(), 1, "each character once: {p}");
    }

    #[test]
    fn the_alphabet_is_the_manifests() {
        let manifest: serde_json::Value =
            serde_json::from_str(include_str!("../../models/manifest.json")).unwrap_or_default();
        assert_eq!(manifest["corpus"]["vocab"].as_str(), Some(ALPHABET));
        let golden = manifest["golden"]["prompt"].as_str().unwrap_or_default();
        assert_eq!(golden, DEFAULT_PROMPT);
    }

    #[test]
    fn fractions_have_stable_ids_and_texts() {
        assert_eq!(FRACTIONS.map(fraction_id), ["0.01", "0.1", "1"]);
        assert_eq!(fraction_text(0.1), "10\u{a0}%");
    }
}
