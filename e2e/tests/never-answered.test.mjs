// A target that never answered is said at the run's end with the
// provider's own reason, in the page as in the runner's last lines (core's
// `never_answered`, one sentence for both), in English and Chinese.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  openPage, outDir, planFragment, quickPlan, openaiTarget, repo, resetMock, runExpecting, waitForRunEnd,
  unexpectedProblems, withServersAndBrowser,
} from "./harness.mjs";

const CLI_BIN = process.env.FIRSTTOKEN_CLI_BIN || resolve(repo, "target/debug/firsttoken");

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

test("a target that never answered is said at the run's end with its reason, as the runner's last lines say it", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const plan = quickPlan(
    [openaiTarget(servers.mock, "fixed@20", "Steady"), openaiTarget(servers.mock, "gpt-4o-mini", "Unknown model")],
    { requests_per_target: 3, warmup_per_target: 0, spacing_s: 0.02 },
  );
  const dir = resolve(outDir, "never-answered");
  mkdirSync(dir, { recursive: true });
  const planPath = resolve(dir, "plan.json");
  writeFileSync(planPath, JSON.stringify(plan));
  await resetMock(servers.mock);
  const ran = runExpecting(CLI_BIN, [planPath, "-o", resolve(dir, "results.json")], 5, ["ignore", "pipe", "pipe"]);
  // The run's last lines, on its standard output.
  const runnerLines = ran.stdout.split("\n").filter((line) => line.startsWith("error: Unknown model: "));
  assert.equal(runnerLines.length, 1, ran.stdout);
  const runnerSaid = runnerLines[0].slice("error: ".length);
  assert.match(runnerSaid, /no successful request; 3 of 3 failed with “HTTP 400 from provider: unknown mock script 'gpt-4o-mini'/);

  for (const [locale, start] of [["en-US", "Unknown model: no successful request; 3 of 3 failed with “HTTP 400 from provider: "], ["zh-CN", "Unknown model：没有一个请求成功；3 个失败中有 3 个：服务商返回 HTTP 400："]]) {
    await resetMock(servers.mock);
    const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`, { locale, width: 400 });
    await page.waitForFunction(() => document.getElementById("target-1-label")?.value === "Unknown model");
    await page.click("#start");
    await waitForRunEnd(page);
    const lines = await page.locator("#never-answered li").allTextContents();
    assert.equal(lines.length, 1, lines.join(" | "));
    assert.equal(await page.getAttribute("#never-answered li", "data-target"), "1");
    assert.ok(lines[0].startsWith(start), lines[0]);
    if (locale === "en-US") assert.equal(lines[0], runnerSaid, "the page says what the runner's last line says");
    // The steady target answered: not named.
    assert.ok(!lines.some((line) => line.includes("Steady")));
    // In view on a phone, under the progress, nothing cut.
    const box = await page.locator("#never-answered").boundingBox();
    assert.ok(box && box.width <= 400, JSON.stringify(box));
    assert.deepEqual(unexpectedProblems(page), []);
    await page.context().close();
  }
});
