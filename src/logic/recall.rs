//! Recall cards with FSRS spaced repetition: the deck, the scheduler, the stored progress and
//! its statistics.
//!
//! Pure: time comes in as milliseconds since the Unix epoch (the browser's `Date.now()`), with
//! the reader's offset from UTC for "today", so tests drive the clock. Scheduling is the
//! `rs-fsrs` crate's, with fuzz off so that a log always replays to the same state.
//!
//! The stored [`Progress`] keeps the review log as the source of truth: card states are the
//! log replayed through FSRS. That makes merging (two tabs, or an import) a set union of reviews
//! keyed by card id and review time, with no duplicates, and the result the same whichever side
//! merges. A card whose id is no longer in the deck keeps its history; it is just not shown.

//!
//! This file holds the stored progress and how a review changes it; the deck (`deck`), the
//! scheduler (`schedule`), the statistics (`stats`), export files (`export`) and a review
//! session (`session`) have files of their own.

use rs_fsrs::{Card as FsrsCard, ImplScheduler, Rating, State};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod deck;
mod export;
mod schedule;
pub mod session;
mod stats;

#[cfg(test)]
mod fuzz_tests;

#[cfg(test)]
pub use deck::CARDS_JSON;
pub use deck::{deck, deck_of, parse_deck, CardDef, DeckSource, WHOLE_DECK};
pub use session::Session;
pub use stats::Stats;

use schedule::{clamp_retention, from_fsrs, new_card, scheduler, to_fsrs};

/// Name of the stored value (`ie-course:recall`).
pub const STORE_NAME: &str = "recall";
/// Schema version of the stored value and of exports.
pub const SCHEMA: u32 = 1;
/// What an export says it is.
pub const EXPORT_KIND: &str = "ie-course-recall";
/// Desired retention unless the learner sets another.
pub const DEFAULT_RETENTION: f64 = 0.9;
/// Lowest and highest desired retention accepted.
pub const RETENTION_RANGE: (f64, f64) = (0.7, 0.99);

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
/// A day in milliseconds.
pub const DAY: i64 = 24 * HOUR;

/// The four answers to "how well did you recall it?".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Grade {
    /// Forgot: see it again soon.
    Again = 1,
    /// Recalled with difficulty.
    Hard = 2,
    /// Recalled.
    Good = 3,
    /// Recalled without effort.
    Easy = 4,
}

impl Grade {
    /// All four, in button order.
    pub const ALL: [Grade; 4] = [Grade::Again, Grade::Hard, Grade::Good, Grade::Easy];

    /// The button's word.
    pub fn label(self) -> &'static str {
        match self {
            Grade::Again => "Again",
            Grade::Hard => "Hard",
            Grade::Good => "Good",
            Grade::Easy => "Easy",
        }
    }

    /// The grade a number key (1–4) gives.
    pub fn from_key(key: &str) -> Option<Grade> {
        match key {
            "1" => Some(Grade::Again),
            "2" => Some(Grade::Hard),
            "3" => Some(Grade::Good),
            "4" => Some(Grade::Easy),
            _ => None,
        }
    }

    fn rating(self) -> Rating {
        match self {
            Grade::Again => Rating::Again,
            Grade::Hard => Rating::Hard,
            Grade::Good => Rating::Good,
            Grade::Easy => Rating::Easy,
        }
    }
}

/// What a key does in the review area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyAction {
    /// Show the answer.
    Reveal,
    /// Grade the card.
    Grade(Grade),
}

impl KeyAction {
    /// What `key` does, given whether it was pressed on a button or link (where Space and Enter
    /// press that control, as everywhere else), whether the answer shows, and whether a card is
    /// up: Space or Enter shows the answer, then grades Good; 1–4 grade once it shows.
    pub fn of_key(key: &str, on_control: bool, revealed: bool, has_card: bool) -> Option<Self> {
        let space_or_enter = key == " " || key == "Enter";
        if !revealed {
            (space_or_enter && !on_control && has_card).then_some(KeyAction::Reveal)
        } else if space_or_enter && !on_control {
            Some(KeyAction::Grade(Grade::Good))
        } else {
            Grade::from_key(key).map(KeyAction::Grade)
        }
    }
}

