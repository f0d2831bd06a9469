//! Using a model: greedy generation, and the measures of quality the lab shows.
//!
//! Teacher-forced evaluation reads a text in consecutive windows of the context length: each
//! window starts a fresh KV cache, feeds its characters one by one, and scores the prediction of
//! each next character. Every character after the first is predicted exactly once. (The
//! training script evaluates the same way, so the figures in the manifest are reproducible.)

use crate::cost;
use crate::error::LmError;
use crate::math;
use crate::model::{argmax, forward, Model, State};

/// Greedy decoding of one sequence, one forward pass a call.
#[derive(Debug, Clone)]
pub struct Generator {
    state: State,
    /// Position the next token is fed at.
    pos: usize,
    /// The token to feed next: the last one of the prompt, or the last one chosen.
    to_feed: Option<u32>,
    /// Tokens fed since the generator was made (prompt included).
    pub tokens_fed: u64,
    /// Bytes those tokens read (weights and KV cache, by [`cost::bytes_per_token`]).
    pub bytes_read: u64,
}

impl Generator {
    /// A generator with its own KV cache for this model.
    pub fn new(model: &Model) -> Result<Generator, LmError> {
        Ok(Generator {
            state: State::for_model(model)?,
            pos: 0,
            to_feed: None,
            tokens_fed: 0,
            bytes_read: 0,
        })
    }

    /// Position of the next token to be fed (the sequence length so far).
    pub fn position(&self) -> usize {
        self.pos
    }

    fn feed(&mut self, model: &Model, token: u32) -> Result<u32, LmError> {
        let logits = forward(model, &mut self.state, token, self.pos)?;
        let next = argmax(logits);
        self.bytes_read += cost::bytes_per_token(&model.config, model.precision, self.pos);
        self.tokens_fed += 1;
        self.pos += 1;
        Ok(next)
    }

    /// Starts a new sequence with these tokens (at least one); the cache is reused.
    pub fn start(&mut self, model: &Model, prompt: &[u32]) -> Result<(), LmError> {
        let Some((&last, head)) = prompt.split_last() else {
            return Err(LmError::EmptyPrompt);
        };
        if prompt.len() > model.config.seq_len {
            return Err(LmError::ContextFull { seq_len: model.config.seq_len });
        }
        self.pos = 0;
        self.to_feed = None;
        for &t in head {
            self.feed(model, t)?;
        }
        self.to_feed = Some(last);
        Ok(())
    }

    /// The next token by greedy choice, or None once the context is full (or before start).
    pub fn next_token(&mut self, model: &Model) -> Result<Option<u32>, LmError> {
        let Some(t) = self.to_feed.take() else { return Ok(None) };
        if self.pos >= model.config.seq_len {
            return Ok(None);
        }
        let next = self.feed(model, t)?;
        self.to_feed = Some(next);
        Ok(Some(next))
    }

    /// Decodes `n` tokens back to back for timing, feeding each choice back in and starting a
    /// new sequence (from token 0) whenever the context fills.
    pub fn run(&mut self, model: &Model, n: u32) -> Result<(), LmError> {
        for _ in 0..n {
            if self.to_feed.is_none() || self.pos >= model.config.seq_len {
                self.pos = 0;
                self.to_feed = Some(0);
            }
            self.next_token(model)?;
        }
        Ok(())
    }
}

/// The greedy continuation of a prompt: up to `max_new` characters, fewer if the context fills.
pub fn generate_greedy(model: &Model, prompt: &str, max_new: usize) -> Result<String, LmError> {
    let tokens = model.tokenizer.encode(prompt)?;
    let mut g = Generator::new(model)?;
    g.start(model, &tokens)?;
    let mut out = String::new();
    for _ in 0..max_new {
        match g.next_token(model)? {
            Some(t) => out.push(model.tokenizer.decode_one(t)?),
            None => break,
        }
    }
    Ok(out)
}

/// log-softmax of logits (vocab,) into out, in f64 (natural log).
fn log_softmax(logits: &[f32], out: &mut Vec<f64>) {
    let max = logits.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v)) as f64;
    let sum: f64 = logits.iter().map(|&l| math::exp_f64(l as f64 - max)).sum();
    let lse = max + sum.ln();
    out.clear();
    out.extend(logits.iter().map(|&l| l as f64 - lse));
}

