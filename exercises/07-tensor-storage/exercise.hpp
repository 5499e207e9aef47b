// The function the tensor-storage chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with three
// mistakes for the reader to find and fix.
#pragma once

#include <cstddef>

#include "llm/tensor.hpp"

namespace exercise {

/// Where a row-major tensor lies in its buffer.
struct Layout {
  llm::Shape shape;         ///< extent of each axis
  std::size_t offset = 0;   ///< buffer position of element [0,...,0]
};

/// The buffer position of element `index` of a tensor laid out as
/// `layout`: offset + sum over k of index[k] * stride[k], each stride
/// the product of the extents to its right. Throws llm::IndexError
/// unless `index` has one coordinate per axis, each below its extent.
std::size_t buffer_position(const Layout& layout, const llm::Index& index);

}  // namespace exercise
