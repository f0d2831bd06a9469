//! KV cache: the memory attention keeps for every token in context, on top of the weights.
//!
//! Each layer stores a key and a value vector per KV head per token, so the cache grows with
//! context length and batch. Grouped-query attention (GQA) shares each KV head among several
//! query heads, which is why the formula counts KV heads (8 for Llama 3), not attention heads.

use super::format::plain;
use super::{parse_number, InputError};

super::input::form_fields! {
    KvCache:
    /// A model's shape, context and batch: the KV cache's fields, and the runtime allowance's.
    pub enum Field {
        Layers => "Layers",
        KvHeads => "KV heads",
        HeadDimension => "Head dimension",
        ContextLength => "Context length",
        BatchSize => "Batch size",
        RuntimeOverhead => "Runtime overhead",
    }
}

/// The shape and load that size a KV cache.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KvCacheInputs {
    /// Transformer layers (blocks).
    pub layers: u64,
    /// Key/value heads per layer (fewer than attention heads under GQA).
    pub kv_heads: u64,
    /// Size of one head vector, in elements (hidden size ÷ attention heads).
    pub head_dim: u64,
    /// Tokens held per sequence: prompt plus generated output.
    pub context_tokens: u64,
    /// Sequences served at once.
    pub batch: u64,
    /// Bytes per stored key or value element (FP16/BF16 2, FP8 1); see
    /// `memory::Precision::bytes_per_param`.
    pub bytes_per_element: f64,
}

/// The attention shape of a model family member, to fill the KV-cache widget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelShape {
    /// Stable lowercase id, e.g. `llama3-70b`.
    pub id: &'static str,
    /// The name a reader knows, e.g. `Llama 3 70B`.
    pub name: &'static str,
    /// Nominal parameters, in billions (the figure the course uses for weight memory).
    pub params_b: f64,
    /// Transformer layers.
    pub layers: u64,
    /// Key/value heads per layer.
    pub kv_heads: u64,
    /// Elements per head vector.
    pub head_dim: u64,
}

/// Llama-3-class shapes, from each model's published `config.json` (`num_hidden_layers`,
/// `num_key_value_heads`, `hidden_size ÷ num_attention_heads`).
pub const MODEL_SHAPES: &[ModelShape] = &[
    ModelShape {
        id: "llama3-3b",
        name: "Llama 3.2 3B",
        params_b: 3.0,
        layers: 28,
        kv_heads: 8,
        head_dim: 128,
    },
    ModelShape {
        id: "llama3-8b",
        name: "Llama 3 8B",
        params_b: 8.0,
        layers: 32,
        kv_heads: 8,
        head_dim: 128,
    },
    ModelShape {
        id: "llama3-70b",
        name: "Llama 3 70B",
        params_b: 70.0,
        layers: 80,
        kv_heads: 8,
        head_dim: 128,
    },
    ModelShape {
        id: "llama3-405b",
        name: "Llama 3.1 405B",
        params_b: 405.0,
        layers: 126,
        kv_heads: 8,
        head_dim: 128,
    },
];

/// Largest layer count accepted.
pub const MAX_LAYERS: f64 = 1_000.0;
/// Largest KV-head count accepted.
pub const MAX_KV_HEADS: f64 = 1_024.0;
/// Largest head dimension accepted, in elements.
pub const MAX_HEAD_DIM: f64 = 4_096.0;
/// Largest context accepted, in tokens (100 million).
pub const MAX_CONTEXT_TOKENS: f64 = 100_000_000.0;
/// Largest batch accepted, in sequences.
pub const MAX_BATCH: f64 = 100_000.0;
/// Largest runtime overhead accepted, in percent of weights + KV cache.
pub const MAX_OVERHEAD_PERCENT: f64 = 1_000.0;

/// Parses a whole count in `1..=max`, as typed.
fn parse_count(field: Field, text: &str, max: f64) -> Result<u64, InputError> {
    let value = parse_number(field, text, 1.0, false, max)?;
    if value.fract() != 0.0 {
        return Err(InputError::new(field, "Enter a whole number."));
    }
    Ok(value as u64)
}

/// Parses the number of layers, as typed (a whole number, 1 to 1,000).
pub fn parse_layers(text: &str) -> Result<u64, InputError> {
    parse_count(Field::Layers, text, MAX_LAYERS)
}

/// Parses the number of KV heads, as typed (a whole number, 1 to 1,024).
pub fn parse_kv_heads(text: &str) -> Result<u64, InputError> {
    parse_count(Field::KvHeads, text, MAX_KV_HEADS)
}

/// Parses the head dimension in elements, as typed (a whole number, 1 to 4,096).
pub fn parse_head_dim(text: &str) -> Result<u64, InputError> {
    parse_count(Field::HeadDimension, text, MAX_HEAD_DIM)
}

