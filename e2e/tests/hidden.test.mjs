// A hidden tab: samples sent while the page was hidden are flagged, the run
// view says the browser may have delayed them, and the export keeps both the
// planned and the actual send time. The page's visibility is steered through
// `document.visibilityState` (what the page reads), since a headless browser
// has no window to minimise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { planFragment, waitForRunEnd, waitForDone, downloadText, withServersAndBrowser } from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

test("samples sent while the tab was hidden are flagged and the delay is shown", async () => {
  const plan = {
    firsttoken_plan: 1,
    targets: [{ label: "Demo A · steady", protocol: "demo", base_url: "demo://steady", model: "demo-llm", provider: "demo" }],
    requests_per_target: 12, warmup_per_target: 0, spacing_s: 0.6, jitter_s: 0, spread_hours: null,
    timeout_s: 30, prompt: "Say hi.", nonce: false, max_tokens: 16, temperature: 0,
    reasoning_counts_as_first_token: false, peak_hours: [9, 18],
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await context.addInitScript(() => {
    window.__hidden = false;
    Object.defineProperty(document, "visibilityState", { get: () => (window.__hidden ? "hidden" : "visible") });
    Object.defineProperty(document, "hidden", { get: () => window.__hidden });
  });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`${servers.site}#${planFragment(plan)}`);
  await page.click("#start");
  await waitForDone(page, 3);
  assert.equal(await page.locator(".warn-line").count(), 0, "no notice while visible");
  await page.evaluate(() => {
    window.__hidden = true;
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await waitForDone(page, 7);
  await page.evaluate(() => {
    window.__hidden = false;
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await waitForRunEnd(page);
  await page.waitForSelector(".warn-line");
  const notice = await page.textContent(".warn-line");
  assert.match(notice, /hidden/);

  await page.click("nav.tabs button:nth-child(3)");
  const { text } = await downloadText(page, "#export-json");
  const doc = JSON.parse(text);
  const flags = doc.samples.map((s) => s.hidden);
  assert.equal(flags.length, 12);
  assert.equal(flags.slice(0, 3).some(Boolean), false, `first samples visible: ${flags}`);
  const hidden = flags.filter(Boolean).length;
  assert.ok(hidden >= 3 && hidden <= 6, `samples sent while hidden are flagged: ${flags}`);
  assert.equal(flags.at(-1), false, `last sample visible again: ${flags}`);
  for (const s of doc.samples) {
    assert.ok(s.sent_at_ms >= s.planned_at_ms - 1, "never sent before its plan");
  }
  assert.deepEqual(problems, []);
  await context.close();
});
