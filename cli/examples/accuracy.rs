//! Measurement accuracy of the native runner: how close its TTFT is to the
//! moment the mock provider actually sent the first token.
//!
//! The mock runs in this process (its own threads, a loopback port); N
//! requests of script `fixed@50` (OpenAI protocol) go through the runner's
//! own path (`firsttoken_cli::measure::measure` over its HTTP client, the
//! connection reused as in a run), each after a 25 ms idle gap, after 5
//! warm-ups. Each is compared with the mock's ground truth,
//! `first_token_ms − received_ms`, the same definition as the page's
//! benchmark. Budget: median TTFT − ground truth ≤ 1.0 ms.
//!
//!   cargo run --release -p firsttoken-cli --example accuracy -- [--n 300] [--no-write]
//!
//! Writes its section of `docs/accuracy.md` (between the `native-runner`
//! markers) unless `--no-write`; exits 1 when the budget is exceeded. Not a
//! timed test: run it on a quiet machine (`make bench-accuracy-cli`).

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use firsttoken_cli::measure::{MeasureOptions, Measured, measure};
use firsttoken_cli::net::Client;
use firsttoken_cli::run::stop_signal;
use firsttoken_core::planning::plan::{Plan, Target};
use firsttoken_core::wire::protocol::build_request;
use firsttoken_mock::MockConfig;

const BUDGET_MS: f64 = 1.0;
const SCRIPT: &str = "fixed@50";
const WARMUP: usize = 5;
const IDLE_GAP: Duration = Duration::from_millis(25);
const BEGIN: &str = "<!-- native-runner:begin -->";
const END: &str = "<!-- native-runner:end -->";

/// The percentile `q` (0–1) by linear interpolation, as numpy's default.
fn quantile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    firsttoken_core::base::order::sort_numbers(&mut sorted);
    firsttoken_core::statistics::stats::percentile(&sorted, q * 100.0).unwrap_or(f64::NAN)
}

struct Row {
    name: &'static str,
    values: Vec<f64>,
}

fn main() -> std::process::ExitCode {
    match bench() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::ExitCode::from(2)
        }
    }
}

