//! The objectives a run is judged by, as `--fail-on` and a plan's
//! `objectives` write them (`p95>2s`, `median>=800ms`, `error_rate>2%`,
//! `verdict>=cold_starts`): their syntax, read here once, so that a plan
//! document is checked at the boundary like every other member, and the
//! question a TTFT quantile objective asks of a run that goes until decided.
//!
//! What crossing an objective means for a report's figures, and the
//! objective as `--fail-on` holds it, are `judgement::objective`'s; it reads
//! its text with [`parse`], so the runner's flags, `report --fail-on` and a
//! plan file take exactly the same texts.
//!
//! A TTFT quantile objective is a question about a share: `p95>2s` is met
//! when the p95 is at most 2 s, that is when at least 95 % of the requests
//! take at most 2 s ([`ShareObjective`]). A run until decided follows that
//! share request by request (`wire::questions`); the other metrics (CV,
//! error rate, verdict) are figures of the whole run and are judged at its
//! end.

/// What an objective looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Median TTFT (`median` or `p50`), with its interval.
    Median,
    /// p90 TTFT (point value: the report has no interval for it).
    P90,
    /// p95 TTFT, with its interval.
    P95,
    /// p99 TTFT (point value).
    P99,
    /// CV of TTFT, with its interval.
    Cv,
    /// Share of measured requests that failed (point value).
    ErrorRate,
    /// The verdict (solid < some variance < cold starts < not ready).
    Verdict,
}

impl Metric {
    /// The name objectives use.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn name(self) -> &'static str {
        match self {
            Self::Median => "median",
            Self::P90 => "p90",
            Self::P95 => "p95",
            Self::P99 => "p99",
            Self::Cv => "cv",
            Self::ErrorRate => "error_rate",
            Self::Verdict => "verdict",
        }
    }

    /// The share of requests a TTFT quantile stands for (0.95 for the
    /// p95); `None` for a metric that is no quantile of TTFT.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn quantile(self) -> Option<f64> {
        match self {
            Self::Median => Some(0.5),
            Self::P90 => Some(0.9),
            Self::P95 => Some(0.95),
            Self::P99 => Some(0.99),
            Self::Cv | Self::ErrorRate | Self::Verdict => None,
        }
    }
}

/// How the figure is compared with the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    /// `>`: fails above the limit.
    Above,
    /// `>=`: fails at or above it.
    AtOrAbove,
}

impl Crossing {
    /// `>` or `>=`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Above => ">",
            Self::AtOrAbove => ">=",
        }
    }

    /// Whether `value` crosses `limit`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn crosses(self, value: f64, limit: f64) -> bool {
        match self {
            Self::Above => value > limit,
            Self::AtOrAbove => value >= limit,
        }
    }
}

/// Why an objective could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectiveError {
    /// No `>` or `>=` in it.
    NoComparison,
    /// The name before the comparison is not a metric.
    UnknownMetric(String),
    /// `<` or `<=`: objectives say what failing looks like.
    Below,
    /// A time without a unit, or a unit that is not `s` or `ms`.
    BadTime(String),
    /// A share without `%`.
    BadPercent(String),
    /// Not a verdict's name.
    BadVerdict(String),
}

impl std::fmt::Display for ObjectiveError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoComparison => write!(
                f,
                "expected METRIC>LIMIT or METRIC>=LIMIT, e.g. p95>2s, error_rate>2%, \
                 verdict>=cold_starts"
            ),
            Self::UnknownMetric(name) => write!(
                f,
                "{name:?} is not a metric: use median, p90, p95, p99, cv, error_rate or verdict"
            ),
            Self::Below => write!(
                f,
                "an objective says what failing looks like, with > or >= (p95>2s fails above 2 s)"
            ),
            Self::BadTime(text) => write!(
                f,
                "{text:?} is not a time: write it with its unit, e.g. 2s, 1.5s or 800ms"
            ),
            Self::BadPercent(text) => write!(
                f,
                "{text:?} is not a percentage: write it with %, e.g. 2% or 0.5%"
            ),
            Self::BadVerdict(text) => write!(
                f,
                "{text:?} is not a verdict: use solid, some_variance, cold_starts or not_ready"
            ),
        }
    }
}

impl std::error::Error for ObjectiveError {}

/// The verdicts' names, best first: the order `verdict>=…` compares in.
/// `judgement::objective` maps them to its verdicts (a test there checks
/// the names are the verdicts' own).
pub(crate) const VERDICT_NAMES: [&str; 4] = ["solid", "some_variance", "cold_starts", "not_ready"];

/// An objective's limit as read, in its metric's unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ReadLimit {
    /// Milliseconds (written `2s` or `800ms`).
    Ms(f64),
    /// Percent (written `2%`).
    Pct(f64),
    /// A verdict, by its place in [`VERDICT_NAMES`].
    Verdict(usize),
}

/// An objective's text read: `metric crossing limit`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Read {
    pub(crate) metric: Metric,
    pub(crate) crossing: Crossing,
    pub(crate) limit: ReadLimit,
}

