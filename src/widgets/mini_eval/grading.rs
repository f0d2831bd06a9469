//! The grading choice: compare the SQL text, or run the SQL on SQLite and compare the rows;
//! with a status line while the engine loads and runs.

use super::engine::{Engine, EngineState};
use crate::logic::eval::editor::EvalEditor;
use crate::logic::eval::execution::Grading;
use crate::widgets::controls::Menu;
use leptos::prelude::*;

/// The grading menu and the engine's status.
#[component]
pub fn GradingChoice(
    /// The eval.
    editor: RwSignal<EvalEditor>,
) -> impl IntoView {
    let engine = Engine::new();
    let grading = Memo::new(move |_| editor.with(EvalEditor::grading));
    let wanted = Memo::new(move |_| editor.with(EvalEditor::runs_wanted));
    // Hands the waiting cases to the engine, an outside-world call like a fetch: whenever
    // cases come to wait under execution grading (the choice made, or stored from before; an
    // edit of a case's SQL or of the schema; an import). Their rows come back later, case by
    // case, through the engine's run.
    let runner = engine.clone();
    Effect::new(move |_| {
        let _ = wanted.get();
        if grading.get() == Grading::Execution {
            runner.run(editor);
        }
    });
    let state = engine.state;
    let revision = Memo::new(move |_| editor.with(EvalEditor::revision));
    let status = Memo::new(move |_| {
        let state = state.get();
        if let EngineState::Failed(reason) = &state {
            return Some((
                true,
                format!(
                    "The SQL engine could not be loaded ({reason}), so grading stays on the SQL \
                     text; nothing was lost. Choose it again to retry."
                ),
            ));
        }
        if grading.get() != Grading::Execution {
            return None;
        }
        if state != EngineState::Ready {
            return Some((false, "Loading the SQL engine\u{2026}".to_string()));
        }
        let _ = revision.get();
        let (done, all) = editor.with_untracked(EvalEditor::runs_done);
        let cases = if all == 1 { "case" } else { "cases" };
        Some((
            false,
            if done < all {
                format!("{done} of {all} {cases} run so far on SQLite, in your browser\u{2026}")
            } else {
                format!("{done} of {all} {cases} run on SQLite, in your browser.")
            },
        ))
    });
    let pick = move |id: String| {
        let choice = Grading::from_id(&id);
        if choice == Grading::Execution {
            state.update(|s| {
                if matches!(s, EngineState::Failed(_)) {
                    *s = EngineState::Idle;
                }
            });
        }
        editor.maybe_update(|e| e.set_grading(choice));
    };
    view! {
        <Menu
            label="Grading"
            testid="eval-grading"
            class="eval-grading"
            options=[Grading::Text, Grading::Execution].map(|g| (g.id(), g.label().to_string())).to_vec()
            value=Signal::derive(move || grading.get().id().to_string())
            on_pick=pick
        >
            <p class="widget-note eval-grading-note">
                "Running the SQL grades an answer by its result, as text-to-SQL benchmarks do: the schema below, with its rows, goes into a fresh SQLite database in your browser, and an answer passes when it returns the reference\u{2019}s rows (in the reference\u{2019}s order only when it sorts them)."
            </p>
            <p
                class="eval-grading-status"
                class:failed=move || status.get().is_some_and(|(failed, _)| failed)
                data-testid="eval-grading-status"
                role="status"
            >
                {move || status.get().map(|(_, text)| text).unwrap_or_default()}
            </p>
        </Menu>
    }
}
