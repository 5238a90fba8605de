// Shared set-up for the end-to-end tests: the mock provider (which also
// serves the built page from ../dist on a second port, so the page and the
// provider are different origins and CORS is real) and headless Chromium.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { before, after } from "node:test";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, "../..");
export const outDir = resolve(repo, "e2e/out");
/** The runner the tests drive: `make cli` builds it (the test profile; the figures, not the timings, are compared). */
export const CLI_BIN = process.env.FIRSTTOKEN_CLI_BIN || resolve(repo, "target/debug/firsttoken");
mkdirSync(outDir, { recursive: true });

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const MOCK_BIN = process.env.FIRSTTOKEN_MOCK_BIN || resolve(repo, "target/release/firsttoken-mock");

/**
 * Starts the mock provider, the static site and a browser before the tests of
 * the calling file (or `describe` block), hands them to `ready` (which may be
 * async, for more set-up), and stops them after. With `siteCopy`, the site
 * served is a fresh copy of the built page in e2e/out/<siteCopy>, which the
 * tests may add files to (a published directory); `ready` gets its path.
 * `mockArgs` go to the mock provider (its keep-alive window, say).
 */
export function withServersAndBrowser(ready, { siteCopy, mockArgs = [] } = {}) {
  let servers, browser;
  before(async () => {
    let site;
    if (siteCopy) {
      site = resolve(outDir, siteCopy);
      rmSync(site, { recursive: true, force: true });
      cpSync(resolve(repo, "dist"), site, { recursive: true });
    }
    servers = await startServers(site ? { staticDir: site, mockArgs } : { mockArgs });
    browser = await launch();
    await ready(servers, browser, site);
  });
  after(async () => {
    await browser?.close();
    servers?.stop();
  });
}

