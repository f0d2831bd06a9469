//! The diagrams' words: `content/diagrams.md` → static Rust data, at build time.
//!
//! Used by `build/main.rs` (which writes the result into `OUT_DIR` for
//! `src/app/diagrams/data.rs` to include) and by the native tests in
//! `tests/diagram_words.rs`. The words are data; the layouts stay code. A mistake fails the build
//! with `content/diagrams.md:<line>: <what to fix>`. The file's own opening lines describe its
//! format.

use std::fmt;

/// The file, relative to the content folder.
pub const FILE: &str = "diagrams.md";

/// Where the file went wrong: 1-based line, and what to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagramError {
    /// 1-based line in `content/diagrams.md`.
    pub line: usize,
    /// What is wrong, for the author.
    pub message: String,
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "content/{FILE}:{}: {}", self.line, self.message)
    }
}

/// `key=value` arguments of an inline figure, in order.
pub type Args = Vec<(String, String)>;

/// A lesson the chapter map may link to: slug, title, and its headings (anchor id, text).
pub type LessonRef = (String, String, Vec<(String, String)>);

/// What the words may refer to.
pub struct Refs<'a> {
    /// Registered widget names: each diagram is one.
    pub widgets: &'a [&'a str],
    /// The lessons, for the chapter map's links and its words about them.
    pub lessons: &'a [LessonRef],
    /// Computes an inline figure's text from its name and arguments.
    pub figure: &'a dyn Fn(&str, &Args) -> Result<String, String>,
}

/// Node kinds, as written after a node's id, with the Rust variant of each.
const KINDS: [(&str, &str); 6] = [
    ("step", "Step"),
    ("hub", "Hub"),
    ("decision", "Decision"),
    ("root", "Root"),
    ("branch", "Branch"),
    ("leaf", "Leaf"),
];

/// Edge kinds, as written after `edge`, with the Rust variant of each.
const EDGE_KINDS: [(&str, &str); 4] = [
    ("flow", "Flow"),
    ("loop", "Loop"),
    ("compare", "Compare"),
    ("link", "Link"),
];

/// Drawings a node may hold, with the Rust variant of each.
const DECORS: [(&str, &str); 3] = [
    ("layers", "Layers"),
    ("adapted-layers", "AdaptedLayers"),
    ("teacher-bars", "TeacherBars"),
];

/// A node's words, checked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    /// Stable slug (`data-node`).
    pub id: String,
    /// Its kind, as written (`step`, …).
    pub kind: String,
    /// The words in the box.
    pub label: String,
    /// The smaller second line (may be empty).
    pub note: String,
    /// What selecting it explains (for a link, where it leads).
    pub detail: String,
    /// Its drawing, as written (`layers`, …), or empty.
    pub decor: String,
    /// Where a chapter-map node leads, relative to the site's base (`model-selection/#x`).
    pub href: String,
    line: usize,
    link_line: usize,
}

/// An edge, checked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Edge {
    /// Source node id.
    pub from: String,
    /// Target node id.
    pub to: String,
    /// Its kind, as written (`flow`, …).
    pub kind: String,
    /// Words on the edge (may be empty).
    pub label: String,
}

/// A diagram's words, checked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Diagram {
    /// Directive name.
    pub name: String,
    /// The card's title.
    pub title: String,
    /// What it shows, in a sentence or two.
    pub summary: String,
    /// What the detail panel says before a node is selected.
    pub hint: String,
    /// Nodes, in drawing order.
    pub nodes: Vec<Node>,
    /// Edges, in drawing order.
    pub edges: Vec<Edge>,
    branch_note: String,
    branch_detail: String,
    leaf_detail: String,
    line: usize,
}

/// The file's lines after its preamble, continuation lines joined to the line they continue:
/// (1-based line number, text).
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut started = false;
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        started |= line.starts_with("## ");
        if !started {
            continue;
        }
        if line.trim().is_empty() {
            open = false;
            continue;
        }
        match out.last_mut() {
            Some((_, last)) if open && line.starts_with("  ") => {
                last.push(' ');
                last.push_str(line.trim());
            }
            _ => {
                out.push((i + 1, line.trim_end().to_string()));
                open = true;
            }
        }
    }
    out
}

