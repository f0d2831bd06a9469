//! A case's result under execution grading: the rows the reference and each answer returned
//! (row counts and the first rows, the rows that differ from the reference marked), or the
//! engine's message for an answer that fails to run. Nothing under text grading.

use crate::logic::eval::editor::{CaseExecution, CaseId, EvalEditor};
use crate::logic::eval::execution::SideView;
use leptos::prelude::*;

/// One side: its title, its verdict, its summary and its first rows.
#[component]
fn Side(
    /// What the side shows.
    side: SideView,
) -> AnyView {
    let verdict = side
        .matches
        .map(|m| if m { "same rows" } else { "rows differ" });
    let more = (side.more > 0).then(|| {
        let rows = if side.more == 1 { "row" } else { "rows" };
        let differing = match side.more_differing {
            0 => String::new(),
            n if n == side.more => {
                if n == 1 {
                    ", which differs".into()
                } else {
                    ", all differing".into()
                }
            }
            n => format!(", {n} differing"),
        };
        format!("and {} more {rows}{differing}", side.more)
    });
    let table = side.error.is_none().then(|| {
        let head = side
            .columns
            .iter()
            .map(|c| view! { <th scope="col">{c.clone()}</th> })
            .collect_view();
        let rows = side
            .rows
            .into_iter()
            .map(|row| {
                let cells = row
                    .cells
                    .into_iter()
                    .map(|c| view! { <td class:null=c.null>{c.text}</td> })
                    .collect_view();
                view! {
                    <tr class:differs=row.differs data-differs=row.differs.then_some("true")>
                        <td class="eval-result-mark">
                            {row.differs.then(|| view! {
                                <span aria-hidden="true">"\u{2260}"</span>
                                <span class="visually-hidden">"not in the reference"</span>
                            })}
                        </td>
                        {cells}
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="eval-result-table" tabindex="0" role="region" aria-label=format!("{} rows", side.title)>
                <table>
                    <thead><tr><td class="eval-result-mark"></td>{head}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    });
    view! {
        <section
            class="eval-result-side"
            data-side=side.title.to_ascii_lowercase()
            data-matches=side.matches.map(|m| m.to_string())
        >
            <h5 class="eval-result-title">
                {side.title}
                {verdict.map(|v| view! { <span class="eval-result-verdict">{v}</span> })}
            </h5>
            <p class="eval-result-summary">{side.summary}</p>
            {side.error.map(|e| view! {
                <p class="eval-result-error" data-testid="eval-result-error">{e}</p>
            })}
            {table}
            {more.map(|m| view! { <p class="eval-result-more">{m}</p> })}
        </section>
    }
    .into_any()
}

/// Case `id`'s result box (`data-testid="eval-case-result"`), under execution grading only.
#[component]
pub fn CaseResult(
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// Which case.
    id: CaseId,
) -> impl IntoView {
    // Redraws when this case changes (its runs are stored through the same path) or the
    // grading does.
    let revision = Memo::new(move |_| editor.with(|e| e.slot(id).map_or(0, |s| s.revision)));
    let grading = Memo::new(move |_| editor.with(EvalEditor::grading));
    move || {
        let _ = (revision.get(), grading.get());
        match editor.with_untracked(|e| e.execution(id)) {
            CaseExecution::Off => ().into_any(),
            CaseExecution::Waiting => view! {
                <div class="eval-case-result waiting" data-testid="eval-case-result" data-state="waiting">
                    <p class="eval-result-summary">"Waiting for the SQL engine\u{2026}"</p>
                </div>
            }
            .into_any(),
            CaseExecution::Ran(result) => {
                let order = if result.ordered {
                    "The reference sorts its rows, so their order counts."
                } else {
                    "Rows compared in any order; repeated rows count."
                };
                let sides = result
                    .sides
                    .into_iter()
                    .map(|side| view! { <Side side=side /> })
                    .collect_view();
                view! {
                    <div class="eval-case-result" data-testid="eval-case-result" data-state="ran">
                        <p class="eval-result-order">{order}</p>
                        <div class="eval-result-sides">{sides}</div>
                    </div>
                }
                .into_any()
            }
        }
    }
}
