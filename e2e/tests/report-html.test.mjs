// `firsttoken report --html`: the file headless Chromium opens from disk,
// with every chart drawn, no request leaving the file, and the figures of
// `firsttoken report --json` in its tables. It prints to PDF.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { launch, outDir, repo, runExpecting, CLI_BIN } from "./harness.mjs";

const MOCK_BIN = process.env.FIRSTTOKEN_MOCK_BIN || resolve(repo, "target/release/firsttoken-mock");

let mock, browser;
before(async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  assert.ok(existsSync(MOCK_BIN), `the mock is not built at ${MOCK_BIN}: run \`make mock\``);
  const child = spawn(MOCK_BIN, ["--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("mock provider did not start in 10 s")), 10_000);
    createInterface({ input: child.stdout }).on("line", (line) => {
      const found = line.match(/mock provider listening on (http:\S+)/);
      if (found) {
        clearTimeout(timer);
        ok(found[1]);
      }
    });
  });
  mock = { url, stop: () => child.kill() };
  browser = await launch();
});
after(async () => {
  await browser?.close();
  mock?.stop();
});

test("the HTML report opens from file:// with its charts drawn, loads nothing and shows report --json's figures", async () => {
  const dir = resolve(outDir, "report-html");
  mkdirSync(dir, { recursive: true });
  const results = resolve(dir, "results.json");
  const html = resolve(dir, "report.html");
  const targets = ["fixed@15", "fixed@60", "http-500"].flatMap((script) => ["--target", `custom:${script}@${mock.url}/v1`]);
  // Exit 5: the http-500 target never answers, as scripted.
  runExpecting(CLI_BIN, [...targets, "-n", "20", "--warmup", "0", "--spacing", "0", "--timeout", "10", "-o", results], 5);
  // A stranger's label: shown as text, never run.
  const doc = JSON.parse(readFileSync(results, "utf8"));
  doc.plan.targets[1].label = `<img src="${mock.url}/pixel.png" onerror="document.title='pwned'">Sixty`;
  writeFileSync(results, JSON.stringify(doc));
  execFileSync(CLI_BIN, ["report", results, "--html", html], { stdio: ["ignore", "ignore", "inherit"] });
  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", results], { encoding: "utf8" }));

  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const requests = [];
  const problems = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("pageerror", (e) => problems.push(e.message));
  const fileUrl = pathToFileURL(html).href;
  await page.goto(fileUrl);
  await page.waitForLoadState("load");

  assert.deepEqual(requests, [fileUrl], "nothing but the file itself");
  assert.deepEqual(problems, []);
  assert.notEqual(await page.title(), "pwned");
  assert.equal(await page.locator("img, script, iframe").count(), 0);
  assert.match(await page.textContent("main"), /<img src=.*Sixty/, "the label is text");

  // Every chart drawn: an SVG with a box on the page and its marks in it.
  const charts = await page.$$eval("figure.chart", (figures) =>
    figures.map((figure) => {
      const svg = figure.querySelector("svg");
      const box = svg?.getBoundingClientRect();
      return {
        id: figure.id,
        width: box?.width ?? 0,
        height: box?.height ?? 0,
        marks: svg ? svg.querySelectorAll("line, polyline, rect, circle, polygon, path").length : 0,
        texts: svg ? svg.querySelectorAll("text").length : 0,
      };
    }),
  );
  assert.ok(charts.length >= 4, JSON.stringify(charts));
  for (const chart of charts) {
    assert.ok(chart.width > 300 && chart.height > 100, JSON.stringify(chart));
    assert.ok(chart.marks > 10 && chart.texts > 3, JSON.stringify(chart));
  }

  // Named for assistive technology: the document's language, each chart
  // an image named by its caption, each table's headers marked.
  assert.equal(await page.getAttribute("html", "lang"), "en");
  const unnamed = await page.$$eval("svg", (svgs) =>
    svgs.filter((svg) => svg.getAttribute("role") !== "img" || !document.getElementById(svg.getAttribute("aria-labelledby"))?.textContent.trim()).length,
  );
  assert.equal(unnamed, 0, "every chart is named by its caption");
  const headless = await page.$$eval("table", (tables) => tables.filter((t) => !t.querySelector("th")).length);
  assert.equal(headless, 0, "every table has header cells");

  // The figures, unrounded, as report --json prints them.
  const rows = await page.$$eval("table.comparison tbody tr", (trs) =>
    trs.map((tr) => ({
      target: Number(tr.dataset.target),
      label: tr.querySelector("th").textContent,
      values: [...tr.querySelectorAll("[data-value]")].map((c) => Number(c.dataset.value)),
    })),
  );
  const measured = report.targets.filter((t) => t.ttft_ms);
  assert.deepEqual(rows.map((r) => r.target).sort(), measured.map((t) => t.target).sort());
  for (const row of rows) {
    const figures = report.targets.find((t) => t.target === row.target);
    const ttft = figures.ttft_ms;
    assert.equal(row.label, figures.label);
    assert.deepEqual(row.values, [ttft.n, ttft.median, ttft.p95, ttft.p99, ttft.cv_pct, figures.error_rate], row.label);
  }

  // It prints: a PDF of A4 pages, charts and tables kept whole.
  await page.emulateMedia({ media: "print" });
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  writeFileSync(resolve(dir, "report.pdf"), pdf);
  assert.ok(pdf.length > 20_000, `${pdf.length} bytes`);
  assert.deepEqual(requests, [fileUrl], "printing loads nothing either");
  await context.close();
});

