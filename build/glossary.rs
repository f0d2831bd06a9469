//! The glossary: `content/glossary.md` parsed, its terms marked where the lessons use them,
//! and its own page.
//!
//! Each term is defined once, in one sentence. The lesson compiler marks the first use of each
//! term in each lesson automatically (lesson Markdown says nothing about terms): a link to the
//! term's entry on the glossary page, with the definition beside it as a tooltip. Only prose
//! text is marked: not headings, code, links, tables, figures or widgets.
//!
//! The file's shape:
//!
//! ```text
//! ---
//! description: One sentence for the page's meta description.
//! ---
//!
//! An optional paragraph that opens the page.
//!
//! ## KV cache {#kv-cache}        ← the term; the id (default: its slug) gives #term-kv-cache
//! forms: KV caches               ← optional: other spellings, matched too
//! see: prefill, decode           ← optional: related terms, by name or id
//!
//! One sentence that defines it.
//! ```

use super::{escape_html, slugify, split_front_matter, CompileError};
use pulldown_cmark::{CowStr, Event, Tag, TagEnd};

/// The content file the glossary lives in.
pub const FILE: &str = "glossary.md";

/// The longest definition allowed, in characters: it has to read as a tooltip.
pub const MAX_DEFINITION: usize = 240;

/// One term of the glossary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// Anchor id without the `term-` prefix, e.g. `kv-cache`.
    pub id: String,
    /// The term as the glossary shows it, e.g. `KV cache`.
    pub name: String,
    /// Every form matched in the text (the name first), white space collapsed.
    pub forms: Vec<String>,
    /// Ids of related terms.
    pub see: Vec<String>,
    /// The one-sentence definition, plain text.
    pub definition: String,
    /// Line of the term's heading in `glossary.md`.
    pub line: usize,
}

/// The parsed glossary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Glossary {
    /// The page's meta description.
    pub description: String,
    /// The paragraph that opens the page, plain text (may be empty).
    pub intro: String,
    /// The terms, in the file's order.
    pub terms: Vec<Term>,
}

impl Glossary {
    /// The term with id `id`.
    pub fn by_id(&self, id: &str) -> Option<&Term> {
        self.terms.iter().find(|t| t.id == id)
    }
}

fn err(line: usize, message: String) -> CompileError {
    CompileError {
        file: FILE.into(),
        line,
        message,
    }
}

/// A term being read: its heading line, `forms:`/`see:` lines (with their line), definition.
struct Draft {
    line: usize,
    name: String,
    id: String,
    forms: Vec<String>,
    see: Vec<(String, usize)>,
    definition: Vec<String>,
    /// The blank line that ended the definition, if one did.
    ended: bool,
}

