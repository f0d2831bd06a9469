//! The course's one seeded generator: SplitMix64 (Steele, Lea and Flood 2014). The same seed
//! gives the same numbers on every platform, so a figure in the text matches the widget that
//! draws it (the latency explorer's sample, the distillation playground's random student).
//! Not for cryptography.

/// A small, fast, seeded pseudo-random generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`; the same seed gives the same sequence.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in `[0, 1)`, from the top 53 bits (every value a multiple of 2⁻⁵³).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A standard normal number (mean 0, standard deviation 1), by the Box–Muller transform.
    /// Always finite: |z| < 8.6.
    pub fn next_standard_normal(&mut self) -> f64 {
        // 1 − u lies in (0, 1], so the logarithm is finite.
        let u1 = 1.0 - self.next_f64();
        let u2 = self.next_f64();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // First outputs of the reference C implementation seeded with 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn the_same_seed_gives_the_same_numbers() {
        let a: Vec<u64> = {
            let mut rng = SplitMix64::new(42);
            (0..5).map(|_| rng.next_u64()).collect()
        };
        let mut rng = SplitMix64::new(42);
        assert_eq!(a, (0..5).map(|_| rng.next_u64()).collect::<Vec<_>>());
        assert_ne!(
            SplitMix64::new(42).next_u64(),
            SplitMix64::new(43).next_u64()
        );
    }

    #[test]
    fn uniform_numbers_stay_in_zero_to_one() {
        let mut rng = SplitMix64::new(7);
        assert!((0..1000)
            .map(|_| rng.next_f64())
            .all(|u| (0.0..1.0).contains(&u)));
    }

    #[test]
    fn normal_numbers_are_finite_and_centred() {
        let mut rng = SplitMix64::new(1);
        let z: Vec<f64> = (0..10_000).map(|_| rng.next_standard_normal()).collect();
        assert!(z.iter().all(|x| x.is_finite() && x.abs() < 8.6));
        let mean = z.iter().sum::<f64>() / z.len() as f64;
        let var = z.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / z.len() as f64;
        assert!(mean.abs() < 0.05, "{mean}");
        assert!((var - 1.0).abs() < 0.05, "{var}");
    }
}
