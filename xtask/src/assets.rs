//! The stylesheets and scripts the pages load, and the site's data files. Each is minified in
//! release builds (esbuild), then named for its contents, so a new deploy never mixes with files
//! a browser kept:
//! - `main-<hash>.css` (`style/main.css`), every page's;
//! - `widgets-<hash>.css`, one per widgets module: the rules every widget needs and the sections
//!   of the widgets it carries, cut from `style/widgets.css` ([`module_css`]);
//! - `boot-<hash>.js`, `start-<hash>.js`, `diagrams-<hash>.js` and `warmup-<hash>.js`, from `js/`
//!   (each file says what it does; ARCHITECTURE.md, "The page protocol", how they talk);
//! - `ie-widgets-<hash>.json`, the list of widgets modules a page's loader reads after a move to
//!   a lesson its own module does not serve; `search.json`, which search fetches when first
//!   opened.

use crate::modules::Modules;
use crate::tools::{hashed_name, read, write, Tools};
use crate::Config;
use ie_course::content::LESSONS;
use sha2::Digest;

/// A file of the site that a page names, with its subresource-integrity hash.
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// Its path from the site's base.
    pub path: String,
    /// `sha384-…`, for the `integrity` attribute.
    pub integrity: String,
}

/// What the pages load besides the modules.
pub struct Assets {
    pub main_css: Named,
    pub boot: Named,
    pub start: Named,
    /// The diagrams' script (`js/diagrams.js`).
    pub diagrams: String,
    /// The worker that compiles a page's wasm first (`js/warmup.js`).
    pub warmup: String,
    /// Each widgets module's stylesheet, in `Modules::widgets`' order.
    pub widgets_css: Vec<String>,
    /// The list of every widgets module.
    pub list: String,
}

/// The scripts of `js/` the pages load, and what the site names each after (`<stem>-<hash>.js`).
const SCRIPTS: [(&str, &str); 4] = [
    ("js/boot.js", "boot"),
    ("js/start.js", "start"),
    ("js/diagrams.js", "diagrams"),
    ("js/warmup.js", "warmup"),
];

pub fn install(config: &Config, tools: &Tools, modules: &Modules) -> Result<Assets, String> {
    let work = config.work().join("assets");
    if work.exists() {
        std::fs::remove_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    }
    // The sources as they are, then minified in place.
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    files.push((
        "main.css".into(),
        read(&config.root.join("style/main.css"))?,
    ));
    for (source, stem) in SCRIPTS {
        files.push((format!("{stem}.js"), read(&config.root.join(source))?));
    }
    let widgets_css = String::from_utf8(read(&config.root.join("style/widgets.css"))?)
        .map_err(|e| format!("style/widgets.css: {e}"))?;
    let known = widget_names();
    for (i, w) in modules.widgets.iter().enumerate() {
        let carried: Vec<&str> = w.module_widgets();
        let css = module_css(&widgets_css, &carried, &known)?;
        files.push((format!("widgets-{i}.css"), css.into_bytes()));
    }
    for (name, bytes) in &files {
        write(&work.join(name), bytes)?;
    }
    if config.release {
        let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
        tools.minify(&work, &names)?;
    }

    // Named for their contents, into the site.
    let place = |name: &str, stem: &str, ext: &str| -> Result<Named, String> {
        let bytes = read(&work.join(name))?;
        let path = hashed_name(stem, ext, &bytes);
        write(&config.out.join(&path), &bytes)?;
        Ok(Named {
            path,
            integrity: integrity(&bytes),
        })
    };
    let widgets_css = (0..modules.widgets.len())
        .map(|i| place(&format!("widgets-{i}.css"), "widgets", "css").map(|n| n.path))
        .collect::<Result<Vec<_>, String>>()?;
    let list = widgets_list(modules, &widgets_css);
    let list_path = hashed_name("ie-widgets", "json", list.as_bytes());
    write(&config.out.join(&list_path), list.as_bytes())?;
    write(&config.out.join("search.json"), search_json().as_bytes())?;
    Ok(Assets {
        main_css: place("main.css", "main", "css")?,
        boot: place("boot.js", "boot", "js")?,
        start: place("start.js", "start", "js")?,
        diagrams: place("diagrams.js", "diagrams", "js")?.path,
        warmup: place("warmup.js", "warmup", "js")?.path,
        widgets_css,
        list: list_path,
    })
}

impl crate::modules::WidgetsModule {
    /// The names of the widgets it carries (not the lessons' cards).
    fn module_widgets(&self) -> Vec<&str> {
        let known = widget_names();
        self.carries
            .iter()
            .map(String::as_str)
            .filter(|c| known.contains(c))
            .collect()
    }
}

/// Every widget's name (the registry's).
pub fn widget_names() -> Vec<&'static str> {
    ie_course::widgets::ALL.iter().map(|w| w.name).collect()
}

/// The `integrity` value of a file: its SHA-384, as browsers check it.
pub fn integrity(bytes: &[u8]) -> String {
    use base64::Engine;
    format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha384::digest(bytes))
    )
}

/// The list of every widgets module, smallest first, each with its files and what it carries
/// (`css[i]` is module i's stylesheet): the file a page's loader reads after a move to a page
/// its own module does not serve.
pub fn widgets_list(modules: &Modules, css: &[String]) -> String {
    let mut sorted: Vec<(usize, &crate::modules::WidgetsModule)> =
        modules.widgets.iter().enumerate().collect();
    sorted.sort_by_key(|(_, w)| w.module.bytes);
    let list: Vec<serde_json::Value> = sorted
        .iter()
        .map(|(i, w)| {
            serde_json::json!({
                "js": w.module.js,
                "wasm": w.module.wasm,
                "css": css.get(*i),
                "widgets": w.carries,
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// `search.json`, which the app fetches the first time a reader searches: the index, and each
/// lesson's section texts (for the snippets) in the order of `Lesson::sections`.
pub fn search_json() -> String {
    let sections: Vec<Vec<&str>> = LESSONS
        .iter()
        .map(|l| l.sections.iter().map(|s| s.text).collect())
        .collect();
    serde_json::json!({ "index": ie_course::content::SEARCH_INDEX, "sections": sections })
        .to_string()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_stylesheet_has_the_common_rules_and_its_widgets_sections() {
        let css = "/* intro */\n.widget { a: 1; }\n/* == widget: recall, recall-deck == */\n.recall { b: 2; }\n\
                   /* == widget: mini-eval == */\n.eval { c: 3; }\n/* == every widget == */\n.diagram { d: 4; }\n";
        let known = ["recall", "recall-deck", "mini-eval", "latency"];
        let got = |carried: &[&str]| module_css(css, carried, &known).unwrap_or_default();
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
        let css = include_str!("../../style/widgets.css");
        let known = widget_names();
        let whole = module_css(css, &known, &known).unwrap_or_default();
        for (name, list, _) in ie_course::widgets::modules::MODULES {
            let carried: Vec<&str> = list.iter().map(|w| w.name).collect();
            let own = module_css(css, &carried, &known).unwrap_or_default();
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
    fn integrity_is_sha384_in_base64() {
        // printf '' | openssl dgst -sha384 -binary | base64
        assert_eq!(
            integrity(b""),
            "sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb"
        );
    }
}
