//! `ie-lm`: the course's decode engine, a llama-style character model in plain Rust.
//!
//! It reads like llama2.c's `run.c`, top to bottom:
//! 1. [`config`]: the shape of a model, and the precision of its weights;
//! 2. [`tokenizer`]: characters to token ids and back;
//! 3. [`f16`] and [`file`]: the weights file the training script writes;
//! 4. [`quant`]: int8 and int4 with one f32 scale per group;
//! 5. [`kernels`] (over [`simd`]): matrix × vector at each precision, where the time goes;
//! 6. [`model`]: RMSNorm, RoPE, attention with a KV cache, SwiGLU, and `forward`;
//! 7. [`eval`]: greedy generation, cross-entropy, KL and agreement on a text;
//! 8. [`cost`]: bytes read per token, for the decode ceiling;
//! 9. [`random`]: models with random weights, made at their precision, to be timed;
//! 10. [`bandwidth`]: a read of a large buffer, to measure memory bandwidth.
//!
//! The browser layer (`wasm`, wasm32 only) is a thin wrapper over these.

pub mod config;
pub mod cost;
pub mod error;
pub mod eval;
pub mod f16;
pub mod file;
pub mod kernels;
pub mod math;
pub mod model;
pub mod quant;
pub mod random;
pub mod simd;
pub mod tokenizer;

#[cfg(all(target_arch = "wasm32", feature = "browser"))]
mod wasm;

pub use config::{Config, Precision};
pub use error::LmError;
pub use eval::{compare, cross_entropy, generate_greedy, Comparison, Generator, TextScore};
pub use model::{forward, Model, State};
pub use random::RandomModelBuilder;
pub use tokenizer::CharTokenizer;

/// Memory bandwidth: a buffer read end to end.
pub mod bandwidth {
    use crate::error::{try_vec, LmError};
    use crate::kernels;

    /// A buffer to read, filled (so that its pages are really in memory).
    #[derive(Debug, Clone)]
    pub struct ReadBuffer {
        words: Vec<u32>,
    }

    impl ReadBuffer {
        /// A buffer of `bytes` bytes (rounded down to 64), or an error value if the memory
        /// cannot be had.
        pub fn new(bytes: usize) -> Result<ReadBuffer, LmError> {
            let n = bytes / 64 * 16;
            let mut words = try_vec(n, 0u32, "bandwidth buffer")?;
            for (i, w) in words.iter_mut().enumerate() {
                *w = i as u32;
            }
            Ok(ReadBuffer { words })
        }

        /// Its size in bytes.
        pub fn bytes(&self) -> usize {
            self.words.len() * 4
        }

        /// Reads the whole buffer once (the caller times it); returns a checksum.
        pub fn read(&self) -> u32 {
            kernels::read_sum(&self.words)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::bandwidth::ReadBuffer;

    #[test]
    fn the_read_buffer_reads_what_it_holds() {
        let b = ReadBuffer::new(1000).unwrap();
        assert_eq!(b.bytes(), 960);
        // Words 0..240: their sum.
        assert_eq!(b.read(), (0..240u32).sum::<u32>());
        assert!(ReadBuffer::new(usize::MAX / 2).is_err());
    }
}
