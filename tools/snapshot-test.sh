#!/usr/bin/env bash
# The snapshot test of one chapter: tangle chapters 1..N, build that code
# at -O0 with demo N and the unit tests of chapters 1..N (the main
# build's warnings), run the tests, and check that demo N as of chapter N
# publishes exactly what the -O2 book build published for chapter N: its
# stdout, values, tables and figures, byte for byte. That one comparison
# shows both that later chapters did not change demo N's behaviour and
# that -O0 and -O2 agree; a demo that trains (demo.quick) is compared on
# its first steps' trace instead.
#
# usage: tools/snapshot-test.sh LITBOOK STEM WORKDIR UNIT_MANIFEST OUT_DIR [MODEL_DIR]
# (run from the project root; CTest does this as snapshot-STEM)
# MODEL_DIR is the book build's parsed chapters: tangle reuses a chapter's
# code from there when its key shows it came from the chapter's present
# text, and parses the chapter again otherwise, so the snapshot always
# holds the chapters as they are.
set -euo pipefail
litbook=$(realpath "$1") stem=$2 work=$(realpath -m "$3")
manifest=$(realpath "$4") outputs=$(realpath "$5")
models=()
[[ -n "${6:-}" ]] && models=(--model-dir "$(realpath "$6")")
root=$(pwd)

rm -rf "$work/snippets"
mkdir -p "$work"
"$litbook" tangle --upto "$stem" --out "$work/snippets" "${models[@]}" > "$work/tangle.log"

files="" tags=""
while read -r file chapter; do
  [[ -z "$file" ]] && continue
  if [[ ! "$chapter" > "$stem" ]]; then
    files+="$file;"
    tag="[${chapter#*-}]"  # the slug: 19-batches-adamw -> [batches-adamw]
    [[ ",$tags," == *",$tag,"* ]] || tags+="${tags:+,}$tag"
  fi
done < "$manifest"

# Consecutive snapshots compile mostly the same files (a chapter adds a few
# regions, the tests of earlier chapters do not change), so a compiler
# cache turns most of a snapshot's compiles into hits. Paths are made
# relative to the project root so that every snapshot directory hashes
# alike. ccache is installed by tools/setup.sh; without it every snapshot
# compiles everything, which is slower and checks the same.
cache=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  cache=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DSNAPSHOT_PCH=OFF)
fi

# -O0 compiles fastest, and comparing its outputs with the -O2 book's
# is the determinism check.
# Only this chapter's demo: each earlier demo has its own snapshot.
demo="" number=${stem%%-*}
sed -n '/^set(LITBOOK_DEMOS/,/^)/p' "$work/snippets/snippets.cmake" \
  | grep -qx " *$stem" && demo=$stem
cmake -S "$root/tests/snapshot" -B "$work/build" -G Ninja "${cache[@]}" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0" \
  -DSNAPSHOT_SNIPPETS="$work/snippets" -DBOOK_SOURCE="$root" \
  -DSNAPSHOT_DEMOS="$demo" \
  -DSNAPSHOT_TEST_FILES="${files%;}" > "$work/configure.log"
cmake --build "$work/build"

if [[ -n "$files" ]]; then
  echo "snapshot $stem: running unit tests $tags"
  "$work/build/unit_tests" "$tags"
fi

# Demos read other demos' published files (front matter demo.reads) from
# the book build's outputs.
export BOOK_OUTPUTS="$outputs"
if [[ -x "$work/build/ch$number" ]] &&
   grep -q "^set(LITBOOK_DEMO_ARGS_$stem .*--quick" "$work/snippets/snippets.cmake"; then
  "$root/tools/quick-trace-check.sh" "$work/build/ch$number" "$stem" "$outputs" "$work"
elif [[ -x "$work/build/ch$number" ]]; then
  [[ -d "$outputs/$stem" ]] || { echo "snapshot $stem: no $outputs/$stem; build the book first" >&2; exit 1; }
  # The chapter's own limit is for -O2; -O0 gets at least 600 s.
  timeout=$(sed -n "s/^set(LITBOOK_DEMO_ARGS_$stem .*--timeout \([0-9]*\).*/\1/p" \
            "$work/snippets/snippets.cmake")
  ((${timeout:-0} > 600)) || timeout=600
  # One run: the book build already ran it twice and compared the runs.
  rm -rf "$work/out"
  if ! "$litbook" run-demo --exe "$work/build/ch$number" --out "$work/out" \
         --chapter "chapters/$stem.md" --timeout "$timeout" --runs 1; then
    echo "snapshot $stem: the demo failed as of this chapter" >&2
    exit 1
  fi
  if ! diff -r "$outputs/$stem" "$work/out"; then
    echo "snapshot $stem: the demo as of this chapter at -O0 publishes something else than the book build did (a later chapter changed its behaviour, or -O0 and -O2 disagree)" >&2
    exit 1
  fi
  echo "snapshot $stem: the demo's outputs equal the book's, byte for byte"
fi
