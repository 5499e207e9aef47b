#!/usr/bin/env bash
# What the book's arithmetic rules cost its training step on this
# machine. The fast code must give the simple code's bits, so every
# product and every sum is rounded on its own (-ffp-contract=off: no
# fused multiply-add) and every exponential is one call to libm's exp.
# This script makes bench_train four more times, each from a copy of
# the build's libllm.a in which one or two members are recompiled with
# flags that break a rule (or, for the control, that do not), and times
# the five programs' steps in one run:
#
#   fused       llm/matmul.cpp with -mfma -ffp-contract=fast: the tile's
#               products and sums become fused multiply-adds (and the
#               rest of matmul.cpp, its packing and copying, is compiled
#               for AVX, which -mfma implies)
#   vector-exp  llm/training.cpp with -mavx2 -D__FAST_MATH__: glibc's
#               headers then declare exp's vector versions (libmvec,
#               within 4 ulp where libm's exp is within 1), and GCC calls
#               them for output_loss's exponentials, four or two at a
#               time; the file is compiled for AVX2, but none of GCC's
#               unsafe-math options is on, so no sum is reordered and no
#               NaN or infinity check is dropped
#   both        the two together
#   isa         the control: matmul.cpp with -mfma and training.cpp with
#               -mavx2, the instruction sets the variants above get,
#               without fusing and without the vector exp: the book's
#               bits, so that "both" over "isa" is the rules' price alone
#
# Every program is linked by one command line, the book's own: each
# member of the archive exists once. The variants are not linked with
# -ffast-math, so nothing flushes subnormal numbers to zero. The script
# checks that each variant has what it claims: no separate multiply or
# add left in the copy of the tile this processor runs, and both passes
# of output_loss calling libmvec's exp; it fails otherwise.
#
# Each round runs every program once (14 steps; the median of steps 2 to
# 13), starting one program further on each round so that none always
# runs first. Printed over the rounds: the median, lowest and highest of
# each variant's step time over the book's in the same round, and of
# both's over the control's; whether each variant's results have the
# book's bits (every step's loss and the parameters' digest; the script
# fails if the control's do not); and the largest relative difference of
# a step's loss from the book's. The batches are random tokens, so the
# loss stays near log V whatever the parameters are: the difference says
# that the bits moved, not how far training would drift. Not a test: the
# times depend on the machine and on what else runs on it.
#
# Needs x86-64 with AVX2 and FMA and a GCC build (build/, made by
# tools/setup.sh if missing). THREADS may exceed the cores.
#
# usage: tools/bench-rules.sh [ROUNDS] [THREADS]
#        (ROUNDS 1 to 999, default 8; THREADS 1 to 9, default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
rounds=${1:-8} threads=${2:-1}
[[ $rounds =~ ^[1-9][0-9]{0,2}$ ]] ||
  { echo "bench-rules: ROUNDS is '$rounds', expected a number from 1 to 999" >&2; exit 2; }
[[ $threads =~ ^[1-9]$ ]] ||
  { echo "bench-rules: THREADS is '$threads', expected a number from 1 to 9" >&2; exit 2; }
[[ $(uname -m) == x86_64 ]] && grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo ||
  { echo "bench-rules: needs an x86-64 processor with AVX2 and FMA" >&2; exit 1; }

[[ -f build/build.ninja ]] || tools/setup.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source tools/build-targets.sh
build_targets bench-rules bench_train
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:FILEPATH=//p' build/CMakeCache.txt)
macros=$("$cxx" -dM -E -x c++ /dev/null)
grep -q '__GNUC__' <<< "$macros" && ! grep -q '__clang__' <<< "$macros" ||
  { echo "bench-rules: build/'s C++ compiler ($cxx) is not GCC" >&2; exit 1; }
commands=$(ninja -C build -t commands tools/bench_train)

