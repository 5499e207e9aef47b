// What a reader sees: opens the built book over file:// in headless
// Chromium (Debian's, driven by playwright-core) and checks every page, the
// search, the theme toggle and the phone layout; writes screenshots of one
// chapter for review.
//
// usage: node tests/browser/book.test.js [BOOK_DIR] [SCREENSHOT_DIR]
//        (defaults: build/book and build/screenshots; CTest label: browser)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");
const { pathToFileURL, fileURLToPath } = require("url");
const { launch, openPage } = require("../../tools/chromium.js");

const root = path.resolve(__dirname, "..", "..");
const bookDir = fs.realpathSync(path.resolve(process.argv[2] || path.join(root, "build", "book")));
const shotDir = path.resolve(process.argv[3] || path.join(root, "build", "screenshots"));
const SHOT_STEM_PREFIX = "07-"; // the chapter photographed for review
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const url = (file) => pathToFileURL(path.join(bookDir, file)).href;

// The book's own pages: the landing page and the chapters (the API
// reference is Doxygen's: a listing's link into it and its own tree, menu
// and links back are checked below, its markup by html-validate.test.js).
const pages = fs
  .readdirSync(bookDir)
  .filter((f) => f.endsWith(".html"))
  .sort((a, b) => (a === "index.html" ? -1 : b === "index.html" ? 1 : a.localeCompare(b)));
const chapters = pages.filter((f) => /^\d\dr?-.*\.html$/.test(f));
const shotChapter = chapters.find((f) => f.startsWith(SHOT_STEM_PREFIX)) || chapters[0];

let browser; // { context, close }
const seen = new Map(); // page file -> { ids, links, title, headings, bodyText }

// Opens `file` in a new tab and records every console message, page error
// and failed request while it loads and runs its scripts.
async function open(file, { viewport = DESKTOP } = {}) {
  return openPage(browser.context, url(file), { viewport });
}

test.before(async () => {
  assert.ok(pages.includes("index.html"), `${bookDir}: no index.html; build the book first`);
  assert.ok(chapters.length > 0, `${bookDir}: no chapter pages`);
  browser = await launch();
});

test.after(async () => {
  if (browser) await browser.close();
});

test("every page loads with no console message, page error or KaTeX error", async () => {
  const problems = [];
  for (const file of pages) {
    const { page, messages } = await open(file);
    // Let late work (deferred scripts, fonts) report its errors too.
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(100);
    const facts = await page.evaluate(() => ({
      katexErrors: document.querySelectorAll(".katex-error").length,
      ids: Array.from(document.querySelectorAll("[id], a[name]"), (e) => e.id || e.getAttribute("name")),
      links: Array.from(document.querySelectorAll("a[href], link[href], script[src], img[src]"), (e) => ({
        raw: e.getAttribute("href") ?? e.getAttribute("src"),
        abs: e.href || e.src,
      })),
      title: document.querySelector("h1")?.textContent.trim() ?? "",
      headings: Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6, nav, header, .page-toc"),
                           (h) => h.textContent).join(" "),
      bodyText: document.querySelector(".page-body")?.innerText ?? "",
      // Listings, inline code, math and figures: the search shows prose.
      codeText: Array.from(document.querySelectorAll(
        ".page-body pre, .page-body code, .page-body svg, .page-body .katex"),
        (e) => e.textContent).join(" "),
      sidebar: !!document.querySelector("nav.sidebar a[href]"),
      tablesWithoutCaption: Array.from(document.querySelectorAll(".page-body table"))
        .filter((t) => !t.caption || !t.caption.textContent.trim()).length,
      headersWithoutScope: document.querySelectorAll(".page-body th:not([scope])").length,
      overflows: (() => {
        const out = [];
        for (const el of document.querySelectorAll(".katex-display")) {
          const tex = (el.querySelector("annotation")?.textContent ?? el.textContent).slice(0, 60);
          if (el.scrollWidth > el.clientWidth + 1) out.push(`equation overflows by ${el.scrollWidth - el.clientWidth}px: ${tex}`);
        }
        for (const el of document.querySelectorAll(".katex-display, article pre, .table-wrap")) {
          if (el.scrollWidth > el.clientWidth + 1 &&
              (el.tabIndex !== 0 || !el.getAttribute("aria-label"))) {
            out.push(`a scroll area (${el.className || el.tagName}) cannot take the focus or has no name`);
          }
        }
        return out;
      })(),
    }));
    seen.set(file, facts);
    for (const m of messages) problems.push(`${file}: ${m}`);
    if (facts.katexErrors) problems.push(`${file}: ${facts.katexErrors} KaTeX error(s)`);
    if (!facts.sidebar) problems.push(`${file}: no sidebar with chapter links`);
    if (facts.tablesWithoutCaption) problems.push(`${file}: ${facts.tablesWithoutCaption} table(s) without a caption`);
    if (facts.headersWithoutScope) problems.push(`${file}: ${facts.headersWithoutScope} <th> without scope`);
    if (chapters.includes(file)) {
      const nav = await page.evaluate(() => ({
        toc: document.querySelectorAll(".page-toc a[href^='#']").length,
        pager: document.querySelectorAll(".pager a[href]").length,
      }));
      if (!nav.toc) problems.push(`${file}: no table of contents`);
      if (chapters.length > 1 && !nav.pager) problems.push(`${file}: no previous/next links`);
    }
    await page.close();
  }
  assert.deepEqual(problems, [], problems.join("\n"));
});

