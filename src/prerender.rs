//! Static pages: the shell with a page's text already in it, written by the build.
//!
//! `src/bin/prerender.rs` (a Trunk post-build hook) calls [`page_html`] for the title page,
//! every lesson, the print page and the glossary, so each URL is a real file: deep links work on any static host, and readers and
//! crawlers without JavaScript get the text. The markup mirrors the app's, so nothing moves when
//! the app takes over.
//!
//! The same hook also writes the security policy into every page (a CSP `<meta>`: static hosts
//! such as GitHub Pages cannot send headers) and the offline service worker.

use crate::content::LESSONS;
use crate::nav::{self, Route};

mod imports;
pub use imports::with_short_import_names;

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    crate::logic::format::escape_html(s)
}

/// The shell as Trunk wrote it, changed to start the app only once the browser has painted the
/// pre-rendered page: Trunk's preload links for the app go, and its inline module script (which
/// imports the app at once) becomes one that imports it after the first largest-contentful-paint
/// entry (or the first frame, where the browser has no such entry). The text then never waits
/// for the wasm, and a page-load audit sees that it does not. `None` when the shell has no
/// Trunk loader to change.
///
/// The script is the same on every page (one hash in the CSP). A page that shows widgets names
/// its widgets module in a `<meta name="ie-course-app">` ([`app_head`]): the script then starts
/// the shell from an instance of that module (`start_app`; [`glue_as_factory`]) instead of
/// Trunk's, so the page fetches one wasm and one script.
/// It compiles each wasm once, through `window.ieCourseCompile` (which the widget loader uses
/// too), so that the shell's instance and the widgets' share one download and one compile.
/// Before it starts the shell, it has the widgets on or near the screen mounted in the page as
/// the build wrote it (`window.ieCourseEarly`, `src/app/widget_slot.rs`).
///
/// What the module needs besides its script and wasm is asked for at the same moment, not one
/// round trip later (on a phone's network, each is about 150 ms): the scripts its script imports
/// (`data-imports`: [`glue_imports`]; the browser then has them when the script asks), and on a
/// page with widgets the widgets' stylesheet, unless the head links it already ([`drawn_head`]).
/// The widget loader waits for that link (`window.ieCourseSheet`) instead of adding its own.
///
/// Before the page runs its wasm, a worker runs it once (`warmup`, the build's copy of
/// `style/warmup.js`). It is made as the page asks for the wasm (`hire`) and sent the module's
/// script, the page's address and the widgets the page shows, so that it imports that script
/// while the wasm downloads; then it is sent the compiled module (`warm`), starts the shell on
/// the page's route and mounts each widget against stand-in DOM objects, so that V8 compiles
/// their code on the worker's thread, and the page's own start and mounts find it compiled
/// (Chromium compiles a wasm function at its first call, on the calling thread, and a module
/// shares its compiled code with the workers it is sent to). The page waits for the worker's
/// answer, a second at most, ends it, and starts as before; a worker that cannot be made or
/// fails changes nothing but the wait, and a start that fails ends it too. Only Chromium
/// gets a worker (`navigator.userAgentData` is its own): V8 is the engine that compiles a wasm
/// function at its first call, while Firefox compiles the whole module as it arrives, so there
/// the worker only made the start about 200 ms later (README, "Benchmark").
pub fn start_after_first_paint(shell: &str, warmup: &str) -> Option<String> {
    let start = shell.find("<script type=\"module\">")?;
    let end = start + shell[start..].find("</script>")? + "</script>".len();
    let script = &shell[start..end];
    let quoted_after = |marker: &str| -> Option<&str> {
        let at = script.find(marker)? + marker.len();
        let rest = &script[at..];
        let q = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        rest[1..].split(q).next()
    };
    let js = quoted_after(" from ")?;
    let wasm = quoted_after("module_or_path: ")?;
    let loader = format!(
        r#"<script type="module">
const at = (file) => new URL(file, document.baseURI).href, compiled = {{}};
window.ieCourseCompile = (wasm) => compiled[wasm] = compiled[wasm] || fetch(wasm).then((r) => {{
  if (!r.ok) throw new Error("HTTP " + r.status);
  return /^application\/wasm/.test(r.headers.get("content-type") || "") ? WebAssembly.compileStreaming(r) : r.arrayBuffer().then((b) => WebAssembly.compile(b));
}}).catch((e) => {{ delete compiled[wasm]; throw e; }});
const app = document.querySelector('meta[name="ie-course-app"]'), widgets = document.querySelector('meta[name="ie-course-widgets"]');
const ahead = () => {{
  for (const f of (app.dataset.imports || "").split(" ")) if (f) import(at(f)).catch(() => {{}});
  const href = widgets && widgets.dataset.css && document.querySelector("[data-widget-slot]") && at(widgets.dataset.css);
  if (!href || [...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) return;
  const link = Object.assign(document.createElement("link"), {{ rel: "stylesheet", href }});
  window.ieCourseSheet = {{ href, loaded: new Promise((done) => {{ link.onload = link.onerror = () => done(); }}) }};
  document.head.append(link);
}};
let hired = null;
const hire = (glue) => {{
  if (!navigator.userAgentData) return;
  try {{
    const w = hired = new Worker(at({warmup:?}), {{ type: "module" }});
    w.onerror = () => {{ w.failed = true; }};
    w.postMessage({{ glue, page: location.href, base: document.baseURI, widgets: [...document.querySelectorAll("[data-widget-slot]")].map((e) => [e.dataset.widgetSlot, e.dataset.params || "[]"]) }});
  }} catch {{ hired = null; }}
}};
const warm = (module) => new Promise((done) => {{
  const w = hired;
  let timer = 0;
  hired = null;
  const end = () => {{ clearTimeout(timer); if (w) w.terminate(); done(); }};
  if (!w || w.failed || !module) return end();
  try {{
    w.onmessage = w.onerror = end;
    w.postMessage({{ module }});
    timer = setTimeout(end, 1000);
  }} catch {{ end(); }}
}});
const unhire = (e) => {{ warm(); throw e; }};
const start = () => app
  ? (ahead(), hire(at(app.content)), Promise.all([import(at(app.content)), window.ieCourseCompile(at(app.dataset.wasm))]).catch(unhire).then(async ([glue, module]) => {{ await warm(module); const m = glue.instance(); await m.default({{ module_or_path: module }}); const early = window.ieCourseEarly; await (early && early.ready()); m.start_app(); if (early) early.started(); }}))
  : (hire(at({js:?})), Promise.all([import({js:?}), window.ieCourseCompile(at({wasm:?}))]).catch(unhire).then(async ([m, module]) => {{ await warm(module); await m.default({{ module_or_path: module }}); }}));
let started = false;
const go = () => {{ if (!started) {{ started = true; start(); }} }};
const lcp = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes.includes("largest-contentful-paint");
if (document.visibilityState !== "visible") go();
else if (lcp) {{
  new PerformanceObserver((list, observer) => {{ observer.disconnect(); setTimeout(go, 0); }}).observe({{ type: "largest-contentful-paint", buffered: true }});
  setTimeout(go, 1500);
}} else requestAnimationFrame(() => setTimeout(go, 0));
</script>"#
    );
    let mut page = format!("{}{}{}", &shell[..start], loader, &shell[end..]);
    // Trunk's preloads of the app's own files (the widgets module is never preloaded).
    while let Some(at) = page
        .find("<link rel=\"modulepreload\"")
        .or_else(|| page.find("<link rel=\"preload\""))
    {
        let close = at + page[at..].find('>')? + 1;
        page.replace_range(at..close, "");
    }
    Some(page)
}

/// `search.json`, which the app fetches the first time a reader searches: the index, and each
/// lesson's section texts (for the snippets) in the order of `Lesson::sections`.
pub fn search_json() -> String {
    let sections: Vec<Vec<&str>> = LESSONS
        .iter()
        .map(|l| l.sections.iter().map(|s| s.text).collect())
        .collect();
    serde_json::json!({ "index": crate::content::SEARCH_INDEX, "sections": sections }).to_string()
}

/// The SHA-256 hashes (CSP source form, `'sha256-…'`) of every inline `<script>` in `html`,
/// each once.
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    use base64::Engine;
    use sha2::Digest;
    let mut hashes = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(tag_end) = after.find('>') else {
            break;
        };
        let tag = &after[..tag_end];
        let body_start = tag_end + 1;
        let Some(close) = after[body_start..].find("</script>") else {
            break;
        };
        if !tag.contains(" src=") {
            let body = &after[body_start..body_start + close];
            let digest = sha2::Sha256::digest(body.as_bytes());
            let hash = format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            );
            if !hashes.contains(&hash) {
                hashes.push(hash);
            }
        }
        rest = &after[body_start + close..];
    }
    hashes
}

