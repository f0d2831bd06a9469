//! Shared or dedicated inference: paying per token against paying for GPU time.
//!
//! Shared (an API) costs tokens ÷ 10⁶ × price per million. Dedicated costs whole GPUs rented
//! all month, however busy they are. So the API wins at low volume and dedicated GPUs can win
//! at high volume, if one GPU's tokens would cost more at API prices than the GPU does. They
//! can cross more than once: each added GPU starts nearly idle, so the API is cheaper again
//! just past each step of the dedicated bill, until the steps stop mattering (see
//! [`DedicatedWins`]).
//!
//! Assumptions: a month is 730 hours (8,760 ÷ 12); every dedicated GPU is paid for all 730 of
//! them; a GPU serves `throughput` tokens/s for a fraction `utilisation` of the month
//! (1 = flat traffic at full speed all month, which real traffic with peaks and quiet nights
//! never reaches). Engineering time, the dedicated side's other cost, is left out.
//!
//! The `EXAMPLE_*` values are examples for the widget's first view, not market prices: the
//! course sources give no prices.

use super::format::{fixed, plain};
use super::{parse_number, InputError};

/// Hours in an average month: 8,760 ÷ 12.
pub const HOURS_PER_MONTH: f64 = 730.0;
/// Example API price, in $ per million tokens (not a quoted price).
pub const EXAMPLE_API_PRICE_PER_M: f64 = 0.60;
/// Example GPU rental price, in $ per GPU-hour (not a quoted price).
pub const EXAMPLE_GPU_HOURLY: f64 = 2.50;
/// Example throughput of one GPU, in tokens/s summed over its concurrent requests: the
/// decode ceiling per GPU (`batching`) of Llama 3 8B in FP16 on one H100 SXM serving
/// [`EXAMPLE_BATCH`] sequences of [`EXAMPLE_CONTEXT_TOKENS`] tokens, as the decode-ceiling
/// widget shows it (a test holds the two equal). A ceiling, so a real engine's figure is lower.
pub const EXAMPLE_THROUGHPUT_TPS: f64 = 1_477.0;
/// The batch behind [`EXAMPLE_THROUGHPUT_TPS`]: sequences decoded together.
pub const EXAMPLE_BATCH: u64 = 8;
/// The context behind [`EXAMPLE_THROUGHPUT_TPS`]: tokens per sequence.
pub const EXAMPLE_CONTEXT_TOKENS: u64 = 2048;

/// Largest API price accepted, in $ per million tokens.
pub const MAX_API_PRICE_PER_M: f64 = 10_000.0;
/// Largest GPU price accepted, in $ per GPU-hour.
pub const MAX_GPU_HOURLY: f64 = 10_000.0;
/// Largest per-GPU throughput accepted, in tokens/s.
pub const MAX_THROUGHPUT_TPS: f64 = 1e9;
/// Largest volume accepted, in tokens per month (a quadrillion).
pub const MAX_TOKENS_PER_MONTH: f64 = 1e15;
/// Most dedicated GPUs the calculator counts (a trillion): a volume that needs more is
/// refused, so that no count runs past what a whole number holds.
pub const MAX_GPUS: f64 = 1e12;
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
    /// hourly × 730 ÷ price per million × 10⁶. The first crossing of the two bills.
    ///
    /// Dedicated is cheaper just above it only if one GPU can serve it, i.e. when it is below
    /// [`Self::gpu_capacity_tokens_per_month`]; every crossing is in [`Self::dedicated_wins`].
    pub fn break_even_tokens_per_month(&self) -> f64 {
        self.gpu_monthly_cost() / self.api_price_per_m * 1e6
    }

    /// Every volume where dedicated is cheaper than the API, or `None` when it never is: when
    /// a GPU used to its capacity costs at least as much per token as the API (first crossing
    /// ≥ one GPU's capacity), or when a price or the capacity is not a finite number above 0.
    ///
    /// Constant work, however many ranges there are (see [`DedicatedWins`] for the maths).
    pub fn dedicated_wins(&self) -> Option<DedicatedWins> {
        let first = self.break_even_tokens_per_month();
        let capacity = self.gpu_capacity_tokens_per_month();
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if !positive(first) || !positive(capacity) || first >= capacity {
            return None;
        }
        // Tokens a full GPU serves beyond its own break-even: the API's lead grows by this
        // much with each GPU, and n GPUs win their whole band once n × spare ≥ capacity.
        let spare = capacity - first;
        let whole_band = |gpus: u64| gpus as f64 * spare >= capacity;
        // The smallest such n is ⌈capacity ÷ spare⌉ (at least 2, as the first crossing is above
        // 0); one rounding in the division can put it one off, so check the neighbour. The
        // quotient is at most about 2⁵³ (spare ≥ one ulp of capacity), so the cast is exact.
        let guess = (capacity / spare).ceil().max(2.0) as u64;
        let gpus = if guess > 2 && whole_band(guess - 1) {
            guess - 1
        } else if whole_band(guess) {
            guess
        } else {
            guess + 1
        };
        Some(DedicatedWins {
            inputs: *self,
            always_from_gpus: gpus - 1,
        })
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

/// One stretch of volume where dedicated costs less than the API, all of it on `gpus` GPUs.
///
/// Dedicated is cheaper for `from` < volume ≤ `to`: at `from` the two bills are equal, and at
/// `to` the GPUs are full, so one token more needs another GPU and the API is cheaper again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WinRange {
    /// GPUs dedicated needs across the range.
    pub gpus: u64,
    /// Start, in tokens per month: `gpus` × the first crossing (the bills are equal here).
    pub from: f64,
    /// End, in tokens per month: `gpus` × one GPU's monthly capacity (included).
    pub to: f64,
}

