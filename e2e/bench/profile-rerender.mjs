// Profiles results re-renders (language toggles) with 10 000 samples: CPU
// self time by function, and layout/style time from a trace. A tool for
// finding what to optimise; render.mjs gives the budget figures.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { startServers, launch, openPage, outDir, syntheticResults } from "../tests/harness.mjs";

const servers = await startServers();
const browser = await launch();
try {
  const page = await openPage(browser, servers.site, { width: 1280, height: 900 });
  const file = resolve(outDir, "bench-results-10k.json");
  writeFileSync(file, JSON.stringify(syntheticResults({ targets: 12, samples: 10_000, hours: 6 })));
  await page.setInputFiles("#import-results", file);
  await page.waitForSelector("table.comparison");
  await page.waitForTimeout(500);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  const toggles = 10;
  for (let i = 0; i < toggles; i++) {
    const before = await page.evaluate(() => performance.now());
    await page.click(`button.lang[lang="${i % 2 ? "en" : "zh-CN"}"]`);
    await page.waitForFunction((t) => performance.getEntriesByName("firsttoken:results-rendered").some((e) => e.startTime > t), before);
  }
  const { profile } = await cdp.send("Profiler.stop");
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, k) => {
    const node = byId.get(id);
    const name = `${node.callFrame.functionName || "(anon)"} ${node.callFrame.url.split("/").pop()}:${node.callFrame.lineNumber}`;
    self.set(name, (self.get(name) || 0) + (dt[k] || 0) / 1000);
  });
  const top = [...self.entries()].filter(([n]) => !n.startsWith("(idle)")).sort((a, b) => b[1] - a[1]).slice(0, 40);
  for (const [name, ms] of top) console.log((ms / toggles).toFixed(2).padStart(8), "ms/render ", name);
} finally {
  await browser.close();
  servers.stop();
}
