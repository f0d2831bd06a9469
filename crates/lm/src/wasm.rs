//! The browser layer: what the lab's worker calls. Every call is time-free (the worker times
//! with `performance.now()`), and every failure is a `JsError` with a message the page can show.

use wasm_bindgen::prelude::*;

use crate::bandwidth::ReadBuffer;
use crate::config::{Config, Precision};
use crate::error::LmError;
use crate::eval::{self, Generator};
use crate::model::Model;
use crate::random::{RandomModelBuilder, Rng};
use crate::{cost, file, kernels, quant};

/// The engine's allocator in the browser: the system one (dlmalloc), with an optional cap on the
/// large blocks (1 MB and more: weights, KV caches, the bandwidth buffer) held at once. A block
/// over the cap is refused as the browser refuses one it has no memory for (a null pointer:
/// `try_reserve` turns it into [`LmError::OutOfMemory`]), so a page can test what a reader on a
/// small device sees (`set_memory_cap`). Small blocks (strings, the page's messages) are never
/// refused: those allocations are not fallible, and refusing one would abort.
mod capped {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    /// Blocks of this size and more count against the cap.
    const LARGE: usize = 1 << 20;
    /// The cap, in bytes (none: `usize::MAX`).
    pub static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);
    /// Bytes of large blocks held now.
    static HELD: AtomicUsize = AtomicUsize::new(0);

    pub struct Capped;

    impl Capped {
        /// Whether a large block of `size` bytes may be had now.
        fn allowed(size: usize) -> bool {
            size < LARGE || HELD.load(Relaxed).saturating_add(size) <= CAP.load(Relaxed)
        }
        fn held(size: usize, ptr: *mut u8) -> *mut u8 {
            if size >= LARGE && !ptr.is_null() {
                HELD.fetch_add(size, Relaxed);
            }
            ptr
        }
    }

    // SAFETY: every call goes to `System` with the caller's own arguments; the cap only
    // returns null (which `GlobalAlloc` allows) before asking it.
    unsafe impl GlobalAlloc for Capped {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if !Self::allowed(layout.size()) {
                return std::ptr::null_mut();
            }
            // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
            Self::held(layout.size(), unsafe { System.alloc(layout) })
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            if !Self::allowed(layout.size()) {
                return std::ptr::null_mut();
            }
            // SAFETY: as above.
            Self::held(layout.size(), unsafe { System.alloc_zeroed(layout) })
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            if layout.size() >= LARGE {
                HELD.fetch_sub(layout.size(), Relaxed);
            }
            // SAFETY: `ptr` came from `alloc` above with this layout.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static ALLOCATOR: Capped = Capped;
}

/// Caps the large blocks the engine may hold at once at `bytes` (0 or less: no cap). A page
/// passes it to test a failed allocation (`?lm.memory=` on the lesson's address).
#[wasm_bindgen]
pub fn set_memory_cap(bytes: f64) {
    let cap = if bytes > 0.0 {
        bytes.min(usize::MAX as f64) as usize
    } else {
        usize::MAX
    };
    capped::CAP.store(cap, std::sync::atomic::Ordering::Relaxed);
}

fn js(e: LmError) -> JsError {
    JsError::new(&e.to_string())
}

/// Which kernels this build runs: `relaxed-simd` or `simd128`.
#[wasm_bindgen(js_name = kernels)]
pub fn kernels_name() -> String {
    kernels::KERNELS.to_string()
}

/// A model and one sequence's state (KV cache, generator, counters).
#[wasm_bindgen]
pub struct LmModel {
    model: Model,
    generator: Generator,
}

impl LmModel {
    fn wrap(model: Model) -> Result<LmModel, JsError> {
        let generator = Generator::new(&model).map_err(js)?;
        Ok(LmModel { model, generator })
    }
}

#[wasm_bindgen]
impl LmModel {
    /// Loads a weights file (`.ielm`), its matrices stored at `precision` (`f32`, `int8`, `int4`).
    pub fn load(bytes: &[u8], precision: &str) -> Result<LmModel, JsError> {
        let p = Precision::parse(precision).map_err(js)?;
        LmModel::wrap(file::load(bytes, p).map_err(js)?)
    }

    /// The same model at another precision (quantized from this one's weights).
    pub fn quantized(&self, precision: &str) -> Result<LmModel, JsError> {
        let p = Precision::parse(precision).map_err(js)?;
        LmModel::wrap(self.model.quantized(p).map_err(js)?)
    }

    /// `f32`, `int8` or `int4`.
    pub fn precision(&self) -> String {
        self.model.precision.name().to_string()
    }

    /// The shape, as JSON: {"dim":…, "hidden_dim":…, "n_layers":…, "n_heads":…, "vocab_size":…, "seq_len":…}.
    pub fn config_json(&self) -> String {
        let c = self.model.config;
        format!(
            "{{\"dim\":{},\"hidden_dim\":{},\"n_layers\":{},\"n_heads\":{},\"vocab_size\":{},\"seq_len\":{}}}",
            c.dim, c.hidden_dim, c.n_layers, c.n_heads, c.vocab_size, c.seq_len
        )
    }

