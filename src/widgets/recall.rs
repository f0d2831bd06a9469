//! Recall cards: review with FSRS spacing, statistics, a forecast chart, export and import.
//!
//! The page-wide review (`widget recall-deck`, on the recall page) and each lesson's own cards
//! (`widget recall`, `lesson: <slug>`) share one stored value, `ie-course:recall`. Every write merges with what is stored first, and a
//! `storage` event from another tab merges its reviews in, so two tabs never lose a review.
//!
//! The review is a [`Session`] held in one signal; this component wires the outside world to it
//! (storage, the clock, keys, other tabs' writes), and the pieces in `recall/` show it.

mod card;
mod scope;
mod stats;
mod tools;

use super::controls::{unique_id, WidgetCard};
use super::modules::Carried;
use crate::content::{title_by_slug, WidgetParams};
use crate::logic::recall::{
    self, interval_label, Clock, Grade, KeyAction, Progress, Session, SCHEMA, STORE_NAME,
};
use crate::nav::{self, Route};
use crate::services::storage::Persist;
use crate::services::timers::when_idle;
use card::{NothingDue, ReviewCard};
use leptos::html::Div;
use leptos::prelude::*;
use scope::ScopeAndRetention;
use stats::{Counts, Statistics};
use std::time::Duration;
use tools::Tools;
use wasm_bindgen::JsCast;

/// Mounts the compact form that ends a lesson: that lesson's cards (`lesson: <slug>`; without
/// it, every card the module carries), with a link to the recall page for the rest. The cards
/// are those the widgets module carries (`modules::Carried`): the page's module carries its
/// lesson's.
pub fn mount(params: WidgetParams) -> AnyView {
    let lesson = params.get("lesson").map(str::to_string);
    let cards = use_context::<Carried>().map_or(&[][..], |c| c.cards);
    view! { <Recall deck=recall::deck_of(cards) lesson=lesson around=lesson_form /> }.into_any()
}

/// Mounts the whole deck's review with its scope, statistics and tools (the recall page).
pub fn mount_deck(_params: WidgetParams) -> AnyView {
    view! { <Recall deck=recall::deck() lesson=None around=deck_form /> }.into_any()
}

