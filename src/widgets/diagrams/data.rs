//! The five diagrams of the course: their words and their two layouts.
//!
//! The words are the course's own; figures in them come from the calculators' code.

use crate::logic::diagram::{
    tree_layouts, Decor, Diagram, Edge, EdgeKind, Kind, LabelSpot, Layout, Node, Rect, Route,
};
use crate::logic::distill::SEED_PRESET;
use crate::logic::format::plain;
use crate::logic::memory::{weight_memory_gb, Precision};

/// Every diagram, by directive name.
pub const NAMES: [&str; 5] = [
    "five-inputs",
    "fine-tune-diagram",
    "distill-diagram",
    "decision-path",
    "chapter-map",
];

/// The diagram a directive names.
pub fn diagram(name: &str) -> Option<Diagram> {
    match name {
        "five-inputs" => Some(five_inputs()),
        "fine-tune-diagram" => Some(fine_tune()),
        "distill-diagram" => Some(distill()),
        "decision-path" => Some(decision_path()),
        "chapter-map" => Some(chapter_map()),
        _ => None,
    }
}

fn node(id: &'static str, kind: Kind, label: &str, note: &str, detail: &str) -> Node {
    Node {
        id,
        label: label.into(),
        note: note.into(),
        detail: detail.into(),
        href: None,
        kind,
        decor: Decor::None,
    }
}

