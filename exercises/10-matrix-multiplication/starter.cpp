// Exercise of the matrix-multiplication chapter: a matrix product that
// compiles, runs, and is wrong in three places. Fix it until the
// exercise tests pass:
//
//   cmake --build build --target run_exercise_10
#include "exercise.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace exercise {

using llm::Tensor;

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a.rank() != 2 || b.rank() != 2 || a.shape()[1] != b.shape()[0]) {
    throw llm::ShapeError("exercise::matmul: a is " +
                          llm::to_string(a.shape()) + ", b is " +
                          llm::to_string(b.shape()) +
                          " (want [m, k] and [k, n])");
  }
  const std::size_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  // Both operands as row-major buffers: a[i][p] sits at position
  // i * k + p, b[p][j] at position p * n + j.
  const std::vector<double> av = a.to_vector(), bv = b.to_vector();
  std::vector<double> c(m * n);

  // The dot-product form, order i-j-p: row i of a against column j of b.
  double sum = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t p = 0; p < k; ++p) {
        sum += av[p * m + i] * bv[p * k + j];
      }
      c[i * n + j] = sum;
    }
  }
  return Tensor({m, n}, std::move(c));
}

}  // namespace exercise
