//! The service worker that keeps the course readable offline (`js/sw.js`, where what it does is).
//! The build writes it as `sw.js` at the site's base, after one line of data: the build's name and
//! the files to precache. Every file of the site is precached but those fetched only when a
//! reader asks (`Modules::on_demand`: the SQL engine's folder, and the measuring lab's, whose
//! engine and models are fetched only when a reader presses its Start). The name is a hash of every
//! precached file's path and contents, so any change to the site installs a new worker, whose
//! cache replaces the old one instead of mixing with it.

use crate::modules::Modules;
use crate::tools::{files_under, read, write, Tools};
use crate::Config;
use sha2::Digest;

pub fn write_service_worker(
    config: &Config,
    tools: &Tools,
    modules: &Modules,
) -> Result<(), String> {
    let files: Vec<String> = files_under(&config.out)?
        .into_iter()
        .filter(|f| precached(f, &modules.on_demand))
        .collect();
    let mut hasher = sha2::Sha256::new();
    for f in &files {
        hasher.update(f.as_bytes());
        hasher.update(read(&config.out.join(f))?);
    }
    let name: String = hasher
        .finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect();
    let work = config.work().join("offline");
    write(&work.join("sw.js"), &read(&config.root.join("js/sw.js"))?)?;
    if config.release {
        tools.minify(&work, &["sw.js".to_string()])?;
    }
    let code = String::from_utf8(read(&work.join("sw.js"))?).map_err(|e| e.to_string())?;
    write(
        &config.out.join("sw.js"),
        service_worker(&name, &files, &code).as_bytes(),
    )
}

/// Whether the worker precaches `file` (a path from the site's base): every file but its own
/// and those under the folders of `on_demand`.
fn precached(file: &str, on_demand: &[String]) -> bool {
    file != "sw.js"
        && !on_demand.iter().any(|dir| {
            file.strip_prefix(dir.as_str())
                .is_some_and(|r| r.starts_with('/'))
        })
}

/// The worker: its data line (`const BUILD = {...};`, JSON), then its code.
fn service_worker(name: &str, files: &[String], code: &str) -> String {
    let data = serde_json::json!({ "name": name, "files": files });
    format!("const BUILD = {data};\n{code}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_lists_every_file_but_its_own_and_those_fetched_on_demand() {
        let on_demand = ["sql-ab".to_string(), "lab-cd".to_string()];
        assert!(precached("index.html", &on_demand));
        assert!(!precached("lab-cd/engine-relaxed.wasm", &on_demand));
        assert!(!precached("lab-cd/models/teacher.ielm", &on_demand));
        assert!(precached("lab-cde/worker.js", &on_demand), "another folder");
        assert!(precached("app-1/ie-widgets-1_bg.wasm", &on_demand));
        assert!(precached("sql-abc/x.js", &on_demand), "another folder");
        assert!(!precached("sql-ab/ie-sql-1_bg.wasm", &on_demand));
        assert!(!precached("sw.js", &on_demand));
    }

    #[test]
    fn the_worker_carries_its_build_and_files_before_its_code() {
        let sw = service_worker(
            "abc123",
            &["index.html".into(), "glossary/index.html".into()],
            "self.x=1;",
        );
        assert_eq!(
            sw,
            "const BUILD = {\"files\":[\"index.html\",\"glossary/index.html\"],\"name\":\"abc123\"};\nself.x=1;"
        );
        // The checked-in code reads that line and nothing else of the build's.
        let code = include_str!("../../js/sw.js");
        assert!(code.contains("BUILD.name") && code.contains("BUILD.files"));
    }
}
