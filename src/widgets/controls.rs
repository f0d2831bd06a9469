//! The controls every widget shares, so that all cards look and behave alike.
//!
//! Every field a reader types into or chooses from is a form of its own, `<form method="dialog"
//! class="field">` in place of a plain box around its label and input. On every key, Chrome's
//! autofill reads each field of the typed-in field's form, and, for a field in no form, every
//! other formless field on the page: 5–18 ms a key on the 1.3 lesson, four times that on a
//! phone. A form of one field costs it about 1 ms. `method="dialog"` sends the form nowhere, so
//! Enter in a field never reloads the page. Forms do not nest: one never goes inside another, or
//! inside a `<dialog>` (there, submitting would close it). `tests/e2e/specs/fields.spec.js`
//! checks every widget field.

use crate::logic::chart::{LegendEntry, Stroke, Tick};
use leptos::prelude::*;

// The card and the ids are the page's conventions, which the shell's drawn diagrams share:
// defined in `services::page`, and here with the other parts every widget is made of.
pub use crate::services::page::{unique_id, WidgetCard};

/// Where the loader put a widget when it mounted it (provided by `modules::mount_into`).
#[derive(Clone, Copy, Debug, Default)]
pub struct MountPlace {
    /// Its place started above the top of the screen: the reader is below it.
    pub above_the_screen: bool,
}

/// How many items of a long list a widget draws when it mounts: `first`, then `step` more a
/// task (each on a timer of its own, so the browser paints and answers input in between) until
/// `all`, and from then on every item. A list of rich rows drawn whole in one task would hold
/// the main thread past 50 ms on a phone. The build's native render of a page draws every item
/// at once, as does a browser once the widget is gone (`try_update`: nothing to grow).
///
/// A widget whose place is above the screen draws every item in its mount: the loader scrolls
/// the page by what a mount grew, so that the reader keeps their place (`app/widget_slot.rs`),
/// and rows coming later would push the text they read down in a browser without scroll
/// anchoring (Safari).
pub fn drawn_in_steps(first: usize, step: usize, all: usize) -> RwSignal<usize> {
    let above = use_context::<MountPlace>().is_some_and(|p| p.above_the_screen);
    if !cfg!(target_arch = "wasm32") || first >= all || above {
        return RwSignal::new(usize::MAX);
    }
    let shown = RwSignal::new(first);
    fn grow(shown: RwSignal<usize>, step: usize, all: usize) {
        set_timeout(
            move || {
                let next = shown.try_update(|n| {
                    *n = n.saturating_add(step.max(1));
                    if *n >= all {
                        *n = usize::MAX;
                    }
                    *n
                });
                if next.is_some_and(|n| n < all) {
                    grow(shown, step, all);
                }
            },
            std::time::Duration::ZERO,
        );
    }
    grow(shown, step, all);
    shown
}

/// A calculator's live result. While an input is wrong, the last good result stays on screen,
/// marked stale, and each field's message is at hand. `Copy`, so views share it freely.
pub struct Calculation<T: Send + Sync + 'static> {
    /// The result of the current inputs, or every input's error.
    pub result: Memo<Result<T, Vec<crate::logic::InputError>>>,
    /// The last good result, if there has been one.
    pub shown: Memo<Option<T>>,
}

impl<T: Send + Sync + 'static> Clone for Calculation<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Send + Sync + 'static> Copy for Calculation<T> {}

impl<T: Clone + PartialEq + Send + Sync + 'static> Calculation<T> {
    /// Recomputes `compute` whenever the signals it reads change.
    pub fn new(
        compute: impl Fn() -> Result<T, Vec<crate::logic::InputError>> + Send + Sync + 'static,
    ) -> Self {
        let result = Memo::new(move |_| compute());
        let shown = Memo::new(move |prev: Option<&Option<T>>| match result.get() {
            Ok(value) => Some(value),
            Err(_) => prev.cloned().flatten(),
        });
        Calculation { result, shown }
    }

    /// True while an input is wrong and the result on screen is the last good one.
    pub fn stale(self) -> Signal<bool> {
        Signal::derive(move || self.result.with(Result::is_err))
    }

    /// The message for `field`, if it is wrong.
    pub fn error_for(self, field: impl Into<crate::logic::FormField>) -> Signal<Option<String>> {
        self.error_of(field.into())
    }

    /// [`Self::error_for`], once for every form's fields.
    fn error_of(self, field: crate::logic::FormField) -> Signal<Option<String>> {
        Signal::derive(move || {
            self.result.with(|r| {
                r.as_ref()
                    .err()
                    .and_then(|errs| errs.iter().find(|e| e.field == field))
                    .map(|e| e.message.clone())
            })
        })
    }

    /// An output's text from the last good result, or a dash before there is one.
    pub fn show(self, text: fn(&T) -> String) -> Signal<String> {
        Signal::derive(move || {
            self.shown
                .get()
                .as_ref()
                .map(text)
                .unwrap_or_else(|| "\u{2014}".into())
        })
    }
}

