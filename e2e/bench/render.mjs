// Render budget benchmark (not a timed test): how long the page's main thread
// works when
//   1. the results view (every table and chart) re-renders with 10 000
//      samples over 12 targets — budget 50 ms — and
//   2. one sample arrives during a run that already holds ~10 000 samples —
//      budget 5 ms.
// Run with `make bench-render` (builds the page and the mock first), or
// `cd e2e && node bench/render.mjs` once both are built. Figures are printed
// and written to e2e/out/render.json; docs/render.md explains them.
//
// The page marks its own steps with performance.mark (src/browser/clock.rs):
// `firsttoken:dispatch` when an action enters the reducer,
// `firsttoken:charts-drawn` when the charts' effect has drawn every canvas,
// `firsttoken:results-rendered` / `firsttoken:run-rendered` after a render of
// the results / run view is committed (effects run child first, so the
// results mark comes after the charts are drawn).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  startServers, launch, openPage, outDir, planFragment, quickPlan, openaiTarget, syntheticResults,
} from "../tests/harness.mjs";

const RERENDERS = Number(process.env.RERENDERS || 20);
const LIVE_SAMPLES = Number(process.env.LIVE_SAMPLES || 60);
const RESULTS_BUDGET_MS = 50;
const LIVE_BUDGET_MS = 5;

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => {
    const h = ((sorted.length - 1) * p) / 100;
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  };
  const round = (v) => Math.round(v * 100) / 100;
  return { n: sorted.length, median: round(at(50)), p95: round(at(95)), min: round(sorted[0]), max: round(sorted.at(-1)) };
}

/** Records every User Timing mark and long task, from the page's first script on. */
const OBSERVER = () => {
  window.__marks = [];
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__marks.push([e.name, e.startTime]);
  }).observe({ type: "mark" });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask" });
  } catch {
    // No Long Tasks API: the list stays empty.
  }
};

