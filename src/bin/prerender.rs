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
    use ie_course::content::LESSONS;
    use ie_course::nav::{self, Route};
    use ie_course::prerender::{
        content_security_policy, inline_script_hashes, page_html, precached, search_json,
        service_worker, sql_head, start_after_first_paint, widgets_head, with_head_extras,
    };
    use sha2::Digest;
    use std::path::{Path, PathBuf};

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
        let shell = start_after_first_paint(&shell)
            .ok_or("Trunk's loader script in index.html has an unexpected shape")?;
        let csp = content_security_policy(&inline_script_hashes(&shell));
        let widgets = match std::env::var_os("IE_WIDGETS_DIR") {
            Some(dir) => Some(install_widgets(&PathBuf::from(dir), &staging)?),
            None => None,
        };

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
            let extra = widgets
                .as_ref()
                .map(|(js, wasm)| widgets_head(js, wasm))
                .unwrap_or_default();
            let extra = extra + &sql_extra;
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

    /// Copies the widgets module from `dir` (wasm-bindgen's output) into `staging` under names
    /// that carry a hash of its contents, like Trunk's own files. Returns (js, wasm) names.
    fn install_widgets(dir: &Path, staging: &Path) -> Result<(String, String), String> {
        let read = |name: &str| {
            std::fs::read(dir.join(name)).map_err(|e| format!("{}: {e}", dir.join(name).display()))
        };
        let js = read("ie-widgets.js")?;
        let wasm = read("ie-widgets_bg.wasm")?;
        let mut hasher = sha2::Sha256::new();
        hasher.update(&js);
        hasher.update(&wasm);
        let hash: String = hasher
            .finalize()
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect();
        let (js_name, wasm_name) = (
            format!("ie-widgets-{hash}.js"),
            format!("ie-widgets-{hash}_bg.wasm"),
        );
        std::fs::write(staging.join(&js_name), &js).map_err(|e| e.to_string())?;
        std::fs::write(staging.join(&wasm_name), &wasm).map_err(|e| e.to_string())?;
        // JavaScript snippets the widgets import (wasm-bindgen `inline_js`), beside the module.
        let snippets = dir.join("snippets");
        if snippets.is_dir() {
            copy_dir(&snippets, &staging.join("snippets"))?;
        }
        Ok((js_name, wasm_name))
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
        let mut hasher = sha2::Sha256::new();
        hasher.update(&js);
        hasher.update(&wasm);
        let hash: String = hasher
            .finalize()
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect();
        let stem = format!("ie-sql-{hash}");
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
