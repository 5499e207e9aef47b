// The RoPE workbench of chapter 24 in a real browser: opens the built
// chapter over file:// in headless Chromium (Debian's, through
// playwright-core) and checks that the WebAssembly module loads and shows
// the demo's query and key at positions 1 and 0 as the demo published
// them (build/out/24-rope: values.json and the table "relative"), that
// the tables recompute as the reader moves the positions, edits the key
// and switches the key's rotation off, that each guided step of the
// experiment ticks itself when the reader does it, and that a field that
// is not a number or a position outside 0-1023 is reported while the
// last result stays. Also: it fits a phone's width. Screenshots go to
// SCREENSHOT_DIR.
//
// usage: node tests/browser/workbench-rope.test.js [BOOK_DIR] [SCREENSHOT_DIR] [OUT_DIR]
//        (defaults: build/book, build/screenshots, build/out; CTest label: browser)
"use strict";

const assert = require("node:assert/strict");
const { workbenchPage } = require("./workbench-page.js");
const { bits } = require("../workbench/numbers.js");

const bench = workbenchPage({ name: "rope", stem: "24-rope" });
const { steps } = bench;

const Q = [0.5, -1, 0.25, 2, -0.75, 1.5, 1, -0.5];
const K = [1, 0.5, -1.5, 0.25, 2, -1, 0.5, 0.75];
const norm = (v) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
// The allowance of tests/workbench/rope.test.js for a score computed by
// the module where glibc's and musl's sines differ: 64 eps |q| |k|.
const SCORE_BOUND = 64 * Number.EPSILON * norm(Q) * norm(K);

// Every table of the workbench: class -> rows of { value, text } cells,
// with the grid's column heads and the status message.
function tables(page) {
  return page.evaluate(() => {
    const out = {};
    for (const name of ["scores", "vectors", "grid"]) {
      const figure = document.querySelector(`section.workbench .workbench-rope-${name}`);
      out[name] = Array.from(figure.querySelectorAll("tbody tr"), (tr) =>
        Array.from(tr.querySelectorAll("td"), (td) => ({ value: Number(td.dataset.value), text: td.textContent }))
      );
      if (name === "grid") {
        out.heads = Array.from(figure.querySelectorAll("thead th.num"), (th) => th.textContent);
        out.caption = figure.querySelector("caption").textContent;
      }
    }
    const message = document.querySelector("section.workbench .workbench-message");
    out.message = message.hidden ? "" : message.textContent;
    return out;
  });
}

const published = (name) => Number(bench.value(name).value);
const relativeTable = () => bench.table("relative");
const column = (grid, c) => grid.slice(0, 4).map((row) => row[c]);

const set = (page, name, value) => bench.field(page, name).fill(String(value));

bench.test("the workbench shows the demo's query and key as the demo published them", async (page) => {
  const t = await tables(page);
  // The scores: q . k and the rotated score at m = 1, n = 0, bit for bit
  // (positions 0 and 1 have the same sines in both C libraries).
  assert.equal(t.scores[0][0].text, published("relative.unrotated").toFixed(6));
  assert.equal(bits(t.scores[1][0].value), bits(published("relative.d1")));
  assert.equal(t.scores[1][0].text, "-1.414396");
  // The lengths: the query's is norm.q, and the rotation keeps it.
  assert.equal(t.vectors[8][0].text, published("norm.q").toFixed(6));
  assert.equal(t.vectors[8][1].text, published("norm.q").toFixed(6));
  // The grid's middle column is the demo's table for distance 1, rows
  // n = 0, 3, 100, 1000 (15 decimals), and its largest change is the
  // demo's relative.max_diff.
  assert.deepEqual(t.heads, ["m \u2212 n = 0", "m \u2212 n = 1", "m \u2212 n = 2"]);
  assert.match(t.caption, /yours, m \u2212 n = 1, in the middle/);
  const rows = relativeTable().rows.filter((r) => r[2].text === "1");
  assert.deepEqual(rows.map((r) => r[1].text), ["0", "3", "100", "1000"]);
  column(t.grid, 1).forEach((cell, i) => {
    const demo = Number(rows[i][3].text);
    assert.ok(Math.abs(cell.value - demo) <= 5e-16 + SCORE_BOUND, `row ${i}: ${cell.value}, the demo ${rows[i][3].text}`);
  });
  assert.equal(t.grid[4][1].text, published("relative.max_diff").toExponential(1));
  assert.equal(t.message, "");
  assert.deepEqual(await bench.accessibility(page), { tables: 3, captions: 3, unscoped: 0, labelled: true, radios: true });
});

