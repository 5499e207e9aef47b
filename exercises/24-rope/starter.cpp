// Exercise of the rope chapter: rotary position embedding that
// compiles, runs, and is wrong in three places. Fix it until the
// exercise tests pass:
//
//   cmake --build build --target run_exercise_24
#include "exercise.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace exercise {

using llm::Tensor;

Tensor rope(const Tensor& x, std::size_t offset, double base) {
  if (x.rank() != 2) {
    throw llm::ShapeError("exercise::rope: x is " +
                          llm::to_string(x.shape()) + ", want [T, d]");
  }
  const std::size_t t_len = x.shape()[0], d = x.shape()[1];
  if (d == 0 || d % 2 != 0 || !std::isfinite(base) || base <= 1.0) {
    throw llm::ConfigError("exercise::rope: want an even d > 0 and a "
                           "finite base > 1, got d = " + std::to_string(d) +
                           ", base = " + std::to_string(base));
  }
  const std::size_t pairs = d / 2;
  const std::vector<double> in = x.to_vector();  // row t at t * d
  std::vector<double> out(in.size());

  for (std::size_t t = 0; t < t_len; ++t) {
    const std::size_t position = offset + t;
    const std::size_t at = t * d;
    for (std::size_t k = 0; k < pairs; ++k) {
      // theta_k = base^(-2k / d); the pair turns by position * theta_k.
      const double theta = std::pow(base, -double(2 * k / d));
      const double angle = double(position) * theta;
      const double c = std::cos(angle), s = std::sin(angle);
      const std::size_t first = k, second = k + pairs;  // the pair
      const double a = in[at + first], b = in[at + second];
      out[at + first] = a * c + b * s;
      out[at + second] = b * c - a * s;
    }
  }
  return Tensor({t_len, d}, std::move(out));
}

}  // namespace exercise
