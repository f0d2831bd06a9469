//! Matrix × vector, where almost all of a token's time goes.
//!
//! W is (rows, cols), row-major; x is (cols,); out[i] = Σ_j W[i][j] x[j]. Decoding one token
//! multiplies every weight matrix of the model by one vector, so each weight is read from
//! memory once and used once: the speed of these loops is the speed of memory.
//!
//! Each kernel comes twice. `reference` is the plain loop that defines the answer. `vector`
//! does the same work 4 lanes and 4 rows at a time with the instructions of [`crate::simd`].
//! They give identical bits, by design:
//! - f32: both keep four running sums, lane l taking the products j ≡ l (mod 4), multiplied then
//!   added (never fused), and finish with (s0 + s1) + (s2 + s3). Rust never reorders or fuses
//!   float operations, so the plain loop and the vector loop round alike.
//! - int8 and int4: inside a group the dot product is a sum of integer products, exact in any
//!   order; each group then adds (isum as f32) × (w_scale × x_scale) to the row's f32 total, in
//!   group order, in both versions.
//!
//! The functions at the bottom pick the vector kernels in a wasm build with simd128 (and the
//! relaxed-SIMD int4 kernel when relaxed SIMD is on), and the references natively.

use crate::quant::{QuantizedVector, INT4_GROUP, INT8_GROUP, INT8_OFFSET};

/// The plain loops that define each kernel's answer.
pub mod reference {
    use super::*;

    /// Σ w[j] x[j] in the fixed order above (lengths a multiple of 4; a tail is added last).
    pub fn dot_f32(w: &[f32], x: &[f32]) -> f32 {
        let mut s = [0.0f32; 4];
        let (w4, w_tail) = w.as_chunks::<4>();
        let (x4, x_tail) = x.as_chunks::<4>();
        for (a, b) in w4.iter().zip(x4) {
            for ((s, &a), &b) in s.iter_mut().zip(a).zip(b) {
                *s += a * b;
            }
        }
        let mut total = (s[0] + s[1]) + (s[2] + s[3]);
        for (&a, &b) in w_tail.iter().zip(x_tail) {
            total += a * b;
        }
        total
    }

    /// out (rows,) = W (rows, cols) x (cols,), f32 weights.
    pub fn matvec_f32(out: &mut [f32], w: &[f32], x: &[f32]) {
        for (o, row) in out.iter_mut().zip(w.chunks_exact(x.len())) {
            *o = dot_f32(row, x);
        }
    }

    /// out (rows,) = W x with int8 weights w (rows, cols) stored as q + 64, as
    /// [`crate::quant::quantize_int8`] writes them, scales ws (rows, cols / 32), and x quantized
    /// to int8 in groups of 32.
    pub fn matvec_int8(out: &mut [f32], w: &[u8], ws: &[f32], x: &QuantizedVector) {
        let cols = x.q.len();
        let rows = w.chunks_exact(cols).zip(ws.chunks_exact(cols / INT8_GROUP));
        for (o, (row, scales)) in out.iter_mut().zip(rows) {
            let mut total = 0.0f32;
            let groups = row.chunks_exact(INT8_GROUP).zip(scales);
            let xgroups = x.q.chunks_exact(INT8_GROUP).zip(&x.scales).zip(&x.sums);
            for ((wg, &sw), ((xg, &sx), &xsum)) in groups.zip(xgroups) {
                let isum: i32 = wg.iter().zip(xg).map(|(&b, &a)| a as i32 * b as i32).sum();
                // The bytes hold q + 64: take 64 × Σx back out.
                let isum = isum - INT8_OFFSET * xsum;
                total += isum as f32 * (sw * sx);
            }
            *o = total;
        }
    }