/// What a form of the review shows around it: above the review (after the counts), and below.
/// A function, not a flag, so that a module with only the lesson form links none of the deck's
/// parts (statistics, chart, import and export).
type Around = fn(Review) -> (&'static str, AnyView, AnyView);

/// The review's state, and the way to what is stored, for the parts around it.
#[derive(Clone, Copy)]
struct Review {
    session: RwSignal<Session<'static>>,
    stats: Memo<recall::Stats>,
    persist: Persist,
    /// The review area, which keeps the focus as cards come and go.
    area: NodeRef<Div>,
}

impl Review {
    /// What is stored now (a change that records something merges it first).
    fn stored(self) -> Option<Progress> {
        load(self.persist)
    }

    /// Saves the session's progress whole.
    fn save(self) {
        self.session
            .with_untracked(|s| self.persist.save(STORE_NAME, SCHEMA, s.progress()));
    }
}

/// The lesson's form: a title, and a link to the recall page below.
fn lesson_form(_: Review) -> (&'static str, AnyView, AnyView) {
    let recall_href = title_by_slug("recall").map(|(i, _)| nav::href(Route::Lesson(i)));
    let note = view! {
        <p class="widget-note">
            "Statistics, export and all the cards are on the "
            <a href=recall_href.unwrap_or_default()>"recall page"</a>
            "."
        </p>
    };
    (
        "Recall: this lesson's cards",
        ().into_any(),
        note.into_any(),
    )
}

/// The recall page's form: scope and retention above, statistics and tools below.
fn deck_form(r: Review) -> (&'static str, AnyView, AnyView) {
    let session = r.session;
    let scope = Memo::new(move |_| session.with(|s| s.lesson().unwrap_or("").to_string()));
    let retention = session.with_untracked(Session::retention_percent);
    let above = view! {
        <ScopeAndRetention
            scope=scope
            on_scope=move |lesson: String| session.update(|s| s.set_lesson(&lesson))
            retention=retention
            on_retention=move |value: f64| {
                if session.try_update(|s| s.set_retention(value, move || r.stored(), clock_now())).unwrap_or(false) {
                    r.save();
                }
            }
        />
    };
    let below = view! {
        <Statistics stats=r.stats />
        <Tools
            reset_question=move || session.with(Session::reset_question)
            export=move || session.with_untracked(|s| s.progress().export_json())
            import=move |text: String| {
                let done = session
                    .try_update(|s| s.import(&text, move || r.stored(), clock_now()))
                    .unwrap_or_else(|| Err(String::new()));
                if done.is_ok() {
                    r.save();
                }
                done
            }
            reset=move || {
                session.update(|s| s.reset(move || r.stored(), clock_now()));
                r.save();
            }
        />
    };
    ("Recall cards", above.into_any(), below.into_any())
}

fn clock_now() -> Clock {
    Clock {
        now: js_sys::Date::now() as i64,
        utc_offset_min: -(js_sys::Date::new_0().get_timezone_offset() as i32),
    }
}

/// The stored progress, or `None` if there is none or it could not be used (then `Persist` has
/// backed it up and said so).
fn load(persist: Persist) -> Option<Progress> {
    persist.load::<Progress>(STORE_NAME, SCHEMA, |_, _| None)
}

/// The review, in the form `around` gives it.
#[component]
fn Recall(
    /// The cards to review from.
    deck: &'static [recall::CardDef],
    /// Only this lesson's cards (`None`: every card).
    lesson: Option<String>,
    /// The parts around the review: [`lesson_form`] or [`deck_form`].
    around: Around,
) -> impl IntoView {
    let r = Review::start(deck, lesson.as_deref());
    r.follow_other_tabs();
    let review = review_area(r);
    r.warm_up();
    let (title, above, below) = around(r);
    view! {
        <WidgetCard title=title name="recall">
            <Counts stats=r.stats />
            {above}
            {review}
            {below}
        </WidgetCard>
    }
}

impl Review {
    /// The session of the stored progress (a stored value that cannot be used is backed up,
    /// said, and replaced, so that later merges do not back it up again).
    fn start(deck: &'static [recall::CardDef], lesson: Option<&str>) -> Review {
        let persist = Persist::from_context();
        let (initial, unusable) =
            persist.load_reporting::<Progress>(STORE_NAME, SCHEMA, |_, _| None);
        if unusable.is_some() {
            persist.save(STORE_NAME, SCHEMA, &Progress::default());
        }
        let session = RwSignal::new(Session::start(deck, initial, lesson, clock_now()));
        Review {
            session,
            stats: Memo::new(move |_| session.with(Session::stats)),
            persist,
            area: NodeRef::new(),
        }
    }

    /// Takes in the reviews another tab saves (and puts ours back if its write lacked them),
    /// and moves the clock on every 20 s, so cards fall due while the page is open.
    fn follow_other_tabs(self) {
        let session = self.session;
        let persist = self.persist;
        let storage_key = crate::logic::storage::key(STORE_NAME);
        let listener = window_event_listener(leptos::ev::storage, move |ev| {
            if ev.key().as_deref() != Some(storage_key.as_str()) {
                return;
            }
            if let Some(progress) = load(persist) {
                if session
                    .try_update(|s| s.merge_stored(progress, clock_now()))
                    .unwrap_or(false)
                {
                    self.save();
                }
            }
        });
        let ticker = set_interval_with_handle(
            move || session.update(|s| s.tick(clock_now())),
            Duration::from_secs(20),
        )
        .ok();
        on_cleanup(move || {
            listener.remove();
            if let Some(t) = ticker {
                t.clear();
            }
        });
    }

    /// Gives the review area the focus back (after a button inside it went away).
    fn focus_area(self) {
        if let Some(el) = self.area.get_untracked() {
            let _ = el.focus();
        }
    }

    /// Shows the answer.
    fn reveal(self) {
        if self.session.try_update(Session::reveal).unwrap_or(false) {
            self.focus_area();
        }
    }

    /// Grades the card up, merging what is stored first, and saves.
    fn grade(self, g: Grade) {
        if self
            .session
            .try_update(|s| s.grade(g, move || self.stored(), clock_now()))
            .unwrap_or(false)
        {
            self.save();
            self.focus_area();
        }
    }

    /// [`Review::reveal`] as the card's button calls it. The live card and the warm-up's copy
    /// take the same closure (this function's), so the card's code is built once.
    fn on_reveal(self) -> impl Fn() + Copy + Send + Sync + 'static {
        move || self.reveal()
    }

    /// [`Review::grade`] as the card's buttons call it (see [`Review::on_reveal`]).
    fn on_grade(self) -> impl Fn(Grade) + Copy + Send + Sync + 'static {
        move |g| self.grade(g)
    }

    /// Single-key shortcuts, only while the review area (or something in it) has focus, never
    /// while typing in a field, and never with a modifier key.
    fn on_keydown(self, ev: web_sys::KeyboardEvent) {
        if ev.default_prevented() || ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.repeat() {
            return;
        }
        let Some(target) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        if crate::services::page::typing_in_field(&target) {
            return;
        }
        let on_control = matches!(target.tag_name().as_str(), "BUTTON" | "A");
        let (revealed, has_card) = self
            .session
            .with_untracked(|s| (s.is_revealed(), s.current().is_some()));
        match KeyAction::of_key(&ev.key(), on_control, revealed, has_card) {
            Some(KeyAction::Reveal) => {
                ev.prevent_default();
                self.reveal();
            }
            Some(KeyAction::Grade(g)) => {
                ev.prevent_default();
                self.grade(g);
            }
            None => {}
        }
    }

    /// V8 compiles a wasm function the first time it runs, so the first "Show answer" and the
    /// first grade would each wait for a few hundred functions to compile (the answer's view,
    /// FSRS's scheduling): most of those keys' time. Once the browser is idle after mount, both
    /// run on a copy no one sees: the card drawn revealed into elements that are never put in
    /// the page, then graded. The reader's session, the page and what is stored are untouched.
    fn warm_up(self) {
        when_idle(move || {
            let Some(copy) = self.session.try_get_untracked() else {
                return; // the widget is gone
            };
            let Some(card) = copy.current() else {
                return;
            };
            Owner::new().with(|| {
                let copy = RwSignal::new(copy);
                copy.update(|s| {
                    s.reveal();
                });
                let revealed = Memo::new(move |_| copy.with(Session::is_revealed));
                let early = Memo::new(move |_| copy.with(Session::current_is_early));
                let previews = Memo::new(move |_| copy.with(Session::previews));
                let unseen = view! {
                    <ReviewCard card=card early=early revealed=revealed previews=previews on_reveal=self.on_reveal() on_grade=self.on_grade() />
                };
                drop(unseen.build());
                copy.update(|s| {
                    s.grade(Grade::Good, || None, clock_now());
                });
            });
        });
    }
}

