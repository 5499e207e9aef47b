#!/usr/bin/env bash
# Measures what an author waits for after a one-sentence prose edit: the
# incremental build (which must compile nothing and run no demo) against a
# bare Pandoc run of the same chapter. Prints Ninja's plan and the times.
#
# usage: tools/bench-prose-edit.sh [CHAPTER_STEM] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
stem=${1:-07-tensor-storage}
runs=${2:-7}
chapter=chapters/$stem.md
[[ -f $chapter ]] || { echo "no $chapter" >&2; exit 1; }
build=${BUILD_DIR:-build}
[[ -f $build/build.ninja ]] || tools/setup.sh
cmake --build "$build" > /dev/null

backup=$(mktemp)
cp "$chapter" "$backup"
restore() { cp "$backup" "$chapter"; rm -f "$backup"; cmake --build "$build" > /dev/null 2>&1 || true; }
trap restore EXIT

# The first prose line after the front matter, outside code fences.
line=$(awk '
  NR == 1 && /^---$/ { front = 1; next }
  front && /^---$/ { front = 0; next }
  front { next }
  /^ *(```|~~~)/ { fence = !fence; next }
  !fence && /^[A-Za-z]/ { print NR; exit }' "$chapter")
echo "chapter: $chapter (editing line $line)"

edit() {  # appends or removes one sentence on that line
  if grep -q " Benchmark sentence\.$" <(sed -n "${line}p" "$chapter"); then
    sed -i "${line}s/ Benchmark sentence\.\$//" "$chapter"
  else
    sed -i "${line}s/\$/ Benchmark sentence./" "$chapter"
  fi
}

now() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

edit
echo
# ninja -n cannot know which outputs a step leaves unchanged (restat), so
# it over-reports; the edges a real build runs are the true plan.
echo "Edges Ninja runs after the edit:"
plan=$(ninja -C "$build" | grep '^\[' || true)
echo "$plan" | sed 's/^/  /'
if grep -Eq 'Building|Linking|Running the demo' <<< "$plan"; then
  echo "FAIL: a prose edit recompiled code or reran a demo" >&2
  exit 1
fi
echo

build_times=()
for ((i = 0; i < runs; i++)); do
  edit
  t0=$(now); ninja -C "$build" > /dev/null; t1=$(now)
  build_times+=($(( (t1 - t0) / 1000000 )))
done
pandoc_times=()
for ((i = 0; i < runs; i++)); do
  t0=$(now)
  pandoc -f commonmark_x -t html5 --katex "$chapter" -o /dev/null
  t1=$(now)
  pandoc_times+=($(( (t1 - t0) / 1000000 )))
done
plain_times=()
for ((i = 0; i < runs; i++)); do
  t0=$(now)
  pandoc -f commonmark_x -t html5 --katex --no-highlight "$chapter" -o /dev/null
  t1=$(now)
  plain_times+=($(( (t1 - t0) / 1000000 )))
done
noop_times=()
for ((i = 0; i < runs; i++)); do
  t0=$(now); ninja -C "$build" > /dev/null; t1=$(now)
  noop_times+=($(( (t1 - t0) / 1000000 )))
done
b=$(printf '%s\n' "${build_times[@]}" | median)
p=$(printf '%s\n' "${pandoc_times[@]}" | median)
q=$(printf '%s\n' "${plain_times[@]}" | median)
n=$(printf '%s\n' "${noop_times[@]}" | median)
echo "runs: $runs (medians)"
echo "prose edit rebuild (ninja):        ${b} ms   [${build_times[*]}]"
echo "bare pandoc (commonmark_x -> html): ${p} ms   [${pandoc_times[*]}]"
echo "bare pandoc, --no-highlight:        ${q} ms   [${plain_times[*]}]"
echo "no-op rebuild (ninja):             ${n} ms"
awk -v b="$b" -v p="$p" -v q="$q" 'BEGIN {
  printf "ratio rebuild / pandoc: %.2f (%.2f against --no-highlight)\n", b / p, b / q }'