impl Draft {
    /// A new term from its `## ` heading (the text after `## `) at line `n`: the name, and
    /// the id written as `{#id}` after it, or else the name's slug.
    fn from_heading(heading: &str, n: usize) -> Result<Draft, CompileError> {
        let (name, id) = match heading.trim().strip_suffix('}') {
            Some(rest) => {
                let (name, id) = rest
                    .rsplit_once("{#")
                    .ok_or_else(|| err(n, "write an explicit id as `## Term {#term-id}`".into()))?;
                (name.trim().to_string(), id.trim().to_string())
            }
            None => (heading.trim().to_string(), slugify(heading)),
        };
        if name.is_empty() {
            return Err(err(
                n,
                "a term heading needs the term: `## KV cache`".into(),
            ));
        }
        if id.is_empty()
            || !id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(err(
                n,
                format!("term id `{id}`: use lower-case letters, digits and `-`"),
            ));
        }
        Ok(Draft {
            line: n,
            forms: vec![collapse(&name)],
            name,
            id,
            see: Vec::new(),
            definition: Vec::new(),
            ended: false,
        })
    }

    /// Reads one trimmed line under the term's heading, at line `n`: a blank line ends the
    /// definition; before the definition, a `key:` line lists forms or related terms; any
    /// other line is part of the definition.
    fn read_line(&mut self, line: &str, n: usize) -> Result<(), CompileError> {
        if line.is_empty() {
            self.ended = !self.definition.is_empty();
            return Ok(());
        }
        if self.ended {
            return Err(err(
                n,
                format!(
                    "`{}` already has its definition: one sentence, one paragraph",
                    self.name
                ),
            ));
        }
        let key_value = if self.definition.is_empty() {
            line.split_once(':')
                .filter(|(k, _)| k.chars().all(|c| c.is_ascii_lowercase()) && !k.is_empty())
        } else {
            None
        };
        match key_value {
            Some((key, list)) => self.read_key(key, list, n),
            None => {
                self.definition.push(line.to_string());
                Ok(())
            }
        }
    }

    /// Reads a `key: list` line at line `n`: `forms:` adds other spellings, `see:` names
    /// related terms (resolved once every term is known); no other key is allowed.
    fn read_key(&mut self, key: &str, list: &str, n: usize) -> Result<(), CompileError> {
        match key {
            "forms" => {
                for form in list.split(',').map(collapse) {
                    if form.is_empty() {
                        return Err(err(n, "`forms:` takes a comma-separated list".into()));
                    }
                    self.forms.push(form);
                }
            }
            "see" => {
                for name in list.split(',').map(collapse) {
                    if name.is_empty() {
                        return Err(err(n, "`see:` takes a comma-separated list".into()));
                    }
                    self.see.push((name, n));
                }
            }
            _ => {
                return Err(err(
                    n,
                    format!("unknown key `{key}:`; a term takes `forms:` and `see:` lines"),
                ))
            }
        }
        Ok(())
    }
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parses `glossary.md`. Every mistake names its line.
pub fn parse(source: &str) -> Result<Glossary, CompileError> {
    let (front, body, body_line) = split_front_matter(source).map_err(|(l, m)| err(l, m))?;
    let description = description(&front)?;
    let (intro, drafts) = read_body(body, body_line)?;
    let mut terms = check_terms(&drafts)?;
    resolve_see(&drafts, &mut terms)?;
    if terms.is_empty() {
        return Err(err(1, "the glossary has no `## Term` yet".into()));
    }
    Ok(Glossary {
        description,
        intro: collapse(&intro.join(" ")),
        terms,
    })
}

/// The page's meta description, from the front matter's `description:`, which must be there.
fn description(front: &[(String, String)]) -> Result<String, CompileError> {
    front
        .iter()
        .find(|(k, _)| k == "description")
        .map(|(_, v)| v.clone())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| {
            err(
                1,
                "missing front matter `description:` (start the file with `---`, \
                 `description: …`, `---`)"
                    .into(),
            )
        })
}

/// Reads the body after the front matter (its first line is `body_line`), skipping HTML
/// comments: the opening paragraph's lines, and a draft of each `## Term` with the lines
/// under it.
fn read_body(body: &str, body_line: usize) -> Result<(Vec<String>, Vec<Draft>), CompileError> {
    let mut intro: Vec<String> = Vec::new();
    let mut drafts: Vec<Draft> = Vec::new();
    let mut in_comment = false;
    for (i, raw) in body.lines().enumerate() {
        let n = body_line + i;
        let line = raw.trim();
        if in_comment || line.starts_with("<!--") {
            in_comment = !line.contains("-->");
            continue;
        }
        if let Some(heading) = line.strip_prefix("## ") {
            drafts.push(Draft::from_heading(heading, n)?);
            continue;
        }
        if line.starts_with('#') {
            return Err(err(
                n,
                "terms are `## Term` headings; no other headings belong in the glossary".into(),
            ));
        }
        match drafts.last_mut() {
            Some(draft) => draft.read_line(line, n)?,
            None if !line.is_empty() => intro.push(line.to_string()),
            None => {}
        }
    }
    Ok((intro, drafts))
}

/// The terms of the drafts, in order, each checked: a one-sentence definition, an id and
/// forms no other term has. Their related terms are left empty for `resolve_see`.
fn check_terms(drafts: &[Draft]) -> Result<Vec<Term>, CompileError> {
    let mut terms: Vec<Term> = Vec::new();
    let mut seen_forms: Vec<(String, String, usize)> = Vec::new(); // (normalized, term, line)
    for d in drafts {
        let definition = collapse(&d.definition.join(" "));
        check_definition(&d.name, &definition).map_err(|m| err(d.line, m))?;
        if let Some(other) = terms.iter().find(|t| t.id == d.id) {
            return Err(err(
                d.line,
                format!(
                    "term id `{}` is already used by `{}` (line {})",
                    d.id, other.name, other.line
                ),
            ));
        }
        for form in &d.forms {
            let key = normalize(form);
            if let Some((_, term, line)) = seen_forms.iter().find(|(k, _, _)| *k == key) {
                return Err(err(
                    d.line,
                    format!("`{form}` is already a form of `{term}` (line {line})"),
                ));
            }
            seen_forms.push((key, d.name.clone(), d.line));
        }
        terms.push(Term {
            id: d.id.clone(),
            name: d.name.clone(),
            forms: d.forms.clone(),
            see: Vec::new(),
            definition,
            line: d.line,
        });
    }
    Ok(terms)
}

