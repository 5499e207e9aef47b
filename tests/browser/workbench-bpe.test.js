// The tokenizer workbench of chapter 04 in a real browser: opens the built
// chapter over file:// in headless Chromium (Debian's, through
// playwright-core) and checks that the trained tokenizer loads and shows
// the chapter's sentence with the ids chapter 04's demo printed
// (OUT_DIR/04-bpe-tokenizer/tables/sentence.json), that the tokens and
// merges recompute as the reader types, that each guided step ticks
// itself, and that the tokens spell the text. Screenshots, desktop and
// phone, go to SCREENSHOT_DIR.
//
// usage: node tests/browser/workbench-bpe.test.js [BOOK_DIR] [SCREENSHOT_DIR] [OUT_DIR]
"use strict";

const assert = require("node:assert/strict");
const { workbenchPage } = require("./workbench-page.js");

const bench = workbenchPage({ name: "bpe", stem: "04-bpe-tokenizer", ready: ".workbench-tokens-strip li", timeout: 30000 });
const { steps } = bench;

function tokens(page) {
  return page.evaluate(() => ({
    ids: Array.from(document.querySelectorAll(".workbench-token-chip"), (li) => Number(li.dataset.id)),
    texts: Array.from(document.querySelectorAll(".workbench-token-text"), (s) => s.textContent),
    summary: document.querySelector(".workbench-summary").textContent,
    rows: document.querySelectorAll(".workbench-merges tbody tr").length,
  }));
}

const type = (page, text) => page.locator("section.workbench .workbench-prompt").fill(text);
// The text the tokens spell: ␣ and ↵ back to a space and a newline, and a
// byte shown as <xx> (part of a character) back to that byte.
function spelled(texts) {
  const bytes = [];
  for (const m of texts.join("").matchAll(/<([0-9a-f]{2})>|([\s\S])/gu)) {
    if (m[1]) bytes.push(parseInt(m[1], 16));
    else bytes.push(...Buffer.from(m[2] === "\u2423" ? " " : m[2] === "\u21b5" ? "\n" : m[2], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

bench.test("the chapter's sentence gets the demo's ids; typing recomputes and ticks the steps", async (page) => {
  const table = bench.table("sentence");
  const printed = table.rows.slice(1, -1); // without BOS and EOS
  let t = await tokens(page);
  assert.deepEqual(t.ids, printed.map((row) => Number(row[1].text)));
  assert.deepEqual(t.texts, printed.map((row) => row[2].text));
  assert.match(t.summary, /^35 bytes, \d+ words, 17 tokens$/);
  assert.deepEqual(await steps(page), { edited: false, "rare-word": false, "non-ascii": false, digits: false });

  for (const text of ["the kettle", "antidisestablishment", "caf\u00e9", "1234567"]) {
    await type(page, text);
    t = await tokens(page);
    assert.equal(spelled(t.texts), text, `the tokens do not spell '${text}'`);
  }
  assert.ok(t.ids.every((id) => id < 1024));
  assert.deepEqual(await steps(page), { edited: true, "rare-word": true, "non-ascii": true, digits: true });

  // Back to the chapter's sentence.
  await page.locator("section.workbench .workbench-reset").click();
  assert.equal((await tokens(page)).ids.length, 17);
});

bench.testLayout("screenshots, desktop and phone; the workbench fits");