impl WinRange {
    /// The range in words, in millions of tokens a month: `3,042 to 3,942 M`, with as many
    /// significant figures (3 to 10) as it takes for its two ends to read differently. A range
    /// too narrow for that is given by its start and width:
    /// `3,041.666667 M (a range 0.003 tokens wide)`.
    pub fn text(&self) -> String {
        let (from, to) = (self.from, self.to);
        match (3..=10).find(|&f| millions(from, f) != millions(to, f)) {
            Some(f) => format!("{} to {} M", millions(from, f), millions(to, f)),
            None => format!(
                "{} M (a range {} tokens wide)",
                millions(from, 10),
                significant(to - from, 3)
            ),
        }
    }
}

/// Every volume where dedicated is cheaper than the API: a finite staircase of
/// [`WinRange`]s, then every volume above [`Self::always_from`].
///
/// Write B for the first crossing ([`CostInputs::break_even_tokens_per_month`]) and C for one
/// GPU's monthly capacity, with B < C. Volumes above (n − 1)·C up to n·C need n GPUs, a flat
/// bill of n GPUs' rent, while the API bill keeps rising and equals that rent at n·B. So with
/// n GPUs dedicated wins above max((n − 1)·C, n·B), up to n·C. While n·B > (n − 1)·C, the API
/// is cheaper at the start of the band: the n-th GPU has just been added and is nearly idle.
/// Once n·B ≤ (n − 1)·C, i.e. n ≥ C ÷ (C − B), the API bill when that GPU is added already
/// exceeds the rent of all n, and dedicated wins from (n − 1)·B on, at every volume.
///
/// With the example inputs (B = 3,041.7 M, C = 3,942 M tokens a month) dedicated wins from
/// 3,042 to 3,942 M, 6,083 to 7,884 M and 9,125 to 11,826 M, and always from 12,167 M.
/// Built by [`CostInputs::dedicated_wins`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DedicatedWins {
    inputs: CostInputs,
    /// GPUs at [`Self::always_from`] (at least 1); one fewer ranges come before it.
    always_from_gpus: u64,
}

/// Most ranges [`DedicatedWins::ranges_text`] names one by one; more are shortened with "…".
pub const MAX_LISTED_RANGES: usize = 4;

impl DedicatedWins {
    /// Volume above which dedicated is always cheaper, in tokens per month.
    pub fn always_from(&self) -> f64 {
        self.always_from_gpus as f64 * self.inputs.break_even_tokens_per_month()
    }

    /// How many ranges come before [`Self::always_from`] (0 when dedicated wins at every
    /// volume above the first crossing). Can be huge when the first crossing is just below one
    /// GPU's capacity; read them lazily with [`Self::ranges`].
    pub fn range_count(&self) -> u64 {
        self.always_from_gpus - 1
    }

    /// The range on `gpus` GPUs, if it comes before [`Self::always_from`].
    pub fn range(&self, gpus: u64) -> Option<WinRange> {
        (gpus >= 1 && gpus < self.always_from_gpus).then(|| WinRange {
            gpus,
            from: gpus as f64 * self.inputs.break_even_tokens_per_month(),
            to: gpus as f64 * self.inputs.gpu_capacity_tokens_per_month(),
        })
    }

