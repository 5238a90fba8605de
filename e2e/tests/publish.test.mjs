// The monitor end to end with the real runner: `firsttoken run` measures the
// mock from two vantages, `firsttoken publish` adds both runs to a directory
// served next to the built page, and the page opened with
// `?results=data/index.json` shows, per target and vantage, the figures
// `firsttoken report --json` prints for the same runs, with every chart drawn.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { openPage, openaiTarget, outDir, quickPlan, withServersAndBrowser, CLI_BIN } from "./harness.mjs";

let servers, browser, site;
withServersAndBrowser(
  (started, launched, copy) => {
    [servers, browser, site] = [started, launched, copy];
  },
  { siteCopy: "site-publish" },
);

test("runs from two vantages published with `firsttoken publish` show in the dashboard as `firsttoken report` computes them", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const work = resolve(outDir, "publish-runs");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const plan = quickPlan(
    [openaiTarget(servers.mock, "fixed@5", "Steady"), openaiTarget(servers.mock, "fixed@20", "Slower")],
    { requests_per_target: 20, warmup_per_target: 1, spacing_s: 0 },
  );
  const planPath = resolve(work, "plan.json");
  writeFileSync(planPath, JSON.stringify(plan));
  const data = resolve(site, "data");
  const runs = ["fra1", "sgp1"].map((vantage) => {
    const results = resolve(work, `${vantage}.json`);
    execFileSync(CLI_BIN, ["run", planPath, "-o", results, "--vantage", vantage], { stdio: ["ignore", "ignore", "inherit"] });
    const printed = execFileSync(CLI_BIN, ["publish", data, results, "--schedule-minutes", "60"], { encoding: "utf8" });
    assert.match(printed, new RegExp(`^published runs/.*\\.${vantage}\\.json into .* \\(vantage ${vantage}\\)`));
    return results;
  });
  const index = JSON.parse(readFileSync(resolve(data, "index.json"), "utf8"));
  assert.deepEqual(index.runs.map((r) => r.vantage), ["fra1", "sgp1"]);
  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", ...runs], { encoding: "utf8" }));

  const page = await openPage(browser, `${servers.site}?results=data/index.json`);
  await page.waitForSelector(".dashboard", { timeout: 30_000 });
  assert.equal(await page.textContent("#dashboard-vantages"), "fra1, sgp1");
  const rows = await page.$$eval("table.by-vantage tbody tr", (trs) =>
    trs.map((tr) => ({
      target: tr.dataset.target,
      vantage: tr.dataset.vantage,
      values: [...tr.cells].map((td) => td.dataset.value).map((v) => (v === undefined ? null : Number(v))),
    })),
  );
  assert.equal(rows.length, 4, JSON.stringify(rows));
  for (const row of rows) {
    // The report names each target by vantage, as the page's import does.
    const figures = report.targets.find((t) => t.label === `${row.target} · ${row.vantage}`);
    assert.ok(figures, `${row.target} · ${row.vantage} in the report`);
    // cells: target, vantage, requests, n, median, p95, errors, error rate
    const [, , requests, n, median, p95, errors] = row.values;
    assert.equal(requests, figures.requests, `${row.target} · ${row.vantage} requests`);
    assert.equal(errors, figures.errors);
    assert.equal(n, figures.ttft_ms.n);
    assert.ok(Math.abs(median - figures.ttft_ms.median) <= 1e-9 * median, `median ${median} vs ${figures.ttft_ms.median}`);
    assert.ok(Math.abs(p95 - figures.ttft_ms.p95) <= 1e-9 * p95, `p95 ${p95} vs ${figures.ttft_ms.p95}`);
  }

  await page.waitForFunction(() => performance.getEntriesByName("firsttoken:dashboard-drawn").length > 0);
  const drawn = await page.$$eval("figure.chart canvas", (canvases) =>
    canvases.map((canvas) => {
      const { width, height } = canvas;
      if (!width || !height) return { id: canvas.id, drawn: false };
      const pixels = canvas.getContext("2d").getImageData(0, 0, width, height).data;
      let ink = 0;
      for (let i = 0; i < pixels.length; i += 4 * 7) if (pixels[i] < 200 || pixels[i + 1] < 200 || pixels[i + 2] < 200) ink++;
      return { id: canvas.id, drawn: ink > 200 };
    }),
  );
  assert.ok(drawn.length > 0, "charts are there");
  assert.deepEqual(drawn.filter((c) => !c.drawn), [], "every chart is drawn");
  assert.deepEqual(page.problems, []);
});
