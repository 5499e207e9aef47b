#!/usr/bin/env bash
# Training throughput of the book's model, in tokens per second, in one
# run: the book's training step now, the same step as built from an
# earlier commit ("before", default HEAD~1, which after a merge is main
# before it), and PyTorch in float64 and float32, each at 1 and 2
# threads, as ratios; and the peak memory of each run.
#
# The book: chapter training's train_step (forward, backward, clipping by
# global norm, AdamW) on llm::book_model_config(), batches of B 16 x T 64,
# threads set with llm::set_threads. PyTorch: the same model rebuilt by
# tests/reference/model_torch.py from the same initial parameters, on the
# same batches, with torch.optim.AdamW, the same schedule and clipping
# (Debian's python3-torch). Its BLAS is OpenBLAS's OpenMP build
# (libopenblas0-openmp, which tools/setup.sh installs), chosen here with
# LD_LIBRARY_PATH whatever the system's default libblas.so.3 is: Debian's
# reference BLAS is about 8x slower and its pthread OpenBLAS about 3x
# slower at 2 threads, and neither is what a reader would compare with.
# Where OpenBLAS does not know the processor, tools/openblas-core.sh
# names the kernels it should run (OpenBLAS 0.3.21 on a recent Intel
# Xeon would otherwise run its generic ones, 7 to 8 times slower in
# float64).
#
# Each run takes STEPS steps; the first two are a warm-up and are not
# timed, and the median of the others gives seconds per step. Runs of
# the different sides alternate, so that a change in the machine's load
# falls on all of them. The book's losses must be the same bits at 1 and
# 2 threads (the script fails otherwise); against the earlier commit
# they are "same bits" unless a change between them redefined the step's
# arithmetic (then their largest relative difference is shown), and they
# agree with PyTorch float64's to about 1e-12.
#
# usage: tools/bench-train.sh [STEPS]   (default 12, at least 3)
#        BENCH_BEFORE=REV tools/bench-train.sh   compares with REV
#        BENCH_BEFORE=simple tools/bench-train.sh   compares with the
#          simple code of the chapters before fast-kernels (the same step)
#        BENCH_MODEL="D F B" tools/bench-train.sh   times a model of width
#          D, feed-forward width F and batch B instead, on every side: with
#          BENCH_MODEL="64 176 8" BENCH_BEFORE=488a69c, today's code and the
#          commit of December 2026 time the same step (the book's model of
#          then; an older bench_train ignores the extra arguments, and its
#          own model was that one)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
steps=${1:-12}
((steps >= 3)) || { echo "bench-train: STEPS must be at least 3" >&2; exit 2; }
read -r -a model <<< "${BENCH_MODEL:-}"
[[ ${#model[@]} == 0 || ${#model[@]} == 3 ]] ||
  { echo "bench-train: BENCH_MODEL is '$BENCH_MODEL', expected \"D F B\" (three numbers)" >&2; exit 2; }

openblas=/usr/lib/x86_64-linux-gnu/openblas-openmp
if ! /usr/bin/python3 -c "import torch" 2> /dev/null; then
  echo "bench-train: Debian's python3-torch is missing (tools/setup.sh installs it)" >&2
  exit 1
fi
if [[ ! -f $openblas/libblas.so.3 ]]; then
  echo "bench-train: $openblas/libblas.so.3 is missing (libopenblas0-openmp; tools/setup.sh installs it)" >&2
  exit 1
fi
# OpenBLAS's kernels for this processor, even where OpenBLAS does not
# know it (OPENBLAS_CORETYPE, exported for the PyTorch runs).
source tools/openblas-core.sh
openblas_core "$openblas/libopenblas.so.0"

# The book as it is now, and as it was at BEFORE, built in a worktree
# of its own (kept under build-bench/ for the next run).
[[ -f build/build.ninja ]] || tools/setup.sh
source tools/build-targets.sh
build_targets bench-train bench_train
source tools/bench-before.sh

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
build/tools/bench_train dump "$steps" "${model[@]}" > "$out/dump"

# run NAME CMD...: the step lines in $out/NAME, the peak resident memory
# of the process, in KiB, in $out/NAME.peak.
run() {
  local name=$1; shift
  /usr/bin/python3 - "$out/$name.peak" "$@" > "$out/$name" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[2:], check=True)
with open(sys.argv[1], "w") as f:
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=f)
PY
}
for threads in 1 2; do
  run "after$threads" build/tools/bench_train time "$steps" "$threads" "${model[@]}"
  run "before$threads" "$before_bin" time "$steps" "$threads" "${model[@]}"
  for dtype in float64 float32; do
    run "$dtype-$threads" env OMP_NUM_THREADS="$threads" \
      OPENBLAS_NUM_THREADS="$threads" LD_LIBRARY_PATH="$openblas" \
      /usr/bin/python3 tools/bench-train.py "$out/dump" "$threads" "$dtype"
  done
done

# The median seconds of steps 2 .. STEPS - 1 of one run.
median() {
  awk '$1 == "step" && $2 >= 2 { print $3 }' "$1" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# The largest relative difference between two runs' losses.
agree() {
  paste <(grep '^step' "$1") <(grep '^step' "$2") | /usr/bin/python3 -c '
import sys
worst = 0.0
for line in sys.stdin:
    w = line.split()
    a, b = float.fromhex(w[3]), float.fromhex(w[7])
    worst = max(worst, abs(a - b) / abs(b))
print("%.1e" % worst)'
}
# The losses, and the parameters' digest after the last step (a build
# before bench_train printed it has none).
losses() { awk '$1 == "step" { print $4 }' "$1"; }
digest() { awk '$1 == "params" { print $2 }' "$1"; }
same_bits() {
  cmp -s <(losses "$1") <(losses "$2") &&
    { [[ -z $(digest "$2") ]] || [[ $(digest "$1") == "$(digest "$2")" ]]; }
}

batch=${model[2]:-16}
tokens=$((batch * 64))
echo "load average (1, 5, 15 min) at the end: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
read -r _ vocab width layers heads ffn _ < "$out/dump"
echo "training step of the model V $vocab, d $width, N $layers, h $heads, f $ffn,"
echo "B $batch x T 64 = $tokens tokens, median of $((steps - 2)) steps after 2 of warm-up"
echo "before: $before_sha; PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)') on $openblas"
echo "$openblas_note"
printf '%-16s %7s %11s %10s %9s %16s\n' side threads "s per step" "tokens/s" "peak MiB" "loss vs book"
declare -A tps
for threads in 1 2; do
  for side in after before float64 float32; do
    name=$side$threads
    [[ $side == float* ]] && name=$side-$threads
    s=$(median "$out/$name")
    tps[$side$threads]=$(echo "$tokens / $s" | bc -l)
    case $side in
      after) label="book (now)"; a="-" ;;
      before) label="book ($before_sha)"
              a=$(same_bits "$out/after$threads" "$out/$name" \
                  && echo "same bits" || agree "$out/after$threads" "$out/$name")
              [[ $a == 0.0e+00 ]] && a="params differ" ;;
      *) label="PyTorch $side"; a=$(agree "$out/after$threads" "$out/$name") ;;
    esac
    printf '%-16s %7s %11.4f %10.0f %9.0f %16s\n' "${label:0:16}" "$threads" "$s" \
      "${tps[$side$threads]}" "$(echo "$(cat "$out/$name.peak") / 1024" | bc -l)" "$a"
  done