    /// out (rows,) = W x with int4 weights packed two a byte (rows, cols / 2) as
    /// [`crate::quant::quantize_int4`] lays them out, scales ws (rows, cols / 128), and x
    /// quantized to int8 in groups of 128.
    pub fn matvec_int4(out: &mut [f32], w: &[u8], ws: &[f32], x: &QuantizedVector) {
        let cols = x.q.len();
        let rows = w
            .chunks_exact(cols / 2)
            .zip(ws.chunks_exact(cols / INT4_GROUP));
        for (o, (row, scales)) in out.iter_mut().zip(rows) {
            let mut total = 0.0f32;
            let groups = row.chunks_exact(INT4_GROUP / 2).zip(scales);
            let xgroups = x.q.chunks_exact(INT4_GROUP).zip(&x.scales).zip(&x.sums);
            for ((bytes, &sw), ((xg, &sx), &xsum)) in groups.zip(xgroups) {
                let (x_lo, x_hi) = xg.split_at(INT4_GROUP / 2);
                let mut isum = 0i32;
                for ((&b, &xl), &xh) in bytes.iter().zip(x_lo).zip(x_hi) {
                    isum += xl as i32 * (b & 0x0f) as i32 + xh as i32 * (b >> 4) as i32;
                }
                // The nibbles hold q + 8: take 8 × Σx back out.
                let isum = isum - 8 * xsum;
                total += isum as f32 * (sw * sx);
            }
            *o = total;
        }
    }

    /// A wrapping sum of every word: reads the whole buffer once.
    pub fn read_sum(words: &[u32]) -> u32 {
        words.iter().fold(0u32, |s, &w| s.wrapping_add(w))
    }
}

/// The same kernels, 4 lanes and 4 rows at a time.
pub mod vector {
    use super::*;
    use crate::simd::*;

    /// The four slices of length n at the start of s.
    fn four_rows<T>(s: &[T], n: usize) -> Option<[&[T]; 4]> {
        let (a, s) = s.split_at_checked(n)?;
        let (b, s) = s.split_at_checked(n)?;
        let (c, s) = s.split_at_checked(n)?;
        let (d, _) = s.split_at_checked(n)?;
        Some([a, b, c, d])
    }

    /// Walks four equally long slices together.
    fn zip4<T>(r: [&[T]; 4]) -> impl Iterator<Item = [&T; 4]> {
        let [a, b, c, d] = r;
        a.iter()
            .zip(b)
            .zip(c)
            .zip(d)
            .map(|(((a, b), c), d)| [a, b, c, d])
    }

    /// (s0 + s1) + (s2 + s3): the reference's final order.
    fn finish(v: V) -> f32 {
        let [a, b, c, d] = f32x4_lanes(v);
        (a + b) + (c + d)
    }

    /// Σ w[j] x[j], identical to [`reference::dot_f32`].
    pub fn dot_f32(w: &[f32], x: &[f32]) -> f32 {
        let (w4, w_tail) = w.as_chunks::<4>();
        let (x4, x_tail) = x.as_chunks::<4>();
        let mut acc = f32x4_splat(0.0);
        for (a, b) in w4.iter().zip(x4) {
            acc = f32x4_add(acc, f32x4_mul(f32x4_load(a), f32x4_load(b)));
        }
        let mut total = finish(acc);
        for (&a, &b) in w_tail.iter().zip(x_tail) {
            total += a * b;
        }
        total
    }

    /// out = W x (f32), identical to [`reference::matvec_f32`]. Four rows share each load of x.
    pub fn matvec_f32(out: &mut [f32], w: &[f32], x: &[f32]) {
        let cols = x.len();
        let (x4, _) = x.as_chunks::<4>();
        let quads = out.len() / 4;
        let Some((out4, out_rest)) = out.split_at_mut_checked(4 * quads) else {
            return;
        };
        let (w4, w_rest) = w.split_at_checked(4 * quads * cols).unwrap_or((w, &[]));
        for (o, block) in out4
            .chunks_exact_mut(4)
            .zip(w4.chunks_exact(4 * cols.max(1)))
        {
            let Some(rows) = four_rows(block, cols) else {
                continue;
            };
            let rows = rows.map(|r| r.as_chunks::<4>().0);
            let mut acc = [f32x4_splat(0.0); 4];
            for (w4, xv) in zip4(rows).zip(x4) {
                let xv = f32x4_load(xv);
                for (a, wv) in acc.iter_mut().zip(w4) {
                    *a = f32x4_add(*a, f32x4_mul(f32x4_load(wv), xv));
                }
            }
            for (o, a) in o.iter_mut().zip(acc) {
                *o = finish(a);
            }
        }
        // The last rows (fewer than four), one at a time.
        for (o, row) in out_rest.iter_mut().zip(w_rest.chunks_exact(cols.max(1))) {
            *o = dot_f32(row, x);
        }
    }

