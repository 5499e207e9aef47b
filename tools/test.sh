#!/usr/bin/env bash
# Sets everything up, checks that snippets/ matches the chapters, builds
# the book and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --build build --target litbook
# Before the build re-tangles: the committed snippets must match.
build/src/litbook tangle --check
cmake --build build
ctest --preset default "$@"
