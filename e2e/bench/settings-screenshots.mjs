// Pictures of the settings a run yields, in both languages at 1280 and 400 px:
// the price fields and the plan's cost before Start, and the results' first-try
// and rate-limit, stream (gaps, stalls, buffering) and cost sections with the
// routing exports, from a run against the mock's 429, mid-stall and buffered
// scripts. Written to docs/screenshots/settings-*.png. Run with
// `make screenshots` (or `cd e2e && node bench/settings-screenshots.mjs` once
// the page and the mock are built).
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import {
  anthropicTarget,
  geminiTarget,
  launch,
  openPage,
  openaiTarget,
  planFragment,
  quickPlan,
  repo,
  startServers,
  unexpectedProblems,
  waitForRunEnd,
} from "../tests/harness.mjs";

const docs = resolve(repo, "docs/screenshots");
mkdirSync(docs, { recursive: true });

const servers = await startServers();
const browser = await launch();
try {
  const plan = quickPlan(
    [
      { ...openaiTarget(servers.mock, "fixed@40", "Steady"), price: { input_per_mtok: 0.6, output_per_mtok: 2.4 } },
      { ...anthropicTarget(servers.mock, "mid-stall@40", "Stalls"), price: { input_per_mtok: 3, output_per_mtok: 15, cached_input_per_mtok: 0.3 } },
      geminiTarget(servers.mock, "buffered@80", "Buffered"),
      openaiTarget(servers.mock, "http-429", "Rate limited"),
    ],
    { requests_per_target: 3, warmup_per_target: 1, spacing_s: 0.02 },
  );
  for (const [lang, locale] of [["en", "en-US"], ["zh", "zh-CN"]]) {
    const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`, { locale });
    await page.waitForFunction(() => document.getElementById("target-1-label")?.value === "Stalls");
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      const row = page.locator("fieldset.target-row").nth(1);
      await row.screenshot({ path: resolve(docs, `settings-price-${lang}-${width}.png`) });
      await page.locator("#plan-cost").screenshot({ path: resolve(docs, `settings-cost-${lang}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click("#start");
    await waitForRunEnd(page, 90_000);
    await page.locator("nav.tabs button").nth(2).click();
    await page.waitForSelector("#deploy-figures");
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.locator("#deploy-figures").screenshot({ path: resolve(docs, `settings-results-${lang}-${width}.png`) });
      await page.locator("table.routing").locator("xpath=ancestor::section").screenshot({ path: resolve(docs, `settings-routing-${lang}-${width}.png`) });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) console.warn(`${lang} at ${width} px: the page is ${overflow} px wider than the screen`);
      console.log(`docs/screenshots/settings-results-${lang}-${width}.png`);
    }
    const problems = unexpectedProblems(page);
    if (problems.length) throw new Error(`page problems: ${problems.join("; ")}`);
    await page.context().close();
  }
} finally {
  await browser.close();
  servers.stop();
}
