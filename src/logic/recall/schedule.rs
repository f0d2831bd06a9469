//! FSRS, as the course runs it: one scheduler with its short-term steps and no fuzz, and the
//! card states converted to and from the crate's.

use super::{CardState, Phase, DEFAULT_RETENTION, RETENTION_RANGE};
use chrono::{DateTime, TimeZone, Utc};
use rs_fsrs::{BasicScheduler, Card as FsrsCard, Parameters};

pub(super) fn time(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

/// `r` within [`RETENTION_RANGE`] (the default if it is not a number), to a hundredth of a
/// percent: finer means nothing to the scheduler, and a short decimal is stored and read back
/// exactly (the JSON reader may round a long one in its last bit).
pub(super) fn clamp_retention(r: f64) -> f64 {
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
pub(super) fn scheduler(retention: f64, card: FsrsCard, at: i64) -> BasicScheduler {
    let parameters = Parameters {
        request_retention: clamp_retention(retention),
        enable_short_term: true,
        enable_fuzz: false,
        ..Parameters::default()
    };
    BasicScheduler::new(parameters, card, time(at))
}

pub(super) fn to_fsrs(s: &CardState) -> FsrsCard {
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

pub(super) fn from_fsrs(c: &FsrsCard) -> CardState {
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

pub(super) fn new_card(now: i64) -> FsrsCard {
    FsrsCard {
        due: time(now),
        last_review: time(now),
        ..FsrsCard::default()
    }
}
