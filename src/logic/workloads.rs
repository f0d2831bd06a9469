//! The online-or-offline sorting exercise: the workloads, the side each belongs on and why, and
//! the reader's placements and score. Pure: no web types, tested natively.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which deployment goal a workload belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// A person waits on each response: optimize latency.
    Online,
    /// A batch job nobody watches request by request: optimize throughput.
    Offline,
}

impl Side {
    /// Both sides, in the order they are shown.
    pub const BOTH: [Side; 2] = [Side::Online, Side::Offline];

    /// Stable lowercase id, for test ids and storage.
    pub fn id(self) -> &'static str {
        match self {
            Side::Online => "online",
            Side::Offline => "offline",
        }
    }

    /// The side's name as the reader sees it.
    pub fn label(self) -> &'static str {
        match self {
            Side::Online => "Online",
            Side::Offline => "Offline",
        }
    }

    /// What the side optimizes.
    pub fn goal(self) -> &'static str {
        match self {
            Side::Online => "optimize latency",
            Side::Offline => "optimize throughput",
        }
    }
}

/// One workload to sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Workload {
    /// Stable id (storage and test ids).
    pub id: &'static str,
    /// What the reader sees on the card.
    pub name: &'static str,
    /// Where it belongs.
    pub side: Side,
    /// Why, in one line.
    pub reason: &'static str,
}

/// The workloads of the exercise, in the order they are dealt.
pub const WORKLOADS: [Workload; 8] = [
    Workload {
        id: "code-completion",
        name: "Code completion in an editor",
        side: Side::Online,
        reason: "A developer pauses mid-line for every suggestion; a slow one is simply ignored.",
    },
    Workload {
        id: "chat",
        name: "A chat assistant",
        side: Side::Online,
        reason: "Someone reads each reply as it streams in, so the first token must come quickly.",
    },
    Workload {
        id: "voice-agent",
        name: "A voice agent on a phone line",
        side: Side::Online,
        reason: "A caller hears every gap in the conversation; delay breaks the turn-taking.",
    },
    Workload {
        id: "back-catalogue",
        name: "Transcribing a back catalogue of recorded audio",
        side: Side::Offline,
        reason: "The archive has waited for years; what counts is hours of audio per GPU-hour.",
    },
    Workload {
        id: "document-embedding",
        name: "Embedding documents on a nightly schedule",
        side: Side::Offline,
        reason: "The job only has to finish before morning, so pack the GPU with large batches.",
    },
    Workload {
        id: "training-corpus",
        name: "Preparing a corpus for model training",
        side: Side::Offline,
        reason: "Billions of tokens and no one waiting on any one of them: cost per token rules.",
    },
    Workload {
        id: "whisper-dictation",
        name: "Live dictation with Whisper",
        side: Side::Online,
        reason: "Words must appear while the speaker talks: the latency-tuned Whisper deployment.",
    },
    Workload {
        id: "whisper-batch",
        name: "Batch transcription with the same Whisper model",
        side: Side::Offline,
        reason: "Same model, no one watching: a second, throughput-tuned deployment serves it.",
    },
];

/// The workload with `id`.
pub fn workload(id: &str) -> Option<&'static Workload> {
    WORKLOADS.iter().find(|w| w.id == id)
}

/// What the reader hears right after placing a workload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    /// True when the workload went to its side.
    pub correct: bool,
    /// One line: the verdict and the reason.
    pub line: String,
}

/// Checks `side` for workload `id`; `None` for an unknown id.
pub fn check(id: &str, side: Side) -> Option<Feedback> {
    let w = workload(id)?;
    let correct = w.side == side;
    let verdict = if correct {
        format!(
            "Right: {}, {}.",
            w.side.label().to_ascii_lowercase(),
            w.side.goal()
        )
    } else {
        format!(
            "Not quite: this one is {}, {}.",
            w.side.label().to_ascii_lowercase(),
            w.side.goal()
        )
    };
    Some(Feedback {
        correct,
        line: format!("{verdict} {}", w.reason),
    })
}

/// The reader's progress: where each workload was put, and whether the first try was right.
/// This is what is stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sorting {
    /// Current side of each placed workload, by id.
    pub placed: BTreeMap<String, Side>,
    /// For each workload placed at least once, whether its first placement was right.
    pub first_try: BTreeMap<String, bool>,
}

/// The score shown to the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    /// Workloads now on their right side.
    pub correct: usize,
    /// Workloads placed so far.
    pub placed: usize,
    /// Workloads right at the first try.
    pub first_try: usize,
    /// Workloads in the exercise.
    pub total: usize,
}

impl Sorting {
    /// Puts workload `id` on `side` and returns the feedback; unknown ids change nothing.
    pub fn place(&mut self, id: &str, side: Side) -> Option<Feedback> {
        let feedback = check(id, side)?;
        self.placed.insert(id.to_string(), side);
        self.first_try
            .entry(id.to_string())
            .or_insert(feedback.correct);
        Some(feedback)
    }

    /// Where workload `id` is, if placed.
    pub fn side_of(&self, id: &str) -> Option<Side> {
        self.placed.get(id).copied()
    }

    /// The score, counting only known workloads (stored data may hold stale ids).
    pub fn score(&self) -> Score {
        let known = |id: &String| workload(id).is_some();
        Score {
            correct: self
                .placed
                .iter()
                .filter(|(id, side)| workload(id).is_some_and(|w| w.side == **side))
                .count(),
            placed: self.placed.keys().filter(|id| known(id)).count(),
            first_try: self
                .first_try
                .iter()
                .filter(|(id, ok)| known(id) && **ok)
                .count(),
            total: WORKLOADS.len(),
        }
    }

