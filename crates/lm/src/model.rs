//! The model: weights, the state of one sequence (the KV cache), and the forward pass.
//!
//! Read `forward` first: it is the whole cost of a token. Every step is a small function over
//! plain slices with the shapes in its comment.

use crate::config::{Config, Precision};
use crate::error::{try_vec, LmError};
use crate::kernels;
use crate::math;
use crate::quant::{self, QuantizedVector, INT4_GROUP, INT8_GROUP};
use crate::tokenizer::CharTokenizer;

/// RMSNorm's epsilon (as llama2.c and the training script).
pub const NORM_EPS: f32 = 1e-5;
/// RoPE's base: frequencies θ^(-2i/head_dim).
pub const ROPE_THETA: f64 = 10_000.0;

/// A weight matrix (rows, cols), row-major, at one precision.
#[derive(Debug, Clone)]
pub enum Matrix {
    /// f32 weights, (rows × cols).
    F32(Vec<f32>),
    /// int8 weights (rows × cols) and one scale per 32 along each row (rows × cols / 32).
    Int8 {
        /// The weights, as q + 64 (see [`quant::quantize_int8`]).
        q: Vec<u8>,
        /// The scales.
        scales: Vec<f32>,
    },
    /// int4 weights two a byte (rows × cols / 2) and one scale per 128 (rows × cols / 128).
    Int4 {
        /// The packed weights (see [`quant::quantize_int4`]).
        packed: Vec<u8>,
        /// The scales.
        scales: Vec<f32>,
    },
}

impl Matrix {
    /// An f32 matrix stored at `precision`, quantized row by row.
    pub fn from_f32(w: &[f32], precision: Precision) -> Result<Matrix, LmError> {
        Ok(match precision {
            Precision::F32 => {
                let mut v = try_vec(0, 0.0, "weights")?;
                v.try_reserve_exact(w.len())
                    .map_err(|_| oom("weights", w.len() * 4))?;
                v.extend_from_slice(w);
                Matrix::F32(v)
            }
            Precision::Int8 => {
                let mut q = try_vec(w.len(), 0u8, "weights")?;
                let mut scales = try_vec(w.len() / INT8_GROUP, 0.0, "weights")?;
                quant::quantize_int8(w, &mut q, &mut scales);
                Matrix::Int8 { q, scales }
            }
            Precision::Int4 => {
                let mut packed = try_vec(w.len() / 2, 0u8, "weights")?;
                let mut scales = try_vec(w.len() / INT4_GROUP, 0.0, "weights")?;
                quant::quantize_int4(w, &mut packed, &mut scales);
                Matrix::Int4 { packed, scales }
            }
        })
    }

    /// The precision it is stored at.
    pub fn precision(&self) -> Precision {
        match self {
            Matrix::F32(_) => Precision::F32,
            Matrix::Int8 { .. } => Precision::Int8,
            Matrix::Int4 { .. } => Precision::Int4,
        }
    }

    /// Row `i` as f32 (cols,), dequantized: the embedding lookup.
    pub fn row_into(&self, i: usize, out: &mut [f32]) -> Result<(), LmError> {
        let cols = out.len();
        let missing = || LmError::UnknownToken(i as u32);
        match self {
            Matrix::F32(w) => out.copy_from_slice(w.chunks_exact(cols).nth(i).ok_or_else(missing)?),
            Matrix::Int8 { q, scales } => {
                let row = q.chunks_exact(cols).nth(i).ok_or_else(missing)?;
                let s = scales
                    .chunks_exact(cols / INT8_GROUP)
                    .nth(i)
                    .ok_or_else(missing)?;
                quant::dequantize_int8(row, s, out);
            }
            Matrix::Int4 { packed, scales } => {
                let row = packed.chunks_exact(cols / 2).nth(i).ok_or_else(missing)?;
                let s = scales
                    .chunks_exact(cols / INT4_GROUP)
                    .nth(i)
                    .ok_or_else(missing)?;
                quant::dequantize_int4(row, s, out);
            }
        }
        Ok(())
    }

