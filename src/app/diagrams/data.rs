//! The layouts of the course's five diagrams, wide and narrow. Their words (labels, notes,
//! details, titles, summaries, hints, edge labels, the chapter map's links) are in
//! `content/diagrams.md`, compiled by the build script (`build/diagrams.rs`) into
//! `DIAGRAM_WORDS` below: nothing is parsed at run time.

use crate::logic::diagram::{
    tree_layouts, DecorName, Diagram, DiagramWords, Edge, EdgeKind, Kind, LabelSpot, Layout, Node,
    NodeWords, Rect, Route,
};

include!(concat!(env!("OUT_DIR"), "/diagrams.rs"));

/// Every diagram's directive name, in the order of `content/diagrams.md`.
pub fn names() -> impl Iterator<Item = &'static str> {
    DIAGRAM_WORDS.iter().map(|d| d.name)
}

/// The diagram a directive names: its words with its layouts.
pub fn diagram(name: &str) -> Option<Diagram> {
    let words = DIAGRAM_WORDS.iter().find(|d| d.name == name)?;
    let nodes: Vec<Node> = words.nodes.iter().map(NodeWords::node).collect();
    let (wide, narrow, edges) = match name {
        "chapter-map" => chapter_map(&nodes),
        _ => {
            let (wide, narrow) = match name {
                "five-inputs" => five_inputs(),
                "fine-tune-diagram" => fine_tune(),
                "distill-diagram" => distill(),
                "decision-path" => decision_path(),
                _ => return None,
            };
            (wide, narrow, words.edges.to_vec())
        }
    };
    Some(Diagram {
        name: words.name,
        title: words.title,
        summary: words.summary,
        hint: words.hint,
        nodes,
        edges,
        wide,
        narrow,
    })
}

fn route(points: &[(f64, f64)], label: Option<LabelSpot>) -> Route {
    Route {
        points: points.to_vec(),
        label,
    }
}

fn line(points: &[(f64, f64)]) -> Route {
    route(points, None)
}

/// Overview: five questions about the product, around the product itself.
fn five_inputs() -> (Layout, Layout) {
    // Wide: the product in the middle, three questions above, two below.
    let hub = Rect::new(265.0, 132.0, 190.0, 64.0);
    let wide_boxes = vec![
        hub,
        Rect::new(16.0, 18.0, 220.0, 62.0),
        Rect::new(250.0, 18.0, 220.0, 62.0),
        Rect::new(484.0, 18.0, 220.0, 62.0),
        Rect::new(115.0, 248.0, 220.0, 62.0),
        Rect::new(385.0, 248.0, 220.0, 62.0),
    ];
    let wide_routes = wide_boxes
        .iter()
        .skip(1)
        .map(|b| line(&[(hub.cx(), hub.cy()), (b.cx(), b.cy())]))
        .collect();
    // Narrow: the product on top, the questions in a list joined by a spine.
    let nhub = Rect::new(2.0, 2.0, 336.0, 56.0);
    let narrow_boxes: Vec<Rect> = std::iter::once(nhub)
        .chain((0..5).map(|i| Rect::new(44.0, 74.0 + 66.0 * i as f64, 294.0, 56.0)))
        .collect();
    let narrow_routes = narrow_boxes
        .iter()
        .skip(1)
        .map(|b| line(&[(24.0, nhub.bottom()), (24.0, b.cy()), (b.x, b.cy())]))
        .collect();
    (
        Layout {
            width: 720.0,
            height: 328.0,
            boxes: wide_boxes,
            routes: wide_routes,
        },
        Layout {
            width: 340.0,
            height: 74.0 + 66.0 * 5.0 - 8.0,
            boxes: narrow_boxes,
            routes: narrow_routes,
        },
    )
}