/// Runs models side by side over a text, teacher-forced, calling `each` with every position's
/// log-probabilities (one vector per model) and the true next token.
fn teacher_forced(models: &[&Model], text: &str, mut each: impl FnMut(&[Vec<f64>], usize)) -> Result<usize, LmError> {
    let first = models.first().ok_or(LmError::EmptyPrompt)?;
    if models.iter().any(|m| m.tokenizer != first.tokenizer) {
        return Err(LmError::BadConfig("the models have different vocabularies".into()));
    }
    let tokens = first.tokenizer.encode(text)?;
    let seq_len = models.iter().map(|m| m.config.seq_len).min().unwrap_or(1).max(1);
    let mut states = models.iter().map(|m| State::for_model(m)).collect::<Result<Vec<_>, _>>()?;
    let mut logp = vec![Vec::new(); models.len()];
    let inputs = tokens.get(..tokens.len().saturating_sub(1)).unwrap_or(&[]);
    let mut positions = 0;
    for (w, window) in inputs.chunks(seq_len).enumerate() {
        for (pos, &token) in window.iter().enumerate() {
            for ((m, s), lp) in models.iter().zip(states.iter_mut()).zip(logp.iter_mut()) {
                log_softmax(forward(m, s, token, pos)?, lp);
            }
            let target = tokens.get(w * seq_len + pos + 1).copied().unwrap_or(0) as usize;
            each(&logp, target);
            positions += 1;
        }
    }
    Ok(positions)
}

/// A model's cross-entropy on a text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextScore {
    /// Characters predicted.
    pub positions: usize,
    /// Mean cross-entropy, bits per character.
    pub bits_per_char: f64,
}

/// Cross-entropy of a model on a text, bits per character (teacher-forced).
pub fn cross_entropy(model: &Model, text: &str) -> Result<TextScore, LmError> {
    let mut nats = 0.0;
    let positions = teacher_forced(&[model], text, |lp, t| {
        nats -= lp.first().and_then(|l| l.get(t)).copied().unwrap_or(f64::NEG_INFINITY);
    })?;
    Ok(TextScore {
        positions,
        bits_per_char: nats / positions.max(1) as f64 / std::f64::consts::LN_2,
    })
}

/// Two models read the same text: what a student knows of its teacher (or a quantized model of
/// its f32 original).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// Characters predicted.
    pub positions: usize,
    /// The first model's cross-entropy, bits per character.
    pub a_bits_per_char: f64,
    /// The second model's cross-entropy, bits per character.
    pub b_bits_per_char: f64,
    /// KL(a ‖ b): bits per character the second loses by predicting with its distribution
    /// instead of the first's.
    pub kl_bits_per_char: f64,
    /// Share of positions (0 to 1) where both put the same character on top.
    pub agreement: f64,
}

/// Compares model `b` with model `a` (the reference: the teacher, or the f32 model) on a text.
pub fn compare(a: &Model, b: &Model, text: &str) -> Result<Comparison, LmError> {
    let (mut ce_a, mut ce_b, mut kl, mut same) = (0.0, 0.0, 0.0, 0usize);
    let positions = teacher_forced(&[a, b], text, |lp, t| {
        let (Some(pa), Some(pb)) = (lp.first(), lp.get(1)) else { return };
        ce_a -= pa.get(t).copied().unwrap_or(f64::NEG_INFINITY);
        ce_b -= pb.get(t).copied().unwrap_or(f64::NEG_INFINITY);
        kl += pa.iter().zip(pb).map(|(&x, &y)| math::exp_f64(x) * (x - y)).sum::<f64>();
        let top = |v: &[f64]| {
            v.iter()
                .enumerate()
                .fold((0, f64::NEG_INFINITY), |b, (i, &x)| if x > b.1 { (i, x) } else { b })
                .0
        };
        same += usize::from(top(pa) == top(pb));
    })?;
    let n = positions.max(1) as f64;
    let ln2 = std::f64::consts::LN_2;
    Ok(Comparison {
        positions,
        a_bits_per_char: ce_a / n / ln2,
        b_bits_per_char: ce_b / n / ln2,
        kl_bits_per_char: kl / n / ln2,
        agreement: same as f64 / n,
    })
}
