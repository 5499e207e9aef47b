#!/usr/bin/python3
"""CTest book-cited-tests: every unit test the prose names exists.

A chapter (chapters/NN-slug.md) that says "the unit test `NAME` checks it" (or "the unit tests
`A`, `B` and `C`") makes a claim that only holds while a test of that
name exists. This reads every chapter, joins its lines (a code span may
break across them), finds each backticked name after "unit test" or
"unit tests" (a list joined by commas and "and" counts), and requires it
among the names UNIT_TESTS --list-test-names-only prints. (A name with
a comma is fine here, but Catch2 reads a comma on its command line as a
separator: such a test runs by its tag, `ctest -L chNN`, or with the
comma escaped as "\,".)

usage: /usr/bin/python3 tools/cited-tests.py UNIT_TESTS CHAPTERS_DIR
"""
import pathlib
import re
import subprocess
import sys

CITED = re.compile(r"unit tests?\s+((?:`[^`]+`(?:,\s*|\s+and\s+)?)+)")
NAME = re.compile(r"`([^`]+)`")


def cited(text):
    """(name, offset) for each test name the text cites."""
    flat = re.sub(r"\s+", " ", text)
    for m in CITED.finditer(flat):
        for n in NAME.finditer(m.group(1)):
            yield n.group(1), m.start()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    # Catch2 v2 exits with the number of tests listed, so the status is
    # no verdict; an empty list is.
    listed = subprocess.run([sys.argv[1], "--list-test-names-only"],
                            capture_output=True, text=True)
    names = {line.strip() for line in listed.stdout.splitlines()}
    if not names - {""}:
        sys.exit(f"cited-tests: {sys.argv[1]} listed no tests: "
                 f"{listed.stderr.strip()}")
    problems, count = [], 0
    for path in sorted(pathlib.Path(sys.argv[2]).glob("[0-9]*.md")):  # NN-slug.md
        for name, _ in cited(path.read_text(encoding="utf-8")):
            count += 1
            if name not in names:
                problems.append(f"{path}: names the unit test `{name}`, "
                                "which no test case is called")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        sys.exit(1)
    if count == 0:
        sys.exit("cited-tests: found no cited unit test; is the pattern "
                 "still the chapters' wording?")
    print(f"cited-tests: {count} unit test names cited in the prose, "
          "every one a test case")


main()