/// Parses the context length in tokens, as typed (a whole number, 1 to 100 million).
pub fn parse_context_tokens(text: &str) -> Result<u64, InputError> {
    parse_count(Field::ContextLength, text, MAX_CONTEXT_TOKENS)
}

/// Parses the batch size in sequences, as typed (a whole number, 1 to 100,000).
pub fn parse_batch(text: &str) -> Result<u64, InputError> {
    parse_count(Field::BatchSize, text, MAX_BATCH)
}

/// Parses the runtime overhead in percent, as typed (0 to 1,000; 0 means none).
pub fn parse_overhead_percent(text: &str) -> Result<f64, InputError> {
    parse_number(
        Field::RuntimeOverhead,
        text,
        0.0,
        false,
        MAX_OVERHEAD_PERCENT,
    )
}

/// KV-cache bytes one token adds to one sequence (B/token): 2 (K and V) × layers × KV heads ×
/// head dim × bytes per element.
pub fn kv_bytes_per_token(inputs: &KvCacheInputs) -> f64 {
    2.0 * inputs.layers as f64
        * inputs.kv_heads as f64
        * inputs.head_dim as f64
        * inputs.bytes_per_element
}

/// KV-cache memory in GB (10⁹ bytes): bytes per token × context tokens × batch.
///
/// Computed in `f64`, so no input overflows or panics; absurd inputs give huge (or infinite)
/// values, which the `parse_*` bounds keep a learner away from.
pub fn kv_cache_gb(inputs: &KvCacheInputs) -> f64 {
    kv_bytes_per_token(inputs) * inputs.context_tokens as f64 * inputs.batch as f64 / 1e9
}

/// Memory at run time in GB: (weights + KV cache) × (1 + overhead ÷ 100), where the overhead
/// percentage stands for activations and the runtime's own buffers.
pub fn runtime_total_gb(weights_gb: f64, kv_gb: f64, overhead_percent: f64) -> f64 {
    (weights_gb + kv_gb) * (1.0 + overhead_percent / 100.0)
}

/// The sum a reader can check, e.g.
/// `2 × 80 layers × 8 KV heads × 128 × 8,192 tokens × 1 × 2 B = 2.684 GB`.
pub fn worked_line(inputs: &KvCacheInputs) -> String {
    format!(
        "2 \u{d7} {} layers \u{d7} {} KV heads \u{d7} {} \u{d7} {} tokens \u{d7} {} \u{d7} {} B \
         = {} GB",
        plain(inputs.layers as f64),
        plain(inputs.kv_heads as f64),
        plain(inputs.head_dim as f64),
        plain(inputs.context_tokens as f64),
        plain(inputs.batch as f64),
        plain(inputs.bytes_per_element),
        plain(kv_cache_gb(inputs))
    )
}

