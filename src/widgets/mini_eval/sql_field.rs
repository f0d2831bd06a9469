//! The labelled text box of SQL-like text (monospace, unchecked spelling) that the schema and
//! the import share.

use crate::widgets::controls::unique_id;
use leptos::attr::Attribute;
use leptos::prelude::*;

/// A `<form class="field {name}">` holding a label and a `<textarea>` of `rows` lines tied to
/// it (its id a fresh one starting with `name`). `textarea` is what else the box carries: its
/// value, handlers, `data-testid` and so on, as a spread (`view! { <{..} on:input=… /> }`).
pub fn sql_text_field(
    name: &'static str,
    label: &'static str,
    rows: &'static str,
    textarea: impl Attribute,
) -> impl IntoView {
    let id = unique_id(name);
    let label_for = id.clone();
    view! {
        <form method="dialog" class=format!("field {name}")>
            <label for=label_for>{label}</label>
            <textarea id=id class="eval-sql-input" rows=rows spellcheck="false" {..textarea}></textarea>
        </form>
    }
}