    /// Number of parameters.
    pub fn parameters(&self) -> f64 {
        self.model.config.parameters() as f64
    }

    /// Bytes the weights take in memory.
    pub fn model_bytes(&self) -> f64 {
        cost::model_bytes(&self.model.config, self.model.precision) as f64
    }

    /// Bytes read to decode the token at position `pos` (weights + KV cache).
    pub fn bytes_per_token(&self, pos: u32) -> f64 {
        cost::bytes_per_token(&self.model.config, self.model.precision, pos as usize) as f64
    }

    /// Bytes of weights read per token (the KV cache left out).
    pub fn weight_bytes_per_token(&self) -> f64 {
        cost::weight_bytes_per_token(&self.model.config, self.model.precision) as f64
    }

    /// Starts a sequence from a prompt (greedy decoding follows with `next_char`).
    pub fn start(&mut self, prompt: &str) -> Result<(), JsError> {
        let tokens = self.model.tokenizer.encode(prompt).map_err(js)?;
        self.generator.start(&self.model, &tokens).map_err(js)
    }

    /// The next character by greedy choice, or undefined once the context is full.
    pub fn next_char(&mut self) -> Result<Option<String>, JsError> {
        match self.generator.next_token(&self.model).map_err(js)? {
            Some(t) => Ok(Some(
                self.model.tokenizer.decode_one(t).map_err(js)?.to_string(),
            )),
            None => Ok(None),
        }
    }

    /// The greedy continuation of a prompt, up to `max_new` characters.
    pub fn generate(&self, prompt: &str, max_new: u32) -> Result<String, JsError> {
        eval::generate_greedy(&self.model, prompt, max_new as usize).map_err(js)
    }

    /// Decodes `n` tokens back to back (for timing); counters below advance.
    pub fn decode(&mut self, n: u32) -> Result<(), JsError> {
        self.generator.run(&self.model, n).map_err(js)
    }

    /// Tokens decoded so far by `start`, `next_char` and `decode`.
    pub fn tokens_fed(&self) -> f64 {
        self.generator.tokens_fed as f64
    }

    /// Bytes those tokens read (weights + KV cache at each one's position).
    pub fn bytes_read(&self) -> f64 {
        self.generator.bytes_read as f64
    }

    /// Position of the next token in the current sequence.
    pub fn position(&self) -> u32 {
        self.generator.position() as u32
    }

    /// Cross-entropy on a text, bits per character (teacher-forced).
    pub fn cross_entropy(&self, text: &str) -> Result<f64, JsError> {
        Ok(eval::cross_entropy(&self.model, text)
            .map_err(js)?
            .bits_per_char)
    }
}

/// Two models on one text (see `compare`).
#[wasm_bindgen]
pub struct LmComparison {
    inner: eval::Comparison,
}

#[wasm_bindgen]
impl LmComparison {
    /// Characters predicted.
    #[wasm_bindgen(getter)]
    pub fn positions(&self) -> u32 {
        self.inner.positions as u32
    }
    /// The reference model's cross-entropy, bits per character.
    #[wasm_bindgen(getter)]
    pub fn reference_bits(&self) -> f64 {
        self.inner.a_bits_per_char
    }
    /// The other model's cross-entropy, bits per character.
    #[wasm_bindgen(getter)]
    pub fn model_bits(&self) -> f64 {
        self.inner.b_bits_per_char
    }
    /// KL(reference ‖ model), bits per character.
    #[wasm_bindgen(getter)]
    pub fn kl_bits(&self) -> f64 {
        self.inner.kl_bits_per_char
    }
    /// Share of positions with the same top-1 character, 0 to 1.
    #[wasm_bindgen(getter)]
    pub fn agreement(&self) -> f64 {
        self.inner.agreement
    }
}

/// A reference model's predictions over a text, kept to compare other models with (each
/// comparison then runs only the other model).
#[wasm_bindgen]
pub struct LmReference {
    log_probs: eval::LogProbs,
}

#[wasm_bindgen]
impl LmReference {
    /// Runs `model` over `text` (teacher-forced) and keeps its predictions.
    #[wasm_bindgen(constructor)]
    pub fn new(model: &LmModel, text: &str) -> Result<LmReference, JsError> {
        let log_probs = eval::log_probs(&model.model, text).map_err(js)?;
        Ok(LmReference { log_probs })
    }

    /// The reference's own cross-entropy, bits per character.
    pub fn bits_per_char(&self) -> f64 {
        self.log_probs.bits_per_char()
    }

    /// Runs `model` over the same text and compares it with the reference.
    pub fn compare(&self, model: &LmModel, text: &str) -> Result<LmComparison, JsError> {
        let other = eval::log_probs(&model.model, text).map_err(js)?;
        let inner = eval::compare_log_probs(&self.log_probs, &other).map_err(js)?;
        Ok(LmComparison { inner })
    }
}

/// Compares `model` with `reference` (the teacher, or the f32 model) on a text.
#[wasm_bindgen]
pub fn compare(reference: &LmModel, model: &LmModel, text: &str) -> Result<LmComparison, JsError> {
    let inner = eval::compare(&reference.model, &model.model, text).map_err(js)?;
    Ok(LmComparison { inner })
}

