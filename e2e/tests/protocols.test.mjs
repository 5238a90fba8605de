// Every mock script through every protocol it applies to, measured by the
// page's own code path (`window.wasmBindings.measureOnce`) in headless
// Chromium, and checked against the mock's ground truth: TTFT, reasoning
// apart from content, usage counts, the error kind and message of every
// fault, and where the key travels. Then a run in the UI mixing a good
// target with faulty ones goes on to the end and counts its errors.
//
// The page is opened from the mock's static site, so the provider is another
// origin and every request passes real CORS (preflight included).
//
// TTFT tolerance. The page's TTFT runs from just before fetch() to the chunk
// carrying the first token; the mock's ground truth runs from when it had
// read the whole request to when the write of that chunk returned. The page's
// figure therefore also holds the request's way to the mock and the chunk's
// way back through Chromium's network service: on loopback a few ms, paid on
// every request. So `ttft_ms − (first_token_ms − received_ms)` must be small
// and non-negative: its median over every successful request in [0, 5] ms.
// Per request the window is looser, [−10, 25] ms: the mock, Chromium and other
// builds share two cores, so a descheduled thread can move one sample by tens
// of ms (the mock's clock reading after a write can come late too, hence the
// negative side). A request outside the window is measured again, up to three
// times in all, and the best try must fit: load spikes are random, a wrong
// token is not (tokens are 20 ms apart; a role chunk, ping or keep-alive comes
// 50–300 ms before the first token, reasoning 130 ms before it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import {
  anthropicTarget,
  closedPort,
  geminiTarget,
  measureOnce,
  median,
  openPage,
  openaiTarget,
  outDir,
  planFragment,
  quantile,
  quickPlan,
  resetMock,
  settledGroundTruth,
  unexpectedProblems,
  waitForBindings,
  waitForRunEnd,
  withServersAndBrowser,
} from "./harness.mjs";

const KEY = "sk-e2e-key-7f3a9c";
// Page TTFT − the mock's ground truth, median over every successful request.
// The page's own overhead is measured precisely by `make bench-accuracy`
// (0.10 ms median over a plain fetch-stream loop in the same page); this
// bound catches a gross error, such as a timestamp taken after decoding
// (tens of ms). The median is the browser's loopback delivery on the host:
// 3.3 ms on a Xeon, 4.7 ms on an AMD EPYC, and 5.1–6.2 ms there with the
// whole suite running on two cores, where a 5 ms bound failed runs that had
// no change to the timing path (docs/accuracy.md).
const MEDIAN_TOLERANCE_MS = [0, 8];
const PER_REQUEST_TOLERANCE_MS = [-10, 25];
const TRIES = 3;
const STALL_TIMEOUT_S = 1.5;

const PROTOCOLS = {
  openai: { target: openaiTarget, auth: "authorization" },
  anthropic: { target: anthropicTarget, auth: "x-api-key" },
  gemini: { target: geminiTarget, auth: "x-goog-api-key" },
};

const SUCCESS_SCRIPTS = ["fixed", "bimodal", "reasoning", "reasoning-or", "keepalive", "role-first", "split", "crlf"];
const REASONING_SCRIPTS = new Set(["reasoning", "reasoning-or"]);

/** The provider's in-stream error message, per protocol (mock/src/protocol/*.rs). */
const STREAM_ERROR = {
  openai: /server had an error while processing your request \(mock script error-event\)/,
  anthropic: /overloaded/,
  gemini: /model is overloaded/,
};

/** What each fault must become: kind, phase and the useful part of the message. */
const FAULTS = {
  "http-401": { kind: "http_status", phase: "before_first_token", message: [/HTTP 401/, /invalid API key \(mock script http-401\)/, /check the key/] },
  "http-429": { kind: "http_status", phase: "before_first_token", message: [/HTTP 429/, /rate limit reached/, /try again in 7s/] },
  "http-500": { kind: "http_status", phase: "before_first_token", message: [/HTTP 500/, /server had an error/] },
  "error-event": { kind: "provider_error", phase: "before_first_token", message: [/error inside the stream/] },
  cut: { kind: "stream_cut", phase: "after_first_token", message: [/connection broke while reading the stream/] },
  "not-sse": { kind: "not_sse", phase: "before_first_token", message: [/HTTP 200, application\/json instead of an event stream/, /Paris/] },
  stall: { kind: "timeout", phase: "before_first_token", message: [new RegExp(`no first token within ${STALL_TIMEOUT_S} s`)] },
};

