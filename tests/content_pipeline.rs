//! The lesson compiler, natively: good lessons compile to prose and widgets, and every kind of
//! broken lesson fails with `content/<file>:<line>: <what to fix>`.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "a test stops at the first thing that is wrong; the build code it includes indexes freely"
)]

#[path = "../build/lessons.rs"]
#[allow(dead_code)]
mod lessons;

use lessons::{compile_course, CompileError, CompiledBlock, Context};

const WIDGETS: &[(&str, &[&str])] = &[("weight-memory", &["params", "precision"])];

fn inline(name: &str, args: &lessons::Args) -> Result<String, String> {
    match name {
        "double" => {
            let x: f64 = args
                .iter()
                .find(|(k, _)| k == "x")
                .ok_or("missing argument `x`")?
                .1
                .parse()
                .map_err(|_| "x is not a number".to_string())?;
            Ok(format!("{}", x * 2.0))
        }
        _ => Err(format!("unknown figure `{name}`")),
    }
}

fn block(name: &str, _: &lessons::Args) -> Result<String, String> {
    match name {
        "table" => Ok("<table><tr><td>1</td></tr></table>".into()),
        _ => Err(format!("unknown figure `{name}`")),
    }
}

/// A small glossary, used when a test gives none of its own.
const GLOSSARY: &str = "---\ndescription: Terms.\n---\n\nOpening words.\n\n## KV cache\nsee: Prefill\n\nKeys and values kept for tokens already seen.\n\n## Prefill\nforms: prompt processing\n\nThe phase that reads the prompt.\n\n## Token\nforms: tokens\n\nA piece of text.\n\n## Cross-entropy\n\nA loss between two distributions.\n\n## Entropy\n\nThe uncertainty of a distribution.\n";

/// Compiles a course of the given files (SUMMARY.md included; `GLOSSARY` unless given).
fn compile(
    files: &[(&str, &str)],
) -> Result<
    (
        lessons::Toc,
        Vec<lessons::CompiledLesson>,
        lessons::CompiledGlossary,
    ),
    CompileError,
> {
    let read = |name: &str| {
        files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.to_string())
            .or_else(|| (name == "glossary.md").then(|| GLOSSARY.to_string()))
            .ok_or_else(|| "No such file or directory".to_string())
    };
    let ctx = Context {
        widgets: WIDGETS,
        inline_figure: &inline,
        block_figure: &block,
    };
    compile_course(&read, &ctx)
}

const SUMMARY: &str = "# Course\n\n- [One](one.md)\n- [Two](two.md)\n";
const TWO: &str = "---\ndescription: Second.\n---\n\n## Target heading\n\nText.\n";

fn error_of(one: &str) -> String {
    compile(&[("SUMMARY.md", SUMMARY), ("one.md", one), ("two.md", TWO)])
        .unwrap_err()
        .to_string()
}

#[test]
fn a_good_lesson_compiles_to_prose_widgets_figures_and_anchors() {
    let one = "---\ndescription: First.\n---\n\nIntro with `=double x=21` and [a link](two.md#target-heading).\n\n## Weights & GPUs\n\n```widget weight-memory\nparams: 70\n```\n\n```figure table\n```\n\n## Weights & GPUs\n\n<!-- a comment the build drops -->\nEnd.\n";
    let (toc, lessons, _) =
        compile(&[("SUMMARY.md", SUMMARY), ("one.md", one), ("two.md", TWO)]).unwrap();
    assert_eq!(toc.title, "Course");
    let l = &lessons[0];
    assert_eq!(
        (l.slug.as_str(), l.title.as_str(), l.description.as_str()),
        ("one", "One", "First.")
    );
    assert_eq!(l.blocks.len(), 3, "{:?}", l.blocks);
    let CompiledBlock::Prose(intro) = &l.blocks[0] else {
        panic!()
    };
    assert!(intro.contains("<span class=\"fig\">42</span>"), "{intro}");
    assert!(intro.contains("href=\"two/#target-heading\""), "{intro}");
    assert!(intro.contains("<h2 id=\"weights-gpus\">"), "{intro}");
    assert_eq!(
        l.blocks[1],
        CompiledBlock::Widget {
            name: "weight-memory".into(),
            params: vec![("params".into(), "70".into())],
            line: 9
        }
    );
    let CompiledBlock::Prose(rest) = &l.blocks[2] else {
        panic!()
    };
    assert!(
        rest.contains("<table>") && rest.contains("id=\"weights-gpus-2\""),
        "{rest}"
    );
    assert!(!rest.contains("comment"), "{rest}");
    let ids: Vec<&str> = l.headings.iter().map(|(_, id, _)| id.as_str()).collect();
    assert_eq!(ids, ["weights-gpus", "weights-gpus-2"]);
    // Search sections split at headings.
    assert_eq!(l.sections[1].0, "weights-gpus");
}

