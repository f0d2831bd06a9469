//! The shape of a diagram, and where its pieces go, with no web types: the view
//! (`app/diagrams.rs`) only draws what [`Diagram::scene`] returns.
//!
//! A diagram is nodes (each with a short label and an explanation) and edges between them. It has
//! two layouts: a wide one for the text column on a desktop, and a narrow, mostly vertical one for
//! phones. Coordinates are SVG user units; the SVG scales to its box, so at the narrow layout's
//! width one unit is about one CSS pixel.

/// Average width of a character of the UI font, as a share of the font size. Generous, so a
/// line that fits by this estimate fits in the browser too.
pub const CHAR_WIDTH_EM: f64 = 0.56;
/// Font size of node labels (user units).
pub const LABEL_FONT: f64 = 15.0;
/// Font size of node notes and edge labels (user units).
pub const NOTE_FONT: f64 = 12.5;
/// Distance between two lines of text, as a share of the font size.
pub const LINE_HEIGHT_EM: f64 = 1.25;
/// Space between a box's edge and its text (user units).
pub const PAD: f64 = 10.0;

/// A rectangle in user units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    /// A rectangle from its left, top, width and height.
    pub const fn new(x: f64, y: f64, w: f64, h: f64) -> Self {
        Rect { x, y, w, h }
    }
    /// Horizontal centre.
    pub fn cx(&self) -> f64 {
        self.x + self.w / 2.0
    }
    /// Vertical centre.
    pub fn cy(&self) -> f64 {
        self.y + self.h / 2.0
    }
    /// Right edge.
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
    /// True when the two rectangles share any area.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.right() && o.x < self.right() && self.y < o.bottom() && o.y < self.bottom()
    }
    /// True when `(x, y)` lies on the rectangle's outline (within half a unit).
    pub fn on_outline(&self, (x, y): (f64, f64)) -> bool {
        let near = |a: f64, b: f64| (a - b).abs() <= 0.5;
        let within = |v: f64, lo: f64, hi: f64| v >= lo - 0.5 && v <= hi + 0.5;
        ((near(x, self.x) || near(x, self.right())) && within(y, self.y, self.bottom()))
            || ((near(y, self.y) || near(y, self.bottom())) && within(x, self.x, self.right()))
    }
}

/// How a node looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An ordinary step or idea: a rounded box.
    Step,
    /// The centre of a diagram: a filled box.
    Hub,
    /// A question with several answers: a diamond inside its box.
    Decision,
    /// A section of the chapter map (a link to its lesson).
    Branch,
    /// An idea on the chapter map (a link to where it is explained).
    Leaf,
    /// A title that is not selectable (the chapter map's root).
    Root,
}

/// A small drawing inside a node, below its label.
#[derive(Debug, Clone, PartialEq)]
pub enum Decor {
    None,
    /// A stack of layers; `adapted` colours them as changed weights.
    Layers {
        adapted: bool,
    },
    /// Probability bars, one per token, with their values.
    Bars(Vec<f64>),
}

/// A node: what it says, and what selecting it explains.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// `data-node` value: a stable slug.
    pub id: &'static str,
    /// The text in the box.
    pub label: String,
    /// A smaller second line in the box (may be empty).
    pub note: String,
    /// The explanation shown when the node is selected (for links: where it leads).
    pub detail: String,
    /// For branches and leaves of the chapter map: where the node leads, relative to the
    /// document base (`model-selection/#example-1-weight-memory`).
    pub href: Option<String>,
    pub kind: Kind,
    pub decor: Decor,
}

/// A drawing as `content/diagrams.md` names it (`decor: layers`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecorName {
    /// No drawing.
    None,
    /// A stack of layers.
    Layers,
    /// A stack of layers coloured as changed weights.
    AdaptedLayers,
    /// The distillation playground's teacher probabilities as bars.
    TeacherBars,
}

