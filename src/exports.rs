//! What a widgets module's binary exports to the page's scripts (`src/bin/ie-widgets*.rs`, each
//! one line: `ie_course::widgets_module!(LIST, CARDS);`). The one place where the shell and the
//! widgets meet: each module carries both (see `widgets::modules`).

/// The body of a widgets module's binary: exports `mount_widget` for the widgets in `$list`, with
/// the recall cards in `$cards`, and `start_app`, which starts the shell (what the title page's
/// own module does in its `main`).
///
/// It shares the page and its storage with the shell but not its reactive tree: each widget is
/// mounted into its slot with its own owner, and notices about stored data are handed to the
/// shell as window events (`Persist::forwarding`).
#[macro_export]
macro_rules! widgets_module {
    ($list:path, $cards:path) => {
        #[cfg(target_arch = "wasm32")]
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn mount_widget(el: ::web_sys::HtmlElement, name: String, params: String) {
            $crate::widgets::modules::mount_into($list, $cards, el, name, params)
        }

        /// Starts the shell in this instance: a lesson page's start script calls it
        /// (`js/start.js`); an instance loaded for widgets never does.
        #[cfg(target_arch = "wasm32")]
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn start_app() {
            ::console_error_panic_hook::set_once();
            $crate::app::mount()
        }

        /// A test hook, only in a build with the cargo feature `test-hooks` (the test command's
        /// sub-path build; release builds leave it out): panics as a bug would, which aborts this
        /// module, so that a test can check the page survives it (the loader,
        /// `js/loader.js`, takes over; `tests/e2e/specs/reliability.spec.js`).
        #[cfg(all(target_arch = "wasm32", feature = "test-hooks"))]
        #[::wasm_bindgen::prelude::wasm_bindgen]
        #[allow(clippy::panic, reason = "a test hook: aborting is what it is for")]
        pub fn abort_for_tests() {
            panic!("a test asked this widgets module to abort")
        }

        fn main() {}
    };
}
