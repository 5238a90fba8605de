// Every screen a newcomer sees, at 400 and 1280 px, in English and in
// Chinese: setup, a run, results (the demo's with the fidelity check, a
// plain run's, a sized run's with the fidelity check), history, the
// dashboard and `firsttoken report --html`. On each (tests/screen-checks.mjs):
// the page is no wider than the screen and no text is cut off (an element
// clipping its text, a placeholder longer than its field, a chart label
// shortened with "…"); in Chinese, no English word outside the names a
// person reads as they are; one colour per target across the screen's
// charts. And: Test connection's and List models' errors speak Chinese, a
// notice shows where the person is, the language survives a reload.
// Pictures of every screen checked go to e2e/out/screens-checked/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  anthropicTarget,
  closedPort,
  geminiTarget,
  openaiTarget,
  outDir,
  planFragment,
  quickPlan,
  repo,
  startServers,
  waitForRunEnd,
  withServersAndBrowser,
  runExpecting,
  CLI_BIN,
} from "./harness.mjs";
import { MONITOR_TARGETS, writeMonitorDir } from "./monitor-data.mjs";
import {
  chartDrawings,
  colourProblems,
  cutChartText,
  englishWords,
  recordedWords,
  layoutProblems,
  markerLegendProblems,
  recordCanvas,
  svgDrawings,
  targetColours,
  tokenWordProblems,
  visibleTexts,
} from "./screen-checks.mjs";

const pictures = resolve(outDir, "screens-checked");
mkdirSync(pictures, { recursive: true });

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

/** A page at `url` whose canvases are recorded; fails the test on page errors. */
async function open(url, { locale = "en-US", width = 1280 } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale, acceptDownloads: true });
  await recordCanvas(context);
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector("header.top h1");
  return page;
}

const DRAWN = /firsttoken:(charts|dashboard)-drawn/;

/** Runs `action` and, when the page has charts, waits until they are drawn again. */
async function redrawn(page, action) {
  // The page clears a mark before setting it again: the newest one's time tells a new drawing.
  const latest = (source) => Math.max(-1, ...performance.getEntriesByType("mark").filter((m) => new RegExp(source).test(m.name)).map((m) => m.startTime));
  const charts = (await page.$(".chart-grid figure.chart canvas")) !== null;
  const before = await page.evaluate(latest, DRAWN.source);
  await action();
  if (charts) {
    await page.waitForFunction(
      ([source, then]) => Math.max(-1, ...performance.getEntriesByType("mark").filter((m) => new RegExp(source).test(m.name)).map((m) => m.startTime)) > then,
      [DRAWN.source, before],
      { timeout: 20_000 },
    );
  }
}

