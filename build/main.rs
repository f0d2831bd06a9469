//! Build script: compiles the lessons in `content/` into Rust data for `src/content.rs`, and the
//! diagrams' words (`content/diagrams.md`) into Rust data for `src/app/diagrams/data.rs`.
//!
//! A broken lesson or diagram fails the build here, with `content/<file>:<line>: <what to fix>`.
//! It includes the app's own pure modules (the calculators in `src/logic/`, `src/figures.rs`)
//! and widget registry by path, so figures in the text come from the widgets' code and widget
//! names are checked.
//!
//! The no-panic lints (Cargo.toml) guard the reader's browser; this script runs on the author's
//! machine, where a bug that panics fails the build as loudly as an error would. The app's own
//! modules it includes are held to the lints where the app compiles them.
#![allow(
    clippy::indexing_slicing,
    reason = "build-time only: a panic here fails the build and never reaches a reader"
)]

// The app's own pure modules, by path: the ones the figures and the search index need, and no
// other. The inline modules keep their files where the app has them, and the `use` lets them
// say `crate::logic` as they do in the app.
#[path = "../src"]
#[expect(
    dead_code,
    unused_imports,
    reason = "the build calls a few functions of each module, and every other item (and \
              re-export) is the app's; were `logic` a crate of the workspace, the build would \
              depend on it instead"
)]
mod app {
    pub mod figures;
    pub mod logic {
        pub mod batching;
        pub mod break_even;
        pub mod calendar;
        pub mod decode;
        pub mod distill;
        pub mod eval;
        pub mod fleet;
        pub mod format;
        pub mod gpus;
        pub mod input;
        pub mod kv_cache;
        pub mod lab;
        pub mod latency;
        pub mod memory;
        pub mod order;
        pub mod query;
        pub mod rng;
        pub mod search;
        pub mod stats;
        pub mod worksheet;
        pub use input::{parse_number, read_f64, FormField, InputError};
    }
}
mod diagrams;
mod lessons;
use app::{figures, logic};

macro_rules! widgets {
    ($($id:ident $name:literal => $mount:path [$($key:literal),* $(,)?]),* $(,)?) => {
        /// Registered widget names and the parameter keys each accepts.
        const WIDGETS: &[(&str, &[&str])] = &[$(($name, &[$($key),*])),*];
    };
}
macro_rules! drawn {
    ($($name:literal),* $(,)?) => {
        /// The widgets drawn at build time (the diagrams): they take no parameters.
        const DRAWN: &[&str] = &[$($name),*];
    };
}
include!("../src/widgets/registry.rs");

/// The search index of every lesson section, as Rust source for `src/content.rs`.
fn emit_search_index(compiled: &[lessons::CompiledLesson]) -> String {
    let sections: Vec<(usize, usize, &str, &str)> = compiled
        .iter()
        .enumerate()
        .flat_map(|(l, lesson)| {
            lesson
                .sections
                .iter()
                .enumerate()
                .map(move |(s, (_, heading, text))| (l, s, heading.as_str(), text.as_str()))
        })
        .collect();
    // One line per word: `word<TAB>lesson.section.count lesson.section.count …`. Text, because
    // brotli packs it far smaller than static tables of pointers; parsed on first search.
    let mut text = String::new();
    for (term, postings) in app::logic::search::build_index(&sections) {
        text.push_str(&term);
        text.push('\t');
        let list: Vec<String> = postings
            .iter()
            .map(|(l, s, n)| format!("{l}.{s}.{n}"))
            .collect();
        text.push_str(&list.join(" "));
        text.push('\n');
    }
    format!(
        "/// The search index, built from the lessons: one line per word (sorted), a tab, then\n\
         /// `lesson.section.count` entries. See `search::parse_index`.\n\
         pub static SEARCH_INDEX: &str = lesson_text!({text:?});\n"
    )
}

/// The diagrams' words, checked against the widgets and the compiled lessons, as Rust source.
fn compile_diagrams(
    read: &dyn Fn(&str) -> Result<String, String>,
    compiled: &[lessons::CompiledLesson],
) -> Result<String, String> {
    let text = read(diagrams::FILE)
        .map_err(|m| format!("content/{}:1: cannot be read: {m}", diagrams::FILE))?;
    let lessons: Vec<diagrams::LessonRef> = compiled
        .iter()
        .map(|l| {
            let headings = l
                .headings
                .iter()
                .map(|(_, id, text)| (id.clone(), text.clone()))
                .collect();
            (l.slug.clone(), l.title.clone(), headings)
        })
        .collect();
    let refs = diagrams::Refs {
        widgets: DRAWN,
        lessons: &lessons,
        figure: &|name, args| figures::inline(name, args),
    };
    let words = diagrams::parse(&text, &refs).map_err(|e| e.to_string())?;
    Ok(diagrams::emit_rust(&words))
}

