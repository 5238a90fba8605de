// Pictures of the fidelity check, in both languages at 1280 and 400 px: the
// Setup check with its cost, and the results' Fidelity section (table,
// sentences, the probe grid with a failed cell opened) and the routing table
// with its fidelity column, from a run of the mock's faithful and degraded
// scripts, and the dashboard's daily pass rate from that run, published by
// `firsttoken publish`. Written to docs/screenshots/fidelity-*.png. Run with
// `make screenshots` (or `cd e2e && node bench/fidelity-screenshots.mjs` once
// the page and the mock are built).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  anthropicTarget,
  geminiTarget,
  launch,
  openPage,
  openaiTarget,
  outDir,
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
  const plan = {
    ...quickPlan(
      [
        openaiTarget(servers.mock, "faithful@20", "First-party"),
        anthropicTarget(servers.mock, "degraded", "Host B"),
        geminiTarget(servers.mock, "faithful@20", "Host C"),
      ],
      { requests_per_target: 3, warmup_per_target: 1, spacing_s: 0.02 },
    ),
    fidelity: { suite: "basic-1", repeats: 1, reference: "First-party" },
  };
  for (const [lang, locale] of [["en", "en-US"], ["zh", "zh-CN"]]) {
    const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`, { locale });
    await page.waitForFunction(() => document.getElementById("target-0-label")?.value === "First-party");
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      await page.locator("div.fidelity-option").screenshot({ path: resolve(docs, `fidelity-setup-${lang}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click("#start");
    await waitForRunEnd(page, 120_000);
    await page.locator("nav.tabs button").nth(2).click();
    await page.waitForSelector("table.fidelity-table");
    await page.click("#probe-grid td.probe-cell[data-target='1'][data-probe='tool-weather-auto'] button");
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.locator("#fidelity").screenshot({ path: resolve(docs, `fidelity-results-${lang}-${width}.png`) });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) console.warn(`${lang} at ${width} px: the page is ${overflow} px wider than the screen`);
      console.log(`docs/screenshots/fidelity-results-${lang}-${width}.png`);
    }
    const problems = unexpectedProblems(page);
    if (problems.length) throw new Error(`page problems: ${problems.join("; ")}`);
    await page.context().close();
  }
  // The routing table beside the check: the demo's fast provider that
  // answers differently is the latency pick, and the reason says so.
  const demo = (label, behaviour) => ({ label, protocol: "demo", base_url: `demo://${behaviour}`, model: "demo-llm", provider: "demo" });
  const demoPlan = {
    ...quickPlan([demo("Demo A · steady", "steady"), demo("Demo C · fast, answers differ", "degraded")], {
      requests_per_target: 20,
      warmup_per_target: 1,
      spacing_s: 0.02,
      timeout_s: 30,
    }),
    fidelity: { suite: "basic-1", repeats: 1, reference: "Demo A · steady" },
  };
  for (const [lang, locale] of [["en", "en-US"], ["zh", "zh-CN"]]) {
    const page = await openPage(browser, `${servers.site}#${planFragment(demoPlan)}`, { locale });
    await page.waitForFunction(() => document.getElementById("target-1-label")?.value?.startsWith("Demo C"));
    await page.click("#start");
    await waitForRunEnd(page, 180_000);
    await page.locator("nav.tabs button").nth(2).click();
    await page.waitForSelector("table.routing");
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.locator("table.routing").locator("xpath=ancestor::section").screenshot({ path: resolve(docs, `fidelity-routing-${lang}-${width}.png`) });
      console.log(`docs/screenshots/fidelity-routing-${lang}-${width}.png`);
    }
    await page.context().close();
  }
  // The dashboard: the same plan run by `firsttoken`, published, opened with `?results=`.
  const cli = process.env.FIRSTTOKEN_CLI_BIN || resolve(repo, "target/debug/firsttoken");
  const dir = resolve(outDir, "fidelity-screens");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(resolve(dir, "plan.json"), JSON.stringify(plan));
  execFileSync(cli, ["run", resolve(dir, "plan.json"), "-o", resolve(dir, "results.json")], { stdio: "ignore" });
  const site = resolve(dir, "site");
  cpSync(resolve(repo, "dist"), site, { recursive: true });
  execFileSync(cli, ["publish", resolve(site, "data"), resolve(dir, "results.json")], { stdio: "ignore" });
  const published = await startServers({ staticDir: site });
  try {
    for (const [lang, locale] of [["en", "en-US"], ["zh", "zh-CN"]]) {
      for (const width of [1280, 400]) {
        const page = await openPage(browser, `${published.site}?results=data/index.json`, { width, locale });
        await page.waitForSelector("#fidelity-days", { timeout: 30_000 });
        await page.locator("#fidelity-days").screenshot({ path: resolve(docs, `fidelity-dashboard-${lang}-${width}.png`) });
        console.log(`docs/screenshots/fidelity-dashboard-${lang}-${width}.png`);
        await page.context().close();
      }
    }
  } finally {
    published.stop();
  }
} finally {
  await browser.close();
  servers.stop();
}
