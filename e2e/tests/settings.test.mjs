// From measurements to settings: first-try success and rate limits (429 with
// Retry-After), gaps, stalls and buffering inside the stream, cost at the
// plan's prices, and the routing configs (LiteLLM, OpenRouter, JSON).
//
// The page and `firsttoken` measure the same mock scripts; the page reads the
// 429's rate-limit headers the mock exposes to scripts; and for one file the
// page and `firsttoken report` agree figure for figure and export byte for
// byte.
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
  planFragment,
  quickPlan,
  resetMock,
  unexpectedProblems,
  waitForRunEnd,
  withServersAndBrowser,
  runExpecting,
  CLI_BIN,
} from "./harness.mjs";


let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

const PRICE = { input_per_mtok: 0.6, output_per_mtok: 2.4, cached_input_per_mtok: 0.15 };

function settingsPlan(mock) {
  return quickPlan(
    [
      { ...openaiTarget(mock, "fixed@30", "Steady"), price: PRICE },
      anthropicTarget(mock, "mid-stall@30", "Stalls"),
      geminiTarget(mock, "buffered@60", "Buffered"),
      openaiTarget(mock, "http-429", "Rate limited"),
    ],
    { requests_per_target: 3, warmup_per_target: 1, spacing_s: 0.02 },
  );
}

/**
 * The figures of the page's settings section, per target, from its data
 * attributes. The page keeps a number's groups together with no-break
 * spaces; the text is compared with the terminal's plain ones.
 */
async function deployFigures(page) {
  return page.$$eval("#deploy-figures li", (items) =>
    items.map((li) => ({
      list: li.parentElement.className,
      target: Number(li.dataset.target),
      data: { ...li.dataset },
      text: li.textContent.replace(/\u00a0/g, " "),
    })),
  );
}

