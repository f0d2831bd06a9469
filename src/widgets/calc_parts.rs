//! Pieces the sizing calculators share: a GPU preset menu, model presets and a note on whether
//! the weights fit.

use crate::logic::decode::ModelPreset;
use crate::logic::format::plain;
use crate::logic::gpus::{GpuPreset, GPU_PRESETS};
use leptos::prelude::*;

/// A number as a reader would type it back: `3350`, `4.85` (no thousands separators).
pub fn typed(value: f64) -> String {
    crate::logic::format::typed(value)
}

/// The GPU menu: picking a GPU fills `memory` (GB) and/or `bandwidth` (GB/s) with its data-sheet
/// figures. It shows "Custom" once the filled field no longer holds the preset's figure. Given a
/// `device` bandwidth (the measuring lab's, once it has run), it offers this browser too.
#[component]
pub fn GpuSelect(
    /// The visible label.
    label: &'static str,
    /// `data-testid` of the `<select>`.
    testid: &'static str,
    /// The chosen preset id, or `custom`.
    gpu: RwSignal<String>,
    /// The memory field this menu fills, if any.
    #[prop(optional)]
    memory: Option<RwSignal<String>>,
    /// The bandwidth field this menu fills, if any.
    #[prop(optional)]
    bandwidth: Option<RwSignal<String>>,
    /// The read bandwidth the measuring lab measured here, GB/s: offered as
    /// [`THIS_DEVICE`] ("this browser, one core"), which fills the bandwidth and clears the
    /// memory (unknown).
    #[prop(optional)]
    device: Option<Signal<Option<f64>>>,
) -> impl IntoView {
    let id = super::controls::unique_id(testid);
    let label_for = id.clone();
    let matches = move |g: &GpuPreset| {
        let same = |field: Option<RwSignal<String>>, want: f64| {
            field.is_none_or(|f| f.with(|t| crate::logic::read_f64(t) == Some(want)))
        };
        same(memory, g.memory_gb) && same(bandwidth, g.bandwidth_gb_s)
    };
    let measured = move || device.and_then(|d| d.get());
    let shown = move || {
        let id = gpu.get();
        match crate::logic::gpus::preset(&id) {
            Some(g) if matches(g) => id,
            None if id == THIS_DEVICE && this_device_shown(measured(), bandwidth, memory) => id,
            _ => "custom".to_string(),
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let (THIS_DEVICE, Some(bw)) = (id.as_str(), measured()) {
            if let Some(m) = memory {
                m.set(String::new());
            }
            if let Some(b) = bandwidth {
                b.set(typed(bw));
            }
        }
        if let Some(g) = crate::logic::gpus::preset(&id) {
            if let Some(m) = memory {
                m.set(typed(g.memory_gb));
            }
            if let Some(b) = bandwidth {
                b.set(typed(g.bandwidth_gb_s));
            }
        }
        gpu.set(id);
    };
    view! {
        <form method="dialog" class="field">
            <label for=label_for>{label}</label>
            <select id=id data-testid=testid prop:value=shown on:change=on_change>
                {GPU_PRESETS
                    .iter()
                    .map(|g| {
                        let text = format!("{} \u{b7} {} GB/s", g.name, plain(g.bandwidth_gb_s));
                        view! { <option value=g.id>{text}</option> }
                    })
                    .collect_view()}
                {move || measured().map(|bw| {
                    let text = format!("This browser, one core \u{b7} {} GB/s", plain(bw));
                    view! { <option value=THIS_DEVICE>{text}</option> }
                })}
                <option value="custom">"Custom (type the figures)"</option>
            </select>
        </form>
    }
}

/// The GPU menu's value for the measuring lab's device.
pub const THIS_DEVICE: &str = "this-device";

/// Whether the menu shows [`THIS_DEVICE`]: measured, and the fields still hold its figures (the
/// bandwidth measured, the memory blank).
fn this_device_shown(
    measured: Option<f64>,
    bandwidth: Option<RwSignal<String>>,
    memory: Option<RwSignal<String>>,
) -> bool {
    measured.is_some_and(|bw| {
        bandwidth.is_none_or(|b| b.with(|t| crate::logic::read_f64(t) == Some(bw)))
            && memory.is_none_or(|m| m.with(|t| t.trim().is_empty()))
    })
}

/// Whether the weights fit the GPUs, in words under a calculator's outputs: marked when they
/// do not (`overflow`), empty (and hidden) when there is nothing to say.
#[component]
pub fn FitNote(
    /// `data-testid` of the note.
    testid: &'static str,
    /// The note's text, if the calculation could be made.
    text: Signal<Option<String>>,
    /// True when the weights do not fit: the note is marked.
    overflow: Signal<bool>,
) -> impl IntoView {
    view! {
        <p class="fit-note" class:overflow=move || overflow.get() data-testid=testid aria-live="polite">
            {move || text.get()}
        </p>
    }
}

/// Buttons that fill a model's two weight fields from [`ModelPreset`]s: the weights in memory,
/// and the weights read per token for a mixture-of-experts model (left blank for a dense one,
/// which reads them all). A button shows pressed while both fields hold its figures.
#[component]
pub fn ModelPresets(
    /// What the presets are for, read by screen readers.
    label: &'static str,
    /// The models offered.
    options: &'static [ModelPreset],
    /// The field for the weights in memory, GB.
    in_memory: RwSignal<String>,
    /// The field for the weights read per token, GB (blank: all of them).
    read_per_token: RwSignal<String>,
) -> impl IntoView {
    view! {
        <div class="presets" role="group" aria-label=label>
            {options
                .iter()
                .map(|preset| {
                    let memory = typed(preset.weights.in_memory_gb);
                    let read = if preset.weights.is_mixture_of_experts() {
                        typed(preset.weights.read_per_token_gb)
                    } else {
                        String::new()
                    };
                    let (memory_now, read_now) = (memory.clone(), read.clone());
                    let pressed = move || {
                        (in_memory.with(|t| t.trim() == memory_now)
                            && read_per_token.with(|t| t.trim() == read_now))
                            .to_string()
                    };
                    view! {
                        <button
                            type="button"
                            class="chip"
                            aria-pressed=pressed
                            on:click=move |_| {
                                in_memory.set(memory.clone());
                                read_per_token.set(read.clone());
                            }
                        >
                            {preset.label}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::typed;

    #[test]
    fn typed_numbers_have_no_separators() {
        assert_eq!(typed(3350.0), "3350");
        assert_eq!(typed(4.85), "4.85");
    }
}
