#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer
# (the demos run under them too, as part of the book build) and runs the
# unit and tool tests.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --preset sanitize > /dev/null
cmake --build --preset sanitize
cmake --build --preset sanitize --target test_programs
ctest --preset sanitize "$@"