/** Lays the whole page out (results cards skip layout until scrolled near) and waits two frames. */
async function settle(page, width) {
  await page.waitForFunction((w) => document.documentElement.clientWidth === w, width);
  await page.evaluate(() => {
    for (const card of document.querySelectorAll(".results > *")) card.style.contentVisibility = "visible";
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * What is wrong with the screen as it is now: its layout, its charts' cut
 * labels and colours, and (in Chinese) its English.
 */
async function screenProblems(page, lang, { labels, names, others, charts, markers }) {
  // Only `names` are read as they are: a target's label is a name when the
  // person wrote it, and the page's own words (the demo's labels) when not.
  const problems = await layoutProblems(page);
  const drawings = charts ? await charts(page) : await chartDrawings(page);
  problems.push(...cutChartText(drawings));
  if (markers) problems.push(...markerLegendProblems(drawings));
  problems.push(...colourProblems(targetColours(drawings, labels, others)));
  if (lang === "zh-CN") {
    const texts = [...(await visibleTexts(page)), ...drawings.flatMap((c) => c.ops.filter((op) => op.kind === "text").map((op) => op.text))];
    problems.push(...englishWords(texts, names).map((w) => `English in Chinese: ${w}`));
    problems.push(...tokenWordProblems(texts));
  }
  return problems;
}

/**
 * The screen `view` of `page` in both languages at 400 and 1280 px: every
 * problem found, each named by where it was seen. `labels` are the targets'
 * labels (what the colour check looks for), `names` what is read as it is
 * in any language (the labels a person wrote, models, URLs, probe
 * questions, vantages), `others` series that are not targets (vantages);
 * `markers`: check that each chart's legend shows its point markers.
 */
async function everyWay(page, view, { labels = [], names = [], others = [], markers = false } = {}) {
  const problems = [];
  let width = page.viewportSize().width;
  for (const lang of ["en", "zh-CN"]) {
    if ((await page.getAttribute("html", "lang")) !== lang) {
      await redrawn(page, async () => {
        await page.click(`button.lang[lang='${lang}']`);
        await page.waitForSelector(`html[lang='${lang}']`);
      });
    }
    for (const next of [400, 1280]) {
      if (next !== width) {
        await redrawn(page, () => page.setViewportSize({ width: next, height: 900 }));
        width = next;
      }
      await settle(page, width);
      const seen = await screenProblems(page, lang, { labels, names, others, markers });
      problems.push(...seen.map((p) => `${view} · ${lang} · ${width} px: ${p}`));
      await page.screenshot({ path: resolve(pictures, `${view}-${lang}-${width}.png`), fullPage: true });
    }
  }
  return problems;
}

/** The probes' questions and the plan's own words a results screen quotes. */
async function quotedNames(page) {
  return page.$$eval("th.probe-head[title]", (ths) => ths.map((th) => th.title));
}

test("the demo: setup, run, results with the fidelity check and history fit the screen, speak Chinese and keep each target's colour", async () => {
  // Opened in Chinese, so the demo's own labels are Chinese ones.
  const page = await open(servers.site, { locale: "zh-CN" });
  await page.waitForSelector("#start");
  // The demo's labels are the page's words, not names: in Chinese they are Chinese.
  const labels = await page.$$eval("fieldset.target-row input[id$='-label']", (els) => els.map((e) => e.value));
  const names = ["demo-llm", "demo://steady", "demo://cold-tail", "demo://degraded"];
  const problems = await everyWay(page, "setup", { labels, names });

  for (const [field, value] of [["#plan-requests", "20"], ["#plan-spacing", "0.02"], ["#plan-jitter", "0"]]) await page.fill(field, value);
  await page.click("#start");
  await waitForRunEnd(page, 180_000);
  problems.push(...(await everyWay(page, "run", { labels, names })));

  await redrawn(page, () => page.locator("nav.tabs button").nth(2).click());
  await page.waitForSelector("table.fidelity-table");
  // A failed probe's replies opened, as a person reading them would.
  await page.click("#probe-grid td.probe-cell[data-target='2'] button >> nth=0");
  const quoted = await quotedNames(page);
  problems.push(...(await everyWay(page, "results-fidelity", { labels, names: [...names, ...quoted] })));

  // History lists the runs stored on the device, read when the page opens.
  await page.reload();
  await page.waitForSelector("html[lang='zh-CN']");
  await page.locator("nav.tabs button").nth(3).click();
  await page.waitForSelector(".history-list li");
  problems.push(...(await everyWay(page, "history", { labels, names })));
  assert.deepEqual(problems, [], problems.join("\n"));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a plain run's results (no prompt sizes, no fidelity check) fit the screen, speak Chinese and keep each target's colour", async () => {
  const plan = quickPlan(
    [
      openaiTarget(servers.mock, "fixed@40", "Acme Cloud · fixed-40"),
      anthropicTarget(servers.mock, "bimodal", "Borealis AI · bimodal"),
      geminiTarget(servers.mock, "fixed@80", "Cumulus Inference · fixed-80"),
    ],
    // Peak hours twelve hours away: the whole run is off-peak, as a run in
    // the evening is, and the time-of-day figures are the off-peak ones.
    { requests_per_target: 24, spacing_s: 0.02, peak_hours: [(new Date().getUTCHours() + 12) % 24, (new Date().getUTCHours() + 13) % 24], peak_tz: "+00:00" },
  );
  const page = await open(`${servers.site}#${planFragment(plan)}`);
  await page.waitForFunction(() => document.getElementById("target-2-label")?.value.startsWith("Cumulus"));
  await page.click("#start");
  await waitForRunEnd(page, 120_000);
  await redrawn(page, () => page.locator("nav.tabs button").nth(2).click());
  await page.waitForSelector("table.comparison");
  const labels = plan.targets.map((t) => t.label);
  const names = [...labels, ...plan.targets.flatMap((t) => [t.model, t.base_url])];
  const problems = await everyWay(page, "results-plain", { labels, names });
  assert.deepEqual(problems, [], problems.join("\n"));
  await page.context().close();
});

test("a sized run's results with the fidelity check, imported from the runner, fit the screen, speak Chinese and keep each target's colour", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "screens-sized");
  mkdirSync(dir, { recursive: true });
  const plan = {
    ...quickPlan(
      [
        openaiTarget(servers.mock, "prefill@200000/m", "Fast prefill"),
        anthropicTarget(servers.mock, "prefill-cached@60000/m", "Slow prefill, cached"),
        geminiTarget(servers.mock, "faithful@20", "Faithful"),
      ],
      { requests_per_target: 16, warmup_per_target: 1, spacing_s: 0.01, nonce: true, prompt_sizes: [128, 2048, 8192], prompt_cache_probe: true },
    ),
    fidelity: { suite: "basic-1", repeats: 1, reference: "Faithful" },
  };
  writeFileSync(resolve(dir, "plan.json"), JSON.stringify(plan));
  execFileSync(CLI_BIN, ["run", resolve(dir, "plan.json"), "-o", resolve(dir, "results.json")], { stdio: ["ignore", "ignore", "inherit"] });
  const page = await open(servers.site);
  await page.waitForSelector("#import-results", { state: "attached" });
  await page.setInputFiles("#import-results", [{ name: "results.json", mimeType: "application/json", buffer: readFileSync(resolve(dir, "results.json")) }]);
  await page.waitForSelector("#prefill table.prefill-sizes");
  await page.waitForSelector("table.fidelity-table");
  await page.waitForFunction(() => performance.getEntriesByName("firsttoken:charts-drawn").length > 0);
  const labels = plan.targets.map((t) => t.label);
  // A model is named by what follows the "/" of the mock's script name.
  const names = [...labels, ...plan.targets.flatMap((t) => [t.model, t.base_url, t.model.split("/").at(-1)]), ...(await quotedNames(page))];
  const problems = await everyWay(page, "results-sized", { labels, names });
  assert.deepEqual(problems, [], problems.join("\n"));
  await page.context().close();
});

test("the dashboard fits the screen, speaks Chinese and keeps each target's colour", async () => {
  const site = resolve(outDir, "site-screens");
  rmSync(site, { recursive: true, force: true });
  cpSync(resolve(repo, "dist"), site, { recursive: true });
  // Two vantages, one of them unnamed (its files named none).
  writeMonitorDir(resolve(site, "data"), { vantages: ["fra1", ""], days: 10, endMs: Date.UTC(2026, 11, 3, 5, 40) });
  const published = await startServers({ staticDir: site });
  try {
    const page = await open(`${published.site}?results=data/index.json`);
    await page.waitForFunction(() => performance.getEntriesByName("firsttoken:dashboard-drawn", "mark").length > 0, null, { timeout: 30_000 });
    const labels = MONITOR_TARGETS.map((t) => t.label);
    const names = [...labels, ...MONITOR_TARGETS.flatMap((t) => [t.model, t.base_url]), "fra1"];
    // A vantage no file named is a series too, and in Chinese it is Chinese.
    // Its charts' legends show the markers their points are drawn with.
    const problems = await everyWay(page, "dashboard", { labels, names, others: ["fra1", "(none)", "（未注明）"], markers: true });
    assert.deepEqual(problems, [], problems.join("\n"));
    await page.context().close();
  } finally {
    published.stop();
  }
});

test("firsttoken report --html fits the screen, speaks Chinese and keeps each target's colour", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "screens-report");
  mkdirSync(dir, { recursive: true });
  const results = resolve(dir, "results.json");
  const scripts = ["fixed@15", "bimodal", "fixed@60", "http-500"];
  const targets = scripts.flatMap((script) => ["--target", `custom:${script}@${servers.mock}/v1`]);
  // Exit 5: the http-500 target never answers, as scripted.
  runExpecting(CLI_BIN, [...targets, "-n", "24", "--warmup", "0", "--spacing", "0", "--timeout", "10", "-o", results], 5);
  const doc = JSON.parse(readFileSync(results, "utf8"));
  const labels = doc.plan.targets.map((t) => t.label);
  // A failure's recorded message and the provider's words in it: data, like a label.
  const quoted = recordedWords(doc.samples);
  const names = [...labels, ...doc.plan.targets.flatMap((t) => [t.model, t.base_url]), doc.environment.user_agent, ...quoted];
  const problems = [];
  for (const lang of ["en", "zh-CN"]) {
    const html = resolve(dir, `report.${lang}.html`);
    execFileSync(CLI_BIN, ["report", results, "--html", html, "--lang", lang], { stdio: ["ignore", "ignore", "inherit"] });
    for (const width of [400, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(pathToFileURL(html).href);
      await page.waitForLoadState("load");
      const seen = await screenProblems(page, lang, { labels, names, others: [], charts: svgDrawings });
      problems.push(...seen.map((p) => `report --html · ${lang} · ${width} px: ${p}`));
      await page.screenshot({ path: resolve(pictures, `report-${lang}-${width}.png`), fullPage: true });
      await context.close();
    }
  }
  assert.deepEqual(problems, [], problems.join("\n"));
});

