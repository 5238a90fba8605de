// The README's pictures: the first screen while the wasm loads, setup, a run in progress and its results, at 1280 px
// and 400 px wide, in English and Chinese (files ending "-zh"), from a demo-provider run (no key, no network), written to
// docs/screenshots/. The whole pages, in slices for reviewing the
// layout, go to e2e/out/screens/. Run with `make screenshots`, or `cd e2e && node
// bench/screenshots.mjs` once the page and the mock are built.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { startServers, launch, openPage, outDir, planFragment, repo } from "../tests/harness.mjs";

const docs = resolve(repo, "docs/screenshots");
const review = resolve(outDir, "screens");
mkdirSync(docs, { recursive: true });
mkdirSync(review, { recursive: true });

const WIDTHS = { 1280: 900, 400: 860 };

const plan = {
  firsttoken_plan: 1,
  targets: [
    { label: "Demo A · steady", protocol: "demo", base_url: "demo://steady", model: "demo-llm", provider: "demo" },
    { label: "Demo B · cold starts", protocol: "demo", base_url: "demo://cold-tail", model: "demo-llm", provider: "demo" },
    { label: "Demo C · reasoning", protocol: "demo", base_url: "demo://reasoning", model: "demo-llm", provider: "demo" },
  ],
  requests_per_target: 40, warmup_per_target: 1, spacing_s: 0.05, jitter_s: 0, spread_hours: null,
  timeout_s: 30, prompt: "Reply with one short sentence: what is the capital of France?", nonce: false,
  max_tokens: 16, temperature: 0, reasoning_counts_as_first_token: false, peak_hours: [9, 18],
};

async function shoot(page, name, width, { fullPage = false } = {}) {
  await page.setViewportSize({ width, height: WIDTHS[width] });
  // Charts redraw for the new width on the resize event; wait for the mark.
  await page.waitForFunction(() => document.fonts.status === "loaded");
  if (await page.$("figure.chart canvas")) {
    await page.waitForFunction(
      (w) => [...document.querySelectorAll("figure.chart canvas")].every((c) => Math.abs(c.width - c.clientWidth * devicePixelRatio) <= 1) && document.documentElement.clientWidth === w,
      width,
      { timeout: 10_000 },
    );
  }
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: resolve(docs, `${name}-${width}.png`), fullPage });
  // The whole page in slices a viewer shows at full size.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0, k = 0; y < height; y += 1000, k++) {
    const clip = { x: 0, y, width, height: Math.min(1000, height - y) };
    await page.screenshot({ path: resolve(review, `${name}-${width}-${k}.png`), fullPage: true, clip });
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) console.warn(`${name} at ${width} px: the page is ${overflow} px wider than the screen`);
  console.log(`docs/screenshots/${name}-${width}.png`);
}

const servers = await startServers();
const browser = await launch();
try {
  // The static first screen of index.html, while the wasm is still on its
  // way (held back here, as a slow connection would).
  for (const width of [1280, 400]) {
    const context = await browser.newContext({ viewport: { width, height: WIDTHS[width] } });
    const loading = await context.newPage();
    await loading.route(/_bg\.wasm$/, () => {});
    await loading.goto(servers.site, { waitUntil: "domcontentloaded" });
    await loading.waitForSelector("#first-screen");
    await loading.evaluate(() => document.fonts.ready);
    await loading.screenshot({ path: resolve(docs, `first-screen-${width}.png`) });
    console.log(`docs/screenshots/first-screen-${width}.png`);
    await context.close();
  }
  for (const [locale, suffix] of [["en-US", ""], ["zh-CN", "-zh"]]) {
  const setup = await openPage(browser, servers.site, { locale });
  for (const width of [1280, 400]) await shoot(setup, `setup${suffix}`, width);
  await setup.context().close();

  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`, { locale });
  await page.click("#start");
  // A third of the way in, and preferably while a cold start (about 1 in 20
  // of Demo B's requests) is among the latest samples, as the live view is
  // there to show; without one by request 110 the picture is taken anyway.
  await page.waitForFunction(() => {
    const done = Number(document.querySelector("#progress-text")?.textContent.split(" ")[0]);
    return (done >= 45 && document.querySelector("#latest-samples li.slow")) || done >= 110;
  }, null, { timeout: 120_000 });
  for (const width of [1280, 400]) {
    // On a phone the live view (timeline, latest samples) sits below the
    // progress and the per-target cards, out of the first screen: the run
    // picture at 400 px is the whole page, so it shows the live view too.
    await shoot(page, `run${suffix}`, width, { fullPage: width === 400 });
    // The live view (timeline and latest samples) on its own: below the
    // progress and the table, out of the first screen on a phone.
    await page.locator(".live-view").screenshot({ path: resolve(docs, `live${suffix}-${width}.png`) });
    console.log(`docs/screenshots/live${suffix}-${width}.png`);
  }
  await page.setViewportSize({ width: 1280, height: WIDTHS[1280] });
  await page.waitForSelector('.run-status[data-status="finished"]', { timeout: 180_000 });
  // The run card's own "Results" button, in either language.
  await page.locator(".run .actions button.primary").click();
  await page.waitForSelector("table.comparison");
  for (const width of [1280, 400]) await shoot(page, `results${suffix}`, width);
  if (page.problems.length) throw new Error(`page problems: ${page.problems.join("; ")}`);
  await page.context().close();
  }
} finally {
  await browser.close();
  servers.stop();
}