/// Reads `p95>2s`, `median >= 800ms`, `error_rate>2%`, `cv>100%`,
/// `verdict>=cold_starts` (spaces and case do not matter).
///
/// # Errors
/// [`ObjectiveError`], saying what to write instead.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn parse(text: &str) -> Result<Read, ObjectiveError> {
    let mut text: String = text.split_whitespace().collect();
    text.make_ascii_lowercase();
    if text.contains('<') {
        return Err(ObjectiveError::Below);
    }
    let Some((name, value)) = text.split_once('>') else {
        return Err(ObjectiveError::NoComparison);
    };
    let (crossing, value) = match value.strip_prefix('=') {
        Some(value) => (Crossing::AtOrAbove, value),
        None => (Crossing::Above, value),
    };
    let metric = METRIC_NAMES
        .iter()
        .find(|(known, _)| *known == name)
        .map(|&(_, metric)| metric)
        .ok_or_else(|| ObjectiveError::UnknownMetric(name.to_owned()))?;
    let limit = match metric {
        Metric::Verdict => ReadLimit::Verdict(
            VERDICT_NAMES
                .iter()
                .position(|known| {
                    // `some-variance` reads as `some_variance`.
                    known.len() == value.len()
                        && known
                            .bytes()
                            .zip(value.bytes())
                            .all(|(k, v)| k == v || (k == b'_' && v == b'-'))
                })
                .ok_or_else(|| ObjectiveError::BadVerdict(value.to_owned()))?,
        ),
        Metric::Cv | Metric::ErrorRate => ReadLimit::Pct(
            value
                .strip_suffix('%')
                .and_then(number)
                .ok_or_else(|| ObjectiveError::BadPercent(value.to_owned()))?,
        ),
        _ => {
            // A time, with its unit.
            let (figure, ms) = match value.strip_suffix("ms") {
                Some(figure) => (figure, 1.0),
                None => (value.strip_suffix('s').unwrap_or("-"), 1000.0),
            };
            ReadLimit::Ms(
                number(figure).ok_or_else(|| ObjectiveError::BadTime(value.to_owned()))? * ms,
            )
        }
    };
    Ok(Read {
        metric,
        crossing,
        limit,
    })
}

/// Every name a metric goes by.
const METRIC_NAMES: [(&str, Metric); 9] = [
    ("median", Metric::Median),
    ("p50", Metric::Median),
    ("p90", Metric::P90),
    ("p95", Metric::P95),
    ("p99", Metric::P99),
    ("cv", Metric::Cv),
    ("error_rate", Metric::ErrorRate),
    ("errors", Metric::ErrorRate),
    ("verdict", Metric::Verdict),
];

#[cfg_attr(target_arch = "wasm32", inline)]
fn number(text: &str) -> Option<f64> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
}

/// The question a TTFT quantile objective asks: is at least `level` of a
/// target's measured requests within `budget_ms`? `p95>2s` is met when at
/// least 95 % take at most 2 s; `p95>=2s`, which fails at 2 s itself, when
/// at least 95 % take less than 2 s. A failed request is never within.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShareObjective {
    /// The quantile's metric (median, p90, p95, p99).
    pub metric: Metric,
    /// `>` or `>=`, as written.
    pub crossing: Crossing,
    /// The share of requests the quantile stands for (0.95 for the p95).
    pub level: f64,
    /// The limit, ms.
    pub budget_ms: f64,
}

impl ShareObjective {
    /// The question `text` asks, when it is a TTFT quantile objective;
    /// `None` for any other objective (judged at the run's end) and for a
    /// text that does not read as one.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(text: &str) -> Option<Self> {
        let read = parse(text).ok()?;
        match (read.metric.quantile(), read.limit) {
            (Some(level), ReadLimit::Ms(budget_ms)) => Some(Self {
                metric: read.metric,
                crossing: read.crossing,
                level,
                budget_ms,
            }),
            _ => None,
        }
    }

    /// The longest TTFT, ms, that counts as within: the budget for `>`,
    /// the float just below it for `>=` (a TTFT exactly at the limit
    /// crosses it).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn within_ms(&self) -> f64 {
        match self.crossing {
            Crossing::Above => self.budget_ms,
            Crossing::AtOrAbove => self.budget_ms.next_down(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantile_objective_asks_for_a_share_and_the_others_ask_nothing() {
        let p95 = ShareObjective::of("p95>2s").unwrap();
        assert_eq!(
            (p95.metric, p95.level, p95.budget_ms),
            (Metric::P95, 0.95, 2000.0)
        );
        assert_eq!(p95.within_ms(), 2000.0);
        let median = ShareObjective::of(" P50 >= 800ms ").unwrap();
        assert_eq!((median.metric, median.level), (Metric::Median, 0.5));
        assert!(median.within_ms() < 800.0 && median.within_ms() > 799.999);
        assert_eq!(ShareObjective::of("p99>1.5s").unwrap().level, 0.99);
        assert_eq!(ShareObjective::of("p90>1s").unwrap().level, 0.9);
        for other in [
            "cv>100%",
            "error_rate>2%",
            "verdict>=cold_starts",
            "p95>2",
            "p97>2s",
        ] {
            assert_eq!(ShareObjective::of(other), None, "{other}");
        }
    }

    #[test]
    fn every_text_reads_or_says_why_not() {
        assert_eq!(
            parse("verdict>=some-variance").unwrap().limit,
            ReadLimit::Verdict(1)
        );
        assert_eq!(parse("errors>2%").unwrap().metric, Metric::ErrorRate);
        assert_eq!(parse("p95=2s"), Err(ObjectiveError::NoComparison));
        assert_eq!(parse("p95<=2s"), Err(ObjectiveError::Below));
        assert_eq!(parse("cv>1"), Err(ObjectiveError::BadPercent("1".into())));
    }
}
