//! Sample renders for `docs/charts/`, run on demand:
//!
//! ```text
//! cargo test -p firsttoken-chart --lib samples -- --ignored --nocapture   # writes docs/charts/*.svg
//! ```

use plotters::prelude::{IntoDrawingArea, SVGBackend};

use super::axis::percentile;
use super::test_support::sample_ttft_ms;
use super::*;

fn provider_series(label: &str, n: usize, seed: u64, tail_every: usize, scale: f64) -> Series {
    Series {
        label: label.into(),
        ttft_ms: sample_ttft_ms(n, seed, tail_every)
            .iter()
            .map(|v| v * scale)
            .collect(),
        colour_index: 0,
    }
}

/// `series` with each in its own colour, in order.
fn coloured(series: impl IntoIterator<Item = Series>) -> Vec<Series> {
    series
        .into_iter()
        .enumerate()
        .map(|(colour_index, s)| Series { colour_index, ..s })
        .collect()
}

fn ecdf_input(n: usize) -> EcdfInput {
    EcdfInput {
        title: "llama-3.3-70b · TTFT by provider".into(),
        series: coloured([
            provider_series("Provider A", n, 1, 0, 0.9),
            provider_series("Provider B", n, 2, 19, 1.0),
            provider_series("Provider C", n, 3, 0, 2.1),
            provider_series("Provider D", n, 4, 8, 1.3),
        ]),
    }
}

fn histogram_input(n: usize) -> HistogramInput {
    let ttft_ms = sample_ttft_ms(n, 2, 19);
    let mut sorted = ttft_ms.clone();
    firsttoken_core::base::order::sort_numbers(&mut sorted);
    HistogramInput {
        title: "TTFT distribution".into(),
        series_label: "Provider B · llama-3.3-70b".into(),
        median_ms: percentile(&sorted, 50.0),
        p95_ms: percentile(&sorted, 95.0),
        ttft_ms,
        colour_index: 1,
    }
}

fn timeline_input(per_target: usize, targets: usize, spacing_ms: f64) -> TimelineInput {
    let start_ms = 1_750_000_000_000.0;
    let series: Vec<Series> = (0..targets)
        .map(|t| {
            provider_series(
                &format!("Provider {}", char::from(b'A' + (t % 26) as u8)),
                per_target,
                t as u64 + 1,
                [0, 19, 0, 8][t % 4],
                1.0,
            )
        })
        .collect();
    let mut points = Vec::with_capacity(per_target * targets);
    for i in 0..per_target {
        for (t, s) in series.iter().enumerate() {
            let index = i * targets + t;
            let ttft = s.ttft_ms.get(i).copied();
            let error = (index * 7919) % 97 == 3;
            points.push(TimelinePoint {
                at_ms: start_ms + index as f64 * spacing_ms,
                series: t,
                ttft_ms: if error { None } else { ttft },
                tail: ttft.is_some_and(|v| v > 3_000.0),
                error,
            });
        }
    }
    TimelineInput {
        title: "TTFT per request over time".into(),
        start_ms,
        points,
        series_labels: series.into_iter().map(|s| s.label).collect(),
        axes: None,
    }
}

fn spread_input(n: usize, targets: usize) -> SpreadInput {
    let names = [
        "DigitalOcean",
        "Together",
        "Fireworks",
        "DeepInfra",
        "OpenRouter",
        "Groq",
    ];
    SpreadInput {
        title: "TTFT by target · llama-3.3-70b".into(),
        series: coloured((0..targets).map(|t| {
            let name = format!("{} · llama-3.3-70b", names[t % names.len()]);
            provider_series(
                &name,
                n,
                t as u64 + 11,
                [0, 19, 0, 8, 40, 0][t % 6],
                [0.9, 1.0, 2.0, 1.3, 0.7, 0.5][t % 6],
            )
        })),
    }
}

