// A plan run until decided (issue 51): the page stops once it is decided
// which target is faster, and says so under the progress, in the words of
// the runner's last line, in English and Chinese at 400 px; asked whether
// two targets are equivalent within a margin, it stops once they are shown to be.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  openPage, planFragment, quickPlan, openaiTarget, resetMock, waitForRunEnd,
  unexpectedProblems, withServersAndBrowser,
} from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

test("a plan run until decided stops at its floor in the page and says which target is faster", async () => {
  const plan = {
    ...quickPlan(
      [openaiTarget(servers.mock, "fixed@20", "Fast"), openaiTarget(servers.mock, "fixed@200", "Slow")],
      { requests_per_target: 200, warmup_per_target: 0, spacing_s: 0.02 },
    ),
    until_decided: true,
    min_requests_per_target: 20,
  };
  for (const [locale, said] of [
    ["en-US", "decided after 20 requests per target: Fast is faster than Slow (anytime-valid 95 %)"],
    ["zh-CN", "每个目标 20 个请求后已判定：Fast 比 Slow 快（随时有效 95 %）"],
  ]) {
    await resetMock(servers.mock);
    const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`, { locale, width: 400 });
    await page.waitForFunction(() => document.getElementById("target-1-label")?.value === "Slow");
    await page.click("#start");
    await waitForRunEnd(page);
    const text = await page.locator("#run-decided").textContent();
    assert.ok(text.startsWith(said), `${locale}: ${text}`);
    // 40 of the 400 planned requests were sent: the run stopped when decided.
    const progress = await page.locator("#progress-text").textContent();
    assert.match(progress, /^40 \/ 400/, progress);
    const box = await page.locator("#run-decided").boundingBox();
    assert.ok(box && box.width <= 400, JSON.stringify(box));
    assert.deepEqual(unexpectedProblems(page), []);
    await page.context().close();
  }
});

test("while a plan runs until decided, the run view says each question as it stands, and the results say how it ended", async () => {
  const plan = {
    ...quickPlan(
      [openaiTarget(servers.mock, "fixed@20", "Left"), openaiTarget(servers.mock, "fixed@20", "Right")],
      { requests_per_target: 200, warmup_per_target: 0, spacing_s: 0.02 },
    ),
    until_decided: true,
    min_requests_per_target: 20,
  };
  for (const [locale, open, ended] of [
    ["en-US", "Left vs Right: not decided yet after ", "Run until decided"],
    ["zh-CN", "Left 对 Right：", "运行至有定论"],
  ]) {
    await resetMock(servers.mock);
    const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`, { locale, width: 400 });
    await page.waitForFunction(() => document.getElementById("target-1-label")?.value === "Right");
    await page.click("#start");
    // Equal targets: the question stays open, with its range.
    await page.waitForFunction(() => /%/.test(document.querySelector("#run-questions li")?.textContent ?? ""));
    const line = await page.locator("#run-questions li").first().textContent();
    assert.ok(line.startsWith(open), `${locale}: ${line}`);
    assert.match(line, /%/, line);
    await page.click(".run .actions button.danger");
    await waitForRunEnd(page);
    // The results open with how the run ended, in the runner's words.
    await page.click(".run .actions button.primary");
    const section = page.locator("#until-decided");
    await section.waitFor();
    const heading = await section.locator("h2, h3").first().textContent();
    assert.equal(heading.trim(), ended);
    assert.deepEqual(unexpectedProblems(page), []);
    await page.context().close();
  }
});

test("a plan that asks whether two targets are equivalent within a margin stops when they are shown to be, in the page", async () => {
  const plan = {
    ...quickPlan(
      [openaiTarget(servers.mock, "fixed@40", "Left"), openaiTarget(servers.mock, "fixed@40", "Right")],
      { requests_per_target: 200, warmup_per_target: 0, spacing_s: 0.02 },
    ),
    until_decided: true,
    min_requests_per_target: 20,
    equivalent_within_pct: 20,
  };
  await resetMock(servers.mock);
  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`);
  await page.waitForFunction(() => document.getElementById("target-1-label")?.value === "Right");
  await page.click("#start");
  await waitForRunEnd(page);
  const text = await page.locator("#run-decided").textContent();
  assert.match(text, /^decided after \d+ requests per target: Left and Right are equivalent within ±20 % \(anytime-valid 95 %\)/, text);
  // Stopped long before the cap of 200 per target.
  const progress = await page.locator("#progress-text").textContent();
  const sent = Number(progress.match(/^(\d+) \/ 400/)?.[1]);
  assert.ok(sent >= 40 && sent < 200, progress);
  assert.deepEqual(unexpectedProblems(page), []);
  await page.context().close();
});
