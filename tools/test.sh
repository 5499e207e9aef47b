#!/usr/bin/env bash
# Sets everything up, checks that snippets/ matches the chapters, builds
# the book and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
# The committed snippets must match the chapters. Checked with a litbook
# built on its own, because any build of the book's graph re-tangles first.
[[ -f build-tool/build.ninja ]] || cmake --preset tool > /dev/null
cmake --build build-tool --target litbook
build-tool/src/litbook tangle --check
cmake --build build
ctest --preset default "$@"