bench.test("each guided step ticks itself when the reader does it, and the tables recompute", async (page) => {
  const before = await tables(page);
  assert.deepEqual(await steps(page), {
    "both-moved": false, "distance-changed": false, "same-position": false, "key-is-query": false, "key-unrotated": false,
  });

  // Both positions moved by 3: the rotated query changes, the score keeps
  // its printed digits (the demo's row m = 4, n = 3).
  await set(page, "m", 4);
  await set(page, "n", 3);
  let t = await tables(page);
  assert.notEqual(t.vectors[0][1].text, before.vectors[0][1].text);
  assert.equal(t.scores[1][0].text, before.scores[1][0].text);
  assert.equal((await steps(page))["both-moved"], true);

  // Distance 5: the demo's relative.d5, and the columns now 4, 5, 6.
  await set(page, "m", 5);
  await set(page, "n", 0);
  t = await tables(page);
  assert.equal(t.scores[1][0].text, published("relative.d5").toFixed(6));
  assert.deepEqual(t.heads, ["m \u2212 n = 4", "m \u2212 n = 5", "m \u2212 n = 6"]);
  assert.equal((await steps(page))["distance-changed"], true);

  // The same position 0: nothing turns, the score is q . k bit for bit.
  await set(page, "m", 0);
  t = await tables(page);
  assert.equal(bits(t.scores[1][0].value), bits(t.scores[0][0].value));
  assert.equal((await steps(page))["same-position"], true);
  assert.notEqual(t.grid[0][0].text, t.grid[0][2].text, "q and k differ: distances -1 and +1 score differently");

  // The key made the query: distances -1 and +1 give the same products in
  // the same order, so the same bits in every row.
  for (let f = 0; f < 8; ++f) await set(page, "k" + f, Q[f]);
  t = await tables(page);
  for (let r = 0; r < 4; ++r) assert.equal(bits(t.grid[r][0].value), bits(t.grid[r][2].value), `row ${r}`);
  assert.equal((await steps(page))["key-is-query"], true);

  // The chapter's vectors, the key unrotated: down a column the score now
  // follows the query's position and changes in its first digits.
  await page.locator("section.workbench .workbench-reset").click();
  await page.locator("section.workbench .workbench-rotate-key").uncheck();
  t = await tables(page);
  assert.ok(t.grid[4][1].value > 0.01, `largest change with the key unrotated: ${t.grid[4][1].text}`);
  assert.deepEqual(t.vectors.slice(0, 8).map((r) => r[3].value), K, "the key as scored is the key itself");
  assert.deepEqual(await steps(page), {
    "both-moved": true, "distance-changed": true, "same-position": true, "key-is-query": true, "key-unrotated": true,
  });

  // Not a number, and positions outside 0-1023: reported, the field
  // marked, the last result kept.
  await set(page, "q3", "two");
  let kept = await tables(page);
  assert.match(kept.message, /Not usable: q3/);
  assert.deepEqual(kept.grid, t.grid);
  assert.equal(await page.locator('.workbench-input[data-field="q3"]').getAttribute("aria-invalid"), "true");
  await set(page, "q3", 2);
  for (const bad of [1024, 1.5, -1]) {
    await set(page, "m", bad);
    kept = await tables(page);
    assert.match(kept.message, /m \(\u201c.*\u201d is not a whole number from 0 to 1023\)/, `m = ${bad}`);
    assert.deepEqual(kept.grid, t.grid);
  }
  await set(page, "m", 1);
  assert.equal((await tables(page)).message, "");
});

bench.testLayout("the workbench fits a phone's width; screenshots");
