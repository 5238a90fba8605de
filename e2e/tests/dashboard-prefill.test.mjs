// The dashboard's prefill speed per day: `firsttoken run` measures the mock's
// prefill scripts (and a script whose TTFT does not grow with the prompt)
// with prompt sizes, `firsttoken publish` adds the run to a directory served
// next to the built page, and the page opened with `?results=` shows each
// target's rate of the day with its 95 % interval, agreeing with the fit
// `firsttoken report --json` prints for the same run, in English and in
// Chinese. Screenshots of the section at 1280 and 400 px go to
// e2e/out/dashboard-prefill/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { openPage, openaiTarget, outDir, quickPlan, withServersAndBrowser, CLI_BIN } from "./harness.mjs";
import { sectionOverflow } from "./screen-checks.mjs";

let servers, browser, site;
withServersAndBrowser(
  (started, launched, copy) => {
    [servers, browser, site] = [started, launched, copy];
  },
  { siteCopy: "site-dashboard-prefill" },
);

/** core::narrative::prefill::format_rate: three significant digits, thousands set apart. */
function formatRate(rate) {
  if (!Number.isFinite(rate)) return "∞";
  const magnitude = Math.floor(Math.log10(rate));
  const unit = 10 ** Math.max(magnitude - 2, 0);
  return String(Math.round(rate / unit) * unit).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

test("a published run with prompt sizes shows each target's prefill rate per day as `firsttoken report` fits it", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "dashboard-prefill");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Ten times the rates, so the run takes seconds.
  const plan = quickPlan(
    [
      openaiTarget(servers.mock, "prefill@200000", "fast"),
      openaiTarget(servers.mock, "prefill@60000", "slow"),
      openaiTarget(servers.mock, "fixed@5", "flat"),
    ],
    { requests_per_target: 24, warmup_per_target: 1, spacing_s: 0.01, nonce: true, prompt_sizes: [128, 8192, 32768] },
  );
  const planPath = resolve(dir, "plan.json");
  const results = resolve(dir, "results.json");
  writeFileSync(planPath, JSON.stringify(plan));
  execFileSync(CLI_BIN, ["run", planPath, "-o", results, "--vantage", "fra1"], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(CLI_BIN, ["publish", resolve(site, "data"), results, "--schedule-minutes", "60"], { encoding: "utf8" });
  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", results], { encoding: "utf8" }));
  const fits = new Map((report.prefill?.targets ?? []).map((t) => [t.target, t.fit]));
  assert.ok(fits.get(0) && fits.get(1), `the report fits both prefill scripts: ${JSON.stringify(report.prefill)}`);
  // A day in UTC of the run, as the page names it.
  const today = new Date().toISOString().slice(0, 10);

  for (const [width, height] of [
    [1280, 900],
    [400, 860],
  ]) {
    const page = await openPage(browser, `${servers.site}?results=data/index.json`, { width, height });
    await page.waitForSelector("#prefill-days tbody tr", { timeout: 30_000 });
    for (const lang of ["en", "zh-CN"]) {
      if (lang === "zh-CN") {
        await page.click("button.lang[lang='zh-CN']");
        await page.waitForSelector("html[lang='zh-CN']");
      }
      assert.equal(await page.textContent("#prefill-days h2"), lang === "en" ? "Prefill speed per day" : "每天的预填充速度");
      const rows = await page.$$eval("#prefill-days tbody tr", (trs) =>
        trs.map((tr) => ({
          ...tr.dataset,
          text: tr.querySelector("td.num").textContent,
        })),
      );
      assert.equal(rows.length, 3, JSON.stringify(rows));
      assert.deepEqual(
        rows.map((r) => r.target),
        ["fast", "slow", "flat"],
      );
      for (const [i, row] of rows.entries()) {
        // The run may straddle midnight UTC only in the rarest case; then
        // this names the day it ended on.
        assert.match(row.day, /^\d{4}-\d{2}-\d{2}$/);
        assert.ok(row.day <= today, row.day);
        const fit = fits.get(i);
        if (!fit) {
          // No rate in the report: none on the page, said in words.
          assert.notEqual(row.kind, "fitted", JSON.stringify(row));
          const words =
            row.kind === "no-growth"
              ? lang === "en"
                ? "no prefill rate: TTFT did not grow with the prompt"
                : "无预填充速度：TTFT 未随提示词增长"
              : lang === "en"
                ? "too few sizes for a rate"
                : "大小太少";
          assert.ok(row.text.startsWith(words), `${row.target}: ${row.text}`);
          continue;
        }
        assert.equal(row.kind, "fitted", JSON.stringify(row));
        const [rate, low, high] = [Number(row.rate), Number(row.low), Number(row.high)];
        // One fit of the same requests: the report's rate, within the day's
        // interval, and near the rate the mock's script reads at.
        assert.ok(Math.abs(rate - fit.rate_tokens_per_s) <= 1e-9 * rate, `${row.target}: page ${rate}, report ${fit.rate_tokens_per_s}`);
        assert.ok(low <= rate && rate <= high, `${row.target}: ${rate} in [${low}, ${high}]`);
        const scripted = [200_000, 60_000][i];
        assert.ok(Math.abs(rate - scripted) <= 0.1 * scripted, `${row.target}: ${rate} near the script's ${scripted}`);
        const interval = Number.isFinite(high) ? `${formatRate(low)}–${formatRate(high)}` : `≥ ${formatRate(low)}`;
        const said =
          lang === "en"
            ? `${formatRate(rate)} input tokens/s (${interval})`
            : `${formatRate(rate)} 输入 Token/秒（${interval}）`;
        // Grouped numbers keep together with no-break spaces.
        assert.equal(row.text.replace(/\u00a0/g, " "), said);
        assert.ok(!/\d \d/.test(row.text), `no breakable space inside a number: ${JSON.stringify(row.text)}`);
      }
      assert.ok(Number(rows[0].rate) > Number(rows[1].rate), "the fast script prefills faster");
      // Nothing spills out of the screen.
      assert.deepEqual(await sectionOverflow(page, "#prefill-days", width), [], "nothing in the section is cut off or scrolls sideways");
      await page.locator("#prefill-days").screenshot({ path: resolve(dir, `prefill-days-${lang}-${width}.png`) });
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
