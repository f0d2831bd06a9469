//! The statistics panel: what is due, retention over 30 days, the streak and the forecast, and
//! each in words, number first.

use super::{CardDef, Clock, Grade, Phase, Progress, DAY};
use std::collections::BTreeSet;

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

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What the counters and the statistics panel say, each text starting with its number.
impl Stats {
    /// "3 cards" due now.
    pub fn due_text(&self) -> String {
        format!("{} card{}", self.due_now, plural(self.due_now))
    }

    /// "85 %", the true retention of the last 30 days, or a dash before there is any.
    pub fn retention_text(&self) -> String {
        match self.retention_30d {
            Some(r) => format!("{:.0} %", r * 100.0),
            None => "\u{2014}".into(),
        }
    }

    /// The sentence under the numbers that says what the true retention counts.
    pub fn retention_note(&self) -> String {
        let n = self.mature_reviews_30d;
        match self.retention_30d {
            Some(r) => format!(
                "True retention: {} of {n} review{} of learnt cards in the last 30 days were recalled (not \u{201c}Again\u{201d}).",
                (r * n as f64).round(),
                plural(n)
            ),
            None => "True retention appears once learnt cards come back for review: the share you still recalled.".into(),
        }
    }

    /// "2 days" in a row with a review.
    pub fn streak_text(&self) -> String {
        let n = self.streak as usize;
        format!("{n} day{}", plural(n))
    }

    /// The most reviews due on one of the next 30 days (the forecast's tallest bar).
    pub fn forecast_peak(&self) -> u32 {
        self.forecast.iter().copied().max().unwrap_or(0)
    }

    /// The forecast in words: the total, then each day that has reviews.
    pub fn forecast_text(&self) -> String {
        let total: u32 = self.forecast.iter().sum();
        if total == 0 {
            return "0 reviews due over the next 30 days: nothing is scheduled yet. Review a card and it appears here.".into();
        }
        let days: Vec<String> = self
            .forecast
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(d, n)| match d {
                0 => format!("{n} today"),
                1 => format!("{n} tomorrow"),
                d => format!("{n} in {d} days"),
            })
            .collect();
        format!(
            "{total} review{} due over the next 30 days: {}.",
            plural(total as usize),
            days.join(", ")
        )
    }

    /// Says that the history of cards no longer in the deck is kept, if there are any.
    pub fn removed_note(&self) -> Option<String> {
        let n = self.removed;
        (n > 0).then(|| {
            format!(
                "The history of {n} card{} no longer in the deck is kept with your progress.",
                plural(n)
            )
        })
    }
}

impl Progress {
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
}