/// Example 3: a pre-trained model, trained further on domain data, becomes a fine-tuned one.
fn fine_tune() -> (Layout, Layout) {
    let wide_boxes = vec![
        Rect::new(14.0, 14.0, 210.0, 132.0),
        Rect::new(262.0, 150.0, 190.0, 62.0),
        Rect::new(280.0, 52.0, 160.0, 56.0),
        Rect::new(496.0, 14.0, 210.0, 132.0),
        Rect::new(496.0, 206.0, 210.0, 72.0),
    ];
    let wide_routes = vec![
        line(&[(224.0, 80.0), (280.0, 80.0)]),
        line(&[(360.0, 150.0), (360.0, 108.0)]),
        line(&[(440.0, 80.0), (496.0, 80.0)]),
        route(
            &[(601.0, 146.0), (601.0, 206.0)],
            Some(LabelSpot::at(593.0, 180.0, "end")),
        ),
    ];
    let narrow_boxes = vec![
        Rect::new(4.0, 4.0, 200.0, 132.0),
        Rect::new(220.0, 156.0, 116.0, 100.0),
        Rect::new(29.0, 178.0, 150.0, 56.0),
        Rect::new(4.0, 276.0, 200.0, 132.0),
        Rect::new(4.0, 462.0, 200.0, 78.0),
    ];
    let narrow_routes = vec![
        line(&[(104.0, 136.0), (104.0, 178.0)]),
        line(&[(220.0, 206.0), (179.0, 206.0)]),
        line(&[(104.0, 234.0), (104.0, 276.0)]),
        route(
            &[(104.0, 408.0), (104.0, 462.0)],
            Some(LabelSpot::at(112.0, 440.0, "start")),
        ),
    ];
    (
        Layout {
            width: 720.0,
            height: 286.0,
            boxes: wide_boxes,
            routes: wide_routes,
        },
        Layout {
            width: 340.0,
            height: 544.0,
            boxes: narrow_boxes,
            routes: narrow_routes,
        },
    )
}

/// Example 4: the teacher's probabilities are the student's targets.
fn distill() -> (Layout, Layout) {
    let wide_boxes = vec![
        Rect::new(8.0, 8.0, 196.0, 200.0),
        Rect::new(270.0, 30.0, 180.0, 156.0),
        Rect::new(540.0, 58.0, 150.0, 100.0),
    ];
    let wide_routes = vec![
        route(
            &[(204.0, 108.0), (270.0, 108.0)],
            Some(LabelSpot::at(237.0, 100.0, "middle")),
        ),
        route(
            &[(450.0, 108.0), (540.0, 108.0)],
            Some(LabelSpot::at(495.0, 100.0, "middle")),
        ),
    ];
    let narrow_boxes = vec![
        Rect::new(30.0, 4.0, 280.0, 100.0),
        Rect::new(80.0, 146.0, 180.0, 156.0),
        Rect::new(105.0, 344.0, 130.0, 70.0),
    ];
    let narrow_routes = vec![
        route(
            &[(170.0, 104.0), (170.0, 146.0)],
            Some(LabelSpot::at(178.0, 129.0, "start")),
        ),
        route(
            &[(170.0, 302.0), (170.0, 344.0)],
            Some(LabelSpot::at(178.0, 327.0, "start")),
        ),
    ];
    (
        Layout {
            width: 720.0,
            height: 216.0,
            boxes: wide_boxes,
            routes: wide_routes,
        },
        Layout {
            width: 340.0,
            height: 418.0,
            boxes: narrow_boxes,
            routes: narrow_routes,
        },
    )
}

