//! Fleet swap: daily traffic, and what moving it from a large model to a smaller one (both
//! passing the evals) does to the GPUs that serve it, and whether those GPUs hold the weights.

use super::calc_parts::{FitNote, GpuSelect, ModelFieldNames, ModelFields};
use super::controls::{Calculation, NumberField, Output, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::decode::{LARGE_MODEL_PRESETS, SMALL_MODEL_PRESETS};
use crate::logic::fleet::{fleet_of, gpus_text, Fleet};
use crate::logic::format::fixed;
use crate::logic::{fleet, memory};
use leptos::prelude::*;

/// Mounts the widget with the directive's parameters (`requests`, `tokens`, `large-gb`,
/// `small-gb`, `gpus`).
pub fn mount(params: WidgetParams) -> AnyView {
    view! {
        <FleetSwapCalc
            requests=params.get("requests").unwrap_or("1000000")
            tokens=params.get("tokens").unwrap_or("400")
            large_gb=params.get("large-gb").unwrap_or("40")
            small_gb=params.get("small-gb").unwrap_or("5")
            gpus=params.get("gpus").unwrap_or("8")
        />
    }
    .into_any()
}

/// The large (today's) model's fields.
const LARGE: ModelFieldNames = crate::model_field_names!(
    crate::logic::decode::Model::Large,
    "Large model",
    "fleet-large-gb",
    "fleet-large-read-gb"
);
/// The small (candidate) model's fields.
const SMALL: ModelFieldNames = crate::model_field_names!(
    crate::logic::decode::Model::Small,
    "Small model",
    "fleet-small-gb",
    "fleet-small-read-gb"
);

/// Most GPU squares drawn in a row; beyond it the row says how many more.
const MAX_DRAWN: u64 = 48;

/// A row of squares, one per GPU, with its count in words for screen readers.
#[component]
fn GpuRow(
    /// What the row is.
    label: &'static str,
    /// How many GPUs.
    #[prop(into)]
    count: Signal<u64>,
    /// `data-testid` of the row.
    testid: &'static str,
) -> impl IntoView {
    view! {
        <div class="gpu-row" data-testid=testid>
            <span class="gpu-row-label">{label}</span>
            <span class="gpu-squares" role="img" aria-label=move || format!("{label}: {}", gpus_text(count.get()))>
                {move || (0..count.get().min(MAX_DRAWN)).map(|_| view! { <span class="gpu-square"></span> }).collect_view()}
                {move || (count.get() > MAX_DRAWN).then(|| view! { <span class="gpu-more">{format!("+{}", fixed((count.get() - MAX_DRAWN) as f64, 0))}</span> })}
            </span>
        </div>
    }
}

/// The calculator: traffic and two model sizes in, the fleet after the swap out.
#[component]
pub fn FleetSwapCalc(
    /// Starting requests per day.
    #[prop(into)]
    requests: String,
    /// Starting output tokens per request.
    #[prop(into)]
    tokens: String,
    /// Starting weights of the large model, GB (a dense model).
    #[prop(into)]
    large_gb: String,
    /// Starting weights of the small model, GB (a dense model).
    #[prop(into)]
    small_gb: String,
    /// Starting GPUs of the large model's fleet.
    #[prop(into)]
    gpus: String,
) -> impl IntoView {
    let requests_text = RwSignal::new(requests.to_string());
    let tokens_text = RwSignal::new(tokens.to_string());
    let large_text = RwSignal::new(large_gb.to_string());
    let large_read = RwSignal::new(String::new());
    let small_text = RwSignal::new(small_gb.to_string());
    let small_read = RwSignal::new(String::new());
    let gpus_text_in = RwSignal::new(gpus.to_string());
    let gpu_id = RwSignal::new(crate::logic::gpus::DEFAULT_PRESET_ID.to_string());
    let gpu_memory = RwSignal::new(
        crate::logic::gpus::preset(crate::logic::gpus::DEFAULT_PRESET_ID)
            .map(|g| super::calc_parts::typed(g.memory_gb))
            .unwrap_or_default(),
    );
    let calc = Calculation::new(move || {
        fleet_of(
            &requests_text.get(),
            &tokens_text.get(),
            (&large_text.get(), &large_read.get()),
            (&small_text.get(), &small_read.get()),
            &gpus_text_in.get(),
            &gpu_memory.get(),
        )
    });
    let shown = calc.shown;
    let stale = calc.stale();
    crate::services::url_state::share(
        "fs",
        vec![
            ("req", requests_text.into()),
            ("tok", tokens_text.into()),
            ("large", large_text.into()),
            ("lr", large_read.into()),
            ("small", small_text.into()),
            ("sr", small_read.into()),
            ("gpus", gpus_text_in.into()),
            ("gpu", gpu_id.into()),
            ("mem", gpu_memory.into()),
        ],
        Signal::derive(move || !stale.get()),
    );
    let field_errors = Callback::new(move |field: crate::logic::FormField| calc.error_for(field));
    let show = move |f: fn(&Fleet) -> String| calc.show(f);
    let before = Signal::derive(move || shown.get().map_or(0, |f| f.swap.large_gpus));
    let after = Signal::derive(move || shown.get().map_or(0, |f| f.swap.small_gpus));

    view! {
        <WidgetCard title="Fleet swap: the same traffic on a smaller model" name="fleet-swap">
            <div class="controls">
                <div class="control-group">
                    <NumberField label="Requests per day" testid="fleet-requests" text=requests_text error=calc.error_for(fleet::Field::RequestsPerDay) step=100000.0 />
                    <Presets label="Traffic presets" options=vec![("100K", "100000"), ("1M", "1000000"), ("10M", "10000000")] text=requests_text />
                </div>
                <NumberField label="Output tokens per request" testid="fleet-tokens" text=tokens_text error=calc.error_for(fleet::Field::OutputTokens) unit="tokens" step=50.0 />
                <ModelFields names=LARGE in_memory=large_text read_per_token=large_read error_for=field_errors presets=LARGE_MODEL_PRESETS />
                <ModelFields names=SMALL in_memory=small_text read_per_token=small_read error_for=field_errors presets=SMALL_MODEL_PRESETS />
                <div class="control-group">
                    <NumberField label="GPUs serving the large model today" testid="fleet-gpus" text=gpus_text_in error=calc.error_for(fleet::Field::Gpus) unit="GPUs" min=1.0 />
                    <GpuSelect label="GPU" testid="fleet-gpu" gpu=gpu_id memory=gpu_memory />
                    <NumberField label="Memory per GPU" testid="fleet-gpu-memory" text=gpu_memory error=calc.error_for(memory::Field::GpuMemory) unit="GB" placeholder="not set" />
                </div>
            </div>
            <div class="outputs">
                <Output label="Output tokens a day" testid="fleet-tokens-per-day" value=show(Fleet::tokens_per_day_text) stale=stale />
                <Output label="GPU time, large \u{f7} small" testid="fleet-ratio" value=show(Fleet::ratio_text) stale=stale />
                <Output label="GPUs for the same traffic" testid="fleet-small-gpus" value=show(Fleet::small_gpus_text) stale=stale />
                <Output label="Traffic on the same GPUs" testid="fleet-traffic" value=show(Fleet::traffic_text) stale=stale />
                <Output label="Average load per GPU, today \u{2192} after" testid="fleet-load-per-gpu" value=show(Fleet::load_text) stale=stale />
            </div>
            <div class="gpu-rows">
                <GpuRow label="Large model" count=before testid="fleet-before" />
                <GpuRow label="Small model" count=after testid="fleet-after" />
            </div>
            <FitNote
                testid="fleet-fit-note"
                text=Signal::derive(move || shown.with(|f| f.as_ref().map(|f| f.fit_note.clone())))
                overflow=Signal::derive(move || shown.with(|f| f.as_ref().is_some_and(|f| f.overflow)))
            />
            <div class="worked" data-testid="fleet-worked">
                {move || shown.get().map(|f| f.worked.into_iter().map(|line| view! { <p>{line}</p> }).collect_view())}
            </div>
            <p class="widget-note">
                {move || shown.get().map(|f| f.note())}
            </p>
        </WidgetCard>
    }
}
