// The page loads, opens on the demo provider, and a demo run completes and
// shows its numbers. Takes the README's first-screen screenshot.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { startServers, launch, openPage, planFragment, repo, waitForRunEnd } from "./harness.mjs";

let servers, browser;
before(async () => {
  servers = await startServers();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  servers?.stop();
});

test("the first screen is the setup with the demo provider, and needs no key", async () => {
  const page = await openPage(browser, servers.site);
  await page.waitForSelector("#start");
  const labels = await page.$$eval("fieldset.target-row input[id$='-label']", (els) => els.map((e) => e.value));
  assert.deepEqual(labels, ["Demo A · steady", "Demo B · cold starts"]);
  assert.equal(await page.isDisabled("#start"), false, "Start is enabled with no key");
  await page.screenshot({ path: resolve(repo, "docs/screenshot.png"), fullPage: false });
  assert.deepEqual(page.problems, []);
});

test("a demo run completes and shows its numbers", async () => {
  const plan = {
    firsttoken_plan: 1,
    targets: [
      { label: "Demo A · steady", protocol: "demo", base_url: "demo://steady", model: "demo-llm", provider: "demo" },
      { label: "Demo B · cold starts", protocol: "demo", base_url: "demo://cold-tail", model: "demo-llm", provider: "demo" },
    ],
    requests_per_target: 8, warmup_per_target: 1, spacing_s: 0.05, jitter_s: 0, spread_hours: null,
    timeout_s: 30, prompt: "Say hi.", nonce: false, max_tokens: 16, temperature: 0,
    reasoning_counts_as_first_token: false, peak_hours: [9, 18],
  };
  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`);
  await page.click("#start");
  await page.waitForSelector("#live-table");
  await waitForRunEnd(page);
  const progress = await page.textContent("#progress-text");
  assert.match(progress, /^18 \/ 18/);
  const rows = await page.$$eval("#live-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 2);
  for (const row of rows) {
    assert.equal(row[1], "8 / 8");
    assert.match(row[3], /^\d+ ms$|^\d+\.\d+ s$/, `median shown: ${row}`);
  }
  assert.deepEqual(page.problems, []);
});