/// The preset model shape with `id` (`llama3-70b`).
pub fn model_shape(id: &str) -> Option<&'static ModelShape> {
    MODEL_SHAPES.iter().find(|shape| shape.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs for `shape` at `context_tokens` and `batch`, with `bytes_per_element` (B).
    fn for_model(
        shape: &ModelShape,
        context_tokens: u64,
        batch: u64,
        bytes_per_element: f64,
    ) -> KvCacheInputs {
        KvCacheInputs {
            layers: shape.layers,
            kv_heads: shape.kv_heads,
            head_dim: shape.head_dim,
            context_tokens,
            batch,
            bytes_per_element,
        }
    }

    fn llama_70b(context_tokens: u64, batch: u64) -> KvCacheInputs {
        let shape = model_shape("llama3-70b").expect("70B preset");
        for_model(shape, context_tokens, batch, 2.0)
    }

    #[test]
    fn llama_3_70b_at_8k_tokens_in_fp16() {
        let kv = llama_70b(8192, 1);
        assert_eq!(kv_bytes_per_token(&kv), 327_680.0);
        assert_eq!(kv_cache_gb(&kv), 2.68435456);
        assert_eq!(plain(kv_cache_gb(&kv)), "2.684");
        assert_eq!(
            worked_line(&kv),
            "2 \u{d7} 80 layers \u{d7} 8 KV heads \u{d7} 128 \u{d7} 8,192 tokens \
             \u{d7} 1 \u{d7} 2 B = 2.684 GB"
        );
    }

    #[test]
    fn llama_3_8b_is_smaller_per_token_and_batch_multiplies() {
        let shape = model_shape("llama3-8b").expect("8B preset");
        let kv = for_model(shape, 8192, 1, 2.0);
        assert_eq!(kv_bytes_per_token(&kv), 131_072.0);
        assert!((kv_cache_gb(&kv) - 1.073741824).abs() < 1e-12);
        assert!((kv_cache_gb(&llama_70b(8192, 16)) - 16.0 * 2.68435456).abs() < 1e-9);
        assert!(model_shape("gpt-5").is_none());
    }

    #[test]
    fn runtime_total_adds_overhead_to_weights_and_kv() {
        assert_eq!(runtime_total_gb(140.0, 10.0, 0.0), 150.0);
        assert!((runtime_total_gb(140.0, 10.0, 10.0) - 165.0).abs() < 1e-12);
    }

    #[test]
    fn parse_helpers_name_the_field_and_want_whole_numbers() {
        assert_eq!(parse_layers("80"), Ok(80));
        assert_eq!(parse_context_tokens("8_192"), Ok(8192));
        assert_eq!(parse_context_tokens("1e5"), Ok(100_000));
        let err = parse_kv_heads("2.5").unwrap_err();
        assert_eq!(
            (err.field.name(), err.message.as_str()),
            ("KV heads", "Enter a whole number.")
        );
        assert_eq!(parse_batch("0").unwrap_err().message, "Must be at least 1.");
        assert_eq!(
            parse_head_dim("5000").unwrap_err().message,
            "Must be at most 4,096."
        );
        assert_eq!(parse_overhead_percent("0"), Ok(0.0));
        assert!(parse_overhead_percent("-1").is_err());
    }

    proptest::proptest! {
        #[test]
        fn kv_cache_grows_with_every_input(
            layers in 1u64..1000,
            kv_heads in 1u64..1024,
            head_dim in 1u64..4096,
            context in 1u64..100_000_000,
            batch in 1u64..100_000,
            bytes in 0.125f64..8.0,
            overhead in 0.0f64..1000.0,
        ) {
            let kv = KvCacheInputs {
                layers,
                kv_heads,
                head_dim,
                context_tokens: context,
                batch,
                bytes_per_element: bytes,
            };
            let gb = kv_cache_gb(&kv);
            proptest::prop_assert!(gb.is_finite() && gb > 0.0);
            let longer = KvCacheInputs { context_tokens: context + 1, ..kv };
            let bigger = KvCacheInputs { batch: batch + 1, ..kv };
            proptest::prop_assert!(kv_cache_gb(&longer) > gb);
            proptest::prop_assert!(kv_cache_gb(&bigger) > gb);
            // Linear in batch: two sequences take twice the memory of one.
            let double = KvCacheInputs { batch: batch * 2, ..kv };
            proptest::prop_assert!((kv_cache_gb(&double) - 2.0 * gb).abs() <= 1e-9 * gb);
            let total = runtime_total_gb(10.0, gb, overhead);
            proptest::prop_assert!(total >= 10.0 + gb);
        }

        #[test]
        fn every_field_reads_in_range_or_says_why(text in crate::logic::fuzz::any_text()) {
            for (parse, max) in [
                (parse_layers as fn(&str) -> Result<u64, InputError>, MAX_LAYERS),
                (parse_kv_heads, MAX_KV_HEADS),
                (parse_head_dim, MAX_HEAD_DIM),
                (parse_context_tokens, MAX_CONTEXT_TOKENS),
                (parse_batch, MAX_BATCH),
            ] {
                match parse(&text) {
                    Ok(n) => proptest::prop_assert!(n >= 1 && n as f64 <= max),
                    Err(e) => proptest::prop_assert!(!e.message.is_empty()),
                }
            }
            match parse_overhead_percent(&text) {
                Ok(x) => proptest::prop_assert!((0.0..=MAX_OVERHEAD_PERCENT).contains(&x)),
                Err(e) => proptest::prop_assert!(!e.message.is_empty()),
            }
            let _ = model_shape(&text);
            let _ = crate::logic::gpus::preset(&text);
        }

        #[test]
        fn the_worked_line_reads_for_any_shape(
            layers in 1u64..=MAX_LAYERS as u64,
            kv_heads in 1u64..=MAX_KV_HEADS as u64,
            head_dim in 1u64..=MAX_HEAD_DIM as u64,
            context_tokens in 1u64..=MAX_CONTEXT_TOKENS as u64,
            batch in 1u64..=MAX_BATCH as u64,
            bytes in proptest::sample::select(vec![0.5, 1.0, 2.0, 4.0]),
        ) {
            let line = worked_line(&KvCacheInputs { layers, kv_heads, head_dim, context_tokens, batch, bytes_per_element: bytes });
            proptest::prop_assert!(crate::logic::fuzz::unreadable(&line).is_none(), "{:?}", crate::logic::fuzz::unreadable(&line));
        }

        #[test]
        fn counts_parse_back_or_fail_with_a_message(text in "\\PC{0,10}") {
            match parse_layers(&text) {
                Ok(n) => proptest::prop_assert!((1..=1000).contains(&n)),
                Err(e) => proptest::prop_assert!(e.field == "Layers" && !e.message.is_empty()),
            }
        }
    }
}
