//! Where a lesson places a widget. The widgets live in a second wasm module
//! (`src/bin/ie-widgets.rs`), loaded on first need, so the first page a reader opens fetches only
//! the shell and the text; the build names the module in a `<meta name="ie-course-widgets">`.

use crate::content::WidgetUse;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
let loading = null;
function load() {
  if (!loading) {
    const meta = document.querySelector('meta[name="ie-course-widgets"]');
    if (!meta) return Promise.reject(new Error("this build has no widgets module"));
    const base = document.baseURI;
    loading = import(new URL(meta.content, base).href).then(async (m) => {
      await m.default({ module_or_path: new URL(meta.dataset.wasm, base).href });
      return m;
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}
// One widget a task, in the order the page asks for them: a page with several widgets never
// holds the main thread for all of them at once.
let queue = Promise.resolve();
const nextTask = () => new Promise((r) => setTimeout(r, 0));
export function mount_widget(el, name, params) {
  load().then((m) => {
    queue = queue.catch(() => {}).then(nextTask).then(() => {
      if (el.isConnected) m.mount_widget(el, name, params);
    });
    return queue;
  }).catch((e) => {
    el.classList.add("widget-error");
    el.textContent = "This interactive part could not be loaded (" + e.message + "). Reload the page to try again.";
  });
}
"#)]
extern "C" {
    /// Loads the widgets module (once) and mounts widget `name` with `params` (JSON pairs) in `el`.
    fn mount_widget(el: &web_sys::HtmlElement, name: &str, params: &str);
}

/// A placeholder that the widgets module fills with the live widget.
#[component]
pub fn WidgetSlot(
    /// The widget's directive from the lesson.
    widget: &'static WidgetUse,
) -> impl IntoView {
    let slot = NodeRef::<leptos::html::Div>::new();
    let params = serde_json::to_string(widget.params).unwrap_or_else(|_| "[]".into());
    // Mounting into the page is the outside world: once the slot is in the document.
    Effect::new(move |_| {
        if let Some(el) = slot.get() {
            mount_widget(&el, widget.name, &params);
        }
    });
    view! {
        <div class="widget-slot" data-widget-slot=widget.name node_ref=slot>
            <p class="widget-loading">"Loading the interactive part\u{2026}"</p>
            // Readers without JavaScript see this instead (`style/boot.js` marks scripted pages).
            {super::without_script(|| view! {
                <p class="widget-nojs">"This interactive part needs JavaScript."</p>
            })}
        </div>
    }
}
