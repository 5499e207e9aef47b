// The attention workbench of chapter 25 in a real browser: opens the
// built chapter over file:// in headless Chromium (Debian's, driven by
// playwright-core), and checks that the WebAssembly module loads, that the
// tables show the chapter's fixture, and that they recompute when a token
// is edited and when each switch changes; a coordinate that is not a
// number is reported and the last result stays. Also: the workbench fits
// a phone's width and follows the dark theme. Screenshots of it go to
// SCREENSHOT_DIR for review.
//
// The page's numbers are also compared with what the chapter's demo (the
// native build) published in OUT_DIR/25-multi-head-attention/values.json:
// the fixture's probabilities exactly, and the demo's rows for the two
// switches at six decimals.
//
// usage: node tests/browser/workbench-attention.test.js [BOOK_DIR] [SCREENSHOT_DIR] [OUT_DIR]
//        (defaults: build/book, build/screenshots, build/out; CTest label: browser)
"use strict";

const assert = require("node:assert/strict");
const { workbenchPage } = require("./workbench-page.js");

const bench = workbenchPage({ name: "attention", stem: "25-multi-head-attention" });

// What the workbench shows: per head a 3x3 table of { value, text, kind },
// the concatenated outputs, the message, and the fields' validity.
function state(page) {
  return page.evaluate(() => {
    const cell = (td) => ({
      value: Number(td.dataset.value),
      text: td.querySelector(".workbench-value")?.textContent ?? td.textContent,
      kind: td.dataset.kind,
    });
    const rows = (figure) =>
      Array.from(figure.querySelectorAll("tbody tr"), (tr) => Array.from(tr.querySelectorAll("td"), cell));
    const probs = Array.from(document.querySelectorAll(".workbench-probs"), rows);
    const concat = rows(document.querySelector(".workbench-concat"));
    const message = document.querySelector(".workbench-message");
    return {
      probs,
      concat,
      message: message.hidden ? "" : message.textContent,
      invalid: Array.from(document.querySelectorAll(".workbench-input[aria-invalid='true']"), (i) => i.id),
    };
  });
}

const values = (rows) => rows.map((r) => r.map((c) => c.value));
const texts = (rows) => rows.map((r) => r.map((c) => c.text));
const round6 = (rows) => values(rows).map((r) => r.map((v) => Number(v.toFixed(6)) + 0));
const field = (page, token, feature) => page.locator(`.workbench-input[data-token="${token}"][data-feature="${feature}"]`);

bench.test("the workbench loads and shows the chapter's fixture", async (page) => {
  const s = await state(page);
  // Head 0 is uniform over the visible keys.
  assert.deepEqual(round6(s.probs[0]), [[1, 0, 0], [0.5, 0.5, 0], [0.333333, 0.333333, 0.333333]]);
  // Head 1, query 1: the chapter's [0.213809, 0.786191], then the blocked key.
  assert.deepEqual(round6(s.probs[1])[1], [0.213809, 0.786191, 0]);
  assert.deepEqual(texts(s.probs[1])[1], ["0.213809", "0.786191", "0"]);
  // Above the diagonal: exactly zero and marked blocked; the diagonal marked.
  for (const head of s.probs) {
    head.forEach((row, q) =>
      row.forEach((c, k) => {
        if (k > q) {
          assert.equal(c.value, 0);
          assert.equal(c.kind, "blocked");
        } else {
          assert.equal(c.kind, k === q ? "diagonal" : "allowed");
        }
      })
    );
  }
  // The concatenated row at position 1.
  assert.deepEqual(round6(s.concat)[1], [0.770151, -0.420735, 0.213809, 0.786191]);
  assert.equal(s.message, "");
  // Accessible tables: a caption, th scope, marks that are not only colour.
  assert.deepEqual(await bench.accessibility(page), { tables: 3, captions: 3, unscoped: 0, labelled: true, radios: true });
  // Each cell says its kind in a word, as the chapter's tables do.
  const marks = await page.evaluate(() =>
    Array.from(document.querySelectorAll(".workbench-probs tbody td"), (td) =>
      `${td.classList.contains("blocked") ? "blocked" : td.classList.contains("diagonal") ? "diagonal" : "allowed"}:` +
      td.querySelector(".cell-mark")?.textContent));
  const expected = ["diagonal:self", "blocked:blocked", "blocked:blocked",
                 "allowed:seen", "diagonal:self", "blocked:blocked",
                 "allowed:seen", "allowed:seen", "diagonal:self"];
  assert.deepEqual(marks, [...expected, ...expected]);
});

// The demo's value `key`: a number, or the text it printed.
const published = (key) => {
  const v = bench.value(key);
  return v.kind === "number" ? Number(v.value) : v.text;
};

bench.test("the page's numbers equal the chapter demo's (native) numbers", async (page) => {
  const s = await state(page);
  // The fixture: every probability of both heads, bit for bit.
  for (const h of [0, 1]) {
    for (const q of [0, 1, 2]) {
      for (const k of [0, 1, 2]) {
        assert.equal(s.probs[h][q][k].value, published(`head${h}.p.${q}${k}`), `head ${h}, query ${q}, key ${k}`);
      }
    }
  }
  for (const t of [0, 1, 2]) {
    assert.equal(s.concat[t].map((c) => c.text).join(" "), published(`concat.row${t}`), `concatenated row ${t}`);
  }
  // The demo's rows for the two switches, as printed (six decimals).
  await page.locator(".workbench-causal").uncheck();
  assert.equal(texts((await state(page)).probs[1])[0].join(" "), published("workbench.open.head1.row0"));
  await page.locator(".workbench-causal").check();
  await page.locator(".workbench-reuse").check();
  assert.equal((await state(page)).concat[1].map((c) => c.text).join(" "), published("workbench.broken.concat.row1"));
});