done
ratio() { printf '%.2f' "$(echo "${tps[$1]} / ${tps[$2]}" | bc -l)"; }
echo "ratios (tokens per second, measured in this run)"
for threads in 1 2; do
  echo "at $threads thread(s): now / before $(ratio after$threads before$threads);" \
       "now / PyTorch float64 $(ratio after$threads float64$threads);" \
       "now / PyTorch float32 $(ratio after$threads float32$threads)"
done
echo "2 threads / 1 thread: now $(ratio after2 after1); before $(ratio before2 before1);" \
     "PyTorch float32 $(ratio float322 float321)"
echo "now at 2 threads / before at 1 thread: $(ratio after2 before1)"
# A before whose losses are far from now's ran another model (an older
# bench_train knows only its own model, whatever BENCH_MODEL says).
for threads in 1 2; do
  worst=$(agree "$out/after$threads" "$out/before$threads")
  if /usr/bin/python3 -c "import sys; sys.exit(float(sys.argv[1]) <= 1e-6)" "$worst"; then
    echo "bench-train: the losses of $before_sha differ from now's by $worst: it ran another model (BENCH_MODEL='${BENCH_MODEL:-}')" >&2
    exit 1
  fi
done
same_bits "$out/after1" "$out/after2" ||
  { echo "bench-train: the book's losses or parameters differ between 1 and 2 threads" >&2; exit 1; }
