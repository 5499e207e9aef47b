// The generating workbench of chapter 34 in a real browser: opens the
// built chapter over file:// in headless Chromium (Debian's, through
// playwright-core) and checks that the trained model loads, that Write
// with the chapter's settings shows the demo's first sample (from
// OUT_DIR/34-end-to-end/values.json, the native build's text) a token at a
// time, that the text for a fixed prompt and seed equals what
// `tinyllm generate` prints (BUILD_DIR/tinyllm), that each guided step
// ticks itself, and that a bad setting is reported. Screenshots of the
// generating model, light and dark, desktop and phone, go to
// SCREENSHOT_DIR.
//
// usage: node tests/browser/workbench-generate.test.js [BOOK_DIR] [SCREENSHOT_DIR] [OUT_DIR]
//        (defaults: build/book, build/screenshots, build/out; CTest label: browser)
"use strict";

const assert = require("node:assert/strict");
const path = require("path");
const { spawnSync } = require("child_process");
const { workbenchPage } = require("./workbench-page.js");

const bench = workbenchPage({ name: "generate", stem: "34-end-to-end", ready: ".workbench-write", timeout: 30000 });
const { steps, field } = bench;
const tinyllm = path.join(path.dirname(bench.outDir), "tinyllm");
const checkpoint = path.join(bench.outDir, "34-end-to-end", "artifacts", "tinyllm.ckpt");

// Presses Write and waits for the end; returns the text and how many
// different texts the output showed on the way (a token at a time: many).
async function write(page) {
  await page.evaluate(() => {
    const out = document.querySelector(".workbench-output");
    window.seenTexts = new Set();
    new MutationObserver(() => window.seenTexts.add(out.textContent)).observe(out, { childList: true, characterData: true, subtree: true });
  });
  await page.locator("section.workbench .workbench-write").click();
  await page.locator('.workbench-output[data-done="true"]').waitFor({ timeout: 60000 });
  return page.evaluate(() => ({
    text: document.querySelector(".workbench-output").textContent,
    shown: window.seenTexts.size,
    command: document.querySelector(".workbench-command").textContent,
  }));
}

bench.test("the model writes the demo's sample, a token at a time, and tinyllm's text", async (page) => {
  assert.deepEqual(await steps(page), { wrote: false, reseeded: false, greedy: false, heated: false });
  const first = await write(page);
  assert.equal(first.text.replace(/\n/g, "/"), bench.value("words.t07.sample0").text);
  assert.ok(first.shown > 10, `the text appeared in ${first.shown} steps, not a token at a time`);
  assert.match(first.command, /--prompt 'And God said' --tokens 40 --temperature 0.7 --top-k 40 --top-p 1 --seed 34$/);

  // Another seed, then another prompt and settings: tinyllm prints the same.
  await field(page, "seed").fill("5");
  const reseeded = await write(page);
  await page.locator("section.workbench .workbench-prompt").fill("The LORD is");
  await field(page, "temperature").fill("1.2");
  await field(page, "topP").fill("0.95");
  await field(page, "tokens").fill("50");
  const other = await write(page);
  for (const [r, args] of [[reseeded, ["And God said", 40, 0.7, 40, 1, 5]], [other, ["The LORD is", 50, 1.2, 40, 0.95, 5]]]) {
    const [prompt, tokens, t, k, p, seed] = args;
    const native = spawnSync(tinyllm, ["generate", "--checkpoint", checkpoint, "--prompt", prompt, "--tokens", String(tokens),
      "--temperature", String(t), "--top-k", String(k), "--top-p", String(p), "--seed", String(seed)], { encoding: "utf8" });
    assert.equal(native.status, 0, native.stderr);
    assert.equal(r.text, native.stdout.replace(/\n$/, ""), `seed ${seed}, prompt '${prompt}'`);
  }
  assert.notEqual(reseeded.text, first.text);

  // Greedy: every seed the same text.
  await page.locator("section.workbench .workbench-reset", { hasText: "Chapter's settings" }).click();
  await field(page, "temperature").fill("0");
  const greedy = await write(page);
  await field(page, "seed").fill("77");
  assert.equal((await write(page)).text, greedy.text);
  assert.deepEqual(await steps(page), { wrote: true, reseeded: true, greedy: true, heated: true });

  // A bad setting is named and nothing runs.
  await field(page, "topK").fill("many");
  await page.locator("section.workbench .workbench-write").click();
  const message = await page.locator("section.workbench .workbench-message").textContent();
  assert.match(message, /Not a setting: Top-k \(\u201cmany\u201d: a whole number from 0 to 100000\)/);
});

bench.testLayout("the generating model fits, light and dark, desktop and phone; screenshots", {
  schemes: ["light", "dark"],
  prepare: write,
});
