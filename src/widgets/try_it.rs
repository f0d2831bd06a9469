//! The try-it worksheet: write the task and pass threshold and lock them, mark each prompt for a
//! small and a large model, add tok/s from llama-bench, and read the decision. Kept in storage;
//! exported as Markdown (through the widgets' one download helper, `services/download.rs`).

use crate::logic::worksheet;

use super::controls::{unique_id, FieldText, NumberField, Part, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::lab::{ANSWER_COMMAND, BENCH_COMMAND};
use crate::logic::InputError;
use crate::services::storage::Persist;
use leptos::prelude::*;
use worksheet::{Field, Locked, Which, Worksheet};

const STORE_NAME: &str = "try-it";
const STORE_VERSION: u32 = 1;

/// Mounts the widget (it takes no parameters).
pub fn mount(_params: WidgetParams) -> AnyView {
    view! { <TryIt /> }.into_any()
}

/// Writes `text` to the clipboard, then calls `done` with whether it worked.
fn copy_text(text: &str, done: impl Fn(bool) + Copy + 'static) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    let promise = (|| {
        let nav = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
        let clip = js_sys::Reflect::get(&nav, &"clipboard".into()).ok()?;
        if !clip.is_object() {
            return None;
        }
        let write = js_sys::Reflect::get(&clip, &"writeText".into())
            .ok()?
            .dyn_into::<js_sys::Function>()
            .ok()?;
        let promise = write.call1(&clip, &text.into()).ok()?;
        let then = js_sys::Reflect::get(&promise, &"then".into())
            .ok()?
            .dyn_into::<js_sys::Function>()
            .ok()?;
        Some((promise, then))
    })();
    match promise {
        None => done(false),
        Some((promise, then)) => {
            let ok = Closure::once_into_js(move |_: JsValue| done(true));
            let err = Closure::once_into_js(move |_: JsValue| done(false));
            let _ = then.call2(&promise, &ok, &err);
        }
    }
}

/// A command with a copy button and its feedback.
#[component]
fn CommandBlock(
    /// What the command does.
    title: &'static str,
    /// The command text.
    command: &'static str,
    /// `data-testid` of the copy button.
    testid: &'static str,
) -> impl IntoView {
    let status = RwSignal::new(String::new());
    let on_copy = move |_| {
        copy_text(command, move |ok| {
            status.set(if ok {
                "Copied to the clipboard.".into()
            } else {
                "Could not copy here: select the command and copy it by hand.".into()
            })
        })
    };
    view! {
        <div class="tryit-command">
            <div class="tryit-command-head">
                <span>{title}</span>
                <button type="button" class="button" data-testid=testid on:click=on_copy>"Copy"</button>
                <span class="tryit-copy-status" role="status">{move || status.get()}</span>
            </div>
            <pre><code>{command}</code></pre>
        </div>
    }
}

/// The worksheet's state while its card is on the page: the worksheet (the one value the
/// decision reads and storage keeps), the lock's errors, and why a mark was refused.
#[derive(Clone, Copy)]
struct Sheet {
    sheet: RwSignal<Worksheet>,
    lock_errors: RwSignal<Vec<InputError>>,
    refusal: RwSignal<Option<&'static str>>,
}

impl Sheet {
    fn locked(self) -> bool {
        self.sheet.with(Worksheet::is_locked)
    }

    /// A text field of the worksheet, which the field writes straight into.
    fn part(
        self,
        read: fn(&Worksheet) -> &String,
        write: fn(&mut Worksheet) -> &mut String,
    ) -> Part<Worksheet> {
        Part {
            whole: self.sheet,
            read,
            write,
        }
    }

    /// The lock's message for `field`, if locking refused it.
    fn lock_error_for(self, field: Field) -> Signal<Option<String>> {
        let errors = self.lock_errors;
        Signal::derive(move || {
            errors.with(|errs| {
                errs.iter()
                    .find(|e| e.field == field)
                    .map(|e| e.message.clone())
            })
        })
    }
}

/// The worksheet.
#[component]
pub fn TryIt() -> impl IntoView {
    let persist = Persist::from_context();
    let s = Sheet {
        sheet: RwSignal::new(
            persist
                .load::<Worksheet>(STORE_NAME, STORE_VERSION, |_, _| None)
                .unwrap_or_default(),
        ),
        lock_errors: RwSignal::new(Vec::new()),
        refusal: RwSignal::new(None),
    };
    let sheet = s.sheet;
    let confirm_clear = RwSignal::new(false);
    // Storage is the outside world: keep it in step with the worksheet.
    Effect::new(move |_| sheet.with(|w| persist.save(STORE_NAME, STORE_VERSION, w)));
    let on_clear = move |_| {
        if confirm_clear.get_untracked() {
            s.lock_errors.set(Vec::new());
            s.refusal.set(None);
            sheet.set(Worksheet::default());
            confirm_clear.set(false);
        } else {
            confirm_clear.set(true);
        }
    };
    // The file is written when the reader asks for it, not on every change.
    let on_export = move |_| {
        let md = sheet.with_untracked(Worksheet::markdown);
        crate::services::download::save("try-it-worksheet.md", "text/markdown;charset=utf-8", &md);
    };

    view! {
        <WidgetCard title="Try-it worksheet" name="try-it">
            <ol class="tryit-steps">
                {lock_step(s)}
                {marks_step(s)}
                {speed_step(s)}
                {decision_step(s)}
            </ol>
            <div class="tryit-footer">
                <button type="button" class="button" data-testid="tryit-export" on:click=on_export>
                    "Export as Markdown"
                </button>
                <button type="button" class="button" data-testid="tryit-clear" on:click=on_clear>
                    {move || if confirm_clear.get() { "Press again to clear everything" } else { "Start a new worksheet" }}
                </button>
            </div>
        </WidgetCard>
    }
}