# compile FILE OBJECT FLAGS...: the build's own command for
# snippets/FILE (without the launcher that maps errors to chapter
# lines), writing OBJECT, with FLAGS appended (a later flag wins).
compile() {
  local file=$1 object=$2; shift 2
  local command
  command=$(grep -m 1 -F -- "-c $root/snippets/$file" <<< "$commands") ||
    { echo "bench-rules: no compile command for snippets/$file in build/" >&2; exit 1; }
  command=${command#* -- }  # litbook compile ... -- COMMAND
  command=$(sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//; s/ -o [^ ]+ -c / -c /' <<< "$command")
  local quoted
  printf -v quoted '%q' "$object"
  (cd build && eval "$command -o $quoted $*") > "$out/compile.log" 2>&1 ||
    { cat "$out/compile.log" >&2; echo "bench-rules: compiling snippets/$file failed" >&2; exit 1; }
}

# program NAME OBJECT...: bench_train, as $out/NAME, linked by the build's
# own command against a copy of libllm.a whose members of the OBJECTs' names are
# replaced by them (CMake names a member FILE.cpp.o).
link_command=$(grep -F -- '-o tools/bench_train ' <<< "$commands" | tail -n 1)
link_command=${link_command#: && }
link_command=${link_command% && :}
[[ $link_command == *libllm.a* ]] ||
  { echo "bench-rules: no link command for tools/bench_train in build/" >&2; exit 1; }
program() {
  local name=$1; shift
  cp build/libllm.a "$out/$name.a"
  [[ $# -eq 0 ]] || ar r "$out/$name.a" "$@"
  local archive binary command
  printf -v archive '%q' "$out/$name.a"
  printf -v binary '%q' "$out/$name"
  command=${link_command/ libllm.a/ $archive}
  command=${command/ -o tools\/bench_train / -o $binary }
  (cd build && eval "$command") > "$out/link.log" 2>&1 ||
    { cat "$out/link.log" >&2; echo "bench-rules: linking $name failed" >&2; exit 1; }
}

mkdir -p "$out/objects-fused" "$out/objects-vector-exp" "$out/objects-isa"
compile llm/matmul.cpp "$out/objects-fused/matmul.cpp.o" -mfma -ffp-contract=fast
compile llm/training.cpp "$out/objects-vector-exp/training.cpp.o" -mavx2 -D__FAST_MATH__
compile llm/matmul.cpp "$out/objects-isa/matmul.cpp.o" -mfma
compile llm/training.cpp "$out/objects-isa/training.cpp.o" -mavx2

# The copy of the tile this processor runs: AVX-512's if it has it.
clone=avx2
grep -qw avx512f /proc/cpuinfo && clone=avx512f
tile=$(objdump -d --no-show-raw-insn "$out/objects-fused/matmul.cpp.o" |
  awk -v c="$clone" '$0 ~ "matmul_tile.*\\." c "\\]?>:$" { p = 1; next } /^$/ { p = 0 } p')
grep -q vfmadd <<< "$tile" && ! grep -q 'vmulpd\|vaddpd' <<< "$tile" ||
  { echo "bench-rules: the fused build's $clone tile is not all fused multiply-adds" >&2; exit 1; }
# output_loss's forward pass (row_stats inlined) and its backward lambda.
callers=$(objdump -dr --no-show-raw-insn -C "$out/objects-vector-exp/training.cpp.o" |
  awk '/^[0-9a-f]+ <.*>:$/ { f = $0 } /_ZGVdN4v_exp/ && f ~ /<llm::output_loss/ { print f }' |
  sort -u | wc -l)
((callers == 2)) ||
  { echo "bench-rules: libmvec's exp is called in $callers of output_loss's two passes, expected both" >&2; exit 1; }

program book
program fused "$out/objects-fused/matmul.cpp.o"
program vector-exp "$out/objects-vector-exp/training.cpp.o"
program both "$out/objects-fused/matmul.cpp.o" "$out/objects-vector-exp/training.cpp.o"
program isa "$out/objects-isa/matmul.cpp.o" "$out/objects-isa/training.cpp.o"

names=(book fused vector-exp both isa)
# The median of a run's steps 2 .. 13 (the mean of the middle two).
median() {
  awk '$1 == "step" && $2 >= 2 { print $3 }' "$1" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
for ((r = 0; r < rounds; r++)); do
  for ((i = 0; i < ${#names[@]}; i++)); do
    name=${names[(r + i) % ${#names[@]}]}
    "$out/$name" time 14 "$threads" > "$out/$name.steps"
    echo "$r $name $(median "$out/$name.steps")"
  done
done > "$out/times"

echo "the book's training step (bench_train), $threads thread(s), $rounds rounds;" \
  "load average at the end $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
/usr/bin/python3 - "$out" "${names[@]}" <<'PY'
import statistics, sys
out, names = sys.argv[1], sys.argv[2:]
times = {}
for line in open(out + "/times"):
    r, name, t = line.split()
    times.setdefault(name, {})[int(r)] = float(t)
def run(name):  # every step's loss and the parameters' digest, of the last round
    losses, digest = [], None
    for line in open("%s/%s.steps" % (out, name)):
        f = line.split()
        if f[0] == "step":
            losses.append(float.fromhex(f[3]))
        elif f[0] == "params":
            digest = f[1]
    return losses, digest
book = times[names[0]]
print("book: median step %.4f s (%.4f to %.4f over the rounds)" % (
    statistics.median(book.values()), min(book.values()), max(book.values())))
print("%-11s %7s %7s %7s  %-9s %s" % ("variant", "time", "lowest", "highest",
                                      "same bits", "largest loss difference"))
book_losses, book_digest = run(names[0])
for name in names[1:]:
    q = sorted(times[name][r] / book[r] for r in book)
    losses, digest = run(name)
    same = losses == book_losses and digest == book_digest
    diff = max(abs(a - b) / abs(b) for a, b in zip(losses, book_losses))
    print("%-11s %7.3f %7.3f %7.3f  %-9s %.1e" % (
        name, statistics.median(q), q[0], q[-1], "yes" if same else "no", diff))
if run("isa") != (book_losses, book_digest):
    sys.exit("bench-rules: the control (isa) does not have the book's bits")
q = sorted(times["both"][r] / times["isa"][r] for r in book)
print("%-11s %7.3f %7.3f %7.3f  (the rules' price: both over the control)" % (
    "both / isa", statistics.median(q), q[0], q[-1]))
print("time: the variant's step over the book's, same round; loss difference:"
      " relative, largest over the 14 steps")
PY
