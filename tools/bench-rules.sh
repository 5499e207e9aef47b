#!/usr/bin/env bash
# What the book's arithmetic rules cost its training step on this
# machine. The fast code must give the simple code's bits, so every
# product and every sum is rounded on its own (-ffp-contract=off: no
# fused multiply-add) and every exponential is one call to libm's exp.
# This script builds bench_train three more times from the same
# snippets, each time compiling one or two library files with flags
# that break a rule, and times the four builds' steps in one run:
#
#   fused       llm/matmul.cpp with -mfma -ffp-contract=fast: the tile's
#               products and sums become fused multiply-adds
#   fast-math   llm/training.cpp with -ffast-math -mavx2: output_loss's
#               exponentials go through glibc's vector exp (libmvec), four
#               at a time, and its sums may be reordered
#   both        the two together
#
# Each round runs every build once (14 steps; the median of steps 2 to
# 13) in turn; the script prints, over the rounds, the median of each
# variant's time over the book's and the lowest and highest, and how far
# each variant's loss after the last step is from the book's (the rules
# exist because it is not zero). It checks that each variant really has
# what it claims (fused multiply-adds in the tile's AVX2 copy, calls to
# libmvec's exp) and fails otherwise. Not a test: the times depend on the
# machine and what else runs on it.
#
# Needs x86-64 with AVX2 and FMA, and GCC (the build's compiler).
#
# usage: tools/bench-rules.sh [ROUNDS] [THREADS]   (default 8 and 1)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-8} threads=${2:-1}
[[ $rounds =~ ^[1-9][0-9]{0,2}$ ]] ||
  { echo "bench-rules: ROUNDS is '$rounds', expected a number from 1 to 999" >&2; exit 2; }
[[ $threads =~ ^[1-9]$ ]] ||
  { echo "bench-rules: THREADS is '$threads', expected a number from 1 to 9" >&2; exit 2; }
[[ $(uname -m) == x86_64 ]] && grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo ||
  { echo "bench-rules: needs an x86-64 processor with AVX2 and FMA" >&2; exit 1; }

[[ -f build/build.ninja ]] || tools/setup.sh
cmake --build build --target bench_train > /dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# compile FILE OBJECT FLAGS...: the build's own command for
# snippets/FILE (as ninja would run it, without the launcher that maps
# errors to chapter lines), with FLAGS appended (a later flag wins).
compile() {
  local file=$1 object=$2; shift 2
  local command
  command=$(ninja -C build -t commands tools/bench_train |
    grep -F -- "-c $PWD/snippets/$file" | head -n 1)
  [[ -n $command ]] ||
    { echo "bench-rules: no compile command for snippets/$file in build/" >&2; exit 1; }
  command=${command#* -- }  # litbook compile ... -- COMMAND
  command=$(sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//; s/ -o [^ ]+ -c / -c /' <<< "$command")
  (cd build && eval "$command -o '$object' $*")
}

# link NAME OBJECT...: bench_train with OBJECTs in place of the library's
# own copies of those files (the linker takes a member of libllm.a only
# for a symbol no object defines).
link() {
  local name=$1; shift
  c++ -O2 build/tools/CMakeFiles/bench_train.dir/bench-train.cpp.o "$@" \
    build/libllm.a -lmvec -lm -pthread -o "$out/$name"
}

compile llm/matmul.cpp "$out/matmul-fused.o" -mfma -ffp-contract=fast
compile llm/training.cpp "$out/training-fast.o" -ffast-math -mavx2
objdump -d --no-show-raw-insn "$out/matmul-fused.o" |
  awk '/matmul_tile.*\.avx2\]?>:$/ { p = 1; next } /^$/ { p = 0 } p' |
  grep -c vfmadd > /dev/null ||
  { echo "bench-rules: the fused build's AVX2 tile has no fused multiply-add" >&2; exit 1; }
nm "$out/training-fast.o" | grep -c '_ZGV.N4v_exp' > /dev/null ||
  { echo "bench-rules: the fast-math build does not call libmvec's exp" >&2; exit 1; }
cp build/tools/bench_train "$out/book"
link fused "$out/matmul-fused.o"
link fast-math "$out/training-fast.o"
link both "$out/matmul-fused.o" "$out/training-fast.o"

names=(book fused fast-math both)
for ((r = 0; r < rounds; r++)); do
  line=""
  for name in "${names[@]}"; do
    "$out/$name" time 14 "$threads" > "$out/$name.steps"
    median=$(awk '$1 == "step" && $2 >= 2 { print $3 }' "$out/$name.steps" | sort -g |
      awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    line="$line $median"
  done
  echo "$line"
done > "$out/times"
for name in "${names[@]}"; do  # the loss after the last step, in hex
  awk '$1 == "step" { loss = $4 } END { print loss }' "$out/$name.steps"
done > "$out/losses"

echo "the book's training step (bench_train), $threads thread(s), $rounds rounds"
/usr/bin/python3 - "$out/times" "$out/losses" "${names[@]}" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
losses = [float.fromhex(l.strip()) for l in open(sys.argv[2])]
names = sys.argv[3:]
print("book: median step %.4f s" % statistics.median(r[0] for r in rows))
print("%-10s %8s %8s %8s   %s" % ("variant", "time", "lowest", "highest",
                                  "loss after 14 steps vs book"))
for j, name in enumerate(names[1:], 1):
    q = sorted(r[j] / r[0] for r in rows)
    drift = abs(losses[j] - losses[0]) / abs(losses[0])
    print("%-10s %8.3f %8.3f %8.3f   %.1e" % (name, statistics.median(q),
                                              q[0], q[-1], drift))
print("time: the variant's step over the book's in the same round")
PY
