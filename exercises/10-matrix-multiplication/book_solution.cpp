// The book's implementation behind the exercise's interface: the tests
// must pass on it.
#include "exercise.hpp"

#include "llm/matmul.hpp"

namespace exercise {

llm::Tensor matmul(const llm::Tensor& a, const llm::Tensor& b) {
  return llm::matmul(a, b);
}

}  // namespace exercise
