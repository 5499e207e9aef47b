// Exercise of the tensor-autodiff chapter: the gradient of
// broadcasting, which compiles, runs, and is wrong in three places. Fix
// it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_14
#include "exercise.hpp"

#include <cstddef>
#include <optional>

#include "llm/ops.hpp"

namespace exercise {

using llm::Shape;
using llm::Tensor;

Tensor sum_to(const Tensor& g, const Shape& shape) {
  const std::optional<Shape> wide = llm::broadcast_shape(shape, g.shape());
  if (!wide || *wide != g.shape()) {
    throw llm::ShapeError("exercise::sum_to: " + llm::to_string(g.shape()) +
                          " is not a broadcast of " + llm::to_string(shape));
  }
  Tensor out = g;
  // Axes that broadcasting put in front of `shape`: sum each away.
  while (out.rank() > shape.size()) {
    const Tensor s = llm::mean(out, out.rank() - 1);
    out = s.reshape(Shape(s.shape().begin(), s.shape().end() - 1));
  }
  // Axes of extent 1 in `shape` that g stretched: sum, keeping extent 1.
  for (std::size_t axis = 1; axis < shape.size(); ++axis) {
    if (shape[axis] == 1 && out.shape()[axis] != 1) {
      out = llm::sum(out, axis);
    }
  }
  return out;
}

}  // namespace exercise
