//! The widgets modules the build makes. Each is a wasm module of its own, built from this crate by
//! the build driver (`xtask/src/modules.rs`), that links the code of the widgets it lists and no
//! other: a page fetches the smallest module that carries every widget it shows and what they
//! need (a lesson's recall form needs that lesson's cards: `WidgetUse::needs`; the widget loader,
//! `js/loader.js`, picks it from the list the build writes), so a lesson carries its own widgets
//! and cards, not all fifteen widgets and the whole deck.
//!
//! Each module also carries the shell (`start_app`), so a lesson page fetches one wasm, not two:
//! the page's start script compiles it once and starts the shell in one instance of it, and the
//! widget loader serves the widgets from a second instance of the same compiled module. The Leptos
//! runtime and the shared code are fetched and compiled once, and a widget that aborts its
//! instance still leaves the shell working. The title page, which shows no widget, loads the
//! shell's own module (`src/main.rs`).
//!
//! To add a module: a line in [`MODULES`], its list and its cards beside the others, and
//! `src/bin/<name>.rs` with `ie_course::widgets_module!(<LIST>, <CARDS>);`. A native test checks
//! that the two agree and that every page has a module of its own size with its cards.

use super::*;
use crate::content::lesson_cards;
use crate::logic::recall::{DeckSource, WHOLE_DECK};
use std::any::Any;
use std::cell::RefCell;

/// Lesson 1.1, the overview, whose diagram the build draws: the lesson's recall form alone, which
/// the chapter map shares.
pub const OVERVIEW: &[Widget] = &[RECALL];
/// Lesson 1.2, why a smaller model wins.
pub const SIZE: &[Widget] = &[DECODE_CEILING, FLEET_SWAP, TRY_IT, RECALL];
/// "Measure it yourself": the measuring lab, a page of its own so that its view (its chart code
/// among it) loads only there.
pub const LAB: &[Widget] = &[DECODE_LAB, RECALL];
/// Lesson 1.3, choosing a model.
pub const MODEL: &[Widget] = &[WEIGHT_MEMORY, MINI_EVAL, DISTILLATION, DISTILL_LAB, RECALL];
/// "About your application": which workloads are online and which offline.
pub const APP: &[Widget] = &[WORKLOAD_SORT, RECALL];
/// "Latency and throughput".
pub const LATENCY_PAGE: &[Widget] = &[LATENCY, RECALL];
/// "Shared or dedicated".
pub const SHARED: &[Widget] = &[BREAK_EVEN, RECALL];
/// The recall page: the whole deck's review, with statistics and tools (lessons end with the
/// lighter `recall`, one lesson's cards).
pub const RECALL_PAGE: &[Widget] = &[RECALL_DECK];

/// The recall cards each module carries: those of the lessons whose pages load it (the overview's
/// module serves the chapter map too). A lesson's recall form shows its cards from these; the
/// recall page and the print page carry the whole deck.
pub const OVERVIEW_CARDS: DeckSource = &[lesson_cards::OVERVIEW, lesson_cards::CHAPTER_MAP];
/// Lesson 1.2's cards.
pub const SIZE_CARDS: DeckSource = &[lesson_cards::WHY_SIZE_WINS];
/// "Measure it yourself"'s cards.
pub const LAB_CARDS: DeckSource = &[lesson_cards::MEASURE_IT_YOURSELF];
/// Lesson 1.3's cards.
pub const MODEL_CARDS: DeckSource = &[lesson_cards::MODEL_SELECTION];
/// "About your application"'s cards.
pub const APP_CARDS: DeckSource = &[lesson_cards::ABOUT_YOUR_APP];
/// "Latency and throughput"'s cards.
pub const LATENCY_CARDS: DeckSource = &[lesson_cards::LATENCY_AND_THROUGHPUT];
/// "Shared or dedicated"'s cards.
pub const SHARED_CARDS: DeckSource = &[lesson_cards::SHARED_OR_DEDICATED];

/// Every module: its binary's name (`src/bin/<name>.rs`), the widgets it carries and the cards.
/// The first carries them all: the whole-chapter print page shows every widget, and a page
/// whose widgets no smaller module carries still works, only heavier.
pub const MODULES: &[(&str, &[Widget], DeckSource)] = &[
    ("ie-widgets", ALL, WHOLE_DECK),
    ("ie-widgets-overview", OVERVIEW, OVERVIEW_CARDS),
    ("ie-widgets-size", SIZE, SIZE_CARDS),
    ("ie-widgets-lab", LAB, LAB_CARDS),
    ("ie-widgets-model", MODEL, MODEL_CARDS),
    ("ie-widgets-app", APP, APP_CARDS),
    ("ie-widgets-latency", LATENCY_PAGE, LATENCY_CARDS),
    ("ie-widgets-shared", SHARED, SHARED_CARDS),
    ("ie-widgets-recall", RECALL_PAGE, WHOLE_DECK),
];