function scriptsFor(protocol) {
  const success = SUCCESS_SCRIPTS.filter((s) => s !== "reasoning-or" || protocol === "openai");
  // stall last: its record stays open until the page gives up.
  return [...success, "fixed", "fixed", ...Object.keys(FAULTS)];
}

let servers, browser, page;
const ttftOffsetsMs = [];

withServersAndBrowser(async (started, launched) => {
  servers = started;
  browser = launched;
  page = await openPage(browser, servers.site);
  await waitForBindings(page);
});

for (const [protocol, { target: makeTarget, auth }] of Object.entries(PROTOCOLS)) {
  test(`${protocol}: every script measured as the mock sent it`, async (t) => {
    await resetMock(servers.mock);
    for (const [seq, script] of scriptsFor(protocol).entries()) {
      const target = makeTarget(servers.mock, script);
      const plan = quickPlan([target], { timeout_s: script === "stall" ? STALL_TIMEOUT_S : 10 });
      for (let attempt = 1; ; attempt++) {
        const { outcome, record } = await measureWithTruth(target, plan, seq);
        const where = `${protocol} ${script}: ${JSON.stringify(outcome)} vs ${JSON.stringify(record)}`;
        assert.equal(record.model, script, where);
        assert.equal(record.protocol, protocol, where);
        // The key travels in the protocol's header, never in the URL.
        assert.equal(record.auth, auth, where);
        assert.equal(record.key_in_query, false, where);
        assert.ok(!record.path.includes(KEY), where);
        if (script in FAULTS) {
          checkFault(protocol, script, outcome, record, where);
          break;
        }
        checkSuccess(script, outcome, record, where);
        const timing = timingMisses(script, outcome, record);
        if (attempt === 1) ttftOffsetsMs.push(ttftOffsetMs(outcome, record));
        if (timing.length === 0) break;
        if (attempt === TRIES) assert.fail(`${timing.join("; ")} on ${TRIES} tries; last: ${where}`);
        t.diagnostic(`${protocol} ${script} try ${attempt}: ${timing.join("; ")}; measuring again`);
      }
    }
    assert.deepEqual(unexpectedProblems(page), []);
  });
}

/** One request through the page, and the mock's record of it. */
async function measureWithTruth(target, plan, seq) {
  const before = (await settledGroundTruth(servers.mock, 0)).requests.length;
  const outcome = await measureOnce(page, target, plan, KEY, seq);
  const truth = await settledGroundTruth(servers.mock, 3_000);
  assert.equal(truth.requests.length, before + 1, "one ground-truth record per request");
  return { outcome, record: truth.requests.at(-1) };
}

function ttftOffsetMs(outcome, record) {
  return outcome.ttft_ms - (record.first_token_ms - record.received_ms);
}

function inWindow(ms) {
  return ms >= PER_REQUEST_TOLERANCE_MS[0] && ms <= PER_REQUEST_TOLERANCE_MS[1];
}

/** What is off in a successful request's timing, in words; empty when it all fits. */
function timingMisses(script, outcome, record) {
  const misses = [];
  const offsetMs = ttftOffsetMs(outcome, record);
  if (!inWindow(offsetMs)) misses.push(`TTFT off by ${offsetMs.toFixed(2)} ms`);
  if (REASONING_SCRIPTS.has(script)) {
    const reasoningOffsetMs = outcome.first_reasoning_ms - (record.first_reasoning_ms - record.received_ms);
    if (!inWindow(reasoningOffsetMs)) misses.push(`first reasoning off by ${reasoningOffsetMs.toFixed(2)} ms`);
    if (!(outcome.first_reasoning_ms < outcome.ttft_ms)) misses.push("reasoning not before content");
  }
  return misses;
}