test("the page measures a 429's Retry-After, a mid-stream stall and a buffered reply, and states the plan's cost", async () => {
  await resetMock(servers.mock);
  const plan = settingsPlan(servers.mock);
  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`);
  await page.waitForFunction(() => document.getElementById("target-0-label")?.value === "Steady");
  const cost = await page.textContent("#plan-cost");
  assert.match(cost, /^At most about \$0\.\d+ for 4 requests at the prices in the plan/);
  assert.match(cost, /3 targets without a price are not counted/);
  await page.click("#start");
  await waitForRunEnd(page, 90_000);
  await page.click("nav.tabs button:has-text('Results')");
  await page.waitForSelector("#deploy-figures");
  const { text } = await downloadText(page, "#export-json");
  const doc = JSON.parse(text);
  const byTarget = (i) => doc.samples.filter((s) => s.target === i && !s.warmup);

  for (const sample of byTarget(3)) {
    assert.equal(sample.http_status, 429);
    assert.equal(sample.rate_limit.retry_after_s, 7, "the page reads the exposed Retry-After");
    assert.equal(sample.rate_limit.remaining_requests, "0");
    assert.equal(sample.rate_limit.reset_requests, "7s");
    assert.equal(sample.rate_limit.headers_visible, true);
  }
  for (const sample of byTarget(1)) {
    assert.equal(sample.stream.stalls, 1, "a 2.5 s pause mid-stream is one stall");
    assert.ok(sample.stream.max_gap_ms > 2_400 && sample.stream.max_gap_ms < 2_800, `${sample.stream.max_gap_ms}`);
    assert.equal(sample.stream.buffered, false);
  }
  for (const sample of byTarget(2)) {
    assert.equal(sample.stream.buffered, true, "32 tokens in one write after the wait");
    assert.equal(sample.stream.stalls, 0);
  }
  for (const sample of byTarget(0)) {
    assert.equal(sample.http_status, 200);
    assert.ok(sample.input_tokens > 0);
    assert.equal(sample.stream.buffered, false);
  }
  assert.equal(doc.plan.targets[0].price.input_per_mtok, 0.6);

  const figures = await deployFigures(page);
  const limited = figures.find((f) => f.list.includes("first-try") && f.target === 3);
  assert.match(limited.text, /0 of 3 succeeded on the first try/);
  assert.match(limited.text, /Retry-After 7 s/);
  assert.match(limited.text, /The last 429's headers: requests: 0 left, reset 7s\./);
  const stalls = figures.find((f) => f.list.includes("stream-shape") && f.target === 1);
  assert.equal(stalls.data.stalled, "3");
  const buffered = figures.find((f) => f.list.includes("stream-shape") && f.target === 2);
  assert.equal(buffered.data.buffered, "3");
  const costs = figures.filter((f) => f.list.includes("costs"));
  assert.deepEqual(costs.map((f) => f.target), [0]);
  assert.match(costs[0].text, /per successful request/);
  assert.deepEqual(unexpectedProblems(page), [], "only the scripted 429s are logged");
});

test("for one runner file, the page and `firsttoken report` agree on every new figure and export the same configs", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  await resetMock(servers.mock);
  const dir = resolve(outDir, "settings");
  mkdirSync(dir, { recursive: true });
  const planPath = resolve(dir, "plan.json");
  const results = resolve(dir, "results.json");
  writeFileSync(planPath, JSON.stringify(settingsPlan(servers.mock)));
  // Exit 5: "Rate limited" answers every request with a 429, as scripted.
  runExpecting(CLI_BIN, [planPath, "-o", results, "--vantage", "e2e"], 5, ["ignore", "ignore", "pipe"]);
  const cli = (...args) => execFileSync(CLI_BIN, ["report", ...args, results], { encoding: "utf8" });
  const report = JSON.parse(cli("--json"));

  const page = await openPage(browser, servers.site);
  await page.setInputFiles("#import-results", [{ name: "results.json", mimeType: "application/json", buffer: readFileSync(results) }]);
  await page.waitForSelector("#deploy-figures");

  // The summary rows carry every new figure (status, stream, cost): the
  // page's export and the CLI's JSON are the same rows.
  const exported = JSON.parse((await downloadText(page, "#export-json")).text);
  assert.deepEqual(exported.summary, report.summary);
  const summary = (i) => report.summary.find((row) => row.target === i);
  assert.equal(summary(3).status.counts.rate_limited, 3);
  assert.equal(summary(3).status.retry_after_median_s, 7);
  assert.equal(summary(1).stream.stalled, 3);
  assert.equal(summary(2).stream.buffered, 3);
  assert.ok(summary(0).cost.run_usd > 0);
  assert.equal(summary(1).cost, null, "no price, no cost");

  // What the page shows is what the summary says.
  const figures = await deployFigures(page);
  for (const f of figures.filter((f) => f.list.includes("first-try"))) {
    const status = summary(f.target).status;
    assert.equal(Number(f.data.firstTry), status.first_try_success, `first try of ${f.target}`);
    assert.equal(Number(f.data.requests), status.requests);
    assert.equal(Number(f.data.rateLimited), status.counts.rate_limited);
  }
  for (const f of figures.filter((f) => f.list.includes("stream-shape"))) {
    const stream = summary(f.target).stream;
    assert.equal(Number(f.data.stalled), stream.stalled, `stalls of ${f.target}`);
    assert.equal(Number(f.data.buffered), stream.buffered);
    assert.equal(f.data.maxGap === undefined ? null : Number(f.data.maxGap), stream.max_gap_ms);
  }
  for (const f of figures.filter((f) => f.list.includes("costs"))) {
    assert.equal(Number(f.data.runUsd), summary(f.target).cost.run_usd);
  }
  // The sentences are core's, in both adapters.
  const text = cli();
  for (const f of figures) {
    // The status sentence, then (for a 429) what its headers said.
    const [sentence, headers] = f.text.slice(f.text.indexOf(": ") + 2).split(" The last 429");
    assert.ok(text.includes(sentence), `the terminal says ${sentence}`);
    if (headers) assert.ok(text.includes(`The last 429${headers}`), `the terminal says ${headers}`);
  }

  // The configs: the page's downloads equal `report --config`, byte for byte.
  const litellm = await downloadText(page, "#export-litellm");
  assert.match(litellm.name, /\.yaml$/);
  assert.equal(litellm.text, cli("--config", "litellm"));
  assert.match(litellm.text, /run \d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.e2e/);
  const openrouter = await downloadText(page, "#export-openrouter");
  assert.equal(openrouter.text + "\n", cli("--config", "openrouter"));
  await page.check("#pin-openrouter");
  const pinned = await downloadText(page, "#export-openrouter");
  assert.equal(pinned.text + "\n", cli("--config", "openrouter", "--pin"));
  assert.equal(JSON.parse(pinned.text).pinned, true);
  const routing = await downloadText(page, "#export-routing");
  assert.equal(routing.text + "\n", cli("--config", "routing"));
  assert.deepEqual(page.problems, []);
});
