//! Fleet swap: daily traffic, and what moving it from a large model to a smaller one (both
//! passing the evals) does to the GPUs that serve it, and whether those GPUs hold the weights.

use super::calc_parts::{
    output_rows, share_link, worked_lines, FitNote, GpuSelect, ModelFieldNames, ModelFields,
};
use super::controls::{Calculation, NumberField, Presets, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::decode::{LARGE_MODEL_PRESETS, SMALL_MODEL_PRESETS};
use crate::logic::fleet::{fleet_of, gpus_text, Fleet};
use crate::logic::format::fixed;
use crate::logic::{fleet, memory};
use crate::services::url_state::Shared;
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
    let f = FleetFields {
        requests: RwSignal::new(requests),
        tokens: RwSignal::new(tokens),
        large: RwSignal::new(large_gb),
        large_read: RwSignal::new(String::new()),
        small: RwSignal::new(small_gb),
        small_read: RwSignal::new(String::new()),
        gpus: RwSignal::new(gpus),
        gpu: RwSignal::new(crate::logic::gpus::DEFAULT_PRESET_ID.to_string()),
        gpu_memory: RwSignal::new(
            crate::logic::gpus::preset(crate::logic::gpus::DEFAULT_PRESET_ID)
                .map(|g| super::calc_parts::typed(g.memory_gb))
                .unwrap_or_default(),
        ),
    };
    let calc = Calculation::new(move || f.fleet());
    let shown = calc.shown;
    share_link("fs", f.shared(), calc.stale());
    let worked = Signal::derive(move || shown.with(|f| f.as_ref().map(|f| f.worked.clone())));

    view! {
        <WidgetCard title="Fleet swap: the same traffic on a smaller model" name="fleet-swap">
            {fleet_controls(f, calc)}
            {fleet_outputs(calc)}
            <FitNote
                testid="fleet-fit-note"
                text=Signal::derive(move || shown.with(|f| f.as_ref().map(|f| f.fit_note.clone())))
                overflow=Signal::derive(move || shown.with(|f| f.as_ref().is_some_and(|f| f.overflow)))
            />
            {worked_lines("fleet-worked", worked)}
            <p class="widget-note">
                {move || shown.get().map(|f| f.note())}
            </p>
        </WidgetCard>
    }
}

/// The fleet's inputs, as typed: requests a day, output tokens a request, each model's weights
/// in memory and read per token (GB), today's GPUs, and their preset and memory (GB).
#[derive(Clone, Copy)]
struct FleetFields {
    requests: RwSignal<String>,
    tokens: RwSignal<String>,
    large: RwSignal<String>,
    large_read: RwSignal<String>,
    small: RwSignal<String>,
    small_read: RwSignal<String>,
    gpus: RwSignal<String>,
    gpu: RwSignal<String>,
    gpu_memory: RwSignal<String>,
}

impl FleetFields {
    /// The fleet from the fields' texts.
    fn fleet(self) -> Result<Fleet, Vec<crate::logic::InputError>> {
        fleet_of(
            &self.requests.get(),
            &self.tokens.get(),
            (&self.large.get(), &self.large_read.get()),
            (&self.small.get(), &self.small_read.get()),
            &self.gpus.get(),
            &self.gpu_memory.get(),
        )
    }

    /// Every input the link carries, by its key in the address.
    fn shared(self) -> Vec<Shared> {
        vec![
            ("req", self.requests.into()),
            ("tok", self.tokens.into()),
            ("large", self.large.into()),
            ("lr", self.large_read.into()),
            ("small", self.small.into()),
            ("sr", self.small_read.into()),
            ("gpus", self.gpus.into()),
            ("gpu", self.gpu.into()),
            ("mem", self.gpu_memory.into()),
        ]
    }
}

/// The traffic, both models, and today's GPUs.
fn fleet_controls(f: FleetFields, calc: Calculation<Fleet>) -> impl IntoView {
    let field_errors = Callback::new(move |field: crate::logic::FormField| calc.error_for(field));
    view! {
        <div class="controls">
            <div class="control-group">
                <NumberField label="Requests per day" testid="fleet-requests" text=f.requests error=calc.error_for(fleet::Field::RequestsPerDay) step=100000.0 />
                <Presets label="Traffic presets" options=vec![("100K", "100000"), ("1M", "1000000"), ("10M", "10000000")] text=f.requests />
            </div>
            <NumberField label="Output tokens per request" testid="fleet-tokens" text=f.tokens error=calc.error_for(fleet::Field::OutputTokens) unit="tokens" step=50.0 />
            <ModelFields names=LARGE in_memory=f.large read_per_token=f.large_read error_for=field_errors presets=LARGE_MODEL_PRESETS />
            <ModelFields names=SMALL in_memory=f.small read_per_token=f.small_read error_for=field_errors presets=SMALL_MODEL_PRESETS />
            <div class="control-group">
                <NumberField label="GPUs serving the large model today" testid="fleet-gpus" text=f.gpus error=calc.error_for(fleet::Field::Gpus) unit="GPUs" min=1.0 />
                <GpuSelect label="GPU" testid="fleet-gpu" gpu=f.gpu memory=f.gpu_memory />
                <NumberField label="Memory per GPU" testid="fleet-gpu-memory" text=f.gpu_memory error=calc.error_for(memory::Field::GpuMemory) unit="GB" placeholder="not set" />
            </div>
        </div>
    }
}

/// The traffic in tokens, the swap's figures, and both fleets drawn.
fn fleet_outputs(calc: Calculation<Fleet>) -> impl IntoView {
    let shown = calc.shown;
    let show = move |f: fn(&Fleet) -> String| calc.show(f);
    let before = Signal::derive(move || shown.get().map_or(0, |f| f.swap.large_gpus));
    let after = Signal::derive(move || shown.get().map_or(0, |f| f.swap.small_gpus));
    view! {
        <div class="outputs">
            {output_rows(calc.stale(), [
                ("Output tokens a day", "fleet-tokens-per-day", show(Fleet::tokens_per_day_text)),
                ("GPU time, large \u{f7} small", "fleet-ratio", show(Fleet::ratio_text)),
                ("GPUs for the same traffic", "fleet-small-gpus", show(Fleet::small_gpus_text)),
                ("Traffic on the same GPUs", "fleet-traffic", show(Fleet::traffic_text)),
                ("Average load per GPU, today \u{2192} after", "fleet-load-per-gpu", show(Fleet::load_text)),
            ])}
        </div>
        // Drawn once there is a result: before it, a row would say "0 GPUs".
        <Show when=move || shown.with(Option::is_some)>
            <div class="gpu-rows">
                <GpuRow label="Large model" count=before testid="fleet-before" />
                <GpuRow label="Small model" count=after testid="fleet-after" />
            </div>
        </Show>
    }
}
