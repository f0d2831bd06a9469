//! The lesson compiler: Markdown in `content/` → structured lessons, at build time.
//!
//! Used by `build/main.rs` (which writes the result as Rust into `OUT_DIR`) and by the native
//! tests in `tests/content_pipeline.rs`. It knows nothing of the app: the widget names and the
//! figure functions come in through [`Context`], so a lesson can only name what the app has.
//!
//! What a lesson may contain:
//! - CommonMark with tables; `##`/`###` headings, each with a stable anchor (its slug, or
//!   `{#explicit-id}`);
//! - ` ```widget NAME ` fenced blocks with optional `key: value` lines → a live widget;
//! - ` ```figure NAME ` fenced blocks → HTML computed at build time (e.g. a table);
//! - inline code starting with `=` (`` `=weight-gb params=70 precision=fp16` ``) → a figure
//!   computed at build time by the same code the widgets run;
//! - links to other lessons as `file.md#anchor`, checked and rewritten to the lesson's path;
//! - HTML comments, which are dropped. Any other raw HTML is an error: lessons are Markdown;
//! - links to glossary terms as `glossary.md#term-<id>`, checked against `glossary.md`.
//!
//! Terms of the glossary (`content/glossary.md`, see [`glossary`]) are marked where each lesson
//! first uses them, automatically: lessons do not mark them.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

// The app's own HTML escaping (pure, no dependencies), so the build and the app escape alike.
// Included by path because this file is also compiled on its own (tests/content_pipeline.rs),
// where the app's `logic` is not there; in the build script it is a second copy of the module.
#[path = "../src/logic/format.rs"]
#[allow(dead_code, clippy::duplicate_mod)]
mod format;
use format::escape_html;

#[path = "glossary.rs"]
pub mod glossary;

// Paths from this file's folder: the tests include this file by a path of their own.
#[path = "lessons/compile.rs"]
mod compile;
pub use compile::{compile_lesson, PendingLink};

/// Where a lesson went wrong: file, 1-based line, and what to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// The content file, relative to the content folder (e.g. `model-selection.md`).
    pub file: String,
    /// 1-based line in that file.
    pub line: usize,
    /// What is wrong, for the author.
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "content/{}:{}: {}", self.file, self.line, self.message)
    }
}

/// `key=value` or `key: value` arguments of a directive, in order.
pub type Args = Vec<(String, String)>;

/// What the content may refer to: the app's widgets and figures.
pub struct Context<'a> {
    /// Registered widgets: name and the parameter keys each accepts.
    pub widgets: &'a [(&'a str, &'a [&'a str])],
    /// Computes an inline figure's text from its name and arguments.
    pub inline_figure: &'a dyn Fn(&str, &Args) -> Result<String, String>,
    /// Computes a block figure's HTML from its name and arguments.
    pub block_figure: &'a dyn Fn(&str, &Args) -> Result<String, String>,
}

/// One entry of the table of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TocEntry {
    /// Title shown in navigation and as the page's heading.
    pub title: String,
    /// The lesson file, e.g. `overview.md`.
    pub file: String,
    /// The URL path segment: the file name without `.md`.
    pub slug: String,
}

/// The parsed table of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toc {
    /// The course title (the `#` heading of SUMMARY.md).
    pub title: String,
    /// Lessons in reading order.
    pub entries: Vec<TocEntry>,
}

/// A lesson after compilation.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledLesson {
    /// URL path segment.
    pub slug: String,
    /// Title from the table of contents.
    pub title: String,
    /// One sentence for the meta description and the title page.
    pub description: String,
    /// The source file name.
    pub file: String,
    /// Prose and widgets in reading order.
    pub blocks: Vec<CompiledBlock>,
    /// Every heading, in order: level, anchor id, text.
    pub headings: Vec<(u8, String, String)>,
    /// The prose as plain text, split at headings: (anchor id, heading text, text). The first
    /// section, before any heading, has an empty id and heading. For search.
    pub sections: Vec<(String, String, String)>,
    /// Ids of the glossary terms marked in the lesson, in the order of their first use.
    pub terms: Vec<String>,
}

/// The glossary page, compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledGlossary {
    /// The page's meta description.
    pub description: String,
    /// The page's body: every term with its definition.
    pub html: String,
    /// Every term: id, name, definition; in the glossary file's order.
    pub terms: Vec<(String, String, String)>,
}

/// A piece of a lesson.
#[derive(Debug, Clone, PartialEq)]
pub enum CompiledBlock {
    /// HTML made from our own Markdown.
    Prose(String),
    /// A live widget with its parameters, and the line it was placed on.
    Widget {
        /// Registered widget name.
        name: String,
        /// `key: value` parameters.
        params: Args,
        /// 1-based line of the directive.
        line: usize,
    },
}

/// Addresses the site gives to pages that are not lessons (see `src/nav.rs`).
pub const RESERVED_SLUGS: &[(&str, &str)] = &[
    ("print", "the whole-chapter print page"),
    (
        "glossary",
        "the glossary (compiled from glossary.md, not listed here)",
    ),
];

