//! exp, sin and cos from additions and multiplications only.
//!
//! The standard library's `exp` comes from the platform's maths library natively and from a
//! port of musl's in wasm, and the two may differ in the last bit. These use only IEEE
//! operations (+, -, *, /, which Rust never fuses), so a native run and the browser compute
//! the very same bits: the golden greedy sample a native test checks is the text the page shows.

const LN2: f64 = std::f64::consts::LN_2;
/// ln 2 in two parts: the first has few enough bits that k × LN2_HI is exact.
const LN2_HI: f64 = 6.931_471_803_691_238e-1;
const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

/// e^x in f64, to about 1e-15 relative, for |x| < 700.
pub fn exp_f64(x: f64) -> f64 {
    if x < -700.0 {
        return 0.0;
    }
    if x > 700.0 {
        return f64::INFINITY;
    }
    // x = k ln2 + r with |r| <= ln2 / 2, then e^x = 2^k e^r.
    let k = (x / LN2).round();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    // Taylor series of e^r to r^13 / 13!: the remainder is below 1e-16 for |r| <= 0.35.
    let mut term = 1.0;
    let mut sum = 1.0;
    for i in 1..=13 {
        term *= r / i as f64;
        sum += term;
    }
    // 2^k built from its exponent bits (k is within [-1010, 1010] here).
    let two_k = f64::from_bits(((k as i64 + 1023) as u64) << 52);
    sum * two_k
}

/// e^x in f32 (through f64, then rounded once).
pub fn exp(x: f32) -> f32 {
    exp_f64(x as f64) as f32
}

/// (sin θ, cos θ) in f64, to about 1e-15 absolute for |θ| < 1e5.
pub fn sin_cos(theta: f64) -> (f64, f64) {
    // θ = n π/2 + r with |r| <= π/4; π/2 in two parts so that n π/2 stays accurate.
    const PIO2_HI: f64 = std::f64::consts::FRAC_PI_2;
    const PIO2_LO: f64 = 6.123_233_995_736_766e-17;
    let n = (theta / PIO2_HI).round();
    let r = (theta - n * PIO2_HI) - n * PIO2_LO;
    let r2 = r * r;
    // Taylor series to r^17 and r^16: remainders below 1e-17 for |r| <= π/4.
    let mut s = r;
    let mut c = 1.0;
    let mut ts = r;
    let mut tc = 1.0;
    for i in 1..=8 {
        let i = i as f64;
        ts *= -r2 / ((2.0 * i) * (2.0 * i + 1.0));
        tc *= -r2 / ((2.0 * i - 1.0) * (2.0 * i));
        s += ts;
        c += tc;
    }
    match (n as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_matches_the_standard_library() {
        let mut x = -90.0f64;
        while x < 88.0 {
            let ours = exp_f64(x);
            let std = x.exp();
            assert!(((ours - std) / std).abs() < 4e-15, "{x}: {ours} vs {std}");
            // In f32, at most one unit in the last place from the standard library's.
            let (a, b) = (exp(x as f32), (x as f32).exp());
            assert!((a.to_bits() as i64 - b.to_bits() as i64).abs() <= 1, "{x}");
            x += 0.0137;
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-1000.0), 0.0);
        assert_eq!(exp(1000.0), f32::INFINITY);
    }

    #[test]
    fn sin_and_cos_match_the_standard_library() {
        let mut t = -600.0f64;
        while t < 600.0 {
            let (s, c) = sin_cos(t);
            assert!((s - t.sin()).abs() < 1e-13, "sin {t}");
            assert!((c - t.cos()).abs() < 1e-13, "cos {t}");
            t += 0.0731;
        }
    }
}
