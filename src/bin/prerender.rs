//! Trunk post-build hook: writes `<slug>/index.html` for every lesson, the title page and a
//! `404.html`, each with its page pre-rendered into the shell Trunk built.
//!
//! Run by Trunk (see Trunk.toml) with `TRUNK_STAGING_DIR` set to the folder being built.

use ie_course::content::LESSONS;
use ie_course::nav::Route;
use ie_course::prerender::page_html;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(staging) = std::env::var_os("TRUNK_STAGING_DIR").map(PathBuf::from) else {
        eprintln!("prerender: TRUNK_STAGING_DIR is not set; run this as a Trunk post_build hook");
        return ExitCode::FAILURE;
    };
    let shell_path = staging.join("index.html");
    let shell = match std::fs::read_to_string(&shell_path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("prerender: cannot read {}: {e}", shell_path.display());
            return ExitCode::FAILURE;
        }
    };
    let mut pages = vec![
        (PathBuf::from("index.html"), Route::Home),
        (PathBuf::from("404.html"), Route::NotFound),
    ];
    for (i, lesson) in LESSONS.iter().enumerate() {
        pages.push((
            PathBuf::from(lesson.slug).join("index.html"),
            Route::Lesson(i),
        ));
    }
    for (path, route) in pages {
        let Some(html) = page_html(&shell, route) else {
            eprintln!(
                "prerender: {} has no <div id=\"app\"></div> to fill",
                shell_path.display()
            );
            return ExitCode::FAILURE;
        };
        let target = staging.join(&path);
        if let Some(dir) = target.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("prerender: cannot create {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        }
        if let Err(e) = std::fs::write(&target, html) {
            eprintln!("prerender: cannot write {}: {e}", target.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
