// Synthetic monitor directories for the dashboard tests and benchmark: what
// `firsttoken publish` leaves behind after days of hourly runs from several
// vantages (results v1 files, one per vantage and UTC day, each with its
// points file, and index.json).
// Deterministic for a seed; the TTFTs have a daily rhythm (slower in the
// vantage's working hours), cold starts, errors and one outage, so every
// dashboard view has something to show.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seededRandom } from "./harness.mjs";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const MONITOR_TARGETS = [
  { label: "Acme Cloud · deepseek-v3", base_url: "https://acme.example/v1", model: "deepseek-v3", median_ms: 380, cold: 0.0 },
  { label: "Borealis AI · deepseek-v3", base_url: "https://borealis.example/v1", model: "deepseek-v3", median_ms: 520, cold: 0.05 },
  { label: "Cumulus · kimi-k2", base_url: "https://cumulus.example/v1", model: "kimi-k2", median_ms: 640, cold: 0.0 },
  { label: "Acme Cloud · kimi-k2", base_url: "https://acme.example/v1", model: "kimi-k2", median_ms: 450, cold: 0.02 },
  { label: "Borealis AI · qwen3-235b", base_url: "https://borealis.example/v1", model: "qwen3-235b", median_ms: 300, cold: 0.0 },
  { label: "Cumulus · glm-4.6", base_url: "https://cumulus.example/v1", model: "glm-4.6", median_ms: 900, cold: 0.08 },
];

function plan(targets, perTarget, warmup) {
  return {
    firsttoken_plan: 1,
    targets: targets.map((t) => ({ label: t.label, protocol: "openai", base_url: t.base_url, model: t.model, provider: null })),
    requests_per_target: perTarget, warmup_per_target: warmup, spacing_s: 5, jitter_s: 0,
    spread_hours: null, timeout_s: 120, prompt: "Reply with one short sentence: what is the capital of France?",
    nonce: false, max_tokens: 16, temperature: 0, reasoning_counts_as_first_token: false, peak_hours: [9, 18],
  };
}

/**
 * One results file holding `runs` hourly runs of one vantage from `startMs`:
 * each run sends `warmup` + `perTarget` requests per target, interleaved.
 */
export function monitorResults({ vantage, vantageIndex = 0, startMs, runs = 24, perTarget = 10, warmup = 1, seed = 1, targets = MONITOR_TARGETS, outage = null }) {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const samples = [];
  const seq = new Array(targets.length).fill(0);
  for (let run = 0; run < runs; run++) {
    const runStart = startMs + run * HOUR;
    const utcHour = new Date(runStart).getUTCHours();
    // Busier (slower) in this vantage's working hours.
    const localHour = (utcHour + 24 + (vantageIndex === 0 ? 1 : 8)) % 24;
    const busy = localHour >= 9 && localHour < 18 ? 1.25 : 1.0;
    for (let k = 0; k < (warmup + perTarget) * targets.length; k++) {
      const t = k % targets.length;
      const shape = targets[t];
      const at = runStart + k * 5000 + Math.floor(random() * 40);
      const down = outage && outage.target === t && runStart >= outage.fromMs && runStart < outage.toMs;
      const failed = down || random() < 0.004;
      const cold = !failed && random() < shape.cold;
      const ttft = cold
        ? 4000 + 3000 * random()
        : shape.median_ms * busy * (1 + 0.12 * vantageIndex) * Math.exp(0.18 * normal());
      const s = seq[t]++;
      samples.push({
        target: t, seq: s, warmup: s % (warmup + perTarget) < warmup,
        planned_at_ms: at, sent_at_ms: at + 1.5, hidden: false,
        headers_ms: failed ? 30.5 : ttft * 0.4,
        first_byte_ms: failed ? null : ttft * 0.9,
        first_reasoning_ms: null,
        ttft_ms: failed ? null : Math.round(ttft * 1000) / 1000,
        second_token_ms: failed ? null : ttft + 21,
        total_ms: failed ? 31 : ttft + 420,
        output_tokens: failed ? null : 14,
        tokens_estimated: false,
        error: failed ? { kind: "http_status", phase: "request", message: "the provider answered HTTP 503: overloaded; try again later" } : null,
      });
    }
  }
  return {
    firsttoken_results: 1,
    plan: plan(targets, perTarget * runs, warmup * runs),
    environment: { user_agent: "firsttoken-cli synthetic", time_zone: "UTC", tz_offset_min: 0, page_version: "synthetic", started_at_ms: startMs, runner: "cli", vantage },
    samples,
    summary: [],
  };
}

