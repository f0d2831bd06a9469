//! Live widgets placed in lessons by ` ```widget NAME ` directives.
//!
//! To add one: write `widgets/<name>.rs` with a component and a `pub fn mount(WidgetParams) ->
//! AnyView`, declare the module below, and add its line to `widgets/registry.rs`.

mod break_even;
mod calc_parts;
pub mod controls;
mod decode_ceiling;
pub mod diagrams;
mod distillation;
mod download;
mod fleet_swap;
mod latency;
mod mini_eval;
mod recall;
mod try_it;
mod url_state;
mod weight_memory;
mod workload_sort;

use crate::content::{widget_params, WidgetError, WidgetParams};
use leptos::prelude::*;

macro_rules! widgets {
    ($($name:literal => $mount:path [$($key:literal),* $(,)?]),* $(,)?) => {
        /// Registered widgets, as lessons name them, each with the parameter keys it accepts.
        pub const REGISTRY: &[(&str, &[&str])] = &[$(($name, &[$($key),*])),*];

        fn mount_by_name(name: &str, params: WidgetParams) -> Option<AnyView> {
            match name {
                $($name => Some($mount(params)),)*
                _ => None,
            }
        }
    };
}
include!("widgets/registry.rs");

/// Widget `name` with `params` as the page gives them (JSON `[["key", "value"], …]`), or, when
/// the name or the parameters are wrong, a message in its place: the page's other widgets work
/// on either way.
pub fn mount(name: &str, params: &str) -> AnyView {
    let mounted = widget_params(name, params, REGISTRY).and_then(|params| {
        mount_by_name(name, params).ok_or_else(|| WidgetError::UnknownWidget {
            widget: name.to_string(),
        })
    });
    mounted.unwrap_or_else(|e| {
        view! { <p class="widget-error" role="alert">{e.to_string()}</p> }.into_any()
    })
}
