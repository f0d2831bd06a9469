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
    /// A widget the build draws (a diagram, named here): its markup travels with the prose, and
    /// a small script rather than a widgets module answers it (`widgets::DRAWN`).
    Drawn(&'static str),
}

/// Where a lesson places a widget, and with which parameters.
#[derive(Debug)]
pub struct WidgetUse {
    /// Registered name, e.g. `weight-memory`.
    pub name: &'static str,
    /// Line of the directive in the lesson file.
    pub line: u32,
    /// What it needs from the widgets module that serves it, space-separated: its name, and
    /// for a lesson's recall form that lesson's cards (`widgets::widget_needs`, run by the build).
    pub needs: &'static str,
    /// The directive's `key: value` parameters, in the order written, as the JSON the page hands
    /// the widgets module (`[["key", "value"], …]`, written by the build), read back by
    /// [`widget_params`].
    pub params: &'static str,
}

/// A widget's parameters, as its `mount` reads them. Owned: they reach the widgets module as
/// JSON from the page, not as the lesson's static data. Cheap to clone (shared, not copied).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WidgetParams(std::rc::Rc<[(String, String)]>);

impl WidgetParams {
    /// The value given for `key`, if any (the first, if a key is given twice).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every key given, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }
}

/// Why a widget's place shows a message instead of the widget. Lessons cannot cause these (the
/// build rejects unknown widgets and parameters); a page out of step with the widgets module, or
/// one edited by hand, can. Its `Display` is the message the reader sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WidgetError {
    /// No widget has this name.
    UnknownWidget {
        /// The name the page asked for.
        widget: String,
    },
    /// The parameters are not a JSON list of `["key", "value"]` pairs of strings.
    BadParams {
        /// The widget's name.
        widget: String,
        /// What is wrong with them, from the JSON reader.
        reason: String,
    },
    /// The widget has no parameter with this key.
    UnknownKey {
        /// The widget's name.
        widget: String,
        /// The key it does not take.
        key: String,
        /// The keys it does take.
        accepted: Vec<String>,
    },
    /// The widget exists, but the module that was asked to mount it does not carry it.
    NotInModule {
        /// The widget's name.
        widget: String,
    },
}

impl std::fmt::Display for WidgetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WidgetError::UnknownWidget { widget } => write!(
                f,
                "This page asks for an interactive part called \u{201c}{widget}\u{201d}, which \
                 the course does not have. Reload the page to get the current version."
            ),
            WidgetError::BadParams { widget, reason } => write!(
                f,
                "The interactive part \u{201c}{widget}\u{201d} could not start: its settings \
                 could not be read ({reason})."
            ),
            WidgetError::NotInModule { widget } => write!(
                f,
                "The interactive part \u{201c}{widget}\u{201d} was asked of a part of the \
                 course that does not carry it. Reload the page to try again."
            ),
            WidgetError::UnknownKey {
                widget,
                key,
                accepted,
            } => write!(
                f,
                "The interactive part \u{201c}{widget}\u{201d} could not start: it has no \
                 setting \u{201c}{key}\u{201d} (it takes {}).",
                if accepted.is_empty() {
                    "none".to_string()
                } else {
                    accepted.join(", ")
                }
            ),
        }
    }
}

/// Reads the parameters the page gives widget `name` (`json`: a list of `["key", "value"]`
/// pairs, as the shell writes a [`WidgetUse`]'s) and checks them against `registry`, which lists
/// every widget with the keys it accepts.
pub fn widget_params(
    name: &str,
    json: &str,
    registry: &[(&str, &[&str])],
) -> Result<WidgetParams, WidgetError> {
    let Some((_, accepted)) = registry.iter().find(|(n, _)| *n == name) else {
        return Err(WidgetError::UnknownWidget {
            widget: name.to_string(),
        });
    };
    let pairs: Vec<(String, String)> =
        serde_json::from_str(json).map_err(|e| WidgetError::BadParams {
            widget: name.to_string(),
            reason: e.to_string(),
        })?;
    let params = WidgetParams(pairs.into());
    if let Some(key) = params.keys().find(|k| !accepted.contains(k)) {
        return Err(WidgetError::UnknownKey {
            widget: name.to_string(),
            key: key.to_string(),
            accepted: accepted.iter().map(|k| k.to_string()).collect(),
        });
    }
    Ok(params)
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
        .enumerate()
        .find(|(_, (s, _))| *s == slug)
        .map(|(i, (_, title))| (i, *title))
}

/// The lesson at `slug` and its index in reading order (for the tests: the app goes by index).
#[cfg(test)]
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

    const REGISTRY: &[(&str, &[&str])] =
        &[("weight-memory", &["params", "bits"]), ("latency", &[])];

    #[test]
    fn widget_params_read_the_pairs_the_shell_writes() {
        // The shell writes a directive's parameters with serde_json, as here.
        let pairs: &[(&str, &str)] = &[("params", "8"), ("bits", "4.85")];
        let json = serde_json::to_string(pairs).unwrap();
        let params = widget_params("weight-memory", &json, REGISTRY).unwrap();
        assert_eq!(params.get("params"), Some("8"));
        assert_eq!(params.get("bits"), Some("4.85"));
        assert_eq!(params.get("precision"), None);
        assert_eq!(params.keys().collect::<Vec<_>>(), ["params", "bits"]);
        // A clone shares the pairs.
        assert_eq!(params.clone(), params);
        let none = widget_params("latency", "[]", REGISTRY).unwrap();
        assert_eq!(none, WidgetParams::default());
        // Values are the widget's to judge: any string passes here.
        assert_eq!(
            widget_params("weight-memory", r#"[["params","lots"]]"#, REGISTRY)
                .unwrap()
                .get("params"),
            Some("lots")
        );
    }

    #[test]
    fn bad_json_is_a_message_not_a_default() {
        for json in [
            "",
            "{",
            r#"{"params":"8"}"#,
            r#"[["params"]]"#,
            r#"[["params",8]]"#,
            "null",
        ] {
            let err = widget_params("weight-memory", json, REGISTRY).unwrap_err();
            assert!(
                matches!(err, WidgetError::BadParams { .. }),
                "{json}: {err:?}"
            );
            let text = err.to_string();
            assert!(
                text.starts_with("The interactive part \u{201c}weight-memory\u{201d} could not start: its settings could not be read ("),
                "{text}"
            );
        }
    }

    #[test]
    fn an_unknown_widget_or_key_is_named_with_what_would_do() {
        let err = widget_params("weight-memroy", "[]", REGISTRY).unwrap_err();
        assert_eq!(
            err,
            WidgetError::UnknownWidget {
                widget: "weight-memroy".into()
            }
        );
        assert!(err.to_string().contains("\u{201c}weight-memroy\u{201d}"));
        // The name is checked first: a bad name with bad JSON names the widget.
        assert!(matches!(
            widget_params("nope", "{", REGISTRY),
            Err(WidgetError::UnknownWidget { .. })
        ));

        let err = widget_params(
            "weight-memory",
            r#"[["params","8"],["colour","red"]]"#,
            REGISTRY,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "The interactive part \u{201c}weight-memory\u{201d} could not start: it has no setting \
             \u{201c}colour\u{201d} (it takes params, bits)."
        );
        let err = widget_params("latency", r#"[["params","8"]]"#, REGISTRY).unwrap_err();
        assert!(err
            .to_string()
            .ends_with("no setting \u{201c}params\u{201d} (it takes none)."));
    }
}
