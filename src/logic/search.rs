//! Full-text search over the lessons: a small inverted index built at build time from the
//! content files (`build/main.rs` calls [`build_index`]), and the ranking the search box uses.
//! Pure: no web types; the same tokenizer runs at build time and at query time.

use std::collections::BTreeMap;

/// Words too common to be worth indexing.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "its", "of",
    "on", "or", "that", "the", "this", "to", "was", "with",
];

/// The indexable words of `text`: lower-case runs of ASCII letters and digits, stop words
/// dropped. "FP16" → "fp16", "tok/s" → "tok", "s". ASCII is enough for the course's English,
/// and keeps Unicode's case tables out of the shell's wasm.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .collect()
}

/// Where a term occurs: lesson index, section index within the lesson, and how often.
pub type Posting = (u16, u16, u16);

/// Builds the inverted index of `sections` (lesson index, section index, heading, text),
/// sorted by term for binary search.
pub fn build_index(sections: &[(usize, usize, &str, &str)]) -> Vec<(String, Vec<Posting>)> {
    let mut index: BTreeMap<String, BTreeMap<(u16, u16), u16>> = BTreeMap::new();
    for &(lesson, section, heading, text) in sections {
        for w in words(heading).into_iter().chain(words(text)) {
            *index
                .entry(w)
                .or_default()
                .entry((lesson as u16, section as u16))
                .or_default() += 1;
        }
    }
    index
        .into_iter()
        .map(|(term, postings)| {
            let list = postings.into_iter().map(|((l, s), n)| (l, s, n)).collect();
            (term, list)
        })
        .collect()
}

/// Reads the index text the build writes (see `build/main.rs`): one line per word, a tab, and
/// space-separated `lesson.section.count` entries. Lines that do not parse are skipped.
pub fn parse_index(text: &str) -> Vec<(&str, Vec<Posting>)> {
    text.lines()
        .filter_map(|line| {
            let (term, list) = line.split_once('\t')?;
            let postings = list
                .split(' ')
                .filter_map(|p| {
                    let mut parts = p.split('.').map(|n| n.parse::<u16>().ok());
                    Some((parts.next()??, parts.next()??, parts.next()??))
                })
                .collect();
            Some((term, postings))
        })
        .collect()
}

/// A section that matches a query, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Lesson index.
    pub lesson: usize,
    /// Section index within the lesson.
    pub section: usize,
    /// Relevance: higher is better.
    pub score: f64,
}

/// The sections that contain every word of `query` (each as a word prefix, so "distil" finds
/// "distillation"), ranked by term frequency weighted by rarity, with a bonus for words in the
/// section's heading. `heading_of` gives a section's heading. At most `limit` hits. `index` is
/// [`parse_index`]'s, its words borrowed or owned.
pub fn search(
    index: &[(impl AsRef<str>, Vec<Posting>)],
    query: &str,
    heading_of: impl Fn(usize, usize) -> String,
    limit: usize,
) -> Vec<Hit> {
    let terms = words(query);
    if terms.is_empty() {
        return Vec::new();
    }
    // Sets and maps here are filled by `insert`: collecting into one sorts first, and each
    // such sort would link one more copy of the sorting code (see `logic::order`).
    let mut sections = std::collections::BTreeSet::new();
    for &(l, s, _) in index.iter().flat_map(|(_, p)| p.iter()) {
        sections.insert((l, s));
    }
    let total_sections = sections.len().max(1) as f64;
    let mut scores: Option<BTreeMap<(u16, u16), f64>> = None;
    for term in &terms {
        // Every indexed word that starts with the query word.
        let start = index.partition_point(|(t, _)| t.as_ref() < term.as_str());
        let mut found: BTreeMap<(u16, u16), f64> = BTreeMap::new();
        for (t, postings) in index
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(|(t, _)| t.as_ref().starts_with(term.as_str()))
        {
            let idf = (total_sections / postings.len() as f64).ln() + 1.0;
            let exact = if t.as_ref() == term.as_str() {
                1.0
            } else {
                0.6
            };
            for &(l, s, n) in postings {
                *found.entry((l, s)).or_default() += f64::from(n).sqrt() * idf * exact;
            }
        }
        scores = Some(match scores {
            None => found,
            // Every word must match: keep sections found for all of them.
            Some(prev) => {
                let mut both = BTreeMap::new();
                for (k, v) in prev {
                    if let Some(f) = found.get(&k) {
                        both.insert(k, v + f);
                    }
                }
                both
            }
        });
    }
    let mut hits: Vec<Hit> = scores
        .unwrap_or_default()
        .into_iter()
        .map(|((l, s), score)| {
            let heading_words = words(&heading_of(l as usize, s as usize));
            let bonus = terms
                .iter()
                .filter(|t| heading_words.iter().any(|h| h.starts_with(t.as_str())))
                .count() as f64
                * 3.0;
            Hit {
                lesson: l as usize,
                section: s as usize,
                score: score + bonus,
            }
        })
        .collect();
    super::order::sort_by(&mut hits, |a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.lesson.cmp(&b.lesson))
            .then(a.section.cmp(&b.section))
    });
    hits.truncate(limit);
    hits
}