/// Example 5: from evals to the smallest model that passes, with the loops back to the evals.
fn decision_path() -> (Layout, Layout) {
    let wide_boxes = vec![
        Rect::new(250.0, 8.0, 220.0, 46.0),
        Rect::new(250.0, 84.0, 220.0, 46.0),
        Rect::new(250.0, 160.0, 220.0, 46.0),
        Rect::new(220.0, 236.0, 280.0, 112.0),
        Rect::new(270.0, 400.0, 180.0, 64.0),
        Rect::new(30.0, 400.0, 200.0, 64.0),
        Rect::new(490.0, 400.0, 200.0, 64.0),
    ];
    let wide_routes = vec![
        line(&[(360.0, 54.0), (360.0, 84.0)]),
        line(&[(360.0, 130.0), (360.0, 160.0)]),
        line(&[(360.0, 206.0), (360.0, 236.0)]),
        route(
            &[(360.0, 348.0), (360.0, 400.0)],
            Some(LabelSpot::at(368.0, 380.0, "start")),
        ),
        route(
            &[(220.0, 292.0), (130.0, 292.0), (130.0, 400.0)],
            Some(LabelSpot::at(175.0, 284.0, "middle")),
        ),
        route(
            &[(500.0, 292.0), (590.0, 292.0), (590.0, 400.0)],
            Some(LabelSpot::at(545.0, 284.0, "middle")),
        ),
        route(
            &[(50.0, 400.0), (50.0, 183.0), (250.0, 183.0)],
            Some(LabelSpot::at(150.0, 175.0, "middle")),
        ),
        route(
            &[(670.0, 400.0), (670.0, 183.0), (470.0, 183.0)],
            Some(LabelSpot::at(570.0, 175.0, "middle")),
        ),
    ];
    let narrow_boxes = vec![
        Rect::new(40.0, 4.0, 260.0, 42.0),
        Rect::new(40.0, 70.0, 260.0, 42.0),
        Rect::new(40.0, 136.0, 260.0, 42.0),
        Rect::new(55.0, 202.0, 230.0, 112.0),
        Rect::new(118.0, 380.0, 104.0, 80.0),
        Rect::new(6.0, 380.0, 104.0, 80.0),
        Rect::new(230.0, 380.0, 104.0, 80.0),
    ];
    let narrow_routes = vec![
        line(&[(170.0, 46.0), (170.0, 70.0)]),
        line(&[(170.0, 112.0), (170.0, 136.0)]),
        line(&[(170.0, 178.0), (170.0, 202.0)]),
        route(
            &[(170.0, 314.0), (170.0, 380.0)],
            Some(LabelSpot::at(176.0, 352.0, "start")),
        ),
        route(
            &[(55.0, 258.0), (40.0, 258.0), (40.0, 380.0)],
            Some(LabelSpot::at(46.0, 352.0, "start")),
        ),
        route(
            &[(285.0, 258.0), (300.0, 258.0), (300.0, 380.0)],
            Some(LabelSpot::at(294.0, 352.0, "end")),
        ),
        route(
            &[(16.0, 380.0), (16.0, 157.0), (40.0, 157.0)],
            Some(LabelSpot::up(10.0, 270.0)),
        ),
        route(
            &[(322.0, 380.0), (322.0, 157.0), (300.0, 157.0)],
            Some(LabelSpot::up(336.0, 270.0)),
        ),
    ];
    (
        Layout {
            width: 720.0,
            height: 472.0,
            boxes: wide_boxes,
            routes: wide_routes,
        },
        Layout {
            width: 340.0,
            height: 466.0,
            boxes: narrow_boxes,
            routes: narrow_routes,
        },
    )
}

