//! Reading a long paste a piece at a time, so that a page can show progress and stay
//! responsive between pieces: [`start_import`] refuses what is too large or empty at once,
//! reads an eval file (JSON, at most 1 MB) whole, and hands back a [`PassFailReader`] for
//! columns of pass/fail, which reads a given number of lines per [`PassFailReader::step`].

use super::files::read_pass_fail_line;
use super::{format, parse_eval_json, Import, InputError, MAX_INPUT_BYTES};

/// The field pasted columns are reported under.
const FIELD: super::InputField = super::InputField::PastedResults;

/// The refusal of a paste of `len` bytes (or of `len` characters, which are at least as many
/// bytes) over [`MAX_INPUT_BYTES`]; `None` when it is within the limit. Needs only the length,
/// so a page can refuse a huge paste without reading it.
pub fn too_large(len: usize) -> Option<InputError> {
    (len > MAX_INPUT_BYTES).then(|| {
        InputError::new(
            super::InputField::Import,
            format!(
                "The text is {} bytes; the limit is 1 MB (1,000,000 bytes).",
                format::count(len)
            ),
        )
    })
}

/// A paste too long to show in the import field, held beside it until the reader imports or
/// discards it. A browser lays out every line of a field whenever the page is laid out: 20,000
/// short lines cost a frame of a quarter second on a desktop, 50,000 over half a second, and
/// four times that on a phone. A paste up to [`HeldPaste::SHOWN_UP_TO`] bytes goes into the
/// field as usual, where the reader can read and edit it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldPaste {
    text: String,
    lines: usize,
}

impl HeldPaste {
    /// The longest paste, in bytes, that the field shows: a few hundred lines of columns, or an
    /// eval file of a few dozen cases.
    pub const SHOWN_UP_TO: usize = 16 * 1024;

    /// Holds `text` when it is too long to show; `None` when the field can take it.
    pub fn hold(text: String) -> Option<HeldPaste> {
        if text.len() <= Self::SHOWN_UP_TO {
            return None;
        }
        // Lines as `str::lines` counts them: a last line needs no line end.
        let lines =
            text.bytes().filter(|&b| b == b'\n').count() + usize::from(!text.ends_with('\n'));
        Some(HeldPaste { text, lines })
    }

    /// What the reader is told in the field's place, starting with its numbers:
    /// `50,000 lines (500 KB) pasted, kept out of the box so that the page stays quick: Import
    /// reads them.`
    pub fn note(&self) -> String {
        let (lines, them) = if self.lines == 1 {
            ("line", "it")
        } else {
            ("lines", "them")
        };
        format!(
            "{} {lines} ({} KB) pasted, kept out of the box so that the page stays quick: \
             Import reads {them}.",
            format::count(self.lines),
            format::fixed(self.text.len() as f64 / 1000.0, 0)
        )
    }

    /// The text, for the import.
    pub fn into_text(self) -> String {
        self.text
    }
}

/// Columns of pass/fail being read, line by line; [`super::parse_pass_fail_columns`] is this
/// run to the end.
#[derive(Debug, Clone, PartialEq)]
pub struct PassFailReader {
    text: String,
    /// Byte offset of the next line.
    pos: usize,
    /// Lines read so far (the next line's number is one more).
    lines: usize,
    /// Whether a non-blank line has been read (only the first may be a header).
    seen_line: bool,
    rows: Vec<(bool, bool)>,
}

/// What one step of reading gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// More to read.
    More,
    /// Done: each line's (baseline, candidate), or the first error.
    Done(Result<Vec<(bool, bool)>, InputError>),
}

impl PassFailReader {
    /// Starts reading `text`; refused at once when it is over the 1 MB limit.
    pub fn new(text: String) -> Result<Self, InputError> {
        if text.len() > MAX_INPUT_BYTES {
            return Err(InputError::new(FIELD, "Paste at most 1 MB."));
        }
        Ok(PassFailReader {
            text,
            pos: 0,
            lines: 0,
            seen_line: false,
            rows: Vec::new(),
        })
    }

