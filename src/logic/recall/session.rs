//! One review session of the recall cards, as the widget runs it: which cards are in scope (one
//! lesson's, or all), the card on screen and whether its answer shows, grading it, and taking in
//! what another tab (or an import) stored, without losing this tab's reviews.
//!
//! Pure: the clock comes in with every change that needs it, and so does a way to read the
//! stored progress, which a change that records something merges first (another tab may have
//! saved since); the caller saves [`Session::progress`] after such a change. Storage is read
//! only when a change goes ahead. The
//! widget holds one `Session` in one signal and only wires events to these methods.

use super::stats::plural;
use super::{interval_label, CardDef, Clock, Grade, Progress, Stats};

/// The review: the progress, the reader's clock, the scope and the card on screen.
#[derive(Debug, Clone)]
pub struct Session<'d> {
    deck: &'d [CardDef],
    progress: Progress,
    clock: Clock,
    /// Only this lesson's cards (`None`: every card).
    lesson: Option<String>,
    /// Cards not yet due join the queue ("Learn ahead").
    ahead: bool,
    /// The answer of the card on screen shows.
    revealed: bool,
    /// The card on screen, which stays put while the queue moves under it (the clock ticks,
    /// another tab reviews) until it is graded.
    pinned: Option<String>,
    /// What the last grade did, for screen readers.
    announcement: String,
}

impl<'d> Session<'d> {
    /// Starts reviewing `deck` at `clock`: the cards of `lesson` (or all), from the stored
    /// progress (`None` when nothing usable is stored: every card is new).
    pub fn start(
        deck: &'d [CardDef],
        stored: Option<Progress>,
        lesson: Option<&str>,
        clock: Clock,
    ) -> Self {
        let mut session = Session {
            deck,
            progress: stored.map(Progress::normalized).unwrap_or_default(),
            clock,
            lesson: lesson.filter(|l| !l.is_empty()).map(str::to_string),
            ahead: false,
            revealed: false,
            pinned: None,
            announcement: String::new(),
        };
        session.settle();
        session
    }

    /// The progress to save after a change.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The lesson whose cards are reviewed, or `None` for all.
    pub fn lesson(&self) -> Option<&str> {
        self.lesson.as_deref()
    }

    /// True while the answer of the card on screen shows.
    pub fn is_revealed(&self) -> bool {
        self.revealed
    }

    /// What the last grade did ("Good: back in 10 min. 31 due now."), or nothing.
    pub fn announcement(&self) -> &str {
        &self.announcement
    }

