// Importing results: one or more files are viewed or merged (the same plan
// run on two days); a foreign or malformed file is refused with a clear
// message and changes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage, syntheticResults, withServersAndBrowser } from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

const file = (name, doc) => ({ name, mimeType: "application/json", buffer: Buffer.from(typeof doc === "string" ? doc : JSON.stringify(doc)) });

/** Sample counts per target label from the comparison tables. */
async function comparisonCounts(page) {
  return page.$$eval("table.comparison tbody tr", (rows) =>
    Object.fromEntries(rows.map((tr) => [tr.querySelector("th").textContent, Number(tr.cells[2].dataset.value)])),
  );
}

test("two days of the same plan merge into one view", async () => {
  const day1 = syntheticResults({ targets: 3, samples: 240, hours: 1, seed: 1, warmup: 1 });
  const day2 = syntheticResults({ targets: 3, samples: 240, hours: 1, seed: 2, warmup: 1 });
  day2.environment.started_at_ms += 86_400_000;
  for (const s of day2.samples) {
    s.planned_at_ms += 86_400_000;
    s.sent_at_ms += 86_400_000;
  }
  const page = await openPage(browser, servers.site);
  await page.setInputFiles("#import-results", [file("day1.json", day1)]);
  await page.waitForSelector("table.comparison");
  const one = await comparisonCounts(page);
  const expected = (doc, t) => doc.samples.filter((s) => s.target === t && !s.warmup && !s.error).length;
  const labels = day1.plan.targets.map((t) => t.label);
  assert.deepEqual(one, Object.fromEntries(labels.map((l, t) => [l, expected(day1, t)])));

  await page.click("nav.tabs button:nth-child(1)");
  await page.setInputFiles("#import-results", [file("day1.json", day1), file("day2.json", day2)]);
  await page.waitForFunction(
    (n) => Number(document.querySelector("table.comparison tbody tr td[data-value]")?.dataset.value) > n,
    Object.values(one)[0],
  );
  const both = await comparisonCounts(page);
  assert.deepEqual(both, Object.fromEntries(labels.map((l, t) => [l, expected(day1, t) + expected(day2, t)])));
  assert.deepEqual(page.problems, []);
});

test("a plan file, malformed JSON or a newer version is refused with a clear message", async () => {
  const page = await openPage(browser, servers.site);
  const good = syntheticResults({ targets: 2, samples: 40, hours: 1, seed: 3, warmup: 0 });
  const cases = [
    ["plan.json", good.plan, /firsttoken_results/],
    ["broken.json", '{"firsttoken_results": 1, "samples": [', /JSON|line/i],
    ["future.json", { ...good, firsttoken_results: 2 }, /version|2/],
    ["bad-sample.json", { ...good, samples: [{ ...good.samples[0], ttft_ms: -5 }] }, /ttft_ms|negative/i],
  ];
  for (const [name, doc, pattern] of cases) {
    await page.setInputFiles("#import-results", [file(name, doc)]);
    await page.waitForSelector(".notice");
    const notice = await page.textContent(".notice span");
    assert.ok(notice.startsWith(`${name}:`), `notice names the file: ${notice}`);
    assert.match(notice, pattern, notice);
    await page.click(".notice .close");
  }
  // Nothing was half-applied: still no results.
  await page.click("nav.tabs button:nth-child(3)");
  assert.equal(await page.locator("table.comparison").count(), 0);
  assert.deepEqual(page.problems, []);
});

test("in Chinese, a refused file is said in Chinese, and runs that measure different things are not merged", async () => {
  const page = await openPage(browser, servers.site);
  await page.click("button.lang[lang='zh-CN']");
  await page.waitForSelector("html[lang='zh-CN']");
  const good = syntheticResults({ targets: 2, samples: 40, hours: 1, seed: 4, warmup: 0 });
  const otherMeasure = structuredClone(good);
  otherMeasure.plan.reasoning_counts_as_first_token = !good.plan.reasoning_counts_as_first_token;
  const cases = [
    [[file("plan.json", good.plan)], /^plan\.json：这不是 FirstToken 结果文件：它没有 firsttoken_results 字段/],
    [[file("broken.json", '{"firsttoken_results": 1, "samples": [')], /^broken\.json：文件不是有效的 JSON：/],
    [[file("future.json", { ...good, firsttoken_results: 2 })], /^future\.json：不支持 firsttoken_results 版本 2：本页面读取版本 1$/],
    [[file("bad-sample.json", { ...good, samples: [{ ...good.samples[0], ttft_ms: -5 }] })], /^bad-sample\.json：samples\[0\]\.ttft_ms 为负数（-5）$/],
    [[file("a.json", good), file("b.json", otherMeasure)], /^无法合并：这些计划的 reasoning_counts_as_first_token 不同/],
  ];
  for (const [files, pattern] of cases) {
    await page.setInputFiles("#import-results", files);
    await page.waitForSelector(".notice");
    const notice = await page.textContent(".notice span");
    assert.match(notice, pattern, notice);
    await page.click(".notice .close");
  }
  assert.deepEqual(page.problems, []);
});