impl DecorName {
    /// The drawing itself.
    pub fn decor(self) -> Decor {
        match self {
            DecorName::None => Decor::None,
            DecorName::Layers => Decor::Layers { adapted: false },
            DecorName::AdaptedLayers => Decor::Layers { adapted: true },
            DecorName::TeacherBars => Decor::Bars(super::distill::SEED_PRESET.teacher.to_vec()),
        }
    }
}

/// A node's words, compiled from `content/diagrams.md` by the build script.
#[derive(Debug)]
pub struct NodeWords {
    /// `data-node` value: a stable slug.
    pub id: &'static str,
    /// How it looks.
    pub kind: Kind,
    /// The text in the box.
    pub label: &'static str,
    /// A smaller second line (may be empty).
    pub note: &'static str,
    /// What selecting it explains.
    pub detail: &'static str,
    /// Where it leads, relative to the document base; empty when it is not a link.
    pub href: &'static str,
    /// The drawing in its box.
    pub decor: DecorName,
}

impl NodeWords {
    /// The node these words make.
    pub fn node(&self) -> Node {
        Node {
            id: self.id,
            label: self.label.into(),
            note: self.note.into(),
            detail: self.detail.into(),
            href: (!self.href.is_empty()).then(|| self.href.into()),
            kind: self.kind,
            decor: self.decor.decor(),
        }
    }
}

/// A diagram's words, compiled from `content/diagrams.md` by the build script: everything a
/// reader reads, and which nodes the edges join. The layouts are code.
#[derive(Debug)]
pub struct DiagramWords {
    /// Directive name.
    pub name: &'static str,
    /// The card's title.
    pub title: &'static str,
    /// What the diagram shows, for screen readers and the caption.
    pub summary: &'static str,
    /// What the detail panel says before anything is selected.
    pub hint: &'static str,
    /// Nodes, in drawing order.
    pub nodes: &'static [NodeWords],
    /// Edges, in drawing order (none for a tree: its edges follow from it).
    pub edges: &'static [Edge],
}

/// What an edge means, which sets how it is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeKind {
    /// One step leads to the next: a line with an arrow.
    Flow,
    /// Back to an earlier step: an accent-coloured dashed line with an arrow.
    Loop,
    /// A comparison: a dashed line, no arrow.
    Compare,
    /// Belongs to: a thin line, no arrow.
    Link,
}

/// An edge between two nodes, by id.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub from: &'static str,
    pub to: &'static str,
    /// Words on the edge (may be empty).
    pub label: &'static str,
    pub kind: EdgeKind,
}

/// Where an edge label sits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelSpot {
    pub x: f64,
    pub y: f64,
    /// `start`, `middle` or `end` (SVG `text-anchor`).
    pub anchor: &'static str,
    /// Drawn vertically, reading upwards, along a vertical line.
    pub vertical: bool,
}

impl LabelSpot {
    /// A horizontal label.
    pub const fn at(x: f64, y: f64, anchor: &'static str) -> Self {
        LabelSpot {
            x,
            y,
            anchor,
            vertical: false,
        }
    }
    /// A label reading upwards along a vertical line.
    pub const fn up(x: f64, y: f64) -> Self {
        LabelSpot {
            x,
            y,
            anchor: "middle",
            vertical: true,
        }
    }
}

/// The drawn path of an edge: points from the source's outline to the target's.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub points: Vec<(f64, f64)>,
    pub label: Option<LabelSpot>,
}

/// One arrangement of a diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    /// One box per node, in node order.
    pub boxes: Vec<Rect>,
    /// One route per edge, in edge order.
    pub routes: Vec<Route>,
}

/// A diagram: its words, and its two layouts.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagram {
    /// Directive name, also the `data-testid` suffix (`diagram-<name>`).
    pub name: &'static str,
    /// The card's title.
    pub title: &'static str,
    /// One or two sentences saying what the diagram shows, for screen readers and the caption.
    pub summary: &'static str,
    /// What the detail panel says before anything is selected.
    pub hint: &'static str,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub wide: Layout,
    pub narrow: Layout,
}

/// A line of text placed in a node.
#[derive(Debug, Clone, PartialEq)]
pub struct TextLine {
    pub x: f64,
    pub y: f64,
    pub text: String,
    /// True for the smaller, muted note lines.
    pub note: bool,
}

