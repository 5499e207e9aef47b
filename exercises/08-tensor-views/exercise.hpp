// What the tensor-views chapter's exercise asks for: views as arithmetic
// on a shape, strides and an offset, with no buffer at all. The exercise
// tests (tests.cpp) call them; starter.cpp defines them with three
// mistakes for the reader to find and fix.
#pragma once

#include <cstddef>

#include "llm/tensor.hpp"

namespace exercise {

/// Which buffer element each index of a tensor addresses.
struct Layout {
  llm::Shape shape;
  llm::Strides strides;
  std::size_t offset = 0;
};

/// offset + sum over axes of index[i] * strides[i], as
/// llm::Tensor::offset_of (the tests pass valid indices).
std::size_t offset_of(const Layout& layout, const llm::Index& index);

/// Axes a and b exchanged, as llm::Tensor::transpose: no element moves.
Layout transpose(const Layout& layout, std::size_t a, std::size_t b);

/// Coordinates [begin, end) of `axis` kept, as llm::Tensor::slice: the
/// view's element [0, ..., 0] is the old element with `begin` on `axis`.
Layout slice(const Layout& layout, std::size_t axis, std::size_t begin,
             std::size_t end);

}  // namespace exercise
