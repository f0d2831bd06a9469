//! An interactive course on Chapter 1 of *Inference Engineering*: choosing a model.
//!
//! Pure logic (maths, content, routes, storage schema) lives in plain modules tested natively;
//! `app` and `widgets` are Leptos views that only wire signals to that logic.

pub mod app;
pub mod content;
mod exports;
pub mod figures;
pub mod logic;
pub mod nav;
pub mod services;
pub mod widgets;

pub use app::{mount, App};