fn flow(from: &'static str, to: &'static str, label: &'static str) -> Edge {
    Edge {
        from,
        to,
        label,
        kind: EdgeKind::Flow,
    }
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
fn five_inputs() -> Diagram {
    let nodes = vec![
        node(
            "product",
            Kind::Hub,
            "Your product",
            "five questions first",
            "Every target you will optimize toward comes from the product, not from the hardware. \
             Answer the five questions around it before you tune anything; while the answers are \
             still fuzzy, an off-the-shelf API is usually the better choice.",
        ),
        node(
            "traffic",
            Kind::Step,
            "1 Traffic and scale",
            "section 1.1",
            "How many requests and tokens will you serve, and how quickly will that grow? \
             Volume decides whether paying per token or paying for GPU time comes out cheaper.",
        ),
        node(
            "category",
            Kind::Step,
            "2 Product category",
            "section 1.2",
            "What kind of AI-native application is it, and which models and modalities (text, \
             speech, images) does it depend on? A general platform must handle anything; a \
             vertical app can narrow the problem and gain speed from the constraints.",
        ),
        node(
            "online",
            Kind::Step,
            "3 Online or offline",
            "section 1.2",
            "Is a person waiting on each answer? Then latency is the target. Is it a batch job \
             that runs unattended? Then throughput is, and cost per token follows from it.",
        ),
        node(
            "audience",
            Kind::Step,
            "4 Consumer or business",
            "section 1.2",
            "Consumers are price-sensitive and arrive in spikes; business customers are steadier \
             but expect higher reliability. Which compliance rules apply, and where may the data \
             and the GPUs be?",
        ),
        node(
            "quality",
            Kind::Step,
            "5 Model and quality bar",
            "section 1.3",
            "What must the model get right, how will you measure it, and what is the smallest \
             model that clears that bar? Your own evals answer this, and they become the baseline \
             for every later optimization.",
        ),
    ];
    let edges: Vec<Edge> = ["traffic", "category", "online", "audience", "quality"]
        .into_iter()
        .map(|to| Edge {
            from: "product",
            to,
            label: "",
            kind: EdgeKind::Link,
        })
        .collect();
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
    let wide_routes = wide_boxes[1..]
        .iter()
        .map(|b| line(&[(hub.cx(), hub.cy()), (b.cx(), b.cy())]))
        .collect();
    // Narrow: the product on top, the questions in a list joined by a spine.
    let nhub = Rect::new(2.0, 2.0, 336.0, 56.0);
    let narrow_boxes: Vec<Rect> = std::iter::once(nhub)
        .chain((0..5).map(|i| Rect::new(44.0, 74.0 + 66.0 * i as f64, 294.0, 56.0)))
        .collect();
    let narrow_routes = narrow_boxes[1..]
        .iter()
        .map(|b| line(&[(24.0, nhub.bottom()), (24.0, b.cy()), (b.x, b.cy())]))
        .collect();
    Diagram {
        name: "five-inputs",
        title: "Five questions before you optimize",
        summary: "Your product in the centre, joined to the five questions that set its targets: \
                  traffic and scale, product category, online or offline, consumer or business, \
                  and the model with its quality bar.",
        hint: "Select a question to read it.",
        nodes,
        edges,
        wide: Layout {
            width: 720.0,
            height: 328.0,
            boxes: wide_boxes,
            routes: wide_routes,
        },
        narrow: Layout {
            width: 340.0,
            height: 74.0 + 66.0 * 5.0 - 8.0,
            boxes: narrow_boxes,
            routes: narrow_routes,
        },
    }
}

/// Example 3: a pre-trained model, trained further on domain data, becomes a fine-tuned one.
fn fine_tune() -> Diagram {
    let small_gb = plain(weight_memory_gb(3.0, Precision::Fp16));
    let mut pretrained = node(
        "pretrained",
        Kind::Step,
        "Pre-trained model",
        "general weights, e.g. 3B",
        &format!(
            "A foundation model trained on broad data. In the text-to-SQL example it is small: \
             about 3 billion parameters, {small_gb} GB of weights in FP16, a fraction of one GPU."
        ),
    );
    pretrained.decor = Decor::Layers { adapted: false };
    let mut finetuned = node(
        "finetuned",
        Kind::Step,
        "Fine-tuned model",
        "same layers, new weights",
        &format!(
            "The same architecture, layer for layer, with weights adapted to one job: turning \
             questions into SQL. It is still {small_gb} GB in FP16, so it is as cheap and fast to \
             serve as before, and it passes evals that the untuned model failed."
        ),
    );
    finetuned.decor = Decor::Layers { adapted: true };
    let nodes = vec![
        pretrained,
        node(
            "data",
            Kind::Step,
            "Labelled domain data",
            "question \u{2192} SQL pairs",
            "Examples with their correct answers attached: a question in English and the query \
             that answers it. Clean data is one of the three things fine-tuning needs, with a \
             narrow domain and evals that can tell right from wrong.",
        ),
        node(
            "train",
            Kind::Step,
            "Train further",
            "weights change",
            "Training continues from the pre-trained weights on the domain data. The values of \
             the weights move; the layers and their sizes do not.",
        ),
        finetuned,
        node(
            "general",
            Kind::Step,
            "General coding model",
            "hundreds of billions of parameters",
            &format!(
                "A large model built for every language and task. On text-to-SQL alone, the small \
                 fine-tuned model can match it while being {} to {} times smaller (against 150B \
                 and 300B), which is the difference between part of a GPU and a rack of them.",
                plain(150.0 / 3.0),
                plain(300.0 / 3.0)
            ),
        ),
    ];
    let edges = vec![
        flow("pretrained", "train", ""),
        flow("data", "train", ""),
        flow("train", "finetuned", ""),
        Edge {
            from: "finetuned",
            to: "general",
            label: "matches on this task",
            kind: EdgeKind::Compare,
        },
    ];
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
    Diagram {
        name: "fine-tune-diagram",
        title: "Fine-tuning: pre-trained to fine-tuned",
        summary: "A small pre-trained model and labelled text-to-SQL data go into further \
                  training, which yields a fine-tuned model with the same layers and adapted \
                  weights. On that one task it matches a general coding model many times its size.",
        hint: "Select a box to see what it stands for in the text-to-SQL example.",
        nodes,
        edges,
        wide: Layout {
            width: 720.0,
            height: 286.0,
            boxes: wide_boxes,
            routes: wide_routes,
        },
        narrow: Layout {
            width: 340.0,
            height: 544.0,
            boxes: narrow_boxes,
            routes: narrow_routes,
        },
    }
}

/// Example 4: the teacher's probabilities are the student's targets.
fn distill() -> Diagram {
    let teacher = SEED_PRESET.teacher;
    let probs: Vec<String> = teacher.iter().map(|p| format!("{p:.2}")).collect();
    let mut soft = node(
        "soft-targets",
        Kind::Step,
        "Soft targets",
        "the teacher's probabilities",
        &format!(
            "For each next token the teacher gives a whole distribution, here {}. The student is \
             trained toward all of it, so it learns which wrong answers are plausible runners-up, \
             not only which answer is right. A hard target would put 1 on the top token and 0 \
             everywhere else.",
            probs.join(", ")
        ),
    );
    soft.decor = Decor::Bars(teacher.to_vec());
    let nodes = vec![
        node(
            "teacher",
            Kind::Step,
            "Teacher",
            "a large, capable model",
            "The big, capable model whose behaviour you want in a smaller package. It only \
             produces outputs during distillation; its own weights are not trained.",
        ),
        soft,
        node(
            "student",
            Kind::Step,
            "Student",
            "a small model",
            "The smaller model being trained to imitate the teacher's distributions. It picks up \
             the teacher's habits along with its skills, mistakes included. The famous DeepSeek-R1 \
             \"distills\" are not this: they were fine-tuned on about 800,000 answers R1 wrote, and \
             never saw its probabilities.",
        ),
    ];
    let edges = vec![
        flow("teacher", "soft-targets", "predicts"),
        flow("soft-targets", "student", "trains"),
    ];
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
    Diagram {
        name: "distill-diagram",
        title: "Distillation: teacher to student",
        summary: "A large teacher model predicts a probability for every candidate token; those \
                  soft targets train a small student model to imitate it.",
        hint: "Select a box to read its part in distillation.",
        nodes,
        edges,
        wide: Layout {
            width: 720.0,
            height: 216.0,
            boxes: wide_boxes,
            routes: wide_routes,
        },
        narrow: Layout {
            width: 340.0,
            height: 418.0,
            boxes: narrow_boxes,
            routes: narrow_routes,
        },
    }
}

/// Example 5: from evals to the smallest model that passes, with the loops back to the evals.
fn decision_path() -> Diagram {
    let nodes = vec![
        node(
            "define-evals",
            Kind::Step,
            "Define evals",
            "",
            "Write the eval for your product first, including the score that counts as a pass. \
             It decides which models qualify and is the baseline for everything after.",
        ),
        node(
            "shortlist",
            Kind::Step,
            "Shortlist by benchmarks",
            "",
            "Use public benchmarks to pick a handful of candidates. Drawing up a shortlist is \
             the one job they do well; many are saturated or gamed, so they cannot pick the winner.",
        ),
        node(
            "run-evals",
            Kind::Step,
            "Run your own evals",
            "",
            "Score every candidate on your eval. Read the cases that changed, not only the \
             averages. Every fine-tune or distill comes back to this step.",
        ),
        node(
            "smallest-passes",
            Kind::Decision,
            "Does a small model pass?",
            "",
            "Look for the smallest candidate that clears the bar. The answer sends you one of \
             three ways: yes, close, or only a large model is good enough.",
        ),
        node(
            "deploy",
            Kind::Step,
            "Optimize and deploy",
            "",
            "Take the smallest model that passes and only now spend time on quantization, \
             batching and kernels. Each optimization is checked against the same evals.",
        ),
        node(
            "fine-tune",
            Kind::Step,
            "Fine-tune a small model",
            "",
            "A small model almost passes: train it further on labelled data from your domain, \
             then run the evals again. It works when the domain is narrow and the data clean.",
        ),
        node(
            "distill",
            Kind::Step,
            "Distill the large model",
            "",
            "Only a large model is good enough: consider training a small student on its \
             probability distributions, then run the evals again. It is the rarer route.",
        ),
    ];
    let loop_back = |from| Edge {
        from,
        to: "run-evals",
        label: "evals again",
        kind: EdgeKind::Loop,
    };
    let edges = vec![
        flow("define-evals", "shortlist", ""),
        flow("shortlist", "run-evals", ""),
        flow("run-evals", "smallest-passes", ""),
        flow("smallest-passes", "deploy", "yes"),
        flow("smallest-passes", "fine-tune", "close"),
        flow("smallest-passes", "distill", "only large"),
        loop_back("fine-tune"),
        loop_back("distill"),
    ];
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
    Diagram {
        name: "decision-path",
        title: "Example 5: the decision path",
        summary: "Define evals, shortlist by benchmarks, run your own evals, then ask whether a \
                  small model passes. Yes: optimize and deploy it. Close: fine-tune a small model \
                  and run the evals again. Only a large model passes: distill it and run the \
                  evals again.",
        hint: "Select any step to read why it is there.",
        nodes,
        edges,
        wide: Layout {
            width: 720.0,
            height: 472.0,
            boxes: wide_boxes,
            routes: wide_routes,
        },
        narrow: Layout {
            width: 340.0,
            height: 466.0,
            boxes: narrow_boxes,
            routes: narrow_routes,
        },
    }
}

/// A leaf of the chapter map: the idea, and the lesson and heading that explain it.
struct Leaf {
    id: &'static str,
    idea: &'static str,
    lesson: &'static str,
    heading: &'static str,
}

/// A branch of the chapter map: a section and its leaves.
struct Branch {
    id: &'static str,
    label: &'static str,
    lesson: &'static str,
    leaves: &'static [Leaf],
}

const fn leaf(
    id: &'static str,
    idea: &'static str,
    lesson: &'static str,
    heading: &'static str,
) -> Leaf {
    Leaf {
        id,
        idea,
        lesson,
        heading,
    }
}

const SHARED: &str = "shared-or-dedicated";
const APP: &str = "about-your-app";
const MODEL: &str = "model-selection";
const MEASURE: &str = "latency-and-throughput";

/// The chapter's four sections, each with the ideas to remember.
const MAP: &[Branch] = &[
    Branch {
        id: "section-1-1",
        label: "1.1 Shared or dedicated",
        lesson: SHARED,
        leaves: &[
            leaf("per-token-or-gpu", "Shared: pay per token. Dedicated: pay for GPU time.", SHARED, "two-ways-to-run-a-model"),
            leaf("not-open-closed", "Not the same question as open or closed weights.", SHARED, "not-the-same-as-open-versus-closed"),
            leaf("reasons-to-move", "Move for scale, specialization or orchestration.", SHARED, "why-teams-move"),
            leaf("cost-of-moving", "The price: more engineering and a higher monthly floor.", SHARED, "what-the-move-costs"),
        ],
    },
    Branch {
        id: "section-1-2",
        label: "1.2 About your app",
        lesson: APP,
        leaves: &[
            leaf("add-constraints", "Vertical apps gain from constraints; labs need generality.", APP, "generality-or-constraints"),
            leaf("online-offline", "Online work aims at latency, offline batches at throughput.", APP, "online-versus-offline"),
            leaf("two-deployments", "One model, such as Whisper, can run as two deployments.", APP, "one-model-two-deployments"),
            leaf("consumer-business", "Consumers are spiky and price-sensitive; businesses need reliability and compliance.", APP, "consumer-versus-business"),
        ],
    },
    Branch {
        id: "section-1-3",
        label: "1.3 Model selection",
        lesson: MODEL,
        leaves: &[
            leaf("smaller-is-cheaper", "All else equal, fewer parameters is faster and cheaper.", MODEL, "example-1-weight-memory"),
            leaf("evals-decide", "Benchmarks shortlist; your own evals decide and set the baseline.", MODEL, "example-2-evals-over-benchmarks"),
            leaf("fine-tune-small", "Fine-tune a small model for a narrow, measurable domain.", MODEL, "example-3-fine-tuning"),
            leaf("distill-rarely", "Distillation copies a teacher's distributions, flaws included; it is rare.", MODEL, "example-4-distillation"),
            leaf("smallest-that-passes", "Deploy the smallest model that passes, then optimize.", MODEL, "example-5-a-decision-path"),
        ],
    },
    Branch {
        id: "section-1-4",
        label: "1.4 Latency and throughput",
        lesson: MEASURE,
        leaves: &[
            leaf("ttft-tps", "TTFT comes from prefill, TPS from decode.", MEASURE, "ttft-and-tps"),
            leaf("two-tps", "TPS per user is latency; TPS per service is throughput.", MEASURE, "two-meanings-of-tps"),
            leaf("percentiles", "Report P50, P90 and P99, not only the mean.", MEASURE, "latency-percentiles"),
            leaf("end-to-end", "Fast inference but slow end to end: fix the infrastructure.", MEASURE, "inference-time-and-end-to-end-time"),
        ],
    },
];

/// Every link target of the chapter map: (lesson slug, heading id or empty).
pub fn chapter_map_targets() -> Vec<(&'static str, &'static str)> {
    MAP.iter()
        .flat_map(|b| {
            std::iter::once((b.lesson, "")).chain(b.leaves.iter().map(|l| (l.lesson, l.heading)))
        })
        .collect()
}

// Titles and headings come from the small tables, not `LESSONS`, so that the widgets module
// does not carry every lesson's text.
fn title_of(slug: &str) -> &'static str {
    crate::content::title_by_slug(slug).map_or("", |(_, t)| t)
}

