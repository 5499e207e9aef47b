#!/usr/bin/env bash
# Sets everything up and builds the book; prints where it landed.
# The book's build is what a reader needs: the pages, the library, the
# demos, tinyllm. It leaves out the programs only the tests run (the
# exercise variants, the test programs; tools/test.sh builds them). Its
# log goes to build/book-build.log too, for the test book-build-warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --build build 2>&1 | tee build/book-build.log
echo
echo "The book is at: $(pwd)/build/book/index.html"
