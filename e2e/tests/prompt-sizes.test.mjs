// Prompt sizes in the setup screen. A plan opened by a `#plan=` link shows
// its prompt sizes, typical prompt size and cache probe in the plan card's
// prompt block; edited there, Save plan, Copy plan link and Load plan carry
// what was typed, and a plan without them is written without them. A size
// that is no whole number, or a list the plan's rule refuses, is said under
// its field in core's words, in either language. At 1280 and 400 px the
// block fits the screen, and in Chinese its words are Chinese; screenshots
// of the block and of the plan card go to e2e/out/prompt-sizes/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { downloadText, openPage, openaiTarget, outDir, planFragment, quickPlan, withServersAndBrowser, copyPlanLink, planFromLink } from "./harness.mjs";
import { englishWords, layoutProblems, tokenWordProblems } from "./screen-checks.mjs";

const dir = resolve(outDir, "prompt-sizes");
mkdirSync(dir, { recursive: true });

let servers, browser;
withServersAndBrowser((started, launched) => {
  servers = started;
  browser = launched;
});

const LABEL = "Sized";
const SIZED = { prompt_sizes: [128, 1024], typical_prompt_tokens: 512, prompt_cache_probe: true };

/** A one-target plan; `sized` false leaves the prompt members out. */
function sizedPlan(sized = true) {
  return quickPlan([openaiTarget(servers.mock, "m", LABEL)], { requests_per_target: 80, nonce: true, ...(sized ? SIZED : {}) });
}

async function switchLanguage(page, lang) {
  await page.click(`button.lang[lang='${lang}']`);
  await page.waitForSelector(`html[lang='${lang}']`);
}

/** Opens the page on `plan` and waits until the form shows it. */
async function openOn(plan, viewport) {
  const page = await openPage(browser, `${servers.site}#${planFragment(plan)}`, viewport);
  await page.waitForFunction((label) => document.getElementById("target-0-label")?.value === label, LABEL);
  return page;
}

/** The plan Save plan writes. */
async function savedPlan(page) {
  return JSON.parse((await downloadText(page, "button:has-text('Save plan')")).text);
}

/** The plan in the link Copy plan link gives. */
async function linkedPlan(page) {
  return planFromLink(await copyPlanLink(page, servers.site));
}

/** The prompt block's fields as shown: `[sizes, typical, probe ticked]`. */
async function shown(page) {
  return [await page.inputValue("#plan-prompt-sizes"), await page.inputValue("#plan-typical-prompt"), await page.isChecked("#plan-cache-probe")];
}

