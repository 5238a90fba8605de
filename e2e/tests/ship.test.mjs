// Shipping checks: the page works from a sub-path (as on GitHub Pages), it is
// locked down (CSP meta, no request to anyone but its own origin and the
// provider the person configured, no third-party asset), the Subresource
// Integrity attributes still match the files after every build step, and the
// Pages workflow passes actionlint.
//
// Needs `trunk build --release` (dist/) and
// `trunk build --release --public-url /firsttoken/ --dist dist-subpath`
// (the Makefile's test-e2e builds both), and the mock provider.
import { test, before, after, describe } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { launch, planFragment, quickPlan, openaiTarget, repo, startServers, waitForRunEnd, withServersAndBrowser } from "./harness.mjs";
import { lintWorkflows, workflowFiles } from "../../scripts/lint-workflows.mjs";

const SUBPATH = "/firsttoken/";
const SUBPATH_DIST = resolve(repo, "dist-subpath");
const MOCK_BIN = process.env.FIRSTTOKEN_MOCK_BIN || resolve(repo, "target/release/firsttoken-mock");

/** A short demo plan: two demo targets, 3 measured requests each. */
function demoPlan() {
  return quickPlan(
    [
      { label: "Demo A · steady", protocol: "demo", base_url: "demo://steady", model: "demo-llm", provider: "demo" },
      { label: "Demo B · cold starts", protocol: "demo", base_url: "demo://cold-tail", model: "demo-llm", provider: "demo" },
    ],
    { requests_per_target: 3, warmup_per_target: 1, spacing_s: 0.02, timeout_s: 30 },
  );
}

/** Serves `dist` under `prefix` with the mock's static server (harness.startServers serves dist/ only). */
async function startSubpathSite(dist, prefix) {
  const args = ["--port", "0", "--static-dir", dist, "--static-port", "0", "--static-prefix", prefix];
  const child = spawn(MOCK_BIN, args, { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const site = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("static site did not start in 10 s")), 10_000);
    child.once("exit", (code) => fail(new Error(`mock provider exited with ${code}`)));
    lines.on("line", (line) => {
      const found = line.match(/static site at (http:\S+)/);
      if (found) {
        clearTimeout(timer);
        ok(found[1]);
      }
    });
  });
  return { site, stop: () => child.kill() };
}

/** Records every request of a browser context, with its response status or failure. */
function recordRequests(context) {
  const log = [];
  context.on("request", (request) => log.push({ url: request.url(), method: request.method(), type: request.resourceType() }));
  context.on("response", (response) => {
    const entry = log.findLast((e) => e.url === response.url() && e.status === undefined);
    if (entry) {
      entry.status = response.status();
      entry.contentType = response.headers()["content-type"];
    }
  });
  context.on("requestfailed", (request) => {
    const entry = log.findLast((e) => e.url === request.url() && e.status === undefined);
    if (entry) entry.failure = request.failure()?.errorText ?? "failed";
  });
  return log;
}

/** Collects `securitypolicyviolation` events from the first moment of every document. */
async function watchCspViolations(context) {
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
}

/** Opens `url` with a request log and a CSP violation listener from the first byte. */
async function openWatched(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const requests = recordRequests(context);
  await watchCspViolations(context);
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  await page.goto(url);
  await page.waitForSelector("#start");
  return { context, page, requests, problems };
}

/** Runs the plan in the fragment to the end, filling any key field with a dummy key. */
async function runPlan(page) {
  for (const input of await page.$$("input[id^='key-']")) await input.fill("sk-test-not-a-real-key");
  await page.waitForSelector("#start:not([disabled])", { timeout: 10_000 });
  await page.click("#start");
  // A plan from a link asks before a key goes to a host this device never
  // sent one to: confirm, naming the host, as a person would.
  const next = await page.waitForSelector("#confirm-key-hosts-send, .run-status", { timeout: 10_000 });
  if ((await next.getAttribute("id")) === "confirm-key-hosts-send") await next.click();
  await waitForRunEnd(page, 60_000);
  return page.textContent("#progress-text");
}

