//! Recall cards: review with FSRS spacing, statistics, a forecast chart, export and import.
//!
//! The page-wide review (`widget recall`) and each lesson's own cards (`lesson: <slug>`) share
//! one stored value, `ie-course:recall`. Every write merges with what is stored first, and a
//! `storage` event from another tab merges its reviews in, so two tabs never lose a review.

use super::controls::{unique_id, Chart, NumberField, Output, WidgetCard};
use crate::app::persist::Persist;
use crate::content::{title_by_slug, WidgetParams, LESSON_TITLES};
use crate::logic::chart::{self, ACCENT, GRID};
use crate::logic::recall::{
    self, interval_label, parse_retention, CardDef, Clock, Grade, Progress, SCHEMA, STORE_NAME,
};
use crate::nav::{self, Route};
use leptos::html::Div;
use leptos::prelude::*;
use plotters::prelude::*;
use std::time::Duration;
use wasm_bindgen::JsCast;

/// Mounts the review: the whole deck with statistics, or one lesson's cards (`lesson: <slug>`).
pub fn mount(params: WidgetParams) -> AnyView {
    view! { <Recall lesson=params.get("lesson").map(str::to_string) /> }.into_any()
}

fn clock_now() -> Clock {
    Clock {
        now: js_sys::Date::now() as i64,
        utc_offset_min: -(js_sys::Date::new_0().get_timezone_offset() as i32),
    }
}

fn load(persist: Persist) -> Option<Progress> {
    persist
        .load::<Progress>(STORE_NAME, SCHEMA, |_, _| None)
        .map(Progress::normalized)
}

/// True if `localStorage` holds a value under our key (whether or not it could be read).
fn stored_value_exists() -> bool {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| {
            s.get_item(&crate::logic::storage::key(STORE_NAME))
                .ok()
                .flatten()
        })
        .is_some()
}

fn lesson_title(slug: &str) -> &'static str {
    title_by_slug(slug).map_or("", |(_, title)| title)
}

/// The forecast as SVG bars, one per day.
fn forecast_svg(forecast: &[u32; 30]) -> String {
    let top = forecast.iter().copied().max().unwrap_or(0).max(1) as f64;
    chart::svg(600, 160, |area| {
        let mut c = ChartBuilder::on(area)
            .margin(6)
            .build_cartesian_2d(-0.5f64..29.5f64, 0f64..top * 1.05)?;
        let step = (top / 4.0).ceil().max(1.0);
        let mut y = step;
        while y <= top {
            c.draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, y), (29.5, y)],
                GRID.stroke_width(1),
            )))?;
            y += step;
        }
        c.draw_series(std::iter::once(PathElement::new(
            vec![(-0.5, 0.0), (29.5, 0.0)],
            GRID.stroke_width(2),
        )))?;
        c.draw_series(
            forecast
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(d, n)| {
                    let x = d as f64;
                    Rectangle::new(
                        [(x - 0.36, 0.0), (x + 0.36, f64::from(*n))],
                        ACCENT.filled(),
                    )
                }),
        )?;
        Ok(())
    })
    .unwrap_or_default()
}

fn forecast_text(forecast: &[u32; 30]) -> String {
    let total: u32 = forecast.iter().sum();
    if total == 0 {
        return "0 reviews due over the next 30 days: nothing is scheduled yet. Review a card and it appears here.".into();
    }
    let days: Vec<String> = forecast
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(d, n)| match d {
            0 => format!("{n} today"),
            1 => format!("{n} tomorrow"),
            d => format!("{n} in {d} days"),
        })
        .collect();
    format!(
        "{total} review{} due over the next 30 days: {}.",
        if total == 1 { "" } else { "s" },
        days.join(", ")
    )
}