    /// The f32 results of four rows' integer group sums: total += isum × (w_scale × x_scale).
    fn add_groups(total: V, isums: V, w_scales: [&f32; 4], x_scale: f32) -> V {
        let scale = f32x4_mul(f32x4_from(w_scales.map(|s| *s)), f32x4_splat(x_scale));
        f32x4_add(total, f32x4_mul(f32x4_from_i32x4(isums), scale))
    }

    /// out = W x with int8 weights, identical to [`reference::matvec_int8`], four rows sharing
    /// each load of x. With `RELAXED`, relaxed SIMD's byte dot product takes 16 weights a step
    /// (the stored bytes are 1..=127, as it needs); without, widening multiply-adds (i16 × i16 →
    /// i32) do, x widened once for the four rows.
    pub fn matvec_int8<const RELAXED: bool>(
        out: &mut [f32],
        w: &[u8],
        ws: &[f32],
        x: &QuantizedVector,
    ) {
        let cols = x.q.len();
        let groups = cols / INT8_GROUP;
        let (xq, _) = x.q.as_chunks::<INT8_GROUP>();
        let quads = out.len() / 4;
        let Some((out4, out_rest)) = out.split_at_mut_checked(4 * quads) else {
            return;
        };
        let (w4, w_rest) = w.split_at_checked(4 * quads * cols).unwrap_or((w, &[]));
        let (s4, s_rest) = ws.split_at_checked(4 * quads * groups).unwrap_or((ws, &[]));
        let blocks = w4
            .chunks_exact(4 * cols.max(1))
            .zip(s4.chunks_exact(4 * groups.max(1)));
        for (o, (block, sblock)) in out4.chunks_exact_mut(4).zip(blocks) {
            let (Some(rows), Some(srows)) = (four_rows(block, cols), four_rows(sblock, groups))
            else {
                continue;
            };
            let rows = rows.map(|r| r.as_chunks::<INT8_GROUP>().0);
            let mut total = f32x4_splat(0.0);
            let xgroups = xq.iter().zip(&x.scales).zip(&x.sums);
            for ((wg, sw), ((xg, &sx), &xsum)) in zip4(rows).zip(zip4(srows)).zip(xgroups) {
                let mut w16 = wg.map(|r| r.as_chunks::<16>().0.iter());
                let mut isum = [i32x4_splat(0); 4];
                for xc in xg.as_chunks::<16>().0 {
                    let xv = i8x16_load(xc);
                    if RELAXED {
                        for (acc, row) in isum.iter_mut().zip(w16.iter_mut()) {
                            let Some(wc) = row.next() else { continue };
                            *acc = i32x4_dot_i8x16_i7x16_add(xv, u8x16_load(wc), *acc);
                        }
                    } else {
                        let (xl, xh) = (i16x8_from_low_i8(xv), i16x8_from_high_i8(xv));
                        for (acc, row) in isum.iter_mut().zip(w16.iter_mut()) {
                            let Some(wc) = row.next() else { continue };
                            let wv = u8x16_load(wc);
                            let lo = i32x4_dot_i16x8(i16x8_from_low_u8(wv), xl);
                            let hi = i32x4_dot_i16x8(i16x8_from_high_u8(wv), xh);
                            *acc = i32x4_add(*acc, i32x4_add(lo, hi));
                        }
                    }
                }
                let [a, b, c, d] = isum;
                // The bytes hold q + 64: take 64 × Σx back out of every row.
                let sums = i32x4_sub(i32x4_sum4(a, b, c, d), i32x4_splat(INT8_OFFSET * xsum));
                total = add_groups(total, sums, sw, sx);
            }
            for (o, t) in o.iter_mut().zip(f32x4_lanes(total)) {
                *o = t;
            }
        }
        reference::matvec_int8(out_rest, w_rest, s_rest, x);
    }

