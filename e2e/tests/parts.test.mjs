// The page in parts (src/ui/run/lazy.rs, scripts/wasm_split.py): a first visit
// fetches only the first-load files (then the run's part, in the background);
// each part loads when first opened; a part that fails to load is told, in
// the page's language, with a retry that recovers, and a run in progress
// loses nothing. The files' names carry their content hash and every part
// is fetched with its integrity hash.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { openPage, planFragment, repo, runProgress, waitForRunEnd, withServersAndBrowser } from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

const DIST = resolve(repo, "dist");
const PART = /\/((?:split|chunk)_[A-Za-z0-9_]+)-[0-9a-f]{16}\.wasm$/;

/** A short demo run, as a `#plan=` link. */
function demoPlan() {
  return planFragment({
    firsttoken_plan: 1,
    targets: [
      { label: "Demo A · steady", protocol: "demo", base_url: "demo://steady", model: "demo-llm", provider: "demo" },
      { label: "Demo B · cold starts", protocol: "demo", base_url: "demo://cold-tail", model: "demo-llm", provider: "demo" },
    ],
    requests_per_target: 6, warmup_per_target: 1, spacing_s: 0.05, jitter_s: 0, spread_hours: null,
    timeout_s: 30, prompt: "Say hi.", nonce: false, max_tokens: 16, temperature: 0,
    reasoning_counts_as_first_token: false, peak_hours: [9, 18],
  });
}

/** Records the paths of the page's own requests, in order. */
function recordRequests(page) {
  const paths = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === new URL(servers.site).origin) paths.push(url.pathname);
  });
  return paths;
}

/** The part names (`split_run`, `chunk_3`, …) among `paths`. */
function partsIn(paths) {
  return [...new Set(paths.map((p) => p.match(PART)?.[1]).filter(Boolean))].sort();
}

/** Which parts each split loads, from the built loader's `makeLoad(…, [deps])` lines. */
function loaderDeps() {
  const name = readdirSync(DIST).find((f) => /^__wasm_split-[0-9a-f]{16}\.js$/.test(f));
  assert.ok(name, "the loader is in dist/ under a hashed name");
  return readFileSync(resolve(DIST, name), "utf8");
}

