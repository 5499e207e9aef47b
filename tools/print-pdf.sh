#!/usr/bin/env bash
# Prints the whole book (landing page, then every chapter in reading order)
# to one PDF with headless Chromium: build/book.pdf unless OUT is given.
# Builds the book first (set-up included) unless --no-build.
#
# usage: tools/print-pdf.sh [--no-build] [OUT.pdf]
set -euo pipefail
cd "$(dirname "$0")/.."
build=1
out=build/book.pdf
for arg in "$@"; do
  case $arg in
    --no-build) build=0 ;;
    -h|--help) sed -n '2,7s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "print-pdf: unknown option '$arg'" >&2; exit 2 ;;
    *) out=$arg ;;
  esac
done
if ((build)); then
  tools/setup.sh
  cmake --build build
fi
node tools/print-pdf.js build/book "$out"
if command -v pdfinfo > /dev/null; then
  pdfinfo "$out" | grep -E '^(Pages|Page size|File size):' | sed 's/^/  /'
fi
