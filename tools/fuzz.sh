#!/usr/bin/env bash
# Builds the chapter-parser fuzz target with clang and runs it.
# usage: tools/fuzz.sh [SECONDS]   (default 300)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
cmake --preset fuzz > /dev/null
cmake --build build-fuzz --target fuzz_chapter
mkdir -p build-fuzz/corpus
build-fuzz/tests/fuzz/fuzz_chapter -max_total_time="$seconds" \
  -print_final_stats=1 build-fuzz/corpus tests/fuzz/corpus
