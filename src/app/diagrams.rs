//! The course's diagrams, drawn at build time as SVG in the page's colours (CSS variables, so
//! they follow the theme). The build renders each one here, natively, into the pages that show
//! it ([`drawn_html`], through `static_page`); its markup then travels with the lesson's
//! text, so no widgets module carries a diagram and none has to start before it shows.
//!
//! Each diagram carries both of its layouts in `<template>`s, and each node's explanation in
//! another `<template>`; a line of script right after the layouts puts in the one that fits the
//! window before the page is first painted. A small script (`js/diagrams.js`) answers the
//! reader: it keeps the layout that fits the diagram's box (measured by a `ResizeObserver`), and
//! makes every node
//! keyboard-operable: a button (Enter or Space selects it and shows its explanation below the
//! picture) or, on the chapter map, a link to where the idea is explained.
//!
//! The words are data (`content/diagrams.md`, compiled at build time), the layouts are in
//! `diagrams/data.rs` and the geometry in `crate::logic::diagram`; this file only draws them.

pub mod data;

use crate::logic::diagram::{
    text_lines, Decor, Diagram, Edge, EdgeKind, Kind, Layout, Node, Rect, Route, LABEL_FONT,
    NOTE_FONT, PAD,
};
use crate::services::page::WidgetCard;
use leptos::prelude::*;

/// The diagram `name` (a directive name, see `content/diagrams.md`) as the page shows it, in
/// its card; `None` for a name that is not a diagram. Call it inside a reactive owner, as the
/// build's page render does.
pub fn drawn_html(name: &str) -> Option<String> {
    let diagram = data::diagram(name)?;
    Some(view! { <DiagramCard diagram /> }.to_html())
}

fn path_d(points: &[(f64, f64)]) -> String {
    points
        .iter()
        .enumerate()
        .map(|(i, (x, y))| format!("{}{x:.1} {y:.1}", if i == 0 { "M" } else { " L" }))
        .collect()
}

/// The shape of a node: a rounded box, or a diamond for a decision.
fn shape(kind: Kind, r: Rect, class: &'static str, grow: f64) -> AnyView {
    if kind == Kind::Decision {
        let (cx, cy) = (r.cx(), r.cy());
        let (hw, hh) = (r.w / 2.0 + grow * 1.4, r.h / 2.0 + grow * 1.4);
        let points = format!(
            "{cx:.1},{:.1} {:.1},{cy:.1} {cx:.1},{:.1} {:.1},{cy:.1}",
            cy - hh,
            cx + hw,
            cy + hh,
            cx - hw
        );
        view! { <polygon class=class points=points /> }.into_any()
    } else {
        view! {
            <rect class=class x=r.x - grow y=r.y - grow width=r.w + 2.0 * grow height=r.h + 2.0 * grow rx=8.0 + grow />
        }
        .into_any()
    }
}

/// The small drawing inside a node.
fn decor(decor: &Decor, r: Rect) -> AnyView {
    match decor {
        Decor::None => ().into_any(),
        Decor::Layers { adapted } => {
            let class = if *adapted { "dlayer adapted" } else { "dlayer" };
            let top = r.bottom() - PAD - crate::logic::diagram::decor_height(decor) + 6.0;
            let w = (r.w - 2.0 * PAD - 24.0).min(150.0);
            let x = r.cx() - w / 2.0;
            (0..4)
                .map(|i| {
                    let y = top + f64::from(i) * 13.0;
                    view! { <rect class=class x=x y=y width=w height=9.0 rx=3.0 /> }
                })
                .collect_view()
                .into_any()
        }
        Decor::Bars(values) => {
            let n = values.len() as f64;
            let (bw, gap, max_h) = (24.0, 12.0, 44.0);
            let total = n * bw + (n - 1.0) * gap;
            let x0 = r.cx() - total / 2.0;
            let base = r.bottom() - PAD - 14.0;
            let top = values.iter().cloned().fold(0.0, f64::max).max(1e-9);
            values
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let h = (p / top * max_h).max(2.0);
                    let x = x0 + i as f64 * (bw + gap);
                    view! {
                        <g>
                            <rect class="dbar" x=x y=base - h width=bw height=h rx=2.0 />
                            <text class="dbar-value" x=x + bw / 2.0 y=base - h - 4.0 text-anchor="middle" font-size=11.0>
                                {format!("{p:.2}")}
                            </text>
                            <text class="dbar-token" x=x + bw / 2.0 y=base + 12.0 text-anchor="middle" font-size=10.5>
                                {format!("t{i}")}
                            </text>
                        </g>
                    }
                })
                .collect_view()
                .into_any()
        }
    }
}

/// The text lines of a node.
fn label(node: &Node, r: Rect) -> impl IntoView {
    let anchor = if node.kind == Kind::Leaf {
        "start"
    } else {
        "middle"
    };
    text_lines(node, &r)
        .into_iter()
        .map(|l| {
            let (class, size) = if l.note {
                ("dnode-note", NOTE_FONT)
            } else {
                ("dnode-label", LABEL_FONT)
            };
            view! { <text class=class x=l.x y=l.y text-anchor=anchor font-size=size>{l.text}</text> }
        })
        .collect_view()
}

