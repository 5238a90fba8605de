// Timeouts are the slowest requests, not missing ones. Against the mock with
// cold starts (2.5–3.5 s) longer than a 1 s timeout, neither the page (its
// own run, and an imported `firsttoken run` file), nor its export, nor
// `firsttoken report` may call a target "solid": the timeouts rank at the
// timeout, the figures they reach read "≥", and the export says how many
// were censored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  downloadText,
  openPage,
  openaiTarget,
  outDir,
  planFragment,
  quickPlan,
  waitForRunEnd,
  withServersAndBrowser,
  CLI_BIN,
} from "./harness.mjs";


let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

/** 10 % cold starts of 2.5–3.5 s against a 1 s timeout, 30 requests each. */
function coldPlan() {
  return quickPlan(
    [openaiTarget(servers.mock, "bimodal@10", "Cold A"), openaiTarget(servers.mock, "bimodal@12", "Cold B")],
    { requests_per_target: 30, warmup_per_target: 0, spacing_s: 0.02, timeout_s: 1 },
  );
}

/** The verdict cells, censoring marks and lower-bound cells of the comparison tables. */
async function pageVerdicts(page) {
  await page.waitForSelector("table.comparison");
  return page.$$eval("table.comparison tbody tr", (trs) =>
    trs.map((tr) => ({
      label: tr.querySelector("th").textContent,
      verdict: tr.querySelector(".verdict-cell").textContent,
      lowerBounds: [...tr.querySelectorAll("td[data-lower-bound]")].map((td) => td.dataset.label),
      text: tr.textContent,
    })),
  );
}

function checkSummary(summary, where) {
  const censored = summary.reduce((sum, line) => sum + (line.ttft?.censored ?? 0), 0);
  assert.ok(censored > 0, `${where}: some timeouts are censored`);
  for (const line of summary) {
    assert.notEqual(line.verdict, "solid", `${where}: target ${line.target} is not solid`);
    if (line.ttft.censored > 0) {
      assert.equal(line.ttft.cv_is_lower_bound, true, `${where}: CV is a lower bound`);
      assert.ok(line.ttft.slow.count >= line.ttft.censored, `${where}: timeouts are slow requests`);
    }
  }
}

test("a firsttoken run with cold starts past the timeout: no 'solid' in report, page or export", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "censoring");
  mkdirSync(dir, { recursive: true });
  const planPath = resolve(dir, "plan.json");
  const results = resolve(dir, "results.json");
  writeFileSync(planPath, JSON.stringify(coldPlan()));
  execFileSync(CLI_BIN, ["run", planPath, "-o", results], { stdio: ["ignore", "ignore", "inherit"] });
  const doc = JSON.parse(readFileSync(results, "utf8"));
  const timeouts = doc.samples.filter((s) => s.error?.kind === "timeout").length;
  assert.ok(timeouts > 0, "the mock's cold starts outlast the timeout");

  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", results], { encoding: "utf8" }));
  for (const target of report.targets) {
    assert.notEqual(target.verdict, "solid", `report: ${target.label}`);
  }
  assert.equal(report.targets.reduce((sum, t) => sum + t.censored, 0), timeouts);
  checkSummary(report.summary, "report --json");
  const text = execFileSync(CLI_BIN, ["report", results], { encoding: "utf8" });
  assert.doesNotMatch(text, /\bsolid\b/, "report text");
  assert.match(text, /saw no first token within the 1 s timeout/);

  const page = await openPage(browser, servers.site);
  await page.setInputFiles("#import-results", [
    { name: "results.json", mimeType: "application/json", buffer: readFileSync(results) },
  ]);
  const rows = await pageVerdicts(page);
  assert.equal(rows.length, 2);
  for (const row of rows) {
    assert.doesNotMatch(row.verdict, /solid/, `page: ${row.label}`);
    assert.ok(row.lowerBounds.length > 0, `page: ${row.label} marks its lower bounds`);
    assert.match(row.text, /≥/);
  }
  const exported = JSON.parse((await downloadText(page, "#export-json")).text);
  assert.deepEqual(exported.summary, report.summary, "the page's export says what the report says");
  checkSummary(exported.summary, "page export");
  assert.deepEqual(page.problems, []);
});

test("the page's own run with cold starts past the timeout reads no 'solid'", async () => {
  const plan = coldPlan();
  plan.requests_per_target = 25;
  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`);
  await page.click("#start");
  await waitForRunEnd(page);
  await page.click("nav.tabs button:has-text('Results')");
  const rows = await pageVerdicts(page);
  for (const row of rows) {
    assert.doesNotMatch(row.verdict, /solid/, `page run: ${row.label}`);
  }
  const exported = JSON.parse((await downloadText(page, "#export-json")).text);
  const timeouts = exported.samples.filter((s) => s.error?.kind === "timeout").length;
  assert.ok(timeouts > 0, "the page timed out the cold starts");
  checkSummary(exported.summary, "page run export");
  assert.deepEqual(page.problems, []);
});
