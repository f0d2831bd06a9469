//! The reader's inputs to the playground as one plain value: what is kept between visits
//! (`ie-course:distillation`) and what the address carries (`?dl.t=2&dl.teacher=0.5,0.3,0.1,0.1`),
//! read back and checked the same way wherever it comes from, so that neither a stored value nor
//! a link can put a broken or absurd number on screen. Pure, and tested natively.
//!
//! Not kept: the trainer's run (its steps and charts), which a press of Train recreates.

pub use crate::logic::distill::training::{TrainLoss, TrainStart};
use crate::logic::distill::{
    self, Comparison, Entry, LossSum, Preset, MAX_TOKENS, MIN_TOKENS, PRESETS,
};
use crate::logic::format::fixed;
use crate::logic::query;
use crate::logic::{parse_number, InputError};
use serde::{Deserialize, Serialize};

/// Name of the stored value (`ie-course:distillation`) and its schema version.
pub const STORE_NAME: &str = "distillation";
pub const STORE_VERSION: u32 = 1;
/// The playground's keys in the address start with `dl.`.
pub const URL_PREFIX: &str = "dl";
/// Longest token label (characters), as the label field allows.
pub const MAX_LABEL_CHARS: usize = 24;
/// Longest text a number field may hold when it comes from a link or storage (characters).
const MAX_NUMBER_CHARS: usize = 64;
/// Most gradient steps one training run may take.
pub const MAX_TRAIN_STEPS: usize = 2_000;
/// The settings' starting texts.
pub const DEFAULT_TEMPERATURE: &str = "1";
pub const DEFAULT_ALPHA: &str = "0.5";
pub const DEFAULT_LEARNING_RATE: &str = "1";
pub const DEFAULT_STEPS: &str = "150";

/// The three distributions, in column order: (test id prefix, name a reader sees).
pub const DISTS: [(&str, &str); 3] = [
    ("teacher", "Teacher"),
    ("student-a", "Student A"),
    ("student-b", "Student B"),
];

/// One candidate token: its label and the three typed values (teacher, student A, student B).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub label: String,
    pub values: [String; 3],
}

impl Row {
    /// The typed value of distribution `d` (0 teacher, 1 student A, 2 student B); empty past them.
    pub fn value(&self, d: usize) -> &str {
        self.values.get(d).map_or("", String::as_str)
    }

    /// Sets the typed value of distribution `d` (nothing happens past them).
    pub fn set_value(&mut self, d: usize, text: String) {
        if let Some(v) = self.values.get_mut(d) {
            *v = text;
        }
    }
}

/// The test id prefix and name of distribution `d` (see [`DISTS`]; the teacher's past them).
pub fn dist(d: usize) -> (&'static str, &'static str) {
    DISTS.get(d).copied().unwrap_or(("teacher", "Teacher"))
}

/// A preset's tokens, its values written as probabilities.
pub fn rows_of(preset: &Preset) -> Vec<Row> {
    let probs = preset
        .teacher
        .iter()
        .zip(&preset.student_a)
        .zip(&preset.student_b);
    preset
        .labels
        .iter()
        .zip(probs)
        .map(|(label, ((&t, &a), &b))| Row {
            label: label.to_string(),
            values: [t, a, b].map(|x| distill::value_text(Entry::Weights, x)),
        })
        .collect()
}

/// The hard label a preset asks for: `None` (the teacher's top token) when they agree.
pub fn hard_pick_of(preset: &Preset) -> Option<usize> {
    (distill::argmax(&preset.teacher) != Some(preset.hard_index)).then_some(preset.hard_index)
}

/// The preset with id `id`.
pub fn preset_by_id(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// The id an entry mode has in the menu, the address and storage.
pub fn entry_id(entry: Entry) -> &'static str {
    match entry {
        Entry::Weights => "weights",
        Entry::Logits => "logits",
    }
}

/// The entry mode with id `id`.
pub fn entry_from_id(id: &str) -> Option<Entry> {
    match id {
        "weights" => Some(Entry::Weights),
        "logits" => Some(Entry::Logits),
        _ => None,
    }
}