test("every local link and anchor resolves", async () => {
  assert.ok(seen.size === pages.length, "the page test must run first");
  const problems = [];
  const idsOf = new Map(); // absolute path -> Set of ids
  for (const [file, facts] of seen) idsOf.set(path.join(bookDir, file), new Set(facts.ids));
  const idsOfFile = (file) => {
    if (!idsOf.has(file)) {
      const html = fs.readFileSync(file, "utf8");
      const ids = new Set();
      for (const m of html.matchAll(/\s(?:id|name)\s*=\s*["']([^"']*)["']/g)) ids.add(m[1]);
      idsOf.set(file, ids);
    }
    return idsOf.get(file);
  };
  for (const [file, facts] of seen) {
    for (const { raw, abs } of facts.links) {
      if (!abs || !abs.startsWith("file:")) continue; // other sites, data: URLs
      const target = new URL(abs);
      const hash = decodeURIComponent(target.hash.slice(1));
      target.hash = "";
      target.search = "";
      let targetFile = fileURLToPath(target);
      if (!fs.existsSync(targetFile)) {
        problems.push(`${file}: broken link '${raw}'`);
        continue;
      }
      if (fs.statSync(targetFile).isDirectory()) targetFile = path.join(targetFile, "index.html");
      if (hash && targetFile.endsWith(".html") && !idsOfFile(targetFile).has(hash)) {
        problems.push(`${file}: link '${raw}' names a missing anchor`);
      }
    }
  }
  assert.deepEqual(problems, [], problems.join("\n"));
});

// A word of a chapter's prose that is in no title, heading or navigation,
// in none of its listings, code, math or figures (the search shows prose)
// and in no other chapter, so that only that chapter's body can find it.
function bodyOnlyTerm(file) {
  const words = (text) => new Set((text.toLowerCase().match(/[a-z]{7,}/g) || []));
  const elsewhere = new Set();
  for (const [other, facts] of seen) {
    for (const w of words(facts.headings + " " + facts.title)) elsewhere.add(w);
    if (other !== file) for (const w of words(facts.bodyText)) elsewhere.add(w);
  }
  for (const w of words(seen.get(file).codeText)) elsewhere.add(w);
  const candidates = [...words(seen.get(file).bodyText)].filter((w) => !elsewhere.has(w));
  assert.ok(candidates.length, `${file}: no word found only in its body to search for`);
  return candidates.sort()[0];
}

// The search's status line once it has an answer (results, nothing, or a
// failure to load the index) for what the box now holds: typing is
// debounced, and until the last update runs the status answers a prefix.
async function searchStatus(page) {
  await page.waitForFunction(() => {
    const status = document.getElementById("search-status");
    const s = status?.textContent || "";
    const query = document.getElementById("search-input")?.value.trim();
    return s && !/^Loading/.test(s) && status.getAttribute("data-query") === query;
  }, null, { timeout: 10000 }).catch(() => {});
  return (await page.locator("#search-status").textContent()) || "";
}

