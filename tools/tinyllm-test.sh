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
# --help states every limit (96: the width of book_model_config, chapter 29).
expect 0 "  --d-model      width of the residual stream d (2 to 4096, default 96)" \
  train --help
expect 0 "  --max-memory   refuse a run estimated to need more MiB than this (1 to 1073741824, default 4096)" \
  generate --help
expect 0 "  --checkpoint   checkpoint file to read, at most 4 GiB" eval --help
expect 2 "tinyllm: no command"
expect 2 "tinyllm: unknown command 'fit'" fit
expect 2 "tinyllm train: no option --colour" train --out a.ckpt --colour red
expect 2 "tinyllm train: --steps must be a whole number from 1 to 100000000, got 'ten'" \
  train --out a.ckpt --steps ten
expect 2 "tinyllm train: --lr must be a number from 1e-06 to 1, got '-0.1'" \
  train --out a.ckpt --lr -0.1
expect 2 "tinyllm train: missing --out" train --steps 3
expect 2 "tinyllm generate: option --prompt needs a value" generate --checkpoint a --prompt

# sizes: the tiny model but its --heads; tiny: with them and the corpus.
sizes=(--steps 6 --d-model 16 --layers 1 --ffn 16 --context 16 --batch 2
       --log-every 3)
tiny=("${sizes[@]}" --heads 2 --corpus small.txt)
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
cp out.txt default-split.txt
expect 0 "test split: " eval --checkpoint a.ckpt --corpus small.txt --split test
cmp default-split.txt out.txt || fail "--split test differs from the default"
expect 0 "validation split: " eval --checkpoint a.ckpt --corpus small.txt --split validation
cmp -s default-split.txt out.txt && fail "--split validation printed the test split's numbers"
loss=$(awk '/^loss/ { print $2 }' out.txt)
awk -v l="$loss" 'BEGIN { exit !(l > 5.5 && l < 8) }' || fail "validation loss $loss is not near ln V"
expect 2 "--split must be test or validation, got 'train'" \
  eval --checkpoint a.ckpt --corpus small.txt --split train
# The stride: by default half the tiny model's context of 16; the whole
# context scores the chopped windows, whose first targets see fewer ids,
# so the loss differs; a stride beyond the context is refused.
grep -qF "stride 8" default-split.txt || fail "the default stride is not half the context of 16"
expect 0 "stride 16" eval --checkpoint a.ckpt --corpus small.txt --stride 16
[[ $(grep '^loss' out.txt) != $(grep '^loss' default-split.txt) ]] ||
  fail "--stride 16 gave the loss of --stride 8"
expect 2 "--stride 17 is longer than the checkpoint's context of 16 tokens" \
  eval --checkpoint a.ckpt --corpus small.txt --stride 17
expect 2 "--stride must be a whole number from 1 to 8192, got '0'" \
  eval --checkpoint a.ckpt --corpus small.txt --stride 0

head -c 100 a.ckpt > truncated.ckpt
expect 1 "is truncated" generate --checkpoint truncated.ckpt
expect 1 "tinyllm eval: " eval --checkpoint small.txt
expect 1 "tinyllm generate: --checkpoint 'missing.ckpt': No such file or directory" \
  generate --checkpoint missing.ckpt

# nothing_written NAME: no file NAME and no temporary file of it exist.
nothing_written() {
  [[ ! -e $1 ]] || fail "a refused run wrote $1"
  ! compgen -G "$1.tmp*" > /dev/null || fail "a refused run left $1.tmp*"
}

# Bad command lines: status 2 and the usage, before any work.
expect 2 "tinyllm train: option --steps is given twice" \
  train --out d.ckpt --steps 3 --steps 4
expect 2 "usage: tinyllm train" train --out d.ckpt --steps 3 --steps 4
expect 2 "tinyllm train: --d-model 16 and --heads 3: attention config: d_model % heads is 1 (d_model 16, heads 3), expected 0" \
  train --out d.ckpt "${sizes[@]}" --heads 3 --corpus small.txt
