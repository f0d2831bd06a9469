//! The SQL engine for execution grading: SQLite in its own wasm module (`src/bin/ie-sql.rs`),
//! imported the first time a reader turns execution grading on, never before, so no page's
//! first load grows. The build names the module in a `<meta name="ie-course-sql">`, and
//! `js/sql.js` loads it.
//!
//! [`Engine::run`] loads the module if need be, then hands the waiting cases to it a chunk per
//! task (`EvalEditor::run_waiting`), so the page never freezes however many cases there are.
//! If the module cannot be loaded, grading goes back to the SQL text and the reader is told.

use crate::logic::eval::editor::EvalEditor;
use crate::logic::eval::execution::{parse_wire, Grading};
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/sql.js")]
extern "C" {
    /// Imports and starts the SQL module (once); rejects with the reason it could not.
    fn load_sql_engine() -> js_sys::Promise;
    /// Runs `schema` then `query` in a fresh database: the engine's JSON answer.
    fn run_sql(schema: &str, query: &str) -> String;
    /// Resolves in a later task, so the browser can paint and take input in between.
    fn next_task() -> js_sys::Promise;
}

/// Time given to one chunk of runs before the page gets the main thread back, in ms.
const CHUNK_MS: f64 = 25.0;

/// Where the SQL engine stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineState {
    /// Not asked for yet.
    Idle,
    /// Being fetched and started.
    Loading,
    /// Running queries.
    Ready,
    /// It could not be loaded: why.
    Failed(String),
}

/// The engine as the widget holds it: its state, and whether a run is under way.
#[derive(Clone)]
pub struct Engine {
    /// Where it stands, for the status line.
    pub state: RwSignal<EngineState>,
    /// Whether a run is under way (plain, not reactive: the run outlives no widget).
    running: Rc<Cell<bool>>,
}

impl Engine {
    /// An engine not loaded yet.
    pub fn new() -> Self {
        Engine {
            state: RwSignal::new(EngineState::Idle),
            running: Rc::new(Cell::new(false)),
        }
    }

    /// Loads the engine if need be, then runs the eval's waiting cases, a chunk per task,
    /// until none waits. Does nothing while a run is already under way (it picks up new
    /// waiting cases itself). Stops quietly once the widget is gone (its signals disposed).
    pub fn run(&self, editor: RwSignal<EvalEditor>) {
        if self.running.replace(true) {
            return;
        }
        let (state, running) = (self.state, self.running.clone());
        wasm_bindgen_futures::spawn_local(async move {
            if state.try_get_untracked() != Some(EngineState::Ready) {
                state.try_set(EngineState::Loading);
                let loaded = wasm_bindgen_futures::JsFuture::from(load_sql_engine()).await;
                if let Err(e) = loaded {
                    let reason = e
                        .dyn_ref::<js_sys::Error>()
                        .map(|e| String::from(e.message()))
                        .or_else(|| e.as_string())
                        .unwrap_or_else(|| "unknown reason".into());
                    state.try_set(EngineState::Failed(reason));
                    editor.try_update(|e| e.set_grading(Grading::Text));
                    running.set(false);
                    return;
                }
                state.try_set(EngineState::Ready);
            }
            while editor.try_with_untracked(EvalEditor::is_waiting) == Some(true) {
                let start = js_sys::Date::now();
                editor.try_update(|e| {
                    e.run_waiting(
                        &mut |schema, sql| parse_wire(&run_sql(schema, sql)),
                        &mut || js_sys::Date::now() - start < CHUNK_MS,
                    )
                });
                let _ = wasm_bindgen_futures::JsFuture::from(next_task()).await;
            }
            running.set(false);
        });
    }
}
