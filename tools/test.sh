#!/usr/bin/env bash
# Sets everything up, checks that snippets/ matches the chapters, builds
# the book (as tools/build-book.sh does, log and all), then the programs
# only the tests run (every exercise variant, the test programs), and
# runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
# The committed snippets must match the chapters. Checked with a litbook
# built on its own, because any build of the book's graph re-tangles first.
[[ -f build-tool/build.ninja ]] || cmake --preset tool > /dev/null
cmake --build build-tool --target litbook
build-tool/src/litbook tangle --check
cmake --build build 2>&1 | tee build/book-build.log
cmake --build build --target test_programs
ctest --preset default "$@"