    /// out = W x with int4 weights, identical to [`reference::matvec_int4`]. The nibbles are
    /// unpacked to bytes 0..=15 and multiplied with x's bytes four at a time, by relaxed SIMD's
    /// dot product where the build has it and by widening multiply-adds where it does not.
    pub fn matvec_int4(out: &mut [f32], w: &[u8], ws: &[f32], x: &QuantizedVector) {
        let cols = x.q.len();
        let groups = cols / INT4_GROUP;
        let (xq, _) = x.q.as_chunks::<INT4_GROUP>();
        let quads = out.len() / 4;
        let Some((out4, out_rest)) = out.split_at_mut_checked(4 * quads) else {
            return;
        };
        let (w4, w_rest) = w.split_at_checked(4 * quads * cols / 2).unwrap_or((w, &[]));
        let (s4, s_rest) = ws.split_at_checked(4 * quads * groups).unwrap_or((ws, &[]));
        let blocks = w4
            .chunks_exact(2 * cols.max(1))
            .zip(s4.chunks_exact(4 * groups.max(1)));
        for (o, (block, sblock)) in out4.chunks_exact_mut(4).zip(blocks) {
            let (Some(rows), Some(srows)) = (four_rows(block, cols / 2), four_rows(sblock, groups))
            else {
                continue;
            };
            let rows = rows.map(|r| r.as_chunks::<{ INT4_GROUP / 2 }>().0);
            let mut total = f32x4_splat(0.0);
            let xgroups = xq.iter().zip(&x.scales).zip(&x.sums);
            for ((bytes, sw), ((xg, &sx), &xsum)) in zip4(rows).zip(zip4(srows)).zip(xgroups) {
                // Low nibbles pair with x[0..64], high nibbles with x[64..128].
                let (x_lo, x_hi) = xg.split_at(INT4_GROUP / 2);
                let mut b16 = bytes.map(|r| r.as_chunks::<16>().0.iter());
                let mut isum = [i32x4_splat(0); 4];
                for (xl, xh) in x_lo
                    .as_chunks::<16>()
                    .0
                    .iter()
                    .zip(x_hi.as_chunks::<16>().0)
                {
                    let (xl, xh) = (i8x16_load(xl), i8x16_load(xh));
                    for (acc, row) in isum.iter_mut().zip(b16.iter_mut()) {
                        let Some(bc) = row.next() else { continue };
                        let b = u8x16_load(bc);
                        *acc = i32x4_dot_i8x16_i7x16_add(xl, u8x16_low_nibbles(b), *acc);
                        *acc = i32x4_dot_i8x16_i7x16_add(xh, u8x16_high_nibbles(b), *acc);
                    }
                }
                let [a, b, c, d] = isum;
                // The nibbles hold q + 8: take 8 × Σx back out of every row.
                let sums = i32x4_sub(i32x4_sum4(a, b, c, d), i32x4_splat(8 * xsum));
                total = add_groups(total, sums, sw, sx);
            }
            for (o, t) in o.iter_mut().zip(f32x4_lanes(total)) {
                *o = t;
            }
        }
        reference::matvec_int4(out_rest, w_rest, s_rest, x);
    }

    /// A wrapping sum of every word, 64 bytes a step (four independent running sums).
    pub fn read_sum(words: &[u32]) -> u32 {
        let (w16, tail) = words.as_chunks::<16>();
        let mut acc = [i32x4_splat(0); 4];
        for block in w16 {
            let (w4, _) = block.as_chunks::<4>();
            for (a, v) in acc.iter_mut().zip(w4) {
                *a = i32x4_add(*a, u32x4_load(v));
            }
        }
        let [a, b, c, d] = acc;
        let lanes = i32x4_lanes(i32x4_sum4(a, b, c, d));
        let total = lanes.iter().fold(0u32, |s, &x| s.wrapping_add(x as u32));
        total.wrapping_add(reference::read_sum(tail))
    }
}

