#!/usr/bin/env bash
# Extracts the book's corpus, the King James Bible of Debian's package
# bible-kjv-text, into one file of documents (one per chapter of the text)
# and checks it against the checksum the book was written against.
#
# usage: tools/extract-corpus.sh OUT EXPECTED_SHA256_FILE
#
# OUT is written only when the checksum matches: the text goes to a
# temporary file next to OUT and is renamed over it, so a failed run
# leaves OUT as it was (or absent). If OUT already holds exactly these
# bytes it is left alone, so nothing that depends on it reruns.
#
# The format of OUT (read back by llm::read_documents):
#   every document starts with a line holding the record separator U+001E
#   followed by the document's name ("Ge 1", "1Sm 3", ...); the lines after
#   it, up to the next separator or the end of the file, are its text, one
#   verse per line, each ending in "\n". The text is ASCII, so plain UTF-8;
#   the verse references are dropped, runs of spaces become one space and
#   spaces at the end of a line are removed.
set -euo pipefail
out=$1 expected_file=$2

command -v bible > /dev/null || {
  echo "corpus: the program 'bible' is missing; install the Debian packages" \
       "bible-kjv and bible-kjv-text (tools/setup.sh does)" >&2
  exit 1
}
[[ -r "$expected_file" ]] || {
  echo "corpus: cannot read the expected checksum $expected_file" >&2
  exit 1
}
expected=$(tr -d ' \n' < "$expected_file")

mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$out.tmp.XXXXXX")
trap 'rm -f "$tmp"' EXIT

# -f turns pretty-printing off: one verse per line, "Ge1:1 In the ...",
# and no line breaking whatever COLUMNS says; -p /usr/lib reads the
# package's data, never a bible.data in the current directory.
LC_ALL=C bible -f -p /usr/lib 'gen1:1-rev22:21' < /dev/null | LC_ALL=C awk '
  {
    if (!match($0, /^[0-9]?[A-Za-z]+[0-9]+:[0-9]+ /)) {
      printf "corpus: line %d of the bible output has no verse reference: %s\n",
             NR, $0 > "/dev/stderr"
      exit 1
    }
    ref = substr($0, 1, RLENGTH - 1)
    text = substr($0, RLENGTH + 1)
    sub(/:[0-9]+$/, "", ref)              # "Ge1:1" -> "Ge1"
    match(ref, /[0-9]+$/)
    name = substr(ref, 1, RSTART - 1) " " substr(ref, RSTART)   # "Ge 1"
    gsub(/ +/, " ", text)
    sub(/ +$/, "", text)
    sub(/^ +/, "", text)
    if (name != last) { printf "\036%s\n", name; last = name }
    print text
  }' > "$tmp"

actual=$(sha256sum "$tmp" | cut -d' ' -f1)
if [[ "$actual" != "$expected" ]]; then
  echo "corpus: the text of the Debian package bible-kjv-text differs from" \
       "the one this book was written against" >&2
  echo "corpus:   expected SHA-256 $expected ($expected_file)" >&2
  echo "corpus:   actual   SHA-256 $actual" >&2
  echo "corpus: installed version: $(dpkg-query -W -f='${Version}' bible-kjv-text 2>/dev/null || echo unknown);" \
       "$out was not written" >&2
  exit 1
fi

if [[ -f "$out" ]] && cmp -s "$tmp" "$out"; then
  exit 0
fi
chmod 644 "$tmp"
mv -f "$tmp" "$out"
trap - EXIT
