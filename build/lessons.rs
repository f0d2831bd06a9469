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

use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
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
use glossary::{Glossary, Marker};

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

/// Splits `key=value` words (inline figures) into arguments.
fn parse_inline_args(words: &str) -> Result<Args, String> {
    words
        .split_whitespace()
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("argument `{w}` must look like `key=value`"))
        })
        .collect()
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

/// True when `html` holds nothing but HTML comments and white space.
fn only_comments(html: &str) -> bool {
    let mut rest = html.trim();
    while !rest.is_empty() {
        let Some(after) = rest.strip_prefix("<!--") else {
            return false;
        };
        let Some(end) = after.find("-->") else {
            return false;
        };
        rest = after[end + 3..].trim();
    }
    true
}

/// A link from one lesson to another, checked once every lesson's anchors are known.
#[derive(Debug, Clone)]
pub struct PendingLink {
    /// The file the link is in.
    pub file: String,
    /// Its line.
    pub line: usize,
    /// Target lesson slug.
    pub slug: String,
    /// Target anchor, if any.
    pub anchor: Option<String>,
}

/// Compiles one lesson. `toc` resolves links; links to anchors are returned for checking by
/// [`check_links`] once all lessons are compiled.
#[allow(clippy::type_complexity)] // the open directive, heading and HTML block are local tuples
pub fn compile_lesson(
    entry: &TocEntry,
    source: &str,
    toc: &Toc,
    ctx: &Context,
    glossary: &Glossary,
) -> Result<(CompiledLesson, Vec<PendingLink>), CompileError> {
    let file = entry.file.clone();
    let (front, body, body_line) =
        split_front_matter(source).map_err(|(line, message)| CompileError {
            file: file.clone(),
            line,
            message,
        })?;
    let description = front
        .iter()
        .find(|(k, _)| k == "description")
        .map(|(_, v)| v.clone())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| CompileError {
            file: file.clone(),
            line: 1,
            message: "missing front matter `description:` (start the file with `---`, \
                      `description: …`, `---`)"
                .into(),
        })?;

    // Byte offset → 1-based line in the whole file.
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(body.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| line_starts.partition_point(|&s| s <= offset) + body_line - 1;
    let err = |offset: usize, message: String| CompileError {
        file: file.clone(),
        line: line_of(offset),
        message,
    };

    let options = Options::ENABLE_TABLES
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_SMART_PUNCTUATION;
    let parser = Parser::new_ext(body, options).into_offset_iter();

    let mut blocks = Vec::new();
    let mut pending: Vec<Event> = Vec::new();
    let mut headings: Vec<(u8, String, String)> = Vec::new();
    let mut used_ids: HashSet<String> = HashSet::new();
    let mut heading_lines: Vec<usize> = Vec::new();
    let mut links = Vec::new();
    // Plain text of the current section, and the sections finished so far.
    let mut text = String::new();
    let mut sections: Vec<(String, String, String)> = Vec::new();
    let mut section_head = (String::new(), String::new());
    let mut depth = 0usize; // open containers (lists, quotes, tables…) around the current event

    // A fenced directive being collected: kind, name, start offset, body.
    let mut directive: Option<(String, String, usize, String)> = None;
    // A heading being collected: level, explicit id, events, plain text, offset.
    let mut heading: Option<(HeadingLevel, Option<String>, Vec<Event>, String, usize)> = None;
    let mut html_block: Option<(usize, String)> = None;

    // Marks the first use of each glossary term in the lesson's prose.
    let mut marker = Marker::new(glossary, &entry.slug);
    let flush = |pending: &mut Vec<Event>, blocks: &mut Vec<CompiledBlock>, marker: &mut Marker| {
        if !pending.is_empty() {
            let mut html = String::new();
            let events = marker.mark_events(std::mem::take(pending));
            pulldown_cmark::html::push_html(&mut html, events.into_iter());
            // A code block can scroll sideways: keyboard users need to reach it.
            let html = html.replace("<pre>", "<pre tabindex=\"0\">");
            blocks.push(CompiledBlock::Prose(html));
        }
    };

    for (event, range) in parser {
        if let Some((_, _, _, ref mut body)) = directive {
            match event {
                Event::Text(t) => body.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    let (kind, name, start, body) = directive.take().unwrap_or_default();
                    let mut params = Args::new();
                    for (i, l) in body.lines().enumerate() {
                        let l = l.trim();
                        if l.is_empty() || l.starts_with('#') {
                            continue;
                        }
                        let (k, v) = l.split_once(':').ok_or_else(|| CompileError {
                            file: file.clone(),
                            line: line_of(start) + 1 + i,
                            message: format!(
                                "directive parameter `{l}` must look like `key: value`"
                            ),
                        })?;
                        params.push((k.trim().to_string(), v.trim().to_string()));
                    }
                    if kind == "widget" {
                        let Some((_, keys)) = ctx.widgets.iter().find(|(n, _)| *n == name) else {
                            let known: Vec<&str> = ctx.widgets.iter().map(|(n, _)| *n).collect();
                            return Err(err(
                                start,
                                format!(
                                    "unknown widget `{name}`; known widgets: {}",
                                    known.join(", ")
                                ),
                            ));
                        };
                        if let Some((k, _)) =
                            params.iter().find(|(k, _)| !keys.contains(&k.as_str()))
                        {
                            return Err(err(
                                start,
                                format!(
                                    "widget `{name}` has no parameter `{k}`; it takes: {}",
                                    if keys.is_empty() {
                                        "none".to_string()
                                    } else {
                                        keys.join(", ")
                                    }
                                ),
                            ));
                        }
                        if depth > 0 {
                            return Err(err(start, "a widget must stand at the top level, not inside a list, quote or table".into()));
                        }
                        flush(&mut pending, &mut blocks, &mut marker);
                        blocks.push(CompiledBlock::Widget {
                            name,
                            params,
                            line: line_of(start),
                        });
                    } else {
                        let html = (ctx.block_figure)(&name, &params)
                            .map_err(|m| err(start, format!("figure `{name}`: {m}")))?;
                        pending.push(Event::Html(CowStr::from(html)));
                    }
                }
                _ => {}
            }
            continue;
        }

        if let Some((ref mut start, ref mut html)) = html_block {
            match event {
                Event::Html(h) => {
                    html.push_str(&h);
                    continue;
                }
                Event::End(TagEnd::HtmlBlock) => {
                    let (start, html) = html_block.take().unwrap_or_default();
                    if !only_comments(&html) {
                        return Err(err(
                            start,
                            format!(
                                "raw HTML is not allowed in lessons (`{}`); write Markdown instead",
                                html.trim()
                            ),
                        ));
                    }
                    continue;
                }
                _ => {
                    let _ = start;
                }
            }
        }

        if let Some((_, _, ref mut events, ref mut plain, _)) = heading {
            match event {
                Event::End(TagEnd::Heading(_)) => {
                    // The `if let` above has just seen the heading open.
                    let Some((level, explicit, events, plain, start)) = heading.take() else {
                        continue;
                    };
                    let level_n = match level {
                        HeadingLevel::H1 => 1,
                        HeadingLevel::H2 => 2,
                        HeadingLevel::H3 => 3,
                        HeadingLevel::H4 => 4,
                        HeadingLevel::H5 => 5,
                        HeadingLevel::H6 => 6,
                    };
                    if level_n == 1 {
                        return Err(err(
                            start,
                            "use `##` and below: the lesson title comes from SUMMARY.md".into(),
                        ));
                    }
                    let base = explicit.unwrap_or_else(|| slugify(&plain));
                    let mut id = base.clone();
                    let mut n = 1;
                    while !used_ids.insert(id.clone()) {
                        n += 1;
                        id = format!("{base}-{n}");
                    }
                    let mut inner = String::new();
                    pulldown_cmark::html::push_html(&mut inner, events.into_iter());
                    let slug = &entry.slug;
                    pending.push(Event::Html(CowStr::from(format!(
                        "<h{level_n} id=\"{id}\"><a class=\"anchor\" href=\"{slug}/#{id}\" aria-hidden=\"true\" tabindex=\"-1\">#</a>{inner}</h{level_n}>\n"
                    ))));
                    let finished =
                        std::mem::replace(&mut section_head, (id.clone(), plain.clone()));
                    sections.push((finished.0, finished.1, std::mem::take(&mut text)));
                    headings.push((level_n, id, plain));
                    heading_lines.push(line_of(start));
                    continue;
                }
                Event::Text(ref t) | Event::Code(ref t) => plain.push_str(t),
                _ => {}
            }
            let ev = rewrite_inline(
                event,
                range.start,
                entry,
                toc,
                ctx,
                &mut links,
                &file,
                &line_of,
                glossary,
            )?;
            if let Some(ev) = ev {
                events.push(ev);
            }
            continue;
        }

        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(ref info))) => {
                let mut words = info.split_whitespace();
                match words.next() {
                    Some(kind @ ("widget" | "figure")) => {
                        let name = words.next().ok_or_else(|| {
                            err(
                                range.start,
                                format!(
                                    "`{kind}` directive needs a name, e.g. ```{kind} weight-memory"
                                ),
                            )
                        })?;
                        if let Some(extra) = words.next() {
                            return Err(err(range.start, format!("unexpected `{extra}` after `{kind} {name}`; put parameters inside the block as `key: value`")));
                        }
                        directive = Some((
                            kind.to_string(),
                            name.to_string(),
                            range.start,
                            String::new(),
                        ));
                        continue;
                    }
                    _ => pending.push(event),
                }
            }
            Event::Start(Tag::Heading { level, ref id, .. }) => {
                heading = Some((
                    level,
                    id.as_ref().map(|s| s.to_string()),
                    Vec::new(),
                    String::new(),
                    range.start,
                ));
            }
            Event::Start(Tag::HtmlBlock) => {
                html_block = Some((range.start, String::new()));
            }
            Event::Start(
                Tag::List(_) | Tag::BlockQuote(_) | Tag::Table(_) | Tag::FootnoteDefinition(_),
            ) => {
                depth += 1;
                pending.push(event);
            }
            Event::End(
                TagEnd::List(_)
                | TagEnd::BlockQuote(_)
                | TagEnd::Table
                | TagEnd::FootnoteDefinition,
            ) => {
                depth = depth.saturating_sub(1);
                pending.push(event);
            }
            other => {
                match &other {
                    Event::Text(t) => text.push_str(t),
                    Event::SoftBreak | Event::HardBreak => text.push(' '),
                    Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell) => {
                        text.push('\n')
                    }
                    _ => {}
                }
                if let Some(ev) = rewrite_inline(
                    other,
                    range.start,
                    entry,
                    toc,
                    ctx,
                    &mut links,
                    &file,
                    &line_of,
                    glossary,
                )? {
                    if let Event::Html(ref h) = ev {
                        // A computed figure's text counts as text for search.
                        if let Some(inner) = h.strip_prefix("<span class=\"fig\">") {
                            text.push_str(inner.trim_end_matches("</span>"));
                        }
                    }
                    pending.push(ev);
                }
            }
        }
    }
    if let Some((kind, name, start, _)) = directive {
        return Err(err(start, format!("`{kind} {name}` block is never closed")));
    }
    flush(&mut pending, &mut blocks, &mut marker);
    sections.push((section_head.0, section_head.1, text));
    sections.retain(|(id, _, text)| !(id.is_empty() && text.trim().is_empty()));
    let terms: Vec<String> = marker
        .marked
        .iter()
        .filter_map(|&t| glossary.terms.get(t).map(|term| term.id.clone()))
        .collect();
    if let Some(id) = terms
        .iter()
        .map(|t| Marker::use_id(t))
        .find(|id| used_ids.contains(id))
    {
        let line = headings
            .iter()
            .position(|(_, h, _)| *h == id)
            .and_then(|i| heading_lines.get(i).copied())
            .unwrap_or(1);
        return Err(CompileError {
            file: file.clone(),
            line,
            message: format!(
                "heading id `{id}` is the anchor of a glossary term's mark; give the heading another {{#id}}"
            ),
        });
    }

    Ok((
        CompiledLesson {
            slug: entry.slug.clone(),
            title: entry.title.clone(),
            description,
            file,
            blocks,
            headings,
            sections,
            terms,
        },
        links,
    ))
}