/// The review, its statistics and its tools.
#[component]
pub fn Recall(
    /// Only this lesson's cards, in the compact form that ends a lesson.
    lesson: Option<String>,
) -> impl IntoView {
    let persist = expect_context::<Persist>();
    let deck: &'static [CardDef] = recall::deck();
    let full = lesson.is_none();

    let initial = load(persist);
    if initial.is_none() && stored_value_exists() {
        // The stored value could not be read: Persist kept a backup and said so. Replace it,
        // so later merges do not back it up again.
        persist.save(STORE_NAME, SCHEMA, &Progress::default());
    }
    let progress = RwSignal::new(initial.unwrap_or_default());
    let clock = RwSignal::new(clock_now());
    let filter = RwSignal::new(lesson.unwrap_or_default());
    let ahead = RwSignal::new(false);
    let revealed = RwSignal::new(false);
    let pinned = RwSignal::new(None::<String>);
    let announce = RwSignal::new(String::new());
    let area = NodeRef::<Div>::new();

    let scope = move || {
        let f = filter.get();
        (!f.is_empty()).then_some(f)
    };
    let queue = Memo::new(move |_| {
        let now = clock.get().now;
        let f = scope();
        progress.with(|p| {
            p.queue(deck, f.as_deref(), now, ahead.get())
                .into_iter()
                .map(|c| c.id.clone())
                .collect::<Vec<_>>()
        })
    });
    // The card on screen stays put while the clock ticks, until it is graded.
    let current = Memo::new(move |_| {
        let q = queue.get();
        // A card whose answer is showing stays, even if another tab has just reviewed it.
        let id = match pinned.get() {
            Some(id) if q.contains(&id) || revealed.get() => Some(id),
            _ => q.first().cloned(),
        };
        id.and_then(|id| deck.iter().find(|c| c.id == id))
    });
    Effect::new(move |_| {
        if pinned.get().is_none() {
            if let Some(c) = current.get() {
                pinned.set(Some(c.id.clone()));
            }
        }
    });
    let stats = Memo::new(move |_| {
        let f = scope();
        progress.with(|p| p.stats(deck, f.as_deref(), clock.get()))
    });

    // Every write merges with what another tab may have stored since, then saves whole.
    let commit = move |change: &dyn Fn(&mut Progress, i64)| {
        let now = js_sys::Date::now() as i64;
        let mut p = progress.get_untracked();
        if let Some(stored) = load(persist) {
            p = p.merge(&stored);
        }
        change(&mut p, now);
        persist.save(STORE_NAME, SCHEMA, &p);
        progress.set(p);
        clock.set(clock_now());
    };

    // Another tab saved: take its reviews in.
    let storage_key = crate::logic::storage::key(STORE_NAME);
    let listener = window_event_listener(leptos::ev::storage, move |ev| {
        if ev.key().as_deref() != Some(storage_key.as_str()) {
            return;
        }
        if let Some(stored) = load(persist) {
            let merged = progress.get_untracked().merge(&stored);
            // Tabs see each other's writes a moment late, so the other tab may have written
            // without our latest reviews: put them back. Once both hold the union, it stops.
            if merged != stored {
                persist.save(STORE_NAME, SCHEMA, &merged);
            }
            progress.set(merged);
            clock.set(clock_now());
        }
    });
    let ticker =
        set_interval_with_handle(move || clock.set(clock_now()), Duration::from_secs(20)).ok();
    on_cleanup(move || {
        listener.remove();
        if let Some(t) = ticker {
            t.clear();
        }
    });

    let focus_area = move || {
        if let Some(el) = area.get_untracked() {
            let _ = el.focus();
        }
    };
    let reveal = move || {
        if let Some(card) = current.get_untracked() {
            pinned.set(Some(card.id.clone()));
            revealed.set(true);
            announce.set(String::new());
            focus_area();
        }
    };
    let grade = move |g: Grade| {
        let Some(card) = current.get_untracked() else {
            return;
        };
        if !revealed.get_untracked() {
            return;
        }
        let id = card.id.clone();
        commit(&|p, now| p.grade(&id, g, now));
        let back = progress.with_untracked(|p| p.state(&card.id).map(|s| s.due));
        let now = clock.get_untracked().now;
        revealed.set(false);
        pinned.set(queue.get_untracked().first().cloned());
        announce.set(format!(
            "{}: back in {}. {} due now.",
            g.label(),
            back.map_or_else(String::new, |d| interval_label(d - now)),
            stats.get_untracked().due_now
        ));
        focus_area();
    };

    // Single-key shortcuts, only while the review area (or something in it) has focus, never
    // while typing in a field, and never with a modifier key.
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        if ev.default_prevented() || ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.repeat() {
            return;
        }
        let Some(target) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        if crate::app::typing_in_field(&target) {
            return;
        }
        // On a button, Space and Enter press that button, as everywhere else.
        let on_control = matches!(target.tag_name().as_str(), "BUTTON" | "A");
        let key = ev.key();
        let space_or_enter = key == " " || key == "Enter";
        if !revealed.get_untracked() {
            if space_or_enter && !on_control && current.get_untracked().is_some() {
                ev.prevent_default();
                reveal();
            }
        } else if space_or_enter && !on_control {
            ev.prevent_default();
            grade(Grade::Good);
        } else if let Some(g) = Grade::from_key(&key) {
            ev.prevent_default();
            grade(g);
        }
    };

    let previews = Memo::new(move |_| {
        let now = clock.get().now;
        current
            .get()
            .map(|c| progress.with(|p| p.previews(&c.id, now)))
    });
    let hint_id = unique_id("recall-keys");
    let described = hint_id.clone();

    let due_text = Signal::derive(move || {
        let s = stats.get();
        format!(
            "{} card{}",
            s.due_now,
            if s.due_now == 1 { "" } else { "s" }
        )
    });
    let next_due = move || {
        let now = clock.get().now;
        let f = scope();
        progress.with(|p| {
            p.queue(deck, f.as_deref(), now, true)
                .first()
                .and_then(|c| p.state(&c.id))
                .map(|s| interval_label(s.due - now))
        })
    };

    let review = view! {
        <div
            class="recall-review"
            tabindex="0"
            role="group"
            aria-label="Card review"
            aria-describedby=described
            aria-keyshortcuts="Space Enter 1 2 3 4"
            node_ref=area
            on:keydown=on_keydown
        >
            {move || match current.get() {
                None => {
                    let lesson_words = if filter.get().is_empty() { "" } else { " for this lesson" };
                    view! {
                        <div class="recall-empty">
                            <p>
                                {format!("Nothing is due{lesson_words} right now.")}
                                {move || next_due().map(|t| format!(" The next card comes back in {t}."))}
                            </p>
                            <Show when=move || next_due().is_some()>
                                <button type="button" data-testid="cards-learn-ahead" on:click=move |_| {
                                    ahead.set(true);
                                    pinned.set(None);
                                }>
                                    "Learn ahead"
                                </button>
                            </Show>
                        </div>
                    }
                    .into_any()
                }
                Some(card) => {
                    let from = lesson_title(&card.lesson);
                    let not_due = progress.with(|p| {
                        p.state(&card.id).is_some_and(|s| s.due > clock.get().now)
                    });
                    view! {
                        <div class="recall-card">
                            <p class="recall-from">
                                {from}
                                {not_due.then_some(" \u{b7} learning ahead")}
                            </p>
                            <p class="recall-question" data-testid="card-question" tabindex="-1">
                                {card.question.clone()}
                            </p>
                            <Show
                                when=move || revealed.get()
                                fallback=move || {
                                    view! {
                                        <button type="button" class="button primary recall-reveal" data-testid="card-reveal" on:click=move |_| reveal()>
                                            "Show answer"
                                        </button>
                                    }
                                }
                            >
                                <p class="recall-answer" data-testid="card-answer" tabindex="-1">
                                    {card.answer.clone()}
                                </p>
                                <div class="recall-grades" role="group" aria-label="How well did you recall it?">
                                    {Grade::ALL
                                        .into_iter()
                                        .enumerate()
                                        .map(|(i, g)| {
                                            let testid = match g {
                                                Grade::Again => "card-grade-again",
                                                Grade::Hard => "card-grade-hard",
                                                Grade::Good => "card-grade-good",
                                                Grade::Easy => "card-grade-easy",
                                            };
                                            let when = move || {
                                                previews
                                                    .get()
                                                    .map(|p| interval_label(p[i].1))
                                                    .unwrap_or_default()
                                            };
                                            view! {
                                                <button
                                                    type="button"
                                                    class="recall-grade"
                                                    class:primary=g == Grade::Good
                                                    data-testid=testid
                                                    aria-keyshortcuts=(i + 1).to_string()
                                                    on:click=move |_| grade(g)
                                                >
                                                    <span class="recall-grade-name">{g.label()}</span>
                                                    <span class="recall-grade-when">{when}</span>
                                                    <kbd aria-hidden="true">{i + 1}</kbd>
                                                </button>
                                            }
                                        })
                                        .collect_view()}
                                </div>
                            </Show>
                        </div>
                    }
                    .into_any()
                }
            }}
            <p class="recall-keys" id=hint_id hidden=move || current.get().is_none()>
                "Keys while this box has focus: Space or Enter shows the answer; then 1 Again, 2 Hard, 3 Good, 4 Easy (Space or Enter: Good)."
            </p>
            <p class="recall-sr" role="status">{move || announce.get()}</p>
        </div>
    };

    let title = if full {
        "Recall cards"
    } else {
        "Recall: this lesson's cards"
    };
    let recall_href = title_by_slug("recall").map(|(i, _)| nav::href(Route::Lesson(i)));

    view! {
        <WidgetCard title=title name="recall">
            <div class="outputs recall-counts">
                <Output label="Due now" testid="cards-due" value=due_text stale=false />
                <Output label="New" testid="cards-new" value=Signal::derive(move || stats.get().new.to_string()) stale=false />
                <Output label="Learning" testid="cards-learning" value=Signal::derive(move || stats.get().learning.to_string()) stale=false />
                <Output label="Review" testid="cards-review" value=Signal::derive(move || stats.get().review.to_string()) stale=false />
            </div>
            {full.then(|| view! { <FilterAndRetention filter=filter ahead=ahead pinned=pinned revealed=revealed progress=progress commit=commit /> })}
            {review}
            {if full {
                view! { <Statistics stats=stats /> <Tools progress=progress commit=commit revealed=revealed pinned=pinned /> }.into_any()
            } else {
                view! {
                    <p class="widget-note">
                        "Statistics, export and all the cards are on the "
                        <a href=recall_href.clone().unwrap_or_default()>"recall page"</a>
                        "."
                    </p>
                }
                .into_any()
            }}
        </WidgetCard>
    }
}

