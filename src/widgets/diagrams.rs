//! The course's diagrams, drawn as SVG in the page's colours (CSS variables, so they follow the
//! theme). Every node is keyboard-operable: a button (Enter or Space selects it and shows its
//! explanation below the picture) or, on the chapter map, a link to where the idea is explained.
//!
//! The words are data (`content/diagrams.md`, compiled at build time), the layouts are in
//! `diagrams/data.rs` and the geometry in `crate::logic::diagram`; this file only draws them.

pub mod data;

use super::controls::{unique_id, WidgetCard};
use crate::content::WidgetParams;
use crate::logic::diagram::{
    text_lines, Decor, Diagram, EdgeKind, Kind, Layout, Node, Rect, LABEL_FONT, NOTE_FONT, PAD,
};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Below this width (CSS pixels) of its box, a diagram uses its narrow, vertical layout.
const NARROW_BELOW_PX: i32 = 520;

/// What the page's margins and the card's padding take from the window's width around a
/// diagram on a narrow screen (up to about 600 px the box is the window's width less this).
const MARGINS_PX: i32 = 77;

/// The layout to draw first, guessed from the window's width: reading it lays nothing out, and a
/// diagram first drawn in the layout it keeps is drawn once. Its own box decides after that.
fn narrow_at_first() -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w - f64::from(MARGINS_PX) < f64::from(NARROW_BELOW_PX))
}

/// Mounts the five-inputs diagram (overview).
pub fn mount_five_inputs(_: WidgetParams) -> AnyView {
    view! { <DiagramCard name="five-inputs" /> }.into_any()
}
/// Mounts the pre-trained → fine-tuned diagram (Example 3).
pub fn mount_fine_tune(_: WidgetParams) -> AnyView {
    view! { <DiagramCard name="fine-tune-diagram" /> }.into_any()
}
/// Mounts the teacher → student diagram (Example 4).
pub fn mount_distill(_: WidgetParams) -> AnyView {
    view! { <DiagramCard name="distill-diagram" /> }.into_any()
}
/// Mounts the decision path (Example 5).
pub fn mount_decision_path(_: WidgetParams) -> AnyView {
    view! { <DiagramCard name="decision-path" /> }.into_any()
}
/// Mounts the chapter map.
pub fn mount_chapter_map(_: WidgetParams) -> AnyView {
    view! { <DiagramCard name="chapter-map" /> }.into_any()
}

fn path_d(points: &[(f64, f64)]) -> String {
    points
        .iter()
        .enumerate()
        .map(|(i, (x, y))| format!("{}{x:.1} {y:.1}", if i == 0 { "M" } else { " L" }))
        .collect()
}

/// Follows a chapter-map link inside the app (no reload), or lets the browser do it.
fn open(href: &str) {
    // The widgets run in their own module, outside the shell's router: ask the shell to go
    // (see `app::router::NAVIGATE_EVENT`); it answers false when it cannot.
    if !crate::app::router::ask_shell_to_go(href) {
        if let Some(w) = web_sys::window() {
            let base = w
                .document()
                .and_then(|d| d.base_uri().ok().flatten())
                .unwrap_or_default();
            if let Ok(url) = web_sys::Url::new_with_base(href, &base) {
                let _ = w.location().set_href(&url.href());
            }
        }
    }
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

/// The picture for one layout.
fn picture(
    d: StoredValue<Diagram>,
    layout: Layout,
    selected: RwSignal<Option<usize>>,
    ids: (String, String, String),
) -> impl IntoView {
    let (marker, desc_id, detail_id) = ids;
    let arrow = format!("url(#{marker}-flow)");
    let arrow_loop = format!("url(#{marker}-loop)");
    let (nodes, edges, title) = d.with_value(|d| (d.nodes.clone(), d.edges.clone(), d.title));
    let edge_views = edges
        .iter()
        .zip(&layout.routes)
        .map(|(e, route)| {
            let class = match e.kind {
                EdgeKind::Flow => "dedge",
                EdgeKind::Loop => "dedge loop",
                EdgeKind::Compare => "dedge compare",
                EdgeKind::Link => "dedge link",
            };
            let end = match e.kind {
                EdgeKind::Flow => Some(arrow.clone()),
                EdgeKind::Loop => Some(arrow_loop.clone()),
                _ => None,
            };
            let text = route.label.filter(|_| !e.label.is_empty()).map(|s| {
                let rotate = s.vertical.then(|| format!("rotate(-90 {:.1} {:.1})", s.x, s.y));
                let class = if e.kind == EdgeKind::Loop { "dedge-label loop" } else { "dedge-label" };
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
        })
        .collect_view();
    let node_views = nodes
        .into_iter()
        .zip(layout.boxes.iter().copied())
        .enumerate()
        .map(|(i, (node, r))| {
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
                {label(&node, r)}
                {decor(&node.decor, r)}
            };
            match (node.kind, node.href.clone()) {
                (Kind::Root, _) => view! { <g class=kind_class data-node=node.id aria-hidden="true">{body}</g> }.into_any(),
                (_, Some(href)) => {
                    // The accessible name is the words on screen (WCAG 2.5.3); the
                    // explanation is in the detail panel the node selects.
                    let go = href.clone();
                    let go_key = href.clone();
                    view! {
                        <g>
                            <a
                                class=kind_class
                                href=href
                                data-node=node.id
                                on:focus=move |_| selected.set(Some(i))
                                on:mouseenter=move |_| selected.set(Some(i))
                                on:click=move |ev: web_sys::MouseEvent| {
                                    if ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key()) {
                                        ev.prevent_default();
                                        open(&go);
                                    }
                                }
                                on:keydown=move |ev: web_sys::KeyboardEvent| {
                                    if ev.key() == " " || ev.key() == "Enter" {
                                        ev.prevent_default();
                                        open(&go_key);
                                    }
                                }
                            >
                                {body}
                            </a>
                        </g>
                    }
                    .into_any()
                }
                (_, None) => {
                    // The accessible name is the words on screen (WCAG 2.5.3).
                    let controls = detail_id.clone();
                    view! {
                        <g
                            class=kind_class
                            role="button"
                            tabindex="0"
                            data-node=node.id
                            aria-controls=controls
                            aria-pressed=move || (selected.get() == Some(i)).to_string()
                            on:click=move |_| selected.set(Some(i))
                            on:keydown=move |ev: web_sys::KeyboardEvent| {
                                if ev.key() == " " || ev.key() == "Enter" {
                                    ev.prevent_default();
                                    selected.set(Some(i));
                                }
                            }
                        >
                            {body}
                        </g>
                    }
                    .into_any()
                }
            }
        })
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
            aria-label=title
            aria-describedby=desc_id
        >
            <defs>
                <marker id=format!("{marker}-flow") viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path class="darrow" d="M0,0 L10,5 L0,10 z" />
                </marker>
                <marker id=format!("{marker}-loop") viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path class="darrow loop" d="M0,0 L10,5 L0,10 z" />
                </marker>
            </defs>
            {edge_views}
            {node_views}
        </svg>
    }
}

