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
// Also: Sample, paused, writes the native build's text for the same run
// and prompt, char for char, and leaves the run as it was; the
// experiment's steps tick as the reader starts, pauses, samples, resets
// and starts at ten times the rate; and a run waits while the page is
// hidden and carries on from the same step, its curve intact, when the
// reader returns.
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
const { toLine } = require("../workbench/builds.js");

const bench = workbenchPage({ name: "train", stem: "29-training", ready: ".workbench-start", timeout: 30000 });
const { section, field } = bench;
const buildDir = path.dirname(bench.outDir);
const K = 40; // steps compared with the native build

const run = (page) => page.evaluate((s) => {
  const r = document.querySelector(s).trainRun;
  return r && { losses: r.losses.slice(), validation: r.validation.slice(), samples: r.samples.slice(), seconds: r.seconds, wall: r.wall,
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

// The native build's sample after `take` steps of the page's first run,
// with the page's sample settings (train.js's SAMPLE), and its steps.
function nativeSample(take, prompt) {
  const r = spawnSync(path.join(buildDir, "workbench_train_native"), [path.join(buildDir, "wasm", "train-data.bin")],
                      { input: `0.006 50 8 1 29 1500 ${take} 34 40 0.7 40 1 0\t${prompt}\n`, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const numbers = r.stdout.trim().split(" ").slice(1).map(Number);
  const n = numbers[3 * take];
  return Buffer.from(numbers.slice(3 * take + 1, 3 * take + 1 + n)).toString("utf8");
}

// The page as a hidden tab: document.hidden true and a visibilitychange
// event; `false` gives the browser's own state back.
const setHidden = (page, hidden) => page.evaluate((hidden) => {
  if (hidden) {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  } else {
    delete document.hidden;
    delete document.visibilityState;
  }
  document.dispatchEvent(new Event("visibilitychange"));
}, hidden);

// Runs first: the steps' ticks are kept in the browser's storage.
bench.test("Sample writes the native build's text at a pause, and the experiment's steps tick as the reader does them", async (page) => {
  const none = { started: false, paused: false, reset: false, "lr-tenfold": false, sampled: false };
  assert.deepEqual(await bench.steps(page), none);
  const text = page.locator(`${section} .workbench-sample-text`);
  assert.equal(await button(page, "sample").isDisabled(), true, "Sample before a run");

  await button(page, "start").click();
  await waitSteps(page, 60);
  assert.equal(await button(page, "sample").isDisabled(), true, "Sample while running");
  await button(page, "pause").click();
  assert.deepEqual(await bench.steps(page), { ...none, started: true, paused: true });
  await button(page, "sample").click();
  const at = await steps(page);
  const shown = await text.textContent();
  assert.equal(shown, nativeSample(at, "And God said"), `the page's sample after step ${at}`);
  assert.ok(shown.startsWith("And God said") && shown.length > "And God said".length + 10, JSON.stringify(shown));
  assert.equal(await text.getAttribute("data-step"), String(at));
  assert.deepEqual(await bench.steps(page), { ...none, started: true, paused: true, sampled: true });

  // Another prompt, with a newline and a word not in the corpus: the
  // native build's text again.
  const prompt = "Pharaoh's  wizard\nsaid";
  await page.locator(`${section} .workbench-sampler .workbench-prompt`).fill(prompt);
  await button(page, "sample").click();
  assert.equal(await text.textContent(), nativeSample(at, toLine(prompt)));

  // Resumed, the run is the one that never sampled.
  await button(page, "start").click();
  await waitSteps(page, at + 20);
  await button(page, "pause").click();
  const r = await run(page);
  assert.deepEqual(r.losses.slice(0, at + 20), nativeLosses(at + 20), "the losses after the samples");
  assert.equal(r.samples.length, 2);

  await button(page, "clear").click();
  assert.equal(await button(page, "sample").isDisabled(), true, "Sample after Reset");
  await field(page, "lr").fill("0.06");
  await button(page, "start").click();
  await waitSteps(page, 1);
  assert.deepEqual(await bench.steps(page), { started: true, paused: true, reset: true, "lr-tenfold": true, sampled: true });
  console.log(`after step ${at}, the page's sample (the native build's, char for char): ${JSON.stringify(shown)}`);
});

bench.test("the run waits while the page is hidden and carries on from the same step when the reader returns", async (page) => {
  await button(page, "start").click();
  await waitSteps(page, 100);

  // Hidden (another tab, the screen off): no steps, still running.
  await setHidden(page, true);
  const away = await run(page), left = performance.now();
  await page.waitForTimeout(800);
  const still = await run(page);
  assert.equal(still.losses.length, away.losses.length, "steps were taken while the page was hidden");
  assert.equal(still.state, "running");
  await setHidden(page, false);
  await waitSteps(page, away.losses.length + 60);
  const back = await run(page), seconds = (performance.now() - left) / 1000;
  assert.deepEqual(back.losses.slice(0, away.losses.length), away.losses, "the steps before leaving");
  assert.ok(back.wall - away.wall < seconds - 0.6, `the speed counts the time away: ${back.wall - away.wall} s of ${seconds} s`);

  // The curve: every step drawn, the validation every 50 steps.
  await button(page, "pause").click();
  const r = await run(page);
  const drawn = await page.locator(`${section} .workbench-curve-train`).getAttribute("points");
  assert.equal(drawn.split(" ").length, r.losses.length, "the training curve's points");
  assert.deepEqual(r.validation.map((v) => v[0]), Array.from({ length: r.validation.length }, (_, i) => 50 * i));
  assert.deepEqual(r.losses, nativeLosses(r.losses.length), "the run, against the native build's");
  console.log(`away 0.8 s at step ${away.losses.length}: ` +
              `the run carried on to step ${r.losses.length}, every loss the native build's`);
});

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
    await button(page, "sample").click();
  },
});