/// The lesson filter and the desired retention.
#[component]
fn FilterAndRetention(
    filter: RwSignal<String>,
    ahead: RwSignal<bool>,
    pinned: RwSignal<Option<String>>,
    revealed: RwSignal<bool>,
    progress: RwSignal<Progress>,
    commit: impl Fn(&dyn Fn(&mut Progress, i64)) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let deck = recall::deck();
    let select_id = unique_id("recall-filter");
    let label_for = select_id.clone();
    let retention_text = RwSignal::new(format!(
        "{}",
        (progress.get_untracked().retention * 100.0).round()
    ));
    let parsed = Memo::new(move |_| parse_retention(&retention_text.get()));
    Effect::new(move |_| {
        if let Ok(r) = parsed.get() {
            if (r - progress.get_untracked().retention).abs() > 1e-9 {
                commit(&|p, now| p.set_retention(r, now));
            }
        }
    });
    let lessons: Vec<(&'static str, &'static str)> = LESSON_TITLES
        .iter()
        .filter(|(slug, _)| deck.iter().any(|c| c.lesson == *slug))
        .copied()
        .collect();
    view! {
        <div class="controls recall-controls">
            <div class="field">
                <label for=label_for>"Cards from"</label>
                <select
                    id=select_id
                    data-testid="cards-filter"
                    prop:value=move || filter.get()
                    on:change=move |ev| {
                        filter.set(event_target_value(&ev));
                        ahead.set(false);
                        pinned.set(None);
                        revealed.set(false);
                    }
                >
                    <option value="">"All lessons"</option>
                    {lessons
                        .into_iter()
                        .map(|(slug, title)| view! { <option value=slug>{title}</option> })
                        .collect_view()}
                </select>
            </div>
            <NumberField
                label="Desired retention"
                testid="cards-retention"
                text=retention_text
                error=Signal::derive(move || parsed.get().err())
                unit="%"
                min=70.0
            />
        </div>
        <p class="widget-note recall-retention-note">
            "The chance you still recall a card when it comes back. Higher means more frequent reviews; 90 % is the usual choice."
        </p>
    }
}

