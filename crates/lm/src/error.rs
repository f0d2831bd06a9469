//! What can go wrong, as values a page can show: the engine never panics on bad input.

use std::fmt;

/// Everything the engine can refuse, each with a message a learner can read.
#[derive(Debug, Clone, PartialEq)]
pub enum LmError {
    /// A prompt or text holds a character the model's vocabulary lacks.
    UnknownCharacter {
        /// The character.
        ch: char,
        /// Its position in the text, in characters from 0.
        position: usize,
    },
    /// A token id outside the vocabulary.
    UnknownToken(u32),
    /// The memory for the model or its cache could not be had.
    OutOfMemory {
        /// What was being allocated.
        what: &'static str,
        /// How much was asked for, in bytes.
        bytes: u128,
    },
    /// A weights file that is not what the format says.
    BadFile(String),
    /// A model shape the engine cannot run (or not at this precision).
    BadConfig(String),
    /// The position is past the model's context length.
    ContextFull {
        /// The context length, in tokens.
        seq_len: usize,
    },
    /// A name (of a precision or a model) the engine does not know.
    UnknownName(String),
    /// Generation needs at least one character to start from.
    EmptyPrompt,
}

impl fmt::Display for LmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LmError::UnknownCharacter { ch, position } => write!(
                f,
                "the character {ch:?} (at position {position}) is not in the model's vocabulary"
            ),
            LmError::UnknownToken(t) => write!(f, "token {t} is not in the model's vocabulary"),
            LmError::OutOfMemory { what, bytes } => write!(
                f,
                "not enough memory for the {what}: {:.1} MB could not be allocated",
                *bytes as f64 / 1e6
            ),
            LmError::BadFile(m) => write!(f, "not a valid model file: {m}"),
            LmError::BadConfig(m) => write!(f, "unsupported model shape: {m}"),
            LmError::ContextFull { seq_len } => {
                write!(
                    f,
                    "the context is full: the model reads at most {seq_len} tokens"
                )
            }
            LmError::UnknownName(n) => write!(f, "unknown name {n:?}"),
            LmError::EmptyPrompt => write!(
                f,
                "the prompt is empty: give the model at least one character"
            ),
        }
    }
}

impl std::error::Error for LmError {}

/// A vector of `n` copies of `value`, or an error value when the memory cannot be had
/// (`try_reserve`: a failed allocation in the browser is a message, never an abort).
pub fn try_vec<T: Clone>(n: usize, value: T, what: &'static str) -> Result<Vec<T>, LmError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| LmError::OutOfMemory {
        what,
        bytes: n as u128 * std::mem::size_of::<T>() as u128,
    })?;
    v.resize(n, value);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absurd_allocation_is_an_error_value() {
        let r = try_vec(usize::MAX / 2, 0f32, "test buffer");
        match r {
            Err(LmError::OutOfMemory { what, bytes }) => {
                assert_eq!(what, "test buffer");
                assert!(bytes > 1u128 << 60);
            }
            other => panic!("expected OutOfMemory, got {:?}", other.map(|v| v.len())),
        }
        let msg = try_vec(usize::MAX / 8, 0u8, "weights")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            msg.starts_with("not enough memory for the weights"),
            "{msg}"
        );
    }
}
