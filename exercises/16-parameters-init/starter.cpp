// Exercise of the parameters-init chapter: a Box-Muller normal draw
// that compiles, runs, and is wrong in two places. Fix it until the
// exercise tests pass:
//
//   cmake --build build --target run_exercise_16
#include "exercise.hpp"

#include <cmath>
#include <numbers>

namespace exercise {

double normal(llm::Rng& rng) {
  // The radius from one uniform, the angle from another; 1 - u1 lies in
  // (0, 1], so the logarithm is finite.
  const double u1 = rng.uniform();
  const double u2 = u1;
  const double radius = std::sqrt(-std::log(1.0 - u1));
  return radius * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace exercise
