//! The results' `environment` for a native run: what ran, where, when.

use firsttoken_core::documents::results::{Environment, RunnerKind};
use firsttoken_core::judgement::timeofday::{PeakZone, parse_peak_tz};
use firsttoken_core::planning::plan::Plan;

/// The runner's identity, in the field the page fills with its user agent.
pub fn user_agent() -> String {
    format!(
        "firsttoken/{} ({}; {})",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// The environment of a run that starts at `started_at_ms` (epoch ms),
/// made from `vantage` (`--vantage`).
pub fn environment(started_at_ms: f64, vantage: Option<String>, plan: &Plan) -> Environment {
    let zone = jiff::tz::TimeZone::system();
    // A named peak zone is resolved once, at the start, with the system's
    // zone database; an offset needs no resolving.
    let peak_tz_offset_min = match plan.peak_tz.as_deref().and_then(parse_peak_tz) {
        Some(PeakZone::Named(name)) => jiff::tz::TimeZone::get(&name).ok().and_then(|named| {
            jiff::Timestamp::from_millisecond(started_at_ms as i64)
                .ok()
                .map(|at| named.to_offset(at).seconds() / 60)
        }),
        _ => None,
    };
    let time_zone = zone.iana_name().unwrap_or("UTC").to_owned();
    let tz_offset_min = jiff::Timestamp::from_millisecond(started_at_ms as i64)
        .map(|at| zone.to_offset(at).seconds() / 60)
        .unwrap_or(0);
    Environment {
        user_agent: user_agent(),
        time_zone,
        tz_offset_min,
        page_version: env!("CARGO_PKG_VERSION").to_owned(),
        started_at_ms,
        runner: RunnerKind::Cli,
        vantage,
        peak_tz_offset_min,
        schedule_shift_ms: None,
    }
}
