// The dashboard's pictures for docs/screenshots/: a monitor directory of 30
// days from two vantages (synthetic, e2e/tests/monitor-data.mjs) opened with
// ?results=data/index.json, at 1280 px and 400 px wide: the header, the
// rolling windows, the comparison across vantages and the first charts
// (dashboard-1280.png, dashboard-400.png), and the whole page for review in
// e2e/out/screens/. Run with `make screenshots`, or `cd e2e && node
// bench/dashboard-screenshots.mjs` once the page and the mock are built.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { launch, openPage, outDir, repo, startServers } from "../tests/harness.mjs";
import { writeMonitorDir } from "../tests/monitor-data.mjs";

const docs = resolve(repo, "docs/screenshots");
const review = resolve(outDir, "screens");
mkdirSync(docs, { recursive: true });
mkdirSync(review, { recursive: true });

const site = resolve(outDir, "site-screenshots");
rmSync(site, { recursive: true, force: true });
cpSync(resolve(repo, "dist"), site, { recursive: true });
// Fixed dates, so the pictures do not change from one day to the next.
writeMonitorDir(resolve(site, "data"), { days: 30, endMs: Date.UTC(2026, 11, 3, 5, 40), scheduleMinutes: 60 });

const servers = await startServers({ staticDir: site });
const browser = await launch();
try {
  for (const [width, height] of [[1280, 2300], [400, 2600]]) {
    const page = await openPage(browser, `${servers.site}?results=data/index.json`, { width, height });
    await page.waitForFunction(() => performance.getEntriesByName("firsttoken:dashboard-drawn", "mark").length > 0, null, { timeout: 30_000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: resolve(docs, `dashboard-${width}.png`) });
    await page.screenshot({ path: resolve(review, `dashboard-${width}-full.png`), fullPage: true });
    if (page.problems.length) throw new Error(page.problems.join("\n"));
    await page.context().close();
    console.log(`docs/screenshots/dashboard-${width}.png`);
  }
} finally {
  await browser.close();
  servers.stop();
}