/// A short excerpt of `text` around the first word that starts with a word of `query`, as
/// pieces marked `true` where they match: rendered as text with `<mark>` around matches.
pub fn snippet(text: &str, query: &str, radius: usize) -> Vec<(String, bool)> {
    let terms = words(query);
    // Byte ranges of the matching start of every word that begins with a query term.
    let mut matches = Vec::new();
    let mut word_start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_ascii_alphanumeric(), word_start) {
            (true, None) => word_start = Some(i),
            (false, Some(s)) => {
                let word = text[s..i].to_ascii_lowercase();
                let best = terms
                    .iter()
                    .filter(|t| word.starts_with(t.as_str()))
                    .map(|t| t.chars().count())
                    .max();
                if let Some(chars) = best {
                    let end = text[s..i]
                        .char_indices()
                        .nth(chars)
                        .map_or(i, |(o, _)| s + o);
                    matches.push((s, end));
                }
                word_start = None;
            }
            _ => {}
        }
    }
    let first = matches.first().map_or(0, |m| m.0);
    let mut start = first.saturating_sub(radius);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (first + radius * 2).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    // Start and end on word boundaries.
    if start > 0 {
        start = text[start..first]
            .find(' ')
            .map_or(start, |p| start + p + 1);
    }
    if end < text.len() {
        end = text[..end].rfind(' ').filter(|&p| p > first).unwrap_or(end);
    }
    let mut out = Vec::new();
    if start > 0 {
        out.push(("\u{2026}".to_string(), false));
    }
    let mut at = start;
    for &(s, e) in matches.iter().filter(|(s, e)| *s >= start && *e <= end) {
        if s > at {
            out.push((text[at..s].to_string(), false));
        }
        out.push((text[s..e].to_string(), true));
        at = e;
    }
    if at < end {
        out.push((text[at..end].to_string(), false));
    }
    if end < text.len() {
        out.push(("\u{2026}".to_string(), false));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index_of(sections: &[(usize, usize, &str, &str)]) -> Vec<(String, Vec<Posting>)> {
        build_index(sections)
    }

    #[test]
    fn words_are_lower_case_without_stop_words() {
        assert_eq!(
            words("The FP16 weights of a 70B model"),
            ["fp16", "weights", "70b", "model"]
        );
    }

    #[test]
    fn finds_sections_containing_every_word_by_prefix_and_ranks_them() {
        let sections = [
            (
                0,
                0,
                "Evals",
                "An eval is a test of your task. Evals beat benchmarks.",
            ),
            (0, 1, "Benchmarks", "A benchmark is a public test."),
            (
                1,
                0,
                "Distillation",
                "A student learns from a teacher's soft targets.",
            ),
        ];
        let owned = index_of(&sections);
        // Through the same text form the build writes.
        let text: String = owned
            .iter()
            .map(|(t, p)| {
                let list: Vec<String> = p.iter().map(|(l, s, n)| format!("{l}.{s}.{n}")).collect();
                format!("{t}\t{}\n", list.join(" "))
            })
            .collect();
        let index = parse_index(&text);
        assert_eq!(index.len(), owned.len());
        let heading = |l: usize, s: usize| {
            sections
                .iter()
                .find(|x| x.0 == l && x.1 == s)
                .map(|x| x.2.to_string())
                .unwrap_or_default()
        };
        let hits = search(&index, "bench", heading, 10);
        assert_eq!(
            hits.iter()
                .map(|h| (h.lesson, h.section))
                .collect::<Vec<_>>(),
            [(0, 1), (0, 0)]
        );
        let hits = search(&index, "distil teacher", heading, 10);
        assert_eq!(hits.len(), 1);
        assert_eq!((hits[0].lesson, hits[0].section), (1, 0));
        assert!(search(&index, "teacher benchmark", heading, 10).is_empty());
        assert!(search(&index, "the", heading, 10).is_empty());
        assert!(search(&index, "zzz", heading, 10).is_empty());
    }

    #[test]
    fn snippets_mark_matches_and_trim_at_words() {
        let text =
            "Before you optimize anything, decide what fast means. Distillation copies a teacher.";
        let pieces = snippet(text, "distil", 20);
        let marked: Vec<&str> = pieces
            .iter()
            .filter(|p| p.1)
            .map(|p| p.0.as_str())
            .collect();
        assert_eq!(marked, ["Distil"]);
        let joined: String = pieces.iter().map(|p| p.0.as_str()).collect();
        assert!(joined.starts_with('\u{2026}'), "{joined}");
        assert!(joined.contains("Distillation copies"), "{joined}");
        // No match: the start of the text.
        let pieces = snippet(text, "zzz", 10);
        assert!(pieces[0].0.starts_with("Before"));
        assert!(pieces.iter().all(|p| !p.1));
    }

    proptest::proptest! {
        /// The index file is fetched, so it may arrive cut short or garbled: reading it and
        /// searching it never panics.
        #[test]
        fn any_index_text_is_read_without_panic(text in crate::logic::fuzz::any_text(), query in crate::logic::fuzz::any_text()) {
            let index = parse_index(&text);
            let _ = search(&index, &query, |l, s| format!("{l}.{s}"), 10);
            let _ = words(&query);
            let _ = snippet(&text, &query, 20);
        }
    }
}
