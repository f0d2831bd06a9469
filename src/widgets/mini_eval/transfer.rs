//! The eval in and out: download links for the eval (JSON) and its results (CSV), and a
//! field to paste an eval file or columns of pass/fail into.

use super::sql_field::sql_text_field;
use super::update_eval;
use crate::logic::eval::chunked::{
    start_import, too_large, HeldPaste, ImportJob, PassFailReader, Step,
};
use crate::logic::eval::editor::EvalEditor;
use crate::logic::eval::Import;
use crate::logic::InputError;
use crate::services::download;
use crate::services::timers::Pause;
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

/// The import while its panel is on the page: the paste field, a paste held beside it, a
/// reading of columns under way and its progress. `Copy`, so handlers and views share it.
#[derive(Clone, Copy)]
struct Importer {
    /// The eval.
    editor: RwSignal<EvalEditor>,
    /// The page of cases shown, which goes back to the first when an import replaces the eval.
    page_no: RwSignal<usize>,
    /// The paste field.
    field: NodeRef<leptos::html::Textarea>,
    /// Columns of pass/fail being read a piece at a time, if any.
    reader: StoredValue<Option<PassFailReader>>,
    /// How far that reading is: (read, all).
    progress: RwSignal<Option<(usize, usize)>>,
    /// A paste too long to show, held beside the field.
    held: RwSignal<Option<HeldPaste>>,
    /// The refusal of text emptied out of the field for being too large, said again on Import.
    refused: StoredValue<Option<InputError>>,
}

impl Importer {
    fn new(editor: RwSignal<EvalEditor>, page_no: RwSignal<usize>) -> Self {
        Importer {
            editor,
            page_no,
            field: NodeRef::new(),
            reader: StoredValue::new(None),
            progress: RwSignal::new(None),
            held: RwSignal::new(None),
            refused: StoredValue::new(None),
        }
    }

    /// The paste's length in UTF-16 units: never more than its bytes in UTF-8, so a length
    /// over the limit is a size over the limit.
    fn length(self) -> usize {
        self.field
            .get_untracked()
            .map_or(0, |f| f.text_length() as usize)
    }

    /// Says why text was refused (in the import's message); nothing else changes.
    fn refuse(self, e: InputError) {
        self.editor.update(|ed| {
            ed.import_parsed(Err(e));
        });
    }

    /// Typing or other input in the field: it replaces a paste held aside; text too large is
    /// emptied out and refused.
    fn typed(self) {
        if self.held.with_untracked(Option::is_some) {
            self.held.set(None);
        }
        match too_large(self.length()) {
            Some(e) => {
                clear(self.field);
                self.refused.set_value(Some(e.clone()));
                self.refuse(e);
            }
            None => self.refused.set_value(None),
        }
    }

    /// A paste: refused at once if too large, held beside the field if too long to show, else
    /// left to the browser.
    fn pasted(self, ev: &leptos::ev::ClipboardEvent) {
        let Some(text) = pasted_text(ev.as_ref()) else {
            return;
        };
        let units = text.length() as usize;
        if let Some(e) = too_large(units) {
            ev.prevent_default();
            self.refused.set_value(None);
            self.refuse(e);
            return;
        }
        // A UTF-16 unit is at most three bytes: only a paste that may be long is copied here.
        if units.saturating_mul(3) <= HeldPaste::SHOWN_UP_TO {
            return;
        }
        if let Some(h) = text.as_string().and_then(HeldPaste::hold) {
            ev.prevent_default();
            clear(self.field);
            self.refused.set_value(None);
            self.held.set(Some(h));
        }
    }

    /// The text to import: the paste held aside, or else the field's; `None` (with the refusal
    /// said again) when it is too large.
    fn text(self) -> Option<String> {
        if let Some(h) = self.held.try_update(Option::take).flatten() {
            return Some(h.into_text());
        }
        if let Some(e) = too_large(self.length())
            .or_else(|| self.refused.get_value().filter(|_| self.length() == 0))
        {
            self.refuse(e);
            return None;
        }
        self.field.get_untracked().map(|f| f.value())
    }

