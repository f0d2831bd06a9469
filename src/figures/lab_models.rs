//! Figures of the measuring lab and of the real distillation, for the lessons' text: the trained
//! models' figures read from `models/manifest.json` (which the engine's native tests reproduce
//! from the committed weights), and the random-weight models' sizes from the engine itself
//! (`ie_lm`). Native only: the build writes them into the lessons; no page computes them.

use super::{arg, check_known, Args};
use crate::logic::format::{count, fixed};
use serde_json::Value;

/// The models' manifest, as committed.
const MANIFEST: &str = include_str!("../../models/manifest.json");

/// Every figure of this module, with its arguments.
pub const FIGURES: &[(&str, &str)] = &[
    ("lm-params", "model=tiny|m|l|student"),
    ("lm-mb", "model=tiny|m|l precision=f32|int8|int4"),
    ("lm-heldout", "precision=f32|int8|int4 (the tiny model)"),
    (
        "lm-agreement",
        "precision=int8|int4 (the tiny model, with f32)",
    ),
    ("lm-vocab", ""),
    ("lm-uniform-bits", ""),
    ("kd-loss", "student=teacher|hard|soft [fraction=1|10|100]"),
    ("kd-kl", "student=hard|soft fraction=1|10|100"),
    ("kd-agreement", "student=hard|soft fraction=1|10|100"),
    ("kd-steps", "student=teacher|hard"),
    ("kd-temperature", ""),
    ("kd-alpha", ""),
    ("kd-chars", "fraction=1|10|100"),
];

fn manifest() -> Result<Value, String> {
    serde_json::from_str(MANIFEST).map_err(|e| format!("models/manifest.json: {e}"))
}

/// The number at `path` (keys) in the manifest.
fn number(m: &Value, path: &[&str]) -> Result<f64, String> {
    path.iter()
        .try_fold(m, |v, k| v.get(k))
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("models/manifest.json has no number at {}", path.join(".")))
}

/// The manifest's key of the model a figure names: `teacher`, `student-hard-10`, …
fn model_key(args: &Args) -> Result<String, String> {
    match arg(args, "student")? {
        "teacher" => Ok("teacher".into()),
        s @ ("hard" | "soft") => match arg(args, "fraction")? {
            f @ ("1" | "10" | "100") => Ok(format!("student-{s}-{f}")),
            other => Err(format!("unknown fraction `{other}`; use 1, 10 or 100")),
        },
        other => Err(format!(
            "unknown student `{other}`; use teacher, hard or soft"
        )),
    }
}

fn lab_precision(args: &Args) -> Result<ie_lm::Precision, String> {
    ie_lm::Precision::parse(arg(args, "precision")?).map_err(|e| e.to_string())
}

/// The engine's shape of a lab model: the tiny one from its manifest, M and L from the engine.
fn lab_config(m: &Value, args: &Args) -> Result<ie_lm::Config, String> {
    match arg(args, "model")? {
        "tiny" | "student" => {
            let key = if arg(args, "model")? == "tiny" {
                "teacher"
            } else {
                "student-hard-1"
            };
            let c = |k: &str| number(m, &["models", key, "config", k]).map(|v| v as usize);
            Ok(ie_lm::Config {
                dim: c("dim")?,
                hidden_dim: c("hidden_dim")?,
                n_layers: c("n_layers")?,
                n_heads: c("n_heads")?,
                vocab_size: c("vocab_size")?,
                seq_len: c("seq_len")?,
            })
        }
        "m" => Ok(ie_lm::Config::M),
        "l" => Ok(ie_lm::Config::L),
        other => Err(format!(
            "unknown model `{other}`; use tiny, m, l or student"
        )),
    }
}

/// `0.864 million`, `25.7 million`: a parameter count to three significant figures.
fn millions(n: f64) -> String {
    format!("{} million", crate::logic::decode::three_figures(n / 1e6))
}

