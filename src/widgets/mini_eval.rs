//! The mini eval: the lesson's ten text-to-SQL cases, editable, with both accuracies, the cases
//! that changed (each as a token diff), McNemar's test and an accept-or-reject verdict.
//!
//! The state and every change to it are `logic::eval::editor::EvalEditor`, the maths is
//! `logic::eval`; this file and its parts wire one signal of the editor to the view. Every
//! piece of user text is rendered as text (never `inner_html`).

mod case_result;
mod case_row;
mod engine;
mod grading;
mod pager;
mod results;
mod sql_field;
mod transfer;

use super::controls::{drawn_in_steps, Calculation, NumberField, WidgetCard};
use crate::content::WidgetParams;
use crate::figures::LESSON_EVAL_JSON;
use crate::logic::eval::editor::pages::{CaseFilter, CasePage};
use crate::logic::eval::editor::{
    EvalEditor, Stored, DEFAULT_TOLERANCE, STORE_NAME, STORE_VERSION,
};
use crate::logic::eval::tally::Tally;
use crate::logic::eval::{self, EvalSet};
use crate::logic::format;
use crate::services::storage::Persist;
use crate::services::timers::Pause;
use case_row::CaseRow;
use leptos::prelude::*;
use pager::{Pager, PER_PAGE};
use results::{Buckets, Diffs, Outputs};
use sql_field::sql_text_field;
use transfer::{ExportLinks, ImportPanel};

/// Up to this many cases, every change is saved at once; beyond, once edits pause for
/// [`SAVE_PAUSE`] (and when the page is left), so that typing never waits on storage.
const SAVE_AT_ONCE_UP_TO: usize = 2_000;
/// How many case rows the widget draws in its mount ([`drawn_in_steps`]).
const ROWS_FIRST: usize = 2;
/// How many more it draws in each task after, until the first page is whole.
const ROWS_A_TASK: usize = 2;
/// How long edits of a long eval pause before it is saved.
const SAVE_PAUSE: std::time::Duration = std::time::Duration::from_millis(600);

/// Applies `change` to the eval. When that replaced the whole eval (an import that brought its
/// own cases, a reset, or the undo of either), the list of cases goes back to its first page:
/// the page the reader was on was a page of the eval that is gone. An edit, an added or removed
/// case, or verdicts set in place keep the page.
fn update_eval(
    editor: RwSignal<EvalEditor>,
    page_no: RwSignal<usize>,
    change: impl FnOnce(&mut EvalEditor),
) {
    let before = replaced_revision(editor);
    editor.update(change);
    if replaced_revision(editor) != before {
        page_no.set(0);
    }
}

/// [`EvalEditor::replaced_revision`] of the eval; `None` once the widget is gone.
#[inline(never)]
fn replaced_revision(editor: RwSignal<EvalEditor>) -> Option<u64> {
    editor.try_with_untracked(EvalEditor::replaced_revision)
}

/// The lesson's eval, from the same file the lesson's figures are computed from.
fn lesson_eval() -> EvalSet {
    eval::parse_eval_json(LESSON_EVAL_JSON).unwrap_or_default()
}

/// Mounts the widget (it takes no parameters).
pub fn mount(_params: WidgetParams) -> AnyView {
    view! { <MiniEval /> }.into_any()
}

/// The eval while its card is on the page: the editor (the one value storage keeps), the
/// tolerance as typed, and what the views read of the editor, each redrawing only when its
/// value changes. `Copy`, so views and handlers share it.
#[derive(Clone, Copy)]
struct EvalCard {
    /// The eval and every change to it.
    editor: RwSignal<EvalEditor>,
    /// The tolerance as typed: the number field owns its text.
    tolerance: RwSignal<String>,
    /// [`EvalEditor::revision`]: any change.
    revision: Memo<u64>,
    /// [`EvalEditor::order_revision`]: cases added, removed, moved or replaced.
    order: Memo<u64>,
    /// [`EvalEditor::status_revision`]: the undo offered and the import's message.
    status: Memo<u64>,
    /// How many cases there are.
    count: Signal<usize>,
    /// The running counts: no pass over the cases, however many.
    tally: Memo<Tally>,
}

impl EvalCard {
    /// The eval stored from before, or else the lesson's.
    fn open(persist: Persist) -> Self {
        let stored = persist.load::<Stored>(STORE_NAME, STORE_VERSION, |_, _| None);
        let (start, start_tolerance) = EvalEditor::open(lesson_eval(), stored);
        let editor = RwSignal::new(start);
        let tolerance = RwSignal::new(start_tolerance);
        // The counters are read with `get`, never only `track`ed: a memo no one has read has
        // not yet subscribed to the editor, so tracking it alone would never redraw anything.
        let revision = Memo::new(move |_| editor.with(EvalEditor::revision));
        let order = Memo::new(move |_| editor.with(EvalEditor::order_revision));
        let status = Memo::new(move |_| editor.with(EvalEditor::status_revision));
        let count = Signal::derive(move || {
            let _ = order.get();
            editor.with_untracked(EvalEditor::len)
        });
        let tally = Memo::new(move |_| editor.with(EvalEditor::tally));
        EvalCard {
            editor,
            tolerance,
            revision,
            order,
            status,
            count,
            tally,
        }
    }
}