    /// The ranges before [`Self::always_from`], lowest first. Lazy: there are
    /// [`Self::range_count`] of them, so take what you show.
    pub fn ranges(&self) -> impl Iterator<Item = WinRange> + '_ {
        (1..self.always_from_gpus).filter_map(|gpus| self.range(gpus))
    }

    /// The ranges in words, e.g. `3,042 to 3,942 M, 6,083 to 7,884 M and 9,125 to 11,826 M`
    /// (millions of tokens a month), or `None` when there are none. Past
    /// [`MAX_LISTED_RANGES`] it names the first two and the last, with "…" between.
    pub fn ranges_text(&self) -> Option<String> {
        let count = self.range_count();
        let named: Vec<u64> = if count <= MAX_LISTED_RANGES as u64 {
            (1..=count).collect()
        } else {
            vec![1, 2, count]
        };
        let mut parts: Vec<String> = named
            .into_iter()
            .filter_map(|gpus| self.range(gpus))
            .map(|r| r.text())
            .collect();
        let last = parts.pop()?;
        if parts.is_empty() {
            return Some(last);
        }
        let gap = if count > MAX_LISTED_RANGES as u64 {
            ", \u{2026}"
        } else {
            ""
        };
        Some(format!("{}{gap} and {last}", parts.join(", ")))
    }

    /// The always-wins sum a reader can check, e.g. `From 4 × 3,041.667 M = 12,166.667 M
    /// tokens a month on, dedicated always wins: 5 GPUs cost $9,125, less than the API bill of
    /// $9,460.8 for the 15,768 M tokens that 4 full GPUs serve`.
    pub fn worked_line(&self) -> String {
        let k = self.always_from_gpus;
        let full = k as f64 * self.inputs.gpu_capacity_tokens_per_month();
        format!(
            "From {} \u{d7} {} M = {} M tokens a month on, dedicated always wins: {} GPUs cost \
             ${}, less than the API bill of ${} for the {} M tokens that {} full GPU{} serve{}",
            k,
            plain(self.inputs.break_even_tokens_per_month() / 1e6),
            plain(self.always_from() / 1e6),
            k + 1,
            plain((k + 1) as f64 * self.inputs.gpu_monthly_cost()),
            plain(self.inputs.api_cost(full)),
            plain(full / 1e6),
            k,
            if k == 1 { "" } else { "s" },
            if k == 1 { "s" } else { "" },
        )
    }
}

/// A volume in millions of tokens, to three significant figures: `12,167 M`, `913 M`. Past
/// a billion M (a quadrillion tokens, the largest volume the calculator takes) it switches
/// to the notation the fields accept, `1.2e25 M`, instead of a row of zeros.
pub fn volume_text(tokens: f64) -> String {
    format!("{} M", millions(tokens, 3))
}

/// `tokens` in millions, to `figures` significant figures, without the unit.
fn millions(tokens: f64, figures: usize) -> String {
    significant(tokens / 1e6, figures)
}

/// `value` (> 0) to `figures` significant figures (1 to 10), with thousands separators:
/// `(3041.667, 3)` → `"3,042"`, `(0.00304, 3)` → `"0.00304"`; from a billion up, in
/// e-notation: `"1.23e25"`.
fn significant(value: f64, figures: usize) -> String {
    if !value.is_finite() || value <= 0.0 {
        return plain(value);
    }
    let figures = figures.clamp(1, 10);
    if value >= 1e9 {
        return super::format::short_e(value, figures);
    }
    let decimals = (figures as i32 - 1 - value.log10().floor() as i32).clamp(0, 9) as usize;
    super::format::trim_zeros(&fixed(value, decimals)).to_string()
}

/// A good result: both bills at the chosen volume, and where they cross.
#[derive(Debug, Clone, PartialEq)]
pub struct Bills {
    /// The prices and throughput, checked.
    pub inputs: CostInputs,
    /// The reader's volume, tokens a month.
    pub volume: f64,
    /// The API's bill at that volume, $ a month.
    pub api: f64,
    /// Dedicated GPUs' bill at that volume, $ a month.
    pub dedicated: f64,
    /// GPUs that volume needs.
    pub gpus: u64,
    /// Every volume where dedicated is cheaper, if there is one.
    pub wins: Option<DedicatedWins>,
    /// Dedicated cost per million tokens with the GPUs as busy as `utilisation` says ($).
    pub dedicated_per_m: f64,
    /// The sums a reader can check, one line each.
    pub worked: Vec<String>,
}

/// The break-even calculator's result for its fields as typed (API $ per million tokens, GPU $
/// per hour, tokens/s of one GPU, utilisation %, tokens a month), or every field's error.
pub fn bills(
    price: &str,
    hourly: &str,
    tps: &str,
    utilisation: &str,
    volume: &str,
) -> Result<Bills, Vec<InputError>> {
    let price = parse_api_price_per_m(price);
    let hourly = parse_gpu_hourly(hourly);
    let tps = parse_throughput_tps(tps);
    let utilisation = parse_utilisation_percent(utilisation);
    let volume = parse_tokens_per_month(volume);
    match (price, hourly, tps, utilisation, volume) {
        (Ok(api_price_per_m), Ok(gpu_hourly), Ok(throughput_tps), Ok(utilisation), Ok(volume)) => {
            let inputs = CostInputs {
                api_price_per_m,
                gpu_hourly,
                throughput_tps,
                utilisation,
            };
            if volume / inputs.gpu_capacity_tokens_per_month() > MAX_GPUS {
                return Err(vec![InputError::new(
                    "Tokens per month",
                    format!(
                        "At this throughput and utilisation, this volume would take more than {} \
                         GPUs; enter a smaller volume, or a higher throughput or utilisation.",
                        plain(MAX_GPUS)
                    ),
                )]);
            }
            let point = inputs.point(volume);
            let gpus = inputs.gpus_needed(volume);
            let dedicated_per_m =
                inputs.gpu_monthly_cost() / inputs.gpu_capacity_tokens_per_month() * 1e6;
            let wins = inputs.dedicated_wins();
            let mut worked = vec![
                format!(
                    "API: {} M tokens \u{d7} ${} per M = {} a month",
                    plain(volume / 1e6),
                    plain(api_price_per_m),
                    dollars(point.api_cost)
                ),
                format!(
                    "Dedicated: {} \u{d7} ${}/h \u{d7} {} h = {} a month (one GPU serves {} M tokens a month)",
                    gpus,
                    plain(gpu_hourly),
                    plain(HOURS_PER_MONTH),
                    dollars(point.dedicated_cost),
                    plain(inputs.gpu_capacity_tokens_per_month() / 1e6)
                ),
                inputs.worked_line(),
            ];
            worked.extend(wins.map(|w| w.worked_line()));
            Ok(Bills {
                inputs,
                volume,
                api: point.api_cost,
                dedicated: point.dedicated_cost,
                gpus,
                wins,
                dedicated_per_m,
                worked,
            })
        }
        (a, b, c, d, e) => Err([a.err(), b.err(), c.err(), d.err(), e.err()]
            .into_iter()
            .flatten()
            .collect()),
    }
}