    /// out (rows,) = self (rows, cols) · x (cols,). `xq` is x quantized for this precision
    /// (unused at f32).
    pub fn matvec(&self, out: &mut [f32], x: &[f32], xq: &QuantizedVector) {
        match self {
            Matrix::F32(w) => kernels::matvec_f32(out, w, x),
            Matrix::Int8 { q, scales } => kernels::matvec_int8(out, q, scales, xq),
            Matrix::Int4 { packed, scales } => kernels::matvec_int4(out, packed, scales, xq),
        }
    }
}

fn oom(what: &'static str, bytes: usize) -> LmError {
    LmError::OutOfMemory {
        what,
        bytes: bytes as u128,
    }
}

/// One transformer block's weights.
#[derive(Debug, Clone)]
pub struct Layer {
    /// RMSNorm weights before attention, (dim,).
    pub attention_norm: Vec<f32>,
    /// Query, key, value and output projections, each (dim, dim).
    pub wq: Matrix,
    /// Keys.
    pub wk: Matrix,
    /// Values.
    pub wv: Matrix,
    /// Attention output.
    pub wo: Matrix,
    /// RMSNorm weights before the MLP, (dim,).
    pub ffn_norm: Vec<f32>,
    /// MLP gate, (hidden, dim).
    pub w1: Matrix,
    /// MLP down projection, (dim, hidden).
    pub w2: Matrix,
    /// MLP up projection, (hidden, dim).
    pub w3: Matrix,
}

/// A whole model: configuration, vocabulary and weights.
#[derive(Debug, Clone)]
pub struct Model {
    /// Its shape.
    pub config: Config,
    /// The precision of its matrices.
    pub precision: Precision,
    /// Its vocabulary.
    pub tokenizer: CharTokenizer,
    /// Token embedding (vocab, dim), also the classifier (tied embeddings).
    pub embedding: Matrix,
    /// The blocks.
    pub layers: Vec<Layer>,
    /// Final RMSNorm weights, (dim,).
    pub final_norm: Vec<f32>,
}

impl Model {
    /// The same model with its matrices stored at another precision (from f32 weights only:
    /// quantizing twice would round twice).
    pub fn quantized(&self, precision: Precision) -> Result<Model, LmError> {
        self.config.check(precision)?;
        let c = &self.config;
        let conv = |m: &Matrix, rows: usize, cols: usize| -> Result<Matrix, LmError> {
            match m {
                Matrix::F32(w) => Matrix::from_f32(w, precision),
                _ if m.precision() == precision => Ok(m.clone()),
                _ => {
                    let mut w = try_vec(rows * cols, 0.0, "weights")?;
                    for (r, row) in w.chunks_exact_mut(cols).enumerate() {
                        m.row_into(r, row)?;
                    }
                    Matrix::from_f32(&w, precision)
                }
            }
        };
        let (d, h) = (c.dim, c.hidden_dim);
        let mut layers = Vec::new();
        layers
            .try_reserve_exact(c.n_layers)
            .map_err(|_| oom("weights", 0))?;
        for l in &self.layers {
            layers.push(Layer {
                attention_norm: l.attention_norm.clone(),
                wq: conv(&l.wq, d, d)?,
                wk: conv(&l.wk, d, d)?,
                wv: conv(&l.wv, d, d)?,
                wo: conv(&l.wo, d, d)?,
                ffn_norm: l.ffn_norm.clone(),
                w1: conv(&l.w1, h, d)?,
                w2: conv(&l.w2, d, h)?,
                w3: conv(&l.w3, h, d)?,
            });
        }
        Ok(Model {
            config: self.config,
            precision,
            tokenizer: self.tokenizer.clone(),
            embedding: conv(&self.embedding, c.vocab_size, d)?,
            layers,
            final_norm: self.final_norm.clone(),
        })
    }
}

/// One layer's KV cache: a key and a value vector (dim,) for every position so far.
#[derive(Debug, Clone)]
pub struct LayerCache {
    /// Keys, (seq_len, dim).
    pub keys: Vec<f32>,
    /// Values, (seq_len, dim).
    pub values: Vec<f32>,
}