/// Retention, streak and the forecast chart.
#[component]
fn Statistics(stats: Memo<recall::Stats>) -> impl IntoView {
    let retention = Signal::derive(move || {
        let s = stats.get();
        match s.retention_30d {
            Some(r) => format!("{:.0} %", r * 100.0),
            None => "\u{2014}".into(),
        }
    });
    let streak = Signal::derive(move || {
        let n = stats.get().streak;
        format!("{n} day{}", if n == 1 { "" } else { "s" })
    });
    let due_today = Signal::derive(move || stats.get().due_today.to_string());
    let svg = Signal::derive(move || forecast_svg(&stats.get().forecast));
    let description = Signal::derive(move || forecast_text(&stats.get().forecast));
    let peak = move || stats.get().forecast.iter().copied().max().unwrap_or(0);
    view! {
        <h4 class="recall-subhead">"Statistics"</h4>
        <div class="outputs">
            <Output label="Due today" testid="cards-due-today" value=due_today stale=false />
            <Output label="True retention, last 30 days" testid="cards-retention-30d" value=retention stale=false />
            <Output label="Streak" testid="cards-streak" value=streak stale=false />
        </div>
        <p class="widget-note">
            {move || {
                let s = stats.get();
                let n = s.mature_reviews_30d;
                match s.retention_30d {
                    Some(r) => format!(
                        "True retention: {} of {n} review{} of learnt cards in the last 30 days were recalled (not \u{201c}Again\u{201d}).",
                        (r * n as f64).round(),
                        if n == 1 { "" } else { "s" }
                    ),
                    None => "True retention appears once learnt cards come back for review: the share you still recalled.".into(),
                }
            }}
        </p>
        <p class="recall-chart-title">
            "Reviews due over the next 30 days "
            <span class="recall-chart-scale">{move || format!("(tallest bar: {})", peak())}</span>
        </p>
        <Chart svg=svg description=description testid="cards-forecast" />
        <div class="recall-chart-axis" aria-hidden="true">
            <span>"today"</span>
            <span>"in 29 days"</span>
        </div>
        {move || {
            let removed = stats.get().removed;
            (removed > 0).then(|| view! {
                <p class="widget-note">
                    {format!("The history of {removed} card{} no longer in the deck is kept with your progress.", if removed == 1 { "" } else { "s" })}
                </p>
            })
        }}
    }
}

