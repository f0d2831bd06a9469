//! Online or offline: the reader sorts workloads onto the latency side or the throughput side,
//! by dragging or by keyboard (select a workload, then choose a side), and hears why at once.

use crate::logic::workloads;

use super::controls::WidgetCard;
use crate::content::WidgetParams;
use crate::services::storage::Persist;
use leptos::prelude::*;
use workloads::{Side, Sorting, WORKLOADS};

const STORE_NAME: &str = "workload-sort";
const STORE_VERSION: u32 = 1;

/// Mounts the widget (it takes no parameters).
pub fn mount(_params: WidgetParams) -> AnyView {
    view! { <WorkloadSort /> }.into_any()
}

/// Gives a drag the workload's id as text, so the drag starts in every browser.
fn start_drag(ev: &web_sys::DragEvent, id: &str) {
    use wasm_bindgen::JsCast;
    let Ok(dt) = js_sys::Reflect::get(ev, &"dataTransfer".into()) else {
        return;
    };
    if dt.is_object() {
        let _ = js_sys::Reflect::set(&dt, &"effectAllowed".into(), &"move".into());
        if let Ok(set) = js_sys::Reflect::get(&dt, &"setData".into()) {
            if let Some(set) = set.dyn_ref::<js_sys::Function>() {
                let _ = set.call2(&dt, &"text/plain".into(), &id.into());
            }
        }
    }
}

/// The sorting exercise.
#[component]
pub fn WorkloadSort() -> impl IntoView {
    let persist = Persist::from_context();
    let b = Board {
        persist,
        sorting: RwSignal::new(
            persist
                .load::<Sorting>(STORE_NAME, STORE_VERSION, |_, _| None)
                .unwrap_or_default(),
        ),
        selected: RwSignal::new(None),
        dragging: RwSignal::new(None),
        over: RwSignal::new(None),
        announcement: RwSignal::new(String::new()),
        hint: RwSignal::new(None),
    };

    view! {
        <WidgetCard title="Online or offline?" name="workload-sort">
            <p class="widget-note sort-help">
                "Drag each workload to a side. With the keyboard: select a workload, then press the button of a side."
            </p>
            <div class="sort-tray" data-testid="sort-tray">
                <h4 class="sort-zone-title">"To sort"</h4>
                <ul class="sort-list">{move || list(b, None)}</ul>
                <p class="widget-note" data-testid="sort-status">
                    {move || b.sorting.with(|s| {
                        if s.done() {
                            "All sorted: every workload is on its side. Select any card to move it again."
                        } else if s.score().placed == WORKLOADS.len() {
                            "Every workload is placed. Select a card marked \u{2717} and move it to the other side."
                        } else {
                            ""
                        }
                    })}
                </p>
            </div>
            <p class="field-message" role="alert">{move || b.hint.get()}</p>
            <div class="sort-zones">{Side::BOTH.map(|side| zone(b, side)).into_iter().collect_view()}</div>
            <p class="sort-feedback" data-testid="sort-feedback" role="status" aria-live="polite">
                {move || b.announcement.get()}
            </p>
            <div class="sort-footer">
                <p class="sort-score" data-testid="sort-score">
                    {move || b.sorting.with(|s| s.score().line())}
                </p>
                <button type="button" class="button" data-testid="sort-reset" on:click=move |_| b.reset()>
                    "Start again"
                </button>
            </div>
        </WidgetCard>
    }
}

/// The board's state while its card is on the page: the sorting (stored), the workload
/// selected or dragged, the side a drag is over, and what the card says.
#[derive(Clone, Copy)]
struct Board {
    persist: Persist,
    sorting: RwSignal<Sorting>,
    selected: RwSignal<Option<&'static str>>,
    dragging: RwSignal<Option<&'static str>>,
    over: RwSignal<Option<Side>>,
    announcement: RwSignal<String>,
    hint: RwSignal<Option<&'static str>>,
}

