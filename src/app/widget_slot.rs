//! Where a lesson places a widget. The widgets live in widgets modules of their own
//! (`src/widgets/modules.rs`), loaded on first need, so the first page a reader opens fetches only
//! the shell and the text, and a lesson only the module with its own widgets; the build lists the
//! modules in a `<meta name="ie-course-widgets">`. The loading itself is JavaScript,
//! `js/loader.js`, where the why of its order, of the early widgets and of a module that traps is.

use crate::content::WidgetUse;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/loader.js")]
extern "C" {
    /// Loads the page's widgets module (once) and mounts widget `name` with `params` (JSON pairs) in `el`.
    fn mount_widget(el: &web_sys::HtmlElement, name: &str, params: &str);
    /// Makes sure what the widget the build drew in `el` needs is in the page: the widgets'
    /// stylesheet, and the script that answers the diagrams (`js/diagrams.js`, named in the
    /// widgets `<meta>` as `data-diagrams`), which takes the diagram in. A page that shows one
    /// from the start links both in its head; after a move in the app, this loads them.
    pub fn drawn_shown(el: &web_sys::Element);
}

/// A placeholder that the widgets module fills with the live widget.
#[component]
pub fn WidgetSlot(
    /// The widget's directive from the lesson.
    widget: &'static WidgetUse,
) -> impl IntoView {
    let slot = NodeRef::<leptos::html::Div>::new();
    // Mounting into the page is the outside world: once the slot is in the document.
    Effect::new(move |_| {
        if let Some(el) = slot.get() {
            mount_widget(&el, widget.name, widget.params);
        }
    });
    view! {
        <div class="widget-slot" data-widget-slot=widget.name data-needs=widget.needs data-params=widget.params node_ref=slot>
            <p class="widget-loading">"Loading the interactive part\u{2026}"</p>
            // Readers without JavaScript see this instead (`style/boot.js` marks scripted pages).
            {super::without_script(|| view! {
                <p class="widget-nojs">"This interactive part needs JavaScript."</p>
            })}
        </div>
    }
}
