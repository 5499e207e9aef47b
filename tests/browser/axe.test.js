// axe-core, the accessibility engine, finds no violation on any page of the
// book, in the light and in the dark theme (contrast differs between them),
// nor on a sample of the API reference's pages (below). Each page is opened
// over file:// in headless Chromium at desktop width, with the theme chosen
// the way a reader's system chooses it.
//
// usage: node tests/browser/axe.test.js [BOOK_DIR]
//        (default: build/book; CTest label: browser)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");
const { launch } = require("../../tools/chromium.js");

const root = path.resolve(__dirname, "..", "..");
const bookDir = fs.realpathSync(path.resolve(process.argv[2] || path.join(root, "build", "book")));
const axeSource = require.resolve("axe-core/axe.min.js");
const bookPages = fs.readdirSync(bookDir).filter((f) => f.endsWith(".html")).sort();
// The API reference has 339 pages, made from a few templates: one page of
// each kind a reader meets stands for the rest (all of them, in both
// themes, take about seven minutes; html-validate checks every one). The
// main page (with the book's table of headers), the file list (icon
// links), the class list, the class index (its letter index), a member
// index (a heading api-links adds), a class, a header's reference, its
// source listing, and the namespace page (the longest, with enums and
// member labels).
const apiSample = ["index.html", "files.html", "annotated.html", "classes.html",
                   "functions.html", "classllm_1_1Tensor.html", "tensor_8hpp.html",
                   "tensor_8hpp_source.html", "namespacellm.html"].map((f) => `api/${f}`);
const pages = [...bookPages, ...apiSample];

let browser;
test.before(async () => {
  assert.ok(bookPages.includes("index.html"), `${bookDir}: no index.html; build the book first`);
  for (const f of apiSample) {
    assert.ok(fs.existsSync(path.join(bookDir, f)), `${bookDir}: no ${f}; did Doxygen rename it?`);
  }
  browser = await launch();
});
test.after(async () => {
  if (browser) await browser.close();
});

// The violations axe reports on `file` under `scheme`, one line per rule
// with the number of nodes and the first few of them.
async function violations(file, scheme) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto(pathToFileURL(path.join(bookDir, file)).href, { waitUntil: "load" });
  // The profile is fresh and nothing here clicks the toggle, so no saved
  // choice overrides the system's scheme.
  const saved = await page.evaluate(() => localStorage.getItem("book-theme"));
  assert.equal(saved, null, `${file}: a theme is saved (${saved}); the system's scheme would not apply`);
  await page.evaluate(() => document.fonts.ready);
  await page.addScriptTag({ path: axeSource });
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(" ")}${n.any[0] ? ` (${n.any[0].message})` : ""}`),
    }));
  });
  await page.close();
  return found.map((v) => `${file} [${scheme}]: ${v.id}: ${v.help}: ${v.nodes.length} node(s)\n    ` +
                          v.nodes.slice(0, 3).join("\n    "));
}

// The two themes are checked side by side, one page open for each: axe is
// single-threaded, so two pages keep both cores busy.
test("axe finds no violation on any page or the API sample, in the light and the dark theme", async () => {
  const perScheme = await Promise.all(["light", "dark"].map(async (scheme) => {
    const problems = [];
    for (const file of pages) problems.push(...(await violations(file, scheme)));
    return problems;
  }));
  const problems = perScheme.flat();
  assert.deepEqual(problems, [], problems.join("\n"));
});
