// The dashboard's "goes cold after" per day: `firsttoken run` measures the
// mock's scale-to-zero script with idle gaps, `firsttoken publish` adds the
// run to a directory served next to the built page (its points carry each
// request's idle gap), and the page opened with `?results=` shows, per
// target and UTC day, the idle range where it went cold, or the longest gap
// after which it stayed warm, agreeing with `firsttoken report --json` for
// the same run, in English and in Chinese, at 1280 and 400 px. Screenshots
// of the section go to e2e/out/dashboard-idle/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { anthropicTarget, openPage, openaiTarget, outDir, quickPlan, withServersAndBrowser, CLI_BIN } from "./harness.mjs";
import { englishWords, sectionOverflow } from "./screen-checks.mjs";

const LABELS = ["Scales to zero", "Stays warm"];
let servers, browser, site;
withServersAndBrowser(
  (started, launched, copy) => {
    [servers, browser, site] = [started, launched, copy];
  },
  { siteCopy: "site-dashboard-idle" },
);

/** core::narrative::idle::gap_text for gaps under a minute: "2 s", "2 秒". */
function gapText(lang, seconds) {
  return `${String(Math.round(seconds * 10) / 10)} ${lang === "en" ? "s" : "秒"}`;
}

test("a published run with idle gaps shows each target's goes-cold range per day as `firsttoken report` reads it", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "dashboard-idle");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Cold after 3 s idle (a 1.5 s cold start) against cold only after 30 s;
  // gaps of 1, 2 and 4 s, four requests each.
  const plan = quickPlan(
    [openaiTarget(servers.mock, "scale-to-zero@3@1500", LABELS[0]), anthropicTarget(servers.mock, "scale-to-zero@30@1500", LABELS[1])],
    { requests_per_target: 12, warmup_per_target: 1, spacing_s: 0.05, idle_gaps_s: [1, 2, 4] },
  );
  const planPath = resolve(dir, "plan.json");
  const results = resolve(dir, "results.json");
  writeFileSync(planPath, JSON.stringify(plan));
  execFileSync(CLI_BIN, ["run", planPath, "-o", results, "--vantage", "fra1"], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(CLI_BIN, ["publish", resolve(site, "data"), results, "--schedule-minutes", "60"], { encoding: "utf8" });
  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", results], { encoding: "utf8" }));
  const idle = report.targets.map((t) => t.idle);
  assert.deepEqual(idle[0].goes_cold_after_s, [2, 4], "the mock's truth: warm after 2 s, cold after 4 s");
  assert.equal(idle[1].goes_cold_after_s, null);
  const today = new Date().toISOString().slice(0, 10);

  for (const [width, height] of [
    [1280, 900],
    [400, 860],
  ]) {
    const page = await openPage(browser, `${servers.site}?results=data/index.json`, { width, height });
    await page.waitForSelector("#idle-days tbody tr", { timeout: 30_000 });
    for (const lang of ["en", "zh-CN"]) {
      if (lang === "zh-CN") {
        await page.click("button.lang[lang='zh-CN']");
        await page.waitForSelector("html[lang='zh-CN']");
      }
      assert.equal(await page.textContent("#idle-days h2"), lang === "en" ? "Goes cold after, per day" : "每日：空闲多久后变冷");
      const rows = await page.$$eval("#idle-days tbody tr", (trs) =>
        trs.map((tr) => ({ ...tr.dataset, cells: [...tr.querySelectorAll("th, td")].map((c) => c.textContent.replace(/\u00a0/g, " ")) })),
      );
      // One day (a run straddling midnight UTC would give two per target).
      assert.equal(rows.length, 2, JSON.stringify(rows));
      assert.deepEqual(
        rows.map((r) => r.target),
        LABELS,
      );
      for (const [i, row] of rows.entries()) {
        assert.match(row.day, /^\d{4}-\d{2}-\d{2}$/);
        assert.ok(row.day <= today, row.day);
        const requests = idle[i].gaps.reduce((sum, g) => sum + g.requests, 0);
        assert.equal(Number(row.requests), requests, `${row.target}: the day holds the run's requests after a gap`);
        assert.equal(row.cells[4], String(requests));
        // The connection's own window, from the runner's connections.
        const connection = idle[i].connection;
        assert.ok(connection, "the runner says how each request was connected");
        let window;
        if (connection.always_new) window = lang === "en" ? "new every request" : "每个请求都新建";
        else if (connection.closes_after_s?.[0] === 0) window = `≤ ${gapText(lang, connection.closes_after_s[1])}`;
        else if (connection.closes_after_s) window = connection.closes_after_s.map((s) => gapText(lang, s)).join("–");
        else if (connection.may_close_after_s) {
          const range = connection.may_close_after_s.map((s) => gapText(lang, s)).join("–");
          window = lang === "en" ? `maybe ${range} (too few to be sure)` : `可能 ${range}（请求太少）`;
        } else if (connection.stayed_open_after_s != null)
          window = lang === "en" ? `open after ${gapText(lang, connection.stayed_open_after_s)}` : `空闲 ${gapText(lang, connection.stayed_open_after_s)}后仍打开`;
        // Targets on one origin share connections: a target's requests may
        // leave fewer than two gaps with a connection counted at them.
        else window = lang === "en" ? "too few gaps to compare" : "可比较的间隔不足";
        assert.equal(row.cells[3], window, JSON.stringify(row));
        if (idle[i].goes_cold_after_s) {
          const [lo, hi] = idle[i].goes_cold_after_s;
          assert.deepEqual([row.kind, Number(row.lo), Number(row.hi)], ["after", lo, hi], JSON.stringify(row));
          assert.equal(row.cells[2], `${gapText(lang, lo)}–${gapText(lang, hi)}`);
        } else if (idle[i].may_go_cold_after_s) {
          const [lo, hi] = idle[i].may_go_cold_after_s;
          assert.deepEqual([row.kind, Number(row.lo), Number(row.hi)], ["unsure", lo, hi], JSON.stringify(row));
        } else {
          const { after_s, of, cold } = idle[i].stayed_warm;
          assert.deepEqual([row.kind, Number(row.lo)], ["stayed-warm", after_s], JSON.stringify(row));
          const said = lang === "en" ? `warm after ${gapText(lang, after_s)} (${cold} of ${of} cold, ≤ ` : `空闲 ${gapText(lang, after_s)}后仍热（${of} 个中 ${cold} 个冷，≤ `;
          assert.ok(row.cells[2].startsWith(said), `"${row.cells[2]}" starts with "${said}"`);
        }
      }
      if (lang === "zh-CN") {
        const texts = await page.$$eval("#idle-days th, #idle-days td, #idle-days h2, #idle-days p", (els) => els.map((e) => e.textContent));
        assert.deepEqual(englishWords(texts, LABELS), [], "no English in the Chinese section");
      }
      assert.deepEqual(await sectionOverflow(page, "#idle-days", width), [], "nothing in the section is cut off or scrolls sideways");
      await page.locator("#idle-days").screenshot({ path: resolve(dir, `idle-days-${lang}-${width}.png`) });
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