#[test]
fn broken_lessons_fail_with_file_line_and_reason() {
    let cases: &[(&str, &str)] = &[
        ("---\ndescription: x\n---\n\ntext\n\n```widget nope\n```\n", "content/one.md:7: unknown widget `nope`; known widgets: weight-memory"),
        ("---\ndescription: x\n---\n\n```widget weight-memory\ncolour: red\n```\n", "content/one.md:5: widget `weight-memory` has no parameter `colour`; it takes: params, precision"),
        ("---\ndescription: x\n---\n\n```widget weight-memory\nparams 70\n```\n", "content/one.md:6: directive parameter `params 70` must look like `key: value`"),
        ("---\ndescription: x\n---\n\nA `=double y=1` figure.\n", "content/one.md:5: figure `double`: missing argument `x`"),
        ("---\ndescription: x\n---\n\nA `=triple x=1` figure.\n", "content/one.md:5: figure `triple`: unknown figure `triple`"),
        ("---\ndescription: x\n---\n\nSee [two](three.md).\n", "content/one.md:5: link to `three.md`, which is not a lesson in SUMMARY.md"),
        ("---\ndescription: x\n---\n\nSee [two](two.md#nowhere).\n", "content/one.md:5: link to `#nowhere` in `two`, which has no such heading"),
        ("---\ndescription: x\n---\n\n<div>raw</div>\n", "content/one.md:5: raw HTML is not allowed in lessons (`<div>raw</div>`); write Markdown instead"),
        ("---\ndescription: x\n---\n\n# Title\n", "content/one.md:5: use `##` and below: the lesson title comes from SUMMARY.md"),
        ("no front matter\n", "content/one.md:1: missing front matter `description:`"),
        ("---\ndescription: x\n---\n\n- item\n\n  ```widget weight-memory\n  ```\n", "content/one.md:7: a widget must stand at the top level"),
    ];
    for (source, want) in cases {
        let got = error_of(source);
        assert!(got.starts_with(want), "\n got: {got}\nwant: {want}");
    }
}

#[test]
fn a_missing_lesson_file_or_bad_summary_fails() {
    let err = compile(&[("SUMMARY.md", SUMMARY), ("one.md", TWO)]).unwrap_err();
    assert_eq!(err.file, "SUMMARY.md");
    assert_eq!(err.line, 4);
    assert!(
        err.message.contains("lesson file `two.md` cannot be read"),
        "{err}"
    );
    let err = compile(&[("SUMMARY.md", "# C\n\n- [A](Bad Name.md)\n")]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "content/SUMMARY.md:3: `Bad Name.md`: lesson files are named like `lower-case-words.md`"
    );
    let err = compile(&[("SUMMARY.md", "- [A](a.md)\n")]).unwrap_err();
    assert!(
        err.to_string()
            .contains("missing the `# Course title` line"),
        "{err}"
    );
    // The glossary's and the print page's addresses are not free for a lesson.
    let err = compile(&[("SUMMARY.md", "# C\n\n- [G](glossary.md)\n")]).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "content/SUMMARY.md:3: `glossary.md`: the address `glossary/` belongs to the glossary"
        ),
        "{err}"
    );
}

/// The prose HTML of a compiled lesson, all blocks together.
fn prose_of(lesson: &lessons::CompiledLesson) -> String {
    lesson
        .blocks
        .iter()
        .filter_map(|b| match b {
            CompiledBlock::Prose(h) => Some(h.as_str()),
            _ => None,
        })
        .collect()
}

