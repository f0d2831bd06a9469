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

use crate::content::{WidgetParams, WidgetUse};
use leptos::prelude::*;

macro_rules! widgets {
    ($($name:literal => $mount:path [$($key:literal),* $(,)?]),* $(,)?) => {
        /// Registered widget names, as lessons write them.
        pub const NAMES: &[&str] = &[$($name),*];

        fn mount_by_name(name: &str, params: WidgetParams) -> Option<AnyView> {
            match name {
                $($name => Some($mount(params)),)*
                _ => None,
            }
        }
    };
}
include!("widgets/registry.rs");

/// The widget a lesson placed, in its card.
pub fn render(widget: &'static WidgetUse) -> AnyView {
    // The build rejects unknown names, so the fallback only shows if that check is bypassed.
    mount_by_name(widget.name, widget.params).unwrap_or_else(|| {
        view! { <p class="widget-missing">{format!("Missing widget \u{201c}{}\u{201d}.", widget.name)}</p> }
            .into_any()
    })
}
