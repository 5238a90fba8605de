// Prompt sizes in the page: `firsttoken run` measures two providers of one
// model against the mock's prefill scripts, the page imports the file it
// wrote and shows the prompt-size block and the TTFT-by-input-tokens chart,
// in English and in Chinese, with the figures `firsttoken report --json`
// prints for the same file (one core, two adapters). Screenshots of the
// block and the chart at 1280 and 400 px go to e2e/out/prefill/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  anthropicTarget,
  openPage,
  openaiTarget,
  outDir,
  quickPlan,
  withServersAndBrowser,
  CLI_BIN,
} from "./harness.mjs";


let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

/** core::narrative::prefill::format_rate: three significant digits, thousands set apart. */
function formatRate(rate) {
  const magnitude = Math.floor(Math.log10(rate));
  const unit = 10 ** Math.max(magnitude - 2, 0);
  return String(Math.round(rate / unit) * unit).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

async function showResults(page, results) {
  await page.setInputFiles("#import-results", [
    { name: "results.json", mimeType: "application/json", buffer: readFileSync(results) },
  ]);
  await page.waitForSelector("#prefill table.prefill-sizes");
  await page.waitForSelector("canvas#chart-prefill");
  await page.waitForFunction(() => performance.getEntriesByName("firsttoken:charts-drawn").length > 0);
}

test("a run with prompt sizes shows its per-size tables, prefill rates and chart in both languages", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "prefill");
  mkdirSync(dir, { recursive: true });
  // Ten times the rates (200 000 and 60 000 tokens/s), so the run
  // takes seconds; the part of the model name after the `/` makes the two
  // scripts one model.
  const plan = quickPlan(
    [
      openaiTarget(servers.mock, "prefill@200000/m", "fast"),
      anthropicTarget(servers.mock, "prefill-cached@60000/m", "slow"),
    ],
    {
      requests_per_target: 40,
      warmup_per_target: 1,
      spacing_s: 0.01,
      nonce: true,
      prompt_sizes: [128, 2048, 8192, 32768],
      prompt_cache_probe: true,
      typical_prompt_tokens: 4096,
    },
  );
  const planPath = resolve(dir, "plan.json");
  const results = resolve(dir, "results.json");
  writeFileSync(planPath, JSON.stringify(plan));
  execFileSync(CLI_BIN, ["run", planPath, "-o", results], { stdio: ["ignore", "ignore", "inherit"] });
  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", results], { encoding: "utf8" }));
  const prefill = report.prefill;
  assert.ok(prefill, "the report has a prefill member");

  for (const [width, height] of [
    [1280, 900],
    [400, 860],
  ]) {
    const page = await openPage(browser, servers.site, { width, height });
    await showResults(page, results);
    for (const lang of ["en", "zh-CN"]) {
      if (lang === "zh-CN") {
        await page.click("button.lang[lang='zh-CN']");
        await page.waitForSelector("html[lang='zh-CN']");
        await page.waitForFunction(() => document.querySelector("#prefill h2")?.textContent === "提示词长度与预填充速度");
      } else {
        assert.equal(await page.textContent("#prefill h2"), "Prompt size and prefill speed");
      }
      // One table per target, a row per size, each median and p95 the report's.
      const tables = await page.$$eval("#prefill table.prefill-sizes", (ts) =>
        ts.map((t) => ({
          target: Number(t.dataset.target),
          rows: [...t.querySelectorAll("tbody tr")].map((tr) => ({
            size: Number(tr.dataset.size),
            median: Number(tr.querySelector("td.median").dataset.value),
            p95: Number(tr.querySelector("td.p95").dataset.value),
          })),
        })),
      );
      assert.equal(tables.length, 2);
      for (const table of tables) {
        const own = prefill.targets.find((t) => t.target === table.target);
        assert.deepEqual(
          table.rows.map((r) => r.size),
          own.sizes.map((s) => s.size),
        );
        table.rows.forEach((row, i) => {
          assert.equal(row.median, own.sizes[i].ttft_ms.median, `median of ${own.label} at ${row.size}`);
          assert.equal(row.p95, own.sizes[i].ttft_ms.p95, `p95 of ${own.label} at ${row.size}`);
        });
      }
      // The sentences: each fitted rate as core formats it, the comparison
      // and the cache saving.
      // A grouped number's space is a no-break one on the page (it never
      // wraps at 400 px); the report's figures are compared with plain spaces.
      const sentences = await page.$$eval("#prefill ul.prefill-sentences li", (lis) =>
        lis.map((li) => li.textContent.replace(/\u00a0/g, " ")),
      );
      assert.ok(
        await page.$$eval("#prefill ul.prefill-sentences li", (lis) => lis.some((li) => /\d\u00a0\d{3}/.test(li.textContent))),
        "grouped numbers in the sentences keep together",
      );
      for (const target of prefill.targets) {
        const rate = formatRate(target.fit.rate_tokens_per_s);
        const said = lang === "en" ? `prefills ${rate} input tokens/s` : `预填充速度 ${rate} 输入 Token/秒`;
        assert.ok(
          sentences.some((s) => s.startsWith(target.label) && s.includes(said)),
          `${target.label}'s rate ${rate} in ${JSON.stringify(sentences)}`,
        );
      }
      assert.equal(prefill.models[0].faster, 0, "the fast script is faster");
      const faster = lang === "en" ? "fast prefills" : "fast 的预填充速度是 slow 的";
      assert.ok(sentences.some((s) => s.includes(faster)), JSON.stringify(sentences));
      const cache = lang === "en" ? "a repeated prompt starts" : "重复提示词首个 Token 早到";
      assert.ok(sentences.some((s) => s.includes(cache)), JSON.stringify(sentences));

      // One population per figure: the comparison says its figures are
      // the first sends of one size (the one nearest the typical 4 096
      // tokens), as `report --json` does, and the TTFT charts name it.
      assert.equal(report.population.prompt_size, 2048);
      const population = (await page.textContent("#population-note")).replace(/\u00a0/g, " ");
      assert.ok(
        population.includes(lang === "en" ? "first sends at 2 048 tokens" : "2 048 Token 的首次发送"),
        population,
      );
      const captions = await page.$$eval("figure.chart figcaption span", (spans) =>
        spans.map((span) => span.textContent.replace(/\u00a0/g, " ")),
      );
      const named = lang === "en" ? "first sends at 2 048 tokens" : "2 048 Token 的首次发送";
      assert.ok(
        captions.filter((c) => c.includes(named)).length >= 3,
        `the ECDF, spread and timeline name the size: ${JSON.stringify(captions)}`,
      );

      // The chart: drawn, captioned in the language, its table one row per
      // fitted point.
      const figure = page.locator("figure.chart", { has: page.locator("canvas#chart-prefill") });
      const caption = await figure.locator("figcaption span").textContent();
      assert.equal(
        caption,
        lang === "en" ? "TTFT by input tokens, with each target's fitted line" : "TTFT 随输入 Token 的变化及各目标的拟合线",
      );
      const box = await page.locator("canvas#chart-prefill").boundingBox();
      assert.ok(box.width > 300 && box.height > 300, JSON.stringify(box));
      assert.ok(box.width <= width, "the chart fits the screen");
      const points = await figure.locator("details.numbers tbody tr").count();
      assert.equal(points, 8, "four sizes of two targets");

      await page.locator("#prefill").screenshot({ path: resolve(dir, `prefill-${lang}-${width}.png`) });
      // The comparison with its population note and each size's verdicts.
      await page.locator("#population-note").scrollIntoViewIfNeeded();
      await page.screenshot({ path: resolve(dir, `population-${lang}-${width}.png`) });
      await figure.screenshot({ path: resolve(dir, `chart-prefill-${lang}-${width}.png`) });
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
