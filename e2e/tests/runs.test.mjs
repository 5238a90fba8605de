// Runs end to end: plan links fill the form, a three-protocol run
// interleaves one request at a time, a reload mid-run loses nothing and
// resumes, pause / resume / stop work, and a typed key goes to its provider
// and nowhere else. The page is served by the mock's static site; the
// provider is the mock on its other port, so every request crosses origins.
import { test } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import {
  anthropicTarget,
  downloadText,
  dumpIndexedDb,
  geminiTarget,
  groundTruth,
  openaiTarget,
  openPage,
  outDir,
  planFragment,
  quickPlan,
  resetMock,
  runProgress,
  settledGroundTruth,
  waitForDone,
  waitForRunEnd,
  webStorage,
  withServersAndBrowser,
  copyPlanLink,
  planFromLink,
} from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

const DEMO_LABELS = ["Demo A · steady", "Demo B · cold starts", "Demo C · fast, answers differ"];

/** The three protocols, one target each, all with the same mock script. */
function threeTargets(mock, model = "fixed@30") {
  return [
    openaiTarget(mock, model, "OpenAI mock"),
    anthropicTarget(mock, model, "Anthropic mock"),
    geminiTarget(mock, model, "Gemini mock"),
  ];
}

async function formLabels(page) {
  return page.$$eval("fieldset.target-row input[id$='-label']", (els) => els.map((e) => e.value));
}

/** The values the setup form shows, keyed like the plan document. */
async function formValues(page) {
  return page.evaluate(() => {
    const value = (id) => document.getElementById(id)?.value;
    const targets = [...document.querySelectorAll("fieldset.target-row")].map((_, n) => ({
      label: value(`target-${n}-label`),
      base_url: value(`target-${n}-base`),
      model: value(`target-${n}-model`),
    }));
    return {
      targets,
      requests: value("plan-requests"),
      warmup: value("plan-warmup"),
      spacing: value("plan-spacing"),
      jitter: value("plan-jitter"),
      spread: value("plan-spread"),
      timeout: value("plan-timeout"),
      prompt: value("plan-prompt"),
      nonce: document.getElementById("plan-nonce")?.checked,
      max_tokens: value("plan-max-tokens"),
      temperature: value("plan-temperature"),
      peak_start: value("plan-peak-start"),
      peak_end: value("plan-peak-end"),
    };
  });
}

/** What the form must show for `plan` (numbers as the form writes them). */
function expectedForm(plan) {
  return {
    targets: plan.targets.map((t) => ({ label: t.label, base_url: t.base_url, model: t.model })),
    requests: String(plan.requests_per_target),
    warmup: String(plan.warmup_per_target),
    spacing: String(plan.spacing_s),
    jitter: String(plan.jitter_s),
    spread: plan.spread_hours === null ? "" : String(plan.spread_hours),
    timeout: String(plan.timeout_s),
    prompt: plan.prompt,
    nonce: plan.nonce,
    max_tokens: String(plan.max_tokens),
    temperature: String(plan.temperature),
    peak_start: String(plan.peak_hours[0]),
    peak_end: String(plan.peak_hours[1]),
  };
}

/** Opens the page on a plan link and waits until the form shows the plan. */
async function openWithPlan(plan) {
  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`);
  await page.waitForFunction((label) => document.getElementById("target-0-label")?.value === label, plan.targets[0].label);
  return page;
}

async function showResults(page) {
  await page.click("nav.tabs button:has-text('Results')");
  await page.waitForSelector("#export-json");
}

async function exportJson(page) {
  const { name, text } = await downloadText(page, "#export-json");
  assert.match(name, /\.json$/);
  return { text, doc: JSON.parse(text) };
}

/** The id of the key field of a custom endpoint (keys are kept per base URL). */
function keyFieldId(baseUrl) {
  return `key-${baseUrl.replace(/[^A-Za-z0-9]/g, "-")}`;
}

/** Console errors and page errors: any is a failure. */
function problems(page) {
  return page.problems;
}

const bySendTime = (a, b) => a.sent_at_ms - b.sent_at_ms;
const byArrival = (a, b) => a.received_ms - b.received_ms;

test("a plan link fills every field of the form and leaves the address bar", async () => {
  const plan = quickPlan(threeTargets(servers.mock), {
    requests_per_target: 10,
    warmup_per_target: 1,
    spacing_s: 0.05,
    jitter_s: 0.02,
    timeout_s: 12,
    prompt: "Name one river in Europe, in one word.",
    nonce: true,
    max_tokens: 24,
    temperature: 0.5,
    peak_hours: [8, 20],
  });
  const page = await openWithPlan(plan);
  assert.deepEqual(await formValues(page), expectedForm(plan));
  assert.equal(new URL(page.url()).hash, "", "the #plan= fragment is gone");
  assert.ok(!page.url().includes("plan="), page.url());
  assert.equal(await page.isDisabled("#start"), false, "the linked plan is valid");

  // Copy plan link gives a link to the same plan.
  const link = await copyPlanLink(page, servers.site);
  assert.ok(link.startsWith(servers.site), `link on the page's own address: ${link}`);
  const copied = planFromLink(link);
  for (const [field, value] of Object.entries(plan)) {
    if (field === "targets") continue;
    assert.deepEqual(copied[field], value, `field ${field}`);
  }
  assert.deepEqual(
    copied.targets.map(({ label, protocol, base_url, model }) => ({ label, protocol, base_url, model })),
    plan.targets,
  );

  // And that link, opened afresh, fills the same form.
  const again = await openPage(browser, link);
  await again.waitForFunction((label) => document.getElementById("target-0-label")?.value === label, plan.targets[0].label);
  assert.deepEqual(await formValues(again), expectedForm(plan));
  assert.deepEqual(problems(page), []);
  assert.deepEqual(problems(again), []);
  await page.context().close();
  await again.context().close();
});

