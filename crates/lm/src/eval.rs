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
            return Err(LmError::ContextFull {
                seq_len: model.config.seq_len,
            });
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
        let Some(t) = self.to_feed.take() else {
            return Ok(None);
        };
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

/// log-softmax of logits (vocab,) into out (vocab,), in f64 (natural log).
fn log_softmax(logits: &[f32], out: &mut [f64]) {
    let max = logits.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v)) as f64;
    let sum: f64 = logits.iter().map(|&l| math::exp_f64(l as f64 - max)).sum();
    let lse = max + sum.ln();
    for (o, &l) in out.iter_mut().zip(logits) {
        *o = l as f64 - lse;
    }
}

/// A model's predictions over a text, teacher-forced: for every position, the log-probability
/// of each token, and the token that came next.
#[derive(Debug, Clone, PartialEq)]
pub struct LogProbs {
    /// Vocabulary size.
    pub vocab: usize,
    /// Natural-log probabilities, (positions, vocab).
    pub rows: Vec<f64>,
    /// The true next token at each position, (positions,).
    pub targets: Vec<u32>,
}

/// Reads a text in windows of the context length, each from an empty cache, and keeps every
/// position's log-probabilities.
pub fn log_probs(model: &Model, text: &str) -> Result<LogProbs, LmError> {
    let tokens = model.tokenizer.encode(text)?;
    let vocab = model.config.vocab_size;
    let seq_len = model.config.seq_len.max(1);
    let n = tokens.len().saturating_sub(1);
    let mut rows = crate::error::try_vec(n * vocab, 0.0f64, "evaluation")?;
    let mut state = State::for_model(model)?;
    let inputs = tokens.get(..n).unwrap_or(&[]);
    for (window, rows) in inputs.chunks(seq_len).zip(rows.chunks_mut(seq_len * vocab)) {
        for ((pos, &token), row) in window.iter().enumerate().zip(rows.chunks_exact_mut(vocab)) {
            log_softmax(forward(model, &mut state, token, pos)?, row);
        }
    }
    Ok(LogProbs {
        vocab,
        rows,
        targets: tokens.get(1..).unwrap_or(&[]).to_vec(),
    })
}

impl LogProbs {
    /// Positions predicted.
    pub fn positions(&self) -> usize {
        self.targets.len()
    }

    /// Mean cross-entropy, bits per character.
    pub fn bits_per_char(&self) -> f64 {
        let nats: f64 = self
            .rows
            .chunks_exact(self.vocab.max(1))
            .zip(&self.targets)
            .map(|(row, &t)| -row.get(t as usize).copied().unwrap_or(f64::NEG_INFINITY))
            .sum();
        nats / self.positions().max(1) as f64 / std::f64::consts::LN_2
    }
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
    let lp = log_probs(model, text)?;
    Ok(TextScore {
        positions: lp.positions(),
        bits_per_char: lp.bits_per_char(),
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

/// The first index of the largest value.
fn top(v: &[f64]) -> usize {
    v.iter()
        .enumerate()
        .fold(
            (0, f64::NEG_INFINITY),
            |b, (i, &x)| if x > b.1 { (i, x) } else { b },
        )
        .0
}

/// Compares predictions `b` with the reference predictions `a` (same text, same vocabulary).
pub fn compare_log_probs(a: &LogProbs, b: &LogProbs) -> Result<Comparison, LmError> {
    if a.vocab != b.vocab || a.targets != b.targets {
        return Err(LmError::BadConfig(
            "the two evaluations are not of the same text and vocabulary".into(),
        ));
    }
    let (mut kl, mut same) = (0.0, 0usize);
    for (pa, pb) in a
        .rows
        .chunks_exact(a.vocab.max(1))
        .zip(b.rows.chunks_exact(b.vocab.max(1)))
    {
        kl += pa
            .iter()
            .zip(pb)
            .map(|(&x, &y)| math::exp_f64(x) * (x - y))
            .sum::<f64>();
        same += usize::from(top(pa) == top(pb));
    }
    let n = a.positions().max(1) as f64;
    Ok(Comparison {
        positions: a.positions(),
        a_bits_per_char: a.bits_per_char(),
        b_bits_per_char: b.bits_per_char(),
        kl_bits_per_char: kl / n / std::f64::consts::LN_2,
        agreement: same as f64 / n,
    })
}

/// Compares model `b` with model `a` (the reference: the teacher, or the f32 model) on a text.
pub fn compare(a: &Model, b: &Model, text: &str) -> Result<Comparison, LmError> {
    if a.tokenizer != b.tokenizer {
        return Err(LmError::BadConfig(
            "the models have different vocabularies".into(),
        ));
    }
    compare_log_probs(&log_probs(a, text)?, &log_probs(b, text)?)
}