/// `text` with each `` `=name args` `` replaced by the figure's text.
fn with_figures(text: &str, refs: &Refs) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some((before, after)) = rest.split_once("`=") {
        out.push_str(before);
        let (spec, next) = after
            .split_once('`')
            .ok_or("a figure `` `=name …` `` is not closed with a backtick")?;
        let spec = spec.trim();
        let (name, words) = spec.split_once(' ').unwrap_or((spec, ""));
        let args = words
            .split_whitespace()
            .map(|w| {
                w.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| {
                        format!("figure `{name}`: argument `{w}` must look like `key=value`")
                    })
            })
            .collect::<Result<Args, String>>()?;
        out.push_str(&(refs.figure)(name, &args).map_err(|m| format!("figure `{name}`: {m}"))?);
        rest = next;
    }
    if rest.contains('`') {
        return Err("a backtick outside a figure: write figures as `` `=name key=value` ``".into());
    }
    out.push_str(rest);
    Ok(out)
}

/// The Rust variant of `word` in `table`, or a message listing the choices.
fn variant<'a>(table: &[(&str, &'a str)], word: &str, what: &str) -> Result<&'a str, String> {
    table
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let known: Vec<&str> = table.iter().map(|(w, _)| *w).collect();
            format!("unknown {what} `{word}`; use one of: {}", known.join(", "))
        })
}

