// A target that never answered is said at the run's end with the
// provider's own reason: on the runner's last lines (core's
// `never_answered`, exit 5), and in the page's results, whose "Without a
// successful request" section gives the same reason, in English and
// Chinese.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  openPage, outDir, planFragment, quickPlan, openaiTarget, resetMock, runExpecting, waitForRunEnd,
  unexpectedProblems, withServersAndBrowser,
  CLI_BIN,
} from "./harness.mjs";


let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

test("a target that never answered is said with its reason, on the runner's last lines and in the page's results alike", async () => {
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
  assert.ok(!ran.stdout.includes("error: Steady"), "a target that answered is not named");
  const reason = runnerLines[0].slice("error: Unknown model: no successful request; ".length);
  assert.match(reason, /^3 of 3 failed with “HTTP 400 from provider: unknown mock script 'gpt-4o-mini'/);

  for (const [locale, said] of [
    ["en-US", reason],
    ["zh-CN", "3 个失败中有 3 个：服务商返回 HTTP 400：unknown mock script 'gpt-4o-mini'"],
  ]) {
    await resetMock(servers.mock);
    const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`, { locale, width: 400 });
    await page.waitForFunction(() => document.getElementById("target-1-label")?.value === "Unknown model");
    await page.click("#start");
    await waitForRunEnd(page);
    // The run card's own "Results" button, in either language.
    await page.locator(".run .actions button.primary").click();
    const notes = await page.locator("section.no-success li").allTextContents();
    assert.equal(notes.length, 1, notes.join(" | "));
    assert.ok(notes[0].startsWith("Unknown model"), notes[0]);
    assert.ok(notes[0].includes(said), `${locale}: the page's results give the runner's reason: ${notes[0]}`);
    // Nothing cut on a phone.
    const box = await page.locator("section.no-success").boundingBox();
    assert.ok(box && box.width <= 400, JSON.stringify(box));
    assert.deepEqual(unexpectedProblems(page), []);
    await page.context().close();
  }
});
