//! The widgets module: a second wasm module with every live widget, loaded by the shell the first
//! time a page shows one (see `src/app/widget_slot.rs`). Built by `tools/postbuild.sh`.
//!
//! It shares the page and its storage with the shell but not its reactive tree: each widget is
//! mounted into its slot with its own owner, and notices about stored data are handed to the
//! shell as window events (`Persist::forwarding`).

#[cfg(target_arch = "wasm32")]
mod module {
    use ie_course::app::persist::Persist;
    use std::any::Any;
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;

    thread_local! {
        /// Mounted widgets and their slots; dropping a handle unmounts its widget.
        static MOUNTED: RefCell<Vec<(web_sys::HtmlElement, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
    }

    /// Mounts widget `name` with `params` (a JSON list of `[key, value]` pairs) into `el`. An
    /// unknown name or bad parameters show a message in `el` instead (see `widgets::mount`).
    #[wasm_bindgen]
    pub fn mount_widget(el: web_sys::HtmlElement, name: String, params: String) {
        console_error_panic_hook::set_once();
        // Widgets whose slot has left the page (the reader moved on) are disposed of first.
        MOUNTED.with(|m| m.borrow_mut().retain(|(slot, _)| slot.is_connected()));
        el.set_inner_html("");
        let handle = leptos::mount::mount_to(el.clone(), move || {
            leptos::prelude::provide_context(Persist::forwarding());
            ie_course::widgets::mount(&name, &params)
        });
        MOUNTED.with(|m| m.borrow_mut().push((el, Box::new(handle))));
    }
}

fn main() {}