/** Starts the mock provider and the static site; resolves to their URLs. */
export async function startServers({ prefix = "/", staticDir = resolve(repo, "dist"), mockArgs = [] } = {}) {
  if (!existsSync(MOCK_BIN)) {
    throw new Error(`mock provider not built at ${MOCK_BIN}: run \`cargo build --release -p firsttoken-mock\``);
  }
  if (!existsSync(resolve(repo, "dist/index.html"))) {
    throw new Error("the page is not built: run `trunk build --release` first");
  }
  const args = ["--port", "0", ...mockArgs, "--static-dir", staticDir, "--static-port", "0", "--static-prefix", prefix];
  const child = spawn(MOCK_BIN, args, { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const urls = await new Promise((ok, fail) => {
    const found = {};
    const timer = setTimeout(() => fail(new Error("mock provider did not start in 10 s")), 10_000);
    child.once("exit", (code) => fail(new Error(`mock provider exited with ${code}`)));
    lines.on("line", (line) => {
      const mock = line.match(/mock provider listening on (http:\S+)/);
      const site = line.match(/static site at (http:\S+)/);
      if (mock) found.mock = mock[1];
      if (site) found.site = site[1];
      if (found.mock && found.site) {
        clearTimeout(timer);
        ok(found);
      }
    });
  });
  return { ...urls, stop: () => child.kill() };
}

/** Launches headless Chromium with the flags this machine needs. */
export async function launch() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with \`bash scripts/setup.sh\` (apt-get install chromium chromium-driver)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
}

/** A new page that fails the test on any page error or console error. */
export async function openPage(browser, url, { width = 1280, height = 900, locale = "en-US" } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale, acceptDownloads: true });
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") page.problems.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  await page.waitForSelector("header.top h1");
  return page;
}

/** The mock's ground truth, in request order. */
export async function groundTruth(mock) {
  const res = await fetch(`${mock}/ground-truth`);
  return res.json();
}

export async function resetMock(mock) {
  await fetch(`${mock}/reset`, { method: "POST" });
}

/** `#plan=` fragment for a plan object (base64url, no padding). */
export function planFragment(plan) {
  return "plan=" + Buffer.from(JSON.stringify(plan)).toString("base64url");
}

/** A plan document with the given targets and small, quick settings. */
export function quickPlan(targets, extra = {}) {
  return {
    firsttoken_plan: 1,
    targets,
    requests_per_target: 10,
    warmup_per_target: 1,
    spacing_s: 0.05,
    jitter_s: 0,
    spread_hours: null,
    timeout_s: 10,
    prompt: "Reply with one short sentence: what is the capital of France?",
    nonce: false,
    max_tokens: 16,
    temperature: 0,
    reasoning_counts_as_first_token: false,
    peak_hours: [9, 18],
    ...extra,
  };
}

export function openaiTarget(mock, model, label = model) {
  return { label, protocol: "openai", base_url: `${mock}/v1`, model };
}
export function anthropicTarget(mock, model, label = model) {
  return { label, protocol: "anthropic", base_url: mock, model };
}
export function geminiTarget(mock, model, label = model) {
  return { label, protocol: "gemini", base_url: mock, model };
}

/** Waits until the run view says the run finished (or stopped). */
export async function waitForRunEnd(page, timeout = 120_000) {
  await page.waitForSelector('.run-status[data-status="finished"], .run-status[data-status="stopped"]', { timeout });
}

/** The mock's ground truth once running replies ended (waits up to `settleMs`). */
export async function settledGroundTruth(mock, settleMs = 5_000) {
  const res = await fetch(`${mock}/ground-truth?settle_ms=${settleMs}`);
  return res.json();
}

/** `[done, total]` from the run view's progress line ("12 / 33 · ETA …"). */
export async function runProgress(page) {
  const text = await page.textContent("#progress-text");
  const match = text.match(/^(\d+) \/ (\d+)/);
  if (!match) throw new Error(`unexpected progress text: ${text}`);
  return [Number(match[1]), Number(match[2])];
}

/** Waits until the run view shows at least `done` finished requests. */
export async function waitForDone(page, done, timeout = 60_000) {
  await page.waitForFunction(
    (n) => {
      const match = document.querySelector("#progress-text")?.textContent.match(/^(\d+) \//);
      return Boolean(match) && Number(match[1]) >= n;
    },
    done,
    { timeout },
  );
}

/** Clicks `selector` and returns the name and text of the file it downloads. */
export async function downloadText(page, selector, timeout = 10_000) {
  const [download] = await Promise.all([page.waitForEvent("download", { timeout }), page.click(selector)]);
  const stream = await download.createReadStream();
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString("utf8") };
}

/** Every IndexedDB database of the page's origin: store names, keys and values. */
export async function dumpIndexedDb(page) {
  return page.evaluate(async () => {
    const settle = (request) =>
      new Promise((ok, fail) => {
        request.onsuccess = () => ok(request.result);
        request.onerror = () => fail(request.error);
      });
    const out = [];
    for (const info of await indexedDB.databases()) {
      const db = await settle(indexedDB.open(info.name));
      for (const name of db.objectStoreNames) {
        const store = db.transaction(name).objectStore(name);
        const [keys, values] = await Promise.all([settle(store.getAllKeys()), settle(store.getAll())]);
        out.push({ db: info.name, store: name, keys, values });
      }
      db.close();
    }
    return out;
  });
}

/** localStorage and sessionStorage of the page as `{ local, session }` objects. */
export async function webStorage(page) {
  return page.evaluate(() => ({
    local: Object.fromEntries(Object.entries(localStorage)),
    session: Object.fromEntries(Object.entries(sessionStorage)),
  }));
}

// ---- Measurement helpers (protocol tests and the accuracy benchmark) ----

/** Waits until the page has exported its functions (`window.wasmBindings`, set by Trunk's loader). */
export async function waitForBindings(page, timeout = 30_000) {
  await page.waitForFunction(() => typeof window.wasmBindings?.measureOnce === "function", null, { timeout });
}

/**
 * One request through the page's own measurement path
 * (`window.wasmBindings.measureOnce`); resolves to the outcome object
 * (times in ms from just before `fetch()`).
 */
export async function measureOnce(page, target, plan, key = null, seq = 0) {
  const json = await page.evaluate(
    ([targetJson, planJson, k, s]) => window.wasmBindings.measureOnce(targetJson, planJson, k, s),
    [JSON.stringify(target), JSON.stringify(plan), key, seq],
  );
  return JSON.parse(json);
}

/** A loopback port nothing listens on: bound to learn a free number, then released. */
export async function closedPort() {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise((ok, fail) => server.once("error", fail).listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

/** The `q` quantile (0–1) of `values`, linear between order statistics; NaN when empty. */
export function quantile(values, q) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/** The median of `values`; NaN when empty. */
export function median(values) {
  return quantile(values, 0.5);
}

/** Browser messages about a failed resource load: expected when a test asks for an HTTP error or a cut stream. */
export function unexpectedProblems(page) {
  return page.problems.filter((p) => !/^console: Failed to load resource:/.test(p));
}

// ---- Results helpers (results tests and the render benchmark) ----

export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function syntheticResults({ targets = 12, samples = 10_000, hours = 6, seed = 42, warmup = 2 } = {}) {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const providers = ["Acme Cloud", "Borealis AI", "Cumulus Inference"];
  const models = ["deepseek-v3", "kimi-k2", "qwen3-235b", "glm-4.6", "llama-4-maverick"];
  const shapes = Array.from({ length: targets }, (_, i) => ({
    label: `${providers[i % 3]} · ${models[Math.floor(i / 3) % models.length]}`,
    model: models[Math.floor(i / 3) % models.length],
    median_ms: 250 + 90 * ((i * 7) % 11),
    sigma: 0.12 + 0.05 * (i % 4),
    cold_share: i % 4 === 1 ? 0.05 : 0,
    error_share: i % 3 === 2 ? 0.02 : 0,
  }));
  const started_at_ms = Date.UTC(2025, 4, 12, 6, 0, 0);
  const step_ms = (hours * 3_600_000) / samples;
  const perTarget = Math.ceil(samples / targets);
  const seq = new Array(targets).fill(0);
  const out = [];
  for (let k = 0; k < samples + warmup * targets; k++) {
    const target = k % targets;
    const shape = shapes[target];
    const at = started_at_ms + k * step_ms;
    const s = seq[target]++;
    if (s >= perTarget + warmup) continue;
    const failed = random() < shape.error_share;
    const cold = !failed && random() < shape.cold_share;
    const ttft = cold ? 4000 + 4000 * random() : shape.median_ms * Math.exp(shape.sigma * normal());
    const headers = Math.min(ttft * 0.6, 40 + 20 * random());
    out.push({
      target, seq: s, warmup: s < warmup,
      planned_at_ms: at, sent_at_ms: at + random() * 3, hidden: false,
      headers_ms: headers,
      first_byte_ms: failed ? null : headers + 2,
      first_reasoning_ms: null,
      ttft_ms: failed ? null : ttft,
      second_token_ms: failed ? null : ttft + 18,
      total_ms: failed ? headers + 1 : ttft + 300,
      output_tokens: failed ? null : 16,
      tokens_estimated: false,
      error: failed
        ? { kind: "http_status", phase: "request", message: "the provider answered HTTP 500: internal error; try again later" }
        : null,
    });
  }
  return {
    firsttoken_results: 1,
    plan: {
      firsttoken_plan: 1,
      targets: shapes.map((t) => ({ label: t.label, protocol: "openai", base_url: `https://${t.label.split(" ")[0].toLowerCase()}.example/v1`, model: t.model })),
      requests_per_target: perTarget, warmup_per_target: warmup, spacing_s: step_ms / 1000, jitter_s: 0,
      spread_hours: hours, timeout_s: 120, prompt: "Reply with one short sentence: what is the capital of France?",
      nonce: false, max_tokens: 16, temperature: 0, reasoning_counts_as_first_token: false, peak_hours: [9, 18],
    },
    environment: { user_agent: "synthetic", time_zone: "UTC", tz_offset_min: 0, page_version: "synthetic", started_at_ms },
    samples: out,
    summary: [],
  };
}

/**
 * Runs `firsttoken run ARGS` with `bin` and asserts its exit code: 5 when
 * the plan holds a target scripted never to answer (http-500, http-429),
 * which the run names on its last lines; 0 otherwise.
 */
export function runExpecting(bin, args, exit, stdio = ["ignore", "ignore", "inherit"]) {
  const ran = spawnSync(bin, ["run", ...args], { stdio, encoding: "utf8" });
  if (ran.error) throw ran.error;
  assert.equal(ran.status, exit, `firsttoken run exited ${ran.status}, not ${exit}: ${ran.stdout ?? ""}${ran.stderr ?? ""}`);
  return ran;
}

/** The plan document inside a `…#plan=` link. */
export function planFromLink(link) {
  const payload = new URL(link).hash.replace(/^#/, "").split("&").find((p) => p.startsWith("plan="));
  assert.ok(payload, `a plan link: ${link}`);
  return JSON.parse(Buffer.from(payload.slice("plan=".length), "base64url").toString("utf8"));
}

/** Clicks "Copy plan link" on a page of `site` and returns the link, from the clipboard or the notice fallback. */
export async function copyPlanLink(page, site) {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(site).origin });
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await page.click("button:has-text('Copy plan link')");
  const notice = await page.waitForSelector(".notice span");
  const text = await notice.textContent();
  if (text.includes("#plan=")) return text;
  assert.match(text, /copied/i);
  return page.evaluate(() => navigator.clipboard.readText());
}