    /// The Import button: an eval file at once, columns a piece at a time. Nothing while a
    /// reading is under way.
    fn import(self) {
        if self.reader.with_value(Option::is_some) {
            return;
        }
        let Some(text) = self.text() else {
            return;
        };
        match start_import(text) {
            ImportJob::Done(result) => {
                if result.is_ok() {
                    clear(self.field);
                }
                update_eval(self.editor, self.page_no, |e| {
                    e.import_parsed(result);
                });
            }
            ImportJob::Columns(r) => {
                self.progress.set(Some(r.progress()));
                self.reader.set_value(Some(r));
                self.read_on();
            }
        }
    }

    /// Reads the rest of a paste of columns a piece at a time, each piece at most
    /// [`STEP_BUDGET_MS`] long, giving the page a turn between pieces; then applies it.
    fn read_on(self) {
        let start = js_sys::Date::now();
        loop {
            let step = self
                .reader
                .try_update_value(|r| r.as_mut().map(|r| (r.step(LINES_PER_STEP), r.progress())));
            // Gone (the widget closed, or nothing to read): stop.
            let Some(Some((step, done))) = step else {
                return;
            };
            match step {
                Step::Done(result) => {
                    self.reader.set_value(None);
                    self.progress.set(None);
                    if result.is_ok() {
                        clear(self.field);
                    }
                    update_eval(self.editor, self.page_no, |e| {
                        e.import_parsed(result.map(Import::Verdicts));
                    });
                    return;
                }
                Step::More if js_sys::Date::now() - start > STEP_BUDGET_MS => {
                    self.progress.set(Some(done));
                    if set_timeout_with_handle(move || self.read_on(), Duration::ZERO).is_err() {
                        self.read_on();
                    }
                    return;
                }
                Step::More => {}
            }
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
    let im = Importer::new(editor, page_no);
    on_cleanup(move || {
        // A reading still under way stops at its next piece.
        let _ = im.reader.try_set_value(None);
    });
    view! {
        {paste_field(im)}
        {held_note(im)}
        {import_button(im)}
        {import_message(editor, status)}
    }
}

/// The paste field.
fn paste_field(im: Importer) -> impl IntoView {
    sql_text_field(
        "eval-import",
        "Paste an eval file (JSON), or two columns of pass/fail (baseline, candidate), one line per case",
        "4",
        view! {
            <{..}
                node_ref=im.field
                data-testid="eval-import"
                placeholder="pass\tpass\npass\tfail\n\u{2026}"
                on:input=move |_| im.typed()
                on:paste=move |ev| im.pasted(&ev)
            />
        },
    )
}

/// The note on a paste held beside the field, with a button to discard it.
fn held_note(im: Importer) -> impl IntoView {
    let held = im.held;
    view! {
        {move || held.with(|h| h.as_ref().map(HeldPaste::note)).map(|note| view! {
            <p class="eval-import-held" role="status" data-testid="eval-import-held">
                {note}" "
                <button type="button" class="eval-link-button" data-testid="eval-import-discard" on:click=move |_| held.set(None)>
                    "Discard it"
                </button>
            </p>
        })}
    }
}

/// The Import button, and how far a reading of columns has come.
fn import_button(im: Importer) -> impl IntoView {
    let progress = im.progress;
    view! {
        <div class="eval-actions">
            <button
                type="button"
                class="button primary"
                data-testid="eval-import-apply"
                disabled=move || progress.with(Option::is_some)
                on:click=move |_| im.import()
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
    }
}

/// What the last import did, or why it was refused.
fn import_message(editor: RwSignal<EvalEditor>, status: Memo<u64>) -> impl IntoView {
    let message = move || {
        let _ = status.get();
        editor.with_untracked(|e| e.import_message().cloned())
    };
    view! {
        {move || message().map(|r| match r {
            Ok(msg) => view! { <p class="eval-import-ok" role="status" data-testid="eval-import-message">{msg}</p> }.into_any(),
            Err(msg) => view! { <p class="eval-import-error field-message" role="alert" data-testid="eval-import-message">{msg}</p> }.into_any(),
        })}
    }
}