/// Fills in each term's related terms from its draft's `see:` names, once every term is
/// known (`terms` are the drafts' terms, in the same order).
fn resolve_see(drafts: &[Draft], terms: &mut [Term]) -> Result<(), CompileError> {
    for (i, d) in drafts.iter().enumerate() {
        let see = d
            .see
            .iter()
            .map(|(name, line)| see_target(terms, d, name, *line))
            .collect::<Result<Vec<String>, CompileError>>()?;
        if let Some(term) = terms.get_mut(i) {
            term.see = see;
        }
    }
    Ok(())
}

/// The id of the term that `name`, written in `see:` of draft `d` at `line`, names by its
/// name, a form or its id: another term of the glossary.
fn see_target(terms: &[Term], d: &Draft, name: &str, line: usize) -> Result<String, CompileError> {
    let key = normalize(name);
    let target = terms
        .iter()
        .find(|t| t.id == *name || t.forms.iter().any(|f| normalize(f) == key))
        .ok_or_else(|| {
            err(
                line,
                format!("`see:` names `{name}`, which is not a term of the glossary"),
            )
        })?;
    if target.id == d.id {
        return Err(err(line, format!("`{}` cannot see itself", d.name)));
    }
    Ok(target.id.clone())
}

/// A definition is one plain sentence, short enough for a tooltip.
fn check_definition(name: &str, definition: &str) -> Result<(), String> {
    if definition.is_empty() {
        return Err(format!(
            "`{name}` has no definition: write one sentence under it"
        ));
    }
    if !definition.ends_with('.') {
        return Err(format!(
            "the definition of `{name}` must end with a full stop"
        ));
    }
    let chars: Vec<char> = definition.chars().collect();
    let second = chars
        .windows(3)
        .any(|w| matches!(w[0], '.' | '?' | '!') && w[1] == ' ' && w[2].is_uppercase());
    if second {
        return Err(format!(
            "the definition of `{name}` has more than one sentence; keep it to one"
        ));
    }
    if chars.len() > MAX_DEFINITION {
        return Err(format!(
            "the definition of `{name}` has {} characters; keep it under {MAX_DEFINITION}",
            chars.len()
        ));
    }
    if definition.contains(['<', '>', '`', '*', '[']) {
        return Err(format!(
            "the definition of `{name}` is plain text: no Markdown or HTML"
        ));
    }
    Ok(())
}

/// A form for comparison: lower case, one kind of apostrophe, white space collapsed.
fn normalize(s: &str) -> String {
    collapse(s).chars().map(fold).collect()
}

fn fold(c: char) -> char {
    match c {
        '\u{2019}' | '\u{2018}' => '\'',
        c => c.to_lowercase().next().unwrap_or(c),
    }
}

/// Characters that continue a word: a form must not start or end inside one, so `token` is
/// not found in `tokenizer` or `pay-per-token`, nor `entropy` in `cross-entropy`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Where `form` (folded chars) matches `text` at `at`: the end index. A space in the form
/// matches any run of white space (a line break in the source included).
fn match_at(text: &[char], at: usize, form: &[char]) -> Option<usize> {
    let mut i = at;
    for &f in form {
        if f == ' ' {
            if !text.get(i).is_some_and(|c| c.is_whitespace()) {
                return None;
            }
            while text.get(i).is_some_and(|c| c.is_whitespace()) {
                i += 1;
            }
        } else if text.get(i).map(|&c| fold(c)) == Some(f) {
            i += 1;
        } else {
            return None;
        }
    }
    if text.get(i).is_some_and(|&c| is_word(c)) {
        return None;
    }
    Some(i)
}

/// Marks terms in one lesson: the first use of each, once.
pub struct Marker<'g> {
    glossary: &'g Glossary,
    /// Every form, folded, with its term's index; longest first.
    forms: Vec<(Vec<char>, usize)>,
    /// The lesson's slug (tooltip ids are unique across the print page).
    slug: String,
    /// Indices of the terms marked so far in this lesson, in order.
    pub marked: Vec<usize>,
}

