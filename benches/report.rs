//! Times `build_report` on 10 000 samples over 12 targets: the results view
//! must re-render within 50 ms in WebAssembly, so the native figure should be
//! well under 20 ms. Also the results file's export and import at that size.
//! A plain timed loop (no harness): run with `cargo bench --bench report`.

use std::hint::black_box;
use std::time::Instant;

use firsttoken::core::documents::results::{Environment, export_json, import_json};
use firsttoken::core::judgement::report::{build_report, live_row};
use firsttoken::core::planning::plan::{Plan, Target};
use firsttoken::core::statistics::bootstrap::{
    DEFAULT_RESAMPLES, bootstrap_intervals, time_aware_intervals,
};
use firsttoken::core::testing::fixtures::synthetic_samples;

fn main() {
    let targets = 12u32;
    let models = ["deepseek-v3", "kimi-k2", "qwen3-32b", "glm-4.6"];
    let plan = Plan {
        targets: (0..targets)
            .map(|index| {
                Target::openai(
                    &format!("host {index}"),
                    &format!("https://host{index}.example/v1"),
                    models[index as usize % models.len()],
                )
            })
            .collect(),
        ..Plan::default()
    };
    // 12 × (831 + 2) ≈ 10 000 samples.
    let samples = synthetic_samples(targets, 831, 2, 42);
    println!("samples: {}", samples.len());

    for _ in 0..3 {
        black_box(build_report(&plan, &samples, 480, 1));
    }
    let runs = 30;
    let mut times_ms: Vec<f64> = (0..runs)
        .map(|run| {
            let start = Instant::now();
            black_box(build_report(&plan, black_box(&samples), 480, run));
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times_ms.sort_by(f64::total_cmp);
    println!(
        "build_report, 10 000 samples / 12 targets: median {:.2} ms, min {:.2} ms, max {:.2} ms ({runs} runs)",
        times_ms[runs as usize / 2],
        times_ms[0],
        times_ms[runs as usize - 1]
    );

    let one: Vec<_> = samples.iter().filter(|s| s.target == 0).collect();
    let mut ttft_ms: Vec<f64> = one.iter().filter_map(|s| s.counted_ttft_ms()).collect();
    ttft_ms.sort_by(f64::total_cmp);
    let start = Instant::now();
    for seed in 0..100 {
        black_box(bootstrap_intervals(
            black_box(&ttft_ms),
            DEFAULT_RESAMPLES,
            seed,
        ));
    }
    println!(
        "bootstrap_intervals, {} values × {DEFAULT_RESAMPLES} resamples: {:.3} ms each",
        ttft_ms.len(),
        start.elapsed().as_secs_f64() * 10.0
    );

    // The same values in send order, resampled in blocks as a run spread
    // over hours is (docs/statistics.md).
    let in_order: Vec<f64> = one.iter().filter_map(|s| s.counted_ttft_ms()).collect();
    let start = Instant::now();
    for seed in 0..100 {
        black_box(time_aware_intervals(
            black_box(&in_order),
            2.0 * 3_600_000.0,
            DEFAULT_RESAMPLES,
            seed,
            None,
        ));
    }
    println!(
        "time_aware_intervals (blocks), {} values × {DEFAULT_RESAMPLES} resamples: {:.3} ms each",
        in_order.len(),
        start.elapsed().as_secs_f64() * 10.0
    );

    let start = Instant::now();
    for _ in 0..1000 {
        black_box(live_row(black_box(one.iter().copied()), 100, 120_000.0));
    }
    println!(
        "live_row, {} samples: {:.1} µs each",
        one.len(),
        start.elapsed().as_secs_f64() * 1000.0
    );

    let environment = Environment::default();
    let text = export_json(&plan, &environment, &samples);
    let export_ms = median_ms(|| {
        black_box(export_json(&plan, &environment, black_box(&samples)));
    });
    let import_ms = median_ms(|| {
        black_box(import_json(black_box(&text)).is_ok());
    });
    println!(
        "results file, {} samples ({:.1} MB): export {export_ms:.1} ms, import {import_ms:.1} ms, median of 15",
        samples.len(),
        text.len() as f64 / 1e6
    );
}

/// Median wall time of 15 calls of `f`, ms.
fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
