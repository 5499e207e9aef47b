// Exercise of the stable-softmax chapter: a row-wise softmax that
// compiles, runs, and is wrong in three places. Fix it until the
// exercise tests pass:
//
//   cmake --build build --target run_exercise_11
#include "exercise.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace exercise {

using llm::Tensor;

Tensor softmax(const Tensor& x) {
  if (x.rank() != 2 || x.shape()[1] == 0) {
    throw llm::ShapeError("exercise::softmax: x is " +
                          llm::to_string(x.shape()) +
                          ", want [r, n] with n >= 1");
  }
  const std::size_t r = x.shape()[0], n = x.shape()[1];
  const std::vector<double> v = x.to_vector();  // x[i][j] at i * n + j
  std::vector<double> p(r * n);

  // Pass 1: exp(x - m) along each row, m the row's largest logit.
  for (std::size_t i = 0; i < r; ++i) {
    const double* row = v.data() + i * n;
    double m = 0.0;
    for (std::size_t j = 0; j < n; ++j) m = std::max(m, row[j]);
    for (std::size_t j = 0; j < n; ++j) p[i * n + j] = std::exp(row[j]);
  }

  // Pass 2: divide the exponentials by their total, so they add up to 1.
  for (std::size_t j = 0; j < n; ++j) {
    double total = 0.0;
    for (std::size_t i = 0; i < r; ++i) total += p[i * n + j];
    for (std::size_t i = 0; i < r; ++i) p[i * n + j] /= total;
  }
  return Tensor({r, n}, std::move(p));
}

}  // namespace exercise
