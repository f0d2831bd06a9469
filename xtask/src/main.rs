//! The course's build driver. Trunk builds the site (`trunk build`, `trunk serve`): it copies the
//! files named in `index.html` and then runs this as its post-build hook (`Trunk.toml`), which
//! makes everything else in Trunk's staging folder:
//!
//! 1. every wasm module (`modules`): the shell's, one widgets module per lesson, the print page's
//!    with every widget, and the SQL engine, built by cargo with the pinned nightly toolchain
//!    (`tools`), then wasm-bindgen, then in release builds wasm-opt (through a cache) and esbuild
//!    for the JavaScript; each module's files named for their contents, in a folder named for its
//!    snippets' contents;
//! 2. the stylesheets and scripts every page loads (`assets`): minified in release builds, then
//!    named for their contents;
//! 3. every page (`pages`): the app's own components rendered to HTML, with a head that names the
//!    files above, a Content-Security-Policy `<meta>`, and the modules' `<meta>`s the start script
//!    reads (`js/start.js`);
//! 4. the measuring lab's folder (`lab`): the decode engine built twice (simd128, relaxed SIMD),
//!    its worker and the trained models, fetched only when a reader starts the lab;
//! 5. `search.json`, the list of widgets modules, and the service worker with the list of every
//!    file to keep offline but those fetched on demand (`offline`).
//!
//! No step rewrites a file another tool wrote: what wasm-bindgen and wasm-opt give is used as it
//! is, minified before it is named, and read only for its imports.
//!
//! `cargo run -p xtask -- site` is what the hook runs; the environment Trunk gives it says where
//! and how (`TRUNK_STAGING_DIR`, `TRUNK_PROFILE`, `TRUNK_PUBLIC_URL`).

mod assets;
mod lab;
mod modules;
mod offline;
mod pages;
mod tools;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("site") => Config::from_env().and_then(|c| site(&c)),
        Some("toolchain") => tools::wasm_toolchain(&root()).map(|t| println!("{t}")),
        _ => Err(
            "usage: cargo run -p xtask -- site      (Trunk's post-build hook: Trunk.toml)\n       \
                  cargo run -p xtask -- toolchain (prints the toolchain the wasm modules need)"
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The checkout's root folder (this crate's parent).
fn root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// What a build makes and where: from the environment Trunk gives its hooks.
pub struct Config {
    /// The checkout.
    pub root: PathBuf,
    /// Where the site is written (Trunk's staging folder, which becomes `dist/`).
    pub out: PathBuf,
    /// Cargo's target folder; the driver's own work goes to `<target>/site/<profile>/`.
    pub target: PathBuf,
    /// A release build (optimized, minified) rather than a quick one for `trunk serve`.
    pub release: bool,
    /// The address the site is served under, ending in `/` (`/`, or `/repo/` on GitHub Pages).
    pub base: String,
    /// Keep the functions' names in the wasm (`IE_WASM_KEEP_NAMES=1`), for a profile or twiggy.
    pub keep_names: bool,
    /// Build the widgets modules with the cargo feature `test-hooks` (`IE_TEST_HOOKS=1`): the test
    /// command's sub-path build, whose exports let a test make a module abort.
    pub test_hooks: bool,
}

impl Config {
    fn from_env() -> Result<Self, String> {
        let root = root();
        let out = std::env::var_os("TRUNK_STAGING_DIR")
            .map(PathBuf::from)
            .ok_or(
                "TRUNK_STAGING_DIR is not set: run this as Trunk's post-build hook (`trunk build`)",
            )?;
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .map(|t| if t.is_absolute() { t } else { root.join(t) })
            .unwrap_or_else(|| root.join("target"));
        let base = std::env::var("TRUNK_PUBLIC_URL").unwrap_or_else(|_| "/".into());
        let flag = |name: &str| std::env::var(name).is_ok_and(|v| v == "1");
        Ok(Self {
            root,
            out,
            target,
            release: std::env::var("TRUNK_PROFILE").is_ok_and(|p| p == "release"),
            base: if base.ends_with('/') {
                base
            } else {
                format!("{base}/")
            },
            keep_names: flag("IE_WASM_KEEP_NAMES"),
            test_hooks: flag("IE_TEST_HOOKS"),
        })
    }

    /// The driver's own work folder for this profile.
    pub fn work(&self) -> PathBuf {
        self.target
            .join("site")
            .join(if self.release { "release" } else { "debug" })
    }
}

fn site(config: &Config) -> Result<(), String> {
    let started = std::time::Instant::now();
    let tools = tools::Tools::find(config)?;
    let mut modules = modules::build(config, &tools)?;
    let lab = lab::build(config, &tools)?;
    modules.on_demand.push(lab.clone());
    let assets = assets::install(config, &tools, &modules)?;
    pages::write_all(config, &modules, &assets, &lab)?;
    offline::write_service_worker(config, &tools, &modules)?;
    eprintln!(
        "xtask: the site is in {} ({:.1} s)",
        config.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