fn hourly_input() -> HourlyInput {
    let hours = (0..24u8)
        .filter(|h| !(3..6).contains(h))
        .map(|h| {
            let busy = (9..18).contains(&h);
            let median = if busy { 520.0 } else { 390.0 } + f64::from(h % 5) * 12.0;
            let p95 = if busy {
                2_400.0 + f64::from(h % 4) * 900.0
            } else {
                800.0 + f64::from(h % 3) * 150.0
            };
            HourBucket {
                hour: h,
                n: 40 + usize::from(h % 7) * 3,
                median_ms: Some(median),
                p95_ms: Some(p95),
            }
        })
        .collect();
    HourlyInput {
        title: "TTFT by local hour · Provider B".into(),
        hours,
        peak: [9, 18],
        colour_index: 1,
    }
}

/// Two targets at the gaps 10 s, 1 min, 5 min and 15 min, 20 requests
/// each: one goes cold between 1 and 5 min, one stays warm.
fn idle_input() -> IdleInput {
    let gap = |gap_s: f64, share: f64, interval: (f64, f64), monotone_share: f64| IdleGapPoint {
        gap_s,
        share,
        interval,
        monotone_share,
    };
    IdleInput {
        title: "Cold share by idle gap".into(),
        series: vec![
            IdleSeries {
                label: "Provider A · llama-3.3-70b".into(),
                gaps: vec![
                    gap(10.0, 0.0, (0.0, 0.168), 0.025),
                    gap(60.0, 0.05, (0.001, 0.249), 0.025),
                    gap(300.0, 0.9, (0.683, 0.988), 0.9),
                    gap(900.0, 1.0, (0.832, 1.0), 1.0),
                ],
                colour_index: 0,
            },
            IdleSeries {
                label: "Provider B · llama-3.3-70b".into(),
                gaps: vec![
                    gap(10.0, 0.0, (0.0, 0.168), 0.0),
                    gap(60.0, 0.0, (0.0, 0.168), 0.0),
                    gap(300.0, 0.0, (0.0, 0.168), 0.025),
                    gap(900.0, 0.05, (0.001, 0.249), 0.025),
                ],
                colour_index: 1,
            },
        ],
    }
}

fn write_svg(
    name: &str,
    (width, height): (u32, u32),
    style: &ChartStyle,
    draw: impl FnOnce(&Area<SVGBackend<'_>>, &ChartStyle) -> Result<(), ChartError>,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw(&area, style)?;
        area.present()?;
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/charts");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join(format!("{name}.svg")), svg)?;
    Ok(())
}

#[test]
#[ignore = "writes docs/charts/*.svg; run on demand"]
fn write_samples() -> Result<(), Box<dyn std::error::Error>> {
    let light = ChartStyle::default();
    let dark = ChartStyle {
        dark: true,
        ..ChartStyle::default()
    };
    for (suffix, size) in [("", (800, 420)), ("-400", (400, 340))] {
        write_svg(&format!("histogram{suffix}"), size, &light, |a, s| {
            draw_histogram(a, &histogram_input(100), s)
        })?;
        write_svg(&format!("ecdf{suffix}"), size, &light, |a, s| {
            draw_ecdf(a, &ecdf_input(100), s)
        })?;
        write_svg(&format!("timeline{suffix}"), size, &light, |a, s| {
            draw_timeline(a, &timeline_input(100, 3, 5_000.0), s).map(drop)
        })?;
        write_svg(&format!("spread{suffix}"), size, &light, |a, s| {
            draw_spread(a, &spread_input(100, 6), s)
        })?;
        write_svg(&format!("hourly{suffix}"), size, &light, |a, s| {
            draw_hourly(a, &hourly_input(), s)
        })?;
        write_svg(&format!("idle{suffix}"), size, &light, |a, s| {
            draw_idle(a, &idle_input(), s)
        })?;
    }
    write_svg("ecdf-dark", (800, 420), &dark, |a, s| {
        draw_ecdf(a, &ecdf_input(100), s)
    })?;
    write_svg("timeline-long", (800, 420), &light, |a, s| {
        draw_timeline(a, &timeline_input(200, 4, 20_000.0), s).map(drop)
    })?;
    write_svg("empty", (400, 240), &light, |a, s| {
        draw_ecdf(
            a,
            &EcdfInput {
                title: "llama-3.3-70b · TTFT by provider".into(),
                series: vec![],
            },
            s,
        )
    })?;
    Ok(())
}