/// The state of one sequence: activation buffers, the KV cache, and RoPE's table.
#[derive(Debug, Clone)]
pub struct State {
    /// The residual stream, (dim,).
    x: Vec<f32>,
    /// Inside a branch, (dim,).
    xb: Vec<f32>,
    /// A second branch buffer, (dim,).
    xb2: Vec<f32>,
    /// MLP hidden, (hidden,).
    hb: Vec<f32>,
    /// MLP hidden, second half of SwiGLU, (hidden,).
    hb2: Vec<f32>,
    /// The query, (dim,).
    q: Vec<f32>,
    /// Attention scores of one head, (seq_len,).
    att: Vec<f32>,
    /// Output logits, (vocab,).
    pub logits: Vec<f32>,
    /// xb quantized for the integer kernels, (dim,).
    xq: QuantizedVector,
    /// hb quantized for the integer kernels, (hidden,).
    hq: QuantizedVector,
    /// The KV cache, one per layer.
    cache: Vec<LayerCache>,
    /// cos and sin of RoPE's angles, (seq_len, head_dim / 2) each.
    rope_cos: Vec<f32>,
    rope_sin: Vec<f32>,
}

impl State {
    /// Buffers and a KV cache for one sequence of this model, of up to `seq_len` tokens.
    pub fn for_model(model: &Model) -> Result<State, LmError> {
        State::new(&model.config, model.precision)
    }

