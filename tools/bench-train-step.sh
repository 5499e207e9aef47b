#!/usr/bin/env bash
# Times one decoder block's training step (forward + backward; B = 4,
# T = 64, d_model = 128, h = 4, SwiGLU width 384) and the matmul at 256^3
# and 512^3, in one run, side by side with PyTorch float64 running the
# same block (RMSNorm, RoPE on adjacent pairs, causal softmax, SwiGLU) and
# with OpenBLAS cblas_dgemm, at 1 and 2 threads. Each time is the median
# of REPETITIONS runs. Prints the times and the ratios, then the peak
# memory (maximum resident set) of a process that runs one step and of
# one that runs REPETITIONS + 1 steps (equal if no step keeps memory).
#
# usage: tools/bench-train-step.sh [REPETITIONS]   (default 9)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-9}

# The outside references, from Debian (Debian's python3, not PATH's):
# PyTorch and cblas_dgemm both on OpenBLAS's OpenMP build, PyTorch's
# chosen with LD_LIBRARY_PATH as tools/bench-train.sh does, whatever
# the system's default libblas.so.3 is.
source tools/install-missing.sh
install_missing bench python3-torch python3-numpy libopenblas0-openmp time
dir=$(ls -d /usr/lib/x86_64-linux-gnu/openblas-openmp \
        /usr/lib/*/openblas-openmp 2>/dev/null | head -1 || true)
openblas=$dir/libopenblas.so.0
[[ -n "$dir" && -f $openblas && -f $dir/libblas.so.3 ]] ||
  { echo "bench: OpenBLAS's OpenMP build (libopenblas0-openmp) not found" >&2; exit 1; }
source tools/openblas-core.sh  # its kernels for this processor
openblas_core "$openblas"
echo "$openblas_note"

[[ -f build/build.ninja ]] || tools/setup.sh
source tools/build-targets.sh
build_targets bench-train-step bench_train_step
book=build/tools/bench_train_step

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for threads in 1 2; do
  "$book" "$reps" "$threads" > "$out/book$threads"
  OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads LD_LIBRARY_PATH="$dir" \
    /usr/bin/python3 - "$reps" "$threads" "$openblas" > "$out/ref$threads" <<'PY'
import ctypes, statistics, sys, time
import torch

reps, threads, openblas = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
torch.set_num_threads(threads)
dt = torch.float64
B, T, d, h, f, eps, base = 4, 64, 128, 4, 384, 1e-5, 10000.0
dh = d // h
g = torch.Generator().manual_seed(27)
def param(*shape, fan_in):
    return (torch.randn(*shape, generator=g, dtype=dt) / fan_in ** 0.5).requires_grad_()
w = {"n1": torch.ones(d, dtype=dt, requires_grad=True),
     "q": param(d, d, fan_in=d), "k": param(d, d, fan_in=d),
     "v": param(d, d, fan_in=d), "o": param(d, d, fan_in=d),
     "n2": torch.ones(d, dtype=dt, requires_grad=True),
     "gate": param(d, f, fan_in=d), "up": param(d, f, fan_in=d),
     "down": param(f, d, fan_in=f)}
x = torch.randn(B, T, d, generator=g, dtype=dt)
seed = torch.randn(B, T, d, generator=g, dtype=dt)
theta = base ** (-2.0 * torch.arange(dh // 2, dtype=dt) / dh)
angle = torch.arange(T, dtype=dt)[:, None] * theta[None, :]  # [T, dh/2]
cos, sin = torch.cos(angle), torch.sin(angle)
mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)

def rms_norm(x, gain):
    return x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps) * gain

def rope(x):  # [B, h, T, dh], pairs (2k, 2k+1) rotated by angle p theta_k
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack((a * cos - b * sin, a * sin + b * cos), -1).flatten(-2)

def heads(x):
    return x.reshape(B, T, h, dh).transpose(1, 2)

def block(x):
    n1 = rms_norm(x, w["n1"])
    q, k, v = rope(heads(n1 @ w["q"])), rope(heads(n1 @ w["k"])), heads(n1 @ w["v"])
    s = (q @ k.transpose(-2, -1)) / dh ** 0.5
    p = torch.softmax(s.masked_fill(mask, float("-inf")), -1)
    hh = x + (p @ v).transpose(1, 2).reshape(B, T, d) @ w["o"]
    n2 = rms_norm(hh, w["n2"])
    ffn = (torch.nn.functional.silu(n2 @ w["gate"]) * (n2 @ w["up"])) @ w["down"]
    return hh + ffn

def step():
    for p in w.values():
        p.grad = None
    (block(x) * seed).sum().backward()

def median(fn):
    fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)

print("block %.6f" % median(step))

# cblas_dgemm from OpenBLAS itself, on row-major float64 arrays.
blas = ctypes.CDLL(openblas)
blas.openblas_set_num_threads(threads)
c_int, c_double, ptr = ctypes.c_int, ctypes.c_double, ctypes.c_void_p
blas.cblas_dgemm.argtypes = [c_int, c_int, c_int, c_int, c_int, c_int,
                             c_double, ptr, c_int, ptr, c_int, c_double,
                             ptr, c_int]
for n in (256, 512):
    a = torch.randn(n, n, generator=g, dtype=dt)
    b = torch.randn(n, n, generator=g, dtype=dt)
    c = torch.zeros(n, n, dtype=dt)
    def gemm():  # 101 = row-major, 111 = no transpose
        blas.cblas_dgemm(101, 111, 111, n, n, n, 1.0, a.data_ptr(), n,
                         b.data_ptr(), n, 0.0, c.data_ptr(), n)
    print("matmul%d %.6f" % (n, median(gemm)))
PY
done

get() { awk -v k="$2" '$1 == k { print $2 }' "$out/$1"; }
echo "time per call, median of $reps (seconds); ratio = book / reference"
printf '%-12s %7s %12s %12s %9s\n' what threads book reference ratio
for threads in 1 2; do
  for what in block matmul256 matmul512; do
    b=$(get "book$threads" $what); r=$(get "ref$threads" $what)
    ref=$([[ $what == block ]] && echo "PyTorch" || echo "dgemm")
    printf '%-12s %7s %12s %12s %8.2fx  (%s)\n' $what $threads "$b" "$r" \
      "$(echo "$b / $r" | bc -l)" "$ref"
  done
done
echo "GFLOP/s = 2 n^3 / seconds; share = book / dgemm"
for threads in 1 2; do
  for n in 256 512; do
    b=$(get "book$threads" matmul$n); r=$(get "ref$threads" matmul$n)
    printf 'matmul%-6s %7s %12.2f %12.2f %8.2f\n' $n $threads \
      "$(echo "2 * $n^3 / $b / 10^9" | bc -l)" \
      "$(echo "2 * $n^3 / $r / 10^9" | bc -l)" "$(echo "$r / $b" | bc -l)"
  done
done
peak() {  # maximum resident set, KiB, of the book's program run with "$@"
  { /usr/bin/time -v "$book" "$@" > /dev/null; } 2>&1 |
    awk -F: '/Maximum resident/ { print $2 + 0 }'
}
for threads in 1 2; do
  echo "peak memory, $threads thread(s): one step $(peak 1 "$threads" step) KiB," \
       "$((reps + 1)) steps $(peak "$reps" "$threads" block) KiB"
done
