#!/usr/bin/env bash
# The snapshot test of one chapter: tangle chapters 1..N, build that code
# with its demos and the unit tests of chapters 1..N (the main build's
# flags), run the tests, and check that demo N as of chapter N prints
# exactly what the built book shows for chapter N.
#
# usage: tools/snapshot-test.sh LITBOOK STEM WORKDIR UNIT_MANIFEST OUT_DIR
# (run from the project root; CTest does this as snapshot-STEM)
set -euo pipefail
litbook=$(realpath "$1") stem=$2 work=$(realpath -m "$3")
manifest=$(realpath "$4") outputs=$(realpath "$5")
root=$(pwd)

rm -rf "$work/snippets"
mkdir -p "$work"
"$litbook" tangle --upto "$stem" --out "$work/snippets"

files="" tags=""
while read -r file chapter; do
  [[ -z "$file" ]] && continue
  if [[ ! "$chapter" > "$stem" ]]; then
    files+="$file;"
    tag="[ch${chapter%%-*}]"
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

# -O0 compiles fastest; the determinism test shows the demos print the
# same bytes at -O0 as the book's -O2 build.
cmake -S "$root/tests/snapshot" -B "$work/build" -G Ninja "${cache[@]}" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0" \
  -DSNAPSHOT_SNIPPETS="$work/snippets" -DBOOK_SOURCE="$root" \
  -DSNAPSHOT_TEST_FILES="${files%;}" > "$work/configure.log"
cmake --build "$work/build"

if [[ -n "$files" ]]; then
  echo "snapshot $stem: running unit tests $tags"
  "$work/build/unit_tests" "$tags"
fi

# Demos read other demos' published files (front matter demo.reads) from
# the book build's outputs.
export BOOK_OUTPUTS="$outputs"
if [[ -x "$work/build/demo-$stem" ]] &&
   grep -q "^set(LITBOOK_DEMO_ARGS_$stem .*--quick" "$work/snippets/snippets.cmake"; then
  "$root/tools/quick-trace-check.sh" "$work/build/demo-$stem" "$stem" "$outputs" "$work"
elif [[ -x "$work/build/demo-$stem" ]]; then
  expected="$outputs/$stem/stdout.txt"
  [[ -f "$expected" ]] || { echo "snapshot $stem: no $expected; build the book first" >&2; exit 1; }
  if ! "$work/build/demo-$stem" > "$work/demo-stdout.txt"; then
    echo "snapshot $stem: the demo failed as of this chapter" >&2
    exit 1
  fi
  if ! diff -u "$expected" "$work/demo-stdout.txt"; then
    echo "snapshot $stem: the demo as of this chapter prints something else than the book shows (a later chapter changed its behaviour)" >&2
    exit 1
  fi
  echo "snapshot $stem: demo output matches the book"
fi