/// A random-weight model being built a block at a time (so the worker can post progress).
#[wasm_bindgen]
pub struct LmRandomBuilder {
    builder: Option<RandomModelBuilder>,
}

#[wasm_bindgen]
impl LmRandomBuilder {
    /// `name` is `m` or `l`; `layers`, when given, replaces the block count (a reduced model
    /// for quick tests).
    #[wasm_bindgen(constructor)]
    pub fn new(
        name: &str,
        precision: &str,
        seed: u32,
        layers: Option<u32>,
    ) -> Result<LmRandomBuilder, JsError> {
        let config = match name {
            "m" => Config::M,
            "l" => Config::L,
            other => return Err(js(LmError::UnknownName(other.to_string()))),
        };
        let config = layers.map_or(config, |l| config.with_layers(l as usize));
        let p = Precision::parse(precision).map_err(js)?;
        let builder = RandomModelBuilder::new(config, p, seed as u64).map_err(js)?;
        Ok(LmRandomBuilder {
            builder: Some(builder),
        })
    }

    /// Builds the next block; returns the share done (0 to 1).
    pub fn step(&mut self) -> Result<f64, JsError> {
        let b = self
            .builder
            .as_mut()
            .ok_or_else(|| JsError::new("this model was already finished"))?;
        b.step().map_err(js)?;
        Ok(b.steps_done() as f64 / b.total_steps().max(1) as f64)
    }

    /// The model (building what is left).
    pub fn finish(&mut self) -> Result<LmModel, JsError> {
        let b = self
            .builder
            .take()
            .ok_or_else(|| JsError::new("this model was already finished"))?;
        LmModel::wrap(b.finish().map_err(js)?)
    }
}

/// A buffer for measuring read bandwidth.
#[wasm_bindgen]
pub struct LmReadBuffer {
    buffer: ReadBuffer,
    checksum: u32,
}

#[wasm_bindgen]
impl LmReadBuffer {
    /// A buffer of about `bytes` bytes (e.g. 256 MiB for main memory, 1 MiB for cache).
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: f64) -> Result<LmReadBuffer, JsError> {
        let buffer = ReadBuffer::new(bytes.max(0.0) as usize).map_err(js)?;
        Ok(LmReadBuffer {
            buffer,
            checksum: 0,
        })
    }

    /// Reads the whole buffer once; returns the bytes read.
    pub fn read(&mut self) -> f64 {
        self.checksum ^= self.buffer.read();
        self.buffer.bytes() as f64
    }

    /// A checksum of the reads (keeps them from being optimised away).
    pub fn checksum(&self) -> u32 {
        self.checksum
    }
}

/// Runs every vector kernel of this build against its plain reference on random inputs;
/// returns "ok" or the first difference.
#[wasm_bindgen]
pub fn self_test(seed: u32) -> String {
    use crate::kernels::{reference, vector};
    use crate::quant::QuantizedVector;
    let mut rng = Rng::new(seed as u64);
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for (rows, cols) in [(4usize, 128usize), (13, 256), (83, 128), (7, 384)] {
        let w: Vec<f32> = (0..rows * cols).map(|_| rng.uniform() * 0.2).collect();
        let x: Vec<f32> = (0..cols).map(|_| rng.uniform() * 2.0).collect();
        let (mut a, mut b) = (vec![0.0; rows], vec![0.0; rows]);
        reference::matvec_f32(&mut a, &w, &x);
        vector::matvec_f32(&mut b, &w, &x);
        if bits(&a) != bits(&b) {
            return format!("f32 differs at {rows}x{cols}");
        }
        let (Ok(mut x8), Ok(mut x4)) = (
            QuantizedVector::new(cols, 32),
            QuantizedVector::new(cols, 128),
        ) else {
            return "out of memory".into();
        };
        x8.quantize(&x);
        x4.quantize(&x);
        let mut q = vec![0u8; w.len()];
        let mut s = vec![0.0; w.len() / 32];
        quant::quantize_int8(&w, &mut q, &mut s);
        reference::matvec_int8(&mut a, &q, &s, &x8);
        vector::matvec_int8::<{ crate::kernels::RELAXED_KERNELS }>(&mut b, &q, &s, &x8);
        if bits(&a) != bits(&b) {
            return format!("int8 differs at {rows}x{cols}");
        }
        let mut p = vec![0u8; w.len() / 2];
        let mut s4 = vec![0.0; w.len() / 128];
        quant::quantize_int4(&w, &mut p, &mut s4);
        reference::matvec_int4(&mut a, &p, &s4, &x4);
        vector::matvec_int4(&mut b, &p, &s4, &x4);
        if bits(&a) != bits(&b) {
            return format!("int4 differs at {rows}x{cols}");
        }
    }
    let words: Vec<u32> = (0..4099u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    if reference::read_sum(&words) != vector::read_sum(&words) {
        return "read_sum differs".into();
    }
    "ok".into()
}
