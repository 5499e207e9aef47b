#!/usr/bin/env bash
# Sets everything up and builds the book; prints where it landed.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --build build
echo
echo "The book is at: $(pwd)/build/book/index.html"
