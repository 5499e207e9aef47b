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

const assert = require("node:assert/strict");
const { workbenchPage } = require("./workbench-page.js");
const { bits } = require("../workbench/numbers.js");

const bench = workbenchPage({ name: "softmax", stem: "11-stable-softmax" });
const { steps } = bench;

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
const published = (name) => bench.value(name).text;

const set = (page, name, value) => bench.field(page, name).fill(String(value));

bench.test("the workbench shows the chapter's row as the demo printed it", async (page) => {
  const t = await table(page);
  assert.equal(texts(t.probs), published("row0.stable"));
  assert.equal(texts(t.logProbs), published("row0.log_softmax"));
  assert.equal(texts(t.naive), published("row0.naive"));
  assert.equal(t.message, "");
  assert.deepEqual(await bench.accessibility(page), { tables: 1, captions: 1, unscoped: 0, labelled: true, radios: true });
});

bench.test("each guided step ticks itself when the reader does it, and the table recomputes", async (page) => {
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
});

bench.testLayout("the workbench fits a phone's width; screenshots");