fn bench() -> Result<std::process::ExitCode, String> {
    let mut n = 300usize;
    let mut write = true;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--n" => n = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            "--no-write" => write = false,
            _ => n = 0,
        }
    }
    if n < 2 {
        return Err("usage: accuracy [--n N ≥ 2] [--no-write]".to_owned());
    }
    let load_before = load_average();
    let mock = firsttoken_mock::start(MockConfig::default()).map_err(|e| e.to_string())?;
    let target = Target::openai("bench", &format!("{}/v1", mock.base_url()), SCRIPT);
    let plan = Plan {
        targets: vec![target.clone()],
        timeout_s: 10.0,
        ..Plan::default()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let request = build_request(&target, &plan, Some("sk-bench-not-a-real-key"), None);
    let options = MeasureOptions {
        protocol: target.protocol,
        reasoning_counts_as_first_token: false,
        timeout_s: plan.timeout_s,
        fresh_connection: false,
    };
    let mut client = Client::new(false);
    let (_stop, mut stopped) = stop_signal();
    let mut run = |count: usize| -> Vec<Measured> {
        runtime.block_on(async {
            let mut all = Vec::with_capacity(count);
            for i in 0..count {
                tokio::time::sleep(IDLE_GAP).await;
                all.push(measure(&mut client, &request, options, &mut stopped).await);
                if (i + 1) % 100 == 0 {
                    eprintln!("{} / {count}", i + 1);
                }
            }
            all
        })
    };
    let warmups = run(WARMUP);
    let first_connection = warmups.first().and_then(|m| m.opened);
    mock.settled_ground_truth(Duration::from_secs(5));
    mock.reset();
    let measured = run(n);
    let truth = mock.settled_ground_truth(Duration::from_secs(5)).requests;
    if truth.len() != n {
        return Err(format!(
            "the mock recorded {} requests, expected {n}",
            truth.len()
        ));
    }
    let mut ttft = Vec::new();
    let mut headers = Vec::new();
    let mut first_byte = Vec::new();
    let mut reused = 0;
    for (i, (m, t)) in measured.iter().zip(&truth).enumerate() {
        let failed = || format!("request {i} did not complete as scripted: {m:?} / {t:?}");
        if m.outcome.error.is_some() || t.status != 200 || t.script.as_deref() != Some(SCRIPT) {
            return Err(failed());
        }
        let pair = |measured: Option<f64>, truth: Option<f64>| match (measured, truth) {
            (Some(measured), Some(truth)) => Ok(measured - (truth - t.received_ms)),
            _ => Err(failed()),
        };
        reused += usize::from(m.opened.is_none());
        ttft.push(pair(m.outcome.ttft_ms, t.first_token_ms)?);
        headers.push(pair(m.outcome.headers_ms, t.headers_ms)?);
        first_byte.push(pair(m.outcome.first_byte_ms, t.first_byte_ms)?);
    }
    let load_after = load_average();
    let rows = [
        Row {
            name: "runner TTFT − ground truth",
            values: ttft,
        },
        Row {
            name: "runner first byte − ground truth first byte",
            values: first_byte,
        },
        Row {
            name: "runner headers − ground truth headers",
            values: headers,
        },
    ];
    let mut table =
        String::from("| Difference (ms) | median | p95 | min | max |\n|---|---:|---:|---:|---:|\n");
    for row in &rows {
        let _ = writeln!(
            table,
            "| {} | {:.3} | {:.3} | {:.3} | {:.3} |",
            row.name,
            quantile(&row.values, 0.5),
            quantile(&row.values, 0.95),
            quantile(&row.values, 0.0),
            quantile(&row.values, 1.0)
        );
    }
    let median = quantile(&rows[0].values, 0.5);
    let met = median <= BUDGET_MS;
    let verdict = format!(
        "Runner TTFT − ground truth, median: **{median:.3} ms**; budget ≤ {BUDGET_MS} ms: **{}**.",
        if met { "met" } else { "exceeded" }
    );
    let connection = first_connection.map_or_else(
        || "not recorded".to_owned(),
        |p| {
            format!(
                "TCP connect {:.3} ms{}{}",
                p.connect_ms,
                p.dns_ms
                    .map(|d| format!(", DNS {d:.3} ms"))
                    .unwrap_or_default(),
                p.tls_ms
                    .map(|t| format!(", TLS {t:.3} ms"))
                    .unwrap_or_default()
            )
        },
    );
    println!(
        "N = {n} requests, script {SCRIPT}, OpenAI protocol, {reused} on a reused connection\n"
    );
    println!("{table}");
    println!("{}", verdict.replace("**", ""));
    println!("first connection (warm-up): {connection}");
    if write {
        let section = section(
            n,
            reused,
            &table,
            &verdict,
            &connection,
            load_before,
            load_after,
        );
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/accuracy.md");
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let new = match (old.find(BEGIN), old.find(END)) {
            (Some(begin), Some(end)) if begin < end => {
                format!("{}{section}{}", &old[..begin], &old[end + END.len()..])
            }
            _ => format!("{}\n{section}\n", old.trim_end()),
        };
        std::fs::write(&path, new).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("written to docs/accuracy.md");
    }
    Ok(if met {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(1)
    })
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}

fn section(
    n: usize,
    reused: usize,
    table: &str,
    verdict: &str,
    connection: &str,
    load_before: String,
    load_after: String,
) -> String {
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let date = jiff::Zoned::now().strftime("%Y-%m-%d");
    format!(
        "{BEGIN}
## Native runner (`firsttoken`)

The same question for the native runner: how close is its TTFT to the moment the mock sent the
first token? Written by `cli/examples/accuracy.rs` (`make bench-accuracy-cli`).

- The mock provider runs in the benchmark's process (its own threads, a loopback port); every
  request uses script `{SCRIPT}` (OpenAI protocol), as the page's benchmark does.
- Each request goes through the runner's own path: `firsttoken_cli::measure::measure` over its
  HTTP client (hyper 1 on tokio, one thread), the connection reused as in a run, after a 25 ms
  idle gap; {WARMUP} warm-ups (the first opens the connection) are not counted.
- Ground truth as for the page: `first_token_ms − received_ms` on the mock's monotonic clock. The
  runner's TTFT also holds the request's way to the mock and the token's way back, so the
  difference is positive by construction; the runner's clock is `std::time::Instant` (ns steps).

Machine: {cores} logical cores, Linux; release build. Load: 1-minute load average {load_before}
before, {load_after} after. Date: {date}. N = {n} requests ({reused} on a reused connection).

{table}
{verdict}

First connection (the first warm-up; loopback, an IP literal, plain HTTP): {connection}.

```
make bench-accuracy-cli     # cargo run --release -p firsttoken-cli --example accuracy -- --n 300
cargo run --release -p firsttoken-cli --example accuracy -- --n 300 --no-write   # prints only
```
{END}"
    )
}
