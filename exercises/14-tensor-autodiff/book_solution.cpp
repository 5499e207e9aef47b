// The book's implementation behind the exercise's interface: the tests
// must pass on it.
#include "exercise.hpp"

#include "llm/autograd.hpp"

namespace exercise {

llm::Tensor sum_to(const llm::Tensor& g, const llm::Shape& shape) {
  return llm::sum_to(g, shape);
}

}  // namespace exercise
