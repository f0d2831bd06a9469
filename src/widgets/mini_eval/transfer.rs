//! The eval in and out: download links for the eval (JSON) and its results (CSV), and a
//! field to paste an eval file or columns of pass/fail into.

use crate::logic::eval::editor::EvalEditor;
use crate::widgets::controls::unique_id;
use crate::widgets::download;
use leptos::prelude::*;

/// The two download links. Their `blob:` URLs are made when the reader clicks (so a download
/// is always current) and once edits pause (so the links stay current for anyone who copies
/// them), never on every keystroke; the old ones are released.
#[component]
pub fn ExportLinks(
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// Its revision ([`EvalEditor::revision`]): the links follow it.
    revision: Memo<u64>,
) -> impl IntoView {
    let json_link = NodeRef::<leptos::html::A>::new();
    let csv_link = NodeRef::<leptos::html::A>::new();
    let urls = StoredValue::new(None::<(String, String)>);
    let refresh = move || {
        let (json, csv) = editor.with_untracked(|e| {
            (
                download::blob_url(&e.eval_json(), "application/json"),
                download::blob_url(&e.results_csv(), "text/csv"),
            )
        });
        if let Some((old_json, old_csv)) = urls.get_value() {
            download::release(&old_json);
            download::release(&old_csv);
        }
        if let Some(a) = json_link.get_untracked() {
            a.set_href(&json);
        }
        if let Some(a) = csv_link.get_untracked() {
            a.set_href(&csv);
        }
        urls.set_value(Some((json, csv)));
    };
    let timer = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |first: Option<()>| {
        let _ = revision.get();
        if first.is_none() {
            refresh();
            return;
        }
        if let Some(t) = timer.get_value() {
            t.clear();
        }
        timer.set_value(
            set_timeout_with_handle(refresh, std::time::Duration::from_millis(300)).ok(),
        );
    });
    on_cleanup(move || {
        // A refresh still waiting must not run once the widget's signals are gone.
        if let Some(t) = timer.get_value() {
            t.clear();
        }
        if let Some((json, csv)) = urls.get_value() {
            download::release(&json);
            download::release(&csv);
        }
    });
    view! {
        <div class="eval-actions">
            <a class="button" data-testid="eval-export-json" node_ref=json_link on:click=move |_| refresh() download="mini-eval.json">
                "Download the eval (JSON)"
            </a>
            <a class="button" data-testid="eval-export-csv" node_ref=csv_link on:click=move |_| refresh() download="mini-eval-results.csv">
                "Download the results (CSV)"
            </a>
        </div>
    }
}

/// The paste field, its Import button, and what the last import did.
#[component]
pub fn ImportPanel(
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// Its status revision ([`EvalEditor::status_revision`]): each import redraws the message,
    /// so that a refusal repeated is announced again.
    status: Memo<u64>,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let message = move || {
        let _ = status.get();
        editor.with_untracked(|e| e.import_message().cloned())
    };
    let import_id = unique_id("eval-import");
    let import_label_for = import_id.clone();
    view! {
        <div class="field eval-import">
            <label for=import_label_for>"Paste an eval file (JSON), or two columns of pass/fail (baseline, candidate), one line per case"</label>
            <textarea
                id=import_id
                class="eval-sql-input"
                rows="4"
                spellcheck="false"
                data-testid="eval-import"
                placeholder="pass\tpass\npass\tfail\n\u{2026}"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
        </div>
        <div class="eval-actions">
            <button
                type="button"
                class="button primary"
                data-testid="eval-import-apply"
                on:click=move |_| text.with_untracked(|t| editor.update(|e| {
                    e.import(t);
                }))
            >
                "Import"
            </button>
        </div>
        {move || message().map(|r| match r {
            Ok(msg) => view! { <p class="eval-import-ok" role="status" data-testid="eval-import-message">{msg}</p> }.into_any(),
            Err(msg) => view! { <p class="eval-import-error field-message" role="alert" data-testid="eval-import-message">{msg}</p> }.into_any(),
        })}
    }
}
