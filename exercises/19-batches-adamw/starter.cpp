// Exercise of the batches-adamw chapter: one AdamW step that compiles,
// runs, and is wrong in three places. Fix it until the exercise tests
// pass:
//
//   cmake --build build --target run_exercise_19
#include "exercise.hpp"

#include <cmath>
#include <cstddef>
#include <string>

namespace exercise {

void adamw_step(std::vector<double>& theta, const std::vector<double>& grad,
                Moments& state, const llm::AdamWOptions& options,
                bool decay) {
  const std::size_t n = theta.size();
  if (grad.size() != n) {
    throw llm::ShapeError("exercise::adamw_step: " + std::to_string(n) +
                          " weights but " + std::to_string(grad.size()) +
                          " gradients");
  }
  if (state.m.empty()) state.m.assign(n, 0.0);  // the first step
  if (state.v.empty()) state.v.assign(n, 0.0);
  const llm::AdamWOptions& o = options;
  const double lambda = decay ? o.weight_decay : 0.0;

  // Step t counts from 1; both moments start at 0, biased towards it.
  const double t = static_cast<double>(state.step++);
  const double c1 = 1.0 - std::pow(o.beta1, t);
  const double c2 = 1.0 - std::pow(o.beta2, t);
  for (std::size_t k = 0; k < n; ++k) {
    const double g = grad[k] + lambda * theta[k];
    state.m[k] = o.beta1 * state.m[k] + (1.0 - o.beta1) * g;
    state.v[k] = o.beta2 * state.v[k] + (1.0 - o.beta2) * g * g;
    const double m_hat = state.m[k], v_hat = state.v[k];
    theta[k] -= o.lr * (m_hat / (std::sqrt(v_hat) + o.eps));
  }
}

}  // namespace exercise
