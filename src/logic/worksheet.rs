//! The try-it worksheet: the task and pass threshold, locked before any score; per-prompt
//! results of a small and a large model; tok/s from llama-bench; and the decision sentence.
//! Pure: no web types, tested natively. This is the value that is stored.

use super::calendar::utc_minute;
use crate::logic::format::plain;
use crate::logic::{parse_number, InputError};
use serde::{Deserialize, Serialize};

super::input::form_fields! {
    Worksheet:
    /// The worksheet's fields.
    pub enum Field {
        Prompts => "Prompts",
        PassThreshold => "Pass threshold",
        SmallTps => "Small model tok/s",
        LargeTps => "Large model tok/s",
        /// The lock itself (locking twice).
        Lock => "Lock",
    }
}

/// Most prompts a worksheet holds.
pub const MAX_PROMPTS: u32 = 50;
/// Largest tokens per second accepted.
pub const MAX_TPS: f64 = 100_000.0;

/// Which of the two candidate models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The smaller candidate (the one the procedure hopes passes).
    Small,
    /// The larger candidate.
    Large,
}

/// The worksheet as the reader fills it in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Worksheet {
    /// The task the eval tests, in the reader's words.
    pub task: String,
    /// Number of prompts in the eval, as typed.
    pub prompts: String,
    /// Prompts that must pass, as typed.
    pub threshold: String,
    /// When the task and threshold were locked (Unix time, ms); `None` until then.
    pub locked_at_ms: Option<f64>,
    /// The threshold and prompt count fixed at locking.
    pub locked: Option<Locked>,
    /// Name of the small model, e.g. "3B".
    pub small_name: String,
    /// Name of the large model, e.g. "14B".
    pub large_name: String,
    /// Per prompt: did the small model pass it.
    pub small_passes: Vec<bool>,
    /// Per prompt: did the large model pass it.
    pub large_passes: Vec<bool>,
    /// Small model's tokens per second from llama-bench, as typed (may be empty).
    pub small_tps: String,
    /// Large model's tokens per second from llama-bench, as typed (may be empty).
    pub large_tps: String,
}

/// What locking fixed. A stored lock outside what locking allows (prompts 1 to
/// [`MAX_PROMPTS`], a threshold from 1 to the prompts) does not read, so the worksheet is
/// backed up rather than sized by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "LockedAsStored")]
pub struct Locked {
    /// Prompts in the eval.
    pub prompts: u32,
    /// Prompts that must pass.
    pub threshold: u32,
}

/// [`Locked`] as stored, before it is checked.
#[derive(Deserialize)]
struct LockedAsStored {
    prompts: u32,
    threshold: u32,
}

impl TryFrom<LockedAsStored> for Locked {
    type Error = String;
    fn try_from(l: LockedAsStored) -> Result<Self, String> {
        if (1..=MAX_PROMPTS).contains(&l.prompts) && (1..=l.prompts).contains(&l.threshold) {
            Ok(Locked {
                prompts: l.prompts,
                threshold: l.threshold,
            })
        } else {
            Err(format!(
                "a locked threshold of {} of {} prompts is not one locking allows",
                l.threshold, l.prompts
            ))
        }
    }
}

impl Default for Worksheet {
    fn default() -> Self {
        Worksheet {
            task: String::new(),
            prompts: "10".into(),
            threshold: "8".into(),
            locked_at_ms: None,
            locked: None,
            small_name: "3B".into(),
            large_name: "14B".into(),
            small_passes: Vec::new(),
            large_passes: Vec::new(),
            small_tps: String::new(),
            large_tps: String::new(),
        }
    }
}

/// Why scoring was refused.
pub const NOT_LOCKED: &str =
    "Lock the task and threshold first: a threshold chosen after seeing the answers tests your reaction, not the task.";

/// Parses the number of prompts, as typed (a whole number, 1 to 50).
pub fn parse_prompts(text: &str) -> Result<u32, InputError> {
    whole(Field::Prompts, text, 1, MAX_PROMPTS)
}