impl<'g> Marker<'g> {
    /// A marker for the lesson `slug`.
    pub fn new(glossary: &'g Glossary, slug: &str) -> Self {
        let mut forms: Vec<(Vec<char>, usize)> = glossary
            .terms
            .iter()
            .enumerate()
            .flat_map(|(i, t)| {
                t.forms
                    .iter()
                    .map(move |f| (normalize(f).chars().collect(), i))
            })
            .collect();
        forms.sort_by_key(|f| std::cmp::Reverse(f.0.len()));
        Marker {
            glossary,
            forms,
            slug: slug.to_string(),
            marked: Vec::new(),
        }
    }

    /// The id a mark carries in its lesson, e.g. `use-kv-cache`: the glossary's "used in"
    /// links point at it.
    pub fn use_id(term_id: &str) -> String {
        format!("use-{term_id}")
    }

    /// Splits `text` into plain runs and marks: `(text, Some(term index))` for a mark.
    fn split(&mut self, text: &str) -> Vec<(String, Option<usize>)> {
        let chars: Vec<char> = text.chars().collect();
        let mut out: Vec<(String, Option<usize>)> = Vec::new();
        let mut plain = String::new();
        let mut i = 0;
        while i < chars.len() {
            let starts_word = i == 0 || !is_word(chars[i - 1]);
            let found = if starts_word {
                self.forms
                    .iter()
                    .find_map(|(form, t)| match_at(&chars, i, form).map(|end| (end, *t)))
            } else {
                None
            };
            match found {
                // A later use of a term already marked: kept as text, and skipped whole so
                // that a shorter term inside it (`entropy` in `cross-entropy`) is not marked.
                Some((end, t)) if self.marked.contains(&t) => {
                    plain.extend(&chars[i..end]);
                    i = end;
                }
                Some((end, t)) => {
                    if !plain.is_empty() {
                        out.push((std::mem::take(&mut plain), None));
                    }
                    out.push((chars[i..end].iter().collect(), Some(t)));
                    self.marked.push(t);
                    i = end;
                }
                None => {
                    plain.push(chars[i]);
                    i += 1;
                }
            }
        }
        if !plain.is_empty() {
            out.push((plain, None));
        }
        out
    }

    /// The HTML of a mark: a link to the term's entry, described by its definition, which
    /// shows as a tooltip on hover and keyboard focus (see `style/main.css`).
    fn mark_html(&self, t: usize, text: &str) -> String {
        let term = &self.glossary.terms[t];
        let tip = format!("tip-{}-{}", self.slug, term.id);
        format!(
            "<span class=\"term-wrap\" id=\"{use_id}\"><a class=\"term\" data-term=\"{id}\" href=\"glossary/#term-{id}\" aria-describedby=\"{tip}\">{text}</a><span class=\"term-tip\" role=\"tooltip\" id=\"{tip}\">{definition}</span></span>",
            id = term.id,
            use_id = Self::use_id(&term.id),
            text = escape_html(text),
            definition = escape_html(&term.definition),
        )
    }

    /// Marks the terms in a run of prose events (one block between widgets): text inside
    /// links, code, tables and images is left alone; headings and figures are already HTML.
    pub fn mark_events<'a>(&mut self, events: Vec<Event<'a>>) -> Vec<Event<'a>> {
        let mut out = Vec::with_capacity(events.len());
        let mut skip = 0usize;
        // Consecutive text (and soft line breaks) of one run, matched as one string so that
        // a term broken over two source lines is still found.
        let mut run: Vec<Event<'a>> = Vec::new();
        for event in events {
            match &event {
                Event::Text(_) | Event::SoftBreak if skip == 0 => {
                    run.push(event);
                    continue;
                }
                Event::Start(
                    Tag::Link { .. }
                    | Tag::Image { .. }
                    | Tag::CodeBlock(_)
                    | Tag::Table(_)
                    | Tag::Heading { .. },
                ) => skip += 1,
                Event::End(
                    TagEnd::Link
                    | TagEnd::Image
                    | TagEnd::CodeBlock
                    | TagEnd::Table
                    | TagEnd::Heading(_),
                ) => skip = skip.saturating_sub(1),
                _ => {}
            }
            self.flush_run(&mut run, &mut out);
            out.push(event);
        }
        self.flush_run(&mut run, &mut out);
        out
    }

    fn flush_run<'a>(&mut self, run: &mut Vec<Event<'a>>, out: &mut Vec<Event<'a>>) {
        if run.is_empty() {
            return;
        }
        let text: String = run
            .iter()
            .map(|e| match e {
                Event::Text(t) => t.as_ref(),
                _ => "\n",
            })
            .collect();
        let pieces = self.split(&text);
        if pieces.iter().all(|(_, t)| t.is_none()) {
            out.append(run);
            return;
        }
        run.clear();
        for (piece, term) in pieces {
            match term {
                Some(t) => out.push(Event::Html(CowStr::from(self.mark_html(t, &piece)))),
                None => out.push(Event::Text(CowStr::from(piece))),
            }
        }
    }
}

