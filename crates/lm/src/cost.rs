//! Bytes read per token: what the decode ceiling divides the bandwidth by.
//!
//! Decoding one token at position p reads every weight matrix once (the classifier included,
//! the embedding only for its one row), the norm weights, and the keys and values of positions
//! 0..=p in every layer. The bytes written (one key and one value per layer) and the
//! activations (a few KB, in cache) are left out.

use crate::config::{Config, Precision};

/// Bytes of weights read to decode one token at this precision.
pub fn weight_bytes_per_token(c: &Config, p: Precision) -> u64 {
    let (d, h) = (c.dim, c.hidden_dim);
    let per_layer = 4 * p.matrix_bytes(d, d) + 3 * p.matrix_bytes(h, d) + 2 * 4 * d as u64;
    let classifier = p.matrix_bytes(c.vocab_size, d);
    let embedding_row = p.matrix_bytes(1, d);
    c.n_layers as u64 * per_layer + classifier + embedding_row + 4 * d as u64
}

/// Bytes of the KV cache read at position `pos` (from 0): keys and values (f32) of positions
/// 0..=pos in every layer.
pub fn kv_bytes_per_token(c: &Config, pos: usize) -> u64 {
    2 * c.n_layers as u64 * (pos as u64 + 1) * c.dim as u64 * 4
}

/// Bytes read to decode the token at position `pos`: weights plus KV cache.
pub fn bytes_per_token(c: &Config, p: Precision, pos: usize) -> u64 {
    weight_bytes_per_token(c, p) + kv_bytes_per_token(c, pos)
}

/// Bytes the model's weights take in memory (the embedding counted once: it is tied).
pub fn model_bytes(c: &Config, p: Precision) -> u64 {
    let (d, h) = (c.dim, c.hidden_dim);
    let per_layer = 4 * p.matrix_bytes(d, d) + 3 * p.matrix_bytes(h, d) + 2 * 4 * d as u64;
    c.n_layers as u64 * per_layer + p.matrix_bytes(c.vocab_size, d) + 4 * d as u64
}

/// Bytes of the KV cache for a full context.
pub fn kv_cache_bytes(c: &Config) -> u64 {
    2 * c.n_layers as u64 * c.seq_len as u64 * c.dim as u64 * 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_per_token_by_hand() {
        // dim 128, hidden 384, 4 layers, vocab 83: the teacher's shape.
        let c = Config {
            dim: 128,
            hidden_dim: 384,
            n_layers: 4,
            n_heads: 4,
            vocab_size: 83,
            seq_len: 256,
        };
        // Per layer at f32: 4·128² + 3·384·128 = 212,992 weights = 851,968 B, plus 1,024 B of norms.
        // Classifier 83·128·4 = 42,496 B; embedding row 512 B; final norm 512 B.
        assert_eq!(
            weight_bytes_per_token(&c, Precision::F32),
            4 * (851_968 + 1_024) + 42_496 + 512 + 512
        );
        // int8: 1 B a weight plus 4 B per 32.
        assert_eq!(
            weight_bytes_per_token(&c, Precision::Int8),
            4 * (212_992 * 9 / 8 + 1_024) + 83 * 144 + 144 + 512
        );
        // At position 0 each layer reads one key and one value (128 f32 each).
        assert_eq!(kv_bytes_per_token(&c, 0), 4 * 2 * 512);
        assert_eq!(kv_bytes_per_token(&c, 99), 100 * 4 * 2 * 512);
        assert_eq!(
            bytes_per_token(&c, Precision::Int4, 9),
            weight_bytes_per_token(&c, Precision::Int4) + 40_960
        );
    }

    #[test]
    fn model_m_reads_about_103_mb_a_token_at_f32() {
        let w = weight_bytes_per_token(&Config::M, Precision::F32) as f64 / 1e6;
        assert!((102.5..103.5).contains(&w), "{w}");
        let i8 = weight_bytes_per_token(&Config::M, Precision::Int8) as f64 / 1e6;
        let i4 = weight_bytes_per_token(&Config::M, Precision::Int4) as f64 / 1e6;
        assert!((w / i8 - 4.0 / 1.125).abs() < 0.01, "{}", w / i8);
        assert!((w / i4 - 4.0 / 0.53125).abs() < 0.02, "{}", w / i4);
    }
}