fn is_slug(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Makes errors at `line`: a function from the message, for `map_err` and `ok_or_else`.
fn at(line: usize) -> impl Fn(String) -> DiagramError + Copy {
    move |message| DiagramError { line, message }
}

/// Parses and checks the file: every diagram's words, figures computed and links resolved.
pub fn parse(text: &str, refs: &Refs) -> Result<Vec<Diagram>, DiagramError> {
    let mut diagrams: Vec<Diagram> = Vec::new();
    for (line, text) in logical_lines(text) {
        read_line(&mut diagrams, line, &text, refs)?;
    }
    if diagrams.is_empty() {
        return Err(DiagramError {
            line: 1,
            message: "no diagrams: start one with `## <directive name>`".into(),
        });
    }
    for d in &mut diagrams {
        check(d, refs)?;
    }
    Ok(diagrams)
}

/// Reads one logical line (`text`, at `line`): a `## <diagram>` starts a diagram; a node,
/// an edge or a `key: value` line adds to the last diagram.
fn read_line(
    diagrams: &mut Vec<Diagram>,
    line: usize,
    text: &str,
    refs: &Refs,
) -> Result<(), DiagramError> {
    let err = at(line);
    if let Some(name) = text.strip_prefix("## ") {
        let diagram = start_diagram(name.trim(), line, diagrams, refs)?;
        diagrams.push(diagram);
        return Ok(());
    }
    let Some(d) = diagrams.last_mut() else {
        return Err(err("words before the first `## <diagram>`".into()));
    };
    if let Some(node) = text.strip_prefix("### ") {
        return d.add_node(node, line);
    }
    if let Some(edge) = text.strip_prefix("edge ") {
        return d.add_edge(edge, line, refs);
    }
    d.read_key_line(text, line, refs)
}

/// A new diagram named `name` (its `## ` heading at `line`): a registered widget, and not
/// one of the diagrams `written` before it.
fn start_diagram(
    name: &str,
    line: usize,
    written: &[Diagram],
    refs: &Refs,
) -> Result<Diagram, DiagramError> {
    let err = at(line);
    if !refs.widgets.contains(&name) {
        return Err(err(format!(
            "`{name}` is not a registered widget: name the diagram by its directive"
        )));
    }
    if written.iter().any(|d| d.name == name) {
        return Err(err(format!("diagram `{name}` is written twice")));
    }
    Ok(Diagram {
        name: name.to_string(),
        line,
        ..Diagram::default()
    })
}

impl Diagram {
    /// Adds the node of a `### <id> (<kind>)` heading (`heading` is the text after `### `),
    /// at `line`: a slug not used before in this diagram, and a known kind.
    fn add_node(&mut self, heading: &str, line: usize) -> Result<(), DiagramError> {
        let err = at(line);
        let (id, kind) = heading
            .trim()
            .strip_suffix(')')
            .and_then(|n| n.split_once(" ("))
            .ok_or_else(|| err("a node is written `### <id> (<kind>)`".into()))?;
        if !is_slug(id) {
            return Err(err(format!(
                "node id `{id}` must be lower-case letters, digits and hyphens"
            )));
        }
        if self.nodes.iter().any(|n| n.id == id) {
            return Err(err(format!(
                "node `{id}` is written twice in `{}`",
                self.name
            )));
        }
        variant(&KINDS, kind, "node kind").map_err(err)?;
        self.nodes.push(Node {
            id: id.to_string(),
            kind: kind.to_string(),
            line,
            ..Node::default()
        });
        Ok(())
    }

    /// Adds the edge of an `edge <kind>: <from> -> <to>` line, with an optional `: <label>`
    /// after it (`edge` is the text after `edge `), at `line`: both ends are nodes above it.
    fn add_edge(&mut self, edge: &str, line: usize, refs: &Refs) -> Result<(), DiagramError> {
        let err = at(line);
        let (kind, rest) = edge
            .split_once(':')
            .ok_or_else(|| err("an edge is written `edge <kind>: <from> -> <to>`".into()))?;
        variant(&EDGE_KINDS, kind.trim(), "edge kind").map_err(err)?;
        let (ends, label) = rest.split_once(':').unwrap_or((rest, ""));
        let (from, to) = ends
            .split_once("->")
            .ok_or_else(|| err("an edge is written `edge <kind>: <from> -> <to>`".into()))?;
        for end in [from.trim(), to.trim()] {
            if !self.nodes.iter().any(|n| n.id == end) {
                return Err(err(format!(
                    "edge names `{end}`, which is not a node of `{}` above it",
                    self.name
                )));
            }
        }
        self.edges.push(Edge {
            from: from.trim().to_string(),
            to: to.trim().to_string(),
            kind: kind.trim().to_string(),
            label: with_figures(label.trim(), refs).map_err(err)?,
        });
        Ok(())
    }

    /// Reads a `key: value` line (`text`, at `line`): the diagram's own words before its
    /// first node, the last node's words after it.
    fn read_key_line(&mut self, text: &str, line: usize, refs: &Refs) -> Result<(), DiagramError> {
        let err = at(line);
        let (key, value) = text
            .split_once(':')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| {
                err(format!(
                    "`{text}` is not a `## diagram`, a `### node (kind)`, an `edge` or a `key: value` line"
                ))
            })?;
        if value.is_empty() {
            return Err(err(format!("`{key}:` has no words")));
        }
        match self.nodes.last_mut() {
            None => self.set_word(key, value, err, refs),
            Some(n) => n.set_key(key, value, line, refs),
        }
    }

    /// Sets the diagram's own word `key` (title, summary, hint or the chapter map's
    /// templates) to `value`, its figures computed; each is written once. `err` places a
    /// message at the line.
    fn set_word(
        &mut self,
        key: &str,
        value: &str,
        err: impl Fn(String) -> DiagramError + Copy,
        refs: &Refs,
    ) -> Result<(), DiagramError> {
        let slot = match key {
            "title" => &mut self.title,
            "summary" => &mut self.summary,
            "hint" => &mut self.hint,
            "branch-note" => &mut self.branch_note,
            "branch-detail" => &mut self.branch_detail,
            "leaf-detail" => &mut self.leaf_detail,
            _ => {
                return Err(err(format!(
                    "unknown key `{key}` for a diagram; use title, summary, hint, \
                     branch-note, branch-detail or leaf-detail"
                )))
            }
        };
        if !slot.is_empty() {
            return Err(err(format!("`{key}:` is written twice")));
        }
        *slot = with_figures(value, refs).map_err(err)?;
        Ok(())
    }
}

impl Node {
    /// Sets the node's word `key` (label, note, detail, decor or link) to `value`, at
    /// `line`: figures computed, except in a link, which is kept as written; each is
    /// written once.
    fn set_key(
        &mut self,
        key: &str,
        value: &str,
        line: usize,
        refs: &Refs,
    ) -> Result<(), DiagramError> {
        let err = at(line);
        let slot = match key {
            "label" => &mut self.label,
            "note" => &mut self.note,
            "detail" => &mut self.detail,
            "decor" => {
                variant(&DECORS, value, "decor").map_err(err)?;
                &mut self.decor
            }
            "link" => &mut self.href,
            "title" | "summary" | "hint" | "branch-note" | "branch-detail" | "leaf-detail" => {
                return Err(err(format!(
                    "`{key}:` belongs to the diagram: write it before its first node"
                )))
            }
            _ => {
                return Err(err(format!(
                    "unknown key `{key}` for a node; use label, note, detail, decor or link"
                )))
            }
        };
        if !slot.is_empty() {
            return Err(err(format!("`{key}:` is written twice for `{}`", self.id)));
        }
        *slot = if key == "link" {
            self.link_line = line;
            value.to_string()
        } else {
            with_figures(value, refs).map_err(err)?
        };
        Ok(())
    }
}