/// The glossary page's body: the opening paragraph, then every term in alphabetical order
/// with its anchor `#term-<id>`, definition, forms, related terms and the lessons that use
/// it (`used_in`: for each term, in the glossary's order, the slugs and titles of the
/// lessons where it is marked).
pub fn page_html(glossary: &Glossary, used_in: &[Vec<(String, String)>]) -> String {
    let mut order: Vec<usize> = (0..glossary.terms.len()).collect();
    order.sort_by_key(|&i| normalize(&glossary.terms[i].name));
    let mut out = String::new();
    if !glossary.intro.is_empty() {
        out.push_str(&format!(
            "<p class=\"glossary-intro\">{}</p>\n",
            escape_html(&glossary.intro)
        ));
    }
    // Every term at a glance, each a link to its entry.
    let index: Vec<String> = order
        .iter()
        .map(|&i| {
            let t = &glossary.terms[i];
            format!(
                "<li><a href=\"glossary/#term-{}\">{}</a></li>",
                t.id,
                escape_html(&t.name)
            )
        })
        .collect();
    out.push_str(&format!(
        "<nav class=\"glossary-index\" aria-label=\"Terms\"><ul>{}</ul></nav>\n",
        index.join("")
    ));
    out.push_str("<dl class=\"glossary-list\">\n");
    for i in order {
        let t = &glossary.terms[i];
        out.push_str(&format!(
            "<div class=\"glossary-entry\" id=\"term-{id}\" data-glossary-term=\"{id}\" tabindex=\"-1\"><dt><dfn>{name}</dfn></dt><dd><p>{definition}</p>",
            id = t.id,
            name = escape_html(&t.name),
            definition = escape_html(&t.definition),
        ));
        let mut notes: Vec<String> = Vec::new();
        let forms: Vec<String> = t.forms[1..]
            .iter()
            .filter(|f| !is_inflection(&t.name, f))
            .map(|f| escape_html(f))
            .collect();
        if !forms.is_empty() {
            notes.push(format!("Also: {}", forms.join(", ")));
        }
        if !t.see.is_empty() {
            let links: Vec<String> = t
                .see
                .iter()
                .filter_map(|id| glossary.by_id(id))
                .map(|s| {
                    format!(
                        "<a href=\"glossary/#term-{}\">{}</a>",
                        s.id,
                        escape_html(&s.name)
                    )
                })
                .collect();
            notes.push(format!("See also: {}", links.join(", ")));
        }
        if let Some(lessons) = used_in.get(i).filter(|l| !l.is_empty()) {
            let links: Vec<String> = lessons
                .iter()
                .map(|(slug, title)| {
                    format!(
                        "<a href=\"{slug}/#{}\">{}</a>",
                        Marker::use_id(&t.id),
                        escape_html(title)
                    )
                })
                .collect();
            notes.push(format!("Used in: {}", links.join(", ")));
        }
        for note in notes {
            out.push_str(&format!("<p class=\"glossary-note\">{note}</p>"));
        }
        out.push_str("</dd></div>\n");
    }
    out.push_str("</dl>\n");
    out
}

/// True when `form` is only another inflection of `name` (`evals` of `Eval`, `distilled` of
/// `Distillation`): the page lists the other forms, those a reader may meet as new words.
fn is_inflection(name: &str, form: &str) -> bool {
    let (a, b) = (normalize(name), normalize(form));
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let shorter = a.chars().count().min(b.chars().count());
    common >= 4 && common + 3 >= shorter
}
