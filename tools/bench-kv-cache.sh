#!/usr/bin/env bash
# Wall-clock time per generated token with and without the key/value
# cache (chapter kv-cache), on a model of the book's trained size with
# seeded random weights, 1 thread (the library default): reading one token at each position
# 0 .. 63, cached (llm::decode_step) and uncached (llm::model_forward on
# the whole prefix). Each position's time is the median of REPETITIONS
# generations. Prints the total over the 64 positions both ways, the
# ratio, and the time per token at a few positions, each in wall-clock
# time and in the process's CPU time: on a busy machine a long uncached
# step is preempted more often than a short cached one, which inflates
# its wall-clock time (and the ratio) far more than its CPU time. The demo's figure
# counts multiply-adds instead, which do not depend on the machine.
#
# usage: tools/bench-kv-cache.sh [REPETITIONS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
[[ -f build/build.ninja ]] || tools/setup.sh
source tools/build-targets.sh
build_targets bench-kv-cache bench_kv_cache
out=$(build/tools/bench_kv_cache "$reps")
get() { awk -v k="$1" -v f="$2" '$1 == k { print $f }' <<< "$out"; }
echo "64 tokens, median of $reps runs per position, summed (seconds)"
printf '%-9s %12s %12s\n' "" wall-clock cpu
for w in cached uncached; do
  printf '%-9s %12.6f %12.6f   (%.1f and %.1f us per token)\n' $w \
    "$(get $w 2)" "$(get $w 3)" "$(echo "$(get $w 2) / 64 * 10^6" | bc -l)" \
    "$(echo "$(get $w 3) / 64 * 10^6" | bc -l)"
done
printf 'ratio uncached / cached: wall-clock %.2f, cpu %.2f\n' \
  "$(echo "$(get uncached 2) / $(get cached 2)" | bc -l)" \
  "$(echo "$(get uncached 3) / $(get cached 3)" | bc -l)"
echo "per token at position t (microseconds), wall-clock then cpu:"
echo "  t   cached uncached  ratio |   cached uncached  ratio"
for t in 0 15 31 63; do
  awk -v k="t$t" '$1 == k { printf "%3s %8.1f %8.1f %6.2f | %8.1f %8.1f %6.2f\n",
    substr(k, 2), $2 * 1e6, $3 * 1e6, $3 / $2, $4 * 1e6, $5 * 1e6, $5 / $4 }' <<< "$out"
done
echo "(multiply-adds, the demo's measure: uncached / cached = t + 1 exactly)"
