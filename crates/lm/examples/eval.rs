//! Loads a weights file and prints its held-out loss at each precision, agreement with f32,
//! and a greedy sample:
//!
//!     cargo run -p ie-lm --release --example eval -- models/teacher.ielm models/heldout.txt
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use ie_lm::eval::{compare_log_probs, log_probs};
use ie_lm::{file, generate_greedy, Precision};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let weights = std::fs::read(args.get(1).map_or("models/teacher.ielm", |s| s.as_str()))?;
    let text = std::fs::read_to_string(args.get(2).map_or("models/heldout.txt", |s| s.as_str()))?;
    let f32_model = file::load(&weights, Precision::F32)?;
    let reference = log_probs(&f32_model, &text)?;
    for p in Precision::ALL {
        let m = match file::load(&weights, p) {
            Ok(m) => m,
            Err(e) => {
                println!("{}: {e}", p.name());
                continue;
            }
        };
        let c = compare_log_probs(&reference, &log_probs(&m, &text)?)?;
        println!(
            "{}: {:.4} bits/char, agreement with f32 {:.2} %, KL from f32 {:.4} bits/char",
            p.name(),
            c.b_bits_per_char,
            100.0 * c.agreement,
            c.kl_bits_per_char
        );
        println!(
            "  {:?}",
            generate_greedy(&m, "KING.\nNow, good my lord, ", 120)?
        );
    }
    Ok(())
}