function checkSuccess(script, outcome, record, where) {
  assert.equal(outcome.error, null, where);
  // The page stops reading at the protocol's end marker; the mock may still
  // have been writing the chunked terminator then (a race on loopback).
  assert.ok(["complete", "client_gone"].includes(record.outcome), where);
  assert.equal(typeof outcome.ttft_ms, "number", where);
  // Headers, first byte and first token come in order (two tokens can share
  // one read when the page was busy).
  assert.ok(outcome.headers_ms <= outcome.first_byte_ms && outcome.first_byte_ms <= outcome.ttft_ms, where);
  assert.ok(outcome.second_token_ms >= outcome.ttft_ms && outcome.total_ms >= outcome.second_token_ms, where);
  // The provider's usage count is taken, not the counted deltas.
  assert.equal(typeof record.output_tokens, "number", `the mock sent usage: ${where}`);
  assert.equal(outcome.output_tokens, record.output_tokens, where);
  assert.equal(outcome.tokens_estimated, false, where);

  if (REASONING_SCRIPTS.has(script)) {
    assert.equal(record.reasoning_deltas, 3, where);
    assert.equal(typeof outcome.first_reasoning_ms, "number", `reasoning reported: ${where}`);
    assert.ok(outcome.first_reasoning_ms <= outcome.ttft_ms, `reasoning not after content: ${where}`);
    // In the mock's own times, reasoning came well before the content.
    assert.ok(record.first_token_ms - record.first_reasoning_ms > 100, where);
  } else {
    assert.equal(outcome.first_reasoning_ms, null, where);
  }
}

function checkFault(protocol, script, outcome, record, where) {
  const expected = FAULTS[script];
  assert.ok(outcome.error, `an error: ${where}`);
  assert.equal(outcome.error.kind, expected.kind, where);
  assert.equal(outcome.error.phase, expected.phase, where);
  for (const part of expected.message) assert.match(outcome.error.message, part, where);
  assert.ok(!outcome.error.message.includes(KEY), where);
  switch (script) {
    case "error-event":
      assert.match(outcome.error.message, STREAM_ERROR[protocol], where);
      assert.equal(outcome.ttft_ms, null, where);
      break;
    case "cut":
      // Two tokens arrived before the cut: kept, and counted (no usage came).
      assert.equal(record.outcome, "cut", where);
      assert.equal(record.content_deltas, 2, where);
      assert.equal(typeof outcome.ttft_ms, "number", where);
      assert.equal(outcome.output_tokens, record.content_deltas, where);
      assert.equal(outcome.tokens_estimated, true, where);
      break;
    case "stall":
      assert.equal(record.status, 200, where);
      assert.equal(outcome.ttft_ms, null, where);
      assert.ok(outcome.total_ms >= STALL_TIMEOUT_S * 1000 && outcome.total_ms < STALL_TIMEOUT_S * 1000 + 1000, where);
      break;
    case "not-sse":
      assert.equal(record.status, 200, where);
      break;
    default:
      assert.equal(record.status, Number(script.slice("http-".length)), where);
  }
}

test("TTFT is within the tolerance of the mock's ground truth", () => {
  // Needs the protocol tests above (same file, run in order).
  const expected = Object.keys(PROTOCOLS).flatMap(scriptsFor).filter((s) => !(s in FAULTS)).length;
  assert.equal(ttftOffsetsMs.length, expected, "every successful request of every protocol");
  const medianMs = median(ttftOffsetsMs);
  console.log(
    `TTFT − ground truth over ${ttftOffsetsMs.length} requests: median ${medianMs.toFixed(2)} ms, ` +
      `p95 ${quantile(ttftOffsetsMs, 0.95).toFixed(2)} ms, min ${Math.min(...ttftOffsetsMs).toFixed(2)} ms, ` +
      `max ${Math.max(...ttftOffsetsMs).toFixed(2)} ms`,
  );
  assert.ok(medianMs >= MEDIAN_TOLERANCE_MS[0] && medianMs <= MEDIAN_TOLERANCE_MS[1], `median ${medianMs} ms`);
});

test("an unreachable provider is a cors_or_network error, not a lost request", async () => {
  const port = await closedPort();
  const target = openaiTarget(`http://127.0.0.1:${port}`, "fixed");
  const outcome = await measureOnce(page, target, quickPlan([target]), KEY, 0);
  assert.equal(outcome.error?.kind, "cors_or_network", JSON.stringify(outcome));
  assert.equal(outcome.error.phase, "request");
  assert.match(outcome.error.message, /no answer reached the page/);
  assert.match(outcome.error.message, /TypeError/, "the browser's own words are kept");
  assert.ok(!outcome.error.message.includes(KEY));
  assert.equal(outcome.headers_ms, null);
  assert.equal(typeof outcome.total_ms, "number");
});

