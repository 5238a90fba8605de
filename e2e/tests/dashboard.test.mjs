// The dashboard: the page opened with `?results=` loads published results
// (an index and the files it lists, or files named directly), shows them
// read-only with figures equal to the data's, draws every chart, names each
// file that failed (missing, cut off, wrong kind, refused by CORS) while
// showing the rest, and warns when the monitor has stopped. Also checks the
// monitor workflow.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { launch, openPage, outDir, quantile, repo, startServers, unexpectedProblems } from "./harness.mjs";
import { monitorResults, writeMonitorDir } from "./monitor-data.mjs";
import { chartDrawings, markerLegendProblems, recordCanvas } from "./screen-checks.mjs";
import { lintWorkflows } from "../../scripts/lint-workflows.mjs";

const HOUR = 3_600_000;
let servers, other, browser, site, counts, docs, short;

/** Every results file of a monitor directory, as the index lists them. */
function readDir(dir) {
  const index = JSON.parse(readFileSync(resolve(dir, "index.json"), "utf8"));
  return index.runs.map((run) => JSON.parse(readFileSync(resolve(dir, run.file), "utf8")));
}

before(async () => {
  site = resolve(outDir, "site-dashboard");
  rmSync(site, { recursive: true, force: true });
  cpSync(resolve(repo, "dist"), site, { recursive: true });
  // Fresh: the newest sample is minutes old. Stale: the same, stopped 5 h ago.
  counts = writeMonitorDir(resolve(site, "data"), { days: 9, endMs: Date.now() - 10 * 60_000 });
  writeMonitorDir(resolve(site, "stale"), { days: 2, vantages: ["fra1"], endMs: Date.now() - 5 * HOUR });
  docs = readDir(resolve(site, "data"));
  // One hourly run (6 targets x 11 requests 5 s apart, about 5.5 min), and
  // one like it 100 h earlier.
  const shortEnd = Date.UTC(2026, 11, 3, 5, 0);
  short = monitorResults({ vantage: "fra1", startMs: shortEnd, runs: 1 });
  writeFileSync(resolve(site, "short.json"), JSON.stringify(short));
  writeFileSync(resolve(site, "early.json"), JSON.stringify(monitorResults({ vantage: "fra1", startMs: shortEnd - 100 * HOUR, runs: 1, seed: 2 })));
  const good = readFileSync(resolve(site, "data", JSON.parse(readFileSync(resolve(site, "data/index.json"), "utf8")).runs[0].file), "utf8");
  writeFileSync(resolve(site, "data/half-written.json"), good.slice(0, Math.floor(good.length / 2)));
  writeFileSync(resolve(site, "data/plan.json"), readFileSync(resolve(repo, "monitor/plan.example.json")));
  writeFileSync(resolve(site, "data/page.html.json"), "<!DOCTYPE html><title>Not here</title>");
  // An index that lists a missing and a half-written file next to a good one.
  const index = JSON.parse(readFileSync(resolve(site, "data/index.json"), "utf8"));
  mkdirSync(resolve(site, "gaps"), { recursive: true });
  writeFileSync(
    resolve(site, "gaps/index.json"),
    JSON.stringify({
      firsttoken_index: 1,
      schedule_minutes: 60,
      runs: [
        // No points files here: the results files themselves are read.
        { ...index.runs[0], file: `../data/${index.runs[0].file}`, points: undefined },
        { ...index.runs[1], file: "../data/days/1999-01-01.fra1.json", points: undefined },
        { ...index.runs[2], file: "../data/half-written.json", points: undefined },
      ],
    }),
  );
  servers = await startServers({ staticDir: site });
  // The same files from another origin, which sends no CORS headers.
  other = await startServers({ staticDir: site });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  servers?.stop();
  other?.stop();
});

/** Opens the dashboard for `query` and waits until it has loaded. */
async function openDashboard(query, options = {}) {
  const page = await openPage(browser, `${servers.site}?${query}`, options);
  await page.waitForSelector(".dashboard", { timeout: 30_000 });
  return page;
}

/** Whether every chart canvas has been drawn (holds non-white pixels). */
async function chartsDrawn(page) {
  return page.$$eval("figure.chart canvas", (canvases) =>
    canvases.map((canvas) => {
      const { width, height } = canvas;
      if (!width || !height) return { id: canvas.id, drawn: false };
      const pixels = canvas.getContext("2d").getImageData(0, 0, width, height).data;
      let ink = 0;
      for (let i = 0; i < pixels.length; i += 4 * 7) if (pixels[i] < 200 || pixels[i + 1] < 200 || pixels[i + 2] < 200) ink++;
      return { id: canvas.id, drawn: ink > 200 };
    }),
  );
}

