// The training workbench of chapter 29 in a real browser: opens the built
// chapter over file:// in headless Chromium and checks that the page
// trains with the chapter's code (its first steps' losses equal, bit for
// bit, those of the native build of the same entry point,
// BUILD_DIR/workbench_train_native on BUILD_DIR/wasm/train-data.bin),
// that the loss falls and the validation loss is drawn, that the page
// answers a click within 100 ms while it trains, that Pause holds the run
// and Resume carries it on, that Reset discards it, and that a bad setting
// (batch 0, a learning rate of NaN, a negative warm-up) is refused with a
// message naming it. Prints the steps per second the page reached.
// Screenshots mid-run, light and dark, desktop and phone, go to
// SCREENSHOT_DIR.
//
// usage: node tests/browser/workbench-train.test.js [BOOK_DIR] [SCREENSHOT_DIR] [OUT_DIR]
//        (defaults: build/book, build/screenshots, build/out; CTest label: browser)
"use strict";

const assert = require("node:assert/strict");
const path = require("path");
const { spawnSync } = require("child_process");
const { workbenchPage } = require("./workbench-page.js");

const bench = workbenchPage({ name: "train", stem: "29-training", ready: ".workbench-start", timeout: 30000 });
const { section, field } = bench;
const buildDir = path.dirname(bench.outDir);
const K = 40; // steps compared with the native build

const run = (page) => page.evaluate((s) => {
  const r = document.querySelector(s).trainRun;
  return r && { losses: r.losses.slice(), validation: r.validation.slice(), seconds: r.seconds, wall: r.wall,
                state: document.querySelector(s).dataset.state };
}, section);
const state = (page) => page.evaluate((s) => document.querySelector(s).dataset.state, section);
const steps = async (page) => ((await run(page)) || { losses: [] }).losses.length;
const button = (page, name) => page.locator(`${section} .workbench-${name}`);

async function waitSteps(page, n) {
  await page.waitForFunction(([s, n]) => {
    const r = document.querySelector(s).trainRun;
    return r && r.losses.length >= n;
  }, [section, n], { timeout: 120000 });
}

// The native build's first `take` losses for the page's first settings.
function nativeLosses(take) {
  const r = spawnSync(path.join(buildDir, "workbench_train_native"), [path.join(buildDir, "wasm", "train-data.bin")],
                      { input: `0.006 50 8 1 29 1500 ${take}\n`, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const numbers = r.stdout.trim().split(" ").slice(1).map(Number);
  return numbers.slice(0, 3 * take).filter((_, j) => j % 3 === 0);
}

bench.test("the page trains as the native build does, the loss falls, and it stays responsive", async (page) => {
  assert.equal(await state(page), "idle");
  await button(page, "start").click();
  await waitSteps(page, 200);

  // A click while it trains: handled within 100 ms of the browser's event.
  await page.evaluate(() => {
    window.clickDelay = null;
    document.addEventListener("pointerdown", (e) => { window.clickDelay = performance.now() - e.timeStamp; }, { capture: true, once: true });
  });
  await button(page, "pause").click();
  const delay = await page.evaluate(() => window.clickDelay);
  assert.ok(delay !== null && delay < 100, `the click waited ${delay} ms`);
  assert.equal(await state(page), "paused");

  const r = await run(page);
  const native = nativeLosses(K);
  native.forEach((x, i) => assert.ok(Object.is(r.losses[i], x), `step ${i}: page ${r.losses[i]}, native ${x}`));
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const first = mean(r.losses.slice(0, 20)), last = mean(r.losses.slice(180, 200));
  assert.ok(last < first - 1, `the loss fell only from ${first} to ${last}`);
  assert.ok(r.validation.length >= 4 && r.validation[r.validation.length - 1][1] < r.validation[0][1] - 1,
            `validation: ${JSON.stringify(r.validation)}`);
  const rate = r.losses.length / r.wall;
  console.log(`the page: ${r.losses.length} steps in ${r.wall.toFixed(1)} s running (${r.seconds.toFixed(1)} s in the steps), ${rate.toFixed(1)} steps/s ` +
              `(${(rate * 256).toFixed(0)} tokens/s); the first ${K} losses equal the native build's bit for bit; ` +
              `the loss fell from ${first.toFixed(3)} to ${last.toFixed(3)}; a click waited ${delay.toFixed(1)} ms`);

  // Paused: no steps; resumed: more; reset: none, and the settings editable.
  const held = await steps(page);
  await page.waitForTimeout(600);
  assert.equal(await steps(page), held, "the run went on while paused");
  assert.equal(await button(page, "start").textContent(), "Resume");
  assert.equal(await field(page, "lr").isDisabled(), true);
  await button(page, "start").click();
  await waitSteps(page, held + 20);
  await button(page, "clear").click();
  assert.equal(await run(page), null);
  assert.equal(await state(page), "idle");
  assert.equal(await field(page, "lr").isDisabled(), false);
  const none = await page.locator(`${section} .workbench-curve-train`).getAttribute("points");
  assert.equal(none, "");
});

bench.test("a bad setting is refused with a message that names it", async (page) => {
  const message = page.locator(`${section} .workbench-message`);
  for (const [key, value, named] of [["batch", "0", /Batch size \(\u201c0\u201d: a whole number from 1 to 64\)/],
                                     ["lr", "NaN", /Learning rate \(\u201cNaN\u201d: a number from/],
                                     ["warmup", "-5", /Warm-up steps \(\u201c-5\u201d: a whole number from 0 to 1500\)/],
                                     ["clip", "-1", /Clipping threshold \(\u201c-1\u201d/]]) {
    const before = await field(page, key).inputValue();
    await field(page, key).fill(value);
    await button(page, "start").click();
    assert.match(await message.textContent(), named);
    assert.equal(await run(page), null, `${key} ${value}: a run started`);
    assert.equal(await state(page), "idle");
    await field(page, key).fill(before);
  }
  // Fixed again: it starts, and the message goes.
  await button(page, "start").click();
  await waitSteps(page, 1);
  assert.equal(await message.isHidden(), true);
});

bench.testLayout("the training workbench fits mid-run, light and dark, desktop and phone; screenshots", {
  schemes: ["light", "dark"],
  prepare: async (page) => {
    await button(page, "start").click();
    await waitSteps(page, 120);
    await button(page, "pause").click();
  },
});
