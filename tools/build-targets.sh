# Sourced by the benchmark scripts:
#   build_targets WHO TARGET...          builds TARGETs in build/
#   build_targets_in DIR WHO TARGET...   builds TARGETs in the build tree DIR
# without printing the build's progress. If the build fails, prints its
# output and "WHO: building TARGET... failed" on standard error and exits
# 1 (Ninja prints a failed command's output, the compiler's errors
# included, on its standard output, so sending that to /dev/null would
# hide them). The output is held in a variable, not a file, so an
# interrupted build leaves nothing behind and the caller's traps stay
# its own.
build_targets_in() {
  local dir=$1 who=$2 output
  shift 2
  if ! output=$(cmake --build "$dir" --target "$@" 2>&1); then
    printf '%s\n' "$output" >&2
    echo "$who: building $* failed" >&2
    exit 1
  fi
}
build_targets() {
  build_targets_in build "$@"
}