/// Parses the pass threshold, as typed (a whole number of prompts, 1 to `prompts`).
pub fn parse_threshold(text: &str, prompts: u32) -> Result<u32, InputError> {
    whole(Field::PassThreshold, text, 1, prompts)
}

fn whole(field: Field, text: &str, min: u32, max: u32) -> Result<u32, InputError> {
    let v = parse_number(field, text, f64::from(min), false, f64::from(max))?;
    if v.fract() != 0.0 {
        return Err(InputError::new(field, "Enter a whole number of prompts."));
    }
    Ok(v as u32)
}

/// Parses tokens per second, as typed; empty text means "not measured yet".
pub fn parse_tps(field: Field, text: &str) -> Result<Option<f64>, InputError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    parse_number(field, text, 0.0, true, MAX_TPS).map(Some)
}

/// "the 3B model", or "the small model" when the name is blank.
fn model_phrase(name: &str, fallback: &str) -> String {
    let name = name.trim();
    if name.is_empty() {
        format!("the {fallback} model")
    } else if name.to_ascii_lowercase().ends_with("model") {
        format!("the {name}")
    } else {
        format!("the {name} model")
    }
}

/// Prompt numbers as prose: "2", "2 and 5", "2, 5 and 7".
fn listed(numbers: &[usize]) -> String {
    let words: Vec<String> = numbers.iter().map(|n| n.to_string()).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The phrase with its first letter capital (`model_phrase` starts every phrase with "the").
/// ASCII only: the standard library's Unicode case tables would add kilobytes to the page.
fn capitalised(s: &str) -> String {
    let mut s = s.to_owned();
    if let Some(first) = s.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    s
}

impl Worksheet {
    /// Whether the task and threshold are locked.
    pub fn is_locked(&self) -> bool {
        self.locked.is_some()
    }

    /// Locks the task and threshold at `now_ms`; refuses if already locked or the threshold is
    /// not usable. Resets the per-prompt results to the locked number of prompts.
    pub fn lock(&mut self, now_ms: f64) -> Result<(), Vec<InputError>> {
        if self.is_locked() {
            return Err(vec![InputError::new(Field::Lock, "Already locked.")]);
        }
        let prompts = parse_prompts(&self.prompts).map_err(|e| vec![e])?;
        let threshold = parse_threshold(&self.threshold, prompts).map_err(|e| vec![e])?;
        self.locked = Some(Locked { prompts, threshold });
        // Whole milliseconds, as the clock gives them, so the stored time reads back exactly.
        self.locked_at_ms = Some(now_ms.floor());
        self.small_passes = vec![false; prompts as usize];
        self.large_passes = vec![false; prompts as usize];
        Ok(())
    }

    /// Records whether `which` model passed prompt `index` (0-based). Refused before locking
    /// (with [`NOT_LOCKED`]) and for a prompt outside the eval.
    pub fn mark(&mut self, which: Which, index: usize, passed: bool) -> Result<(), &'static str> {
        let Some(locked) = self.locked else {
            return Err(NOT_LOCKED);
        };
        if index >= locked.prompts as usize {
            return Err("There is no such prompt.");
        }
        let passes = match which {
            Which::Small => &mut self.small_passes,
            Which::Large => &mut self.large_passes,
        };
        passes.resize(locked.prompts as usize, false);
        if let Some(pass) = passes.get_mut(index) {
            *pass = passed;
        }
        Ok(())
    }

    /// Whether `which` model passed prompt `index` (false when not marked).
    pub fn passed(&self, which: Which, index: usize) -> bool {
        let passes = match which {
            Which::Small => &self.small_passes,
            Which::Large => &self.large_passes,
        };
        passes.get(index).copied().unwrap_or(false)
    }

    /// Prompts `which` model passed, counting only prompts of the locked eval.
    pub fn score(&self, which: Which) -> u32 {
        let n = self.locked.map_or(0, |l| l.prompts as usize);
        (0..n).filter(|&i| self.passed(which, i)).count() as u32
    }

    /// The model's name as a phrase ("the 3B model").
    pub fn model(&self, which: Which) -> String {
        match which {
            Which::Small => model_phrase(&self.small_name, "small"),
            Which::Large => model_phrase(&self.large_name, "large"),
        }
    }

    /// The decision: a sentence citing threshold and scores, or why there is none yet.
    pub fn decision(&self) -> Result<String, String> {
        let Some(Locked { prompts, threshold }) = self.locked else {
            return Err(format!("No decision yet. {NOT_LOCKED}"));
        };
        // Named by the worksheet's own fields, not `InputError`'s text (see `FormField::name`).
        let said = |field: Field| move |e: InputError| format!("{}: {}", field.name(), e.message);
        let tps_small =
            parse_tps(Field::SmallTps, &self.small_tps).map_err(said(Field::SmallTps))?;
        let tps_large =
            parse_tps(Field::LargeTps, &self.large_tps).map_err(said(Field::LargeTps))?;
        let (small, large) = (self.score(Which::Small), self.score(Which::Large));
        let (small_ok, large_ok) = (small >= threshold, large >= threshold);
        let (sm, lg) = (self.model(Which::Small), self.model(Which::Large));
        let verdict = |ok: bool| if ok { "passes" } else { "fails" };
        let mut out = format!(
            "Decision: {sm} scored {small} of {prompts} against a threshold of {threshold}, so it {}; \
             {lg} scored {large} of {prompts}, so it {}{}.",
            verdict(small_ok),
            verdict(large_ok),
            if small_ok == large_ok { " too" } else { "" }
        );
        // Ten or twenty prompts screen a model; they do not measure it. Say how wide the score's
        // uncertainty is, with the interval the mini eval uses.
        let (lo, hi) =
            super::eval::wilson_interval(small as usize, prompts as usize, super::eval::Z_95);
        out.push_str(&format!(
            " On {prompts} prompts, {small} of {prompts} fits a true pass rate anywhere from {}% to \
             {}% (95% Wilson interval): enough to rule a model out, not to ship it on.",
            crate::logic::format::fixed(lo * 100.0, 0),
            crate::logic::format::fixed(hi * 100.0, 0)
        ));
        let speed = match (tps_small, tps_large) {
            (Some(s), Some(l)) => Some(format!(
                "llama-bench measured {} tok/s for {sm} against {} tok/s for {lg} ({}\u{d7})",
                plain(s),
                plain(l),
                crate::logic::format::fixed(s / l, 1)
            )),
            _ => None,
        };
        let failed: Vec<usize> = (0..prompts as usize)
            .filter(|&i| !self.passed(Which::Small, i))
            .map(|i| i + 1)
            .collect();
        let next = if small_ok {
            format!(
                " Choose {sm}: it is the smallest model that passes{}.",
                speed.map(|s| format!(", and {s}")).unwrap_or_default()
            )
        } else if large_ok {
            format!(
                " Keep {lg} for now. {} failed prompt{} {}: read {} to judge whether fine-tuning could close the gap{}.",
                capitalised(&sm),
                if failed.len() == 1 { "" } else { "s" },
                listed(&failed),
                if failed.len() == 1 { "it" } else { "them" },
                speed.map(|s| format!("; {s}")).unwrap_or_default()
            )
        } else {
            " Neither passes: try a larger model or improve the approach, and keep the threshold as written.".to_string()
        };
        out.push_str(&next);
        if tps_small.is_none() || tps_large.is_none() {
            out.push_str(" Add both tok/s figures from llama-bench to compare speed.");
        }
        Ok(out)
    }

    /// The worksheet as Markdown, for download.
    pub fn markdown(&self) -> String {
        let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
        let name = |s: &str, fallback: &str| {
            if s.trim().is_empty() {
                fallback.to_string()
            } else {
                cell(s.trim())
            }
        };
        let (sn, ln) = (
            name(&self.small_name, "Small"),
            name(&self.large_name, "Large"),
        );
        let mut md = String::from(
            "# Try-it worksheet: the smallest model that passes\n\n## 1. Task and threshold\n\n",
        );
        let task = self.task.trim();
        md.push_str(if task.is_empty() {
            "(no task written)"
        } else {
            task
        });
        md.push_str("\n\n");
        match (self.locked, self.locked_at_ms) {
            (Some(l), Some(at)) => md.push_str(&format!(
                "Pass threshold: {} of {} prompts, locked at {} before any score was entered.\n\n",
                l.threshold,
                l.prompts,
                utc_minute(at)
            )),
            _ => md.push_str(&format!(
                "Pass threshold: {} of {} prompts (not locked yet).\n\n",
                cell(self.threshold.trim()),
                cell(self.prompts.trim())
            )),
        }
        md.push_str("## 2. Results per prompt\n\n");
        if let Some(l) = self.locked {
            md.push_str(&format!("| Prompt | {sn} | {ln} |\n|---|---|---|\n"));
            let word = |ok: bool| if ok { "pass" } else { "fail" };
            for i in 0..l.prompts as usize {
                md.push_str(&format!(
                    "| {} | {} | {} |\n",
                    i + 1,
                    word(self.passed(Which::Small, i)),
                    word(self.passed(Which::Large, i))
                ));
            }
            md.push_str(&format!(
                "| Total | {} of {} | {} of {} |\n\n",
                self.score(Which::Small),
                l.prompts,
                self.score(Which::Large),
                l.prompts
            ));
        } else {
            md.push_str("(none: the threshold is not locked)\n\n");
        }
        let tps = |field, t: &str| match parse_tps(field, t) {
            Ok(Some(v)) => format!("{} tok/s", plain(v)),
            _ => "not measured".into(),
        };
        md.push_str(&format!(
            "## 3. Speed (llama-bench)\n\n- {sn}: {}\n- {ln}: {}\n\n## 4. Decision\n\n",
            tps(Field::SmallTps, &self.small_tps),
            tps(Field::LargeTps, &self.large_tps)
        ));
        md.push_str(&match self.decision() {
            Ok(s) | Err(s) => s,
        });
        md.push('\n');
        md
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locked(threshold: &str) -> Worksheet {
        let mut w = Worksheet {
            task: "Answer billing questions".into(),
            threshold: threshold.into(),
            ..Worksheet::default()
        };
        w.lock(1_764_433_200_000.0).unwrap();
        w
    }

    fn pass_first(w: &mut Worksheet, which: Which, n: usize) {
        for i in 0..n {
            w.mark(which, i, true).unwrap();
        }
    }

    #[test]
    fn refuses_to_score_before_the_lock() {
        let mut w = Worksheet::default();
        assert_eq!(w.mark(Which::Small, 0, true), Err(NOT_LOCKED));
        assert_eq!(w.score(Which::Small), 0);
        let refusal = w.decision().unwrap_err();
        assert!(refusal.starts_with("No decision yet. Lock the task"));
        w.lock(0.0).unwrap();
        assert!(w.mark(Which::Small, 0, true).is_ok());
        assert_eq!(
            w.mark(Which::Small, 10, true),
            Err("There is no such prompt.")
        );
        assert!(w.lock(1.0).is_err(), "locking twice is refused");
        assert_eq!(w.locked_at_ms, Some(0.0));
    }

    #[test]
    fn the_lock_needs_a_usable_threshold() {
        let mut w = Worksheet {
            threshold: "11".into(),
            ..Worksheet::default()
        };
        let errs = w.lock(0.0).unwrap_err();
        assert_eq!(errs[0].field, "Pass threshold");
        assert_eq!(errs[0].message, "Must be at most 10.");
        w.threshold = "7.5".into();
        assert_eq!(
            w.lock(0.0).unwrap_err()[0].message,
            "Enter a whole number of prompts."
        );
        w.threshold = "".into();
        assert_eq!(w.lock(0.0).unwrap_err()[0].message, "Enter a number.");
        w.threshold = "3".into();
        w.prompts = "0".into();
        assert_eq!(w.lock(0.0).unwrap_err()[0].field, "Prompts");
        assert!(!w.is_locked());
        w.prompts = "5".into();
        w.lock(0.0).unwrap();
        assert_eq!(
            w.locked,
            Some(Locked {
                prompts: 5,
                threshold: 3
            })
        );
        assert_eq!(w.small_passes.len(), 5);
    }

    #[test]
    fn the_sentence_cites_threshold_and_scores() {
        let mut w = locked("7");
        pass_first(&mut w, Which::Small, 8);
        pass_first(&mut w, Which::Large, 10);
        w.small_tps = "48".into();
        w.large_tps = "12".into();
        let d = w.decision().unwrap();
        let opening =
            "Decision: the 3B model scored 8 of 10 against a threshold of 7, so it passes;";
        assert!(d.starts_with(opening), "{d}");
        assert!(d.contains("the 14B model scored 10 of 10, so it passes too."));
        // The score's uncertainty, from the interval the mini eval computes.
        assert!(
            d.contains(
                "On 10 prompts, 8 of 10 fits a true pass rate anywhere from 49% to 94% (95% \
                 Wilson interval): enough to rule a model out, not to ship it on."
            ),
            "{d}"
        );
        assert!(d.contains("Choose the 3B model: it is the smallest model that passes"));
        assert!(
            d.contains("48 tok/s for the 3B model against 12 tok/s for the 14B model (4.0\u{d7})")
        );
        assert!(!d.contains("Add both"));
    }

    #[test]
    fn a_failing_small_model_names_its_failed_prompts() {
        let mut w = locked("8");
        pass_first(&mut w, Which::Small, 10);
        for i in [1, 4, 6] {
            w.mark(Which::Small, i, false).unwrap();
        }
        pass_first(&mut w, Which::Large, 9);
        let d = w.decision().unwrap();
        assert!(
            d.starts_with(
                "Decision: the 3B model scored 7 of 10 against a threshold of 8, so it fails;"
            ),
            "{d}"
        );
        assert!(d.contains("the 14B model scored 9 of 10, so it passes."));
        assert!(d.contains("The 3B model failed prompts 2, 5 and 7"));
        assert!(d.ends_with("Add both tok/s figures from llama-bench to compare speed."));
        let mut none = locked("10");
        none.small_name = " ".into();
        none.large_name = "Qwen 14B model".into();
        let d = none.decision().unwrap();
        assert!(d.contains("the small model scored 0 of 10"), "{d}");
        assert!(d.contains("the Qwen 14B model scored 0 of 10, so it fails too."));
        assert!(d.contains("Neither passes"));
    }

    #[test]
    fn bad_speed_is_reported_not_hidden() {
        let mut w = locked("8");
        w.small_tps = "fast".into();
        assert!(w.decision().unwrap_err().contains("Small model tok/s"));
        assert_eq!(parse_tps(Field::SmallTps, " "), Ok(None));
        assert_eq!(
            parse_tps(Field::SmallTps, "0").unwrap_err().message,
            "Must be more than 0."
        );
    }

    #[test]
    fn exports_markdown_with_the_lock_time() {
        let mut w = locked("8");
        w.small_name = "3B | q4".into();
        pass_first(&mut w, Which::Small, 9);
        let md = w.markdown();
        assert!(md.contains("Answer billing questions"));
        assert!(
            md.contains("8 of 10 prompts, locked at 2025-11-29 16:20 UTC"),
            "{md}"
        );
        assert!(md.contains("| Prompt | 3B \\| q4 | 14B |"));
        assert!(md.contains("| 10 | fail | fail |"));
        assert!(md.contains("| Total | 9 of 10 | 0 of 10 |"));
        assert!(md.contains("## 4. Decision\n\nDecision: the 3B | q4 model scored 9 of 10"));
        let fresh = Worksheet::default().markdown();
        assert!(fresh.contains("(not locked yet)") && fresh.contains("No decision yet"));
    }

    #[test]
    fn stored_worksheets_round_trip_and_fill_gaps() {
        let mut w = locked("8");
        pass_first(&mut w, Which::Large, 3);
        let back: Worksheet = serde_json::from_str(&serde_json::to_string(&w).unwrap()).unwrap();
        assert_eq!(back, w);
        let partial: Worksheet = serde_json::from_str(r#"{"task":"x"}"#).unwrap();
        assert_eq!(partial.threshold, "8");
    }

    proptest::proptest! {
        #[test]
        fn the_verdict_follows_score_and_threshold(
            marks in proptest::collection::vec(proptest::prelude::any::<(bool, bool)>(), 1..=50usize),
            t in 1u32..=50,
        ) {
            let n = marks.len() as u32;
            let t = t.min(n);
            let mut w = Worksheet {
                prompts: n.to_string(),
                threshold: t.to_string(),
                ..Worksheet::default()
            };
            proptest::prop_assert!(w.mark(Which::Small, 0, true).is_err());
            w.lock(0.0).unwrap();
            for (i, (a, b)) in marks.iter().enumerate() {
                w.mark(Which::Small, i, *a).unwrap();
                w.mark(Which::Large, i, *b).unwrap();
            }
            let s = marks.iter().filter(|m| m.0).count() as u32;
            let verdict = if s >= t { "passes" } else { "fails" };
            let d = w.decision().unwrap();
            let expected = format!("scored {s} of {n} against a threshold of {t}, so it {verdict}");
            proptest::prop_assert!(d.contains(&expected), "{}", d);
            proptest::prop_assert_eq!(w.score(Which::Small), s);
        }
    }
}

#[cfg(test)]
mod fuzz_tests {
    use super::*;
    use crate::logic::fuzz::{any_text, finite, unreadable};
    use crate::logic::storage::{self, Backend, MemoryBackend, Read};
    use proptest::prelude::*;

    const STORE_NAME: &str = "try-it";

    /// A worksheet as a reader leaves it: typed fields, locked or not, some prompts marked.
    fn any_worksheet() -> impl Strategy<Value = Worksheet> {
        (
            (
                "\\PC{0,30}",
                "\\PC{0,8}",
                "\\PC{0,8}",
                "\\PC{0,8}",
                "\\PC{0,8}",
            ),
            (1u32..=MAX_PROMPTS, 0u32..=MAX_PROMPTS, any::<bool>()),
            proptest::collection::vec((any::<bool>(), any::<bool>()), 0..60),
            (any_text(), any_text()),
            0.0f64..4e12,
        )
            .prop_map(
                |((task, prompts, threshold, small, large), (n, t, lock), marks, (st, lt), at)| {
                    let mut w = Worksheet {
                        task,
                        prompts,
                        threshold,
                        small_name: small,
                        large_name: large,
                        small_tps: st,
                        large_tps: lt,
                        ..Worksheet::default()
                    };
                    if lock {
                        w.prompts = n.to_string();
                        w.threshold = t.clamp(1, n).to_string();
                        let _ = w.lock(at);
                        for (i, (a, b)) in marks.into_iter().enumerate() {
                            let _ = w.mark(Which::Small, i, a);
                            let _ = w.mark(Which::Large, i, b);
                        }
                    }
                    w
                },
            )
    }

    proptest! {
        #[test]
        fn typed_fields_read_or_say_why(text in any_text(), prompts in 1u32..=MAX_PROMPTS) {
            match parse_prompts(&text) {
                Ok(n) => prop_assert!((1..=MAX_PROMPTS).contains(&n)),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            match parse_threshold(&text, prompts) {
                Ok(t) => prop_assert!((1..=prompts).contains(&t)),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
            match parse_tps(Field::LargeTps, &text) {
                Ok(Some(x)) => prop_assert!(x > 0.0 && x <= MAX_TPS),
                Ok(None) => prop_assert!(text.trim().is_empty()),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
        }

        #[test]
        fn a_saved_worksheet_loads_unchanged_and_reads(w in any_worksheet()) {
            let backend = MemoryBackend::default();
            storage::write(&backend, STORE_NAME, 1, &w).map_err(|n| TestCaseError::fail(n.text))?;
            let Read::Value(back) = storage::read::<Worksheet>(&backend, STORE_NAME, 1, 0, |_, _| None) else {
                return Err(TestCaseError::fail("a saved worksheet must load"));
            };
            prop_assert_eq!(&back, &w);
            // Its decision cites readable figures, whatever tok/s were typed.
            if let Ok(d) = back.decision() {
                prop_assert!(unreadable(&d).is_none(), "{:?}", unreadable(&d));
            }
            let _ = back.markdown();
        }

        #[test]
        fn any_stored_worksheet_loads_or_is_backed_up(
            prompts in prop_oneof![1u32..=MAX_PROMPTS, any::<u32>()],
            threshold in prop_oneof![1u32..=MAX_PROMPTS, any::<u32>()],
            at in finite(),
            marks in proptest::collection::vec(any::<bool>(), 0..80),
            bytes in proptest::collection::vec(any::<u8>(), 0..80),
        ) {
            let data = serde_json::json!({
                "task": String::from_utf8_lossy(&bytes),
                "locked_at_ms": at,
                "locked": { "prompts": prompts, "threshold": threshold },
                "small_passes": marks,
                "small_tps": "1e5",
                "large_tps": "0.001",
            });
            for raw in [
                serde_json::json!({ "v": 1, "data": data }).to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ] {
                let backend = MemoryBackend::default();
                backend.set(&storage::key(STORE_NAME), &raw).map_err(TestCaseError::fail)?;
                match storage::read::<Worksheet>(&backend, STORE_NAME, 1, 5, |_, _| None) {
                    Read::Value(mut w) => {
                        if let Some(l) = w.locked {
                            prop_assert!(l.prompts <= MAX_PROMPTS && l.threshold <= l.prompts);
                        }
                        let d = w.decision();
                        let md = w.markdown();
                        prop_assert!(md.len() < 20_000);
                        if let Ok(d) = d {
                            prop_assert!(unreadable(&d).is_none(), "{:?}", unreadable(&d));
                        }
                        let _ = w.mark(Which::Large, 3, true);
                    }
                    Read::Recovered(_) => {
                        let kept = backend.get(&storage::backup_key(STORE_NAME, 5)).map_err(TestCaseError::fail)?;
                        prop_assert_eq!(kept, Some(raw.clone()));
                    }
                    Read::Missing => prop_assert!(false, "a stored value was missed"),
                }
            }
        }
    }

    /// The worksheet as the first build stored it (no tok/s fields yet) still loads, locked.
    #[test]
    fn the_first_stored_shape_still_loads() {
        let raw = r#"{"v":1,"data":{"task":"Answer billing questions","prompts":"10","threshold":"8","locked_at_ms":1764433259999.0,"locked":{"prompts":10,"threshold":8},"small_name":"3B","large_name":"14B","small_passes":[true,true,false],"large_passes":[]}}"#;
        let backend = MemoryBackend::default();
        backend.set(&storage::key(STORE_NAME), raw).unwrap();
        let Read::Value(w) = storage::read::<Worksheet>(&backend, STORE_NAME, 1, 0, |_, _| None)
        else {
            panic!("the first shape must load");
        };
        assert_eq!(
            w.locked,
            Some(Locked {
                prompts: 10,
                threshold: 8
            })
        );
        assert_eq!(w.score(Which::Small), 2);
        assert_eq!(w.small_tps, "");
        assert!(w.markdown().contains("locked at 2025-11-29 16:20 UTC"));
        // A lock no build could write is backed up, not used to size the worksheet.
        let huge = raw.replace(
            r#""locked":{"prompts":10"#,
            r#""locked":{"prompts":4294967295"#,
        );
        backend.set(&storage::key(STORE_NAME), &huge).unwrap();
        assert!(matches!(
            storage::read::<Worksheet>(&backend, STORE_NAME, 1, 0, |_, _| None),
            Read::Recovered(_)
        ));
    }
}
