#!/usr/bin/env bash
# Every demo must print the same bytes and publish the same values, tables
# and figures at -O0 as the book build does at -O2. Builds all chapters'
# code at -O0 and compares each demo's outputs with build/out.
#
# usage: tools/determinism-test.sh LITBOOK WORKDIR OUT_DIR
set -euo pipefail
litbook=$(realpath "$1") work=$(realpath -m "$2") outputs=$(realpath "$3")
root=$(pwd)
rm -rf "$work/snippets" "$work/out"
mkdir -p "$work"
"$litbook" tangle --out "$work/snippets"
cmake -S "$root/tests/snapshot" -B "$work/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g" \
  -DSNAPSHOT_SNIPPETS="$work/snippets" -DBOOK_SOURCE="$root" \
  -DSNAPSHOT_TEST_FILES="" > "$work/configure.log"
cmake --build "$work/build"
demos=$(sed -n '/^set(LITBOOK_DEMOS/,/^)/p' "$work/snippets/snippets.cmake" \
        | grep -v '^set\|^)' | tr -d ' ')
status=0
export BOOK_OUTPUTS="$outputs"
for stem in $demos; do
  # A demo that trains for minutes (demo.quick) is checked on its first
  # steps: its trace at -O0 must be a prefix of the book build's.
  if grep -q "^set(LITBOOK_DEMO_ARGS_$stem .*--quick" "$work/snippets/snippets.cmake"; then
    if "$root/tools/quick-trace-check.sh" "$work/build/demo-$stem" "$stem" \
         "$outputs" "$work/quick/$stem"; then
      echo "determinism: $stem traces the same first steps at -O0 and -O2"
    else
      echo "determinism: $stem differs between -O0 and -O2" >&2
      status=1
    fi
    continue
  fi
  "$litbook" run-demo --exe "$work/build/demo-$stem" --out "$work/out/$stem" \
    --chapter "chapters/$stem.md" --timeout 600
  if diff -r "$outputs/$stem" "$work/out/$stem"; then
    echo "determinism: $stem gives identical outputs at -O0 and -O2"
  else
    echo "determinism: $stem differs between -O0 and -O2" >&2
    status=1
  fi
done
[[ -n "$demos" ]] || { echo "determinism: no demos found" >&2; exit 1; }
exit $status
