//! The eval in and out: download links for the eval (JSON) and its results (CSV), and a
//! field to paste an eval file or columns of pass/fail into.

use super::update_eval;
use crate::logic::eval::chunked::{
    start_import, too_large, HeldPaste, ImportJob, PassFailReader, Step,
};
use crate::logic::eval::editor::EvalEditor;
use crate::logic::eval::Import;
use crate::services::download;
use crate::services::timers::Pause;
use crate::widgets::controls::unique_id;
use leptos::prelude::*;
use std::time::Duration;

/// Beyond this many cases the links are made only when clicked: writing a long eval takes
/// long enough that doing it each time edits pause would stall typing.
const LINKS_ON_CLICK_BEYOND: usize = 2_000;
/// Lines of a paste read between two checks of the clock.
const LINES_PER_STEP: usize = 2_000;
/// How long one piece of reading may run before the page gets a turn, in milliseconds.
const STEP_BUDGET_MS: f64 = 12.0;

/// The two download links. Their `blob:` URLs are made when the reader clicks (so a download
/// is always current) and once edits pause, the first time included (so the links stay current
/// for anyone who copies them), never on every keystroke; the old ones are released. Beyond
/// [`LINKS_ON_CLICK_BEYOND`] cases they are made on a click only.
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
    let pause = Pause::new(Duration::from_millis(300));
    Effect::new(move |_| {
        let _ = revision.get();
        pause.cancel();
        if editor.with_untracked(EvalEditor::len) > LINKS_ON_CLICK_BEYOND {
            // A link made earlier would hand out an older eval: none until one is clicked.
            if let Some((json, csv)) = urls.try_update_value(Option::take).flatten() {
                download::release(&json);
                download::release(&csv);
            }
            for a in [json_link.get_untracked(), csv_link.get_untracked()]
                .into_iter()
                .flatten()
            {
                a.set_href("#");
            }
            return;
        }
        // The first links too wait for a pause: made at once, their two files would be
        // written while the widget is still being put on the page.
        pause.restart(refresh);
    });
    on_cleanup(move || {
        // (A refresh still waiting is dropped by its pause.)
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

/// Empties the paste field once its text is used (or refused): a browser lays out all of a
/// field's text on every layout, which for a long paste costs more than the import.
fn clear(field: NodeRef<leptos::html::Textarea>) {
    if let Some(f) = field.get_untracked() {
        f.set_value("");
    }
}

/// The text a paste event carries, as the browser's string: its length (UTF-16 units) is read
/// without copying it into the module.
fn pasted_text(ev: &wasm_bindgen::JsValue) -> Option<js_sys::JsString> {
    use wasm_bindgen::JsCast;
    let data = js_sys::Reflect::get(ev, &"clipboardData".into()).ok()?;
    let get = js_sys::Reflect::get(&data, &"getData".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let text = get.call1(&data, &"text".into()).ok()?;
    text.dyn_into::<js_sys::JsString>().ok()
}

/// Reads the rest of a paste of columns a piece at a time, each piece at most
/// [`STEP_BUDGET_MS`] long, giving the page a turn between pieces; then applies it.
fn read_on(
    editor: RwSignal<EvalEditor>,
    page_no: RwSignal<usize>,
    reader: StoredValue<Option<PassFailReader>>,
    progress: RwSignal<Option<(usize, usize)>>,
    field: NodeRef<leptos::html::Textarea>,
) {
    let start = js_sys::Date::now();
    loop {
        let step =
            reader.try_update_value(|r| r.as_mut().map(|r| (r.step(LINES_PER_STEP), r.progress())));
        // Gone (the widget closed, or nothing to read): stop.
        let Some(Some((step, done))) = step else {
            return;
        };
        match step {
            Step::Done(result) => {
                reader.set_value(None);
                progress.set(None);
                if result.is_ok() {
                    clear(field);
                }
                update_eval(editor, page_no, |e| {
                    e.import_parsed(result.map(Import::Verdicts));
                });
                return;
            }
            Step::More if js_sys::Date::now() - start > STEP_BUDGET_MS => {
                progress.set(Some(done));
                let next = move || read_on(editor, page_no, reader, progress, field);
                if set_timeout_with_handle(next, Duration::ZERO).is_err() {
                    read_on(editor, page_no, reader, progress, field);
                }
                return;
            }
            Step::More => {}
        }
    }
}

/// The paste field, its Import button, and what the last import did.
///
/// The field is the browser's own: typing or pasting into it runs nothing of ours but a
/// check of its length, so that a paste over the limit is refused at once without being read
/// (a paste is kept out of the field; text put there otherwise is emptied out, and the
/// refusal is said again if Import is pressed). A paste too long to show ([`HeldPaste`]) is
/// held beside the field instead, with a note saying so, until Import reads it, the reader
/// discards it or types in the field. The Import button reads the held paste or the field: an
/// eval file at once, columns of pass/fail a piece at a time with the progress shown; the
/// field is emptied once its text is imported.
#[component]
pub fn ImportPanel(
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// Its status revision ([`EvalEditor::status_revision`]): each import redraws the message,
    /// so that a refusal repeated is announced again.
    status: Memo<u64>,
    /// The page of cases shown, which goes back to the first when an import replaces the eval.
    page_no: RwSignal<usize>,
) -> impl IntoView {
    let field = NodeRef::<leptos::html::Textarea>::new();
    let reader = StoredValue::new(None::<PassFailReader>);
    let progress = RwSignal::new(None::<(usize, usize)>);
    let held = RwSignal::new(None::<HeldPaste>);
    let message = move || {
        let _ = status.get();
        editor.with_untracked(|e| e.import_message().cloned())
    };
    // The paste's length in UTF-16 units: never more than its bytes in UTF-8, so a length
    // over the limit is a size over the limit.
    let length = move || {
        field
            .get_untracked()
            .map_or(0, |f| f.text_length() as usize)
    };
    // The refusal of text emptied out of the field for being too large, said again on Import.
    let refused = StoredValue::new(None::<crate::logic::InputError>);
    let refuse = move |e: crate::logic::InputError| {
        editor.update(|ed| {
            ed.import_parsed(Err(e));
        });
    };
    let on_input = move |_| {
        // What the reader types replaces a paste held aside.
        if held.with_untracked(Option::is_some) {
            held.set(None);
        }
        match too_large(length()) {
            Some(e) => {
                clear(field);
                refused.set_value(Some(e.clone()));
                refuse(e);
            }
            None => refused.set_value(None),
        }
    };
    let on_paste = move |ev: leptos::ev::ClipboardEvent| {
        let Some(text) = pasted_text(ev.as_ref()) else {
            return;
        };
        let units = text.length() as usize;
        if let Some(e) = too_large(units) {
            ev.prevent_default();
            refused.set_value(None);
            refuse(e);
            return;
        }
        // A UTF-16 unit is at most three bytes: only a paste that may be long is copied here.
        if units.saturating_mul(3) <= HeldPaste::SHOWN_UP_TO {
            return;
        }
        if let Some(h) = text.as_string().and_then(HeldPaste::hold) {
            ev.prevent_default();
            clear(field);
            refused.set_value(None);
            held.set(Some(h));
        }
    };
    let import = move |_| {
        if reader.with_value(Option::is_some) {
            return;
        }
        // The paste held aside, or else the field.
        let text = match held.try_update(Option::take).flatten() {
            Some(h) => h.into_text(),
            None => {
                if let Some(e) =
                    too_large(length()).or_else(|| refused.get_value().filter(|_| length() == 0))
                {
                    refuse(e);
                    return;
                }
                let Some(text) = field.get_untracked().map(|f| f.value()) else {
                    return;
                };
                text
            }
        };
        // An eval file at once, columns a piece at a time.
        match start_import(text) {
            ImportJob::Done(result) => {
                if result.is_ok() {
                    clear(field);
                }
                update_eval(editor, page_no, |e| {
                    e.import_parsed(result);
                });
            }
            ImportJob::Columns(r) => {
                progress.set(Some(r.progress()));
                reader.set_value(Some(r));
                read_on(editor, page_no, reader, progress, field);
            }
        }
    };
    on_cleanup(move || {
        // A reading still under way stops at its next piece.
        let _ = reader.try_set_value(None);
    });
    let import_id = unique_id("eval-import");
    let import_label_for = import_id.clone();
    view! {
        <form method="dialog" class="field eval-import">
            <label for=import_label_for>"Paste an eval file (JSON), or two columns of pass/fail (baseline, candidate), one line per case"</label>
            <textarea
                id=import_id
                node_ref=field
                class="eval-sql-input"
                rows="4"
                spellcheck="false"
                data-testid="eval-import"
                placeholder="pass\tpass\npass\tfail\n\u{2026}"
                on:input=on_input
                on:paste=on_paste
            ></textarea>
        </form>
        {move || held.with(|h| h.as_ref().map(HeldPaste::note)).map(|note| view! {
            <p class="eval-import-held" role="status" data-testid="eval-import-held">
                {note}" "
                <button type="button" class="eval-link-button" data-testid="eval-import-discard" on:click=move |_| held.set(None)>
                    "Discard it"
                </button>
            </p>
        })}
        <div class="eval-actions">
            <button
                type="button"
                class="button primary"
                data-testid="eval-import-apply"
                disabled=move || progress.with(Option::is_some)
                on:click=import
            >
                "Import"
            </button>
            {move || progress.get().map(|(done, all)| {
                let pct = done.saturating_mul(100).checked_div(all).unwrap_or(100);
                view! {
                    <span class="eval-import-progress" role="status" data-testid="eval-import-progress">
                        <progress max="100" value=pct.to_string()></progress>
                        {format!(" {pct}% of the paste read\u{2026}")}
                    </span>
                }
            })}
        </div>
        {move || message().map(|r| match r {
            Ok(msg) => view! { <p class="eval-import-ok" role="status" data-testid="eval-import-message">{msg}</p> }.into_any(),
            Err(msg) => view! { <p class="eval-import-error field-message" role="alert" data-testid="eval-import-message">{msg}</p> }.into_any(),
        })}
    }
}