/// Money as a reader reads it: `$600`, `$1,825`, `$0.46`.
pub fn dollars(v: f64) -> String {
    if v >= 100.0 {
        format!("${}", fixed(v, 0))
    } else {
        format!("${}", fixed(v, 2))
    }
}

/// Which path is cheaper at the chosen volume, and by how much.
pub fn verdict(b: &Bills) -> String {
    let gap = (b.api - b.dedicated).abs();
    if gap < 0.005 {
        "$0: both cost the same".into()
    } else if b.api < b.dedicated {
        format!("{} less on the API", dollars(gap))
    } else {
        format!("{} less on dedicated", dollars(gap))
    }
}

/// Where dedicated wins, in words: the volume above which it always does (or "None"), then
/// the ranges below it, e.g. (`12,167 M tokens/month`, `; below that, dedicated wins only
/// from 3,042 to 3,942 M, …`). The output shows the two as one text.
pub fn wins_text(b: &Bills) -> (String, String) {
    let Some(wins) = b.wins else {
        return (
            "None".into(),
            ": the API is always cheaper at these inputs".into(),
        );
    };
    let always = format!("{} tokens/month", volume_text(wins.always_from()));
    let below = match (wins.ranges_text(), wins.range_count()) {
        (None, _) => "; below that, the API is cheaper".into(),
        (Some(list), n) if n <= MAX_LISTED_RANGES as u64 => {
            format!("; below that, dedicated wins only from {list}")
        }
        (Some(list), n) => format!(
            "; below that, dedicated wins only in {} ranges, from {list}",
            fixed(n as f64, 0)
        ),
    };
    (always, below)
}

/// The cost chart in words, for screen readers and as its caption.
pub fn chart_description(b: &Bills) -> String {
    let cross = match b.wins {
        Some(wins) => {
            let shaded = match wins.range_count() {
                0 => String::new(),
                1 => "one range below that and ".into(),
                n => format!("{} ranges below that and ", fixed(n as f64, 0)),
            };
            format!(
                "The lines first cross at {} M tokens a month. Shaded: where dedicated is \
                 cheaper, {shaded}every volume from {} tokens on, marked by the vertical line",
                plain(b.inputs.break_even_tokens_per_month() / 1e6),
                volume_text(wins.always_from())
            )
        }
        None => "The lines never cross: a busy GPU still costs more per token than the API".into(),
    };
    format!(
        "Monthly cost against tokens a month. The API line rises with volume; the dedicated line \
         starts at one GPU's rent, {}, and steps up by that much each time another GPU is needed. {}. \
         At {} M tokens the API costs {} and dedicated {}.",
        dollars(b.inputs.gpu_monthly_cost()),
        cross,
        plain(b.volume / 1e6),
        dollars(b.api),
        dollars(b.dedicated)
    )
}

impl Bills {
    /// The dedicated bill with its GPUs, e.g. `$1,825 (1 GPU)`.
    pub fn dedicated_text(&self) -> String {
        format!(
            "{} ({} GPU{})",
            dollars(self.dedicated),
            self.gpus,
            if self.gpus == 1 { "" } else { "s" }
        )
    }

