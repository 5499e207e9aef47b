# Sourced by tools/bench-train.sh and tools/profile-train.sh: builds
# bench_train at an earlier commit, in a worktree of its own under
# build-bench/ (kept for the next run), and sets before_sha and
# before_bin. The commit is $BENCH_BEFORE, by default HEAD~1, which
# after a merge is main before it.
#
# BENCH_BEFORE=simple compares with the simple reference instead: the
# working tree's chapters without fast-kernels' revisions, built by
# tools/build-simple.sh under build-bench/simple (the same model and
# step, every kernel as its own chapter taught it).
if [[ ${BENCH_BEFORE:-} == simple ]]; then
  echo "building bench_train without fast-kernels' revisions (simple) ..." >&2
  before_sha=simple
  before_bin=$(tools/build-simple.sh build-bench/simple)
  return 0
fi
before_rev=${BENCH_BEFORE:-HEAD~1}
before_sha=$(git rev-parse --short=12 "$before_rev^{commit}")
before_src=$(pwd)/build-bench/src-$before_sha
before_build=$(pwd)/build-bench/build-$before_sha
if [[ ! -d $before_src ]]; then
  mkdir -p build-bench
  git worktree add --detach "$before_src" "$before_sha" > /dev/null 2>&1
fi
if [[ ! -f $before_build/build.ninja ]]; then
  cmake -S "$before_src" -B "$before_build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
fi
echo "building bench_train at $before_sha (before) ..." >&2
source tools/build-targets.sh
build_targets_in "$before_build" "bench_train at $before_sha" bench_train
before_bin=$before_build/tools/bench_train