/// Which cases the list shows, and the page of them shown: a page costs what it shows.
#[derive(Clone, Copy)]
struct CaseList {
    /// Which cases the list holds.
    filter: RwSignal<CaseFilter>,
    /// The search applied.
    search: RwSignal<String>,
    /// The page asked for, from 0.
    page_no: RwSignal<usize>,
    /// The page shown.
    page: Memo<CasePage>,
}

impl CaseList {
    /// Every case, first page. The list is read again when cases are added, removed, moved or
    /// replaced, and (when it shows one bucket) when a case changes bucket; a search is run
    /// again only then, not on every keystroke.
    fn new(card: EvalCard) -> Self {
        let EvalCard {
            editor,
            revision,
            order,
            tally,
            ..
        } = card;
        let filter = RwSignal::new(CaseFilter::All);
        let search = RwSignal::new(String::new());
        let page_no = RwSignal::new(0usize);
        let page = Memo::new(move |_| {
            let _ = order.get();
            let f = filter.get();
            let searching = search.with(|q| !q.trim().is_empty());
            if searching {
                let _ = tally.get();
            } else if f != CaseFilter::All {
                let _ = revision.get();
            }
            let n = page_no.get();
            search.with(|q| editor.with_untracked(|e| e.page(f, q, n, PER_PAGE)))
        });
        CaseList {
            filter,
            search,
            page_no,
            page,
        }
    }

    /// Shows page `page_no` of the cases `filter` picks, with no search.
    fn show(self, filter: CaseFilter, page_no: usize) {
        self.filter.set(filter);
        self.search.set(String::new());
        self.page_no.set(page_no);
    }
}

/// The eval widget.
#[component]
pub fn MiniEval() -> impl IntoView {
    let persist = Persist::from_context();
    let card = EvalCard::open(persist);
    let EvalCard {
        editor,
        tolerance,
        revision,
        status,
        count,
        tally,
        ..
    } = card;
    let decision = Calculation::new(move || {
        tolerance
            .with(|t| editor.with(|e| e.decision(t)))
            .map_err(|e| vec![e])
    });
    keep_saved(persist, editor, tolerance, revision);
    let list = CaseList::new(card);

    view! {
        <WidgetCard title="Mini eval: baseline against optimized" name="mini-eval">
            <p class="widget-note eval-intro">
                "Each case is a question, a reference SQL query, and the query each system wrote. An answer passes when it matches the reference once case, spacing and a final semicolon are ignored, unless you set its verdict by hand. The candidate is the optimized system."
            </p>
            <grading::GradingChoice editor=editor />
            <Outputs tally=tally />

            <h4 class="eval-heading">"Where the cases went"</h4>
            <Buckets editor=editor tally=tally show=move |f| list.show(f, 0) />

            <h4 class="eval-heading">"The changed cases, token by token"</h4>
            <Diffs editor=editor tally=tally />

            <h4 class="eval-heading">"Ship it?"</h4>
            {decision_view(tolerance, decision)}

            <h4 class="eval-heading">{move || format!("The cases ({})", format::count(count.get()))}</h4>
            {schema_field(editor)}
            <Pager page=list.page count=count filter=list.filter search=list.search page_no=list.page_no />
            {case_rows(card, list)}
            {case_actions(card, list)}

            <h4 class="eval-heading">"Export and import"</h4>
            <ExportLinks editor=editor revision=revision />
            <ImportPanel editor=editor status=status page_no=list.page_no />
        </WidgetCard>
    }
}

/// The page of cases shown, a row each, or a note when no case matches.
///
/// A case row has some forty elements and a dozen fields: a page of them drawn in the widget's
/// mount would be one task of over 100 ms on a phone (4× CPU). The first page's rows come a
/// few a task instead, until the rows it holds now are all drawn; later pages are drawn whole.
fn case_rows(card: EvalCard, list: CaseList) -> impl IntoView {
    let EvalCard { editor, count, .. } = card;
    let page = list.page;
    let rows_shown = drawn_in_steps(
        ROWS_FIRST,
        ROWS_A_TASK,
        page.with_untracked(|p| p.ids.len()),
    );
    view! {
        <div class="eval-cases-box" role="region" aria-label="The cases" tabindex="0">
        <ol class="eval-cases" start=move || page.with(|p| p.first + 1)>
            // Keyed by id: only the page shown is in the document.
            <For
                each=move || {
                    let n = rows_shown.get();
                    page.with(|p| p.ids.iter().take(n).copied().collect::<Vec<_>>())
                }
                key=|id| *id
                let:id
            >
                <CaseRow editor=editor id=id count=count />
            </For>
            {move || page.with(|p| p.ids.is_empty() && count.get() > 0).then(|| view! {
                <li class="eval-none widget-note">"No case matches: choose \u{201c}every case\u{201d} or clear the search."</li>
            })}
        </ol>
        </div>
    }
}