/// The Content-Security-Policy for a page: scripts only from our origin, the wasm, and the
/// page's inline scripts by hash (the module script Trunk writes, and the diagrams' line); no plugins; `<base>` locked to our origin.
pub fn content_security_policy(script_hashes: &[String]) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'none'",
        script_hashes.join(" ")
    )
}

/// `page` with `extra` head elements (the CSP `<meta>`, links) right after its `<base>` (so
/// that relative links in them resolve against it), and a canonical link for `path`
/// (e.g. `/sub/model-selection/`).
pub fn with_head_extras(page: &str, csp: &str, canonical_path: &str, extra: &str) -> String {
    let extra = format!(
        "\n    <meta http-equiv=\"Content-Security-Policy\" content=\"{}\" />\n    <link rel=\"canonical\" href=\"{}\" />{extra}",
        escape(csp),
        escape(canonical_path)
    );
    let anchor = page
        .find("<base ")
        .and_then(|at| page[at..].find('>').map(|end| at + end + 1))
        .or_else(|| page.find("<head>").map(|at| at + "<head>".len()));
    match anchor {
        Some(end) => format!("{}{}{}", &page[..end], extra, &page[end..]),
        None => format!("{extra}{page}"),
    }
}

/// A widgets module as the build installed it (see `src/widgets/modules.rs`).
#[derive(Debug, Clone, PartialEq)]
pub struct InstalledModule {
    /// Its script and its wasm, as file names at the site's base.
    pub js: String,
    /// See `js`.
    pub wasm: String,
    /// What it carries: its widgets, and `cards:<slug>` for each lesson whose recall cards it
    /// carries (`widgets::modules::carried`).
    pub widgets: Vec<&'static str>,
    /// The size of its wasm, which orders the list: a page takes the first that carries all it shows.
    pub bytes: u64,
    /// Its stylesheet ([`module_css`]), as a file name at the site's base.
    pub css: String,
    /// The scripts its script imports (wasm-bindgen's snippets: [`glue_imports`]), as paths from
    /// the site's base.
    pub imports: Vec<String>,
}

/// The module a page with widgets `shown` loads: the smallest in `modules` that carries them all;
/// for a page that shows none, the one that carries the most (should a widget appear).
pub fn page_module<'a>(
    modules: &'a [InstalledModule],
    shown: &[&str],
) -> Option<&'a InstalledModule> {
    if shown.is_empty() {
        return modules.iter().max_by_key(|m| (m.widgets.len(), m.bytes));
    }
    modules
        .iter()
        .filter(|m| shown.iter().all(|w| m.widgets.contains(w)))
        .min_by_key(|m| m.bytes)
}

