// The dashboard's pictures for docs/screenshots/: a monitor directory of 30
// days from two vantages (synthetic, e2e/tests/monitor-data.mjs) opened with
// ?results=data/index.json, at 1280 px and 400 px wide, in English and in
// Chinese: the header, the rolling windows, the comparison across vantages
// and the first charts (dashboard-1280.png, dashboard-400.png and
// dashboard-zh-*.png), and the whole page for review in
// e2e/out/screens/. Run with `make screenshots`, or `cd e2e && node
// bench/dashboard-screenshots.mjs` once the page and the mock are built.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { launch, outDir, repo, startServers } from "../tests/harness.mjs";
import { writeMonitorDir } from "../tests/monitor-data.mjs";

const docs = resolve(repo, "docs/screenshots");
const review = resolve(outDir, "screens");
mkdirSync(docs, { recursive: true });
mkdirSync(review, { recursive: true });

const site = resolve(outDir, "site-screenshots");
rmSync(site, { recursive: true, force: true });
cpSync(resolve(repo, "dist"), site, { recursive: true });
// Fixed dates, so the pictures do not change from one day to the next.
const endMs = Date.UTC(2026, 11, 3, 5, 40);
writeMonitorDir(resolve(site, "data"), { days: 30, endMs, scheduleMinutes: 60 });

const servers = await startServers({ staticDir: site });
const browser = await launch();
try {
  for (const [lang, locale, suffix] of [["en", "en-US", ""], ["zh", "zh-CN", "-zh"]]) {
    for (const [width, height] of [[1280, 1500], [400, 2000]]) {
      // The viewer's clock a few minutes after the newest sample, as while
      // the monitor runs (the real date would flag it as stopped).
      const context = await browser.newContext({ viewport: { width, height }, locale });
      await context.clock.setFixedTime(endMs + 10 * 60_000);
      const page = await context.newPage();
      page.problems = [];
      page.on("pageerror", (e) => page.problems.push(`pageerror: ${e.message}`));
      await page.goto(`${servers.site}?results=data/index.json`);
      // The charts' drawn mark does not come under a fixed clock: wait
      // for the canvases, then a moment for them to be drawn.
      await page.waitForSelector("figure.chart canvas", { timeout: 30_000 });
      await page.waitForTimeout(3000);
      await page.waitForSelector(`html[lang='${lang === "zh" ? "zh-CN" : "en"}']`);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: resolve(docs, `dashboard${suffix}-${width}.png`) });
      await page.screenshot({ path: resolve(review, `dashboard${suffix}-${width}-full.png`), fullPage: true });
      if (page.problems.length) throw new Error(page.problems.join("\n"));
      await page.context().close();
      console.log(`docs/screenshots/dashboard${suffix}-${width}.png`);
    }
  }
} finally {
  await browser.close();
  servers.stop();
}
