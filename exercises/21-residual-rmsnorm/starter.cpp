// Exercise of the residual-rmsnorm chapter: RMS normalisation that
// compiles, runs, and is wrong in three places. Fix it until the
// exercise tests pass:
//
//   cmake --build build --target run_exercise_21
#include "exercise.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace exercise {

using llm::Tensor;

Tensor rms_norm(const Tensor& x, const Tensor& gain, double eps) {
  if (x.rank() == 0 || gain.rank() != 1 || gain.shape()[0] == 0 ||
      x.shape().back() != gain.shape()[0]) {
    throw llm::ShapeError("exercise::rms_norm: x is " +
                          llm::to_string(x.shape()) + ", gain is " +
                          llm::to_string(gain.shape()) +
                          ", expected [..., d] and [d], d > 0");
  }
  if (!std::isfinite(eps) || eps <= 0.0) {
    throw llm::ConfigError("exercise::rms_norm: expected a finite eps > 0,"
                           " got " + std::to_string(eps));
  }
  const std::size_t d = gain.shape()[0];
  std::vector<double> y = x.to_vector();  // rows of d numbers, in place
  const std::size_t rows = y.size() / d;

  for (std::size_t i = 0; i < rows; ++i) {
    double* row = y.data() + i * d;
    double total = 0.0;
    for (std::size_t j = 0; j < d; ++j) total += row[j];
    const double mean_square = total / static_cast<double>(d);
    const double rms = std::sqrt(mean_square) + eps;
    for (std::size_t j = 0; j < d; ++j) {
      row[j] = row[j] / rms * gain.at({i});
    }
  }
  return Tensor(x.shape(), std::move(y));
}

}  // namespace exercise
