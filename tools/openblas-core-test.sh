#!/usr/bin/env bash
# tools/openblas-core.sh must give the benchmarks OpenBLAS's fast kernels
# on a processor OpenBLAS does not know, and leave a known processor and a
# caller's choice alone. The flag lists are the first words of
# /proc/cpuinfo's flags on each kind of processor, with the flags that
# decide; the kernel names are OpenBLAS's (its cpuid_x86.c and
# OPENBLAS_CORETYPE's documented values). Last, Debian's OpenMP OpenBLAS
# itself: with what openblas_core exports, it reports the kernels named.
#
# usage: tools/openblas-core-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/openblas-core.sh
fail() { echo "openblas-core-test: $*" >&2; exit 1; }

# openblas_coretype_for: the newest kernels the flags allow.
expect_type() {
  local got
  got=$(openblas_coretype_for "$2")
  [[ $got == "$1" ]] || fail "flags '$2': got '$got', expected '$1'"
}
sapphire="fpu sse2 ssse3 fma sse4_2 avx avx2 avx512f avx512dq avx512cd avx512bw avx512vl avx512_bf16 amx_tile"
skylake_sp="fpu sse2 ssse3 fma sse4_2 avx avx2 avx512f avx512dq avx512cd avx512bw avx512vl"
knights="fpu sse2 fma avx avx2 avx512f avx512pf avx512er avx512cd"  # no vl, bw, dq
haswell="fpu sse2 ssse3 fma sse4_2 avx avx2"
expect_type COOPERLAKE "$sapphire"
expect_type SKYLAKEX "$skylake_sp"
expect_type HASWELL "$knights"
expect_type HASWELL "${skylake_sp/ avx512cd/}"  # AVX-512 without CD
expect_type HASWELL "$haswell"
expect_type HASWELL "fpu avx512_fp16 fma avx2"  # avx512_fp16 is not avx512f
expect_type "" "fpu sse2 ssse3 sse4_2 avx"    # no AVX2: left to OpenBLAS
expect_type "" "fpu sse2 avx2"                # AVX2 without FMA

# openblas_core with a stand-in library: Prescott unless
# OPENBLAS_CORETYPE names other kernels.
openblas_corename() {
  case ${OPENBLAS_CORETYPE:-} in
    COOPERLAKE) echo Cooperlake ;; SKYLAKEX) echo SkylakeX ;;
    HASWELL) echo Haswell ;; *) echo "${stand_in:-Prescott}" ;;
  esac
}
( unset OPENBLAS_CORETYPE
  OPENBLAS_CPU_FLAGS=$sapphire openblas_core stand-in
  [[ ${OPENBLAS_CORETYPE:-} == COOPERLAKE ]] || fail "unknown processor: OPENBLAS_CORETYPE '${OPENBLAS_CORETYPE:-}'"
  [[ $openblas_note == "OpenBLAS kernels: Cooperlake (OPENBLAS_CORETYPE=COOPERLAKE: "* ]] ||
    fail "unknown processor: note '$openblas_note'" )
( unset OPENBLAS_CORETYPE
  stand_in=Zen OPENBLAS_CPU_FLAGS=$sapphire openblas_core stand-in
  [[ -z ${OPENBLAS_CORETYPE:-} ]] || fail "known processor: OPENBLAS_CORETYPE set"
  [[ $openblas_note == "OpenBLAS kernels: Zen" ]] || fail "known processor: note '$openblas_note'" )
( export OPENBLAS_CORETYPE=HASWELL
  OPENBLAS_CPU_FLAGS=$sapphire openblas_core stand-in
  [[ $OPENBLAS_CORETYPE == HASWELL ]] || fail "the caller's choice was replaced"
  [[ $openblas_note == *"set by the caller"* ]] || fail "caller's choice: note '$openblas_note'" )
( unset OPENBLAS_CORETYPE
  OPENBLAS_CPU_FLAGS="fpu sse2 avx" openblas_core stand-in
  [[ -z ${OPENBLAS_CORETYPE:-} ]] || fail "old processor: OPENBLAS_CORETYPE set"
  [[ $openblas_note == "OpenBLAS kernels: Prescott" ]] || fail "old processor: note '$openblas_note'" )

# The real library (tools/setup.sh installs it): after openblas_core, the
# kernels it reports are the ones openblas_core named, and on this
# machine's processor, if it has AVX2 and FMA, they are not Prescott.
source tools/openblas-core.sh  # the real openblas_corename again
lib=/usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0
[[ -f $lib ]] || fail "$lib is missing (libopenblas0-openmp; tools/setup.sh installs it)"
( unset OPENBLAS_CORETYPE
  openblas_core "$lib"
  running=$(openblas_corename "$lib")
  [[ $openblas_note == "OpenBLAS kernels: $running"* ]] || fail "note '$openblas_note', library runs $running"
  if [[ -n $(openblas_coretype_for "$(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2)") ]]; then
    [[ $running != Prescott ]] || fail "this processor has AVX2 and FMA, the library still runs Prescott"
  fi
  echo "openblas-core-test: $openblas_note" )
echo "openblas-core-test: passed"