/// Step 1: the task, the number of prompts and the pass threshold, and the lock that fixes them.
fn lock_step(s: Sheet) -> impl IntoView {
    let sheet = s.sheet;
    let locked = move || s.locked();
    let prompts = s.part(|w| &w.prompts, |w| &mut w.prompts);
    let threshold = s.part(|w| &w.threshold, |w| &mut w.threshold);
    let on_lock = move |_| {
        let mut next = sheet.get_untracked();
        match next.lock(js_sys::Date::now()) {
            Ok(()) => {
                s.lock_errors.set(Vec::new());
                s.refusal.set(None);
                sheet.set(next);
            }
            Err(errs) => s.lock_errors.set(errs),
        }
    };
    let task_id = unique_id("tryit-task");
    view! {
        <li class="tryit-step">
            <h4>"Write the task and the pass threshold, then lock them"</h4>
            <form method="dialog" class="field">
                <label for=task_id.clone()>"Task the prompts test"</label>
                <textarea
                    id=task_id
                    rows="2"
                    data-testid="tryit-task"
                    placeholder="e.g. Turn a customer question into the right SQL query"
                    readonly=locked
                    prop:value=move || sheet.with(|w| w.task.clone())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        sheet.update(|w| w.task = v);
                    }
                ></textarea>
            </form>
            <div class="controls">
                {locked_field(s, Field::Prompts, "Prompts in the eval", "tryit-prompts", prompts, |l| l.prompts)}
                {locked_field(s, Field::PassThreshold, "Pass threshold (prompts that must pass)", "tryit-threshold", threshold, |l| l.threshold)}
            </div>
            <div class="tryit-lock-row">
                <button
                    type="button"
                    class="button primary"
                    data-testid="tryit-lock"
                    disabled=locked
                    on:click=on_lock
                >
                    {move || if locked() { "Locked" } else { "Lock task and threshold" }}
                </button>
                <span class="tryit-locked-at" data-testid="tryit-locked-at">
                    {move || sheet.with(|w| w.locked_at_ms.filter(|_| w.is_locked()).map(|at| format!("Locked at {}, before any score.", crate::logic::calendar::utc_minute(at))))}
                </span>
            </div>
        </li>
    }
}

/// One of the two numbers locking fixes: typed text until then, the locked number after.
fn locked_field(
    s: Sheet,
    field: Field,
    label: &'static str,
    testid: &'static str,
    text: Part<Worksheet>,
    locked_value: fn(Locked) -> u32,
) -> impl IntoView {
    let sheet = s.sheet;
    let locked = move || s.locked();
    let id = unique_id(testid);
    let error = s.lock_error_for(field);
    view! {
        <form method="dialog" class="field" class:invalid=move || error.get().is_some()>
            <label for=id.clone()>{label}</label>
            <input
                id=id
                type="text"
                inputmode="numeric"
                autocomplete="off"
                data-testid=testid
                readonly=locked
                aria-invalid=move || error.get().is_some().to_string()
                prop:value=move || sheet.with(|w| w.locked.map(locked_value)).map_or_else(|| text.text(), |n| n.to_string())
                on:input=move |ev| text.set_text(event_target_value(&ev))
            />
            <p class="field-message" role="alert">{move || error.get()}</p>
        </form>
    }
}

