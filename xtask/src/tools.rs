//! The programs the build runs, found and checked before it starts, so that a machine without
//! them gets one clear message instead of an obscure failure halfway: the pinned Rust toolchain
//! for wasm (`tools/wasm-toolchain.toml`), wasm-bindgen at exactly the version in Cargo.lock,
//! wasm-opt from npm's binaryen 132 and esbuild (`tools/package.json`). `tools/setup.sh` installs
//! them all.

use crate::Config;
use sha2::Digest;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The wasm toolchain's `channel`, read from `tools/wasm-toolchain.toml`.
pub fn wasm_toolchain(root: &Path) -> Result<String, String> {
    let path = root.join("tools/wasm-toolchain.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    channel_of(&text).ok_or(format!("{}: no `channel = \"…\"` line", path.display()))
}

/// The value of the `channel = "…"` line of a rust-toolchain file.
fn channel_of(toml: &str) -> Option<String> {
    toml.lines().find_map(|line| {
        let value = line.trim().strip_prefix("channel")?.trim_start();
        let value = value.strip_prefix('=')?.trim();
        Some(value.strip_prefix('"')?.strip_suffix('"')?.to_string())
    })
}

/// The version wasm-bindgen's crate has in Cargo.lock: the CLI must be the same.
fn locked_wasm_bindgen(root: &Path) -> Result<String, String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| e.to_string())?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            let version = lines.next().unwrap_or_default();
            if let Some(v) = version
                .strip_prefix("version = \"")
                .and_then(|v| v.strip_suffix('"'))
            {
                return Ok(v.to_string());
            }
        }
    }
    Err("Cargo.lock has no wasm-bindgen".into())
}

/// The programs, checked.
pub struct Tools {
    /// The wasm toolchain's name, for `cargo +<name>`.
    pub toolchain: String,
    pub wasm_bindgen: PathBuf,
    pub wasm_opt: PathBuf,
    /// `wasm-opt --version`, part of the optimizer cache's key.
    pub wasm_opt_version: String,
    pub esbuild: PathBuf,
}

impl Tools {
    pub fn find(config: &Config) -> Result<Self, String> {
        let setup = "run tools/setup.sh build, which installs it";
        let toolchain = wasm_toolchain(&config.root)?;
        let rustc = output(Command::new("rustup").args(["run", &toolchain, "rustc", "-V"]))
            .map_err(|e| format!("the wasm modules are built with Rust {toolchain} (tools/wasm-toolchain.toml), which is not installed ({e}): {setup}"))?;
        if !rustc.contains("nightly") {
            return Err(format!(
                "Rust {toolchain} answers `{rustc}`: tools/wasm-toolchain.toml must name a nightly"
            ));
        }
        let want = locked_wasm_bindgen(&config.root)?;
        let wasm_bindgen = PathBuf::from("wasm-bindgen");
        let have = output(Command::new(&wasm_bindgen).arg("--version"))
            .map_err(|e| format!("wasm-bindgen {want} is not installed ({e}): {setup}"))?;
        if have != format!("wasm-bindgen {want}") {
            return Err(format!(
                "`{have}` is installed, but Cargo.lock has wasm-bindgen {want}, and the two must match: {setup}"
            ));
        }
        let bin = config.root.join("tools/node_modules/.bin");
        let wasm_opt = bin.join("wasm-opt");
        let wasm_opt_version = output(Command::new(&wasm_opt).arg("--version"))
            .map_err(|e| format!("{} is missing ({e}): {setup}", wasm_opt.display()))?;
        if !wasm_opt_version.contains("version 132") {
            return Err(format!(
                "{} is `{wasm_opt_version}`; the build needs binaryen 132 (tools/package.json): {setup}",
                wasm_opt.display()
            ));
        }
        let esbuild = bin.join("esbuild");
        output(Command::new(&esbuild).arg("--version"))
            .map_err(|e| format!("{} is missing ({e}): {setup}", esbuild.display()))?;
        Ok(Self {
            toolchain,
            wasm_bindgen,
            wasm_opt,
            wasm_opt_version,
            esbuild,
        })
    }

    /// Minifies `files` (paths inside `dir`) in place with esbuild, each keeping its kind: a
    /// module's names are its own, a classic script's stay global, a stylesheet stays a
    /// stylesheet. wasm-bindgen names one snippet twice in a script's imports object (the same
    /// module both times), which esbuild would warn of.
    pub fn minify(&self, dir: &Path, files: &[String]) -> Result<(), String> {
        if files.is_empty() {
            return Ok(());
        }
        run(Command::new(&self.esbuild)
            .current_dir(dir)
            .args(files)
            .args([
                "--minify",
                "--log-level=warning",
                "--allow-overwrite",
                "--log-override:duplicate-object-key=silent",
                "--outbase=.",
                "--outdir=.",
            ]))
    }
}

/// Runs `command`; an error says which program failed and what it printed.
pub fn run(command: &mut Command) -> Result<(), String> {
    let name = command.get_program().to_string_lossy().into_owned();
    let status = command
        .status()
        .map_err(|e| format!("cannot run {name}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{name} failed ({status})"))
    }
}

/// What `command` prints, trimmed, or why it could not run.
fn output(command: &mut Command) -> Result<String, String> {
    let out = command.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The first 8 bytes of `bytes`' SHA-256, in hex: the part of a file's name that changes with
/// its contents.
pub fn short_hash(bytes: &[u8]) -> String {
    sha2::Sha256::digest(bytes)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `stem-<hash>.ext`: a file's name that carries a hash of its contents.
pub fn hashed_name(stem: &str, ext: &str, bytes: &[u8]) -> String {
    format!("{stem}-{}.{ext}", short_hash(bytes))
}

/// Writes `bytes` to `path`, making its folder.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads `path`, saying which file could not be read.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Every file under `dir`, as `/`-separated paths relative to it, sorted.
pub fn files_under(dir: &Path) -> Result<Vec<String>, String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                walk(root, &path, out)?;
            } else if let Ok(rel) = path.strip_prefix(root) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    if dir.is_dir() {
        walk(dir, dir, &mut out)?;
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_toolchain_is_read_from_its_one_line() {
        let toml =
            "# why\n[toolchain]\nchannel = \"nightly-2026-05-20\"\ncomponents = [\"rust-src\"]\n";
        assert_eq!(channel_of(toml).as_deref(), Some("nightly-2026-05-20"));
        assert_eq!(channel_of("[toolchain]\nchannels = 1\n"), None);
        // The file in the checkout names a dated nightly: a new machine builds what was tested.
        let pinned = wasm_toolchain(&crate::root()).unwrap_or_default();
        assert!(pinned.starts_with("nightly-20"), "{pinned}");
    }

    #[test]
    fn wasm_bindgen_is_found_in_the_lock() {
        let v = locked_wasm_bindgen(&crate::root()).unwrap_or_default();
        assert!(v.starts_with("0.2."), "{v}");
    }

    #[test]
    fn names_carry_a_hash_of_their_contents() {
        assert_eq!(
            hashed_name("main", "css", b"a"),
            hashed_name("main", "css", b"a")
        );
        assert_ne!(
            hashed_name("main", "css", b"a"),
            hashed_name("main", "css", b"b")
        );
        assert!(hashed_name("main", "css", b"a").starts_with("main-"));
        assert_eq!(short_hash(b"").len(), 16);
    }
}
