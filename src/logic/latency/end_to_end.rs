//! End-to-end time split into network, queueing and inference, and where to look when it is
//! slow.

use super::{ms_text, parse_inference_ms, parse_network_ms, parse_queue_ms};
use crate::logic::{format, InputError};

/// One part of an end-to-end response time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Time on the wire, both ways.
    Network,
    /// Time waiting for a free replica.
    Queue,
    /// Time on the GPU generating tokens.
    Inference,
}

impl Part {
    /// The parts in the order a request meets them.
    pub const ALL: [Part; 3] = [Part::Network, Part::Queue, Part::Inference];

    #[cfg(test)]
    /// Stable lowercase id, for test ids and lesson directives.
    pub fn id(self) -> &'static str {
        match self {
            Part::Network => "network",
            Part::Queue => "queue",
            Part::Inference => "inference",
        }
    }
}

impl Part {
    /// The part's name as the explorer shows it: `Network`, `Queueing`, `Inference`.
    pub fn label(self) -> &'static str {
        match self {
            Part::Network => "Network",
            Part::Queue => "Queueing",
            Part::Inference => "Inference",
        }
    }
}

/// What a user waits for, split into its parts, each in ms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EndToEnd {
    /// Network time, in ms.
    pub network_ms: f64,
    /// Queueing time, in ms.
    pub queue_ms: f64,
    /// Inference (on-GPU) time, in ms.
    pub inference_ms: f64,
}

impl EndToEnd {
    /// The time of one part, in ms.
    pub fn part_ms(&self, part: Part) -> f64 {
        match part {
            Part::Network => self.network_ms,
            Part::Queue => self.queue_ms,
            Part::Inference => self.inference_ms,
        }
    }

    /// End-to-end time the user perceives, in ms: network + queue + inference.
    pub fn total_ms(&self) -> f64 {
        self.network_ms + self.queue_ms + self.inference_ms
    }

    /// Share of the total that is `part`, as a fraction 0–1; 0 when the total is not positive.
    pub fn share(&self, part: Part) -> f64 {
        let total = self.total_ms();
        if total > 0.0 {
            self.part_ms(part) / total
        } else {
            0.0
        }
    }

    /// Share of the total spent in inference, as a fraction 0–1 (0 when the total is 0). When
    /// it is small, faster kernels cannot help much: fix the infrastructure.
    pub fn inference_share(&self) -> f64 {
        self.share(Part::Inference)
    }

    #[cfg(test)]
    /// The largest part. Ties go to the part met first (network, then queue, then inference);
    /// NaN parts never win.
    pub fn bottleneck(&self) -> Part {
        let mut best = Part::Network;
        for part in Part::ALL {
            if self.part_ms(part) > self.part_ms(best) || self.part_ms(best).is_nan() {
                best = part;
            }
        }
        best
    }
}

impl EndToEnd {
    /// The split for the explorer's three fields as typed (network, queueing and inference
    /// ms), or every field's error.
    pub fn from_text(
        network: &str,
        queue: &str,
        inference: &str,
    ) -> Result<EndToEnd, Vec<InputError>> {
        match (
            parse_network_ms(network),
            parse_queue_ms(queue),
            parse_inference_ms(inference),
        ) {
            (Ok(network_ms), Ok(queue_ms), Ok(inference_ms)) => Ok(EndToEnd {
                network_ms,
                queue_ms,
                inference_ms,
            }),
            (a, b, c) => Err([a.err(), b.err(), c.err()].into_iter().flatten().collect()),
        }
    }

    /// The inference share as a whole percentage: `25%`.
    pub fn inference_share_text(&self) -> String {
        format!("{}%", format::fixed(self.inference_share() * 100.0, 0))
    }

    /// The split bar in words: its text alternative and caption.
    pub fn description(&self) -> String {
        let parts: Vec<String> = Part::ALL
            .iter()
            .map(|&p| {
                format!(
                    "{} {} ({}%)",
                    p.label().to_ascii_lowercase(),
                    ms_text(self.part_ms(p)),
                    format::fixed(self.share(p) * 100.0, 0)
                )
            })
            .collect();
        format!(
            "One bar of {} end-to-end, split left to right into {}.",
            ms_text(self.total_ms()),
            parts.join(", ")
        )
    }
}

/// Where to look, given the split of an end-to-end time.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnosis {
    /// True when inference is under half of the end-to-end time: the fix is infrastructure.
    pub fix_infrastructure: bool,
    /// The advice, citing the numbers.
    pub text: String,
}

/// Reads an end-to-end split: if inference is under half the wait, model work cannot fix the
/// wait, so fix the infrastructure (network or queueing, whichever is larger).
pub fn diagnose(e2e: &EndToEnd) -> Diagnosis {
    let total = e2e.total_ms();
    if total <= 0.0 || total.is_nan() {
        return Diagnosis {
            fix_infrastructure: false,
            text: "Enter a time above zero for at least one part.".into(),
        };
    }
    let share = format::fixed(e2e.inference_share() * 100.0, 0);
    if e2e.inference_share() < 0.5 {
        let culprit = if e2e.queue_ms > e2e.network_ms {
            "queueing: add replicas or autoscale sooner so requests stop waiting for a GPU"
        } else {
            "the network: serve from a region near the users, reuse connections, send less"
        };
        Diagnosis {
            fix_infrastructure: true,
            text: format!(
                "Inference is fast, only {share}% of the {} users wait, but end-to-end is slow. \
                 Even infinitely fast inference would save at most {}. Fix the infrastructure; \
                 the largest part is {culprit}.",
                ms_text(total),
                ms_text(e2e.inference_ms),
            ),
        }
    } else {
        Diagnosis {
            fix_infrastructure: false,
            text: format!(
                "Inference is {share}% of the {} users wait, so model-side work pays here: a \
                 smaller model, quantization or faster kernels shorten what users feel.",
                ms_text(total),
            ),
        }
    }
}