impl TryFrom<u8> for Grade {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, String> {
        match n {
            1 => Ok(Grade::Again),
            2 => Ok(Grade::Hard),
            3 => Ok(Grade::Good),
            4 => Ok(Grade::Easy),
            _ => Err(format!("a grade is 1 to 4, not {n}")),
        }
    }
}

impl From<Grade> for u8 {
    fn from(g: Grade) -> u8 {
        g as u8
    }
}

/// Where a card is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Never reviewed.
    New,
    /// Being learnt: short steps.
    Learning,
    /// Learnt: days between reviews.
    Review,
    /// Forgotten after being learnt: short steps again.
    Relearning,
}

impl Phase {
    fn of(s: State) -> Phase {
        match s {
            State::New => Phase::New,
            State::Learning => Phase::Learning,
            State::Review => Phase::Review,
            State::Relearning => Phase::Relearning,
        }
    }
    fn state(self) -> State {
        match self {
            Phase::New => State::New,
            Phase::Learning => State::Learning,
            Phase::Review => State::Review,
            Phase::Relearning => State::Relearning,
        }
    }
}

/// A card's FSRS memory state (derived from the log, stored for reading).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardState {
    /// When it is due, ms since the epoch.
    pub due: i64,
    /// FSRS stability, in days.
    pub stability: f64,
    /// FSRS difficulty.
    pub difficulty: f64,
    /// Days between the last two reviews.
    pub elapsed_days: i64,
    /// Days scheduled at the last review.
    pub scheduled_days: i64,
    /// Reviews so far.
    pub reps: i32,
    /// Times forgotten after being learnt.
    pub lapses: i32,
    /// Where the card is.
    pub phase: Phase,
    /// Last review, ms since the epoch.
    pub last_review: i64,
}

/// One review in the log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The card's id.
    pub card: String,
    /// When, ms since the epoch: from 1970 to the end of 9999 ([`LATEST_TIME`]); a stored
    /// value or an export with another time does not read (the scheduler's dates stop short
    /// of `i64`'s range).
    #[serde(deserialize_with = "review_time")]
    pub at: i64,
    /// The grade given.
    pub grade: Grade,
    /// Desired retention in force at the time (so that the log replays exactly).
    pub retention: f64,
    /// The card's phase before this review.
    pub phase: Phase,
}

/// Everything stored: settings, the review log and the card states it leads to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Desired retention (probability of recall when a card comes due).
    pub retention: f64,
    /// When the retention was last set (ms), so that a merge keeps the newest setting.
    #[serde(default)]
    pub retention_set_at: i64,
    /// Reviews before this time (ms) were erased by a reset, here or in another tab.
    #[serde(default)]
    pub reset_at: i64,
    /// Card states by card id, including cards no longer in the deck.
    #[serde(default)]
    pub cards: BTreeMap<String, CardState>,
    /// Every review, in time order, at most one per card and time.
    #[serde(default)]
    pub log: Vec<Review>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            retention: DEFAULT_RETENTION,
            retention_set_at: 0,
            reset_at: 0,
            cards: BTreeMap::new(),
            log: Vec::new(),
        }
    }
}

/// The last millisecond of the year 9999: the latest time a review may carry.
pub const LATEST_TIME: i64 = 253_402_300_799_999;

/// Reads a review's time, refusing one before 1970 or after [`LATEST_TIME`].
fn review_time<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let at = i64::deserialize(d)?;
    if (0..=LATEST_TIME).contains(&at) {
        Ok(at)
    } else {
        Err(serde::de::Error::custom(format!(
            "a review's time is from 1970 to 9999, not {at} ms"
        )))
    }
}

