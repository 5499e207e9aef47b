// How close the book's product comes to what one core can do. Measures,
// on one thread, in double precision:
//   - the core's peak rate when every product and every sum is its own
//     instruction and rounding (what the book's bits allow: the simple
//     code multiplies, rounds, adds, rounds), with the widest vectors the
//     processor has;
//   - its peak rate with fused multiply-adds (one rounding each, what an
//     optimised BLAS such as OpenBLAS uses), on the same vectors;
//   - llm::matmul on a 512^3 product and on the products of one window
//     of the book's training step (T = 64 rows; d 96, f 256, V 1026).
// Each as GFLOP/s (a multiply-add counts 2), best of REPETITIONS runs,
// and as a fraction of the first peak. Not a test: timings vary by
// machine and by load. tools/bench-peak.sh builds and runs it, with
// OpenBLAS's product for comparison.
//
// usage: bench_peak [REPETITIONS]   (default 5)
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "llm/matmul.hpp"
#include "llm/tensor.hpp"
#include "llm/threads.hpp"
#include "splitmix.hpp"  // tests/unit/

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define BENCH_PEAK_X86 1
#endif

namespace {

// Independent sums: enough that neither the latency of an addition
// (about 4 cycles) nor that of a multiply-add limits the rate, only the
// number of vector units.
constexpr int kChains = 12;
// s = s x + y converges to y / (1 - x) = 1 and stays a normal number.
constexpr double kX = 0.999999, kY = 1e-6;

// Best wall-clock seconds of `reps` calls of `f`.
template <typename F>
double best_seconds(int reps, F f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    const auto stop = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(stop - start).count());
  }
  return best;
}

double sink = 0.0;  // results land here, so no loop is dropped

#ifdef BENCH_PEAK_X86
// kChains vectors of 8 doubles, s = s x + y `iters` times: a multiply
// and an add per element (separate), or one fused multiply-add.
__attribute__((target("avx512f"))) void separate_512(long iters) {
  __m512d s[kChains];
  for (int c = 0; c < kChains; ++c) s[c] = _mm512_set1_pd(1.0 + c);
  const __m512d x = _mm512_set1_pd(kX), y = _mm512_set1_pd(kY);
  for (long i = 0; i < iters; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) {
      s[c] = _mm512_add_pd(_mm512_mul_pd(s[c], x), y);
    }
  }
  double lanes[8];
  for (int c = 0; c < kChains; ++c) {
    _mm512_storeu_pd(lanes, s[c]);
    for (const double v : lanes) sink += v;
  }
}

__attribute__((target("avx512f"))) void fused_512(long iters) {
  __m512d s[kChains];
  for (int c = 0; c < kChains; ++c) s[c] = _mm512_set1_pd(1.0 + c);
  const __m512d x = _mm512_set1_pd(kX), y = _mm512_set1_pd(kY);
  for (long i = 0; i < iters; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) s[c] = _mm512_fmadd_pd(s[c], x, y);
  }
  double lanes[8];
  for (int c = 0; c < kChains; ++c) {
    _mm512_storeu_pd(lanes, s[c]);
    for (const double v : lanes) sink += v;
  }
}

// The same with vectors of 4 doubles.
__attribute__((target("avx2"))) void separate_256(long iters) {
  __m256d s[kChains];
  for (int c = 0; c < kChains; ++c) s[c] = _mm256_set1_pd(1.0 + c);
  const __m256d x = _mm256_set1_pd(kX), y = _mm256_set1_pd(kY);
  for (long i = 0; i < iters; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) {
      s[c] = _mm256_add_pd(_mm256_mul_pd(s[c], x), y);
    }
  }
  double lanes[4];
  for (int c = 0; c < kChains; ++c) {
    _mm256_storeu_pd(lanes, s[c]);
    for (const double v : lanes) sink += v;
  }
}

__attribute__((target("avx2,fma"))) void fused_256(long iters) {
  __m256d s[kChains];
  for (int c = 0; c < kChains; ++c) s[c] = _mm256_set1_pd(1.0 + c);
  const __m256d x = _mm256_set1_pd(kX), y = _mm256_set1_pd(kY);
  for (long i = 0; i < iters; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) s[c] = _mm256_fmadd_pd(s[c], x, y);
  }
  double lanes[4];
  for (int c = 0; c < kChains; ++c) {
    _mm256_storeu_pd(lanes, s[c]);
    for (const double v : lanes) sink += v;
  }
}
#endif