/// Which kernels this build runs: `relaxed-simd`, `simd128` or `reference`.
pub const KERNELS: &str = if cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd")) {
    "relaxed-simd"
} else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
    "simd128"
} else {
    "reference"
};

const VECTOR: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));
/// Whether this build runs relaxed SIMD's byte dot product.
pub const RELAXED_KERNELS: bool =
    cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd"));

/// Σ w[j] x[j] (the attention's q·k uses it too).
pub fn dot_f32(w: &[f32], x: &[f32]) -> f32 {
    if VECTOR {
        vector::dot_f32(w, x)
    } else {
        reference::dot_f32(w, x)
    }
}

/// out (rows,) = W (rows, cols) x (cols,), f32 weights.
pub fn matvec_f32(out: &mut [f32], w: &[f32], x: &[f32]) {
    if VECTOR {
        vector::matvec_f32(out, w, x)
    } else {
        reference::matvec_f32(out, w, x)
    }
}

/// out = W x, int8 weights (see [`reference::matvec_int8`]).
pub fn matvec_int8(out: &mut [f32], w: &[u8], ws: &[f32], x: &QuantizedVector) {
    if VECTOR {
        vector::matvec_int8::<RELAXED_KERNELS>(out, w, ws, x)
    } else {
        reference::matvec_int8(out, w, ws, x)
    }
}

/// out = W x, int4 weights (see [`reference::matvec_int4`]).
pub fn matvec_int4(out: &mut [f32], w: &[u8], ws: &[f32], x: &QuantizedVector) {
    if VECTOR {
        vector::matvec_int4(out, w, ws, x)
    } else {
        reference::matvec_int4(out, w, ws, x)
    }
}

