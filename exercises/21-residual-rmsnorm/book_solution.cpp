// The book's implementation behind the exercise's interface: the tests
// must pass on it. The value of llm::rms_norm on a tape of its own.
#include "exercise.hpp"

#include "llm/autograd.hpp"
#include "llm/rmsnorm.hpp"

namespace exercise {

llm::Tensor rms_norm(const llm::Tensor& x, const llm::Tensor& gain,
                     double eps) {
  llm::Tape tape;
  return llm::rms_norm(tape.leaf(x), tape.leaf(gain), eps).value();
}

}  // namespace exercise
