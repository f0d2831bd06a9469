//! The site's wasm modules: the shell's (`src/main.rs`, for pages that show no widget), one
//! widgets module per lesson and the print page's with every widget (`src/bin/ie-widgets*.rs`,
//! listed in `src/widgets/modules.rs`; each carries the shell too), and the SQL engine
//! (`src/bin/ie-sql.rs`, fetched only when a reader asks for execution grading).
//!
//! Each is built the same way:
//! 1. cargo, for wasm32, with the pinned nightly (`tools/wasm-toolchain.toml`) and these flags,
//!    which make a lesson's module 10–13 % smaller (brotli):
//!    - `-Zbuild-std`: the standard library compiled with the crate, at opt-level z and through
//!      LTO with it, with std's `optimize_for_size` (its smaller sorting and formatting);
//!    - `-Cpanic=immediate-abort`: a panic traps at once, as `panic = "abort"` ends in anyway
//!      (the loader's notice and restart, `js/loader.js`), without formatting its message;
//!    - `-Zfmt-debug=none`, `-Zlocation-detail=none`: no `Debug` output and no source locations
//!      (nothing a page shows is written with `{:?}`; the native tests keep both);
//!    - `--cfg erase_components`: Leptos boxes each component's view instead of nesting their
//!      types, about 14 % smaller;
//! 2. wasm-bindgen (`--target web`), its output used as it is: a lesson page makes a second
//!    instance of its module by importing the same script under a second address
//!    (`js/loader.js`);
//! 3. in release builds, `wasm-opt -Oz --low-memory-unused` through a cache in the target folder
//!    (the same input gives the same output, so the test command's second build does not
//!    optimize again). `--low-memory-unused` may fold `p + k` into a load's offset for k under
//!    1024, which differs only when the sum wraps to an address under 1024; Rust's linker puts
//!    the stack there, growing down from 1 MB, so only a stack 1 MB deep reaches it, and that
//!    has overrun the stack already;
//! 4. in release builds, esbuild minifies the scripts (wasm-bindgen's and its snippets, the
//!    project's own `js/` files that Rust imports);
//! 5. then the files are named for their contents: each module's script and wasm
//!    `<name>-<hash>.js` and `<name>-<hash>_bg.wasm`, in a folder named for the contents of the
//!    snippets beside them (`app-<hash>/snippets/…`), which the scripts import by relative
//!    address. wasm-bindgen names a snippet's folder for the crate, not for its contents, so a
//!    browser that kept an older build's snippet could otherwise give it to a newer module.

use crate::tools::{files_under, read, run, short_hash, write, Tools};
use crate::Config;
use ie_course::widgets::modules::{carried, MODULES};
use sha2::Digest;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The shell's own module (`src/main.rs`).
pub const SHELL: &str = "ie-course";
/// The SQL engine's module (`src/bin/ie-sql.rs`).
pub const SQL: &str = "ie-sql";

/// A module as the site holds it. Paths are from the site's base.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// Its binary's name (`ie-widgets-model`).
    pub name: String,
    /// Its script.
    pub js: String,
    /// Its wasm.
    pub wasm: String,
    /// The scripts its script imports (wasm-bindgen's snippets: the widget loader, the prose's
    /// and the SQL engine's loaders), read from the wasm's imports.
    pub imports: Vec<String>,
    /// Its wasm's size: a page takes the smallest module that carries all it shows.
    pub bytes: u64,
}

impl Module {
    /// The widget loader (`js/loader.js`) among its imports, which the start script imports
    /// itself too (the same address, so the same instance).
    pub fn loader(&self) -> Option<&str> {
        self.imports
            .iter()
            .map(String::as_str)
            .find(|i| i.ends_with("/js/loader.js"))
    }
}

/// A widgets module and what it carries: its widgets' names, and `cards:<slug>` for each lesson
/// whose recall cards it carries (what a page's widgets need, `WidgetUse::needs`).
#[derive(Debug, Clone, PartialEq)]
pub struct WidgetsModule {
    pub module: Module,
    pub carries: Vec<String>,
}

