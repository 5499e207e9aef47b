// The causal-masking workbench of chapter 23 in a real browser: opens the
// built chapter over file:// in headless Chromium (Debian's, through
// playwright-core) and checks that the WebAssembly module loads and shows
// the demo's fixture as the demo published it (OUT_DIR/STEM/values.json),
// that the tables recompute as the reader edits a token, appends or
// removes one and moves the mask, that blocked cells are exactly zero and
// say so in a word, that each guided step of the experiment ticks itself
// when the reader does it, and that a coordinate that is not a number is
// reported while the last result stays. Also: it fits a phone's width and
// follows the dark theme. Screenshots go to SCREENSHOT_DIR.
//
// usage: node tests/browser/workbench-causal.test.js [BOOK_DIR] [SCREENSHOT_DIR] [OUT_DIR]
//        (defaults: build/book, build/screenshots, build/out; CTest label: browser)
"use strict";

const assert = require("node:assert/strict");
const { workbenchPage } = require("./workbench-page.js");

const bench = workbenchPage({ name: "causal", stem: "23-causal-masking" });
const { steps } = bench;

const EVENTS = ["first-token-edited", "future-edited", "mask-off", "mask-after", "token-appended"];
// The demo's replacement for token 3 (its other3).
const OTHER3 = [2, -1, 0.5, 3];

// What the workbench shows: each query-by-key table as rows of
// { value, text, kind }, the weights' row sums, the outputs with each
// row's verdict, the message and the invalid fields.
function state(page) {
  return page.evaluate(() => {
    const grid = (kind) =>
      Array.from(document.querySelectorAll(`.workbench-${kind} tbody tr`), (tr) =>
        Array.from(tr.querySelectorAll("td[data-kind]"), (td) => ({
          value: Number(td.dataset.value),
          text: td.querySelector(".workbench-value").textContent,
          kind: td.dataset.kind,
          mark: td.querySelector(".cell-mark").textContent,
        })));
    const message = document.querySelector("section.workbench .workbench-message");
    return {
      scores: grid("scores"),
      fed: grid("fed"),
      probs: grid("probs"),
      sums: Array.from(document.querySelectorAll(".workbench-probs .workbench-sum"), (td) => ({
        value: Number(td.dataset.value), text: td.textContent })),
      out: Array.from(document.querySelectorAll(".workbench-out tbody tr"), (tr) => ({
        cells: Array.from(tr.querySelectorAll("td.num"), (td) => ({ value: Number(td.dataset.value), text: td.textContent })),
        verdict: tr.querySelector(".workbench-verdict").textContent,
        same: tr.querySelector(".workbench-verdict").dataset.same,
        moved: Number(tr.querySelector(".workbench-verdict").dataset.moved),
      })),
      message: message.hidden ? "" : message.textContent,
      invalid: Array.from(document.querySelectorAll(".workbench-input[aria-invalid='true']"), (i) => i.id),
      tokens: document.querySelectorAll("section.workbench fieldset.workbench-token").length,
    };
  });
}

const values = (rows) => rows.map((r) => r.map((c) => c.value));
const fixed6 = (v) => { const s = v.toFixed(6); return /^-0\.0+$/.test(s) ? s.slice(1) : s; };
const field = (page, token, feature) => page.locator(`section.workbench .workbench-input[data-token="${token}"][data-feature="${feature}"]`);
const mask = (page, key) => page.locator(`section.workbench .workbench-mask-${key}`).check();
const button = (page, name) => page.locator(`section.workbench .workbench-${name}`).click();
const published = (name) => {
  const v = bench.value(name);
  return v.kind === "text" ? v.text : v.value; // a number: 17 significant digits
};

async function setToken(page, t, xs) {
  for (let f = 0; f < xs.length; ++f) await field(page, t, f).fill(String(xs[f]));
}

