// Time to first render: from navigation start to the setup form being on
// screen, in headless Chromium, the page served from loopback by the mock's
// static server. Every visit uses a fresh browser context, so nothing comes
// from the HTTP cache or the compiled-wasm cache: this is a first visit.
//
// The time is taken inside the page: an init script (run before any of the
// page's own scripts) watches the DOM for the Start button, and takes
// performance.now() (ms since navigation start) in the next animation frame,
// the frame that paints it. Prints each visit, then median and p95.
//
// Usage: node bench/first-render.mjs [visits=15]   (or `make bench-first-render`)
import { launch, startServers } from "../tests/harness.mjs";

const visits = Math.max(10, Number(process.argv[2] ?? 15));
const BUDGET_MS = 500;

/** Percentile by linear interpolation between closest ranks (as docs/statistics.md). */
function percentile(sorted, p) {
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

function watchFirstRender() {
  window.__firstRender = new Promise((resolve) => {
    const seen = () => {
      const start = document.querySelector("#start");
      if (!start || start.getBoundingClientRect().height === 0) return false;
      const inDomMs = performance.now();
      requestAnimationFrame(() => resolve({ inDomMs, frameMs: performance.now() }));
      return true;
    };
    const observer = new MutationObserver(() => seen() && observer.disconnect());
    observer.observe(document, { childList: true, subtree: true });
  });
}

const servers = await startServers();
const browser = await launch();
const rows = [];
try {
  for (let visit = 0; visit < visits; visit++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    await context.addInitScript(watchFirstRender);
    const page = await context.newPage();
    await page.goto(servers.site, { waitUntil: "commit" });
    const render = await page.evaluate(() => window.__firstRender);
    const nav = await page.evaluate(() => {
      const entry = performance.getEntriesByType("navigation")[0];
      const wasm = performance.getEntriesByType("resource").find((r) => r.name.endsWith(".wasm"));
      return {
        htmlMs: entry.responseEnd,
        wasmLoadedMs: wasm ? wasm.responseEnd : null,
      };
    });
    rows.push({ ...render, ...nav });
    console.log(
      `visit ${String(visit + 1).padStart(2)}: html ${nav.htmlMs.toFixed(1)} ms, wasm fetched ${nav.wasmLoadedMs?.toFixed(1)} ms, ` +
        `form in DOM ${render.inDomMs.toFixed(1)} ms, painted frame ${render.frameMs.toFixed(1)} ms`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  servers.stop();
}

const summary = (key) => {
  const sorted = rows.map((r) => r[key]).sort((a, b) => a - b);
  return `median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms`;
};
const frames = rows.map((r) => r.frameMs).sort((a, b) => a - b);
console.log(`first render over ${visits} first visits: ${summary("frameMs")} (form in DOM: ${summary("inDomMs")})`);
const p95 = percentile(frames, 95);
console.log(`budget ${BUDGET_MS} ms at p95: ${p95 <= BUDGET_MS ? "within" : "OVER"}`);
