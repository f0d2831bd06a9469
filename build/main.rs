//! Build script: compiles the lessons in `content/` into Rust data for `src/content.rs`.
//!
//! A broken lesson fails the build here, with `content/<file>:<line>: <what to fix>`.
//! It includes the app's own pure modules (`src/calc`, `src/figures.rs`) and widget registry by
//! path, so figures in the text come from the widgets' code and widget names are checked.
#![allow(dead_code)]

// The app's own pure modules, by path; an inline module keeps `calc`'s submodules in
// `src/calc/`, and the `use` lets them say `crate::calc` as they do in the app.
#[path = "../src"]
mod app {
    pub mod calc;
    pub mod figures;
}
mod lessons;
use app::{calc, figures};

macro_rules! widgets {
    ($($name:literal => $mount:path [$($key:literal),* $(,)?]),* $(,)?) => {
        /// Registered widget names and the parameter keys each accepts.
        const WIDGETS: &[(&str, &[&str])] = &[$(($name, &[$($key),*])),*];
    };
}
include!("../src/widgets/registry.rs");

fn main() {
    let root =
        std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let content = root.join("content");
    println!("cargo:rerun-if-changed=content");
    println!("cargo:rerun-if-changed=src/widgets/registry.rs");
    println!("cargo:rerun-if-changed=src/figures.rs");
    println!("cargo:rerun-if-changed=src/calc");
    println!("cargo:rerun-if-changed=src/calc.rs");

    let read = |name: &str| std::fs::read_to_string(content.join(name)).map_err(|e| e.to_string());
    let ctx = lessons::Context {
        widgets: WIDGETS,
        inline_figure: &|name, args| figures::inline(name, args),
        block_figure: &|name, args| figures::block(name, args),
    };
    match lessons::compile_course(&read, &ctx) {
        Ok((toc, compiled)) => {
            let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
            std::fs::write(out.join("content.rs"), lessons::emit_rust(&toc, &compiled))
                .expect("OUT_DIR is writable");
        }
        Err(e) => {
            // Cargo shows build-script errors; this line names the file and line to fix.
            eprintln!("error: {e}");
            println!("cargo:warning={e}");
            std::process::exit(1);
        }
    }
}
