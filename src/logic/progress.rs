//! Reading progress: which lessons are read, and where the reader left off. Pure; stored
//! through the storage module by `app::progress`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Where the reader was: a lesson and the heading last in view (empty for the top).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// Lesson slug.
    pub lesson: String,
    /// Heading anchor id, or empty.
    pub heading: String,
}

/// What is stored: lessons read (by slug) and the last place.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Slugs of lessons marked read. Slugs no longer in the course are kept, not dropped.
    #[serde(default)]
    pub read: BTreeSet<String>,
    /// Where the reader left off.
    #[serde(default)]
    pub last: Option<Place>,
}

impl Progress {
    /// Schema version of the stored value.
    pub const VERSION: u32 = 1;

    /// How many of `slugs` are read.
    pub fn read_count(&self, slugs: &[&str]) -> usize {
        slugs.iter().filter(|s| self.read.contains(**s)).count()
    }

    /// Marks `slug` read or unread; true when that changed anything.
    pub fn set_read(&mut self, slug: &str, read: bool) -> bool {
        if read {
            self.read.insert(slug.to_string())
        } else {
            self.read.remove(slug)
        }
    }

    /// Records the reader's place; true when it moved.
    pub fn set_last(&mut self, lesson: &str, heading: &str) -> bool {
        let place = Place {
            lesson: lesson.to_string(),
            heading: heading.to_string(),
        };
        if self.last.as_ref() == Some(&place) {
            return false;
        }
        self.last = Some(place);
        true
    }
}

/// The heading the reader is in, of `count` headings in reading order whose tops (px from the
/// viewport's top) `top_of` measures: the index of the last at or above `line`, `None` above the
/// first. Tops grow down the page, so a binary search measures about log2(`count`) of them, not
/// every one on every scroll.
pub fn current_heading(
    count: usize,
    line: f64,
    mut top_of: impl FnMut(usize) -> f64,
) -> Option<usize> {
    // Invariant: every heading before `lo` is at or above the line, every one from `hi` below.
    let (mut lo, mut hi) = (0, count);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if top_of(mid) <= line {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo.checked_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_counts_and_keeps_unknown_lessons() {
        let mut p = Progress::default();
        assert!(p.set_read("overview", true));
        assert!(!p.set_read("overview", true));
        assert!(p.set_read("old-lesson", true));
        assert_eq!(p.read_count(&["overview", "recall"]), 1);
        assert!(p.set_read("overview", false));
        assert_eq!(p.read_count(&["overview", "recall"]), 0);
        assert!(p.read.contains("old-lesson"));
    }

    #[test]
    fn the_last_place_moves_only_when_it_changes() {
        let mut p = Progress::default();
        assert!(p.set_last("overview", ""));
        assert!(!p.set_last("overview", ""));
        assert!(p.set_last("overview", "key-points"));
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<Progress>(&json).unwrap(), p);
        // Older or partial values load with defaults.
        assert_eq!(
            serde_json::from_str::<Progress>("{}").unwrap(),
            Progress::default()
        );
    }

    /// Name of the stored value, as `app::progress` stores it.
    const STORE_NAME: &str = "progress";

    proptest::proptest! {
        #[test]
        fn saved_progress_loads_unchanged(
            read in proptest::collection::btree_set("\\PC{0,12}", 0..12),
            last in proptest::option::of(("\\PC{0,12}", "\\PC{0,12}")),
        ) {
            use crate::logic::storage::{self, MemoryBackend, Read};
            let mut p = Progress { read, last: None };
            if let Some((lesson, heading)) = last {
                p.set_last(&lesson, &heading);
            }
            let b = MemoryBackend::default();
            storage::write(&b, STORE_NAME, Progress::VERSION, &p)
                .map_err(|n| proptest::test_runner::TestCaseError::fail(n.text))?;
            proptest::prop_assert_eq!(
                storage::read::<Progress>(&b, STORE_NAME, Progress::VERSION, 0, |_, _| None),
                Read::Value(p)
            );
        }

        #[test]
        fn any_stored_progress_loads_or_is_backed_up(
            text in crate::logic::fuzz::any_text(),
            read in proptest::collection::vec(crate::logic::fuzz::any_text(), 0..4),
            top in proptest::collection::vec((crate::logic::fuzz::any_text(), crate::logic::fuzz::finite()), 0..6),
            line in crate::logic::fuzz::finite(),
        ) {
            use crate::logic::storage::{self, Backend, MemoryBackend, Read};
            let shaped = serde_json::json!({"v": 1, "data": {"read": read, "last": {"lesson": text, "heading": 3}}});
            for raw in [text.clone(), shaped.to_string()] {
                let b = MemoryBackend::default();
                b.set(&storage::key(STORE_NAME), &raw).map_err(proptest::test_runner::TestCaseError::fail)?;
                if let Read::Value(p) = storage::read::<Progress>(&b, STORE_NAME, Progress::VERSION, 0, |_, _| None) {
                    let _ = p.read_count(&["overview"]);
                }
            }
            let tops: Vec<f64> = top.iter().map(|(_, y)| *y).collect();
            let found = current_heading(tops.len(), line, |i| tops.get(i).copied().unwrap_or(f64::INFINITY));
            proptest::prop_assert!(found.is_none_or(|i| i < tops.len()));
        }
    }

    /// Progress as the first build stored it, and with a lesson since removed, still loads.
    #[test]
    fn every_stored_shape_still_loads() {
        use crate::logic::storage::{self, Backend, MemoryBackend, Read};
        for (raw, read, last) in [
            (r#"{"v":1,"data":{"read":["overview"]}}"#, 1, None),
            (
                r#"{"v":1,"data":{"read":["overview","old-lesson"],"last":{"lesson":"overview","heading":"key-points"}}}"#,
                2,
                Some("key-points"),
            ),
            (r#"{"v":1,"data":{}}"#, 0, None),
        ] {
            let b = MemoryBackend::default();
            b.set(&storage::key(STORE_NAME), raw).unwrap();
            let Read::Value(p) =
                storage::read::<Progress>(&b, STORE_NAME, Progress::VERSION, 0, |_, _| None)
            else {
                panic!("{raw} must load");
            };
            assert_eq!(p.read.len(), read, "{raw}");
            assert_eq!(p.last.as_ref().map(|l| l.heading.as_str()), last, "{raw}");
        }
    }

    #[test]
    fn the_current_heading_is_the_last_one_above_the_line() {
        let tops = [-400.0, -10.0, 300.0];
        let at = |i: usize| tops[i];
        assert_eq!(current_heading(3, 120.0, at), Some(1));
        assert_eq!(current_heading(3, 400.0, at), Some(2));
        assert_eq!(current_heading(3, -10.0, at), Some(1));
        assert_eq!(current_heading(1, 120.0, |_| 500.0), None);
        assert_eq!(current_heading(0, 120.0, |_| unreachable!()), None);
    }

    proptest::proptest! {
        #[test]
        fn the_search_finds_what_reading_every_top_finds_and_measures_few(
            mut tops in proptest::collection::vec(-5000.0..5000.0f64, 0..200),
            line in -6000.0..6000.0f64,
        ) {
            tops.sort_by(f64::total_cmp);
            let every = tops.iter().take_while(|&&t| t <= line).count().checked_sub(1);
            let mut measured = 0u32;
            let found = current_heading(tops.len(), line, |i| {
                measured += 1;
                tops[i]
            });
            proptest::prop_assert_eq!(found, every);
            proptest::prop_assert!(measured <= usize::BITS - tops.len().leading_zeros());
        }
    }
}