bench.test("the workbench shows the demo's fixture as the demo printed it", async (page) => {
  const s = await state(page);
  assert.equal(s.tokens, 4);
  for (let i = 0; i < 4; ++i) {
    // What the softmax reads is the demo's masked scores, -inf and all.
    assert.equal(s.fed[i].map((c) => c.text).join(" "), published(`scores.row${i}`), `masked scores, row ${i}`);
    assert.equal(s.probs[i].map((c) => fixed6(c.value)).join(" "), published(`probs.row${i}`), `weights, row ${i}`);
    assert.equal(s.out[i].verdict, "same bits");
  }
  assert.equal(s.out[0].cells.map((c) => c.text).join(" "), published("out.row0"));
  assert.equal(s.out[3].cells.map((c) => c.text).join(" "), published("out.row3"));
  // Above the diagonal: exactly zero, shown as 0, marked "blocked" in a
  // word, as many as the demo counted.
  let zeros = 0;
  s.probs.forEach((row, q) =>
    row.forEach((c, k) => {
      assert.equal(c.kind, k > q ? "blocked" : k === q ? "diagonal" : "allowed");
      assert.equal(c.mark, { blocked: "blocked", diagonal: "self", allowed: "seen" }[c.kind]);
      if (k > q) {
        assert.equal(c.value, 0);
        assert.equal(c.text, "0");
        ++zeros;
      }
    }));
  assert.equal(String(zeros), published("probs.exact_zeros"));
  // Every row of the fixture sums to exactly 1, as the native demo's rows
  // do (workbench-causal-wasm-equals-native compares the bits); the unit
  // tests require a sum within 1e-15 of 1 for any input.
  assert.equal(s.sums.filter((c) => c.value === 1).length, s.tokens);
  // The raw scores are finite everywhere; the masked ones only on and
  // below the diagonal.
  assert.ok(s.scores.flat().every((c) => Number.isFinite(c.value)));
  assert.deepEqual(values(s.fed).map((r) => r.map((v, k) => Number.isFinite(v) || k)), [
    [true, 1, 2, 3], [true, true, 2, 3], [true, true, true, 3], [true, true, true, true]]);
  assert.equal(s.message, "");
  assert.deepEqual(await bench.accessibility(page), { tables: 4, captions: 4, unscoped: 0, labelled: true, radios: true });
  assert.deepEqual(await steps(page), Object.fromEntries(EVENTS.map((e) => [e, false])));
});

bench.test("each guided step ticks itself when the reader does it, and the tables recompute", async (page) => {
  const start = await state(page);

  // 1. Only token 0: row 0 still sees only itself and its output is the
  // token typed; every later row moves.
  await setToken(page, 0, [0.5, -2, 3, 1]);
  let s = await state(page);
  assert.deepEqual(values(s.probs)[0], [1, 0, 0, 0]);
  assert.deepEqual(s.out[0].cells.map((c) => c.value), [0.5, -2, 3, 1]);
  assert.deepEqual(s.out.map((r) => r.same), ["false", "false", "false", "false"]);
  assert.equal((await steps(page))["first-token-edited"], true);

  // 2. The chapter's tokens, then only the last one, the demo's other3:
  // rows 0-2 keep their bits, row 3 moves by the demo's amount.
  await button(page, "chapter");
  await setToken(page, 3, OTHER3);
  s = await state(page);
  assert.deepEqual(s.out.map((r) => r.same), ["true", "true", "true", "false"]);
  assert.deepEqual(values(s.probs).slice(0, 3).map((r) => r.slice(0, 3)),
                   values(start.probs).slice(0, 3).map((r) => r.slice(0, 3)));
  // The same largest change as the demo's, bit for bit, and as printed.
  assert.equal(s.out[3].moved, Number(published("prefix.row3_change")));
  assert.equal(s.out[3].verdict, `moved by up to ${fixed6(Number(published("prefix.row3_change")))}`);
  assert.equal((await steps(page))["future-edited"], true);

  // 3. Mask off with that token: nothing blocked, row 0 sees every key,
  // and rows 0-2 move against the chapter's tokens (mask off as well).
  await mask(page, "off");
  s = await state(page);
  assert.ok(s.probs.flat().every((c) => c.kind !== "blocked" && c.value > 0));
  assert.deepEqual(s.out.map((r) => r.same), ["false", "false", "false", "false"]);
  assert.match(await page.locator(".workbench-fed caption").textContent(), /no mask/);
  assert.equal((await steps(page))["mask-off"], true);

  // 4. After the softmax: zeros above the diagonal again, but rows 0-2
  // move by up to the demo's amount; with the chapter's tokens the row
  // sums are the demo's.
  await mask(page, "after");
  s = await state(page);
  s.probs.forEach((row, q) => row.forEach((c, k) => k > q && assert.equal(c.value, 0)));
  assert.equal(Math.max(...s.out.slice(0, 3).map((r) => r.moved)), Number(published("after.prefix_change")));
  assert.equal((await steps(page))["mask-after"], true);
  await button(page, "chapter");
  s = await state(page);
  assert.equal(s.sums.map((c) => c.text).join(" "), published("after.row_sums"));
  assert.deepEqual(s.out.map((r) => r.same), ["true", "true", "true", "true"]);

  // 5. The mask before the softmax, a fifth token appended: rows 0-3 keep
  // their bits, and T (T - 1) / 2 = 10 weights are exact zeros.
  await mask(page, "before");
  await button(page, "append");
  s = await state(page);
  assert.equal(s.tokens, 5);
  assert.deepEqual(s.out.map((r) => r.same), ["true", "true", "true", "true", "new"]);
  assert.equal(s.probs.flat().filter((c) => c.kind === "blocked" && c.value === 0).length, 10);
  assert.deepEqual(values(s.probs).slice(0, 4).map((r) => r.slice(0, 4)), values(start.probs));
  assert.equal(s.sums.length, 5);
  assert.deepEqual(await steps(page), Object.fromEntries(EVENTS.map((e) => [e, true])));
  // Removing tokens: the rows left keep their bits too.
  await button(page, "remove");
  await button(page, "remove");
  s = await state(page);
  assert.equal(s.tokens, 3);
  assert.deepEqual(s.out.map((r) => r.same), ["true", "true", "true"]);
});

