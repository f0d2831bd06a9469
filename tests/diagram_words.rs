//! The diagram-word compiler, natively: the course's `content/diagrams.md` compiles against the
//! real lessons and figures, and every kind of broken file fails with
//! `content/diagrams.md:<line>: <what to fix>`.
#![allow(
    clippy::unwrap_used,
    reason = "a test stops at the first thing that is wrong"
)]

#[path = "../build/diagrams.rs"]
mod diagrams;

use diagrams::{parse, Args, LessonRef, Refs};

const WIDGETS: &[&str] = &["flow", "map"];

fn lessons() -> Vec<LessonRef> {
    vec![(
        "intro".into(),
        "1.1 Intro".into(),
        vec![("first-steps".into(), "First steps".into())],
    )]
}

fn figure(name: &str, args: &Args) -> Result<String, String> {
    match (name, args.as_slice()) {
        ("double", [(k, v)]) if k == "x" => v
            .parse::<f64>()
            .map(|x| format!("{}", x * 2.0))
            .map_err(|_| "x is not a number".into()),
        _ => Err(format!("unknown figure `{name}`")),
    }
}

fn compile(text: &str) -> Result<Vec<diagrams::Diagram>, String> {
    let lessons = lessons();
    let refs = Refs {
        widgets: WIDGETS,
        lessons: &lessons,
        figure: &figure,
    };
    parse(text, &refs).map_err(|e| e.to_string())
}

const GOOD: &str = "# Words\n\nAnything before the first diagram is ignored: `ticks` too.\n\n\
## flow\n\ntitle: A flow\nsummary: One step leads\n  to another.\nhint: Select a step.\n\n\
### a (step)\n\nlabel: Step A\nnote: first\ndetail: It weighs `=double x=3` GB.\ndecor: layers\n\n\
### b (decision)\n\nlabel: Step B?\ndetail: The second step, which decides.\n\n\
edge flow: a -> b: then\nedge compare: b -> a\n\n\
## map\n\ntitle: A map\nsummary: The lessons.\nhint: Select a leaf.\nbranch-note: open it\n\
branch-detail: Opens {title}.\nleaf-detail: Opens {title}, at \u{201c}{heading}\u{201d}.\n\n\
### root (root)\nlabel: Course\n\n### intro (branch)\nlabel: 1.1 Intro\nlink: intro.md\n\n\
### steps (leaf)\nlabel: Take the first steps.\nlink: intro.md#first-steps\n";

#[test]
fn a_good_file_compiles_with_figures_links_and_continuations() {
    let d = compile(GOOD).unwrap();
    assert_eq!(d.len(), 2);
    let flow = &d[0];
    assert_eq!(flow.summary, "One step leads to another.");
    assert_eq!(flow.nodes[0].detail, "It weighs 6 GB.");
    assert_eq!(flow.nodes[0].decor, "layers");
    assert_eq!(flow.edges[0].label, "then");
    assert_eq!(flow.edges[1].label, "");
    let map = &d[1];
    let branch = &map.nodes[1];
    assert_eq!(
        (
            branch.href.as_str(),
            branch.note.as_str(),
            branch.detail.as_str()
        ),
        ("intro/", "open it", "Opens 1.1 Intro.")
    );
    let leaf = &map.nodes[2];
    assert_eq!(leaf.href, "intro/#first-steps");
    assert_eq!(
        leaf.detail,
        "Opens 1.1 Intro, at \u{201c}First steps\u{201d}."
    );
    let rust = diagrams::emit_rust(&d);
    assert!(rust.contains("pub static DIAGRAM_WORDS: &[DiagramWords]"));
    assert!(rust.contains("kind: Kind::Decision"));
    assert!(rust.contains("decor: DecorName::Layers"));
    assert!(rust.contains("kind: EdgeKind::Compare"));
    assert!(rust.contains("href: \"intro/#first-steps\""));
}

/// Compiles `GOOD` with `from` replaced by `to`, and returns the error.
fn broken(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "{from}");
    compile(&GOOD.replacen(from, to, 1)).unwrap_err()
}