test("a malformed plan link says why and leaves the default form", async () => {
  const cases = [
    ["plan=@@not-base64@@", /plan link was not used.*not valid base64url/],
    [planFragment({ ...quickPlan(threeTargets(servers.mock)), firsttoken_plan: 99 }), /plan link was not used.*version 99 is newer/],
  ];
  for (const [fragment, message] of cases) {
    const page = await openPage(browser, `${servers.site}#${fragment}`);
    const notice = await page.waitForSelector(".notice span");
    assert.match(await notice.textContent(), message);
    assert.deepEqual(await formLabels(page), DEMO_LABELS, "the default form stays");
    assert.equal(new URL(page.url()).hash, "", "the bad fragment is dropped too");
    await page.context().close();
  }
});

test("three targets × 10 requests run round-robin, one request in flight at a time", async () => {
  await resetMock(servers.mock);
  const plan = quickPlan(threeTargets(servers.mock), { requests_per_target: 10, warmup_per_target: 1, spacing_s: 0.05 });
  const page = await openWithPlan(plan);
  await page.click("#start");
  await page.waitForSelector("#live-table");
  await waitForRunEnd(page, 60_000);
  assert.equal(await page.getAttribute(".run-status", "data-status"), "finished");
  assert.equal(await page.textContent(".run-status"), "Finished");
  assert.deepEqual(await runProgress(page), [33, 33]);
  const rows = await page.$$eval("#live-table tbody tr", (trs) => trs.map((tr) => tr.cells[1].textContent));
  assert.deepEqual(rows, ["10 / 10", "10 / 10", "10 / 10"]);

  const truth = await settledGroundTruth(servers.mock);
  const requests = [...truth.requests].sort(byArrival);
  assert.equal(requests.length, 33);
  const protocols = ["openai", "anthropic", "gemini"];
  assert.deepEqual(
    requests.map((r) => r.protocol),
    Array.from({ length: 33 }, (_, i) => protocols[i % 3]),
    "targets take turns 0, 1, 2, 0, 1, 2…",
  );
  for (const r of requests) assert.equal(r.outcome, "complete", JSON.stringify(r));
  // No overlap. The mock stamps end_ms after the chunked terminator, which
  // the page does not wait for: a reply is over for it at [DONE] /
  // message_stop, written just before. So the next request may arrive a few
  // ms before end_ms, never earlier: an overlapping request would arrive one
  // spacing (50 ms) after the previous was sent, ~120 ms before its end.
  const TERMINATOR_SLACK_MS = 10;
  for (let i = 1; i < requests.length; i++) {
    const [prev, next] = [requests[i - 1], requests[i]];
    assert.ok(
      next.received_ms >= prev.end_ms - TERMINATOR_SLACK_MS,
      `request ${i} arrived at ${next.received_ms} ms, before request ${i - 1} ended at ${prev.end_ms} ms`,
    );
    // Tokens are timed from arrival (first at the script's delay, then every
    // 20 ms) and never written early, so the 8th went out no sooner than this.
    const lastTokenMs = Math.max(prev.first_token_ms, prev.received_ms + prev.scripted_first_token_ms + 7 * 20);
    assert.ok(next.received_ms > lastTokenMs, `request ${i} arrived before the previous reply's last token`);
  }

  // The page's own record agrees: same order, warm-ups (seq 0) first.
  await showResults(page);
  const { doc } = await exportJson(page);
  const samples = [...doc.samples].sort(bySendTime);
  assert.deepEqual(
    samples.map((s) => [s.target, s.seq, s.warmup]),
    Array.from({ length: 33 }, (_, i) => [i % 3, Math.floor(i / 3), i < 3]),
  );
  for (const s of samples) assert.equal(s.error, null, JSON.stringify(s));
  // And as the page saw it: each request sent after the previous one ended
  // (sent_at is wall-clock ms, total_ms is from a finer clock: 2 ms slack).
  for (let i = 1; i < samples.length; i++) {
    assert.ok(samples[i].sent_at_ms >= samples[i - 1].sent_at_ms + samples[i - 1].total_ms - 2, `sample ${i} overlaps`);
  }
  assert.deepEqual(problems(page), []);
  await page.context().close();
});