expect 2 "usage: tinyllm train" train --out d.ckpt "${sizes[@]}" --heads 3 --corpus small.txt
nothing_written d.ckpt
expect 2 "tinyllm generate: --prompt is not valid UTF-8: encode: invalid UTF-8 at byte 3: 0xff cannot start a character" \
  generate --checkpoint a.ckpt --prompt $'And\xff'
# The corpus as --out, under its own name, another spelling and a hard
# link, is refused and left as it was.
cp small.txt corpus.txt && ln corpus.txt linked.txt
for out in corpus.txt ./corpus.txt linked.txt; do
  expect 2 "tinyllm train: --out '$out' is the corpus --corpus 'corpus.txt', expected another file" \
    train "${sizes[@]}" --corpus corpus.txt --out "$out"
  cmp -s small.txt corpus.txt || fail "--out $out changed the corpus"
done

# Memory: sizes the program accepts but cannot hold are refused before
# anything is allocated, even under a 2 GB address-space limit.
(
  ulimit -v 2000000
  expect 2 "tinyllm train: the model of --d-model, --layers and --ffn needs about 1950249 MiB, more than --max-memory 4096" \
    train --out m.ckpt --d-model 4096 --layers 64 --ffn 65536 --batch 8 --corpus small.txt
  expect 2 "tinyllm train: a batch of --batch 4096 x --context 8192 needs about 104893446 MiB, more than --max-memory 4096" \
    train --out m.ckpt --batch 4096 --context 8192 --d-model 64 --ffn 176 --corpus small.txt
)
expect 2 "tinyllm train: a batch of --batch 2 x --context 16 needs about 3 MiB, more than --max-memory 1" \
  train --out m.ckpt "${tiny[@]}" --max-memory 1
nothing_written m.ckpt

# Files: an output that cannot be written is found before training.
mkdir -p adir
expect 1 "tinyllm train: --out 'nodir/o.ckpt': cannot write in 'nodir': No such file or directory" \
  train "${tiny[@]}" --out nodir/o.ckpt
expect 1 "tinyllm train: --out 'adir' is a directory, expected a file" \
  train "${tiny[@]}" --out adir
expect 1 "tinyllm train: --out 'small.txt/o.ckpt': cannot write in 'small.txt': not a directory" \
  train "${tiny[@]}" --out small.txt/o.ckpt
if [[ $(id -u) != 0 ]]; then  # root may write anywhere
  mkdir -p locked && chmod a-w locked
  expect 1 "tinyllm train: --out 'locked/o.ckpt': cannot write in 'locked': Permission denied" \
    train "${tiny[@]}" --out locked/o.ckpt
  chmod u+w locked
fi
# Inputs must be regular files of bounded size.
expect 1 "tinyllm generate: --checkpoint '/dev/zero' is a device or pipe, expected a regular file" \
  generate --checkpoint /dev/zero
expect 1 "tinyllm generate: --checkpoint 'adir' is a directory, expected a regular file" \
  generate --checkpoint adir
expect 1 "tinyllm train: --corpus '/dev/urandom' is a device or pipe, expected a regular file" \
  train --out u.ckpt "${sizes[@]}" --corpus /dev/urandom
expect 1 "tinyllm eval: --corpus 'adir' is a directory, expected a regular file" \
  eval --checkpoint a.ckpt --corpus adir
nothing_written u.ckpt
printf '\036Gen 1\nab\377cd\n' > latin1.txt
expect 1 "tinyllm eval: --corpus 'latin1.txt': decode_utf8: byte 9: invalid lead byte 0xff" \
  eval --checkpoint a.ckpt --corpus latin1.txt
# A training split without a document of --context + 1 tokens is refused
# before the first step: one whose documents are all short (each cut to
# two words), and an empty one (Gen 3 is not in the training split).
awk 'BEGIN { RS = "\036"; ORS = "" } NR > 1 { n = split($0, l, "\n");
  split(l[2], w, " "); print "\036" l[1] "\n" w[1] " " w[2] "\n" }' \
  small.txt > short.txt