test("search finds a term from a chapter's body and leads to its section", async () => {
  const target = shotChapter;
  const term = bodyOnlyTerm(target);
  const { page, messages } = await open("index.html");

  // The keyboard way: "/" focuses the box, arrows reach the results.
  await page.keyboard.press("/");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "search-input",
               "'/' does not focus the search box");
  await page.keyboard.type(term);
  const status = await searchStatus(page);
  assert.match(status, /found/, `searching '${term}': '${status}'`);
  const results = page.locator(".search-result");
  const found = await results.evaluateAll((as) =>
    as.map((a) => ({ href: a.href, marked: Array.from(a.querySelectorAll("mark"), (m) => m.textContent) }))
  );
  const where = (href) => path.basename(fileURLToPath(href.replace(/#.*$/, "")));
  assert.ok(found.length > 0, `searching '${term}' finds nothing`);
  for (const r of found) {
    assert.equal(where(r.href), target, `searching '${term}' (only in ${target}) lists ${r.href}`);
  }
  assert.ok(found[0].marked.some((m) => m.toLowerCase() === term),
            `the first result's snippet does not mark '${term}'`);

  await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("search-result")), true,
               "ArrowDown does not move to the first result");
  await Promise.all([page.waitForURL((u) => where(u.href) === target), page.keyboard.press("Enter")]);
  await page.waitForLoadState("load");
  const landed = new URL(page.url());
  assert.equal(landed.href.replace(/#.*$/, ""), url(target), "the result leads elsewhere");
  const section = decodeURIComponent(landed.hash.slice(1));
  if (section) {
    const text = await page.evaluate((id) => {
      // The text from the anchored heading to the next heading of its level or above.
      const h = document.getElementById(id);
      if (!h) return null;
      const level = Number(h.tagName.slice(1)) || 6;
      let text = h.textContent;
      for (let n = h.nextElementSibling; n; n = n.nextElementSibling) {
        const l = /^H([1-6])$/.exec(n.tagName);
        if (l && Number(l[1]) <= level) break;
        text += " " + n.textContent;
      }
      return text.toLowerCase();
    }, section);
    assert.notEqual(text, null, `the result's anchor #${section} is not on ${target}`);
    assert.ok(text.includes(term), `section #${section} of ${target} does not contain '${term}'`);
  }

  // Nothing to find says so.
  await page.keyboard.press("/");
  await page.keyboard.type("qqxzjvw");
  assert.match(await searchStatus(page), /^Nothing found/);
  assert.equal(await page.locator(".search-result").count(), 0);
  assert.deepEqual(messages, [], messages.join("\n"));
  await page.close();
});

// The results of typing `query` into the search box on the landing page:
// each result's page file, heading and shown snippet.
async function searchFor(page, query) {
  // Clear first, so that the status read below is this query's.
  await page.fill("#search-input", "");
  await page.waitForFunction(() => !document.getElementById("search-status").textContent);
  await page.fill("#search-input", query);
  const status = await searchStatus(page);
  const results = await page.locator(".search-result").evaluateAll((as) =>
    as.map((a) => ({
      file: a.getAttribute("href").replace(/^.*\//, "").replace(/#.*$/, ""),
      heading: a.querySelector(".search-result-heading")?.textContent ?? "",
      snippet: a.querySelector(".search-result-snippet")?.textContent ?? "",
      marked: Array.from(a.querySelectorAll("mark"), (m) => m.textContent.toLowerCase()),
    })));
  return { status, results };
}

test("search: prefixes, one typo, a chapter's own sections first, prose in results", async () => {
  const { page, messages } = await open("index.html");
  const softmax = chapters.find((f) => f.includes("softmax"));
  const causal = chapters.find((f) => f.startsWith("23-"));
  assert.ok(softmax && causal, "the book has no softmax chapter or no chapter 23");

  // A prefix finds the whole word.
  let r = await searchFor(page, "softm");
  assert.ok(r.results.some((x) => x.file === softmax), `'softm' misses ${softmax}: ${r.status}`);
  // One letter missing, one swapped, one wrong: still found, and marked.
  for (const typo of ["softmx", "sfotmax", "softmex"]) {
    r = await searchFor(page, typo);
    assert.ok(r.results.length > 0, `'${typo}' finds nothing: ${r.status}`);
    assert.ok(r.results.some((x) => x.file === softmax), `'${typo}' misses ${softmax}`);
    assert.ok(r.results[0].marked.some((m) => m.startsWith("softm")),
              `'${typo}': the first result marks ${JSON.stringify(r.results[0].marked)}`);
  }
  // Two edits are too many.
  r = await searchFor(page, "sfotmx");
  assert.match(r.status, /^Nothing found/, `'sfotmx' (two edits) finds something`);

  // The chapter about causal masks comes before its mentions elsewhere.
  r = await searchFor(page, "causal mask");
  assert.ok(r.results.length > 1, `'causal mask': ${r.status}`);
  assert.equal(r.results[0].file, causal, `'causal mask' ranks ${r.results[0].file} first`);
  assert.ok(r.results.some((x) => x.file !== causal), "'causal mask' is found only in chapter 23");

  // Results show prose: no TeX commands, no lines of C++.
  for (const q of ["softmax", "tensor", "attention", "gradient"]) {
    r = await searchFor(page, q);
    for (const x of r.results) {
      assert.doesNotMatch(x.snippet, /\\[a-zA-Z]{2,}|\\[{}_^]|#include/,
                          `'${q}' shows TeX or code from ${x.file} #${x.heading}: ${x.snippet}`);
    }
  }
  assert.deepEqual(messages, [], messages.join("\n"));
  await page.close();
});

test("headings have permalinks; the arrow keys go to the previous and next chapter", async () => {
  const file = shotChapter;
  const i = chapters.indexOf(file);
  assert.ok(i > 0 && i + 1 < chapters.length, `${file} has no previous and next chapter`);
  const { page, messages } = await open(file);
  const links = await page.evaluate(() =>
    Array.from(document.querySelectorAll(".page-body h2[id], .page-body h3[id]"), (h) => ({
      id: h.id,
      href: h.querySelector("a.heading-anchor")?.getAttribute("href") ?? null,
      name: h.querySelector("a.heading-anchor")?.textContent ?? "",
    })));
  assert.ok(links.length > 0, `${file}: no headings with ids`);
  for (const l of links) {
    assert.equal(l.href, `#${encodeURIComponent(l.id)}`, `heading #${l.id} has permalink ${l.href}`);
    assert.match(l.name, /Link to this section/);
  }
  // Following one puts the heading's address in the location bar.
  await page.locator(`a.heading-anchor[href="${links[0].href}"]`).focus();
  await page.keyboard.press("Enter");
  assert.equal(decodeURIComponent(new URL(page.url()).hash.slice(1)), links[0].id);

  // The arrows, from the page itself, not from the search box.
  await page.locator("main").focus();
  await Promise.all([page.waitForURL((u) => u.href.endsWith(chapters[i + 1])),
                     page.keyboard.press("ArrowRight")]);
  await page.waitForLoadState("load");
  await Promise.all([page.waitForURL((u) => u.href.endsWith(file)),
                     page.keyboard.press("ArrowLeft")]);
  await page.waitForLoadState("load");
  await page.keyboard.press("/");
  await page.keyboard.type("ab");
  await page.keyboard.press("ArrowLeft");
  await page.waitForTimeout(200);
  assert.ok(page.url().endsWith(file), "ArrowLeft in the search box leaves the page");
  assert.deepEqual(messages, [], messages.join("\n"));
  await page.close();
});

// Measured in the first test's pass over the pages, which opens each one at
// 1280 px already.
test("no display equation overflows its column at 1280 px; wide scroll areas take the focus", () => {
  assert.equal(seen.size, pages.length, "the pass over every page did not run");
  const problems = [];
  for (const [file, facts] of seen) for (const f of facts.overflows) problems.push(`${file}: ${f}`);
  assert.deepEqual(problems, [], problems.join("\n"));
});

test("search works at phone width", async () => {
  const term = bodyOnlyTerm(shotChapter);
  const { page, messages } = await open(shotChapter, { viewport: PHONE });
  assert.equal(await page.locator("#search-input").isVisible(), false, "the search box shows before it is opened");
  await page.click(".search-toggle");
  await page.locator("#search-input").waitFor({ state: "visible" });
  await page.fill("#search-input", term);
  const status = await searchStatus(page);
  assert.match(status, /found/, `searching '${term}' at phone width: '${status}'`);
  await page.locator(".search-result").first().waitFor({ state: "visible" });
  const box = await page.locator(".search-results").boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width + 0.5,
            `the results do not fit the phone's width: ${JSON.stringify(box)}`);
  await page.keyboard.press("Escape"); // clears
  await page.keyboard.press("Escape"); // closes
  assert.equal(await page.locator("#search-input").isVisible(), false, "Escape does not close the search");
  assert.deepEqual(messages, [], messages.join("\n"));
  await page.close();
});

test("every page fits a phone's width", async () => {
  const problems = [];
  for (const file of pages) {
    const { page } = await open(file, { viewport: PHONE });
    const overflow = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      menu: !!document.querySelector(".menu-toggle:not([hidden])"),
    }));
    if (overflow.scroll > overflow.inner) {
      problems.push(`${file}: ${overflow.scroll}px wide at ${overflow.inner}px (the page scrolls sideways)`);
    }
    if (!overflow.menu) problems.push(`${file}: no menu button at phone width`);
    await page.close();
  }
  assert.deepEqual(problems, [], problems.join("\n"));
});

