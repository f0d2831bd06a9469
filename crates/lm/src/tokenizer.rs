//! Characters in, characters out: the vocabulary is a list of characters, a token is an index.

use crate::error::LmError;

/// A character-level tokenizer. Its vocabulary is stored with the model.
#[derive(Debug, Clone, PartialEq)]
pub struct CharTokenizer {
    chars: Vec<char>,
}

impl CharTokenizer {
    /// A tokenizer over these characters, token `i` being `chars[i]`.
    pub fn new(chars: Vec<char>) -> CharTokenizer {
        CharTokenizer { chars }
    }

    /// The printable ASCII characters and the newline: the vocabulary of the random models.
    pub fn printable_ascii() -> CharTokenizer {
        let mut chars = vec!['\n'];
        chars.extend((32u8..127).map(char::from));
        CharTokenizer { chars }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// True when the vocabulary is empty.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// The vocabulary, token by token.
    pub fn chars(&self) -> &[char] {
        &self.chars
    }

    /// Token ids of a text; a character outside the vocabulary is an error naming it.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, LmError> {
        text.chars()
            .enumerate()
            .map(|(position, ch)| {
                self.chars
                    .iter()
                    .position(|&c| c == ch)
                    .map(|i| i as u32)
                    .ok_or(LmError::UnknownCharacter { ch, position })
            })
            .collect()
    }

    /// The character of one token.
    pub fn decode_one(&self, token: u32) -> Result<char, LmError> {
        self.chars
            .get(token as usize)
            .copied()
            .ok_or(LmError::UnknownToken(token))
    }

    /// The text of a sequence of tokens.
    pub fn decode(&self, tokens: &[u32]) -> Result<String, LmError> {
        tokens.iter().map(|&t| self.decode_one(t)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_through_tokens() {
        let t = CharTokenizer::new("\n .,GIKNabdgow".chars().collect());
        let ids = t.encode("KING.\nNow, good").unwrap();
        assert_eq!(ids.len(), 15);
        assert_eq!(&ids[..6], &[6, 5, 7, 4, 2, 0]);
        assert_eq!(t.decode(&ids).unwrap(), "KING.\nNow, good");
    }

    #[test]
    fn an_unknown_character_is_an_error_that_names_it() {
        let t = CharTokenizer::new("ab ".chars().collect());
        let e = t.encode("ab ba é").unwrap_err();
        assert_eq!(
            e,
            LmError::UnknownCharacter {
                ch: 'é',
                position: 6
            }
        );
        assert_eq!(
            e.to_string(),
            "the character 'é' (at position 6) is not in the model's vocabulary"
        );
        assert_eq!(t.decode(&[0, 7]), Err(LmError::UnknownToken(7)));
    }

    #[test]
    fn the_random_models_vocabulary_is_printable() {
        let t = CharTokenizer::printable_ascii();
        assert_eq!(t.len(), 96);
        assert!(t.encode("Hello, world!\n~").is_ok());
    }
}