/// Every module the site has.
pub struct Modules {
    pub shell: Module,
    /// Listed in `src/widgets/modules.rs`'s order (the first carries every widget).
    pub widgets: Vec<WidgetsModule>,
    pub sql: Module,
    /// Folders (from the site's base) of what is fetched only when a reader asks, never
    /// precached.
    pub on_demand: Vec<String>,
}

/// Builds every module into the site.
pub fn build(config: &Config, tools: &Tools) -> Result<Modules, String> {
    let mut app_bins: Vec<&str> = vec![SHELL];
    app_bins.extend(MODULES.iter().map(|(name, _, _)| *name));
    let features: &[&str] = if config.test_hooks {
        &["test-hooks"]
    } else {
        &[]
    };
    cargo_build(config, tools, &app_bins, features)?;
    cargo_build(config, tools, &[SQL], &["sql"])?;

    let app = bundle(config, tools, "app", &app_bins)?;
    let sql = bundle(config, tools, "sql", &[SQL])?;
    let take = |bundle: &Bundle, name: &str| {
        bundle
            .modules
            .iter()
            .find(|m| m.name == name)
            .cloned()
            .ok_or(format!("the build made no module {name}"))
    };
    let widgets = MODULES
        .iter()
        .map(|(name, list, cards)| {
            Ok(WidgetsModule {
                module: take(&app, name)?,
                carries: carried(list, cards),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Modules {
        shell: take(&app, SHELL)?,
        widgets,
        sql: take(&sql, SQL)?,
        on_demand: vec![sql.folder.clone()],
    })
}

/// The flags of the nightly build (see the top of this file).
const RUSTFLAGS: &str = "--cfg erase_components -Zunstable-options -Cpanic=immediate-abort \
                         -Zfmt-debug=none -Zlocation-detail=none";

/// cargo's target folder for the wasm modules: apart from the native one, so that neither
/// build's cache evicts the other's.
fn wasm_target(config: &Config) -> PathBuf {
    config.target.join("wasm")
}

/// One cargo run builds the crate once and links each of `bins`.
fn cargo_build(
    config: &Config,
    tools: &Tools,
    bins: &[&str],
    features: &[&str],
) -> Result<(), String> {
    let mut cargo = Command::new("cargo");
    cargo
        .current_dir(&config.root)
        .arg(format!("+{}", tools.toolchain))
        .args([
            "build",
            "--quiet",
            "--locked",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .args([
            "-Zbuild-std=std,panic_abort",
            "-Zbuild-std-features=optimize_for_size",
        ])
        .env("RUSTFLAGS", RUSTFLAGS)
        .env("CARGO_TARGET_DIR", wasm_target(config))
        // The hook runs inside Trunk, which may set these for its own cargo.
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("RUSTC_WRAPPER");
    for bin in bins {
        cargo.args(["--bin", bin]);
    }
    if !features.is_empty() {
        cargo.args(["--features", &features.join(",")]);
    }
    if config.release {
        cargo.arg("--release");
    }
    run(&mut cargo)
}

/// The modules of one wasm-bindgen output folder, in the site.
struct Bundle {
    /// Its folder, from the site's base (`app-<hash>`).
    folder: String,
    modules: Vec<Module>,
}

/// wasm-bindgen, wasm-opt and esbuild for each of `bins`, in a work folder of their own; then
/// their files into the site, named for their contents.
fn bundle(config: &Config, tools: &Tools, name: &str, bins: &[&str]) -> Result<Bundle, String> {
    let work = config.work().join(name);
    if work.exists() {
        std::fs::remove_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    }
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let profile = if config.release { "release" } else { "debug" };
    let built = wasm_target(config)
        .join("wasm32-unknown-unknown")
        .join(profile);
    two_at_a_time(bins, |bin| {
        run(Command::new(&tools.wasm_bindgen)
            .args(["--target", "web", "--no-typescript", "--out-name", bin])
            .arg("--out-dir")
            .arg(&work)
            .arg(built.join(format!("{bin}.wasm"))))?;
        if config.release {
            optimize(config, tools, &work.join(format!("{bin}_bg.wasm")), &[])?;
        }
        Ok(())
    })?;
    if config.release {
        let scripts: Vec<String> = files_under(&work)?
            .into_iter()
            .filter(|f| f.ends_with(".js"))
            .collect();
        tools.minify(&work, &scripts)?;
    }

    // The snippets name the folder; the modules' files are named for themselves.
    let snippets = files_under(&work.join("snippets"))?;
    let mut fingerprint = Vec::new();
    for file in &snippets {
        fingerprint.extend_from_slice(file.as_bytes());
        fingerprint.push(0);
        fingerprint.extend_from_slice(&read(&work.join("snippets").join(file))?);
    }
    let folder = format!("{name}-{}", short_hash(&fingerprint));
    let into = config.out.join(&folder);
    for file in &snippets {
        write(
            &into.join("snippets").join(file),
            &read(&work.join("snippets").join(file))?,
        )?;
    }
    let modules = bins
        .iter()
        .map(|bin| {
            let js = read(&work.join(format!("{bin}.js")))?;
            let wasm = read(&work.join(format!("{bin}_bg.wasm")))?;
            let stem = short_hash(&[js.as_slice(), wasm.as_slice()].concat());
            let (js_name, wasm_name) =
                (format!("{bin}-{stem}.js"), format!("{bin}-{stem}_bg.wasm"));
            write(&into.join(&js_name), &js)?;
            write(&into.join(&wasm_name), &wasm)?;
            Ok(Module {
                name: bin.to_string(),
                js: format!("{folder}/{js_name}"),
                wasm: format!("{folder}/{wasm_name}"),
                imports: snippet_imports(&wasm)?
                    .into_iter()
                    .map(|s| format!("{folder}/{s}"))
                    .collect(),
                bytes: wasm.len() as u64,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Bundle { folder, modules })
}

/// Runs `job` for each of `items`, two at a time (the machines this builds on have two cores;
/// wasm-opt uses one).
fn two_at_a_time<T: Sync>(
    items: &[T],
    job: impl Fn(&T) -> Result<(), String> + Sync,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Err(e) = job(item) {
                        if let Ok(mut f) = failures.lock() {
                            f.push(e);
                        }
                    }
                }
            });
        }
    });
    match failures.into_inner().map_err(|e| e.to_string())?.first() {
        Some(e) => Err(e.clone()),
        None => Ok(()),
    }
}

/// `wasm-opt -Oz --low-memory-unused` (and `extra` flags) on `file`, in place, through a cache
/// keyed by wasm-opt's version, the flags and the input: the same input is optimized once. Entries
/// no build has used for a day are from older code and go.
pub fn optimize(config: &Config, tools: &Tools, file: &Path, extra: &[&str]) -> Result<(), String> {
    let mut flags = vec!["-Oz", "--low-memory-unused"];
    flags.extend_from_slice(extra);
    if config.keep_names {
        flags.push("-g");
    }
    let input = read(file)?;
    let key = {
        let mut h = sha2::Sha256::new();
        h.update(tools.wasm_opt_version.as_bytes());
        h.update(flags.join(" ").as_bytes());
        h.update(&input);
        h.finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let cache = config.target.join("wasm-opt-cache");
    let kept = cache.join(format!("{key}.wasm"));
    if !kept.is_file() {
        let partial = cache.join(format!("{key}.{}.tmp", std::process::id()));
        std::fs::create_dir_all(&cache).map_err(|e| e.to_string())?;
        run(Command::new(&tools.wasm_opt)
            .args(&flags)
            .arg("--output")
            .arg(&partial)
            .arg(file))?;
        std::fs::rename(&partial, &kept).map_err(|e| e.to_string())?;
    }
    std::fs::copy(&kept, file).map_err(|e| format!("{}: {e}", file.display()))?;
    // Used now: the clean-up below keeps it.
    let _ = std::fs::File::options()
        .append(true)
        .open(&kept)
        .and_then(|f| f.set_modified(std::time::SystemTime::now()));
    let day = std::time::Duration::from_secs(24 * 60 * 60);
    for entry in std::fs::read_dir(&cache)
        .map_err(|e| e.to_string())?
        .flatten()
    {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > day);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Ok(())
}

/// The snippets a wasm-bindgen module imports (`snippets/<crate>-<hash>/js/loader.js`), read from
/// its import section: wasm-bindgen's script passes each snippet's module to the wasm under its
/// relative address.
pub fn snippet_imports(wasm: &[u8]) -> Result<Vec<String>, String> {
    let mut found: Vec<String> = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        if let wasmparser::Payload::ImportSection(reader) = payload.map_err(|e| e.to_string())? {
            for import in reader {
                let import = import.map_err(|e| e.to_string())?;
                if let Some(path) = import.module.strip_prefix("./") {
                    if path.starts_with("snippets/") && !found.iter().any(|f| f == path) {
                        found.push(path.to_string());
                    }
                }
            }
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wasm module with the given function imports (module, name), hand-assembled.
    fn module_importing(imports: &[(&str, &str)]) -> Vec<u8> {
        let mut section = vec![imports.len() as u8];
        for (module, name) in imports {
            section.push(module.len() as u8);
            section.extend_from_slice(module.as_bytes());
            section.push(name.len() as u8);
            section.extend_from_slice(name.as_bytes());
            section.extend_from_slice(&[0x00, 0x00]); // a function of type 0
        }
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend_from_slice(&[0x01, 0x04, 0x01, 0x60, 0x00, 0x00]); // type 0: [] -> []
        wasm.push(0x02);
        // The section's size, as unsigned LEB128.
        let mut size = section.len();
        loop {
            let byte = (size & 0x7f) as u8;
            size >>= 7;
            wasm.push(if size == 0 { byte } else { byte | 0x80 });
            if size == 0 {
                break;
            }
        }
        wasm.extend(section);
        wasm
    }

    #[test]
    fn a_modules_snippets_are_read_from_its_imports() {
        let wasm = module_importing(&[
            ("./snippets/ie-course-ab12/js/prose.js", "adopt_prose"),
            ("./ie-widgets-model_bg.js", "__wbg_x"),
            ("./snippets/ie-course-ab12/js/loader.js", "mount_widget"),
            ("./snippets/ie-course-ab12/js/loader.js", "drawn_shown"),
        ]);
        assert_eq!(
            snippet_imports(&wasm),
            Ok(vec![
                "snippets/ie-course-ab12/js/loader.js".to_string(),
                "snippets/ie-course-ab12/js/prose.js".to_string(),
            ])
        );
        let module = Module {
            name: "m".into(),
            js: "app-1/m-2.js".into(),
            wasm: "app-1/m-2_bg.wasm".into(),
            imports: vec!["app-1/snippets/ie-course-ab12/js/loader.js".into()],
            bytes: 1,
        };
        assert_eq!(
            module.loader(),
            Some("app-1/snippets/ie-course-ab12/js/loader.js")
        );
        assert!(snippet_imports(b"not wasm").is_err());
    }

    #[test]
    fn two_at_a_time_runs_every_job_and_reports_a_failure() {
        let done = Mutex::new(Vec::new());
        let items = [1, 2, 3, 4, 5];
        let result = two_at_a_time(&items, |i| {
            done.lock().map_err(|e| e.to_string())?.push(*i);
            if *i == 4 {
                Err("four".into())
            } else {
                Ok(())
            }
        });
        assert_eq!(result, Err("four".to_string()));
        let mut done = done.into_inner().unwrap_or_default();
        done.sort();
        assert_eq!(done, items);
    }
}
