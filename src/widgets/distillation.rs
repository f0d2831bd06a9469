//! The distillation-loss playground: a teacher and two students over 2–10 tokens, their
//! hard-label and soft-target losses term by term, temperature and α, and a student that learns.
//!
//! The maths is `logic::distill` (the training run is `logic::distill::training`). Everything the
//! reader sets is one plain [`Inputs`] value in one signal (`inputs`: its edits, checks, stored
//! form and address round trip, tested natively); this file wires it to small components: the
//! token table (`table`), the losses, the softened teacher and the training panel
//! (`training`). The charts are pure functions (`logic::chart::distill`). Effects only write to
//! storage and the address.

mod table;
mod training;

use super::controls::{unique_id, Menu, NumberField, Output, Part, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::chart::distill::temperature_svg;
use crate::logic::distill::inputs::{
    entry_from_id, entry_id as entry_key, evaluate, infinity_sentence, loss_text, preset_by_id,
    shown_label, starting_inputs, Inputs, Problems, STORE_NAME, STORE_VERSION, URL_PREFIX,
};
use crate::logic::distill::{self, Comparison, Entry, Preset, PRESETS, SEED_PRESET};
use crate::logic::format::{fixed, plain};
use crate::logic::query;
use crate::services::storage::Persist;
use crate::services::url_state;
use leptos::prelude::*;
use table::TokenTable;
use training::{Training, TrainingPanel};

/// Mounts the playground with the directive's parameter `preset` (`eiffel` or `wrong-teacher`).
pub fn mount(params: WidgetParams) -> AnyView {
    let id = params.get("preset").unwrap_or(SEED_PRESET.id);
    let preset = preset_by_id(id).unwrap_or(&SEED_PRESET);
    view! { <Distillation preset=preset /> }.into_any()
}

/// Whether the page's query (`location.search`) asks for the benchmark's frame timings: a
/// `bench` key, with or without a value (`?bench`, `?bench=1`).
fn bench_requested(search: &str) -> bool {
    search
        .trim_start_matches('?')
        .split('&')
        .any(|part| query::decode(part.split_once('=').map_or(part, |(k, _)| k)) == "bench")
}

/// The playground: a teacher and two students, their losses, temperature, and training.
#[component]
pub fn Distillation(
    /// The example the lesson starts it from.
    preset: &'static Preset,
) -> impl IntoView {
    let persist = Persist::from_context();
    let lesson = Inputs::lesson(preset);
    let search = url_state::current_search();
    let (start, start_problems) = starting_point(persist, preset, &search);

    // Everything the reader sets, in one value; every field reads and writes it.
    let inputs = RwSignal::new(start.clone());
    let training = Training::new(bench_requested(&search));

    let result = Memo::new(move |_| {
        inputs.with(|i| evaluate(&i.rows, i.entry, i.hard_pick, &i.temperature, &i.alpha))
    });
    // The last good comparison stays on screen, marked stale, while an input is wrong.
    let shown = Memo::new(
        move |prev: Option<&Option<Comparison>>| match result.get() {
            Ok(c) => Some(c),
            Err(_) => prev.cloned().flatten(),
        },
    );
    let stale = Signal::derive(move || result.with(Result::is_err));
    let problems =
        Signal::derive(move || result.with(|r| r.as_ref().err().cloned().unwrap_or_default()));

    let current = kept_outside(persist, preset, inputs, lesson.clone());
    let dismissed = RwSignal::new(false);
    let reset = move |_| {
        inputs.set(lesson.clone());
        training.clear();
        dismissed.set(true);
        persist.clear(STORE_NAME);
    };

    view! {
        <WidgetCard title="Distillation loss playground" name="distillation">
            {restore_note(current, dismissed, start, start_problems)}
            {examples(inputs, reset)}
            <p class="distill-context">
                "Next token after \u{201c}" {move || inputs.with(|i| i.preset().context)} " \u{2026}\u{201d}"
            </p>
            <Settings inputs=inputs problems=problems />
            <TokenTable inputs=inputs shown=shown problems=problems stale=stale />
            <LossReadout result=result shown=shown stale=stale inputs=inputs />
            <SoftenedTeacher shown=shown inputs=inputs />
            <TrainingPanel training=training inputs=inputs result=result />
        </WidgetCard>
    }
}

/// Where the playground starts (the address, else storage, else the lesson's example, trimmed),
/// and why it does not show what a link or storage held, if it does not.
fn starting_point(
    persist: Persist,
    preset: &'static Preset,
    search: &str,
) -> (Inputs, Vec<String>) {
    // Storage is read even when the address wins, so that a stored value this build cannot use
    // is backed up now, before a later save replaces it.
    let (saved, saved_problem) =
        persist.load_reporting::<Inputs>(STORE_NAME, STORE_VERSION, |_, _| None);
    let address = Inputs::from_query(search, preset);
    let (start, address_problem) = starting_inputs(preset, address, saved);
    let problems = [address_problem, saved_problem]
        .into_iter()
        .flatten()
        .collect();
    (start.trimmed(), problems)
}

/// Keeps what the reader has set in storage and in the address, and gives it back as it is
/// kept there (trimmed).
fn kept_outside(
    persist: Persist,
    preset: &'static Preset,
    inputs: RwSignal<Inputs>,
    lesson: Inputs,
) -> Memo<Inputs> {
    // What the reader has set, as it is saved and put in the address.
    let current = Memo::new(move |_| inputs.get().trimmed());
    let usable = Memo::new(move |_| current.with(|c| c.check().is_ok()));
    // Storage is the outside world: it follows every change that can be used. The state the
    // playground started from is not saved, so opening a shared link leaves this reader's own
    // saved playground as it was until they edit; and the lesson's example is not stored at
    // all, since there is nothing to restore.
    let started = StoredValue::new(false);
    Effect::new(move |_| {
        let ok = usable.get();
        current.with(|c| {
            if !started.get_value() {
                started.set_value(true);
            } else if ok && *c == lesson {
                persist.clear(STORE_NAME);
            } else if ok {
                persist.save(STORE_NAME, STORE_VERSION, c);
            }
        })
    });
    url_state::keep_in_address(
        URL_PREFIX,
        Signal::derive(move || usable.get().then(|| current.with(|c| c.to_query(preset)))),
    );
    current
}

/// Why the playground does not show what a link or storage held: shown until the reader
/// changes something or resets (`dismissed`).
fn restore_note(
    current: Memo<Inputs>,
    dismissed: RwSignal<bool>,
    start: Inputs,
    problems: Vec<String>,
) -> impl IntoView {
    move || {
        let untouched = !dismissed.get() && current.with(|c| *c == start);
        (untouched && !problems.is_empty()).then(|| {
            view! {
                <div class="distill-restore" role="status" data-testid="distill-restore-message">
                    {problems.iter().map(|p| view! { <p>{p.clone()}</p> }).collect_view()}
                </div>
            }
        })
    }
}

/// The examples to start from, and the button back to the lesson's.
fn examples(
    inputs: RwSignal<Inputs>,
    reset: impl Fn(web_sys::MouseEvent) + 'static,
) -> impl IntoView {
    view! {
        <div class="distill-top">
            <div class="presets" role="group" aria-label="Examples">
                {PRESETS
                    .iter()
                    .map(|p| {
                        view! {
                            <button
                                type="button"
                                class="chip"
                                data-testid=format!("distill-preset-{}", p.id)
                                aria-pressed=move || inputs.with(|i| i.preset == p.id).to_string()
                                on:click=move |_| inputs.update(|i| i.apply_example(p))
                            >
                                {p.name}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <button type="button" data-testid="distill-reset" on:click=reset>
                "Reset to the lesson\u{2019}s example"
            </button>
        </div>
    }
}

/// A text field of the playground's inputs, for [`NumberField`].
fn field(
    inputs: RwSignal<Inputs>,
    read: fn(&Inputs) -> &String,
    write: fn(&mut Inputs) -> &mut String,
) -> Part<Inputs> {
    Part {
        whole: inputs,
        read,
        write,
    }
}

/// How values are typed, the hard label, the temperature and α.
#[component]
fn Settings(
    /// The playground's inputs.
    inputs: RwSignal<Inputs>,
    /// What is wrong with the inputs.
    problems: Signal<Problems>,
) -> impl IntoView {
    let t_error = Signal::derive(move || problems.with(|p| p.temperature.clone()));
    let a_error = Signal::derive(move || problems.with(|p| p.alpha.clone()));
    let hard_id = unique_id("distill-hard");
    view! {
        <div class="controls">
            <Menu
                label="Enter values as"
                testid="distill-entry"
                options=[("weights", "Weights (normalized)"), ("logits", "Logits (softmax)")]
                value=Signal::derive(move || inputs.with(|i| entry_key(i.entry).to_string()))
                on_pick=move |v: String| inputs.update(|i| i.set_entry(entry_from_id(&v).unwrap_or(Entry::Weights)))
            />
            <form method="dialog" class="field">
                <label for=hard_id.clone()>"Hard label (the right token)"</label>
                <select
                    id=hard_id
                    data-testid="distill-hard-target"
                    prop:value=move || inputs.with(|i| i.hard_pick.map(|k| k.to_string()).unwrap_or_else(|| "auto".into()))
                    on:change=move |ev| {
                        let pick = event_target_value(&ev).parse().ok();
                        inputs.update(|i| i.hard_pick = pick);
                    }
                >
                    <option value="auto">"The teacher\u{2019}s top token"</option>
                    {move || {
                        inputs.with(|x| {
                            (0..x.rows.len())
                                .map(|i| {
                                    let label = format!("{i} \u{b7} {}", shown_label(&x.rows, i));
                                    view! { <option value=i.to_string() selected=x.hard_pick == Some(i)>{label}</option> }
                                })
                                .collect_view()
                        })
                    }}
                </select>
            </form>
            <NumberField label="Temperature T" testid="distill-temperature" text=field(inputs, |i| &i.temperature, |i| &mut i.temperature) error=t_error step=0.5 min=0.1 />
            <NumberField label="\u{3b1} (weight of the hard loss)" testid="distill-alpha" text=field(inputs, |i| &i.alpha, |i| &mut i.alpha) error=a_error step=0.1 />
        </div>
    }
}

/// The losses of both students, why any is infinite, each sum term by term, and what KL means.
#[component]
fn LossReadout(
    /// The comparison of the current inputs, or what is wrong with them.
    result: Memo<Result<Comparison, Problems>>,
    /// The last good comparison.
    shown: Memo<Option<Comparison>>,
    /// True while an input is wrong and the numbers shown are the last good ones.
    stale: Signal<bool>,
    /// The playground's inputs (the tokens' labels).
    inputs: RwSignal<Inputs>,
) -> impl IntoView {
    view! {
        {loss_outputs(shown, stale)}
        {infinity_notes(result, inputs)}
        <div class="distill-worked">
            <p class="worked" data-testid="distill-worked-hard-a">"Hard, A: " {worked(shown, 0, false)}</p>
            <p class="worked" data-testid="distill-worked-hard-b">"Hard, B: " {worked(shown, 1, false)}</p>
            <p class="worked" data-testid="distill-worked-soft-a">"Soft, A: " {worked(shown, 0, true)}</p>
            <p class="worked" data-testid="distill-worked-soft-b">"Soft, B: " {worked(shown, 1, true)}</p>
        </div>
        <p class="widget-note" data-testid="distill-kl-note">{move || shown.with(|c| c.as_ref().map(kl_sentence))}</p>
    }
}

/// Student `k`'s loss `f` as shown, from a comparison.
fn student_loss(c: &Comparison, k: usize, f: fn(&distill::StudentLosses) -> f64) -> String {
    c.students.get(k).map(f).map(loss_text).unwrap_or_default()
}

/// The nine numbers: each student's hard-label, soft-target, KL and α-mixed losses, and the
/// teacher's entropy.
fn loss_outputs(shown: Memo<Option<Comparison>>, stale: Signal<bool>) -> impl IntoView {
    let show = move |f: fn(&Comparison) -> String| {
        Signal::derive(move || {
            shown.with(|c| c.as_ref().map(f).unwrap_or_else(|| "\u{2014}".into()))
        })
    };
    view! {
        <div class="outputs distill-outputs">
            <Output label="Hard-label loss, A" testid="loss-hard-a" value=show(|c| student_loss(c, 0, |s| s.hard.value)) stale=stale />
            <Output label="Hard-label loss, B" testid="loss-hard-b" value=show(|c| student_loss(c, 1, |s| s.hard.value)) stale=stale />
            <Output label="Soft-target loss, A" testid="loss-soft-a" value=show(|c| student_loss(c, 0, |s| s.soft.value)) stale=stale />
            <Output label="Soft-target loss, B" testid="loss-soft-b" value=show(|c| student_loss(c, 1, |s| s.soft.value)) stale=stale />
            <Output label="KL, A" testid="kl-a" value=show(|c| student_loss(c, 0, |s| s.kl)) stale=stale />
            <Output label="KL, B" testid="kl-b" value=show(|c| student_loss(c, 1, |s| s.kl)) stale=stale />
            <Output label="\u{3b1} mix, A" testid="loss-mix-a" value=show(|c| student_loss(c, 0, |s| s.mixed)) stale=stale />
            <Output label="\u{3b1} mix, B" testid="loss-mix-b" value=show(|c| student_loss(c, 1, |s| s.mixed)) stale=stale />
            <Output label="Teacher entropy" testid="teacher-entropy" value=show(|c| format!("{} nats", fixed(c.entropy, 3))) stale=stale />
        </div>
    }
}

/// Why a loss of the current inputs is infinite, a sentence for each; nothing when none is.
fn infinity_notes(
    result: Memo<Result<Comparison, Problems>>,
    inputs: RwSignal<Inputs>,
) -> impl IntoView {
    move || {
        let c = result.get().ok()?;
        let notes: Vec<String> = inputs.with(|x| {
            let r = &x.rows;
            ["Student A", "Student B"]
                .iter()
                .zip(&c.students)
                .flat_map(|(name, s)| {
                    [
                        infinity_sentence(r, name, "hard-label", &s.hard),
                        infinity_sentence(r, name, "soft-target", &s.soft),
                    ]
                })
                .flatten()
                .collect()
        });
        (!notes.is_empty()).then(|| {
            view! {
                <div class="distill-infinity" data-testid="distill-infinity-note">
                    {notes.into_iter().map(|s| view! { <p>{s}</p> }).collect_view()}
                </div>
            }
        })
    }
}

/// Student `student`'s hard-label loss (with `soft`, its soft-target loss) written out term by
/// term, from the last good comparison.
fn worked(
    shown: Memo<Option<Comparison>>,
    student: usize,
    soft: bool,
) -> impl Fn() -> Vec<AnyView> {
    move || {
        shown.with(|c| {
            let Some(c) = c else { return Vec::new() };
            let Some(s) = c.students.get(student) else {
                return Vec::new();
            };
            worked_sum(if soft { &s.soft } else { &s.hard })
        })
    }
}

/// A loss as its sum: the scale (when there is one), each term with the largest marked, and
/// the total.
fn worked_sum(sum: &distill::LossSum) -> Vec<AnyView> {
    let texts = sum.term_texts();
    let mut out = Vec::new();
    if sum.scale != 1.0 {
        out.push(view! { <span>{format!("{} \u{d7} (", plain(sum.scale))}</span> }.into_any());
    }
    for (k, (i, text)) in texts.iter().enumerate() {
        if k > 0 {
            out.push(view! { <span>" + "</span> }.into_any());
        }
        let text = text.clone();
        if sum.largest == Some(*i) && texts.len() > 1 {
            out.push(
                view! { <mark class="distill-largest" title="The largest term">{text}</mark> }
                    .into_any(),
            );
        } else {
            out.push(view! { <span>{text}</span> }.into_any());
        }
    }
    let tail = if sum.scale != 1.0 {
        format!(
            ") = {} \u{d7} {} = {}",
            plain(sum.scale),
            fixed(sum.unscaled(), 3),
            loss_text(sum.value)
        )
    } else {
        format!(" = {}", loss_text(sum.value))
    };
    out.push(view! { <span>{tail}</span> }.into_any());
    out
}

/// What KL means at the comparison's temperature: the part of the soft loss above the floor a
/// perfect copy of the teacher would still score.
fn kl_sentence(c: &Comparison) -> String {
    let h = fixed(c.entropy, 3);
    if c.temperature == 1.0 {
        format!(
            "Soft loss = teacher entropy + KL: even a student that copied the teacher exactly \
             would score the entropy, {h}, so neither loss is near zero, and only KL, the part \
             above that floor, tells the students apart."
        )
    } else {
        format!(
            "At T = {}, soft loss = T\u{b2} \u{d7} (entropy of the softened teacher + KL): a \
             perfect copy would still score T\u{b2} \u{d7} {h}, so only KL, the part above that \
             floor, tells the students apart.",
            plain(c.temperature)
        )
    }
}

/// What T does to the teacher: its distribution at T = 1 next to the softened one.
#[component]
fn SoftenedTeacher(
    /// The last good comparison.
    shown: Memo<Option<Comparison>>,
    /// The playground's inputs (the tokens' labels).
    inputs: RwSignal<Inputs>,
) -> impl IntoView {
    let svg = Signal::derive(move || {
        shown.with(|c| {
            c.as_ref()
                .map(|c| temperature_svg(&c.teacher.at_1, &c.teacher.at_t))
                .unwrap_or_default()
        })
    });
    let description = Signal::derive(move || {
        shown.with(|c| {
            let Some(c) = c else { return String::new() };
            let list = |p: &[f64]| {
                inputs.with(|x| {
                    p.iter()
                        .enumerate()
                        .map(|(i, v)| format!("{} {}", shown_label(&x.rows, i), fixed(*v, 2)))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
            };
            format!(
                "Teacher at T = 1: {}. Softened at T = {}: {}.",
                list(&c.teacher.at_1),
                plain(c.temperature),
                list(&c.teacher.at_t)
            )
        })
    });
    let t_label = move || {
        shown.with(|c| {
            c.as_ref()
                .map(|c| format!("T = {}", plain(c.temperature)))
                .unwrap_or_default()
        })
    };
    let n = move || inputs.with(|x| x.rows.len());
    view! {
        <h4 class="distill-subhead">"What T does to the teacher"</h4>
        <div class="distill-legend" aria-hidden="true">
            <span><i class="swatch swatch-muted"></i>"T = 1"</span>
            <span><i class="swatch swatch-accent"></i>{t_label}</span>
        </div>
        // Like the shared Chart, with the token labels between the bars and the caption.
        <figure class="chart">
            // SVG drawn by our own code from numbers, never from user text.
            <div class="chart-svg-box" role="img" aria-label=move || description.get() data-testid="distill-temperature-chart" inner_html=move || svg.get()></div>
            <div class="distill-axis" aria-hidden="true" style=move || format!("grid-template-columns: repeat({}, 1fr)", n())>
                {move || inputs.with(|x| (0..x.rows.len()).map(|i| view! { <span>{shown_label(&x.rows, i)}</span> }).collect_view())}
            </div>
            <figcaption class="chart-caption">{move || description.get()}</figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_timings_are_asked_for_by_a_bench_key_only() {
        for search in [
            "?bench",
            "?bench=1",
            "?dl.t=2&bench",
            "?a=1&bench&dl.t=2",
            "bench",
        ] {
            assert!(bench_requested(search), "{search}");
        }
        for search in ["", "?", "?dl.t=2", "?benchmark", "?dl.bench=1", "?x=bench"] {
            assert!(!bench_requested(search), "{search}");
        }
    }
}
