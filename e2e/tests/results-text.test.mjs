// The results page holds its whole text at all times: every card's words are
// in the laid-out document before it is scrolled to (find-in-page,
// select-all and printing reach them), and no card changes height as it
// comes into view. At 400 and 1280 px, in both languages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage, syntheticResults, withServersAndBrowser } from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

for (const [width, locale] of [
  [400, "en-US"],
  [1280, "zh-CN"],
]) {
  test(`results at ${width} px (${locale}): all text laid out, no card moves when scrolled to`, async () => {
    const doc = syntheticResults({ targets: 4, samples: 1_200, hours: 3, seed: 7, warmup: 1 });
    const page = await openPage(browser, servers.site, { width, height: 800, locale });
    await page.setInputFiles("#import-results", [
      { name: "results.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(doc)) },
    ]);
    await page.waitForSelector("table.comparison");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    const cards = () =>
      page.$$eval(".results > .card, .results > section", (all) =>
        all.map((card) => ({ height: Math.round(card.getBoundingClientRect().height), text: card.innerText.trim() })),
      );
    const before = await cards();
    assert.ok(before.length >= 5, `${before.length} cards`);
    // innerText is the rendered text: a card skipped by layout has none.
    for (const [i, card] of before.entries()) assert.ok(card.text.length > 0, `card ${i} has no laid-out text before it is scrolled to`);
    const bodyText = await page.evaluate(() => document.body.innerText);
    const last = before.at(-1).text.split("\n")[0];
    assert.ok(bodyText.includes(last), `the last card's heading "${last}" is in the page's text from the start`);

    // Scroll through the whole page, a screen at a time.
    const total = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= total; y += 600) {
      await page.evaluate((to) => window.scrollTo(0, to), y);
      await page.waitForTimeout(30);
    }
    await page.waitForTimeout(300);
    const after = await cards();
    assert.deepEqual(
      after.map((c) => c.height),
      before.map((c) => c.height),
      "every card keeps its height as it comes into view",
    );
    await page.close();
  });
}
