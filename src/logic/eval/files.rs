//! The eval's files: the eval file (JSON) and pasted columns of pass/fail read, with a message
//! for every mistake; the results written as CSV.

use super::{outcome, Bucket, EvalCase, EvalSet, Verdict, EVAL_FORMAT_VERSION, MAX_INPUT_BYTES};
use crate::logic::{format, InputError};

/// One CSV field per RFC 4180: quoted when it holds a comma, quote, CR or LF, with quotes
/// doubled.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Per-case results as CSV (RFC 4180, CRLF line ends, a header row): name, question, critical,
/// baseline, candidate (`pass`/`fail`), bucket, and the three SQL texts.
pub fn results_csv(cases: &[EvalCase]) -> String {
    results_csv_graded(cases.iter().map(|c| (c, outcome(c))))
}

/// [`results_csv`] of cases already graded: each case with its (baseline, candidate) pass.
pub fn results_csv_graded<'a>(
    graded: impl IntoIterator<Item = (&'a EvalCase, (bool, bool))>,
) -> String {
    let pass = |p: bool| if p { "pass" } else { "fail" };
    let mut out = String::from(
        "name,question,critical,baseline,candidate,bucket,reference_sql,baseline_sql,candidate_sql\r\n",
    );
    for (case, (base, cand)) in graded {
        let row = [
            case.name.as_str(),
            &case.question,
            if case.critical { "yes" } else { "no" },
            pass(base),
            pass(cand),
            Bucket::of(base, cand).label(),
            &case.reference_sql,
            &case.baseline_sql,
            &case.candidate_sql,
        ];
        let fields: Vec<String> = row.iter().map(|f| csv_field(f)).collect();
        out.push_str(&fields.join(","));
        out.push_str("\r\n");
    }
    out
}

/// Reads one pasted pass/fail value: pass/fail, 1/0, true/false or yes/no, any case.
pub(super) fn parse_flag(s: &str) -> Option<bool> {
    match s.trim().to_lowercase().as_str() {
        "pass" | "1" | "true" | "yes" => Some(true),
        "fail" | "0" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// Reads line `n` of pasted columns (trimmed, not blank): its (baseline, candidate), `None` for
/// a header (allowed on the `first` non-blank line only), or the error naming the line.
pub(super) fn read_pass_fail_line(
    line: &str,
    n: usize,
    first: bool,
) -> Result<Option<(bool, bool)>, InputError> {
    const FIELD: super::InputField = super::InputField::PastedResults;
    let mut fields: Vec<&str> = if line.contains('\t') {
        line.split('\t').map(str::trim).collect()
    } else if line.contains(',') {
        line.split(',').map(str::trim).collect()
    } else {
        line.split_whitespace().collect()
    };
    // Spreadsheets often copy trailing empty cells.
    while fields.last() == Some(&"") {
        fields.pop();
    }
    let &[base, cand] = fields.as_slice() else {
        return Err(InputError::new(
            FIELD,
            format!(
                "Line {n}: expected two values (baseline, candidate), found {}.",
                fields.len()
            ),
        ));
    };
    match (parse_flag(base), parse_flag(cand)) {
        (Some(b), Some(c)) => Ok(Some((b, c))),
        (None, None) if first => Ok(None),
        (b, _) => {
            let bad = if b.is_none() { base } else { cand };
            Err(InputError::new(
                FIELD,
                format!("Line {n}: \u{201c}{bad}\u{201d} is not pass/fail, 1/0 or true/false."),
            ))
        }
    }
}

/// Parses two pasted columns, baseline then candidate, one case per line: pass/fail, 1/0,
/// true/false or yes/no, separated by a tab, a comma or spaces.
///
/// Blank lines are skipped, and so is a first line that is a header (neither value readable).
/// An error names its line number.
pub fn parse_pass_fail_columns(text: &str) -> Result<Vec<(bool, bool)>, InputError> {
    const FIELD: super::InputField = super::InputField::PastedResults;
    if text.len() > MAX_INPUT_BYTES {
        return Err(InputError::new(FIELD, "Paste at most 1 MB."));
    }
    let mut rows = Vec::new();
    let mut seen_line = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let first = !seen_line;
        seen_line = true;
        if let Some(row) = read_pass_fail_line(line, i + 1, first)? {
            rows.push(row);
        }
    }
    if rows.is_empty() {
        return Err(InputError::new(
            FIELD,
            "Paste one line per case, such as \u{201c}pass, fail\u{201d}.",
        ));
    }
    Ok(rows)
}

/// Cases named "case 1", "case 2", … carrying pasted (baseline, candidate) results as manual
/// verdicts, for grading results that came from elsewhere.
pub fn cases_from_pass_fail(results: &[(bool, bool)]) -> Vec<EvalCase> {
    let verdict = |p: bool| if p { Verdict::Pass } else { Verdict::Fail };
    results
        .iter()
        .enumerate()
        .map(|(i, &(b, c))| EvalCase {
            name: format!("case {}", i + 1),
            baseline_verdict: verdict(b),
            candidate_verdict: verdict(c),
            ..EvalCase::default()
        })
        .collect()
}

/// Reads an eval file: at most 1 MB of JSON in the [`EvalSet`] shape, missing fields taking
/// their defaults. A syntax or shape error names its line and column.
pub fn parse_eval_json(text: &str) -> Result<EvalSet, InputError> {
    const FIELD: super::InputField = super::InputField::EvalFile;
    if text.len() > MAX_INPUT_BYTES {
        return Err(InputError::new(
            FIELD,
            format!(
                "The file is {} bytes; the limit is 1 MB.",
                format::count(text.len())
            ),
        ));
    }
    // serde would read a list as the struct's fields in order; our format is an object.
    if text.trim_start().starts_with('[') {
        return Err(InputError::new(
            FIELD,
            "Line 1: the file is a list; it must be one object with a \"cases\" list.",
        ));
    }
    let set: EvalSet = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let what = full.strip_suffix(&suffix).unwrap_or(&full);
        // serde names the line but not the field; find the field by walking the parsed value.
        let place = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| misplaced_field(&v))
            .map(|p| format!(" (in {p})"))
            .unwrap_or_default();
        InputError::new(
            FIELD,
            format!("Line {}, column {}: {what}{place}.", e.line(), e.column()),
        )
    })?;
    if set.version > EVAL_FORMAT_VERSION {
        return Err(InputError::new(
            FIELD,
            format!(
                "This file is format version {}; this course reads up to version {EVAL_FORMAT_VERSION}.",
                set.version
            ),
        ));
    }
    Ok(set)
}