/// Export, import and reset.
#[component]
fn Tools(
    progress: RwSignal<Progress>,
    commit: impl Fn(&dyn Fn(&mut Progress, i64)) + Copy + Send + Sync + 'static,
    revealed: RwSignal<bool>,
    pinned: RwSignal<Option<String>>,
) -> impl IntoView {
    let exported = RwSignal::new(None::<String>);
    let import_text = RwSignal::new(String::new());
    let message = RwSignal::new(None::<Result<String, String>>);
    let confirming = RwSignal::new(false);
    let import_id = unique_id("recall-import");
    let import_for = import_id.clone();

    let export = move |_| {
        let json = progress.get_untracked().export_json();
        let date = js_sys::Date::new_0()
            .to_iso_string()
            .as_string()
            .unwrap_or_default();
        super::download::save(
            &format!(
                "ie-course-recall-{}.json",
                date.get(..10).unwrap_or("export")
            ),
            "application/json",
            &json,
        );
        exported.set(Some(json));
    };
    let apply = move |_| match Progress::import_json(&import_text.get_untracked()) {
        Err(e) => message.set(Some(Err(e))),
        Ok(incoming) => {
            let before = progress.with_untracked(|p| p.log.len());
            commit(&|p, _| *p = p.merge(&incoming));
            let after = progress.with_untracked(|p| p.log.len());
            let added = after - before.min(after);
            message.set(Some(Ok(format!(
                "{added} review{} added ({} in the file, the rest already here).",
                if added == 1 { "" } else { "s" },
                incoming.log.len()
            ))));
            revealed.set(false);
            pinned.set(None);
        }
    };
    let reset = move |_| {
        commit(&|p, now| p.reset(now));
        confirming.set(false);
        revealed.set(false);
        pinned.set(None);
        message.set(Some(Ok("Progress reset: every card is new again.".into())));
    };

    view! {
        <h4 class="recall-subhead">"Keep or move your progress"</h4>
        <p class="widget-note">
            "Your reviews are stored in this browser. Export them to keep a copy or to carry them to another browser; importing merges, so nothing is counted twice."
        </p>
        <div class="recall-tools">
            <button type="button" data-testid="cards-export" on:click=export>"Export progress"</button>
        </div>
        {move || exported.get().map(|json| view! {
            <div class="field">
                <label>"Exported (also downloaded as a file)"
                    <textarea class="recall-json" data-testid="cards-export-json" readonly rows="4" prop:value=json></textarea>
                </label>
            </div>
        })}
        <div class="field">
            <label for=import_for>"Import: paste an export here"</label>
            <textarea
                id=import_id
                class="recall-json"
                data-testid="cards-import"
                rows="4"
                spellcheck="false"
                prop:value=move || import_text.get()
                on:input=move |ev| import_text.set(event_target_value(&ev))
            ></textarea>
        </div>
        <div class="recall-tools">
            <button type="button" data-testid="cards-import-apply" on:click=apply>"Import and merge"</button>
        </div>
        <p class="recall-message" data-testid="cards-import-message" role="alert" class:error=move || matches!(message.get(), Some(Err(_)))>
            {move || match message.get() {
                Some(Ok(t)) | Some(Err(t)) => t,
                None => String::new(),
            }}
        </p>
        <div class="recall-tools recall-reset">
            <Show
                when=move || confirming.get()
                fallback=move || view! {
                    <button type="button" data-testid="cards-reset" on:click=move |_| confirming.set(true)>"Reset progress\u{2026}"</button>
                }
            >
                <p class="recall-confirm" role="alert">
                    {move || {
                        let n = progress.with(|p| p.log.len());
                        format!("Erase all {n} review{} and start every card afresh? Export first if you may want them back.", if n == 1 { "" } else { "s" })
                    }}
                </p>
                <button type="button" class="recall-danger" data-testid="cards-reset-confirm" on:click=reset>"Erase my reviews"</button>
                <button type="button" data-testid="cards-reset-cancel" on:click=move |_| confirming.set(false)>"Cancel"</button>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forecast_is_drawn_and_described() {
        let mut f = [0u32; 30];
        f[0] = 3;
        f[4] = 1;
        let svg = forecast_svg(&f);
        assert!(svg.contains("var(--accent)"), "{svg}");
        assert_eq!(
            forecast_text(&f),
            "4 reviews due over the next 30 days: 3 today, 1 in 4 days."
        );
        assert!(forecast_text(&[0; 30]).starts_with("0 reviews"));
        assert!(!forecast_svg(&[0; 30]).is_empty());
    }
}