/// Checks one diagram's words as a whole, and writes the chapter map's links and details.
fn check(d: &mut Diagram, refs: &Refs) -> Result<(), DiagramError> {
    check_required(d)?;
    let tree = d
        .nodes
        .iter()
        .any(|n| n.kind == "branch" || n.kind == "leaf");
    if tree {
        check_tree(d)?;
    }
    let words = MapWords {
        branch_note: &d.branch_note,
        branch_detail: &d.branch_detail,
        leaf_detail: &d.leaf_detail,
    };
    let mut in_branch = false;
    for n in &mut d.nodes {
        let err = at(n.line);
        if n.label.is_empty() {
            return Err(err(format!("node `{}` needs `label:`", n.id)));
        }
        match n.kind.as_str() {
            "branch" | "leaf" => {
                if n.kind == "leaf" && !in_branch {
                    return Err(err(format!(
                        "leaf `{}` comes before any branch: put it after its section's `(branch)`",
                        n.id
                    )));
                }
                in_branch = true;
                fill_link(n, &words, refs)?;
            }
            _ => check_plain(n)?,
        }
    }
    Ok(())
}

/// Checks that the diagram has its title, summary and hint, and at least one node.
fn check_required(d: &Diagram) -> Result<(), DiagramError> {
    for (key, value) in [
        ("title", &d.title),
        ("summary", &d.summary),
        ("hint", &d.hint),
    ] {
        if value.is_empty() {
            return Err(at(d.line)(format!("diagram `{}` needs `{key}:`", d.name)));
        }
    }
    if d.nodes.is_empty() {
        return Err(at(d.line)(format!("diagram `{}` has no nodes", d.name)));
    }
    Ok(())
}

/// Checks a tree of branches and leaves (the chapter map): no edges, one root and first,
/// and the templates its links' notes and details are made from.
fn check_tree(d: &Diagram) -> Result<(), DiagramError> {
    if !d.edges.is_empty() {
        return Err(at(d.line)(format!(
            "`{}` is a tree of branches and leaves: its edges come from the tree, so write none",
            d.name
        )));
    }
    if d.nodes.first().map(|n| n.kind.as_str()) != Some("root")
        || d.nodes.iter().filter(|n| n.kind == "root").count() != 1
    {
        return Err(at(d.line)(format!(
            "`{}` is a tree: its first node, and only that one, is the `(root)`",
            d.name
        )));
    }
    for (key, value) in [
        ("branch-note", &d.branch_note),
        ("branch-detail", &d.branch_detail),
        ("leaf-detail", &d.leaf_detail),
    ] {
        if value.is_empty() {
            return Err(at(d.line)(format!(
                "`{}` has branches and leaves, so it needs `{key}:`",
                d.name
            )));
        }
    }
    Ok(())
}

/// The chapter map's words for its links: the branches' note, and the templates of the
/// branches' and leaves' details (`{title}` and `{heading}` filled from the link).
struct MapWords<'a> {
    branch_note: &'a str,
    branch_detail: &'a str,
    leaf_detail: &'a str,
}

/// Resolves a branch's or leaf's `link:` and writes its href, note and detail from the
/// chapter map's `words`; the node itself must write no detail (nor, a branch, a note).
fn fill_link(n: &mut Node, words: &MapWords, refs: &Refs) -> Result<(), DiagramError> {
    if !n.detail.is_empty() || (!n.note.is_empty() && n.kind == "branch") {
        return Err(at(n.line)(format!(
            "node `{}` is a link: its note and detail come from the diagram's \
             `branch-note:`, `branch-detail:` and `leaf-detail:`",
            n.id
        )));
    }
    let link_line = if n.href.is_empty() {
        n.line
    } else {
        n.link_line
    };
    let (href, title, heading) = link(&n.href, n.kind == "leaf", refs).map_err(at(link_line))?;
    n.href = href;
    let fill = |template: &str| {
        template
            .replace("{title}", &title)
            .replace("{heading}", &heading)
    };
    if n.kind == "branch" {
        n.note = words.branch_note.to_string();
        n.detail = fill(words.branch_detail);
    } else {
        n.detail = fill(words.leaf_detail);
    }
    Ok(())
}

