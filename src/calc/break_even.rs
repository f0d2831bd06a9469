//! Shared or dedicated inference: paying per token against paying for GPU time.
//!
//! Shared (an API) costs tokens ÷ 10⁶ × price per million. Dedicated costs whole GPUs rented
//! all month, however busy they are. So the API wins at low volume and dedicated GPUs can win
//! at high volume, if one GPU's tokens would cost more at API prices than the GPU does.
//!
//! Assumptions: a month is 730 hours (8,760 ÷ 12); every dedicated GPU is paid for all 730 of
//! them; a GPU serves `throughput` tokens/s for a fraction `utilisation` of the month
//! (1 = flat traffic at full speed all month, which real traffic with peaks and quiet nights
//! never reaches). Engineering time, the dedicated side's other cost, is left out.
//!
//! The `EXAMPLE_*` values are examples for the widget's first view, not market prices: the
//! course sources give no prices.

use super::format::plain;
use super::{parse_number, InputError};

/// Hours in an average month: 8,760 ÷ 12.
pub const HOURS_PER_MONTH: f64 = 730.0;
/// Example API price, in $ per million tokens (not a quoted price).
pub const EXAMPLE_API_PRICE_PER_M: f64 = 0.60;
/// Example GPU rental price, in $ per GPU-hour (not a quoted price).
pub const EXAMPLE_GPU_HOURLY: f64 = 2.50;
/// Example throughput of one GPU, in tokens/s summed over its concurrent requests.
pub const EXAMPLE_THROUGHPUT_TPS: f64 = 1_500.0;
/// Example volume, in tokens per month (one billion).
pub const EXAMPLE_TOKENS_PER_MONTH: f64 = 1e9;

/// Largest API price accepted, in $ per million tokens.
pub const MAX_API_PRICE_PER_M: f64 = 10_000.0;
/// Largest GPU price accepted, in $ per GPU-hour.
pub const MAX_GPU_HOURLY: f64 = 10_000.0;
/// Largest per-GPU throughput accepted, in tokens/s.
pub const MAX_THROUGHPUT_TPS: f64 = 1e9;
/// Largest volume accepted, in tokens per month (a quadrillion).
pub const MAX_TOKENS_PER_MONTH: f64 = 1e15;
/// Most points [`CostInputs::cost_curve`] returns.
pub const MAX_CURVE_POINTS: usize = 10_000;

/// Parses the API price in $ per million tokens, as typed (more than 0).
pub fn parse_api_price_per_m(text: &str) -> Result<f64, InputError> {
    parse_number(
        "API price per million tokens",
        text,
        0.0,
        true,
        MAX_API_PRICE_PER_M,
    )
}

/// Parses the GPU price in $ per GPU-hour, as typed (more than 0).
pub fn parse_gpu_hourly(text: &str) -> Result<f64, InputError> {
    parse_number("GPU price per hour", text, 0.0, true, MAX_GPU_HOURLY)
}

/// Parses one GPU's throughput in tokens/s, as typed (more than 0).
pub fn parse_throughput_tps(text: &str) -> Result<f64, InputError> {
    parse_number("Throughput per GPU", text, 0.0, true, MAX_THROUGHPUT_TPS)
}

/// Parses the volume in tokens per month, as typed (more than 0).
pub fn parse_tokens_per_month(text: &str) -> Result<f64, InputError> {
    parse_number("Tokens per month", text, 0.0, true, MAX_TOKENS_PER_MONTH)
}

/// Parses utilisation typed as a percentage (more than 0, at most 100) and returns it as a
/// fraction: `"60"` gives 0.6.
pub fn parse_utilisation_percent(text: &str) -> Result<f64, InputError> {
    parse_number("Utilisation", text, 0.0, true, 100.0).map(|percent| percent / 100.0)
}

