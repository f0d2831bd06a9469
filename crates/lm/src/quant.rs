//! Quantization: numbers rounded onto a small grid of integers, one f32 scale per group.
//!
//! A group of numbers x is stored as integers q = round(x / s) with s = max|x| / qmax, and read
//! back as q * s. Weights: one byte each in groups of 32 (qmax 63), half a byte each in groups
//! of 128 (qmax 7). Activations entering an integer kernel: int8 (qmax 127) in groups of the
//! weights' size (as llama2.c's runq.c does), so every dot product inside a group is a sum of
//! integer products: exact.
//!
//! Both weight formats store q plus an offset (q + 64 in a byte, q + 8 in a nibble), so that
//! every stored weight is a number 0..=127 with its top bit clear. That is what relaxed SIMD's
//! byte dot product (`i32x4_relaxed_dot_i8x16_i7x16_add`) needs of one operand to give the same
//! answer on every machine; the kernels take the offset times the activations' sum back out
//! once per group. The price is a grid of 127 steps where a signed byte has 255: the int8
//! format here rounds weights to 7 bits, a trade a runtime makes for its fastest instruction.

use crate::error::{try_vec, LmError};

/// Weights in one int8 group.
pub const INT8_GROUP: usize = 32;
/// Weights in one int4 group.
pub const INT4_GROUP: usize = 128;
/// The largest |q| of an int8 weight: 7 bits, so that q + [`INT8_OFFSET`] fits in 0..=127.
pub const INT8_QMAX: f32 = 63.0;
/// What an int8 weight's byte adds to q.
pub const INT8_OFFSET: i32 = 64;

/// Rounds `x` group by group onto integers in [-qmax, qmax]: q (len x.len()) and one scale per
/// group (len x.len() / group). Rounding is to nearest, halves away from zero.
pub fn quantize_groups(x: &[f32], group: usize, qmax: f32, q: &mut [i8], scales: &mut [f32]) {
    for ((xg, qg), s) in x
        .chunks_exact(group)
        .zip(q.chunks_exact_mut(group))
        .zip(scales.iter_mut())
    {
        let max = xg.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let scale = max / qmax;
        *s = scale;
        for (qi, &xi) in qg.iter_mut().zip(xg) {
            *qi = if scale > 0.0 {
                (xi / scale).round().clamp(-qmax, qmax) as i8
            } else {
                0
            };
        }
    }
}

/// Weights to int8, one a byte stored as q + 64 (1..=127): bytes (len w.len()) and scales
/// (len w.len() / 32).
pub fn quantize_int8(w: &[f32], bytes: &mut [u8], scales: &mut [f32]) {
    let mut q = [0i8; INT8_GROUP];
    for ((wg, bg), s) in w
        .chunks_exact(INT8_GROUP)
        .zip(bytes.chunks_exact_mut(INT8_GROUP))
        .zip(scales.iter_mut())
    {
        quantize_groups(wg, INT8_GROUP, INT8_QMAX, &mut q, std::slice::from_mut(s));
        for (b, &qi) in bg.iter_mut().zip(&q) {
            *b = (qi as i32 + INT8_OFFSET) as u8;
        }
    }
}

/// int8 weights back to f32.
pub fn dequantize_int8(bytes: &[u8], scales: &[f32], out: &mut [f32]) {
    for ((bg, &s), og) in bytes
        .chunks_exact(INT8_GROUP)
        .zip(scales)
        .zip(out.chunks_exact_mut(INT8_GROUP))
    {
        for (o, &b) in og.iter_mut().zip(bg) {
            *o = (b as i32 - INT8_OFFSET) as f32 * s;
        }
    }
}

/// Weights to int4, two a byte: packed (len w.len() / 2) and scales (len w.len() / 128).
///
/// Within a group of 128 weights, byte j holds weight j in its low nibble and weight j + 64 in
/// its high nibble, each stored as q + 8 (0..=15). Unsigned nibbles are what relaxed SIMD's
/// `i32x4_relaxed_dot_i8x16_i7x16_add` needs to give the same answer on every machine: its
/// second operand must have the top bit clear, and a negative int4 stored as a signed byte
/// would not. The kernels subtract 8 x (sum of the activations) once per group.
pub fn quantize_int4(w: &[f32], packed: &mut [u8], scales: &mut [f32]) {
    let mut q = [0i8; INT4_GROUP];
    for ((wg, pg), s) in w
        .chunks_exact(INT4_GROUP)
        .zip(packed.chunks_exact_mut(INT4_GROUP / 2))
        .zip(scales.iter_mut())
    {
        quantize_groups(wg, INT4_GROUP, 7.0, &mut q, std::slice::from_mut(s));
        let (lo, hi) = q.split_at(INT4_GROUP / 2);
        for ((p, &l), &h) in pg.iter_mut().zip(lo).zip(hi) {
            *p = ((l + 8) as u8) | (((h + 8) as u8) << 4);
        }
    }
}

/// int4 weights back to f32.
pub fn dequantize_int4(packed: &[u8], scales: &[f32], out: &mut [f32]) {
    for ((pg, &s), og) in packed
        .chunks_exact(INT4_GROUP / 2)
        .zip(scales)
        .zip(out.chunks_exact_mut(INT4_GROUP))
    {
        let (lo, hi) = og.split_at_mut(INT4_GROUP / 2);
        for ((&p, l), h) in pg.iter().zip(lo).zip(hi) {
            *l = ((p & 0x0f) as i32 - 8) as f32 * s;
            *h = ((p >> 4) as i32 - 8) as f32 * s;
        }
    }
}