/// Each lesson's recall cards as Rust: `content/cards.json` cut into one JSON array a lesson, in
/// the file's order, so that a widgets module links the cards of the lessons it serves and no
/// others (`widgets::modules`). The cards themselves are checked by the native tests
/// (`logic::recall`, `the_deck_file_is_valid_and_names_real_lessons`).
fn emit_lesson_cards(json: &str) -> Result<String, String> {
    let cards: Vec<serde_json::Value> =
        serde_json::from_str(json).map_err(|e| format!("content/cards.json: {e}"))?;
    let mut lessons: Vec<(String, Vec<serde_json::Value>)> = Vec::new();
    for (i, card) in cards.into_iter().enumerate() {
        let lesson = card
            .get("lesson")
            .and_then(|l| l.as_str())
            .ok_or(format!("content/cards.json: card {} has no lesson", i + 1))?
            .to_string();
        match lessons.iter_mut().find(|(l, _)| *l == lesson) {
            Some((_, list)) => list.push(card),
            None => lessons.push((lesson, vec![card])),
        }
    }
    let constant = |slug: &str| slug.to_ascii_uppercase().replace('-', "_");
    let mut rust = String::from(
        "\n/// Each lesson's recall cards, cut from `content/cards.json` by the build: the file's JSON,\n\
         /// one array a lesson, in its order. A widgets module carries those of the lessons it\n\
         /// serves (`widgets::modules`).\npub mod lesson_cards {\n",
    );
    for (slug, list) in &lessons {
        let text = serde_json::to_string(list).map_err(|e| e.to_string())?;
        rust.push_str(&format!(
            "    /// The cards of `{slug}`.\n    pub const {}: &str = {text:?};\n",
            constant(slug)
        ));
    }
    rust.push_str(
        "    /// Every lesson's, in the file's order: the whole deck.\n    pub const WHOLE_DECK: &[&str] = &[",
    );
    for (slug, _) in &lessons {
        rust.push_str(&format!("{}, ", constant(slug)));
    }
    rust.push_str("];\n    /// Each lesson's slug, with its cards.\n    pub const BY_LESSON: &[(&str, &str)] = &[");
    for (slug, _) in &lessons {
        rust.push_str(&format!("({slug:?}, {}), ", constant(slug)));
    }
    rust.push_str("];\n}\n");
    Ok(rust)
}

/// Compiles the course and the diagrams' words into `OUT_DIR`.
fn run() -> Result<(), String> {
    let var = |name: &str| std::env::var(name).map_err(|e| format!("{name}: {e}"));
    let root = std::path::PathBuf::from(var("CARGO_MANIFEST_DIR")?);
    let content = root.join("content");
    println!("cargo:rerun-if-changed=content");
    println!("cargo:rerun-if-changed=src/widgets/registry.rs");
    println!("cargo:rerun-if-changed=src/figures.rs");
    println!("cargo:rerun-if-changed=src/figures");
    println!("cargo:rerun-if-changed=models/manifest.json");
    println!("cargo:rerun-if-changed=src/logic");
    println!("cargo:rerun-if-changed=src/logic.rs");

    let read = |name: &str| std::fs::read_to_string(content.join(name)).map_err(|e| e.to_string());
    // A lesson may place any widget: the live ones, and those drawn at build time.
    let widgets: Vec<(&str, &[&str])> = WIDGETS
        .iter()
        .copied()
        .chain(DRAWN.iter().map(|name| (*name, &[][..])))
        .collect();
    let ctx = lessons::Context {
        widgets: &widgets,
        inline_figure: &|name, args| figures::inline(name, args),
        block_figure: &|name, args| figures::block(name, args),
    };
    let (toc, compiled, glossary) =
        lessons::compile_course(&read, &ctx).map_err(|e| e.to_string())?;
    let diagram_words = compile_diagrams(&read, &compiled)?;
    let out = std::path::PathBuf::from(var("OUT_DIR")?);
    let needs = |name: &str, params: &lessons::Args| {
        widget_needs(name, params.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    };
    let mut rust = lessons::emit_rust(&toc, &compiled, &glossary, DRAWN, &needs);
    rust.push_str(&emit_search_index(&compiled));
    rust.push_str(&emit_lesson_cards(&read("cards.json")?)?);
    let write = |name: &str, text: String| {
        std::fs::write(out.join(name), text).map_err(|e| format!("OUT_DIR/{name}: {e}"))
    };
    write("content.rs", rust)?;
    write("diagrams.rs", diagram_words)
}

fn main() {
    if let Err(e) = run() {
        // Cargo shows build-script errors; this line names the file and line to fix.
        eprintln!("error: {e}");
        println!("cargo:warning={e}");
        std::process::exit(1);
    }
}
