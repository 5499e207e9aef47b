// Exercise of the embeddings-linear chapter: the backward pass of an
// embedding lookup, which compiles, runs, and is wrong in two places.
// Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_17
#include "exercise.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace exercise {

using llm::Tensor;

Tensor embedding_backward(const Tensor& grad_out,
                          const std::vector<std::size_t>& ids,
                          std::size_t vocab) {
  if (grad_out.rank() != 2 || grad_out.shape()[0] != ids.size()) {
    throw llm::ShapeError("exercise::embedding_backward: grad_out is " +
                          llm::to_string(grad_out.shape()) +
                          ", want one row per id");
  }
  const std::size_t d = grad_out.shape()[1];
  std::vector<double> table(vocab * d, 0.0);  // row v at v * d
  // Output row r was a copy of table row ids[r]: its gradient goes back
  // there.
  for (std::size_t r = 0; r < ids.size(); ++r) {
    const std::size_t id = ids[r];
    if (id >= vocab) {
      throw llm::IndexError("exercise::embedding_backward: id " +
                            std::to_string(id) + " at row " +
                            std::to_string(r) + " is not below the vocab " +
                            std::to_string(vocab));
    }
    for (std::size_t j = 0; j < d; ++j) {
      table[id * d + j] = grad_out.at({id, j});
    }
  }
  return Tensor({vocab, d}, std::move(table));
}

}  // namespace exercise