test("Test connection's and List models' errors speak Chinese, a notice shows where the person is, and the language survives a reload", async () => {
  const port = await closedPort();
  const plan = quickPlan([
    { label: "Closed port", protocol: "openai", base_url: `http://127.0.0.1:${port}/v1`, model: "m", provider: "custom" },
    openaiTarget(servers.mock, "http-500", "Server error"),
  ]);
  const page = await open(`${servers.site}#${planFragment(plan)}`, { locale: "zh-CN", width: 400 });
  await page.waitForFunction(() => document.getElementById("target-1-label")?.value === "Server error");
  const names = [...plan.targets.flatMap((t) => [t.label, t.model, t.base_url]), `127.0.0.1:${port}`, new URL(servers.mock).host];

  // Test connection: a blocked request, and an HTTP error with the provider's own words.
  const said = [];
  for (const row of await page.locator(".key-row").all()) {
    await row.getByRole("button").click();
    const status = row.locator(".status.bad");
    await status.waitFor({ timeout: 30_000 });
    said.push(await status.textContent());
  }
  // The mock's own words for an HTTP 500 are a quote: the sentence around them is Chinese.
  const providerWords = ["the server had an error while processing your request (mock script http-500)"];
  assert.deepEqual(englishWords(said, [...names, ...providerWords]), [], `Test connection said: ${said.join(" | ")}`);

  // List models of a server that cannot be reached: said in Chinese in
  // that target's own card, in view, with no page-wide notice over the
  // form; gone once the target is edited.
  {
    const row = page.locator("fieldset.target-row").nth(0);
    await row.getByRole("button", { name: "列出模型" }).click();
    const problem = page.locator("#target-0-models-problem");
    await problem.waitFor();
    const text = await problem.textContent();
    assert.deepEqual(englishWords([text], [...names, ...providerWords]), [], `List models said: ${text}`);
    const box = await problem.boundingBox();
    const height = page.viewportSize().height;
    assert.ok(box && box.y >= 0 && box.y + box.height <= height, `the problem is on screen: ${JSON.stringify(box)} in ${height} px`);
    assert.equal(await page.locator(".notice").count(), 0, "no notice covers the form");
    await page.fill("#target-0-base", `http://127.0.0.1:${port}/v2`);
    await problem.waitFor({ state: "detached" });
    await page.fill("#target-0-base", `http://127.0.0.1:${port}/v1`);
  }

  // A notice from the bottom of the page is in view too.
  await page.locator("#start").scrollIntoViewIfNeeded();
  await page.getByRole("button", { name: "复制计划链接" }).click();
  const box = await page.locator(".notice").boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= page.viewportSize().height, `the notice is on screen: ${JSON.stringify(box)}`);

  // The language chosen survives a reload, against the browser's own.
  await page.click("button.lang[lang='en']");
  await page.reload();
  await page.waitForSelector("html[lang='en']");
  assert.equal(await page.textContent("button.tab.current"), "Setup");
  await page.click("button.lang[lang='zh-CN']");
  await page.reload();
  await page.waitForSelector("html[lang='zh-CN']");
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
