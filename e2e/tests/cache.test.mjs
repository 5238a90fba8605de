// Prompt caching made visible: a run against the mock's `cached` script in
// all three protocols exports, for every sample, the cached prompt tokens the
// mock reported (OpenAI prompt_tokens_details.cached_tokens, Anthropic
// cache_read_input_tokens, Gemini cachedContentTokenCount), the CSV carries
// them, and the results view shows each target's cache hit share.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  anthropicTarget,
  downloadText,
  geminiTarget,
  openPage,
  openaiTarget,
  planFragment,
  quickPlan,
  resetMock,
  settledGroundTruth,
  waitForRunEnd,
  withServersAndBrowser,
} from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

test("a run with the caching script exports cached_tokens as the mock sent them", async () => {
  await resetMock(servers.mock);
  const targets = [
    openaiTarget(servers.mock, "cached@60", "OpenAI cached"),
    anthropicTarget(servers.mock, "cached@60", "Anthropic cached"),
    geminiTarget(servers.mock, "cached@60", "Gemini cached"),
  ];
  const plan = quickPlan(targets, { requests_per_target: 6, warmup_per_target: 1, spacing_s: 0.05 });
  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`);
  await page.waitForSelector("#start:not([disabled])");
  await page.click("#start");
  await waitForRunEnd(page, 60_000);

  await page.getByRole("button", { name: "Results" }).last().click();
  await page.waitForSelector("#export-json");
  const doc = JSON.parse((await downloadText(page, "#export-json")).text);
  const truth = (await settledGroundTruth(servers.mock)).requests.filter((r) => r.script === "cached@60");

  // One request in flight at a time: the mock saw them in the order they were sent.
  const samples = [...doc.samples].sort((a, b) => a.sent_at_ms - b.sent_at_ms);
  assert.equal(samples.length, 21);
  assert.equal(truth.length, samples.length);
  const protocols = ["openai", "anthropic", "gemini"];
  samples.forEach((sample, i) => {
    const record = truth[i];
    const where = `sample ${i} (target ${sample.target}, seq ${sample.seq}) vs ${JSON.stringify(record)}`;
    assert.equal(record.protocol, protocols[sample.target], where);
    assert.equal(sample.error, null, where);
    assert.ok("cached_tokens" in sample, `every sample carries cached_tokens: ${where}`);
    assert.equal(sample.cached_tokens, record.cached_tokens, where);
  });
  // The script hits on every second request: both kinds are there, in every protocol
  // that reports misses (Gemini leaves the field out on a miss).
  const reported = samples.map((s) => s.cached_tokens);
  assert.ok(reported.includes(8) && reported.includes(0) && reported.includes(null), JSON.stringify(reported));

  // The CSV's `cached_tokens` column is the same figure.
  const csv = (await downloadText(page, "#export-csv")).text.trim().split("\r\n");
  const header = csv[0].split(",");
  const column = header.indexOf("cached_tokens");
  assert.equal(column, header.length - 9, "cached_tokens, then the status, token, stream and probe columns");
  const fromCsv = csv.slice(1).map((line) => line.split(",").at(column - header.length));
  const bySeq = (a, b) => a.target - b.target || a.seq - b.seq;
  const inCsvOrder = [...doc.samples].sort(bySeq).map((s) => (s.cached_tokens === null ? "" : String(s.cached_tokens)));
  assert.deepEqual([...fromCsv].sort(), [...inCsvOrder].sort());

  // The results view: a prompt-cache table with each target's hit share.
  const rows = await page.$$eval("#prompt-cache tbody tr", (trs) =>
    trs.map((tr) => ({ target: Number(tr.dataset.target), reported: Number(tr.cells[1].dataset.value), share: Number(tr.cells[2].dataset.value) })),
  );
  assert.equal(rows.length, 3, JSON.stringify(rows));
  for (const row of rows) {
    const measured = doc.samples.filter((s) => s.target === row.target && !s.warmup && s.cached_tokens !== null);
    const hits = measured.filter((s) => s.cached_tokens > 0).length;
    assert.equal(row.reported, measured.length, JSON.stringify(row));
    assert.ok(Math.abs(row.share - hits / measured.length) < 1e-9, JSON.stringify(row));
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