    /// The note under the chart: what a busy dedicated GPU costs per million tokens.
    pub fn note(&self) -> String {
        format!(
            "A dedicated GPU as busy as this costs {} per million tokens. A month is {} hours, \
             and every GPU is paid for all of them; engineering time is not counted.",
            dollars(self.dedicated_per_m),
            plain(HOURS_PER_MONTH)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EX: CostInputs = CostInputs::EXAMPLE;

    /// The example throughput is the decode-ceiling widget's figure for the model, GPU, batch
    /// and context its doc names, so the break-even lesson and the ceiling agree.
    #[test]
    fn the_example_throughput_is_the_batched_ceiling_it_names() {
        use crate::logic::batching::{architecture, figure, Machine, Serving};
        use crate::logic::decode::ModelWeights;
        let h100 = crate::logic::gpus::preset("h100-80").expect("H100");
        let s = Serving::new(
            architecture("llama3-8b").expect("8B"),
            ModelWeights::dense(16.0),
            Machine::of(h100),
            EXAMPLE_BATCH,
            EXAMPLE_CONTEXT_TOKENS,
        );
        assert_eq!(figure(s.step.total_tps), "1,477");
        assert_eq!(
            figure(s.step.total_tps).replace(',', ""),
            plain(EXAMPLE_THROUGHPUT_TPS).replace(',', "")
        );
        assert_eq!(s.bound, crate::logic::batching::Bound::Bandwidth);
    }

    #[test]
    fn costs_of_the_example_inputs() {
        assert!((EX.api_cost(1e9) - 600.0).abs() < 1e-9);
        assert_eq!(EX.gpu_monthly_cost(), 1825.0);
        // 1,477 tok/s × 3,600 s × 730 h = 3.882 billion tokens a month per GPU.
        assert_eq!(EX.gpu_capacity_tokens_per_month(), 3_881_556_000.0);
        assert_eq!(EX.gpus_needed(1e9), 1);
        assert_eq!(EX.gpus_needed(3_881_556_000.0), 1);
        // Binary noise below a billionth of a GPU does not cost a whole GPU; a real overrun does.
        assert_eq!(EX.gpus_needed(3_881_556_001.0), 1);
        assert_eq!(EX.gpus_needed(3_881_656_000.0), 2);
        assert_eq!(EX.gpus_needed(12e9), 4);
        assert_eq!(EX.dedicated_cost(12e9), 7300.0);
        assert_eq!(EX.gpus_needed(0.0), 1);
    }

    #[test]
    fn break_even_of_the_example_inputs() {
        let volume = EX.break_even_tokens_per_month();
        assert!((volume - 3_041_666_666.667).abs() < 1.0);
        assert!((EX.api_cost(volume) - EX.dedicated_cost(volume)).abs() < 1e-6);
        assert!(EX.dedicated_wins().is_some());
        assert_eq!(
            EX.worked_line(),
            "$2.5/h \u{d7} 730 h = $1,825 a month \u{f7} $0.6 per M = 3,041.667 M tokens a month"
        );
        // A cheap API: one busy GPU's tokens cost less through the API than the GPU does.
        let cheap_api = CostInputs {
            api_price_per_m: 0.10,
            ..EX
        };
        assert_eq!(cheap_api.dedicated_wins(), None);
    }

    /// Whether dedicated costs less than the API at `tokens`, by the two bills themselves.
    fn dedicated_cheaper(inputs: &CostInputs, tokens: f64) -> bool {
        inputs.dedicated_cost(tokens) < inputs.api_cost(tokens)
    }

    #[test]
    fn the_example_inputs_cross_seven_times() {
        let wins = EX.dedicated_wins().unwrap();
        assert_eq!(wins.range_count(), 3);
        assert_eq!(wins.always_from_gpus, 4);
        assert_eq!(volume_text(wins.always_from()), "12,167 M");
        assert!((wins.always_from() - 12_166_666_666.667).abs() < 1.0);
        let texts: Vec<String> = wins.ranges().map(|r| r.text()).collect();
        assert_eq!(
            texts,
            ["3,042 to 3,882 M", "6,083 to 7,763 M", "9,125 to 11,645 M"]
        );
        assert_eq!(
            wins.ranges_text().as_deref(),
            Some("3,042 to 3,882 M, 6,083 to 7,763 M and 9,125 to 11,645 M")
        );
        let third = wins.range(3).unwrap();
        assert_eq!((third.gpus, third.to), (3, 11_644_668_000.0));
        assert_eq!(wins.range(4), None);
        assert_eq!(wins.range(0), None);
        // The examples: the API is cheaper again at 4.5, 6, 8 and 9 billion.
        for billions in [1.0, 3.0, 4.5, 6.0, 8.0, 9.0, 12.0] {
            assert!(!dedicated_cheaper(&EX, billions * 1e9), "{billions}B");
        }
        for billions in [
            3.1, 3.88, 6.1, 7.76, 9.2, 11.6, 12.2, 13.0, 15.0, 100.0, 1e5,
        ] {
            assert!(dedicated_cheaper(&EX, billions * 1e9), "{billions}B");
        }
        assert_eq!(
            wins.worked_line(),
            "From 4 \u{d7} 3,041.667 M = 12,166.667 M tokens a month on, dedicated always wins: \
             5 GPUs cost $9,125, less than the API bill of $9,315.734 for the 15,526.224 M tokens that \
             4 full GPUs serve"
        );
    }

    #[test]
    fn dedicated_can_win_for_good_at_the_first_crossing() {
        // At 50% utilisation and $2 per M, one GPU breaks even at 912.5 M and holds 1,971 M:
        // the second GPU is paid for by the time the first is full.
        let busy_api = CostInputs {
            api_price_per_m: 2.0,
            utilisation: 0.5,
            ..EX
        };
        let wins = busy_api.dedicated_wins().unwrap();
        assert_eq!(wins.range_count(), 0);
        assert_eq!(wins.ranges().count(), 0);
        assert_eq!(wins.ranges_text(), None);
        assert_eq!(wins.always_from(), 912_500_000.0);
        assert_eq!(volume_text(wins.always_from()), "913 M");
        for tokens in [913e6, 1.971e9, 1.972e9, 5e9, 1e12] {
            assert!(dedicated_cheaper(&busy_api, tokens), "{tokens}");
        }
        assert!(!dedicated_cheaper(&busy_api, 912e6));
        assert!(wins.worked_line().ends_with("1 full GPU serves"));
    }

    #[test]
    fn dedicated_never_wins_at_these_inputs() {
        let never = |inputs: CostInputs| assert_eq!(inputs.dedicated_wins(), None, "{inputs:?}");
        // A busy GPU costs more per token than the API: $0.1 per M, or the GPU mostly idle.
        never(CostInputs {
            api_price_per_m: 0.1,
            ..EX
        });
        never(CostInputs {
            utilisation: 0.01,
            ..EX
        });
        // Inputs the fields refuse still give an answer, not a panic or an endless loop.
        never(CostInputs {
            api_price_per_m: 0.0,
            ..EX
        });
        never(CostInputs {
            utilisation: 0.0,
            ..EX
        });
        never(CostInputs {
            api_price_per_m: f64::NAN,
            ..EX
        });
        never(CostInputs {
            throughput_tps: f64::INFINITY,
            ..EX
        });
    }

    #[test]
    fn a_first_crossing_just_below_capacity_gives_many_ranges_in_constant_work() {
        // One GPU's capacity a hair (about 1e-12) above its break-even: about a trillion
        // narrow ranges before dedicated wins for good.
        let first = EX.break_even_tokens_per_month();
        let hair = CostInputs {
            throughput_tps: first * (1.0 + 1e-12) / (3600.0 * HOURS_PER_MONTH),
            ..EX
        };
        let wins = hair.dedicated_wins().unwrap();
        let count = wins.range_count();
        assert!((5e11..2e12).contains(&(count as f64)), "{count}");
        assert!(wins.range(count).is_some() && wins.range(count + 1).is_none());
        assert_eq!(wins.ranges().take(3).count(), 3);
        assert!(wins.always_from().is_finite());
        let text = wins.ranges_text().unwrap();
        assert!(
            text.starts_with(
                "3,041.666667 M (a range 0.00304 tokens wide), \
                 6,083.333333 M (a range 0.00608 tokens wide), \u{2026} and "
            ),
            "{text}"
        );
        assert!(volume_text(wins.always_from()).ends_with("e15 M"));
        // The last range and the always-wins volume agree with the bills.
        let last = wins.range(count).unwrap();
        let past = wins.always_from() * (1.0 + 1e-9);
        assert!(dedicated_cheaper(&hair, past));
        assert!(dedicated_cheaper(&hair, last.to));
        // The smallest spare a float allows: capacity one step above the break-even.
        let ulp = CostInputs {
            throughput_tps: 1.0,
            utilisation: 1.0,
            gpu_hourly: 1.0,
            api_price_per_m: HOURS_PER_MONTH * 1e6
                / f64::from_bits((3600.0 * HOURS_PER_MONTH).to_bits() - 1),
        };
        if let Some(wins) = ulp.dedicated_wins() {
            assert!(wins.always_from().is_finite() && wins.range_count() < 1 << 60);
            assert!(wins.ranges_text().is_some_and(|t| !t.contains("NaN")));
        }
    }

    #[test]
    fn volumes_read_in_millions() {
        assert_eq!(volume_text(912_500_000.0), "913 M");
        assert_eq!(volume_text(3_041_666_666.667), "3,042 M");
        assert_eq!(volume_text(1.5e5), "0.15 M");
        assert_eq!(volume_text(1e15), "1e9 M");
        assert_eq!(volume_text(1.2345e31), "1.23e25 M");
        let close = WinRange {
            gpus: 1,
            from: 3_941.9e6,
            to: 3_942e6,
        };
        assert_eq!(close.text(), "3,941.9 to 3,942 M");
    }

    #[test]
    fn utilisation_shrinks_capacity() {
        let half = CostInputs {
            utilisation: 0.5,
            ..EX
        };
        assert_eq!(half.gpu_capacity_tokens_per_month(), 1_940_778_000.0);
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
            // Below the first crossing the API is cheaper.
            let below = inputs.break_even_tokens_per_month() * 0.99;
            proptest::prop_assert!(inputs.api_cost(below) < inputs.dedicated_cost(below));
        }

        /// The reported ranges against the two bills, at volumes inside each range, in each
        /// gap, past the always-wins volume, and anywhere (well clear of the edges, where
        /// the bills tie or a GPU's last token rounds).
        #[test]
        fn ranges_agree_with_the_bills(
            price in 0.01f64..100.0,
            hourly in 0.1f64..100.0,
            tps in 1.0f64..100_000.0,
            utilisation in 0.01f64..=1.0,
            pick in 0.0f64..1.0,
            t in 0.001f64..0.999,
            anywhere in 0.0f64..1.0,
        ) {
            let inputs = CostInputs {
                api_price_per_m: price,
                gpu_hourly: hourly,
                throughput_tps: tps,
                utilisation,
            };
            let cheaper = |v: f64| inputs.dedicated_cost(v) < inputs.api_cost(v);
            let first = inputs.break_even_tokens_per_month();
            let capacity = inputs.gpu_capacity_tokens_per_month();
            let Some(wins) = inputs.dedicated_wins() else {
                // Never: not even with every GPU full, nor anywhere in between.
                for gpus in 1..=5 {
                    proptest::prop_assert!(!cheaper(gpus as f64 * capacity * (1.0 - 1e-9)));
                }
                proptest::prop_assert!(!cheaper(first * (1.0 + anywhere * 10.0)));
                return Ok(());
            };
            let clear = |v: f64, edges: &[f64]| edges.iter().all(|e| (v - e).abs() > 1e-7 * v);
            let count = wins.range_count();
            // Inside a range and in the gap after it.
            if count > 0 {
                let gpus = 1 + ((pick * count as f64) as u64).min(count - 1);
                let r = wins.range(gpus).unwrap();
                let next = wins.range(gpus + 1).map_or(wins.always_from(), |n| n.from);
                let inside = r.from + t * (r.to - r.from);
                let gap = r.to + t * (next - r.to);
                if clear(inside, &[r.from, r.to]) {
                    proptest::prop_assert!(cheaper(inside), "{:?} at {}", r, inside);
                }
                if clear(gap, &[r.to, next]) {
                    proptest::prop_assert!(!cheaper(gap), "gap after {:?} at {}", r, gap);
                }
            }
            // Past the always-wins volume, every volume (allowing ties where a GPU is added).
            let past = wins.always_from() * (1.0 + 1e-6 + anywhere * 100.0);
            let (api, dedicated) = (inputs.api_cost(past), inputs.dedicated_cost(past));
            proptest::prop_assert!(dedicated <= api * (1.0 + 1e-9), "{} vs {}", dedicated, api);
            // Any volume up to twice the always-wins volume, by scanning every range.
            if count <= 10_000 {
                let v = first * 0.5 + anywhere * (wins.always_from() * 2.0 - first * 0.5);
                let mut edges = vec![wins.always_from()];
                let mut listed = v > wins.always_from();
                for r in wins.ranges() {
                    edges.extend([r.from, r.to]);
                    listed |= r.from < v && v <= r.to;
                }
                if clear(v, &edges) {
                    proptest::prop_assert_eq!(listed, cheaper(v), "at {}", v);
                }
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

#[cfg(test)]
mod calculator_tests {
    use super::*;

    fn example(volume: &str) -> Bills {
        bills("0.6", "2.5", "1500", "100", volume).unwrap()
    }

    /// The output's whole text, as a reader (or a test) reads it.
    fn wins_said(b: &Bills) -> String {
        let (value, detail) = wins_text(b);
        value + &detail
    }

    #[test]
    fn the_example_inputs() {
        let b = example("1000000000");
        assert_eq!(dollars(b.api), "$600");
        assert_eq!(dollars(b.dedicated), "$1,825");
        assert_eq!(b.gpus, 1);
        assert_eq!(
            plain(b.inputs.break_even_tokens_per_month() / 1e6),
            "3,041.667"
        );
        assert_eq!(verdict(&b), "$1,225 less on the API");
        assert_eq!(dollars(b.dedicated_per_m), "$0.46");
        assert_eq!(
            wins_said(&b),
            "12,167 M tokens/month; below that, dedicated wins only from 3,042 to 3,942 M, \
             6,083 to 7,884 M and 9,125 to 11,826 M"
        );
        assert_eq!(b.worked.len(), 4);
        assert!(b.worked[3].starts_with("From 4 \u{d7} 3,041.667 M = 12,166.667 M"));
        let big = example("1e10");
        assert_eq!(big.gpus, 3);
        assert_eq!(verdict(&big), "$525 less on dedicated");
        // Past a step: 5 billion needs a second GPU, and the API is cheaper again.
        assert_eq!(verdict(&example("5e9")), "$650 less on the API");
    }

    #[test]
    fn one_crossing_and_none() {
        let once = bills("2", "2.5", "1500", "50", "1e9").unwrap();
        assert_eq!(
            wins_said(&once),
            "913 M tokens/month; below that, the API is cheaper"
        );
        assert!(chart_description(&once).contains("every volume from 913 M tokens on"));
        let never = bills("0.1", "2.5", "1500", "100", "1e9").unwrap();
        assert_eq!(never.wins, None);
        assert!(wins_said(&never).starts_with("None: the API is always cheaper"));
        assert!(chart_description(&never).contains("never cross"));
        assert_eq!(never.worked.len(), 3);
    }

    #[test]
    fn many_narrow_ranges_are_counted_not_listed() {
        // One GPU breaks even at 3,041.667 M and holds 3,042.173 M: 6,009 ranges.
        let b = bills("0.6", "2.5", "1157.6", "100", "1e9").unwrap();
        let text = wins_said(&b);
        assert!(
            text.starts_with(
                "18,280,417 M tokens/month; below that, dedicated wins only in \
                 6,009 ranges, from 3,041.7 to 3,042.2 M, 6,083 to 6,084 M, \u{2026} and "
            ),
            "{text}"
        );
    }

    #[test]
    fn every_bad_field_is_named() {
        let errs = bills("0", "-1", "x", "101", "").unwrap_err();
        assert_eq!(errs.len(), 5);
    }

    proptest::proptest! {
        #[test]
        fn valid_inputs_never_show_nan(
            price in 0.001f64..10_000.0,
            hourly in 0.001f64..10_000.0,
            tps in 0.001f64..1e9,
            util in 0.1f64..100.0,
            volume in 1.0f64..1e15,
        ) {
            let b = bills(&price.to_string(), &hourly.to_string(), &tps.to_string(), &util.to_string(), &volume.to_string()).unwrap();
            proptest::prop_assert!(b.api.is_finite() && b.dedicated.is_finite() && b.gpus >= 1);
            let text = format!("{} {} {} {}", verdict(&b), chart_description(&b), wins_said(&b), b.worked.join(" "));
            let clean = !text.contains("NaN") && !text.contains('\u{221e}');
            proptest::prop_assert!(clean, "{}", text);
            proptest::prop_assert!(wins_said(&b).starts_with(|c: char| c.is_ascii_digit()) == b.wins.is_some());
        }
    }
}

#[cfg(test)]
mod fuzz_tests {
    use super::*;
    use crate::logic::fuzz::{any_text, in_range, unreadable, unreadable_figure};
    use proptest::prelude::*;

    /// Found by the test below: a throughput of 2.2e-308 tok/s priced a 27-digit bill for
    /// 18446744073709551615 GPUs, and a utilisation of 5e-324 % read as 0.
    #[test]
    fn absurd_inputs_are_refused_with_a_message() {
        let e = bills("0.6", "2.5", "2.2250738585072014e-308", "100", "1e15").unwrap_err();
        assert_eq!(e[0].message, "Must be at least 0.001.");
        assert_eq!(
            parse_utilisation_percent("5e-324").unwrap_err().message,
            "Must be at least 0.001."
        );
        let e = bills("0.6", "2.5", "0.001", "0.001", "1e15").unwrap_err();
        assert_eq!(e[0].field, "Tokens per month");
        assert!(
            e[0].message.contains("more than 1,000,000,000,000 GPUs"),
            "{}",
            e[0].message
        );
        let b = bills("10000", "10000", "1", "100", "1e15").unwrap();
        assert_eq!(dollars(b.api), "$10,000,000,000,000");
    }

    proptest! {
        #[test]
        fn field_parsers_never_panic_and_keep_their_range(text in any_text()) {
            for (parse, max) in [
                (parse_api_price_per_m as fn(&str) -> Result<f64, InputError>, MAX_API_PRICE_PER_M),
                (parse_gpu_hourly, MAX_GPU_HOURLY),
                (parse_throughput_tps, MAX_THROUGHPUT_TPS),
                (parse_tokens_per_month, MAX_TOKENS_PER_MONTH),
                (parse_utilisation_percent, 1.0),
            ] {
                match parse(&text) {
                    Ok(x) => prop_assert!(x > 0.0 && x <= max),
                    Err(e) => prop_assert!(!e.message.is_empty()),
                }
            }
        }

        #[test]
        fn every_shown_figure_is_readable(
            price in in_range(0.0, MAX_API_PRICE_PER_M),
            hourly in in_range(0.0, MAX_GPU_HOURLY),
            tps in in_range(0.0, MAX_THROUGHPUT_TPS),
            utilisation in in_range(0.0, 100.0),
            volume in in_range(0.0, MAX_TOKENS_PER_MONTH),
        ) {
            match bills(&price, &hourly, &tps, &utilisation, &volume) {
                Ok(b) => {
                    let (always, below) = wins_text(&b);
                    for shown in [dollars(b.api), b.dedicated_text(), verdict(&b)] {
                        prop_assert!(unreadable_figure(&shown).is_none(), "{:?}", unreadable_figure(&shown));
                    }
                    if b.wins.is_some() {
                        prop_assert!(unreadable_figure(&always).is_none(), "{:?}", unreadable_figure(&always));
                    }
                    for line in b.worked.iter().chain([&below, &b.note(), &chart_description(&b)]) {
                        prop_assert!(unreadable(line).is_none(), "{:?}", unreadable(line));
                    }
                }
                Err(errors) => prop_assert!(errors.iter().all(|e| !e.message.is_empty())),
            }
        }
    }
}
