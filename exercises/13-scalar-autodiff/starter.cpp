// Exercise of the scalar-autodiff chapter: the backward pass, which
// compiles, runs, and is wrong in three places. Fix it until the exercise
// tests pass:
//
//   cmake --build build --target run_exercise_13
#include "exercise.hpp"

namespace exercise {

std::vector<double> gradients(const std::vector<Node>& nodes,
                              std::size_t output) {
  std::vector<double> grad(nodes.size(), 0.0);
  grad[output] = 1.0;  // d(output)/d(output)
  for (std::size_t i = 0; i <= output; ++i) {
    const Node& n = nodes[i];
    for (std::size_t k = 0; k < n.inputs.size(); ++k) {
      grad[n.inputs[k]] = n.local_grads[k] * grad[n.inputs[k]];
    }
  }
  return grad;
}

}  // namespace exercise