/// Step 2: each model's name, and a pass/fail mark for every prompt.
fn marks_step(s: Sheet) -> impl IntoView {
    let (sheet, refusal) = (s.sheet, s.refusal);
    let locked = move || s.locked();
    // Rows depend only on how many prompts there are, so marking one keeps focus in place.
    let prompt_count = Memo::new(move |_| {
        sheet.with(|w| match w.locked {
            Some(l) => l.prompts,
            None => worksheet::parse_prompts(&w.prompts).unwrap_or(10),
        })
    });
    let score_line = move || {
        sheet.with(|w| match w.locked {
            Some(l) => format!(
                "{} of {} for {}, {} of {} for {}",
                w.score(Which::Small),
                l.prompts,
                w.model(Which::Small),
                w.score(Which::Large),
                l.prompts,
                w.model(Which::Large)
            ),
            None => "No scores: the threshold is not locked.".into(),
        })
    };
    view! {
        <li class="tryit-step">
            <h4>"Mark each prompt for a small and a large model"</h4>
            <CommandBlock title="Answer every prompt with both models" command=ANSWER_COMMAND testid="tryit-copy-answers" />
            <div class="controls">
                {name_input(s, "Small model", "tryit-small-name", Which::Small)}
                {name_input(s, "Large model", "tryit-large-name", Which::Large)}
            </div>
            <p class="field-message" role="alert" data-testid="tryit-refusal">{move || refusal.get()}</p>
            <table class="tryit-table" class:locked=locked>
                <caption class="tryit-caption">"Which prompts each model passed"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Prompt"</th>
                        <th scope="col">{move || sheet.with(|w| w.small_name.clone())}" passed"</th>
                        <th scope="col">{move || sheet.with(|w| w.large_name.clone())}" passed"</th>
                    </tr>
                </thead>
                <tbody>{move || prompt_rows(s, prompt_count.get())}</tbody>
            </table>
            <p class="tryit-scores" data-testid="tryit-scores">{score_line}</p>
        </li>
    }
}

/// A model's name, which the sentences and the Markdown use.
fn name_input(s: Sheet, label: &'static str, testid: &'static str, which: Which) -> impl IntoView {
    let sheet = s.sheet;
    let id = unique_id(testid);
    view! {
        <form method="dialog" class="field">
            <label for=id.clone()>{label}</label>
            <input
                id=id
                type="text"
                autocomplete="off"
                data-testid=testid
                prop:value=move || sheet.with(|w| match which {
                    Which::Small => w.small_name.clone(),
                    Which::Large => w.large_name.clone(),
                })
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    sheet.update(|w| match which {
                        Which::Small => w.small_name = v,
                        Which::Large => w.large_name = v,
                    });
                }
            />
        </form>
    }
}

/// The table's `n` rows, one a prompt.
fn prompt_rows(s: Sheet, n: u32) -> impl IntoView {
    let (sheet, refusal) = (s.sheet, s.refusal);
    (0..n as usize)
        .map(|i| {
            let cell = move |which: Which| {
                let name = move || {
                    sheet.with(|w| match which {
                        Which::Small => w.small_name.clone(),
                        Which::Large => w.large_name.clone(),
                    })
                };
                let id = unique_id("tryit-mark");
                view! {
                    <td>
                        <input
                            type="checkbox"
                            id=id
                            data-testid=format!("tryit-{}-{}", if which == Which::Small { "small" } else { "large" }, i + 1)
                            aria-label=move || format!("Prompt {}: {} passed", i + 1, name())
                            prop:checked=move || sheet.with(|w| w.passed(which, i))
                            on:click=move |ev| {
                                let checked = event_target_checked(&ev);
                                let mut next = sheet.get_untracked();
                                match next.mark(which, i, checked) {
                                    Ok(()) => {
                                        refusal.set(None);
                                        sheet.set(next);
                                    }
                                    Err(why) => {
                                        ev.prevent_default();
                                        refusal.set(Some(why));
                                    }
                                }
                            }
                        />
                    </td>
                }
            };
            view! {
                <tr>
                    <th scope="row">{i + 1}</th>
                    {cell(Which::Small)}
                    {cell(Which::Large)}
                </tr>
            }
        })
        .collect_view()
}

/// Step 3: each model's decode speed.
fn speed_step(s: Sheet) -> impl IntoView {
    let small_tps = s.part(|w| &w.small_tps, |w| &mut w.small_tps);
    let large_tps = s.part(|w| &w.large_tps, |w| &mut w.large_tps);
    let tps_error = move |field: Field, text: Part<Worksheet>| {
        Signal::derive(move || {
            worksheet::parse_tps(field, &text.text())
                .err()
                .map(|e| e.message)
        })
    };
    view! {
        <li class="tryit-step">
            <h4>"Enter tokens per second from llama-bench"</h4>
            <CommandBlock title="Measure both models (decode speed: the tg128 rows)" command=BENCH_COMMAND testid="tryit-copy-bench" />
            <div class="controls">
                <NumberField label="Small model tok/s" testid="tryit-small-tps" text=small_tps error=tps_error(Field::SmallTps, small_tps) unit="tok/s" />
                <NumberField label="Large model tok/s" testid="tryit-large-tps" text=large_tps error=tps_error(Field::LargeTps, large_tps) unit="tok/s" />
            </div>
        </li>
    }
}

/// Step 4: the decision, or why there is none yet.
fn decision_step(s: Sheet) -> impl IntoView {
    let decision = move || s.sheet.with(Worksheet::decision);
    view! {
        <li class="tryit-step">
            <h4>"Read the decision"</h4>
            <p class="tryit-decision" class:pending=move || decision().is_err() data-testid="tryit-decision" aria-live="polite">
                {move || match decision() {
                    Ok(s) | Err(s) => s,
                }}
            </p>
        </li>
    }
}