/// The list of every widgets module, smallest first, each with its files and the widgets it
/// carries: the JSON file the app reads after a move to a page that its first page's module does
/// not serve.
pub fn widgets_list(modules: &[InstalledModule]) -> String {
    let mut sorted: Vec<&InstalledModule> = modules.iter().collect();
    sorted.sort_by_key(|m| m.bytes);
    let list: Vec<serde_json::Value> = sorted
        .iter()
        .map(|m| serde_json::json!({ "js": m.js, "wasm": m.wasm, "css": m.css, "widgets": m.widgets }))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// The files every widgets module needs beside its own (names at the site's base).
pub struct WidgetFiles {
    /// The list of every module ([`widgets_list`]).
    pub list: String,
    /// The script that answers the widgets the build draws (`style/diagrams.js`).
    pub diagrams: String,
}

/// The stylesheet of a module that carries widgets `carried`, cut from the widgets' stylesheet
/// `css` (`style/widgets.css`): the rules every widget needs, and the sections of the widgets it
/// carries. A line `/* == widget: a, b == */` starts a section for widgets a and b, a line
/// `/* == every widget == */` goes back to rules for all. A section that names a widget not in
/// `known` is an error: its rules would silently reach no page.
pub fn module_css(css: &str, carried: &[&str], known: &[&str]) -> Result<String, String> {
    let mut out = String::new();
    let mut taken = true;
    for (i, line) in css.lines().enumerate() {
        let marker = line
            .trim()
            .strip_prefix("/* ==")
            .and_then(|l| l.strip_suffix("== */"))
            .map(str::trim);
        match marker {
            Some("every widget") => taken = true,
            Some(m) => {
                let names = m.strip_prefix("widget:").ok_or(format!(
                    "style/widgets.css:{}: a section starts with `widget: <names>` or is `every widget`",
                    i + 1
                ))?;
                let names: Vec<&str> = names.split(',').map(str::trim).collect();
                if let Some(bad) = names.iter().find(|n| !known.contains(n)) {
                    return Err(format!(
                        "style/widgets.css:{}: no widget is called \"{bad}\"",
                        i + 1
                    ));
                }
                taken = names.iter().any(|n| carried.contains(n));
            }
            None if taken => {
                out.push_str(line);
                out.push('\n');
            }
            None => {}
        }
    }
    Ok(out)
}

/// The head element that names the widgets module of a page that shows widgets `shown`
/// ([`page_module`]: `content` and `data-wasm` its files, `data-widgets` the widgets it
/// carries), the list of every module, the widgets' stylesheet and the diagrams' script
/// (`files`). None is preloaded: the app fetches a module and the stylesheet when a page shows a
/// widget, after the text has painted (a page that shows a drawn widget links the last two from
/// the start: [`drawn_head`]).
pub fn widgets_head(modules: &[InstalledModule], shown: &[&str], files: &WidgetFiles) -> String {
    let Some(own) = page_module(modules, shown) else {
        return String::new();
    };
    // A page without widgets names the module with them all, but no widget: should the reader
    // move to a lesson, the list says which module to load.
    let carried = if shown.is_empty() {
        String::new()
    } else {
        own.widgets.join(" ")
    };
    format!(
        "\n    <meta name=\"ie-course-widgets\" content=\"{}\" data-wasm=\"{}\" \
         data-widgets=\"{}\" data-modules=\"{}\" data-css=\"{}\" data-diagrams=\"{}\" />",
        escape(&own.js),
        escape(&own.wasm),
        escape(&carried),
        escape(&files.list),
        escape(&own.css),
        escape(&files.diagrams)
    )
}

/// The head elements of a page that shows a widget the build drew (a diagram): the widgets'
/// stylesheet, so that a diagram is first painted styled, and the diagrams' script, deferred: it
/// runs once the page is parsed, and a parser-blocking script would hold back the first paint of
/// the text (in Lighthouse's mobile run, by about 300 ms). Both are small and cached. `css` is the
/// stylesheet of the page's widgets module (every module's has the diagrams' rules).
pub fn drawn_head(css: &str, files: &WidgetFiles) -> String {
    format!(
        "\n    <link rel=\"stylesheet\" href=\"{}\" />\n    <script src=\"{}\" defer></script>",
        escape(css),
        escape(&files.diagrams)
    )
}

/// `html` without its `<!-- … -->` comments (index.html's explain the source, not the page, and
/// every page would carry them), each with the line it leaves empty. An unclosed one stays.
pub fn without_html_comments(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some((before, after)) = rest.split_once("<!--") {
        let Some((_, tail)) = after.split_once("-->") else {
            break;
        };
        out.push_str(before);
        out.truncate(out.trim_end_matches([' ', '\t']).len());
        rest = if out.ends_with('\n') || out.is_empty() {
            tail.strip_prefix('\n').unwrap_or(tail)
        } else {
            tail
        };
    }
    out.push_str(rest);
    out
}

/// `js` without its whole-line `//` comments (which explain the source, not the page).
pub fn without_line_comments(js: &str) -> String {
    js.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The scripts a wasm-bindgen script `js` imports at its top (its snippets), as paths from where
/// it lies (`./snippets/…` becomes `snippets/…`), each once. Only relative ones: the glue imports
/// nothing else. A page's start script imports them beside the script itself, so that they
/// arrive together, not one round trip after it.
pub fn glue_imports(js: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for line in js.lines().filter(|l| l.starts_with("import ")) {
        let Some(at) = line.find(" from ") else {
            continue;
        };
        let rest = line[at + " from ".len()..].trim_start();
        let Some(q) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') else {
            continue;
        };
        let Some(path) = rest[1..].split(q).next().and_then(|p| p.strip_prefix("./")) else {
            continue;
        };
        if !found.iter().any(|f| f == path) {
            found.push(path.to_string());
        }
    }
    found
}

/// What names a folder of wasm-bindgen's snippets by its contents: each file's path in it (`files`,
/// any order) with its length and bytes, in path order. wasm-bindgen names the folder after the
/// crate alone and numbers the files in the order it meets them, so one build's `inline2.js` can
/// be another's `inline3.js`; a script or a service worker that kept the older file under the
/// same address would give the new module the wrong code.
pub fn snippets_fingerprint(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut sorted: Vec<&(String, Vec<u8>)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    for (path, bytes) in sorted {
        out.extend_from_slice(path.as_bytes());
        out.push(0);
        out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(bytes);
    }
    out
}

/// The snippets folder `dir` (wasm-bindgen's `<crate>-<crate hash>`) named for the `hash` of its
/// contents ([`snippets_fingerprint`]): `<crate>-<hash>`.
pub fn snippets_dir_named(dir: &str, hash: &str) -> String {
    let krate = dir.rsplit_once('-').map_or(dir, |(krate, _)| krate);
    format!("{krate}-{hash}")
}

/// A wasm-bindgen script `js` importing its snippets from the folder `to` instead of `from`. Only
/// its `import` lines change: the same paths name the modules the wasm imports from, as keys of
/// the object the script gives it, and those are the wasm's own.
pub fn with_snippets_in(js: &str, from: &str, to: &str) -> String {
    let (old, new) = (format!("./snippets/{from}/"), format!("./snippets/{to}/"));
    js.split_inclusive('\n')
        .map(|line| {
            if line.starts_with("import ") {
                line.replace(&old, &new)
            } else {
                line.to_string()
            }
        })
        .collect()
}

/// A widgets module's JavaScript (wasm-bindgen's `--target web` output) as a module that can
/// give any number of instances: its imports stay at the top, and the rest becomes the body of
/// `export function instance()`, which returns what the module exported (its `default` is the
/// instance's `init`). A lesson page runs its module twice, the shell in one instance and the
/// widgets in another (`src/widgets/modules.rs`); the glue keeps an instance's state at its top
/// level, so two instances used to mean two imports under two URLs, and the browser fetched the
/// same file twice. Now it is fetched once, and a restart after a trap asks for one more instance.
///
/// The module still exports each function it did (not the classes, nor `default`): each acts on
/// its newest instance, which on a lesson page is the widgets', as importing the module did
/// before.
///
/// `None` if the text has a top-level `export` this does not know: the build stops rather than
/// ship a module whose exports went missing.
pub fn glue_as_factory(js: &str) -> Option<String> {
    let mut imports = String::new();
    let mut body = String::new();
    // (exported name, local name, a function)
    let mut exported: Vec<(String, String, bool)> = Vec::new();
    for line in js.lines() {
        if line.starts_with("import ") {
            imports.push_str(line);
            imports.push('\n');
            continue;
        }
        let Some(rest) = line.strip_prefix("export ") else {
            body.push_str(line);
            body.push('\n');
            continue;
        };
        if let Some(list) = rest.strip_prefix('{') {
            let list = list.trim_end().trim_end_matches(';').strip_suffix('}')?;
            for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let (local, name) = item.split_once(" as ").unwrap_or((item, item));
                exported.push((name.trim().to_string(), local.trim().to_string(), true));
            }
            continue;
        }
        let (declared, function) = [
            ("class ", false),
            ("function ", true),
            ("async function ", true),
            ("const ", true),
            ("let ", true),
        ]
        .iter()
        .find_map(|(kw, function)| rest.strip_prefix(kw).map(|d| (d, *function)))?;
        let name: String = declared
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        if name.is_empty() {
            return None;
        }
        exported.push((name.clone(), name, function));
        body.push_str(rest);
        body.push('\n');
    }
    if !exported.iter().any(|(name, _, _)| name == "default") {
        return None;
    }
    let fields = exported
        .iter()
        .map(|(name, local, _)| format!("{name}: {local}"))
        .collect::<Vec<_>>()
        .join(", ");
    // Under local names of their own: the imports may use the exported names.
    let newest: String = exported
        .iter()
        .filter(|(name, _, function)| *function && name != "default")
        .map(|(name, _, _)| {
            format!(
                "const newest_{name} = (...args) => newest.{name}(...args);\n\
                 export {{ newest_{name} as {name} }};\n"
            )
        })
        .collect();
    Some(format!(
        "{imports}// Each call gives a new instance (see src/prerender.rs, `glue_as_factory`).\n\
         let newest = null;\n\
         export function instance() {{\n{body}return newest = {{ {fields} }};\n}}\n{newest}"
    ))
}

