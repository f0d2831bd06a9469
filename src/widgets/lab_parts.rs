//! What the two labs' cards share (the decode lab and the distillation experiment): the
//! Start and Stop buttons, the progress line and bar, and the table of results.

use leptos::prelude::*;

/// Start (or "Start again", once a run has begun) and Stop, each usable only when it can act.
#[component]
pub fn RunButtons(
    /// The lab's test-hook prefix: `lm` or `kd` (`lm-start`, `lm-stop`).
    prefix: &'static str,
    /// True before the first run.
    #[prop(into)]
    idle: Signal<bool>,
    /// True while a run is under way.
    #[prop(into)]
    running: Signal<bool>,
    /// Starts a run.
    on_start: impl Fn() + 'static,
    /// Stops the run.
    on_stop: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <div class="lab-buttons">
            <button type="button" class="button primary" data-testid=format!("{prefix}-start") prop:disabled=move || running.get() on:click=move |_| on_start()>
                {move || if idle.get() { "Start" } else { "Start again" }}
            </button>
            <button type="button" class="button" data-testid=format!("{prefix}-stop") prop:disabled=move || !running.get() on:click=move |_| on_stop()>"Stop"</button>
        </div>
    }
}

/// The progress line (its text starts with what is being done) and bar, greyed while no run
/// is under way.
#[component]
pub fn RunProgress(
    /// `data-testid` of the line.
    testid: &'static str,
    /// What is being done.
    #[prop(into)]
    text: Signal<String>,
    /// How far the run is, 0 to 1.
    #[prop(into)]
    fraction: Signal<f64>,
    /// True while a run is under way.
    #[prop(into)]
    running: Signal<bool>,
) -> impl IntoView {
    view! {
        <div class="lab-progress" class:lab-idle=move || !running.get()>
            <p data-testid=testid aria-live="polite">{move || text.get()}</p>
            <progress max="1" prop:value=move || fraction.get()></progress>
        </div>
    }
}

/// A wide table of results in a box that scrolls sideways on a narrow screen: a caption for
/// screen readers (hidden on screen: the card says it), the column headings, and the body
/// (`children`: one `<tbody>` or several).
#[component]
pub fn ResultTable(
    /// The table's classes (`lab-table`, and any more).
    class: &'static str,
    /// What the table holds.
    caption: &'static str,
    /// The column headings.
    columns: &'static [&'static str],
    /// The body.
    children: Children,
) -> impl IntoView {
    view! {
        <div class="lab-table-wrap">
            <table class=class>
                <caption>{caption}</caption>
                <thead>
                    <tr>{columns.iter().map(|c| view! { <th scope="col">{*c}</th> }).collect_view()}</tr>
                </thead>
                {children()}
            </table>
        </div>
    }
}
