//! Every page of the site: `index.html` (the title page), `<lesson>/index.html`,
//! `print/index.html` (the whole chapter), `glossary/index.html` and `404.html`. Each is the app's
//! own `Shell` rendered to HTML natively (`ie_course::app::static_page`), so deep links work on
//! any static host, and readers and crawlers without JavaScript get the text; and a head written
//! here, which names the page's files:
//! - a Content-Security-Policy `<meta>` (static hosts such as GitHub Pages cannot send headers):
//!   scripts only from the site, the wasm, and the page's inline scripts by hash (the line after
//!   each diagram, `js/diagram-layout.js`); no `unsafe-inline` for scripts;
//! - the stylesheet and the two scripts every page loads: `main-…css`, the start script
//!   (`js/start.js`, a module, so it waits for the page to be parsed) asked for before `boot-…js`,
//!   which blocks the parser on purpose (the theme is set before the first paint), so that both
//!   go out at once;
//! - the `<meta>`s the start script and the widget loader read (ARCHITECTURE.md, "The page
//!   protocol"): `ie-course-app` (the module the page starts the shell from: a lesson's own
//!   widgets module, which carries the shell, or the shell's alone), `ie-course-widgets` (the
//!   widgets module and what it carries, the list of every module, the stylesheet and the
//!   diagrams' script), `ie-course-sql` (the SQL engine, fetched only on demand),
//!   `ie-course-lab` (the measuring lab's folder, fetched only when a reader starts it) and
//!   `ie-course-warmup` (the worker that compiles the wasm first);
//! - on a page with a diagram, its stylesheet and `js/diagrams.js`, so it is first painted
//!   styled and answers as soon as the page is parsed.

use crate::assets::{Assets, Named};
use crate::modules::{Module, Modules, WidgetsModule};
use crate::tools::write;
use crate::Config;
use ie_course::content::{Block, Lesson, LESSONS};
use ie_course::logic::format::escape_html as escape;
use ie_course::nav::{self, Route};

/// Writes every page.
pub fn write_all(
    config: &Config,
    modules: &Modules,
    assets: &Assets,
    lab: &str,
) -> Result<(), String> {
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
        let html = page(route, &config.base, modules, assets, lab)?;
        write(&config.out.join(&path), html.as_bytes())?;
    }
    Ok(())
}

/// The whole HTML of `route`'s page for a site served at `base`, with the lab's folder `lab`.
pub fn page(
    route: Route,
    base: &str,
    modules: &Modules,
    assets: &Assets,
    lab: &str,
) -> Result<String, String> {
    let body = ie_course::app::static_page::render(route);
    let shown = shown_widgets(route);
    let canonical = match route {
        Route::NotFound => base.to_string(),
        r => format!("{base}{}", nav::href(r).trim_start_matches("./")),
    };
    let head = nav::head(route);
    let own = page_module(&modules.widgets, &shown);
    // A lesson starts the shell from its own widgets module; a page without widgets, from the
    // shell's alone.
    let app = match own {
        Some(w) if !shown.is_empty() => &w.module,
        _ => &modules.shell,
    };
    let mut metas = app_meta(app)?;
    if let Some(w) = own {
        let css = css_of(modules, assets, w);
        metas += &widgets_meta(w, &shown, &assets.list, css, &assets.diagrams);
    }
    metas += &sql_meta(&modules.sql);
    metas += &lab_meta(lab);
    metas += &format!(
        "\n    <meta name=\"ie-course-warmup\" content=\"{}\" />",
        escape(&assets.warmup)
    );
    if draws(route) {
        let css = own.map_or(assets.widgets_css.first(), |w| css_of(modules, assets, w));
        if let Some(css) = css {
            metas += &format!(
                "\n    <link rel=\"stylesheet\" href=\"{}\" />\n    <script type=\"module\" src=\"{}\"></script>",
                escape(css),
                escape(&assets.diagrams)
            );
        }
    }
    let csp = content_security_policy(&inline_script_hashes(&body));
    Ok(format!(
        "<!doctype html>
<html lang=\"en\">
  <head>
    <meta charset=\"utf-8\" />
    <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />
    <base href=\"{base}\" />
    <meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\" />
    <link rel=\"canonical\" href=\"{canonical}\" />{metas}
    <title>{title}</title>
    <meta name=\"description\" content=\"{description}\" />
    <meta name=\"color-scheme\" content=\"light dark\" />
    <link rel=\"icon\" type=\"image/png\" sizes=\"32x32\" href=\"favicon.png\" />
    <link rel=\"manifest\" href=\"manifest.webmanifest\" />
    {main_css}
    {start}
    {boot}
  </head>
  <body>
    <div id=\"app\">{body}</div>
  </body>
</html>
",
        base = escape(base),
        csp = escape(&csp),
        canonical = escape(&canonical),
        title = escape(&head.title),
        description = escape(head.description),
        main_css = tag("link rel=\"stylesheet\" href", &assets.main_css, " />"),
        start = tag("script type=\"module\" src", &assets.start, "></script>"),
        boot = tag("script src", &assets.boot, "></script>"),
    ))
}