/// How many characters fit on a line `width` units wide at `font` size.
pub fn chars_per_line(width: f64, font: f64) -> usize {
    ((width / (font * CHAR_WIDTH_EM)).floor() as usize).max(1)
}

/// Splits `text` into lines of at most `max` characters, breaking at spaces. A word longer than
/// `max` gets a line of its own.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The width available for text in a node's box (a diamond has less room than its box).
fn text_width(kind: Kind, r: &Rect) -> f64 {
    match kind {
        Kind::Decision => r.w * 0.62 - 2.0 * PAD,
        _ => r.w - 2.0 * PAD,
    }
}

/// Height of the drawing below a label, for nodes with a decor.
pub fn decor_height(decor: &Decor) -> f64 {
    match decor {
        Decor::None => 0.0,
        Decor::Layers { .. } => 58.0,
        Decor::Bars(_) => 78.0,
    }
}

/// The lines of a node's label and note, placed in `r`: centred, except chapter-map leaves,
/// which read left-aligned. A node with a decor puts its text at the top, above the drawing.
pub fn text_lines(node: &Node, r: &Rect) -> Vec<TextLine> {
    let width = text_width(node.kind, r);
    let label = wrap(&node.label, chars_per_line(width, LABEL_FONT));
    let note = wrap(&node.note, chars_per_line(width, NOTE_FONT));
    let label_step = LABEL_FONT * LINE_HEIGHT_EM;
    let note_step = NOTE_FONT * LINE_HEIGHT_EM;
    let block = label.len() as f64 * label_step + note.len() as f64 * note_step;
    let top = if node.decor == Decor::None {
        r.cy() - block / 2.0
    } else {
        r.y + PAD
    };
    let x = if node.kind == Kind::Leaf {
        r.x + PAD
    } else {
        r.cx()
    };
    // Baselines sit about 0.8 of a line below the top of each line.
    let mut y = top;
    let mut out = Vec::new();
    for (lines, step, note) in [(label, label_step, false), (note, note_step, true)] {
        for text in lines {
            out.push(TextLine {
                x,
                y: y + step * 0.78,
                text,
                note,
            });
            y += step;
        }
    }
    out
}

/// Height a node of `kind` needs to hold its text at `width`, plus its decor.
pub fn needed_height(node: &Node, width: f64) -> f64 {
    let r = Rect::new(0.0, 0.0, width, 0.0);
    let w = text_width(node.kind, &r);
    let label = wrap(&node.label, chars_per_line(w, LABEL_FONT)).len() as f64;
    let note = wrap(&node.note, chars_per_line(w, NOTE_FONT)).len() as f64;
    let text = label * LABEL_FONT * LINE_HEIGHT_EM + note * NOTE_FONT * LINE_HEIGHT_EM;
    let extra = decor_height(&node.decor);
    let h = text + 2.0 * PAD + extra;
    if node.kind == Kind::Decision {
        // The diamond's text band is about its middle half.
        h * 1.9
    } else {
        h
    }
}

impl Diagram {
    /// The node with `id`, and its index.
    pub fn node(&self, id: &str) -> Option<(usize, &Node)> {
        self.nodes.iter().enumerate().find(|(_, n)| n.id == id)
    }

    /// The layout for a box `narrow` or not.
    pub fn layout(&self, narrow: bool) -> &Layout {
        if narrow {
            &self.narrow
        } else {
            &self.wide
        }
    }

