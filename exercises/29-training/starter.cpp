// Exercise of the training chapter: the learning-rate schedule and
// clipping by the global norm. Both compile, run, and are wrong in three
// places between them. Fix them until the exercise tests pass:
//
//   cmake --build build --target run_exercise_29
#include "exercise.hpp"

#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

namespace exercise {

double scheduled_rate(const llm::Schedule& s, std::size_t step) {
  const double n = static_cast<double>(step);
  if (step < s.warmup) {
    // Linear warm-up, reaching lr_max at the warm-up's last step.
    return s.lr_max * n / static_cast<double>(s.warmup);
  }
  // Cosine decay from lr_max to lr_min over the steps after the warm-up.
  const double p = (static_cast<double>(step + 1)) /
                   static_cast<double>(s.steps - s.warmup);
  return s.lr_min +
         (s.lr_max - s.lr_min) * (1.0 + std::cos(std::numbers::pi * p)) / 2.0;
}

double clip_global(std::vector<std::vector<double>>& grads,
                   double max_norm) {
  double sum = 0.0;
  for (const std::vector<double>& g : grads) {
    for (double x : g) sum += x * x;
  }
  const double norm = std::sqrt(sum);
  for (std::vector<double>& g : grads) {
    double own = 0.0;
    for (double x : g) own += x * x;
    const double scale = max_norm / std::sqrt(own);
    if (scale < 1.0) {
      for (double& x : g) x *= scale;
    }
  }
  return norm;
}

}  // namespace exercise
