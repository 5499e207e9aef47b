#!/usr/bin/env bash
# Measures the book's BPE on the whole corpus: the time and the peak
# memory (maximum resident set size, from /usr/bin/time -v) of training
# llm::book_merge_count merges on the training split, then the time to
# encode every document of the corpus. Times are the best of REPETITIONS
# runs; the peak memory is that of a process that reads the corpus and
# trains once. Installs Debian's `time` if it is missing (as root).
#
# usage: tools/bench-bpe.sh [REPETITIONS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
source tools/install-missing.sh
install_missing bench-bpe time  # /usr/bin/time
[[ -f build/build.ninja ]] || tools/setup.sh
source tools/build-targets.sh
build_targets bench-bpe bench_bpe corpus
corpus=build/corpus/kjv.txt
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "bench-bpe: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
/usr/bin/time -v build/tools/bench_bpe "$corpus" train 1 2> "$log"
peak_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$log")
echo "train (one run): peak memory $((peak_kb / 1024)) MiB ($peak_kb kB)"
build/tools/bench_bpe "$corpus" train "$reps"
build/tools/bench_bpe "$corpus" encode "$reps" | tail -n 2
