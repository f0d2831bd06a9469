//! The blueprint of a model: its shape, and the precision its weights are stored at.

use crate::error::LmError;

/// The shape of a llama-style decoder. Every size is a count of numbers (not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Width of the residual stream (the embedding size).
    pub dim: usize,
    /// Width of the MLP's hidden layer.
    pub hidden_dim: usize,
    /// Number of transformer blocks.
    pub n_layers: usize,
    /// Number of attention heads (keys and values have as many: no grouped-query attention).
    pub n_heads: usize,
    /// Number of tokens (here, characters) in the vocabulary.
    pub vocab_size: usize,
    /// Context length: the most tokens one sequence may hold (the KV cache's size).
    pub seq_len: usize,
}

/// The models the lab times. Their weights are random: they exist to be timed.
impl Config {
    /// "M": about 26M parameters, 103 MB at f32.
    pub const M: Config = Config {
        dim: 512,
        hidden_dim: 1408,
        n_layers: 8,
        n_heads: 8,
        vocab_size: 96,
        seq_len: 512,
    };
    /// "L": about 85M parameters, 340 MB at f32.
    pub const L: Config = Config {
        dim: 768,
        hidden_dim: 2048,
        n_layers: 12,
        n_heads: 12,
        vocab_size: 96,
        seq_len: 512,
    };

    /// Width of one attention head.
    pub fn head_dim(&self) -> usize {
        self.dim / self.n_heads.max(1)
    }

    /// Number of weights (parameters): matrices, norms and the (tied) embedding.
    pub fn parameters(&self) -> u64 {
        let (d, h) = (self.dim as u64, self.hidden_dim as u64);
        let per_layer = 4 * d * d + 3 * d * h + 2 * d;
        self.vocab_size as u64 * d + self.n_layers as u64 * per_layer + d
    }

    /// Checks that the engine can run this shape at this precision: every matrix's input
    /// width must be a whole number of the precision's groups.
    pub fn check(&self, precision: Precision) -> Result<(), LmError> {
        let bad = |m: String| Err(LmError::BadConfig(m));
        if self.dim == 0 || self.hidden_dim == 0 || self.n_layers == 0 || self.n_heads == 0 {
            return bad("every size must be at least 1".into());
        }
        if self.vocab_size == 0 || self.seq_len == 0 {
            return bad("the vocabulary and the context must hold at least one token".into());
        }
        if !self.dim.is_multiple_of(self.n_heads) || !self.head_dim().is_multiple_of(4) {
            return bad(format!(
                "dim {} must split into {} heads of a multiple of 4",
                self.dim, self.n_heads
            ));
        }
        let g = precision.group_size().max(4);
        if !self.dim.is_multiple_of(g) || !self.hidden_dim.is_multiple_of(g) {
            return bad(format!(
                "at {} the widths (dim {}, hidden {}) must be multiples of {g}",
                precision.name(),
                self.dim,
                self.hidden_dim
            ));
        }
        Ok(())
    }

    /// The same shape with fewer layers: a reduced model for quick tests.
    pub fn with_layers(self, n_layers: usize) -> Config {
        Config { n_layers, ..self }
    }
}

/// How the weight matrices are stored. Norm weights, activations between the matrices and
/// the KV cache stay f32 at every precision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// 4 bytes a weight.
    F32,
    /// 1 byte a weight, and one f32 scale per 32 weights: 1.125 bytes a weight.
    Int8,
    /// Half a byte a weight, and one f32 scale per 128 weights: 0.53125 bytes a weight.
    Int4,
}

impl Precision {
    /// Every precision, widest first.
    pub const ALL: [Precision; 3] = [Precision::F32, Precision::Int8, Precision::Int4];

    /// Weights sharing one scale (1 at f32: no scales).
    pub fn group_size(self) -> usize {
        match self {
            Precision::F32 => 1,
            Precision::Int8 => 32,
            Precision::Int4 => 128,
        }
    }

    /// The name the page and the tests use: `f32`, `int8` or `int4`.
    pub fn name(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::Int8 => "int8",
            Precision::Int4 => "int4",
        }
    }

    /// The precision of a name (`f32`, `int8`, `int4`).
    pub fn parse(name: &str) -> Result<Precision, LmError> {
        Precision::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| LmError::UnknownName(name.to_string()))
    }

    /// Bytes a `rows` x `cols` matrix takes at this precision, scales included.
    pub fn matrix_bytes(self, rows: usize, cols: usize) -> u64 {
        let n = rows as u64 * cols as u64;
        match self {
            Precision::F32 => 4 * n,
            Precision::Int8 => n + 4 * n / 32,
            Precision::Int4 => n / 2 + 4 * n / 128,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timed_models_have_the_sizes_the_page_names() {
        let m = Config::M.parameters();
        let l = Config::L.parameters();
        assert!((25_500_000..26_500_000).contains(&m), "{m}");
        assert!((84_000_000..86_000_000).contains(&l), "{l}");
        // f32 bytes: ~103 MB and ~340 MB.
        assert_eq!((m as f64 * 4e-6).round(), 103.0);
        assert_eq!((l as f64 * 4e-6).round(), 340.0);
        for p in Precision::ALL {
            assert_eq!(Config::M.check(p), Ok(()));
            assert_eq!(Config::L.check(p), Ok(()));
        }
    }

    #[test]
    fn shapes_the_kernels_cannot_run_are_refused() {
        let student = Config {
            dim: 64,
            hidden_dim: 192,
            n_layers: 2,
            n_heads: 4,
            vocab_size: 83,
            seq_len: 256,
        };
        assert_eq!(student.check(Precision::Int8), Ok(()));
        let e = student.check(Precision::Int4);
        assert!(matches!(e, Err(LmError::BadConfig(_))), "{e:?}");
        let odd_heads = Config {
            n_heads: 3,
            ..student
        };
        assert!(odd_heads.check(Precision::F32).is_err());
        assert!(Config { dim: 0, ..student }.check(Precision::F32).is_err());
    }

    #[test]
    fn precisions_parse_and_cost_what_the_course_says() {
        for p in Precision::ALL {
            assert_eq!(Precision::parse(p.name()), Ok(p));
        }
        assert!(Precision::parse("fp8").is_err());
        assert_eq!(Precision::F32.matrix_bytes(128, 128), 65_536);
        assert_eq!(Precision::Int8.matrix_bytes(128, 128), 16_384 + 2_048);
        assert_eq!(Precision::Int4.matrix_bytes(128, 128), 8_192 + 512);
    }
}