/// Parses the number of training steps, as typed (a whole number, 1..=`MAX_TRAIN_STEPS`).
pub fn parse_steps(text: &str) -> Result<usize, InputError> {
    parse_number(
        distill::Field::Steps,
        text,
        1.0,
        false,
        MAX_TRAIN_STEPS as f64,
    )
    .and_then(|s| {
        if s.fract() == 0.0 {
            Ok(s as usize)
        } else {
            Err(InputError::new(
                distill::Field::Steps,
                "Enter a whole number of steps.",
            ))
        }
    })
}

/// Everything the reader sets in the playground, as typed (number fields keep their text).
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// Id of the example the tokens came from (it gives the sentence shown above the table).
    pub preset: &'static str,
    /// The tokens, 2..=10.
    pub rows: Vec<Row>,
    /// How the values are typed.
    pub entry: Entry,
    /// The right token, or `None` for the teacher's top token.
    pub hard_pick: Option<usize>,
    /// Temperature T, as typed.
    pub temperature: String,
    /// α, the weight of the hard loss, as typed.
    pub alpha: String,
    /// What the trainer minimises.
    pub train_loss: TrainLoss,
    /// How the trained student starts.
    pub train_start: TrainStart,
    /// Learning rate, as typed.
    pub learning_rate: String,
    /// Number of training steps, as typed.
    pub steps: String,
}

/// `text` cut to a few characters for quoting in a message.
fn short(text: &str) -> String {
    const KEEP: usize = 24;
    if text.chars().count() > KEEP {
        format!("{}\u{2026}", text.chars().take(KEEP).collect::<String>())
    } else {
        text.to_string()
    }
}

/// Checks a number's text with `parse`, refusing text too long to be a number first (so that
/// a message never quotes a whole page of junk).
fn check_number<T>(
    text: &str,
    parse: impl Fn(&str) -> Result<T, InputError>,
) -> Result<T, InputError> {
    if text.chars().count() > MAX_NUMBER_CHARS {
        return Err(InputError::new(
            distill::Field::Value,
            "The value is too long to be a number.",
        ));
    }
    parse(text)
}

impl Inputs {
    /// The playground as the lesson sets it up from `preset`.
    pub fn lesson(preset: &'static Preset) -> Self {
        Inputs {
            preset: preset.id,
            rows: rows_of(preset),
            entry: Entry::Weights,
            hard_pick: hard_pick_of(preset),
            temperature: DEFAULT_TEMPERATURE.into(),
            alpha: DEFAULT_ALPHA.into(),
            train_loss: TrainLoss::default(),
            train_start: TrainStart::default(),
            learning_rate: DEFAULT_LEARNING_RATE.into(),
            steps: DEFAULT_STEPS.into(),
        }
    }

    /// The same inputs with every number's text trimmed, as a reader means it (labels are kept
    /// as typed).
    pub fn trimmed(mut self) -> Self {
        for row in &mut self.rows {
            for v in &mut row.values {
                *v = v.trim().to_string();
            }
        }
        for text in [
            &mut self.temperature,
            &mut self.alpha,
            &mut self.learning_rate,
            &mut self.steps,
        ] {
            *text = text.trim().to_string();
        }
        self
    }

    /// The tokens, entry mode and hard label of example `p` (the settings stay as they are).
    pub fn apply_example(&mut self, p: &'static Preset) {
        let example = Inputs::lesson(p);
        self.preset = example.preset;
        self.rows = example.rows;
        self.entry = example.entry;
        self.hard_pick = example.hard_pick;
    }

    /// Values typed another way: every valid column is rewritten so that its distribution
    /// stays the same (see [`convert_rows`]).
    pub fn set_entry(&mut self, to: Entry) {
        self.rows = convert_rows(&self.rows, self.entry, to);
        self.entry = to;
    }

    /// One more token (up to [`MAX_TOKENS`]), labelled by its number, with a value that gives
    /// it next to no probability: 0 as a weight, −5 as a logit.
    pub fn add_token(&mut self) {
        if self.rows.len() >= MAX_TOKENS {
            return;
        }
        let fill = match self.entry {
            Entry::Weights => "0",
            Entry::Logits => "-5",
        };
        self.rows.push(Row {
            label: format!("token {}", self.rows.len()),
            values: [fill, fill, fill].map(String::from),
        });
    }

    /// Removes token `i` (never below [`MIN_TOKENS`]). A hard label on it goes back to the
    /// teacher's top token; one after it moves down with its token.
    pub fn remove_token(&mut self, i: usize) {
        if self.rows.len() <= MIN_TOKENS || i >= self.rows.len() {
            return;
        }
        self.rows.remove(i);
        self.hard_pick = match self.hard_pick {
            Some(k) if k == i => None,
            Some(k) if k > i => Some(k - 1),
            other => other,
        };
    }