/// The head element that names the module a page that shows widgets `shown` starts the shell
/// from: its own widgets module ([`page_module`]), which carries the shell too (see
/// `src/widgets/modules.rs`). Empty for a page without widgets, which starts Trunk's build of
/// the shell alone.
pub fn app_head(modules: &[InstalledModule], shown: &[&str]) -> String {
    match page_module(modules, shown) {
        Some(own) if !shown.is_empty() => format!(
            "\n    <meta name=\"ie-course-app\" content=\"{}\" data-wasm=\"{}\" data-imports=\"{}\" />",
            escape(&own.js),
            escape(&own.wasm),
            escape(&own.imports.join(" "))
        ),
        _ => String::new(),
    }
}

/// File names of the SQL engine module start with this (`ie-sql-<hash>.js`, `…_bg.wasm`).
pub const SQL_MODULE_PREFIX: &str = "ie-sql-";

/// The head element that names the SQL engine module by the stem of its file names at the
/// site's base (`ie-sql-<hash>`: `.js` and `_bg.wasm` follow), kept short since every page
/// carries it. Nothing fetches the module until a reader turns the mini eval's execution
/// grading on.
pub fn sql_head(stem: &str) -> String {
    format!(
        "\n    <meta name=\"ie-course-sql\" content=\"{}\" />",
        escape(stem)
    )
}

/// Whether the service worker precaches `file` (a path from the site root): every file but
/// the SQL engine module, which it keeps the first time a reader uses it instead (it keeps
/// every asset it had to fetch), so a first visit never downloads it.
pub fn precached(file: &str) -> bool {
    !file
        .rsplit('/')
        .next()
        .unwrap_or(file)
        .starts_with(SQL_MODULE_PREFIX)
}

