// Times the book's llm::matmul (loop order i-p-j over contiguous rows)
// against a plain i-j-p triple loop, in double precision, and checks that
// both give the same result. Prints GFLOP/s = 2 m n k / seconds, best of
// several repetitions. Not part of the tests: timings vary by machine.
//
// usage: bench_matmul [REPETITIONS]
// (tools/bench-matmul.sh builds and runs it)
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "llm/matmul.hpp"
#include "llm/tensor.hpp"
#include "matmul_reference.hpp"  // tests/unit/
#include "splitmix.hpp"          // tests/unit/

namespace {

// Best wall-clock seconds of `reps` runs of `f`; the last result in `out`.
template <typename F>
double best_seconds(int reps, F f, std::vector<double>& out) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    out = f();
    const auto stop = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(stop - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  if (reps < 1) {
    std::fprintf(stderr, "usage: bench_matmul [REPETITIONS >= 1]\n");
    return 2;
  }
  std::printf("%-6s %-22s %10s %10s\n", "size", "loop order", "seconds",
              "GFLOP/s");
  bool all_same = true;
  for (std::size_t n : {256, 512}) {
    const std::vector<double> a = splitmix_values(n * n, 1);
    const std::vector<double> b = splitmix_values(n * n, 2);
    const llm::Tensor ta({n, n}, a), tb({n, n}, b);
    std::vector<double> book_c, naive_c;
    const double t_book = best_seconds(
        reps, [&] { return llm::matmul(ta, tb).to_vector(); }, book_c);
    const double t_naive = best_seconds(
        reps, [&] { return naive_matmul(a, b, n, n, n); }, naive_c);
    const double flops = 2.0 * n * n * n;
    std::printf("%-6zu %-22s %10.4f %10.3f\n", n, "llm::matmul (i-p-j)",
                t_book, flops / t_book * 1e-9);
    std::printf("%-6zu %-22s %10.4f %10.3f\n", n, "plain loop (i-j-p)",
                t_naive, flops / t_naive * 1e-9);
    const bool same = book_c == naive_c;
    all_same = all_same && same;
    std::printf("%-6zu speed-up %.2fx, results %s\n", n, t_naive / t_book,
                same ? "identical (bitwise)" : "DIFFER");
  }
  return all_same ? 0 : 1;
}