test("an index loads every file it lists; header, windows and comparison equal the data", async () => {
  const page = await openDashboard("results=data/index.json");
  const requests = await page.$eval("#dashboard-requests", (el) => ({ n: Number(el.dataset.value), errors: Number(el.dataset.errors) }));
  const measured = docs.flatMap((doc) => doc.samples.filter((s) => !s.warmup));
  assert.equal(requests.n, counts.measured);
  assert.equal(requests.n, measured.length);
  assert.equal(requests.errors, measured.filter((s) => s.error).length);
  assert.equal(await page.textContent("#dashboard-vantages"), "fra1, sgp1");
  const newest = Math.max(...measured.map((s) => s.sent_at_ms));
  assert.equal(Number(await page.$eval("#dashboard-newest", (el) => el.dataset.value)), newest);
  assert.ok((await page.textContent("#dashboard-sources")).startsWith(`data/index.json (index, ${counts.files} files`));
  assert.equal(await page.locator("#dashboard-stale").count(), 0, "a fresh monitor is not stale");
  assert.equal(await page.locator(".load-errors").count(), 0);

  // Each target from each vantage, over all data: n, median and p95 as numpy computes them.
  const rows = await page.$$eval("table.by-vantage tbody tr", (trs) =>
    trs.map((tr) => ({
      target: tr.dataset.target,
      vantage: tr.dataset.vantage,
      values: [...tr.cells].map((td) => td.dataset.value).map((v) => (v === undefined ? null : Number(v))),
    })),
  );
  assert.equal(rows.length, 12);
  for (const row of rows) {
    const own = docs
      .filter((doc) => doc.environment.vantage === row.vantage)
      .flatMap((doc) => doc.samples.filter((s) => !s.warmup && doc.plan.targets[s.target].label === row.target));
    const ttft = own.filter((s) => !s.error).map((s) => s.ttft_ms);
    // cells: target, vantage, requests, n, median, p95, errors, error rate
    const [, , requestsCell, n, median, p95, errors] = row.values;
    assert.equal(requestsCell, own.length, `${row.target} · ${row.vantage} requests`);
    assert.equal(n, ttft.length);
    assert.equal(errors, own.length - ttft.length);
    assert.ok(Math.abs(median - quantile(ttft, 0.5)) < 1e-9 * median, `${row.target} median ${median} vs ${quantile(ttft, 0.5)}`);
    assert.ok(Math.abs(p95 - quantile(ttft, 0.95)) < 1e-9 * p95, `${row.target} p95`);
  }

  // The 24 h window: every target's requests sent in the last 24 h before the newest.
  const window = await page.$$eval("table.windows-table tbody tr", (trs) =>
    trs.map((tr) => {
      const cell = tr.querySelector('td[data-window="0"]');
      return [tr.querySelector("th").textContent, Number(cell.dataset.requests), Number(cell.dataset.n)];
    }),
  );
  for (const [label, n, ok] of window) {
    const own = docs.flatMap((doc) => doc.samples.filter((s) => !s.warmup && doc.plan.targets[s.target].label === label && s.sent_at_ms > newest - 24 * HOUR));
    assert.equal(n, own.length, `${label} 24 h`);
    assert.equal(ok, own.filter((s) => !s.error).length);
  }
  // No window repeats another (9 days of data: three, each holding more
  // requests than the one before), and each names its figures: the median
  // and the p95, then the CV and the verdict.
  const totals = await windowTotals(page);
  assert.deepEqual(Object.keys(totals), ["0", "1", "2"]);
  assert.ok(totals[0] < totals[1] && totals[1] < totals[2], JSON.stringify(totals));
  assert.equal(await page.locator("#windows-note").count(), 0);
  for (const cell of await windowTexts(page)) {
    assert.match(cell.latency, /^median TTFT [\d.]+ (ms|s) · p95 [\d.]+ (ms|s)$/);
    assert.match(cell.judged, /^CV [\d.]+ % · \S/);
  }

  // Every chart is drawn: 3 over all targets, 6 vantage comparisons, 12 hour-of-day.
  await page.waitForFunction(() => performance.getEntriesByName("firsttoken:dashboard-drawn").length > 0);
  const drawn = await chartsDrawn(page);
  assert.equal(drawn.length, 21);
  assert.deepEqual(drawn.filter((c) => !c.drawn), []);
  assert.deepEqual(page.problems, []);
});

