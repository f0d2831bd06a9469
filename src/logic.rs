//! Every piece of the course's logic that needs no browser: the calculators' maths, the mini
//! eval, the recall scheduler, charts' geometry, the sorting exercise, the lab worksheet, the
//! diagrams' model, search, reading progress and the storage schema. Plain types with methods,
//! tested natively (`cargo test`); the views in `app` and `widgets` only wire signals to them.
//!
//! `build/main.rs` includes the modules the lessons' figures need with `#[path]`, so a figure
//! written into a lesson at build time comes from the code the live widget runs.

pub mod batching;
pub mod break_even;
pub mod calendar;
pub mod chart;
pub mod decode;
pub mod diagram;
pub mod distill;
pub mod eval;
pub mod fleet;
pub mod format;
#[cfg(test)]
pub mod fuzz;
pub mod gpus;
pub mod input;
pub mod kd_run;
pub mod kv_cache;
pub mod lab;
pub mod lab_run;
pub mod latency;
pub mod memory;
pub mod order;
pub mod progress;
pub mod query;
pub mod recall;
pub mod rng;
pub mod search;
pub mod stats;
pub mod storage;
pub mod workloads;
pub mod worksheet;

pub use input::{parse_number, read_f64, FormField, InputError};
