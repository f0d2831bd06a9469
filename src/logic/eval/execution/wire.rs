//! The wire form: how the SQL engine's module hands each result over, as JSON.

use super::{QueryResult, RunOutcome, Value};
use serde::Serialize;

/// The wire form of a [`RunOutcome`], as the SQL module hands it over.
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Wire {
    Ok(QueryResult),
    Error(String),
}

/// A run's outcome as JSON (`{"ok": {"columns": …, "rows": …}}` or `{"error": "…"}`), as the
/// SQL module returns it.
pub fn wire_json(outcome: &RunOutcome) -> String {
    let wire = match outcome {
        Ok(result) => Wire::Ok(result.clone()),
        Err(message) => Wire::Error(message.clone()),
    };
    // Strings, finite numbers and lists cannot fail to serialize.
    serde_json::to_string(&wire).unwrap_or_default()
}

/// Reads what the SQL module returned ([`wire_json`]); anything unreadable is an error to show.
///
/// Read through `serde_json::Value` by hand rather than derived: the widgets module, which
/// reads it, stays smaller without serde's machinery for untagged enums.
pub fn parse_wire(json: &str) -> RunOutcome {
    use serde_json::Value as Json;
    let unreadable = |why: String| format!("the SQL engine's answer could not be read ({why})");
    let wire: Json = serde_json::from_str(json).map_err(|e| unreadable(e.to_string()))?;
    if let Some(message) = wire.get("error").and_then(Json::as_str) {
        return Err(message.to_string());
    }
    let ok = wire
        .get("ok")
        .ok_or_else(|| unreadable("no result".into()))?;
    let columns = ok
        .get("columns")
        .and_then(Json::as_array)
        .ok_or_else(|| unreadable("no columns".into()))?
        .iter()
        .map(|c| c.as_str().map(str::to_string))
        .collect::<Option<Vec<String>>>()
        .ok_or_else(|| unreadable("a column name is not text".into()))?;
    let value = |v: &Json| -> Option<Value> {
        Some(match v {
            Json::Null => Value::Null,
            Json::Number(n) => match n.as_i64() {
                Some(i) => Value::Integer(i),
                None => Value::Real(n.as_f64()?),
            },
            Json::String(t) => Value::Text(t.clone()),
            Json::Object(o) => Value::Blob {
                blob: o.get("blob")?.as_str()?.to_string(),
            },
            _ => return None,
        })
    };
    let rows = ok
        .get("rows")
        .and_then(Json::as_array)
        .ok_or_else(|| unreadable("no rows".into()))?
        .iter()
        .map(|row| {
            row.as_array()?
                .iter()
                .map(value)
                .collect::<Option<Vec<Value>>>()
        })
        .collect::<Option<Vec<Vec<Value>>>>()
        .ok_or_else(|| unreadable("a value of an unknown kind".into()))?;
    Ok(QueryResult { columns, rows })
}
