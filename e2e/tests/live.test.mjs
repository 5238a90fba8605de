// The run view while a run is live: no verdict before 20 successful samples
// (in English and Chinese), a provisional one after, and a TTFT timeline that
// is drawn and grows as samples arrive, updated by adding dots rather than
// redrawing the whole chart. Uses the built-in demo provider: no key, no
// network.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openPage, planFragment, waitForDone, waitForRunEnd, withServersAndBrowser } from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

const PER_TARGET = 30;

const demoPlan = {
  firsttoken_plan: 1,
  targets: [
    { label: "Demo A · steady", protocol: "demo", base_url: "demo://steady", model: "demo-llm", provider: "demo" },
    { label: "Demo B · cold starts", protocol: "demo", base_url: "demo://cold-tail", model: "demo-llm", provider: "demo" },
  ],
  requests_per_target: PER_TARGET, warmup_per_target: 1, spacing_s: 0.05, jitter_s: 0, spread_hours: null,
  timeout_s: 30, prompt: "Reply with one short sentence: what is the capital of France?", nonce: true,
  max_tokens: 16, temperature: 0, reasoning_counts_as_first_token: false, peak_hours: [9, 18],
};

/**
 * Records, in the page, every state of the live table's rows as the DOM
 * changes: done, errors, the badge's data-verdict, data-provisional and text.
 */
const RECORD_ROWS = () => {
  window.__rows = [];
  const snapshot = () => {
    const rows = [...document.querySelectorAll("#live-table tbody tr")].map((tr) => {
      const cells = tr.querySelectorAll("td");
      const badge = tr.querySelector(".verdict");
      return {
        done: Number(cells[0]?.textContent.split(" / ")[0]),
        errors: Number(cells[1]?.textContent),
        verdict: badge?.dataset.verdict ?? null,
        provisional: badge?.dataset.provisional === "true",
        text: badge?.textContent ?? "",
      };
    });
    if (rows.length) window.__rows.push(rows);
  };
  new MutationObserver(snapshot).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
};

/** Coloured pixels of the live timeline (dots, not the grey frame and text), and what the canvas says it holds. */
const TIMELINE = () => {
  const canvas = document.getElementById("live-timeline");
  if (!canvas || !canvas.width) return null;
  const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
  let coloured = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
  }
  return {
    coloured,
    samples: Number(canvas.dataset.samples ?? 0),
    frames: Number(canvas.dataset.frames ?? 0),
    latest: document.querySelectorAll("#latest-samples li").length,
  };
};

test("a demo run gives no verdict before 20 samples and draws a growing timeline", async () => {
  const page = await openPage(browser, `${servers.site}#${planFragment(demoPlan)}`);
  await page.waitForSelector("#start:not([disabled])");
  await page.evaluate(RECORD_ROWS);
  await page.click("#start");

  await waitForDone(page, 6);
  const early = await page.evaluate(TIMELINE);
  assert.ok(early, "the run view has a live timeline");
  assert.ok(early.samples >= 6, `timeline holds ${early.samples} samples`);
  assert.ok(early.coloured > 50, `dots are drawn: ${early.coloured} coloured pixels`);
  assert.ok(early.latest > 0, "the latest samples are listed");

  // Still collecting: the badge says so, in English and then in Chinese.
  const badge = page.locator("#live-table tbody tr").first().locator(".verdict");
  assert.match(await badge.textContent(), /^collecting \(\d+ of 20\)$/);
  await page.click("button.lang[lang='zh-CN']");
  await page.waitForFunction(() => /^收集中（\d+ \/ 20）$/.test(document.querySelector("#live-table tbody tr .verdict")?.textContent ?? ""));
  await page.click("button.lang[lang='en']");

  await waitForDone(page, 45);
  const later = await page.evaluate(TIMELINE);
  assert.ok(later.samples > early.samples, `timeline grew from ${early.samples} to ${later.samples} samples`);
  assert.ok(later.coloured > early.coloured, `more dots: ${early.coloured} → ${later.coloured} coloured pixels`);
  // Updates add dots; the whole chart is drawn again only when the axes grow.
  assert.ok(later.frames >= 1 && later.frames <= 6, `${later.frames} full redraws for ${later.samples} samples`);

  await waitForRunEnd(page);
  const states = await page.evaluate(() => window.__rows);
  assert.ok(states.length > 20, `${states.length} table states recorded`);
  let sawCollecting = false, sawProvisional = false;
  for (const rows of states) {
    for (const row of rows) {
      const successful = row.done - row.errors;
      if (successful < 20) {
        assert.equal(row.verdict, "collecting", `a verdict at ${successful} samples: ${JSON.stringify(row)}`);
        assert.match(row.text, /^(collecting \(\d+ of 20\)|收集中（\d+ \/ 20）)$/);
        sawCollecting = true;
      } else {
        assert.notEqual(row.verdict, "collecting", `no verdict at ${successful} samples`);
        // Provisional until the plan's 30 requests (fewer than 75) are in.
        assert.equal(row.provisional, successful < PER_TARGET, JSON.stringify(row));
        sawProvisional ||= row.provisional;
      }
    }
  }
  assert.ok(sawCollecting && sawProvisional);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