describe("served from a sub-path", () => {
  let server, browser;
  before(async () => {
    if (!existsSync(resolve(SUBPATH_DIST, "index.html"))) {
      throw new Error(`no ${SUBPATH_DIST}: run \`trunk build --release --public-url ${SUBPATH} --dist dist-subpath\` (make test-e2e does)`);
    }
    server = await startSubpathSite(SUBPATH_DIST, SUBPATH);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  test("the page, its wasm and its timer worker load from /firsttoken/ and a demo run ends", async () => {
    assert.ok(server.site.endsWith(SUBPATH), `site URL ${server.site}`);
    // Spacing longer than a demo reply, so the run really waits between
    // requests: waits run in the timer worker (src/browser/timer.rs), which
    // is only started then.
    const plan = { ...demoPlan(), requests_per_target: 1, warmup_per_target: 1, spacing_s: 1.5 };
    const { context, page, requests: log, problems } = await openWatched(browser, `${server.site}#${planFragment(plan)}`);
    const workerStarted = page.waitForEvent("worker", { timeout: 30_000 });
    const progress = await runPlan(page);
    assert.match(progress, /^4 \/ 4/);
    const worker = await workerStarted;
    assert.equal(new URL(worker.url()).pathname, `${SUBPATH}timer-worker.js`, "the timer worker runs from the sub-path");
    for (const other of page.workers()) assert.ok(new URL(other.url()).pathname.startsWith(SUBPATH), other.url());

    // The worker does its job from there: it answers a posted wait (a worker
    // that fails to load would only send the app back to the page's timers).
    const answer = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const worker = new Worker("timer-worker.js");
          const timer = setTimeout(() => resolve("no answer in 5 s"), 5000);
          worker.onmessage = (event) => (clearTimeout(timer), resolve(event.data));
          worker.onerror = () => (clearTimeout(timer), resolve("worker failed to load"));
          worker.postMessage({ id: 7, ms: 10 });
        }),
    );
    assert.deepEqual(answer, { id: 7 });
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], "no CSP violation");

    const origin = new URL(server.site).origin;
    const network = log.filter((e) => e.url.startsWith("http"));
    // (The browser's own favicon fetch may report no response to the automation.)
    const bad = network.filter((e) => e.failure || e.status >= 400);
    assert.deepEqual(bad, [], "no request failed or answered 4xx/5xx");
    for (const entry of network) {
      const url = new URL(entry.url);
      assert.equal(url.origin, origin, `${entry.url} is on the page's origin`);
      assert.ok(url.pathname.startsWith(SUBPATH), `${entry.url} is under ${SUBPATH}`);
    }
    const paths = network.map((e) => new URL(e.url).pathname);
    for (const suffix of ["_bg.wasm", ".js", ".css", "timer-worker.js"]) {
      const loaded = network.find((e) => new URL(e.url).pathname.endsWith(suffix));
      assert.equal(loaded?.status, 200, `*${suffix} loaded: ${paths.join(", ")}`);
    }
    const wasm = network.find((e) => e.url.endsWith(".wasm"));
    assert.equal(wasm.contentType, "application/wasm");
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe("locked down", () => {
  let servers, browser;
  withServersAndBrowser((started, launched) => {
    servers = started;
    browser = launched;
  });

  function assertOnlyAllowedOrigins(requests, allowed) {
    const elsewhere = requests
      .filter((e) => !e.url.startsWith("data:") && !e.url.startsWith("blob:"))
      .filter((e) => !allowed.includes(new URL(e.url).origin));
    assert.deepEqual(elsewhere, [], `requests only to ${allowed.join(" and ")}`);
  }

  test("a static first screen says what the page is while the wasm loads, and the app replaces it", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await page.route(/_bg\.wasm$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(servers.site, { waitUntil: "domcontentloaded" });
    const screen = page.locator("#first-screen");
    await screen.waitFor({ state: "visible" });
    assert.match(await screen.locator('p[lang="en"]').textContent(), /time-to-first-token of LLM providers/i);
    assert.match(await screen.locator('p[lang="zh-CN"]').textContent(), /首 Token 延迟/);
    assert.equal(await page.locator("#start").count(), 0, "no Start before the app runs");
    release();
    await page.waitForSelector("#start");
    assert.equal(await screen.count(), 0, "the app replaced the first screen");
    assert.equal(await page.locator("h1").count(), 1, "one heading: the app's");
    await context.close();
  });

  test("a demo run requests nothing but the page's own files", async () => {
    const { context, page, requests, problems } = await openWatched(browser, `${servers.site}#${planFragment(demoPlan())}`);
    assert.match(await runPlan(page), /^8 \/ 8/);
    assertOnlyAllowedOrigins(requests, [new URL(servers.site).origin]);
    assert.ok(requests.some((e) => e.url.endsWith(".wasm")), "the log saw the page load");
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], "no CSP violation");
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("a run against the provider requests only the page and that provider", async () => {
    const plan = quickPlan([openaiTarget(servers.mock, "fixed@20", "Mock fixed")], {
      requests_per_target: 3,
      warmup_per_target: 1,
      spacing_s: 0.02,
    });
    const { context, page, requests, problems } = await openWatched(browser, `${servers.site}#${planFragment(plan)}`);
    assert.match(await runPlan(page), /^4 \/ 4/);
    const mockOrigin = new URL(servers.mock).origin;
    assertOnlyAllowedOrigins(requests, [new URL(servers.site).origin, mockOrigin]);
    const toProvider = requests.filter((e) => e.url.startsWith(mockOrigin) && e.method === "POST");
    assert.equal(toProvider.length, 4, "one POST per request, warm-up included");
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], "no CSP violation");
    assert.deepEqual(problems, []);
    await context.close();
  });

  test("the CSP meta allows only the page's scripts, and is enforced", async () => {
    const html = readFileSync(resolve(repo, "dist/index.html"), "utf8");
    const { context, page } = await openWatched(browser, servers.site);
    const policy = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
    const directives = new Map(
      policy.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
    );
    assert.ok(!policy.includes("unsafe-inline"), `no 'unsafe-inline' in ${policy}`);
    assert.ok(!/'unsafe-eval'/.test(policy), "no 'unsafe-eval'");
    assert.deepEqual(directives.get("object-src"), ["'none'"]);
    assert.deepEqual(directives.get("base-uri"), ["'none'"]);
    assert.deepEqual(directives.get("default-src"), ["'none'"]);
    const scriptSrc = directives.get("script-src");
    assert.deepEqual(scriptSrc.slice(0, 2), ["'self'", "'wasm-unsafe-eval'"]);
    const hashes = scriptSrc.slice(2);
    assert.ok(hashes.length >= 1 && hashes.every((h) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(h)), `only hashes: ${hashes}`);
    // Each hash names an inline script of the built page, byte for byte.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    const expected = inline.map((body) => `'sha256-${createHash("sha256").update(body).digest("base64")}'`);
    assert.deepEqual(hashes, expected);

    // Enforced: an injected inline script does not run and is reported.
    const ran = await page.evaluate(async () => {
      window.__injectedRan = false;
      const script = document.createElement("script");
      script.textContent = "window.__injectedRan = true;";
      const reported = new Promise((ok) => document.addEventListener("securitypolicyviolation", ok, { once: true }));
      document.head.append(script);
      await Promise.race([reported, new Promise((ok) => setTimeout(ok, 2000))]);
      return window.__injectedRan;
    });
    assert.equal(ran, false, "an inline script without the hash is blocked");
    const violations = await page.evaluate(() => window.__cspViolations);
    assert.equal(violations.length, 1, `the injected script was reported: ${violations}`);
    assert.match(violations[0], /^script-src/);
    await context.close();
  });
});

