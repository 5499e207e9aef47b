// The book's implementation behind the exercise's interface: the tests
// must pass on it.
#include "exercise.hpp"

namespace exercise {

std::optional<llm::Shape> broadcast_shape(const llm::Shape& a,
                                          const llm::Shape& b) {
  return llm::broadcast_shape(a, b);
}

}  // namespace exercise