expect 1 "tinyllm train: --corpus 'short.txt': the training split has 0 documents of at least 17 tokens (it has 159, the longest of 6 tokens), expected at least one (lower --context or give more text)" \
  train --out w.ckpt "${tiny[@]/small.txt/short.txt}"
printf '\036Gen 3\nIn the beginning God created the heaven and the earth.\n' > notrain.txt
expect 1 "tinyllm train: --corpus 'notrain.txt': the training split has 0 documents of at least 17 tokens (it has no documents), expected at least one (give more text)" \
  train --out w.ckpt "${tiny[@]/small.txt/notrain.txt}"
nothing_written w.ckpt

# Crafted checkpoints with a valid checksum: craft FROM TO WHAT changes
# one number of a.ckpt and reseals it, as a buggy writer would.
craft() {
  python3 - "$@" <<'PY'
import hashlib, struct, sys
src, dst, what = sys.argv[1:]
b = bytearray(open(src, "rb").read())
conf = 16 + 12  # the CONF payload: vocab, d, layers, heads, ffn, context
if what == "nan":  # the first element of the first parameter tensor
    at = conf
    for _ in range(2):  # skip CONF and TOKN to PARM's payload
        at += 12 + struct.unpack_from("<Q", b, at - 8)[0]
    at += 8 + 4  # seed, count
    at += 4 + struct.unpack_from("<I", b, at)[0]  # the name
    rank = struct.unpack_from("<I", b, at)[0]
    at += 4 + 8 * rank
    struct.pack_into("<Q", b, at, 0x7FF8000000000000)
else:  # what is a context
    struct.pack_into("<Q", b, conf + 40, int(what))
b[-32:] = hashlib.sha256(b[:-32]).digest()
open(dst, "wb").write(b)
PY
}
craft a.ckpt nan.ckpt nan
expect 1 "tinyllm generate: --checkpoint 'nan.ckpt' has a non-finite value in 'embed.weight' at element 0, expected finite numbers" \
  generate --checkpoint nan.ckpt
expect 1 "tinyllm eval: --checkpoint 'nan.ckpt' has a non-finite value in 'embed.weight' at element 0, expected finite numbers" \
  eval --checkpoint nan.ckpt --corpus small.txt
craft a.ckpt one.ckpt 1
expect 1 "tinyllm generate: load_checkpoint: 'one.ckpt' has a config of context 1, expected at least 2" \
  generate --checkpoint one.ckpt
craft a.ckpt huge.ckpt 1099511627776
(
  ulimit -v 2000000
  expect 1 "tinyllm generate: --checkpoint 'huge.ckpt' needs about 268435457 MiB, more than --max-memory 4096" \
    generate --checkpoint huge.ckpt
)

# The temporary file: a symbolic link at the old fixed name OUT.tmp is
# not followed, and no temporary file is left.
echo keep > victim.txt && ln -s victim.txt s.ckpt.tmp
expect 0 "wrote s.ckpt" train --out s.ckpt "${tiny[@]}"
[[ $(cat victim.txt) == keep && -L s.ckpt.tmp ]] || fail "the write followed s.ckpt.tmp"
cmp a.ckpt s.ckpt || fail "s.ckpt differs from a.ckpt"
[[ $(compgen -G "s.ckpt.tmp.*" | wc -l) == 0 ]] || fail "a temporary file was left"

# Standard output that cannot be written is an error, not silence.
got=0
"$tinyllm" generate --checkpoint a.ckpt --prompt "And" > /dev/full 2> err.txt || got=$?
[[ $got == 1 ]] || fail "generate > /dev/full exited $got, expected 1"
grep -qxF "tinyllm generate: cannot write to standard output: No space left on device" err.txt \
  || { cat err.txt; fail "generate > /dev/full did not name the reason"; }
got=0
"$tinyllm" eval --checkpoint a.ckpt --corpus small.txt > /dev/full 2> err.txt || got=$?
[[ $got == 1 ]] || fail "eval > /dev/full exited $got, expected 1"
echo "tinyllm-program: every command and every error as expected"
