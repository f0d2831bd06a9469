//! Static pages: the shell with a page's text already in it, written by the build.
//!
//! `src/bin/prerender.rs` (a Trunk post-build hook) calls [`page_html`] for the title page and
//! every lesson, so each URL is a real file: deep links work on any static host, and readers and
//! crawlers without JavaScript get the text. The markup mirrors the app's, so nothing moves when
//! the app takes over.

use crate::content::{Block, COURSE_TITLE, LESSONS};
use crate::nav::{self, Route};

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn toc(current: Route) -> String {
    let mut out = String::from("<nav id=\"toc\" class=\"toc\" aria-label=\"Lessons\"><ol>");
    for (i, l) in LESSONS.iter().enumerate() {
        let here = if current == Route::Lesson(i) {
            " aria-current=\"page\""
        } else {
            ""
        };
        out.push_str(&format!(
            "<li><a href=\"{}\"{here}>{}</a></li>",
            nav::href(Route::Lesson(i)),
            escape(l.title)
        ));
    }
    out.push_str("</ol></nav>");
    out
}

fn article(route: Route) -> String {
    match route {
        Route::Lesson(i) => {
            let l = &LESSONS[i];
            let mut out = format!(
                "<article class=\"lesson\" data-lesson=\"{}\"><p class=\"eyebrow\">Lesson {} of {}</p><h1 tabindex=\"-1\">{}</h1>",
                l.slug,
                i + 1,
                LESSONS.len(),
                escape(l.title)
            );
            for b in l.blocks {
                match b {
                    Block::Prose(html) => {
                        out.push_str("<div class=\"prose\">");
                        out.push_str(html);
                        out.push_str("</div>");
                    }
                    Block::Widget(w) => out.push_str(&format!(
                        "<div class=\"widget-slot\" data-widget=\"{}\">This interactive widget needs JavaScript.</div>",
                        w.name
                    )),
                }
            }
            let (prev, next) = nav::neighbours(i);
            out.push_str("<nav class=\"pager\" aria-label=\"Previous and next lesson\">");
            for (j, class, rel, label) in [
                (prev, "pager-prev", "prev", "Previous"),
                (next, "pager-next", "next", "Next"),
            ] {
                if let Some(j) = j {
                    out.push_str(&format!(
                        "<a class=\"{class}\" rel=\"{rel}\" href=\"{}\"><span class=\"pager-label\">{label}</span><span class=\"pager-title\">{}</span></a>",
                        nav::href(Route::Lesson(j)),
                        escape(LESSONS[j].title)
                    ));
                }
            }
            out.push_str("</nav></article>");
            out
        }
        Route::Home => {
            let mut out = format!(
                "<article class=\"lesson home\"><p class=\"eyebrow\">An interactive course</p><h1 tabindex=\"-1\">{}</h1><ol class=\"lesson-list\">",
                escape(COURSE_TITLE)
            );
            for (i, l) in LESSONS.iter().enumerate() {
                out.push_str(&format!(
                    "<li><a href=\"{}\">{}</a><p>{}</p></li>",
                    nav::href(Route::Lesson(i)),
                    escape(l.title),
                    escape(l.description)
                ));
            }
            out.push_str("</ol></article>");
            out
        }
        Route::NotFound => "<article class=\"lesson\"><h1>No lesson at this address</h1><p><a href=\"./\">Go to the start of the course</a>.</p></article>".into(),
    }
}

/// The title and description a page's `<head>` carries.
pub fn head_of(route: Route) -> (String, &'static str) {
    match route {
        Route::Lesson(i) => (
            format!("{} \u{b7} {COURSE_TITLE}", LESSONS[i].title),
            LESSONS[i].description,
        ),
        Route::Home => (COURSE_TITLE.to_string(), ""),
        Route::NotFound => (format!("Not found \u{b7} {COURSE_TITLE}"), ""),
    }
}

/// The built shell (`dist/index.html`) with `route`'s page in it. `None` when the shell has no
/// `<div id="app"></div>` to fill.
pub fn page_html(shell: &str, route: Route) -> Option<String> {
    let (title, description) = head_of(route);
    let slot = "<div id=\"app\"></div>";
    let at = shell.find(slot)?;
    let skip = format!(
        "<a class=\"skip-link\" href=\"{}#main\">Skip to the lesson</a>",
        nav::href(route)
    );
    let body = format!(
        "<div id=\"app\">{skip}<header class=\"site-header\"><a class=\"site-title\" href=\"./\">{}</a></header><div class=\"notices\"></div><div class=\"layout\">{}<main id=\"main\" tabindex=\"-1\">{}</main></div></div>",
        escape(COURSE_TITLE),
        toc(route),
        article(route)
    );
    let mut page = format!("{}{}{}", &shell[..at], body, &shell[at + slot.len()..]);
    if let (Some(s), Some(e)) = (page.find("<title>"), page.find("</title>")) {
        page.replace_range(s + 7..e, &escape(&title));
    }
    if !description.is_empty() {
        let marker = "<meta name=\"description\" content=\"";
        if let Some(s) = page.find(marker) {
            let from = s + marker.len();
            if let Some(len) = page[from..].find('"') {
                page.replace_range(from..from + len, &escape(description));
            }
        }
    }
    Some(page)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHELL: &str = "<html><head><title>T</title><meta name=\"description\" content=\"d\"></head><body><div id=\"app\"></div><script></script></body></html>";

    #[test]
    fn a_lesson_page_carries_its_text_title_and_description() {
        let page = page_html(SHELL, Route::Lesson(3)).unwrap();
        let lesson = &LESSONS[3];
        assert!(page.contains(&format!("<title>{}", escape(lesson.title))));
        assert!(page.contains(&escape(lesson.description)));
        assert!(page.contains(&format!(
            "<h1 tabindex=\"-1\">{}</h1>",
            escape(lesson.title)
        )));
        assert!(page.contains("aria-current=\"page\""));
        assert!(page.ends_with("<script></script></body></html>"));
    }

    #[test]
    fn a_shell_without_the_slot_is_refused() {
        assert!(page_html("<html></html>", Route::Home).is_none());
    }
}
