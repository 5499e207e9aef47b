#!/usr/bin/env bash
# Where the book's training step spends its time, now and at an earlier
# commit ("before", as in tools/bench-train.sh): `perf record` samples
# bench_train's steps on one thread, and the samples are grouped by what
# the sampled function does. Prints one table: the milliseconds of CPU
# time per step in each group, before and now, and their ratio. Chapter
# fast-kernels quotes a run of it (BENCH_BEFORE=simple). The simple code
# has no tile kernel: its whole matrix product, a loop over indices,
# falls in "rest of matmul".
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
command -v perf > /dev/null ||
  { echo "profile-train: perf is missing (apt-get install linux-perf)" >&2; exit 1; }
[[ -f build/build.ninja ]] || tools/setup.sh
cmake --build build --target bench_train > /dev/null
source tools/bench-before.sh

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# profile NAME BINARY: CPU milliseconds per step by group, in $out/NAME.
profile() {
  perf record -q -F 2000 -o "$out/$1.data" "$2" time "$steps" "$threads" \
    > /dev/null 2> "$out/$1.err" || { cat "$out/$1.err" >&2; exit 1; }
  perf report -i "$out/$1.data" --no-children --sort symbol --stdio \
    -F overhead,sample,sym 2> /dev/null | /usr/bin/python3 -c '
import re, sys
steps, hz = int(sys.argv[1]), 2000.0
groups = [  # the first pattern that matches the symbol names its group
    ("matrix product: tile kernel", r"matmul_tile"),
    ("matrix product: rest of matmul", r"matmul|pack_panel"),
    ("index arithmetic (at, offsets)",
     r"checked_offset|next_index|offset_of|Tensor::at\b|Tensor::set\b"),
    ("exp and log (libm)", r"\bexp\b|exp_fma|\blog\b|log_fma|expm1|__ieee754"),
    ("zeroing and copying memory", r"memset|memmove|memcpy|to_vector|contiguous"),
    ("elementwise (map, zip)", r"\bmap<|\bzip<|silu|sigmoid"),
    ("reductions", r"reduce<|fold_slabs|llm::max|llm::sum"),
    ("AdamW and clipping", r"AdamW|global_norm|clip"),
    ("kernel (page faults, threads)", r"\[k\]"),
]
ms = {name: 0.0 for name, _ in groups}
ms["everything else"] = 0.0
for line in sys.stdin:
    m = re.match(r"\s*[\d.]+%\s+(\d+)\s+(.*)", line)
    if not m:
        continue
    n, sym = int(m.group(1)), m.group(2)
    name = next((g for g, p in groups if re.search(p, sym)), "everything else")
    ms[name] += n / hz * 1000.0 / steps
for name, v in ms.items():
    print("%s\t%.2f" % (name, v))
' "$steps" > "$out/$1"
}
profile before "$before_bin"
profile now build/tools/bench_train

echo "CPU time per training step of the book's model (B 16 x T 64), $threads thread(s),"
echo "sampled by perf at 2000 Hz over $steps steps; before = $before_sha"
printf '%-34s %10s %10s %8s\n' "what the sampled code does" "before ms" "now ms" "ratio"
paste "$out/before" "$out/now" | awk -F'\t' '
  { b += $2; n += $4
    printf "%-34s %10.2f %10.2f %8s\n", $1, $2, $4, ($2 > 0 && $4 > 0 ? sprintf("%.2f", $2 / $4) : "-") }
  END { printf "%-34s %10.2f %10.2f %8.2f\n", "total", b, n, b / n }'
