#!/usr/bin/env bash
# CTest fast-equals-simple: the fast kernels of chapter fast-kernels
# compute what the simple code of the earlier chapters computes, to the
# bit, on the book's whole training step and in the reader's program.
# tools/build-simple.sh builds the simple reference (the chapters' code
# without that chapter's revisions); then
#   - bench_train, fast and simple, 3 training steps of the book's model
#     (B 16 x T 64) at 1 and 2 threads: every step's loss and the digest
#     of every parameter after the last step must be the same;
#   - tinyllm train, fast and simple, 3 steps on the corpus's first 200
#     documents: the checkpoints must be the same bytes;
#   - the demos of the chapters from decoder-block on that use the fast
#     kernels, built on the simple library, must publish exactly what
#     the book's build published (stdout, values, tables, figures,
#     artifacts), as the snapshot tests do for the chapters before
#     fast-kernels. Chapters training and evaluation are left out: the
#     simple step is about 8.4 times slower (chapter fast-kernels'
#     profile), about half an hour for training's 3000 steps, and
#     evaluation's demo had not finished after six and a half minutes.
#
# usage: tools/simple-test.sh FAST_BENCH_TRAIN FAST_TINYLLM CORPUS WORKDIR
# (run from the project root, after the book's build; BOOK_BUILD names
# that build when it is not build/)
set -euo pipefail
fast_bench=$(realpath "$1") fast_tinyllm=$(realpath "$2")
corpus=$(realpath "$3") work=$(realpath -m "$4") root=$(pwd)
fail() { echo "fast-equals-simple: $*" >&2; exit 1; }

book=$(realpath -m "${BOOK_BUILD:-build}")
# The demos by chapter slug; the stem (NN-slug) is the chapter file's,
# so renumbering a chapter changes nothing here.
demos=()
for slug in decoder-block attention-review fast-kernels decoder-model \
            checkpoints sampling kv-cache end-to-end llm-review; do
  files=(chapters/[0-9]*-"$slug".md)
  [[ ${#files[@]} == 1 && -f ${files[0]} ]] ||
    fail "no single chapter file chapters/NN-$slug.md"
  stem=${files[0]#chapters/}
  demos+=("${stem%.md}")
done
simple_bench=$(SIMPLE_DEMOS="$(IFS=';'; echo "${demos[*]}")" \
               tools/build-simple.sh "$work/simple")
# A simple build that is the fast one would pass everything below.
grep -q matmul_tile snippets/llm/matmul.cpp ||
  fail "snippets/llm/matmul.cpp has no matmul_tile: is this the fast build?"
! grep -q matmul_tile "$work/simple/snippets/llm/matmul.cpp" ||
  fail "the simple build has fast-kernels' tile kernel: its revisions were not left out"
simple_dir=$(dirname "$simple_bench")
cmake --build "$simple_dir" --target tinyllm > "$work/simple/tinyllm-build.log" ||
  { cat "$work/simple/tinyllm-build.log"; fail "building the simple tinyllm failed"; }
simple_tinyllm=$simple_dir/tinyllm
cd "$work"

# A run's lines without the seconds each step took.
results() { awk '$1 == "step" { print $1, $2, $4 } $1 == "params"' "$1"; }
for threads in 1 2; do
  "$fast_bench" time 3 "$threads" > "fast$threads.txt"
  "$simple_bench" time 3 "$threads" > "simple$threads.txt"
  [[ $(results "fast$threads.txt" | wc -l) == 4 ]] ||
    fail "bench_train printed no 3 steps and digest: $(cat "fast$threads.txt")"
  diff <(results "fast$threads.txt") <(results "simple$threads.txt") ||
    fail "fast and simple training steps differ at $threads thread(s)"
done
echo "fast-equals-simple: 3 training steps, 1 and 2 threads: the same losses and parameter digest"
results fast1.txt

awk 'BEGIN { RS = "\036"; ORS = "" } NR > 1 && NR <= 201 { print "\036" $0 }' \
  "$corpus" > small.txt
for side in fast simple; do
  bin=$fast_tinyllm
  [[ $side == simple ]] && bin=$simple_tinyllm
  "$bin" train --corpus small.txt --out "$side.ckpt" --steps 3 --threads 2 \
    > "$side.log" 2>&1 || { cat "$side.log"; fail "$side tinyllm train failed"; }
done
cmp fast.ckpt simple.ckpt || fail "fast and simple tinyllm wrote different checkpoints"
echo "fast-equals-simple: tinyllm train, 3 steps: the same $(stat -c %s fast.ckpt) checkpoint bytes"

# The demos, each run once as the book's build runs it, and compared
# with the book's outputs byte for byte.
cd "$root"
for stem in "${demos[@]}"; do
  exe=ch${stem%%-*}
  cmake --build "$simple_dir" --target "$exe" > "$work/simple/$exe-build.log" ||
    { cat "$work/simple/$exe-build.log"; fail "building the simple $exe failed"; }
  [[ -d $book/out/$stem ]] || fail "no $book/out/$stem: build the book first"
  rm -rf "$work/out/$stem"
  BOOK_CORPUS="$corpus" BOOK_OUTPUTS="$book/out" "$book/src/litbook" run-demo \
    --exe "$simple_dir/$exe" --out "$work/out/$stem" \
    --chapter "chapters/$stem.md" --timeout 900 --runs 1 > /dev/null ||
    fail "the demo of $stem failed on the simple library"
  diff -r "$book/out/$stem" "$work/out/$stem" ||
    fail "the demo of $stem publishes something else on the simple library"
done
echo "fast-equals-simple: ${#demos[@]} demos publish the same bytes on the simple library"
