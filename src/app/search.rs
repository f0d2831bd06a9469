//! The search dialog: full-text search over every lesson, opened with `/`, `s` or its button.

use super::router::Location;
use crate::content::LESSONS;
use crate::logic::search::{self, Hit};
use leptos::prelude::*;
use std::rc::Rc;

/// The search index and the section texts for snippets, from `search.json` (written by the
/// build; see `xtask/src/assets.rs`), fetched the first time the dialog opens and kept, shared,
/// for the rest of the visit.
struct SearchData {
    index: Vec<(String, Vec<search::Posting>)>,
    sections: Vec<Vec<String>>,
}

impl SearchData {
    fn parse(json: String) -> Result<Rc<SearchData>, String> {
        #[derive(serde::Deserialize)]
        struct File {
            index: String,
            sections: Vec<Vec<String>>,
        }
        let file: File = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        let index = search::parse_index(&file.index)
            .into_iter()
            .map(|(term, postings)| (term.to_string(), postings))
            .collect();
        Ok(Rc::new(SearchData {
            index,
            sections: file.sections,
        }))
    }

    fn text(&self, hit: &Hit) -> &str {
        self.sections
            .get(hit.lesson)
            .and_then(|l| l.get(hit.section))
            .map_or("", String::as_str)
    }
}

/// Where the search data stands.
#[derive(Clone)]
enum Data {
    NotAsked,
    Loading,
    Ready(Rc<SearchData>),
    Failed(String),
}

/// Results shown at most.
const LIMIT: usize = 12;

fn heading_of(lesson: usize, section: usize) -> String {
    LESSONS
        .get(lesson)
        .and_then(|l| l.sections.get(section))
        .map(|s| s.heading.to_string())
        .unwrap_or_default()
}

fn href_of(hit: &Hit) -> String {
    let Some(lesson) = LESSONS.get(hit.lesson) else {
        return "./".into();
    };
    let id = lesson.sections.get(hit.section).map_or("", |s| s.id);
    if id.is_empty() {
        format!("{}/", lesson.slug)
    } else {
        format!("{}/#{id}", lesson.slug)
    }
}

