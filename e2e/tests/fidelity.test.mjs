// The fidelity check end to end: the mock's faithful and degraded scripts in
// all three protocols, run by the page and by `firsttoken`; the verdicts in
// the page, its export and `firsttoken report`; page and runner agreeing
// figure for figure on one file; the demo's degraded provider found with no
// key; and the routing table naming the verdict beside the pick.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  anthropicTarget,
  downloadText,
  geminiTarget,
  openPage,
  openaiTarget,
  outDir,
  planFragment,
  quickPlan,
  repo,
  resetMock,
  startServers,
  waitForRunEnd,
  withServersAndBrowser,
  CLI_BIN,
} from "./harness.mjs";


let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

/** A faithful reference (OpenAI), the degraded script in Anthropic's
 * protocol, and the faithful one in Gemini's: one model's three providers. */
function fidelityPlan(mock) {
  return {
    ...quickPlan(
      [
        openaiTarget(mock, "faithful@20", "Faithful"),
        anthropicTarget(mock, "degraded", "Degraded"),
        geminiTarget(mock, "faithful@20", "Gemini faithful"),
      ],
      { requests_per_target: 3, warmup_per_target: 1, spacing_s: 0.02 },
    ),
    fidelity: { suite: "basic-1", repeats: 1, reference: "Faithful" },
  };
}

/** The fidelity table's rows, from their data attributes. */
async function fidelityRows(page) {
  return page.$$eval("table.fidelity-table tbody tr", (rows) => rows.map((tr) => ({ ...tr.dataset })));
}

test("the page runs the probes on the latency schedule and finds the degraded provider in every protocol", async () => {
  await resetMock(servers.mock);
  const page = await openPage(browser, `${servers.site}#${planFragment(fidelityPlan(servers.mock))}`);
  await page.waitForFunction(() => document.getElementById("target-0-label")?.value === "Faithful");
  assert.equal(await page.isChecked("#fidelity-check"), true, "the plan's check shows ticked");
  assert.match(await page.textContent("#fidelity-cost"), /30 short requests per target/);
  await page.click("#start");
  await waitForRunEnd(page, 120_000);
  // The run view counts each target's probe replies passed, beside its latency row.
  const live = await page.$$eval("#live-table td.probes", (tds) => tds.map((td) => [td.dataset.passed, td.dataset.replies, td.textContent]));
  assert.deepEqual(live, [["30", "30", "30 of 30"], ["21", "30", "21 of 30"], ["30", "30", "30 of 30"]]);
  await page.click("nav.tabs button:has-text('Results')");
  await page.waitForSelector("table.fidelity-table");
  const rows = await fidelityRows(page);
  assert.deepEqual(
    rows.map((r) => [r.target, r.verdict, r.passed, r.replies]),
    [
      ["0", "reference", "30", "30"],
      ["1", "differs", "21", "30"],
      ["2", "consistent", "30", "30"],
    ],
  );
  assert.equal(rows[1].promptTokensEqual, "0");
  // The grid: a failed cell opens on the reply and the right answer.
  const failed = await page.$$eval("#probe-grid td.probe-cell[data-target='1'][data-state='fail']", (cells) => cells.map((c) => c.dataset.probe));
  assert.equal(failed.length, 9);
  assert.ok(failed.includes("tool-weather-auto"), failed.join());
  await page.click("#probe-grid td.probe-cell[data-target='1'][data-probe='arith-mul'] button");
  const detail = await page.textContent("#probe-detail");
  assert.match(detail, /391/, "the right answer is shown");
  assert.match(detail, /381/, "and the reply that missed it");
  // The sentence says what was seen, never why.
  const sentences = await page.$$eval("ul.fidelity-sentences li", (items) => items.map((li) => li.textContent));
  assert.ok(sentences.some((s) => s.includes("answers differ from Faithful on 9 of 30 probe replies")), sentences.join("\n"));
  assert.ok(!sentences.join(" ").toLowerCase().includes("quantiz"));
  // Probe samples are exported with their timings, and kept out of the latency table.
  const doc = JSON.parse((await downloadText(page, "#export-json")).text);
  const probes = doc.samples.filter((s) => s.probe);
  assert.equal(probes.length, 90);
  assert.ok(probes.every((s) => s.ttft_ms > 0 && s.check), "timed and checked");
  const calls = probes.filter((s) => s.tool_calls);
  assert.ok(calls.length >= 15, "tool calls decoded in the page");
  assert.equal(doc.summary[1].fidelity.verdict, "differs");
  assert.equal(doc.summary[1].ttft.n, 3, "three latency requests, not 33");
  assert.deepEqual(page.problems, []);
});

