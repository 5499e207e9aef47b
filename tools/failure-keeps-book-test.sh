#!/usr/bin/env bash
# A failed build leaves the previous complete book in place. Builds a copy
# of the project cut down to three chapters (text-units, where llm::Error
# starts, and the two tensor chapters), then breaks chapter 07
# in several ways; each build must fail naming the chapter's file and line,
# and build/book must keep exactly the bytes of the last good book.
#
# usage: tools/failure-keeps-book-test.sh WORKDIR   (from the project root)
set -euo pipefail
root=$(pwd)
work=$(realpath -m "$1")
rm -rf "$work"
mkdir -p "$work/src"
git -C "$root" ls-files -z | (cd "$root" && xargs -0 cp --parents -t "$work/src")
cd "$work/src"
keep="01-text-units 07-tensor-storage 08-tensor-views"
shopt -s nullglob
for f in chapters/[0-9][0-9]-*.md chapters/[0-9][0-9]r-*.md; do
  stem=$(basename "$f" .md)
  [[ " $keep " == *" $stem "* ]] || rm "$f"
done
# An exercise belongs to a chapter book.yaml lists (cmake/BookChapters.cmake).
for d in exercises/[0-9][0-9]*-*/; do
  stem=$(basename "$d")
  [[ " $keep " == *" $stem "* ]] || rm -r "$d"
done
cat > book/book.yaml <<'YAML'
title: "Failure test"
parts:
  - number: 1
    title: Text
    chapters:
      - 01-text-units
  - number: 2
    title: Tensors
    chapters:
      - 07-tensor-storage
      - 08-tensor-views
YAML
# The book's preface quotes the end-to-end chapter's sample, which this
# copy does not build: it gets a preface about its own three chapters.
cat > book/preface.html <<'HTML'
<section class="preface"><p>Three chapters of the book.</p></section>
HTML
# Keep only the unit tests of the kept chapters (a test file belongs to
# the chapter whose slug its test cases' first tag names, [text-units]
# for 01-text-units).
slugs=$(for stem in $keep; do printf '%s|' "${stem#*-}"; done)
for f in tests/unit/test_*.cpp; do
  grep -qE "\"\[(${slugs%|})\]" "$f" || rm "$f"
done
# The copy compiles the same tool sources as the main build: with the
# compiler cache (tools/setup.sh installs it) and paths hashed relative to
# the copy, most of its compiles are hits.
cache=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR="$work/src" CCACHE_NOHASHDIR=1
  cache=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cache[@]}" > /dev/null
# Only the book: the tests of this copy are not what is being tested.
cmake --build build --target book > build.log 2>&1 \
  || { cat build.log; echo "FAIL: the cut-down book does not build"; exit 1; }

fingerprint() {
  (cd build/book/ && find . -type f -print0 | sort -z | xargs -0 sha256sum) \
    | sha256sum
}
good=$(fingerprint)
good_link=$(readlink build/book)
chapter=chapters/07-tensor-storage.md
cp "$chapter" "$work/original.md"
status=0

expect_failure() {  # name, expected message pattern
  local name=$1 pattern=$2
  if cmake --build build --target book > "$work/$name.log" 2>&1; then
    echo "FAIL ($name): the build succeeded"; status=1
  elif ! grep -Eq "$pattern" "$work/$name.log"; then
    echo "FAIL ($name): no message matching: $pattern"
    grep -E '^(chapters|snippets)/' "$work/$name.log" | head -5
    status=1
  elif [[ $(fingerprint) != "$good" || $(readlink build/book) != "$good_link" ]]; then
    echo "FAIL ($name): build/book changed"; status=1
  else
    echo "ok ($name): $(grep -Em1 "$pattern" "$work/$name.log")"
  fi
  cp "$work/original.md" "$chapter"
}

line=$(grep -n '{value=' "$chapter" | head -1 | cut -d: -f1)
sed -i "${line}s/\[\([0-9]*\)\]{value=/[9\1]{value=/" "$chapter"
expect_failure checked-value "^chapters/07-tensor-storage.md:$line: checked value"

printf '\nBroken math $\\frac{1}$ here.\n' >> "$chapter"
expect_failure invalid-tex "^chapters/07-tensor-storage.md:[0-9]+: invalid TeX"

printf '\nLatin-1: caf\xe9.\n' >> "$chapter"
expect_failure invalid-utf8 "^chapters/07-tensor-storage.md:[0-9]+: invalid UTF-8"

demo=$(grep -n '^int main' "$chapter" | head -1 | cut -d: -f1)
sed -i "${demo}a\\  std::abort();" "$chapter"
expect_failure demo-crash "^chapters/07-tensor-storage.md:[0-9]+: demo ch07 (was killed|exited)"

printf '\n```{.cpp file="llm/tensor.hpp" region="tensor-class"}\nint x;\n```\n' >> "$chapter"
expect_failure duplicate-region "^chapters/07-tensor-storage.md:[0-9]+: duplicate region"

printf '\n```{.cpp file="../escape.hpp" region="escape"}\nint x;\n```\n' >> "$chapter"
expect_failure escaping-file "^chapters/07-tensor-storage.md:[0-9]+: file '../escape.hpp' escapes"

# Restored: the build succeeds again.
if ! cmake --build build --target book > "$work/restored.log" 2>&1; then
  cat "$work/restored.log"; echo "FAIL: the restored book does not build"; status=1
fi
exit $status