/**
 * Polls the mock until a request for `model` has arrived and has not sent its
 * first token yet; returns how many requests the mock has seen by then.
 */
async function waitForInFlight(mock, model, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const { requests } = await groundTruth(mock);
    const last = requests[requests.length - 1];
    if (last?.model === model && last.outcome === "in_progress" && last.first_token_ms === null) return requests.length;
    assert.ok(Date.now() < deadline, `a ${model} request in flight within ${timeout} ms`);
    await new Promise((ok) => setTimeout(ok, 25));
  }
}

/**
 * Starts a 3 × (10 + 1) run at 0.3 s spacing, reloads the page once 8
 * samples are done (right away, or once a request is on its way), resumes
 * from the offer and checks the export against what was stored before.
 * Returns how many requests reached the mock without becoming a sample.
 */
async function reloadAndResume({ model, whileInFlight }) {
  await resetMock(servers.mock);
  const plan = quickPlan(threeTargets(servers.mock, model), { requests_per_target: 10, warmup_per_target: 1, spacing_s: 0.3 });
  const page = await openWithPlan(plan);
  await page.click("#start");
  await waitForDone(page, 8, 30_000);

  // What IndexedDB holds just before the reload; all of it must survive.
  const stored = (await dumpIndexedDb(page)).find((s) => s.db === "firsttoken" && s.store === "samples");
  const before = stored.values.map((json) => JSON.parse(json));
  assert.ok(before.length >= 8, `${before.length} samples stored before the reload`);
  if (whileInFlight) await waitForInFlight(servers.mock, model);
  await page.reload();
  await page.waitForSelector("header.top h1");

  // The offer is on the first screen, not only on the History tab.
  const offer = await page.waitForSelector("#resume-offer", { timeout: 10_000 });
  const offerText = await offer.textContent();
  // The offer counts as every other view does: measured requests per
  // target (warm-ups aside), the least-advanced target's, of the plan's 10.
  const offered = offerText.match(/measured per target: (\d+) \/ 10(?!\d)/);
  // And first the progress bar's own count, of all 33 requests, so the
  // offer and the progress it resumes say the same number.
  const offeredRequests = offerText.match(/Done (\d+) \/ 33 requests/);
  assert.ok(offeredRequests, offerText);
  assert.ok(offered, offerText);
  const measuredBefore = Math.min(...[0, 1, 2].map((t) => before.filter((s) => s.target === t && !s.warmup).length));
  assert.ok(Number(offered[1]) >= measuredBefore, `offer counts ${offered[1]} measured per target, ${measuredBefore} stored before`);
  assert.ok(Number(offered[1]) < 10, offerText);
  assert.equal(await page.isVisible("fieldset.target-row"), true, "still on the setup screen");
  await page.screenshot({ path: resolve(outDir, "runs-resume-offer.png") });
  await page.click("#resume-run");
  await page.waitForSelector("#live-table");
  const resumedAt = (await runProgress(page))[0];
  assert.ok(resumedAt >= before.length, "resumed with the stored samples counted");
  assert.ok(resumedAt >= Number(offeredRequests[1]), `the offer said ${offeredRequests[1]} of 33 done; the run resumed at ${resumedAt}`);
  await waitForRunEnd(page, 60_000);
  assert.equal(await page.getAttribute(".run-status", "data-status"), "finished");
  assert.deepEqual(await runProgress(page), [33, 33]);
  assert.equal(await page.$("#resume-offer"), null, "the offer is gone once resumed");

  await showResults(page);
  const { doc } = await exportJson(page);
  const pairs = doc.samples.map((s) => `${s.target}/${s.seq}`);
  assert.equal(new Set(pairs).size, pairs.length, `every (target, seq) once: ${pairs}`);
  const planned = [];
  for (let seq = 0; seq < 11; seq++) for (let target = 0; target < 3; target++) planned.push(`${target}/${seq}`);
  assert.deepEqual([...pairs].sort(), [...planned].sort(), "the planned count is reached");
  for (const sample of before) {
    const kept = doc.samples.find((s) => s.target === sample.target && s.seq === sample.seq);
    assert.deepEqual(kept, sample, "a sample from before the reload is kept unchanged");
  }
  for (const s of doc.samples) assert.equal(s.error, null, JSON.stringify(s));

  // The mock saw every exported request, plus at most the one in flight at
  // the reload: the page never stored it, so it is sent again on resume.
  const truth = await settledGroundTruth(servers.mock);
  const lost = truth.requests.length - doc.samples.length;
  assert.ok(lost === 0 || lost === 1, `${truth.requests.length} requests reached the mock for ${doc.samples.length} samples`);
  const unfinished = truth.requests.filter((r) => r.outcome !== "complete");
  assert.ok(unfinished.length <= lost, JSON.stringify(unfinished));
  for (const r of unfinished) assert.equal(r.outcome, "client_gone");
  assert.deepEqual(problems(page), []);
  await page.context().close();
  return lost;
}

