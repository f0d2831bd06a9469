//! Live widgets placed in lessons by ` ```widget NAME ` directives.
//!
//! To add one: write `widgets/<name>.rs` with a component and a `pub fn mount(WidgetParams) ->
//! AnyView`, declare the module below, and add its line to `widgets/registry.rs`.

mod break_even;
mod calc_parts;
pub mod controls;
mod decode_ceiling;
mod decode_lab;
mod distill_lab;
mod distillation;
mod fleet_swap;
mod lab_parts;
mod lab_result;
mod lab_worker;
mod latency;
mod mini_eval;
pub mod modules;
mod recall;
mod try_it;
mod weight_memory;
mod workload_sort;

use crate::content::{widget_params, WidgetError, WidgetParams};
use leptos::prelude::*;

macro_rules! widgets {
    ($($id:ident $name:literal => $mount:path [$($key:literal),* $(,)?]),* $(,)?) => {
        $(
            #[doc = concat!("The `", $name, "` widget.")]
            pub const $id: Widget = Widget { name: $name, keys: &[$($key),*], mount: $mount };
        )*

        /// Every registered widget.
        pub const ALL: &[Widget] = &[$($id),*];

        /// Registered widgets, as lessons name them, each with the parameter keys it accepts.
        pub const REGISTRY: &[(&str, &[&str])] = &[$(($name, &[$($key),*])),*];
    };
}
macro_rules! drawn {
    ($($name:literal),* $(,)?) => {
        /// The widgets the build draws into the page (`app::diagrams`): their markup travels with
        /// the lesson's text (`content::Block::Drawn`), and no widgets module carries them.
        pub const DRAWN: &[&str] = &[$($name),*];
    };
}
include!("widgets/registry.rs");

/// A widget: its directive name, the parameter keys it accepts, and how to mount it. A module
/// links the code of the widgets it lists and no other (see [`modules`]).
#[derive(Clone, Copy)]
pub struct Widget {
    /// The name lessons give it (` ```widget NAME `).
    pub name: &'static str,
    /// The parameter keys it accepts.
    pub keys: &'static [&'static str],
    mount: fn(WidgetParams) -> AnyView,
}

/// Widget `name` with `params` as the page gives them (JSON `[["key", "value"], …]`), mounted
/// from `widgets` (the module's own list), or, when the name or the parameters are wrong, a
/// message in its place: the page's other widgets work on either way.
pub fn mount(widgets: &[Widget], name: &str, params: &str) -> AnyView {
    let mounted =
        widget_params(name, params, REGISTRY).and_then(|params| {
            let widget = widgets.iter().find(|w| w.name == name).ok_or_else(|| {
                WidgetError::NotInModule {
                    widget: name.to_string(),
                }
            })?;
            Ok((widget.mount)(params))
        });
    mounted.unwrap_or_else(|e| {
        view! { <p class="widget-error" role="alert">{e.to_string()}</p> }.into_any()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Block, LESSONS};

    #[test]
    fn every_lesson_directive_reads_back_through_the_registry() {
        let registry = REGISTRY;
        let mut seen = 0;
        for block in LESSONS.iter().flat_map(|l| l.blocks) {
            if let Block::Widget(w) = block {
                let pairs: Vec<(String, String)> = serde_json::from_str(w.params).unwrap();
                let params = widget_params(w.name, w.params, registry).unwrap();
                for (k, v) in &pairs {
                    assert_eq!(params.get(k), Some(v.as_str()), "{} {k}", w.name);
                }
                seen += 1;
            }
        }
        assert!(seen >= 8, "the lessons place widgets");
    }
}