/// The prices and throughput that decide between shared and dedicated inference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostInputs {
    /// API price, in $ per million tokens.
    pub api_price_per_m: f64,
    /// GPU rental price, in $ per GPU-hour.
    pub gpu_hourly: f64,
    /// Tokens one GPU serves per second when busy, in tokens/s.
    pub throughput_tps: f64,
    /// Fraction of the month a GPU serves at that throughput, 0 < u ≤ 1.
    pub utilisation: f64,
}

/// One point of the cost chart: a volume and what it costs each way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostPoint {
    /// Volume, in tokens per month.
    pub tokens_per_month: f64,
    /// Shared (API) cost, in $ per month.
    pub api_cost: f64,
    /// Dedicated cost, in $ per month.
    pub dedicated_cost: f64,
}

impl CostInputs {
    /// The example inputs (see the `EXAMPLE_*` consts), at full utilisation.
    pub const EXAMPLE: CostInputs = CostInputs {
        api_price_per_m: EXAMPLE_API_PRICE_PER_M,
        gpu_hourly: EXAMPLE_GPU_HOURLY,
        throughput_tps: EXAMPLE_THROUGHPUT_TPS,
        utilisation: 1.0,
    };

    /// Shared cost, in $ per month: tokens ÷ 10⁶ × price per million.
    pub fn api_cost(&self, tokens_per_month: f64) -> f64 {
        tokens_per_month / 1e6 * self.api_price_per_m
    }

    /// Tokens one GPU serves in a month: throughput × 3,600 × 730 × utilisation.
    pub fn gpu_capacity_tokens_per_month(&self) -> f64 {
        self.throughput_tps * 3600.0 * HOURS_PER_MONTH * self.utilisation
    }

    /// One GPU's rent, in $ per month: hourly price × 730.
    pub fn gpu_monthly_cost(&self) -> f64 {
        self.gpu_hourly * HOURS_PER_MONTH
    }

    /// Dedicated GPUs needed for `tokens_per_month`: ⌈tokens ÷ one GPU's monthly capacity⌉,
    /// at least 1 (a dedicated deployment has a floor of one GPU). Rounds to 9 decimals first,
    /// so binary noise does not cost a GPU; NaN gives 1 and infinity saturates.
    pub fn gpus_needed(&self, tokens_per_month: f64) -> u64 {
        let fraction = tokens_per_month / self.gpu_capacity_tokens_per_month();
        let fraction = (fraction * 1e9).round() / 1e9;
        (fraction.ceil() as u64).max(1)
    }

    /// Dedicated cost, in $ per month: GPUs needed × 730 hours × hourly price.
    pub fn dedicated_cost(&self, tokens_per_month: f64) -> f64 {
        self.gpus_needed(tokens_per_month) as f64 * self.gpu_monthly_cost()
    }

    /// Volume where one GPU's rent equals the API bill, in tokens per month:
    /// hourly × 730 ÷ price per million × 10⁶.
    ///
    /// Dedicated is cheaper above it only while one GPU can serve it, i.e. when it is at most
    /// [`Self::gpu_capacity_tokens_per_month`]; see [`Self::dedicated_can_win`].
    pub fn break_even_tokens_per_month(&self) -> f64 {
        self.gpu_monthly_cost() / self.api_price_per_m * 1e6
    }

    /// Whether dedicated is ever cheaper: a GPU used to its capacity costs less per token than
    /// the API (break-even volume ≤ one GPU's capacity). If not, the API wins at every volume.
    pub fn dedicated_can_win(&self) -> bool {
        self.break_even_tokens_per_month() <= self.gpu_capacity_tokens_per_month()
    }

    /// Both costs at `tokens_per_month`.
    pub fn point(&self, tokens_per_month: f64) -> CostPoint {
        CostPoint {
            tokens_per_month,
            api_cost: self.api_cost(tokens_per_month),
            dedicated_cost: self.dedicated_cost(tokens_per_month),
        }
    }

