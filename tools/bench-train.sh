#!/usr/bin/env bash
# Training throughput of the book's model, in tokens per second, against
# PyTorch, in one run. The book: chapter 29's train_step (forward,
# backward, clipping by global norm, AdamW) on llm::book_model_config(),
# batches of B 8 x T 64, at 1 and 2 threads of the library
# (llm::set_threads). PyTorch: the same model in float64, rebuilt by
# tests/reference/model_torch.py, from the same initial parameters on the
# same batches with torch.optim.AdamW, the same schedule and clipping, at
# torch.set_num_threads 1 and 2 (Debian's python3-torch on OpenBLAS).
#
# Each side runs STEPS steps per thread count; the first two are a
# warm-up and are not timed, and the median of the others gives seconds
# per step and tokens per second (B T / seconds). The losses of the two
# sides are compared step by step, to show that the two programs train
# the same model (float64 on both sides, so they agree to about 1e-12).
# tools/bench-train-step.sh times the parts (one decoder block's forward
# and backward, the matmul); this script times the whole step a training
# run repeats, optimiser and clipping included.
#
# usage: tools/bench-train.sh [STEPS]   (default 12, at least 3)
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-12}
((steps >= 3)) || { echo "bench-train: STEPS must be at least 3" >&2; exit 2; }

if ! /usr/bin/python3 -c "import torch" 2> /dev/null; then
  echo "bench-train: Debian's python3-torch is missing (tools/setup.sh installs it)" >&2
  exit 1
fi
[[ -f build/build.ninja ]] || tools/setup.sh
cmake --build build --target bench_train > /dev/null
book=build/tools/bench_train

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$book" dump "$steps" > "$out/dump"
for threads in 1 2; do
  "$book" time "$steps" "$threads" > "$out/book$threads"
  OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads \
    /usr/bin/python3 tools/bench-train.py "$out/dump" "$threads" \
    > "$out/torch$threads"
done

# The median seconds of steps 2 .. STEPS - 1 of one run.
median() {
  awk '$1 == "step" && $2 >= 2 { print $3 }' "$1" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# The largest relative difference between the two runs' losses.
agree() {
  paste "$1" "$2" | /usr/bin/python3 -c '
import sys
worst = 0.0
for line in sys.stdin:
    w = line.split()
    a, b = float.fromhex(w[3]), float.fromhex(w[7])
    worst = max(worst, abs(a - b) / abs(b))
print("%.1e" % worst)'
}

tokens=$((8 * 64))
# Timings on a shared machine mean little without its load.
echo "load average (1, 5, 15 min) at the end: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "training step of the book's model (V 1026, d 64, N 2, h 4, f 176),"
echo "B 8 x T 64 = $tokens tokens, median of $((steps - 2)) steps after 2 of warm-up"
printf '%-8s %7s %12s %12s %14s\n' side threads "s per step" "tokens/s" "loss agrees"
declare -A tps
for threads in 1 2; do
  for side in book torch; do
    s=$(median "$out/$side$threads")
    tps[$side$threads]=$(echo "$tokens / $s" | bc -l)
    a=$([[ $side == torch ]] && agree "$out/book$threads" "$out/torch$threads" || echo "-")
    printf '%-8s %7s %12.4f %12.0f %14s\n' \
      "$([[ $side == book ]] && echo book || echo PyTorch)" "$threads" "$s" \
      "${tps[$side$threads]}" "$a"
  done
done
echo "ratios (tokens per second, measured in this run)"
for threads in 1 2; do
  printf 'book / PyTorch at %s thread(s): %.2f\n' "$threads" \
    "$(echo "${tps[book$threads]} / ${tps[torch$threads]}" | bc -l)"
done
printf 'book 2 threads / 1 thread: %.2f; PyTorch 2 threads / 1 thread: %.2f\n' \
  "$(echo "${tps[book2]} / ${tps[book1]}" | bc -l)" \
  "$(echo "${tps[torch2]} / ${tps[torch1]}" | bc -l)"
