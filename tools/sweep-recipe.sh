#!/usr/bin/env bash
# The measurements behind the book's training recipe: trains candidate
# models with the build's tinyllm on both cores, scores each on the whole
# validation split (`tinyllm eval --split validation`), and scores on the
# test split only the run that validation chose, plus that recipe again
# with four more seeds for its spread.
#
# Each candidate is a size and a number of steps, chosen so that the runs
# take about the same time on this project's two-core machine (the wall
# time is printed beside each result, so a reader's machine shows its own
# trade-off). Every run uses tinyllm's defaults for what is not listed.
#
# usage: tools/sweep-recipe.sh [sizes|frontier|speed|seeds|all]  (default all)
#   sizes     one run per candidate: validation bits per byte and wall time
#   frontier  each candidate at a quarter, a half and all of its steps,
#             and d = 96 at twice its steps: one tab-separated line per
#             run (name, d, f, steps, tokens, parameters, wall seconds,
#             validation bits per byte), the measurements behind
#             chapter 29's figure (about half an hour on two idle cores)
#   speed     CPU seconds per training step of each candidate on one
#             thread (41 steps minus 1 step, so the set-up cancels), twice
#   seeds     the chosen recipe (tinyllm train's defaults) with seeds 29
#             to 33: validation and test bits per byte of each, the
#             mean and standard deviation of the test scores; seed 29
#             must score exactly as the build's checkpoint, since it is
#             the training chapter's run
# Takes about 4 minutes per run on two idle cores. Writes its checkpoints
# to a temporary directory that it removes.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
case $what in sizes|frontier|speed|seeds|all) ;; *)
  echo "usage: tools/sweep-recipe.sh [sizes|frontier|speed|seeds|all]" >&2
  exit 2 ;;
esac
[[ -x build/tinyllm ]] || tools/build-book.sh > /dev/null
export BOOK_CORPUS=${BOOK_CORPUS:-$PWD/build/corpus/kjv.txt}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# bpb SPLIT CHECKPOINT: the split's bits per byte.
bpb() {
  build/tinyllm eval --split "$1" --checkpoint "$2" |
    awk '/^loss/ { print $(NF - 3) }'
}

# run NAME OPTIONS...: trains, prints NAME, the options, wall seconds and
# validation bits per byte.
run() {
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  build/tinyllm train --out "$out/$name.ckpt" --threads 2 --log-every 100000000 \
    "$@" > "$out/$name.log"
  end=$(date +%s.%N)
  printf '%-4s %-44s %6.0f s  validation %s\n' "$name" "$*" \
    "$(echo "$end - $start" | bc)" "$(bpb validation "$out/$name.ckpt")"
}

# point NAME D F STEPS: trains d = D, f = F for STEPS steps of 16 windows
# and prints one tab-separated line of the frontier.
point() {
  local name=$1 d=$2 f=$3 steps=$4 start end
  start=$(date +%s.%N)
  build/tinyllm train --out "$out/$name.ckpt" --threads 2 \
    --log-every 100000000 --d-model "$d" --ffn "$f" --batch 16 \
    --steps "$steps" > "$out/$name.log"
  end=$(date +%s.%N)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%s\n' "$name" "$d" "$f" "$steps" \
    $((steps * 16 * 64)) \
    "$(awk '/parameters/ { print $3; exit }' "$out/$name.log")" \
    "$(echo "$end - $start" | bc)" "$(bpb validation "$out/$name.ckpt")"
}

# cpu D F STEPS: user + system CPU seconds of a one-thread run.
cpu() {
  /usr/bin/time -f '%U %S' -o "$out/time" build/tinyllm train \
    --out "$out/speed.ckpt" --threads 1 --log-every 100000000 \
    --d-model "$1" --ffn "$2" --batch 16 --steps "$3" > /dev/null
  awk '{ print $1 + $2 }' "$out/time"
}

if [[ $what == speed ]]; then
  for round in 1 2; do
    for size in "64 176" "96 256" "128 352"; do
      read -r d f <<< "$size"
      one=$(cpu "$d" "$f" 1)
      many=$(cpu "$d" "$f" 41)
      printf 'round %s  d %-3s  %.4f CPU seconds per step\n' "$round" "$d" \
        "$(echo "($many - $one) / 40" | bc -l)"
    done
  done
  exit 0
fi

if [[ $what == frontier ]]; then
  printf 'name\td\tf\tsteps\ttokens\tparameters\twall_s\tvalidation_bpb\n'
  for size in "64 176 3900" "96 256 2400" "128 352 1800"; do
    read -r d f steps <<< "$size"
    for part in 4 2 1; do
      point "d$d-$part" "$d" "$f" $((steps / part))
    done
  done
  point d96-x2 96 256 4800  # twice the time: what the next doubling gains
  exit 0
fi

if [[ $what != seeds ]]; then
  echo "== sizes: each about the same training time on two cores"
  run d64  --d-model 64  --ffn 176 --batch 16 --steps 3900
  run d96  --d-model 96  --ffn 256 --batch 16 --steps 2400
  run d128 --d-model 128 --ffn 352 --batch 16 --steps 1800
fi
if [[ $what != sizes ]]; then
  echo "== seeds: tinyllm train's defaults (the book's recipe)"
  scores=()
  for seed in 29 30 31 32 33; do
    run "s$seed" --seed "$seed"
    scores+=("$(bpb test "$out/s$seed.ckpt")")
    echo "     test ${scores[-1]}"
  done
  # Seed 29 is the training chapter's run: the same weights, batches and
  # steps, so its test score must be the build's checkpoint's, every digit.
  book=build/out/34-end-to-end/artifacts/tinyllm.ckpt
  [[ -f $book ]] ||
    { echo "sweep-recipe: no $book to compare seed 29 with;" \
           "build the book first (tools/build-book.sh)" >&2; exit 1; }
  want=$(bpb test "$book")
  [[ ${scores[0]} == "$want" ]] ||
    { echo "seed 29 gives ${scores[0]}, the build's checkpoint $want:" \
           "tinyllm train's defaults are not the book's run" >&2; exit 1; }
  echo "     seed 29 is the build's model (test $want, every digit)"
  printf '%s\n' "${scores[@]}" | awk '
    { x[NR] = $1; s += $1 }
    END { m = s / NR; for (i = 1; i <= NR; ++i) v += (x[i] - m) ^ 2
          printf "test bits per byte over %d seeds: mean %.4f, sd %.4f\n",
                 NR, m, sqrt(v / (NR - 1)) }'
fi