test("a reload mid-run keeps every finished sample and resumes to the planned count", async () => {
  const lost = await reloadAndResume({ model: "fixed@30", whileInFlight: false });
  console.log(`reload between requests: ${lost} request lost in flight and sent again`);
});

test("a request in flight at a reload is sent again on resume, and kept once", async () => {
  // `fixed` answers at 150 ms, so the poll finds a request still waiting for
  // its first token and the reload cuts it off.
  const lost = await reloadAndResume({ model: "fixed", whileInFlight: true });
  assert.equal(lost, 1, "the cut-off request reached the mock, was not stored, and was sent again");
});

test("pause holds the run, resume continues it, stop aborts the request in flight", async () => {
  await resetMock(servers.mock);
  const SLOW = "fixed@1500";
  const plan = quickPlan(
    [openaiTarget(servers.mock, "fixed@30", "fast"), anthropicTarget(servers.mock, SLOW, "slow")],
    { requests_per_target: 20, warmup_per_target: 0, spacing_s: 0.2 },
  );
  const page = await openWithPlan(plan);
  await page.click("#start");

  // Pause while a slow reply is on its way: it finishes, nothing follows.
  const seenAtPause = await waitForInFlight(servers.mock, SLOW);
  await page.click(".run .actions button:has-text('Pause')");
  await page.waitForSelector('.run-status[data-status="paused"]');
  assert.equal(await page.textContent(".run-status"), "Paused");
  await waitForDone(page, seenAtPause, 10_000);
  const observeMs = 1_000; // a bounded window in which nothing may happen
  await page.waitForTimeout(observeMs);
  const paused = await groundTruth(servers.mock);
  assert.equal(paused.requests.length, seenAtPause, "no request sent while paused");
  assert.equal(paused.requests[seenAtPause - 1].outcome, "complete", "the request in flight at the pause finished normally");
  assert.equal((await runProgress(page))[0], seenAtPause);

  await page.click(".run .actions button:has-text('Resume')");
  await page.waitForSelector('.run-status[data-status="running"]');
  await waitForDone(page, seenAtPause + 1, 10_000);

  // Stop while the next slow reply is on its way.
  const seenAtStop = await waitForInFlight(servers.mock, SLOW);
  await page.click(".run .actions button.danger");
  await page.waitForSelector('.run-status[data-status="stopped"]', { timeout: 10_000 });
  assert.equal(await page.textContent(".run-status"), "Stopped");
  const [done, total] = await runProgress(page);
  assert.equal(total, 40);
  assert.equal(done, seenAtStop, "the stopped request counts as done");

  const truth = await settledGroundTruth(servers.mock);
  assert.equal(truth.requests.length, seenAtStop, "nothing sent after Stop");
  const last = truth.requests[truth.requests.length - 1];
  assert.equal(last.outcome, "client_gone", JSON.stringify(last));
  await showResults(page);
  const { doc } = await exportJson(page);
  assert.equal(doc.samples.length, seenAtStop, "one sample per request sent");
  const samples = [...doc.samples].sort(bySendTime);
  const aborted = samples[samples.length - 1];
  assert.equal(aborted.target, 1);
  assert.equal(aborted.error?.kind, "aborted", JSON.stringify(aborted));
  assert.equal(aborted.ttft_ms, null);
  assert.equal(samples.filter((s) => s.error).length, 1, "only the stopped request is an error");
  assert.deepEqual(problems(page), []);
  await page.context().close();
});

