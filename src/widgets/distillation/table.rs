//! The token table: a row a token (its label and remove button), a cell a distribution (the
//! value as typed, a slider and the normalized probability), and the buttons that add tokens.

use crate::logic::distill::inputs::{dist, shown_label, Inputs, Problems, DISTS};
use crate::logic::distill::{self, Comparison, Entry, MAX_TOKENS, MIN_TOKENS};
use crate::logic::format::fixed;
use crate::logic::read_f64;
use crate::widgets::controls::{drawn_in_steps, unique_id};
use leptos::attr::{Attribute, AttributeValue};
use leptos::prelude::*;

/// The tokens and their three distributions, as typed, with the buttons that add and remove
/// tokens.
#[component]
pub fn TokenTable(
    /// The playground's inputs.
    inputs: RwSignal<Inputs>,
    /// The last good comparison (for the normalized probabilities).
    shown: Memo<Option<Comparison>>,
    /// What is wrong with the inputs.
    problems: Signal<Problems>,
    /// True while an input is wrong and the numbers shown are the last good ones.
    stale: Signal<bool>,
) -> impl IntoView {
    let n = Memo::new(move |_| inputs.with(|i| i.rows.len()));
    // A token's row is seven fields: the table comes a few rows a task, so that the widget's
    // mount stays short on a phone (`drawn_in_steps`).
    let rows_drawn = drawn_in_steps(2, 2, MAX_TOKENS);
    view! {
        <div class="distill-table-wrap">
            <table class="distill-table" class:stale=move || stale.get()>
                <thead>
                    <tr>
                        <th scope="col">"Token"</th>
                        {DISTS.iter().map(|(_, name)| view! { <th scope="col">{*name}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    <For each=move || 0..n.get().min(rows_drawn.get()) key=|i| *i let:i>
                        <TokenRow i=i inputs=inputs shown=shown problems=problems />
                    </For>
                </tbody>
            </table>
        </div>
        {move || {
            problems.with(|p| {
                p.columns
                    .iter()
                    .map(|(d, msg)| view! { <p class="field-message" role="alert">{format!("{}: {msg}", dist(*d).1)}</p> })
                    .collect_view()
            })
        }}
        <div class="distill-row-actions">
            <button type="button" data-testid="distill-add-token" on:click=move |_| inputs.update(Inputs::add_token) disabled=move || { n.get() >= MAX_TOKENS }>
                "Add a token"
            </button>
            <span class="widget-note">{move || format!("{} tokens (2\u{2013}10). \u{201c}= \u{2026}\u{201d} is the normalized probability.", n.get())}</span>
        </div>
    }
}

/// A compact text input in a cell of the table, as a token's label and each typed value are:
/// plain text (no autocomplete, no spell-check) showing `text`, named `aria_label` for screen
/// readers, that hands each edit to `on_type`. `extra` is what sets one apart (its id and
/// class, a length or an input mode, its message, its keys), spread onto it.
fn cell_input(
    testid: String,
    aria_label: impl AttributeValue,
    text: impl Fn() -> String + Send + Sync + 'static,
    on_type: impl Fn(String) + 'static,
    extra: impl Attribute,
) -> impl IntoView {
    view! {
        <input
            type="text"
            autocomplete="off"
            spellcheck="false"
            data-testid=testid
            aria-label=aria_label
            prop:value=text
            on:input=move |ev| on_type(event_target_value(&ev))
            {..extra}
        />
    }
}

/// One token's row: its label and remove button, then a cell per distribution.
#[component]
fn TokenRow(
    /// Index of the token.
    i: usize,
    /// The playground's inputs.
    inputs: RwSignal<Inputs>,
    /// The last good comparison (for the normalized probabilities).
    shown: Memo<Option<Comparison>>,
    /// What is wrong with the inputs.
    problems: Signal<Problems>,
) -> impl IntoView {
    let label_text =
        move || inputs.with(|x| x.rows.get(i).map(|r| r.label.clone()).unwrap_or_default());
    let label_id = unique_id("distill-label");
    view! {
        <tr>
            <th scope="row" class="distill-token">
                <form method="dialog" class="distill-token-cell">
                    <span class="distill-index" aria-hidden="true">{i}</span>
                    {cell_input(
                        format!("token-label-{i}"),
                        format!("Label of token {i}"),
                        label_text,
                        move |v| inputs.update(|x| x.set_label(i, v)),
                        view! { <{..} id=label_id class="distill-label" maxlength="24" /> },
                    )}
                    <button
                        type="button"
                        class="distill-remove"
                        data-testid=format!("distill-remove-{i}")
                        aria-label=move || format!("Remove token {i} ({})", inputs.with(|x| shown_label(&x.rows, i)))
                        disabled=move || inputs.with(|x| x.rows.len() <= MIN_TOKENS)
                        on:click=move |_| inputs.update(|x| x.remove_token(i))
                    >
                        "\u{d7}"
                    </button>
                </form>
            </th>
            {(0..3).map(|d| view! { <ValueCell i=i d=d inputs=inputs shown=shown problems=problems /> }).collect_view()}
        </tr>
    }
}

/// One typed value: number field, slider and the normalized probability it gives.
#[component]
fn ValueCell(
    /// Token index.
    i: usize,
    /// Distribution index (0 teacher, 1 student A, 2 student B).
    d: usize,
    /// The playground's inputs.
    inputs: RwSignal<Inputs>,
    /// The last good comparison.
    shown: Memo<Option<Comparison>>,
    /// What is wrong with the inputs.
    problems: Signal<Problems>,
) -> impl IntoView {
    let (prefix, name) = dist(d);
    let text = move || {
        inputs.with(|x| {
            x.rows
                .get(i)
                .map(|r| r.value(d).to_string())
                .unwrap_or_default()
        })
    };
    let error = move || {
        problems.with(|p| {
            p.cells
                .iter()
                .find(|(pd, pi, _)| *pd == d && *pi == i)
                .map(|(_, _, m)| m.clone())
        })
    };
    let field_id = unique_id(prefix);
    let msg_id = format!("{field_id}-msg");
    let aria = move || format!("{name}, {}", inputs.with(|x| shown_label(&x.rows, i)));
    let normalized = move || shown.with(|c| c.as_ref().and_then(|c| probability(c, i, d)));
    view! {
        <td class="distill-cell" class:invalid=move || error().is_some()>
            <form method="dialog" class="distill-cell-form">
                {cell_input(
                    format!("{prefix}-p{i}"),
                    aria,
                    text,
                    move |v| inputs.update(|x| x.set_value(i, d, v)),
                    view! {
                        <{..}
                            id=field_id
                            inputmode="decimal"
                            class="distill-value"
                            aria-invalid=move || error().is_some().to_string()
                            aria-describedby=msg_id.clone()
                            on:keydown=move |ev| step_with_arrows(inputs, i, d, &ev)
                        />
                    },
                )}
                {value_slider(inputs, i, d, aria)}
                <span class="distill-prob" data-testid=format!("{prefix}-prob{i}")>{normalized}</span>
                <p class="field-message" id=msg_id role="alert">{error}</p>
            </form>
        </td>
    }
}

/// The normalized probability of token `i` in distribution `d` ("= 0.700"), from a comparison.
fn probability(c: &Comparison, i: usize, d: usize) -> Option<String> {
    let p = match d {
        0 => c.teacher.at_1.get(i),
        _ => c.students.get(d - 1).and_then(|s| s.probs.at_1.get(i)),
    };
    p.map(|p| format!("= {}", fixed(*p, 3)))
}

/// The value typed for token `i` in distribution `d`, as a number, if it is one.
fn typed(x: &Inputs, i: usize, d: usize) -> Option<f64> {
    x.rows.get(i).and_then(|r| read_f64(r.value(d)))
}

/// ArrowUp and ArrowDown on a typed value: a step up or down (0.01 for weights, 0.1 for
/// logits), never below the smallest value allowed; a value that is not a number stays.
fn step_with_arrows(inputs: RwSignal<Inputs>, i: usize, d: usize, ev: &web_sys::KeyboardEvent) {
    let delta = match ev.key().as_str() {
        "ArrowUp" => 1.0,
        "ArrowDown" => -1.0,
        _ => return,
    };
    ev.prevent_default();
    let entry = inputs.with_untracked(|x| x.entry);
    let (step, min) = match entry {
        Entry::Weights => (0.01, 0.0),
        Entry::Logits => (0.1, -distill::MAX_LOGIT),
    };
    if let Some(v) = inputs.with_untracked(|x| typed(x, i, d)) {
        if v.is_finite() {
            let next = ((v + delta * step).max(min) * 1e6).round() / 1e6;
            inputs.update(|x| x.set_value(i, d, distill::value_text(entry, next)));
        }
    }
}

/// The slider of a typed value, for the mouse (the keyboard has the arrow keys on the field):
/// it covers 0..1 for probabilities (or up to the largest weight typed in its column) and
/// −10..10 for logits.
fn value_slider(
    inputs: RwSignal<Inputs>,
    i: usize,
    d: usize,
    aria: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    let range = move || match inputs.with(|x| x.entry) {
        Entry::Logits => (-10.0, 10.0, 0.1),
        Entry::Weights => {
            let top = inputs.with(|x| {
                x.rows
                    .iter()
                    .filter_map(|row| read_f64(row.value(d)))
                    .filter(|v| v.is_finite())
                    .fold(1.0f64, f64::max)
            });
            (0.0, top, top / 100.0)
        }
    };
    let value = move || {
        inputs
            .with(|x| typed(x, i, d))
            .filter(|v| v.is_finite())
            .unwrap_or(0.0)
            .to_string()
    };
    view! {
        <input
            type="range"
            class="distill-slider"
            tabindex="-1"
            aria-label=move || format!("{} (slider)", aria())
            min=move || range().0.to_string()
            max=move || range().1.to_string()
            step=move || range().2.to_string()
            prop:value=value
            on:input=move |ev| {
                let v = read_f64(&event_target_value(&ev)).unwrap_or(0.0);
                inputs.update(|x| x.set_value(i, d, distill::value_text(x.entry, v)));
            }
        />
    }
}
