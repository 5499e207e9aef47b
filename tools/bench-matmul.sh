#!/usr/bin/env bash
# Builds and runs the matrix-multiplication benchmark: the book's
# llm::matmul (loop order i-p-j) against a plain i-j-p triple loop, in
# double precision, at 256^3 and 512^3, best of REPETITIONS runs each.
# Prints seconds and GFLOP/s (2 m n k / seconds) and checks that both
# give the same result (exit status 1 if they differ).
#
# usage: tools/bench-matmul.sh [REPETITIONS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f build/build.ninja ]] || tools/setup.sh
source tools/build-targets.sh
build_targets bench-matmul bench_matmul
build/tools/bench_matmul "${1:-5}"
