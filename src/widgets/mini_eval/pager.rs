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
    let search_for = search_id.clone();
    // The search runs once typing pauses, not on every keystroke.
    let typed = StoredValue::new(String::new());
    let pause = Pause::new(std::time::Duration::from_millis(250));
    let apply = move || {
        let Some(text) = typed.try_get_value() else {
            return;
        };
        if search.get_untracked() != text {
            search.set(text);
            page_no.set(0);
        }
    };
    let go = move |to: usize| page_no.set(to);
    view! {
        <Show when=shown>
            <div class="eval-pager" data-testid="eval-pager">
                <div class="eval-pager-filters">
                    <Menu
                        label="Show"
                        testid="eval-filter"
                        options={CaseFilter::ALL.iter().map(|f| (f.id(), f.label().to_string())).collect::<Vec<_>>()}
                        value=Signal::derive(move || filter.get().id().to_string())
                        on_pick=move |v| {
                            filter.set(CaseFilter::from_id(&v));
                            page_no.set(0);
                        }
                    />
                    <form method="dialog" class="field">
                        <label for=search_for.clone()>"Search names, questions and SQL"</label>
                        <input
                            id=search_id.clone()
                            type="search"
                            autocomplete="off"
                            data-testid="eval-search"
                            prop:value=move || search.get()
                            on:input=move |ev| {
                                typed.set_value(event_target_value(&ev));
                                pause.restart(apply);
                            }
                            on:change=move |_| apply()
                        />
                    </form>
                </div>
                <div class="eval-pager-pages">
                    <button
                        type="button"
                        data-testid="eval-page-first"
                        disabled=move || page.with(|p| p.page == 0)
                        on:click=move |_| go(0)
                    >
                        "First"
                    </button>
                    <button
                        type="button"
                        data-testid="eval-page-prev"
                        disabled=move || page.with(|p| p.page == 0)
                        on:click=move |_| go(page.with_untracked(|p| p.page.saturating_sub(1)))
                    >
                        "Previous"
                    </button>
                    <output class="eval-page-status" data-testid="eval-page-status" aria-live="polite">
                        {move || page.with(status_text)}
                    </output>
                    <button
                        type="button"
                        data-testid="eval-page-next"
                        disabled=move || page.with(|p| p.page + 1 >= p.pages)
                        on:click=move |_| go(page.with_untracked(|p| p.page + 1))
                    >
                        "Next"
                    </button>
                    <button
                        type="button"
                        data-testid="eval-page-last"
                        disabled=move || page.with(|p| p.page + 1 >= p.pages)
                        on:click=move |_| go(page.with_untracked(|p| p.pages.saturating_sub(1)))
                    >
                        "Last"
                    </button>
                </div>
            </div>
        </Show>
    }
}
