//! The measuring labs' worker, as the widgets hold it (`js/lab.js` makes it; `js/lab-worker.js`
//! is the worker, with its messages listed at its top). Shared by the decode lab and the
//! distillation lab.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/lab.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn lab_start(job: &str, on_message: &JsValue) -> Result<u32, JsValue>;
    fn lab_post(id: u32, message: &str);
    fn lab_stop(id: u32);
}

/// A running worker and the callback its messages go to. Dropping it ends the worker (a widget
/// that leaves the page takes its worker with it).
pub struct LabWorker {
    id: std::cell::Cell<Option<u32>>,
    // Kept alive while the worker may still call it; dropped only after the worker has ended.
    _on_message: Closure<dyn Fn(String)>,
}

impl LabWorker {
    /// Starts a worker with `job` (JSON: its first message); `on_message` gets each message it
    /// posts as JSON text. An error says why no worker could be made.
    pub fn start(job: &str, on_message: impl Fn(String) + 'static) -> Result<LabWorker, String> {
        let callback = Closure::<dyn Fn(String)>::new(on_message);
        let id = lab_start(job, callback.as_ref()).map_err(|e| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .or_else(|| e.as_string())
                .unwrap_or_else(|| "the browser refused to start a worker".into())
        })?;
        Ok(LabWorker {
            id: std::cell::Cell::new(Some(id)),
            _on_message: callback,
        })
    }

    /// Sends `message` (JSON) to the worker, if it still runs.
    pub fn post(&self, message: &str) {
        if let Some(id) = self.id.get() {
            lab_post(id, message);
        }
    }

    /// Ends the worker at once (its memory goes with it); nothing more comes from it.
    pub fn stop(&self) {
        if let Some(id) = self.id.take() {
            lab_stop(id);
        }
    }
}

impl Drop for LabWorker {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The memory cap a page's address sets for the lab's engine, in MB (`?lm.memory=20`): a test,
/// or a curious reader, sees what a device with that little memory would. `None` without one.
pub fn memory_cap_mb() -> Option<f64> {
    let values =
        crate::services::url_state::read(&crate::services::url_state::current_search(), "lm");
    crate::services::url_state::value_of(&values, "memory")
        .and_then(crate::logic::read_f64)
        .filter(|mb| mb.is_finite() && *mb > 0.0)
}