test("the theme toggle switches the theme, before the first paint, and persists", async () => {
  const { page, messages } = await open(shotChapter);
  await page.emulateMedia({ colorScheme: "light" });
  await page.evaluate(() => localStorage.removeItem("book-theme"));
  await page.reload();
  const state = () =>
    page.evaluate(() => ({
      theme: document.documentElement.getAttribute("data-theme"),
      pressed: document.querySelector(".theme-toggle").getAttribute("aria-pressed"),
      background: getComputedStyle(document.body).backgroundColor,
    }));
  const dark = (rgb) => {
    const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 100;
  };

  let s = await state();
  assert.equal(s.theme, null, "a theme is set although none was chosen");
  assert.equal(dark(s.background), false, "the light system theme shows dark");
  await page.click(".theme-toggle");
  s = await state();
  assert.equal(s.theme, "dark");
  assert.equal(s.pressed, "true");
  assert.equal(dark(s.background), true, `dark theme, yet background ${s.background}`);

  // Persists, and is in place before <body> exists (no flash of light).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.body) {
        window.__themeAtBody = document.documentElement.getAttribute("data-theme");
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  s = await state();
  assert.equal(s.theme, "dark", "the dark choice is lost on reload");
  assert.equal(dark(s.background), true);
  assert.equal(await page.evaluate(() => window.__themeAtBody), "dark",
               "the saved theme is applied only after <body> started");
  const other = await open(chapters.find((c) => c !== shotChapter) || "index.html");
  assert.equal(await other.page.evaluate(() => document.documentElement.getAttribute("data-theme")), "dark",
               "the choice does not carry to another page");
  await other.page.close();

  await page.click(".theme-toggle");
  await page.reload();
  s = await state();
  assert.equal(s.theme, "light", "the light choice is lost on reload");
  assert.equal(dark(s.background), false);

  // With no choice saved, the page follows the system.
  await page.evaluate(() => localStorage.removeItem("book-theme"));
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  s = await state();
  assert.equal(s.theme, null);
  assert.equal(dark(s.background), true, "a dark system theme shows light");
  assert.equal(s.pressed, "true");
  assert.deepEqual(messages, [], messages.join("\n"));
  await page.close();
});