/// Steps a number typed as text by `delta`, keeping it at or above `min`; `None` for text that
/// is not a number, or a step past the largest one.
fn stepped(text: &str, delta: f64, min: f64) -> Option<String> {
    let value = crate::logic::read_f64(text).filter(|v| v.is_finite())?;
    let next = (value + delta).max(min);
    // Rounded to a millionth (binary noise of 0.1 steps), where that leaves it finite.
    let next = match (next * 1e6).round() / 1e6 {
        rounded if rounded.is_finite() => rounded,
        _ => next,
    };
    next.is_finite().then(|| crate::logic::format::typed(next))
}

/// The text a field shows and writes: a signal of its own, or a [`Part`] of a plain value that
/// a widget keeps whole in one signal.
pub trait FieldText: Copy + Send + Sync + 'static {
    /// The text, tracked.
    fn text(&self) -> String;
    /// The text, untracked.
    fn text_untracked(&self) -> String;
    /// Replaces the text.
    fn set_text(&self, text: String);
}

impl FieldText for RwSignal<String> {
    fn text(&self) -> String {
        self.get()
    }
    fn text_untracked(&self) -> String {
        self.get_untracked()
    }
    fn set_text(&self, text: String) {
        self.set(text);
    }
}

/// One text field of a plain value kept in one signal (the try-it worksheet's tok/s): reads and
/// writes go to the value itself, so there is no copy to fold back.
pub struct Part<T: Send + Sync + 'static> {
    /// The whole value.
    pub whole: RwSignal<T>,
    /// The field, to read.
    pub read: fn(&T) -> &String,
    /// The field, to write.
    pub write: fn(&mut T) -> &mut String,
}

impl<T: Send + Sync + 'static> Clone for Part<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for Part<T> {}

impl<T: Send + Sync + 'static> FieldText for Part<T> {
    fn text(&self) -> String {
        self.whole.with(|w| (self.read)(w).clone())
    }
    fn text_untracked(&self) -> String {
        self.whole.with_untracked(|w| (self.read)(w).clone())
    }
    fn set_text(&self, text: String) {
        self.whole.update(|w| *(self.write)(w) = text);
    }
}

/// A number field that accepts typing (any text, checked by the caller) and stepping with the
/// arrow keys. Its message, when `error` has one, sits next to it with `role="alert"`.
#[component]
pub fn NumberField<T: FieldText>(
    /// The visible label.
    label: &'static str,
    /// `data-testid` of the input (a test contract: keep it stable).
    testid: &'static str,
    /// The text as typed.
    text: T,
    /// Why the text cannot be used, if it cannot.
    #[prop(into)]
    error: Signal<Option<String>>,
    /// Unit shown after the field (e.g. "GB").
    #[prop(optional)]
    unit: &'static str,
    /// Arrow-key step.
    #[prop(default = 1.0)]
    step: f64,
    /// Smallest value stepping goes to.
    #[prop(default = 0.0)]
    min: f64,
    /// What a blank field means, shown greyed inside it (for optional fields).
    #[prop(optional)]
    placeholder: &'static str,
) -> impl IntoView {
    let id = unique_id(testid);
    let label_for = id.clone();
    let msg_id = format!("{id}-msg");
    let described_by = msg_id.clone();
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let delta = match ev.key().as_str() {
            "ArrowUp" => step,
            "ArrowDown" => -step,
            _ => return,
        };
        ev.prevent_default();
        if let Some(next) = stepped(&text.text_untracked(), delta, min) {
            text.set_text(next);
        }
    };
    view! {
        <form method="dialog" class="field" class:invalid=move || error.get().is_some()>
            <label for=label_for>{label}</label>
            <div class="field-input">
                <input
                    id=id
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    spellcheck="false"
                    placeholder=(!placeholder.is_empty()).then_some(placeholder)
                    data-testid=testid
                    aria-invalid=move || error.get().is_some().to_string()
                    aria-describedby=described_by
                    prop:value=move || text.text()
                    on:input=move |ev| text.set_text(event_target_value(&ev))
                    on:keydown=on_keydown
                />
                {(!unit.is_empty()).then(|| view! { <span class="unit">{unit}</span> })}
            </div>
            <p class="field-message" id=msg_id role="alert">
                {move || error.get()}
            </p>
        </form>
    }
}

