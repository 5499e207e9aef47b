// The book's implementation behind the exercise's interface: the tests
// must pass on it. The chapter's mask, then the softmax, on a tape of
// their own.
#include "exercise.hpp"

#include "llm/attention.hpp"
#include "llm/autograd.hpp"

namespace exercise {

llm::Tensor causal_probabilities(const llm::Tensor& scores) {
  if (scores.rank() != 2) {
    throw llm::ShapeError("exercise::causal_probabilities: scores is " +
                          llm::to_string(scores.shape()) + ", want [T, T]");
  }
  llm::Tape tape;
  return llm::softmax(llm::mask_future(tape.leaf(scores))).value();
}

}  // namespace exercise
