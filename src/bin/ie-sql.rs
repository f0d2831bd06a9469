//! The SQL engine module: SQLite compiled to WebAssembly, a third wasm module that the mini eval
//! loads only when a reader turns execution grading on (`src/widgets/mini_eval/engine.rs`).
//! Built by the build driver (`xtask/src/modules.rs`) with the `sql` feature; the shell and the
//! widgets never link SQLite, so no page's first load grows.
//!
//! It exports one function: `run(schema, query)` runs the schema script and the query in a fresh
//! in-memory database and returns the rows, or the engine's message, as JSON
//! (`logic::eval::execution::wire_json`).

#[cfg(target_arch = "wasm32")]
mod module {
    use ie_course::logic::eval::execution::{sqlite, wire_json};
    use wasm_bindgen::prelude::*;

    /// Runs `schema` then `query` in a fresh in-memory database: `{"ok": {"columns": […],
    /// "rows": […]}}` or `{"error": "…"}`.
    #[wasm_bindgen]
    pub fn run(schema: &str, query: &str) -> String {
        wire_json(&sqlite::run(schema, query))
    }
}

fn main() {}
