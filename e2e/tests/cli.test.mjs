// The native runner's results in the page: `firsttoken run` measures the
// mock over three protocols, the page imports the file it wrote, and every
// figure of the page's comparison table equals what `firsttoken report
// --json` prints for the same file. One core, two adapters: both read the
// file with core's import and compute with core's report.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  anthropicTarget,
  downloadText,
  geminiTarget,
  openPage,
  openaiTarget,
  outDir,
  quickPlan,
  withServersAndBrowser,
  runExpecting,
  CLI_BIN,
  copyPlanLink,
  planFromLink,
} from "./harness.mjs";


let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

test("the page shows a CLI-written results file with the figures of `firsttoken report --json`", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "cli");
  mkdirSync(dir, { recursive: true });
  const plan = quickPlan(
    [
      openaiTarget(servers.mock, "fixed@30", "OpenAI fixed"),
      anthropicTarget(servers.mock, "bimodal", "Anthropic bimodal"),
      geminiTarget(servers.mock, "fixed@60", "Gemini fixed"),
      openaiTarget(servers.mock, "http-500", "OpenAI failing"),
    ],
    { requests_per_target: 6, warmup_per_target: 1, spacing_s: 0.02 },
  );
  const planPath = resolve(dir, "plan.json");
  const results = resolve(dir, "results.json");
  writeFileSync(planPath, JSON.stringify(plan));
  // Exit 5: "OpenAI failing" never answers, as scripted.
  runExpecting(CLI_BIN, [planPath, "-o", results, "--vantage", "e2e"], 5);
  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", results], { encoding: "utf8" }));
  const doc = JSON.parse(readFileSync(results, "utf8"));
  assert.equal(doc.samples.length, 4 * 7, "every planned sample");

  const page = await openPage(browser, servers.site);
  await page.setInputFiles("#import-results", [
    { name: "results.json", mimeType: "application/json", buffer: readFileSync(results) },
  ]);
  await page.waitForSelector("table.comparison");
  const rows = await page.$$eval("table.comparison tbody tr", (trs) =>
    trs.map((tr) => ({
      target: Number(tr.dataset.target),
      label: tr.querySelector("th").textContent,
      values: [...tr.cells].map((c) => (c.dataset.value === undefined ? null : Number(c.dataset.value))),
    })),
  );
  const measured = report.targets.filter((t) => t.ttft_ms);
  assert.deepEqual(
    rows.map((r) => r.target).sort(),
    measured.map((t) => t.target).sort(),
    "one row per target that has successes, as in the report",
  );
  for (const row of rows) {
    const figures = report.targets.find((t) => t.target === row.target);
    const [, , n, median, p95, p99, cv, errorRate] = row.values;
    assert.equal(row.label, figures.label);
    assert.equal(n, figures.ttft_ms.n, `n of ${row.label}`);
    assert.equal(median, figures.ttft_ms.median, `median of ${row.label}`);
    assert.equal(p95, figures.ttft_ms.p95, `p95 of ${row.label}`);
    assert.equal(p99, figures.ttft_ms.p99, `p99 of ${row.label}`);
    assert.equal(cv, figures.ttft_ms.cv_pct, `CV of ${row.label}`);
    assert.equal(errorRate, figures.error_rate, `error rate of ${row.label}`);
  }
  // The failing target is in the report with its typed errors, not in the table.
  const failing = report.targets.find((t) => t.label === "OpenAI failing");
  assert.equal(failing.ttft_ms, null);
  assert.equal(failing.errors_by_kind.http_status, 6);

  // The page's export of the imported file carries the same summary rows
  // (figures, intervals, verdicts) as `report --json`, and keeps what the
  // runner recorded: who measured, from where, and the connection phases.
  const exported = JSON.parse((await downloadText(page, "#export-json")).text);
  assert.deepEqual(exported.summary, report.summary);
  for (const member of ["median_ci", "p95_ci", "ci_method", "ci_block_length"]) {
    assert.ok(member in report.summary[0].ttft, member);
  }
  assert.ok("verdict_status" in report.summary[0]);
  assert.equal(exported.environment.runner, "cli");
  assert.equal(exported.environment.vantage, "e2e");
  assert.deepEqual(exported.samples.map((s) => s.connection), doc.samples.map((s) => s.connection));
  assert.ok(exported.samples[0].connection.connect_ms >= 0, "the first request opened the connection");
  assert.deepEqual(page.problems, []);
});