/** Requests per rolling window shown, every target together: { "0": 540, ... } by data-window. */
async function windowTotals(page) {
  return page.$$eval("table.windows-table td.window", (tds) =>
    tds.reduce((sum, td) => ({ ...sum, [td.dataset.window]: (sum[td.dataset.window] ?? 0) + Number(td.dataset.requests) }), {}),
  );
}

/** Each rolling window cell's lines. */
async function windowTexts(page) {
  return page.$$eval("table.windows-table td.window", (tds) =>
    tds.map((td) => ({ latency: td.querySelector(".latency").textContent, judged: td.querySelector(".judged")?.textContent ?? "" })),
  );
}

/** A page like openDashboard's whose chart canvases are recorded as they draw (tests/screen-checks.mjs). */
async function openRecorded(query, { width = 1280 } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await recordCanvas(context);
  const page = await context.newPage();
  await page.goto(`${servers.site}?${query}`);
  await page.waitForFunction(() => performance.getEntriesByName("firsttoken:dashboard-drawn", "mark").length > 0, null, { timeout: 30_000 });
  return page;
}

test("a few minutes of data show one rolling window and say why; a gap of days leaves out the window it does not change", async () => {
  const sent = short.samples.filter((s) => !s.warmup).map((s) => s.sent_at_ms);
  const measured = sent.length;
  // Said in whole minutes, rounded up: within the last 5 min.
  const minutes = Math.ceil((Math.max(...sent) - Math.min(...sent)) / 60_000);
  const page = await openDashboard("results=short.json");
  await page.waitForSelector("#windows-note");
  assert.deepEqual(await windowTotals(page), { 0: measured });
  assert.equal(await page.locator("table.windows-table thead th").count(), 2, "the target and one window");
  assert.equal(
    await page.textContent("#windows-note"),
    `All ${measured} requests fall within the last ${minutes} min: the last 72 hours and the last 7 days hold the same ones as the last 24 hours, so they are not shown.`,
  );
  for (const cell of await windowTexts(page)) assert.match(cell.latency, /^median TTFT /);
  await page.click("button.lang:nth-child(2)");
  await page.waitForSelector("text=滚动时间窗口");
  assert.match(await page.textContent("#windows-note"), new RegExp(`^全部 ${measured} 个请求都在最近 ${minutes} 分钟内：`));
  for (const cell of await windowTexts(page)) assert.match(cell.latency, /^TTFT 中位数 /);
  await page.context().close();

  // The same run and one 100 h earlier: the 72 h window holds what the 24 h one does.
  const gap = await openDashboard("results=early.json&results=short.json");
  await gap.waitForSelector("#windows-note");
  assert.deepEqual(await windowTotals(gap), { 0: measured, 2: 2 * measured });
  assert.equal(
    await gap.textContent("#windows-note"),
    `The last 72 hours holds the same ${measured} requests as the last 24 hours, so it is not shown.`,
  );
  assert.deepEqual(gap.problems, []);
  await gap.context().close();
});

test("every chart's legend shows the markers its points are drawn with", async () => {
  // Nine days (markers on every day) and one run (a single day: markers, no line).
  for (const query of ["results=data/index.json", "results=short.json"]) {
    for (const width of [1280, 400]) {
      const page = await openRecorded(query, { width });
      const charts = await chartDrawings(page);
      const marks = new Set(charts.flatMap((c) => c.ops.filter((op) => op.mark).map((op) => op.mark)));
      assert.deepEqual([...marks].sort(), ["diamond", "dot"], `${query} at ${width} px draws dots and diamonds`);
      assert.deepEqual(markerLegendProblems(charts), [], `${query} at ${width} px`);
      await page.context().close();
    }
  }
});

test("a range change and a language switch re-render from the same data", async () => {
  const page = await openDashboard("results=data/index.json");
  const firstN = async () => Number(await page.$eval("table.by-vantage tbody tr td[data-label='n']", (td) => td.dataset.value));
  const all = await firstN();
  await page.click("button.range:nth-child(1)"); // 7 days
  await page.waitForFunction((n) => Number(document.querySelector("table.by-vantage tbody tr td[data-label='n']")?.dataset.value) < n, all);
  assert.ok((await firstN()) < all);
  await page.click("button.lang:nth-child(2)");
  await page.waitForSelector("text=滚动时间窗口");
  assert.match(await page.textContent(".dashboard-header h2"), /监控面板/);
  const drawn = await chartsDrawn(page);
  assert.deepEqual(drawn.filter((c) => !c.drawn), []);
  assert.deepEqual(page.problems, []);
});