/// Checks a node that is not a link (a step, hub, decision or the root): no `link:`, and a
/// `detail:` unless it is the root, which cannot be selected and so has none.
fn check_plain(n: &Node) -> Result<(), DiagramError> {
    let err = at(n.line);
    if !n.href.is_empty() {
        return Err(at(n.link_line)(format!(
            "only branches and leaves of the chapter map have `link:`, not `{}`",
            n.id
        )));
    }
    if n.kind == "root" {
        if !n.detail.is_empty() {
            return Err(err(format!(
                "the root `{}` cannot be selected, so it has no `detail:`",
                n.id
            )));
        }
    } else if n.detail.is_empty() {
        return Err(err(format!(
            "node `{}` needs `detail:`, what selecting it explains",
            n.id
        )));
    }
    Ok(())
}

/// Resolves a chapter-map link: `lesson.md` (a branch) or `lesson.md#heading` (a leaf) →
/// (href, lesson title, heading text).
fn link(target: &str, leaf: bool, refs: &Refs) -> Result<(String, String, String), String> {
    if target.is_empty() {
        return Err(
            "a branch or leaf needs `link: <lesson>.md` (a leaf: `<lesson>.md#<heading>`)".into(),
        );
    }
    let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
    let slug = file
        .strip_suffix(".md")
        .ok_or_else(|| format!("link `{target}` must name a lesson file, `<lesson>.md`"))?;
    let (_, title, headings) = refs
        .lessons
        .iter()
        .find(|(s, _, _)| s == slug)
        .ok_or_else(|| format!("link `{target}`: no lesson `{file}` in SUMMARY.md"))?;
    if leaf == anchor.is_empty() {
        return Err(if leaf {
            format!("leaf link `{target}` must name a heading: `{file}#<heading>`")
        } else {
            format!("branch link `{target}` names the lesson alone: `{file}`")
        });
    }
    if anchor.is_empty() {
        return Ok((format!("{slug}/"), title.clone(), String::new()));
    }
    let (_, heading) = headings
        .iter()
        .find(|(id, _)| id == anchor)
        .ok_or_else(|| format!("link `{target}`: `{file}` has no heading `#{anchor}`"))?;
    Ok((format!("{slug}/#{anchor}"), title.clone(), heading.clone()))
}

/// The diagrams as Rust source: `DIAGRAM_WORDS`, for `src/app/diagrams/data.rs` to
/// include (it names the types: `DiagramWords`, `NodeWords`, `DecorName`, `Edge`, `Kind`,
/// `EdgeKind`).
pub fn emit_rust(diagrams: &[Diagram]) -> String {
    let mut out = String::from(
        "// Generated by build/main.rs from content/diagrams.md. Do not edit.\n\
         /// Every diagram's words, in the order of `content/diagrams.md`.\n\
         pub static DIAGRAM_WORDS: &[DiagramWords] = &[\n",
    );
    let pick = |table: &[(&str, &'static str)], word: &str| {
        table
            .iter()
            .find(|(w, _)| *w == word)
            .map_or("None", |(_, v)| v)
    };
    for d in diagrams {
        out.push_str(&format!(
            "    DiagramWords {{ name: {:?}, title: {:?}, summary: {:?}, hint: {:?},\n        nodes: &[\n",
            d.name, d.title, d.summary, d.hint
        ));
        for n in &d.nodes {
            out.push_str(&format!(
                "            NodeWords {{ id: {:?}, kind: Kind::{}, label: {:?}, note: {:?}, detail: {:?}, href: {:?}, decor: DecorName::{} }},\n",
                n.id,
                pick(&KINDS, &n.kind),
                n.label,
                n.note,
                n.detail,
                n.href,
                pick(&DECORS, &n.decor),
            ));
        }
        out.push_str("        ],\n        edges: &[\n");
        for e in &d.edges {
            out.push_str(&format!(
                "            Edge {{ from: {:?}, to: {:?}, label: {:?}, kind: EdgeKind::{} }},\n",
                e.from,
                e.to,
                e.label,
                pick(&EDGE_KINDS, &e.kind),
            ));
        }
        out.push_str("        ] },\n");
    }
    out.push_str("];\n");
    out
}
