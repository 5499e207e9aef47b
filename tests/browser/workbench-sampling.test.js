// The sampling workbench of chapter 32 in a real browser: opens the built
// chapter over file:// in headless Chromium (Debian's, through
// playwright-core) and checks that the trained model loads and shows, for
// the chapter's prompt, the numbers the chapter's demo published
// (OUT_DIR/32-sampling/values.json: the most probable token, its
// probability, and for each of the settings table's rows the tokens left
// and the entropy), that the table recomputes as a setting changes, that
// read after BOS the draw is the first token `tinyllm generate` writes
// (BUILD_DIR/tinyllm), that the drawn token can be appended to the prompt,
// that each guided step ticks itself, and that a bad setting is reported
// while the last result stays. Screenshots, light and dark, desktop and
// phone, go to SCREENSHOT_DIR.
//
// usage: node tests/browser/workbench-sampling.test.js [BOOK_DIR] [SCREENSHOT_DIR] [OUT_DIR]
//        (defaults: build/book, build/screenshots, build/out; CTest label: browser)
"use strict";

const assert = require("node:assert/strict");
const path = require("path");
const { spawnSync } = require("child_process");
const { workbenchPage } = require("./workbench-page.js");

const bench = workbenchPage({ name: "sampling", stem: "32-sampling", ready: ".workbench-sampling tbody tr", timeout: 30000 });
const { steps, field, value } = bench;
const tinyllm = path.join(path.dirname(bench.outDir), "tinyllm");
const checkpoint = path.join(bench.outDir, "34-end-to-end", "artifacts", "tinyllm.ckpt");

// Six decimals as the page prints them; three for the entropy.
const fixed = (v, d = 6) => Number(v).toFixed(d);

// A token's bytes as the page shows them (wb_token): a space as U+2423, a
// newline as U+21B5, other control bytes in hexadecimal.
function visible(bytes) {
  let s = "";
  for (const ch of bytes.toString("utf8")) {
    if (ch === " ") s += "\u2423";
    else if (ch === "\n") s += "\u21b5";
    else if (ch === "\t") s += "\u2192";
    else if (ch < " " || ch === "\x7f") s += "<" + ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0") + ">";
    else s += ch;
  }
  return s;
}

function state(page) {
  return page.evaluate(() => {
    const section = document.querySelector('section.workbench[data-workbench="sampling"]');
    const rows = Array.from(section.querySelectorAll(".workbench-sampling tbody tr"), (tr) => {
      const td = tr.querySelectorAll("td");
      return { id: Number(tr.dataset.id), token: td[1].querySelector("code").textContent, raw: td[3].textContent,
               q: td[4].textContent.replace(/cut$/, ""), cut: td[4].classList.contains("blocked"), drawn: tr.dataset.drawn === "true" };
    });
    const summary = Object.fromEntries(Array.from(section.querySelectorAll("[data-summary]"), (d) => [d.dataset.summary, d.textContent]));
    const message = section.querySelector(".workbench-message");
    return { rows, summary, drawn: Number(section.dataset.drawn), message: message.hidden ? "" : message.textContent,
             prompt: section.querySelector(".workbench-prompt").value };
  });
}

async function settings(page, t, k, p, seed = 1) {
  await field(page, "temperature").fill(String(t));
  await field(page, "topK").fill(String(k));
  await field(page, "topP").fill(String(p));
  await field(page, "seed").fill(String(seed));
}