    /// Token `i`'s label, as typed.
    pub fn set_label(&mut self, i: usize, label: String) {
        if let Some(row) = self.rows.get_mut(i) {
            row.label = label;
        }
    }

    /// Token `i`'s value in distribution `d`, as typed.
    pub fn set_value(&mut self, i: usize, d: usize, text: String) {
        if let Some(row) = self.rows.get_mut(i) {
            row.set_value(d, text);
        }
    }

    /// The example the tokens came from.
    pub fn preset(&self) -> &'static Preset {
        preset_by_id(self.preset).unwrap_or(&distill::SEED_PRESET)
    }

    /// Whether every input is one the playground can compute with; else the first problem, as
    /// a sentence a reader can act on.
    pub fn check(&self) -> Result<(), String> {
        if preset_by_id(self.preset).is_none() {
            return Err(format!(
                "There is no example called \u{201c}{}\u{201d}.",
                short(self.preset)
            ));
        }
        let n = self.rows.len();
        if !(MIN_TOKENS..=MAX_TOKENS).contains(&n) {
            return Err(format!(
                "The playground takes {MIN_TOKENS} to {MAX_TOKENS} tokens, not {n}."
            ));
        }
        for (i, row) in self.rows.iter().enumerate() {
            if row.label.chars().count() > MAX_LABEL_CHARS {
                return Err(format!(
                    "The label of token {i} is longer than {MAX_LABEL_CHARS} characters."
                ));
            }
        }
        for (d, (_, name)) in DISTS.iter().enumerate() {
            let mut values = Vec::with_capacity(n);
            for (i, row) in self.rows.iter().enumerate() {
                let v = check_number(row.value(d), |t| distill::parse_value(self.entry, t))
                    .map_err(|e| format!("{name}, token {i}: {}", e.message))?;
                values.push(v);
            }
            distill::log_probs(self.entry, &values)
                .map_err(|e| format!("{name}: {}", e.message))?;
        }
        if let Some(k) = self.hard_pick {
            if k >= n {
                return Err(format!(
                    "The hard label is token {k}, but the tokens are numbered 0 to {}.",
                    n - 1
                ));
            }
        }
        let setting = |e: InputError, field: &str| format!("{field}: {}", e.message);
        check_number(&self.temperature, distill::parse_temperature)
            .map_err(|e| setting(e, "Temperature T"))?;
        check_number(&self.alpha, distill::parse_alpha).map_err(|e| setting(e, "\u{3b1}"))?;
        check_number(&self.learning_rate, distill::parse_learning_rate)
            .map_err(|e| setting(e, "Learning rate"))?;
        check_number(&self.steps, parse_steps).map_err(|e| setting(e, "Steps"))?;
        Ok(())
    }

    /// The address's `dl.` keys for these inputs: only what differs from the example they
    /// started from (and the example itself when it is not `lesson`, the one the lesson
    /// shows first), so an untouched playground leaves the address clean and a preset is one key.
    pub fn to_query(&self, lesson: &'static Preset) -> Vec<(&'static str, String)> {
        let base = Inputs::lesson(self.preset());
        let mut out = Vec::new();
        if self.preset != lesson.id {
            out.push(("preset", self.preset.to_string()));
        }
        if self.entry != base.entry {
            out.push(("entry", entry_id(self.entry).to_string()));
        }
        let labels = |rows: &[Row]| rows.iter().map(|r| r.label.clone()).collect::<Vec<_>>();
        if labels(&self.rows) != labels(&base.rows) {
            out.push(("labels", join_list(&labels(&self.rows))));
        }
        for (d, key) in COLUMN_KEYS.iter().enumerate() {
            let column = |rows: &[Row]| rows.iter().map(|r| r.value(d).to_string()).collect();
            let mine: Vec<String> = column(&self.rows);
            if mine != column(&base.rows) {
                out.push((key, join_list(&mine)));
            }
        }
        if self.hard_pick != base.hard_pick {
            let hard = self
                .hard_pick
                .map_or_else(|| "auto".into(), |k| k.to_string());
            out.push(("hard", hard));
        }
        for (key, mine, theirs) in [
            ("t", &self.temperature, &base.temperature),
            ("alpha", &self.alpha, &base.alpha),
            ("lr", &self.learning_rate, &base.learning_rate),
            ("steps", &self.steps, &base.steps),
        ] {
            if mine != theirs {
                out.push((key, mine.clone()));
            }
        }
        if self.train_loss != base.train_loss {
            out.push(("train", self.train_loss.id().to_string()));
        }
        if self.train_start != base.train_start {
            out.push(("start", self.train_start.id().to_string()));
        }
        out
    }

    /// The inputs an address (`location.search`) carries: `Ok(None)` when it has no `dl.` key,
    /// the inputs when they can be used, else the first problem as a sentence. Keys it leaves
    /// out keep the values of the example it names (`lesson` when it names none).
    pub fn from_query(search: &str, lesson: &'static Preset) -> Result<Option<Inputs>, String> {
        let values = query::read(search, URL_PREFIX);
        if values.is_empty() {
            return Ok(None);
        }
        let get = |key: &str| query::value_of(&values, key);
        let preset = match get("preset") {
            None => lesson,
            Some(id) => preset_by_id(id).ok_or_else(|| {
                format!("There is no example called \u{201c}{}\u{201d}.", short(id))
            })?,
        };
        let mut inputs = Inputs::lesson(preset);
        if let Some(id) = get("entry") {
            inputs.entry = entry_from_id(id).ok_or_else(|| {
                format!(
                    "Values are entered as \u{201c}weights\u{201d} or \u{201c}logits\u{201d}, \
                     not \u{201c}{}\u{201d}.",
                    short(id)
                )
            })?;
        }
        let mut labels: Vec<String> = inputs.rows.iter().map(|r| r.label.clone()).collect();
        if let Some(list) = get("labels") {
            labels = split_list(list);
        }
        if labels.len() > MAX_TOKENS {
            return Err(format!(
                "The playground takes {MIN_TOKENS} to {MAX_TOKENS} tokens, not {}.",
                labels.len()
            ));
        }
        let mut columns: [Vec<String>; 3] = Default::default();
        for (d, (column, key)) in columns.iter_mut().zip(COLUMN_KEYS).enumerate() {
            *column = match get(key) {
                Some(list) => split_list(list),
                None => inputs.rows.iter().map(|r| r.value(d).to_string()).collect(),
            };
            if column.len() != labels.len() {
                return Err(format!(
                    "The address gives {} labels but {} values for {}.",
                    labels.len(),
                    column.len(),
                    dist(d).1
                ));
            }
        }
        let [teacher, a, b] = columns;
        inputs.rows = labels
            .into_iter()
            .zip(teacher)
            .zip(a)
            .zip(b)
            .map(|(((label, t), a), b)| Row {
                label,
                values: [t, a, b],
            })
            .collect();
        if let Some(hard) = get("hard") {
            inputs.hard_pick = match hard {
                "auto" => None,
                k => Some(k.parse().map_err(|_| {
                    format!(
                        "The hard label is \u{201c}auto\u{201d} or a token\u{2019}s number, \
                         not \u{201c}{}\u{201d}.",
                        short(k)
                    )
                })?),
            };
        }
        for (key, field) in [
            ("t", &mut inputs.temperature),
            ("alpha", &mut inputs.alpha),
            ("lr", &mut inputs.learning_rate),
            ("steps", &mut inputs.steps),
        ] {
            if let Some(text) = get(key) {
                *field = text.to_string();
            }
        }
        if let Some(id) = get("train") {
            inputs.train_loss = TrainLoss::from_id(id).ok_or_else(|| {
                format!(
                    "Training uses the hard, soft or mix loss, not \u{201c}{}\u{201d}.",
                    short(id)
                )
            })?;
        }
        if let Some(id) = get("start") {
            inputs.train_start = TrainStart::from_id(id).ok_or_else(|| {
                format!(
                    "The trained student starts uniform or seeded, not \u{201c}{}\u{201d}.",
                    short(id)
                )
            })?;
        }
        inputs.check()?;
        Ok(Some(inputs))
    }
}

