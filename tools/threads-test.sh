#!/usr/bin/env bash
# CTest tinyllm-threads: `tinyllm train` at the book's model sizes writes
# the same checkpoint bytes on 1, 2 and 3 threads. The kernels split
# their work among threads by output element, and every element is
# computed with the same roundings in the same order whichever thread
# computes it (chapter fast-kernels); this checks the whole program.
#
# usage: tools/threads-test.sh TINYLLM CORPUS WORKDIR
set -euo pipefail
tinyllm=$(realpath "$1") corpus=$(realpath "$2") work=$(realpath -m "$3")
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "tinyllm-threads: $*" >&2; exit 1; }

# The first 200 documents (each starts with a line beginning with U+001E).
awk 'BEGIN { RS = "\036"; ORS = "" } NR > 1 && NR <= 201 { print "\036" $0 }' \
  "$corpus" > small.txt
[[ $(grep -c $'^\x1e' small.txt) == 200 ]] || fail "small corpus has not 200 documents"

# The book's model and batch (tinyllm's defaults), a few steps: large
# enough that every kernel of the step is split among the threads.
for threads in 1 2 3; do
  "$tinyllm" train --corpus small.txt --out "t$threads.ckpt" --steps 4 \
    --threads "$threads" > "t$threads.log" 2>&1 ||
    { cat "t$threads.log"; fail "train --threads $threads failed"; }
done
cmp t1.ckpt t2.ckpt || fail "--threads 1 and --threads 2 wrote different checkpoints"
cmp t1.ckpt t3.ckpt || fail "--threads 1 and --threads 3 wrote different checkpoints"
echo "tinyllm-threads: 1, 2 and 3 threads wrote the same $(stat -c %s t1.ckpt) bytes"
