// What the browser tests of the workbenches (tests/browser/workbench-*.test.js)
// share: the directories from the command line, one headless Chromium for
// the file's tests, opening the chapter page until its workbench is
// ready, the demo's published values, the guided steps' checkboxes, and
// the test that the workbench fits a phone (and follows the dark theme)
// with its screenshots. Each test file keeps its own assertions.
//
// usage, in a test file run as
//   node tests/browser/workbench-NAME.test.js [BOOK_DIR] [SCREENSHOT_DIR] [OUT_DIR]
// (defaults: build/book, build/screenshots, build/out):
//   const bench = workbenchPage({ name: "softmax", stem: "11-stable-softmax" });
//   bench.test("the workbench shows the chapter's row", async (page) => { ... });
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");
const { launch, openPage } = require("../../tools/chromium.js");

const root = path.resolve(__dirname, "..", "..");
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

// The experiment's steps: each checkbox's event (data-when) -> ticked.
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

// The tables' accessibility: how many tables and captions, the header
// cells without a scope, and whether every field and radio button of the
// workbench has exactly one label.
function accessibility(page) {
  return page.evaluate(() => {
    const all = (selector) => Array.from(document.querySelectorAll(`section.workbench ${selector}`));
    const labelled = (selector) => all(selector).every((i) => i.labels.length === 1);
    return {
      tables: all("table").length,
      captions: all("table > caption").length,
      unscoped: all("th:not([scope])").length,
      labelled: labelled(".workbench-input"),
      radios: labelled("[role=radiogroup] input[type=radio]"),
    };
  });
}

// The relative luminance of a CSS rgb()/rgba() colour, 0 to 255.
function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// What the fit and theme checks read of the workbench at `selector`.
function layout(page, selector) {
  return page.evaluate((selector) => {
    const s = document.querySelector(selector);
    const box = s.getBoundingClientRect();
    const input = s.querySelector(".workbench-input");
    return {
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      left: box.left,
      right: box.right,
      background: getComputedStyle(s).backgroundColor,
      input: input && {
        background: getComputedStyle(input).backgroundColor,
        color: getComputedStyle(input).color,
        width: input.getBoundingClientRect().width,
      },
    };
  }, selector);
}

// The workbench at `selector` inside the page's width (one pixel of
// rounding allowed), its fields wide enough to type in, and, dark or
// light, its background and fields in that theme's colours.
function assertLayout(facts, where, scheme) {
  assert.ok(facts.scroll <= facts.client + 1, `${where}: the page is ${facts.scroll}px wide, ${facts.client}px shown`);
  assert.ok(facts.left >= 0 && facts.right <= facts.client + 1,
            `${where}: the workbench spans ${facts.left}-${facts.right}px of ${facts.client}px`);
  const dark = scheme === "dark";
  assert.equal(luminance(facts.background) < 100, dark, `${where}: workbench background ${facts.background}`);
  if (!facts.input) return;
  assert.ok(facts.input.width >= 50, `${where}: a field is ${facts.input.width}px wide`);
  assert.equal(luminance(facts.input.background) < 100, dark, `${where}: field background ${facts.input.background}`);
  assert.equal(luminance(facts.input.color) < 100, !dark, `${where}: field text ${facts.input.color}`);
}

/**
 * The shared part of one workbench's browser test. `name` is the
 * workbench (data-workbench), `stem` the chapter page's, `ready` a
 * selector inside the workbench that appears once it has computed
 * (default: the section's workbench-ready class), waited for `timeout` ms.
 * Registers the launch and close of the browser around the file's tests.
 */
function workbenchPage({ name, stem, ready = "", timeout = 15000 }) {
  const bookDir = fs.realpathSync(path.resolve(process.argv[2] || path.join(root, "build", "book")));
  const shotDir = path.resolve(process.argv[3] || path.join(root, "build", "screenshots"));
  const outDir = path.resolve(process.argv[4] || path.join(root, "build", "out"));
  const section = `section.workbench[data-workbench="${name}"]`;
  const readyAt = ready ? `${section} ${ready}` : `${section}.workbench-ready`;
  let browser;

  test.before(async () => {
    browser = await launch();
  });
  test.after(async () => {
    if (browser) await browser.close();
  });

  // Opens the chapter at `viewport` (default 1280 x 900) and colour
  // `scheme`; resolves once the workbench is ready.
  async function open({ viewport, scheme } = {}) {
    const href = pathToFileURL(path.join(bookDir, stem + ".html")).href;
    const { page, messages } = await openPage(browser.context, href, { viewport, scheme });
    await page.locator(readyAt).first().waitFor({ timeout });
    return { page, messages };
  }

  // Registers a test that opens the chapter, runs `body(page)`, and
  // checks that the page logged no error or warning meanwhile.
  function testPage(title, body) {
    test(title, async () => {
      const { page, messages } = await open();
      await body(page);
      assert.deepEqual(messages, [], messages.join("\n"));
      await page.close();
    });
  }

  // One file the chapter's demo wrote to OUT_DIR/STEM, as JSON.
  function demoFile(...parts) {
    const file = path.join(outDir, stem, ...parts);
    assert.ok(fs.existsSync(file), `${file}: the demo wrote no such file; build the book first`);
    return JSON.parse(fs.readFileSync(file, "utf8"));
  }

  // The demo's published value `key`: { kind, value, text }.
  function value(key) {
    const all = demoFile("values.json");
    assert.ok(key in all, `${stem}: the demo publishes no '${key}'`);
    return all[key];
  }

  // Registers the test that, for each scheme, on a desktop and on a
  // phone, the workbench (after `prepare(page)`) fits the page and shows
  // the theme's colours, and saves its screenshot as
  // SCREENSHOT_DIR/workbench-NAME-SCHEME-desktop|phone.png.
  function testLayout(title, { schemes = ["light"], prepare = async () => {} } = {}) {
    test(title, async () => {
      fs.mkdirSync(shotDir, { recursive: true });
      for (const scheme of schemes) {
        for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]]) {
          const { page, messages } = await open({ viewport, scheme });
          await prepare(page);
          assertLayout(await layout(page, section), `${scheme} ${size}`, scheme);
          await page.locator(section).screenshot({ path: path.join(shotDir, `workbench-${name}-${scheme}-${size}.png`) });
          assert.deepEqual(messages, [], messages.join("\n"));
          await page.close();
        }
      }
    });
  }

  return {
    root,
    bookDir,
    outDir,
    section,
    open,
    test: testPage,
    value,
    table: (table) => demoFile("tables", `${table}.json`),
    steps,
    accessibility,
    testLayout,
    // The field data-field=`field` of the workbench.
    field: (page, field) => page.locator(`${section} .workbench-input[data-field="${field}"]`),
  };
}

module.exports = { workbenchPage };