/// Rewrites the typed values of every valid column for a new entry mode, keeping the
/// distributions: weights become ln p (logits), logits become probabilities.
pub fn convert_rows(rows: &[Row], from: Entry, to: Entry) -> Vec<Row> {
    let mut out = rows.to_vec();
    if from == to {
        return out;
    }
    for d in 0..DISTS.len() {
        let values: Result<Vec<f64>, InputError> = rows
            .iter()
            .map(|r| distill::parse_value(from, r.value(d)))
            .collect();
        let Ok(z) = values.and_then(|v| distill::log_probs(from, &v)) else {
            continue;
        };
        let probs = distill::softmax(&z, 1.0);
        for ((row, &zi), &p) in out.iter_mut().zip(&z).zip(&probs) {
            let x = match to {
                Entry::Logits => zi.max(-distill::MAX_LOGIT),
                Entry::Weights => p,
            };
            row.set_value(d, distill::value_text(to, x));
        }
    }
    out
}

/// The address keys of the three columns, in `DISTS` order.
const COLUMN_KEYS: [&str; 3] = ["teacher", "a", "b"];

/// A list as one address value: items joined by commas, with `%` and `,` inside an item
/// written `%25` and `%2C` (the address's own encoding is applied on top, by `logic::query`).
fn join_list(items: &[String]) -> String {
    items
        .iter()
        .map(|item| item.replace('%', "%25").replace(',', "%2C"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The items of a list written by [`join_list`]; any other `%` is kept as it is.
fn split_list(list: &str) -> Vec<String> {
    list.split(',')
        .map(|item| {
            let mut out = String::with_capacity(item.len());
            let mut rest = item;
            while let Some(at) = rest.find('%') {
                out.push_str(&rest[..at]);
                let tail = &rest[at..];
                let escape = tail.get(..3).map(str::to_ascii_uppercase);
                match escape.as_deref() {
                    Some("%25") => out.push('%'),
                    Some("%2C") => out.push(','),
                    _ => {
                        out.push('%');
                        rest = &tail[1..];
                        continue;
                    }
                }
                rest = &tail[3..];
            }
            out.push_str(rest);
            out
        })
        .collect()
}

/// Where the playground starts, and what to tell the reader about it: the address when it
/// carries playground values, else what this reader saved, else the lesson's example.
///
/// The address wins over storage because a shared link exists to show the sender's playground
/// exactly; the reader's own saved values stay stored, untouched, until they edit (the widget
/// does not save the state it starts from). A link whose values cannot be used gives the
/// lesson's example, not the saved values, so nothing on screen passes for what the link meant.
pub fn starting_inputs(
    lesson: &'static Preset,
    address: Result<Option<Inputs>, String>,
    saved: Option<Inputs>,
) -> (Inputs, Option<String>) {
    match address {
        Ok(Some(inputs)) => (inputs, None),
        Ok(None) => (saved.unwrap_or_else(|| Inputs::lesson(lesson)), None),
        Err(problem) => (
            Inputs::lesson(lesson),
            Some(format!(
                "The playground values in this page\u{2019}s address could not be used, so it \
                 shows the lesson\u{2019}s example. {problem}"
            )),
        ),
    }
}

/// How [`Inputs`] is stored: plain strings and lists, checked on the way back in.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Stored {
    preset: String,
    entry: String,
    tokens: Vec<StoredToken>,
    hard: Option<usize>,
    temperature: String,
    alpha: String,
    train_loss: String,
    train_start: String,
    learning_rate: String,
    steps: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredToken {
    label: String,
    teacher: String,
    student_a: String,
    student_b: String,
}

impl From<Inputs> for Stored {
    fn from(inputs: Inputs) -> Self {
        Stored {
            preset: inputs.preset.to_string(),
            entry: entry_id(inputs.entry).to_string(),
            tokens: inputs
                .rows
                .into_iter()
                .map(|Row { label, values }| {
                    let [teacher, student_a, student_b] = values;
                    StoredToken {
                        label,
                        teacher,
                        student_a,
                        student_b,
                    }
                })
                .collect(),
            hard: inputs.hard_pick,
            temperature: inputs.temperature,
            alpha: inputs.alpha,
            train_loss: inputs.train_loss.id().to_string(),
            train_start: inputs.train_start.id().to_string(),
            learning_rate: inputs.learning_rate,
            steps: inputs.steps,
        }
    }
}

impl Serialize for Inputs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Stored::from(self.clone()).serialize(serializer)
    }
}

/// Reads a stored value and checks it: a value that cannot be used is an error, so storage
/// backs it up and says why instead of handing the playground absurd inputs.
impl<'de> Deserialize<'de> for Inputs {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let stored = Stored::deserialize(deserializer)?;
        Inputs::try_from(stored).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<Stored> for Inputs {
    type Error = String;

    fn try_from(s: Stored) -> Result<Self, String> {
        let unknown =
            |what: &str, id: &str| format!("unknown {what} \u{201c}{}\u{201d}", short(id));
        let inputs = Inputs {
            preset: preset_by_id(&s.preset)
                .ok_or_else(|| unknown("example", &s.preset))?
                .id,
            entry: entry_from_id(&s.entry).ok_or_else(|| unknown("entry mode", &s.entry))?,
            rows: s
                .tokens
                .into_iter()
                .map(|t| Row {
                    label: t.label,
                    values: [t.teacher, t.student_a, t.student_b],
                })
                .collect(),
            hard_pick: s.hard,
            temperature: s.temperature,
            alpha: s.alpha,
            train_loss: TrainLoss::from_id(&s.train_loss)
                .ok_or_else(|| unknown("training loss", &s.train_loss))?,
            train_start: TrainStart::from_id(&s.train_start)
                .ok_or_else(|| unknown("student start", &s.train_start))?,
            learning_rate: s.learning_rate,
            steps: s.steps,
        };
        inputs.check()?;
        Ok(inputs)
    }
}

// ------------------------------------------------------------------------------------------
// What the inputs give: the comparison, or every problem with them.

/// The label shown for token `i` (a blank label shows as "token i").
pub fn shown_label(rows: &[Row], i: usize) -> String {
    match rows.get(i).map(|r| r.label.trim()) {
        Some(l) if !l.is_empty() => l.to_string(),
        _ => format!("token {i}"),
    }
}

/// What is wrong with the reader's inputs: per cell, per distribution, and per setting.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Problems {
    /// (distribution, token, message).
    pub cells: Vec<(usize, usize, String)>,
    /// (distribution, message) for a column that cannot be a distribution (e.g. all zero).
    pub columns: Vec<(usize, String)>,
    /// Why the temperature cannot be used.
    pub temperature: Option<String>,
    /// Why α cannot be used.
    pub alpha: Option<String>,
}

/// Parses every input and compares the students with the teacher, or says what is wrong.
pub fn evaluate(
    rows: &[Row],
    entry: Entry,
    hard_pick: Option<usize>,
    temperature: &str,
    alpha: &str,
) -> Result<Comparison, Problems> {
    let mut problems = Problems::default();
    let mut columns: Vec<Vec<f64>> = Vec::with_capacity(3);
    for d in 0..DISTS.len() {
        let mut values = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            match distill::parse_value(entry, row.value(d)) {
                Ok(v) => values.push(v),
                Err(e) => problems.cells.push((d, i, e.message)),
            }
        }
        if values.len() == rows.len() {
            match distill::log_probs(entry, &values) {
                Ok(z) => columns.push(z),
                Err(e) => problems.columns.push((d, e.message)),
            }
        }
    }
    let t = distill::parse_temperature(temperature);
    let a = distill::parse_alpha(alpha);
    problems.temperature = t.as_ref().err().map(|e| e.message.clone());
    problems.alpha = a.as_ref().err().map(|e| e.message.clone());
    match (columns.as_slice(), t, a) {
        ([teacher, sa, sb], Ok(t), Ok(a)) => Ok(distill::compare(
            teacher,
            [sa.as_slice(), sb.as_slice()],
            hard_pick,
            t,
            a,
        )),
        _ => Err(problems),
    }
}

/// A loss as its output shows it: the number to 3 decimals, or ∞.
pub fn loss_text(x: f64) -> String {
    fixed(x, 3)
}

/// One sentence on why a loss is infinite, naming the token the student gives 0.
pub fn infinity_sentence(rows: &[Row], student: &str, loss: &str, sum: &LossSum) -> Option<String> {
    let i = sum.infinite_at()?;
    let target = sum.terms.get(i).map(|t| t.target).unwrap_or(0.0);
    Some(format!(
        "{student}\u{2019}s {loss} loss is \u{221e}: it gives \u{201c}{}\u{201d} probability 0 \
         while the target gives it {}, and \u{2212}ln 0 is unbounded, so a single such token \
         makes the whole sum infinite.",
        shown_label(rows, i),
        fixed(target, 3)
    ))
}

#[cfg(test)]
mod tests;