bench.test("the buttons keep the length between one and five tokens", async (page) => {
  for (let n = 0; n < 3; ++n) await button(page, "remove");
  let s = await state(page);
  assert.equal(s.tokens, 1);
  assert.deepEqual(values(s.probs), [[1]]);
  assert.equal(await page.locator(".workbench-remove").isDisabled(), true);
  for (let n = 0; n < 4; ++n) await button(page, "append");
  s = await state(page);
  assert.equal(s.tokens, 5);
  assert.equal(await page.locator(".workbench-append").isDisabled(), true);
  // The first four are the chapter's again: rows 0-3 as in the chapter.
  assert.deepEqual(s.out.map((r) => r.same), ["true", "true", "true", "true", "new"]);
});

bench.test("a coordinate that is not a number is reported and the last result stays", async (page) => {
  const before = await state(page);
  await field(page, 1, 0).fill("abc");
  let s = await state(page);
  assert.match(s.message, /Not a number: token 1, feature 0/);
  assert.equal(s.invalid.length, 1);
  assert.deepEqual(values(s.probs), values(before.probs));
  // The mask does not compute from invalid tokens either.
  await mask(page, "off");
  assert.deepEqual(values((await state(page)).probs), values(before.probs));
  await mask(page, "before");
  await field(page, 1, 0).fill("");
  assert.match((await state(page)).message, /Not a number/);
  await field(page, 1, 0).fill("0.25");
  s = await state(page);
  assert.equal(s.message, "");
  assert.equal(s.invalid.length, 0);
  assert.notDeepEqual(values(s.probs), values(before.probs));
  // A score past the largest double (1e200 * 1e200 in q_0 . k_1): the
  // head's answer is refused, the tables stay. One coordinate of 1e200
  // alone is not refused: the stable softmax shifts its scores.
  await field(page, 0, 0).fill("1e200");
  assert.equal((await state(page)).message, "");
  s = await state(page);
  await field(page, 1, 1).fill("1e200");
  const huge = await state(page);
  assert.match(huge.message, /refused/);
  assert.deepEqual(values(huge.probs), values(s.probs));
  await button(page, "chapter");
  s = await state(page);
  assert.equal(s.message, "");
  assert.deepEqual(values(s.probs), values(before.probs));
});

bench.testLayout("the workbench fits a phone, follows the dark theme; screenshots", { schemes: ["light", "dark"] });