/// Parses SUMMARY.md: a `# Title` and one `- [Title](file.md)` line per lesson.
pub fn parse_toc(text: &str) -> Result<Toc, CompileError> {
    let err = |line: usize, message: String| CompileError {
        file: "SUMMARY.md".into(),
        line,
        message,
    };
    let mut title = None;
    let mut entries: Vec<TocEntry> = Vec::new();
    let mut in_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let n = i + 1;
        if in_comment || line.starts_with("<!--") {
            in_comment = !line.contains("-->");
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if let Some(t) = line.strip_prefix("# ") {
            title = Some(t.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("- [") {
            let (t, after) = rest
                .split_once("](")
                .ok_or_else(|| err(n, "expected `- [Title](file.md)`".into()))?;
            let file = after
                .strip_suffix(')')
                .ok_or_else(|| err(n, "expected `- [Title](file.md)`".into()))?;
            let slug = file
                .strip_suffix(".md")
                .filter(|s| {
                    !s.is_empty()
                        && s.chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                })
                .ok_or_else(|| {
                    err(
                        n,
                        format!("`{file}`: lesson files are named like `lower-case-words.md`"),
                    )
                })?;
            if entries.iter().any(|e| e.slug == slug) {
                return Err(err(n, format!("`{file}` is listed twice")));
            }
            if let Some(page) = RESERVED_SLUGS
                .iter()
                .find(|(s, _)| *s == slug)
                .map(|(_, p)| p)
            {
                return Err(err(
                    n,
                    format!("`{file}`: the address `{slug}/` belongs to {page}; name the lesson otherwise"),
                ));
            }
            entries.push(TocEntry {
                title: t.trim().to_string(),
                file: file.to_string(),
                slug: slug.to_string(),
            });
        } else {
            return Err(err(
                n,
                format!("unexpected line `{line}`: use `# Title` or `- [Title](file.md)`"),
            ));
        }
    }
    let title = title.ok_or_else(|| err(1, "missing the `# Course title` line".into()))?;
    if entries.is_empty() {
        return Err(err(1, "no lessons listed".into()));
    }
    Ok(Toc { title, entries })
}

/// Makes an anchor from heading text: lower case, runs of other characters become one `-`.
pub fn slugify(text: &str) -> String {
    let mut out = String::new();
    let mut dash = false;
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c);
        } else {
            dash = true;
        }
    }
    if out.is_empty() {
        "section".into()
    } else {
        out
    }
}

