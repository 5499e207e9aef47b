// The learner's checkpoints and progress in a real browser: opens the
// built book over file:// in headless Chromium (Debian's, driven by
// playwright-core) and checks that a prediction typed into chapter 25
// survives a reload, that the workbench ticks the experiment steps it
// sees, that a chapter's completion shows in the sidebar and on the
// landing page, that exported progress imported into a fresh profile
// restores everything, that reset clears it, and that with JavaScript off
// the checkpoints are plain text. Screenshots of the chapter with its
// checkpoints done, light and dark, desktop and phone, go to
// SCREENSHOT_DIR for review.
//
// usage: node tests/browser/progress.test.js [BOOK_DIR] [SCREENSHOT_DIR]
//        (defaults: build/book and build/screenshots; CTest label: browser)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { pathToFileURL } = require("url");
const { launch, openPage } = require("../../tools/chromium.js");

const root = path.resolve(__dirname, "..", "..");
const bookDir = fs.realpathSync(path.resolve(process.argv[2] || path.join(root, "build", "book")));
const shotDir = path.resolve(process.argv[3] || path.join(root, "build", "screenshots"));
const STEM = "25-multi-head-attention";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const PREDICTION = "Head 0 is uniform: 1, then 1/2 1/2, then thirds.";
const EXPLANATION = "Row t reads only keys 0..t; a mask after the softmax loses mass.";

const url = (file) => pathToFileURL(path.join(bookDir, file)).href;
const hasWorkbench = fs.readFileSync(path.join(bookDir, STEM + ".html"), "utf8").includes('class="workbench"');

let browser;

async function open(context, file, { viewport = DESKTOP, scheme = "light" } = {}) {
  return openPage(context, url(file), { viewport, scheme });
}

// What the chapter's checkpoints hold: texts, ticks, and which are done.
function checkpoints(page) {
  return page.evaluate(() => ({
    predict: document.getElementById("checkpoint-predict-text")?.value,
    explain: document.getElementById("checkpoint-explain-text")?.value,
    steps: Array.from(document.querySelectorAll(".checkpoint-steps input[type=checkbox]"), (b) => b.checked),
    implement: document.getElementById("checkpoint-implement-done")?.checked,
    done: Array.from(document.querySelectorAll("[data-checkpoint]"), (b) =>
      b.getAttribute("data-checkpoint") + (b.classList.contains("checkpoint-done") ? ":done" : ":open")),
  }));
}

// The badge next to the chapter's link on a page ("" when there is none).
function badge(page, where) {
  return page.evaluate(([sel, stem]) => {
    const a = document.querySelector(`${sel} li > a[href="${stem}.html"]`);
    return a?.parentNode.querySelector(".progress-badge")?.textContent ?? "";
  }, [where, STEM]);
}

test.before(async () => {
  browser = await launch();
});

test.after(async () => {
  if (browser) await browser.close();
});

test("a prediction typed into chapter 25 survives a reload; the answer waits for it", async () => {
  const { page, messages } = await open(browser.context, STEM + ".html");
  const box = page.locator("[data-checkpoint=predict]");
  // Opening the answer before writing anything keeps it closed.
  // (The details element reports its toggle after the click returns.)
  await box.locator("details.checkpoint-answer > summary").click();
  await box.locator(".checkpoint-hint", { hasText: "Write your prediction first" }).waitFor({ timeout: 5000 });
  assert.equal(await box.locator("details.checkpoint-answer").evaluate((d) => d.open), false);
  await page.locator("#checkpoint-predict-text").fill(PREDICTION);
  await box.locator("details.checkpoint-answer > summary").click();
  await page.waitForTimeout(100);
  assert.equal(await box.locator("details.checkpoint-answer").evaluate((d) => d.open), true);
  assert.equal(await box.locator(".checkpoint-hint").textContent(), "");
  await page.reload({ waitUntil: "load" });
  const state = await checkpoints(page);
  assert.equal(state.predict, PREDICTION);
  assert.deepEqual(state.done, ["predict:done", "experiment:open", "implement:open", "explain:open"]);
  assert.deepEqual(messages, []);
  await page.close();
});

test("the workbench ticks the steps it sees; completion shows in the sidebar and on the landing page", async () => {
  const { page, messages } = await open(browser.context, STEM + ".html");
  const steps = page.locator(".checkpoint-steps input[type=checkbox]");
  const count = await steps.count();
  assert.ok(count >= 2, `chapter 25's experiment has ${count} steps`);
  if (hasWorkbench) {
    await page.locator("section.workbench.workbench-ready").waitFor({ timeout: 15000 });
    // The causal mask off ticks the step that waits for it, and only it.
    await page.locator(".workbench-causal").uncheck();
    const when = await steps.evaluateAll((bs) => bs.map((b) => (b.checked ? b.getAttribute("data-when") : null)));
    assert.deepEqual(when.filter(Boolean), ["mask-off"]);
    await page.locator(".workbench-causal").check();
    // Editing only the last token ticks its step.
    await page.locator('.workbench-input[data-token="2"][data-feature="0"]').fill("0.5");
    assert.equal(await page.locator('.checkpoint-steps input[data-when="last-token-only"]').isChecked(), true);
  }
  for (let i = 0; i < count; ++i) await steps.nth(i).check();
  await page.locator("#checkpoint-implement-done").check();
  await page.locator("#checkpoint-explain-text").fill(EXPLANATION);
  const state = await checkpoints(page);
  assert.deepEqual(state.done, ["predict:done", "experiment:done", "implement:done", "explain:done"]);
  assert.equal(await badge(page, ".sidebar"), "\u2713 4/4");
  const landing = await open(browser.context, "index.html");
  assert.equal(await badge(landing.page, ".chapter-list"), "\u2713 4/4");
  assert.equal(await badge(landing.page, ".sidebar"), "\u2713 4/4");
  fs.mkdirSync(shotDir, { recursive: true });
  await landing.page.locator(".progress-panel").screenshot({ path: path.join(shotDir, "progress-landing.png") });
  assert.deepEqual(messages.concat(landing.messages), []);
  await landing.page.close();
  await page.close();
});

