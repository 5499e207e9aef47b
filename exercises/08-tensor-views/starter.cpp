// Exercise of the tensor-views chapter: views as arithmetic on shape,
// strides and offset, which compiles, runs, and is wrong in three places.
// Fix it until the exercise tests pass:
//
//   cmake --build build --target run_exercise_08
#include "exercise.hpp"

#include <utility>

namespace exercise {

std::size_t offset_of(const Layout& layout, const llm::Index& index) {
  std::size_t at = layout.offset;
  for (std::size_t i = 0; i < index.size(); ++i) {
    at += index[i] * layout.shape[i];
  }
  return at;
}

Layout transpose(const Layout& layout, std::size_t a, std::size_t b) {
  Layout view = layout;
  std::swap(view.shape[a], view.shape[b]);
  return view;
}

Layout slice(const Layout& layout, std::size_t axis, std::size_t begin,
             std::size_t end) {
  Layout view = layout;
  view.shape[axis] = end - begin;
  return view;
}

}  // namespace exercise