/// Checks that every link's anchor exists in its target lesson.
pub fn check_links(lessons: &[CompiledLesson], links: &[PendingLink]) -> Result<(), CompileError> {
    let anchors: BTreeMap<&str, HashSet<&str>> = lessons
        .iter()
        .map(|l| {
            (
                l.slug.as_str(),
                l.headings.iter().map(|(_, id, _)| id.as_str()).collect(),
            )
        })
        .collect();
    for link in links {
        if let Some(anchor) = &link.anchor {
            let known = anchors
                .get(link.slug.as_str())
                .is_some_and(|a| a.contains(anchor.as_str()));
            if !known {
                return Err(CompileError {
                    file: link.file.clone(),
                    line: link.line,
                    message: format!(
                        "link to `#{anchor}` in `{}`, which has no such heading",
                        link.slug
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Splits `---` front matter (`key: value` lines) from the body. Returns the pairs, the body,
/// and the 1-based line on which the body starts.
#[allow(clippy::type_complexity)]
fn split_front_matter(
    source: &str,
) -> Result<(Vec<(String, String)>, &str, usize), (usize, String)> {
    let Some(rest) = source.strip_prefix("---\n") else {
        return Ok((Vec::new(), source, 1));
    };
    let end = rest
        .find("\n---\n")
        .map(|i| (i, i + 5))
        .or_else(|| rest.strip_suffix("\n---").map(|r| (r.len(), rest.len())));
    let Some((end, body_start)) = end else {
        return Err((1, "front matter opened with `---` is never closed".into()));
    };
    let mut pairs = Vec::new();
    for (i, line) in rest[..end].lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (k, v) = line.split_once(':').ok_or((
            i + 2,
            format!("front matter line `{line}` must look like `key: value`"),
        ))?;
        pairs.push((k.trim().to_string(), v.trim().to_string()));
    }
    let body_line = rest[..body_start].matches('\n').count() + 2;
    Ok((pairs, &rest[body_start..], body_line))
}

/// Compiles the whole course from a function that reads a content file by name: the lessons
/// of SUMMARY.md, with the terms of `glossary.md` marked in them, and the glossary page.
pub fn compile_course(
    read: &dyn Fn(&str) -> Result<String, String>,
    ctx: &Context,
) -> Result<(Toc, Vec<CompiledLesson>, CompiledGlossary), CompileError> {
    let summary = read("SUMMARY.md").map_err(|m| CompileError {
        file: "SUMMARY.md".into(),
        line: 1,
        message: m,
    })?;
    let toc = parse_toc(&summary)?;
    let glossary_source = read(glossary::FILE).map_err(|m| CompileError {
        file: glossary::FILE.into(),
        line: 1,
        message: format!("the glossary cannot be read: {m}"),
    })?;
    let glossary = glossary::parse(&glossary_source)?;
    let mut lessons = Vec::new();
    let mut links = Vec::new();
    for entry in &toc.entries {
        let source = read(&entry.file).map_err(|m| CompileError {
            file: "SUMMARY.md".into(),
            line: summary
                .lines()
                .position(|l| l.contains(&format!("({})", entry.file)))
                .map_or(1, |i| i + 1),
            message: format!("lesson file `{}` cannot be read: {m}", entry.file),
        })?;
        let (lesson, mut l) = compile_lesson(entry, &source, &toc, ctx, &glossary)?;
        lessons.push(lesson);
        links.append(&mut l);
    }
    check_links(&lessons, &links)?;
    let used_in: Vec<Vec<(String, String)>> = glossary
        .terms
        .iter()
        .map(|t| {
            lessons
                .iter()
                .filter(|l| l.terms.contains(&t.id))
                .map(|l| (l.slug.clone(), l.title.clone()))
                .collect()
        })
        .collect();
    let compiled = CompiledGlossary {
        description: glossary.description.clone(),
        html: glossary::page_html(&glossary, &used_in),
        terms: glossary
            .terms
            .iter()
            .map(|t| (t.id.clone(), t.name.clone(), t.definition.clone()))
            .collect(),
    };
    Ok((toc, lessons, compiled))
}

/// Writes the compiled course as Rust source for `src/content.rs` to include. A widget named in
/// `drawn` is drawn at build time: it becomes a `Block::Drawn`, not a `Block::Widget`; a live
/// one carries what `needs` says it needs from a widgets module.
pub fn emit_rust(
    toc: &Toc,
    lessons: &[CompiledLesson],
    glossary: &CompiledGlossary,
    drawn: &[&str],
    needs: &dyn Fn(&str, &Args) -> String,
) -> String {
    let mut out = String::new();
    out.push_str("// Generated by build/main.rs from content/. Do not edit.\n");
    out.push_str(&format!(
        "/// The course title, from SUMMARY.md.\npub static COURSE_TITLE: &str = {:?};\n",
        toc.title
    ));
    // Slugs and titles alone, so that code needing only those (the widgets module) does not
    // pull every lesson's text into its wasm.
    out.push_str("/// Every lesson's slug and title, in reading order.\npub static LESSON_TITLES: &[(&str, &str)] = &[\n");
    for l in lessons {
        out.push_str(&format!("    ({:?}, {:?}),\n", l.slug, l.title));
    }
    out.push_str("];\n");
    out.push_str("/// Every lesson, in reading order.\npub static LESSONS: &[Lesson] = &[\n");
    for l in lessons {
        out.push_str(&format!(
            "    Lesson {{ slug: {:?}, title: {:?}, description: {:?}, file: {:?},\n        sections: &[",
            l.slug, l.title, l.description, l.file
        ));
        for (id, heading, text) in &l.sections {
            out.push_str(&format!(
                "Section {{ id: {id:?}, heading: {heading:?}, text: lesson_text!({:?}) }}, ",
                text.split_whitespace().collect::<Vec<_>>().join(" ")
            ));
        }
        out.push_str("],\n        headings: &[");
        for (level, id, text) in &l.headings {
            out.push_str(&format!(
                "Heading {{ level: {level}, id: {id:?}, text: {text:?} }}, "
            ));
        }
        out.push_str("],\n        blocks: &[\n");
        for b in &l.blocks {
            match b {
                CompiledBlock::Prose(html) => out.push_str(&format!(
                    "            Block::Prose(lesson_text!({html:?})),\n"
                )),
                CompiledBlock::Widget { name, .. } if drawn.contains(&name.as_str()) => {
                    out.push_str(&format!("            Block::Drawn({name:?}),\n"));
                }
                CompiledBlock::Widget { name, params, line } => {
                    let needs = needs(name, params);
                    let json = serde_json::to_string(params).unwrap_or_else(|_| "[]".into());
                    out.push_str(&format!("            Block::Widget(WidgetUse {{ name: {name:?}, line: {line}, needs: {needs:?}, params: {json:?} }}),\n"));
                }
            }
        }
        out.push_str("        ] },\n");
    }
    out.push_str("];\n");
    out.push_str(&format!(
        "/// The glossary page, compiled from glossary.md.\npub static GLOSSARY: Glossary = Glossary {{ description: {:?},\n    blocks: &[Block::Prose(lesson_text!({:?}))],\n    terms: &[\n",
        glossary.description, glossary.html
    ));
    for (id, name, definition) in &glossary.terms {
        out.push_str(&format!(
            "        Term {{ id: {id:?}, name: {name:?}, definition: lesson_text!({definition:?}) }},\n"
        ));
    }
    out.push_str("    ] };\n");
    out
}