    /// The diagram in words: its summary, then each connection. This is the text alternative
    /// that screen readers get, and the same words as the picture.
    pub fn description(&self) -> String {
        let label = |id: &str| {
            self.node(id)
                .map(|(_, n)| n.label.clone())
                .unwrap_or_default()
        };
        let mut out = String::from(self.summary);
        let links: Vec<String> = self
            .edges
            .iter()
            // Links to other pages speak for themselves (their names say where they lead).
            .filter(|e| self.node(e.to).is_some_and(|(_, n)| n.href.is_none()))
            .map(|e| {
                let verb = match e.kind {
                    EdgeKind::Loop => "loops back to",
                    EdgeKind::Compare => "is compared with",
                    EdgeKind::Link => "is joined to",
                    EdgeKind::Flow => "leads to",
                };
                let how = if e.label.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", e.label)
                };
                format!("{} {verb} {}{how}", label(e.from), label(e.to))
            })
            .collect();
        if !links.is_empty() {
            out.push_str(" Connections: ");
            out.push_str(&links.join("; "));
            out.push('.');
        }
        out
    }

    /// Every problem with the diagram's data and layouts, in words (empty when it is sound).
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut ids: Vec<&str> = self.nodes.iter().map(|n| n.id).collect();
        ids.sort_unstable();
        if ids.windows(2).any(|w| matches!(w, [a, b] if a == b)) {
            out.push(format!("{}: duplicate node ids", self.name));
        }
        for e in &self.edges {
            for end in [e.from, e.to] {
                if self.node(end).is_none() {
                    out.push(format!("{}: edge names unknown node {end}", self.name));
                }
            }
        }
        for (variant, layout) in [("wide", &self.wide), ("narrow", &self.narrow)] {
            let at = format!("{} ({variant})", self.name);
            if layout.boxes.len() != self.nodes.len() {
                out.push(format!(
                    "{at}: {} boxes for {} nodes",
                    layout.boxes.len(),
                    self.nodes.len()
                ));
                continue;
            }
            if layout.routes.len() != self.edges.len() {
                out.push(format!(
                    "{at}: {} routes for {} edges",
                    layout.routes.len(),
                    self.edges.len()
                ));
                continue;
            }
            for (i, (node, r)) in self.nodes.iter().zip(&layout.boxes).enumerate() {
                if r.x < 0.0 || r.y < 0.0 || r.right() > layout.width || r.bottom() > layout.height
                {
                    out.push(format!("{at}: {} leaves the picture", node.id));
                }
                let width = text_width(node.kind, r);
                for (text, font) in [(&node.label, LABEL_FONT), (&node.note, NOTE_FONT)] {
                    let max = chars_per_line(width, font);
                    if wrap(text, max).iter().any(|l| l.chars().count() > max) {
                        out.push(format!("{at}: a word of {} is wider than its box", node.id));
                    }
                }
                if needed_height(node, r.w) > r.h + 0.5 {
                    out.push(format!(
                        "{at}: {} needs {:.0} units of height, has {:.0}",
                        node.id,
                        needed_height(node, r.w),
                        r.h
                    ));
                }
                for (other, o) in self.nodes.iter().zip(&layout.boxes).skip(i + 1) {
                    if r.overlaps(o) {
                        out.push(format!("{at}: {} overlaps {}", node.id, other.id));
                    }
                }
            }
            for (e, route) in self.edges.iter().zip(&layout.routes) {
                let from_box = self.node(e.from).and_then(|(i, _)| layout.boxes.get(i));
                let to_box = self.node(e.to).and_then(|(i, _)| layout.boxes.get(i));
                let (Some(from_box), Some(to_box)) = (from_box, to_box) else {
                    continue;
                };
                let (Some(first), Some(last)) = (route.points.first(), route.points.last()) else {
                    out.push(format!("{at}: edge {}-{} has no points", e.from, e.to));
                    continue;
                };
                if route.points.len() < 2 {
                    out.push(format!("{at}: edge {}-{} has one point", e.from, e.to));
                }
                // Edges without arrows may start and end under the boxes; arrows must touch.
                if matches!(e.kind, EdgeKind::Flow | EdgeKind::Loop) {
                    if !from_box.on_outline(*first) {
                        out.push(format!(
                            "{at}: edge {}-{} does not start on {}",
                            e.from, e.to, e.from
                        ));
                    }
                    if !to_box.on_outline(*last) {
                        out.push(format!(
                            "{at}: edge {}-{} does not end on {}",
                            e.from, e.to, e.to
                        ));
                    }
                }
                for &(x, y) in &route.points {
                    if x < 0.0 || y < 0.0 || x > layout.width || y > layout.height {
                        out.push(format!("{at}: edge {}-{} leaves the picture", e.from, e.to));
                    }
                }
            }
        }
        out
    }
}

