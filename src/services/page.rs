//! The page's conventions that the shell and the widgets share: the card every widget and every
//! drawn diagram sits in (its `data-widget` is what the loader, `style/diagrams.js` and the
//! stylesheets look for), ids that never repeat on a page, and whether the reader is typing.

use leptos::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// A fresh id for tying a label and message to a field.
pub fn unique_id(prefix: &str) -> String {
    format!("{prefix}-{}", NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

/// True when `el` is a field the reader is typing in (so a single-key shortcut must not fire):
/// the shell's shortcuts and the recall cards' keys both ask this.
pub fn typing_in_field(el: &web_sys::Element) -> bool {
    matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        || el.closest("[contenteditable]").ok().flatten().is_some()
}

/// A widget's card: a titled section in the flow of the text.
#[component]
pub fn WidgetCard(
    /// The card's heading.
    title: &'static str,
    /// `data-widget` value, the directive name.
    name: &'static str,
    /// The heading's id, for a card the build draws (ids made at run time would repeat it);
    /// by default a new one.
    #[prop(optional, into)]
    heading_id: Option<String>,
    /// The controls and outputs.
    children: Children,
) -> impl IntoView {
    let heading_id = heading_id.unwrap_or_else(|| unique_id("widget"));
    let labelled_by = heading_id.clone();
    view! {
        <section class="widget" data-widget=name aria-labelledby=labelled_by>
            <h3 class="widget-title" id=heading_id>{title}</h3>
            {children()}
        </section>
    }
}
