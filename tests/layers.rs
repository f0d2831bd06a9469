//! The layers of `src/` import downwards only (ARCHITECTURE.md, "The layers"):
//!
//! ```text
//! logic, content, nav, figures   plain Rust: no web types, nothing above
//!        ▲
//! services                       storage, the address bar, downloads, timers, the page's conventions
//!        ▲
//! app        widgets             the shell and the widgets: neither imports the other
//!        ▲
//! lib.rs, exports.rs, bin/       where the shell and the widgets meet
//! ```
//!
//! This reads the sources as text: a path that names a higher layer (`crate::app`, the shell's
//! `crate::mount` …) in a file of a lower one fails, with its file and line. Comments do not count.
#![allow(
    clippy::unwrap_used,
    reason = "a test stops at the first thing that is wrong"
)]

use std::path::{Path, PathBuf};

/// Paths that name the shell: its module, and what the crate root re-exports of it.
const APP: &[&str] = &["crate::app", "crate::mount", "crate::App"];
const WIDGETS: &[&str] = &["crate::widgets"];
const SERVICES: &[&str] = &["crate::services"];
/// What a browser-free layer must not name.
const WEB: &[&str] = &["leptos", "web_sys", "js_sys", "wasm_bindgen", "gloo_"];

/// The Rust files of a layer: `src/<name>.rs` and everything under `src/<name>/`.
fn layer(name: &str) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![src.join(format!("{name}.rs"))];
    let mut dirs = vec![src.join(name)];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.retain(|f| f.exists());
    assert!(!files.is_empty(), "no files in layer {name}");
    files
}

/// Every line of `files` (outside comments) that names one of `banned`, as `file:line: text`.
fn naming(files: &[PathBuf], banned: &[&[&str]]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if banned.iter().flat_map(|b| b.iter()).any(|b| names(code, b)) {
                let shown = file.strip_prefix(root).unwrap_or(file).display();
                found.push(format!("{shown}:{}: {}", i + 1, code));
            }
        }
    }
    found
}

/// True when `code` names `path` as a path (not as part of a longer name: `crate::apps` is not
/// `crate::app`, `leptos_meta` is not `leptos`).
fn names(code: &str, path: &str) -> bool {
    code.match_indices(path).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + path.len()..].chars().next();
        let starts = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
        let ends = path.ends_with('_') || !after.is_some_and(|c| c.is_alphanumeric() || c == '_');
        starts && ends
    })
}

fn check(what: &str, found: Vec<String>) {
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

#[test]
fn the_plain_layers_name_nothing_above_them_and_no_web_type() {
    for name in ["logic", "content", "nav", "figures"] {
        check(
            &format!("src/{name} names a higher layer or a web type"),
            naming(&layer(name), &[APP, WIDGETS, SERVICES, WEB]),
        );
    }
}

#[test]
fn services_name_neither_the_shell_nor_the_widgets() {
    check(
        "src/services names a layer above it",
        naming(&layer("services"), &[APP, WIDGETS]),
    );
}

#[test]
fn the_shell_and_the_widgets_do_not_import_each_other() {
    check(
        "src/widgets names the shell",
        naming(&layer("widgets"), &[APP]),
    );
    check(
        "src/app names the widgets",
        naming(&layer("app"), &[WIDGETS]),
    );
}

#[test]
fn the_check_sees_what_it_looks_for() {
    // The patterns match the paths the rules are about, and nothing longer.
    assert!(names("use crate::app::router::Location;", "crate::app"));
    assert!(names("crate::mount()", "crate::mount"));
    assert!(names("        $crate::app::mount()", "crate::app"));
    assert!(!names("use crate::apps::x;", "crate::app"));
    assert!(!names("use leptos_meta::Title;", "leptos"));
    assert!(names("use leptos::prelude::*;", "leptos"));
    assert!(names("use gloo_storage::Storage;", "gloo_"));
    assert!(!names("let my_leptos = 1;", "leptos"));
    // The layers hold files.
    assert!(layer("app")
        .iter()
        .any(|f| f.ends_with("app/static_page.rs")));
    assert!(layer("widgets")
        .iter()
        .any(|f| f.ends_with("widgets/recall/card.rs")));
}