/// The chapter map's layouts, computed from its tree: the root, then each branch with its
/// leaves. `tree` lists, per branch, the branch's node index and its leaves' indices; an index
/// out of range is left out.
pub fn tree_layouts(
    nodes: &[Node],
    root: usize,
    tree: &[(usize, Vec<usize>)],
) -> (Layout, Layout, Vec<Edge>) {
    let id = |i: usize| nodes.get(i).map(|n| n.id);
    let link = |from, to| Edge {
        from,
        to,
        label: "",
        kind: EdgeKind::Link,
    };
    let mut edges = Vec::new();
    for (b, leaves) in tree {
        let Some(branch) = id(*b) else { continue };
        edges.extend(id(root).map(|r| link(r, branch)));
        edges.extend(
            leaves
                .iter()
                .filter_map(|l| id(*l))
                .map(|l| link(branch, l)),
        );
    }
    (
        tree_wide(nodes, root, tree),
        tree_narrow(nodes, root, tree),
        edges,
    )
}

fn elbow(from: (f64, f64), mid_x: f64, to: (f64, f64)) -> Route {
    Route {
        points: vec![from, (mid_x, from.1), (mid_x, to.1), to],
        label: None,
    }
}

/// Boxes being placed, one per node: each starts empty and is set once.
struct Boxes<'a> {
    nodes: &'a [Node],
    boxes: Vec<Rect>,
}

impl<'a> Boxes<'a> {
    fn new(nodes: &'a [Node]) -> Self {
        Boxes {
            nodes,
            boxes: vec![Rect::new(0.0, 0.0, 0.0, 0.0); nodes.len()],
        }
    }

    /// Height node `i` needs at `width`, at least `min`.
    fn height(&self, i: usize, width: f64, min: f64) -> f64 {
        self.nodes
            .get(i)
            .map_or(min, |n| needed_height(n, width).max(min))
    }

    /// Places node `i` at `r`.
    fn set(&mut self, i: usize, r: Rect) {
        if let Some(b) = self.boxes.get_mut(i) {
            *b = r;
        }
    }

    /// Node `i`'s box (empty if there is no such node).
    fn get(&self, i: usize) -> Rect {
        self.boxes
            .get(i)
            .copied()
            .unwrap_or(Rect::new(0.0, 0.0, 0.0, 0.0))
    }
}

/// Root on the left, branches in a column, leaves to their right.
fn tree_wide(nodes: &[Node], root: usize, tree: &[(usize, Vec<usize>)]) -> Layout {
    // Narrower than the other diagrams' 720, so that the map's many words draw larger.
    const WIDTH: f64 = 600.0;
    const ROOT: Rect = Rect::new(2.0, 0.0, 116.0, 0.0);
    const BRANCH_X: f64 = 136.0;
    const BRANCH_W: f64 = 150.0;
    const LEAF_X: f64 = 304.0;
    const LEAF_W: f64 = WIDTH - LEAF_X - 4.0;
    const GAP: f64 = 8.0;
    const GROUP_GAP: f64 = 20.0;
    let mut boxes = Boxes::new(nodes);
    let mut routes = Vec::new();
    let mut y = 4.0;
    for (b, leaves) in tree {
        let top = y;
        for l in leaves {
            let h = boxes.height(*l, LEAF_W, 36.0);
            boxes.set(*l, Rect::new(LEAF_X, y, LEAF_W, h));
            y += h + GAP;
        }
        let bottom = y - GAP;
        let h = boxes.height(*b, BRANCH_W, 48.0);
        boxes.set(
            *b,
            Rect::new(BRANCH_X, (top + bottom) / 2.0 - h / 2.0, BRANCH_W, h),
        );
        y += GROUP_GAP - GAP;
    }
    let height = y - GROUP_GAP + 4.0;
    let first = tree.first().map(|(b, _)| boxes.get(*b).cy()).unwrap_or(0.0);
    let last = tree.last().map(|(b, _)| boxes.get(*b).cy()).unwrap_or(0.0);
    let rh = boxes.height(root, ROOT.w, 56.0);
    boxes.set(
        root,
        Rect::new(ROOT.x, (first + last) / 2.0 - rh / 2.0, ROOT.w, rh),
    );
    let r = boxes.get(root);
    for (b, leaves) in tree {
        let br = boxes.get(*b);
        routes.push(elbow(
            (r.right(), r.cy()),
            (r.right() + br.x) / 2.0,
            (br.x, br.cy()),
        ));
        for l in leaves {
            let lr = boxes.get(*l);
            routes.push(elbow(
                (br.right(), br.cy()),
                (br.right() + lr.x) / 2.0,
                (lr.x, lr.cy()),
            ));
        }
    }
    Layout {
        width: WIDTH,
        height,
        boxes: boxes.boxes,
        routes,
    }
}