/// `<{open}="path" integrity="…"{close}`.
fn tag(open: &str, file: &Named, close: &str) -> String {
    format!(
        "<{open}=\"{}\" integrity=\"{}\"{close}",
        escape(&file.path),
        escape(&file.integrity)
    )
}

/// The stylesheet of widgets module `w`.
fn css_of<'a>(modules: &Modules, assets: &'a Assets, w: &WidgetsModule) -> Option<&'a String> {
    let i = modules.widgets.iter().position(|m| m == w)?;
    assets.widgets_css.get(i)
}

/// The lessons a page shows: its own, or every one on the print page.
fn lessons_of(route: Route) -> &'static [Lesson] {
    match route {
        Route::Lesson(i) => LESSONS.get(i..=i).unwrap_or_default(),
        Route::Print => LESSONS,
        _ => &[],
    }
}

/// Whether a page shows a widget the build drew (a diagram).
fn draws(route: Route) -> bool {
    lessons_of(route)
        .iter()
        .flat_map(|l| l.blocks)
        .any(|b| matches!(b, Block::Drawn(_)))
}

/// What the live widgets a page shows need from a module (`WidgetUse::needs`): a lesson's own,
/// every lesson's on the print page.
pub fn shown_widgets(route: Route) -> Vec<&'static str> {
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

/// The module a page with widgets `shown` loads: the smallest that carries them all; for a page
/// that shows none, the one that carries the most (should the reader move to a lesson).
pub fn page_module<'a>(modules: &'a [WidgetsModule], shown: &[&str]) -> Option<&'a WidgetsModule> {
    if shown.is_empty() {
        return modules
            .iter()
            .max_by_key(|m| (m.carries.len(), m.module.bytes));
    }
    modules
        .iter()
        .filter(|m| shown.iter().all(|w| m.carries.iter().any(|c| c == w)))
        .min_by_key(|m| m.module.bytes)
}

/// The `<meta>` that names the module a page starts the shell from: its script and wasm, the
/// scripts its script imports (asked for at once: `data-imports`) and among them the widget
/// loader, which the start script imports too (`data-loader`).
pub fn app_meta(module: &Module) -> Result<String, String> {
    let loader = module.loader().ok_or(format!(
        "{}: the module imports no js/loader.js",
        module.name
    ))?;
    Ok(format!(
        "\n    <meta name=\"ie-course-app\" content=\"{}\" data-wasm=\"{}\" data-imports=\"{}\" data-loader=\"{}\" />",
        escape(&module.js),
        escape(&module.wasm),
        escape(&module.imports.join(" ")),
        escape(loader)
    ))
}