/// A row of buttons that fill a field with a preset value.
#[component]
pub fn Presets(
    /// What the presets are for, read by screen readers.
    label: &'static str,
    /// (button text, value) pairs.
    options: Vec<(&'static str, &'static str)>,
    /// The field they fill.
    text: RwSignal<String>,
) -> impl IntoView {
    view! {
        <div class="presets" role="group" aria-label=label>
            {options
                .into_iter()
                .map(|(name, value)| {
                    view! {
                        <button
                            type="button"
                            class="chip"
                            aria-pressed=move || (text.get().trim() == value).to_string()
                            on:click=move |_| text.set(value.to_string())
                        >
                            {name}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// A menu's options: each option's value and its text.
pub struct MenuOptions(pub Vec<(&'static str, String)>);

impl From<Vec<(&'static str, String)>> for MenuOptions {
    fn from(options: Vec<(&'static str, String)>) -> Self {
        MenuOptions(options)
    }
}

impl<const N: usize> From<[(&'static str, &'static str); N]> for MenuOptions {
    fn from(options: [(&'static str, &'static str); N]) -> Self {
        MenuOptions(options.map(|(v, text)| (v, text.to_string())).into())
    }
}

/// A menu field: a label, and a `<select>` of `options` showing `value`, which calls `on_pick`
/// with the value a reader picks. Given an `error`, the message stands below the menu and the
/// field is marked invalid while there is one (a link can carry a value no option has);
/// `children` follow inside the field.
#[component]
pub fn Menu(
    /// The visible label.
    label: &'static str,
    /// `data-testid` of the `<select>`.
    testid: &'static str,
    /// Each option: its value and its text.
    #[prop(into)]
    options: MenuOptions,
    /// The chosen option's value.
    #[prop(into)]
    value: Signal<String>,
    /// What picking an option does, given its value. A callback, not a generic closure, so
    /// that every menu shares one copy of this component's code.
    #[prop(into)]
    on_pick: Callback<String>,
    /// The field's class besides `field`, if any.
    #[prop(optional)]
    class: &'static str,
    /// True while the menu cannot be used.
    #[prop(optional, into)]
    disabled: Signal<bool>,
    /// Why the chosen value cannot be used, if it cannot.
    #[prop(optional)]
    error: Option<Signal<Option<String>>>,
    /// What follows the menu inside its field (notes, a status).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let dom_id = unique_id(testid);
    let label_for = dom_id.clone();
    let msg_id = format!("{dom_id}-msg");
    let described_by = error.map(|_| msg_id.clone());
    let invalid = move || error.is_some_and(|e| e.with(Option::is_some));
    // `selected` as well as `prop:value`: the page the build draws shows the chosen option
    // too, and so does a menu whose value was set before its options were in it.
    let start = value.get_untracked();
    let options = options
        .0
        .into_iter()
        .map(|(v, text)| view! { <option value=v selected=v == start>{text}</option> })
        .collect_view();
    let field_class = if class.is_empty() {
        "field".to_string()
    } else {
        format!("field {class}")
    };
    view! {
        <form method="dialog" class=field_class class:invalid=invalid>
            <label for=label_for>{label}</label>
            <select
                id=dom_id
                data-testid=testid
                aria-invalid=move || error.map(|_| invalid().to_string())
                aria-describedby=described_by
                prop:disabled=move || disabled.get()
                prop:value=move || value.get()
                on:change=move |ev| on_pick.run(event_target_value(&ev))
            >
                {options}
            </select>
            {error.map(|e| view! { <p class="field-message" id=msg_id role="alert">{move || e.get()}</p> })}
            {children.map(|c| c())}
        </form>
    }
}

/// What the reader just saved (it was downloaded as a file too), shown read-only to copy from,
/// once there is something.
#[component]
pub fn SavedCopy(
    /// The saved text, once saved.
    text: RwSignal<Option<String>>,
    /// The field's label.
    label: &'static str,
    /// `data-testid` of the text.
    testid: &'static str,
    /// The text box's class.
    class: &'static str,
    /// Its height in lines.
    rows: u8,
) -> impl IntoView {
    move || {
        text.get().map(|text| {
            view! {
                <form method="dialog" class="field">
                    <label>{label}
                        <textarea class=class data-testid=testid readonly rows=rows prop:value=text></textarea>
                    </label>
                </form>
            }
        })
    }
}

/// One result: a label and a value whose text starts with its number. Greyed and marked when
/// `stale` (an input is invalid and this is the last good result).
#[component]
pub fn Output(
    /// What the number is.
    label: &'static str,
    /// `data-testid` of the value (a test contract).
    testid: &'static str,
    /// The value's text, starting with its number.
    #[prop(into)]
    value: Signal<String>,
    /// True while the shown value is out of date.
    #[prop(into)]
    stale: Signal<bool>,
    /// Words that carry on from the value, in smaller type, inside the same `<output>` (so
    /// its text is value then detail); the output then takes a whole row.
    #[prop(optional, into)]
    detail: Option<Signal<String>>,
) -> impl IntoView {
    view! {
        <div class="output" class:output-detailed=detail.is_some() class:stale=move || stale.get()>
            <span class="output-label">{label}</span>
            <output class="output-value" data-testid=testid aria-live="polite">
                {move || value.get()}
                {detail.map(|d| view! { <span class="output-detail">{move || d.get()}</span> })}
            </output>
        </div>
    }
}

/// The axes of a [`Chart`] with logarithmic scales (`crate::logic::chart::LogLogChart`): tick
/// labels laid over the SVG as HTML (charts carry no fonts), what each axis measures, and a
/// legend.
pub struct ChartAxes {
    /// x tick labels.
    pub x_ticks: Signal<Vec<Tick>>,
    /// y tick labels.
    pub y_ticks: Signal<Vec<Tick>>,
    /// What the x axis measures (with unit).
    pub x_label: &'static str,
    /// What the y axis measures (with unit).
    pub y_label: &'static str,
    /// The legend: a swatch in each series' colour and its meaning.
    pub legend: Vec<LegendEntry>,
}

/// A chart our code drew (see `crate::logic::chart`), with its text alternative: read by screen
/// readers, and shown on screen under the chart as a caption. With `axes`, tick labels, axis
/// names and a legend go around it.
#[component]
pub fn Chart(
    /// The themed SVG from `crate::logic::chart`.
    #[prop(into)]
    svg: Signal<String>,
    /// What the chart shows, in words (its numbers, not "a chart").
    #[prop(into)]
    description: Signal<String>,
    /// `data-testid` of the chart (a test contract).
    testid: &'static str,
    /// Ticks, axis names and legend, for a log–log chart.
    #[prop(optional)]
    axes: Option<ChartAxes>,
) -> impl IntoView {
    // SVG drawn by our own code from numbers, never from user text.
    let plot = view! {
        <div class="chart-svg-box" role="img" aria-label=move || description.get() data-testid=testid inner_html=move || svg.get()></div>
    };
    let caption =
        view! { <figcaption class="chart-caption">{move || description.get()}</figcaption> };
    let Some(axes) = axes else {
        return view! { <figure class="chart">{plot}{caption}</figure> }.into_any();
    };
    let ChartAxes {
        x_ticks,
        y_ticks,
        x_label,
        y_label,
        legend,
    } = axes;
    let swatch = |s: Stroke| match s {
        Stroke::Main => "swatch swatch-main",
        Stroke::Second => "swatch swatch-second",
        Stroke::Limit => "swatch swatch-limit",
        Stroke::Shade => "swatch swatch-shade",
    };
    view! {
        <figure class="chart axis-chart">
            <p class="axis-label axis-label-y" aria-hidden="true">{y_label}</p>
            <div class="axis-plot">
                {plot}
                <div class="ticks-y" aria-hidden="true">
                    {move || {
                        y_ticks
                            .get()
                            .into_iter()
                            .map(|t| view! { <span class="tick" style=format!("top:{:.2}%", t.at)>{t.text}</span> })
                            .collect_view()
                    }}
                </div>
            </div>
            <div class="ticks-x" aria-hidden="true">
                {move || {
                    x_ticks
                        .get()
                        .into_iter()
                        .map(|t| view! { <span class="tick" style=format!("left:{:.2}%", t.at)>{t.text}</span> })
                        .collect_view()
                }}
            </div>
            <p class="axis-label axis-label-x" aria-hidden="true">{x_label}</p>
            <ul class="legend" aria-hidden="true">
                {legend
                    .into_iter()
                    .map(|(s, text)| view! { <li><span class=swatch(s)></span>{text}</li> })
                    .collect_view()}
            </ul>
            {caption}
        </figure>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::stepped;

    #[test]
    fn arrow_steps_respect_the_minimum_and_skip_junk() {
        assert_eq!(stepped("70", 1.0, 0.0).as_deref(), Some("71"));
        assert_eq!(stepped("0.5", -1.0, 0.0).as_deref(), Some("0"));
        assert_eq!(stepped("4.85", 0.1, 0.0).as_deref(), Some("4.95"));
        assert_eq!(stepped("1200", 1.0, 0.0).as_deref(), Some("1201"));
        assert_eq!(stepped("abc", 1.0, 0.0), None);
        // Found by the readable-output tests: a step at the top wrote "∞" into the field, and
        // one below 0 a minus sign the field could not read back.
        assert_eq!(stepped("1e308", 1.0, 0.0).as_deref(), Some("1e308"));
        assert_eq!(stepped("1.7976931348623157e308", 1e308, 0.0), None);
        assert_eq!(stepped("-2", -0.5, -10.0).as_deref(), Some("-2.5"));
        assert_eq!(stepped("-0.4", 0.4, -1.0).as_deref(), Some("0"));
        assert_eq!(stepped("1e20", 1.0, 0.0).as_deref(), Some("1e20"));
    }
}
