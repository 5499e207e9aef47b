// The book's implementation behind the exercise's interface: the tests
// must pass on it. The chapter's embedding on a tape, seeded with
// grad_out: the table's gradient is what its backward closure sent.
#include "exercise.hpp"

#include "llm/autograd.hpp"
#include "llm/layers.hpp"

namespace exercise {

llm::Tensor embedding_backward(const llm::Tensor& grad_out,
                               const std::vector<std::size_t>& ids,
                               std::size_t vocab) {
  if (grad_out.rank() != 2 || grad_out.shape()[0] != ids.size()) {
    throw llm::ShapeError("exercise::embedding_backward: grad_out is " +
                          llm::to_string(grad_out.shape()) +
                          ", want one row per id");
  }
  llm::Tape tape;
  const std::size_t d = grad_out.shape()[1];
  const llm::Var table = tape.leaf(llm::Tensor({vocab, d}));  // [V, d]
  tape.backward(llm::embedding(table, ids), grad_out);
  return table.grad();
}

}  // namespace exercise
