# Sourced by the benchmarks that compare with OpenBLAS (bench-train.sh,
# bench-train-step.sh). OpenBLAS picks its kernels for the processor it
# finds when it loads. A release older than the processor does not know
# it and falls back to its generic x86-64 kernels, "Prescott": OpenBLAS
# 0.3.21 (Debian 12's) on an Intel Xeon of family 6, model 207 multiplies
# 512 x 512 float64 matrices 7 to 8 times slower with them than with its
# Cooperlake kernels (one thread, two measurements on a shared machine:
# 4.1 against 32.8 GFLOP/s and 9.2 against 60-70). A benchmark against
# that fallback measures the wrong thing.
#
# openblas_core LIB: when the OpenBLAS library LIB would run Prescott on a
# processor with AVX2 or AVX-512, exports OPENBLAS_CORETYPE naming the
# newest kernels the processor's flags allow (which every later process,
# PyTorch included, then loads); a caller's own OPENBLAS_CORETYPE is kept.
# Sets openblas_note to a line saying which kernels run, and why.
# OPENBLAS_CPU_FLAGS replaces /proc/cpuinfo's flags (for the test).

# The kernels LIB picks in a new process, under the current environment.
openblas_corename() {
  /usr/bin/python3 -c '
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.openblas_get_corename.restype = ctypes.c_char_p
print(lib.openblas_get_corename().decode())' "$1"
}

# The OPENBLAS_CORETYPE for the processor flags $1 (space-separated), or
# nothing for a processor without AVX2 and FMA (left to OpenBLAS).
openblas_coretype_for() {
  local flags=" $1 "
  if [[ $flags == *" avx512f "* && $flags == *" avx512cd "* &&
        $flags == *" avx512vl "* && $flags == *" avx512bw "* &&
        $flags == *" avx512dq "* ]]; then
    if [[ $flags == *" avx512_bf16 "* ]]; then echo COOPERLAKE; else echo SKYLAKEX; fi
  elif [[ $flags == *" avx2 "* && $flags == *" fma "* ]]; then
    echo HASWELL
  fi
}

openblas_core() {
  local lib=$1 core want flags
  core=$(openblas_corename "$lib")
  if [[ -n ${OPENBLAS_CORETYPE:-} ]]; then
    openblas_note="OpenBLAS kernels: $core (OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE, set by the caller)"
    return 0
  fi
  openblas_note="OpenBLAS kernels: $core"
  [[ $core == Prescott ]] || return 0
  flags=${OPENBLAS_CPU_FLAGS:-$(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2)}
  want=$(openblas_coretype_for "$flags")
  [[ -n $want ]] || return 0
  export OPENBLAS_CORETYPE=$want
  openblas_note="OpenBLAS kernels: $(openblas_corename "$lib") (OPENBLAS_CORETYPE=$want: this OpenBLAS does not know the processor and would run Prescott)"
}
