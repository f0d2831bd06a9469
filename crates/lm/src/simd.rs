//! The few 128-bit vector instructions the kernels use, under one set of names.
//!
//! In a wasm build with `simd128` each is one WebAssembly instruction (`core::arch::wasm32`).
//! Everywhere else each is written out lane by lane with the same meaning, so the very same
//! kernels run in native tests (slowly) and are held equal to the plain references there. The
//! lane-by-lane versions are also the definition of what each instruction does.
//!
//! A vector `V` is 16 bytes seen as 4 f32, 4 i32, 8 i16 or 16 i8/u8 lanes, lane 0 first.

pub use imp::*;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use core::arch::wasm32 as w;

    /// One 128-bit vector.
    pub type V = w::v128;

    /// Loads 4 f32.
    #[inline(always)]
    pub fn f32x4_load(a: &[f32; 4]) -> V {
        // SAFETY: `a` is 16 readable bytes; v128_load has no alignment requirement.
        unsafe { w::v128_load(a.as_ptr().cast::<w::v128>()) }
    }
    /// Loads 16 i8.
    #[inline(always)]
    pub fn i8x16_load(a: &[i8; 16]) -> V {
        // SAFETY: as above.
        unsafe { w::v128_load(a.as_ptr().cast::<w::v128>()) }
    }
    /// Loads 16 u8.
    #[inline(always)]
    pub fn u8x16_load(a: &[u8; 16]) -> V {
        // SAFETY: as above.
        unsafe { w::v128_load(a.as_ptr().cast::<w::v128>()) }
    }
    /// Loads 4 u32.
    #[inline(always)]
    pub fn u32x4_load(a: &[u32; 4]) -> V {
        // SAFETY: as above.
        unsafe { w::v128_load(a.as_ptr().cast::<w::v128>()) }
    }
    /// Four f32 lanes from values.
    #[inline(always)]
    pub fn f32x4_from(a: [f32; 4]) -> V {
        w::f32x4(a[0], a[1], a[2], a[3])
    }
    /// The same f32 in every lane.
    #[inline(always)]
    pub fn f32x4_splat(x: f32) -> V {
        w::f32x4_splat(x)
    }
    /// Lane-wise a + b (f32, rounded as IEEE says, like scalar +).
    #[inline(always)]
    pub fn f32x4_add(a: V, b: V) -> V {
        w::f32x4_add(a, b)
    }
    /// Lane-wise a × b (f32).
    #[inline(always)]
    pub fn f32x4_mul(a: V, b: V) -> V {
        w::f32x4_mul(a, b)
    }
    /// The four f32 lanes.
    #[inline(always)]
    pub fn f32x4_lanes(v: V) -> [f32; 4] {
        [
            w::f32x4_extract_lane::<0>(v),
            w::f32x4_extract_lane::<1>(v),
            w::f32x4_extract_lane::<2>(v),
            w::f32x4_extract_lane::<3>(v),
        ]
    }
    /// i32 lanes to f32 (exact below 2^24).
    #[inline(always)]
    pub fn f32x4_from_i32x4(v: V) -> V {
        w::f32x4_convert_i32x4(v)
    }
    /// The same i32 in every lane.
    #[inline(always)]
    pub fn i32x4_splat(x: i32) -> V {
        w::i32x4_splat(x)
    }
    /// Lane-wise a + b (i32, wrapping).
    #[inline(always)]
    pub fn i32x4_add(a: V, b: V) -> V {
        w::i32x4_add(a, b)
    }
    /// Lane-wise a - b (i32, wrapping).
    #[inline(always)]
    pub fn i32x4_sub(a: V, b: V) -> V {
        w::i32x4_sub(a, b)
    }
    /// The four i32 lanes.
    #[inline(always)]
    pub fn i32x4_lanes(v: V) -> [i32; 4] {
        [
            w::i32x4_extract_lane::<0>(v),
            w::i32x4_extract_lane::<1>(v),
            w::i32x4_extract_lane::<2>(v),
            w::i32x4_extract_lane::<3>(v),
        ]
    }
    /// Lane r of the result is the sum of the four lanes of the r-th argument.
    #[inline(always)]
    pub fn i32x4_sum4(a: V, b: V, c: V, d: V) -> V {
        // [a0+a2, b0+b2, a1+a3, b1+b3] and the same for c, d; then pair those up.
        let ab = w::i32x4_add(
            w::i32x4_shuffle::<0, 4, 1, 5>(a, b),
            w::i32x4_shuffle::<2, 6, 3, 7>(a, b),
        );
        let cd = w::i32x4_add(
            w::i32x4_shuffle::<0, 4, 1, 5>(c, d),
            w::i32x4_shuffle::<2, 6, 3, 7>(c, d),
        );
        w::i32x4_add(
            w::i32x4_shuffle::<0, 1, 4, 5>(ab, cd),
            w::i32x4_shuffle::<2, 3, 6, 7>(ab, cd),
        )
    }
    /// Lanes 0..8 of 16 i8, sign-extended to i16.
    #[inline(always)]
    pub fn i16x8_from_low_i8(v: V) -> V {
        w::i16x8_extend_low_i8x16(v)
    }
    /// Lanes 8..16 of 16 i8, sign-extended to i16.
    #[inline(always)]
    pub fn i16x8_from_high_i8(v: V) -> V {
        w::i16x8_extend_high_i8x16(v)
    }
    /// Lanes 0..8 of 16 u8, zero-extended to i16.
    #[inline(always)]
    pub fn i16x8_from_low_u8(v: V) -> V {
        w::u16x8_extend_low_u8x16(v)
    }
    /// Lanes 8..16 of 16 u8, zero-extended to i16.
    #[inline(always)]
    pub fn i16x8_from_high_u8(v: V) -> V {
        w::u16x8_extend_high_u8x16(v)
    }
    /// i32 lane k = a[2k] b[2k] + a[2k+1] b[2k+1] (i16 lanes).
    #[inline(always)]
    pub fn i32x4_dot_i16x8(a: V, b: V) -> V {
        w::i32x4_dot_i16x8(a, b)
    }
    /// The low four bits of each byte.
    #[inline(always)]
    pub fn u8x16_low_nibbles(v: V) -> V {
        w::v128_and(v, w::u8x16_splat(0x0f))
    }
    /// The high four bits of each byte, shifted down.
    #[inline(always)]
    pub fn u8x16_high_nibbles(v: V) -> V {
        w::u8x16_shr(v, 4)
    }
    /// i32 lane k = c[k] + Σ a[4k+i] b[4k+i] for i in 0..4: a signed bytes, b bytes in 0..=127.
    /// With relaxed SIMD one instruction (its result is defined when b's top bits are clear);
    /// with plain simd128 the same sum from widening dot products.
    #[inline(always)]
    pub fn i32x4_dot_i8x16_i7x16_add(a: V, b: V, c: V) -> V {
        #[cfg(target_feature = "relaxed-simd")]
        {
            w::i32x4_relaxed_dot_i8x16_i7x16_add(a, b, c)
        }
        #[cfg(not(target_feature = "relaxed-simd"))]
        {
            let lo = w::i32x4_dot_i16x8(w::i16x8_extend_low_i8x16(a), w::i16x8_extend_low_i8x16(b));
            let hi =
                w::i32x4_dot_i16x8(w::i16x8_extend_high_i8x16(a), w::i16x8_extend_high_i8x16(b));
            let sum = w::i32x4_add(
                w::i32x4_shuffle::<0, 2, 4, 6>(lo, hi),
                w::i32x4_shuffle::<1, 3, 5, 7>(lo, hi),
            );
            w::i32x4_add(c, sum)
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    /// One 128-bit vector: 16 bytes, little-endian lanes.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct V([u8; 16]);

    fn from_words(w: [u32; 4]) -> V {
        let mut b = [0u8; 16];
        for (c, x) in b.chunks_exact_mut(4).zip(w) {
            c.copy_from_slice(&x.to_le_bytes());
        }
        V(b)
    }
    fn words(v: V) -> [u32; 4] {
        let mut w = [0u32; 4];
        for (x, c) in w.iter_mut().zip(v.0.chunks_exact(4)) {
            let mut four = [0u8; 4];
            four.copy_from_slice(c);
            *x = u32::from_le_bytes(four);
        }
        w
    }
    fn from_i16(h: [i16; 8]) -> V {
        let mut b = [0u8; 16];
        for (c, x) in b.chunks_exact_mut(2).zip(h) {
            c.copy_from_slice(&x.to_le_bytes());
        }
        V(b)
    }
    fn i16s(v: V) -> [i16; 8] {
        let mut h = [0i16; 8];
        for (x, c) in h.iter_mut().zip(v.0.chunks_exact(2)) {
            let mut two = [0u8; 2];
            two.copy_from_slice(c);
            *x = i16::from_le_bytes(two);
        }
        h
    }
    fn f32s(v: V) -> [f32; 4] {
        words(v).map(f32::from_bits)
    }
    fn i32s(v: V) -> [i32; 4] {
        words(v).map(|w| w as i32)
    }
    fn from_f32(a: [f32; 4]) -> V {
        from_words(a.map(f32::to_bits))
    }
    fn from_i32(a: [i32; 4]) -> V {
        from_words(a.map(|x| x as u32))
    }
    fn lanewise_f32(a: V, b: V, f: impl Fn(f32, f32) -> f32) -> V {
        let (a, b) = (f32s(a), f32s(b));
        from_f32([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])])
    }
    fn lanewise_i32(a: V, b: V, f: impl Fn(i32, i32) -> i32) -> V {
        let (a, b) = (i32s(a), i32s(b));
        from_i32([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])])
    }

    /// Loads 4 f32.
    pub fn f32x4_load(a: &[f32; 4]) -> V {
        from_f32(*a)
    }
    /// Loads 16 i8.
    pub fn i8x16_load(a: &[i8; 16]) -> V {
        V(a.map(|x| x as u8))
    }
    /// Loads 16 u8.
    pub fn u8x16_load(a: &[u8; 16]) -> V {
        V(*a)
    }
    /// Loads 4 u32.
    pub fn u32x4_load(a: &[u32; 4]) -> V {
        from_words(*a)
    }
    /// Four f32 lanes from values.
    pub fn f32x4_from(a: [f32; 4]) -> V {
        from_f32(a)
    }
    /// The same f32 in every lane.
    pub fn f32x4_splat(x: f32) -> V {
        from_f32([x; 4])
    }
    /// Lane-wise a + b (f32).
    pub fn f32x4_add(a: V, b: V) -> V {
        lanewise_f32(a, b, |x, y| x + y)
    }
    /// Lane-wise a × b (f32).
    pub fn f32x4_mul(a: V, b: V) -> V {
        lanewise_f32(a, b, |x, y| x * y)
    }
    /// The four f32 lanes.
    pub fn f32x4_lanes(v: V) -> [f32; 4] {
        f32s(v)
    }
    /// i32 lanes to f32.
    pub fn f32x4_from_i32x4(v: V) -> V {
        from_f32(i32s(v).map(|x| x as f32))
    }
    /// The same i32 in every lane.
    pub fn i32x4_splat(x: i32) -> V {
        from_i32([x; 4])
    }
    /// Lane-wise a + b (i32, wrapping).
    pub fn i32x4_add(a: V, b: V) -> V {
        lanewise_i32(a, b, i32::wrapping_add)
    }
    /// Lane-wise a - b (i32, wrapping).
    pub fn i32x4_sub(a: V, b: V) -> V {
        lanewise_i32(a, b, i32::wrapping_sub)
    }
    /// The four i32 lanes.
    pub fn i32x4_lanes(v: V) -> [i32; 4] {
        i32s(v)
    }
    /// Lane r of the result is the sum of the four lanes of the r-th argument.
    pub fn i32x4_sum4(a: V, b: V, c: V, d: V) -> V {
        let s = |v: V| i32s(v).iter().fold(0i32, |t, &x| t.wrapping_add(x));
        from_i32([s(a), s(b), s(c), s(d)])
    }
    /// Lanes 0..8 of 16 i8, sign-extended to i16.
    pub fn i16x8_from_low_i8(v: V) -> V {
        let mut h = [0i16; 8];
        for (x, &b) in h.iter_mut().zip(&v.0) {
            *x = b as i8 as i16;
        }
        from_i16(h)
    }
    /// Lanes 8..16 of 16 i8, sign-extended to i16.
    pub fn i16x8_from_high_i8(v: V) -> V {
        let mut h = [0i16; 8];
        for (x, &b) in h.iter_mut().zip(v.0.iter().skip(8)) {
            *x = b as i8 as i16;
        }
        from_i16(h)
    }
    /// Lanes 0..8 of 16 u8, zero-extended to i16.
    pub fn i16x8_from_low_u8(v: V) -> V {
        let mut h = [0i16; 8];
        for (x, &b) in h.iter_mut().zip(&v.0) {
            *x = b as i16;
        }
        from_i16(h)
    }
    /// Lanes 8..16 of 16 u8, zero-extended to i16.
    pub fn i16x8_from_high_u8(v: V) -> V {
        let mut h = [0i16; 8];
        for (x, &b) in h.iter_mut().zip(v.0.iter().skip(8)) {
            *x = b as i16;
        }
        from_i16(h)
    }
    /// i32 lane k = a[2k] b[2k] + a[2k+1] b[2k+1] (i16 lanes).
    pub fn i32x4_dot_i16x8(a: V, b: V) -> V {
        let (a, b) = (i16s(a), i16s(b));
        let mut out = [0i32; 4];
        for ((o, x), y) in out.iter_mut().zip(a.chunks_exact(2)).zip(b.chunks_exact(2)) {
            *o = x.iter().zip(y).map(|(&p, &q)| p as i32 * q as i32).sum();
        }
        from_i32(out)
    }
    /// The low four bits of each byte.
    pub fn u8x16_low_nibbles(v: V) -> V {
        V(v.0.map(|b| b & 0x0f))
    }
    /// The high four bits of each byte, shifted down.
    pub fn u8x16_high_nibbles(v: V) -> V {
        V(v.0.map(|b| b >> 4))
    }
    /// i32 lane k = c[k] + Σ a[4k+i] b[4k+i] for i in 0..4: a signed bytes, b bytes in 0..=127.
    /// Relaxed SIMD leaves the result open when a byte of b has its top bit set; this version
    /// refuses such input in tests, so a kernel that fed it one would fail natively.
    pub fn i32x4_dot_i8x16_i7x16_add(a: V, b: V, c: V) -> V {
        debug_assert!(
            b.0.iter().all(|&x| x < 128),
            "i7 operand with its top bit set"
        );
        let mut out = i32s(c);
        for ((o, x), y) in out
            .iter_mut()
            .zip(a.0.chunks_exact(4))
            .zip(b.0.chunks_exact(4))
        {
            let s: i32 = x
                .iter()
                .zip(y)
                .map(|(&p, &q)| p as i8 as i32 * q as i8 as i32)
                .sum();
            *o = o.wrapping_add(s);
        }
        from_i32(out)
    }
}