    /// Buffers and a KV cache for one sequence of up to `config.seq_len` tokens, for matrices
    /// at `precision`.
    pub fn new(config: &Config, precision: Precision) -> Result<State, LmError> {
        let c = config;
        let g = precision.group_size().max(1);
        let mut cache = Vec::new();
        cache
            .try_reserve_exact(c.n_layers)
            .map_err(|_| oom("KV cache", 0))?;
        for _ in 0..c.n_layers {
            cache.push(LayerCache {
                keys: try_vec(c.seq_len * c.dim, 0.0, "KV cache")?,
                values: try_vec(c.seq_len * c.dim, 0.0, "KV cache")?,
            });
        }
        let half = c.head_dim() / 2;
        let mut rope_cos = try_vec(c.seq_len * half, 0.0, "RoPE table")?;
        let mut rope_sin = try_vec(c.seq_len * half, 0.0, "RoPE table")?;
        let rows = rope_cos
            .chunks_exact_mut(half.max(1))
            .zip(rope_sin.chunks_exact_mut(half.max(1)));
        for (pos, (cr, sr)) in rows.enumerate() {
            for (i, (co, si)) in cr.iter_mut().zip(sr.iter_mut()).enumerate() {
                // θ^(-2i/hd) = e^(-(2i/hd) ln θ), angle = pos × that, in f64, rounded once.
                let freq = math::exp_f64(-((2 * i) as f64 / c.head_dim() as f64) * ROPE_THETA.ln());
                let (s, co64) = math::sin_cos(pos as f64 * freq);
                *co = co64 as f32;
                *si = s as f32;
            }
        }
        Ok(State {
            x: try_vec(c.dim, 0.0, "activations")?,
            xb: try_vec(c.dim, 0.0, "activations")?,
            xb2: try_vec(c.dim, 0.0, "activations")?,
            hb: try_vec(c.hidden_dim, 0.0, "activations")?,
            hb2: try_vec(c.hidden_dim, 0.0, "activations")?,
            q: try_vec(c.dim, 0.0, "activations")?,
            att: try_vec(c.seq_len, 0.0, "activations")?,
            logits: try_vec(c.vocab_size, 0.0, "activations")?,
            xq: QuantizedVector::new(c.dim, g)?,
            hq: QuantizedVector::new(c.hidden_dim, g)?,
            cache,
            rope_cos,
            rope_sin,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The blocks of the forward pass.

/// o (n,) = weight ⊙ x / sqrt(mean(x²) + ε).
pub fn rmsnorm(o: &mut [f32], x: &[f32], weight: &[f32]) {
    let ss = x.iter().fold(0.0f32, |s, &v| s + v * v) / x.len().max(1) as f32;
    let inv = 1.0 / (ss + NORM_EPS).sqrt();
    for ((o, &x), &w) in o.iter_mut().zip(x).zip(weight) {
        *o = w * (x * inv);
    }
}

/// x (n,) ← softmax(x), with the maximum subtracted first so exp never overflows.
pub fn softmax(x: &mut [f32]) {
    let max = x.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    let mut sum = 0.0f32;
    for v in x.iter_mut() {
        *v = math::exp(*v - max);
        sum += *v;
    }
    for v in x.iter_mut() {
        *v /= sum;
    }
}

/// Rotates each pair (v[2i], v[2i+1]) of each head by its angle at this position.
/// v (dim,); cos, sin (head_dim / 2,) for the position.
pub fn rope(v: &mut [f32], cos: &[f32], sin: &[f32], head_dim: usize) {
    for head in v.chunks_exact_mut(head_dim) {
        for ((pair, &c), &s) in head.chunks_exact_mut(2).zip(cos).zip(sin) {
            if let [a, b] = pair {
                let (x0, x1) = (*a, *b);
                *a = x0 * c - x1 * s;
                *b = x0 * s + x1 * c;
            }
        }
    }
}

/// Causal self-attention of one position over the cache.
/// out (dim,) ← for each head: softmax(q·k_t / sqrt(hd) for t ≤ pos) weighted sum of v_t.
/// q (dim,); keys, values (pos + 1, dim); scores (pos + 1,) is scratch.
pub fn attention(
    out: &mut [f32],
    q: &[f32],
    keys: &[f32],
    values: &[f32],
    scores: &mut [f32],
    n_heads: usize,
) {
    let dim = q.len();
    let hd = dim / n_heads.max(1);
    let scale = (hd as f32).sqrt();
    for (h, (out_h, q_h)) in out.chunks_exact_mut(hd).zip(q.chunks_exact(hd)).enumerate() {
        let head = h * hd..(h + 1) * hd;
        for (s, k) in scores.iter_mut().zip(keys.chunks_exact(dim)) {
            *s = k
                .get(head.clone())
                .map_or(0.0, |k_h| kernels::dot_f32(q_h, k_h) / scale);
        }
        softmax(scores);
        out_h.fill(0.0);
        for (&a, v) in scores.iter().zip(values.chunks_exact(dim)) {
            for (o, &v) in out_h.iter_mut().zip(v.get(head.clone()).unwrap_or(&[])) {
                *o += a * v;
            }
        }
    }
}

/// h (hidden,) ← silu(h) ⊙ g, with silu(x) = x σ(x).
pub fn swiglu(h: &mut [f32], g: &[f32]) {
    for (h, &g) in h.iter_mut().zip(g) {
        let v = *h;
        *h = v * (1.0 / (1.0 + math::exp(-v))) * g;
    }
}

/// x (n,) += y.
fn add(x: &mut [f32], y: &[f32]) {
    for (x, &y) in x.iter_mut().zip(y) {
        *x += y;
    }
}

/// The logits (vocab,) for `token` at position `pos`, after which the cache holds this
/// position's keys and values. Positions must be fed in order from 0.
pub fn forward<'s>(
    model: &Model,
    s: &'s mut State,
    token: u32,
    pos: usize,
) -> Result<&'s [f32], LmError> {
    let c = &model.config;
    if s.xq.group != model.precision.group_size().max(1) {
        return Err(LmError::BadConfig(
            "this state was made for another precision".into(),
        ));
    }
    if pos >= c.seq_len {
        return Err(LmError::ContextFull { seq_len: c.seq_len });
    }
    let (dim, hd) = (c.dim, c.head_dim());
    let half = hd / 2;
    let cos = s.rope_cos.get(pos * half..(pos + 1) * half).unwrap_or(&[]);
    let sin = s.rope_sin.get(pos * half..(pos + 1) * half).unwrap_or(&[]);

    // The token's embedding row is the starting residual stream.
    model.embedding.row_into(token as usize, &mut s.x)?;

    for (layer, cache) in model.layers.iter().zip(s.cache.iter_mut()) {
        // Attention: normalise, project to q, k, v (k and v straight into the cache).
        rmsnorm(&mut s.xb, &s.x, &layer.attention_norm);
        s.xq.quantize_for(&layer.wq, &s.xb);
        let (Some(k), Some(v)) = (
            cache.keys.get_mut(pos * dim..(pos + 1) * dim),
            cache.values.get_mut(pos * dim..(pos + 1) * dim),
        ) else {
            return Err(LmError::ContextFull { seq_len: c.seq_len });
        };
        layer.wq.matvec(&mut s.q, &s.xb, &s.xq);
        layer.wk.matvec(k, &s.xb, &s.xq);
        layer.wv.matvec(v, &s.xb, &s.xq);
        rope(&mut s.q, cos, sin, hd);
        rope(k, cos, sin, hd);

        let seen = (pos + 1) * dim;
        let (keys, values) = (
            cache.keys.get(..seen).unwrap_or(&[]),
            cache.values.get(..seen).unwrap_or(&[]),
        );
        let scores = s.att.get_mut(..=pos).unwrap_or(&mut []);
        attention(&mut s.xb, &s.q, keys, values, scores, c.n_heads);

        s.xq.quantize_for(&layer.wo, &s.xb);
        layer.wo.matvec(&mut s.xb2, &s.xb, &s.xq);
        add(&mut s.x, &s.xb2);

        // MLP: normalise, gate and up projections, SwiGLU, down projection.
        rmsnorm(&mut s.xb, &s.x, &layer.ffn_norm);
        s.xq.quantize_for(&layer.w1, &s.xb);
        layer.w1.matvec(&mut s.hb, &s.xb, &s.xq);
        layer.w3.matvec(&mut s.hb2, &s.xb, &s.xq);
        swiglu(&mut s.hb, &s.hb2);
        s.hq.quantize_for(&layer.w2, &s.hb);
        layer.w2.matvec(&mut s.xb, &s.hb, &s.hq);
        add(&mut s.x, &s.xb);
    }

    // Final norm, then the classifier: the embedding matrix again.
    rmsnorm(&mut s.xb, &s.x, &model.final_norm);
    s.xq.quantize_for(&model.embedding, &s.xb);
    model.embedding.matvec(&mut s.logits, &s.xb, &s.xq);
    Ok(&s.logits)
}

impl QuantizedVector {
    /// Quantizes x when the matrix it will multiply is an integer one.
    fn quantize_for(&mut self, m: &Matrix, x: &[f32]) {
        if m.precision() != Precision::F32 {
            self.quantize(x);
        }
    }
}

/// The index of the largest value (the first, on ties): greedy decoding's choice.
pub fn argmax(x: &[f32]) -> u32 {
    let mut best = 0;
    let mut best_v = f32::NEG_INFINITY;
    for (i, &v) in x.iter().enumerate() {
        if v > best_v {
            best = i;
            best_v = v;
        }
    }
    best as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{generate_greedy, Generator};
    use crate::random::RandomModelBuilder;

    fn small() -> Config {
        Config {
            dim: 128,
            hidden_dim: 256,
            n_layers: 2,
            n_heads: 4,
            vocab_size: 96,
            seq_len: 16,
        }
    }

    fn random(p: Precision, seed: u64) -> Model {
        RandomModelBuilder::new(small(), p, seed)
            .unwrap()
            .finish()
            .unwrap()
    }

    #[test]
    fn softmax_and_rmsnorm_by_hand() {
        let mut x = [1.0f32, 2.0, 3.0];
        softmax(&mut x);
        let e = [1.0f32.exp(), 2.0f32.exp(), 3.0f32.exp()];
        let s: f32 = e.iter().sum();
        for (a, b) in x.iter().zip(e) {
            assert!((a - b / s).abs() < 1e-6);
        }
        let mut o = [0.0f32; 2];
        rmsnorm(&mut o, &[3.0, 4.0], &[1.0, 2.0]);
        let inv = 1.0 / (12.5f32 + NORM_EPS).sqrt();
        assert_eq!(o, [3.0 * inv, 2.0 * (4.0 * inv)]);
    }

    #[test]
    fn rope_rotates_pairs_by_the_positions_angle() {
        let s = State::new(&small(), Precision::F32).unwrap();
        let half = small().head_dim() / 2;
        // Position 0: no rotation. Position 3, pair 0 (frequency 1): angle 3 radians.
        assert!(s.rope_cos[..half].iter().all(|&c| c == 1.0));
        assert_eq!(s.rope_cos[3 * half], 3.0f64.cos() as f32);
        assert_eq!(s.rope_sin[3 * half], 3.0f64.sin() as f32);
        let mut v = vec![1.0f32, 0.0, 0.0, 0.0];
        rope(&mut v, &[0.0, 1.0], &[1.0, 0.0], 4);
        assert_eq!(v, vec![0.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn the_same_seed_gives_the_same_model_and_text() {
        let a = generate_greedy(&random(Precision::F32, 3), "Hi", 10).unwrap();
        let b = generate_greedy(&random(Precision::F32, 3), "Hi", 10).unwrap();
        let c = generate_greedy(&random(Precision::F32, 4), "Hi", 10).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.chars().count(), 10);
    }

    #[test]
    fn a_reused_cache_gives_the_same_answers_as_a_fresh_one() {
        let m = random(Precision::Int8, 5);
        let prompt = m.tokenizer.encode("abc").unwrap();
        let mut g = Generator::new(&m).unwrap();
        g.start(&m, &m.tokenizer.encode("zzzzzzzzzz").unwrap())
            .unwrap();
        for _ in 0..4 {
            g.next_token(&m).unwrap();
        }
        g.start(&m, &prompt).unwrap();
        let reused: Vec<_> = (0..5).map(|_| g.next_token(&m).unwrap()).collect();
        let mut fresh = Generator::new(&m).unwrap();
        fresh.start(&m, &prompt).unwrap();
        let new: Vec<_> = (0..5).map(|_| fresh.next_token(&m).unwrap()).collect();
        assert_eq!(reused, new);
    }

    #[test]
    fn generation_stops_when_the_context_is_full() {
        let m = random(Precision::F32, 6);
        // seq_len 16, prompt 4: positions 3..=15 are fed, 13 new tokens.
        let text = generate_greedy(&m, "abcd", 100).unwrap();
        assert_eq!(text.chars().count(), 13);
        let mut s = State::for_model(&m).unwrap();
        assert_eq!(
            forward(&m, &mut s, 1, 16).unwrap_err(),
            LmError::ContextFull { seq_len: 16 }
        );
        assert_eq!(
            generate_greedy(&m, "", 5).unwrap_err(),
            LmError::EmptyPrompt
        );
        assert!(matches!(
            generate_greedy(&m, "é", 5),
            Err(LmError::UnknownCharacter {
                ch: 'é',
                position: 0
            })
        ));
    }

    #[test]
    fn quantized_models_stay_close_to_f32() {
        let f = random(Precision::F32, 7);
        let mut sf = State::for_model(&f).unwrap();
        let lf = forward(&f, &mut sf, 5, 0).unwrap().to_vec();
        for p in [Precision::Int8, Precision::Int4] {
            let q = f.quantized(p).unwrap();
            let mut sq = State::for_model(&q).unwrap();
            let lq = forward(&q, &mut sq, 5, 0).unwrap();
            let spread = lf.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            let worst = lf
                .iter()
                .zip(lq)
                .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
            let limit = if p == Precision::Int8 { 0.05 } else { 0.4 };
            assert!(
                worst < limit * spread,
                "{}: {worst} vs spread {spread}",
                p.name()
            );
            // A state made for another precision is refused, not misread.
            assert!(forward(&q, &mut sf, 5, 0).is_err());
        }
    }

    #[test]
    fn the_random_models_are_made_at_their_precision() {
        let c = Config::M.with_layers(1);
        for p in Precision::ALL {
            let m = RandomModelBuilder::new(c, p, 1).unwrap().finish().unwrap();
            assert_eq!(m.precision, p);
            assert_eq!(m.layers.len(), 1);
            assert!(m.layers.iter().all(|l| l.w2.precision() == p));
            if let Matrix::Int4 { packed, .. } = &m.layers[0].wq {
                assert!(packed.iter().all(|&b| b & 0x0f >= 1 && b >> 4 >= 1));
            }
        }
        let mut b = RandomModelBuilder::new(Config::M, Precision::Int4, 1).unwrap();
        assert_eq!(b.total_steps(), 9);
        assert!(b.step().unwrap());
        assert_eq!(b.steps_done(), 1);
    }

    #[test]
    fn the_timing_loop_counts_tokens_and_bytes() {
        let m = random(Precision::Int4, 8);
        let mut g = Generator::new(&m).unwrap();
        g.run(&m, 40).unwrap();
        assert_eq!(g.tokens_fed, 40);
        // 40 tokens over a context of 16: positions 0..16, 0..16, 0..8.
        let expect: u64 = (0..16)
            .chain(0..16)
            .chain(0..8)
            .map(|p| crate::cost::bytes_per_token(&m.config, m.precision, p))
            .sum();
        assert_eq!(g.bytes_read, expect);
    }
}