// A phone: the report is read at 400 px as on a laptop. The page never
// scrolls sideways, a table wider than the screen scrolls in a box of its own
// with its last columns (CV, errors, verdict) reachable there, and the
// charts' text is drawn for the phone, not a 720 px chart shrunk to 5 px text.
test("the HTML report lays out at 400 px: no sideways page, tables scroll in their boxes, chart text readable", async () => {
  const dir = resolve(outDir, "report-html-narrow");
  mkdirSync(dir, { recursive: true });
  const results = resolve(dir, "results.json");
  const targets = ["fixed@15", "bimodal", "http-500"].flatMap((script) => ["--target", `custom:${script}@${mock.url}/v1`]);
  // Exit 5: the http-500 target never answers, as scripted.
  runExpecting(CLI_BIN, [...targets, "-n", "20", "--warmup", "0", "--spacing", "0", "--timeout", "10", "-o", results], 5);
  for (const lang of ["en", "zh-CN"]) {
    const html = resolve(dir, `report.${lang}.html`);
    execFileSync(CLI_BIN, ["report", results, "--html", html, "--lang", lang], { stdio: ["ignore", "ignore", "inherit"] });
    const context = await browser.newContext({ viewport: { width: 400, height: 800 } });
    const page = await context.newPage();
    await page.goto(pathToFileURL(html).href);
    await page.waitForLoadState("load");
    await page.screenshot({ path: resolve(dir, `report.${lang}.400.png`), fullPage: false });
    const layout = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      // Anything past the right edge that is not inside a scroll box.
      const outside = [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > width + 1 && !el.closest("div.scroll"))
        .map((el) => `${el.tagName}.${el.className}`);
      // Every table sits in a box that scrolls it, and its last column can
      // be scrolled into view.
      const tables = [...document.querySelectorAll("table")].map((table) => {
        const box = table.closest("div.scroll");
        if (!box) return { scrolls: false };
        const boxRect = box.getBoundingClientRect();
        const last = table.querySelector("tr > :last-child").getBoundingClientRect();
        return { scrolls: getComputedStyle(box).overflowX === "auto", reach: last.right - boxRect.left <= box.scrollWidth + 1, focusable: box.tabIndex === 0 };
      });
      // Chart text as drawn on the screen (the copy for the phone).
      const heights = [...document.querySelectorAll("figure.chart svg")]
        .filter((svg) => svg.getBoundingClientRect().width > 0)
        .flatMap((svg) => [...svg.querySelectorAll("text")].map((t) => t.getBoundingClientRect().height))
        .filter((h) => h > 0);
      const visibleCharts = [...document.querySelectorAll("figure.chart")].map(
        (f) => [...f.querySelectorAll("svg")].filter((svg) => svg.getBoundingClientRect().width > 0).length,
      );
      return { scrollWidth: document.documentElement.scrollWidth, width, outside, tables, minText: Math.min(...heights), visibleCharts };
    });
    assert.equal(layout.scrollWidth, layout.width, `${lang}: the page does not scroll sideways (${layout.outside.slice(0, 5)})`);
    assert.deepEqual(layout.outside, [], lang);
    assert.ok(layout.tables.length >= 3, lang);
    for (const table of layout.tables) assert.deepEqual(table, { scrolls: true, reach: true, focusable: true }, lang);
    assert.ok(layout.visibleCharts.length >= 4 && layout.visibleCharts.every((n) => n === 1), `${lang}: one copy of each chart shown ${layout.visibleCharts}`);
    assert.ok(layout.minText >= 9, `${lang}: chart text ${layout.minText} px high`);
    // The verdict column is reachable: scrolled into view in its box.
    const verdict = page.locator("table.comparison tbody tr:first-child td:last-child").first();
    await verdict.scrollIntoViewIfNeeded();
    const box = await verdict.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 401, `${lang}: the verdict cell scrolls into view ${JSON.stringify(box)}`);
    // Every row keeps its rank on the phone, as on a laptop.
    const ranks = await page.$$eval("table.comparison tbody tr td.rank", (cells) =>
      cells.map((td) => ({ shown: td.getBoundingClientRect().width > 0, text: td.textContent.trim() })),
    );
    assert.ok(ranks.length >= 2, `${lang}: ${JSON.stringify(ranks)}`);
    assert.ok(ranks.every((r) => r.shown && /^\d+$/.test(r.text)), `${lang}: ranks shown ${JSON.stringify(ranks)}`);
    await context.close();
  }
});

