//! One editable case: its fields, its two grades, its critical flag and its tools. A row
//! redraws only when its own case changes or moves, however long the list.

use crate::logic::eval::editor::{CaseId, EvalEditor, Field, System};
use crate::logic::eval::{Bucket, EvalCase, Verdict};
use crate::widgets::controls::unique_id;
use leptos::prelude::*;

/// A case of the editor as a row sees it: reads track this case only.
#[derive(Clone, Copy)]
struct CaseHandle {
    editor: RwSignal<EvalEditor>,
    id: CaseId,
    /// When the case last changed or moved (0 once it is gone).
    revision: Memo<u64>,
}

impl CaseHandle {
    fn new(editor: RwSignal<EvalEditor>, id: CaseId) -> Self {
        let revision = Memo::new(move |_| editor.with(|e| e.slot(id).map_or(0, |s| s.revision)));
        CaseHandle {
            editor,
            id,
            revision,
        }
    }

    /// Reads the case and its (baseline, candidate) outcome; `None` once it is gone.
    fn read<T>(self, f: impl FnOnce(&EvalCase, (bool, bool)) -> T) -> Option<T> {
        let _ = self.revision.get();
        self.editor
            .with_untracked(|e| Some(f(e.case(self.id)?, e.outcome(self.id)?)))
    }

    /// Its place in the list, from 0.
    fn index(self) -> usize {
        let _ = self.revision.get();
        self.editor
            .with_untracked(|e| e.slot(self.id).map_or(0, |s| s.index))
    }

    /// Applies a change to this case, redrawing only if something changed.
    fn change(self, f: impl FnOnce(&mut EvalEditor, CaseId) -> bool) {
        self.editor.maybe_update(|e| f(e, self.id));
    }
}

/// A text field of a case (name, question or SQL).
#[component]
fn CaseField(
    /// The visible label.
    label: &'static str,
    /// The case edited.
    case: CaseHandle,
    /// Which field.
    field: Field,
    /// Whether the field holds SQL (monospace, several lines).
    #[prop(optional)]
    sql: bool,
    /// Extra class for layout.
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView {
    let id = unique_id("eval-field");
    let label_for = id.clone();
    let value = move || {
        case.read(|c, _| field.get(c).to_string())
            .unwrap_or_default()
    };
    let on_input = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        case.change(|e, id| e.edit(id, field, text));
    };
    view! {
        <form method="dialog" class=format!("field eval-field {class}")>
            <label for=label_for>{label}</label>
            {if sql {
                view! {
                    <textarea id=id class="eval-sql-input" rows="1" spellcheck="false" prop:value=value on:input=on_input></textarea>
                }
                .into_any()
            } else {
                view! { <input id=id type="text" autocomplete="off" prop:value=value on:input=on_input /> }.into_any()
            }}
        </form>
    }
}

/// One system's grade in a case row: a pass checkbox (setting the verdict by hand) and the
/// grading mode.
#[component]
fn Grade(
    /// The case graded.
    case: CaseHandle,
    /// Whose answer.
    system: System,
) -> impl IntoView {
    let verdict = move || case.read(|c, _| system.verdict(c)).unwrap_or_default();
    let passes = move || case.read(|_, o| system.passes(o)).unwrap_or_default();
    let set = move |v: Verdict| case.change(|e, id| e.set_verdict(id, system, v));
    let (name, check_id, select_id) = match system {
        System::Baseline => ("Baseline", "eval-baseline-pass", "eval-baseline-verdict"),
        System::Candidate => ("Candidate", "eval-candidate-pass", "eval-candidate-verdict"),
    };
    let select_dom_id = unique_id(select_id);
    let select_for = select_dom_id.clone();
    view! {
        <form method="dialog" class="eval-grade" class:fails=move || !passes()>
            <label class="eval-check">
                <input
                    type="checkbox"
                    data-testid=check_id
                    prop:checked=passes
                    on:change=move |ev| set(if event_target_checked(&ev) { Verdict::Pass } else { Verdict::Fail })
                />
                {format!("{name} passes")}
            </label>
            <label class="visually-hidden" for=select_for>{format!("{name} grading")}</label>
            <select
                id=select_dom_id
                data-testid=select_id
                prop:value=move || verdict().id()
                on:change=move |ev| set(Verdict::from_id(&event_target_value(&ev)))
            >
                <option value="auto">"auto"</option>
                <option value="pass">"pass (by hand)"</option>
                <option value="fail">"fail (by hand)"</option>
            </select>
        </form>
    }
}

/// A row's tools: move its case up or down, or remove it.
fn case_tools(case: CaseHandle, count: Signal<usize>) -> impl IntoView {
    view! {
        <div class="eval-case-tools">
            {tool_button(case, "\u{2191}", |n| format!("Move {n} up"), |i| i == 0, EvalEditor::move_up)}
            {tool_button(case, "\u{2193}", |n| format!("Move {n} down"), move |i| i + 1 >= count.get(), EvalEditor::move_down)}
            {tool_button(case, "\u{d7}", |n| format!("Remove {n}"), |_| false, EvalEditor::remove)}
        </div>
    }
}

/// One tool of a case row: an icon button that applies `act` to the case. It is named by the
/// case's position (`name("case 3")`), so that a case's name never leaks into its label, and
/// disabled while `stop` holds for the case's index.
fn tool_button(
    case: CaseHandle,
    icon: &'static str,
    name: fn(&str) -> String,
    stop: impl Fn(usize) -> bool + Send + Sync + 'static,
    act: fn(&mut EvalEditor, CaseId) -> bool,
) -> impl IntoView {
    view! {
        <button
            type="button"
            class="icon-button"
            aria-label=move || name(&format!("case {}", case.index() + 1))
            disabled=move || stop(case.index())
            on:click=move |_| case.change(act)
        >
            {icon}
        </button>
    }
}

/// One editable case.
#[component]
pub fn CaseRow(
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// Which case.
    id: CaseId,
    /// How many cases there are.
    count: Signal<usize>,
) -> impl IntoView {
    let case = CaseHandle::new(editor, id);
    let name = move || case.read(|c, _| c.name.clone()).unwrap_or_default();
    let bucket = move || case.read(|_, (b, k)| Bucket::of(b, k));
    view! {
        <li class="eval-case" data-case=name>
            <div class="eval-case-head">
                <span class="eval-case-num">{move || case.index() + 1}</span>
                <CaseField label="Name" case=case field=Field::Name class="eval-name" />
                <span class="eval-badge" data-bucket=move || bucket().map(Bucket::id)>{move || bucket().map(Bucket::label)}</span>
                {case_tools(case, count)}
            </div>
            <CaseField label="Question" case=case field=Field::Question />
            <CaseField label="Reference SQL" case=case field=Field::ReferenceSql sql=true />
            <CaseField label="Baseline SQL" case=case field=Field::BaselineSql sql=true />
            <CaseField label="Candidate SQL" case=case field=Field::CandidateSql sql=true />
            <super::case_result::CaseResult editor=editor id=id />
            <div class="eval-grades">
                <Grade case=case system=System::Baseline />
                <Grade case=case system=System::Candidate />
            <label class="eval-check eval-critical">
                <input
                    type="checkbox"
                    data-testid="eval-critical"
                    prop:checked=move || case.read(|c, _| c.critical).unwrap_or_default()
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        case.change(|e, id| e.set_critical(id, on))
                    }
                />
                "Critical"
            </label>
            </div>
        </li>
    }
}
