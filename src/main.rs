//! The shell alone: the wasm module of the pages that show no widget (the title page, the
//! glossary). `js/start.js` starts it once the page has painted, as it starts a lesson's widgets
//! module (`widgets_module!`), which carries the shell too.

/// Starts the shell (the page's start script calls it).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn start_app() {
    console_error_panic_hook::set_once();
    ie_course::mount();
}

fn main() {}
