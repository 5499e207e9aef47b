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

module.exports = { launch, CHROMIUM, ARGS };
