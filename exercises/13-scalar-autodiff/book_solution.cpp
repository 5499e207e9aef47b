// The chapter's backward pass behind the exercise's interface: the tests
// must pass on it. llm::Value::backward does the same over its own nodes
// (in topological order, reversed); the tests compare the two.
#include "exercise.hpp"

namespace exercise {

std::vector<double> gradients(const std::vector<Node>& nodes,
                              std::size_t output) {
  std::vector<double> grad(nodes.size(), 0.0);
  grad[output] = 1.0;
  for (std::size_t i = output + 1; i-- > 0;) {
    const Node& n = nodes[i];
    for (std::size_t k = 0; k < n.inputs.size(); ++k) {
      grad[n.inputs[k]] += n.local_grads[k] * grad[i];
    }
  }
  return grad;
}

}  // namespace exercise
