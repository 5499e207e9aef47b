// Exercise of the fast-kernels chapter: a tiled matrix product, which
// compiles, runs, and is wrong in three places. Fix it until the exercise
// tests pass:
//
//   cmake --build build --target run_exercise_27
#include "exercise.hpp"

#include <algorithm>

namespace exercise {

std::vector<double> matmul_tiled(const std::vector<double>& a,
                                 const std::vector<double>& b,
                                 std::size_t m, std::size_t k, std::size_t n) {
  std::vector<double> c(m * n, 0.0);
  const std::size_t half = k / 2;
  for (std::size_t i0 = 0; i0 + 4 <= m; i0 += 4) {
    double acc[4][8] = {};  // the tile's sums, C[i0 + r][j0 + q]
    double rest[4][8] = {};
    for (std::size_t j0 = 0; j0 < n; j0 += 8) {
      const std::size_t rows = std::min<std::size_t>(4, m - i0);
      const std::size_t cols = std::min<std::size_t>(8, n - j0);
      for (std::size_t p = 0; p < half; ++p) {
        for (std::size_t r = 0; r < rows; ++r) {
          const double x = a[(i0 + r) * k + p];
          for (std::size_t q = 0; q < cols; ++q) acc[r][q] += x * b[p * n + j0 + q];
        }
      }
      for (std::size_t p = half; p < k; ++p) {
        for (std::size_t r = 0; r < rows; ++r) {
          const double x = a[(i0 + r) * k + p];
          for (std::size_t q = 0; q < cols; ++q) rest[r][q] += x * b[p * n + j0 + q];
        }
      }
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t q = 0; q < cols; ++q) {
          c[(i0 + r) * n + j0 + q] = acc[r][q] + rest[r][q];
        }
      }
    }
  }
  return c;
}

}  // namespace exercise