    /// The cards to review now, in order (not-yet-due ones too after "Learn ahead").
    pub fn queue(&self) -> Vec<&'d CardDef> {
        self.progress
            .queue(self.deck, self.lesson(), self.clock.now, self.ahead)
    }

    /// The card on screen: the pinned one while it is still to review (or while its answer
    /// shows, even if another tab has just reviewed it), else the head of the queue.
    pub fn current(&self) -> Option<&'d CardDef> {
        let queue = self.queue();
        let pinned = self
            .pinned
            .as_deref()
            .filter(|id| self.revealed || queue.iter().any(|c| c.id == *id));
        match pinned {
            Some(id) => self.deck.iter().find(|c| c.id == id),
            None => queue.first().copied(),
        }
    }

    #[cfg(test)]
    /// True when no card is left to review now.
    pub fn is_done(&self) -> bool {
        self.current().is_none()
    }

    /// True when the card on screen is not due yet (it is there by "Learn ahead").
    pub fn current_is_early(&self) -> bool {
        self.current()
            .and_then(|c| self.progress.state(&c.id))
            .is_some_and(|s| s.due > self.clock.now)
    }

    /// When nothing is due: how long until the next card of the scope comes back, in ms.
    pub fn next_due_in(&self) -> Option<i64> {
        let now = self.clock.now;
        self.progress
            .queue(self.deck, self.lesson(), now, true)
            .first()
            .and_then(|c| self.progress.state(&c.id))
            .map(|s| s.due - now)
    }

    /// When the card on screen would come back after each grade, as ms from now.
    pub fn previews(&self) -> Option<[(Grade, i64); 4]> {
        self.current()
            .map(|c| self.progress.previews(&c.id, self.clock.now))
    }

    /// The counts and statistics of the scope, now.
    pub fn stats(&self) -> Stats {
        self.progress.stats(self.deck, self.lesson(), self.clock)
    }

    /// The desired retention as the field first shows it, in percent ("90").
    pub fn retention_percent(&self) -> String {
        format!("{}", (self.progress.retention * 100.0).round())
    }

    /// The question the reset button asks first.
    pub fn reset_question(&self) -> String {
        let n = self.progress.log.len();
        format!(
            "Erase all {n} review{} and start every card afresh? Export first if you may want them back.",
            plural(n)
        )
    }

    /// Shows the answer of the card on screen; false if there is no card.
    pub fn reveal(&mut self) -> bool {
        let Some(card) = self.current() else {
            return false;
        };
        self.pinned = Some(card.id.clone());
        self.revealed = true;
        self.announcement.clear();
        true
    }

    /// Grades the card on screen, whose answer must show, at `clock`, after taking in what is
    /// `stored`, and moves on to the next card. False (and nothing changes) if there was no
    /// answer showing; true means the progress changed and is to be saved.
    pub fn grade(
        &mut self,
        grade: Grade,
        stored: impl FnOnce() -> Option<Progress>,
        clock: Clock,
    ) -> bool {
        if !self.revealed {
            return false;
        }
        let Some(card) = self.current() else {
            return false;
        };
        self.take_in(stored);
        self.progress.grade(&card.id, grade, clock.now);
        self.clock = clock;
        self.revealed = false;
        self.pinned = None;
        self.settle();
        let back = self
            .progress
            .state(&card.id)
            .map_or_else(String::new, |s| interval_label(s.due - clock.now));
        self.announcement = format!(
            "{}: back in {back}. {} due now.",
            grade.label(),
            self.stats().due_now
        );
        true
    }

    /// Another tab saved `stored`: takes its reviews in, keeping this tab's (the card on screen
    /// stays if its answer shows). True when `stored` lacks some of this tab's reviews, so the
    /// union is to be saved back: tabs see each other's writes a moment late, and once both
    /// hold the union this stops.
    pub fn merge_stored(&mut self, stored: Progress, clock: Clock) -> bool {
        let stored = stored.normalized();
        let merged = self.progress.merge(&stored);
        let write_back = merged != stored;
        self.progress = merged;
        self.clock = clock;
        self.settle();
        write_back
    }

    /// The clock moved on: cards that came due join the queue behind the card on screen.
    pub fn tick(&mut self, clock: Clock) {
        self.clock = clock;
        self.settle();
    }

    /// Reviews the cards of `lesson` ("" for all) from the head of their queue.
    pub fn set_lesson(&mut self, lesson: &str) {
        self.lesson = (!lesson.is_empty()).then(|| lesson.to_string());
        self.ahead = false;
        self.revealed = false;
        self.pinned = None;
        self.settle();
    }

    /// Lets cards that are not due yet into the queue, earliest first.
    pub fn learn_ahead(&mut self) {
        self.ahead = true;
        self.pinned = None;
        self.settle();
    }

    /// Sets the desired retention at `clock`, after taking in what is `stored`. False (and
    /// nothing changes) if it is the retention already in force.
    pub fn set_retention(
        &mut self,
        retention: f64,
        stored: impl FnOnce() -> Option<Progress>,
        clock: Clock,
    ) -> bool {
        if (retention - self.progress.retention).abs() <= 1e-9 {
            return false;
        }
        self.take_in(stored);
        self.progress.set_retention(retention, clock.now);
        self.clock = clock;
        self.settle();
        true
    }

    /// Merges an export (`text`) into the progress, after taking in what is `stored`, and
    /// starts again from the head of the queue. The message says how many reviews were new;
    /// a file that cannot be read changes nothing and the error says why.
    pub fn import(
        &mut self,
        text: &str,
        stored: impl FnOnce() -> Option<Progress>,
        clock: Clock,
    ) -> Result<String, String> {
        let incoming = Progress::import_json(text)?;
        self.take_in(stored);
        let before = self.progress.log.len();
        self.progress = self.progress.merge(&incoming);
        let added = self.progress.log.len().saturating_sub(before);
        self.clock = clock;
        self.revealed = false;
        self.pinned = None;
        self.settle();
        Ok(format!(
            "{added} review{} added ({} in the file, the rest already here).",
            plural(added),
            incoming.log.len()
        ))
    }

    /// Erases every review at `clock` (after taking in what is `stored`, so other tabs'
    /// reviews go too): every card is new again.
    pub fn reset(&mut self, stored: impl FnOnce() -> Option<Progress>, clock: Clock) {
        self.take_in(stored);
        self.progress.reset(clock.now);
        self.clock = clock;
        self.revealed = false;
        self.pinned = None;
        self.settle();
    }

    fn take_in(&mut self, stored: impl FnOnce() -> Option<Progress>) {
        if let Some(stored) = stored() {
            self.progress = self.progress.merge(&stored);
        }
    }

    /// Pins the card on screen after a change: it stays while it is still to review, else the
    /// head of the queue takes its place. A card whose answer shows stays whatever happens.
    fn settle(&mut self) {
        if !self.revealed {
            self.pinned = self.current().map(|c| c.id.clone());
        }
    }
}

#[cfg(test)]
mod tests;