/// `2.27 bits per character`.
fn bits(v: f64) -> String {
    format!("{} bits per character", fixed(v, 2))
}

/// `99.2%`.
fn percent(share: f64) -> String {
    format!("{}%", fixed(share * 100.0, 1))
}

/// The text of lab figure `name`, or `None` if it is not one of [`FIGURES`].
pub fn inline(name: &str, args: &Args) -> Option<Result<String, String>> {
    FIGURES
        .iter()
        .any(|(n, _)| *n == name)
        .then(|| figure(name, args))
}

/// Figure `name` of the models' manifest: the lab's (`lm-…`) or the distillation
/// experiment's (`kd-…`).
fn figure(name: &str, args: &Args) -> Result<String, String> {
    let m = manifest()?;
    if name.starts_with("kd-") {
        kd_figure(&m, name, args)
    } else {
        lm_figure(&m, name, args)
    }
}

/// A figure of the lab's models: size, held-out loss and agreement at a precision.
fn lm_figure(m: &Value, name: &str, args: &Args) -> Result<String, String> {
    match name {
        "lm-params" => {
            check_known(args, &["model"])?;
            Ok(millions(lab_config(m, args)?.parameters() as f64))
        }
        "lm-mb" => {
            check_known(args, &["model", "precision"])?;
            let bytes = ie_lm::cost::model_bytes(&lab_config(m, args)?, lab_precision(args)?);
            Ok(format!(
                "{} MB",
                crate::logic::decode::three_figures(bytes as f64 / 1e6)
            ))
        }
        "lm-heldout" => {
            check_known(args, &["precision"])?;
            let p = lab_precision(args)?;
            Ok(bits(number(
                m,
                &["models", "teacher", "heldout_bits_per_char", p.name()],
            )?))
        }
        "lm-agreement" => {
            check_known(args, &["precision"])?;
            let p = lab_precision(args)?;
            Ok(percent(number(
                m,
                &["models", "teacher", "agreement_with_f32", p.name()],
            )?))
        }
        "lm-vocab" => {
            check_known(args, &[])?;
            Ok(count(
                number(m, &["models", "teacher", "config", "vocab_size"])? as usize,
            ))
        }
        "lm-uniform-bits" => {
            check_known(args, &[])?;
            Ok(bits(
                number(m, &["models", "teacher", "config", "vocab_size"])?.log2(),
            ))
        }
        _ => Err(format!("unknown lab figure `{name}`")),
    }
}

