// Idle time as it really was, end to end, against a mock that closes a
// connection idle 1 s (its close reaching the client 50 ms later, as over a
// network), charges each new connection 150 ms (standing for a TLS
// handshake) and serves a model that scales to zero after 3 s idle:
//
// - `firsttoken run` loses no request at any gap, the 1.02 s gap racing the
//   close included (those requests are sent again on a new connection and
//   say so), the connection closes between 0.4 and 1.02 s and the model
//   goes cold between 1.02 and 4 s, each its own figure in `report --json`;
// - the page, opened by a `#plan=` link, loses no request either (the
//   browser sends a request racing the close again, as the runner does),
//   reads the model's range from the same requests, and says that its
//   figures include any reconnect, since it cannot see connections, in
//   English and in Chinese.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { openPage, openaiTarget, outDir, planFragment, quickPlan, resetMock, waitForRunEnd, withServersAndBrowser, CLI_BIN } from "./harness.mjs";

const dir = resolve(outDir, "keepalive");
mkdirSync(dir, { recursive: true });

let servers, browser;
withServersAndBrowser(
  (started, launched) => {
    servers = started;
    browser = launched;
  },
  { mockArgs: ["--keep-alive-s", "1", "--close-delay-ms", "50", "--connect-delay-ms", "150"] },
);

const LABEL = "Scales to zero";

function keepalivePlan(mock) {
  return quickPlan([openaiTarget(mock, "scale-to-zero@3@800", LABEL)], {
    requests_per_target: 15,
    warmup_per_target: 1,
    spacing_s: 0.05,
    idle_gaps_s: [0.4, 1.02, 4],
  });
}

test("firsttoken run loses no request to the keep-alive close and tells the connection from the model", async () => {
  assert.ok(existsSync(CLI_BIN), `the runner is not built at ${CLI_BIN}: run \`make cli\``);
  await resetMock(servers.mock);
  const planPath = resolve(dir, "plan.json");
  const results = resolve(dir, "results.json");
  writeFileSync(planPath, JSON.stringify(keepalivePlan(servers.mock)));
  execFileSync(CLI_BIN, ["run", planPath, "-o", results], { stdio: ["ignore", "ignore", "inherit"] });
  const report = JSON.parse(execFileSync(CLI_BIN, ["report", "--json", results], { encoding: "utf8" }));
  const idle = report.targets[0].idle;
  assert.deepEqual(
    idle.gaps.map((g) => g.failed),
    idle.gaps.map(() => 0),
    JSON.stringify(idle.gaps),
  );
  assert.equal(
    idle.gaps.reduce((n, g) => n + g.requests, 0),
    15,
  );
  assert.deepEqual(idle.connection.closes_after_s, [0.4, 1.02], JSON.stringify(idle.connection));
  assert.deepEqual(idle.goes_cold_after_s, [1.02, 4], JSON.stringify(idle));
  const samples = JSON.parse(readFileSync(results, "utf8")).samples.filter((s) => !s.warmup);
  const retried = samples.filter((s) => s.retried);
  console.log(`firsttoken run: ${retried.length} of ${samples.length} requests raced the close and were sent again`);
  assert.ok(retried.length > 0, "the 1.02 s gap races the close");
  assert.ok(retried.every((s) => s.idle_gap_s === 1.02 && s.error == null));
});

test("the page loses no request either and says its figures include any reconnect", async () => {
  await resetMock(servers.mock);
  const page = await openPage(browser, `${servers.site}#${planFragment(keepalivePlan(servers.mock))}`);
  await page.waitForFunction(() => document.getElementById("plan-idle-gaps")?.value === "0.4, 1.02, 4");
  await page.click("#start");
  await waitForRunEnd(page, 120_000);
  await page.click("nav.tabs button:has-text('Results')");
  await page.waitForSelector("#idle table.idle");
  const rows = await page.$$eval("#idle table.idle tbody tr", (trs) => trs.map((tr) => ({ ...tr.dataset })));
  assert.deepEqual(
    rows.map((r) => r.failed),
    rows.map(() => "0"),
    JSON.stringify(rows),
  );
  assert.equal(
    rows.reduce((n, r) => n + Number(r.requests), 0),
    15,
  );
  const notes = await page.$$eval("#idle ul.idle-notes li", (items) => items.map((li) => li.textContent.replace(/\u00a0/g, " ")));
  assert.ok(
    notes.some((n) => n.includes("goes cold after 1 s–4 s idle")),
    JSON.stringify(notes),
  );
  assert.ok(
    notes.some((n) => n.includes("these figures include any time spent opening a new connection")),
    JSON.stringify(notes),
  );
  await page.locator("#idle").screenshot({ path: resolve(dir, "idle-en-1280.png") });
  // The same section in Chinese: the same rows and the same two sentences.
  await page.click("button.lang[lang='zh-CN']");
  await page.waitForSelector("html[lang='zh-CN']");
  const zhRows = await page.$$eval("#idle table.idle tbody tr", (trs) => trs.map((tr) => ({ ...tr.dataset })));
  assert.deepEqual(zhRows, rows);
  const zhNotes = await page.$$eval("#idle ul.idle-notes li", (items) => items.map((li) => li.textContent.replace(/\u00a0/g, " ")));
  assert.ok(
    zhNotes.some((n) => n.includes("空闲 1 秒–4 秒后变冷")),
    JSON.stringify(zhNotes),
  );
  assert.ok(
    zhNotes.some((n) => n.includes("这些数字包含空闲后重新建立连接的时间")),
    JSON.stringify(zhNotes),
  );
  await page.locator("#idle").screenshot({ path: resolve(dir, "idle-zh-CN-1280.png") });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
