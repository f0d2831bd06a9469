//! Which cases the list shows: a filter (every case, the changed ones, one bucket), a search,
//! and the page. Shown once the eval is longer than a page (or a filter is on), so the
//! lesson's short eval looks as it always has.

use crate::logic::eval::editor::pages::{CaseFilter, CasePage};
use crate::logic::format;
use crate::services::timers::Pause;
use crate::widgets::controls::{unique_id, Menu};
use leptos::prelude::*;

/// Cases to a page of the list.
pub const PER_PAGE: usize = 20;

/// What the page shows, starting with its numbers: `1–20 of 50,000 cases · page 1 of 2,500`.
fn status_text(p: &CasePage) -> String {
    if p.total == 0 {
        return "0 cases match".into();
    }
    let last = p.first + p.ids.len();
    let cases = if p.total == 1 { "case" } else { "cases" };
    format!(
        "{}\u{2013}{} of {} {cases} \u{b7} page {} of {}",
        format::count(p.first + 1),
        format::count(last),
        format::count(p.total),
        format::count(p.page + 1),
        format::count(p.pages)
    )
}

/// The search as typed, applied once typing pauses (not on every keystroke). `Copy`, so the
/// field can be drawn again each time the pager is shown.
#[derive(Clone, Copy)]
struct Search {
    /// The search applied.
    applied: RwSignal<String>,
    /// The page asked for, which goes back to the first when the search changes.
    page_no: RwSignal<usize>,
    /// The text typed, not yet applied.
    typed: StoredValue<String>,
    /// Applies the text once typing pauses.
    pause: Pause,
}

impl Search {
    fn new(applied: RwSignal<String>, page_no: RwSignal<usize>) -> Self {
        Search {
            applied,
            page_no,
            typed: StoredValue::new(String::new()),
            pause: Pause::new(std::time::Duration::from_millis(250)),
        }
    }

    /// Applies the text typed, from the first page, unless it is the search already applied.
    fn apply(self) {
        let Some(text) = self.typed.try_get_value() else {
            return;
        };
        if self.applied.get_untracked() != text {
            self.applied.set(text);
            self.page_no.set(0);
        }
    }

    /// Keeps what was typed, to apply once typing pauses.
    fn type_in(self, text: String) {
        self.typed.set_value(text);
        self.pause.restart(move || self.apply());
    }
}

/// The filter, the search and the page buttons.
#[component]
pub fn Pager(
    /// The page shown.
    page: Memo<CasePage>,
    /// How many cases the eval has.
    count: Signal<usize>,
    /// Which cases the list holds.
    filter: RwSignal<CaseFilter>,
    /// The search applied (typing applies it once the reader pauses).
    search: RwSignal<String>,
    /// The page asked for, from 0.
    page_no: RwSignal<usize>,
) -> impl IntoView {
    let shown = move || {
        count.get() > PER_PAGE
            || filter.get() != CaseFilter::All
            || search.with(|s| !s.trim().is_empty())
    };
    let search_id = unique_id("eval-search");
    let typing = Search::new(search, page_no);
    view! {
        <Show when=shown>
            <div class="eval-pager" data-testid="eval-pager">
                <div class="eval-pager-filters">
                    {filter_menu(filter, page_no)}
                    {search_field(typing, search_id.clone())}
                </div>
                {page_buttons(page, page_no)}
            </div>
        </Show>
    }
}

/// Which cases the list holds: every case, the changed ones, or one bucket.
fn filter_menu(filter: RwSignal<CaseFilter>, page_no: RwSignal<usize>) -> impl IntoView {
    view! {
        <Menu
            label="Show"
            testid="eval-filter"
            options={CaseFilter::ALL.iter().map(|f| (f.id(), f.label().to_string())).collect::<Vec<_>>()}
            value=Signal::derive(move || filter.get().id().to_string())
            on_pick=move |v: String| {
                filter.set(CaseFilter::from_id(&v));
                page_no.set(0);
            }
        />
    }
}

/// The search field (names, questions and SQL), its element's id `id`.
fn search_field(s: Search, id: String) -> impl IntoView {
    let applied = s.applied;
    view! {
        <form method="dialog" class="field">
            <label for=id.clone()>"Search names, questions and SQL"</label>
            <input
                id=id
                type="search"
                autocomplete="off"
                data-testid="eval-search"
                prop:value=move || applied.get()
                on:input=move |ev| s.type_in(event_target_value(&ev))
                on:change=move |_| s.apply()
            />
        </form>
    }
}

/// The first page is shown.
fn at_first(p: &CasePage) -> bool {
    p.page == 0
}

/// The last page is shown.
fn at_last(p: &CasePage) -> bool {
    p.page + 1 >= p.pages
}

/// The four page buttons, with the page's numbers between them.
fn page_buttons(page: Memo<CasePage>, page_no: RwSignal<usize>) -> impl IntoView {
    let button = move |testid, text, stop: fn(&CasePage) -> bool, to: fn(&CasePage) -> usize| {
        page_button(page, page_no, testid, text, stop, to)
    };
    view! {
        <div class="eval-pager-pages">
            {button("eval-page-first", "First", at_first, |_| 0)}
            {button("eval-page-prev", "Previous", at_first, |p| p.page.saturating_sub(1))}
            <output class="eval-page-status" data-testid="eval-page-status" aria-live="polite">
                {move || page.with(status_text)}
            </output>
            {button("eval-page-next", "Next", at_last, |p| p.page + 1)}
            {button("eval-page-last", "Last", at_last, |p| p.pages.saturating_sub(1))}
        </div>
    }
}

/// A page button (`data-testid` `testid`): it goes to page `to` of the page shown, and is
/// disabled while `stop` holds for that page.
fn page_button(
    page: Memo<CasePage>,
    page_no: RwSignal<usize>,
    testid: &'static str,
    text: &'static str,
    stop: fn(&CasePage) -> bool,
    to: fn(&CasePage) -> usize,
) -> impl IntoView {
    view! {
        <button
            type="button"
            data-testid=testid
            disabled=move || page.with(stop)
            on:click=move |_| page_no.set(page.with_untracked(to))
        >
            {text}
        </button>
    }
}
