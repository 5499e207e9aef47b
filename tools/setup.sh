#!/usr/bin/env bash
# Installs what the book needs on Debian 12 (as root), then configures the
# build. Idempotent: installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ ccache pandoc doxygen catch2 libjs-katex
          nlohmann-json3-dev libfmt-dev nodejs
          emscripten   # the workbench of chapter 25 (its system libraries come prebuilt)
          chromium poppler-utils   # browser tests and the PDF
          python3-torch python3-numpy   # the outside reference (AdamW)
          libopenblas0-openmp   # PyTorch's BLAS in tools/bench-train.sh
          bible-kjv bible-kjv-text)   # the corpus: the King James Bible
# Debian's nodejs comes without npm; a Node.js that bundles it needs none.
command -v npm > /dev/null || packages+=(npm)
source tools/install-missing.sh
install_missing setup "${packages[@]}"

# playwright-core for the browser tests and the PDF, exactly as the lockfile
# pins it (it downloads no browser: the tests drive /usr/bin/chromium), and
# commonmark-spec, whose examples the tool tests render.
# Reinstalled only when node_modules is missing or the lockfile changed.
node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' ||
  echo "setup: warning: playwright-core needs Node.js 20 or later; the browser" \
       "tests and tools/print-pdf.sh may fail with node $(node --version)" >&2
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ ! -d node_modules/playwright-core ||
      $(cat node_modules/.setup-lock.sha256 2>/dev/null) != "$lock_sum" ]]; then
  echo "setup: npm ci (package-lock.json)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund \
    --loglevel=error > /dev/null
  echo "$lock_sum" > node_modules/.setup-lock.sha256
fi

# CMake runs first when litbook's own list of sources changed (a pulled
# commit that adds a file to src/CMakeLists.txt). Ninja itself would not
# manage: it brings build.ninja up to date before anything else, and that
# means tangling (snippets/snippets.cmake, one of CMake's inputs, is the
# tangle's output), so it would link litbook from the old build.ninja.
if [[ ! -f build/build.ninja || src/CMakeLists.txt -nt build/build.ninja ]]; then
  cmake --preset default > /dev/null
fi
