//! One lesson compiled: its front matter read, then the Markdown parser's events taken one at a
//! time by [`LessonCompiler`], whose steps each handle one kind of content (directives,
//! headings, HTML, prose, inline figures and links) and turn every mistake into an error with
//! its file and line.

use super::glossary::{self, Glossary, Marker};
use super::{
    escape_html, slugify, split_front_matter, Args, CompileError, CompiledBlock, CompiledLesson,
    Context, Toc, TocEntry,
};
use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::collections::HashSet;

/// Splits `key=value` words (inline figures) into arguments.
pub(super) fn parse_inline_args(words: &str) -> Result<Args, String> {
    words
        .split_whitespace()
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("argument `{w}` must look like `key=value`"))
        })
        .collect()
}

/// True when `html` holds nothing but HTML comments and white space.
pub(super) fn only_comments(html: &str) -> bool {
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
pub fn compile_lesson(
    entry: &TocEntry,
    source: &str,
    toc: &Toc,
    ctx: &Context,
    glossary: &Glossary,
) -> Result<(CompiledLesson, Vec<PendingLink>), CompileError> {
    let (front, body, body_line) =
        split_front_matter(source).map_err(|(line, message)| CompileError {
            file: entry.file.clone(),
            line,
            message,
        })?;
    let description = front
        .iter()
        .find(|(k, _)| k == "description")
        .map(|(_, v)| v.clone())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| CompileError {
            file: entry.file.clone(),
            line: 1,
            message: "missing front matter `description:` (start the file with `---`, \
                      `description: …`, `---`)"
                .into(),
        })?;
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_SMART_PUNCTUATION;
    let mut lesson = LessonCompiler::new(entry, body, body_line, toc, ctx, glossary);
    for (event, range) in Parser::new_ext(body, options).into_offset_iter() {
        lesson.event(event, range.start)?;
    }
    lesson.finish(description)
}

/// A fenced directive being collected: kind (`widget` or `figure`), name, start offset, body.
type OpenDirective = (String, String, usize, String);

/// A heading being collected: its level, explicit id, inline events, plain text and offset.
struct OpenHeading<'a> {
    level: HeadingLevel,
    explicit: Option<String>,
    events: Vec<Event<'a>>,
    plain: String,
    start: usize,
}

/// One lesson on its way through the compiler: what it may refer to, where each event comes
/// from, and what it has produced so far. [`compile_lesson`] feeds it the parser's events.
struct LessonCompiler<'a> {
    entry: &'a TocEntry,
    toc: &'a Toc,
    ctx: &'a Context<'a>,
    glossary: &'a Glossary,
    /// Byte offset of each line's start in the body, and the body's first line in the file.
    line_starts: Vec<usize>,
    body_line: usize,
    blocks: Vec<CompiledBlock>,
    /// Prose events not yet written as a block.
    pending: Vec<Event<'a>>,
    headings: Vec<(u8, String, String)>,
    used_ids: HashSet<String>,
    heading_lines: Vec<usize>,
    links: Vec<PendingLink>,
    /// Plain text of the current section, and the sections finished so far.
    text: String,
    sections: Vec<(String, String, String)>,
    section_head: (String, String),
    /// Open containers (lists, quotes, tables…) around the current event.
    depth: usize,
    directive: Option<OpenDirective>,
    heading: Option<OpenHeading<'a>>,
    html_block: Option<(usize, String)>,
    /// Marks the first use of each glossary term in the lesson's prose.
    marker: Marker<'a>,
}