fn heading_of(slug: &str, id: &str) -> &'static str {
    crate::content::heading_text(slug, id).unwrap_or("")
}

/// The chapter map: one branch per section, the idea to remember on each leaf.
fn chapter_map() -> Diagram {
    let mut nodes = vec![node(
        "chapter",
        Kind::Root,
        "Chapter 1",
        "Prerequisites",
        "",
    )];
    let mut tree = Vec::new();
    for b in MAP {
        let bi = nodes.len();
        nodes.push(Node {
            href: Some(format!("{}/", b.lesson)),
            ..node(
                b.id,
                Kind::Branch,
                b.label,
                "open the lesson",
                &format!("Opens the lesson {}.", title_of(b.lesson)),
            )
        });
        let mut leaves = Vec::new();
        for l in b.leaves {
            leaves.push(nodes.len());
            nodes.push(Node {
                href: Some(format!("{}/#{}", l.lesson, l.heading)),
                ..node(
                    l.id,
                    Kind::Leaf,
                    l.idea,
                    "",
                    &format!(
                        "Opens {}, at \u{201c}{}\u{201d}.",
                        title_of(l.lesson),
                        heading_of(l.lesson, l.heading)
                    ),
                )
            });
        }
        tree.push((bi, leaves));
    }
    let (wide, narrow, edges) = tree_layouts(&nodes, 0, &tree);
    Diagram {
        name: "chapter-map",
        title: "The chapter on one page",
        summary: "A tree of Chapter 1: one branch for each of the sections 1.1 to 1.4, and on \
                  each leaf the idea to remember. Every branch and leaf is a link to the lesson \
                  and heading that explains it.",
        hint: "Select a leaf to open the part of the lesson that explains it.",
        nodes,
        edges,
        wide,
        narrow,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::lesson_by_slug;

    #[test]
    fn every_diagram_is_sound_in_both_layouts() {
        let mut problems = Vec::new();
        for name in NAMES {
            let d = diagram(name).expect(name);
            assert_eq!(d.name, name);
            problems.extend(d.problems());
        }
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn every_node_explains_itself_and_the_text_alternative_names_it() {
        for name in NAMES {
            let d = diagram(name).unwrap();
            let words = d.description();
            for n in &d.nodes {
                if n.kind != Kind::Root {
                    assert!(n.detail.len() > 20, "{name}/{}", n.id);
                }
                assert!(n
                    .id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
                if n.kind != Kind::Leaf && n.kind != Kind::Root && name != "chapter-map" {
                    assert!(words.contains(n.label.as_str()), "{name}: {}", n.label);
                }
            }
        }
    }

    #[test]
    fn chapter_map_links_reach_real_lessons_and_headings() {
        for (slug, heading) in chapter_map_targets() {
            let (_, lesson) = lesson_by_slug(slug).unwrap_or_else(|| panic!("no lesson {slug}"));
            assert!(
                heading.is_empty() || lesson.headings.iter().any(|h| h.id == heading),
                "{slug}#{heading}"
            );
        }
        let d = diagram("chapter-map").unwrap();
        let branches = d.nodes.iter().filter(|n| n.kind == Kind::Branch).count();
        assert_eq!(branches, 4, "one branch per section 1.1-1.4");
        assert!(d.nodes.iter().filter(|n| n.kind == Kind::Leaf).all(|n| n
            .href
            .as_deref()
            .is_some_and(|h| h.contains("/#") && !h.starts_with('/'))));
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
        let d = diagram("distill-diagram").unwrap();
        assert!(d
            .node("soft-targets")
            .unwrap()
            .1
            .detail
            .contains("0.70, 0.20, 0.07, 0.03"));
    }
}