describe("built files", () => {
  const dist = resolve(repo, "dist");

  test("index.html and the stylesheet reference nothing outside the page", () => {
    const html = readFileSync(resolve(dist, "index.html"), "utf8");
    const refs = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]);
    assert.ok(refs.length >= 3, `found the page's references: ${refs}`);
    for (const ref of refs) {
      assert.ok(!/^(?:[a-z]+:)?\/\//i.test(ref), `${ref} is not an absolute URL to another host`);
    }
    const imports = [...html.matchAll(/\bimport\b[^'"]*['"]([^'"]+)['"]/g)].map((m) => m[1]);
    for (const target of imports) assert.ok(target.startsWith("/") && !target.startsWith("//"), `import ${target}`);
    const css = refs.filter((r) => r.endsWith(".css"));
    assert.equal(css.length, 1);
    const sheet = readFileSync(resolve(dist, css[0].replace(/^\//, "")), "utf8");
    assert.ok(!/@import/i.test(sheet), "the stylesheet imports nothing");
    for (const [, url] of sheet.matchAll(/url\(\s*["']?([^"')]+)/g)) {
      assert.ok(url.startsWith("data:") || !/^(?:[a-z]+:)?\/\//i.test(url), `stylesheet url(${url}) stays on the page`);
    }
  });

  test("every Subresource Integrity hash matches its file", () => {
    for (const dir of [dist, SUBPATH_DIST].filter((d) => existsSync(resolve(d, "index.html")))) {
      const html = readFileSync(resolve(dir, "index.html"), "utf8");
      const tags = [...html.matchAll(/<link\b[^>]*\bhref="([^"]+)"[^>]*\bintegrity="(sha(?:256|384|512))-([^"]+)"/g)];
      assert.ok(tags.length >= 3, `${dir}: the css, js and wasm carry integrity (found ${tags.length})`);
      assert.ok(tags.some(([, href]) => href.endsWith(".wasm")), `${dir}: the wasm carries integrity`);
      for (const [, href, algorithm, digest] of tags) {
        const file = resolve(dir, href.replace(/^.*\//, ""));
        const actual = createHash(algorithm).update(readFileSync(file)).digest("base64");
        assert.equal(actual, digest, `${dir}: integrity of ${href}`);
      }
    }
  });
});

test("the Pages workflow passes actionlint and deploys with the official actions", async () => {
  const files = workflowFiles();
  const pages = files.find((f) => f.endsWith("pages.yml"));
  assert.ok(pages, "a pages.yml workflow exists");
  assert.deepEqual(await lintWorkflows(files), []);
  const text = readFileSync(pages, "utf8");
  for (const action of ["actions/configure-pages@", "actions/upload-pages-artifact@", "actions/deploy-pages@"]) {
    assert.ok(text.includes(`uses: ${action}`), `uses ${action}`);
  }
  for (const line of ["pages: write", "id-token: write", "concurrency:", "--public-url"]) {
    assert.ok(text.includes(line), `has ${line}`);
  }
  // The workflow installs the tools through setup.sh, so its pins are the build's pins.
  assert.match(text, /bash scripts\/setup\.sh/);
  // Sanity: the linter does report a broken workflow.
  const broken = text.replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latst");
  const { writeFileSync, mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const scratch = resolve(mkdtempSync(resolve(tmpdir(), "ft-lint-")), "broken.yml");
  writeFileSync(scratch, broken);
  const problems = await lintWorkflows([scratch]);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].kind, "runner-label");
});