test("screenshots of chapter 25 with its checkpoints done: light and dark, desktop and phone", async () => {
  fs.mkdirSync(shotDir, { recursive: true });
  const written = [];
  for (const scheme of ["light", "dark"]) {
    for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]]) {
      const { page } = await open(browser.context, STEM + ".html", { viewport, scheme });
      const box = page.locator("[data-checkpoint=experiment]");
      // Nothing on the page is wider than the screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${scheme} ${name}: the page is ${overflow}px wider than the screen`);
      await box.scrollIntoViewIfNeeded();
      const file = path.join(shotDir, `progress-${STEM}-${scheme}-${name}.png`);
      await box.screenshot({ path: file });
      const predict = path.join(shotDir, `progress-${STEM}-predict-${scheme}-${name}.png`);
      await page.locator("[data-checkpoint=predict]").screenshot({ path: predict });
      written.push(path.basename(file), path.basename(predict));
      await page.close();
    }
  }
  console.log(`screenshots: ${written.join(", ")}`);
});

test("export, then import into a fresh profile, restores everything; reset clears it", async () => {
  const { page } = await open(browser.context, "index.html");
  const download = page.waitForEvent("download");
  await page.locator(".progress-export").click();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "book-progress-")), "progress.json");
  await (await download).saveAs(file);
  const saved = JSON.parse(fs.readFileSync(file, "utf8"));
  assert.equal(saved.chapters[STEM].predict, PREDICTION);
  await page.close();

  const fresh = await launch();
  try {
    const before = await open(fresh.context, "index.html");
    assert.equal(await badge(before.page, ".chapter-list"), "");
    await before.page.locator("#progress-import").setInputFiles(file);
    await before.page.locator(".progress-status", { hasText: "Imported" }).waitFor({ timeout: 5000 });
    assert.equal(await badge(before.page, ".chapter-list"), "\u2713 4/4");
    const chapter = await open(fresh.context, STEM + ".html");
    const state = await checkpoints(chapter.page);
    assert.equal(state.predict, PREDICTION);
    assert.equal(state.explain, EXPLANATION);
    assert.equal(state.implement, true);
    assert.ok(state.steps.every(Boolean), `steps after import: ${state.steps}`);

    // A file that is not progress changes nothing.
    const bad = path.join(path.dirname(file), "bad.json");
    fs.writeFileSync(bad, '{"version": 99}');
    await before.page.locator("#progress-import").setInputFiles(bad);
    await before.page.locator(".progress-status", { hasText: "nothing was changed" }).waitFor({ timeout: 5000 });
    assert.equal(await badge(before.page, ".chapter-list"), "\u2713 4/4");

    before.page.on("dialog", (d) => d.accept());
    await before.page.locator(".progress-reset").click();
    await before.page.locator(".progress-status", { hasText: "reset" }).waitFor({ timeout: 5000 });
    assert.equal(await badge(before.page, ".chapter-list"), "");
    await chapter.page.reload({ waitUntil: "load" });
    const cleared = await checkpoints(chapter.page);
    assert.equal(cleared.predict, "");
    assert.equal(cleared.implement, false);
    assert.deepEqual(before.messages.concat(chapter.messages), []);
  } finally {
    await fresh.close();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
});

test("with JavaScript off the checkpoints are plain text with the answers collapsed", async () => {
  const off = await launch({ javaScriptEnabled: false });
  try {
    const page = await off.context.newPage();
    await page.goto(url(STEM + ".html"), { waitUntil: "load" });
    const facts = await page.evaluate(() => ({
      kinds: Array.from(document.querySelectorAll("[data-checkpoint]"), (b) => b.getAttribute("data-checkpoint")),
      controls: document.querySelectorAll("[data-checkpoint] textarea, [data-checkpoint] input").length,
      answers: Array.from(document.querySelectorAll("[data-checkpoint] details"), (d) => d.open),
      steps: document.querySelectorAll("[data-checkpoint=experiment] li").length,
    }));
    assert.deepEqual(facts.kinds, ["predict", "experiment", "implement", "explain"]);
    assert.equal(facts.controls, 0);
    assert.deepEqual(facts.answers, [false, false]);
    assert.ok(facts.steps >= 2);
    assert.ok(await page.locator("[data-checkpoint=experiment] li").first().isVisible());
  } finally {
    await off.close();
  }
});
