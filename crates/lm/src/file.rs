//! The weights file (`.ielm`), written by `models/train.py`. All numbers little-endian:
//!
//! ```text
//! magic    4 bytes   "IELM"
//! version  u32       1
//! dim, hidden_dim, n_layers, n_heads, vocab_size, seq_len     u32 each
//! vocab    vocab_size × u32: the Unicode code point of each token id
//! tensors  f16, in this order:
//!   token_embedding (vocab_size, dim)
//!   per layer: attention_norm (dim), wq (dim, dim), wk (dim, dim), wv (dim, dim),
//!              wo (dim, dim), ffn_norm (dim), w1 (hidden, dim), w2 (dim, hidden), w3 (hidden, dim)
//!   final_norm (dim)
//! ```
//! Matrices are (out, in), row-major. The file ends exactly after the last tensor.

use crate::config::{Config, Precision};
use crate::error::{try_vec, LmError};
use crate::f16::f16_to_f32;
use crate::model::{Layer, Matrix, Model};
use crate::tokenizer::CharTokenizer;

/// The first four bytes of every weights file.
pub const MAGIC: &[u8; 4] = b"IELM";
/// The format version this engine reads.
pub const VERSION: u32 = 1;
/// Largest width or count a header may give (a guard against nonsense headers).
const MAX_SIZE: u32 = 1 << 16;

/// Reads bytes in order, refusing to run past the end.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], LmError> {
        let Some((head, rest)) = self.bytes.split_at_checked(n) else {
            return Err(LmError::BadFile(format!("the file ends inside the {what}")));
        };
        self.bytes = rest;
        Ok(head)
    }

    fn u32(&mut self, what: &str) -> Result<u32, LmError> {
        let b = self.take(4, what)?;
        let mut four = [0u8; 4];
        four.copy_from_slice(b);
        Ok(u32::from_le_bytes(four))
    }

    /// n f16 values as f32.
    fn f16s(&mut self, n: usize, what: &str) -> Result<Vec<f32>, LmError> {
        let bytes = self.take(n * 2, what)?;
        let mut out = try_vec(0, 0.0, "weights")?;
        out.try_reserve_exact(n).map_err(|_| LmError::OutOfMemory {
            what: "weights",
            bytes: n as u128 * 4,
        })?;
        out.extend(bytes.chunks_exact(2).map(|b| {
            let mut two = [0u8; 2];
            two.copy_from_slice(b);
            f16_to_f32(u16::from_le_bytes(two))
        }));
        Ok(out)
    }

    /// A (rows, cols) matrix stored at `precision`.
    fn matrix(
        &mut self,
        rows: usize,
        cols: usize,
        precision: Precision,
        what: &str,
    ) -> Result<Matrix, LmError> {
        let w = self.f16s(rows * cols, what)?;
        Matrix::from_f32(&w, precision)
    }
}

/// Reads a weights file, storing its matrices at `precision`.
pub fn load(bytes: &[u8], precision: Precision) -> Result<Model, LmError> {
    let mut r = Reader { bytes };
    if r.take(4, "magic number")? != MAGIC {
        return Err(LmError::BadFile("it does not start with IELM".into()));
    }
    let version = r.u32("header")?;
    if version != VERSION {
        return Err(LmError::BadFile(format!(
            "version {version}; this engine reads version {VERSION}"
        )));
    }
    let mut head = [0usize; 6];
    for h in head.iter_mut() {
        let v = r.u32("header")?;
        if v > MAX_SIZE {
            return Err(LmError::BadFile(format!("a size of {v} in the header")));
        }
        *h = v as usize;
    }
    let [dim, hidden_dim, n_layers, n_heads, vocab_size, seq_len] = head;
    let config = Config {
        dim,
        hidden_dim,
        n_layers,
        n_heads,
        vocab_size,
        seq_len,
    };
    config.check(precision)?;
    let mut chars = Vec::new();
    for _ in 0..vocab_size {
        let cp = r.u32("vocabulary")?;
        chars.push(
            char::from_u32(cp)
                .ok_or_else(|| LmError::BadFile(format!("{cp:#x} is not a character")))?,
        );
    }

    let embedding = r.matrix(vocab_size, dim, precision, "token embedding")?;
    let mut layers = Vec::new();
    for _ in 0..n_layers {
        layers.push(Layer {
            attention_norm: r.f16s(dim, "attention norm")?,
            wq: r.matrix(dim, dim, precision, "wq")?,
            wk: r.matrix(dim, dim, precision, "wk")?,
            wv: r.matrix(dim, dim, precision, "wv")?,
            wo: r.matrix(dim, dim, precision, "wo")?,
            ffn_norm: r.f16s(dim, "ffn norm")?,
            w1: r.matrix(hidden_dim, dim, precision, "w1")?,
            w2: r.matrix(dim, hidden_dim, precision, "w2")?,
            w3: r.matrix(hidden_dim, dim, precision, "w3")?,
        });
    }
    let final_norm = r.f16s(dim, "final norm")?;
    if !r.bytes.is_empty() {
        return Err(LmError::BadFile(format!(
            "{} bytes after the last tensor",
            r.bytes.len()
        )));
    }
    Ok(Model {
        config,
        precision,
        tokenizer: CharTokenizer::new(chars),
        embedding,
        layers,
        final_norm,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::f16::f32_to_f16;

    /// A valid file for a small shape, every weight 0.5 except the norms (1).
    fn tiny_file() -> Vec<u8> {
        let (d, h, l, v) = (32usize, 64usize, 1usize, 3usize);
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        for x in [VERSION, d as u32, h as u32, l as u32, 2, v as u32, 8] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        for ch in ['a', 'b', '\n'] {
            b.extend_from_slice(&(ch as u32).to_le_bytes());
        }
        let mut put = |n: usize, x: f32| {
            for _ in 0..n {
                b.extend_from_slice(&f32_to_f16(x).to_le_bytes());
            }
        };
        put(v * d, 0.5);
        put(d, 1.0);
        put(4 * d * d, 0.5);
        put(d, 1.0);
        put(3 * d * h, 0.5);
        put(d, 1.0);
        b
    }

    #[test]
    fn a_valid_file_loads_at_every_precision_it_fits() {
        let b = tiny_file();
        let m = load(&b, Precision::F32).unwrap();
        assert_eq!(m.config.dim, 32);
        assert_eq!(m.tokenizer.chars(), &['a', 'b', '\n']);
        assert!(load(&b, Precision::Int8).is_ok());
        // 32 wide cannot be split into groups of 128.
        assert!(matches!(
            load(&b, Precision::Int4),
            Err(LmError::BadConfig(_))
        ));
    }

    #[test]
    fn broken_files_are_refused_with_a_reason() {
        let b = tiny_file();
        let e = load(&b[..b.len() - 1], Precision::F32).unwrap_err();
        assert_eq!(
            e,
            LmError::BadFile("the file ends inside the final norm".into())
        );
        let mut longer = b.clone();
        longer.push(0);
        assert!(load(&longer, Precision::F32).is_err());
        let mut bad_magic = b.clone();
        bad_magic[0] = b'X';
        assert!(load(&bad_magic, Precision::F32)
            .unwrap_err()
            .to_string()
            .contains("IELM"));
        let mut v2 = b.clone();
        v2[4] = 2;
        assert!(load(&v2, Precision::F32)
            .unwrap_err()
            .to_string()
            .contains("version 2"));
        let mut huge = b;
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(load(&huge, Precision::F32).is_err());
        assert!(load(&[], Precision::F32).is_err());
    }
}
