// The page loads, opens on the demo provider, and a demo run completes and
// shows its numbers. Takes the README's first-screen screenshot.
import { test } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { openPage, planFragment, repo, waitForRunEnd, withServersAndBrowser } from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

test("the first screen is the setup with the demo provider, and needs no key", async () => {
  const page = await openPage(browser, servers.site);
  await page.waitForSelector("#start");
  const labels = await page.$$eval("fieldset.target-row input[id$='-label']", (els) => els.map((e) => e.value));
  assert.deepEqual(labels, ["Demo A · steady", "Demo B · cold starts", "Demo C · fast, answers differ"]);
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

test("the setup screen is keyboard reachable with a visible focus", async () => {
  const page = await openPage(browser, servers.site);
  await page.waitForSelector("#start");
  const seen = [];
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press("Tab");
    const focus = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { id: el.id, tag: el.tagName, outline: style.outlineStyle };
    });
    seen.push(focus.id || focus.tag);
    if (focus.id === "start") {
      assert.notEqual(focus.outline, "none", "Start shows its keyboard focus");
      break;
    }
  }
  assert.ok(seen.includes("start"), `Start reached by Tab: ${seen.join(" ")}`);
  for (const id of ["plan-requests", "plan-prompt", "remember-keys"]) {
    assert.ok(seen.includes(id), `${id} reached by Tab`);
  }
  // The hidden file inputs take focus and their labels (the visible buttons) show it.
  await page.focus("#load-plan");
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  const labelOutline = await page.$eval('label[for="load-plan"]', (el) => getComputedStyle(el).outlineStyle);
  assert.notEqual(labelOutline, "none");
  assert.deepEqual(page.problems, []);
});
