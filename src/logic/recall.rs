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

use chrono::{DateTime, TimeZone, Utc};
use rs_fsrs::{BasicScheduler, Card as FsrsCard, ImplScheduler, Parameters, Rating, State};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub mod session;

#[cfg(test)]
mod fuzz_tests;
pub use session::Session;

/// The deck's source, `content/cards.json` (the app reads it compiled: `content::lesson_cards`).
#[cfg(test)]
pub const CARDS_JSON: &str = include_str!("../../content/cards.json");
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

/// One card of the deck.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    /// Stable id; a card whose id changes counts as a new card.
    pub id: String,
    /// Slug of the lesson the card comes from.
    pub lesson: String,
    /// The question.
    pub question: String,
    /// The answer, in the course's own words.
    pub answer: String,
}

/// Reads a deck file, checking that every card is complete and every id unique and well formed.
pub fn parse_deck(json: &str) -> Result<Vec<CardDef>, String> {
    let cards: Vec<CardDef> =
        serde_json::from_str(json).map_err(|e| format!("content/cards.json: {e}"))?;
    let mut seen = BTreeSet::new();
    for (i, c) in cards.iter().enumerate() {
        let at = format!("content/cards.json: card {} ({:?})", i + 1, c.id);
        if c.id.is_empty()
            || !c
                .id
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-')
        {
            return Err(format!("{at}: an id is lower-case letters, digits and '-'"));
        }
        if !seen.insert(c.id.as_str()) {
            return Err(format!("{at}: the id is used twice"));
        }
        for (field, text) in [
            ("lesson", &c.lesson),
            ("question", &c.question),
            ("answer", &c.answer),
        ] {
            if text.trim().is_empty() {
                return Err(format!("{at}: the {field} is empty"));
            }
        }
    }
    if cards.is_empty() {
        return Err("content/cards.json: the deck has no cards".into());
    }
    Ok(cards)
}

/// The cards a widgets module carries: the JSON of some lessons' cards, as the build cuts them
/// from `content/cards.json` (`content::lesson_cards`), so that a lesson's module links its own
/// cards and no others; the recall page's module carries [`WHOLE_DECK`].
pub type DeckSource = &'static [&'static str];

/// Every lesson's cards: the whole deck, in the file's order.
pub const WHOLE_DECK: DeckSource = crate::content::lesson_cards::WHOLE_DECK;

/// The cards of `source`, read once. A malformed file fails the native test
/// `the_deck_file_is_valid_and_names_real_lessons`; should one slip through, its lesson's
/// cards are left out rather than crash the module.
pub fn deck_of(source: DeckSource) -> &'static [CardDef] {
    thread_local! {
        static READ: std::cell::RefCell<Vec<(DeckSource, &'static [CardDef])>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    READ.with(|read| {
        let mut read = read.borrow_mut();
        if let Some((_, cards)) = read.iter().find(|(s, _)| std::ptr::eq(*s, source)) {
            return *cards;
        }
        let cards: Vec<CardDef> = source
            .iter()
            .flat_map(|json| parse_deck(json).unwrap_or_default())
            .collect();
        // Kept for the life of the module: a module reads one source (two in tests).
        let cards: &'static [CardDef] = Vec::leak(cards);
        read.push((source, cards));
        cards
    })
}

/// The whole deck ([`deck_of`] [`WHOLE_DECK`]).
pub fn deck() -> &'static [CardDef] {
    deck_of(WHOLE_DECK)
}

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