impl<'a> LessonCompiler<'a> {
    fn new(
        entry: &'a TocEntry,
        body: &str,
        body_line: usize,
        toc: &'a Toc,
        ctx: &'a Context<'a>,
        glossary: &'a Glossary,
    ) -> Self {
        LessonCompiler {
            entry,
            toc,
            ctx,
            glossary,
            line_starts: std::iter::once(0)
                .chain(body.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
            body_line,
            blocks: Vec::new(),
            pending: Vec::new(),
            headings: Vec::new(),
            used_ids: HashSet::new(),
            heading_lines: Vec::new(),
            links: Vec::new(),
            text: String::new(),
            sections: Vec::new(),
            section_head: (String::new(), String::new()),
            depth: 0,
            directive: None,
            heading: None,
            html_block: None,
            marker: Marker::new(glossary, &entry.slug),
        }
    }

    /// Byte offset in the body → 1-based line in the whole file.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset) + self.body_line - 1
    }

    fn err(&self, offset: usize, message: String) -> CompileError {
        CompileError {
            file: self.entry.file.clone(),
            line: self.line_of(offset),
            message,
        }
    }

    /// Writes the pending prose as one block, its glossary terms marked.
    fn flush(&mut self) {
        if !self.pending.is_empty() {
            let mut html = String::new();
            let events = self.marker.mark_events(std::mem::take(&mut self.pending));
            pulldown_cmark::html::push_html(&mut html, events.into_iter());
            // A code block can scroll sideways: keyboard users need to reach it.
            let html = html.replace("<pre>", "<pre tabindex=\"0\">");
            self.blocks.push(CompiledBlock::Prose(html));
        }
    }

    /// One event of the parser, at byte `offset` of the body.
    fn event(&mut self, event: Event<'a>, offset: usize) -> Result<(), CompileError> {
        if self.directive.is_some() {
            return self.in_directive(event);
        }
        if self.html_block.is_some() {
            match event {
                Event::Html(h) => {
                    if let Some((_, html)) = &mut self.html_block {
                        html.push_str(&h);
                    }
                    return Ok(());
                }
                Event::End(TagEnd::HtmlBlock) => {
                    let (start, html) = self.html_block.take().unwrap_or_default();
                    if !only_comments(&html) {
                        return Err(self.err(
                            start,
                            format!(
                                "raw HTML is not allowed in lessons (`{}`); write Markdown instead",
                                html.trim()
                            ),
                        ));
                    }
                    return Ok(());
                }
                // Anything else goes on as if no HTML block were open.
                _ => {}
            }
        }
        if self.heading.is_some() {
            return self.in_heading(event, offset);
        }
        self.at_top(event, offset)
    }

