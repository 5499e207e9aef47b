# Sourced by the benchmark scripts:
#   build_targets WHO TARGET...
# builds TARGETs in build/ without printing the build's progress; if the
# build fails, prints its output and "WHO: building TARGET... failed" on
# standard error and exits 1 (the build's compilers write their errors
# on standard output, so sending it to /dev/null would hide them).
build_targets() {
  local who=$1
  shift
  local log
  log=$(mktemp)
  if ! cmake --build build --target "$@" > "$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "$who: building $* failed" >&2
    exit 1
  fi
  rm -f "$log"
}