/// The reader's clock: now, and the offset of local time from UTC (for "today").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// ms since the epoch.
    pub now: i64,
    /// Local time minus UTC, in minutes (UTC+1 is 60).
    pub utc_offset_min: i32,
}

impl Clock {
    #[cfg(test)]
    /// A clock at `now` in UTC.
    pub fn utc(now: i64) -> Clock {
        Clock {
            now,
            utc_offset_min: 0,
        }
    }
    /// The local day number of time `ms`.
    pub fn day_of(&self, ms: i64) -> i64 {
        (ms + i64::from(self.utc_offset_min) * MINUTE).div_euclid(DAY)
    }
    /// Today's local day number.
    pub fn today(&self) -> i64 {
        self.day_of(self.now)
    }
}

/// "10 min", "3 d", "2.5 mo": how long until a card comes back, as a grade button shows it.
pub fn interval_label(ms: i64) -> String {
    if ms < MINUTE {
        return "<1 min".into();
    }
    let one_decimal = |x: f64| super::format::trim_zeros(&format!("{x:.1}")).to_string();
    let minutes = (ms as f64 / MINUTE as f64).round();
    if minutes < 60.0 {
        return format!("{minutes} min");
    }
    let hours = ms as f64 / HOUR as f64;
    if hours < 23.5 {
        return format!("{} h", hours.round());
    }
    let days = ms as f64 / DAY as f64;
    if days < 30.0 {
        return format!("{} d", days.round().max(1.0));
    }
    if days < 365.0 {
        return format!("{} mo", one_decimal(days / 30.0));
    }
    format!("{} y", one_decimal(days / 365.0))
}

/// Reads a desired retention typed as a percentage ("90", "90 %") or a fraction ("0.9").
pub fn parse_retention(text: &str) -> Result<f64, String> {
    let t = text.trim().trim_end_matches('%').trim();
    let v = super::read_f64(t)
        .filter(|v| v.is_finite())
        .ok_or_else(|| "Enter a percentage, such as 90.".to_string())?;
    let r = if v > 1.0 { v / 100.0 } else { v };
    let (lo, hi) = RETENTION_RANGE;
    if !(lo - 1e-9..=hi + 1e-9).contains(&r) {
        return Err(format!(
            "Desired retention must be between {:.0} % and {:.0} %.",
            lo * 100.0,
            hi * 100.0
        ));
    }
    Ok(r)
}

impl Progress {
    /// Puts the log in order, drops duplicates and reviews older than a reset, clamps the
    /// retention and rebuilds every card state from the log.
    pub fn normalized(mut self) -> Progress {
        self.retention = clamp_retention(self.retention);
        let reset_at = self.reset_at;
        self.log.retain(|r| r.at >= reset_at);
        for r in &mut self.log {
            r.retention = clamp_retention(r.retention);
        }
        super::order::sort_by(&mut self.log, |a, b| {
            (a.at, &a.card, a.grade)
                .cmp(&(b.at, &b.card, b.grade))
                .then(a.retention.total_cmp(&b.retention))
        });
        self.log.dedup_by(|b, a| a.at == b.at && a.card == b.card);
        let mut cards: BTreeMap<String, FsrsCard> = BTreeMap::new();
        for r in &mut self.log {
            // Read, not removed: the insert below replaces it (and `remove` would link the
            // map's rebalancing code for this one use).
            let card = cards
                .get(&r.card)
                .cloned()
                .unwrap_or_else(|| new_card(r.at));
            r.phase = Phase::of(card.state);
            let next = scheduler(r.retention, card, r.at)
                .review(r.grade.rating())
                .card;
            cards.insert(r.card.clone(), next);
        }
        // Inserted one by one: collecting into a map would sort again (and link one more sort).
        self.cards = BTreeMap::new();
        for (k, c) in cards {
            self.cards.insert(k, from_fsrs(&c));
        }
        self
    }