#[test]
fn every_mistake_names_the_line_and_what_to_fix() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "## flow",
            "## flwo",
            "content/diagrams.md:5: `flwo` is not a registered widget",
        ),
        (
            "### a (step)",
            "### a (stpe)",
            "content/diagrams.md:12: unknown node kind `stpe`",
        ),
        (
            "### a (step)",
            "### A (step)",
            "content/diagrams.md:12: node id `A` must be",
        ),
        (
            "### b (decision)",
            "### a (decision)",
            "content/diagrams.md:19: node `a` is written twice",
        ),
        (
            "edge flow: a -> b",
            "edge flow: a -> c",
            "content/diagrams.md:24: edge names `c`",
        ),
        (
            "edge flow:",
            "edge flwo:",
            "content/diagrams.md:24: unknown edge kind `flwo`",
        ),
        (
            "note: first",
            "colour: red",
            "content/diagrams.md:15: unknown key `colour` for a node",
        ),
        (
            "decor: layers",
            "decor: stars",
            "content/diagrams.md:17: unknown decor `stars`",
        ),
        (
            "detail: The second",
            "hint: The second",
            "content/diagrams.md:22: `hint:` belongs to the diagram",
        ),
        (
            "detail: The second step, which decides.\n",
            "",
            "content/diagrams.md:19: node `b` needs `detail:`",
        ),
        (
            "title: A flow\n",
            "",
            "content/diagrams.md:5: diagram `flow` needs `title:`",
        ),
        (
            "`=double x=3`",
            "`=triple x=3`",
            "content/diagrams.md:16: figure `triple`: unknown figure",
        ),
        (
            "`=double x=3`",
            "`=double x=3",
            "content/diagrams.md:16: a figure",
        ),
        (
            "`=double x=3`",
            "`six`",
            "content/diagrams.md:16: a backtick outside a figure",
        ),
        (
            "link: intro.md#first-steps",
            "link: intro.md#last-steps",
            "content/diagrams.md:45: link `intro.md#last-steps`: `intro.md` has no heading",
        ),
        (
            "link: intro.md#first-steps",
            "link: outro.md#first-steps",
            "content/diagrams.md:45: link `outro.md#first-steps`: no lesson",
        ),
        (
            "link: intro.md#first-steps",
            "link: intro.md",
            "content/diagrams.md:45: leaf link `intro.md` must name a heading",
        ),
        (
            "link: intro.md\n",
            "",
            "content/diagrams.md:39: a branch or leaf needs `link:",
        ),
        (
            "leaf-detail: Opens {title}, at \u{201c}{heading}\u{201d}.\n",
            "",
            "content/diagrams.md:27: `map` has branches and leaves, so it needs `leaf-detail:`",
        ),
        (
            "### root (root)\nlabel: Course\n\n",
            "",
            "content/diagrams.md:27: `map` is a tree: its first node",
        ),
        (
            "label: Step B?",
            "label: Step B?\nlink: intro.md",
            "content/diagrams.md:22: only branches and leaves",
        ),
        (
            "summary: The lessons.",
            "summary: The lessons.\nwhatever",
            "content/diagrams.md:31: `whatever` is not",
        ),
    ];
    for (from, to, want) in cases {
        let got = broken(from, to);
        assert!(
            got.starts_with(want),
            "{from:?} -> {to:?}:\n got  {got}\n want {want}"
        );
    }
    assert!(compile("# Nothing\n")
        .unwrap_err()
        .starts_with("content/diagrams.md:1: no diagrams"));
}

#[test]
fn the_course_diagrams_compile_against_the_real_lessons_and_figures() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/content/diagrams.md"))
        .unwrap();
    let lessons: Vec<LessonRef> = ie_course::content::LESSONS
        .iter()
        .map(|l| {
            let headings = l
                .headings
                .iter()
                .map(|h| (h.id.to_string(), h.text.to_string()))
                .collect();
            (l.slug.to_string(), l.title.to_string(), headings)
        })
        .collect();
    let widgets = [
        "five-inputs",
        "fine-tune-diagram",
        "distill-diagram",
        "decision-path",
        "chapter-map",
    ];
    let refs = Refs {
        widgets: &widgets,
        lessons: &lessons,
        figure: &|name, args| ie_course::figures::inline(name, args),
    };
    let d = parse(&text, &refs).unwrap();
    let names: Vec<&str> = d.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, widgets);
}