bench.test("the chapter's prompt gives the demo's numbers for every row of the settings table", async (page) => {
  let s = await state(page);
  assert.equal(s.prompt, "And God said");
  assert.equal(s.rows.length, 12);
  assert.equal(s.rows[0].token, visible(Buffer.from(value("t1.top1").text)));
  assert.equal(s.rows[0].raw, fixed(value("t1.p1").value));
  assert.equal(s.rows[0].q, s.rows[0].raw);
  assert.match(s.summary.kept, new RegExp(`^${value("t1.left").value} of ${value("vocab").value}$`));
  assert.match(s.summary.entropy, new RegExp(`^${fixed(value("t1.entropy").value, 3)} `));
  assert.equal(s.summary.read, String(value("prompt.tokens").value));
  assert.deepEqual(await steps(page), { cooled: false, heated: false, greedy: false, "top-k-cut": false, "top-p-cut": false });

  const rows = { greedy: [0, 0, 1], t05: [0.5, 0, 1], t15: [1.5, 0, 1], k5: [1, 5, 1], k50: [1, 50, 1],
                 p05: [1, 0, 0.5], p09: [1, 0, 0.9], book: [0.8, 40, 1] };
  for (const [key, [t, k, p]] of Object.entries(rows)) {
    await settings(page, t, k, p);
    s = await state(page);
    assert.equal(s.message, "", key);
    assert.match(s.summary.kept, new RegExp(`^${value(key + ".left").value} of `), `${key}: tokens left`);
    assert.match(s.summary.entropy, new RegExp(`^${fixed(value(key + ".entropy").value, 3)} `), `${key}: entropy`);
    assert.equal(s.rows[0].q, fixed(value(key + ".p1").value), `${key}: the top token's probability`);
    assert.equal(s.rows[0].raw, fixed(value("t1.p1").value), `${key}: the raw column does not move`);
    const kept = Number(value(key + ".left").value);
    s.rows.forEach((r, i) => assert.equal(r.cut, i >= kept, `${key}: rank ${i + 1} ${r.cut ? "cut" : "kept"}`));
    assert.equal(s.rows.filter((r) => r.drawn).length <= 1, true);
  }
  assert.deepEqual(await steps(page), { cooled: true, heated: true, greedy: true, "top-k-cut": true, "top-p-cut": true });
});

bench.test("after BOS the draw is tinyllm generate's first token; the drawn token appends; bad settings are named", async (page) => {
  const first = await state(page);
  await page.locator('section.workbench input[data-field="bos"]').check();
  for (const [prompt, t, k, p, seed] of [["And God said", 1, 0, 1, 1], ["And God said", 0.8, 40, 1, 34], ["The LORD is my", 1.2, 0, 0.95, 5]]) {
    await page.locator("section.workbench .workbench-prompt").fill(prompt);
    await settings(page, t, k, p, seed);
    const s = await state(page);
    const r = spawnSync(tinyllm, ["generate", "--checkpoint", checkpoint, "--prompt", prompt, "--tokens", "1",
      "--temperature", String(t), "--top-k", String(k), "--top-p", String(p), "--seed", String(seed)]);
    assert.equal(r.status, 0, r.stderr.toString());
    const token = r.stdout.subarray(Buffer.byteLength(prompt), r.stdout.length - 1);
    assert.equal(s.summary.drawn.replace(/ \(id .*$/, ""), token.length ? visible(token) : "<EOS>", `${prompt}, seed ${seed}`);
    assert.match(s.summary.read, /\(with BOS\)$/);
  }
  const withBos = await state(page);
  assert.notEqual(withBos.rows[0].raw + withBos.rows[1].raw, first.rows[0].raw + first.rows[1].raw);

  // Append: the prompt grows by the drawn token and the model reads one
  // id more.
  await page.locator("section.workbench .workbench-chapter-prompt").click();
  await settings(page, 0, 0, 1);
  let s = await state(page);
  const reads = Number(s.summary.read);
  const token = s.rows.find((r) => r.drawn).token.replace(/\u2423/g, " ");
  await page.locator("section.workbench .workbench-append").click();
  s = await state(page);
  assert.equal(s.prompt, "And God said" + token);
  assert.equal(Number(s.summary.read), reads + 1);

  // A bad setting: named, marked, the table kept.
  const before = await state(page);
  await field(page, "topK").fill("many");
  s = await state(page);
  assert.match(s.message, /Not a setting: Top-k \(\u201cmany\u201d: a whole number from 0 to 100000\)/);
  assert.deepEqual(s.rows, before.rows);
  assert.equal(await field(page, "topK").getAttribute("aria-invalid"), "true");
  await field(page, "topK").fill("0");
  await page.locator("section.workbench .workbench-prompt").fill("");
  assert.match((await state(page)).message, /empty prompt/);
});

bench.testLayout("the sampling workbench fits, light and dark, desktop and phone; screenshots", {
  schemes: ["light", "dark"],
  prepare: (page) => settings(page, 0.8, 40, 0.9, 3),
});