/// The picture in one layout. Its ids start with `prefix`, which is unique in the page (a
/// page shows a diagram at most once); the other layout reuses them, since only one of the two
/// is ever in the document.
fn picture(d: &Diagram, layout: &Layout, prefix: &str) -> impl IntoView {
    let arrows = (
        format!("url(#{prefix}-flow)"),
        format!("url(#{prefix}-loop)"),
    );
    let edge_views = d
        .edges
        .iter()
        .zip(&layout.routes)
        .map(|(e, route)| edge_view(e, route, &arrows))
        .collect_view();
    let detail_id = format!("{prefix}-detail");
    let node_views = d
        .nodes
        .iter()
        .zip(layout.boxes.iter().copied())
        .map(|(node, r)| node_view(node, r, &detail_id))
        .collect_view();
    let variant = if layout.width < 400.0 {
        "narrow"
    } else {
        "wide"
    };
    view! {
        <svg
            class="diagram-svg"
            data-layout=variant
            viewBox=format!("0 0 {} {}", layout.width, layout.height)
            width=layout.width
            height=layout.height
            role="group"
            aria-label=d.title
            aria-describedby=format!("{prefix}-desc")
        >
            <defs>
                <marker id=format!("{prefix}-flow") viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path class="darrow" d="M0,0 L10,5 L0,10 z" />
                </marker>
                <marker id=format!("{prefix}-loop") viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path class="darrow loop" d="M0,0 L10,5 L0,10 z" />
                </marker>
            </defs>
            {edge_views}
            {node_views}
        </svg>
    }
}

/// One edge along its route, with its label; `arrows` are the flow and loop arrowheads.
fn edge_view(e: &Edge, route: &Route, arrows: &(String, String)) -> impl IntoView {
    let class = match e.kind {
        EdgeKind::Flow => "dedge",
        EdgeKind::Loop => "dedge loop",
        EdgeKind::Compare => "dedge compare",
        EdgeKind::Link => "dedge link",
    };
    let end = match e.kind {
        EdgeKind::Flow => Some(arrows.0.clone()),
        EdgeKind::Loop => Some(arrows.1.clone()),
        _ => None,
    };
    let text = route.label.filter(|_| !e.label.is_empty()).map(|s| {
        let rotate = s
            .vertical
            .then(|| format!("rotate(-90 {:.1} {:.1})", s.x, s.y));
        let class = if e.kind == EdgeKind::Loop {
            "dedge-label loop"
        } else {
            "dedge-label"
        };
        view! {
            <text class=class x=s.x y=s.y text-anchor=s.anchor transform=rotate font-size=NOTE_FONT>
                {e.label}
            </text>
        }
    });
    view! {
        <g>
            <path class=class d=path_d(&route.points) marker-end=end />
            {text}
        </g>
    }
}

/// One node in its box: a link to its lesson, a button that shows its detail (`detail_id`),
/// or the root, which only stands there.
fn node_view(node: &Node, r: Rect, detail_id: &str) -> AnyView {
    let kind_class = match node.kind {
        Kind::Step => "dnode step",
        Kind::Hub => "dnode hub",
        Kind::Decision => "dnode decision",
        Kind::Branch => "dnode branch",
        Kind::Leaf => "dnode leaf",
        Kind::Root => "dnode root",
    };
    let body = view! {
        {shape(node.kind, r, "dnode-ring", 4.0)}
        {shape(node.kind, r, "dnode-shape", 0.0)}
        {label(node, r)}
        {decor(&node.decor, r)}
    };
    match (node.kind, node.href.clone()) {
        (Kind::Root, _) => {
            view! { <g class=kind_class data-node=node.id aria-hidden="true">{body}</g> }.into_any()
        }
        // The accessible name is the words on screen (WCAG 2.5.3); the explanation is in
        // the detail panel, shown when the link has focus or the pointer.
        (_, Some(href)) => view! {
            <g>
                <a class=kind_class href=href data-node=node.id>{body}</a>
            </g>
        }
        .into_any(),
        // The accessible name is the words on screen (WCAG 2.5.3).
        (_, None) => view! {
            <g
                class=kind_class
                role="button"
                tabindex="0"
                data-node=node.id
                aria-controls=detail_id.to_string()
                aria-pressed="false"
            >
                {body}
            </g>
        }
        .into_any(),
    }
}

/// What the detail panel shows for `node`: its label (with its note, for a node that is not a
/// link, whose note is on screen already), then its explanation.
fn detail(node: &Node) -> impl IntoView {
    let note = (!node.note.is_empty() && node.href.is_none()).then(|| {
        view! { <span class="diagram-detail-note">{node.note.clone()}</span> }
    });
    view! {
        <div data-for=node.id>
            <p class="diagram-detail-title">
                <strong>{node.label.clone()}</strong>
                {note}
            </p>
            <p class="diagram-detail-text">{node.detail.clone()}</p>
        </div>
    }
}