/// The service worker: precaches `files` (paths relative to the site root, hashed names for
/// assets) in a cache named for `version`, serves pages network-first with the cache as
/// fallback (so a new deploy's pages load its own assets) and assets cache-first (by path: an
/// asset asked for with a query is the same file),
/// keeping an asset it had to fetch (the SQL engine, not precached), and on activation deletes every
/// other version's cache, so versions never mix. It precaches from the network, past the
/// browser's HTTP cache (`cache: "reload"`): some files keep their name from one build to the
/// next (the pages; the shell's script when only its snippets changed), and a copy the browser
/// still held from before a deploy would otherwise be kept beside the new build's files, for as
/// long as that version lasts.
pub fn service_worker(files: &[String], version: &str) -> String {
    let list = files
        .iter()
        .map(|f| format!("{f:?}"))
        .collect::<Vec<_>>()
        .join(",\n  ");
    format!(
        r#"// Generated by the post-build hook (src/prerender.rs). Do not edit.
const CACHE = "ie-course-{version}";
const FILES = [
  {list}
];
self.addEventListener("install", (event) => {{
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES.map((f) => new Request(new URL(f, self.registration.scope), {{ cache: "reload" }})))).then(() => self.skipWaiting()));
}});
self.addEventListener("activate", (event) => {{
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith("ie-course-") && k !== CACHE).map((k) => caches.delete(k)))).then(() => self.clients.claim()));
}});
self.addEventListener("fetch", (event) => {{
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {{
    event.respondWith(fetch(request).catch(async () => {{
      const cache = await caches.open(CACHE);
      const url = new URL(request.url);
      const page = url.pathname.endsWith("/") ? url.pathname + "index.html" : url.pathname + "/index.html";
      return (await cache.match(request, {{ ignoreSearch: true }})) || (await cache.match(page)) || (await cache.match(new URL("404.html", self.registration.scope))) || Response.error();
    }}));
    return;
  }}
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(request, {{ ignoreSearch: true }}).then((hit) => hit || fetch(request).then((r) => (r.status == 200 && cache.put(request, r.clone()), r)))));
}});
"#
    )
}