test("a run in the page goes on after faults and counts them", async () => {
  await resetMock(servers.mock);
  const port = await closedPort();
  const targets = [
    openaiTarget(servers.mock, "fixed@30", "Good"),
    anthropicTarget(servers.mock, "http-429", "Rate limited"),
    geminiTarget(servers.mock, "cut", "Cut"),
    openaiTarget(`http://127.0.0.1:${port}`, "fixed", "Unreachable"),
  ];
  const expectedKind = { "Rate limited": "http_status", Cut: "stream_cut", Unreachable: "cors_or_network" };
  const plan = quickPlan(targets, { requests_per_target: 2, warmup_per_target: 0, spacing_s: 0.05, timeout_s: 5 });
  const runPage = await openPage(browser, `${servers.site}#${planFragment(plan)}`);
  try {
    await runPage.waitForSelector("#start");
    await runPage.click("#start");
    await runPage.waitForSelector("#live-table");
    await waitForRunEnd(runPage, 60_000);
    await runPage.screenshot({ path: resolve(outDir, "run-with-faults.png"), fullPage: true });

    assert.equal(await runPage.getAttribute(".run-status", "data-status"), "finished");
    assert.match(await runPage.textContent("#progress-text"), /^8 \/ 8/);
    const rows = await runPage.$$eval("#live-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[2]]),
      [
        ["Good", "2 / 2", "0"],
        ["Rate limited", "2 / 2", "2"],
        ["Cut", "2 / 2", "2"],
        ["Unreachable", "2 / 2", "2"],
      ],
    );
    assert.match(rows[0][3], /^\d+(\.\d+)? ms$/, `the good target has a median: ${rows[0]}`);
    // A stream cut after its first token still timed that token: it counts.
    assert.match(rows[2][3], /^\d+(\.\d+)? ms$/, `a cut after the first token keeps its TTFT: ${rows[2]}`);
    for (const row of [rows[1], rows[3]]) assert.equal(row[3], "–", `no median from failures before a first token: ${row}`);

    // Six errors, the latest five listed, each under its target with its kind.
    const items = await runPage.$$eval(".error-list li", (lis) =>
      lis.map((li) => ({ label: li.querySelector("strong").textContent, kind: li.querySelector(".error-kind").dataset.kind, text: li.textContent })),
    );
    assert.equal(items.length, 5);
    const kindWords = { http_status: "HTTP error", stream_cut: "stream cut off", cors_or_network: "blocked or no network" };
    for (const item of items) {
      assert.equal(item.kind, expectedKind[item.label], JSON.stringify(item));
      // In words, never the exported code; a blocked request lists what
      // may have happened and what to try.
      assert.ok(item.text.includes(`— ${kindWords[item.kind]}: `), JSON.stringify(item));
      assert.ok(!/cors_or_network|http_status|stream_cut/.test(item.text), JSON.stringify(item));
      if (item.kind === "cors_or_network") assert.match(item.text, /the base URL may be wrong.*Test connection/, item.text);
    }
    const latest = await runPage.$$eval("#latest-samples li", (lis) => lis.map((li) => li.textContent).join("\n"));
    assert.ok(!/cors_or_network|http_status|stream_cut/.test(latest), latest);
    assert.deepEqual([...new Set(items.map((i) => i.label))].sort(), ["Cut", "Rate limited", "Unreachable"]);
    assert.ok(items.filter((i) => i.label === "Rate limited").every((i) => /HTTP 429/.test(i.text)));

    // The mock saw every request of the reachable targets.
    const truth = await settledGroundTruth(servers.mock, 3_000);
    const byModel = (m) => truth.requests.filter((r) => r.model === m);
    assert.equal(byModel("fixed@30").length, 2);
    assert.ok(byModel("fixed@30").every((r) => r.outcome === "complete"));
    assert.equal(byModel("http-429").length, 2);
    assert.equal(byModel("cut").length, 2);
    assert.deepEqual(unexpectedProblems(runPage), []);
  } finally {
    await runPage.context().close();
  }
});
