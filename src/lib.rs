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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    /// The registry's drawn widgets (what lessons may place, `widgets::DRAWN`) are exactly the
    /// diagrams the shell's pages draw (`app::diagrams`): the two layers meet only here.
    #[test]
    fn every_drawn_widget_is_a_diagram_and_every_diagram_is_registered() {
        let drawn: Vec<&str> = crate::widgets::DRAWN.to_vec();
        let diagrams: Vec<&str> = crate::app::diagrams::data::names().collect();
        assert_eq!(drawn.len(), diagrams.len());
        for name in drawn {
            assert!(diagrams.contains(&name), "{name}");
        }
    }
}
