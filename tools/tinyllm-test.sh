#!/usr/bin/env bash
# The test of the reader's program (CTest tinyllm-program): every command
# on a tiny model trained on the first 200 documents of the corpus, two
# trainings with the same options giving the same checkpoint bytes, the
# same seed giving the same text, and each bad command line and bad
# checkpoint with its exit status and message.
#
# usage: tools/tinyllm-test.sh TINYLLM CORPUS WORKDIR
set -euo pipefail
tinyllm=$(realpath "$1") corpus=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "tinyllm-program: $*" >&2; exit 1; }

# expect STATUS TEXT CMD...: the command exits with STATUS and its output
# (stdout and stderr) holds TEXT.
expect() {
  local want=$1 text=$2; shift 2
  local got=0
  "$tinyllm" "$@" > out.txt 2>&1 || got=$?
  [[ $got == "$want" ]] || { cat out.txt; fail "'$*' exited $got, expected $want"; }
  grep -qF -- "$text" out.txt || { cat out.txt; fail "'$*' did not say: $text"; }
}

# The first 200 documents (each starts with a line beginning with U+001E).
awk 'BEGIN { RS = "\036"; ORS = "" } NR > 1 && NR <= 201 { print "\036" $0 }' \
  "$corpus" > small.txt
[[ $(grep -c $'^\x1e' small.txt) == 200 ]] || fail "small corpus has not 200 documents"

expect 0 "generate  continue a prompt from a checkpoint" --help
expect 0 "--steps" train --help
expect 2 "tinyllm: no command"
expect 2 "tinyllm: unknown command 'fit'" fit
expect 2 "tinyllm train: no option --colour" train --out a.ckpt --colour red
expect 2 "tinyllm train: --steps must be a whole number from 1 to 100000000, got 'ten'" \
  train --out a.ckpt --steps ten
expect 2 "tinyllm train: --lr must be a number from 1e-06 to 1, got '-0.1'" \
  train --out a.ckpt --lr -0.1
expect 2 "tinyllm train: missing --out" train --steps 3
expect 2 "tinyllm generate: option --prompt needs a value" generate --checkpoint a --prompt

tiny=(--steps 6 --d-model 16 --layers 1 --heads 2 --ffn 16 --context 16
      --batch 2 --log-every 3 --corpus small.txt)
expect 0 "step 3/6  loss" train --out a.ckpt "${tiny[@]}"
grep -q '^step 6/6  loss [0-9.]*  [0-9]* tokens/s  left 0m00s$' out.txt \
  || { cat out.txt; fail "no final progress line"; }
expect 0 "wrote b.ckpt" train --out b.ckpt "${tiny[@]}"
cmp a.ckpt b.ckpt || fail "two trainings with the same options wrote different checkpoints"

expect 0 "And God" generate --checkpoint a.ckpt --prompt "And God" --tokens 12 --seed 3
cp out.txt first.txt
expect 0 "And God" generate --checkpoint a.ckpt --prompt "And God" --tokens 12 --seed 3
cmp first.txt out.txt || fail "the same seed wrote different text"
expect 2 "--temperature must be a number from 0 to 100, got 'hot'" \
  generate --checkpoint a.ckpt --temperature hot

expect 0 "bits per byte" eval --checkpoint a.ckpt --corpus small.txt
# An untrained tiny model: its loss is near ln V = 6.93 nats per token.
loss=$(awk '/^loss/ { print $2 }' out.txt)
awk -v l="$loss" 'BEGIN { exit !(l > 5.5 && l < 8) }' || fail "eval loss $loss is not near ln V"

head -c 100 a.ckpt > truncated.ckpt
expect 1 "is truncated" generate --checkpoint truncated.ckpt
expect 1 "tinyllm eval: " eval --checkpoint small.txt
expect 1 "tinyllm generate: " generate --checkpoint missing.ckpt
echo "tinyllm-program: every command and every error as expected"