/// The first place where well-formed JSON does not fit the [`EvalSet`] shape, in words:
/// `case 3 (“distinct cities”), field “critical”`. `None` when every field fits.
pub(super) fn misplaced_field(v: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let Some(top) = v.as_object() else {
        return Some("the top level, which must be one object with a \"cases\" list".into());
    };
    let field = |f: &str| format!("field \u{201c}{f}\u{201d}");
    if let Some(x) = top.get("version") {
        if x.as_u64().is_none_or(|n| n > u64::from(u32::MAX)) {
            return Some(field("version"));
        }
    }
    if top.get("schema").is_some_and(|x| !x.is_string()) {
        return Some(field("schema"));
    }
    if top
        .get("grading")
        .is_some_and(|x| !matches!(x.as_str(), Some("text" | "execution")))
    {
        return Some(field("grading"));
    }
    let cases = match top.get("cases") {
        None => return None,
        Some(Value::Array(cases)) => cases,
        Some(_) => return Some(field("cases")),
    };
    const TEXT: [&str; 5] = [
        "name",
        "question",
        "reference_sql",
        "baseline_sql",
        "candidate_sql",
    ];
    for (i, case) in cases.iter().enumerate() {
        let Some(obj) = case.as_object() else {
            return Some(format!("case {}", i + 1));
        };
        let label = match obj.get("name").and_then(Value::as_str) {
            Some(name) if !name.trim().is_empty() => {
                let short: String = name.chars().take(40).collect();
                format!("case {} (\u{201c}{short}\u{201d})", i + 1)
            }
            _ => format!("case {}", i + 1),
        };
        let bad = TEXT
            .iter()
            .copied()
            .find(|f| obj.get(*f).is_some_and(|x| !x.is_string()))
            .or_else(|| {
                ["baseline_verdict", "candidate_verdict"]
                    .into_iter()
                    .find(|f| {
                        obj.get(*f)
                            .is_some_and(|x| !matches!(x.as_str(), Some("auto" | "pass" | "fail")))
                    })
            })
            .or_else(|| {
                obj.get("critical")
                    .is_some_and(|x| !x.is_boolean())
                    .then_some("critical")
            });
        if let Some(f) = bad {
            return Some(format!("{label}, {}", field(f)));
        }
    }
    None
}

/// What pasted text holds, once read.
#[derive(Debug, Clone, PartialEq)]
pub enum Import {
    /// An eval file (JSON): a whole eval.
    Eval(EvalSet),
    /// Two columns of pass/fail: each line's (baseline, candidate) result.
    Verdicts(Vec<(bool, bool)>),
}

/// Reads pasted text: an eval file (JSON, starting with `{` or `[`) or two columns of
/// pass/fail. Errors name the line (and, for JSON, the field).
pub fn parse_import(text: &str) -> Result<Import, InputError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(InputError::new(
            super::InputField::Import,
            format!(
                "The text is {} bytes; the limit is 1 MB (1,000,000 bytes).",
                format::count(text.len())
            ),
        ));
    }
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(InputError::new(
            super::InputField::Import,
            "Paste an eval file (JSON) or two columns of pass/fail first.",
        ));
    }
    if trimmed.starts_with(['{', '[']) {
        parse_eval_json(text).map(Import::Eval)
    } else {
        parse_pass_fail_columns(text).map(Import::Verdicts)
    }
}

#[cfg(test)]
/// An eval as pretty-printed JSON, readable back by [`parse_eval_json`].
pub fn eval_json(set: &EvalSet) -> String {
    // Plain strings, numbers and enums cannot fail to serialize.
    serde_json::to_string_pretty(set).unwrap_or_default()
}
