//! A small, fast, seeded random number generator (xorshift64*, as llama2.c samples with).

/// A seeded stream of random numbers: the same seed gives the same numbers on every machine.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator from a seed (any value; 0 is mapped to a fixed non-zero state).
    pub fn new(seed: u64) -> Rng {
        // splitmix64 of the seed, so that nearby seeds start far apart.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Rng {
            state: if z == 0 { 0x2545_f491_4f6c_dd1d } else { z },
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A uniform number in [-1, 1).
    pub fn uniform(&mut self) -> f32 {
        // 24 random bits give every f32 step of [0, 1) equal weight.
        ((self.next_u64() >> 40) as f32 / 16_777_216.0) * 2.0 - 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_numbers() {
        let a: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..5)
            .scan(Rng::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..5)
            .scan(Rng::new(8), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn uniform_numbers_fill_the_interval() {
        let mut r = Rng::new(1);
        let xs: Vec<f32> = (0..10_000).map(|_| r.uniform()).collect();
        assert!(xs.iter().all(|x| (-1.0..1.0).contains(x)));
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        assert!(mean.abs() < 0.03, "{mean}");
        assert!(xs.iter().any(|&x| x < -0.99) && xs.iter().any(|&x| x > 0.99));
    }
}

/// Builds a model with random weights directly at its precision, a block at a time, so that a
/// worker can report progress between blocks. Speed does not depend on the weights' values,
/// so such a model times decoding honestly; its text is noise.
#[derive(Debug)]
pub struct RandomModelBuilder {
    config: crate::Config,
    precision: crate::Precision,
    rng: Rng,
    embedding: Option<crate::model::Matrix>,
    layers: Vec<crate::model::Layer>,
}

impl RandomModelBuilder {
    /// A builder for this shape and precision, from a seed.
    pub fn new(
        config: crate::Config,
        precision: crate::Precision,
        seed: u64,
    ) -> Result<Self, crate::LmError> {
        config.check(precision)?;
        Ok(RandomModelBuilder {
            config,
            precision,
            rng: Rng::new(seed),
            embedding: None,
            layers: Vec::new(),
        })
    }

    /// Steps to build the whole model (the embedding, then each block).
    pub fn total_steps(&self) -> usize {
        1 + self.config.n_layers
    }

    /// Steps done so far.
    pub fn steps_done(&self) -> usize {
        usize::from(self.embedding.is_some()) + self.layers.len()
    }

    /// Builds the next part; returns true while parts remain.
    pub fn step(&mut self) -> Result<bool, crate::LmError> {
        let c = self.config;
        let (d, h) = (c.dim, c.hidden_dim);
        if self.embedding.is_none() {
            self.embedding = Some(random_matrix(
                &mut self.rng,
                c.vocab_size,
                d,
                self.precision,
            )?);
        } else if self.layers.len() < c.n_layers {
            if self.layers.is_empty() {
                self.layers.try_reserve_exact(c.n_layers).map_err(|_| {
                    crate::LmError::OutOfMemory {
                        what: "weights",
                        bytes: 0,
                    }
                })?;
            }
            let p = self.precision;
            let r = &mut self.rng;
            self.layers.push(crate::model::Layer {
                attention_norm: crate::error::try_vec(d, 1.0, "weights")?,
                wq: random_matrix(r, d, d, p)?,
                wk: random_matrix(r, d, d, p)?,
                wv: random_matrix(r, d, d, p)?,
                wo: random_matrix(r, d, d, p)?,
                ffn_norm: crate::error::try_vec(d, 1.0, "weights")?,
                w1: random_matrix(r, h, d, p)?,
                w2: random_matrix(r, d, h, p)?,
                w3: random_matrix(r, h, d, p)?,
            });
        }
        Ok(self.steps_done() < self.total_steps())
    }

    /// The finished model (building whatever is left).
    pub fn finish(mut self) -> Result<crate::Model, crate::LmError> {
        while self.step()? {}
        let embedding = self
            .embedding
            .ok_or_else(|| crate::LmError::BadConfig("no embedding was built".into()))?;
        Ok(crate::Model {
            config: self.config,
            precision: self.precision,
            tokenizer: crate::CharTokenizer::printable_ascii(),
            embedding,
            layers: self.layers,
            final_norm: crate::error::try_vec(self.config.dim, 1.0, "weights")?,
        })
    }
}

/// A (rows, cols) matrix of random weights of size about 1/sqrt(cols), made at its precision.
fn random_matrix(
    rng: &mut Rng,
    rows: usize,
    cols: usize,
    precision: crate::Precision,
) -> Result<crate::model::Matrix, crate::LmError> {
    use crate::error::try_vec;
    use crate::model::Matrix;
    let amp = 1.0 / (cols as f32).sqrt();
    let n = rows * cols;
    Ok(match precision {
        crate::Precision::F32 => {
            let mut w = try_vec(n, 0.0f32, "weights")?;
            w.iter_mut().for_each(|v| *v = rng.uniform() * amp);
            Matrix::F32(w)
        }
        crate::Precision::Int8 => {
            let mut q = try_vec(n, 0u8, "weights")?;
            for chunk in q.chunks_mut(8) {
                let bits = rng.next_u64().to_le_bytes();
                for (v, b) in chunk.iter_mut().zip(bits) {
                    // Bytes of 1..=127: int8 values -63..=63 stored as q + 64.
                    *v = (b & 0x7f).max(1);
                }
            }
            let qmax = crate::quant::INT8_QMAX;
            let scales = try_vec(n / crate::quant::INT8_GROUP, amp / qmax, "weights")?;
            Matrix::Int8 { q, scales }
        }
        crate::Precision::Int4 => {
            let mut packed = try_vec(n / 2, 0u8, "weights")?;
            for chunk in packed.chunks_mut(8) {
                let bits = rng.next_u64().to_le_bytes();
                for (v, b) in chunk.iter_mut().zip(bits) {
                    // Two nibbles of 1..=15: int4 values -7..=7 stored as q + 8.
                    *v = (b & 0x0f).max(1) | ((b >> 4).max(1) << 4);
                }
            }
            let scales = try_vec(n / crate::quant::INT4_GROUP, amp / 7.0, "weights")?;
            Matrix::Int4 { packed, scales }
        }
    })
}