/// The built shell (`dist/index.html`) with `route`'s page in it: the app's own components
/// rendered to HTML ([`crate::app::static_page`]), and the page's title and description from
/// [`nav::head`]. `None` when the shell has no `<div id="app"></div>` to fill.
pub fn page_html(shell: &str, route: Route) -> Option<String> {
    let head = nav::head(route);
    let slot = "<div id=\"app\"></div>";
    let at = shell.find(slot)?;
    let body = format!(
        "<div id=\"app\">{}</div>",
        crate::app::static_page::render(route)
    );
    let mut page = format!("{}{}{}", &shell[..at], body, &shell[at + slot.len()..]);
    if let (Some(s), Some(e)) = (page.find("<title>"), page.find("</title>")) {
        page.replace_range(s + "<title>".len()..e, &escape(&head.title));
    }
    if !head.description.is_empty() {
        let marker = "<meta name=\"description\" content=\"";
        if let Some(s) = page.find(marker) {
            let from = s + marker.len();
            if let Some(len) = page[from..].find('"') {
                page.replace_range(from..from + len, &escape(head.description));
            }
        }
    }
    Some(page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{GLOSSARY, GLOSSARY_TITLE};

    const SHELL: &str = "<html><head><title>T</title><meta name=\"description\" content=\"d\"></head><body><div id=\"app\"></div><script></script></body></html>";

    /// The shape of wasm-bindgen's `--target web` output, cut short.
    const GLUE: &str = "import { mount_widget } from './snippets/x/inline0.js';\n\
import * as import1 from \"./snippets/x/inline1.js\"\n\
export class Sink {\n    free() {}\n}\n\
function mount_widget2(el) {\n    wasm.mount_widget(el);\n}\n\
export { mount_widget2 as mount_widget }\n\
export function start_app() {\n    wasm.start_app();\n}\n\
let wasm;\n\
async function __wbg_init(m) {\n    wasm = m;\n    return new URL('x_bg.wasm', import.meta.url);\n}\n\
export { initSync, __wbg_init as default };\n";

    #[test]
    fn the_snippets_folder_is_named_for_what_it_holds() {
        let files = |second: &[u8]| {
            vec![
                ("inline1.js".to_string(), second.to_vec()),
                ("inline0.js".to_string(), b"export function a() {}".to_vec()),
            ]
        };
        let before = snippets_fingerprint(&files(b"export function b() {}"));
        // The order the folder was read in does not matter; a changed file, a file under
        // another number and a new file each do.
        let mut reversed = files(b"export function b() {}");
        reversed.reverse();
        assert_eq!(snippets_fingerprint(&reversed), before);
        assert_ne!(
            snippets_fingerprint(&files(b"export function c() {}")),
            before
        );
        let mut renumbered = files(b"export function b() {}");
        renumbered[0].0 = "inline2.js".into();
        assert_ne!(snippets_fingerprint(&renumbered), before);
        let mut more = files(b"export function b() {}");
        more.push(("inline2.js".into(), Vec::new()));
        assert_ne!(snippets_fingerprint(&more), before);

        let dir = snippets_dir_named("ie-course-e399d9f8d6a8b9e8", "0123abcd");
        assert_eq!(dir, "ie-course-0123abcd");
        let js = with_snippets_in(GLUE, "x", &dir);
        assert_eq!(
            glue_imports(&js),
            [
                "snippets/ie-course-0123abcd/inline0.js",
                "snippets/ie-course-0123abcd/inline1.js"
            ]
        );
        // Only the folder's own imports move, and not the names the wasm imports from.
        assert_eq!(with_snippets_in(GLUE, "y", &dir), GLUE);
        let keyed = "import * as import1 from './snippets/x/inline0.js';\n\
imports['./snippets/x/inline0.js'] = import1;\n";
        assert_eq!(
            with_snippets_in(keyed, "x", "z"),
            "import * as import1 from './snippets/z/inline0.js';\n\
imports['./snippets/x/inline0.js'] = import1;\n"
        );
    }

    #[test]
    fn a_modules_script_gives_a_fresh_instance_per_call() {
        let js = glue_as_factory(GLUE).unwrap();
        let (imports, rest) = js.split_once("export function instance() {\n").unwrap();
        // The imports stay at the top, shared by every instance.
        assert_eq!(
            imports.lines().filter(|l| l.starts_with("import ")).count(),
            2
        );
        // The state and the code move into the function, exported by nothing else.
        assert!(rest.contains("let wasm;") && rest.contains("class Sink {"));
        let end = rest.find("\n}\nconst newest_").unwrap();
        let (body, after) = (&rest[..end], &rest[end..]);
        assert!(!body.contains("export "), "{body}");
        assert!(body.ends_with(
            "return newest = { Sink: Sink, mount_widget: mount_widget2, start_app: start_app, initSync: initSync, default: __wbg_init };"
        ));
        // Its functions stay exported, acting on the newest instance; not the class, nor `default`.
        assert!(after.contains("const newest_start_app = (...args) => newest.start_app(...args);"));
        assert!(after.contains("export { newest_mount_widget as mount_widget };"));
        assert!(
            !after.contains("Sink") && !after.contains("default"),
            "{after}"
        );
    }

    #[test]
    fn a_modules_script_of_an_unknown_shape_stops_the_build() {
        // An export this does not know, or none that starts an instance.
        assert_eq!(glue_as_factory(&format!("{GLUE}export default 3;\n")), None);
        assert_eq!(glue_as_factory("export function start_app() {}\n"), None);
        assert_eq!(
            glue_as_factory(&GLUE.replace("__wbg_init as default", "__wbg_init")),
            None
        );
    }

    #[test]
    fn the_start_script_imports_a_modules_script_once_and_asks_it_for_an_instance() {
        let shell = "<html><head><script type=\"module\">import init, * as bindings from '/ie-course-1.js';\ninit({ module_or_path: '/ie-course-1_bg.wasm' });</script></head></html>";
        let page = start_after_first_paint(shell, "warmup-1.js").unwrap();
        assert!(page.contains("import(at(app.content))") && page.contains("glue.instance()"));
        assert!(!page.contains("?app"));
    }

    #[test]
    fn a_lesson_page_carries_its_text_title_and_description() {
        let page = page_html(SHELL, Route::Lesson(3)).unwrap();
        let lesson = &LESSONS[3];
        assert!(page.contains(&format!("<title>{}", escape(lesson.title))));
        assert!(page.contains(&escape(lesson.description)));
        assert!(page.contains(&format!(
            "<h1 tabindex=\"-1\">{}</h1>",
            escape(lesson.title)
        )));
        assert!(page.contains("aria-current=\"page\""));
        assert!(page.ends_with("<script></script></body></html>"));
    }

    #[test]
    fn the_glossary_is_a_page_of_its_own_reachable_from_the_contents() {
        let page = page_html(SHELL, Route::Glossary).unwrap();
        assert!(page.contains(&format!("<title>{GLOSSARY_TITLE} \u{b7} ")));
        assert!(page.contains(&format!(
            "<meta name=\"description\" content=\"{}\"",
            escape(GLOSSARY.description)
        )));
        assert!(page.contains(&format!("<h1 tabindex=\"-1\">{GLOSSARY_TITLE}</h1>")));
        assert!(GLOSSARY.terms.len() >= 20, "{}", GLOSSARY.terms.len());
        for t in GLOSSARY.terms {
            assert!(page.contains(&format!("id=\"term-{}\"", t.id)), "{}", t.id);
            // The compiler and this page escape alike (one escape_html).
            let definition = escape(t.definition);
            assert!(page.contains(&definition), "{}", t.id);
        }
        // Not a lesson: no "Lesson n of 8", no pager; the contents mark it as the current page.
        assert!(!page.contains("Lesson 1 of") && !page.contains("class=\"pager\""));
        assert!(
            page.contains("href=\"glossary/\" data-testid=\"glossary-link\" aria-current=\"page\"")
        );
        for route in [Route::Home, Route::Lesson(0), Route::Print, Route::NotFound] {
            let other = page_html(SHELL, route).unwrap();
            assert!(other.contains("<a href=\"glossary/\" data-testid=\"glossary-link\">"));
        }
        // The print page ends with the glossary.
        let print = page_html(SHELL, Route::Print).unwrap();
        assert!(print.contains("<section data-prose=\"glossary\" class=\"print-glossary\">"));
    }

    #[test]
    fn every_lesson_marks_terms_and_every_tooltip_is_found_once() {
        for (i, lesson) in LESSONS.iter().enumerate() {
            let page = page_html(SHELL, Route::Lesson(i)).unwrap();
            assert!(page.contains("data-term=\""), "{}", lesson.slug);
        }
        // On the print page every lesson is present at once: a tooltip's id is still unique,
        // and each mark's description points at one.
        let print = page_html(SHELL, Route::Print).unwrap();
        let ids: Vec<&str> = print
            .split(" role=\"tooltip\" id=\"")
            .skip(1)
            .filter_map(|r| r.split('"').next())
            .collect();
        let described: Vec<&str> = print
            .split("aria-describedby=\"")
            .skip(1)
            .filter_map(|r| r.split('"').next())
            // A diagram's picture is described by the diagram's own text, once in the page.
            .filter(|id| {
                !(id.starts_with("diagram-")
                    && print.matches(&format!(" id=\"{id}\"")).count() == 1)
            })
            .collect();
        let unique: std::collections::HashSet<&&str> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len());
        assert_eq!(described, ids);
        assert!(ids.len() > LESSONS.len());
    }

    #[test]
    fn the_app_starts_after_the_first_paint_without_preloads() {
        let trunk = "<head><script type=\"module\">\nimport init, * as bindings from '/sub/ie-course-1.js';\nconst wasm = await init({ module_or_path: '/sub/ie-course-1_bg.wasm' });\n</script>\n  <link rel=\"modulepreload\" href=\"/sub/ie-course-1.js\" crossorigin=\"anonymous\"><link rel=\"preload\" href=\"/sub/ie-course-1_bg.wasm\" as=\"fetch\" type=\"application/wasm\"></head><body></body>";
        let page = start_after_first_paint(trunk, "warmup-1.js").expect("a Trunk loader");
        assert!(!page.contains("preload"), "{page}");
        assert!(!page.contains("import init"), "{page}");
        assert!(page.contains("import(\"/sub/ie-course-1.js\")"), "{page}");
        assert!(
            page.contains("window.ieCourseCompile(at(\"/sub/ie-course-1_bg.wasm\"))"),
            "{page}"
        );
        // A worker runs the compiled module once before the page does, for a second at most. It
        // is made, and imports the module's script, while the wasm downloads: before the fetch.
        assert!(page.contains("new Worker(at(\"warmup-1.js\")"), "{page}");
        let hire = page.find("(hire(at(\"/sub/ie-course-1.js\")), Promise.all([");
        let fetch = page.find("window.ieCourseCompile(at(\"/sub/ie-course-1_bg.wasm\"))");
        assert!(hire.is_some() && hire < fetch, "{page}");
        assert!(page.contains("await warm(module);"), "{page}");
        assert!(page.contains("setTimeout(end, 1000)"), "{page}");
        // In Chromium only: elsewhere the whole module is compiled as it arrives.
        assert!(
            page.contains("if (!navigator.userAgentData) return;"),
            "{page}"
        );
        assert!(page.contains("largest-contentful-paint"), "{page}");
        assert_eq!(inline_script_hashes(&page).len(), 1);
        assert!(page.ends_with("</head><body></body>"));
        assert_eq!(
            start_after_first_paint("<head></head>", "warmup-1.js"),
            None
        );
    }

    fn files() -> WidgetFiles {
        WidgetFiles {
            list: "list.json".into(),
            diagrams: "d.js".into(),
        }
    }

    fn two_modules() -> Vec<InstalledModule> {
        vec![
            InstalledModule {
                js: "all.js".into(),
                wasm: "all_bg.wasm".into(),
                widgets: vec!["recall", "latency"],
                bytes: 20,
                css: "all.css".into(),
                imports: vec!["snippets/a/inline0.js".into()],
            },
            InstalledModule {
                js: "w.js".into(),
                wasm: "w_bg.wasm".into(),
                widgets: vec!["recall"],
                bytes: 10,
                css: "w.css".into(),
                imports: vec![
                    "snippets/a/inline0.js".into(),
                    "snippets/a/inline1.js".into(),
                ],
            },
        ]
    }

    #[test]
    fn a_page_takes_the_smallest_module_with_all_its_widgets() {
        let modules = two_modules();
        let js = |shown: &[&str]| page_module(&modules, shown).map(|m| m.js.as_str());
        assert_eq!(js(&["recall"]), Some("w.js"));
        assert_eq!(js(&["latency", "recall"]), Some("all.js"));
        assert_eq!(js(&["latency"]), Some("all.js"));
        // A page without widgets names the module with the most, should one appear.
        assert_eq!(js(&[]), Some("all.js"));
        assert_eq!(js(&["nope"]), None);
        assert_eq!(widgets_head(&modules, &["nope"], &files()), "");
        assert!(widgets_head(&modules, &[], &files())
            .contains("content=\"all.js\" data-wasm=\"all_bg.wasm\" data-widgets=\"\""));
        // Each page names its own module's stylesheet.
        assert!(widgets_head(&modules, &["recall"], &files()).contains("data-css=\"w.css\""));
        assert!(widgets_head(&modules, &["latency"], &files()).contains("data-css=\"all.css\""));
        // The list: smallest first.
        assert_eq!(
            widgets_list(&modules),
            r#"[{"css":"w.css","js":"w.js","wasm":"w_bg.wasm","widgets":["recall"]},{"css":"all.css","js":"all.js","wasm":"all_bg.wasm","widgets":["recall","latency"]}]"#
        );
    }

    #[test]
    fn a_page_with_widgets_starts_the_shell_from_its_own_module() {
        let modules = two_modules();
        assert_eq!(
            app_head(&modules, &["recall"]),
            "\n    <meta name=\"ie-course-app\" content=\"w.js\" data-wasm=\"w_bg.wasm\" \
             data-imports=\"snippets/a/inline0.js snippets/a/inline1.js\" />"
        );
        assert_eq!(
            app_head(&modules, &["latency", "recall"]),
            "\n    <meta name=\"ie-course-app\" content=\"all.js\" data-wasm=\"all_bg.wasm\" \
             data-imports=\"snippets/a/inline0.js\" />"
        );
        // Without widgets (or with none a module carries), the page starts Trunk's shell.
        assert_eq!(app_head(&modules, &[]), "");
        assert_eq!(app_head(&modules, &["nope"]), "");
        // The start script reads that meta and starts the module's shell in an instance of its own.
        let trunk = "<head><script type=\"module\">\nimport init from '/ie-course-1.js';\nawait init({ module_or_path: '/ie-course-1_bg.wasm' });\n</script></head>";
        let page = start_after_first_paint(trunk, "warmup-1.js").expect("a Trunk loader");
        assert!(page.contains("meta[name=\"ie-course-app\"]"), "{page}");
        assert!(page.contains("m.start_app()"), "{page}");
        assert!(page.contains("window.ieCourseCompile"), "{page}");
    }

    #[test]
    fn the_start_script_knows_what_the_glue_imports() {
        let glue = "import { mount_widget } from './snippets/ie-course-1/inline0.js';\n\
                    import * as import1 from \"./snippets/ie-course-1/inline1.js\"\n\
                    import * as import2 from \"./snippets/ie-course-1/inline0.js\"\n\
                    import { x } from 'https://elsewhere.example/x.js';\n\
                    const s = \"import a from './not/at/the/top.js'\";\n\
                    export function instance() {}\n";
        assert_eq!(
            glue_imports(glue),
            [
                "snippets/ie-course-1/inline0.js",
                "snippets/ie-course-1/inline1.js"
            ]
        );
        assert!(glue_imports("export const a = 1;").is_empty());
        // The start script imports them with the module's own script, and links the widgets'
        // stylesheet then too, on a page with widgets that does not link it already.
        let trunk = "<head><script type=\"module\">\nimport init from '/ie-course-1.js';\nawait init({ module_or_path: '/ie-course-1_bg.wasm' });\n</script></head>";
        let page = start_after_first_paint(trunk, "warmup-1.js").expect("a Trunk loader");
        assert!(page.contains("app.dataset.imports"), "{page}");
        assert!(page.contains("window.ieCourseSheet"), "{page}");
    }

    #[test]
    fn csp_hashes_inline_scripts_only() {
        let html = "<script src=\"/a.js\"></script><script type=\"module\">alert(1)</script><p><script>alert(1)</script>";
        // echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64 (the same script twice: once)
        assert_eq!(
            inline_script_hashes(html),
            ["'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='"]
        );
        let csp = content_security_policy(&inline_script_hashes(html));
        assert!(csp.contains("script-src 'self' 'wasm-unsafe-eval' 'sha256-"));
        assert!(csp.contains("object-src 'none'") && csp.contains("base-uri 'self'"));
        assert!(!csp.contains("script-src 'self' 'unsafe-inline'"));
        let page = with_head_extras(
            "<head><meta charset=\"utf-8\" /><base href=\"/b/\" /><title>x</title>",
            &csp,
            "/b/x/",
            &widgets_head(&two_modules(), &["recall"], &files()),
        );
        assert!(page.starts_with(
            "<head><meta charset=\"utf-8\" /><base href=\"/b/\" />\n    <meta http-equiv=\"Content-Security-Policy\""
        ));
        assert!(page.contains("<link rel=\"canonical\" href=\"/b/x/\" />"));
        assert!(page.contains(
            "<meta name=\"ie-course-widgets\" content=\"w.js\" data-wasm=\"w_bg.wasm\" \
             data-widgets=\"recall\" data-modules=\"list.json\" data-css=\"w.css\" \
             data-diagrams=\"d.js\" />"
        ));
        assert!(!page.contains("preload"));
    }

    #[test]
    fn a_module_stylesheet_has_the_common_rules_and_its_widgets_sections() {
        let css = "/* intro */\n.widget { a: 1; }\n/* == widget: recall, recall-deck == */\n.recall { b: 2; }\n\
                   /* == widget: mini-eval == */\n.eval { c: 3; }\n/* == every widget == */\n.diagram { d: 4; }\n";
        let known = ["recall", "recall-deck", "mini-eval", "latency"];
        let got = |carried: &[&str]| module_css(css, carried, &known).expect("known names");
        assert_eq!(
            got(&["recall"]),
            "/* intro */\n.widget { a: 1; }\n.recall { b: 2; }\n.diagram { d: 4; }\n"
        );
        // Either name of a section takes it; a module without either leaves it out.
        assert!(got(&["recall-deck"]).contains(".recall {"));
        assert_eq!(
            got(&["latency"]),
            "/* intro */\n.widget { a: 1; }\n.diagram { d: 4; }\n"
        );
        assert_eq!(
            got(&["mini-eval", "recall"]),
            "/* intro */\n.widget { a: 1; }\n.recall { b: 2; }\n.eval { c: 3; }\n.diagram { d: 4; }\n"
        );
        // A section for a widget the registry does not know stops the build, with its line.
        let typo = "/* == widget: recal == */\n.x {}\n";
        assert_eq!(
            module_css(typo, &["recall"], &known),
            Err("style/widgets.css:1: no widget is called \"recal\"".to_string())
        );
        assert!(module_css("/* == diagrams == */\n", &[], &known).is_err());
    }

    #[test]
    fn the_widgets_stylesheet_cuts_into_each_modules_own() {
        let css = include_str!("../style/widgets.css");
        let known: Vec<&str> = crate::widgets::ALL.iter().map(|w| w.name).collect();
        let whole = module_css(css, &known, &known).expect("every section names a widget");
        for (name, list, _) in crate::widgets::modules::MODULES {
            let carried: Vec<&str> = list.iter().map(|w| w.name).collect();
            let own = module_css(css, &carried, &known).expect("every section names a widget");
            // Every module's has the cards, the chart and the diagrams; only its own widgets'.
            for rule in [".widget {", ".axis-chart", ".dnode {", ".widget-stopped {"] {
                assert!(own.contains(rule), "{name} lacks {rule}");
            }
            assert_eq!(
                own.contains(".recall-review"),
                carried.iter().any(|w| w.starts_with("recall")),
                "{name}"
            );
            assert_eq!(
                own.contains(".eval-case"),
                carried.contains(&"mini-eval"),
                "{name}"
            );
            assert!(own.len() <= whole.len());
        }
        assert!(whole.len() + 600 > css.len(), "the whole has every rule");
    }

    #[test]
    fn a_page_with_a_drawn_widget_links_its_style_and_script_in_the_head() {
        assert_eq!(
            drawn_head("w.css", &files()),
            "\n    <link rel=\"stylesheet\" href=\"w.css\" />\n    <script src=\"d.js\" defer></script>"
        );
        assert_eq!(
            without_html_comments(
                "<head>\n  <!-- why -->\n  <meta a />\n  <!-- and\n  why --><b>x</b> <!-- y --> z\n<!-- open"
            ),
            "<head>\n  <meta a />\n<b>x</b> z\n<!-- open"
        );
        assert_eq!(
            without_line_comments("// why\n(function () {\n  // how\n  go(\"//x\");\n})();\n"),
            "(function () {\n  go(\"//x\");\n})();\n"
        );
    }

    #[test]
    fn the_service_worker_lists_its_files_under_its_version() {
        let sw = service_worker(&["index.html".into(), "app-1a2b.wasm".into()], "abc123");
        assert!(sw.contains("const CACHE = \"ie-course-abc123\";"));
        assert!(sw.contains("\"app-1a2b.wasm\""));
        assert!(sw.contains("k !== CACHE"));
    }

    #[test]
    fn the_sql_module_is_named_in_a_meta_and_cached_on_first_use_only() {
        assert_eq!(
            sql_head("ie-sql-ab"),
            "\n    <meta name=\"ie-course-sql\" content=\"ie-sql-ab\" />"
        );
        assert!(!precached("ie-sql-ab_bg.wasm") && !precached("sub/ie-sql-ab.js"));
        assert!(precached("ie-widgets-ab_bg.wasm") && precached("index.html"));
        let sw = service_worker(&["index.html".into()], "v");
        assert!(sw.contains("cache.put(request, r.clone())"), "{sw}");
    }

    #[test]
    fn a_shell_without_the_slot_is_refused() {
        assert!(page_html("<html></html>", Route::Home).is_none());
    }
}