/// Reads every word of a buffer once; returns a checksum so the reads cannot be skipped.
pub fn read_sum(words: &[u32]) -> u32 {
    if VECTOR {
        vector::read_sum(words)
    } else {
        reference::read_sum(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quant::{quantize_int4, quantize_int8};
    use crate::random::Rng;

    fn random_vec(n: usize, rng: &mut Rng, amp: f32) -> Vec<f32> {
        (0..n).map(|_| rng.uniform() * amp).collect()
    }

    // Row counts that are and are not multiples of 4 (the vector kernels take four rows at a
    // time and finish the rest one by one).
    const SHAPES: [(usize, usize); 4] = [(4, 128), (13, 256), (83, 128), (6, 384)];

    #[test]
    fn f32_vector_kernel_gives_the_references_bits() {
        let mut rng = Rng::new(11);
        for (rows, cols) in SHAPES {
            let w = random_vec(rows * cols, &mut rng, 1.0);
            let x = random_vec(cols, &mut rng, 3.0);
            let (mut a, mut b) = (vec![0.0; rows], vec![0.0; rows]);
            reference::matvec_f32(&mut a, &w, &x);
            vector::matvec_f32(&mut b, &w, &x);
            assert_eq!(
                a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
            // And the lane order matters: a plain left-to-right sum rounds differently somewhere.
            let naive: Vec<f32> = w
                .chunks(cols)
                .map(|r| r.iter().zip(&x).fold(0.0, |s, (p, q)| s + p * q))
                .collect();
            if rows > 10 {
                assert_ne!(
                    naive, a,
                    "the fixed lane order should differ from a plain sum"
                );
            }
            for (n, r) in naive.iter().zip(&a) {
                assert!((n - r).abs() < 1e-3, "{n} vs {r}");
            }
        }
        let x = random_vec(37, &mut rng, 1.0);
        let y = random_vec(37, &mut rng, 1.0);
        assert_eq!(
            reference::dot_f32(&x, &y).to_bits(),
            vector::dot_f32(&x, &y).to_bits()
        );
    }

    /// The integer kernel against f32 arithmetic on the dequantized weights: the only
    /// difference left is the activations' rounding, at most half a step (scale / 2) per value,
    /// so |error| <= Σ_j |w_j| × scale(j) / 2 (plus f32 rounding).
    fn assert_close_to_dequantized(got: &[f32], exact: &[f32], wd: &[f32], xq: &QuantizedVector) {
        let cols = xq.q.len();
        for ((g, e), row) in got.iter().zip(exact).zip(wd.chunks(cols)) {
            let bound: f32 = row
                .chunks(xq.group)
                .zip(&xq.scales)
                .map(|(wg, s)| wg.iter().map(|w| w.abs()).sum::<f32>() * s / 2.0)
                .sum();
            assert!(
                (g - e).abs() <= bound * 1.001 + 1e-5,
                "{g} vs {e} (bound {bound})"
            );
        }
    }

    #[test]
    fn int8_vector_kernel_gives_the_references_bits_and_is_close_to_f32() {
        let mut rng = Rng::new(12);
        for (rows, cols) in SHAPES {
            let w = random_vec(rows * cols, &mut rng, 0.2);
            let x = random_vec(cols, &mut rng, 2.0);
            let mut q = vec![0u8; w.len()];
            let mut s = vec![0.0; w.len() / 32];
            quantize_int8(&w, &mut q, &mut s);
            let mut xq = QuantizedVector::new(cols, 32).unwrap();
            xq.quantize(&x);
            let (mut a, mut exact) = (vec![0.0; rows], vec![0.0; rows]);
            reference::matvec_int8(&mut a, &q, &s, &xq);
            // Both vector forms: relaxed SIMD's byte dot product, and widening multiply-adds.
            let (mut b, mut c) = (vec![0.0; rows], vec![0.0; rows]);
            vector::matvec_int8::<true>(&mut b, &q, &s, &xq);
            vector::matvec_int8::<false>(&mut c, &q, &s, &xq);
            let bits = |v: &[f32]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&a), bits(&b));
            assert_eq!(bits(&a), bits(&c));
            let mut wd = vec![0.0; w.len()];
            crate::quant::dequantize_int8(&q, &s, &mut wd);
            reference::matvec_f32(&mut exact, &wd, &x);
            assert_close_to_dequantized(&a, &exact, &wd, &xq);
        }
    }

    #[test]
    fn int4_vector_kernel_gives_the_references_bits_and_is_close_to_f32() {
        let mut rng = Rng::new(13);
        for (rows, cols) in SHAPES {
            let w = random_vec(rows * cols, &mut rng, 0.2);
            let x = random_vec(cols, &mut rng, 2.0);
            let mut p = vec![0u8; w.len() / 2];
            let mut s = vec![0.0; w.len() / 128];
            quantize_int4(&w, &mut p, &mut s);
            let mut xq = QuantizedVector::new(cols, 128).unwrap();
            xq.quantize(&x);
            let (mut a, mut b, mut exact) = (vec![0.0; rows], vec![0.0; rows], vec![0.0; rows]);
            reference::matvec_int4(&mut a, &p, &s, &xq);
            vector::matvec_int4(&mut b, &p, &s, &xq);
            assert_eq!(
                a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
            let mut wd = vec![0.0; w.len()];
            crate::quant::dequantize_int4(&p, &s, &mut wd);
            reference::matvec_f32(&mut exact, &wd, &x);
            assert_close_to_dequantized(&a, &exact, &wd, &xq);
        }
    }

    #[test]
    #[should_panic(expected = "i7 operand with its top bit set")]
    fn the_relaxed_dot_refuses_a_byte_with_its_top_bit_set() {
        // Signed int4 nibbles stored as bytes (-1 = 0xff) would make relaxed SIMD's answer
        // depend on the machine; the kernels feed it 0..=15 only.
        use crate::simd::*;
        let x = i8x16_load(&[1; 16]);
        let w = i8x16_load(&[-1; 16]);
        let _ = i32x4_dot_i8x16_i7x16_add(x, w, i32x4_splat(0));
    }

    #[test]
    fn the_read_kernels_agree() {
        let words: Vec<u32> = (0..1000u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        assert_eq!(reference::read_sum(&words), vector::read_sum(&words));
        assert_eq!(reference::read_sum(&[1, 2, 3]), 6);
    }
}