/// The chapter map: a tree of the root, then each branch followed by its leaves, laid out by
/// [`tree_layouts`].
fn chapter_map(nodes: &[Node]) -> (Layout, Layout, Vec<Edge>) {
    let root = nodes.iter().position(|n| n.kind == Kind::Root).unwrap_or(0);
    let mut tree: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        match n.kind {
            Kind::Branch => tree.push((i, Vec::new())),
            Kind::Leaf => {
                if let Some((_, leaves)) = tree.last_mut() {
                    leaves.push(i);
                }
            }
            _ => {}
        }
    }
    tree_layouts(nodes, root, &tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::lesson_by_slug;
    use crate::logic::diagram::Decor;

    #[test]
    fn every_diagram_is_sound_in_both_layouts() {
        let mut problems = Vec::new();
        assert_eq!(names().count(), 5);
        for name in names() {
            let d = diagram(name).expect(name);
            assert_eq!(d.name, name);
            problems.extend(d.problems());
        }
        assert!(problems.is_empty(), "{problems:#?}");
        assert!(diagram("no-such-diagram").is_none());
    }

    #[test]
    fn every_diagram_widget_has_its_words() {
        for name in [
            "five-inputs",
            "fine-tune-diagram",
            "distill-diagram",
            "decision-path",
            "chapter-map",
        ] {
            assert!(diagram(name).is_some(), "{name}");
        }
    }

    #[test]
    fn every_node_explains_itself_and_the_text_alternative_names_it() {
        for name in names() {
            let d = diagram(name).unwrap();
            let words = d.description();
            for n in &d.nodes {
                if n.kind != Kind::Root {
                    assert!(n.detail.len() > 20, "{name}/{}", n.id);
                }
                if n.kind != Kind::Leaf && n.kind != Kind::Root && name != "chapter-map" {
                    assert!(words.contains(n.label.as_str()), "{name}: {}", n.label);
                }
            }
        }
    }

    #[test]
    fn chapter_map_links_reach_real_lessons_and_headings() {
        let d = diagram("chapter-map").unwrap();
        let branches = d.nodes.iter().filter(|n| n.kind == Kind::Branch).count();
        assert_eq!(branches, 4, "one branch per section 1.1-1.4");
        for n in d.nodes.iter().filter(|n| n.kind != Kind::Root) {
            let href = n.href.as_deref().unwrap_or_default();
            let (slug, heading) = href.split_once('/').unwrap_or((href, ""));
            let (_, lesson) = lesson_by_slug(slug).unwrap_or_else(|| panic!("no lesson {href}"));
            let heading = heading.trim_start_matches('#');
            assert!(
                heading.is_empty() || lesson.headings.iter().any(|h| h.id == heading),
                "{href}"
            );
            if n.kind == Kind::Leaf {
                assert!(href.contains("/#") && !href.starts_with('/'), "{href}");
                let h = lesson.headings.iter().find(|h| h.id == heading).unwrap();
                assert_eq!(
                    n.detail,
                    format!("Opens {}, at \u{201c}{}\u{201d}.", lesson.title, h.text)
                );
            } else {
                assert_eq!(n.detail, format!("Opens the lesson {}.", lesson.title));
            }
        }
        // The tree's edges: the root to each branch, each branch to its leaves.
        assert_eq!(d.edges.len(), d.nodes.len() - 1);
        assert!(d.edges.iter().all(|e| e.kind == EdgeKind::Link));
    }

    #[test]
    fn the_decision_path_loops_back_to_the_evals() {
        let d = diagram("decision-path").unwrap();
        let loops: Vec<_> = d
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Loop)
            .collect();
        assert_eq!(loops.len(), 2);
        assert!(loops.iter().all(|e| e.to == "run-evals"));
        let froms: Vec<_> = loops.iter().map(|e| e.from).collect();
        assert_eq!(froms, ["fine-tune", "distill"]);
    }

    #[test]
    fn figures_in_diagrams_come_from_the_calculators() {
        let d = diagram("fine-tune-diagram").unwrap();
        assert!(d.node("pretrained").unwrap().1.detail.contains("6 GB"));
        assert!(d
            .node("general")
            .unwrap()
            .1
            .detail
            .contains("50 to 100 times"));
        assert_eq!(
            d.node("finetuned").unwrap().1.decor,
            Decor::Layers { adapted: true }
        );
        let d = diagram("distill-diagram").unwrap();
        let soft = d.node("soft-targets").unwrap().1;
        assert!(soft.detail.contains("0.70, 0.20, 0.07, 0.03"));
        assert_eq!(
            soft.decor,
            Decor::Bars(crate::logic::distill::SEED_PRESET.teacher.to_vec())
        );
    }
}