/// The `<meta>` that names a page's widgets module (`content` and `data-wasm` its files,
/// `data-widgets` what it carries: nothing on a page that shows no widget, whose module is named
/// only so that the list of modules is found after a move), the list of every module, the
/// module's stylesheet and the diagrams' script. None is fetched until a page shows a widget.
pub fn widgets_meta(
    own: &WidgetsModule,
    shown: &[&str],
    list: &str,
    css: Option<&String>,
    diagrams: &str,
) -> String {
    let carried = if shown.is_empty() {
        String::new()
    } else {
        own.carries.join(" ")
    };
    format!(
        "\n    <meta name=\"ie-course-widgets\" content=\"{}\" data-wasm=\"{}\" \
         data-widgets=\"{}\" data-modules=\"{}\" data-css=\"{}\" data-diagrams=\"{}\" />",
        escape(&own.module.js),
        escape(&own.module.wasm),
        escape(&carried),
        escape(list),
        escape(css.map_or("", String::as_str)),
        escape(diagrams)
    )
}

/// The `<meta>` that names the SQL engine module. Nothing fetches it until a reader turns the
/// mini eval's execution grading on (`js/sql.js`).
pub fn sql_meta(sql: &Module) -> String {
    format!(
        "\n    <meta name=\"ie-course-sql\" content=\"{}\" data-wasm=\"{}\" />",
        escape(&sql.js),
        escape(&sql.wasm)
    )
}

/// The `<meta>` that names the measuring lab's folder (`lab-<hash>/`, with its engine, worker and
/// models: `xtask/src/lab.rs`). Nothing fetches from it until a reader presses a lab's Start
/// (`js/lab.js`). Every page names it, not only the pages that show a lab: a move inside the app
/// keeps the head of the page the reader came in on.
pub fn lab_meta(folder: &str) -> String {
    format!(
        "\n    <meta name=\"ie-course-lab\" content=\"{}/\" />",
        escape(folder)
    )
}

/// The SHA-256 hashes (CSP source form, `'sha256-…'`) of every inline `<script>` in `html`, each
/// once.
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

