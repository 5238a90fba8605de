// The page from a person's side: fill the setup form by typing, run a mixed
// plan against the mock provider (and one on the demo provider), then check
// the run and results views against the exported JSON, the charts' pixels,
// a chart PNG download, and the Chinese UI for English leftovers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  openPage, planFragment, resetMock, waitForRunEnd, withServersAndBrowser,
} from "./harness.mjs";
import { recordedWords } from "./screen-checks.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

/** Percentile by linear interpolation between closest ranks (numpy's default). */
function percentile(sorted, p) {
  const h = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** Relative closeness for figures recomputed here in another order of sums. */
function close(actual, expected, what) {
  const scale = Math.max(Math.abs(expected), 1e-9);
  assert.ok(Math.abs(actual - expected) / scale < 1e-9, `${what}: ${actual} vs ${expected}`);
}

/** Clicks `selector` and returns the downloaded file's bytes and name. */
async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent("download", { timeout: 10_000 }), page.click(selector)]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

/** Types into a field the way a person does: select what is there, type. */
async function typeInto(page, selector, text) {
  const field = page.locator(selector);
  await field.click();
  await field.press("ControlOrMeta+a");
  await field.pressSequentially(String(text));
  assert.equal(await field.inputValue(), String(text), `${selector} holds what was typed`);
}

/** Pixels of a canvas that differ from its white background, and its colours. */
async function canvasInk(page, id) {
  return page.evaluate((id) => {
    const canvas = document.getElementById(id);
    const { width, height } = canvas;
    const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
    let ink = 0;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 0 && (r < 245 || g < 245 || b < 245)) {
        ink++;
        colours.add((r >> 4) * 256 + (g >> 4) * 16 + (b >> 4));
      }
    }
    return { width, height, cssWidth: canvas.clientWidth, ink, colours: colours.size };
  }, id);
}

/**
 * Checks the results view against the exported JSON: every comparison cell's
 * raw figure equals the file's summary, which itself equals what the samples
 * say; every chart is drawn; a chart PNG downloads. Returns the document.
 */
async function checkResults(page) {
  await page.waitForSelector("table.comparison");
  const exported = await download(page, "#export-json");
  assert.equal(exported.name, "firsttoken-results.json");
  const doc = JSON.parse(exported.bytes.toString("utf8"));
  assert.equal(doc.firsttoken_results, 1);
  assert.equal(doc.summary.length, doc.plan.targets.length);

  // The summary is what the samples say (recomputed here, independently).
  for (const line of doc.summary) {
    const measured = doc.samples.filter((s) => s.target === line.target && !s.warmup);
    const ttft = measured.filter((s) => !s.error).map((s) => s.ttft_ms).sort((a, b) => a - b);
    assert.equal(line.errors, measured.filter((s) => s.error).length, `errors of target ${line.target}`);
    if (ttft.length === 0) {
      assert.equal(line.ttft, null);
      continue;
    }
    assert.equal(line.ttft.n, ttft.length);
    close(line.ttft.median, percentile(ttft, 50), `median of target ${line.target}`);
    close(line.ttft.p95, percentile(ttft, 95), `p95 of target ${line.target}`);
    close(line.ttft.p99, percentile(ttft, 99), `p99 of target ${line.target}`);
  }

  // Every comparison row's raw figures are the file's summary, exactly.
  const rows = await page.$$eval("table.comparison tbody tr", (trs) =>
    trs.map((tr) => ({
      target: Number(tr.dataset.target),
      label: tr.querySelector("th").textContent,
      values: [...tr.cells].map((c) => (c.dataset.value === undefined ? null : Number(c.dataset.value))),
    })),
  );
  const withTtft = doc.summary.filter((l) => l.ttft);
  assert.deepEqual(rows.map((r) => r.target).sort(), withTtft.map((l) => l.target).sort(), "one row per target with successes");
  for (const row of rows) {
    const line = doc.summary[row.target];
    const measured = doc.samples.filter((s) => s.target === row.target && !s.warmup).length;
    const [, , n, median, p95, p99, cv, errorRate] = row.values;
    assert.equal(row.label, doc.plan.targets[row.target].label);
    assert.equal(n, line.ttft.n, `n of ${row.label}`);
    assert.equal(median, line.ttft.median, `median of ${row.label}`);
    assert.equal(p95, line.ttft.p95, `p95 of ${row.label}`);
    assert.equal(p99, line.ttft.p99, `p99 of ${row.label}`);
    assert.equal(cv, line.ttft.cv_pct, `CV of ${row.label}`);
    close(errorRate, line.errors / measured, `error rate of ${row.label}`);
  }

  // Every chart canvas is drawn: sized, inked, in more than one colour.
  const ids = await page.$$eval("figure.chart canvas", (cs) => cs.map((c) => c.id));
  assert.ok(ids.length >= 2 + withTtft.length, `charts: ${ids.join(", ")}`);
  for (const id of ids) {
    const ink = await canvasInk(page, id);
    assert.ok(ink.width >= ink.cssWidth && ink.cssWidth > 200, `${id} backing store fits its box: ${JSON.stringify(ink)}`);
    assert.ok(ink.ink > ink.width * ink.height * 0.01, `${id} has ink: ${JSON.stringify(ink)}`);
    assert.ok(ink.colours >= 3, `${id} is drawn in several colours: ${JSON.stringify(ink)}`);
  }

  // A chart downloads as a PNG of the canvas's size.
  const png = await download(page, `figure.chart:has(#${ids[0]}) button.png`);
  assert.equal(png.name, `firsttoken-${ids[0]}.png`);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
  const { width, height } = await canvasInk(page, ids[0]);
  assert.deepEqual([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], [width, height], "PNG size is the canvas's");
  return doc;
}

