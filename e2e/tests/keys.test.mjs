// A key goes only to the host it was given for. The mock records which
// credential header each request carried (never its value): a remembered
// OpenAI key must not follow a link's "OpenAI" target to another host, and a
// key typed for a host this device never sent one to waits for the person's
// confirmation, which names the host, before any request leaves.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  groundTruth,
  planFragment,
  quickPlan,
  resetMock,
  waitForRunEnd,
  withServersAndBrowser,
} from "./harness.mjs";

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

/** The page at `url`, with localStorage prepared by `storage` before any script runs. */
async function openWith(url, storage, locale = "en-US") {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  await context.addInitScript((items) => {
    for (const [name, value] of Object.entries(items)) localStorage.setItem(name, value);
  }, storage);
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector("#start");
  return page;
}

const mockHost = () => new URL(servers.mock).host;

test("a remembered OpenAI key does not follow a link's 'OpenAI' target to another host", async () => {
  await resetMock(servers.mock);
  const plan = quickPlan(
    [{ label: "looks like OpenAI", protocol: "openai", base_url: `${servers.mock}/v1`, model: "fixed@20", provider: "openai" }],
    { requests_per_target: 2, warmup_per_target: 0, spacing_s: 0.05 },
  );
  // Remembered the way earlier versions kept it: by provider id.
  const page = await openWith(`${servers.site}#${planFragment(plan)}`, {
    "firsttoken.keys": JSON.stringify({ openai: "sk-remembered-0123456789" }),
  });
  // The field names the host the key would go to, and starts empty.
  const label = await page.textContent(".key-row label");
  assert.match(label, new RegExp(`API key for ${mockHost().replace(".", "\\.")}`));
  assert.match(label, /custom host, not OpenAI/);
  assert.equal(await page.inputValue(".key-row input"), "");
  await page.click("#start");
  await waitForRunEnd(page);
  const truth = await groundTruth(servers.mock);
  assert.equal(truth.requests.length, 2);
  for (const request of truth.requests) assert.equal(request.auth, "none", "no credential arrived");
  assert.deepEqual(page.problems, []);
});

test("a key typed for a new host from a link is sent only after the host is confirmed", async () => {
  for (const [locale, confirmText, title] of [
    ["en-US", "Send keys and start", /Send your keys to these hosts\?/],
    ["zh-CN", "发送密钥并开始", /要把密钥发送到这些主机吗/],
  ]) {
    await resetMock(servers.mock);
    const plan = quickPlan(
      [{ label: "gateway", protocol: "openai", base_url: `${servers.mock}/v1`, model: "fixed@20" }],
      { requests_per_target: 2, warmup_per_target: 0, spacing_s: 0.05 },
    );
    const page = await openWith(`${servers.site}#${planFragment(plan)}`, {}, locale);
    await page.fill(".key-row input", "sk-typed-0123456789");
    await page.click("#start");
    await page.waitForSelector("#confirm-key-hosts");
    const dialog = await page.textContent("#confirm-key-hosts");
    assert.match(dialog, title);
    assert.ok(dialog.includes(`http://${mockHost()}`), `names the host: ${dialog}`);
    assert.ok(dialog.includes("gateway"), "names the target");
    // Nothing has left yet.
    assert.equal((await groundTruth(servers.mock)).requests.length, 0, `${locale}: nothing sent before confirming`);
    await page.click(`#confirm-key-hosts-send:has-text("${confirmText}")`);
    await waitForRunEnd(page);
    const truth = await groundTruth(servers.mock);
    assert.equal(truth.requests.length, 2);
    for (const request of truth.requests) assert.equal(request.auth, "authorization");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test("cancelling sends nothing, and a host used before is not asked about again", async () => {
  await resetMock(servers.mock);
  const plan = quickPlan(
    [{ label: "gateway", protocol: "openai", base_url: `${servers.mock}/v1`, model: "fixed@20" }],
    { requests_per_target: 1, warmup_per_target: 0, spacing_s: 0.05 },
  );
  const page = await openWith(`${servers.site}#${planFragment(plan)}`, {});
  await page.fill(".key-row input", "sk-typed-0123456789");
  await page.click("#start");
  await page.click("#confirm-key-hosts-cancel");
  assert.equal(await page.locator("#confirm-key-hosts").count(), 0);
  assert.equal((await groundTruth(servers.mock)).requests.length, 0);
  // The same link on a device that has sent a key to this host before.
  const used = JSON.stringify([`http://${mockHost()}`]);
  const again = await openWith(`${servers.site}#${planFragment(plan)}`, { "firsttoken.key-origins": used });
  await again.fill(".key-row input", "sk-typed-0123456789");
  await again.click("#start");
  await waitForRunEnd(again);
  assert.equal(await again.locator("#confirm-key-hosts").count(), 0);
  const truth = await groundTruth(servers.mock);
  assert.equal(truth.requests.length, 1);
  assert.equal(truth.requests[0].auth, "authorization");
  assert.deepEqual(again.problems, []);
});

test("a target that needs a key cannot start without one, in either language", async () => {
  await resetMock(servers.mock);
  // OpenAI's own host with the demo's model, as a person who switched a
  // demo row to OpenAI would have it: the runner refuses this plan (exit 2).
  const plan = quickPlan(
    [
      { label: "Demo", protocol: "demo", base_url: "demo://steady", model: "demo-llm" },
      { label: "OpenAI · demo-llm", protocol: "openai", base_url: "https://api.openai.com/v1", model: "demo-llm", provider: "openai" },
    ],
    { requests_per_target: 2, warmup_per_target: 0, spacing_s: 0.05 },
  );
  for (const [locale, words] of [
    ["en-US", "Enter the API key for https://api.openai.com before starting"],
    ["zh-CN", "开始前请输入 https://api.openai.com 的 API 密钥"],
  ]) {
    const page = await openWith(`${servers.site}#${planFragment(plan)}`, {}, locale);
    await page.click("#start");
    await page.waitForSelector(".notice");
    assert.ok((await page.textContent(".notice")).includes(words), await page.textContent(".notice"));
    // The refusal is about the setup as it was: a key typed ends it.
    await page.locator(".key-row", { hasText: "api.openai.com" }).locator("input").fill("sk-typed");
    await page.waitForSelector(".notice", { state: "detached" });
    await page.locator(".key-row", { hasText: "api.openai.com" }).locator("input").fill("");
    // Test connection with the key field empty says so and sends nothing
    // (not the long text of a request that could not reach the provider).
    const row = page.locator(".key-row", { hasText: "api.openai.com" });
    await row.getByRole("button").click();
    const said = await row.locator(".status.bad").textContent();
    const expected = locale === "en-US" ? "Enter the API key first: nothing was sent." : "请先输入 API 密钥：尚未发送任何请求。";
    assert.equal(said, expected);
    // Still on the setup screen: nothing started.
    assert.ok(await page.isVisible("#start"));
    assert.equal(await page.$$eval("#run-progress", (els) => els.length), 0);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
