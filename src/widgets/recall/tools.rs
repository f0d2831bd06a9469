//! Export, import and reset of the reader's progress.

use crate::widgets::controls::{unique_id, SavedCopy};
use leptos::prelude::*;

/// Export (as a download and as text), import by pasting, and reset after a question.
#[component]
pub fn Tools(
    /// What the reset button asks before erasing ("Erase all 3 reviews …?").
    reset_question: impl Fn() -> String + Copy + Send + Sync + 'static,
    /// The progress as an export file.
    export: impl Fn() -> String + Copy + Send + Sync + 'static,
    /// Merges the pasted export; says how many reviews were new, or why the text was refused.
    import: impl Fn(String) -> Result<String, String> + Copy + Send + Sync + 'static,
    /// Erases every review.
    reset: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let exported = RwSignal::new(None::<String>);
    let import_text = RwSignal::new(String::new());
    let message = RwSignal::new(None::<Result<String, String>>);
    let confirming = RwSignal::new(false);
    let import_id = unique_id("recall-import");
    let import_for = import_id.clone();

    let on_export = move |_| {
        let json = export();
        let date = js_sys::Date::new_0()
            .to_iso_string()
            .as_string()
            .unwrap_or_default();
        crate::services::download::save(
            &format!(
                "ie-course-recall-{}.json",
                date.get(..10).unwrap_or("export")
            ),
            "application/json",
            &json,
        );
        exported.set(Some(json));
    };
    let on_apply = move |_| message.set(Some(import(import_text.get_untracked())));
    let on_reset = move |_| {
        reset();
        confirming.set(false);
        message.set(Some(Ok("Progress reset: every card is new again.".into())));
    };

    view! {
        <h4 class="recall-subhead">"Keep or move your progress"</h4>
        <p class="widget-note">
            "Your reviews are stored in this browser. Export them to keep a copy or to carry them to another browser; importing merges, so nothing is counted twice."
        </p>
        <div class="recall-tools">
            <button type="button" data-testid="cards-export" on:click=on_export>"Export progress"</button>
        </div>
        <SavedCopy text=exported label="Exported (also downloaded as a file)" testid="cards-export-json" class="recall-json" rows=4 />
        <form method="dialog" class="field">
            <label for=import_for>"Import: paste an export here"</label>
            <textarea
                id=import_id
                class="recall-json"
                data-testid="cards-import"
                rows="4"
                spellcheck="false"
                prop:value=move || import_text.get()
                on:input=move |ev| import_text.set(event_target_value(&ev))
            ></textarea>
        </form>
        <div class="recall-tools">
            <button type="button" data-testid="cards-import-apply" on:click=on_apply>"Import and merge"</button>
        </div>
        <p class="recall-message" data-testid="cards-import-message" role="alert" class:error=move || matches!(message.get(), Some(Err(_)))>
            {move || match message.get() {
                Some(Ok(t)) | Some(Err(t)) => t,
                None => String::new(),
            }}
        </p>
        <div class="recall-tools recall-reset">
            <Show
                when=move || confirming.get()
                fallback=move || view! {
                    <button type="button" data-testid="cards-reset" on:click=move |_| confirming.set(true)>"Reset progress\u{2026}"</button>
                }
            >
                <p class="recall-confirm" role="alert">{reset_question}</p>
                <button type="button" class="recall-danger" data-testid="cards-reset-confirm" on:click=on_reset>"Erase my reviews"</button>
                <button type="button" data-testid="cards-reset-cancel" on:click=move |_| confirming.set(false)>"Cancel"</button>
            </Show>
        </div>
    }
}
