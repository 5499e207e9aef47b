// Exercise of the gradient-checking chapter: a numeric gradient by
// central differences that compiles, runs, and is wrong in two places.
// Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_12
#include "exercise.hpp"

#include <cmath>
#include <cstddef>
#include <string>

namespace exercise {

std::vector<double> numeric_gradient(const llm::MultiFunction& f,
                                     const std::vector<double>& x,
                                     double h) {
  if (!(h > 0.0) || !std::isfinite(h)) {
    throw llm::ConfigError("exercise::numeric_gradient: step h must be "
                           "positive and finite, got " + std::to_string(h));
  }
  std::vector<double> point = x;  // the probe, moved one coordinate at a time
  std::vector<double> gradient(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    point[i] = x[i] + h;
    const double up = f(point);
    point[i] = x[i] - h;
    const double down = f(point);
    gradient[i] = (up - down) / h;
  }
  return gradient;
}

}  // namespace exercise
