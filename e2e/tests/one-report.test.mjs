// One file, one report: the page and `firsttoken report` make the same
// report from the same results file (one bootstrap rule, one seed), so every
// sentence the page shows is the terminal's, byte for byte once the page's
// no-break spaces are made plain, in English and in Chinese. Five files the
// runner writes against the mock: prompt sizes with a typical size, idle
// gaps, a fidelity check, a near-tie, and timeouts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  anthropicTarget,
  geminiTarget,
  openPage,
  openaiTarget,
  outDir,
  quickPlan,
  resetMock,
  withServersAndBrowser,
  CLI_BIN,
} from "./harness.mjs";


let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

/** The five plans, by name. */
function plans(mock) {
  return {
    sized: quickPlan(
      [openaiTarget(mock, "prefill@200000/m", "fast"), anthropicTarget(mock, "prefill-cached@60000/m", "slow")],
      {
        requests_per_target: 24,
        warmup_per_target: 1,
        spacing_s: 0.01,
        nonce: true,
        prompt_sizes: [128, 2048, 8192],
        typical_prompt_tokens: 4096,
      },
    ),
    idle: quickPlan(
      [openaiTarget(mock, "scale-to-zero@3@1500", "Scales to zero"), anthropicTarget(mock, "scale-to-zero@30@1500", "Stays warm")],
      { requests_per_target: 9, warmup_per_target: 1, spacing_s: 0.05, idle_gaps_s: [1, 4], typical_gap_s: 2 },
    ),
    fidelity: {
      ...quickPlan(
        [openaiTarget(mock, "faithful@20", "Faithful"), anthropicTarget(mock, "degraded", "Degraded")],
        { requests_per_target: 3, warmup_per_target: 1, spacing_s: 0.02 },
      ),
      fidelity: { suite: "basic-1", repeats: 1, reference: "Faithful" },
    },
    tie: quickPlan(
      [openaiTarget(mock, "fixed@30", "Tie A"), geminiTarget(mock, "fixed@30", "Tie B")],
      { requests_per_target: 24, warmup_per_target: 0, spacing_s: 0.01 },
    ),
    timeouts: quickPlan(
      [openaiTarget(mock, "bimodal@10", "Cold A"), openaiTarget(mock, "fixed@20", "Steady B")],
      { requests_per_target: 24, warmup_per_target: 0, spacing_s: 0.02, timeout_s: 1 },
    ),
  };
}

/**
 * Every sentence of the page's results cards (the outline's sentences, lists
 * and hints), without the bold lead and target label the page sets before
 * it, and its no-break spaces made plain. Every card holds its text whether
 * or not it is on screen, so nothing is scrolled into view first; the cards
 * arrive over several renders after an import or a language switch, so the
 * sentences are read until two reads 250 ms apart agree.
 */
async function pageSentences(page) {
  let last = await sentencesNow(page);
  for (let tries = 0; tries < 40; tries += 1) {
    await page.waitForTimeout(250);
    const now = await sentencesNow(page);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}

/** The sentences in the document at this moment (see `pageSentences`). */
async function sentencesNow(page) {
  // The page's own pieces (the probe grid's hint) are marked `own`: no
  // other printer has them.
  return page.$$eval("section.card > p.sentence, section.card > ul.notes > li, section.card > p.hint:not(.own)", (items) =>
    items
      .map((item) => {
        const copy = item.cloneNode(true);
        for (const lead of copy.querySelectorAll(":scope > strong")) lead.remove();
        return copy.textContent.replace(/\u00a0/g, " ").replace(/^[\s:：]+/, "").trim();
      })
      .filter((text) => text.length > 0),
  );
}

test("for five runner files the page says every sentence `firsttoken report` says, in both languages", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  const dir = resolve(outDir, "one-report");
  mkdirSync(dir, { recursive: true });
  for (const [name, plan] of Object.entries(plans(servers.mock))) {
    await resetMock(servers.mock);
    const planPath = resolve(dir, `${name}-plan.json`);
    const results = resolve(dir, `${name}.json`);
    writeFileSync(planPath, JSON.stringify(plan));
    execFileSync(CLI_BIN, ["run", planPath, "-o", results], { stdio: ["ignore", "ignore", "pipe"] });
    const page = await openPage(browser, servers.site);
    await page.setInputFiles("#import-results", [{ name: `${name}.json`, mimeType: "application/json", buffer: readFileSync(results) }]);
    await page.waitForSelector("section.card p.hint");
    let compared = 0;
    for (const lang of ["en", "zh-CN"]) {
      if (lang === "zh-CN") {
        await page.click("button.lang[lang='zh-CN']");
        await page.waitForSelector("html[lang='zh-CN']");
      }
      const text = execFileSync(CLI_BIN, ["report", "--lang", lang, results], { encoding: "utf8" });
      const plain = text.replace(/\s+/g, " ");
      const sentences = await pageSentences(page);
      assert.ok(sentences.length >= 5, `${name}, ${lang}: the page shows ${sentences.length} sentences`);
      for (const sentence of sentences) {
        const said = sentence.replace(/\s+/g, " ");
        assert.ok(plain.includes(said), `${name}, ${lang}: the terminal does not say "${said}"`);
        compared += 1;
      }
      // The rule under each model is the rule the routing JSON names.
      const routing = JSON.parse(execFileSync(CLI_BIN, ["report", "--config", "routing", results], { encoding: "utf8" }));
      if (lang === "en") {
        for (const route of routing.routes) {
          assert.ok(sentences.includes(route.rule.replace(/\u00a0/g, " ")), `${name}: the page prints the routing JSON's rule`);
        }
      }
    }
    assert.ok(compared >= 10, `${name}: ${compared} sentences compared`);
    assert.deepEqual(page.problems, [], `${name}: page problems`);
    await page.close();
  }
});
