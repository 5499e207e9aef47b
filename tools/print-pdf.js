// Prints the whole built book (the landing page, then every chapter in
// reading order) to one PDF with headless Chromium.
//
// usage: node tools/print-pdf.js [BOOK_DIR] [OUT.pdf]
//        (defaults: build/book and build/book.pdf)
//
// The chapters are put into one document so that page numbers run through
// the book and links between chapters become links inside the PDF: each
// chapter's <article> goes into a copy of the landing page, its ids
// prefixed with the chapter's stem. The book's print stylesheet does the
// rest (page breaks, no navigation, light colours); every <details>, such as
// an exercise's answer, is printed open.
"use strict";

const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");
const { launch } = require("./chromium.js");

const root = path.resolve(__dirname, "..");
const bookDir = path.resolve(process.argv[2] || path.join(root, "build", "book"));
const outFile = path.resolve(process.argv[3] || path.join(root, "build", "book.pdf"));

// Runs in the browser on a chapter page: its article with ids prefixed by
// the stem and links rewritten to point inside the combined document.
function chapterArticle(stems) {
  const stem = location.pathname.split("/").pop().replace(/\.html$/, "");
  const article = document.querySelector("article.page");
  if (!article) throw new Error(`${stem}: no <article class="page">`);
  const copy = article.cloneNode(true);
  copy.querySelectorAll("details").forEach((d) => (d.open = true));
  copy.querySelectorAll("button, .page-toc, .pager").forEach((n) => n.remove());
  // SVG keeps its ids: url(#...) references inside it must still match.
  const outsideSvg = (n) => !n.closest("svg");
  copy.querySelectorAll("[id]").forEach((n) => {
    if (outsideSvg(n)) n.id = `${stem}--${n.id}`;
  });
  copy.querySelectorAll("[aria-labelledby]").forEach((n) => {
    const ids = n.getAttribute("aria-labelledby").split(/\s+/);
    n.setAttribute("aria-labelledby", ids.map((i) => `${stem}--${i}`).join(" "));
  });
  copy.querySelectorAll("a[href]").forEach((a) => {
    if (!outsideSvg(a)) return;
    const href = a.getAttribute("href");
    const m = /^([^/#?:]+)\.html(?:#(.*))?$/.exec(href);
    if (href.startsWith("#")) {
      a.setAttribute("href", `#${stem}--${href.slice(1)}`);
    } else if (m && stems.includes(m[1])) {
      a.setAttribute("href", m[2] ? `#${m[1]}--${m[2]}` : `#${m[1]}`);
    } else {
      a.setAttribute("href", a.href); // absolute: API pages, other sites
    }
  });
  const title = article.querySelector("h1")?.textContent.trim() || stem;
  return { html: copy.outerHTML, title };
}

// Runs in the browser on the landing page: appends the chapters after it.
function assemble({ chapters, stems }) {
  const main = document.querySelector("main") || document.body;
  const landing = main.querySelector("article.page");
  landing.querySelectorAll("a[href]").forEach((a) => {
    const m = /^([^/#?:]+)\.html$/.exec(a.getAttribute("href"));
    if (m && stems.includes(m[1])) a.setAttribute("href", `#${m[1]}`);
  });
  landing.querySelectorAll(".pager, .page-toc").forEach((n) => n.remove());
  for (const { stem, html } of chapters) {
    const wrap = document.createElement("div");
    wrap.className = "print-chapter";
    wrap.id = stem;
    wrap.innerHTML = html;
    main.appendChild(wrap);
  }
  document.documentElement.classList.add("print-book");
}

function pageCount(file) {
  const text = fs.readFileSync(file).toString("latin1");
  return (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) || []).length;
}

// The PDF is one, has a page per chapter at least (each starts a page) and,
// where poppler's pdftotext is installed, holds every chapter's title.
function verify(file, chapters) {
  const head = fs.readFileSync(file).subarray(0, 5).toString("latin1");
  if (head !== "%PDF-") throw new Error(`${file}: not a PDF`);
  const pages = pageCount(file);
  if (pages < chapters.length + 1) {
    throw new Error(`${file}: ${pages} pages for a landing page and ${chapters.length} chapters`);
  }
  const run = require("child_process").spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], {
    encoding: "utf8",
    maxBuffer: 256 << 20,
  });
  if (run.error) return; // no poppler-utils: the page count must do
  if (run.status !== 0) throw new Error(`pdftotext ${file}: ${run.stderr}`);
  const text = run.stdout.replace(/\s+/g, " ");
  for (const { stem, title } of chapters) {
    if (!text.includes(title.replace(/\s+/g, " "))) {
      throw new Error(`${file}: the title of ${stem} ('${title}') is not in the PDF's text`);
    }
  }
}

async function main() {
  const index = path.join(bookDir, "index.html");
  if (!fs.existsSync(index)) {
    throw new Error(`no ${index}: build the book first (tools/build-book.sh)`);
  }
  const { context, close } = await launch({ colorScheme: "light" });
  const problems = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    await page.goto(pathToFileURL(index).href, { waitUntil: "load" });
    // The chapters in reading order, as the landing page lists them.
    const stems = await page.$$eval(".landing a[href$='.html']", (links) =>
      links
        .map((a) => a.getAttribute("href"))
        .filter((h) => /^[^/#?:]+\.html$/.test(h))
        .map((h) => h.replace(/\.html$/, ""))
    );
    if (!stems.length) throw new Error(`${index}: the landing page lists no chapters`);

    const reader = await context.newPage();
    reader.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    const chapters = [];
    for (const stem of stems) {
      const file = path.join(bookDir, `${stem}.html`);
      await reader.goto(pathToFileURL(file).href, { waitUntil: "load" });
      // A workbench (chapter 25) fills its tables once its WebAssembly
      // module has started; print it filled.
      await reader.waitForFunction(
        () => !document.querySelector("section.workbench:not(.workbench-ready)"),
        null, { timeout: 15000 });
      chapters.push({ stem, ...(await reader.evaluate(chapterArticle, stems)) });
    }
    await reader.close();

    await page.evaluate(assemble, { chapters, stems });
    await page.evaluate(async () => {
      await document.fonts.ready;
      document.title = document.querySelector(".book-title")?.textContent || document.title;
    });
    if (problems.length) throw new Error(problems.join("\n"));

    fs.mkdirSync(path.dirname(outFile), { recursive: true });
    const tmp = `${outFile}.tmp-${process.pid}`;
    await page.pdf({
      path: tmp,
      format: "A4",
      printBackground: true,
      margin: { top: "18mm", bottom: "20mm", left: "16mm", right: "16mm" },
      displayHeaderFooter: true,
      headerTemplate: "<span></span>",
      footerTemplate:
        '<div style="width:100%;font-size:8pt;color:#555;text-align:center;' +
        'font-family:sans-serif"><span class="pageNumber"></span> / ' +
        '<span class="totalPages"></span></div>',
      outline: true,
      tagged: true,
    });
    verify(tmp, chapters);
    fs.renameSync(tmp, outFile); // never a half-written or broken PDF
    console.log(`print-pdf: ${path.relative(process.cwd(), outFile) || outFile}: ` +
                `${pageCount(outFile)} pages, landing page + ` +
                `${stems.length} chapters`);
  } finally {
    await close();
  }
}

main().catch((e) => {
  console.error(`print-pdf: ${e.message}`);
  process.exit(1);
});
