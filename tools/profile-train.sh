#!/usr/bin/env bash
# Where the book's training step spends its time, now and at an earlier
# commit ("before", as in tools/bench-train.sh): `perf record` samples
# bench_train's steps on one thread, and the samples are grouped by what
# the sampled function does. Prints one table: the milliseconds of CPU
# time per step in each group, before and now, and their ratio. Chapter
# fast-kernels quotes a run of it (BENCH_BEFORE=simple). The simple code
# has no tile kernel: its whole matrix product (chapter
# matrix-multiplication's scalar i-p-j loop) is "other code". A group
# holds the time spent in the sampled functions themselves: a function
# the compiler inlined counts in its caller's group.
#
# Needs perf (Debian's linux-perf) and permission to sample this process
# (kernel.perf_event_paranoid at most 2).
#
# usage: tools/profile-train.sh [STEPS] [THREADS]   (default 12 and 1)
#        BENCH_BEFORE=REV tools/profile-train.sh    compares with REV
#        BENCH_BEFORE=simple tools/profile-train.sh compares with the simple
#          code of the chapters before fast-kernels (tools/build-simple.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-12} threads=${2:-1}
((steps >= 2)) || { echo "profile-train: STEPS must be at least 2" >&2; exit 2; }
command -v perf > /dev/null ||
  { echo "profile-train: perf is missing (apt-get install linux-perf)" >&2; exit 1; }
[[ -f build/build.ninja ]] || tools/setup.sh
source tools/build-targets.sh
build_targets profile-train bench_train
source tools/bench-before.sh

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# sampled NAME BINARY N: CPU nanoseconds by group of a run of N steps
# (perf's sample periods, summed), in $out/NAME.N.
sampled() {
  perf record -q -e cpu-clock -F 2000 -o "$out/$1.$3.data" "$2" time "$3" "$threads" \
    > /dev/null 2> "$out/$1.err" || { cat "$out/$1.err" >&2; exit 1; }
  perf report -i "$out/$1.$3.data" --no-children --sort symbol --stdio \
    -F overhead,period,sym 2> /dev/null | /usr/bin/python3 -c '
import re, sys
groups = [  # the first pattern that matches the symbol names its group
    ("matrix product: tile kernel", r"matmul_tile"),
    ("matrix product: other code", r"matmul|pack_panel"),
    ("index arithmetic (at, offsets)",
     r"checked_offset|next_index|offset_of|Tensor::at\b|Tensor::set\b"),
    ("exp and log (libm)", r"\bexp\b|exp_fma|\blog\b|log_fma|expm1|__ieee754"),
    ("zeroing and copying memory", r"memset|memmove|memcpy|to_vector|contiguous"),
    ("elementwise, rows, gradient sums",
     r"llm::(map|zip|by_rows)\b|silu|sigmoid|llm::(add|sub|mul|div|neg)\("
     r"|accumulate|add_into|WindowSum::add"),
    ("reductions", r"::reduce\b|fold_slabs|llm::max\b|llm::sum\b"),
    ("AdamW and clipping", r"AdamW|global_norm|clip"),
    ("allocation (malloc, free)",
     r"malloc|free\b|cfree|_int_|unlink_chunk|operator new|operator delete"),
    ("kernel (page faults, syscalls)", r"\[k\]"),
]
ns = {name: 0 for name, _ in groups}
ns["everything else"] = 0
for line in sys.stdin:
    m = re.match(r"\s*[\d.]+%\s+(\d+)\s+(.*)", line)
    if not m:
        continue
    period, sym = int(m.group(1)), m.group(2)
    name = next((g for g, p in groups if re.search(p, sym)), "everything else")
    ns[name] += period
for name, v in ns.items():
    print("%s\t%d" % (name, v))
' > "$out/$1.$3"
}
# profile NAME BINARY: CPU milliseconds per step by group, in $out/NAME:
# a run of STEPS steps less a run of 1, over STEPS - 1, so that neither
# the setup (parameters, batches, the final digest) nor the first step's
# warm-up is counted.
profile() {
  sampled "$1" "$2" "$steps"
  sampled "$1" "$2" 1
  paste "$out/$1.$steps" "$out/$1.1" | awk -F'\t' -v n="$steps" \
    '{ printf "%s\t%.2f\n", $1, ($2 - $4) / 1e6 / (n - 1) }' > "$out/$1"
}
profile before "$before_bin"
profile now build/tools/bench_train

echo "CPU time per training step of the book's model (B 16 x T 64), $threads thread(s),"
echo "sampled by perf at 2000 Hz: a run of $steps steps less a run of 1; before = $before_sha"
printf '%-34s %10s %10s %8s\n' "what the sampled code does" "before ms" "now ms" "ratio"
paste "$out/before" "$out/now" | awk -F'\t' '
  { b += $2; n += $4
    printf "%-34s %10.2f %10.2f %8s\n", $1, $2, $4, ($2 > 0 && $4 > 0 ? sprintf("%.2f", $2 / $4) : "-") }
  END { printf "%-34s %10.2f %10.2f %8.2f\n", "total", b, n, b / n }'
