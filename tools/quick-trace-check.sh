#!/usr/bin/env bash
# The -O0 check of a demo whose front matter says demo.quick (it trains
# for minutes): run it with BOOK_QUICK=1, so it does only its first steps,
# and require its trace.txt to equal the first lines of the trace the book
# build's full run published. Used by snapshot-test.sh; BOOK_CORPUS and
# BOOK_OUTPUTS come from the caller.
#
# usage: tools/quick-trace-check.sh EXE STEM OUTPUTS WORKDIR
set -euo pipefail
exe=$1 stem=$2 outputs=$3 work=$4
expected="$outputs/$stem/trace.txt"
[[ -s "$expected" ]] || { echo "quick $stem: no trace in $expected; build the book first" >&2; exit 1; }
rm -rf "$work/quick-out"
mkdir -p "$work/quick-out"
BOOK_QUICK=1 LITBOOK_OUT="$work/quick-out" "$exe" > "$work/quick-stdout.txt"
got="$work/quick-out/trace.txt"
[[ -s "$got" ]] || { echo "quick $stem: the quick run traced nothing" >&2; exit 1; }
lines=$(wc -l < "$got")
if ! diff -u <(head -n "$lines" "$expected") "$got"; then
  echo "quick $stem: the first $lines traced steps differ from the book build's" >&2
  exit 1
fi
echo "quick $stem: the first $lines traced steps equal the book build's"