/// A figure of the distillation experiment: its students' scores and its training settings.
fn kd_figure(m: &Value, name: &str, args: &Args) -> Result<String, String> {
    match name {
        "kd-loss" => {
            check_known(args, &["student", "fraction"])?;
            let key = model_key(args)?;
            Ok(bits(number(
                m,
                &["models", &key, "heldout_bits_per_char", "f32"],
            )?))
        }
        "kd-kl" => {
            check_known(args, &["student", "fraction"])?;
            let key = model_key(args)?;
            Ok(bits(number(
                m,
                &["models", &key, "kl_to_teacher_bits_per_char"],
            )?))
        }
        "kd-agreement" => {
            check_known(args, &["student", "fraction"])?;
            let key = model_key(args)?;
            Ok(percent(number(
                m,
                &["models", &key, "agreement_with_teacher"],
            )?))
        }
        "kd-steps" => {
            check_known(args, &["student"])?;
            let key = match arg(args, "student")? {
                "teacher" => "teacher",
                _ => "student-hard-1",
            };
            Ok(count(number(m, &["models", key, "steps"])? as usize))
        }
        "kd-temperature" => {
            check_known(args, &[])?;
            Ok(crate::logic::format::plain(number(
                m,
                &["training", "distillation", "temperature"],
            )?))
        }
        "kd-alpha" => {
            check_known(args, &[])?;
            Ok(crate::logic::format::plain(number(
                m,
                &["training", "distillation", "alpha"],
            )?))
        }
        "kd-chars" => {
            check_known(args, &["fraction"])?;
            let key = match arg(args, "fraction")? {
                f @ ("1" | "10" | "100") => format!("student-hard-{f}"),
                other => return Err(format!("unknown fraction `{other}`; use 1, 10 or 100")),
            };
            Ok(count(
                number(m, &["models", &key, "training_chars"])? as usize
            ))
        }
        _ => Err(format!("unknown lab figure `{name}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::args;
    use super::*;

    fn fig(name: &str, pairs: &[(&str, &str)]) -> String {
        inline(name, &args(pairs))
            .unwrap_or_else(|| Err("not a lab figure".into()))
            .unwrap_or_else(|e| e)
    }

    #[test]
    fn the_lab_models_figures_come_from_the_engine_and_the_manifest() {
        assert_eq!(fig("lm-params", &[("model", "tiny")]), "0.864 million");
        assert_eq!(fig("lm-params", &[("model", "m")]), "25.7 million");
        assert_eq!(fig("lm-params", &[("model", "l")]), "85 million");
        assert_eq!(fig("lm-params", &[("model", "student")]), "0.112 million");
        assert_eq!(
            fig("lm-mb", &[("model", "m"), ("precision", "f32")]),
            "103 MB"
        );
        assert_eq!(
            fig("lm-mb", &[("model", "l"), ("precision", "f32")]),
            "340 MB"
        );
        assert_eq!(
            fig("lm-mb", &[("model", "tiny"), ("precision", "f32")]),
            "3.45 MB"
        );
        assert_eq!(
            fig("lm-heldout", &[("precision", "f32")]),
            "2.27 bits per character"
        );
        assert_eq!(
            fig("lm-heldout", &[("precision", "int4")]),
            "2.31 bits per character"
        );
        assert_eq!(fig("lm-agreement", &[("precision", "int8")]), "99.2%");
        assert_eq!(fig("lm-agreement", &[("precision", "int4")]), "91.4%");
        assert_eq!(fig("lm-vocab", &[]), "83");
        assert_eq!(fig("lm-uniform-bits", &[]), "6.38 bits per character");
    }

    #[test]
    fn the_distillation_figures_come_from_the_manifest() {
        assert_eq!(
            fig("kd-loss", &[("student", "hard"), ("fraction", "1")]),
            "3.29 bits per character"
        );
        assert_eq!(
            fig("kd-loss", &[("student", "soft"), ("fraction", "1")]),
            "3.04 bits per character"
        );
        assert_eq!(
            fig("kd-loss", &[("student", "teacher")]),
            "2.27 bits per character"
        );
        assert_eq!(
            fig("kd-kl", &[("student", "soft"), ("fraction", "100")]),
            "0.80 bits per character"
        );
        assert_eq!(
            fig("kd-agreement", &[("student", "hard"), ("fraction", "100")]),
            "60.9%"
        );
        assert_eq!(fig("kd-steps", &[("student", "hard")]), "300");
        assert_eq!(fig("kd-steps", &[("student", "teacher")]), "800");
        assert_eq!(fig("kd-temperature", &[]), "2");
        assert_eq!(fig("kd-alpha", &[]), "0.5");
        assert_eq!(fig("kd-chars", &[("fraction", "1")]), "43,652");
    }

    #[test]
    fn bad_lab_figures_say_what_is_wrong() {
        assert!(fig("lm-params", &[("model", "xl")]).contains("unknown model `xl`"));
        assert!(fig("lm-mb", &[("model", "m"), ("precision", "fp16")]).contains("fp16"));
        assert!(
            fig("kd-loss", &[("student", "hard"), ("fraction", "50")]).contains("unknown fraction")
        );
        assert!(fig("kd-loss", &[("student", "hard")]).contains("missing argument `fraction`"));
        assert!(fig("lm-vocab", &[("x", "1")]).contains("unknown argument `x`"));
        assert_eq!(inline("weight-gb", &[]), None);
    }
}