/// An activation vector quantized to int8 for the integer kernels.
#[derive(Debug, Clone)]
pub struct QuantizedVector {
    /// The group size it was quantized with.
    pub group: usize,
    /// int8 values, (n,).
    pub q: Vec<i8>,
    /// One scale per group, (n / group,).
    pub scales: Vec<f32>,
    /// The sum of q over each group, (n / group,): the integer kernels' offset correction.
    pub sums: Vec<i32>,
}

impl QuantizedVector {
    /// Room for a vector of n values in groups of `group`.
    pub fn new(n: usize, group: usize) -> Result<QuantizedVector, LmError> {
        let groups = n / group.max(1);
        Ok(QuantizedVector {
            group,
            q: try_vec(n, 0, "activations")?,
            scales: try_vec(groups, 0.0, "activations")?,
            sums: try_vec(groups, 0, "activations")?,
        })
    }

    /// Quantizes x (n,) into this vector.
    pub fn quantize(&mut self, x: &[f32]) {
        quantize_groups(x, self.group, 127.0, &mut self.q, &mut self.scales);
        for (s, qg) in self.sums.iter_mut().zip(self.q.chunks_exact(self.group)) {
            *s = qg.iter().map(|&v| v as i32).sum();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    fn random_weights(n: usize, seed: u64) -> Vec<f32> {
        let mut rng = Rng::new(seed);
        // A few outliers, as real weights have.
        (0..n)
            .map(|i| rng.uniform() * if i % 97 == 0 { 3.0 } else { 0.1 })
            .collect()
    }

    #[test]
    fn int8_round_trip_is_within_half_a_step() {
        let w = random_weights(32 * 40, 1);
        let mut q = vec![0u8; w.len()];
        let mut s = vec![0f32; w.len() / 32];
        quantize_int8(&w, &mut q, &mut s);
        let mut back = vec![0f32; w.len()];
        dequantize_int8(&q, &s, &mut back);
        for (i, (a, b)) in w.iter().zip(&back).enumerate() {
            let step = s[i / 32];
            assert!((a - b).abs() <= step * 0.5 + 1e-7, "{i}: {a} vs {b}");
        }
        // The largest weight of each group lands exactly on ±63 steps, stored as 1 or 127: every
        // byte has its top bit clear.
        assert!(q.iter().any(|&v| v == 1 || v == 127));
        assert!(q.iter().all(|&v| (1..=127).contains(&v)));
        // Quantizing what was dequantized gives the same integers back.
        let mut q2 = vec![0u8; w.len()];
        let mut s2 = vec![0f32; s.len()];
        quantize_int8(&back, &mut q2, &mut s2);
        assert_eq!(q, q2);
    }

    #[test]
    fn int4_round_trip_is_within_half_a_step_and_packs_two_a_byte() {
        let w = random_weights(128 * 12, 2);
        let mut p = vec![0u8; w.len() / 2];
        let mut s = vec![0f32; w.len() / 128];
        quantize_int4(&w, &mut p, &mut s);
        let mut back = vec![0f32; w.len()];
        dequantize_int4(&p, &s, &mut back);
        for (i, (a, b)) in w.iter().zip(&back).enumerate() {
            let step = s[i / 128];
            assert!((a - b).abs() <= step * 0.5 + 1e-7, "{i}: {a} vs {b}");
        }
        // Nibbles hold q + 8 in 1..=15: the top bit of each is clear.
        assert!(p.iter().all(|&b| (b & 0x0f) >= 1 && (b >> 4) >= 1));
        // Weight 64 of a group sits in the high nibble of byte 0.
        let mut one = vec![0f32; 128];
        one[64] = -1.0;
        one[0] = 0.6;
        let mut p1 = vec![0u8; 64];
        let mut s1 = vec![0f32; 1];
        quantize_int4(&one, &mut p1, &mut s1);
        assert_eq!(p1[0], (4 + 8) | ((8 - 7) << 4));
    }

    #[test]
    fn a_group_of_zeros_has_scale_zero_and_no_nan() {
        let x = vec![0f32; 64];
        let mut v = QuantizedVector::new(64, 32).unwrap();
        v.quantize(&x);
        assert_eq!(v.scales, vec![0.0, 0.0]);
        assert!(v.q.iter().all(|&q| q == 0));
        assert_eq!(v.sums, vec![0, 0]);
    }

    #[test]
    fn activation_sums_are_the_sums_of_the_integers() {
        let x = random_weights(256, 3);
        let mut v = QuantizedVector::new(256, 128).unwrap();
        v.quantize(&x);
        let s0: i32 = v.q[..128].iter().map(|&q| q as i32).sum();
        assert_eq!(v.sums[0], s0);
        // Halves round away from zero.
        let mut h = QuantizedVector::new(32, 32).unwrap();
        let mut y = vec![0f32; 32];
        y[0] = 127.0;
        y[1] = 2.5;
        y[2] = -2.5;
        h.quantize(&y);
        assert_eq!((h.q[1], h.q[2]), (3, -3));
    }
}