bench.test("turning the causal mask off lets the first query see every key", async (page) => {
  const before = await state(page);
  await page.locator(".workbench-causal").uncheck();
  const open_ = await state(page);
  for (const h of [0, 1]) {
    assert.notDeepEqual(round6(open_.probs[h])[0], [1, 0, 0], `head ${h}, query 0 still sees only itself`);
    for (const row of values(open_.probs[h])) {
      assert.ok(Math.abs(row.reduce((a, b) => a + b) - 1) < 1e-12, "a row does not sum to one");
      assert.ok(row.every((p) => p > 0), "a key is still hidden");
    }
    assert.ok(open_.probs[h].flat().every((c) => c.kind !== "blocked"));
  }
  // The last query saw every key already: its rows do not change.
  for (const h of [0, 1]) assert.deepEqual(values(open_.probs[h])[2], values(before.probs[h])[2]);
  await page.locator(".workbench-causal").check();
  assert.deepEqual(values((await state(page)).probs[1]), values(before.probs[1]));
});

bench.test("the broken split makes head 1 a copy of head 0", async (page) => {
  const before = await state(page);
  assert.notDeepEqual(values(before.probs[1]), values(before.probs[0]));
  await page.locator(".workbench-reuse").check();
  const broken = await state(page);
  assert.deepEqual(values(broken.probs[1]), values(broken.probs[0]));
  assert.deepEqual(values(broken.probs[0]), values(before.probs[0]), "head 0 changed");
  // Both halves of every output row are head 0's output.
  for (const row of values(broken.concat)) assert.deepEqual(row.slice(2), row.slice(0, 2));
  // With the mask off too, the copy stays a copy.
  await page.locator(".workbench-causal").uncheck();
  const both = await state(page);
  assert.deepEqual(values(both.probs[1]), values(both.probs[0]));
  await page.locator(".workbench-causal").check();
  await page.locator(".workbench-reuse").uncheck();
  assert.deepEqual(values((await state(page)).probs[1]), values(before.probs[1]));
});

bench.test("editing a token recomputes as the reader types", async (page) => {
  const before = await state(page);
  // Change the last token in head 1's features only.
  await field(page, 2, 3).fill("-2");
  const after = await state(page);
  // Head 0 reads features 0-1: unchanged. Causal: queries 0 and 1 of
  // head 1 do not see token 2: unchanged. Query 2 of head 1 changes.
  assert.deepEqual(values(after.probs[0]), values(before.probs[0]));
  assert.deepEqual(values(after.probs[1]).slice(0, 2), values(before.probs[1]).slice(0, 2));
  assert.notDeepEqual(values(after.probs[1])[2], values(before.probs[1])[2]);
  assert.deepEqual(values(after.concat).slice(0, 2), values(before.concat).slice(0, 2));
  assert.notDeepEqual(values(after.concat)[2], values(before.concat)[2]);

  // Typing character by character recomputes at every valid step.
  await field(page, 0, 2).fill("");
  await field(page, 0, 2).pressSequentially("3");
  const three = await state(page);
  await field(page, 0, 2).pressSequentially(".5");
  const threeHalf = await state(page);
  assert.notDeepEqual(values(three.probs[1]), values(after.probs[1]));
  assert.notDeepEqual(values(threeHalf.probs[1]), values(three.probs[1]));
});

bench.test("a coordinate that is not a number is reported and the last result stays", async (page) => {
  const before = await state(page);
  await field(page, 1, 0).fill("abc");
  const bad = await state(page);
  assert.match(bad.message, /Not a number: token 1, feature 0/);
  assert.equal(bad.invalid.length, 1);
  assert.deepEqual(values(bad.probs[0]), values(before.probs[0]));
  assert.deepEqual(values(bad.concat), values(before.concat));
  // Switches do not compute from invalid tokens either.
  await page.locator(".workbench-causal").uncheck();
  assert.deepEqual(values((await state(page)).probs[0]), values(before.probs[0]));
  await page.locator(".workbench-causal").check();
  // An empty field is not a number.
  await field(page, 1, 0).fill("");
  assert.match((await state(page)).message, /Not a number/);
  // Back to a number: recomputed, message gone.
  await field(page, 1, 0).fill("0.25");
  const good = await state(page);
  assert.equal(good.message, "");
  assert.equal(good.invalid.length, 0);
  assert.notDeepEqual(values(good.probs[0]), values(before.probs[0]));
  // Tokens too large for exp: the layer's answer is refused, tables stay.
  await field(page, 1, 0).fill("1e200");
  const huge = await state(page);
  assert.match(huge.message, /refused/);
  assert.deepEqual(values(huge.probs[0]), values(good.probs[0]));
  // The reset button brings back the fixture.
  await page.locator(".workbench-reset").click();
  const reset = await state(page);
  assert.equal(reset.message, "");
  assert.deepEqual(values(reset.probs[1]), values(before.probs[1]));
});

bench.testLayout("the workbench fits a phone, follows the dark theme; screenshots", { schemes: ["light", "dark"] });
