#!/usr/bin/env bash
# A corpus that differs from the checksum the book was written against
# must fail the extraction with a message naming the package and both
# checksums, and must write nothing. Two ways: a doctored expected
# checksum, and a doctored text (a stand-in `bible` on PATH that changes
# one word of the real output).
#
# usage: tools/corpus-checksum-test.sh WORKDIR
set -euo pipefail
work=$(realpath -m "$1")
root=$(pwd)
rm -rf "$work"
mkdir -p "$work/bin"
expected=$(tr -d ' \n' < book/corpus.sha256)
fail() { echo "corpus-checksum-test: $*" >&2; exit 1; }

# expect_rejection NAME OUT SUMFILE [PATH]: the extraction must fail with
# the message, and OUT must not exist afterwards (nor any temporary file).
expect_rejection() {
  local name=$1 out=$2 sums=$3 path=${4:-$PATH}
  if PATH="$path" "$root/tools/extract-corpus.sh" "$out" "$sums" \
       > "$work/$name.out" 2> "$work/$name.err"; then
    fail "$name: the extraction succeeded"
  fi
  grep -q "bible-kjv-text" "$work/$name.err" || fail "$name: no package name"
  grep -q "expected SHA-256 $5" "$work/$name.err" || fail "$name: no expected checksum"
  grep -q "actual   SHA-256 $6" "$work/$name.err" || fail "$name: no actual checksum"
  [[ ! -e "$out" ]] || fail "$name: $out was written"
  ! ls "$(dirname "$out")" | grep -q tmp || fail "$name: a temporary file was left"
  echo "corpus-checksum-test: $name rejected:"; cat "$work/$name.err"
}

# 1. The real text against a doctored checksum.
bad=0000000000000000000000000000000000000000000000000000000000000000
echo "$bad" > "$work/doctored.sha256"
expect_rejection doctored-checksum "$work/a/kjv.txt" "$work/doctored.sha256" \
  "$PATH" "$bad" "$expected"

# 2. A doctored text (one word changed) against the book's checksum.
real_bible=$(command -v bible) || fail "the program bible is missing (tools/setup.sh)"
cat > "$work/bin/bible" <<STUB
#!/bin/sh
"$real_bible" "\$@" | sed '1s/beginning/begining/'
STUB
chmod +x "$work/bin/bible"
doctored=$(PATH="$work/bin:$PATH" bash -c '
  "$0" "$1/b-probe.txt" "$1/doctored.sha256" 2>&1 | sed -n "s/.*actual   SHA-256 //p"' \
  "$root/tools/extract-corpus.sh" "$work")
[[ -n "$doctored" && "$doctored" != "$expected" ]] || fail "the doctored text did not change the checksum"
expect_rejection doctored-text "$work/b/kjv.txt" "$root/book/corpus.sha256" \
  "$work/bin:$PATH" "$expected" "$doctored"

# 3. A rejected run leaves an existing corpus file untouched.
mkdir -p "$work/c"
echo "an older corpus" > "$work/c/kjv.txt"
if PATH="$work/bin:$PATH" "$root/tools/extract-corpus.sh" "$work/c/kjv.txt" \
     book/corpus.sha256 2> /dev/null; then
  fail "the doctored text was accepted"
fi
[[ "$(cat "$work/c/kjv.txt")" == "an older corpus" ]] || fail "the old corpus file was changed"

# 4. The real text against the book's checksum is accepted.
"$root/tools/extract-corpus.sh" "$work/d/kjv.txt" book/corpus.sha256
[[ "$(sha256sum "$work/d/kjv.txt" | cut -d' ' -f1)" == "$expected" ]] || fail "the accepted file differs"
echo "corpus-checksum-test: a matching text is accepted, a differing one rejected"
