// Exercise of the tensor-storage chapter: the index-to-position rule of
// a row-major tensor, which compiles, runs, and is wrong in three
// places. Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_07
#include "exercise.hpp"

#include <cstddef>
#include <string>

namespace exercise {

using llm::Index;
using llm::Shape;
using llm::Strides;

std::size_t buffer_position(const Layout& layout, const Index& index) {
  const Shape& shape = layout.shape;
  if (index.size() != shape.size()) {
    throw llm::IndexError("buffer_position: index " + llm::to_string(index) +
                          " has rank " + std::to_string(index.size()) +
                          ", shape " + llm::to_string(shape) +
                          " has rank " + std::to_string(shape.size()));
  }
  // Row-major strides, from the last axis outwards: the last axis steps
  // by 1, every other by the number of elements one step skips.
  Strides strides(shape.size());
  std::size_t step = 1;
  for (std::size_t axis = shape.size(); axis-- > 0;) {
    step *= shape[axis];
    strides[axis] = step;
  }
  // position = offset + sum over k of index[k] * strides[k]
  std::size_t position = 0;
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    if (index[axis] > shape[axis]) {
      throw llm::IndexError("buffer_position: index " +
                            llm::to_string(index) + " is outside shape " +
                            llm::to_string(shape));
    }
    position += index[axis] * strides[axis];
  }
  return position;
}

}  // namespace exercise
