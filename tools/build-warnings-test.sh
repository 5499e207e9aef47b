#!/usr/bin/env bash
# The book's build (`cmake --build build`, what tools/build-book.sh runs)
# prints no compiler warning. Two checks:
#  1. Every C++ compile in it (ninja's target `all`) by the project's
#     compiler has -Werror and neither -Wno-error nor -w, so that a
#     warning stops the build rather than scrolling past. This is what
#     failed when the exercise variants, compiled with
#     -Wno-error=unused-variable, were part of the book's build.
#  2. The log of the last book build, BUILD_DIR/book-build.log (written by
#     tools/build-book.sh and tools/test.sh), has no "warning:" line. It
#     covers what check 1 cannot see, such as the WebAssembly objects of
#     the library, compiled without -Werror on purpose
#     (cmake/Workbench.cmake). A build that compiled nothing logs none.
# Usage: build-warnings-test.sh NINJA CXX BUILD_DIR
set -euo pipefail
ninja=$1 cxx=$2 build=$3

bad=$("$ninja" -C "$build" -t commands all |
      awk -v cxx=" $cxx " 'index($0, cxx) && / -c / &&
                           (!/-Werror/ || /-Wno-error/ || / -w /)')
status=0
if [[ -n $bad ]]; then
  echo "compiles in the book's build that may print a warning and go on:"
  grep -o -- " -c [^ ]*" <<< "$bad" | sed 's/^ -c /  /' | sort -u
  status=1
fi

log=$build/book-build.log
if [[ ! -f $log ]]; then
  echo "no $log: run tools/build-book.sh or tools/test.sh (check 2 skipped)"
elif grep -n "warning:" "$log"; then
  echo "the last book build printed the warnings above ($log)"
  status=1
fi
[[ $status -eq 0 ]] && echo "the book's build compiles with -Werror and printed no warning"
exit $status