/// What a module carries, as the page's loader matches it against what a page needs
/// ([`WidgetUse::needs`](crate::content::WidgetUse::needs)): its widgets' names, and
/// `cards:<slug>` for each lesson whose cards it carries. Native: the build writes it into
/// the pages; a module itself never reads it (that would link every lesson's cards).
#[cfg(not(target_arch = "wasm32"))]
pub fn carried(widgets: &[Widget], cards: DeckSource) -> Vec<String> {
    let mut lessons: Vec<&str> = crate::logic::recall::deck_of(cards)
        .iter()
        .map(|c| c.lesson.as_str())
        .collect();
    lessons.dedup();
    widgets
        .iter()
        .map(|w| w.name.to_string())
        .chain(lessons.into_iter().map(super::cards_needed))
        .collect()
}

/// What a widget of a module finds in its context: the cards the module carries.
#[derive(Clone, Copy)]
pub struct Carried {
    /// The module's cards.
    pub cards: DeckSource,
}

thread_local! {
    /// Mounted widgets, each with the first node it drew (or its slot, if it drew none);
    /// dropping a handle unmounts its widget.
    static MOUNTED: RefCell<Vec<(web_sys::Node, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// Mounts widget `name` from `widgets` with `params` (a JSON list of `[key, value]` pairs) into
/// `el`: what a module's `mount_widget` export does (see [`widgets_module!`](crate::widgets_module)).
/// An unknown name or bad parameters show a message in `el` instead (see [`mount`]).
pub fn mount_into(
    widgets: &'static [Widget],
    cards: DeckSource,
    el: web_sys::HtmlElement,
    name: String,
    params: String,
) {
    console_error_panic_hook::set_once();
    // Widgets that have left the page (the reader moved on) are disposed of first. A widget is
    // followed by what it drew, not by its slot: the shell moves a widget mounted in the
    // build's page into a slot of its own (`ieCourseEarly` in `app/widget_slot.rs`).
    MOUNTED.with(|m| m.borrow_mut().retain(|(drawn, _)| drawn.is_connected()));
    // The loader has just measured the place: the layout is fresh, and this costs nothing.
    let place = super::controls::MountPlace {
        above_the_screen: el.get_bounding_client_rect().top() < 0.0,
    };
    el.set_inner_html("");
    let handle = leptos::mount::mount_to(el.clone(), move || {
        provide_context(place);
        provide_context(crate::services::storage::Persist::forwarding());
        provide_context(Carried { cards });
        mount(widgets, &name, &params)
    });
    let drawn = el.first_child().unwrap_or_else(|| el.into());
    MOUNTED.with(|m| m.borrow_mut().push((drawn, Box::new(handle))));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Block, LESSONS};
    use std::collections::BTreeSet;

    fn names(widgets: &[Widget]) -> BTreeSet<&'static str> {
        widgets.iter().map(|w| w.name).collect()
    }

    #[test]
    fn every_lesson_has_a_module_with_exactly_its_widgets() {
        for lesson in LESSONS {
            let shown: BTreeSet<&str> = lesson
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Widget(w) => Some(w.name),
                    Block::Prose(_) | Block::Drawn(_) => None,
                })
                .collect();
            if shown.is_empty() {
                continue;
            }
            assert!(
                MODULES.iter().any(|(_, list, _)| names(list) == shown),
                "lesson {} shows {shown:?}: add a module with exactly these widgets",
                lesson.slug
            );
            // That module carries the lesson's cards too, as does the one with every widget.
            let needs: BTreeSet<String> = lesson
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Widget(w) => {
                        // What the build wrote is the rule's.
                        let pairs: Vec<(String, String)> = serde_json::from_str(w.params).unwrap();
                        let params = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()));
                        assert_eq!(w.needs, widget_needs(w.name, params), "{}", lesson.slug);
                        Some(w.needs.split(' ').map(str::to_string))
                    }
                    Block::Prose(_) | Block::Drawn(_) => None,
                })
                .flatten()
                .collect();
            for (name, list, cards) in MODULES {
                if names(list) == shown || *name == MODULES[0].0 {
                    let carried: BTreeSet<String> = carried(list, cards).into_iter().collect();
                    assert!(
                        needs.is_subset(&carried),
                        "lesson {} needs {needs:?}; {name} carries {carried:?}",
                        lesson.slug
                    );
                }
            }
        }
    }

    #[test]
    fn a_lesson_s_module_carries_its_own_cards_and_no_others() {
        let lesson_of = |cards| {
            crate::logic::recall::deck_of(cards)
                .iter()
                .map(|c| c.lesson.as_str())
                .collect::<BTreeSet<_>>()
        };
        assert_eq!(lesson_of(APP_CARDS), BTreeSet::from(["about-your-app"]));
        assert_eq!(
            lesson_of(LAB_CARDS),
            BTreeSet::from(["measure-it-yourself"])
        );
        assert_eq!(
            lesson_of(OVERVIEW_CARDS),
            BTreeSet::from(["overview", "chapter-map"])
        );
        assert_eq!(
            carried(APP, APP_CARDS),
            ["workload-sort", "recall", "cards:about-your-app"]
        );
        let every = carried(ALL, WHOLE_DECK);
        for lesson in crate::content::LESSONS {
            assert!(
                every.contains(&cards_needed(lesson.slug)),
                "{}",
                lesson.slug
            );
        }
    }

    #[test]
    fn the_first_module_carries_every_widget_once() {
        assert_eq!(MODULES[0].1.len(), REGISTRY.len());
        assert_eq!(names(MODULES[0].1).len(), REGISTRY.len());
        for (name, list, _) in MODULES {
            assert_eq!(names(list).len(), list.len(), "{name} lists a widget twice");
        }
    }

    #[test]
    fn every_module_has_its_binary_and_every_binary_its_module() {
        let bins = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin");
        for (name, list, cards) in MODULES {
            let source = std::fs::read_to_string(bins.join(format!("{name}.rs")))
                .unwrap_or_else(|e| panic!("src/bin/{name}.rs: {e}"));
            let listed = MODULES.iter().filter(|(n, _, _)| n == name).count();
            assert_eq!(listed, 1, "{name} is listed twice");
            // The binary exports the list and the cards this table gives it (by their
            // constants' names).
            let args: Vec<&str> = source
                .split("widgets_module!(")
                .nth(1)
                .and_then(|rest| rest.split(')').next())
                .map(|args| {
                    args.split(',')
                        .filter_map(|path| path.trim().rsplit("::").next())
                        .collect()
                })
                .unwrap_or_default();
            let [constant, cards_constant] = args[..] else {
                panic!("src/bin/{name}.rs has no widgets_module!(LIST, CARDS)")
            };
            let by_cards = match cards_constant {
                "WHOLE_DECK" => WHOLE_DECK,
                "OVERVIEW_CARDS" => OVERVIEW_CARDS,
                "SIZE_CARDS" => SIZE_CARDS,
                "LAB_CARDS" => LAB_CARDS,
                "MODEL_CARDS" => MODEL_CARDS,
                "APP_CARDS" => APP_CARDS,
                "LATENCY_CARDS" => LATENCY_CARDS,
                "SHARED_CARDS" => SHARED_CARDS,
                other => panic!("src/bin/{name}.rs names unknown cards {other}"),
            };
            assert_eq!(by_cards, *cards, "src/bin/{name}.rs");
            let by_constant = match constant {
                "ALL" => ALL,
                "OVERVIEW" => OVERVIEW,
                "SIZE" => SIZE,
                "LAB" => LAB,
                "MODEL" => MODEL,
                "APP" => APP,
                "LATENCY_PAGE" => LATENCY_PAGE,
                "SHARED" => SHARED,
                "RECALL_PAGE" => RECALL_PAGE,
                other => panic!("src/bin/{name}.rs names an unknown list {other}"),
            };
            assert_eq!(names(by_constant), names(list), "src/bin/{name}.rs");
        }
        for entry in std::fs::read_dir(&bins).unwrap() {
            let file = entry.unwrap().file_name().into_string().unwrap();
            if let Some(bin) = file
                .strip_prefix("ie-widgets")
                .map(|_| file.trim_end_matches(".rs"))
            {
                assert!(
                    MODULES.iter().any(|(name, _, _)| *name == bin),
                    "src/bin/{file} is not in MODULES"
                );
            }
        }
    }
}
