//! The lesson compiler, natively: good lessons compile to prose and widgets, and every kind of
//! broken lesson fails with `content/<file>:<line>: <what to fix>`.

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

/// Compiles a course of the given files (SUMMARY.md included).
fn compile(
    files: &[(&str, &str)],
) -> Result<(lessons::Toc, Vec<lessons::CompiledLesson>), CompileError> {
    let read = |name: &str| {
        files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.to_string())
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
    let (toc, lessons) =
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
}

/// The real content compiles (the build does this too; here it is a test with a clear failure).
#[test]
fn the_course_content_compiles() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| e.to_string());
    let summary = read("SUMMARY.md").unwrap();
    let toc = lessons::parse_toc(&summary).unwrap();
    assert_eq!(toc.entries.len(), 8, "the course plan has eight lessons");
    assert_eq!(toc.entries[3].slug, "model-selection");
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
