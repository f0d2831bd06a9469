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

super::input::form_fields! {
    BreakEven:
    /// The break-even calculator's fields.
    pub enum Field {
        ApiPrice => "API price per million tokens",
        GpuHourly => "GPU price per hour",
        Throughput => "Throughput per GPU",
        Utilisation => "Utilisation",
        TokensPerMonth => "Tokens per month",
    }
}

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
    parse_number(Field::ApiPrice, text, 0.0, true, MAX_API_PRICE_PER_M)
}

/// Parses the GPU price in $ per GPU-hour, as typed (more than 0).
pub fn parse_gpu_hourly(text: &str) -> Result<f64, InputError> {
    parse_number(Field::GpuHourly, text, 0.0, true, MAX_GPU_HOURLY)
}

/// Parses one GPU's throughput in tokens/s, as typed (more than 0).
pub fn parse_throughput_tps(text: &str) -> Result<f64, InputError> {
    parse_number(Field::Throughput, text, 0.0, true, MAX_THROUGHPUT_TPS)
}

/// Parses the volume in tokens per month, as typed (more than 0).
pub fn parse_tokens_per_month(text: &str) -> Result<f64, InputError> {
    parse_number(Field::TokensPerMonth, text, 0.0, true, MAX_TOKENS_PER_MONTH)
}

/// Parses utilisation typed as a percentage (more than 0, at most 100) and returns it as a
/// fraction: `"60"` gives 0.6.
pub fn parse_utilisation_percent(text: &str) -> Result<f64, InputError> {
    parse_number(Field::Utilisation, text, 0.0, true, 100.0).map(|percent| percent / 100.0)
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
                    Field::TokensPerMonth,
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
mod tests;

#[cfg(test)]
mod calculator_tests;

#[cfg(test)]
mod fuzz_tests;