    /// An event inside a fenced directive: its text is the body; its end places the widget
    /// or the figure.
    fn in_directive(&mut self, event: Event<'a>) -> Result<(), CompileError> {
        match event {
            Event::Text(t) => {
                if let Some((_, _, _, body)) = &mut self.directive {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                let (kind, name, start, body) = self.directive.take().unwrap_or_default();
                let params = self.directive_params(start, &body)?;
                if kind == "widget" {
                    self.widget(name, params, start)?;
                } else {
                    let html = (self.ctx.block_figure)(&name, &params)
                        .map_err(|m| self.err(start, format!("figure `{name}`: {m}")))?;
                    self.pending.push(Event::Html(CowStr::from(html)));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A directive's `key: value` lines (blank lines and `#` comments skipped).
    fn directive_params(&self, start: usize, body: &str) -> Result<Args, CompileError> {
        let mut params = Args::new();
        for (i, l) in body.lines().enumerate() {
            let l = l.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let (k, v) = l.split_once(':').ok_or_else(|| CompileError {
                file: self.entry.file.clone(),
                line: self.line_of(start) + 1 + i,
                message: format!("directive parameter `{l}` must look like `key: value`"),
            })?;
            params.push((k.trim().to_string(), v.trim().to_string()));
        }
        Ok(params)
    }

    /// Places widget `name`, checked against the registry: a known name, known keys, and at the
    /// top level.
    fn widget(&mut self, name: String, params: Args, start: usize) -> Result<(), CompileError> {
        let widgets = self.ctx.widgets;
        let Some((_, keys)) = widgets.iter().find(|(n, _)| *n == name) else {
            let known: Vec<&str> = widgets.iter().map(|(n, _)| *n).collect();
            return Err(self.err(
                start,
                format!(
                    "unknown widget `{name}`; known widgets: {}",
                    known.join(", ")
                ),
            ));
        };
        if let Some((k, _)) = params.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
            let takes = if keys.is_empty() {
                "none".to_string()
            } else {
                keys.join(", ")
            };
            return Err(self.err(
                start,
                format!("widget `{name}` has no parameter `{k}`; it takes: {takes}"),
            ));
        }
        if self.depth > 0 {
            return Err(self.err(
                start,
                "a widget must stand at the top level, not inside a list, quote or table".into(),
            ));
        }
        self.flush();
        self.blocks.push(CompiledBlock::Widget {
            name,
            params,
            line: self.line_of(start),
        });
        Ok(())
    }

    /// An event inside a heading: its text is collected; its end writes the heading.
    fn in_heading(&mut self, event: Event<'a>, offset: usize) -> Result<(), CompileError> {
        if let Event::End(TagEnd::Heading(_)) = event {
            return self.close_heading();
        }
        if let (Event::Text(t) | Event::Code(t), Some(heading)) = (&event, &mut self.heading) {
            heading.plain.push_str(t);
        }
        if let Some(ev) = self.inline(event, offset)? {
            if let Some(heading) = &mut self.heading {
                heading.events.push(ev);
            }
        }
        Ok(())
    }

    /// Writes the heading just closed, with a unique anchor, and starts its section.
    fn close_heading(&mut self) -> Result<(), CompileError> {
        let Some(heading) = self.heading.take() else {
            return Ok(());
        };
        let level_n = match heading.level {
            HeadingLevel::H1 => 1,
            HeadingLevel::H2 => 2,
            HeadingLevel::H3 => 3,
            HeadingLevel::H4 => 4,
            HeadingLevel::H5 => 5,
            HeadingLevel::H6 => 6,
        };
        if level_n == 1 {
            return Err(self.err(
                heading.start,
                "use `##` and below: the lesson title comes from SUMMARY.md".into(),
            ));
        }
        let base = heading.explicit.unwrap_or_else(|| slugify(&heading.plain));
        let mut id = base.clone();
        let mut n = 1;
        while !self.used_ids.insert(id.clone()) {
            n += 1;
            id = format!("{base}-{n}");
        }
        let mut inner = String::new();
        pulldown_cmark::html::push_html(&mut inner, heading.events.into_iter());
        let slug = &self.entry.slug;
        self.pending.push(Event::Html(CowStr::from(format!(
            "<h{level_n} id=\"{id}\"><a class=\"anchor\" href=\"{slug}/#{id}\" aria-hidden=\"true\" tabindex=\"-1\">#</a>{inner}</h{level_n}>\n"
        ))));
        let finished =
            std::mem::replace(&mut self.section_head, (id.clone(), heading.plain.clone()));
        self.sections
            .push((finished.0, finished.1, std::mem::take(&mut self.text)));
        self.headings.push((level_n, id, heading.plain));
        self.heading_lines.push(self.line_of(heading.start));
        Ok(())
    }

    /// An event outside any directive, heading or HTML block.
    fn at_top(&mut self, event: Event<'a>, offset: usize) -> Result<(), CompileError> {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(ref info))) => {
                let mut words = info.split_whitespace();
                match words.next() {
                    Some(kind @ ("widget" | "figure")) => {
                        let name = words.next().ok_or_else(|| {
                            self.err(
                                offset,
                                format!(
                                    "`{kind}` directive needs a name, e.g. ```{kind} weight-memory"
                                ),
                            )
                        })?;
                        if let Some(extra) = words.next() {
                            return Err(self.err(offset, format!("unexpected `{extra}` after `{kind} {name}`; put parameters inside the block as `key: value`")));
                        }
                        self.directive =
                            Some((kind.to_string(), name.to_string(), offset, String::new()));
                    }
                    _ => self.pending.push(event),
                }
            }
            Event::Start(Tag::Heading { level, ref id, .. }) => {
                self.heading = Some(OpenHeading {
                    level,
                    explicit: id.as_ref().map(|s| s.to_string()),
                    events: Vec::new(),
                    plain: String::new(),
                    start: offset,
                });
            }
            Event::Start(Tag::HtmlBlock) => self.html_block = Some((offset, String::new())),
            Event::Start(
                Tag::List(_) | Tag::BlockQuote(_) | Tag::Table(_) | Tag::FootnoteDefinition(_),
            ) => {
                self.depth += 1;
                self.pending.push(event);
            }
            Event::End(
                TagEnd::List(_)
                | TagEnd::BlockQuote(_)
                | TagEnd::Table
                | TagEnd::FootnoteDefinition,
            ) => {
                self.depth = self.depth.saturating_sub(1);
                self.pending.push(event);
            }
            other => self.prose(other, offset)?,
        }
        Ok(())
    }

    /// An event of the prose itself: its text counts for search, then it is rewritten.
    fn prose(&mut self, event: Event<'a>, offset: usize) -> Result<(), CompileError> {
        match &event {
            Event::Text(t) => self.text.push_str(t),
            Event::SoftBreak | Event::HardBreak => self.text.push(' '),
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell) => {
                self.text.push('\n')
            }
            _ => {}
        }
        if let Some(ev) = self.inline(event, offset)? {
            if let Event::Html(ref h) = ev {
                // A computed figure's text counts as text for search.
                if let Some(inner) = h.strip_prefix("<span class=\"fig\">") {
                    self.text.push_str(inner.trim_end_matches("</span>"));
                }
            }
            self.pending.push(ev);
        }
        Ok(())
    }

    /// Rewrites one inline event: figures are computed, links resolved, raw HTML refused.
    /// Returns `None` for events that are dropped (HTML comments).
    fn inline(
        &mut self,
        event: Event<'a>,
        offset: usize,
    ) -> Result<Option<Event<'a>>, CompileError> {
        Ok(Some(match event {
            Event::Code(code) if code.starts_with('=') => self.inline_figure(&code, offset)?,
            Event::InlineHtml(h) | Event::Html(h) => {
                if only_comments(&h) {
                    return Ok(None);
                }
                return Err(self.err(
                    offset,
                    format!(
                        "raw HTML is not allowed in lessons (`{}`); write Markdown instead",
                        h.trim()
                    ),
                ));
            }
            Event::Start(Tag::Image { .. }) => {
                return Err(self.err(
                    offset,
                    "images are not used in lessons: draw a diagram as a widget".into(),
                ));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => Event::Start(Tag::Link {
                link_type,
                dest_url: CowStr::from(self.link(&dest_url, offset)?),
                title,
                id,
            }),
            other => other,
        }))
    }

    /// An inline figure, `` `=name key=value …` ``, computed.
    fn inline_figure(&self, code: &str, offset: usize) -> Result<Event<'a>, CompileError> {
        let spec = code.get(1..).unwrap_or_default().trim();
        let (name, rest) = spec.split_once(char::is_whitespace).unwrap_or((spec, ""));
        if name.is_empty() {
            return Err(self.err(
                offset,
                "an inline figure needs a name, e.g. `=weight-gb params=70 precision=fp16`".into(),
            ));
        }
        let args = parse_inline_args(rest)
            .map_err(|m| self.err(offset, format!("figure `{name}`: {m}")))?;
        let value = (self.ctx.inline_figure)(name, &args)
            .map_err(|m| self.err(offset, format!("figure `{name}`: {m}")))?;
        Ok(Event::Html(CowStr::from(format!(
            "<span class=\"fig\">{}</span>",
            escape_html(&value)
        ))))
    }

