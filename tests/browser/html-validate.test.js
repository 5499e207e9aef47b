// Every page the book writes is valid HTML by html-validate's recommended
// preset. One rule is off: no-inline-style, because KaTeX positions its
// glyphs with style attributes (heights, vertical offsets) that have no
// class to replace them. The API reference is Doxygen's and is not checked.
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

const pages = fs.readdirSync(bookDir).filter((f) => f.endsWith(".html")).sort();

test("every page passes html-validate's recommended preset", async () => {
  assert.ok(pages.includes("index.html"), `${bookDir}: no index.html; build the book first`);
  const validator = new HtmlValidate(CONFIG);
  const problems = [];
  const byRule = new Map();
  for (const file of pages) {
    const report = await validator.validateFile(path.join(bookDir, file));
    for (const result of report.results) {
      for (const m of result.messages) {
        problems.push(`${file}:${m.line}:${m.column}: ${m.ruleId}: ${m.message}`);
        byRule.set(m.ruleId, (byRule.get(m.ruleId) || 0) + 1);
      }
    }
  }
  const summary = [...byRule].map(([rule, n]) => `${rule} ${n}`).join(", ");
  // The first hundred problems in full, then the count per rule.
  assert.equal(problems.length, 0,
               `${problems.length} problem(s) in ${pages.length} pages (${summary}):\n` +
               problems.slice(0, 100).join("\n"));
});