test("the built page names every part by its hash and fetches it with its integrity", () => {
  const files = readdirSync(DIST);
  const parts = files.filter((f) => f.endsWith(".wasm") && !f.endsWith("_bg.wasm"));
  // Two parts: the run's, and the results' (the dashboard is in it).
  for (const split of ["split_run", "split_results"]) {
    assert.ok(parts.some((f) => f.startsWith(`${split}-`)), `${split} is built: ${parts}`);
  }
  assert.ok(parts.every((f) => /^(split|chunk)_[A-Za-z0-9_]+-[0-9a-f]{16}\.wasm$/.test(f)), `hashed names: ${parts}`);
  const loader = loaderDeps();
  for (const part of parts) {
    // Whitespace aside: the loader is minified (scripts/minify.py).
    assert.match(loader, new RegExp(`new URL\\("\\./${part.replace(".", "\\.")}",\\s*import\\.meta\\.url\\),\\s*\\{\\s*integrity:\\s*"sha384-`), part);
  }
  const html = readFileSync(resolve(DIST, "index.html"), "utf8");
  assert.match(html, /<link rel="modulepreload" href="\/__wasm_split-[0-9a-f]{16}\.js" crossorigin="anonymous" integrity="sha384-/);
});

test("a first visit fetches the first load only, then the run's part in the background", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  const paths = recordRequests(page);
  await page.goto(servers.site);
  await page.waitForSelector("#start:not([disabled])");
  const atStart = [...paths];
  await page.waitForLoadState("networkidle");
  // Before Start works, no part is needed; the run's part may already be on
  // its way (it is fetched right after the first paint), nothing else.
  const runParts = partsIn(paths);
  assert.ok(runParts.includes("split_run"), `the run's part is prefetched: ${runParts}`);
  for (const part of partsIn(atStart)) {
    assert.ok(runParts.includes(part), `${part} is only the run's prefetch`);
  }
  assert.ok(!runParts.includes("split_results"), `no other part: ${runParts}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test("each part loads when opened: run, results, history, and the results after a reload", async () => {
  const page = await openPage(browser, `${servers.site}#${demoPlan()}`);
  const paths = recordRequests(page);
  await page.click("#start");
  await page.waitForSelector("#live-table");
  await waitForRunEnd(page);
  await page.click("nav.tabs button:has-text('Results')");
  await page.waitForSelector(".results .model-block", { timeout: 30_000 });
  assert.ok(partsIn(paths).includes("split_results"), `results came as a part: ${partsIn(paths)}`);
  assert.ok((await page.$$("figure.chart canvas")).length > 0, "the results draw their charts");
  await page.click("nav.tabs button:has-text('History')");
  await page.waitForSelector(".history, table", { timeout: 30_000 });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a part that fails to load is told in the page's language, and a retry recovers without losing the run", async () => {
  for (const [locale, notice, retry] of [
    ["en-US", "could not be loaded", "Try again"],
    ["zh-CN", "未能加载", "重试"],
  ]) {
    const context = await browser.newContext({ viewport: { width: 400, height: 900 }, locale });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    let blocked = true;
    await page.route(/\/split_results-[0-9a-f]{16}\.wasm$/, (route) => (blocked ? route.abort("internetdisconnected") : route.continue()));
    await page.goto(`${servers.site}#${demoPlan()}`);
    await page.click("#start");
    await waitForRunEnd(page);
    const progress = await page.textContent("#progress-text");
    await page.click(".run .actions button.primary");
    await page.waitForSelector(".part-unloaded", { timeout: 30_000 });
    assert.match(await page.textContent(".part-unloaded"), new RegExp(notice));
    // The run is still whole: back on the run view, the same progress.
    await page.click("nav.tabs button >> nth=1");
    await page.waitForSelector("#progress-text");
    assert.equal(await page.textContent("#progress-text"), progress);
    await page.click("nav.tabs button >> nth=2");
    await page.waitForSelector(".part-unloaded");
    blocked = false;
    await page.click(`.part-unloaded button:has-text('${retry}')`);
    await page.waitForSelector(".results .model-block", { timeout: 30_000 });
    assert.equal(await page.$(".part-unloaded"), null);
    assert.deepEqual(errors, [], "no panic, no page error");
    await context.close();
  }
});

test("a run whose part fails to load does not start, says so, and Start fetches the part again", async () => {
  for (const [locale, notice] of [
    ["en-US", "could not be loaded"],
    ["zh-CN", "未能加载"],
  ]) {
    const context = await browser.newContext({ viewport: { width: 400, height: 900 }, locale });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    let blocked = true;
    // The run loop, the measured fetch and the demo provider are the run's
    // part: with it blocked (its background fetch after the first paint
    // fails too), Start cannot start a run.
    await page.route(/\/split_run-[0-9a-f]{16}\.wasm$/, (route) => (blocked ? route.abort("internetdisconnected") : route.continue()));
    await page.goto(`${servers.site}#${demoPlan()}`);
    await page.waitForSelector("#start:not([disabled])");
    await page.click("#start");
    await page.waitForSelector(".notice", { timeout: 30_000 });
    assert.match(await page.textContent(".notice"), new RegExp(notice));
    assert.equal(await page.$("#live-table"), null, "no run has started");
    assert.ok(await page.$("#start:not([disabled])"), "Start is still there to press again");
    blocked = false;
    await page.click("#start");
    await page.waitForSelector("#live-table", { timeout: 30_000 });
    await waitForRunEnd(page);
    const [done, total] = await runProgress(page);
    assert.ok(total > 0 && done === total, `the run completed: ${done} / ${total}`);
    assert.deepEqual(errors, [], "no panic, no page error");
    await context.close();
  }
});