struct Peaks {
  std::string width;  // "AVX-512 (8 doubles)", ...
  double separate = 0.0, fused = 0.0;  // GFLOP/s
};

// The peaks on the widest vectors the processor runs, or none.
Peaks peaks(int reps) {
  Peaks p;
#ifdef BENCH_PEAK_X86
  constexpr long kIters = 20'000'000;
  const auto rate = [&](void (*kernel)(long), int lanes) {
    const double flops = 2.0 * kIters * kChains * lanes;
    return flops / best_seconds(reps, [&] { kernel(kIters); }) / 1e9;
  };
  if (__builtin_cpu_supports("avx512f")) {
    p = {"AVX-512, 8 doubles", rate(separate_512, 8), rate(fused_512, 8)};
  } else if (__builtin_cpu_supports("avx2") &&
             __builtin_cpu_supports("fma")) {
    p = {"AVX2, 4 doubles", rate(separate_256, 4), rate(fused_256, 4)};
  }
#else
  (void)reps;
#endif
  return p;
}

// GFLOP/s of llm::matmul on [m, k] x [k, n]; a or b may be a transposed
// view, as the step's products read their operands.
double product_rate(int reps, std::size_t m, std::size_t k, std::size_t n,
                    bool a_transposed, bool transposed) {
  const llm::Tensor a = a_transposed
                            ? llm::Tensor({k, m}, splitmix_values(m * k, 1))
                                  .transpose(0, 1)
                            : llm::Tensor({m, k}, splitmix_values(m * k, 1));
  const llm::Tensor b = transposed
                            ? llm::Tensor({n, k}, splitmix_values(n * k, 2))
                                  .transpose(0, 1)
                            : llm::Tensor({k, n}, splitmix_values(k * n, 2));
  // A product is repeated to about 1e8 operations a timing (2 ms at 50
  // GFLOP/s), so that a small one is not lost in the clock's resolution.
  const double flops = 2.0 * double(m) * double(k) * double(n);
  const int times = std::max(1, int(1e8 / flops));
  const double s = best_seconds(reps, [&] {
    for (int t = 0; t < times; ++t) sink += llm::matmul(a, b).at({0, 0});
  });
  return flops * times / s / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  if (reps < 1 || reps > 1000) {
    std::fprintf(stderr, "usage: bench_peak [REPETITIONS, 1 to 1000]\n");
    return 2;
  }
  llm::set_threads(1);
  const Peaks p = peaks(reps);
  if (p.width.empty()) {
    std::printf("peaks: not measured (needs x86-64 with AVX2 and FMA)\n");
  }
  const double unit = p.separate > 0.0 ? p.separate : 1.0;
  std::printf("one thread, double precision, best of %d runs\n", reps);
  std::printf("%-48s %9s %9s\n", "kernel", "GFLOP/s", "of peak");
  const auto line = [&](const std::string& what, double rate) {
    if (p.separate > 0.0) {
      std::printf("%-48s %9.1f %9.2f\n", what.c_str(), rate, rate / unit);
    } else {
      std::printf("%-48s %9.1f %9s\n", what.c_str(), rate, "-");
    }
  };
  if (!p.width.empty()) {
    line("peak, multiply then add (" + p.width + ")", p.separate);
    line("peak, fused multiply-add (" + p.width + ")", p.fused);
  }
  line("llm::matmul 512 x 512 x 512",
       product_rate(reps, 512, 512, 512, false, false));
  struct Shape {
    const char* what;
    std::size_t m, k, n;
    bool a_transposed, transposed;
  };
  // Products of one window of the step (T = 64 rows), as the step makes
  // them: a layer's forward x W^T (W stored [out, in]), its backward
  // products dY W and dY^T X; the logits and the output layer's dW.
  const Shape step[] = {
      {"step: x W^T, [64, 96] x [96, 256]", 64, 96, 256, false, true},
      {"step: dY W, [64, 256] x [256, 96]", 64, 256, 96, false, false},
      {"step: dY^T X, [256, 64] x [64, 96]", 256, 64, 96, true, false},
      {"step: logits, [64, 96] x [96, 1026]", 64, 96, 1026, false, true},
      {"step: output's dW, [1026, 64] x [64, 96]", 1026, 64, 96, true,
       false},
  };
  for (const Shape& s : step) {
    line(s.what,
         product_rate(reps, s.m, s.k, s.n, s.a_transposed, s.transposed));
  }
  return sink == 12345.0 ? 1 : 0;  // uses sink; never 12345
}