/// The `data-term` ids of the marks in `html`, in order.
fn marks_in(html: &str) -> Vec<&str> {
    html.split("data-term=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect()
}

#[test]
fn terms_are_marked_at_their_first_use_in_each_lesson_in_prose_only() {
    let one = "---\ndescription: First.\n---\n\n## The KV cache and tokens\n\nIts `KV cache` in code, [the KV cache](two.md) in a link, then the kv\ncache in a sentence, over a line break, and the KV cache again.\n\n| token |\n|---|\n| tokens |\n\n```\nprefill in a code block\n```\n\n- A list item on *Prefill*, pay-per-token pricing, and cross-entropy against the entropy.\n\n```widget weight-memory\n```\n\nAfter the widget: tokens, then the KV cache, and cross-entropy again.\n";
    let two = "---\ndescription: Second.\n---\n\nThe KV cache is marked again in another lesson.\n";
    let (_, lessons, glossary) =
        compile(&[("SUMMARY.md", SUMMARY), ("one.md", one), ("two.md", two)]).unwrap();
    let html = prose_of(&lessons[0]);
    // First use of each term, once per lesson, in reading order; not in the heading, the inline
    // code, the link, the table or the code block; a phrase broken over two lines still counts;
    // `token` is not found inside `pay-per-token`, nor `entropy` inside `cross-entropy`.
    assert_eq!(
        marks_in(&html),
        ["kv-cache", "prefill", "cross-entropy", "entropy", "token"],
        "{html}"
    );
    assert_eq!(
        lessons[0].terms,
        ["kv-cache", "prefill", "cross-entropy", "entropy", "token"]
    );
    assert!(html.contains("<h2 id=\"the-kv-cache-and-tokens\"><a class=\"anchor\" href=\"one/#the-kv-cache-and-tokens\" aria-hidden=\"true\" tabindex=\"-1\">#</a>The KV cache and tokens</h2>"), "{html}");
    assert!(html.contains("<code>KV cache</code>"), "{html}");
    assert!(html.contains("<a href=\"two/\">the KV cache</a>"), "{html}");
    assert!(html.contains("<td>tokens</td>"), "{html}");
    assert!(html.contains("prefill in a code block"), "{html}");
    // The mark keeps the text as written, links to the entry relatively, and is described by
    // its tooltip.
    assert!(html.contains("<span class=\"term-wrap\" id=\"use-kv-cache\"><a class=\"term\" data-term=\"kv-cache\" href=\"glossary/#term-kv-cache\" aria-describedby=\"tip-one-kv-cache\">kv\ncache</a><span class=\"term-tip\" role=\"tooltip\" id=\"tip-one-kv-cache\">Keys and values kept for tokens already seen.</span></span>"), "{html}");
    assert!(html.contains("<em><span class=\"term-wrap\" id=\"use-prefill\"><a class=\"term\" data-term=\"prefill\""), "{html}");
    // The next lesson marks its own first use again.
    assert_eq!(marks_in(&prose_of(&lessons[1])), ["kv-cache"]);
    // Search text never holds a definition.
    for l in &lessons {
        for (_, _, text) in &l.sections {
            assert!(!text.contains("Keys and values kept"), "{text}");
        }
    }
    // The glossary page: every term, alphabetically, with its anchor, its related terms and
    // the lessons that use it.
    let page = &glossary.html;
    let anchors: Vec<&str> = page
        .split("id=\"term-")
        .skip(1)
        .filter_map(|r| r.split('"').next())
        .collect();
    assert_eq!(
        anchors,
        ["cross-entropy", "entropy", "kv-cache", "prefill", "token"]
    );
    assert!(
        page.contains("<p class=\"glossary-intro\">Opening words.</p>"),
        "{page}"
    );
    assert!(
        page.contains("See also: <a href=\"glossary/#term-prefill\">Prefill</a>"),
        "{page}"
    );
    assert!(
        page.contains(
            "Used in: <a href=\"one/#use-kv-cache\">One</a>, <a href=\"two/#use-kv-cache\">Two</a>"
        ),
        "{page}"
    );
    // Other names are listed; mere inflections (`tokens`) are not.
    assert!(page.contains("Also: prompt processing"), "{page}");
    assert!(!page.contains("Also: tokens"), "{page}");
    // An index of every term opens the page.
    assert!(page.contains("<nav class=\"glossary-index\" aria-label=\"Terms\"><ul><li><a href=\"glossary/#term-cross-entropy\">Cross-entropy</a></li>"), "{page}");
    assert_eq!(glossary.terms.len(), 5);
    assert_eq!(glossary.description, "Terms.");
}

#[test]
fn links_to_glossary_terms_are_checked() {
    let one = "---\ndescription: x\n---\n\nSee [the cache](glossary.md#term-kv-cache) and [all terms](glossary.md).\n";
    let (_, lessons, _) =
        compile(&[("SUMMARY.md", SUMMARY), ("one.md", one), ("two.md", TWO)]).unwrap();
    let html = prose_of(&lessons[0]);
    assert!(
        html.contains("<a href=\"glossary/#term-kv-cache\">the cache</a>"),
        "{html}"
    );
    assert!(
        html.contains("<a href=\"glossary/\">all terms</a>"),
        "{html}"
    );
    assert_eq!(
        error_of("---\ndescription: x\n---\n\nText.\n\nSee [it](glossary.md#term-nope).\n"),
        "content/one.md:7: link to `glossary.md#term-nope`: the glossary has no term with id `nope`"
    );
}

fn glossary_error(glossary: &str) -> String {
    compile(&[
        ("SUMMARY.md", SUMMARY),
        ("one.md", TWO),
        ("two.md", TWO),
        ("glossary.md", glossary),
    ])
    .unwrap_err()
    .to_string()
}

#[test]
fn a_broken_glossary_fails_with_file_line_and_reason() {
    let head = "---\ndescription: Terms.\n---\n\n";
    let cases: &[(&str, &str)] = &[
        ("## Prefill\n\nReads the prompt.\n\n## Prefill\n\nAgain.\n", "content/glossary.md:9: term id `prefill` is already used by `Prefill` (line 5)"),
        ("## Prefill\nforms: prompt phase\n\nReads the prompt.\n\n## Prompt phase {#prompt}\n\nAgain.\n", "content/glossary.md:10: `Prompt phase` is already a form of `Prefill` (line 5)"),
        ("## Prefill\nsee: Decode\n\nReads the prompt.\n", "content/glossary.md:6: `see:` names `Decode`, which is not a term of the glossary"),
        ("## Prefill\n\n## Decode\n\nMakes tokens.\n", "content/glossary.md:5: `Prefill` has no definition: write one sentence under it"),
        ("## Prefill\n\nReads the prompt. Then it stops.\n", "content/glossary.md:5: the definition of `Prefill` has more than one sentence; keep it to one"),
        ("## Prefill\n\nReads the prompt\n", "content/glossary.md:5: the definition of `Prefill` must end with a full stop"),
        ("## Prefill\n\nReads the prompt.\n\nA second paragraph.\n", "content/glossary.md:9: `Prefill` already has its definition: one sentence, one paragraph"),
        ("## Prefill\nalso: prompt phase\n\nReads the prompt.\n", "content/glossary.md:6: unknown key `also:`; a term takes `forms:` and `see:` lines"),
        ("## Prefill {#Pre Fill}\n\nReads the prompt.\n", "content/glossary.md:5: term id `Pre Fill`: use lower-case letters, digits and `-`"),
        ("### Prefill\n\nReads the prompt.\n", "content/glossary.md:5: terms are `## Term` headings"),
        ("## Prefill\n\nReads the *prompt*.\n", "content/glossary.md:5: the definition of `Prefill` is plain text"),
        ("Only an opening paragraph.\n", "content/glossary.md:1: the glossary has no `## Term` yet"),
    ];
    for (body, want) in cases {
        let got = glossary_error(&format!("{head}{body}"));
        assert!(got.starts_with(want), "\n got: {got}\nwant: {want}");
    }
    assert!(glossary_error("## Prefill\n\nReads the prompt.\n")
        .starts_with("content/glossary.md:1: missing front matter `description:`"));
    // A course without its glossary file.
    let read = |name: &str| match name {
        "SUMMARY.md" => Ok(SUMMARY.to_string()),
        _ => Err("No such file or directory".to_string()),
    };
    let ctx = Context {
        widgets: WIDGETS,
        inline_figure: &inline,
        block_figure: &block,
    };
    let err = compile_course(&read, &ctx).unwrap_err();
    assert_eq!(
        err.to_string(),
        "content/glossary.md:1: the glossary cannot be read: No such file or directory"
    );
}

/// The real content compiles (the build does this too; here it is a test with a clear failure).
#[test]
fn the_course_content_compiles() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| e.to_string());
    let summary = read("SUMMARY.md").unwrap();
    let toc = lessons::parse_toc(&summary).unwrap();
    assert_eq!(
        toc.entries.len(),
        9,
        "the course plan's eight lessons and the measuring lab's page"
    );
    assert_eq!(toc.entries[3].slug, "model-selection");
}

