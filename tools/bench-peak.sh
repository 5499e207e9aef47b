#!/usr/bin/env bash
# How close the book's product comes to what one core can do, and how
# close OpenBLAS's comes, in one run (tools/bench-peak.cpp says what
# bench_peak measures). Adds OpenBLAS's double-precision product (Debian's
# OpenMP build, through PyTorch, on the kernels tools/openblas-core.sh
# picks; one thread) on the same shapes, as GFLOP/s and as fractions of
# the two peaks: the book's bits allow only the first (a multiply and
# an add, each rounded), OpenBLAS uses the second (fused multiply-add).
#
# PyTorch adds its own dispatch to every call, which can only lower
# OpenBLAS's rates, most on the small shapes.
#
# usage: tools/bench-peak.sh [REPETITIONS]   (1 to 1000, default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
[[ $reps =~ ^[1-9][0-9]{0,3}$ ]] && ((reps <= 1000)) ||
  { echo "bench-peak: REPETITIONS is '$reps', expected a number from 1 to 1000" >&2; exit 2; }
openblas=/usr/lib/$(gcc -print-multiarch)/openblas-openmp
source tools/install-missing.sh
install_missing bench-peak python3-torch libopenblas0-openmp
if [[ $(uname -m) == x86_64 ]]; then  # OpenBLAS's kernels for this processor
  source tools/openblas-core.sh
  openblas_core "$openblas/libopenblas.so.0"
  echo "$openblas_note"
fi

[[ -f build/build.ninja ]] || tools/setup.sh
out=$(mktemp)
trap 'rm -f "$out"' EXIT
source tools/build-targets.sh
build_targets bench-peak bench_peak
build/tools/bench_peak "$reps" | tee "$out"

# The peaks this run measured (GFLOP/s), for OpenBLAS's fractions.
separate=$(awk '/^peak, multiply then add/ { print $(NF - 1) }' "$out")
fused=$(awk '/^peak, fused multiply-add/ { print $(NF - 1) }' "$out")
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 LD_LIBRARY_PATH="$openblas" \
  /usr/bin/python3 - "$reps" "${separate:-0}" "${fused:-0}" <<'PY'
import sys, time
import torch
reps, separate, fused = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
torch.set_num_threads(1)
# The shapes bench_peak times, as (m, k, n, a transposed, b transposed).
shapes = [("512 x 512 x 512", 512, 512, 512, False, False),
          ("step: x W^T, [64, 96] x [96, 256]", 64, 96, 256, False, True),
          ("step: dY W, [64, 256] x [256, 96]", 64, 256, 96, False, False),
          ("step: dY^T X, [256, 64] x [64, 96]", 256, 64, 96, True, False),
          ("step: logits, [64, 96] x [96, 1026]", 64, 96, 1026, False, True),
          ("step: output's dW, [1026, 64] x [64, 96]", 1026, 64, 96, True, False)]
print("OpenBLAS through PyTorch %s, float64, one thread, best of %d runs"
      % (torch.__version__, reps))
print("%-48s %9s %9s %9s" % ("product", "GFLOP/s", "of peak", "of fused"))
for what, m, k, n, at, bt in shapes:
    g = torch.Generator().manual_seed(1)
    a = torch.randn(k, m, dtype=torch.float64, generator=g).t() if at else \
        torch.randn(m, k, dtype=torch.float64, generator=g)
    b = torch.randn(n, k, dtype=torch.float64, generator=g).t() if bt else \
        torch.randn(k, n, dtype=torch.float64, generator=g)
    flops = 2.0 * m * k * n
    times = max(1, int(1e8 / flops))  # as bench_peak does
    best = 1e300
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(times):
            torch.mm(a, b)
        best = min(best, time.perf_counter() - start)
    rate = flops * times / best / 1e9
    frac = lambda peak: "%9.2f" % (rate / peak) if peak > 0 else "%9s" % "-"
    print("%-48s %9.1f %s %s" % (what, rate, frac(separate), frac(fused)))
PY
