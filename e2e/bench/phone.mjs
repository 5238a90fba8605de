// What a person on a phone waits for: the time from navigation until Start
// can be pressed, with DevTools' mobile throttling (150 ms RTT, 1.6 Mbps
// down, 750 kbps up, 4× CPU slowdown) and the page served gzip-compressed, as
// GitHub Pages serves it. A benchmark, not a test: it prints each visit, the
// median and the p95 against the 2.5 s goal, and the bytes on the wire.
//
// "Can be pressed" is the Start button on screen and enabled, taken inside
// the page (an init script watches the DOM and takes performance.now() in
// the frame that paints it). Each visit uses a fresh browser context: a first
// visit, nothing from the HTTP cache or the compiled-wasm cache.
//
// The server is node's own http and zlib over dist/: a stand-in for a static
// host that compresses (Pages sends text/html, JS, CSS and wasm gzipped).
//
// The page is split (docs/size.md): the bytes of the first load (what Start
// needs) and of the parts fetched during the visit (the run's part, fetched
// in the background after the first paint) are counted apart, and the whole
// page's weight on the wire, every part included, is printed once.
//
// Usage: node bench/phone.mjs [visits=7]   (or `make bench-phone`)
import { createServer } from "node:http";
import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { extname, join, normalize, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { launch, repo } from "../tests/harness.mjs";

const visits = Math.max(5, Number(process.argv[2] ?? 7));
const GOAL_MS = 2500;
const dist = resolve(repo, "dist");
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

// Compress each file once, at gzip level 6 (what static hosts use).
const cache = new Map();
let wireBytes = 0;
let partBytes = 0;
/** A lazily loaded module: any wasm but the main one. */
const isPart = (file) => file.endsWith(".wasm") && !file.endsWith("_bg.wasm");
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  let file = normalize(join(dist, path === "/" ? "index.html" : path));
  if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) {
    file = join(dist, "index.html");
  }
  if (!cache.has(file)) cache.set(file, gzipSync(readFileSync(file), { level: 6 }));
  const body = cache.get(file);
  if (isPart(file)) partBytes += body.length;
  else wireBytes += body.length;
  res.writeHead(200, {
    "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
    "Content-Encoding": "gzip",
    "Cache-Control": "no-store",
  });
  res.end(body);
});
await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
const url = `http://127.0.0.1:${server.address().port}/`;

function watchStart() {
  window.__startReady = new Promise((resolve) => {
    const ready = () => {
      const start = document.querySelector("#start");
      if (!start || start.disabled || start.getBoundingClientRect().height === 0) return false;
      requestAnimationFrame(() => resolve(performance.now()));
      return true;
    };
    const observer = new MutationObserver(() => ready() && observer.disconnect());
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  });
}

function percentile(sorted, p) {
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

const browser = await launch();
const times = [];
const paints = [];
try {
  for (let visit = 0; visit < visits; visit++) {
    const context = await browser.newContext({ viewport: { width: 400, height: 860 }, isMobile: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.addInitScript(watchStart);
    wireBytes = 0;
    partBytes = 0;
    await page.goto(url, { waitUntil: "commit" });
    const ms = await page.evaluate(() => window.__startReady);
    const firstLoadBytes = wireBytes;
    const partsByStart = partBytes;
    // The first paint with content: the static first screen of index.html,
    // which says what the page is while the wasm loads.
    const painted = await page.evaluate(
      () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
    );
    times.push(ms);
    paints.push(painted);
    console.log(
      `visit ${visit + 1}: first screen painted at ${painted.toFixed(0)} ms, Start can be pressed at ${ms.toFixed(0)} ms ` +
        `(first load ${(firstLoadBytes / 1024).toFixed(1)} KiB on the wire; parts fetched by then ${(partsByStart / 1024).toFixed(1)} KiB, ${(partBytes / 1024).toFixed(1)} KiB in all)`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
const everyFile = readdirSync(dist, { recursive: true }).filter((f) => statSync(join(dist, f)).isFile());
const gz = (files) => files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, f)), { level: 6 }).length, 0);
const firstLoadFiles = everyFile.filter((f) => !isPart(f));
console.log(
  `the page on the wire (gzip -6): first load ${(gz(firstLoadFiles) / 1024).toFixed(1)} KiB, ` +
    `parts ${(gz(everyFile.filter(isPart)) / 1024).toFixed(1)} KiB, total ${(gz(everyFile) / 1024).toFixed(1)} KiB`,
);
const sorted = [...times].sort((a, b) => a - b);
const paintsSorted = [...paints].sort((a, b) => a - b);
console.log(`first screen painted: median ${percentile(paintsSorted, 50).toFixed(0)} ms, p95 ${percentile(paintsSorted, 95).toFixed(0)} ms`);
const median = percentile(sorted, 50);
console.log(
  `median ${median.toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms over ${visits} visits; ` +
    `goal ≤ ${GOAL_MS} ms: ${median <= GOAL_MS ? "met" : "not met"}`,
);
