//! The measuring lab's files, in one folder `lab-<hash>/` named for all its contents and fetched
//! only when a reader presses Start (never precached: `Modules::on_demand`; the service worker
//! keeps what a reader fetched):
//! - `engine.js`, `engine-simd128.wasm`, `engine-relaxed.wasm`: the decode engine (`crates/lm`),
//!   built twice, with wasm's `simd128` and with relaxed SIMD too; the worker takes the relaxed
//!   build where the browser validates it. The engine needs no nightly and no size options (it is
//!   built for speed: `opt-level = 3`, Cargo.toml), so it is built with the stable toolchain, in
//!   release even for `trunk serve`. Both builds export the same things, so one script serves both;
//!   the build stops if the two scripts ever differ.
//! - `worker.js` (`js/lab-worker.js`): the worker that runs the lab;
//! - `models/`: the trained models and what the page shows of their training (`models/`).
//!
//! Every page names the folder in a `<meta name="ie-course-lab">` (`pages::lab_meta`), as it names
//! the SQL engine: a move inside the app keeps the first page's head.

use crate::modules::optimize;
use crate::tools::{files_under, read, run, short_hash, write, Tools};
use crate::Config;
use std::process::Command;

/// The two builds of the engine: their name and the wasm target features each is built with.
const VARIANTS: [(&str, &str); 2] = [
    ("simd128", "+simd128"),
    ("relaxed", "+simd128,+relaxed-simd"),
];

/// The files of `models/` the lab serves besides the weights (`*.ielm`): the manifest (loss
/// curves, configs) and the held-out text the quality figures are measured on.
const MODEL_FILES: [&str; 2] = ["manifest.json", "heldout.txt"];

/// wasm-opt's features for the engine (its SIMD; the rest as LLVM emits them).
const ENGINE_FEATURES: [&str; 8] = [
    "--enable-simd",
    "--enable-relaxed-simd",
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// Builds the lab's folder into the site; returns its name (from the site's base).
pub fn build(config: &Config, tools: &Tools) -> Result<String, String> {
    let work = config.work().join("lab");
    if work.exists() {
        std::fs::remove_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    }
    let mut files = engine(config, tools, &work)?;
    files.push((
        "worker.js".into(),
        read(&config.root.join("js/lab-worker.js"))?,
    ));
    // The scripts minified in place, in the work folder.
    for (name, bytes) in &files {
        write(&work.join("site").join(name), bytes)?;
    }
    if config.release {
        tools.minify(
            &work.join("site"),
            &["engine.js".into(), "worker.js".into()],
        )?;
    }
    let mut site: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(name, _)| Ok((name.clone(), read(&work.join("site").join(name))?)))
        .collect::<Result<_, String>>()?;
    for model in files_under(&config.root.join("models"))? {
        if served_model(&model) {
            site.push((
                format!("models/{model}"),
                read(&config.root.join("models").join(&model))?,
            ));
        }
    }
    let folder = folder_name(&mut site);
    for (name, bytes) in &site {
        write(&config.out.join(&folder).join(name), bytes)?;
    }
    Ok(folder)
}

/// The engine's two wasm builds and their one script, as (name in the folder, bytes).
fn engine(
    config: &Config,
    tools: &Tools,
    work: &std::path::Path,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut script: Option<Vec<u8>> = None;
    for (variant, features) in VARIANTS {
        let target = config.target.join(format!("wasm-lm-{variant}"));
        run(Command::new("cargo")
            .current_dir(&config.root)
            .args(["build", "--quiet", "--locked", "--release", "-p", "ie-lm"])
            .args(["--features", "browser"])
            .args(["--target", "wasm32-unknown-unknown"])
            .env("RUSTFLAGS", format!("-C target-feature={features}"))
            .env("CARGO_TARGET_DIR", &target)
            // The hook runs inside Trunk, which may set these for its own cargo.
            .env_remove("CARGO_BUILD_TARGET")
            .env_remove("RUSTC_WRAPPER"))?;
        let out = work.join(variant);
        run(Command::new(&tools.wasm_bindgen)
            .args(["--target", "web", "--no-typescript", "--out-name", "engine"])
            .arg("--out-dir")
            .arg(&out)
            .arg(target.join("wasm32-unknown-unknown/release/ie_lm.wasm")))?;
        let wasm = out.join("engine_bg.wasm");
        if config.release {
            optimize(config, tools, &wasm, &ENGINE_FEATURES)?;
        }
        let js = read(&out.join("engine.js"))?;
        match &script {
            Some(first) if *first != js => {
                return Err(format!(
                    "the engine's {variant} build exports other things than its simd128 build"
                ))
            }
            _ => script = Some(js),
        }
        files.push((format!("engine-{variant}.wasm"), read(&wasm)?));
    }
    files.push(("engine.js".into(), script.unwrap_or_default()));
    Ok(files)
}

/// Whether `file` (a path inside `models/`) is served: the weights and [`MODEL_FILES`], not the
/// training script, its log or the runs' sidecars, and nothing from a folder (a venv, a cache).
fn served_model(file: &str) -> bool {
    !file.contains('/') && (file.ends_with(".ielm") || MODEL_FILES.contains(&file))
}

/// `lab-<hash>`: the folder's name, from every file's name and contents (sorted first), so that
/// any change to the engine, the worker or a model makes a new folder.
fn folder_name(site: &mut [(String, Vec<u8>)]) -> String {
    site.sort();
    let mut fingerprint = Vec::new();
    for (name, bytes) in site.iter() {
        fingerprint.extend_from_slice(name.as_bytes());
        fingerprint.push(0);
        fingerprint.extend_from_slice(bytes);
    }
    format!("lab-{}", short_hash(&fingerprint))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lab_serves_the_weights_manifest_and_heldout_text_only() {
        assert!(served_model("teacher.ielm"));
        assert!(served_model("student-soft-10.ielm"));
        assert!(served_model("manifest.json"));
        assert!(served_model("heldout.txt"));
        assert!(!served_model("train.py"));
        assert!(!served_model("teacher.run.json"));
        assert!(!served_model("training-log.txt"));
        assert!(!served_model(".venv/lib/x.ielm"));
        // What the checkout holds: every model the manifest names is served.
        let files = files_under(&crate::root().join("models")).unwrap_or_default();
        let served: Vec<&String> = files.iter().filter(|f| served_model(f)).collect();
        assert_eq!(served.len(), 9, "{served:?}");
    }

    #[test]
    fn the_folder_is_named_for_every_file_and_its_contents() {
        let mut a = vec![
            ("b".to_string(), b"1".to_vec()),
            ("a".into(), b"2".to_vec()),
        ];
        let mut b = vec![
            ("a".to_string(), b"2".to_vec()),
            ("b".into(), b"1".to_vec()),
        ];
        let name = folder_name(&mut a);
        assert!(name.starts_with("lab-") && name.len() == 20, "{name}");
        assert_eq!(name, folder_name(&mut b), "order does not matter");
        let mut c = vec![
            ("a".to_string(), b"2".to_vec()),
            ("b".into(), b"3".to_vec()),
        ];
        assert_ne!(name, folder_name(&mut c));
        let mut d = vec![
            ("a".to_string(), b"2".to_vec()),
            ("c".into(), b"1".to_vec()),
        ];
        assert_ne!(name, folder_name(&mut d));
    }
}