impl Board {
    /// Puts workload `id` on `side`, says what that means, and keeps the sorting.
    fn place(self, id: &'static str, side: Side) {
        let mut next = self.sorting.get_untracked();
        if let Some(feedback) = next.place(id, side) {
            let name = workloads::workload(id).map_or("", |w| w.name);
            self.announcement.set(format!(
                "{name} \u{2192} {}. {}",
                side.label(),
                feedback.line
            ));
            self.persist.save(STORE_NAME, STORE_VERSION, &next);
            self.sorting.set(next);
        }
        self.selected.set(None);
        self.hint.set(None);
    }

    /// Puts the selected workload on `side` (the keyboard's way), or asks for one first.
    fn choose_side(self, side: Side) {
        match self.selected.get_untracked() {
            Some(id) => self.place(id, side),
            None => self.hint.set(Some("Choose a workload first, then a side.")),
        }
    }

    /// Every workload back in the tray.
    fn reset(self) {
        let empty = Sorting::default();
        self.persist.save(STORE_NAME, STORE_VERSION, &empty);
        self.sorting.set(empty);
        self.selected.set(None);
        self.hint.set(None);
        self.announcement
            .set("Cleared: every workload is back in the tray.".into());
    }
}

/// The workloads on `side` (`None`: the tray).
fn list(b: Board, side: Option<Side>) -> impl IntoView {
    WORKLOADS
        .iter()
        .filter(|w| b.sorting.with(|s| s.side_of(w.id)) == side)
        .map(|w| item(b, w))
        .collect_view()
}

/// One workload's card: select it or drag it; once placed, a mark and the reason.
fn item(b: Board, w: &'static workloads::Workload) -> impl IntoView {
    let placed = move || b.sorting.with(|s| s.side_of(w.id));
    let feedback = move || placed().and_then(|side| workloads::check(w.id, side));
    let is_correct = move || feedback().is_some_and(|f| f.correct);
    let is_wrong = move || feedback().is_some_and(|f| !f.correct);
    view! {
        <li class="sort-item" class:correct=is_correct class:wrong=is_wrong>
            <button
                type="button"
                class="sort-card"
                draggable="true"
                data-testid=format!("workload-{}", w.id)
                aria-pressed=move || (b.selected.get() == Some(w.id)).to_string()
                on:click=move |_| {
                    b.hint.set(None);
                    b.selected.update(|s| *s = if *s == Some(w.id) { None } else { Some(w.id) });
                }
                on:dragstart=move |ev| {
                    start_drag(&ev, w.id);
                    b.dragging.set(Some(w.id));
                }
                on:dragend=move |_| {
                    b.dragging.set(None);
                    b.over.set(None);
                }
            >
                <span class="sort-mark" aria-hidden="true">
                    {move || match feedback() {
                        Some(f) if f.correct => "\u{2713}",
                        Some(_) => "\u{2717}",
                        None => "",
                    }}
                </span>
                {w.name}
            </button>
            {move || feedback().map(|f| view! { <p class="sort-reason" data-testid=format!("reason-{}", w.id)>{f.line}</p> })}
        </li>
    }
}

/// A side: a drop target, with the keyboard's button and the workloads placed there.
fn zone(b: Board, side: Side) -> impl IntoView {
    let heading = format!("{} \u{b7} {}", side.label(), side.goal());
    view! {
        <section
            class="sort-zone"
            class:drop-target=move || b.over.get() == Some(side)
            data-testid=format!("sort-zone-{}", side.id())
            aria-label=format!("{} side", side.label())
            on:dragover=move |ev| {
                ev.prevent_default();
                b.over.set(Some(side));
            }
            on:dragleave=move |_| b.over.set(None)
            on:drop=move |ev| {
                ev.prevent_default();
                b.over.set(None);
                if let Some(id) = b.dragging.get_untracked() {
                    b.place(id, side);
                }
                b.dragging.set(None);
            }
        >
            <h4 class="sort-zone-title">{heading}</h4>
            <button
                type="button"
                class="button sort-place"
                data-testid=format!("sort-to-{}", side.id())
                on:click=move |_| b.choose_side(side)
            >
                {move || match b.selected.get().and_then(workloads::workload) {
                    Some(w) => format!("Put \u{201c}{}\u{201d} here", w.name),
                    None => format!("Put the selected workload on {}", side.label().to_ascii_lowercase()),
                }}
            </button>
            <ul class="sort-list">{move || list(b, Some(side))}</ul>
        </section>
    }
}