    /// The state of card `id`, if it has been reviewed.
    pub fn state(&self, id: &str) -> Option<&CardState> {
        self.cards.get(id)
    }

    /// Records grade `grade` for card `id` at `now`.
    pub fn grade(&mut self, id: &str, grade: Grade, now: i64) {
        // Two reviews of one card in the same millisecond would collide in the log.
        let now = match self.log.last() {
            Some(last) if last.at >= now => last.at.saturating_add(1),
            _ => now,
        };
        let card = self.cards.get(id).map_or_else(|| new_card(now), to_fsrs);
        let phase = Phase::of(card.state);
        let next = scheduler(self.retention, card, now)
            .review(grade.rating())
            .card;
        self.cards.insert(id.to_string(), from_fsrs(&next));
        self.log.push(Review {
            card: id.to_string(),
            at: now,
            grade,
            retention: self.retention,
            phase,
        });
    }

    /// When card `id` would come back after each grade at `now`, as ms from now.
    pub fn previews(&self, id: &str, now: i64) -> [(Grade, i64); 4] {
        let card = self.cards.get(id).map_or_else(|| new_card(now), to_fsrs);
        let mut next = scheduler(self.retention, card, now);
        Grade::ALL.map(|g| {
            let due = next.review(g.rating()).card.due.timestamp_millis();
            (g, due - now)
        })
    }

    /// Sets the desired retention (clamped to the accepted range) at time `now`.
    pub fn set_retention(&mut self, retention: f64, now: i64) {
        self.retention = clamp_retention(retention);
        self.retention_set_at = now;
    }

    /// Erases every review before `now`; other tabs and later merges respect it.
    pub fn reset(&mut self, now: i64) {
        self.reset_at = now;
        self.log.clear();
        self.cards.clear();
    }

    /// The union of two progress records: every review from both, once; the newest retention
    /// setting and the latest reset. The same whichever side merges into which.
    pub fn merge(&self, other: &Progress) -> Progress {
        let (retention, retention_set_at) = if other.retention_set_at > self.retention_set_at {
            (other.retention, other.retention_set_at)
        } else {
            (self.retention, self.retention_set_at)
        };
        let mut log = self.log.clone();
        log.extend(other.log.iter().cloned());
        Progress {
            retention,
            retention_set_at,
            reset_at: self.reset_at.max(other.reset_at),
            cards: BTreeMap::new(),
            log,
        }
        .normalized()
    }

    /// Cards to review at `now`, in order: learnt cards that are due (earliest first), then new
    /// cards in deck order. With `ahead`, cards not yet due follow, earliest first.
    pub fn queue<'a>(
        &self,
        deck: &'a [CardDef],
        lesson: Option<&str>,
        now: i64,
        ahead: bool,
    ) -> Vec<&'a CardDef> {
        let in_scope = |c: &&CardDef| lesson.is_none_or(|l| c.lesson == l);
        // Learnt cards in one list, sorted once (stable: deck order among equal times); those
        // due by `now` lead it.
        let mut learnt: Vec<(i64, &CardDef)> = Vec::new();
        let mut fresh: Vec<&CardDef> = Vec::new();
        for c in deck.iter().filter(in_scope) {
            match self.cards.get(&c.id) {
                None => fresh.push(c),
                Some(s) => learnt.push((s.due, c)),
            }
        }
        super::order::sort_by_key(&mut learnt, |(d, _)| *d);
        let split = learnt.partition_point(|(d, _)| *d <= now);
        let (due, later) = learnt.split_at(split);
        let mut out: Vec<&CardDef> = due.iter().map(|(_, c)| *c).collect();
        out.extend(fresh);
        if ahead {
            out.extend(later.iter().map(|(_, c)| *c));
        }
        out
    }
}

#[cfg(test)]
mod tests;