    /// True when every workload sits on its right side.
    pub fn done(&self) -> bool {
        self.score().correct == WORKLOADS.len()
    }
}

impl Score {
    /// The score as a sentence starting with its number, e.g. "5 of 8 on the right side".
    pub fn line(&self) -> String {
        format!(
            "{} of {} on the right side ({} right at the first try)",
            self.correct, self.total, self.first_try
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lesson_workloads_are_all_there_with_their_sides() {
        let online: Vec<_> = WORKLOADS
            .iter()
            .filter(|w| w.side == Side::Online)
            .map(|w| w.id)
            .collect();
        assert_eq!(
            online,
            [
                "code-completion",
                "chat",
                "voice-agent",
                "whisper-dictation"
            ]
        );
        assert_eq!(WORKLOADS.len(), 8);
        let mut ids: Vec<_> = WORKLOADS.iter().map(|w| w.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 8, "ids are unique");
        assert!(WORKLOADS.iter().all(|w| !w.reason.contains('\n')));
    }

    #[test]
    fn checking_gives_a_verdict_and_the_reason() {
        let right = check("chat", Side::Online).unwrap();
        assert!(right.correct);
        assert!(right.line.starts_with("Right: online, optimize latency."));
        let wrong = check("whisper-batch", Side::Online).unwrap();
        assert!(!wrong.correct);
        assert!(wrong.line.starts_with("Not quite: this one is offline"));
        assert!(wrong.line.contains("throughput-tuned"));
        assert_eq!(check("nope", Side::Online), None);
    }

    #[test]
    fn the_score_keeps_first_tries_and_current_places() {
        let mut s = Sorting::default();
        assert_eq!(
            s.place("chat", Side::Offline).map(|f| f.correct),
            Some(false)
        );
        s.place("chat", Side::Online);
        s.place("training-corpus", Side::Offline);
        assert_eq!(s.place("unknown", Side::Offline), None);
        let score = s.score();
        assert_eq!(
            (score.correct, score.placed, score.first_try, score.total),
            (2, 2, 1, 8)
        );
        assert_eq!(
            score.line(),
            "2 of 8 on the right side (1 right at the first try)"
        );
        assert!(!s.done());
        for w in WORKLOADS {
            s.place(w.id, w.side);
        }
        assert!(s.done());
        assert_eq!(s.score().first_try, 7);
    }

    #[test]
    fn stored_progress_round_trips_and_ignores_stale_ids() {
        let mut s = Sorting::default();
        s.place("voice-agent", Side::Online);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains("\"online\""));
        let mut back: Sorting = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        back.placed.insert("gone".into(), Side::Online);
        back.first_try.insert("gone".into(), true);
        assert_eq!(back.score().placed, 1);
        assert_eq!(back.score().first_try, 1);
    }

    proptest::proptest! {
        #[test]
        fn stored_sortings_load_unchanged_or_are_backed_up(
            moves in proptest::collection::vec((0usize..8, proptest::prelude::any::<bool>()), 0..20),
            id in crate::logic::fuzz::any_text(),
            side in crate::logic::fuzz::any_text(),
        ) {
            use crate::logic::storage::{self, Backend, MemoryBackend, Read};
            let mut s = Sorting::default();
            for (i, online) in moves {
                if let Some(w) = WORKLOADS.get(i) {
                    s.place(w.id, if online { Side::Online } else { Side::Offline });
                }
            }
            let _ = s.place(&id, Side::Online);
            let _ = (workload(&id), check(&id, Side::Offline), s.side_of(&id));
            let b = MemoryBackend::default();
            storage::write(&b, "workload-sort", 1, &s).map_err(|n| proptest::test_runner::TestCaseError::fail(n.text))?;
            proptest::prop_assert_eq!(
                storage::read::<Sorting>(&b, "workload-sort", 1, 0, |_, _| None),
                Read::Value(s)
            );
            let raw = serde_json::json!({"v": 1, "data": {"placed": {id.clone(): side.clone()}, "first_try": {id: side}}}).to_string();
            b.set(&storage::key("workload-sort"), &raw).map_err(proptest::test_runner::TestCaseError::fail)?;
            if let Read::Value(stored) = storage::read::<Sorting>(&b, "workload-sort", 1, 0, |_, _| None) {
                proptest::prop_assert!(stored.score().placed <= WORKLOADS.len());
                proptest::prop_assert!(!stored.score().line().is_empty());
            }
        }

        #[test]
        fn any_sequence_of_moves_keeps_the_score_consistent(
            moves in proptest::collection::vec((0usize..8, proptest::prelude::any::<bool>()), 0..40),
        ) {
            let mut s = Sorting::default();
            for (i, online) in moves {
                let side = if online { Side::Online } else { Side::Offline };
                let f = s.place(WORKLOADS[i].id, side).expect("known id");
                proptest::prop_assert_eq!(f.correct, WORKLOADS[i].side == side);
            }
            let score = s.score();
            proptest::prop_assert!(score.correct <= score.placed && score.placed <= score.total);
            proptest::prop_assert!(score.first_try <= score.placed);
            proptest::prop_assert_eq!(s.done(), score.correct == 8);
        }
    }
}