const iso = (ms) => new Date(ms).toISOString().slice(0, 10);

/**
 * The points file of a results document (`firsttoken_points` version 1, as
 * `PointsDoc::from_results` in crates/core/src/documents/publish.rs writes it): measured
 * requests only, column by column, errors as null TTFTs.
 */
export function pointsOf(doc) {
  const measured = doc.samples.filter((s) => !s.warmup && (s.error || s.ttft_ms !== null));
  return {
    firsttoken_points: 1,
    vantage: doc.environment.vantage ?? "",
    reasoning_counts_as_first_token: doc.plan.reasoning_counts_as_first_token,
    targets: doc.plan.targets.map(({ label, protocol, base_url, model }) => ({ label, protocol, base_url, model })),
    warmups: doc.samples.length - doc.samples.filter((s) => !s.warmup).length,
    without_ttft: doc.samples.filter((s) => !s.warmup && !s.error && s.ttft_ms === null).length,
    target: measured.map((s) => s.target),
    sent_at_ms: measured.map((s) => s.sent_at_ms),
    ttft_ms: measured.map((s) => (s.error ? null : s.ttft_ms)),
  };
}

/**
 * Writes `days` days of hourly runs from each of `vantages` into `dir`,
 * ending at `endMs`, laid out as the retention rule of `firsttoken publish`
 * leaves them (crates/core/src/documents/publish.rs): one file per vantage and month for
 * finished months (`months/YYYY-MM.VANTAGE.json`), one per vantage and day
 * for the current month (`days/YYYY-MM-DD.VANTAGE.json`), each with its
 * points file, and `index.json`. Returns { files, measured, warmups }.
 */
export function writeMonitorDir(dir, { vantages = ["fra1", "sgp1"], days = 14, endMs = Date.now(), perTarget = 10, warmup = 1, targets = MONITOR_TARGETS, scheduleMinutes = 60, points = true } = {}) {
  mkdirSync(join(dir, "days"), { recursive: true });
  mkdirSync(join(dir, "months"), { recursive: true });
  const lastDay = Math.floor(endMs / DAY) * DAY;
  const firstDay = lastDay - (days - 1) * DAY;
  const endMonth = new Date(lastDay).toISOString().slice(0, 7);
  // Periods: [startMs, hours, file stem].
  const periods = [];
  for (let d = 0; d < days; d++) {
    const dayMs = firstDay + d * DAY;
    // The last day stops at the hour before endMs, as a live monitor would.
    const hours = d === days - 1 ? Math.max(1, Math.floor((endMs - dayMs) / HOUR)) : 24;
    const month = iso(dayMs).slice(0, 7);
    const last = periods.at(-1);
    if (month !== endMonth && last?.stem === `months/${month}`) last.hours += hours;
    else periods.push({ startMs: dayMs, hours, stem: month === endMonth ? `days/${iso(dayMs)}` : `months/${month}` });
  }
  const runs = [];
  let measured = 0;
  let warmups = 0;
  const outage = { target: 2, fromMs: firstDay + Math.floor(days / 2) * DAY + 3 * HOUR, toMs: firstDay + Math.floor(days / 2) * DAY + 9 * HOUR };
  periods.forEach(({ startMs, hours, stem }, p) => {
    vantages.forEach((vantage, v) => {
      const doc = monitorResults({ vantage, vantageIndex: v, startMs, runs: hours, perTarget, warmup, seed: p * 31 + v + 7, targets, outage });
      const file = `${stem}.${vantage}.json`;
      writeFileSync(join(dir, file), JSON.stringify(doc));
      const pointsFile = `${stem}.${vantage}.points.json`;
      if (points) writeFileSync(join(dir, pointsFile), JSON.stringify(pointsOf(doc)));
      let first = Infinity;
      let lastMs = -Infinity;
      for (const s of doc.samples) {
        first = Math.min(first, s.sent_at_ms);
        lastMs = Math.max(lastMs, s.sent_at_ms);
        s.warmup ? warmups++ : measured++;
      }
      runs.push({
        file, vantage, first_sample_ms: first, last_sample_ms: lastMs,
        targets: doc.plan.targets.map((t) => t.label), samples: doc.samples.length, runs: hours,
        ...(points ? { points: pointsFile } : {}),
      });
    });
  });
  writeFileSync(join(dir, "index.json"), JSON.stringify({ firsttoken_index: 1, schedule_minutes: scheduleMinutes, runs }, null, 2));
  return { files: runs.length, measured, warmups };
}