test("a listing links the symbols it defines to their API reference entries", async () => {
  // Chapter 07 defines the Tensor class; its listing names Tensor::shape.
  const file = chapters.find((f) => f.startsWith("07-"));
  assert.ok(file, "chapter 07 is not in the book");
  const { page, messages } = await open(file);
  const link = page.locator("p.listing-api a", { hasText: /^Tensor::shape$/ }).first();
  assert.equal(await link.count(), 1, "no listing of chapter 07 links Tensor::shape");
  const href = await link.getAttribute("href");
  assert.match(href, /^api\/classllm_1_1Tensor\.html#a[0-9a-f]+$/);
  await link.click();
  await page.waitForLoadState("load");
  assert.match(page.url(), /\/api\/classllm_1_1Tensor\.html#a[0-9a-f]+$/);
  // Doxygen's entry for the member follows its anchor: the heading there
  // names the function.
  const anchor = href.split("#")[1];
  const heading = await page.evaluate((id) => {
    const a = document.getElementById(id);
    let el = a;
    while (el && !(el.matches && el.matches("h2.memtitle"))) el = el.nextElementSibling;
    return el ? el.textContent : null;
  }, anchor);
  assert.ok(heading && heading.includes("shape"), `the entry at #${anchor} is '${heading}'`);
  assert.deepEqual(messages, [], messages.join("\n"));
  await page.close();
});

test("the API reference's tree, menu and links to the book work after api-links rewrites it", async () => {
  // Doxygen's scripts find their elements by id; api-links moves them into
  // landmarks and rewrites their markup. Each page must still build its
  // tree, select itself in it, build the menu and load without a message.
  // functions.html is both the "All" entry of the class members and its
  // first letter, "a": Doxygen's navtreeindex lists the page under both,
  // and which of the two duplicate keys comes last (and is selected)
  // changes with the members the index holds. Either is the page itself.
  const expected = { "api/classllm_1_1Tensor.html": ["Tensor"],
                     "api/tensor_8hpp_source.html": ["tensor.hpp"],
                     "api/functions.html": ["All", "a"] };
  for (const [file, selected] of Object.entries(expected)) {
    const { page, messages } = await open(file);
    await page.locator("#nav-tree .selected").first().waitFor();
    const facts = await page.evaluate(() => ({
      tree: document.querySelectorAll("#nav-tree-contents li").length,
      treeWidth: document.querySelector("#nav-tree").getBoundingClientRect().width,
      selected: document.querySelector("#nav-tree .selected").textContent.replace(/[\u25b6-\u25bc\s]+/g, " ").trim(),
      menu: document.querySelectorAll("nav #main-menu > li").length,
      main: !!document.querySelector("main #doc-content h1"),
      back: document.querySelector(".book-back a")?.getAttribute("href"),
    }));
    assert.ok(facts.tree > 3 && facts.treeWidth > 100, `${file}: the tree does not show (${JSON.stringify(facts)})`);
    assert.ok(selected.includes(facts.selected), `${file}: the tree selects '${facts.selected}', expected one of ${selected.join(", ")}`);
    assert.equal(facts.menu, 4, `${file}: the menu has ${facts.menu} entries`);
    assert.ok(facts.main, `${file}: no heading in main #doc-content`);
    assert.equal(facts.back, "../index.html");
    assert.deepEqual(messages, [], messages.join("\n"));
    await page.close();
  }
  // A class's page leads to the listing that teaches it.
  const { page, messages } = await open("api/classllm_1_1Tensor.html");
  const taught = page.locator("p.book-taught a").first();
  assert.match(await taught.getAttribute("href"), /^\.\.\/07-[a-z-]+\.html#region-/);
  await taught.click();
  await page.waitForLoadState("load");
  assert.match(page.url(), /\/07-[a-z-]+\.html#region-/);
  assert.deepEqual(messages, [], messages.join("\n"));
  await page.close();
});

test("screenshots of the landing page, the notation page and chapters, light and dark, desktop and phone", async () => {
  fs.mkdirSync(shotDir, { recursive: true });
  const shots = ["index.html", "notation.html", shotChapter,
                 ...chapters.filter((f) => /^(21|25)-/.test(f))];
  for (const f of shots) assert.ok(pages.includes(f), `no page ${f} to photograph`);
  const written = [];
  for (const shot of shots) for (const scheme of ["light", "dark"]) {
    for (const viewport of [DESKTOP, PHONE]) {
      const stem = shot.replace(/\.html$/, "");
      const { page, messages } = await open(shot, { viewport });
      await page.evaluate(() => localStorage.removeItem("book-theme"));
      await page.emulateMedia({ colorScheme: scheme });
      await page.reload();
      await page.evaluate(() => document.fonts.ready);
      const file = path.join(shotDir, `${stem}-${scheme}-${viewport.width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      assert.ok(fs.statSync(file).size > 10000, `${file} is too small to show the page`);
      assert.deepEqual(messages, [], messages.join("\n"));
      written.push(path.relative(root, file));
      await page.close();
    }
  }
  console.log(`screenshots: ${written.join(", ")}`);
});