test("a linked plan's prompt sizes, typical size and cache probe show in the setup page, and Save plan, the link and Load plan carry them as edited", async () => {
  const page = await openOn(sizedPlan());
  assert.deepEqual(await shown(page), ["128, 1024", "512", true]);
  assert.equal(await page.isDisabled("#start"), false, "the page takes the plan as valid");
  const saved = await savedPlan(page);
  for (const [member, value] of Object.entries(SIZED)) assert.deepEqual(saved[member], value, member);

  // Edited: sizes typed with a Chinese comma and a space, the probe unticked.
  await page.fill("#plan-prompt-sizes", "128，2048 8192");
  await page.fill("#plan-typical-prompt", "4096");
  await page.uncheck("#plan-cache-probe");
  const edited = await savedPlan(page);
  assert.deepEqual(edited.prompt_sizes, [128, 2048, 8192]);
  assert.equal(edited.typical_prompt_tokens, 4096);
  assert.ok(!("prompt_cache_probe" in edited), "an unticked probe is left out");
  assert.deepEqual(await linkedPlan(page), edited);
  await page.check("#plan-cache-probe");
  const probed = await savedPlan(page);
  assert.equal(probed.prompt_cache_probe, true);
  assert.deepEqual(await linkedPlan(page), probed);

  // Load plan: the saved file fills the fields again.
  const file = resolve(dir, "saved-plan.json");
  writeFileSync(file, JSON.stringify(probed));
  await page.fill("#plan-prompt-sizes", "");
  await page.fill("#plan-typical-prompt", "");
  // The last of the three emptied, the block is back to its sizes field.
  await page.click("#plan-cache-probe");
  await page.waitForSelector("#plan-cache-probe", { state: "detached" });
  assert.equal(await page.locator("#plan-typical-prompt").count(), 0);
  await page.setInputFiles("#load-plan", file);
  await page.waitForFunction(() => document.getElementById("plan-prompt-sizes")?.value === "128, 2048, 8192");
  assert.deepEqual(await shown(page), ["128, 2048, 8192", "4096", true]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a plan without prompt sizes shows only the sizes field and is saved without the three members", async () => {
  const page = await openOn(sizedPlan(false));
  assert.equal(await page.inputValue("#plan-prompt-sizes"), "");
  assert.equal(await page.locator("#plan-typical-prompt").count(), 0);
  assert.equal(await page.locator("#plan-cache-probe").count(), 0);
  const plain = await savedPlan(page);
  for (const member of Object.keys(SIZED)) assert.ok(!(member in plain), `${member} in a plan without sizes`);
  assert.ok(!(await linkedPlan(page)).prompt_sizes);
  // Typing a size brings the other two.
  await page.fill("#plan-prompt-sizes", "256");
  await page.waitForSelector("#plan-typical-prompt");
  assert.equal(await page.isChecked("#plan-cache-probe"), false);
  assert.deepEqual((await savedPlan(page)).prompt_sizes, [256]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a bad size or typical size is said at its field in core's words, in English and Chinese", async () => {
  const page = await openOn(sizedPlan());
  const said = page.locator("#plan-prompt-sizes-problem");
  await page.fill("#plan-prompt-sizes", "128, 2k");
  assert.equal(await said.textContent(), '"2k" is not a whole number');
  assert.equal(await page.getAttribute("#plan-prompt-sizes", "aria-invalid"), "true");
  assert.match(await page.getAttribute("#plan-prompt-sizes", "aria-describedby"), /plan-prompt-sizes-problem/);
  assert.ok(await page.locator("#start").isDisabled());
  await switchLanguage(page, "zh-CN");
  assert.equal(await said.textContent(), '"2k" 不是整数');
  await page.fill("#plan-prompt-sizes", "128, 128");
  assert.match(await said.textContent(), /^必须列出 1 到 16 个互不相同的长度/);
  await switchLanguage(page, "en");
  assert.match(await said.textContent(), /^must list 1 to 16 different sizes/);

  await page.fill("#plan-prompt-sizes", "128, 1024");
  assert.equal(await said.count(), 0);
  await page.fill("#plan-typical-prompt", "0");
  const typical = page.locator("#plan-typical-prompt-problem");
  assert.equal(await typical.textContent(), "must be between 1 and 2000000");
  await page.fill("#plan-typical-prompt", "half");
  assert.equal(await typical.textContent(), '"half" is not a whole number');
  await page.fill("#plan-typical-prompt", "512");
  assert.equal(await typical.count(), 0);
  assert.equal(await page.isDisabled("#start"), false);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("at 1280 and 400 px the filled prompt block fits, and in Chinese its words are Chinese", async () => {
  const zh = {
    sizes: "要测量的提示词长度（Token）",
    typical: "你的典型提示词长度（Token）",
    probe: /^1\u00a0024 Token 及以上的提示词各发送两次/,
  };
  const problems = [];
  for (const width of [1280, 400]) {
    const page = await openOn(sizedPlan(), { width, height: 860 });
    const block = page.locator(".prompt-option");
    const card = page.locator("section.card", { has: page.locator("#plan-prompt-sizes") });
    for (const lang of ["en", "zh-CN"]) {
      await switchLanguage(page, lang);
      await block.scrollIntoViewIfNeeded();
      problems.push(...(await layoutProblems(page)).map((p) => `${lang} ${width}: ${p}`));
      const box = await block.boundingBox();
      if (box.x < 0 || box.x + box.width > width) problems.push(`${lang} ${width}: the block is outside the screen: ${JSON.stringify(box)}`);
      if (lang === "zh-CN") {
        assert.equal(await page.textContent("label[for='plan-prompt-sizes']"), zh.sizes);
        assert.equal(await page.textContent("label[for='plan-typical-prompt']"), zh.typical);
        assert.match(await page.textContent("label[for='plan-cache-probe']"), zh.probe);
        assert.equal(await page.getAttribute("#plan-prompt-sizes", "placeholder"), "如 128, 1024, 8192");
        const texts = await block.evaluate((root) => [...root.querySelectorAll("label, p")].map((el) => el.textContent));
        problems.push(...englishWords(texts).map((w) => `${width}: English in Chinese: ${w}`));
        problems.push(...tokenWordProblems(texts).map((w) => `${width}: ${w}`));
      }
      await block.screenshot({ path: resolve(dir, `block-${lang}-${width}.png`) });
      await card.screenshot({ path: resolve(dir, `plan-card-${lang}-${width}.png`) });
    }
    // An empty field shows its placeholder whole.
    await page.fill("#plan-prompt-sizes", "");
    problems.push(...(await layoutProblems(page)).map((p) => `placeholder ${width}: ${p}`));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
  assert.deepEqual(problems, []);
});