/// The Content-Security-Policy of a page whose inline scripts hash to `script_hashes`: scripts
/// only from the site, the wasm, and those; workers from the site; no plugins; `<base>` locked
/// to the site.
pub fn content_security_policy(script_hashes: &[String]) -> String {
    let mut scripts = String::from("'self' 'wasm-unsafe-eval'");
    for h in script_hashes {
        scripts.push(' ');
        scripts.push_str(h);
    }
    format!(
        "default-src 'self'; script-src {scripts}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ie_course::content::{GLOSSARY, GLOSSARY_TITLE};

    fn module(name: &str, bytes: u64) -> Module {
        Module {
            name: name.into(),
            js: format!("app-1/{name}-2.js"),
            wasm: format!("app-1/{name}-2_bg.wasm"),
            imports: vec![
                "app-1/snippets/ie-course-3/js/loader.js".into(),
                "app-1/snippets/ie-course-3/js/prose.js".into(),
            ],
            bytes,
        }
    }

    fn widgets(name: &str, bytes: u64, carries: &[&str]) -> WidgetsModule {
        WidgetsModule {
            module: module(name, bytes),
            carries: carries.iter().map(|c| c.to_string()).collect(),
        }
    }

    fn named(path: &str) -> Named {
        Named {
            path: path.into(),
            integrity: format!("sha384-{path}"),
        }
    }

    /// A site whose modules carry what every page shows: the whole list (the print page's), and
    /// one small module per lesson.
    fn site() -> (Modules, Assets) {
        let mut all: Vec<&str> = Vec::new();
        let mut list = Vec::new();
        for (i, lesson) in LESSONS.iter().enumerate() {
            let shown = shown_widgets(Route::Lesson(i));
            all.extend(&shown);
            list.push(widgets(
                &format!("ie-widgets-{}", lesson.slug),
                10 + i as u64,
                &shown,
            ));
        }
        all.sort_unstable();
        all.dedup();
        list.insert(0, widgets("ie-widgets", 100, &all));
        let css = (0..list.len())
            .map(|i| format!("widgets-{i}.css"))
            .collect();
        (
            Modules {
                shell: module("ie-course", 5),
                widgets: list,
                sql: module("ie-sql", 50),
                on_demand: vec!["sql-1".into()],
            },
            Assets {
                main_css: named("main-1.css"),
                boot: named("boot-1.js"),
                start: named("start-1.js"),
                diagrams: "diagrams-1.js".into(),
                warmup: "warmup-1.js".into(),
                widgets_css: css,
                list: "ie-widgets-1.json".into(),
            },
        )
    }

    fn page_at(route: Route) -> String {
        let (m, a) = site();
        page(route, "/sub/", &m, &a, "lab-4").unwrap_or_default()
    }

    #[test]
    fn a_page_takes_the_smallest_module_with_all_its_widgets() {
        let modules = vec![
            widgets("all", 20, &["recall", "latency"]),
            widgets("w", 10, &["recall"]),
        ];
        let name = |shown: &[&str]| page_module(&modules, shown).map(|m| m.module.name.clone());
        assert_eq!(name(&["recall"]).as_deref(), Some("w"));
        assert_eq!(name(&["latency", "recall"]).as_deref(), Some("all"));
        assert_eq!(name(&["latency"]).as_deref(), Some("all"));
        // A page without widgets names the module with the most, should one appear.
        assert_eq!(name(&[]).as_deref(), Some("all"));
        assert_eq!(name(&["nope"]), None);
    }

    #[test]
    fn a_lesson_starts_the_shell_from_its_own_module_and_the_title_page_from_the_shells() {
        let model = LESSONS
            .iter()
            .position(|l| l.slug == "model-selection")
            .unwrap_or_default();
        let lesson = page_at(Route::Lesson(model));
        assert!(lesson.contains(
            "<meta name=\"ie-course-app\" content=\"app-1/ie-widgets-model-selection-2.js\" \
             data-wasm=\"app-1/ie-widgets-model-selection-2_bg.wasm\" \
             data-imports=\"app-1/snippets/ie-course-3/js/loader.js app-1/snippets/ie-course-3/js/prose.js\" \
             data-loader=\"app-1/snippets/ie-course-3/js/loader.js\" />"
        ));
        let meta = lesson
            .split("<meta name=\"ie-course-widgets\"")
            .nth(1)
            .unwrap_or_default();
        assert!(
            meta.split("/>")
                .next()
                .unwrap_or_default()
                .contains(" mini-eval "),
            "{lesson}"
        );
        let home = page_at(Route::Home);
        assert!(home.contains("<meta name=\"ie-course-app\" content=\"app-1/ie-course-2.js\""));
        // The title page names the module with every widget, for a move, but shows none.
        assert!(home.contains(
            "<meta name=\"ie-course-widgets\" content=\"app-1/ie-widgets-2.js\" data-wasm=\"app-1/ie-widgets-2_bg.wasm\" data-widgets=\"\""
        ));
        for page in [&lesson, &home] {
            assert!(page.contains("<meta name=\"ie-course-sql\" content=\"app-1/ie-sql-2.js\" data-wasm=\"app-1/ie-sql-2_bg.wasm\" />"));
            assert!(page.contains("<meta name=\"ie-course-warmup\" content=\"warmup-1.js\" />"));
            assert!(page.contains("<meta name=\"ie-course-lab\" content=\"lab-4/\" />"));
            assert!(!page.contains("preload"));
        }
    }

    #[test]
    fn every_page_names_the_labs_folder_and_nothing_fetches_it() {
        let mut routes = vec![Route::Home, Route::NotFound, Route::Print, Route::Glossary];
        routes.extend((0..LESSONS.len()).map(Route::Lesson));
        for route in routes {
            let page = page_at(route);
            // Named once, in the head, and never linked, preloaded or imported by the page.
            assert_eq!(page.matches("lab-4").count(), 1, "{route:?}");
            assert!(page.contains("<meta name=\"ie-course-lab\" content=\"lab-4/\" />"));
        }
        assert_eq!(
            lab_meta("lab-\"x"),
            "\n    <meta name=\"ie-course-lab\" content=\"lab-&quot;x/\" />"
        );
    }

    #[test]
    fn the_start_script_is_asked_for_before_the_script_that_blocks_the_parser() {
        let page = page_at(Route::Home);
        let css = page.find(
            "<link rel=\"stylesheet\" href=\"main-1.css\" integrity=\"sha384-main-1.css\" />",
        );
        let start = page.find(
            "<script type=\"module\" src=\"start-1.js\" integrity=\"sha384-start-1.js\"></script>",
        );
        let boot = page.find("<script src=\"boot-1.js\" integrity=\"sha384-boot-1.js\"></script>");
        assert!(css.is_some() && css < start && start < boot, "{page}");
        // The CSP and the base come before anything that loads.
        assert!(page.find("<base href=\"/sub/\" />") < page.find("Content-Security-Policy"));
        assert!(page.find("Content-Security-Policy") < css);
        assert!(page.contains("<link rel=\"canonical\" href=\"/sub/\" />"));
    }

    #[test]
    fn a_lesson_page_carries_its_text_title_and_description() {
        let lesson = &LESSONS[3];
        let page = page_at(Route::Lesson(3));
        assert!(page.contains(&format!("<title>{}", escape(lesson.title))));
        assert!(page.contains(&format!(
            "<meta name=\"description\" content=\"{}\" />",
            escape(lesson.description)
        )));
        assert!(page.contains(&format!(
            "<h1 tabindex=\"-1\">{}</h1>",
            escape(lesson.title)
        )));
        assert!(page.contains(&format!(
            "<link rel=\"canonical\" href=\"/sub/{}/\" />",
            lesson.slug
        )));
        assert!(page.contains("aria-current=\"page\""));
        assert!(page.ends_with("</div>\n  </body>\n</html>\n"));
        // The title page keeps the course's own description.
        assert!(page_at(Route::Home)
            .contains("<meta name=\"description\" content=\"An interactive course"));
    }

    #[test]
    fn the_glossary_is_a_page_of_its_own_reachable_from_the_contents() {
        let page = page_at(Route::Glossary);
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
            assert!(page.contains(&escape(t.definition)), "{}", t.id);
        }
        // Not a lesson: no "Lesson n of 8", no pager; the contents mark it as the current page.
        assert!(!page.contains("Lesson 1 of") && !page.contains("class=\"pager\""));
        assert!(
            page.contains("href=\"glossary/\" data-testid=\"glossary-link\" aria-current=\"page\"")
        );
        for route in [Route::Home, Route::Lesson(0), Route::Print, Route::NotFound] {
            assert!(page_at(route).contains("<a href=\"glossary/\" data-testid=\"glossary-link\">"));
        }
        // The print page ends with the glossary.
        assert!(page_at(Route::Print)
            .contains("<section data-prose=\"glossary\" class=\"print-glossary\">"));
    }

    #[test]
    fn every_lesson_marks_terms_and_every_tooltip_is_found_once() {
        for (i, lesson) in LESSONS.iter().enumerate() {
            assert!(
                page_at(Route::Lesson(i)).contains("data-term=\""),
                "{}",
                lesson.slug
            );
        }
        // On the print page every lesson is present at once: a tooltip's id is still unique,
        // and each mark's description points at one.
        let print = page_at(Route::Print);
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
    fn a_page_with_a_diagram_links_its_style_and_script_and_hashes_its_layout_line() {
        let overview = LESSONS
            .iter()
            .position(|l| l.blocks.iter().any(|b| matches!(b, Block::Drawn(_))))
            .unwrap_or_default();
        let page = page_at(Route::Lesson(overview));
        assert!(page.contains("<script type=\"module\" src=\"diagrams-1.js\"></script>"));
        let layout = ie_course::app::diagrams::first_layout();
        assert!(page.contains(&format!("<script>{layout}</script>")));
        let hashes = inline_script_hashes(&page);
        assert_eq!(hashes.len(), 1, "{hashes:?}");
        assert!(page.contains(&hashes[0]));
        // The title page draws none and has no inline script.
        let home = page_at(Route::Home);
        assert!(!home.contains("diagrams-1.js\"></script>"));
        assert!(home.contains("script-src 'self' 'wasm-unsafe-eval'; "));
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
        assert!(
            !csp.contains("unsafe-inline';") || csp.contains("style-src 'self' 'unsafe-inline'")
        );
        assert!(!csp.contains("script-src 'self' 'unsafe-inline'"));
    }
}
