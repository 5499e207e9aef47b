// Every page the book writes is valid HTML by html-validate's recommended
// preset, and so is every page of the API reference (api/: Doxygen's
// output as litbook api-links rewrites it: all 339 pages, in about ten
// seconds). One rule is off: no-inline-style, because KaTeX positions its
// glyphs with style attributes (heights, vertical offsets) that have no
// class to replace them, and Doxygen's tree view sizes its panes with them.
//
// usage: node tests/browser/html-validate.test.js [BOOK_DIR]
//        (default: build/book; CTest label: browser)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { HtmlValidate } = require("html-validate");

const root = path.resolve(__dirname, "..", "..");
const bookDir = path.resolve(process.argv[2] || path.join(root, "build", "book"));

const CONFIG = {
  extends: ["html-validate:recommended"],
  rules: { "no-inline-style": "off" },
};

// The HTML files of `dir` under the book, as paths relative to the book.
function htmlFiles(dir) {
  const full = path.join(bookDir, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full).filter((f) => f.endsWith(".html")).sort()
    .map((f) => path.join(dir, f));
}

const pages = htmlFiles("");
const apiPages = htmlFiles("api");

// Every problem html-validate finds in `files`: all of them counted per
// rule, the first hundred in full.
async function validate(files) {
  const validator = new HtmlValidate(CONFIG);
  const problems = [];
  const byRule = new Map();
  for (const file of files) {
    const report = await validator.validateFile(path.join(bookDir, file));
    for (const result of report.results) {
      for (const m of result.messages) {
        problems.push(`${file}:${m.line}:${m.column}: ${m.ruleId}: ${m.message}`);
        byRule.set(m.ruleId, (byRule.get(m.ruleId) || 0) + 1);
      }
    }
  }
  const summary = [...byRule].map(([rule, n]) => `${rule} ${n}`).join(", ");
  assert.equal(problems.length, 0,
               `${problems.length} problem(s) in ${files.length} pages (${summary}):\n` +
               problems.slice(0, 100).join("\n"));
}

test("every page passes html-validate's recommended preset", async () => {
  assert.ok(pages.includes("index.html"), `${bookDir}: no index.html; build the book first`);
  await validate(pages);
});

test("every page of the API reference passes it too", async () => {
  assert.ok(apiPages.includes(path.join("api", "index.html")),
            `${bookDir}: no api/index.html; build the book first`);
  await validate(apiPages);
});