test("broken, missing, wrong and refused files are named while the good ones are shown", async () => {
  const cors = `${other.site}data/index.json`;
  const query = [
    "results=data/index.json",
    "results=data/missing.json",
    "results=data/half-written.json",
    "results=data/plan.json",
    "results=data/page.html.json",
    `results=${encodeURIComponent(cors)}`,
    "results=gaps/index.json",
  ].join("&");
  const page = await openDashboard(query);
  await page.waitForSelector(".load-errors");
  const failures = await page.$$eval(".load-error", (lis) => lis.map((li) => [li.dataset.url, li.textContent]));
  const message = (suffix) => failures.find(([url]) => url.endsWith(suffix))?.[1] ?? `no failure for ${suffix}`;
  assert.match(message("/data/missing.json"), /HTTP 404/);
  assert.match(message("/data/half-written.json"), /ends in the middle/);
  assert.match(message("/data/plan.json"), /not a firsttoken results file or index: it is a plan/);
  assert.match(message("/data/page.html.json"), /not JSON/);
  assert.match(message(cors.replace(/^https?:\/\/[^/]+/, "")), /CORS/);
  assert.ok(failures.some(([url]) => url.startsWith(other.site)), "the refused address is named in full");
  // The index with gaps: its good member loaded, the missing and cut-off ones named.
  assert.match(message("/data/days/1999-01-01.fra1.json"), /HTTP 404/);
  assert.equal(failures.length, 7);
  // Everything that loaded is shown: the full index plus the one good file of the gappy index.
  const shown = Number(await page.$eval("#dashboard-requests", (el) => el.dataset.value));
  const firstFile = docs[0].samples.filter((s) => !s.warmup).length;
  assert.equal(shown, counts.measured + firstFile);
  const drawn = await chartsDrawn(page);
  assert.ok(drawn.length > 0);
  assert.deepEqual(drawn.filter((c) => !c.drawn), []);
  assert.deepEqual(
    unexpectedProblems(page).filter((p) => !/CORS policy|ERR_FAILED/.test(p)),
    [],
  );
  await page.screenshot({ path: resolve(outDir, "dashboard-errors.png"), fullPage: true });
});

test("a monitor that stopped is flagged, and nothing loaded says so", async () => {
  const page = await openDashboard("results=stale/index.json");
  const warning = await page.textContent("#dashboard-stale");
  assert.match(warning, /looks stopped/);
  const hours = Number(warning.match(/newest sample is (\d+) h/)?.[1]);
  assert.ok(hours >= 5 && hours <= 7, warning);
  assert.match(warning, /\(every 60 min\)/);
  const none = await openDashboard("results=nothing/here.json");
  await none.waitForSelector(".load-errors");
  assert.match(await none.textContent(".load-errors"), /No file could be loaded/);
  assert.equal(await none.locator("figure.chart").count(), 0);
});

test("the monitor workflow passes actionlint, runs hourly per vantage and never prints a key", async () => {
  const file = resolve(repo, ".github/workflows/monitor.yml");
  assert.deepEqual(await lintWorkflows([file]), []);
  const text = readFileSync(file, "utf8");
  assert.match(text, /cron: "\d+ \* \* \* \*"/, "hourly by default");
  assert.match(text, /--vantage "\$VANTAGE"/);
  assert.match(text, /matrix:\s+include:\s+- vantage:/);
  // Named secrets, each passed to the one step that runs the plan; never the whole set.
  assert.match(text, /FIRSTTOKEN_KEY_OPENAI: \$\{\{ secrets\.FIRSTTOKEN_KEY_OPENAI \}\}/);
  assert.ok(!/toJSON\(secrets\)/.test(text), "no toJSON(secrets)");
  assert.match(text, /firsttoken publish published\/data/);
  assert.match(text, /uses: \.\/\.github\/workflows\/pages\.yml/);
  assert.ok(!/set -x|echo "\$\{?FIRSTTOKEN_KEY|printenv|env\s*$/m.test(text), "nothing prints the environment");
  assert.match(readFileSync(resolve(repo, ".github/workflows/pages.yml"), "utf8"), /workflow_call:/);
});
