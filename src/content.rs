//! The course's lessons, compiled from `content/` at build time by `build/main.rs`.
//!
//! Nothing here parses Markdown at run time: a lesson is prose HTML (made from our own Markdown,
//! so it may be set with `inner_html`) and widget placements, in reading order.

/// One lesson of the course.
#[derive(Debug)]
pub struct Lesson {
    /// URL path segment, e.g. `model-selection`.
    pub slug: &'static str,
    /// Title from the table of contents.
    pub title: &'static str,
    /// One sentence for the meta description and the title page.
    pub description: &'static str,
    /// Source file in `content/`.
    pub file: &'static str,
    /// The prose as plain text, one section per heading, for search.
    pub sections: &'static [Section],
    /// Every heading, in order.
    pub headings: &'static [Heading],
    /// Prose and widgets, in reading order.
    pub blocks: &'static [Block],
}

/// A heading inside a lesson.
#[derive(Debug)]
pub struct Heading {
    /// 2 for `##`, 3 for `###`.
    pub level: u8,
    /// The anchor: stable, unique within the lesson.
    pub id: &'static str,
    /// The heading's text.
    pub text: &'static str,
}

/// The plain text under one heading (or before the first), for search.
#[derive(Debug)]
pub struct Section {
    /// The heading's anchor; empty for the text before the first heading.
    pub id: &'static str,
    /// The heading's text; empty for the text before the first heading.
    pub heading: &'static str,
    /// The section's text, white space collapsed.
    pub text: &'static str,
}

/// A piece of a lesson.
#[derive(Debug)]
pub enum Block {
    /// HTML built from our own Markdown.
    Prose(&'static str),
    /// A live widget.
    Widget(WidgetUse),
}

/// Where a lesson places a widget, and with which parameters.
#[derive(Debug)]
pub struct WidgetUse {
    /// Registered name, e.g. `weight-memory`.
    pub name: &'static str,
    /// Line of the directive in the lesson file.
    pub line: u32,
    /// The directive's `key: value` parameters.
    pub params: WidgetParams,
}

/// A widget's parameters from its directive.
#[derive(Debug, Clone, Copy)]
pub struct WidgetParams(pub &'static [(&'static str, &'static str)]);

impl WidgetParams {
    /// The value given for `key`, if any.
    pub fn get(&self, key: &str) -> Option<&'static str> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }
}

/// The glossary page: every term the lessons mark, each defined in one sentence. Not a lesson:
/// it has no place in the reading order or the reading progress.
#[derive(Debug)]
pub struct Glossary {
    /// One sentence for the page's meta description.
    pub description: &'static str,
    /// The page's body, as one prose block (its text travels in the page, like a lesson's).
    pub blocks: &'static [Block],
    /// Every term, in the glossary file's order.
    pub terms: &'static [Term],
}

/// A term of the glossary.
#[derive(Debug)]
pub struct Term {
    /// Its id: the entry's anchor is `#term-<id>`, and its marks in the lessons carry
    /// `data-term="<id>"`.
    pub id: &'static str,
    /// The term as the glossary shows it.
    pub name: &'static str,
    /// Its one-sentence definition.
    pub definition: &'static str,
}

/// The glossary page's title.
pub const GLOSSARY_TITLE: &str = "Glossary";

/// The key of the glossary's text in the pages (`data-prose`) and in the app's prose store.
pub const GLOSSARY_KEY: &str = "glossary";

/// The lessons' text (prose, section text, search index) in the generated tables below. Native
/// builds (the tests, the pre-renderer) carry it; the browser's wasm does not: every page the
/// build writes holds its own text, the app reads it from there (`app::prose`), and search
/// fetches `search.json`. So the text crosses the network once, in the HTML.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! lesson_text {
    ($text:literal) => {
        $text
    };
}
#[cfg(target_arch = "wasm32")]
macro_rules! lesson_text {
    ($text:literal) => {
        ""
    };
}

include!(concat!(env!("OUT_DIR"), "/content.rs"));

/// The title page's opening paragraph (the app and the pre-rendered page show the same one, so
/// nothing moves or repaints when the app takes over).
pub const COURSE_LEDE: &str = "What makes a smaller model quicker and cheaper to serve, how to show it is good enough with your own evals, \
and when fine-tuning or distillation earns its keep \u{2014} with live calculators, a \
distillation-loss playground, an eval you can edit, and recall cards that remember what you know.";

/// The index and title of the lesson at `slug`, without touching any lesson's text.
pub fn title_by_slug(slug: &str) -> Option<(usize, &'static str)> {
    LESSON_TITLES
        .iter()
        .position(|(s, _)| *s == slug)
        .map(|i| (i, LESSON_TITLES[i].1))
}

/// The text of heading `id` in lesson `slug`, without touching any lesson's text.
pub fn heading_text(slug: &str, id: &str) -> Option<&'static str> {
    HEADING_TITLES
        .iter()
        .find(|(s, i, _)| *s == slug && *i == id)
        .map(|(_, _, t)| *t)
}

/// The lesson at `slug` and its index in reading order.
pub fn lesson_by_slug(slug: &str) -> Option<(usize, &'static Lesson)> {
    LESSONS.iter().enumerate().find(|(_, l)| l.slug == slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_has_text_and_a_description() {
        assert!(LESSONS.len() >= 8, "the course plan has eight lessons");
        for lesson in LESSONS {
            assert!(!lesson.description.is_empty(), "{}", lesson.slug);
            assert!(!lesson.blocks.is_empty(), "{}", lesson.slug);
        }
        assert_eq!(lesson_by_slug(LESSONS[3].slug).map(|(i, _)| i), Some(3));
        assert!(lesson_by_slug("no-such-lesson").is_none());
    }
}
