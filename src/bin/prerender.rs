//! Trunk post-build hook. In the folder Trunk is building (`TRUNK_STAGING_DIR`) it writes:
//! - `<slug>/index.html` for every lesson, `print/index.html`, `glossary/index.html`, the
//!   title page and `404.html`,
//!   each the shell with its page pre-rendered, its own title, description and canonical link;
//! - a Content-Security-Policy `<meta>` in every page, with the hash of Trunk's inline script;
//! - `sw.js`, the offline service worker, listing every built file under a version that
//!   changes whenever any file does.
//!
//! Run by Trunk (see Trunk.toml); `TRUNK_PUBLIC_URL` gives the canonical links' base.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    match postbuild::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("prerender: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod postbuild {
    use ie_course::content::{Block, Lesson, LESSONS};
    use ie_course::nav::{self, Route};
    use ie_course::prerender::{
        app_head, content_security_policy, drawn_head, glue_as_factory, glue_imports,
        inline_script_hashes, module_css, page_html, page_module, precached, search_json,
        service_worker, snippets_dir_named, snippets_fingerprint, sql_head,
        start_after_first_paint, widgets_head, widgets_list, with_head_extras,
        with_short_import_names, with_snippets_in, without_html_comments, without_line_comments,
        InstalledModule, WidgetFiles,
    };
    use ie_course::widgets::modules::{carried, MODULES};
    use sha2::Digest;
    use std::path::{Path, PathBuf};

    /// The widgets' stylesheet, cut into one per widgets module (`module_css`).
    const WIDGETS_CSS: &str = include_str!("../../style/widgets.css");
    /// The script that answers the diagrams the build draws.
    const DIAGRAMS_JS: &str = include_str!("../../style/diagrams.js");
    /// The worker that compiles a page's wasm before the page runs it.
    const WARMUP_JS: &str = include_str!("../../style/warmup.js");

    pub fn run() -> Result<(), String> {
        let staging = std::env::var_os("TRUNK_STAGING_DIR")
            .map(PathBuf::from)
            .ok_or("TRUNK_STAGING_DIR is not set; run this as a Trunk post_build hook")?;
        let public_url = std::env::var("TRUNK_PUBLIC_URL").unwrap_or_else(|_| "/".into());
        let base = if public_url.ends_with('/') {
            public_url
        } else {
            format!("{public_url}/")
        };
        let shell_path = staging.join("index.html");
        let shell = std::fs::read_to_string(&shell_path)
            .map_err(|e| format!("cannot read {}: {e}", shell_path.display()))?;
        // The worker that runs a page's wasm once before the page does (`start_after_first_paint`),
        // under a name that carries its hash.
        let warmup_js = without_line_comments(WARMUP_JS);
        let warmup = format!("warmup-{}.js", short_hash(warmup_js.as_bytes()));
        write(&staging.join(&warmup), &warmup_js)?;
        let shell = start_after_first_paint(&without_html_comments(&shell), &warmup)
            .ok_or("Trunk's loader script in index.html has an unexpected shape")?;
        let widgets_dir = std::env::var_os("IE_WIDGETS_DIR").map(PathBuf::from);
        let snippets = install_snippets(&staging, widgets_dir.as_deref())?;
        shorten_shell_imports(&staging, &snippets)?;
        let widgets = match &widgets_dir {
            Some(dir) => install_widgets(dir, &staging, &snippets)?,
            None => Vec::new(),
        };
        // The whole stylesheet, for a page that draws a diagram in a build without modules.
        let every_css = install_css(&staging, &widget_names())?;

        // The list of every module, and the diagrams' script, under names that carry their
        // hash like the modules'.
        let list = widgets_list(&widgets);
        let diagrams_js = without_line_comments(DIAGRAMS_JS);
        let widget_files = WidgetFiles {
            list: format!("ie-widgets-{}.json", short_hash(list.as_bytes())),
            diagrams: format!("diagrams-{}.js", short_hash(diagrams_js.as_bytes())),
        };
        write(&staging.join(&widget_files.diagrams), &diagrams_js)?;
        if !widgets.is_empty() {
            write(&staging.join(&widget_files.list), &list)?;
        }

        // The SQL engine module (tools/build-sql.sh), named in every page's head.
        let sql_extra = match std::env::var_os("IE_SQL_DIR") {
            Some(dir) => sql_head(&install_sql(&PathBuf::from(dir), &staging)?),
            None => String::new(),
        };

        let mut pages = vec![
            ("index.html".to_string(), Route::Home),
            ("404.html".to_string(), Route::NotFound),
            ("print/index.html".to_string(), Route::Print),
            ("glossary/index.html".to_string(), Route::Glossary),
        ];
        for (i, lesson) in LESSONS.iter().enumerate() {
            pages.push((format!("{}/index.html", lesson.slug), Route::Lesson(i)));
        }
        for (path, route) in pages {
            let html = page_html(&shell, route).ok_or_else(|| {
                format!(
                    "{} has no <div id=\"app\"></div> to fill",
                    shell_path.display()
                )
            })?;
            let canonical = match route {
                Route::NotFound => base.clone(),
                r => format!("{base}{}", nav::href(r).trim_start_matches("./")),
            };
            let shown = shown_widgets(route);
            let drawn = if draws(route) {
                let css = page_module(&widgets, &shown).map_or(&every_css, |m| &m.css);
                drawn_head(css, &widget_files)
            } else {
                String::new()
            };
            let extra = app_head(&widgets, &shown)
                + &widgets_head(&widgets, &shown, &widget_files)
                + &sql_extra
                + &drawn;
            // The page's own inline scripts: the shell's start script, and the line that puts in
            // each diagram's layout (`widgets::diagrams`).
            let csp = content_security_policy(&inline_script_hashes(&html));
            write(
                &staging.join(&path),
                &with_head_extras(&html, &csp, &canonical, &extra),
            )?;
        }

        write(&staging.join("search.json"), &search_json())?;

        // The service worker: every file of the build, under a version hashed from their contents.
        let mut files = Vec::new();
        list_files(&staging, &staging, &mut files)?;
        files.retain(|f| f != "sw.js" && precached(f));
        files.sort();
        let mut hasher = sha2::Sha256::new();
        for f in &files {
            hasher.update(f.as_bytes());
            hasher.update(std::fs::read(staging.join(f)).map_err(|e| format!("{f}: {e}"))?);
        }
        let version: String = hasher
            .finalize()
            .iter()
            .take(6)
            .map(|b| format!("{b:02x}"))
            .collect();
        write(&staging.join("sw.js"), &service_worker(&files, &version))
    }

    /// The lessons a page shows: its own, or every one on the print page.
    fn lessons_of(route: Route) -> &'static [Lesson] {
        match route {
            Route::Lesson(i) => LESSONS.get(i..=i).unwrap_or_default(),
            Route::Print => LESSONS,
            _ => &[],
        }
    }

    /// Whether a page shows a widget the build drew.
    fn draws(route: Route) -> bool {
        lessons_of(route)
            .iter()
            .flat_map(|l| l.blocks)
            .any(|b| matches!(b, Block::Drawn(_)))
    }

    /// What the live widgets a page shows need from a module (`WidgetUse::needs`): a lesson's
    /// own, every lesson's on the print page.
    fn shown_widgets(route: Route) -> Vec<&'static str> {
        let mut names: Vec<&str> = lessons_of(route)
            .iter()
            .flat_map(|l| l.blocks)
            .filter_map(|b| match b {
                Block::Widget(w) => Some(w.needs.split(' ')),
                Block::Prose(_) | Block::Drawn(_) => None,
            })
            .flatten()
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Puts wasm-bindgen's snippets (`inline_js`) in `staging/snippets` under folder names that
    /// carry a hash of their files (`snippets_fingerprint`): Trunk's, for the shell, with the
    /// widgets modules' from `widgets` (the same crate's, so the same files) copied over them.
    /// Returns each folder's old and new name, for the scripts that import from it.
    fn install_snippets(
        staging: &Path,
        widgets: Option<&Path>,
    ) -> Result<Vec<(String, String)>, String> {
        let root = staging.join("snippets");
        if let Some(from) = widgets.map(|d| d.join("snippets")).filter(|d| d.is_dir()) {
            copy_dir(&from, &root)?;
        }
        let mut renamed = Vec::new();
        if !root.is_dir() {
            return Ok(renamed);
        }
        for entry in std::fs::read_dir(&root).map_err(|e| format!("{}: {e}", root.display()))? {
            let dir = entry.map_err(|e| e.to_string())?.path();
            let Some(name) = dir.file_name().and_then(|n| n.to_str()).map(str::to_string) else {
                continue;
            };
            let mut paths = Vec::new();
            list_files(&dir, &dir, &mut paths)?;
            let files = paths
                .into_iter()
                .map(|p| {
                    std::fs::read(dir.join(&p))
                        .map(|bytes| (p, bytes))
                        .map_err(|e| format!("{}: {e}", dir.display()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let named = snippets_dir_named(&name, &short_hash(&snippets_fingerprint(&files)));
            std::fs::rename(&dir, root.join(&named))
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            renamed.push((name, named));
        }
        Ok(renamed)
    }

    /// A wasm-bindgen script importing its snippets from their folders' new names (`renamed`).
    fn with_snippets_renamed(js: &str, renamed: &[(String, String)]) -> String {
        renamed.iter().fold(js.to_string(), |js, (from, to)| {
            with_snippets_in(&js, from, to)
        })
    }

    /// Copies every widgets module (`src/widgets/modules.rs`) from `dir` (wasm-bindgen's
    /// output) into `staging` under names that carry a hash of its contents, like Trunk's own
    /// files, importing its snippets from their folders' names in `staging` (`snippets`).
    fn install_widgets(
        dir: &Path,
        staging: &Path,
        snippets: &[(String, String)],
    ) -> Result<Vec<InstalledModule>, String> {
        let read = |name: &str| {
            std::fs::read(dir.join(name)).map_err(|e| format!("{}: {e}", dir.join(name).display()))
        };
        let mut installed = Vec::new();
        for (name, widgets, cards) in MODULES {
            let js = read(&format!("{name}.js"))?;
            let wasm = read(&format!("{name}_bg.wasm"))?;
            // Short import names in both files; one script, any number of instances (the
            // shell's and the widgets').
            let (wasm, js) = String::from_utf8(js)
                .ok()
                .and_then(|js| with_short_import_names(&wasm, &js))
                .and_then(|(wasm, js)| {
                    let js = with_snippets_renamed(&glue_as_factory(&js)?, snippets);
                    Some((wasm, js.into_bytes()))
                })
                .ok_or(format!(
                    "{name}.js: wasm-bindgen's output has a shape the build does not know"
                ))?;
            let hash = short_hash(&[js.as_slice(), wasm.as_slice()].concat());
            let (js_name, wasm_name) = (
                format!("{name}-{hash}.js"),
                format!("{name}-{hash}_bg.wasm"),
            );
            std::fs::write(staging.join(&js_name), &js).map_err(|e| e.to_string())?;
            std::fs::write(staging.join(&wasm_name), &wasm).map_err(|e| e.to_string())?;
            let names: Vec<&str> = widgets.iter().map(|w| w.name).collect();
            installed.push(InstalledModule {
                js: js_name,
                wasm: wasm_name,
                css: install_css(staging, &names)?,
                imports: glue_imports(&String::from_utf8_lossy(&js)),
                // Leaked: the build runs once.
                widgets: carried(widgets, cards)
                    .into_iter()
                    .map(|c| &*c.leak())
                    .collect(),
                bytes: wasm.len() as u64,
            });
        }
        Ok(installed)
    }

    /// Gives the shell Trunk built (`ie-course-<hash>.js` and its wasm, in `staging`) short
    /// import names, as the widgets modules get them (`with_short_import_names`), and its
    /// snippets' folders their new names (`snippets`).
    ///
    /// Its own name stays Trunk's, a hash of its wasm. A build that changed only the snippets
    /// keeps it; a browser that still holds the older script imports from the older folder,
    /// which the service worker's cache of that version holds too: one build's files either way.
    fn shorten_shell_imports(staging: &Path, snippets: &[(String, String)]) -> Result<(), String> {
        let entries =
            std::fs::read_dir(staging).map_err(|e| format!("{}: {e}", staging.display()))?;
        let mut done = 0;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let Some(stem) = name
                .strip_prefix("ie-course-")
                .and_then(|n| n.strip_suffix(".js"))
            else {
                continue;
            };
            let wasm_path = staging.join(format!("ie-course-{stem}_bg.wasm"));
            let wasm =
                std::fs::read(&wasm_path).map_err(|e| format!("{}: {e}", wasm_path.display()))?;
            let js = std::fs::read_to_string(&path).map_err(|e| format!("{name}: {e}"))?;
            let (wasm, js) = with_short_import_names(&wasm, &js).ok_or(format!(
                "{name}: wasm-bindgen's output has a shape the build does not know"
            ))?;
            std::fs::write(&wasm_path, wasm).map_err(|e| e.to_string())?;
            write(&path, &with_snippets_renamed(&js, snippets))?;
            done += 1;
        }
        if done == 1 {
            Ok(())
        } else {
            Err(format!(
                "{}: expected one ie-course-<hash>.js, found {done}",
                staging.display()
            ))
        }
    }

    /// Every widget's name (the registry's).
    fn widget_names() -> Vec<&'static str> {
        ie_course::widgets::ALL.iter().map(|w| w.name).collect()
    }

    /// Writes the stylesheet of a module that carries `carried` (`module_css`) under a name with
    /// its hash, and returns that name. Modules with the same widgets' rules share one file.
    fn install_css(staging: &Path, carried: &[&str]) -> Result<String, String> {
        let css = module_css(WIDGETS_CSS, carried, &widget_names())?;
        let name = format!("widgets-{}.css", short_hash(css.as_bytes()));
        write(&staging.join(&name), &css)?;
        Ok(name)
    }

    /// The first 8 bytes of `bytes`' SHA-256, in hex: the part of a file's name that changes
    /// with its contents.
    fn short_hash(bytes: &[u8]) -> String {
        sha2::Sha256::digest(bytes)
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Copies the SQL engine module from `dir` (wasm-bindgen's output) into `staging` under
    /// names that carry a hash of its contents. Returns their stem, `ie-sql-<hash>` (then
    /// `.js` and `_bg.wasm`).
    fn install_sql(dir: &Path, staging: &Path) -> Result<String, String> {
        let read = |name: &str| {
            std::fs::read(dir.join(name)).map_err(|e| format!("{}: {e}", dir.join(name).display()))
        };
        let js = read("ie-sql.js")?;
        let wasm = read("ie-sql_bg.wasm")?;
        let stem = format!(
            "ie-sql-{}",
            short_hash(&[js.as_slice(), wasm.as_slice()].concat())
        );
        std::fs::write(staging.join(format!("{stem}.js")), &js).map_err(|e| e.to_string())?;
        std::fs::write(staging.join(format!("{stem}_bg.wasm")), &wasm)
            .map_err(|e| e.to_string())?;
        Ok(stem)
    }

    fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
        std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
        for entry in std::fs::read_dir(from).map_err(|e| e.to_string())? {
            let path = entry.map_err(|e| e.to_string())?.path();
            let target = to.join(path.file_name().unwrap_or_default());
            if path.is_dir() {
                copy_dir(&path, &target)?;
            } else {
                std::fs::copy(&path, &target).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    fn write(path: &Path, text: &str) -> Result<(), String> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    fn list_files(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                list_files(root, &path, out)?;
            } else if let Ok(rel) = path.strip_prefix(root) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
        Ok(())
    }
}