/// A diagram in its card: the picture, its text alternative, and the explanation of the
/// selected node.
#[component]
pub fn DiagramCard(
    /// Directive name of the diagram (see `content/diagrams.md`).
    name: &'static str,
) -> impl IntoView {
    let Some(diagram) = data::diagram(name) else {
        return view! { <p class="widget-missing">"Missing diagram."</p> }.into_any();
    };
    let title = diagram.title;
    let description = diagram.description();
    let hint = diagram.hint;
    let links = diagram.nodes.iter().any(|n| n.href.is_some());
    let d = StoredValue::new(diagram);
    let selected = RwSignal::new(None::<usize>);
    let narrow = RwSignal::new(narrow_at_first());
    let holder = NodeRef::<leptos::html::Div>::new();
    let marker = unique_id("diagram");
    let desc_id = format!("{marker}-desc");
    let detail_id = format!("{marker}-detail");

    // The layout follows the width of the diagram's own box (the page, the sidebar and the
    // zoom all change it). A ResizeObserver reports it after the browser's own layout, so that
    // measuring never forces one while the page is still being built.
    let measure = move || {
        // A report may come after the diagram is gone.
        if let Some(el) = holder.try_get_untracked().flatten() {
            let w = el.client_width();
            if w > 0 {
                let n = w < NARROW_BELOW_PX;
                if narrow.try_get_untracked().is_some_and(|now| now != n) {
                    narrow.try_set(n);
                }
            }
        }
    };
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn FnMut()>)>);
    holder.on_load(move |el| {
        let on_resize = Closure::<dyn FnMut()>::new(measure);
        if let Ok(o) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            o.observe(&el);
            observer.set_value(Some((o, on_resize)));
        }
    });
    on_cleanup(move || {
        if let Some((o, _)) = observer.try_update_value(Option::take).flatten() {
            o.disconnect();
        }
    });

    let ids = (marker.clone(), desc_id.clone(), detail_id.clone());
    let drawn = move || {
        let layout = d.with_value(|d| d.layout(narrow.get()).clone());
        picture(d, layout, selected, ids.clone())
    };
    let detail = move || {
        selected.get().and_then(|i| {
            d.with_value(|d| {
                d.nodes.get(i).map(|n| {
                    (
                        n.label.clone(),
                        n.note.clone(),
                        n.detail.clone(),
                        n.href.is_some(),
                    )
                })
            })
        })
    };

    view! {
        <WidgetCard title=title name=name>
            <div class="diagram" data-testid=format!("diagram-{name}") node_ref=holder>
                <p class="diagram-sr" id=desc_id>{description}</p>
                <div class="diagram-box">{drawn}</div>
                <div
                    class="diagram-detail"
                    id=detail_id
                    data-testid="diagram-detail"
                    aria-live=if links { "off" } else { "polite" }
                >
                    {move || match detail() {
                        None => view! { <p class="diagram-hint">{hint}</p> }.into_any(),
                        Some((label, note, text, is_link)) => view! {
                            <p class="diagram-detail-title">
                                <strong>{label}</strong>
                                {(!note.is_empty() && !is_link).then(|| view! { <span class="diagram-detail-note">{note}</span> })}
                            </p>
                            <p class="diagram-detail-text">{text}</p>
                        }
                        .into_any(),
                    }}
                </div>
            </div>
        </WidgetCard>
    }
    .into_any()
}