/// An indented outline: root on top, each branch below it, its leaves indented under it.
fn tree_narrow(nodes: &[Node], root: usize, tree: &[(usize, Vec<usize>)]) -> Layout {
    const WIDTH: f64 = 340.0;
    const BRANCH_X: f64 = 18.0;
    const LEAF_X: f64 = 44.0;
    const GAP: f64 = 8.0;
    let mut boxes = Boxes::new(nodes);
    let mut routes = Vec::new();
    let rh = boxes.height(root, WIDTH - 4.0, 40.0);
    boxes.set(root, Rect::new(2.0, 2.0, WIDTH - 4.0, rh));
    let mut y = 2.0 + rh + GAP + 4.0;
    for (b, leaves) in tree {
        let bw = WIDTH - BRANCH_X - 2.0;
        let h = boxes.height(*b, bw, 40.0);
        boxes.set(*b, Rect::new(BRANCH_X, y, bw, h));
        y += h + GAP;
        for l in leaves {
            let lw = WIDTH - LEAF_X - 2.0;
            let h = boxes.height(*l, lw, 36.0);
            boxes.set(*l, Rect::new(LEAF_X, y, lw, h));
            y += h + GAP;
        }
        y += 8.0;
    }
    let r = boxes.get(root);
    for (b, leaves) in tree {
        let br = boxes.get(*b);
        let spine = (r.x + BRANCH_X) / 2.0 + 1.0;
        routes.push(Route {
            points: vec![(spine, r.bottom()), (spine, br.cy()), (br.x, br.cy())],
            label: None,
        });
        for l in leaves {
            let lr = boxes.get(*l);
            let spine = (BRANCH_X + LEAF_X) / 2.0 + 2.0;
            routes.push(Route {
                points: vec![(spine, br.bottom()), (spine, lr.cy()), (lr.x, lr.cy())],
                label: None,
            });
        }
    }
    Layout {
        width: WIDTH,
        height: y - 8.0,
        boxes: boxes.boxes,
        routes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_and_keeps_every_word() {
        assert_eq!(
            wrap("Define evals for the product", 12),
            ["Define evals", "for the", "product"]
        );
        assert_eq!(
            wrap("supercalifragilistic is long", 5),
            ["supercalifragilistic", "is", "long"]
        );
        assert!(wrap("   ", 10).is_empty());
        let text = "one two three four five six seven";
        assert_eq!(wrap(text, 9).join(" "), text);
    }

    #[test]
    fn outline_test_accepts_edges_and_rejects_the_inside() {
        let r = Rect::new(10.0, 10.0, 100.0, 50.0);
        assert!(r.on_outline((60.0, 10.0)));
        assert!(r.on_outline((110.0, 35.0)));
        assert!(!r.on_outline((60.0, 35.0)));
        assert!(!r.on_outline((200.0, 10.0)));
        assert!(r.overlaps(&Rect::new(100.0, 50.0, 20.0, 20.0)));
        assert!(!r.overlaps(&Rect::new(110.0, 10.0, 20.0, 20.0)));
    }
}