/**
 * Latin-script words the Chinese UI may show: the product's name, the
 * English button (a language is offered in its own name), and technical
 * tokens Chinese-speaking users write in Latin letters too.
 */
const ALLOWED_LATIN = new Set([
  "FirstToken", "English", "TTFT", "Token", "p90", "p95", "p99", "CV", "JSON", "CSV", "PNG", "API", "URL", "n", "ms", "s",
  // HTTP status classes (4xx, 5xx: the word match starts at the letters),
  // said as codes in every language, and the protocol's own name ("HTTP 错误",
  // which the targets-without-a-success section says of a target whose every
  // request got an error status).
  "xx", "HTTP",
]);

/**
 * Names the hints must quote as they are, because a person types or looks
 * them up verbatim: a browser storage API, a hosting service, an endpoint
 * name, and HTTP headers (`name: value`, removed by pattern below).
 */
const ALLOWED_VERBATIM = [
  "localStorage", "GitHub Pages", "streamGenerateContent",
  // The products whose configs the routing exports write, and the header a 429 carries.
  "LiteLLM", "OpenRouter", "Retry-After",
];
const HEADER = /\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+:\s*[a-z0-9]+/g;

/**
 * Latin words left in the visible labels, headings, buttons, table headers,
 * captions and sentences, once user data (target labels, model names,
 * provider and preset names, URLs) is taken out.
 */
async function englishLeftovers(page, userData) {
  const texts = await page.$$eval(
    "label, h1, h2, h3, button, th, legend, figcaption, summary, .verdict, .sentence, .notes li, .tails li, .hint, .progress-text, table.routing td",
    (els) => els.filter((e) => e.offsetParent !== null || e.closest("details")).map((e) => e.innerText || e.textContent),
  );
  const data = [...userData].filter(Boolean).sort((a, b) => b.length - a.length);
  const left = new Set();
  for (let text of texts) {
    for (const item of data) text = text.split(item).join(" ");
    text = text.replace(/(?:https?|demo):\/\/\S+/g, " ").replace(HEADER, " ");
    for (const name of ALLOWED_VERBATIM) text = text.split(name).join(" ");
    for (const word of text.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) {
      if (!ALLOWED_LATIN.has(word)) left.add(`${word} (in "${text.trim().slice(0, 80)}")`);
    }
  }
  return [...left];
}

async function userDataOf(page, doc) {
  const presetNames = await page.$$eval("select[id$='-provider'] option", (os) => os.map((o) => o.textContent));
  return new Set([
    ...doc.plan.targets.flatMap((t) => [t.label, t.model, t.base_url]),
    ...presetNames,
    // A failure's recorded message and the provider's words in it: data, like a label.
    ...recordedWords(doc.samples),
  ]);
}