    /// (bytes read, bytes in all), for a progress bar.
    pub fn progress(&self) -> (usize, usize) {
        (self.pos, self.text.len())
    }

    /// Lines read so far.
    #[cfg(test)]
    pub fn lines_read(&self) -> usize {
        self.lines
    }

    /// The next line, as [`str::lines`] splits them: ends at `\n`, a `\r` before it dropped.
    fn next_line(&mut self) -> Option<&str> {
        let rest = self.text.get(self.pos..).filter(|r| !r.is_empty())?;
        let (line, used) = match rest.find('\n') {
            Some(nl) => (rest.get(..nl).unwrap_or_default(), nl + 1),
            None => (rest, rest.len()),
        };
        self.pos += used;
        self.lines += 1;
        Some(line.strip_suffix('\r').unwrap_or(line))
    }

    /// Reads at most `max_lines` more lines (at least one).
    pub fn step(&mut self, max_lines: usize) -> Step {
        for _ in 0..max_lines.max(1) {
            let seen = self.seen_line;
            let n = self.lines + 1;
            let Some(line) = self.next_line() else {
                return Step::Done(self.finish());
            };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let row = match read_pass_fail_line(line, n, !seen) {
                Ok(row) => row,
                Err(e) => return Step::Done(Err(e)),
            };
            self.seen_line = true;
            if let Some(row) = row {
                self.rows.push(row);
            }
        }
        if self.pos >= self.text.len() {
            Step::Done(self.finish())
        } else {
            Step::More
        }
    }

    fn finish(&mut self) -> Result<Vec<(bool, bool)>, InputError> {
        if self.rows.is_empty() {
            return Err(InputError::new(
                FIELD,
                "Paste one line per case, such as \u{201c}pass, fail\u{201d}.",
            ));
        }
        Ok(std::mem::take(&mut self.rows))
    }
}

/// A paste being imported: read already, or columns still to read.
#[derive(Debug, Clone, PartialEq)]
pub enum ImportJob {
    /// Read: what it holds, or why it cannot be used.
    Done(Result<Import, InputError>),
    /// Columns of pass/fail, to read with [`PassFailReader::step`].
    Columns(PassFailReader),
}

/// Starts reading pasted text as [`super::parse_import`] reads it: too large or blank is
/// refused, an eval file (starting with `{` or `[`) is read whole, columns are left to step
/// through.
pub fn start_import(text: String) -> ImportJob {
    if let Some(e) = too_large(text.len()) {
        return ImportJob::Done(Err(e));
    }
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return ImportJob::Done(Err(InputError::new(
            super::InputField::Import,
            "Paste an eval file (JSON) or two columns of pass/fail first.",
        )));
    }
    if trimmed.starts_with(['{', '[']) {
        return ImportJob::Done(parse_eval_json(&text).map(Import::Eval));
    }
    match PassFailReader::new(text) {
        Ok(reader) => ImportJob::Columns(reader),
        Err(e) => ImportJob::Done(Err(e)),
    }
}