/// A modal dialog with a heading (`title`, its id `title_id`) and a close button
/// (`close_label`), shown exactly while `open` is true: an effect keeps the `<dialog>` element
/// (the outside world) in step, and `on_open` runs each time it opens (e.g. to focus a field).
/// Escape and the close button set `open` back to false. `class` and `testid` are the
/// dialog's; `body` is what it shows under the heading.
fn modal(
    open: RwSignal<bool>,
    (title, title_id, close_label): (&'static str, &'static str, &'static str),
    (class, testid): (&'static str, &'static str),
    on_open: impl Fn() + 'static,
    body: impl IntoView,
) -> impl IntoView {
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    Effect::new(move |_| {
        let Some(d) = dialog.get() else { return };
        if open.get() {
            if !d.open() {
                let _ = d.show_modal();
            }
            on_open();
        } else if d.open() {
            d.close();
        }
    });
    view! {
        <dialog class=class node_ref=dialog aria-labelledby=title_id on:close=move |_| open.set(false) data-testid=testid>
            <div class="dialog-head">
                <h2 id=title_id>{title}</h2>
                <button type="button" class="dialog-close" aria-label=close_label on:click=move |_| open.set(false)>"\u{d7}"</button>
            </div>
            {body}
        </dialog>
    }
}

/// The line under the search field: nothing before a query, then loading, a failure, none
/// found, or how many sections were found.
fn count_text(query: &str, found: usize, data: &Data) -> String {
    if query.trim().is_empty() {
        String::new()
    } else if let Data::Failed(why) = data {
        format!("Search is not available right now ({why}). Check the connection and open search again.")
    } else if !matches!(data, Data::Ready(_)) {
        "Loading the search index\u{2026}".to_string()
    } else if found == 0 {
        format!("No section mentions \u{201c}{}\u{201d}.", query.trim())
    } else {
        format!("{found} section{} found", if found == 1 { "" } else { "s" })
    }
}

/// One result: where it is (lesson and heading) and a snippet of its text around `query`,
/// marked where it matches; `go` follows it.
fn result_item(
    hit: &Hit,
    data: &SearchData,
    query: &str,
    go: impl Fn(String) + Copy + 'static,
) -> Option<impl IntoView> {
    let lesson = LESSONS.get(hit.lesson)?;
    let section = lesson.sections.get(hit.section)?;
    let href = href_of(hit);
    let target = href.clone();
    // Pieces of our text, marked where they match: text nodes, never HTML.
    let pieces = search::snippet(data.text(hit), query, 70)
        .into_iter()
        .map(|(text, hit)| {
            if hit {
                view! { <mark>{text}</mark> }.into_any()
            } else {
                text.into_any()
            }
        })
        .collect_view();
    Some(view! {
        <li>
            <a href=href on:click=move |ev| { ev.prevent_default(); go(target.clone()); }>
                <span class="result-where">
                    <span class="result-lesson">{lesson.title}</span>
                    {(!section.heading.is_empty()).then(|| view! { <span class="result-heading">{section.heading}</span> })}
                </span>
                <span class="result-snippet">{pieces}</span>
            </a>
        </li>
    })
}

/// The search dialog; `open` shows and hides it.
#[component]
pub fn SearchDialog(
    /// True while the dialog is open.
    open: RwSignal<bool>,
) -> impl IntoView {
    let loc = Location::from_context();
    let input = NodeRef::<leptos::html::Input>::new();
    let query = RwSignal::new(String::new());
    // Local: the data is shared by `Rc`, and stays on this thread.
    let data = RwSignal::new_local(Data::NotAsked);
    let load = move || {
        if matches!(data.get_untracked(), Data::NotAsked | Data::Failed(_)) {
            data.set(Data::Loading);
            leptos::task::spawn_local(async move {
                let got = super::prose::fetch("search.json")
                    .await
                    .and_then(SearchData::parse);
                data.set(match got {
                    Ok(d) => Data::Ready(d),
                    Err(e) => Data::Failed(e),
                });
            });
        }
    };
    let hits = Memo::new(move |_| {
        let q = query.get();
        match data.get() {
            Data::Ready(d) if !q.trim().is_empty() => {
                search::search(&d.index, &q, heading_of, LIMIT)
            }
            _ => Vec::new(),
        }
    });

    let on_open = move || {
        load();
        if let Some(i) = input.get_untracked() {
            let _ = i.focus();
            i.select();
        }
    };

    let go = move |href: String| {
        open.set(false);
        loc.go(&href);
    };

    let body = view! {
            <input
                type="search"
                class="search-input"
                node_ref=input
                placeholder="e.g. distillation, FP16, P99"
                aria-label="Search the course"
                aria-controls="search-results"
                data-testid="search-input"
                prop:value=move || query.get()
                on:input=move |ev| query.set(event_target_value(&ev))
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    // A search field would spend Escape on clearing itself: close instead.
                    if ev.key() == "Escape" {
                        ev.prevent_default();
                        open.set(false);
                        return;
                    }
                    if ev.key() == "Enter" {
                        if let Some(first) = hits.with_untracked(|h| h.first().map(href_of)) {
                            ev.prevent_default();
                            go(first);
                        }
                    }
                }
            />
            <p class="search-count" role="status">
                {move || count_text(&query.get(), hits.with(Vec::len), &data.get())}
            </p>
            <ol class="search-results" id="search-results" data-testid="search-results">
                {move || {
                    let q = query.get();
                    let Data::Ready(d) = data.get() else { return Vec::new() };
                    hits.get().iter().filter_map(|hit| result_item(hit, &d, &q, go)).collect::<Vec<_>>()
                }}
            </ol>
    };
    modal(
        open,
        ("Search the course", "search-title", "Close search"),
        ("dialog search-dialog", "search-dialog"),
        on_open,
        body,
    )
}

/// The keyboard shortcuts, shown with `?`.
#[component]
pub fn ShortcutsDialog(
    /// True while the dialog is open.
    open: RwSignal<bool>,
) -> impl IntoView {
    let rows = [
        ("/ or s", "Search the course"),
        ("]", "Next lesson"),
        ("[", "Previous lesson"),
        ("?", "Show these shortcuts"),
        ("Esc", "Close a dialog"),
        (
            "Space or Enter",
            "Recall cards: reveal the answer, then grade it Good",
        ),
        ("1 2 3 4", "Recall cards: grade Again, Hard, Good, Easy"),
    ];
    let body = view! {
            <p class="dialog-note">"Single keys work when you are not typing in a field. The recall keys work while the review card has focus."</p>
            <table class="shortcuts">
                <tbody>
                    {rows.into_iter().map(|(k, what)| view! { <tr><th scope="row"><kbd>{k}</kbd></th><td>{what}</td></tr> }).collect_view()}
                </tbody>
            </table>
    };
    modal(
        open,
        ("Keyboard shortcuts", "shortcuts-title", "Close shortcuts"),
        ("dialog", "shortcuts-dialog"),
        || {},
        body,
    )
}