/** The time of the first mark `name` after `after` ms, waiting up to 10 s. */
const markAfter = async (page, name, after) =>
  page.evaluate(
    async ([name, after]) => {
      const deadline = performance.now() + 10_000;
      for (;;) {
        const found = window.__marks.find(([n, t]) => n === name && t > after);
        if (found) return found[1];
        if (performance.now() > deadline) throw new Error(`no ${name} mark after ${after}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    [name, after],
  );

async function resultsRerender(browser, site) {
  const page = await openPage(browser, site, { width: 1280, height: 900 });
  await page.evaluate(OBSERVER);
  const doc = syntheticResults({ targets: 12, samples: 10_000, hours: 6 });
  const file = resolve(outDir, "bench-results-10k.json");
  writeFileSync(file, JSON.stringify(doc));
  const t0 = await page.evaluate(() => performance.now());
  await page.setInputFiles("#import-results", file);
  await page.waitForSelector("table.comparison");
  const firstDrawn = await markAfter(page, "firsttoken:results-rendered", t0);
  const dispatched = await page.evaluate((t0) => window.__marks.filter(([n, t]) => n === "firsttoken:dispatch" && t > t0).at(-1)[1], t0);
  const charts = await page.$$eval("figure.chart canvas", (cs) => cs.length);
  const rows = await page.$$eval("table.comparison tbody tr", (rs) => rs.length);

  const script = [];
  const frame = [];
  const marked = [];
  const frameRender = [];
  const total = [];
  for (let i = 0; i < RERENDERS; i++) {
    const lang = i % 2 === 0 ? "zh-CN" : "en";
    const timing = await page.evaluate(async (lang) => {
      const macrotask = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
      const button = document.querySelector(`button.lang[lang="${lang}"]`);
      // The page keeps only the latest mark of each name in the timeline.
      const last = (name) => performance.getEntriesByName(name, "mark").filter((e) => e.startTime >= t0).map((e) => e.startTime);
      const t0 = performance.now();
      button.click();
      // Yew renders in a task of its own after the click: wait for its mark.
      while (last("firsttoken:results-rendered").length === 0) {
        if (performance.now() - t0 > 10_000) throw new Error("no render after the click");
        await macrotask();
      }
      const scriptDone = performance.now();
      // The next frame: from its animation-frame callback to the first task
      // after it, the browser recalculates style, lays out and paints.
      const frameStart = await new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      await macrotask();
      const framed = performance.now();
      return {
        t0, scriptMs: scriptDone - t0, frameMs: framed - t0, frameRenderMs: framed - frameStart,
        dispatch: last("firsttoken:dispatch")[0], charts: last("firsttoken:charts-drawn").at(-1), results: last("firsttoken:results-rendered").at(-1),
      };
    }, lang);
    if (timing.dispatch === undefined || timing.results === undefined || timing.charts === undefined) {
      throw new Error(`re-render ${i} left no marks: ${JSON.stringify(timing)}`);
    }
    script.push(timing.scriptMs);
    frame.push(timing.frameMs);
    marked.push(timing.results - timing.dispatch);
    frameRender.push(timing.frameRenderMs);
    total.push(timing.results - timing.dispatch + timing.frameRenderMs);
  }
  const longTasks = await page.evaluate(() => window.__longTasks.length);
  assertNoProblems(page);
  await page.context().close();
  return {
    samples: doc.samples.length, targets: doc.plan.targets.length, charts, comparison_rows: rows,
    import_to_drawn_ms: Math.round((firstDrawn - t0) * 10) / 10,
    import_dispatch_to_drawn_ms: Math.round((firstDrawn - dispatched) * 10) / 10,
    rerender_dispatch_to_drawn_ms: stats(marked),
    rerender_next_frame_render_ms: stats(frameRender),
    rerender_main_thread_ms: stats(total),
    rerender_click_to_idle_ms: stats(script),
    rerender_click_to_next_frame_ms: stats(frame),
    long_tasks_seen: longTasks,
  };
}

/**
 * A run holding ~10 000 samples, then live: start a real run against the
 * mock, pause it, store 10 008 finished samples for it in IndexedDB the way
 * the page does, reload and resume. Every later sample is one live update.
 */
async function liveUpdate(browser, servers) {
  const perTarget = 834;
  const targets = Array.from({ length: 12 }, (_, i) => openaiTarget(servers.mock, "fixed@1", `Target ${i + 1}`));
  const plan = quickPlan(targets, { requests_per_target: perTarget + 10, warmup_per_target: 0, spacing_s: 0, timeout_s: 10 });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(OBSERVER);
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(`pageerror: ${e.message}`));
  await page.goto(`${servers.site}#${planFragment(plan)}`);
  await page.waitForSelector("#start:not([disabled])");
  await page.click("#start");
  // A fresh run: its stored record holds the whole schedule, rewritten after every sample.
  await page.waitForFunction(() => Number(document.querySelector("#progress-text")?.textContent.split(" ")[0]) >= 25, null, { timeout: 60_000 });
  const fresh = await page.evaluate(PAIRS);
  await page.getByRole("button", { name: "Pause" }).click();
  await page.waitForSelector('.run-status[data-status="paused"]');

  const freshRecordBytes = await page.evaluate(RECORD_BYTES);
  const stored = syntheticResults({ targets: 12, samples: 12 * perTarget, hours: 2, warmup: 0 }).samples;
  const written = await page.evaluate(async (samples) => {
    const db = await new Promise((ok, fail) => {
      const open = indexedDB.open("firsttoken");
      open.onsuccess = () => ok(open.result);
      open.onerror = () => fail(open.error);
    });
    const runs = await new Promise((ok) => {
      const request = db.transaction("runs").objectStore("runs").getAll();
      request.onsuccess = () => ok(request.result.map((json) => JSON.parse(json)));
    });
    const runId = runs[0].run_id;
    const tx = db.transaction("samples", "readwrite");
    const store = tx.objectStore("samples");
    const pad = (n, w) => String(n).padStart(w, "0");
    for (const s of samples) store.put(JSON.stringify(s), `${runId}/${pad(s.target, 4)}/${pad(s.seq, 6)}`);
    await new Promise((ok, fail) => { tx.oncomplete = ok; tx.onerror = () => fail(tx.error); });
    return samples.length;
  }, stored);

  await page.reload();
  await page.getByRole("button", { name: "History" }).click();
  const beforeResume = await page.evaluate(() => performance.now());
  await page.click("#resume-run");
  await page.waitForSelector("#live-table");
  // The resumed run's first renders draw the live timeline's whole frame
  // with every stored sample: the cost a new frame has at this size.
  await page.waitForFunction(() => Number(document.getElementById("live-timeline")?.dataset.samples ?? 0) > 10_000);
  const startDone = await page.evaluate(() => Number(document.querySelector("#progress-text").textContent.split(" ")[0]));
  const since = await page.evaluate(() => performance.now());
  const resume = await page.evaluate(PAIRS, beforeResume);
  await page.waitForFunction(
    ([start, more]) => Number(document.querySelector("#progress-text").textContent.split(" ")[0]) >= start + more,
    [startDone, LIVE_SAMPLES],
    { timeout: 120_000 },
  );
  const recordBytes = await page.evaluate(RECORD_BYTES);
  const { updates, bookkeeping, longTasks } = await page.evaluate(PAIRS, since);
  assertNoProblems(page);
  await context.close();
  return {
    samples_in_run: startDone, stored_samples: written, live_updates: updates.length, run_record_bytes_fresh: freshRecordBytes, run_record_bytes_resumed: recordBytes,
    fresh_run: {
      samples: fresh.updates.length,
      sample_done_dispatch_to_rendered_ms: stats(fresh.updates.slice(1)),
      sample_bookkeeping_ms: stats(fresh.bookkeeping.slice(1)),
    },
    sample_done_dispatch_to_rendered_ms: stats(updates.slice(0, -1)),
    resume_render_with_whole_timeline_ms: Math.max(...resume.updates.filter((t) => t < 10_000)),
    sample_bookkeeping_ms: stats(bookkeeping),
    long_tasks_during_run: longTasks.length,
  };
}

/**
 * From the marks since `since`: each run-view render paired with the dispatch
 * before it (reduce + render + commit), and each sample's synchronous
 * bookkeeping in the run loop (progress, ETA, serialising the run record).
 */
const PAIRS = (since = 0) => {
  const updates = [];
  const bookkeeping = [];
  let dispatchAt = null;
  let receivedAt = null;
  for (const [name, t] of window.__marks) {
    if (t < since) continue;
    if (name === "firsttoken:dispatch") dispatchAt = t;
    if (name === "firsttoken:sample-received") receivedAt = t;
    if (name === "firsttoken:sample-serialized" && receivedAt !== null) {
      bookkeeping.push(t - receivedAt);
      receivedAt = null;
    }
    if (name === "firsttoken:run-rendered" && dispatchAt !== null) {
      updates.push(t - dispatchAt);
      dispatchAt = null;
    }
  }
  return { updates, bookkeeping, longTasks: window.__longTasks.filter(([t]) => t >= since) };
};

/** Size of the stored run record (rewritten after every sample), characters. */
const RECORD_BYTES = async () => {
  const db = await new Promise((ok) => { const open = indexedDB.open("firsttoken"); open.onsuccess = () => ok(open.result); });
  return new Promise((ok) => {
    const request = db.transaction("runs").objectStore("runs").getAll();
    request.onsuccess = () => ok(Math.max(...request.result.map((json) => json.length)));
  });
};

function assertNoProblems(page) {
  if (page.problems.length) throw new Error(`page problems: ${page.problems.join("; ")}`);
}

const servers = await startServers();
const browser = await launch();
try {
  const results = await resultsRerender(browser, servers.site);
  console.log(JSON.stringify({ results_view: results }, null, 2));
  const live = await liveUpdate(browser, servers);
  const report = {
    chromium: browser.version(),
    results_view: results,
    live_update: live,
    budgets: { results_rerender_ms: RESULTS_BUDGET_MS, live_update_ms: LIVE_BUDGET_MS },
  };
  writeFileSync(resolve(outDir, "render.json"), JSON.stringify(report, null, 2));
  console.log(JSON.stringify(report, null, 2));
  const within = (figure, budget) => (figure <= budget ? "within" : "OVER");
  const rr = results.rerender_main_thread_ms;
  const lu = live.sample_done_dispatch_to_rendered_ms;
  console.log(`results re-render (${results.samples} samples, ${results.targets} targets, ${results.charts} charts; script + next frame): median ${rr.median} ms, p95 ${rr.p95} ms — ${within(rr.p95, RESULTS_BUDGET_MS)} the ${RESULTS_BUDGET_MS} ms budget`);
  console.log(`live update (${live.samples_in_run} samples in the run; dispatch to rendered): median ${lu.median} ms, p95 ${lu.p95} ms — ${within(lu.p95, LIVE_BUDGET_MS)} the ${LIVE_BUDGET_MS} ms budget`);
} finally {
  await browser.close();
  servers.stop();
}
