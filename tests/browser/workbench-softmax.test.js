// The softmax workbench of chapter 11 in a real browser: opens the built
// chapter over file:// in headless Chromium (Debian's, through
// playwright-core) and checks that the WebAssembly module loads and shows
// the chapter's row 1 2 3 as the demo printed it, that the table
// recomputes as the reader edits a logit or the temperature, that each
// guided step of the experiment ticks itself when the reader does it, and
// that a field that is not a number is reported while the last result
// stays. Also: it fits a phone's width. Screenshots go to SCREENSHOT_DIR.
//
// usage: node tests/browser/workbench-softmax.test.js [BOOK_DIR] [SCREENSHOT_DIR] [OUT_DIR]
//        (defaults: build/book, build/screenshots, build/out; CTest label: browser)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");
const { launch, openPage } = require("../../tools/chromium.js");

const root = path.resolve(__dirname, "..", "..");
const bookDir = fs.realpathSync(path.resolve(process.argv[2] || path.join(root, "build", "book")));
const shotDir = path.resolve(process.argv[3] || path.join(root, "build", "screenshots"));
const outDir = path.resolve(process.argv[4] || path.join(root, "build", "out"));
const STEM = "11-stable-softmax";
const PHONE = { width: 390, height: 844 };

let browser;

async function open(viewport) {
  const { page, messages } = await openPage(browser.context, pathToFileURL(path.join(bookDir, STEM + ".html")).href,
                                            viewport ? { viewport } : {});
  await page.locator('section.workbench[data-workbench="softmax"].workbench-ready').waitFor({ timeout: 15000 });
  return { page, messages };
}

// The table's rows: name -> the cells' values (the sum column left out).
function table(page) {
  return page.evaluate(() => {
    const out = {};
    document.querySelectorAll(".workbench-softmax tbody tr").forEach((tr) => {
      out[tr.dataset.row] = Array.from(tr.querySelectorAll("td"))
        .slice(0, 3)
        .map((td) => ({ value: Number(td.dataset.value), text: td.textContent }));
    });
    const message = document.querySelector("section.workbench .workbench-message");
    out.message = message.hidden ? "" : message.textContent;
    return out;
  });
}

const texts = (cells) => cells.map((c) => c.text).join(" ");
const bits = (x) => new BigUint64Array(new Float64Array([x]).buffer)[0];
const published = (name) => JSON.parse(fs.readFileSync(path.join(outDir, STEM, "values.json"), "utf8"))[name].text;

// The experiment's steps: each checkbox with the event it waits for.
function steps(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      Array.from(document.querySelectorAll("[data-checkpoint=experiment] input[type=checkbox][data-when]"), (b) => [
        b.getAttribute("data-when"),
        b.checked,
      ])
    )
  );
}

async function set(page, name, value) {
  await page.locator(`section.workbench .workbench-input[data-field="${name}"]`).fill(String(value));
}

test.before(async () => {
  browser = await launch();
});

test.after(async () => {
  if (browser) await browser.close();
});

test("the workbench shows the chapter's row as the demo printed it", async () => {
  const { page, messages } = await open();
  const t = await table(page);
  assert.equal(texts(t.probs), published("row0.stable"));
  assert.equal(texts(t.logProbs), published("row0.log_softmax"));
  assert.equal(texts(t.naive), published("row0.naive"));
  assert.equal(t.message, "");
  const a11y = await page.evaluate(() => ({
    caption: document.querySelectorAll("section.workbench table > caption").length,
    unscoped: document.querySelectorAll("section.workbench th:not([scope])").length,
    labelled: Array.from(document.querySelectorAll("section.workbench .workbench-input")).every((i) => i.labels.length === 1),
  }));
  assert.deepEqual(a11y, { caption: 1, unscoped: 0, labelled: true });
  assert.deepEqual(messages, [], messages.join("\n"));
  await page.close();
});

test("each guided step ticks itself when the reader does it, and the table recomputes", async () => {
  const { page } = await open();
  const before = await table(page);
  assert.deepEqual(await steps(page), { shifted: false, cooled: false, heated: false, "naive-overflows": false });

  // The same 1000 added to every logit: the library's row keeps its bits,
  // and the formula as written, e^1001 past the largest double, is nan,
  // as the demo's second row printed it.
  await set(page, "x0", 1001);
  await set(page, "x1", 1002);
  await set(page, "x2", 1003);
  let t = await table(page);
  assert.deepEqual(t.probs.map((c) => bits(c.value)), before.probs.map((c) => bits(c.value)));
  assert.equal(texts(t.naive), published("row1.naive"));
  let s = await steps(page);
  assert.equal(s.shifted, true);
  assert.equal(s["naive-overflows"], true);

  // Cooler: the largest logit takes more; hotter: the row flattens.
  await page.locator("section.workbench .workbench-reset").click();
  await set(page, "t", 0.5);
  t = await table(page);
  assert.ok(t.probs[2].value > before.probs[2].value, `T = 0.5: ${texts(t.probs)}`);
  await set(page, "t", 4);
  t = await table(page);
  assert.ok(t.probs[2].value < before.probs[2].value && t.probs[0].value > before.probs[0].value, `T = 4: ${texts(t.probs)}`);
  s = await steps(page);
  assert.deepEqual(s, { shifted: true, cooled: true, heated: true, "naive-overflows": true });

  // Not a number: reported, the field marked, the last row kept.
  await set(page, "x1", "two");
  const kept = await table(page);
  assert.match(kept.message, /Not a number: x1/);
  assert.deepEqual(kept.probs, t.probs);
  assert.equal(await page.locator('.workbench-input[data-field="x1"]').getAttribute("aria-invalid"), "true");
  // A temperature of zero: the library refuses it and says why.
  await set(page, "x1", 2);
  await set(page, "t", 0);
  assert.match((await table(page)).message, /temperature must be a positive number/);
  await page.close();
});

test("the workbench fits a phone's width; screenshots", async () => {
  fs.mkdirSync(shotDir, { recursive: true });
  for (const [name, viewport] of [["desktop", null], ["phone", PHONE]]) {
    const { page } = await open(viewport);
    const overflow = await page.evaluate(() => {
      const s = document.querySelector("section.workbench");
      return s.getBoundingClientRect().right - document.documentElement.clientWidth;
    });
    assert.ok(overflow <= 1, `${name}: the workbench is ${overflow}px wider than the page`);
    await page.locator("section.workbench").screenshot({ path: path.join(shotDir, `workbench-softmax-${name}.png`) });
    await page.close();
  }
});