// The project's accessibility check: axe-core's WCAG 2 A and AA rules on the
// report opened from disk, in each language. The report's CSP runs no script,
// so axe is injected as content into a context that bypasses the CSP: it is
// not fetched, and still no request leaves the file.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

test("the HTML report passes axe-core's WCAG 2 A and AA rules in English and in Chinese", async () => {
  const dir = resolve(outDir, "report-html-a11y");
  mkdirSync(dir, { recursive: true });
  const results = resolve(dir, "results.json");
  const targets = ["fixed@15", "fixed@60", "http-500"].flatMap((script) => ["--target", `custom:${script}@${mock.url}/v1`]);
  // Exit 5: the http-500 target never answers, as scripted.
  runExpecting(CLI_BIN, [...targets, "-n", "20", "--warmup", "0", "--spacing", "0", "--timeout", "10", "-o", results], 5);
  const failures = [];
  for (const [lang, htmlLang] of [["en", "en"], ["zh-CN", "zh-CN"]]) {
    const html = resolve(dir, `report.${lang}.html`);
    execFileSync(CLI_BIN, ["report", results, "--html", html, "--lang", lang], { stdio: ["ignore", "ignore", "inherit"] });
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    const requests = [];
    page.on("request", (request) => requests.push(request.url()));
    const fileUrl = pathToFileURL(html).href;
    await page.goto(fileUrl);
    await page.waitForLoadState("load");
    assert.equal(await page.getAttribute("html", "lang"), htmlLang);
    await page.addScriptTag({ content: AXE_SOURCE });
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
    });
    assert.deepEqual(requests, [fileUrl], `${lang}: axe is injected, nothing is fetched`);
    for (const v of violations) failures.push(`${lang}: ${v.id} (${v.impact}): ${v.help}\n    ${v.targets.join("\n    ")}`);
    await context.close();
  }
  assert.equal(failures.length, 0, `axe found violations:\n${failures.join("\n")}`);
});
