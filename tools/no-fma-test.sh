#!/usr/bin/env bash
# The library has no fused multiply-add instruction in it. The fast code
# gives the simple code's bits only while every product and every sum is
# rounded on its own (chapter fast-kernels); the build's -ffp-contract=off
# is what keeps GCC from fusing them, and on a processor with AVX2 only
# the fast-equals-simple test would not notice if it stopped: only the
# tile's AVX-512 copy may fuse (GCC's avx512f target allows FMA, its avx2
# target does not). Three checks, on x86-64:
#  1. The detector works: matmul.cpp compiled with -ffp-contract=fast has
#     fused multiply-adds in the tile's AVX-512 copy, and they are found.
#  2. The library's archive holds that AVX-512 copy (so check 3 looks at
#     the code that could fuse).
#  3. No function in the archive has a fused multiply-add (vfmadd,
#     vfmsub, vfnmadd, vfnmsub and their mixes, any width or order); the
#     failure names each function and instruction.
# Usage: no-fma-test.sh CXX OBJDUMP LIBRARY SNIPPETS_DIR
set -euo pipefail
cxx=$1 objdump=$2 lib=$3 snippets=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Function and mnemonic of every fused multiply-add in object file $1.
fused() {
  "$objdump" -d --no-show-raw-insn "$1" |
    awk '/^[0-9a-f]+ <.*>:$/ { f = $2 }
         $2 ~ /^vfn?m(add|sub)/ { print f, $2 }'
}

status=0
"$cxx" -std=c++20 -O2 -ffp-contract=fast -I"$snippets" \
  -c "$snippets/llm/matmul.cpp" -o "$tmp/matmul-fused.o"
fused "$tmp/matmul-fused.o" > "$tmp/fused.txt"
if ! grep -q 'matmul_tile.*avx512f' "$tmp/fused.txt"; then
  echo "check 1: matmul.cpp with -ffp-contract=fast shows no fused multiply-add in the tile's AVX-512 copy: the detector or the tile changed"
  status=1
fi

"$objdump" -d "$lib" > "$tmp/lib.s"
if ! grep -q '<[^>]*matmul_tile[^>]*avx512f>:' "$tmp/lib.s"; then
  echo "check 2: $lib has no AVX-512 copy of matmul_tile"
  status=1
fi

found=$(fused "$lib")
if [[ -n $found ]]; then
  echo "check 3: fused multiply-adds in $lib (function, instruction):"
  sort <<< "$found" | uniq -c
  status=1
fi
[[ $status -eq 0 ]] &&
  echo "no fused multiply-add in $lib; the tile would fuse without -ffp-contract=off"
exit $status
