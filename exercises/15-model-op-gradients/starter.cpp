// Exercise of the model-op-gradients chapter: the gradient of the
// cross-entropy loss with respect to the logits, which compiles, runs,
// and is wrong in three places. Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_15
#include "exercise.hpp"

#include <cstddef>
#include <string>
#include <utility>

#include "llm/softmax.hpp"

namespace exercise {

using llm::Tensor;

Tensor cross_entropy_grad(const Tensor& logits,
                          const std::vector<std::size_t>& targets) {
  if (logits.rank() != 2 || logits.shape()[0] != targets.size()) {
    throw llm::ShapeError("exercise::cross_entropy_grad: logits is " +
                          llm::to_string(logits.shape()) + " for " +
                          std::to_string(targets.size()) + " targets");
  }
  const std::size_t n = logits.shape()[0], v = logits.shape()[1];
  // softmax(logits), row i at i * v; it becomes the gradient in place.
  std::vector<double> g = llm::softmax(logits).to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    if (targets[i] >= v) {
      throw llm::IndexError("exercise::cross_entropy_grad: target " +
                            std::to_string(targets[i]) + " of row " +
                            std::to_string(i) + " is not below " +
                            std::to_string(v));
    }
    g[i * v + i] += 1.0;  // the one-hot of the target
  }
  return Tensor({n, v}, std::move(g));
}

}  // namespace exercise