/// The review area: the card up (or what is due next), the keys it answers, and a line for
/// screen readers.
fn review_area(r: Review) -> impl IntoView {
    let session = r.session;
    let current = Memo::new(move |_| session.with(Session::current));
    let revealed = Memo::new(move |_| session.with(Session::is_revealed));
    let early = Memo::new(move |_| session.with(Session::current_is_early));
    let previews = Memo::new(move |_| session.with(Session::previews));
    let for_lesson = Memo::new(move |_| session.with(|s| s.lesson().is_some()));
    let next_due = Memo::new(move |_| session.with(|s| s.next_due_in().map(interval_label)));
    let announcement = Memo::new(move |_| session.with(|s| s.announcement().to_string()));
    let learn_ahead = move || session.update(Session::learn_ahead);
    let hint_id = unique_id("recall-keys");
    let described = hint_id.clone();
    view! {
        <div
            class="recall-review"
            tabindex="0"
            role="group"
            aria-label="Card review"
            aria-describedby=described
            aria-keyshortcuts="Space Enter 1 2 3 4"
            node_ref=r.area
            on:keydown=move |ev| r.on_keydown(ev)
        >
            {move || match current.get() {
                None => view! { <NothingDue for_lesson=for_lesson next_due=next_due on_learn_ahead=learn_ahead /> }.into_any(),
                Some(card) => view! {
                    <ReviewCard card=card early=early revealed=revealed previews=previews on_reveal=r.on_reveal() on_grade=r.on_grade() />
                }
                .into_any(),
            }}
            <p class="recall-keys" id=hint_id hidden=move || current.get().is_none()>
                "Keys while this box has focus: Space or Enter shows the answer; then 1 Again, 2 Hard, 3 Good, 4 Easy (Space or Enter: Good)."
            </p>
            <p class="recall-sr" role="status">{move || announcement.get()}</p>
        </div>
    }
}