test("a typed key goes to its own host and nowhere else unless remembered", async () => {
  await resetMock(servers.mock);
  const SECRET = "sk-test-SECRET123";
  const plan = quickPlan(
    [openaiTarget(servers.mock, "fixed@30", "OpenAI mock"), geminiTarget(servers.mock, "fixed@30", "Gemini mock")],
    { requests_per_target: 3, warmup_per_target: 0, spacing_s: 0.05 },
  );
  const page = await openWithPlan(plan);
  // Keys are bound to origins: both targets are on the mock's host, so one
  // field, named by that host.
  const origin = new URL(servers.mock).origin;
  const openaiKey = page.locator(`#${keyFieldId(origin)}`);
  assert.equal(await page.locator("input[id^='key-']").count(), 1, "one key field per origin");
  assert.equal(await openaiKey.count(), 1);
  assert.match(await page.textContent(`label[for=${keyFieldId(origin)}]`), new RegExp(new URL(servers.mock).host.replace(".", "\\.")), "named by its host");
  await openaiKey.pressSequentially(SECRET);
  assert.equal(await openaiKey.inputValue(), SECRET);

  const leaks = [];
  const check = (where, text) => {
    if (String(text).includes(SECRET) || String(text).includes("SECRET123")) leaks.push(where);
  };
  check("copied plan link", await copyPlanLink(page, servers.site));
  check("saved plan file", (await downloadText(page, "button:has-text('Save plan')")).text);

  await page.click("#start");
  // The plan came from a link and the host never received a key here: ask first.
  await page.click("#confirm-key-hosts-send");
  await waitForRunEnd(page, 30_000);
  assert.deepEqual(await runProgress(page), [6, 6]);
  const truth = await settledGroundTruth(servers.mock);
  assert.equal(truth.requests.length, 6);
  for (const r of truth.requests) {
    assert.equal(r.auth, r.protocol === "openai" ? "authorization" : "x-goog-api-key", `the key in its protocol's header: ${JSON.stringify(r)}`);
    assert.equal(r.key_in_query, false);
  }

  check("URL", page.url());
  const storage = await webStorage(page);
  check("localStorage", JSON.stringify(storage.local));
  check("sessionStorage", JSON.stringify(storage.session));
  const idb = await dumpIndexedDb(page);
  assert.ok(idb.some((s) => s.store === "samples" && s.values.length === 6), "IndexedDB was read");
  check("IndexedDB", JSON.stringify(idb));
  check("cookies", JSON.stringify(await page.context().cookies()));
  await showResults(page);
  const json = await exportJson(page);
  assert.equal(json.doc.samples.length, 6);
  check("exported JSON", json.text);
  const csv = await downloadText(page, "#export-csv");
  assert.match(csv.name, /\.csv$/);
  check("exported CSV", csv.text);
  assert.deepEqual(leaks, [], `the key leaked into: ${leaks.join(", ")}`);

  // Opting in keeps it in localStorage, and it comes back after a reload.
  await page.click("nav.tabs button:has-text('Setup')");
  await page.check("#remember-keys");
  assert.ok(JSON.stringify((await webStorage(page)).local).includes(SECRET), "remembered in localStorage");
  // A new visit finds the key again (the link is opened afresh: a reload
  // would show the default demo form, which has no key field).
  await page.goto("about:blank");
  await page.goto(`${servers.site}#${planFragment(plan)}`);
  await page.waitForFunction((label) => document.getElementById("target-0-label")?.value === label, plan.targets[0].label);
  assert.equal(await page.isChecked("#remember-keys"), true);
  const field = page.locator(`#${keyFieldId(origin)}`);
  assert.equal(await field.inputValue(), SECRET, "key field refilled from the device");

  // While remembering, an edited key is what is kept.
  const EDITED = "sk-test-EDITED456";
  await field.fill(EDITED);
  const kept = JSON.stringify((await webStorage(page)).local);
  assert.ok(kept.includes(EDITED) && !kept.includes(SECRET), `localStorage follows the edit: ${kept.replace(/sk-test-\w+/g, "sk-test-…")}`);

  // "Forget keys" clears the device and the fields.
  await page.click("button:has-text('Forget keys')");
  await page.waitForFunction(() => !document.getElementById("remember-keys").checked);
  const after = JSON.stringify(await webStorage(page));
  assert.ok(!after.includes(EDITED) && !after.includes(SECRET), "forgotten");
  assert.equal(await field.inputValue(), "");
  assert.deepEqual(problems(page), []);
  await page.screenshot({ path: resolve(outDir, "runs-keys.png") });
  await page.context().close();
});
