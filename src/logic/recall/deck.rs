//! The deck: the cards each module carries, read once from the JSON the build checked.

use serde::Deserialize;
use std::collections::BTreeSet;

/// The deck's source, `content/cards.json` (the app reads it compiled: `content::lesson_cards`).
#[cfg(test)]
pub const CARDS_JSON: &str = include_str!("../../../content/cards.json");

/// One card of the deck.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    /// Stable id; a card whose id changes counts as a new card.
    pub id: String,
    /// Slug of the lesson the card comes from.
    pub lesson: String,
    /// The question.
    pub question: String,
    /// The answer, in the course's own words.
    pub answer: String,
}

/// Reads a deck file, checking that every card is complete and every id unique and well formed.
pub fn parse_deck(json: &str) -> Result<Vec<CardDef>, String> {
    let cards: Vec<CardDef> =
        serde_json::from_str(json).map_err(|e| format!("content/cards.json: {e}"))?;
    let mut seen = BTreeSet::new();
    for (i, c) in cards.iter().enumerate() {
        let at = format!("content/cards.json: card {} ({:?})", i + 1, c.id);
        if c.id.is_empty()
            || !c
                .id
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-')
        {
            return Err(format!("{at}: an id is lower-case letters, digits and '-'"));
        }
        if !seen.insert(c.id.as_str()) {
            return Err(format!("{at}: the id is used twice"));
        }
        for (field, text) in [
            ("lesson", &c.lesson),
            ("question", &c.question),
            ("answer", &c.answer),
        ] {
            if text.trim().is_empty() {
                return Err(format!("{at}: the {field} is empty"));
            }
        }
    }
    if cards.is_empty() {
        return Err("content/cards.json: the deck has no cards".into());
    }
    Ok(cards)
}

/// The cards a widgets module carries: the JSON of some lessons' cards, as the build cuts them
/// from `content/cards.json` (`content::lesson_cards`), so that a lesson's module links its own
/// cards and no others; the recall page's module carries [`WHOLE_DECK`].
pub type DeckSource = &'static [&'static str];

/// Every lesson's cards: the whole deck, in the file's order.
pub const WHOLE_DECK: DeckSource = crate::content::lesson_cards::WHOLE_DECK;

/// The cards of `source`, read once. A malformed file fails the native test
/// `the_deck_file_is_valid_and_names_real_lessons`; should one slip through, its lesson's
/// cards are left out rather than crash the module.
pub fn deck_of(source: DeckSource) -> &'static [CardDef] {
    thread_local! {
        static READ: std::cell::RefCell<Vec<(DeckSource, &'static [CardDef])>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    READ.with(|read| {
        let mut read = read.borrow_mut();
        if let Some((_, cards)) = read.iter().find(|(s, _)| std::ptr::eq(*s, source)) {
            return *cards;
        }
        let cards: Vec<CardDef> = source
            .iter()
            .flat_map(|json| parse_deck(json).unwrap_or_default())
            .collect();
        // Kept for the life of the module: a module reads one source (two in tests).
        let cards: &'static [CardDef] = Vec::leak(cards);
        read.push((source, cards));
        cards
    })
}

/// The whole deck ([`deck_of`] [`WHOLE_DECK`]).
pub fn deck() -> &'static [CardDef] {
    deck_of(WHOLE_DECK)
}