    /// `points` log-spaced volumes from `min_tokens` to `max_tokens` (both included), with
    /// both costs, for a line chart with a log volume axis.
    ///
    /// Empty when `points` is 0, either bound is not finite and positive, or `max < min`; one
    /// point at `min_tokens` when `points` is 1; at most [`MAX_CURVE_POINTS`] points. The
    /// dedicated line is a staircase; sampled points land on its steps, not on its risers.
    pub fn cost_curve(&self, min_tokens: f64, max_tokens: f64, points: usize) -> Vec<CostPoint> {
        let valid = |v: f64| v.is_finite() && v > 0.0;
        if points == 0 || !valid(min_tokens) || !valid(max_tokens) || max_tokens < min_tokens {
            return Vec::new();
        }
        let points = points.min(MAX_CURVE_POINTS);
        if points == 1 {
            return vec![self.point(min_tokens)];
        }
        let (lo, hi) = (min_tokens.ln(), max_tokens.ln());
        let last = (points - 1) as f64;
        (0..points)
            .map(|i| {
                // Exact ends, so the chart's axis labels match its inputs.
                let tokens = match i {
                    0 => min_tokens,
                    _ if i == points - 1 => max_tokens,
                    _ => (lo + (hi - lo) * i as f64 / last).exp(),
                };
                self.point(tokens)
            })
            .collect()
    }