/// Runs an import to the end, `lines` lines per step (what a page does between frames).
#[cfg(test)]
pub fn run_import(text: String, lines: usize) -> Result<Import, InputError> {
    match start_import(text) {
        ImportJob::Done(r) => r,
        ImportJob::Columns(mut reader) => loop {
            if let Step::Done(r) = reader.step(lines) {
                return r.map(Import::Verdicts);
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_import, parse_pass_fail_columns};
    use super::*;

    #[test]
    fn reads_in_steps_and_reports_progress() {
        let text = "baseline,candidate\npass,fail\r\n\n1 1\nfail\tpass".to_string();
        let mut r = PassFailReader::new(text.clone()).unwrap();
        assert_eq!(r.progress(), (0, text.len()));
        assert_eq!(r.step(2), Step::More);
        assert_eq!(r.lines_read(), 2);
        assert_eq!(r.progress().0, "baseline,candidate\npass,fail\r\n".len());
        assert_eq!(r.step(2), Step::More);
        assert_eq!(
            r.step(2),
            Step::Done(Ok(vec![(true, false), (true, true), (false, true)]))
        );
        assert_eq!(r.progress(), (text.len(), text.len()));
    }

    #[test]
    fn errors_name_the_line_whatever_the_step() {
        let text = "pass,pass\n".repeat(10) + "pass,maybe\n";
        for lines in [1, 3, 100] {
            let r = run_import(text.clone(), lines).unwrap_err();
            assert_eq!(
                r.message,
                "Line 11: \u{201c}maybe\u{201d} is not pass/fail, 1/0 or true/false."
            );
        }
        // A header only after the first line is an error.
        assert!(run_import("pass pass\nbase cand".into(), 1)
            .unwrap_err()
            .message
            .starts_with("Line 2:"));
    }

    #[test]
    fn only_a_long_paste_is_held_and_the_note_counts_it() {
        let short = "pass\tfail\n".repeat(HeldPaste::SHOWN_UP_TO / 10);
        assert!(short.len() <= HeldPaste::SHOWN_UP_TO);
        assert_eq!(HeldPaste::hold(short), None);
        let long = vec!["pass\tfail"; 50_000].join("\n");
        let held = HeldPaste::hold(long.clone()).unwrap();
        assert_eq!(
            held.note(),
            "50,000 lines (500 KB) pasted, kept out of the box so that the page stays quick: \
             Import reads them."
        );
        // Held as it came: the import reads the same text.
        assert_eq!(held.into_text(), long);
        // Lines counted as `str::lines` counts them: a last line end, or CR LF, adds none.
        for text in [format!("{long}\n"), long.replace('\n', "\r\n")] {
            let note = HeldPaste::hold(text).unwrap().note();
            assert!(note.starts_with("50,000 lines ("), "{note}");
        }
        let one = HeldPaste::hold("x".repeat(20_000)).unwrap();
        assert!(
            one.note().starts_with("1 line (20 KB) pasted"),
            "{}",
            one.note()
        );
    }

    #[test]
    fn a_refusal_needs_only_the_length() {
        assert_eq!(too_large(MAX_INPUT_BYTES), None);
        let e = too_large(5_000_000).unwrap();
        assert_eq!(
            e.message,
            "The text is 5,000,000 bytes; the limit is 1 MB (1,000,000 bytes)."
        );
        assert_eq!(
            run_import("x".repeat(MAX_INPUT_BYTES + 1), 10),
            parse_import(&"x".repeat(MAX_INPUT_BYTES + 1))
        );
    }

    #[test]
    fn fifty_thousand_lines_in_steps() {
        let text: String = (0..50_000)
            .map(|i| {
                if i % 7 == 0 {
                    "pass\tfail\n"
                } else {
                    "pass\tpass\n"
                }
            })
            .collect();
        assert!(text.len() <= MAX_INPUT_BYTES);
        let Ok(Import::Verdicts(rows)) = run_import(text.clone(), 5_000) else {
            panic!("50,000 lines read");
        };
        assert_eq!(rows.len(), 50_000);
        assert_eq!(rows.iter().filter(|r| !r.1).count(), 7_143);
        assert_eq!(Ok(rows), parse_pass_fail_columns(&text));
    }

    proptest::proptest! {
        /// Whatever the text and the step size, reading in steps gives what reading at once
        /// gives.
        #[test]
        fn steps_read_what_one_pass_reads(
            lines in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just("pass, fail".to_string()),
                    proptest::strategy::Just("1\t0\r".to_string()),
                    proptest::strategy::Just("yes no".to_string()),
                    proptest::strategy::Just(String::new()),
                    proptest::strategy::Just("base,cand".to_string()),
                    "[a-z01 ,\t]{0,12}",
                ],
                0..30,
            ),
            step in 1usize..8,
            trailing in proptest::bool::ANY,
        ) {
            let mut text = lines.join("\n");
            if trailing {
                text.push('\n');
            }
            proptest::prop_assert_eq!(run_import(text.clone(), step), parse_import(&text));
        }
    }
}