/// The line of script the build writes right after a diagram's two layouts (`js/diagram-layout.js`,
/// where the why is): it puts in the one that fits the window as the page is read, so that the page
/// is never painted with the other. The same text on every page: one hash in the CSP. The file's
/// comment lines are left out.
pub fn first_layout() -> &'static str {
    include_str!("../../js/diagram-layout.js")
        .lines()
        .rfind(|l| !l.trim().is_empty() && !l.starts_with("//"))
        .unwrap_or_default()
}

/// A diagram in its card: both layouts of the picture in `<template>`s, with the script that
/// puts in the one that fits ([`first_layout`]) and, for a reader without JavaScript, the wide
/// one drawn; its text alternative, the panel that explains the selected node, and each node's
/// explanation (in a `<template>`, for the script to show).
#[component]
fn DiagramCard(diagram: Diagram) -> impl IntoView {
    let name = diagram.name;
    let prefix = format!("diagram-{name}");
    let links = diagram.nodes.iter().any(|n| n.href.is_some());
    let details = diagram.nodes.iter().map(detail).collect_view();
    view! {
        <WidgetCard title=diagram.title name=name heading_id=format!("{prefix}-title")>
            <div class="diagram" data-testid=prefix.clone()>
                <p class="diagram-sr" id=format!("{prefix}-desc")>{diagram.description()}</p>
                <div class="diagram-box">
                    <template data-layout="wide">{picture(&diagram, &diagram.wide, &prefix)}</template>
                    <template data-layout="narrow">{picture(&diagram, &diagram.narrow, &prefix)}</template>
                    <script inner_html=first_layout()></script>
                    <noscript>{picture(&diagram, &diagram.wide, &prefix)}</noscript>
                </div>
                <div
                    class="diagram-detail"
                    id=format!("{prefix}-detail")
                    data-testid="diagram-detail"
                    aria-live=if links { "off" } else { "polite" }
                >
                    <p class="diagram-hint">{diagram.hint}</p>
                </div>
                <template class="diagram-details">{details}</template>
            </div>
        </WidgetCard>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(name: &str) -> String {
        Owner::new().with(|| drawn_html(name)).unwrap_or_default()
    }

    #[test]
    fn every_drawn_widget_carries_both_layouts_and_every_explanation() {
        for name in data::names() {
            let html = drawn(name);
            let d = data::diagram(name).unwrap_or_else(|| panic!("no diagram {name}"));
            assert!(
                html.starts_with(&format!("<section data-widget=\"{name}\"")),
                "{name}"
            );
            assert!(
                html.contains(&format!("data-testid=\"diagram-{name}\"")),
                "{name}"
            );
            // Both layouts wait in templates, then the script that puts one in, then the wide
            // one for a reader without JavaScript.
            assert_eq!(html.matches("<svg").count(), 3, "{name}");
            let wide_at = html.find("<template data-layout=\"wide\">").expect(name);
            let narrow_at = html.find("<template data-layout=\"narrow\">").expect(name);
            let script_at = html.find("<script>").expect(name);
            let noscript_at = html.find("<noscript>").expect(name);
            assert!(wide_at < narrow_at && narrow_at < script_at && script_at < noscript_at);
            assert!(
                html[wide_at..narrow_at].contains("<svg data-layout=\"wide\""),
                "{name}"
            );
            assert!(
                html[narrow_at..script_at].contains("<svg data-layout=\"narrow\""),
                "{name}"
            );
            assert!(
                html[script_at..].starts_with(&format!("<script>{}</script>", first_layout())),
                "{name}"
            );
            assert!(
                html[noscript_at..].contains("<svg data-layout=\"wide\""),
                "{name}"
            );
            // Each node's explanation, by its id, in the details template.
            let details_at = html
                .find("<template class=\"diagram-details\">")
                .expect(name);
            for node in &d.nodes {
                assert!(
                    html[details_at..].contains(&format!("<div data-for=\"{}\">", node.id)),
                    "{name} {}",
                    node.id
                );
                if node.href.is_none() && node.kind != Kind::Root {
                    assert!(
                        html.contains(&format!(
                            "data-node=\"{}\" aria-controls=\"diagram-{name}-detail\" aria-pressed=\"false\"",
                            node.id
                        )),
                        "{name} {}",
                        node.id
                    );
                }
            }
            // Ids come from the name, not a counter, so the page and the widgets the app mounts
            // never share one.
            assert!(
                html.contains(&format!("id=\"diagram-{name}-title\"")),
                "{name}"
            );
            assert!(!html.contains("id=\"widget-"), "{name}");
            assert!(html.contains(d.hint), "{name}");
        }
        assert_eq!(Owner::new().with(|| drawn_html("nope")), None);
    }
}