/// The real glossary: every term is used by some lesson (the glossary lists only terms the
/// lessons use), and every lesson marks at least one term.
#[test]
fn every_glossary_term_is_used_and_every_lesson_marks_terms() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| e.to_string());
    let glossary = lessons::glossary::parse(&read("glossary.md").unwrap()).unwrap();
    // Figures and widgets are not what this test is about: any name is accepted.
    let any = |_: &str, _: &lessons::Args| -> Result<String, String> { Ok("0".into()) };
    let toc = lessons::parse_toc(&read("SUMMARY.md").unwrap()).unwrap();
    let names: Vec<String> = toc
        .entries
        .iter()
        .flat_map(|e| {
            let text = read(&e.file).unwrap();
            text.lines()
                .filter_map(|l| l.strip_prefix("```widget "))
                .map(|n| n.trim().to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    let keys: &[&str] = &["lesson", "params", "precision", "throughput"];
    let widgets: Vec<(&str, &[&str])> = names.iter().map(|n| (n.as_str(), keys)).collect();
    let ctx = Context {
        widgets: &widgets,
        inline_figure: &any,
        block_figure: &any,
    };
    let (_, lessons, _) = compile_course(&read, &ctx).unwrap();
    for lesson in &lessons {
        assert!(
            !lesson.terms.is_empty(),
            "lesson `{}` marks no glossary term",
            lesson.slug
        );
    }
    for term in &glossary.terms {
        assert!(
            lessons.iter().any(|l| l.terms.contains(&term.id)),
            "content/glossary.md:{}: `{}` is used by no lesson; remove it, or add the form the lessons use",
            term.line,
            term.name
        );
    }
}

/// Every widget a reader works with is followed by "Try this": two or three concrete things to
/// change and what to notice. (The per-lesson recall decks and the try-it worksheet, which is a
/// set of instructions itself, are exempt.)
#[test]
fn every_interactive_widget_comes_with_try_this() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/content");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(dir).expect("content/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a lesson is readable");
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(name) = line.strip_prefix("```widget ") else {
                continue;
            };
            let name = name.trim();
            let per_lesson_deck =
                name == "recall" && lines.get(i + 1).is_some_and(|l| l.starts_with("lesson:"));
            if per_lesson_deck || name == "try-it" {
                continue;
            }
            // Within the next 20 lines, before the next heading.
            let after = lines
                .iter()
                .skip(i + 1)
                .take(20)
                .take_while(|l| !l.starts_with('#'));
            if !after.into_iter().any(|l| l.starts_with("**Try this")) {
                missing.push(format!("{}:{}: {name}", path.display(), i + 1));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "widgets without \"Try this\": {missing:#?}"
    );
}

/// A lesson file of the real course, by name.
fn course_file(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// 1.1's break-even calculator starts from the throughput the decode-ceiling widget computes
/// for the model, GPU, batch and context the lesson states, so the two lessons agree (the
/// example was once 1,500 tok/s, far past the 8B's one-sequence ceiling of 209 on an H100).
#[test]
fn the_break_even_example_is_the_batched_ceiling_the_lesson_names() {
    use ie_course::logic::batching::{architecture, figure, Machine, Serving};
    use ie_course::logic::break_even::{
        EXAMPLE_BATCH, EXAMPLE_CONTEXT_TOKENS, EXAMPLE_THROUGHPUT_TPS,
    };
    let text = course_file("shared-or-dedicated.md");
    let directive = text
        .split("```widget break-even\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the lesson places the break-even widget");
    let typed = directive
        .lines()
        .find_map(|l| l.strip_prefix("throughput: "))
        .expect("the widget is given the example throughput");
    assert_eq!(typed.parse::<f64>().unwrap(), EXAMPLE_THROUGHPUT_TPS);
    let h100 = ie_course::logic::gpus::preset("h100-80").unwrap();
    let served = Serving::new(
        architecture("llama3-8b").unwrap(),
        ie_course::logic::decode::ModelWeights::dense(16.0),
        Machine::of(h100),
        EXAMPLE_BATCH,
        EXAMPLE_CONTEXT_TOKENS,
    );
    assert_eq!(figure(served.step.total_tps).replace(',', ""), typed);
    // The lesson states that configuration, with its figure computed, not typed.
    assert!(
        text.contains(
            "`=batch-tps gpu=h100-80 arch=llama3-8b params=8 precision=fp16 batch=8 context=2048 per=gpu`"
        ),
        "1.1 quotes the batched ceiling behind its example"
    );
}

/// The decode ceiling is a bound for one sequence, said so wherever it is taught, and the
/// batching that lifts a GPU's output past it is defined in the glossary.
#[test]
fn the_ceiling_is_taught_per_sequence_and_batching_is_defined() {
    let glossary = lessons::glossary::parse(&course_file("glossary.md")).unwrap();
    let defined = |name: &str| {
        glossary
            .terms
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("the glossary defines {name}"))
            .definition
            .clone()
    };
    for term in [
        "Batching",
        "Embedding",
        "Attention",
        "Product-market fit",
        "LoRA",
    ] {
        assert!(!defined(term).is_empty(), "{term}");
    }
    assert!(
        defined("Decode").contains("for one sequence"),
        "{}",
        defined("Decode")
    );
    let size = course_file("why-size-wins.md");
    assert!(size.contains("> tokens per second, per sequence ≤ memory bandwidth"));
    assert!(size.contains("### Many requests at once: batching"));
    let latency = course_file("latency-and-throughput.md");
    assert!(latency.contains("For one sequence, each step reads all the weights"));
    assert!(latency.contains("## Measuring under load"));
}

/// The playground mixes α × hard + (1 − α) × soft; the lesson must say so, and promise what
/// that convention gives (α = 1 ignores the teacher). Goodhart's law is quoted as Strathern
/// wrote it, with her name and year.
#[test]
fn the_lesson_states_the_playgrounds_alpha_and_quotes_strathern() {
    use ie_course::logic::distill::mixed_loss;
    let text = course_file("model-selection.md");
    assert!(text.contains("α × hard-label loss + (1 − α) × soft-target loss"));
    assert!(
        text.contains("α = 0 is pure imitation of the teacher; α = 1 ignores the teacher entirely")
    );
    assert_eq!(mixed_loss(1.0, 0.511, 0.886), 0.511);
    assert_eq!(mixed_loss(0.0, 0.511, 0.886), 0.886);
    assert!(!text.contains("α sets the share of the soft-target loss"));
    assert!(text.contains(
        "Marilyn Strathern put it in the form usually quoted (1997): \"When a measure becomes a target,\" she wrote, \"it ceases to be a good measure.\""
    ));
}

/// The registry's drawn widgets (what lessons may place, `widgets::DRAWN`) are exactly the
/// diagrams the shell's pages draw (`app::diagrams`): the two layers meet here, outside the
/// crate, so that no module of it imports from a layer above its own.
#[test]
fn every_drawn_widget_is_a_diagram_and_every_diagram_is_registered() {
    let drawn: Vec<&str> = ie_course::widgets::DRAWN.to_vec();
    let diagrams: Vec<&str> = ie_course::app::diagrams::data::names().collect();
    assert_eq!(drawn.len(), diagrams.len());
    for name in drawn {
        assert!(diagrams.contains(&name), "{name}");
    }
}
