// Exercise of the broadcasting-reductions chapter: the broadcasting
// rule for two shapes, which compiles, runs, and is wrong in three
// places. Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_09
#include "exercise.hpp"

#include <algorithm>
#include <cstddef>

namespace exercise {

using llm::Shape;

std::optional<Shape> broadcast_shape(const Shape& a, const Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape shape(rank);
  // Axis k of the result, k = 0 the outermost; an operand with fewer
  // axes has none there, which counts as extent 1.
  for (std::size_t k = 0; k < rank; ++k) {
    const std::size_t ak = k < a.size() ? a[k] : 1;
    const std::size_t bk = k < b.size() ? b[k] : 1;
    if (ak != bk && ak != 1) return std::nullopt;
    shape[k] = std::max(ak, bk);
  }
  return shape;
}

}  // namespace exercise
