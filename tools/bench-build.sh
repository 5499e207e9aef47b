#!/usr/bin/env bash
# The build's speed, as an author feels it. In a separate build directory
# (build-bench), prints:
#   1. a clean build, split by phase (from Ninja's log): tool, parse,
#      tangle, compile, demos, check, render, API docs, publish, tests;
#      for each the summed time of its steps, its wall-clock span and the
#      most steps it ran at once; then the training demo's wall time;
#   2. a no-op rebuild;
#   3. a one-sentence prose edit against a bare Pandoc run
#      (tools/bench-prose-edit.sh);
#   4. a one-region code edit and what it recompiles and reruns.
#
# usage: tools/bench-build.sh [CHAPTER_STEM_FOR_EDITS]
set -euo pipefail
cd "$(dirname "$0")/.."
stem=${1:-08-tensor-views}
bench=build-bench
tools/setup.sh > /dev/null

echo "== clean build ($(nproc) cores) =="
rm -rf "$bench"
cmake -S . -B "$bench" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
t0=$(date +%s%N)
ninja -C "$bench" > /dev/null
t1=$(date +%s%N)
echo "total: $(( (t1 - t0) / 1000000 )) ms"
awk -F'\t' '
  NR == 1 { next }   # the log header
  # CMake names some outputs twice (relative and absolute); count a step once.
  seen[$1 "," $2 "," $5]++ { next }
  {
    out = $4
    phase = "other"
    if (out ~ /^src\/|litbook/) phase = "tool"
    if (out ~ /parse\.stamp|book-index/) phase = "parse"
    if (out ~ /tangle\.stamp/) phase = "tangle"
    if (out ~ /CMakeFiles\/(llm|ch[0-9]+|bookio)\.dir|libllm|^ch[0-9]+$|libbookio/) phase = "compile"
    if (out ~ /\.run\.stamp/) phase = "demos"
    if (out ~ /\.check\.stamp/) phase = "check"
    if (out ~ /^site\/|assets\.stamp/) phase = "render"
    if (out ~ /api\.stamp/) phase = "api docs"
    if (out ~ /publish\.stamp/) phase = "publish"
    if (out ~ /^tests\//) phase = "tests (build)"
    sum[phase] += $2 - $1
    if (!(phase in lo) || $1 < lo[phase]) lo[phase] = $1
    if ($2 > hi[phase]) hi[phase] = $2
    n++; ph[n] = phase; s[n] = $1; e[n] = $2
  }
  END {
    for (i = 1; i <= n; i++) {   # most steps of a phase running at once
      c = 0
      for (j = 1; j <= n; j++)
        if (ph[j] == ph[i] && s[j] <= s[i] && e[j] > s[i]) c++
      if (c > par[ph[i]]) par[ph[i]] = c
    }
    printf "%-14s %10s %10s %9s\n", "phase", "sum ms", "span ms", "parallel"
    split("tool parse tangle compile demos check render api docs publish tests (build) other", order, " ")
    for (k = 1; k <= 12; k++) {
      p = order[k]
      if (p == "api") p = "api docs"
      if (p == "docs" || p == "(build)") continue
      if (p == "tests") p = "tests (build)"
      if (p in sum) printf "%-14s %10d %10d %9d\n", p, sum[p], hi[p] - lo[p], par[p]
    }
  }' "$bench/.ninja_log"
# The training demo (chapter 29, both runs), which issue 12 bounds at five
# minutes of wall time inside the clean build.
awk -F'\t' '$4 ~ /29-training\.run\.stamp$/ && !seen[$1]++ {
  ms = $2 - $1
  printf "training (29-training demo, both runs): %d ms wall in the clean build, %s 5 minutes\n", ms, (ms <= 300000 ? "within" : "OVER")
}' "$bench/.ninja_log"

echo
echo "== no-op rebuild =="
for i in 1 2 3; do
  t0=$(date +%s%N); ninja -C "$bench" > /dev/null; t1=$(date +%s%N)
  echo "no-op: $(( (t1 - t0) / 1000000 )) ms"
done

echo
echo "== prose edit =="
BUILD_DIR=$bench tools/bench-prose-edit.sh "$stem" 5 2> /dev/null

echo
echo "== one-region code edit =="
chapter=chapters/$stem.md
backup=$(mktemp)
cp "$chapter" "$backup"
trap 'cp "$backup" "$chapter"; rm -f "$backup"; ninja -C "$bench" > /dev/null 2>&1 || true' EXIT
# Add a comment line at the top of the first library region.
line=$(grep -n '^```{\.cpp[^}]*file="llm/' "$chapter" | head -1 | cut -d: -f1 || true)
[[ -n "$line" ]] || line=$(grep -n '^```{\.cpp[^}]*fill=' "$chapter" | head -1 | cut -d: -f1 || true)
sed -i "$((line + 1))i // A comment added by the benchmark." "$chapter"
echo "edited $chapter: a comment line in the region opened at line $line"
t0=$(date +%s%N)
ninja -C "$bench" | grep '^\[' | sed 's/^/  /'
t1=$(date +%s%N)
echo "code edit rebuild: $(( (t1 - t0) / 1000000 )) ms"