    /// The break-even sum a reader can check, e.g.
    /// `$2.5/h × 730 h = $1,825 a month ÷ $0.6 per M = 3,041.667 M tokens a month`.
    pub fn worked_line(&self) -> String {
        format!(
            "${}/h \u{d7} {} h = ${} a month \u{f7} ${} per M = {} M tokens a month",
            plain(self.gpu_hourly),
            plain(HOURS_PER_MONTH),
            plain(self.gpu_monthly_cost()),
            plain(self.api_price_per_m),
            plain(self.break_even_tokens_per_month() / 1e6)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EX: CostInputs = CostInputs::EXAMPLE;

    #[test]
    fn costs_of_the_example_inputs() {
        assert!((EX.api_cost(1e9) - 600.0).abs() < 1e-9);
        assert_eq!(EX.gpu_monthly_cost(), 1825.0);
        // 1,500 tok/s × 3,600 s × 730 h = 3.942 billion tokens a month per GPU.
        assert_eq!(EX.gpu_capacity_tokens_per_month(), 3_942_000_000.0);
        assert_eq!(EX.gpus_needed(1e9), 1);
        assert_eq!(EX.gpus_needed(3_942_000_000.0), 1);
        // Binary noise below a billionth of a GPU does not cost a whole GPU; a real overrun does.
        assert_eq!(EX.gpus_needed(3_942_000_001.0), 1);
        assert_eq!(EX.gpus_needed(3_942_100_000.0), 2);
        assert_eq!(EX.gpus_needed(12e9), 4);
        assert_eq!(EX.dedicated_cost(12e9), 7300.0);
        assert_eq!(EX.gpus_needed(0.0), 1);
    }

    #[test]
    fn break_even_of_the_example_inputs() {
        let volume = EX.break_even_tokens_per_month();
        assert!((volume - 3_041_666_666.667).abs() < 1.0);
        assert!((EX.api_cost(volume) - EX.dedicated_cost(volume)).abs() < 1e-6);
        assert!(EX.dedicated_can_win());
        assert_eq!(
            EX.worked_line(),
            "$2.5/h \u{d7} 730 h = $1,825 a month \u{f7} $0.6 per M = 3,041.667 M tokens a month"
        );
        // A cheap API: one busy GPU's tokens cost less through the API than the GPU does.
        let cheap_api = CostInputs {
            api_price_per_m: 0.10,
            ..EX
        };
        assert!(!cheap_api.dedicated_can_win());
    }

    #[test]
    fn utilisation_shrinks_capacity() {
        let half = CostInputs {
            utilisation: 0.5,
            ..EX
        };
        assert_eq!(half.gpu_capacity_tokens_per_month(), 1_971_000_000.0);
        assert_eq!(half.gpus_needed(3e9), 2);
        assert_eq!(
            half.break_even_tokens_per_month(),
            EX.break_even_tokens_per_month()
        );
    }

    #[test]
    fn cost_curve_is_log_spaced_with_exact_ends() {
        let curve = EX.cost_curve(1e6, 1e12, 7);
        let volumes: Vec<f64> = curve.iter().map(|p| p.tokens_per_month).collect();
        for (got, want) in volumes.iter().zip([1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12]) {
            assert!((got / want - 1.0).abs() < 1e-12, "{got} vs {want}");
        }
        assert_eq!(curve[0].tokens_per_month, 1e6);
        assert_eq!(curve[6].tokens_per_month, 1e12);
        assert!(EX.cost_curve(1e6, 1e12, 0).is_empty());
        assert!(EX.cost_curve(0.0, 1e12, 5).is_empty());
        assert!(EX.cost_curve(1e9, 1e6, 5).is_empty());
        assert!(EX.cost_curve(f64::NAN, 1e6, 5).is_empty());
        assert_eq!(EX.cost_curve(1e6, 1e12, 1).len(), 1);
        assert_eq!(EX.cost_curve(1e6, 1e12, usize::MAX).len(), MAX_CURVE_POINTS);
    }

    #[test]
    fn parse_helpers_name_the_field() {
        assert_eq!(parse_api_price_per_m("0.60"), Ok(0.6));
        assert_eq!(parse_utilisation_percent("60"), Ok(0.6));
        assert_eq!(
            parse_utilisation_percent("0").unwrap_err().field,
            "Utilisation"
        );
        assert!(parse_utilisation_percent("101").is_err());
        assert_eq!(
            parse_gpu_hourly("-1").unwrap_err().message,
            "Must be more than 0."
        );
        assert!(parse_throughput_tps("1500").is_ok());
        assert_eq!(parse_tokens_per_month("1e9"), Ok(1e9));
    }

    proptest::proptest! {
        #[test]
        fn costs_are_sane_and_cross_at_break_even(
            price in 0.01f64..100.0,
            hourly in 0.1f64..100.0,
            tps in 1.0f64..100_000.0,
            utilisation in 0.01f64..=1.0,
            tokens in 1.0f64..1e15,
        ) {
            let inputs = CostInputs {
                api_price_per_m: price,
                gpu_hourly: hourly,
                throughput_tps: tps,
                utilisation,
            };
            let capacity = inputs.gpu_capacity_tokens_per_month();
            let p = inputs.point(tokens);
            proptest::prop_assert!(p.api_cost.is_finite() && p.api_cost > 0.0);
            proptest::prop_assert!(p.dedicated_cost >= inputs.gpu_monthly_cost());
            let gpus = inputs.gpus_needed(tokens) as f64;
            proptest::prop_assert!(gpus * capacity >= tokens * (1.0 - 1e-9));
            proptest::prop_assert!(inputs.dedicated_cost(tokens * 2.0) >= p.dedicated_cost);
            // Below break-even the API is cheaper; when dedicated can win, it is cheaper (or
            // equal) between break-even and one GPU's capacity.
            let volume = inputs.break_even_tokens_per_month();
            let below = volume * 0.99;
            proptest::prop_assert!(inputs.api_cost(below) < inputs.dedicated_cost(below));
            if inputs.dedicated_can_win() {
                let v = volume.max(capacity * 0.999);
                let (api, dedicated) = (inputs.api_cost(v), inputs.dedicated_cost(v));
                proptest::prop_assert!(api >= dedicated * (1.0 - 1e-9));
            }
        }

        #[test]
        fn curve_volumes_rise(min in 1.0f64..1e9, span in 1.0f64..1e6, n in 2usize..200) {
            let curve = CostInputs::EXAMPLE.cost_curve(min, min * span, n);
            proptest::prop_assert_eq!(curve.len(), n);
            for pair in curve.windows(2) {
                proptest::prop_assert!(pair[1].tokens_per_month >= pair[0].tokens_per_month);
                proptest::prop_assert!(pair[1].api_cost >= pair[0].api_cost);
            }
        }
    }
}
