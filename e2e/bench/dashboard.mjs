// The dashboard at a year's scale: a monitor directory of half a million
// measured requests (6 targets × 2 vantages, hourly runs of 5 requests per
// target plus one warm-up, 348 days in 696 daily files and an index) is
// served next to the built page and opened with ?results=data/index.json in
// headless Chromium. Measures, per fresh page:
//   - navigation → every file loaded and merged (`firsttoken:dashboard-loaded`),
//   - navigation → every chart drawn (`firsttoken:dashboard-drawn`), and the
//     frame after it painted;
// then re-renders after a language switch and a range change (click → the
// charts redrawn and the next frame painted), and the renderer's memory
// (peak and current resident set, from /proc, and the JS heap).
// A benchmark, not a test: it prints the figures and writes e2e/out/dashboard.json.
// Usage: make bench-dashboard (or `node bench/dashboard.mjs` with dist/ and the mock built).
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { launch, openPage, outDir, repo, startServers } from "../tests/harness.mjs";
import { writeMonitorDir } from "../tests/monitor-data.mjs";

const LOADS = Number(process.env.LOADS || 5);
const RERENDERS = Number(process.env.RERENDERS || 10);

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * q))];
  const r = (v) => Math.round(v * 10) / 10;
  return { median: r(at(0.5)), p95: r(at(0.95)), max: r(sorted.at(-1)), n: sorted.length };
};

function dirBytes(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = statSync(path);
    total += info.isDirectory() ? dirBytes(path) : info.size;
  }
  return total;
}

/** Resident set of the browser's renderer processes, from /proc (kB): current and peak. */
async function rendererMemory(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
  await cdp.detach();
  const out = [];
  for (const p of processInfo.filter((p) => p.type === "renderer")) {
    const path = `/proc/${p.id}/status`;
    if (!existsSync(path)) continue;
    const status = readFileSync(path, "utf8");
    const kb = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+) kB`))?.[1] ?? 0);
    out.push({ pid: p.id, rss_mb: Math.round(kb("VmRSS") / 1024), peak_rss_mb: Math.round(kb("VmHWM") / 1024) });
  }
  return out;
}

async function clickAndRedraw(page, selector) {
  return page.evaluate(async (selector) => {
    const macrotask = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const drawn = (t0) => performance.getEntriesByName("firsttoken:dashboard-drawn", "mark").filter((e) => e.startTime >= t0);
    const t0 = performance.now();
    document.querySelector(selector).click();
    while (drawn(t0).length === 0) {
      if (performance.now() - t0 > 10_000) throw new Error(`no redraw after clicking ${selector}`);
      await macrotask();
    }
    const script = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => r()));
    await macrotask();
    return { script, painted: performance.now() - t0 };
  }, selector);
}

const site = resolve(outDir, "site-bench-dashboard");
rmSync(site, { recursive: true, force: true });
cpSync(resolve(repo, "dist"), site, { recursive: true });
const generated = Date.now();
const counts = writeMonitorDir(resolve(site, "data"), { days: 348, perTarget: 5, warmup: 1, endMs: Date.now() - 20 * 60_000 });
const bytes = dirBytes(resolve(site, "data"));
console.log(`generated ${counts.files} files, ${counts.measured} measured requests + ${counts.warmups} warm-ups, ${(bytes / 1e6).toFixed(1)} MB, in ${((Date.now() - generated) / 1000).toFixed(1)} s`);

const servers = await startServers({ staticDir: site });
const browser = await launch();
const loads = [];
const drawnAt = [];
const paintedAt = [];
const langRerender = [];
const rangeRerender = [];
let memory = [];
let heap = null;
let charts = 0;
try {
  for (let i = 0; i < LOADS; i++) {
    const page = await openPage(browser, `${servers.site}?results=data/index.json`, { width: 1280, height: 900 });
    await page.waitForFunction(() => performance.getEntriesByName("firsttoken:dashboard-drawn", "mark").length > 0, null, { timeout: 60_000 });
    const timing = await page.evaluate(async () => {
      const mark = (name) => performance.getEntriesByName(name, "mark")[0]?.startTime;
      await new Promise((r) => requestAnimationFrame(() => r()));
      await new Promise((r) => setTimeout(r, 0));
      return { loaded: mark("firsttoken:dashboard-loaded"), drawn: mark("firsttoken:dashboard-drawn"), painted: performance.now() };
    });
    const shown = Number(await page.$eval("#dashboard-requests", (el) => el.dataset.value));
    if (shown !== counts.measured) throw new Error(`the dashboard shows ${shown} requests, the files hold ${counts.measured}`);
    if (await page.locator(".load-errors").count()) throw new Error(await page.textContent(".load-errors"));
    if (page.problems.length) throw new Error(page.problems.join("\n"));
    charts = await page.$$eval("figure.chart canvas", (cs) => cs.length);
    loads.push(timing.loaded);
    drawnAt.push(timing.drawn);
    paintedAt.push(timing.painted);
    if (i === LOADS - 1) {
      for (let k = 0; k < RERENDERS; k++) {
        const lang = k % 2 === 0 ? "zh-CN" : "en";
        langRerender.push(await clickAndRedraw(page, `button.lang[lang="${lang}"]`));
        const range = k % 2 === 0 ? 1 : 4; // 7 days, all data
        rangeRerender.push(await clickAndRedraw(page, `button.range:nth-child(${range})`));
      }
      const cdp = await page.context().newCDPSession(page);
      const { metrics } = await cdp.send("Performance.getMetrics").catch(() => ({ metrics: [] }));
      await cdp.send("Performance.enable");
      const enabled = await cdp.send("Performance.getMetrics");
      const get = (name) => (enabled.metrics.length ? enabled.metrics : metrics).find((m) => m.name === name)?.value;
      heap = { js_heap_used_mb: Math.round((get("JSHeapUsedSize") ?? 0) / 1e6), js_heap_total_mb: Math.round((get("JSHeapTotalSize") ?? 0) / 1e6) };
      memory = await rendererMemory(browser);
    }
    await page.context().close();
  }
} finally {
  await browser.close();
  servers.stop();
}
const result = {
  files: counts.files,
  measured_requests: counts.measured,
  warmups: counts.warmups,
  data_mb: Math.round(bytes / 1e5) / 10,
  charts,
  navigation_to_loaded_ms: stats(loads),
  navigation_to_drawn_ms: stats(drawnAt),
  navigation_to_painted_ms: stats(paintedAt),
  language_switch_ms: { script: stats(langRerender.map((r) => r.script)), to_next_frame: stats(langRerender.map((r) => r.painted)) },
  range_change_ms: { script: stats(rangeRerender.map((r) => r.script)), to_next_frame: stats(rangeRerender.map((r) => r.painted)) },
  renderer_memory: memory,
  heap,
};
console.log(JSON.stringify(result, null, 2));
writeFileSync(resolve(outDir, "dashboard.json"), JSON.stringify(result, null, 2));