    /// Where a link goes: outside addresses as they are; a glossary term's entry, checked; a
    /// lesson (or a heading of one) by its path, the anchor checked once every lesson is known.
    fn link(&mut self, dest: &str, offset: usize) -> Result<String, CompileError> {
        if dest.starts_with("http://")
            || dest.starts_with("https://")
            || dest.starts_with("mailto:")
        {
            return Ok(dest.to_string());
        }
        let (path, anchor) = match dest.split_once('#') {
            Some((p, a)) => (p, Some(a.to_string())),
            None => (dest, None),
        };
        if path == glossary::FILE {
            return self.glossary_link(path, anchor, offset);
        }
        let slug = if path.is_empty() {
            self.entry.slug.clone()
        } else {
            let target = self
                .toc
                .entries
                .iter()
                .find(|e| e.file == path)
                .ok_or_else(|| {
                    self.err(
                        offset,
                        format!("link to `{path}`, which is not a lesson in SUMMARY.md"),
                    )
                })?;
            target.slug.clone()
        };
        self.links.push(PendingLink {
            file: self.entry.file.clone(),
            line: self.line_of(offset),
            slug: slug.clone(),
            anchor: anchor.clone(),
        });
        Ok(match anchor {
            Some(a) => format!("{slug}/#{a}"),
            None => format!("{slug}/"),
        })
    }