test("files from two vantages are told apart by vantage in the tables, charts, comparison and routing", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "cli-vantages");
  mkdirSync(dir, { recursive: true });
  const plan = quickPlan([openaiTarget(servers.mock, "fixed@5", "DeepSeek V4 Pro")], {
    requests_per_target: 20,
    warmup_per_target: 0,
    spacing_s: 0,
  });
  const planPath = resolve(dir, "plan.json");
  writeFileSync(planPath, JSON.stringify(plan));
  const files = ["fra1", "sgp1"].map((vantage) => {
    const results = resolve(dir, `${vantage}.json`);
    execFileSync(CLI_BIN, ["run", planPath, "-o", results, "--vantage", vantage], { stdio: ["ignore", "ignore", "inherit"] });
    const doc = JSON.parse(readFileSync(results, "utf8"));
    assert.equal(doc.environment.runner, "cli");
    assert.equal(doc.environment.vantage, vantage);
    return results;
  });
  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", ...files], { encoding: "utf8" }));
  const labels = ["DeepSeek V4 Pro · fra1", "DeepSeek V4 Pro · sgp1"];
  assert.deepEqual(report.targets.map((t) => t.label), labels);

  const page = await openPage(browser, servers.site);
  await page.setInputFiles(
    "#import-results",
    files.map((file, i) => ({ name: `${i}.json`, mimeType: "application/json", buffer: readFileSync(file) })),
  );
  await page.waitForSelector("table.comparison");
  const rows = await page.$$eval("table.comparison tbody tr", (trs) =>
    trs.map((tr) => ({ label: tr.querySelector("th").textContent, median: Number(tr.cells[3].dataset.value) })),
  );
  assert.deepEqual(rows.map((r) => r.label).sort(), labels, "one comparison row per vantage");
  for (const row of rows) {
    const figures = report.targets.find((t) => t.label === row.label);
    assert.equal(row.median, figures.ttft_ms.median, `median of ${row.label}`);
  }
  const routed = await page.$eval("table.routing tbody td[data-label='Target']", (td) => td.textContent);
  assert.equal(routed, report.routing.routes[0].label, "the route names the vantage");
  assert.ok(labels.includes(routed), routed);
  const chartText = await page.$$eval("figure.chart details.numbers tbody", (bodies) => bodies.map((b) => b.textContent));
  assert.ok(chartText.length > 0, "charts are drawn");
  for (const label of labels) {
    assert.ok(chartText.some((text) => text.includes(label)), `a chart shows ${label}`);
  }
  assert.deepEqual(page.problems, []);
});

test("the page opens the plan `firsttoken plan --print-link` links to, the one --save-plan wrote", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "cli-link");
  mkdirSync(dir, { recursive: true });
  const saved = resolve(dir, "plan.json");
  const link = execFileSync(
    CLI_BIN,
    [
      "plan",
      "--target", `custom:fixed@30@${servers.mock}/v1`,
      "--target", "demo:demo-llm@demo://cold-tail",
      "--target", "ollama:qwen3:8b",
      "-n", "20", "--spacing", "0.3", "--jitter", "1", "--fidelity",
      "--save-plan", saved, "--print-link", "--page-url", servers.site,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  ).trim();
  assert.ok(link.startsWith(`${servers.site}#plan=`), link);
  const plan = JSON.parse(readFileSync(saved, "utf8"));
  assert.equal(plan.jitter_s, 0.06, "the jitter fitted to the spacing");

  const page = await openPage(browser, link);
  await page.waitForFunction((label) => document.getElementById("target-0-label")?.value === label, plan.targets[0].label);
  assert.equal(await page.inputValue("#target-2-model"), "qwen3:8b");
  assert.equal(await page.isDisabled("#start"), false, "the page takes the plan as valid");
  // The page's own link for what it shows is the same plan, field by field.
  const fromPage = planFromLink(await copyPlanLink(page, servers.site));
  assert.deepEqual(fromPage, plan);
  assert.deepEqual(page.problems, []);
});
