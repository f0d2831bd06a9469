//! Recall progress as a file to take away, and such a file (or a stored value) read back,
//! checked on the way.

use super::{Progress, EXPORT_KIND, SCHEMA};
use serde::Deserialize;

impl Progress {
    /// The progress as an export file (JSON, pretty-printed).
    pub fn export_json(&self) -> String {
        serde_json::to_string_pretty(&serde_json::json!({
            "kind": EXPORT_KIND,
            "v": SCHEMA,
            "data": self,
        }))
        .unwrap_or_default()
    }

    /// Reads an export file, or a stored value (`{"v":1,"data":…}`), checking it on the way.
    pub fn import_json(text: &str) -> Result<Progress, String> {
        #[derive(Deserialize)]
        struct Envelope<'a> {
            #[serde(default)]
            kind: Option<String>,
            v: u32,
            #[serde(borrow)]
            data: &'a serde_json::value::RawValue,
        }
        let env: Envelope = serde_json::from_str(text.trim())
            .map_err(|e| format!("This is not a recall export ({e})."))?;
        if env.kind.as_deref().is_some_and(|k| k != EXPORT_KIND) {
            return Err("This file is an export of something else, not of recall progress.".into());
        }
        if env.v > SCHEMA {
            return Err(format!(
                "This export comes from a newer version of the course (schema {}); update the page and try again.",
                env.v
            ));
        }
        if env.v < 1 {
            return Err(format!("Unknown export schema {}.", env.v));
        }
        let p: Progress = serde_json::from_str(env.data.get())
            .map_err(|e| format!("The export's contents do not fit ({e})."))?;
        if let Some(bad) = p.log.iter().find(|r| r.card.is_empty() || r.at < 0) {
            return Err(format!(
                "The export has a review with no card or a negative time (at {}).",
                bad.at
            ));
        }
        Ok(p.normalized())
    }
}
