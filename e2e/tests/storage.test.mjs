// Storage that fails says so. With IndexedDB refusing to open (as in some
// private windows) or every write refused (a full quota), the first failure
// shows a notice that says what is no longer kept and what to do, and the
// run goes on in memory to its end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { planFragment, quickPlan, waitForRunEnd, withServersAndBrowser } from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

const demoPlan = () =>
  quickPlan(
    [
      { label: "Demo A · steady", protocol: "demo", base_url: "demo://steady", model: "demo-llm", provider: "demo" },
    ],
    { requests_per_target: 6, warmup_per_target: 0, spacing_s: 0.02 },
  );

async function runWith(breakStorage) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(breakStorage);
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(`pageerror: ${e.message}`));
  await page.goto(`${servers.site}#${planFragment(demoPlan())}`);
  await page.waitForSelector("#start");
  await page.click("#start");
  await waitForRunEnd(page);
  return page;
}

for (const [name, breakStorage] of [
  [
    "IndexedDB unavailable",
    () => {
      Object.defineProperty(window, "indexedDB", { get: () => undefined, configurable: true });
    },
  ],
  [
    "every write over quota",
    () => {
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function () {
        throw new DOMException("the quota is full", "QuotaExceededError");
      };
      void put;
    },
  ],
]) {
  test(`storage that fails is said once and the run goes on in memory: ${name}`, async () => {
    const page = await runWith(breakStorage);
    const notice = await page.textContent(".notice");
    assert.match(notice, /no longer keeping this run/);
    assert.match(notice, /export the results/);
    assert.match(await page.textContent("#progress-text"), /^6 \/ 6/);
    assert.equal(await page.getAttribute(".run-status", "data-status"), "finished");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}