fn time(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

/// `r` within [`RETENTION_RANGE`] (the default if it is not a number), to a hundredth of a
/// percent: finer means nothing to the scheduler, and a short decimal is stored and read back
/// exactly (the JSON reader may round a long one in its last bit).
fn clamp_retention(r: f64) -> f64 {
    if r.is_finite() {
        (r.clamp(RETENTION_RANGE.0, RETENTION_RANGE.1) * 1e4).round() / 1e4
    } else {
        DEFAULT_RETENTION
    }
}

/// The scheduler for `card` at `at`: FSRS with its short-term steps (`FSRS::new` with the
/// crate's default parameters picks this one) and no fuzz. Made directly rather than through
/// `FSRS`, whose choice between its two schedulers at run time links both, and whose
/// previews come back in a hash map: 1 KB brotli of every lesson's module for nothing.
fn scheduler(retention: f64, card: FsrsCard, at: i64) -> BasicScheduler {
    let parameters = Parameters {
        request_retention: clamp_retention(retention),
        enable_short_term: true,
        enable_fuzz: false,
        ..Parameters::default()
    };
    BasicScheduler::new(parameters, card, time(at))
}

fn to_fsrs(s: &CardState) -> FsrsCard {
    FsrsCard {
        due: time(s.due),
        stability: s.stability,
        difficulty: s.difficulty,
        elapsed_days: s.elapsed_days,
        scheduled_days: s.scheduled_days,
        reps: s.reps,
        lapses: s.lapses,
        state: s.phase.state(),
        last_review: time(s.last_review),
    }
}

fn from_fsrs(c: &FsrsCard) -> CardState {
    CardState {
        due: c.due.timestamp_millis(),
        stability: c.stability,
        difficulty: c.difficulty,
        elapsed_days: c.elapsed_days,
        scheduled_days: c.scheduled_days,
        reps: c.reps,
        lapses: c.lapses,
        phase: Phase::of(c.state),
        last_review: c.last_review.timestamp_millis(),
    }
}

fn new_card(now: i64) -> FsrsCard {
    FsrsCard {
        due: time(now),
        last_review: time(now),
        ..FsrsCard::default()
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

/// The counts and figures the statistics panel shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// Cards to review now (new cards included).
    pub due_now: usize,
    /// Cards due by the end of today (new cards included).
    pub due_today: usize,
    /// Cards never reviewed.
    pub new: usize,
    /// Cards in learning or relearning.
    pub learning: usize,
    /// Cards in review.
    pub review: usize,
    /// Share of reviews of learnt cards in the last 30 days that were not "Again".
    pub retention_30d: Option<f64>,
    /// How many reviews that share is of.
    pub mature_reviews_30d: usize,
    /// Days in a row, up to today (or yesterday), with at least one review.
    pub streak: u32,
    /// Learnt cards coming due on each of the next 30 days (overdue counts for today).
    pub forecast: [u32; 30],
    /// Cards with history that are no longer in the deck.
    pub removed: usize,
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

    /// The statistics at `clock`, for the cards of `lesson` (or all).
    pub fn stats(&self, deck: &[CardDef], lesson: Option<&str>, clock: Clock) -> Stats {
        let today = clock.today();
        let mut s = Stats {
            due_now: 0,
            due_today: 0,
            new: 0,
            learning: 0,
            review: 0,
            retention_30d: None,
            mature_reviews_30d: 0,
            streak: 0,
            forecast: [0; 30],
            removed: 0,
        };
        let mut scope = BTreeSet::new();
        for c in deck.iter().filter(|c| lesson.is_none_or(|l| c.lesson == l)) {
            scope.insert(c.id.as_str());
            let Some(st) = self.cards.get(&c.id) else {
                s.new += 1;
                s.due_now += 1;
                s.due_today += 1;
                continue;
            };
            match st.phase {
                Phase::New => s.new += 1,
                Phase::Learning | Phase::Relearning => s.learning += 1,
                Phase::Review => s.review += 1,
            }
            if st.due <= clock.now {
                s.due_now += 1;
            }
            let day = (clock.day_of(st.due) - today).max(0);
            if day == 0 {
                s.due_today += 1;
            }
            if let Some(slot) = s.forecast.get_mut(day as usize) {
                *slot += 1;
            }
        }
        // Sets are filled by `insert`, here and below: collecting into one would sort first
        // (and link one more sort into every page with a recall form).
        let mut known = BTreeSet::new();
        for c in deck {
            known.insert(c.id.as_str());
        }
        s.removed = self
            .cards
            .keys()
            .filter(|k| !known.contains(k.as_str()))
            .count();
        let since = clock.now - 30 * DAY;
        let (mut passed, mut total) = (0usize, 0usize);
        for r in &self.log {
            if r.at > since
                && r.at <= clock.now
                && r.phase == Phase::Review
                && scope.contains(r.card.as_str())
            {
                total += 1;
                if r.grade != Grade::Again {
                    passed += 1;
                }
            }
        }
        s.mature_reviews_30d = total;
        s.retention_30d = (total > 0).then(|| passed as f64 / total as f64);
        let mut days = BTreeSet::new();
        for r in self.log.iter().filter(|r| scope.contains(r.card.as_str())) {
            days.insert(clock.day_of(r.at));
        }
        let mut day = if days.contains(&today) {
            today
        } else {
            today - 1
        };
        while days.contains(&day) {
            s.streak += 1;
            day -= 1;
        }
        s
    }

    /// The progress as an export file (JSON, pretty-printed).
    pub fn export_json(&self) -> String {
        serde_json::to_string_pretty(&serde_json::json!({
            "kind": EXPORT_KIND,
            "v": SCHEMA,
            "data": self,
        }))
        .unwrap_or_default()
    }

    /// Reads an export file, or a stored value (`{"v":1,"data":…}`), checking it on the way.
    pub fn import_json(text: &str) -> Result<Progress, String> {
        #[derive(Deserialize)]
        struct Envelope<'a> {
            #[serde(default)]
            kind: Option<String>,
            v: u32,
            #[serde(borrow)]
            data: &'a serde_json::value::RawValue,
        }
        let env: Envelope = serde_json::from_str(text.trim())
            .map_err(|e| format!("This is not a recall export ({e})."))?;
        if env.kind.as_deref().is_some_and(|k| k != EXPORT_KIND) {
            return Err("This file is an export of something else, not of recall progress.".into());
        }
        if env.v > SCHEMA {
            return Err(format!(
                "This export comes from a newer version of the course (schema {}); update the page and try again.",
                env.v
            ));
        }
        if env.v < 1 {
            return Err(format!("Unknown export schema {}.", env.v));
        }
        let p: Progress = serde_json::from_str(env.data.get())
            .map_err(|e| format!("The export's contents do not fit ({e})."))?;
        if let Some(bad) = p.log.iter().find(|r| r.card.is_empty() || r.at < 0) {
            return Err(format!(
                "The export has a review with no card or a negative time (at {}).",
                bad.at
            ));
        }
        Ok(p.normalized())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// 2022-11-29 12:30:00 UTC, the crate's own reference start.
    const T0: i64 = 1_669_725_000_000;

    fn card(id: &str, lesson: &str) -> CardDef {
        CardDef {
            id: id.into(),
            lesson: lesson.into(),
            question: "q".into(),
            answer: "a".into(),
        }
    }

    #[test]
    fn the_deck_file_is_valid_and_names_real_lessons() {
        let deck = parse_deck(CARDS_JSON).unwrap_or_else(|e| panic!("{e}"));
        assert!((30..=40).contains(&deck.len()), "{} cards", deck.len());
        for c in &deck {
            assert!(
                crate::content::lesson_by_slug(&c.lesson).is_some(),
                "content/cards.json: card {:?} names lesson {:?}, which is not in SUMMARY.md",
                c.id,
                c.lesson
            );
        }
        // At least one card per lesson page that ends with its cards.
        for l in crate::content::LESSONS {
            assert!(
                deck.iter().any(|c| c.lesson == l.slug),
                "no card for {}",
                l.slug
            );
        }
        // The build's cut by lesson is the file, in its order, and each part one lesson's.
        assert_eq!(super::deck(), deck.as_slice());
        for (slug, json) in crate::content::lesson_cards::BY_LESSON {
            let part = super::deck_of(std::slice::from_ref(json));
            assert!(
                !part.is_empty() && part.iter().all(|c| c.lesson == *slug),
                "{slug}"
            );
        }
    }

    #[test]
    fn malformed_decks_are_refused_with_a_clear_message() {
        let e = parse_deck("[{\"id\": \"a\"}]").unwrap_err();
        assert!(
            e.contains("content/cards.json") && e.contains("missing field"),
            "{e}"
        );
        let two = r#"[{"id":"a","lesson":"x","question":"q","answer":"a"},
                      {"id":"a","lesson":"x","question":"q","answer":"a"}]"#;
        assert!(parse_deck(two).unwrap_err().contains("used twice"));
        let empty = r#"[{"id":"a","lesson":"x","question":" ","answer":"a"}]"#;
        assert!(parse_deck(empty).unwrap_err().contains("question is empty"));
        let bad_id = r#"[{"id":"A b","lesson":"x","question":"q","answer":"a"}]"#;
        assert!(parse_deck(bad_id).unwrap_err().contains("id"));
        assert!(parse_deck("[]").is_err());
    }

    /// The crate's own test `test_basic_scheduler_interval`: the same grades, each given when
    /// the card comes due, give the same scheduled days through our stored state and log.
    #[test]
    fn fsrs_intervals_match_the_crates_reference() {
        use Grade::*;
        let grades = [
            Good, Good, Good, Good, Good, Good, Again, Again, Good, Good, Good, Good, Good,
        ];
        let mut p = Progress::default();
        let mut now = T0;
        let mut days = vec![];
        for g in grades {
            p.grade("c", g, now);
            let s = p.state("c").unwrap();
            days.push(s.scheduled_days);
            now = s.due;
        }
        assert_eq!(days, [0, 4, 15, 48, 136, 351, 0, 0, 7, 13, 24, 43, 77]);
        // Replaying the log gives the same state.
        let replayed = p.clone().normalized();
        assert_eq!(replayed.cards, p.cards);
        let phases: Vec<Phase> = p.log.iter().map(|r| r.phase).collect();
        assert_eq!(phases[0], Phase::New);
        assert_eq!(phases[1], Phase::Learning);
        assert_eq!(phases[7], Phase::Relearning);
    }

    #[test]
    fn the_direct_scheduler_agrees_with_the_crates_fsrs() {
        // `scheduler` skips `rs_fsrs::FSRS` (for size); it must schedule as FSRS with the same
        // retention would, in every phase and at every retention the reader can choose.
        use Grade::*;
        for retention in [RETENTION_RANGE.0, DEFAULT_RETENTION, RETENTION_RANGE.1] {
            let fsrs = rs_fsrs::FSRS::new(Parameters {
                request_retention: clamp_retention(retention),
                enable_fuzz: false,
                ..Parameters::default()
            });
            let mut p = Progress {
                retention,
                ..Progress::default()
            };
            let mut now = T0;
            for g in [Good, Again, Hard, Good, Easy, Again, Good, Good] {
                let card = p.state("c").map_or_else(|| new_card(now), to_fsrs);
                let reference = fsrs.repeat(card.clone(), time(now));
                for (grade, ms) in p.previews("c", now) {
                    let due = reference[&grade.rating()].card.due.timestamp_millis();
                    assert_eq!(ms, due - now, "{grade:?} at retention {retention}");
                }
                p.grade("c", g, now);
                let expected = fsrs.next(card, time(now), g.rating()).card;
                assert_eq!(p.state("c"), Some(&from_fsrs(&expected)));
                now = p.state("c").map_or(now, |s| s.due);
            }
        }
    }

    #[test]
    fn grade_buttons_show_when_the_card_returns() {
        let p = Progress::default();
        let labels: Vec<String> = p
            .previews("x", T0)
            .iter()
            .map(|(_, ms)| interval_label(*ms))
            .collect();
        // A new card: Again 1 min, Hard 5 min, Good 10 min, Easy a number of days.
        assert_eq!(labels[..3], ["1 min", "5 min", "10 min"]);
        assert!(labels[3].ends_with(" d"), "{labels:?}");
        assert_eq!(interval_label(3 * DAY), "3 d");
        assert_eq!(interval_label(90 * DAY), "3 mo");
        assert_eq!(interval_label(45 * DAY), "1.5 mo");
        assert_eq!(interval_label(2 * 365 * DAY), "2 y");
        assert_eq!(interval_label(2 * HOUR), "2 h");
        assert_eq!(interval_label(1000), "<1 min");
    }

    #[test]
    fn higher_desired_retention_brings_cards_back_sooner() {
        let mut lo = Progress::default();
        lo.set_retention(0.8, 0);
        let mut hi = Progress::default();
        hi.set_retention(0.97, 0);
        for p in [&mut lo, &mut hi] {
            p.grade("c", Grade::Good, T0);
            let due = p.state("c").unwrap().due;
            p.grade("c", Grade::Good, due);
        }
        assert!(hi.state("c").unwrap().scheduled_days < lo.state("c").unwrap().scheduled_days);
        assert_eq!(parse_retention("90"), Ok(0.9));
        assert_eq!(parse_retention("0.85"), Ok(0.85));
        assert_eq!(parse_retention("95 %"), Ok(0.95));
        assert!(parse_retention("50").is_err());
        assert!(parse_retention("abc").is_err());
        assert!(parse_retention("NaN").is_err());
    }

    #[test]
    fn the_due_queue_follows_a_moving_clock() {
        let deck = vec![card("a", "l1"), card("b", "l1"), card("c", "l2")];
        let mut p = Progress::default();
        let ids = |q: Vec<&CardDef>| q.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(p.queue(&deck, None, T0, false)), ["a", "b", "c"]);
        p.grade("a", Grade::Good, T0); // back in 10 min
        p.grade("b", Grade::Again, T0 + 1000); // back in 1 min
        assert_eq!(ids(p.queue(&deck, None, T0 + 2000, false)), ["c"]);
        assert_eq!(
            ids(p.queue(&deck, Some("l1"), T0 + 2000, false)),
            Vec::<String>::new()
        );
        assert_eq!(ids(p.queue(&deck, Some("l1"), T0 + 2000, true)), ["b", "a"]);
        assert_eq!(
            ids(p.queue(&deck, None, T0 + 2 * MINUTE, false)),
            ["b", "c"]
        );
        assert_eq!(
            ids(p.queue(&deck, None, T0 + 11 * MINUTE, false)),
            ["b", "a", "c"]
        );
        let s = p.stats(&deck, None, Clock::utc(T0 + 2000));
        assert_eq!((s.due_now, s.new, s.learning, s.review), (1, 1, 2, 0));
        let s = p.stats(&deck, None, Clock::utc(T0 + 11 * MINUTE));
        assert_eq!(s.due_now, 3);
    }

    #[test]
    fn cards_due_at_the_same_time_keep_deck_order() {
        let deck = vec![
            card("a", "l"),
            card("b", "l"),
            card("c", "l"),
            card("d", "l"),
        ];
        let mut p = Progress::default();
        p.grade("a", Grade::Good, T0);
        let mut state = p.state("a").unwrap().clone();
        let due = state.due;
        // "c" comes due with "a", "d" a minute before both; "b" is new.
        p.cards.insert("c".into(), state.clone());
        state.due -= MINUTE;
        p.cards.insert("d".into(), state);
        let ids = |q: Vec<&CardDef>| q.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(p.queue(&deck, None, due, false)), ["d", "a", "c", "b"]);
        assert_eq!(
            ids(p.queue(&deck, None, due - MINUTE, true)),
            ["d", "b", "a", "c"]
        );
    }

    #[test]
    fn statistics_count_retention_streak_and_forecast() {
        let deck = [card("a", "l"), card("b", "l")];
        let mut p = Progress::default();
        // Three consecutive days of reviews; "a" graduates to review.
        p.grade("a", Grade::Good, T0);
        p.grade("a", Grade::Good, T0 + 11 * MINUTE);
        let due = p.state("a").unwrap().due;
        p.grade("a", Grade::Again, due); // a lapse of a learnt card
        let due = p.state("a").unwrap().due;
        p.grade("a", Grade::Good, due);
        p.grade("removed", Grade::Good, T0);
        let deck = &deck[..];
        let now = p.log.last().unwrap().at + HOUR;
        let s = p.stats(deck, None, Clock::utc(now));
        assert_eq!(s.mature_reviews_30d, 1);
        assert_eq!(s.retention_30d, Some(0.0));
        assert_eq!(s.removed, 1);
        assert_eq!(s.new, 1);
        assert!(s.streak >= 1);
        assert_eq!(s.forecast.iter().sum::<u32>(), 1, "{:?}", s.forecast);
        // Streak: reviews today, yesterday and the day before, a gap before that.
        let mut q = Progress::default();
        for d in [0, 2, 3, 4] {
            q.grade(&format!("c{d}"), Grade::Good, T0 + d * DAY);
        }
        let deck: Vec<CardDef> = (0..5).map(|d| card(&format!("c{d}"), "l")).collect();
        assert_eq!(q.stats(&deck, None, Clock::utc(T0 + 4 * DAY)).streak, 3);
        assert_eq!(q.stats(&deck, None, Clock::utc(T0 + 5 * DAY)).streak, 3);
        assert_eq!(q.stats(&deck, None, Clock::utc(T0 + 6 * DAY)).streak, 0);
        // "Today" follows the reader's offset: 23:30 UTC is already tomorrow at UTC+1.
        let late = Clock {
            now: 1_669_764_600_000, // 2022-11-29 23:30 UTC
            utc_offset_min: 60,
        };
        assert_eq!(late.today(), Clock::utc(late.now).today() + 1);
    }

    #[test]
    fn removed_cards_keep_their_history_without_trouble() {
        let deck = vec![card("kept", "l")];
        let mut p = Progress::default();
        p.grade("old-id", Grade::Good, T0);
        p.grade("kept", Grade::Good, T0 + 1);
        assert_eq!(p.queue(&deck, None, T0 + DAY, false).len(), 1);
        let back = Progress::import_json(&p.export_json()).unwrap();
        assert!(back.state("old-id").is_some());
        assert_eq!(back.stats(&deck, None, Clock::utc(T0)).removed, 1);
    }

    #[test]
    fn export_then_import_round_trips_and_is_idempotent() {
        let mut p = Progress::default();
        p.set_retention(0.85, T0 - 1);
        p.grade("a", Grade::Good, T0);
        p.grade("b", Grade::Hard, T0 + 5);
        p.grade("a", Grade::Easy, T0 + 20 * MINUTE);
        let text = p.export_json();
        let imported = Progress::import_json(&text).unwrap();
        assert_eq!(imported, p);
        let once = p.merge(&imported);
        assert_eq!(once, p);
        let twice = once.merge(&imported);
        assert_eq!(twice, once);
        // Into an empty profile: the same state.
        assert_eq!(Progress::default().merge(&imported), p);
        // A stored value (no "kind") imports too; foreign or newer files are refused.
        assert!(Progress::import_json(&format!(
            "{{\"v\":1,\"data\":{}}}",
            serde_json::to_string(&p).unwrap()
        ))
        .is_ok());
        assert!(Progress::import_json("{\"kind\":\"other\",\"v\":1,\"data\":{}}").is_err());
        assert!(Progress::import_json("{\"v\":2,\"data\":{}}")
            .unwrap_err()
            .contains("newer"));
        assert!(Progress::import_json("not json").is_err());
        let bad_grade = text.replacen("\"grade\": 3", "\"grade\": 9", 1);
        assert!(Progress::import_json(&bad_grade).is_err());
    }

    #[test]
    fn two_tabs_merge_without_losing_either_review() {
        let start = Progress::default();
        let mut tab_a = start.clone();
        let mut tab_b = start.clone();
        tab_a.grade("x", Grade::Good, T0);
        tab_b.grade("y", Grade::Again, T0 + 3);
        let stored = tab_a.clone(); // tab A wrote first
        let merged = tab_b.merge(&stored); // tab B merges on write
        assert_eq!(merged.log.len(), 2);
        assert!(merged.state("x").is_some() && merged.state("y").is_some());
        assert_eq!(merged, stored.merge(&tab_b));
    }

    #[test]
    fn a_reset_wins_over_older_reviews_from_another_tab() {
        let mut tab_a = Progress::default();
        tab_a.grade("x", Grade::Good, T0);
        let mut tab_b = tab_a.clone();
        tab_b.reset(T0 + 10);
        let merged = tab_b.merge(&tab_a);
        assert!(merged.log.is_empty() && merged.cards.is_empty());
        tab_a.grade("y", Grade::Good, T0 + 20);
        assert_eq!(merged.merge(&tab_a).log.len(), 1);
    }

    fn review_strategy() -> impl Strategy<Value = (u8, i64, u8)> {
        (0u8..4, 0i64..(60 * DAY), 1u8..=4)
    }

    proptest! {
        #[test]
        fn merge_is_a_union_that_is_commutative_and_idempotent(
            a in prop::collection::vec(review_strategy(), 0..20),
            b in prop::collection::vec(review_strategy(), 0..20),
        ) {
            let build = |rs: &[(u8, i64, u8)]| {
                let mut p = Progress::default();
                for (c, at, g) in rs {
                    p.log.push(Review {
                        card: format!("c{c}"),
                        at: T0 + at,
                        grade: Grade::try_from(*g).unwrap(),
                        retention: 0.9,
                        phase: Phase::New,
                    });
                }
                p.normalized()
            };
            let (pa, pb) = (build(&a), build(&b));
            let ab = pa.merge(&pb);
            prop_assert_eq!(&ab, &pb.merge(&pa));
            prop_assert_eq!(&ab.merge(&pb), &ab);
            let keys: BTreeSet<(i64, String)> =
                a.iter().chain(&b).map(|(c, at, _)| (T0 + at, format!("c{c}"))).collect();
            prop_assert_eq!(ab.log.len(), keys.len());
            for s in ab.cards.values() {
                prop_assert!(s.stability.is_finite() && s.difficulty.is_finite());
            }
        }
    }
}
