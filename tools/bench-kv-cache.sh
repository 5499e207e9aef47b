#!/usr/bin/env bash
# Wall-clock time per generated token with and without the key/value
# cache (chapter kv-cache), on a model of the book's trained size with
# seeded random weights, 1 thread (the library default): reading one token at each position
# 0 .. 63, cached (llm::decode_step) and uncached (llm::model_forward on
# the whole prefix). Each position's time is the median of REPETITIONS
# generations. Prints the total over the 64 positions both ways, the
# ratio, and the time per token at a few positions. The demo's figure
# counts multiply-adds instead, which do not depend on the machine.
#
# usage: tools/bench-kv-cache.sh [REPETITIONS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
[[ -f build/build.ninja ]] || tools/setup.sh
cmake --build build --target bench_kv_cache > /dev/null
out=$(build/tools/bench_kv_cache "$reps")
get() { awk -v k="$1" '$1 == k { print $2 }' <<< "$out"; }
c=$(get cached); u=$(get uncached)
echo "64 tokens, median of $reps runs per position (seconds)"
printf 'cached   %.6f s  (%.1f us per token)\n' "$c" "$(echo "$c / 64 * 10^6" | bc -l)"
printf 'uncached %.6f s  (%.1f us per token)\n' "$u" "$(echo "$u / 64 * 10^6" | bc -l)"
printf 'ratio uncached / cached: %.2f\n' "$(echo "$u / $c" | bc -l)"
echo "per token at position t (microseconds): cached, uncached, ratio"
for t in 0 15 31 63; do
  awk -v k="t$t" '$1 == k { printf "t = %-3s %10.1f %10.1f %8.2f\n",
    substr(k, 2), $2 * 1e6, $3 * 1e6, $3 / $2 }' <<< "$out"
done
