// Starts Debian's Chromium through playwright-core (which downloads no
// browser), headless, with a fresh profile and no background networking:
// the machines that build the book reach no network but package
// registries. Used by tools/print-pdf.js and the tests in tests/browser/.
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");

const CHROMIUM = process.env.BOOK_CHROMIUM || "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function loadPlaywright() {
  try {
    return require("playwright-core");
  } catch (e) {
    throw new Error(
      "playwright-core is not installed: run tools/setup.sh (npm ci) first\n" + e.message
    );
  }
}

/** A persistent context in a new, empty user data directory; close() removes it. */
async function launch(options = {}) {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: run tools/setup.sh (apt-get install chromium)`);
  }
  const { chromium } = loadPlaywright();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "book-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
    colorScheme: "light",
    ...options,
  });
  const close = async () => {
    try {
      await context.close();
    } finally {
      fs.rmSync(profile, { recursive: true, force: true });
    }
  };
  return { context, close };
}

/**
 * Opens `href` in a new tab of `context` at `viewport` (and, if given,
 * colour `scheme`), recording every console error, warning and assert,
 * page error and failed request in `messages`, during the load and after.
 */
async function openPage(context, href, { viewport, scheme } = {}) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  if (scheme) await page.emulateMedia({ colorScheme: scheme });
  const messages = [];
  page.on("console", (m) => {
    if (["error", "warning", "assert"].includes(m.type())) {
      messages.push(`console ${m.type()}: ${m.text()}`);
    }
  });
  page.on("pageerror", (e) => messages.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => messages.push(`failed to load ${r.url()}: ${r.failure()?.errorText}`));
  await page.goto(href, { waitUntil: "load" });
  return { page, messages };
}

module.exports = { launch, openPage, CHROMIUM, ARGS };
