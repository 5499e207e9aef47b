#!/usr/bin/env bash
# Builds the simple reference of the fast-kernels chapter in DIR (default
# build/simple): the chapters' code without that chapter's revisions of
# earlier regions (`litbook tangle --without-revisions fast-kernels`),
# so every kernel is the one its own chapter taught, compiled with the
# book's flags and build type (tests/simple/CMakeLists.txt), with
# bench_train and tinyllm linked to it, and the demos SIMPLE_DEMOS names
# (stems separated by ";"; the test fast-equals-simple sets it). Prints
# the path of its bench_train. The chapters are the working tree's, edits included. The
# book's build must exist: its litbook, parsed chapters and build type
# are used (BOOK_BUILD names that build, default build/).
#
# A region that fast-kernels adds without revising stays, so the simple
# build keeps the threads, freed-memory reuse, by_rows and sole_data;
# what it loses are the revised kernels, tape and optimiser. Such a
# kept region may need what a left-out revision wrote (by_rows uses
# parallel_for, which only a revision's #include brings into ops.hpp);
# it compiles as long as nothing uses it, as by_rows is a template.
#
# usage: tools/build-simple.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
dir=$(realpath -m "${1:-build/simple}")
book=$(realpath -m "${BOOK_BUILD:-build}")
litbook=$book/src/litbook
[[ -x $litbook ]] || { echo "build-simple: $litbook is missing; build the book first (tools/build-book.sh)" >&2; exit 1; }
type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$book/CMakeCache.txt")

mkdir -p "$dir"
"$litbook" tangle --without-revisions fast-kernels --out "$dir/snippets" \
  --model-dir "$book/model" 2> "$dir/tangle.log" ||
  { cat "$dir/tangle.log" >&2; exit 1; }
cache=()
command -v ccache > /dev/null && cache=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Configured every time (quick when nothing changed), so that a change
# of the book's build type reaches this build too.
cmake -S tests/simple -B "$dir/build" -G Ninja "${cache[@]}" \
  -DCMAKE_BUILD_TYPE="${type:-RelWithDebInfo}" -DBOOK_SOURCE="$root" \
  -DSIMPLE_SNIPPETS="$dir/snippets" -DSIMPLE_DEMOS="${SIMPLE_DEMOS:-}" \
  > "$dir/configure.log" ||
  { cat "$dir/configure.log" >&2; exit 1; }
cmake --build "$dir/build" --target bench_train > "$dir/build.log" ||
  { cat "$dir/build.log" >&2; exit 1; }
echo "$dir/build/bench_train"