/// Add a case (and show it), reset to the lesson's eval, and undo the last change while there
/// is one to undo.
fn case_actions(card: EvalCard, list: CaseList) -> impl IntoView {
    let EvalCard {
        editor,
        tolerance,
        status,
        ..
    } = card;
    let page_no = list.page_no;
    let add = move |_| {
        let mut added = None;
        editor.update(|e| added = Some(e.add_case()));
        // Show the new case: the page of the whole list that holds it.
        if let Some(p) = added.and_then(|id| editor.with_untracked(|e| e.page_of(id, PER_PAGE))) {
            list.show(CaseFilter::All, p);
        }
    };
    let reset = move |_| {
        let before = tolerance.get_untracked();
        update_eval(editor, page_no, |e| e.reset(&before));
        tolerance.set(DEFAULT_TOLERANCE.into());
    };
    let undo = move |_| {
        let mut restored = None;
        update_eval(editor, page_no, |e| restored = e.undo());
        if let Some(t) = restored {
            tolerance.set(t);
        }
    };
    let undo_label = move || {
        let _ = status.get();
        editor.with_untracked(EvalEditor::undo_label)
    };
    view! {
        <div class="eval-actions">
            <button type="button" data-testid="eval-add" on:click=add>"Add a case"</button>
            <button type="button" data-testid="eval-reset" on:click=reset>"Reset to the lesson\u{2019}s eval"</button>
            {move || undo_label().map(|label| {
                view! {
                    <button type="button" data-testid="eval-undo" on:click=undo>
                        {label}
                    </button>
                }
            })}
        </div>
    }
}

/// Saves every change of the eval, but not the untouched eval on first load: a short eval at
/// once, a long one once edits pause, and whatever is still waiting when the page or the widget
/// goes. A save that fails (storage full) becomes a notice; what was stored stays.
fn keep_saved(
    persist: Persist,
    editor: RwSignal<EvalEditor>,
    tolerance: RwSignal<String>,
    revision: Memo<u64>,
) {
    let save_pause = Pause::new(SAVE_PAUSE);
    let unsaved = StoredValue::new(false);
    let save_now = move || {
        save_pause.cancel();
        if unsaved.try_update_value(|u| std::mem::replace(u, false)) != Some(true) {
            return;
        }
        let _ = editor.try_with_untracked(|e| {
            tolerance.try_with_untracked(|t| persist.save(STORE_NAME, STORE_VERSION, &e.stored(t)))
        });
    };
    Effect::new(move |first: Option<()>| {
        let _ = revision.get();
        tolerance.track();
        if first.is_none() {
            return;
        }
        unsaved.set_value(true);
        if editor.with_untracked(EvalEditor::len) <= SAVE_AT_ONCE_UP_TO {
            save_now();
            return;
        }
        save_pause.restart(save_now);
    });
    let leaving = window_event_listener(leptos::ev::pagehide, move |_| save_now());
    on_cleanup(move || {
        save_now();
        leaving.remove();
    });
}

/// "Ship it?": the tolerance, and the verdict with its reason.
fn decision_view(
    tolerance: RwSignal<String>,
    decision: Calculation<eval::Decision>,
) -> impl IntoView {
    view! {
        <div class="eval-decision">
            <div class="controls">
                <NumberField
                    label="Tolerance: largest accuracy drop"
                    testid="eval-tolerance"
                    text=tolerance
                    error=decision.error_for(crate::logic::eval::InputField::Tolerance)
                    unit="points"
                />
            </div>
            <p
                class="eval-verdict"
                class:accepted=move || decision.shown.with(|d| d.as_ref().is_some_and(|d| d.accept))
                class:stale=decision.stale()
                data-testid="eval-verdict"
                aria-live="polite"
            >
                {move || decision.shown.with(|d| d.as_ref().map(|d| d.reason.clone()).unwrap_or_default())}
            </p>
            <p class="widget-note">
                "A case marked critical (below) rejects the candidate on its own if it regresses, whatever the averages say."
            </p>
        </div>
    }
}

/// The schema the questions are about, which execution grading runs the queries against.
fn schema_field(editor: RwSignal<EvalEditor>) -> impl IntoView {
    sql_text_field(
        "eval-schema",
        "Schema the questions are about",
        "2",
        view! {
            <{..}
                prop:value=move || editor.with(|e| e.schema().to_string())
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    editor.maybe_update(|e| e.set_schema(text));
                }
            />
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lesson_eval_loads_with_its_two_changed_cases() {
        let set = lesson_eval();
        assert_eq!(set.cases.len(), 10);
        let s = eval::summarize(&set.cases);
        assert_eq!((s.baseline_passes, s.candidate_passes), (9, 9));
        let name = |i: &[usize]| set.cases[i[0]].name.clone();
        assert_eq!(name(&s.buckets.regressed), "emails of admins");
        assert_eq!(name(&s.buckets.fixed), "distinct cities");
        assert!(!eval::decide(&set.cases, 0.0).accept);
    }
}