    /// A link to the glossary page, or to a term's entry on it, checked: the glossary is known.
    fn glossary_link(
        &self,
        path: &str,
        anchor: Option<String>,
        offset: usize,
    ) -> Result<String, CompileError> {
        let known = anchor
            .as_deref()
            .and_then(|a| a.strip_prefix("term-"))
            .is_some_and(|id| self.glossary.by_id(id).is_some());
        match anchor {
            Some(a) if known => Ok(format!("glossary/#{a}")),
            Some(a) => Err(self.err(
                offset,
                format!(
                    "link to `{path}#{a}`: the glossary has no term with id `{}`",
                    a.strip_prefix("term-").unwrap_or(&a)
                ),
            )),
            None => Ok("glossary/".to_string()),
        }
    }

    /// The lesson, once every event is in: the last prose written, the sections closed, and
    /// the glossary's marks checked against the headings' anchors.
    fn finish(
        mut self,
        description: String,
    ) -> Result<(CompiledLesson, Vec<PendingLink>), CompileError> {
        if let Some((kind, name, start, _)) = self.directive.take() {
            return Err(self.err(start, format!("`{kind} {name}` block is never closed")));
        }
        self.flush();
        let (head, text) = (
            std::mem::take(&mut self.section_head),
            std::mem::take(&mut self.text),
        );
        self.sections.push((head.0, head.1, text));
        self.sections
            .retain(|(id, _, text)| !(id.is_empty() && text.trim().is_empty()));
        let terms: Vec<String> = self
            .marker
            .marked
            .iter()
            .filter_map(|&t| self.glossary.terms.get(t).map(|term| term.id.clone()))
            .collect();
        if let Some(id) = terms
            .iter()
            .map(|t| Marker::use_id(t))
            .find(|id| self.used_ids.contains(id))
        {
            let line = self
                .headings
                .iter()
                .position(|(_, h, _)| *h == id)
                .and_then(|i| self.heading_lines.get(i).copied())
                .unwrap_or(1);
            return Err(CompileError {
                file: self.entry.file.clone(),
                line,
                message: format!(
                    "heading id `{id}` is the anchor of a glossary term's mark; give the heading another {{#id}}"
                ),
            });
        }
        Ok((
            CompiledLesson {
                slug: self.entry.slug.clone(),
                title: self.entry.title.clone(),
                description,
                file: self.entry.file.clone(),
                blocks: self.blocks,
                headings: self.headings,
                sections: self.sections,
                terms,
            },
            self.links,
        ))
    }
}
