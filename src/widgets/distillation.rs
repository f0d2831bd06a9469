//! The distillation-loss playground: a teacher and two students over 2–10 tokens, their
//! hard-label and soft-target losses term by term, temperature and α, and a student that learns.
//!
//! The maths is `logic::distill` (the training run is `logic::distill::training`). Everything the
//! reader sets is one plain [`Inputs`] value in one signal (`inputs`: its edits, checks, stored
//! form and address round trip, tested natively); this file wires it to small components: the
//! token table, the losses, the softened teacher and the training panel (`training`). The
//! charts are pure functions (`logic::chart::distill`). Effects only write to storage and the
//! address.

mod training;

use super::controls::{drawn_in_steps, unique_id, Menu, NumberField, Output, Part, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::chart::distill::temperature_svg;
use crate::logic::distill::inputs::{
    dist, entry_from_id, entry_id as entry_key, evaluate, infinity_sentence, loss_text,
    preset_by_id, shown_label, starting_inputs, Inputs, Problems, DISTS, STORE_NAME, STORE_VERSION,
    URL_PREFIX,
};
use crate::logic::distill::{
    self, Comparison, Entry, Preset, MAX_TOKENS, MIN_TOKENS, PRESETS, SEED_PRESET,
};
use crate::logic::format::{fixed, plain};
use crate::logic::query;
use crate::logic::read_f64;
use crate::services::storage::Persist;
use crate::services::url_state;
use leptos::prelude::*;
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
    // Storage is read even when the address wins, so that a stored value this build cannot use
    // is backed up now, before a later save replaces it.
    let (saved, saved_problem) =
        persist.load_reporting::<Inputs>(STORE_NAME, STORE_VERSION, |_, _| None);
    let address = Inputs::from_query(&search, preset);
    let (start, address_problem) = starting_inputs(preset, address, saved);
    let start = start.trimmed();
    let start_problems: Vec<String> = [address_problem, saved_problem]
        .into_iter()
        .flatten()
        .collect();

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

    // What the reader has set, as it is saved and put in the address.
    let current = Memo::new(move |_| inputs.get().trimmed());
    let usable = Memo::new(move |_| current.with(|c| c.check().is_ok()));
    // Storage is the outside world: it follows every change that can be used. The state the
    // playground started from is not saved, so opening a shared link leaves this reader's own
    // saved playground as it was until they edit; and the lesson's example is not stored at
    // all, since there is nothing to restore.
    let started = StoredValue::new(false);
    let lesson_example = lesson.clone();
    Effect::new(move |_| {
        let ok = usable.get();
        current.with(|c| {
            if !started.get_value() {
                started.set_value(true);
            } else if ok && *c == lesson_example {
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

    // Why the playground does not show what a link or storage held: shown until the reader
    // changes something or resets.
    let dismissed = RwSignal::new(false);
    let start_note = move || {
        let untouched = !dismissed.get() && current.with(|c| *c == start);
        (untouched && !start_problems.is_empty()).then(|| {
            view! {
                <div class="distill-restore" role="status" data-testid="distill-restore-message">
                    {start_problems.iter().map(|p| view! { <p>{p.clone()}</p> }).collect_view()}
                </div>
            }
        })
    };
    let reset = move |_| {
        inputs.set(lesson.clone());
        training.clear();
        dismissed.set(true);
        persist.clear(STORE_NAME);
    };

    view! {
        <WidgetCard title="Distillation loss playground" name="distillation">
            {start_note}
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
                on_pick=move |v| inputs.update(|i| i.set_entry(entry_from_id(&v).unwrap_or(Entry::Weights)))
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

/// The tokens and their three distributions, as typed, with the buttons that add and remove
/// tokens.
#[component]
fn TokenTable(
    /// The playground's inputs.
    inputs: RwSignal<Inputs>,
    /// The last good comparison (for the normalized probabilities).
    shown: Memo<Option<Comparison>>,
    /// What is wrong with the inputs.
    problems: Signal<Problems>,
    /// True while an input is wrong and the numbers shown are the last good ones.
    stale: Signal<bool>,
) -> impl IntoView {
    let n = Memo::new(move |_| inputs.with(|i| i.rows.len()));
    // A token's row is seven fields: the table comes a few rows a task, so that the widget's
    // mount stays short on a phone (`drawn_in_steps`).
    let rows_drawn = drawn_in_steps(2, 2, MAX_TOKENS);
    view! {
        <div class="distill-table-wrap">
            <table class="distill-table" class:stale=move || stale.get()>
                <thead>
                    <tr>
                        <th scope="col">"Token"</th>
                        {DISTS.iter().map(|(_, name)| view! { <th scope="col">{*name}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    <For each=move || 0..n.get().min(rows_drawn.get()) key=|i| *i let:i>
                        <TokenRow i=i inputs=inputs shown=shown problems=problems />
                    </For>
                </tbody>
            </table>
        </div>
        {move || {
            problems.with(|p| {
                p.columns
                    .iter()
                    .map(|(d, msg)| view! { <p class="field-message" role="alert">{format!("{}: {msg}", dist(*d).1)}</p> })
                    .collect_view()
            })
        }}
        <div class="distill-row-actions">
            <button type="button" data-testid="distill-add-token" on:click=move |_| inputs.update(Inputs::add_token) disabled=move || { n.get() >= MAX_TOKENS }>
                "Add a token"
            </button>
            <span class="widget-note">{move || format!("{} tokens (2\u{2013}10). \u{201c}= \u{2026}\u{201d} is the normalized probability.", n.get())}</span>
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
    let show = move |f: fn(&Comparison) -> String| {
        Signal::derive(move || {
            shown.with(|c| c.as_ref().map(f).unwrap_or_else(|| "\u{2014}".into()))
        })
    };
    // Student `k`'s losses, from the last good comparison.
    fn of(c: &Comparison, k: usize, f: fn(&distill::StudentLosses) -> f64) -> String {
        c.students.get(k).map(f).map(loss_text).unwrap_or_default()
    }
    let worked = move |student: usize, soft: bool| {
        move || {
            shown.with(|c| {
                let Some(c) = c else { return Vec::new() };
                let Some(s) = c.students.get(student) else { return Vec::new() };
                let sum = if soft { &s.soft } else { &s.hard };
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
                        out.push(view! { <mark class="distill-largest" title="The largest term">{text}</mark> }.into_any());
                    } else {
                        out.push(view! { <span>{text}</span> }.into_any());
                    }
                }
                let tail = if sum.scale != 1.0 {
                    format!(") = {} \u{d7} {} = {}", plain(sum.scale), fixed(sum.unscaled(), 3), loss_text(sum.value))
                } else {
                    format!(" = {}", loss_text(sum.value))
                };
                out.push(view! { <span>{tail}</span> }.into_any());
                out
            })
        }
    };

    let infinity_notes = move || {
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
    };

    let kl_sentence = move || {
        shown.with(|c| {
            let c = c.as_ref()?;
            let h = fixed(c.entropy, 3);
            Some(if c.temperature == 1.0 {
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
            })
        })
    };

    view! {
        <div class="outputs distill-outputs">
            <Output label="Hard-label loss, A" testid="loss-hard-a" value=show(|c| of(c, 0, |s| s.hard.value)) stale=stale />
            <Output label="Hard-label loss, B" testid="loss-hard-b" value=show(|c| of(c, 1, |s| s.hard.value)) stale=stale />
            <Output label="Soft-target loss, A" testid="loss-soft-a" value=show(|c| of(c, 0, |s| s.soft.value)) stale=stale />
            <Output label="Soft-target loss, B" testid="loss-soft-b" value=show(|c| of(c, 1, |s| s.soft.value)) stale=stale />
            <Output label="KL, A" testid="kl-a" value=show(|c| of(c, 0, |s| s.kl)) stale=stale />
            <Output label="KL, B" testid="kl-b" value=show(|c| of(c, 1, |s| s.kl)) stale=stale />
            <Output label="\u{3b1} mix, A" testid="loss-mix-a" value=show(|c| of(c, 0, |s| s.mixed)) stale=stale />
            <Output label="\u{3b1} mix, B" testid="loss-mix-b" value=show(|c| of(c, 1, |s| s.mixed)) stale=stale />
            <Output label="Teacher entropy" testid="teacher-entropy" value=show(|c| format!("{} nats", fixed(c.entropy, 3))) stale=stale />
        </div>
        {infinity_notes}
        <div class="distill-worked">
            <p class="worked" data-testid="distill-worked-hard-a">"Hard, A: " {worked(0, false)}</p>
            <p class="worked" data-testid="distill-worked-hard-b">"Hard, B: " {worked(1, false)}</p>
            <p class="worked" data-testid="distill-worked-soft-a">"Soft, A: " {worked(0, true)}</p>
            <p class="worked" data-testid="distill-worked-soft-b">"Soft, B: " {worked(1, true)}</p>
        </div>
        <p class="widget-note" data-testid="distill-kl-note">{kl_sentence}</p>
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
                .map(|c| temperature_svg(&c.teacher, &c.teacher_t))
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
                list(&c.teacher),
                plain(c.temperature),
                list(&c.teacher_t)
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

/// One token's row: its label and remove button, then a cell per distribution.
#[component]
fn TokenRow(
    /// Index of the token.
    i: usize,
    /// The playground's inputs.
    inputs: RwSignal<Inputs>,
    /// The last good comparison (for the normalized probabilities).
    shown: Memo<Option<Comparison>>,
    /// What is wrong with the inputs.
    problems: Signal<Problems>,
) -> impl IntoView {
    let label_text =
        move || inputs.with(|x| x.rows.get(i).map(|r| r.label.clone()).unwrap_or_default());
    let label_id = unique_id("distill-label");
    view! {
        <tr>
            <th scope="row" class="distill-token">
                <form method="dialog" class="distill-token-cell">
                    <span class="distill-index" aria-hidden="true">{i}</span>
                    <input
                        id=label_id
                        type="text"
                        class="distill-label"
                        maxlength="24"
                        autocomplete="off"
                        spellcheck="false"
                        data-testid=format!("token-label-{i}")
                        aria-label=format!("Label of token {i}")
                        prop:value=label_text
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            inputs.update(|x| x.set_label(i, v));
                        }
                    />
                    <button
                        type="button"
                        class="distill-remove"
                        data-testid=format!("distill-remove-{i}")
                        aria-label=move || format!("Remove token {i} ({})", inputs.with(|x| shown_label(&x.rows, i)))
                        disabled=move || inputs.with(|x| x.rows.len() <= MIN_TOKENS)
                        on:click=move |_| inputs.update(|x| x.remove_token(i))
                    >
                        "\u{d7}"
                    </button>
                </form>
            </th>
            {(0..3).map(|d| view! { <ValueCell i=i d=d inputs=inputs shown=shown problems=problems /> }).collect_view()}
        </tr>
    }
}

/// One typed value: number field, slider and the normalized probability it gives.
#[component]
fn ValueCell(
    /// Token index.
    i: usize,
    /// Distribution index (0 teacher, 1 student A, 2 student B).
    d: usize,
    /// The playground's inputs.
    inputs: RwSignal<Inputs>,
    /// The last good comparison.
    shown: Memo<Option<Comparison>>,
    /// What is wrong with the inputs.
    problems: Signal<Problems>,
) -> impl IntoView {
    let (prefix, name) = dist(d);
    let text = move || {
        inputs.with(|x| {
            x.rows
                .get(i)
                .map(|r| r.value(d).to_string())
                .unwrap_or_default()
        })
    };
    let entry = move || inputs.with(|x| x.entry);
    let set = move |v: String| inputs.update(|x| x.set_value(i, d, v));
    let error = move || {
        problems.with(|p| {
            p.cells
                .iter()
                .find(|(pd, pi, _)| *pd == d && *pi == i)
                .map(|(_, _, m)| m.clone())
        })
    };
    let field_id = unique_id(prefix);
    let msg_id = format!("{field_id}-msg");
    let aria = move || format!("{name}, {}", inputs.with(|x| shown_label(&x.rows, i)));
    // The slider covers 0..1 for probabilities (or up to the largest weight typed) and −10..10
    // for logits.
    let range = move || match entry() {
        Entry::Logits => (-10.0, 10.0, 0.1),
        Entry::Weights => {
            let top = inputs.with(|x| {
                x.rows
                    .iter()
                    .filter_map(|row| read_f64(row.value(d)))
                    .filter(|v| v.is_finite())
                    .fold(1.0f64, f64::max)
            });
            (0.0, top, top / 100.0)
        }
    };
    let slider_value = move || {
        read_f64(&text())
            .filter(|v| v.is_finite())
            .unwrap_or(0.0)
            .to_string()
    };
    let normalized = move || {
        shown.with(|c| {
            let c = c.as_ref()?;
            let p = match d {
                0 => c.teacher.get(i),
                _ => c.students.get(d - 1).and_then(|s| s.probs.get(i)),
            };
            p.map(|p| format!("= {}", fixed(*p, 3)))
        })
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let delta = match ev.key().as_str() {
            "ArrowUp" => 1.0,
            "ArrowDown" => -1.0,
            _ => return,
        };
        ev.prevent_default();
        let entry = inputs.with_untracked(|x| x.entry);
        let (step, min) = match entry {
            Entry::Weights => (0.01, 0.0),
            Entry::Logits => (0.1, -distill::MAX_LOGIT),
        };
        let typed = inputs.with_untracked(|x| x.rows.get(i).and_then(|r| read_f64(r.value(d))));
        if let Some(v) = typed {
            if v.is_finite() {
                let next = ((v + delta * step).max(min) * 1e6).round() / 1e6;
                set(distill::value_text(entry, next));
            }
        }
    };
    view! {
        <td class="distill-cell" class:invalid=move || error().is_some()>
            <form method="dialog" class="distill-cell-form">
                <input
                    id=field_id
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    spellcheck="false"
                    class="distill-value"
                    data-testid=format!("{prefix}-p{i}")
                    aria-label=aria
                    aria-invalid=move || error().is_some().to_string()
                    aria-describedby=msg_id.clone()
                    prop:value=text
                    on:input=move |ev| set(event_target_value(&ev))
                    on:keydown=on_keydown
                />
                <input
                    type="range"
                    class="distill-slider"
                    tabindex="-1"
                    aria-label=move || format!("{} (slider)", aria())
                    min=move || range().0.to_string()
                    max=move || range().1.to_string()
                    step=move || range().2.to_string()
                    prop:value=slider_value
                    on:input=move |ev| {
                        let v = read_f64(&event_target_value(&ev)).unwrap_or(0.0);
                        set(distill::value_text(inputs.with_untracked(|x| x.entry), v));
                    }
                />
                <span class="distill-prob" data-testid=format!("{prefix}-prob{i}")>{normalized}</span>
                <p class="field-message" id=msg_id role="alert">{error}</p>
            </form>
        </td>
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