/// Rewrites one inline event: figures are computed, links resolved, raw HTML refused.
/// Returns `None` for events that are dropped (HTML comments).
#[allow(clippy::too_many_arguments)]
fn rewrite_inline<'a>(
    event: Event<'a>,
    offset: usize,
    entry: &TocEntry,
    toc: &Toc,
    ctx: &Context,
    links: &mut Vec<PendingLink>,
    file: &str,
    line_of: &dyn Fn(usize) -> usize,
    glossary: &Glossary,
) -> Result<Option<Event<'a>>, CompileError> {
    let err = |message: String| CompileError {
        file: file.to_string(),
        line: line_of(offset),
        message,
    };
    Ok(Some(match event {
        Event::Code(code) if code.starts_with('=') => {
            let spec = code[1..].trim();
            let (name, rest) = spec.split_once(char::is_whitespace).unwrap_or((spec, ""));
            if name.is_empty() {
                return Err(err(
                    "an inline figure needs a name, e.g. `=weight-gb params=70 precision=fp16`"
                        .into(),
                ));
            }
            let args = parse_inline_args(rest).map_err(|m| err(format!("figure `{name}`: {m}")))?;
            let value = (ctx.inline_figure)(name, &args)
                .map_err(|m| err(format!("figure `{name}`: {m}")))?;
            Event::Html(CowStr::from(format!(
                "<span class=\"fig\">{}</span>",
                escape_html(&value)
            )))
        }
        Event::InlineHtml(h) | Event::Html(h) => {
            if only_comments(&h) {
                return Ok(None);
            }
            return Err(err(format!(
                "raw HTML is not allowed in lessons (`{}`); write Markdown instead",
                h.trim()
            )));
        }
        Event::Start(Tag::Image { .. }) => {
            return Err(err(
                "images are not used in lessons: draw a diagram as a widget".into(),
            ));
        }
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let dest = dest_url.to_string();
            let new_dest = if dest.starts_with("http://")
                || dest.starts_with("https://")
                || dest.starts_with("mailto:")
            {
                dest
            } else {
                let (path, anchor) = match dest.split_once('#') {
                    Some((p, a)) => (p, Some(a.to_string())),
                    None => (dest.as_str(), None),
                };
                if path == glossary::FILE {
                    // A term's entry on the glossary page, checked here: the glossary is known.
                    let known = anchor
                        .as_deref()
                        .and_then(|a| a.strip_prefix("term-"))
                        .is_some_and(|id| glossary.by_id(id).is_some());
                    return match anchor {
                        Some(a) if known => Ok(Some(Event::Start(Tag::Link {
                            link_type,
                            dest_url: CowStr::from(format!("glossary/#{a}")),
                            title,
                            id,
                        }))),
                        Some(a) => Err(err(format!(
                            "link to `{path}#{a}`: the glossary has no term with id `{}`",
                            a.strip_prefix("term-").unwrap_or(&a)
                        ))),
                        None => Ok(Some(Event::Start(Tag::Link {
                            link_type,
                            dest_url: CowStr::from("glossary/"),
                            title,
                            id,
                        }))),
                    };
                }
                let slug = if path.is_empty() {
                    entry.slug.clone()
                } else {
                    let target = toc.entries.iter().find(|e| e.file == path).ok_or_else(|| {
                        err(format!(
                            "link to `{path}`, which is not a lesson in SUMMARY.md"
                        ))
                    })?;
                    target.slug.clone()
                };
                links.push(PendingLink {
                    file: file.to_string(),
                    line: line_of(offset),
                    slug: slug.clone(),
                    anchor: anchor.clone(),
                });
                match anchor {
                    Some(a) => format!("{slug}/#{a}"),
                    None => format!("{slug}/"),
                }
            };
            Event::Start(Tag::Link {
                link_type,
                dest_url: CowStr::from(new_dest),
                title,
                id,
            })
        }
        other => other,
    }))
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
