//! Reading progress in the page: ticks in the contents, a progress bar, "continue where you left
//! off", and the lesson marked read when its end comes into view.

use crate::content::{Lesson, LESSONS};
use crate::logic::progress::{self, Progress};
use crate::services::storage::Persist;
use leptos::prelude::*;

const STORE_NAME: &str = "progress";

/// The reader's progress, shared by the contents, the title page and each lesson. `Copy`.
#[derive(Clone, Copy)]
pub struct ReadingProgress {
    state: RwSignal<Progress>,
    persist: Persist,
}

impl ReadingProgress {
    /// Loads the stored progress (a bad value is backed up and reported by `Persist`).
    pub fn load(persist: Persist) -> Self {
        let stored = persist.load::<Progress>(STORE_NAME, Progress::VERSION, |_, _| None);
        ReadingProgress {
            state: RwSignal::new(stored.unwrap_or_default()),
            persist,
        }
    }

    /// The progress the shell provides; where none was provided (a component drawn outside the
    /// shell), the stored progress, loaded afresh: what is read stays read, and a change is
    /// saved over what is stored, not over an empty record.
    pub fn from_context() -> Self {
        use_context::<ReadingProgress>()
            .unwrap_or_else(|| ReadingProgress::load(Persist::from_context()))
    }

    /// A reader who has read nothing yet: what the build renders (no stored progress there).
    pub fn none(persist: Persist) -> Self {
        ReadingProgress {
            state: RwSignal::new(Progress::default()),
            persist,
        }
    }

    fn change(&self, f: impl FnOnce(&mut Progress) -> bool) {
        let mut changed = false;
        self.state.update(|p| changed = f(p));
        if changed {
            self.state
                .with_untracked(|p| self.persist.save(STORE_NAME, Progress::VERSION, p));
        }
    }

    /// True when lesson `slug` is read.
    pub fn is_read(&self, slug: &str) -> bool {
        self.state.with(|p| p.read.contains(slug))
    }

    /// Marks lesson `slug` read or unread.
    pub fn set_read(&self, slug: &str, read: bool) {
        self.change(|p| p.set_read(slug, read));
    }

    /// How many lessons of the course are read.
    pub fn read_count(&self) -> usize {
        let slugs: Vec<&str> = LESSONS.iter().map(|l| l.slug).collect();
        self.state.with(|p| p.read_count(&slugs))
    }

    /// Where the reader left off, if the lesson still exists: (lesson index, heading id).
    pub fn last(&self) -> Option<(usize, String)> {
        self.state.with(|p| {
            let place = p.last.as_ref()?;
            let i = LESSONS.iter().position(|l| l.slug == place.lesson)?;
            Some((i, place.heading.clone()))
        })
    }

    /// Records the reader's place.
    pub fn set_last(&self, slug: &str, heading: &str) {
        self.change(|p| p.set_last(slug, heading));
    }
}

/// The contents' progress bar: "3 of 8 read".
#[component]
pub fn ProgressBar() -> impl IntoView {
    let progress = ReadingProgress::from_context();
    let total = LESSONS.len();
    view! {
        <div class="reading-progress" data-testid="reading-progress">
            <div
                class="progress-track"
                role="progressbar"
                aria-label="Lessons read"
                aria-valuemin="0"
                aria-valuemax=total
                aria-valuenow=move || progress.read_count()
            >
                <div
                    class="progress-fill"
                    style:width=move || format!("{}%", progress.read_count() * 100 / total.max(1))
                ></div>
            </div>
            <span class="progress-text">{move || format!("{} of {total} read", progress.read_count())}</span>
        </div>
    }
}

/// Follows the reader through `lesson`: records the heading of its text in view, and marks
/// the lesson read once `end` (the element after its last words) has been on screen.
///
/// Returns the flag that stops the automatic mark for this visit: set once the lesson has been
/// marked, and by the reader's own button, so that taking the mark off is not undone at once.
pub fn follow_reading(
    lesson: &'static Lesson,
    end: NodeRef<leptos::html::Nav>,
) -> StoredValue<bool> {
    let progress = ReadingProgress::from_context();
    let auto_done = StoredValue::new(false);
    let slug = lesson.slug;
    if !cfg!(target_arch = "wasm32") {
        // The build's render of the page: no reader, no scrolling to follow.
        return auto_done;
    }
    let check = move || {
        // A frame asked for before the reader left the lesson may come after its signals are
        // gone: it has nothing left to follow.
        if auto_done.is_disposed() {
            return;
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        let height = window
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0);
        if let Some(el) = end.get_untracked() {
            if !auto_done.get_value() && el.get_bounding_client_rect().top() < height {
                auto_done.set_value(true);
                progress.set_read(slug, true);
            }
        }
        let Some(doc) = window.document() else { return };
        // The lesson's own headings, by their anchors: a widget's title is not a place to come
        // back to (its id is made at run time). One not in the page yet (the text is still on
        // its way) counts as below the screen.
        let top_of = |i: usize| {
            lesson
                .headings
                .get(i)
                .and_then(|h| doc.get_element_by_id(h.id))
                .map_or(f64::INFINITY, |el| el.get_bounding_client_rect().top())
        };
        match progress::current_heading(lesson.headings.len(), 120.0, top_of)
            .and_then(|i| lesson.headings.get(i))
        {
            Some(h) => progress.set_last(slug, h.id),
            // Above the first heading. A reload starts here before the browser puts the reader
            // back, so it never replaces a heading already remembered in this lesson.
            None => {
                if progress
                    .last()
                    .is_none_or(|(i, _)| LESSONS.get(i).is_none_or(|l| l.slug != slug))
                {
                    progress.set_last(slug, "");
                }
            }
        }
    };
    // Scroll events come often; the work is a few rectangles, done once per frame at most.
    let pending = StoredValue::new(false);
    let handle = window_event_listener(leptos::ev::scroll, move |_| {
        if !pending.get_value() {
            pending.set_value(true);
            request_animation_frame(move || {
                if pending.try_set_value(false).is_none() {
                    check();
                }
            });
        }
    });
    on_cleanup(move || handle.remove());
    // A short lesson may end on the first screen.
    request_animation_frame(check);
    auto_done
}