test("a mixed plan typed into the form runs against the mock, and its results match the export", async () => {
  await resetMock(servers.mock);
  const page = await openPage(browser, servers.site);
  const mock = servers.mock;
  await page.waitForSelector("#target-1-provider");

  // Three demo rows and the fidelity check to start with: a latency-only
  // plan here, its first rows turned into OpenAI, Anthropic and Gemini rows.
  await page.uncheck("#fidelity-check");
  await page.selectOption("#target-0-provider", "openai");
  assert.equal(await page.inputValue("#target-0-base"), "https://api.openai.com/v1", "the preset fills the base URL");
  // The demo's model goes with the demo: the row starts with no model, and
  // its label is the provider's name until a model is typed.
  assert.equal(await page.inputValue("#target-0-model"), "", "no demo model on an OpenAI row");
  assert.equal(await page.inputValue("#target-0-label"), "OpenAI");
  await typeInto(page, "#target-0-base", `${mock}/v1`);
  await typeInto(page, "#target-0-model", "fixed@40");
  await typeInto(page, "#target-0-label", "OpenAI · fixed 40");
  await page.selectOption("#target-1-provider", "anthropic");
  await typeInto(page, "#target-1-base", mock);
  await typeInto(page, "#target-1-model", "bimodal");
  await typeInto(page, "#target-1-label", "Anthropic · bimodal");

  // The third row becomes Gemini; "Add target" copies the last row, made a failing one.
  await page.selectOption("#target-2-provider", "gemini");
  await typeInto(page, "#target-2-base", mock);
  await typeInto(page, "#target-2-model", "fixed@80");
  await typeInto(page, "#target-2-label", "Gemini · fixed 80");
  await page.getByRole("button", { name: "Add target" }).click();
  await page.selectOption("#target-3-provider", "custom");
  await typeInto(page, "#target-3-base", `${mock}/v1`);
  await typeInto(page, "#target-3-model", "http-500");
  await typeInto(page, "#target-3-label", "Broken · 500");
  assert.equal(await page.locator("fieldset.target-row").count(), 4);

  // One key field per origin: every target here is on the mock's host, so
  // one field, named by that host (and as a custom host, since the presets'
  // own hosts are elsewhere); the mock takes any key.
  const keyFields = page.locator(".key-row input[type=password]");
  assert.equal(await keyFields.count(), 1, "the four targets share the mock's origin");
  assert.match(await page.textContent(".key-row label"), new RegExp(new URL(mock).host.replace(".", "\\.")));
  await keyFields.nth(0).fill("test-key-0");

  await typeInto(page, "#plan-requests", 12);
  await typeInto(page, "#plan-warmup", 1);
  await typeInto(page, "#plan-spacing", "0.02");
  await typeInto(page, "#plan-jitter", 0);
  await typeInto(page, "#plan-timeout", 10);
  assert.match(await page.textContent(".warnings"), /75/, "below 75 requests the page says why that is few");

  await page.click("#start");
  await page.waitForSelector("#live-table");
  assert.match(await page.textContent("#progress-text"), /^\d+ \/ 52\b/, "4 × (12 + 1) requests planned");
  await waitForRunEnd(page);
  assert.match(await page.textContent("#progress-text"), /^52 \/ 52/);

  const live = await page.$$eval("#live-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(live.map((r) => r[0]), ["OpenAI · fixed 40", "Anthropic · bimodal", "Gemini · fixed 80", "Broken · 500"]);
  assert.deepEqual(live.map((r) => r[1]), ["12 / 12", "12 / 12", "12 / 12", "12 / 12"]);
  assert.deepEqual(live.map((r) => r[2]), ["0", "0", "0", "12"], "errors per target: only the failing one");
  assert.match(await page.textContent(".error-list"), /Broken · 500/);

  await page.getByRole("button", { name: "Results" }).last().click();
  const doc = await checkResults(page);

  // The exported plan is the typed one, and what the mock saw agrees.
  assert.deepEqual(doc.plan.targets.map((t) => [t.protocol, t.base_url, t.model]), [
    ["openai", `${mock}/v1`, "fixed@40"],
    ["anthropic", mock, "bimodal"],
    ["gemini", mock, "fixed@80"],
    ["openai", `${mock}/v1`, "http-500"],
  ]);
  assert.deepEqual([doc.plan.requests_per_target, doc.plan.warmup_per_target, doc.plan.spacing_s], [12, 1, 0.02]);
  const broken = doc.summary[3];
  assert.deepEqual([broken.ttft, broken.errors], [null, 12]);
  const fixed40 = doc.summary[0].ttft;
  assert.ok(fixed40.median >= 40 && fixed40.median < 400, `fixed@40 measured about 40 ms: ${fixed40.median}`);
  const fixed80 = doc.summary[2].ttft;
  assert.ok(fixed80.median >= 80 && fixed80.median > fixed40.median, `fixed@80 is slower: ${fixed80.median}`);
  assert.ok(!doc.samples.some((s) => JSON.stringify(s).includes("test-key")), "no key in the export");

  // The failing target is listed where it has no latency: the time-of-day table.
  const tod = await page.$$eval("#time-of-day tbody th", (ths) => ths.map((th) => th.textContent));
  assert.ok(tod.includes("Broken · 500"));

  // The Chinese UI, on each screen, has no English left in its labels.
  await page.click("button.lang[lang='zh-CN']");
  await page.waitForSelector("html[lang='zh-CN']");
  const userData = await page.getByRole("button", { name: "设置" }).click().then(() => userDataOf(page, doc));
  const leftovers = {};
  leftovers.setup = await englishLeftovers(page, userData);
  await page.getByRole("button", { name: "运行", exact: true }).click();
  await page.waitForSelector("#live-table");
  leftovers.run = await englishLeftovers(page, userData);
  await page.getByRole("button", { name: "结果" }).first().click();
  await page.waitForSelector("table.comparison");
  leftovers.results = await englishLeftovers(page, userData);
  await page.getByRole("button", { name: "历史" }).click();
  leftovers.history = await englishLeftovers(page, userData);
  assert.deepEqual(leftovers, { setup: [], run: [], results: [], history: [] });

  // A bad field is explained in Chinese too (core's words for the problem).
  await page.getByRole("button", { name: "设置" }).click();
  await typeInto(page, "#plan-requests", "lots");
  await page.waitForSelector(".errors li");
  assert.deepEqual(await page.locator(".errors li").allTextContents(), ['requests_per_target："lots" 不是整数']);
  await typeInto(page, "#plan-requests", 12);
  await page.waitForSelector(".errors", { state: "detached" });

  // The Chinese results show the same figures.
  await page.getByRole("button", { name: "结果" }).first().click();
  const zh = await page.$$eval("table.comparison tbody tr td[data-value]", (tds) => tds.map((td) => td.dataset.value));
  assert.ok(zh.length > 0);
  // The browser logs each of the failing target's 13 answers (warm-up
  // included) as a failed resource; nothing else may be logged.
  const failedLoads = page.problems.filter((p) => /status of 500/.test(p));
  assert.equal(failedLoads.length, 13);
  assert.deepEqual(page.problems.filter((p) => !failedLoads.includes(p)), []);
});

test("a demo-provider run reaches results that match its export", async () => {
  const plan = {
    firsttoken_plan: 1,
    targets: [
      { label: "Demo A · steady", protocol: "demo", base_url: "demo://steady", model: "demo-llm", provider: "demo" },
      { label: "Demo B · cold starts", protocol: "demo", base_url: "demo://cold-tail", model: "demo-llm", provider: "demo" },
      { label: "Demo C · reasoning", protocol: "demo", base_url: "demo://reasoning", model: "demo-reasoner", provider: "demo" },
    ],
    requests_per_target: 6, warmup_per_target: 1, spacing_s: 0.02, jitter_s: 0, spread_hours: null,
    timeout_s: 30, prompt: "Say hi.", nonce: false, max_tokens: 16, temperature: 0,
    reasoning_counts_as_first_token: false, peak_hours: [9, 18],
  };
  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`);
  await page.click("#start");
  await waitForRunEnd(page);
  await page.getByRole("button", { name: "Results" }).last().click();
  const doc = await checkResults(page);
  assert.deepEqual(doc.summary.map((l) => l.ttft?.n), [6, 6, 6]);
  // The two demo-llm targets are compared in one block; the reasoner has its own.
  const blocks = await page.$$eval("section.model-block", (ss) => ss.map((s) => s.querySelectorAll("tbody tr").length));
  assert.deepEqual(blocks, [2, 1]);
  const reasoner = doc.summary[2].ttft.median;
  assert.ok(reasoner > doc.summary[0].ttft.median, `the reasoner answers later: ${reasoner}`);
  assert.deepEqual(page.problems, []);
});
