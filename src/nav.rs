//! Which page a URL shows. Pure: the browser side lives in `app::router`.
//!
//! Lessons live at `<base>/<slug>/`; the title page at `<base>/`, the print page at
//! `<base>/print/` and the glossary at `<base>/glossary/`. The base is the site's public URL
//! path (`/` locally, `/repo/` on GitHub Pages), read from the page's `<base href>`.

#[cfg(test)]
use crate::content::LESSONS;
use crate::content::LESSON_TITLES;

/// A page of the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// The title page.
    Home,
    /// A lesson, by its index in [`crate::content::LESSONS`].
    Lesson(usize),
    /// Every lesson on one page, for printing.
    Print,
    /// Every term of the glossary, with its definition (reference, not a lesson).
    Glossary,
    /// Anything else under the base.
    NotFound,
}

/// The page for `pathname` (e.g. `/sub/model-selection/`) on a site served under `base`
/// (e.g. `/sub/`). A missing trailing slash is accepted; `index.html` is the same as its folder.
pub fn route_for(pathname: &str, base: &str) -> Route {
    let base = base.trim_end_matches('/');
    let Some(rest) = pathname.strip_prefix(base) else {
        return Route::NotFound;
    };
    if !(rest.is_empty() || rest.starts_with('/')) {
        return Route::NotFound;
    }
    let rest = rest.trim_start_matches('/');
    let rest = rest.strip_suffix("index.html").unwrap_or(rest);
    let slug = rest.trim_end_matches('/');
    if slug.is_empty() {
        return Route::Home;
    }
    if slug == PRINT_SLUG {
        return Route::Print;
    }
    if slug == GLOSSARY_SLUG {
        return Route::Glossary;
    }
    // The slug table, not `LESSONS`: the widgets module routes too, and must not carry the text.
    LESSON_TITLES
        .iter()
        .position(|(s, _)| *s == slug)
        .map_or(Route::NotFound, Route::Lesson)
}

/// The path segment of the whole-chapter print page.
pub const PRINT_SLUG: &str = "print";

/// The path segment of the glossary page. The lesson compiler refuses a lesson of this name,
/// and term marks in the lessons link to `glossary/#term-<id>`.
pub const GLOSSARY_SLUG: &str = "glossary";

/// The link to a page, relative to the document's `<base href>`.
pub fn href(route: Route) -> String {
    match route {
        Route::Home | Route::NotFound => "./".into(),
        Route::Print => format!("{PRINT_SLUG}/"),
        Route::Glossary => format!("{GLOSSARY_SLUG}/"),
        Route::Lesson(i) => match LESSON_TITLES.get(i) {
            Some((slug, _)) => format!("{slug}/"),
            None => "./".into(),
        },
    }
}

/// A page's title and description, for its `<head>`: the one table the build's pages and the
/// running app both read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageHead {
    /// The document title, e.g. "Choosing a model · Inference Engineering …".
    pub title: String,
    /// The meta description.
    pub description: &'static str,
}

/// The title and description of `route`'s page.
pub fn head(route: Route) -> PageHead {
    PageHead {
        title: title(route),
        description: description(route),
    }
}

/// The document title of `route`'s page (the running app sets it on each navigation).
pub fn title(route: Route) -> String {
    use crate::content::{COURSE_TITLE, GLOSSARY_TITLE, LESSONS};
    match route {
        Route::Lesson(i) => match LESSONS.get(i) {
            Some(l) => format!("{} \u{b7} {COURSE_TITLE}", l.title),
            None => format!("Not found \u{b7} {COURSE_TITLE}"),
        },
        Route::Home => COURSE_TITLE.to_string(),
        Route::Print => format!("The whole chapter \u{b7} {COURSE_TITLE}"),
        Route::Glossary => format!("{GLOSSARY_TITLE} \u{b7} {COURSE_TITLE}"),
        Route::NotFound => format!("Not found \u{b7} {COURSE_TITLE}"),
    }
}

/// The description of the course as a whole: the title page's, and a missing page's.
const COURSE_DESCRIPTION: &str = "An interactive course on choosing a model for LLM inference: \
    why smaller is faster and cheaper, evals, fine-tuning and distillation.";

/// The meta description of `route`'s page. Only the build writes it, so the app's wasm does not
/// carry these sentences.
fn description(route: Route) -> &'static str {
    use crate::content::{GLOSSARY, LESSONS};
    match route {
        Route::Lesson(i) => LESSONS.get(i).map_or("", |l| l.description),
        Route::Print => "Every lesson of the course on one page, ready to print.",
        Route::Glossary => GLOSSARY.description,
        Route::Home | Route::NotFound => COURSE_DESCRIPTION,
    }
}

/// The lessons before and after `index`, for previous/next links.
pub fn neighbours(index: usize) -> (Option<usize>, Option<usize>) {
    let prev = index.checked_sub(1);
    let next = (index + 1 < LESSON_TITLES.len()).then_some(index + 1);
    (prev, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_at_the_root_and_under_a_sub_path() {
        let slug = LESSONS[2].slug;
        for base in ["/", "/some/sub/path/"] {
            assert_eq!(route_for(base, base), Route::Home);
            assert_eq!(route_for(&format!("{base}index.html"), base), Route::Home);
            assert_eq!(route_for(&format!("{base}{slug}/"), base), Route::Lesson(2));
            assert_eq!(route_for(&format!("{base}{slug}"), base), Route::Lesson(2));
            assert_eq!(
                route_for(&format!("{base}{slug}/index.html"), base),
                Route::Lesson(2)
            );
            assert_eq!(route_for(&format!("{base}nope/"), base), Route::NotFound);
            assert_eq!(route_for(&format!("{base}print/"), base), Route::Print);
            assert_eq!(
                route_for(&format!("{base}glossary/"), base),
                Route::Glossary
            );
            assert_eq!(
                route_for(&format!("{base}glossary/index.html"), base),
                Route::Glossary
            );
        }
        assert_eq!(route_for("/elsewhere/", "/some/sub/path/"), Route::NotFound);
        // A path that only starts like the base is not under it.
        let glued = format!("/some/sub/path{slug}/");
        assert_eq!(route_for(&glued, "/some/sub/path/"), Route::NotFound);
    }

    #[test]
    fn hrefs_round_trip_and_neighbours_stop_at_the_ends() {
        for i in 0..LESSONS.len() {
            let path = format!("/b/{}", href(Route::Lesson(i)));
            assert_eq!(route_for(&path, "/b/"), Route::Lesson(i));
        }
        for route in [Route::Print, Route::Glossary] {
            assert_eq!(route_for(&format!("/b/{}", href(route)), "/b/"), route);
            // Relative, so that the site works under any base path.
            assert!(!href(route).starts_with('/'));
        }
        assert_eq!(neighbours(0), (None, Some(1)));
        assert_eq!(
            neighbours(LESSONS.len() - 1),
            (Some(LESSONS.len() - 2), None)
        );
    }
}