test("for one runner file, the page and `firsttoken report` agree on the fidelity check figure for figure", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  await resetMock(servers.mock);
  const dir = resolve(outDir, "fidelity");
  mkdirSync(dir, { recursive: true });
  const planPath = resolve(dir, "plan.json");
  const results = resolve(dir, "results.json");
  writeFileSync(planPath, JSON.stringify(fidelityPlan(servers.mock)));
  execFileSync(CLI_BIN, ["run", planPath, "-o", results], { stdio: ["ignore", "ignore", "pipe"] });
  const cli = (...args) => execFileSync(CLI_BIN, ["report", ...args, results], { encoding: "utf8" });
  const report = JSON.parse(cli("--json"));

  const page = await openPage(browser, servers.site);
  await page.setInputFiles("#import-results", [{ name: "results.json", mimeType: "application/json", buffer: readFileSync(results) }]);
  await page.waitForSelector("table.fidelity-table");
  const exported = JSON.parse((await downloadText(page, "#export-json")).text);
  assert.deepEqual(exported.summary, report.summary, "the summary rows, fidelity included");
  const rows = await fidelityRows(page);
  for (const row of rows) {
    const figures = report.fidelity.targets[Number(row.target)];
    assert.equal(row.verdict, figures.verdict);
    assert.equal(Number(row.passed), figures.pass.passed);
    assert.equal(Number(row.replies), figures.pass.replies);
    assert.equal(Number(row.toolCalls), figures.tool_calls);
    assert.equal(Number(row.toolCallsValid), figures.tool_calls_valid);
  }
  assert.deepEqual(rows.map((r) => r.verdict), ["reference", "differs", "consistent"]);
  // Each grid cell is the report's cell.
  const cells = await page.$$eval("#probe-grid td.probe-cell", (tds) => tds.map((td) => ({ ...td.dataset })));
  for (const cell of cells) {
    const expected = report.fidelity.targets[Number(cell.target)].cells.find((c) => c.probe === cell.probe);
    assert.equal(Number(cell.passed), expected.passed, `${cell.target} ${cell.probe}`);
    assert.equal(Number(cell.replies), expected.replies);
  }
  // The sentences are core's, in both adapters.
  const text = cli();
  // The page keeps a number's groups together with no-break spaces; the
  // terminal's are plain.
  const sentences = await page.$$eval("ul.fidelity-sentences li", (items) => items.map((li) => li.textContent.replace(/\u00a0/g, " ")));
  for (const sentence of sentences) {
    const said = sentence.slice(sentence.indexOf(": ") + 2);
    assert.ok(text.includes(said), `the terminal says ${said}`);
  }
  // The routing export names each pick's fidelity verdict, as the runner's does.
  const routing = await downloadText(page, "#export-routing");
  assert.equal(routing.text + "\n", cli("--config", "routing"));
  const table = JSON.parse(routing.text);
  for (const route of table.routes) {
    if (route.target !== null) assert.ok(route.fidelity, `route ${route.model} names its pick's verdict`);
    for (const step of route.order) assert.ok(step.fidelity, `${step.label} has its verdict in the order`);
  }
  assert.deepEqual(page.problems, []);
});

test("the demo's degraded provider differs from the steady one, with no key", async () => {
  const plan = {
    firsttoken_plan: 1,
    targets: [
      { label: "Demo A · steady", protocol: "demo", base_url: "demo://steady", model: "demo-llm", provider: "demo" },
      { label: "Demo C · fast, answers differ", protocol: "demo", base_url: "demo://degraded", model: "demo-llm", provider: "demo" },
    ],
    requests_per_target: 2, warmup_per_target: 0, spacing_s: 0.02, jitter_s: 0, timeout_s: 30,
    fidelity: { suite: "basic-1", repeats: 1, reference: "Demo A · steady" },
  };
  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`);
  await page.waitForFunction(() => document.getElementById("target-1-label")?.value?.startsWith("Demo C"));
  await page.click("#start");
  await waitForRunEnd(page, 120_000);
  await page.click("nav.tabs button:has-text('Results')");
  await page.waitForSelector("table.fidelity-table");
  const rows = await fidelityRows(page);
  assert.deepEqual(rows.map((r) => [r.verdict, r.passed]), [["reference", "30"], ["differs", "21"]]);
  const routing = await page.$$eval("table.routing td.fidelity-cell", (tds) => tds.map((td) => td.dataset.value));
  assert.ok(routing.length > 0);
  const reason = await page.textContent("table.routing tbody");
  if (routing.includes("differs")) assert.match(reason, /answers differ from Demo A · steady's in the fidelity check/);
  // The best-provider line says it too when the pick is the one whose
  // answers differ, never a bare recommendation.
  const bestElement = await page.$(".best-provider");
  const best = bestElement ? await bestElement.textContent() : "";
  if (best.includes("Demo C")) assert.match(best, /but its answers differ from Demo A · steady's in the fidelity check/);
  else assert.doesNotMatch(best, /answers differ/);
  assert.deepEqual(page.problems, []);
});

test("a published run with the check shows each target's probe pass rate per day on the dashboard", async () => {
  const results = resolve(outDir, "fidelity", "results.json");
  assert.ok(existsSync(results), "the runner's file from the test before");
  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", results], { encoding: "utf8" }));
  const site = resolve(outDir, "site-fidelity");
  rmSync(site, { recursive: true, force: true });
  cpSync(resolve(repo, "dist"), site, { recursive: true });
  execFileSync(CLI_BIN, ["publish", resolve(site, "data"), results], { stdio: ["ignore", "ignore", "pipe"] });
  const published = await startServers({ staticDir: site });
  try {
    const page = await openPage(browser, `${published.site}?results=data/index.json`);
    await page.waitForSelector("#fidelity-days", { timeout: 30_000 });
    const rows = await page.$$eval("#fidelity-days tbody tr", (trs) => trs.map((tr) => ({ ...tr.dataset })));
    const byLabel = new Map();
    for (const row of rows) {
      const sum = byLabel.get(row.target) ?? { passed: 0, replies: 0 };
      byLabel.set(row.target, { passed: sum.passed + Number(row.passed), replies: sum.replies + Number(row.replies) });
    }
    const labels = ["Faithful", "Degraded", "Gemini faithful"];
    report.fidelity.targets.forEach((figures, i) => {
      assert.deepEqual(byLabel.get(labels[i]), { passed: figures.pass.passed, replies: figures.pass.replies }, labels[i]);
    });
    assert.deepEqual(page.problems, []);
  } finally {
    published.stop();
  }
});
